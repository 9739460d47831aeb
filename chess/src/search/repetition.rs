//! Draw sense: a root candidate that repeats a position of the game scores
//! as a draw.
//!
//! This module owns how the search sees the game's history: [`LoadHistory`]
//! copies the history line the turn keeps before its thread (`ending`'s
//! `Positions:` line, which a reply state may carry too) into the first
//! thread's variable [`HISTORY`] (empty when there is none), and the
//! search's root calls [`mark_candidates`] (each candidate's `rp` := whether
//! the position it leads to is one of the history's keys) and
//! [`repeats_are_even`] (such a candidate's score becomes `vocabulary::EVEN`,
//! unless it is a mate score).
//! Ahead, the engine then prefers any move that keeps its advantage to a
//! repetition; behind, it takes one. The native twin is [`repeats`]. This
//! module does not keep the history (that is `ending`) nor search.

use std::sync::Arc;

use regex_asm::ir::{RefError, WholeStateSpecial};
use regex_asm::Machine;
use regex_vm::state::{State, Thread};
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::BOARD_VAR;
use crate::rules::ending::HISTORY_PREFIX;
use crate::rules::func::{append, append_empty, get, load_into_first, local, Func};
use crate::search::vars::{HISTORY, REPEATS};
use crate::vocabulary::{self, mate_at, mated_at, EVEN, LATEST_MATE_PLY, SCORE};

/// The history line's keys (its text after `Positions:`), if `prefix`
/// starts with a history line that can be a variable's value.
fn history_of(prefix: &str) -> Option<&str> {
    let (line, _) = prefix.split_once('\n')?;
    let keys = line.strip_prefix(HISTORY_PREFIX)?;
    (!keys.contains('#')).then_some(keys)
}

/// Gives every active thread the variable [`HISTORY`]: the history
/// line's keys for the first thread when it is active and the text before
/// it starts with a history line, empty otherwise.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LoadHistory;

impl LoadHistory {
    fn load(state: &State) -> Result<State, String> {
        load_into_first(state, HISTORY, history_of(&state.prefix))
    }
}

impl WholeStateSpecial for LoadHistory {
    fn name(&self) -> String {
        "load_history".into()
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        LoadHistory::load(state).map_err(|message| RefError::Special {
            instr: self.name(),
            message,
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let p = HISTORY_PREFIX;
        let hi = HISTORY;
        vec![
            append_empty(HISTORY),
            Rewrite::new(
                format!(r"^{p}([^\n#]*)\n([^%]*%%\n[^%]*?#{hi}:)\n"),
                Template::literal(p)
                    .group(1)
                    .text("\n")
                    .group(2)
                    .group(1)
                    .text("\n"),
            )
            .with_scope(Scope::Global),
        ]
    }

    fn defines(&self) -> Vec<String> {
        vec![HISTORY.into()]
    }
}

/// The key a board line would have with `side` to move, as the rewrites
/// compare it: the side, then the 64 squares as they stand.
fn raw_key(board: &str, side: Color) -> String {
    let b = board.as_bytes();
    let mut key = String::from(if side == Color::White { "w" } else { "b" });
    key.extend(crate::board::squares().map(|i| b.get(i).copied().map_or('?', char::from)));
    key
}

/// Whether `board` with `side` to move is one of `history`'s keys (each
/// after a space). A position with an en passant square cannot repeat an
/// earlier one (a pawn just moved), so the square is compared as it
/// stands.
pub(crate) fn repeats(board: &str, side: Color, history: &str) -> bool {
    let key = raw_key(board, side);
    history.split(' ').any(|k| k == key)
}

/// Appends [`REPEATS`] to each active thread (a position with `side`
/// to move and a [`HISTORY`]): `T` when the position is in the
/// history. One rewrite per order of the two variables; each compares the
/// board's eight rows with a key's by back-references.
fn mark_repeats(side: Color) -> Func {
    let z = BOARD_VAR;
    let hi = HISTORY;
    let rp = REPEATS;
    let s = if side == Color::White { 'w' } else { 'b' };
    let rows_captured: String = (0..8).map(|_| r"/([^%\n]{8})/").collect();
    let key_captured: String = (0..8).map(|_| r"([^ %\n]{8})").collect();
    let rows_again: String = (2..=9).map(|g| format!(r"/\{g}/")).collect();
    let key_again: String = (2..=9).map(|g| format!(r"\{g}")).collect();
    Func {
        name: format!("mark_repeats_{s}"),
        rules: vec![
            local(
                r"(%%\n[^%]*)",
                Template::new().group(1).text(&format!("#{rp}:F\n")),
            ),
            local(
                format!(
                    r"(%%\n[^%]*?#{z}:{rows_captured}\n[^%]*?#{hi}:[^%\n]* {s}{key_again}[ \n][^%]*?#{rp}:)F"
                ),
                Template::new().group(1).text("T"),
            ),
            local(
                format!(
                    r"(%%\n[^%]*?#{hi}:[^%\n]*? {s}{key_captured}[ \n][^%]*?#{z}:{rows_again}\n[^%]*?#{rp}:)F"
                ),
                Template::new().group(1).text("T"),
            ),
        ],
        meaning: Arc::new(move |mut t: Thread| {
            let board = get(&t, BOARD_VAR)?;
            let history = get(&t, HISTORY)?;
            let v = if repeats(&board, side, &history) {
                "T"
            } else {
                "F"
            };
            append(&mut t, REPEATS, v)?;
            Ok(vec![t])
        }),
        defines: vec![REPEATS.into()],
        requires: vec![BOARD_VAR.into(), HISTORY.into()],
    }
}

/// Whether the search's root keeps `var` in its copy of the root thread:
/// the history, for [`mark_candidates`].
pub(crate) fn root_keeps(m: &Machine, var: &str, ply: u32) -> bool {
    ply == 1 && var == HISTORY && m.is_set(HISTORY)
}

/// At the root, once the candidates (positions with `them` to move) are
/// generated: each gets [`REPEATS`], and the history goes (nothing
/// below the root copies it). Nothing without a history.
pub(crate) fn mark_candidates(m: &mut Machine, them: Color, ply: u32) {
    if ply == 1 && m.is_set(HISTORY) {
        m.special(Arc::new(mark_repeats(them)), &[], &[]);
        m.delete(HISTORY);
    }
}

/// At the root, once each candidate has its score: a repeating one scores
/// [`EVEN`], a draw, unless its score is a mate ([`vocabulary::mate_in`]): the
/// side to move after it need not repeat, and will not when it can mate
/// (nor can it stop a mate it is under).
pub(crate) fn repeats_are_even(m: &mut Machine, ply: u32) {
    if ply == 1 && m.is_set(REPEATS) {
        m.if_(m.get(REPEATS).eq("T"), |m| {
            m.if_(m.get(SCORE).gt(mated_at(LATEST_MATE_PLY)), |m| {
                m.if_(m.get(SCORE).lt(mate_at(LATEST_MATE_PLY)), |m| {
                    m.set(SCORE, EVEN)
                });
            });
        });
        m.delete(REPEATS);
    }
}

/// A root candidate's score in a game where it repeats a position: a draw
/// unless the search scored it as a mate (the native twin of
/// [`repeats_are_even`]).
pub(crate) fn repeated_score(score: u32) -> u32 {
    if vocabulary::mate_in(score).is_some() {
        score
    } else {
        EVEN
    }
}
