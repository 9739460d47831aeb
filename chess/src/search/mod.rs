//! The search folder: the reply program (this file), the plan of node
//! kinds ([`plan`]) and one module per kind, draw sense from the game's
//! history (`repetition`), the mate guard (`guard`), the root's probe
//! hint (`hint`), and thinking on a clock: the time rule ([`clock`]) and
//! the ladder of depths it climbs ([`deepen`]).
//!
//! The engine's reply: a negamax of 2 to 6 plies, in the DSL. A search
//! is a [`plan::NodePlan`], a node kind a ply, and [`node`] is the one
//! place a node's kind chooses the code that searches it: every active
//! thread is a position, each node makes its candidates (one thread per
//! move), searches them by the node below (or scores them at the leaves)
//! and keeps the best (`reduce::KeepBest`); a [`Machine::scope`] runs the
//! node on a copy of each position, so that what it hands back on the
//! stack (`answer`) is all that reaches the position. The kinds:
//! - `full`: every move, each searched by the node below (the root with
//!   its cut off);
//! - `leaves`: the last two plies full width: each candidate evaluated
//!   (`eval::Eval`), each reply scored by how it changes that
//!   (`eval::ReplyDelta`) plus our best capture on its square
//!   (`quiesce`); the minimum over a candidate's replies is its score, a
//!   candidate without a legal reply scores [`MATE`](crate::MATE) if the
//!   opponent is in check, [`EVEN`](crate::EVEN) otherwise;
//! - `captures`: the capture plies (good captures, standing pat, every
//!   evasion in check), their positions evaluated by carrying the node
//!   above's evaluation down the moves (`eval::MoveDelta`);
//! - `probed` (with the probe), `standing`, `own_probes`: the plies
//!   above the capture plies, cut by a probe first searched;
//! - `probed_root`, `deep_root`: the root with the probe cut, and depth
//!   6's ply more.
//!
//! The score convention is `eval`'s, the state's variables `vars`'. This
//! module does not apply the move or talk to the user.

mod answer;
mod captures;
pub mod clock;
mod deep_root;
pub mod deepen;
mod full;
pub mod guard;
pub(crate) mod hint;
mod late;
mod leaves;
mod own_probes;
pub(crate) mod plan;
mod probed;
mod probed_root;
pub(crate) mod reduce;
pub(crate) mod repetition;
mod standing;
pub(crate) mod vars;

pub use deep_root::DEEP_WINDOW;
pub use plan::RootCut;

use std::sync::Arc;

use regex_asm::ir::{RefError, Special};
use regex_asm::{AsmError, Machine};
use regex_vm::state::Thread;
use regex_vm::{Program, Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::codec::{POSITION_VARS, TURN_VAR};
use crate::board::BOARD_VAR;
use crate::book::answer_or_search;
pub use crate::book::UseBook;
use crate::movegen::{moves_to_count_of, MOVE_VAR};
use crate::rules::specials::Mover;
use crate::vocabulary::{Depth, BEST, SCORE};
use plan::{At, Kind, NodePlan, Probed};
use vars::{HINT_MOVE, HISTORY};

/// Searches every active thread (a position with `us` to move) `depth`
/// plies deep. Afterwards each such thread is as before, with `[em, v]` on
/// its stack (top first) if it has a legal move and an empty stack
/// otherwise.
pub fn search_onto_stack(m: &mut Machine, us: Color, depth: Depth) {
    search_onto_stack_cut(m, us, depth, RootCut::On, None);
}

/// Which search program: the book's stage before it, late-move pruning
/// in it. The default is neither, the exact search alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Variant {
    /// The book's stage first (`book`).
    pub book: UseBook,
    /// Late-move pruning keeping that many best-looking candidates at
    /// the probed nodes below the root (the module `late`); `None`: off.
    pub late: Option<u32>,
}

impl Variant {
    /// The book's stage `book` before the exact search.
    pub fn of_book(book: UseBook) -> Variant {
        Variant { book, late: None }
    }

    /// The search with late-move pruning `late`, no book.
    pub fn of_late(late: Option<u32>) -> Variant {
        Variant {
            book: UseBook::Off,
            late,
        }
    }

    /// The variant as built at `depth`: late-move pruning is dropped where
    /// it has nothing to act on ([`late_acts`]), so that equal programs
    /// have equal variants.
    pub fn at(self, depth: Depth) -> Variant {
        Variant {
            late: self.late.filter(|_| late_acts(depth)),
            ..self
        }
    }
}

/// [`search_onto_stack`] as `variant` says: after the book's stage (with
/// [`UseBook::On`], a book position gets the book's answer on its stack
/// instead of the search's) and with its late-move pruning.
pub fn search_onto_stack_with(m: &mut Machine, us: Color, depth: Depth, variant: Variant) {
    answer_or_search(m, us, variant.book, |m| {
        search_onto_stack_cut(m, us, depth, RootCut::On, variant.late);
    });
}

/// Whether late-move pruning acts at `depth`: where its plan has a probed
/// node below the root (depths 4 to 6); elsewhere the program with it is
/// the program without it.
pub fn late_acts(depth: Depth) -> bool {
    let plan = NodePlan::of(depth, RootCut::On).with_late(Some(1));
    (1..=plan.len()).any(|ply| At::new(plan, ply).late().is_some())
}

/// [`search_onto_stack`], with the root cut `cut` and late-move pruning
/// `late`.
fn search_onto_stack_cut(
    m: &mut Machine,
    us: Color,
    depth: Depth,
    cut: RootCut,
    late: Option<u32>,
) {
    node(m, us, At::root(NodePlan::of(depth, cut).with_late(late)));
}

/// One node of the negamax search, searched as its kind says: every
/// active thread is a position with `us` to move whose candidates are at
/// `at`'s ply; each gets `[em, v]` on its stack (`v` for `us`; `em` the
/// best candidate's move, a placeholder below the root where a probed
/// node answers) or nothing when it has no legal move. A capture node's
/// threads must hold `ck` (is `us` in check?) and their evaluation.
pub(crate) fn node(m: &mut Machine, us: Color, at: At) {
    match at.kind() {
        Kind::Full => full::node(m, us, at),
        Kind::LastTwo => leaves::node(m, us, at),
        Kind::Captures => captures::node(m, us, at),
        Kind::Probed(probed) => probed::node(m, us, at, probed, false),
        Kind::ProbedRoot => probed_root::node(m, us, at),
        Kind::DeepRoot { bounded } => deep_root::node(m, us, at, bounded),
    }
}

/// The candidates of the probed node at `at`, given its probe
/// (`probed::given_probe`): made, cut as `kind` says and searched, as
/// [`node`] dispatches the node kinds; where `names_best`, each keeps its
/// move (see `own_probes::candidates`).
pub(crate) fn cut_candidates(m: &mut Machine, us: Color, at: At, kind: Probed, names_best: bool) {
    match kind {
        Probed::Standing => {
            debug_assert!(!names_best, "a standing node names no best move");
            standing::candidates(m, us, at);
        }
        Probed::OwnProbes => own_probes::candidates(m, us, at, names_best),
    }
}

/// Deletes every variable of the active threads (at `ply`) but the
/// board, those in `also`, and at the root the game's history
/// (`repetition::root_keeps`): what a node's copy does first, since
/// every variable left would be copied into each of the hundreds of
/// threads below.
pub(crate) fn strip(m: &mut Machine, ply: u32, also: &[&str]) {
    for v in m.defined_vars() {
        if v != BOARD_VAR && !also.contains(&v.as_str()) && !repetition::root_keeps(m, &v, ply) {
            m.delete(&v);
        }
    }
}

/// Each active thread a candidate a move pass just made at `ply` (its
/// move in `MOVE_VAR`): the move becomes the candidate's [`BEST`], the
/// move pass's variables go, and at the root each is marked if it
/// repeats the game (`repetition`).
pub(crate) fn name_candidates(m: &mut Machine, them: Color, ply: u32) {
    m.set(BEST, m.get(MOVE_VAR));
    m.delete(MOVE_VAR);
    m.delete(TURN_VAR);
    repetition::mark_candidates(m, them, ply);
}

/// Drops, among a node's candidates (each active thread, its move in
/// `MOVE_VAR`), the one whose move is in `searched`, and deletes
/// `searched`: whoever named it has its score already.
pub(crate) fn drop_searched_move(m: &mut Machine, searched: &str) {
    m.if_(m.get(MOVE_VAR).eq(m.get(searched)), |m| m.destroy_active());
    m.delete(searched);
}

/// Pushes `T` onto each active thread's (empty) stack where `us` has a
/// legal move with a piece moving as one of `movers`.
pub(crate) fn push_if_legal_move(m: &mut Machine, us: Color, movers: &[Mover]) {
    push_if_any(m, |m| moves_to_count_of(m, us, movers));
}

/// Pushes `T` onto each active thread's (empty) stack where `threads`,
/// run on a copy of it stripped to its board, leaves any active thread:
/// the copies' threads are joined into one, which hands `T` back.
pub(crate) fn push_if_any(m: &mut Machine, threads: impl FnOnce(&mut Machine)) {
    m.scope(|m| {
        board_only(m);
        threads(m);
        m.join();
        m.push("T");
    });
}

/// Deletes every variable of the active threads but the board.
pub(crate) fn board_only(m: &mut Machine) {
    for v in m.defined_vars() {
        if v != BOARD_VAR {
            m.delete(&v);
        }
    }
}

/// Drops every variable of each active thread but the listed ones, which
/// must stand in that order (threads without them so are left alone).
/// The stack stays.
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeepOnly(pub &'static [&'static str]);

impl Special for KeepOnly {
    fn name(&self) -> String {
        format!("keep_only_{}", self.0.join("_"))
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let found: Vec<usize> = self
            .0
            .iter()
            .filter_map(|v| t.vars.iter().position(|(n, _)| n.as_str() == *v))
            .collect();
        if found.len() == self.0.len() && found.is_sorted() {
            t.vars.retain(|(n, _)| self.0.contains(&n.as_str()));
        }
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let kept: String = self
            .0
            .iter()
            .map(|v| format!(r"[^%]*?(#{v}:[^%\n]*\n)"))
            .collect();
        let mut template = Template::new().group(1);
        for k in 0..self.0.len() {
            template = template.group(k + 2);
        }
        vec![
            Rewrite::new(format!(r"(%%\n#stack:\n[^#%]*){kept}[^%]*"), template)
                .with_scope(Scope::ActiveThread),
        ]
    }

    fn requires(&self) -> Vec<String> {
        self.0.iter().map(|v| v.to_string()).collect()
    }
}

/// Searches every active position thread for its side to move, `depth`
/// plies, and stores the result in `em` and `v` (both empty when there is
/// no legal move).
pub fn reply_dsl(m: &mut Machine, depth: Depth) {
    reply_dsl_cut(m, depth, RootCut::On, Variant::default());
}

/// [`reply_dsl`] as `variant` says (see [`search_onto_stack_with`]).
pub fn reply_dsl_with(m: &mut Machine, depth: Depth, variant: Variant) {
    reply_dsl_cut(m, depth, RootCut::On, variant);
}

/// [`reply_dsl`], with the root cut `cut`, as `variant` says.
fn reply_dsl_cut(m: &mut Machine, depth: Depth, cut: RootCut, variant: Variant) {
    m.assume_set(&POSITION_VARS);
    m.special(Arc::new(repetition::LoadHistory), &[], &[]);
    m.special(Arc::new(hint::LoadHint), &[], &[]);
    m.if_else(
        m.get(TURN_VAR).eq("w"),
        |m| {
            answer_or_search(m, Color::White, variant.book, |m| {
                search_onto_stack_cut(m, Color::White, depth, cut, variant.late);
            });
        },
        |m| {
            answer_or_search(m, Color::Black, variant.book, |m| {
                search_onto_stack_cut(m, Color::Black, depth, cut, variant.late);
            });
        },
    );
    m.delete(HISTORY);
    m.delete(HINT_MOVE);
    store_result(m);
}

/// Pops `[em, v]` (or nothing) into the variables.
pub fn store_result(m: &mut Machine) {
    m.if_stack_empty(
        |m| {
            m.set(BEST, "");
            m.set(SCORE, "");
        },
        |m| {
            m.pop_into(&[BEST, SCORE]);
        },
    );
}

/// The assembled reply program searching `depth` plies.
///
/// # Errors
///
/// Only if the program breaks an assembler rule (a bug).
pub fn reply_program(depth: Depth) -> Result<Program, AsmError> {
    reply_program_cut(depth, RootCut::On)
}

/// The reply program searching `depth` plies as `variant` says (the
/// default: [`reply_program`]'s program byte for byte).
///
/// # Errors
///
/// As [`reply_program`].
pub fn reply_program_with(depth: Depth, variant: Variant) -> Result<Program, AsmError> {
    regex_asm::assemble(|m| reply_dsl_cut(m, depth, RootCut::On, variant))
}

/// The reply program searching `depth` plies with the root cut `cut`
/// (`reply_program`'s is `On`).
///
/// # Errors
///
/// As [`reply_program`].
pub fn reply_program_cut(depth: Depth, cut: RootCut) -> Result<Program, AsmError> {
    regex_asm::assemble(|m| reply_dsl_cut(m, depth, cut, Variant::default()))
}
