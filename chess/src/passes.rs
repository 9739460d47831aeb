//! The built programs: each chess program (the move, reply and turn
//! programs) assembled and compiled once per depth and variant for the
//! process, kept in caches this module owns, and built ahead on every core
//! ([`build_passes`]) so that a game on a clock does not pay for them on
//! its first moves. It builds and hands out programs; it does not run
//! them (the entry points at the crate's root do).

use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use regex_vm::{Config, Executor, Program};

use crate::error::{BuildError, Error};
use crate::game::turn;
use crate::{movegen, search, Depth, Variant};

/// One of the chess programs (the move, reply or turn program) and its
/// compiled executor, built once per program and depth.
pub struct Pass {
    /// The rewrites.
    pub program: Program,
    /// The executor.
    pub executor: Executor,
}

/// The executor's listing: the program, one line per instruction, each
/// rewrite with the path the executor runs it on.
impl std::fmt::Debug for Pass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pass: {:?}", self.executor)
    }
}

static MOVE_PASS: OnceLock<Result<Pass, Arc<BuildError>>> = OnceLock::new();

/// The legal-move pass (built and compiled on first use).
///
/// # Errors
///
/// [`Error::Assemble`] if the program cannot be built.
pub fn move_pass() -> Result<&'static Pass, Error> {
    MOVE_PASS
        .get_or_init(|| {
            let program = movegen::legal_moves_program(movegen::Options::default())
                .map_err(|e| Arc::new(e.into()))?;
            let executor =
                Executor::new(&program, Config::default()).map_err(|e| Arc::new(e.into()))?;
            Ok(Pass { program, executor })
        })
        .as_ref()
        .map_err(|e| Error::Assemble(Arc::clone(e)))
}

/// The number of search depths programs are built for.
const DEPTHS: usize = (Depth::MAX.plies() - Depth::MIN.plies() + 1) as usize;

type Cache = [OnceLock<Result<Pass, Arc<BuildError>>>; DEPTHS];

/// The reply programs and their executors, one per depth, built once.
static REPLY: Cache = [const { OnceLock::new() }; DEPTHS];
/// The turn programs and their executors, one per depth, built once.
static TURN: Cache = [const { OnceLock::new() }; DEPTHS];

/// The executor settings for a search of `depth` plies: deeper searches
/// hold more threads at once (see `bench --depth`), so their state cap is
/// 64 MiB instead of the default 16 MiB.
pub fn config_for(depth: Depth) -> Config {
    let mut config = Config::default();
    if depth > Depth::MIN {
        config.max_state_bytes = 64 << 20;
    }
    config
}

fn cached(
    cache: &'static Cache,
    depth: Depth,
    build: impl FnOnce(Depth) -> Result<Program, regex_asm::AsmError>,
) -> Result<&'static Pass, Error> {
    cache[depth.index()]
        .get_or_init(|| {
            let program = build(depth).map_err(|e| Arc::new(e.into()))?;
            let executor =
                Executor::new(&program, config_for(depth)).map_err(|e| Arc::new(e.into()))?;
            Ok(Pass { program, executor })
        })
        .as_ref()
        .map_err(|e| Error::Assemble(Arc::clone(e)))
}

/// The reply program searching `depth` plies (built and compiled on first
/// use).
///
/// # Errors
///
/// [`Error::Assemble`] if the program cannot be built.
pub fn reply_pass(depth: Depth) -> Result<&'static Pass, Error> {
    cached(&REPLY, depth, search::reply_program)
}

/// Which of the searching programs: the reply program (a position in,
/// the best move out) or the turn program (a game's screen in, the next
/// screen out).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Reply,
    Turn,
}

/// The programs of the variants other than the default
/// (`search::Variant`: the book's stage, late-move pruning), each kind,
/// depth and variant built once when first asked for and kept for the
/// process (a process asks for a few).
static VARIANTS: Mutex<Vec<Built>> = Mutex::new(Vec::new());

type Built = (Kind, Depth, Variant, &'static Pass);

/// The program of `kind` and `variant` for `depth` among `built`.
fn find(built: &[Built], kind: Kind, depth: Depth, variant: Variant) -> Option<&'static Pass> {
    built
        .iter()
        .find(|(k, d, v, _)| *k == kind && *d == depth && *v == variant)
        .map(|&(_, _, _, pass)| pass)
}

/// The program of `kind` and `variant` already built for `depth`, if any.
fn variant_built(kind: Kind, depth: Depth, variant: Variant) -> Option<&'static Pass> {
    let built = VARIANTS.lock().unwrap_or_else(PoisonError::into_inner);
    find(&built, kind, depth, variant)
}

/// The program of `kind` searching `depth` plies as `variant` (not the
/// default) says, built and compiled on first use.
fn variant_pass(kind: Kind, depth: Depth, variant: Variant) -> Result<&'static Pass, Error> {
    if let Some(pass) = variant_built(kind, depth, variant) {
        return Ok(pass);
    }
    // Built without the lock, so that a search asking for another depth
    // does not wait for this one; a second build of the same is dropped.
    let assemble = |e: BuildError| Error::Assemble(Arc::new(e));
    let program = match kind {
        Kind::Reply => search::reply_program_with(depth, variant),
        Kind::Turn => turn::turn_program_with(depth, variant),
    }
    .map_err(|e| assemble(e.into()))?;
    let executor = Executor::new(&program, config_for(depth)).map_err(|e| assemble(e.into()))?;
    let mut built = VARIANTS.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(pass) = find(&built, kind, depth, variant) {
        return Ok(pass);
    }
    let pass: &'static Pass = Box::leak(Box::new(Pass { program, executor }));
    built.push((kind, depth, variant, pass));
    Ok(pass)
}

/// The reply program searching `depth` plies as `variant` says (the
/// book's stage first, late-move pruning), built and compiled on first
/// use; [`reply_pass`] for the default variant, and where late-move
/// pruning has nothing to act on (`search::late_acts`: depths 2 and 3)
/// the program without it.
///
/// # Errors
///
/// As [`reply_pass`].
pub fn reply_pass_with(depth: Depth, variant: Variant) -> Result<&'static Pass, Error> {
    pass_with(Kind::Reply, depth, variant)
}

/// The program of `kind` searching `depth` plies as `variant` says: the
/// default one's cache for the default variant and where late-move
/// pruning has nothing to act on (`Variant::at`), else the variants'.
fn pass_with(kind: Kind, depth: Depth, variant: Variant) -> Result<&'static Pass, Error> {
    let variant = variant.at(depth);
    match kind {
        _ if variant != Variant::default() => variant_pass(kind, depth, variant),
        Kind::Reply => reply_pass(depth),
        Kind::Turn => turn_pass(depth),
    }
}

/// Builds the reply programs (`turn`: the turn programs) of `depths`, on
/// as many threads as the machine has cores, each taking the next depth
/// of the list (so the first ones are ready first), so that a game on a
/// clock does not pay for them on its first moves.
///
/// # Errors
///
/// The first failure, as [`reply_pass`] / [`turn_pass`] give it.
pub fn build_passes(depths: &[Depth], turn: bool) -> Result<(), Error> {
    build_passes_with(depths, turn, Variant::default())
}

/// [`build_passes`] of the programs of `variant`.
///
/// # Errors
///
/// As [`build_passes`].
pub fn build_passes_with(depths: &[Depth], turn: bool, variant: Variant) -> Result<(), Error> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(depths.len());
    let build = |d: Depth| {
        if turn {
            turn_pass_with(d, variant).map(|_| ())
        } else {
            reply_pass_with(d, variant).map(|_| ())
        }
    };
    let take = || depths.get(next.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    std::thread::scope(|scope| {
        let builds: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut built = Ok(());
                    while let Some(&d) = take() {
                        built = built.and(build(d));
                    }
                    built
                })
            })
            .collect();
        builds.into_iter().try_for_each(|b| {
            b.join()
                .unwrap_or(Err(Error::BadOutput("a build that panicked")))
        })
    })
}

/// The reply program searching `depth` plies if it is built already
/// (`None` while it is being built or before: a move on a clock does not
/// wait for it).
pub fn reply_pass_built(depth: Depth) -> Option<&'static Pass> {
    REPLY[depth.index()]
        .get()
        .and_then(|built| built.as_ref().ok())
}

/// [`reply_pass_built`] for the programs of `variant`.
pub fn reply_pass_built_with(depth: Depth, variant: Variant) -> Option<&'static Pass> {
    let variant = variant.at(depth);
    if variant == Variant::default() {
        reply_pass_built(depth)
    } else {
        variant_built(Kind::Reply, depth, variant)
    }
}

/// The turn program, the engine searching `depth` plies (built and
/// compiled on first use).
///
/// # Errors
///
/// [`Error::Assemble`] if the program cannot be built.
pub fn turn_pass(depth: Depth) -> Result<&'static Pass, Error> {
    cached(&TURN, depth, turn::turn_program)
}

/// The turn program of `variant` (the book's stage first, late-move
/// pruning), built and compiled on first use; [`turn_pass`] for the
/// default variant, as [`reply_pass_with`] chooses.
///
/// # Errors
///
/// As [`turn_pass`].
pub fn turn_pass_with(depth: Depth, variant: Variant) -> Result<&'static Pass, Error> {
    pass_with(Kind::Turn, depth, variant)
}
