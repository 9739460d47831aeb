//! Shared machinery of the integration tests: random states and random
//! well-formed instruction sequences for the differential tests, and small
//! helpers to run a program on the VM.
//!
//! It owns test inputs, and comparisons that return what differs (the
//! regex reply against the reference search); every assertion lives in
//! `tests/`.

#![forbid(unsafe_code)]

use std::sync::Arc;

use proptest::prelude::*;
use regex_asm::interpret;
use regex_asm::ir::{Instr, RefError, Special, JOIN_PASSES};
use regex_vm::state::{State, Tag, Thread, VarName};
use regex_vm::{Config, Executor, Program, Rewrite, Scope, Template};

/// A special instruction for the tests: the top item, three times.
#[derive(Debug)]
pub struct Triple;

impl Special for Triple {
    fn name(&self) -> String {
        "triple".into()
    }
    fn apply(&self, mut thread: Thread) -> Result<Vec<Thread>, RefError> {
        let top = thread
            .stack
            .first()
            .cloned()
            .ok_or(RefError::StackUnderflow {
                instr: self.name(),
                have: 0,
                need: 1,
            })?;
        thread.stack.insert(0, top.clone());
        thread.stack.insert(0, top);
        Ok(vec![thread])
    }
    fn rewrites(&self) -> Vec<Rewrite> {
        vec![Rewrite::new(
            r"%%\n#stack:\n([^#%\n]*\n)",
            Template::literal("%%\n#stack:\n")
                .group(1)
                .group(1)
                .group(1),
        )
        .with_scope(Scope::ActiveThread)]
    }
    fn stack_effect(&self) -> (usize, usize) {
        (1, 3)
    }
}

/// Number of proptest cases: `PROPTEST_CASES` if set, else `default`.
pub fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The property tests' configuration: [`cases`]`(default)` cases, and a
/// failing case saved, shrunk, beside the test's source file
/// (`NAME.proptest-regressions`, as the VM crate's tests keep theirs) and
/// replayed first on every later run. (proptest's default would put it
/// in a `proptest-regressions/` folder beside the test binary's
/// `main.rs`'s folder.)
pub fn proptest_config(default: u32) -> ProptestConfig {
    ProptestConfig {
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::WithSource("proptest-regressions"),
        )),
        ..ProptestConfig::with_cases(cases(default))
    }
}

/// Values the generators draw from: booleans, integers (with carries and
/// borrows in reach), and strings with regex metacharacters.
pub const VALUES: &[&str] = &[
    "T", "F", "0", "1", "7", "9", "10", "99", "100", "909", "12345678", "99999999", "", "a", "x y",
    "a.b", "(", ")|*", "T ", "e2e4", "k:q", "$1", "\\",
];
/// The screen text a generated `boot` writes before its one thread.
const BOOT_PREFIX: &str = "booted\n";
/// Variable names the generators use.
pub const VARS: &[&str] = &["a", "b", "x", "board"];
/// Tags the generators use.
pub const TAGS: &[&str] = &["p", "q", "t1"];

fn value() -> impl Strategy<Value = String> {
    prop::sample::select(VALUES).prop_map(str::to_string)
}

fn thread() -> impl Strategy<Value = Thread> {
    (
        prop::option::weighted(0.3, prop::sample::select(TAGS)),
        prop::collection::vec(value(), 0..4),
        prop::collection::btree_map(prop::sample::select(VARS), value(), 0..4),
    )
        .prop_map(|(tag, stack, vars)| Thread {
            tag: tag.map(Tag::must),
            stack,
            vars: vars
                .into_iter()
                .map(|(k, v)| (VarName::must(k), v))
                .collect(),
        })
}

/// A random state: some screen text, then one to four threads; now and
/// then the empty state, the only one on which `boot` does anything.
pub fn state() -> impl Strategy<Value = State> {
    let some = (
        prop::sample::select(&["", "screen\n", "board # 1.e4 e5\nyour move: "][..]),
        prop::collection::vec(thread(), 1..5),
    )
        .prop_map(|(prefix, threads)| State {
            prefix: prefix.to_string(),
            threads,
        });
    prop_oneof![9 => some, 1 => Just(State::default())]
}

/// All instruction shapes the generator picks from, given random choices.
/// Multi-instruction chunks give the optimizer something to fuse.
fn candidates(c: &Choice) -> Vec<Vec<Instr>> {
    let x = VarName::must(VARS[c.var % VARS.len()]);
    let t = Tag::must(TAGS[c.tag % TAGS.len()]);
    let v = VALUES[c.value % VALUES.len()].to_string();
    let w = VALUES[c.other % VALUES.len()].to_string();
    let one = |i: Instr| vec![i];
    vec![
        one(Instr::Boot(format!(
            "{BOOT_PREFIX}%%\n#stack:\n{v}\n#a:{w}\n"
        ))),
        one(Instr::Push(v.clone())),
        one(Instr::Pop),
        one(Instr::Dup),
        one(Instr::Swap),
        one(Instr::Lookup(x.clone())),
        one(Instr::AssignPop(x.clone())),
        one(Instr::Delete(x.clone())),
        one(Instr::Set(x.clone(), v.clone())),
        one(Instr::Cond(t.clone())),
        one(Instr::Pause(t.clone())),
        one(Instr::Reactivate(t.clone())),
        one(Instr::DestroyActive),
        one(Instr::ForkInactive(t.clone())),
        one(Instr::ForkBool),
        one(Instr::ForkList(vec![v.clone(), w.clone(), "z".into()])),
        one(Instr::Join),
        one(Instr::Absorb(t.clone())),
        one(Instr::StackEmpty),
        one(Instr::Eq),
        one(Instr::Not),
        one(Instr::And),
        one(Instr::Or),
        one(Instr::IsAny(vec![v.clone(), w.clone()])),
        one(Instr::IsAny(vec![])),
        one(Instr::Concat),
        one(Instr::Add),
        one(Instr::Sub),
        one(Instr::Lt),
        one(Instr::VarEq(x.clone(), v.clone())),
        one(Instr::CondVarIn(x.clone(), vec![v.clone()], t.clone())),
        one(Instr::CondVarIn(
            x.clone(),
            vec![v.clone(), w.clone()],
            t.clone(),
        )),
        one(Instr::CondVarIn(x.clone(), vec![], t.clone())),
        vec![
            Instr::Lookup(x.clone()),
            Instr::IsAny(vec![v.clone(), w.clone()]),
            Instr::Cond(t.clone()),
        ],
        vec![Instr::Push(v.clone()), Instr::AssignPop(x.clone())],
        vec![Instr::Lookup(x.clone()), Instr::Push(v.clone()), Instr::Eq],
        vec![
            Instr::Push(v.clone()),
            Instr::Lookup(x.clone()),
            Instr::Eq,
            Instr::Cond(t.clone()),
        ],
        vec![Instr::Push(v), Instr::Push(w), Instr::Add],
        one(Instr::Special(Arc::new(Triple))),
    ]
}

/// Random choices for one generator step.
#[derive(Debug, Clone)]
pub struct Choice {
    kind: usize,
    var: usize,
    tag: usize,
    value: usize,
    other: usize,
}

fn choice() -> impl Strategy<Value = Choice> {
    (0usize..64, 0usize..8, 0usize..8, 0usize..64, 0usize..64).prop_map(
        |(kind, var, tag, value, other)| Choice {
            kind,
            var,
            tag,
            value,
            other,
        },
    )
}

/// Most threads a generated program may create (joins must stay exact).
const MAX_THREADS: usize = 12;

/// Turns random choices into a well-formed program for `start`: each step
/// picks, among the candidates, the first (from a random offset) that the
/// reference interpreter accepts in the current state.
pub fn build_program(start: &State, choices: &[Choice]) -> Vec<Instr> {
    const { assert!(MAX_THREADS <= 1 << JOIN_PASSES) };
    let mut state = start.clone();
    let mut out = Vec::new();
    for c in choices {
        let cands = candidates(c);
        for k in 0..cands.len() {
            let chunk = &cands[(c.kind + k) % cands.len()];
            let mut next = state.clone();
            if interpret::run(chunk, &mut next).is_ok() && next.threads.len() <= MAX_THREADS {
                state = next;
                out.extend(chunk.iter().cloned());
                break;
            }
        }
    }
    out
}

/// A random state and a well-formed program for it.
pub fn state_and_program() -> impl Strategy<Value = (State, Vec<Instr>)> {
    (state(), prop::collection::vec(choice(), 1..16)).prop_map(|(s, cs)| {
        let p = build_program(&s, &cs);
        (s, p)
    })
}

/// Runs `program` on `state` with the given executor configuration.
///
/// # Panics
///
/// If the program does not compile or the run fails (tests only).
pub fn run_vm(program: &Program, state: &str, config: Config) -> String {
    let exec = Executor::new(program, config).expect("program compiles");
    let mut s = state.to_string();
    exec.run(&mut s).expect("run succeeds");
    s
}

/// The naive executor's configuration.
pub fn naive() -> Config {
    Config {
        naive: true,
        ..Config::default()
    }
}

/// The search depth of `plies`, for tests that name depths as numbers.
///
/// # Panics
///
/// On a depth the programs are not built for (a mistake in the test).
pub fn depth(plies: u32) -> chess::Depth {
    chess::Depth::new(plies).expect("a depth the programs are built for")
}

/// Chess helpers, re-exported from the chess crate.
pub mod positions {
    pub use chess::games::{flip_fen, random_game, Rng};

    use chess::codec::{fen_of, parse_fen};
    use chess::reference::{best_score, move_score};
    use shakmaty::uci::UciMove;
    use shakmaty::{Chess, Position};

    /// Up to `want` positions (as FEN) where `wanted` holds, from random
    /// games of 8 to 57 plies played from the start with the seeds
    /// `first_seed..first_seed + 400`, keeping only positions with 1 to
    /// `max_moves` legal moves (the tests search them at depth 3).
    pub fn positions_where(
        first_seed: u64,
        want: usize,
        max_moves: usize,
        mut wanted: impl FnMut(&Chess) -> bool,
    ) -> Vec<String> {
        let mut found = Vec::new();
        for seed in first_seed..first_seed + 400 {
            let mut rng = Rng::new(seed);
            let plies = 8 + rng.below(50);
            let pos = random_game(&Chess::default(), &mut rng, plies);
            let n = pos.legal_moves().len();
            if n == 0 || n > max_moves || !wanted(&pos) {
                continue;
            }
            found.push(fen_of(&pos));
            if found.len() == want {
                break;
            }
        }
        found
    }

    /// The regex reply at `depth` against the reference at the same
    /// depth: the same best score, and the chosen move is legal and
    /// reaches it (`Err` says how they differ; the tests assert on it).
    /// A search whose state outgrew its cap and answered shallower
    /// (`chess::search`) is an `Err` too: the test did not check the
    /// depth it asked for. `Ok` holds the regex search's answer, for a
    /// test that checks more of it without searching again.
    ///
    /// # Errors
    ///
    /// A message naming the position, the move and both scores.
    pub fn regex_reply_matches_reference(
        fen: &str,
        depth: chess::Depth,
    ) -> Result<Option<(String, u32)>, String> {
        let pos = parse_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
        let searched = chess::search(fen, &[], depth).map_err(|e| format!("{fen}: {e}"))?;
        if searched.depth != depth {
            return Err(format!(
                "{fen}: the depth-{depth} search outgrew its state cap and depth {} answered",
                searched.depth
            ));
        }
        match (searched.best, best_score(&pos, depth)) {
            (None, None) => Ok(None),
            (Some((uci, score)), Some(best)) => {
                let m = uci
                    .parse::<UciMove>()
                    .map_err(|e| format!("{fen}: bad move {uci}: {e}"))?
                    .to_move(&pos)
                    .map_err(|e| format!("{fen}: illegal move {uci}: {e}"))?;
                let reached = move_score(&pos, m, depth);
                if score != best || reached != best {
                    return Err(format!(
                        "{fen} (depth {depth}): regex plays {uci} claiming {score}, it reaches {reached}; best is {best}"
                    ));
                }
                Ok(Some((uci, score)))
            }
            (got, want) => Err(format!("{fen}: regex {got:?}, reference {want:?}")),
        }
    }

    /// The regex search with late-move pruning keeping `late` against
    /// the native search with the same rule (`reference::Select`'s
    /// `lmp`, metered in the regex program's shape): the same score, and
    /// the regex program's move one of the native search's best.
    ///
    /// # Errors
    ///
    /// A message naming the position, the depth and both answers.
    pub fn late_reply_matches_selective(
        fen: &str,
        depth: chess::Depth,
        late: u32,
    ) -> Result<Option<(String, u32)>, String> {
        use chess::reference::cost::Meter;
        use chess::reference::{best_moves_selective, Select, SEARCHED};
        use shakmaty::CastlingMode;
        let pos = parse_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
        let searched = chess::search_variant(fen, &[], depth, chess::Variant::of_late(Some(late)))
            .map_err(|e| format!("{fen}: {e}"))?;
        if searched.depth != depth {
            return Err(format!("{fen}: depth {} answered", searched.depth));
        }
        let select = Select {
            lmp: Some(late),
            ..Select::NONE
        };
        let mut meter = Meter::unlimited();
        let native = best_moves_selective(&pos, depth.plan(), "", SEARCHED, select, &mut meter)
            .map_err(|e| format!("{fen}: {e}"))?;
        let native = native.map(|(moves, score)| {
            let names: Vec<String> = moves
                .iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect();
            (names, score)
        });
        match (searched.best, native) {
            (None, None) => Ok(None),
            (Some((uci, score)), Some((names, best))) if score == best && names.contains(&uci) => {
                Ok(Some((uci, score)))
            }
            (got, want) => Err(format!(
                "{fen} (depth {depth}, lmp:{late}): regex {got:?}, native {want:?}"
            )),
        }
    }

    /// Whether a regex search's answer in `pos` (`fen`), the move `uci`
    /// claiming `score`, reaches that score at `depth` by the reference
    /// (`Err` says what it reaches; the tests assert on it).
    ///
    /// # Errors
    ///
    /// A message naming the position, the move and both scores.
    pub fn claim_is_reached(
        fen: &str,
        pos: &Chess,
        (uci, score): (&str, u32),
        depth: chess::Depth,
    ) -> Result<(), String> {
        let m = uci
            .parse::<UciMove>()
            .map_err(|e| format!("{fen}: bad move {uci}: {e}"))?
            .to_move(pos)
            .map_err(|e| format!("{fen}: illegal move {uci}: {e}"))?;
        let reached = move_score(pos, m, depth);
        if reached != score {
            return Err(format!("{fen}: {uci} claims {score}, reaches {reached}"));
        }
        Ok(())
    }
}
