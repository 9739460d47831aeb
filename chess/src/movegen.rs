//! The legal-move program, written in the DSL.
//!
//! From every active thread holding a position (see `codec`), it makes one
//! thread per legal move, holding the position after the move and the move
//! in UCI notation in variable `m`. It is built from the special
//! instructions of `specials` plus generic instructions for the side to
//! move and the clocks. It does not know about games, screens or search.

use std::sync::Arc;

use regex_asm::{AsmError, Machine};
use regex_vm::Program;
use shakmaty::Color;

use crate::board::codec::{FULLMOVE_VAR, HALFMOVE_VAR, POSITION_VARS, TURN_VAR};
use crate::board::{letter, pieces};
use crate::eval::good_captures::GoodCaptures;
use crate::eval::quiesce::Recapture;
use crate::eval::threats::{ThreatGain, Threatened};
use crate::eval::MoveDelta;
use crate::rules::func::increment;
use crate::rules::specials::{
    piece_moves, select_pieces, select_pieces_of, Mover, Stage, Targets, CAPTURED, FROM, PIECE,
    PROMOTION, TO,
};

/// The variable holding the move just made (UCI).
pub const MOVE_VAR: &str = "m";

/// What the move pass updates besides the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Update the halfmove clock and fullmove number (a search that never
    /// prints the position can skip them).
    pub clocks: bool,
    /// Keep the move's parts (`f`, `pc`, `x`, `u`, `t`) for the caller, who
    /// must delete them before the next move pass.
    pub keep_parts: bool,
    /// The positions are only evaluated, never moved from or shown (the
    /// search's second ply): no move name, no side flip, no clean-up; the
    /// parts `pc`, `f`, `x`, `u`, `t` stay, the last variables of each
    /// thread, in that order.
    pub leaf: bool,
    /// Compute `eval::MoveDelta` for this side's evaluation once the move
    /// is made, leaving `dv` (the search's capture plies carry an
    /// evaluation down this way).
    pub delta: Option<Color>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            clocks: true,
            keep_parts: false,
            leaf: false,
            delta: None,
        }
    }
}

impl Options {
    /// Options for a search's first ply: no clocks, parts deleted.
    pub const QUIET: Options = Options {
        clocks: false,
        keep_parts: false,
        leaf: false,
        delta: None,
    };
    /// Options for a search's second ply: positions to evaluate only.
    pub const LEAF: Options = Options {
        clocks: false,
        keep_parts: true,
        leaf: true,
        delta: None,
    };
    /// [`Options::QUIET`] with the move's change of `c`'s evaluation in
    /// `dv`.
    pub const fn quiet_with_delta(c: Color) -> Options {
        Options {
            delta: Some(c),
            ..Options::QUIET
        }
    }
}

/// The FEN letter of a side (`w`, `b`).
pub(crate) fn side_letter(c: Color) -> &'static str {
    match c {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// Records the move pass for colour `c` (the side to move of every active
/// thread).
pub fn legal_moves_for(m: &mut Machine, c: Color, options: Options) {
    move_pass(m, c, options, Targets::All, false);
}

/// As [`legal_moves_for`], the legal good captures only (en passant and
/// capturing promotions included; `good_captures`): a search's capture
/// plies.
pub fn legal_captures_for(m: &mut Machine, c: Color, options: Options) {
    move_pass(m, c, options, Targets::Captures, false);
}

/// The move pass for colour `c` in [`Options::LEAF`] mode, each move also
/// given the other side's gain from capturing on its destination
/// (`quiesce::Recapture`) or elsewhere (`threats`, where the candidate has
/// `threats::THREAT_VAR`), whichever is more, consumed by
/// `quiesce::LeafDelta`.
pub fn leaf_moves_with_recaptures(m: &mut Machine, c: Color) {
    move_pass(m, c, Options::LEAF, Targets::All, true);
}

/// As [`leaf_moves_with_recaptures`], the legal good captures only.
pub fn leaf_captures_with_recaptures(m: &mut Machine, c: Color) {
    move_pass(m, c, Options::LEAF, Targets::Captures, true);
}

/// For a search that asks only whether a legal move exists: one thread
/// per legal move of the pieces moving as `movers` (it tries the king's
/// first, and the others only where the king has none), each fit for
/// nothing but counting. The stages a legality test does not need are
/// left out: no promotion choice (one thread per promoting move, the pawn
/// left on the last rank), no destination name, no castling rook moved
/// after the test, no en passant mark cleared.
pub fn moves_to_count_of(m: &mut Machine, c: Color, movers: &[Mover]) {
    m.special(Arc::new(select_pieces_of(c, movers)), &[], &[]);
    by_mover(m, c, movers, Targets::All);
    m.special(Arc::new(Stage::Place(c)), &[], &[]);
    m.special(Arc::new(Stage::DropIllegal(c)), &[], &[]);
}

fn move_pass(m: &mut Machine, c: Color, options: Options, to: Targets, recaptures: bool) {
    let threatened = recaptures && options.leaf;
    match to {
        Targets::All => pseudo_legal(m, c, &Mover::ALL, to, threatened),
        // A capture ply's leaves have no threat term (`search`).
        Targets::Captures => captures_by_group(m, c),
    }
    legal_stages(m, c, options, recaptures);
}

/// Stages 1 and 2 for the pieces moving as `movers`: one thread per
/// pseudo-legal move among `to` (with `threatened`, each also given the
/// threat its piece's moves leave standing, `threats`).
fn pseudo_legal(m: &mut Machine, c: Color, movers: &[Mover], to: Targets, threatened: bool) {
    if movers == Mover::ALL {
        m.special(Arc::new(select_pieces(c)), &[], &[]);
    } else {
        m.special(Arc::new(select_pieces_of(c, movers)), &[], &[]);
    }
    if threatened {
        m.special(Arc::new(Threatened(c)), &[], &[]);
    }
    by_mover(m, c, movers, to);
}

/// Kinds of piece whose captures are generated together: the capture
/// plies run on every position of the ply before, tens of thousands, and
/// a thread per piece of all of them at once would be most of the state.
const CAPTURE_GROUPS: [&[Mover]; 3] = [
    &[Mover::Pawn],
    &[Mover::Knight, Mover::Bishop],
    &[Mover::Rook, Mover::Queen, Mover::King],
];

/// Stages 1 and 2 of a capture pass, one group of kinds of piece at a
/// time (the threads of the others' pieces are never made at the same
/// time), each group's captures cut to the good ones (`good_captures`)
/// before the next group's pieces are selected.
fn captures_by_group(m: &mut Machine, c: Color) {
    let mut done = Vec::new();
    for (k, group) in CAPTURE_GROUPS.iter().enumerate() {
        let rest = (k + 1 < CAPTURE_GROUPS.len()).then(|| m.fork_inactive());
        pseudo_legal(m, c, group, Targets::Captures, false);
        m.special(Arc::new(GoodCaptures(c)), &[], &[]);
        if let Some(rest) = rest {
            done.push(m.pause());
            m.reactivate(rest);
        }
    }
    for group in done {
        m.reactivate(group);
    }
}

/// Stages 3 and on of a move pass: promotion, naming, (the recapture gain
/// and the threat term,)
/// placing, the legality test and what a move changes besides the board.
fn legal_stages(m: &mut Machine, c: Color, options: Options, recaptures: bool) {
    m.special(Arc::new(Stage::Promote(c)), &[], &[]);
    m.special(Arc::new(Stage::NameTarget), &[], &[]);
    if recaptures && options.leaf {
        m.special(Arc::new(Recapture(c)), &[], &[]);
        m.special(Arc::new(ThreatGain), &[], &[]);
    }
    for stage in Stage::after_move(c) {
        m.special(Arc::new(stage), &[], &[]);
    }
    if let Some(c) = options.delta {
        // The parts are still the last variables.
        m.special(Arc::new(MoveDelta(c)), &[], &[]);
    }
    if options.leaf {
        return;
    }
    m.set(
        MOVE_VAR,
        m.get(FROM).concat(m.get(TO)).concat(m.get(PROMOTION)),
    );
    if options.clocks {
        let pawn = letter(c, 'P').to_string();
        let enemy: Vec<String> = pieces(!c).chars().map(String::from).collect();
        m.if_else(
            m.get(PIECE).eq(pawn.as_str()) | m.get(CAPTURED).is_any(&enemy),
            |m| m.set(HALFMOVE_VAR, 0u32),
            |m| m.special(Arc::new(increment(HALFMOVE_VAR)), &[], &[]),
        );
        if c == Color::Black {
            m.special(Arc::new(increment(FULLMOVE_VAR)), &[], &[]);
        }
    }
    m.set(TURN_VAR, side_letter(!c));
    if !options.keep_parts {
        for v in [FROM, PIECE, CAPTURED, PROMOTION, TO] {
            m.delete(v);
        }
    }
}

/// `if pc is one of movers[0] { its moves } else { the rest }`, so that
/// every thread takes exactly one branch and the tracer sees `x`, `u` set.
fn by_mover(m: &mut Machine, c: Color, movers: &[Mover], to: Targets) {
    let Some((first, rest)) = movers.split_first() else {
        return;
    };
    if rest.is_empty() {
        m.special(Arc::new(piece_moves(c, *first, to)), &[], &[]);
        return;
    }
    let letters: Vec<String> = first
        .letters()
        .iter()
        .map(|l| letter(c, l.chars().next().unwrap_or('?')).to_string())
        .collect();
    m.if_else(
        m.get(PIECE).is_any(&letters),
        |m| m.special(Arc::new(piece_moves(c, *first, to)), &[], &[]),
        |m| by_mover(m, c, rest, to),
    );
}

/// Records the move pass for whichever side is to move.
pub fn legal_moves_dsl(m: &mut Machine, options: Options) {
    m.assume_set(&POSITION_VARS);
    m.if_else(
        m.get(TURN_VAR).eq("w"),
        |m| legal_moves_for(m, Color::White, options),
        |m| legal_moves_for(m, Color::Black, options),
    );
}

/// The assembled move pass.
///
/// # Errors
///
/// Only if the program breaks an assembler rule (a bug).
pub fn legal_moves_program(options: Options) -> Result<Program, AsmError> {
    regex_asm::assemble(|m| legal_moves_dsl(m, options))
}

#[cfg(test)]
mod tests {
    use super::moves_to_count_of;
    use crate::board::codec::{encode, thread_of, POSITION_VARS};
    use crate::games::sample_positions;
    use crate::rules::specials::Mover;
    use regex_vm::state::State;
    use regex_vm::{Config, Executor};
    use shakmaty::{Chess, Color, Position};
    use std::collections::BTreeSet;

    /// The counting pass for `mover` (all movers), compiled.
    fn counting_pass(mover: Color) -> Executor {
        let program = regex_asm::assemble(|m| {
            m.assume_set(&POSITION_VARS);
            moves_to_count_of(m, mover, &Mover::ALL);
        })
        .expect("the counting pass assembles");
        Executor::new(&program, Config::default()).expect("compiles")
    }

    /// The threads `executor` (the counting pass for the side to move)
    /// makes from `pos`, run on the VM.
    fn counted(executor: &Executor, pos: &Chess) -> usize {
        let mut text = State {
            prefix: String::new(),
            threads: vec![thread_of(&encode(pos))],
        }
        .render();
        executor.run(&mut text).expect("runs");
        State::parse(&text).expect("a state").threads.len()
    }

    /// One thread per legal move, a promotion counted once (its piece is
    /// not chosen), on positions with every special move and on random
    /// games.
    #[test]
    fn the_counting_pass_makes_a_thread_per_legal_move() {
        let positions = sample_positions(
            &[
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                "8/2p5/3p4/KP5r/1R2Pp1k/8/6P1/8 b - e3 0 1",
                "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                "4k3/8/8/1pP5/8/8/8/4K3 w - b6 0 1",
                "1r2k3/P7/8/8/8/8/6p1/4K2R b K - 0 1",
                // In check, the only answer a promotion that blocks.
                "r6K/6P1/8/2k5/8/3b4/8/8 w - - 0 1",
                // Mate: nothing.
                "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
            ],
            29,
        );
        let passes = [counting_pass(Color::White), counting_pass(Color::Black)];
        for pos in positions {
            let executor = &passes[usize::from(pos.turn() == Color::Black)];
            let moves: BTreeSet<_> = pos
                .legal_moves()
                .into_iter()
                .map(|m| (m.from(), m.to()))
                .collect();
            assert_eq!(
                counted(executor, &pos),
                moves.len(),
                "{}",
                crate::board::codec::fen_of(&pos)
            );
        }
    }
}
