//! One turn of a game as one pass of one regex list.
//!
//! The state between turns is the screen (`screen`). The person's line is
//! appended; one pass of the turn program: boots an empty state into the
//! start screen, sanitizes the line, parses the screen into a thread
//! (with the hint line an input may start with, `search::hint`, loaded
//! into it for the engine's search), applies the person's move if it is
//! legal (otherwise the same position comes back with a one-line
//! message), lets the engine reply with the search of the program's depth
//! (`search`), notices checkmate, stalemate and the draws of `ending`
//! after every move (and at once on a position that is already over),
//! names both moves in SAN (`notation`) and the engine's score in words
//! (`wording`), and renders the next screen with the check on its status
//! line. Everything here is DSL code; this module owns the turn's
//! flow and its messages, writes no SAN or score text itself, and knows
//! the screen only through `screen`'s instructions and variable names.

use std::sync::Arc;

use regex_asm::{AsmError, Expr, Machine};
use regex_vm::Program;
use shakmaty::Color;

use crate::board::codec::TURN_VAR;
use crate::game::any_move_into;
use crate::game::notation::san;
use crate::game::screen::{
    players_line, side_words, ParseScreen, Render, Sanitize, ENGINE_VAR, GAME_OVER,
    INPUT_CLASS_VAR, INPUT_VAR, MESSAGE_VAR, NEW_INFO_VAR, PLAYERS_VAR, PROMPT, PROMPT_VAR,
    RENDER_VARS, SIDE_WORD_VAR,
};
use crate::game::wording::score_text;
use crate::movegen::{legal_moves_dsl, Options, MOVE_VAR};
use crate::rules::ending::{dead_material, fifty_moves, NotePosition, DEAD_VAR, FIFTY_VAR};
use crate::rules::specials::{Stage, CHECK_VAR};
use crate::search::hint::{DropHintLine, LoadHint};
use crate::search::vars::{HINT_MOVE, HISTORY};
use crate::search::{search_onto_stack_with, Variant};
use crate::vocabulary::{Depth, BEST, SCORE};

const OK: &str = "ok";

/// How the last-moves line of a screen tells the engine's move.
pub const ENGINE_PLAYED: &str = "The engine played ";

/// The engine's move a last-moves line tells (`e7e5` in `The engine
/// played e7e5 (e5), ...`), if it tells one.
pub fn engine_move(info: &str) -> Option<&str> {
    let (_, rest) = info.split_once(ENGINE_PLAYED)?;
    rest.split(' ').next().filter(|mv| !mv.is_empty())
}

/// The screen of the default game: the standard position, the person
/// playing white.
///
/// # Panics
///
/// Never: the standard position is a valid screen.
pub fn default_start_screen() -> String {
    crate::game::screen::start_screen(crate::board::codec::START_FEN, Some(Color::Black))
        .expect("the standard position is valid")
}

/// Records one turn, the engine searching `depth` plies.
pub fn turn_dsl(m: &mut Machine, depth: Depth) {
    turn_dsl_with(m, depth, Variant::default());
}

/// [`turn_dsl`], the engine searching as `variant` says: from the book
/// first, with late-move pruning (`search::search_onto_stack_with`).
pub fn turn_dsl_with(m: &mut Machine, depth: Depth, variant: Variant) {
    m.boot(&default_start_screen());
    m.special(Arc::new(Sanitize), &[], &[]);
    m.special(Arc::new(ParseScreen), &[], &[]);
    // The hint line, if the input had one, goes into the thread for the
    // engine's search (the root's probe, `search::hint`) and off the text.
    m.special(Arc::new(LoadHint), &[], &[]);
    m.special(Arc::new(DropHintLine), &[], &[]);
    m.set(NEW_INFO_VAR, "");
    m.set(MESSAGE_VAR, "");
    m.set(PROMPT_VAR, PROMPT);
    for v in [PERSON_MOVE, PERSON_SAN, PERSON_SIGN, ENGINE_LINE] {
        m.set(v, "");
    }
    // Nothing typed (a new game, or the engine to move first): a position
    // that is already over says so at once.
    m.if_(m.get(INPUT_CLASS_VAR).eq("none"), |m| {
        m.if_else(
            m.get(TURN_VAR).eq("w"),
            |m| already_over(m, Color::White),
            |m| already_over(m, Color::Black),
        )
    });
    // With the engine on the other side (or no engine) the person moves.
    m.if_(
        m.get(TURN_VAR).ne(m.get(ENGINE_VAR)) & m.get(PROMPT_VAR).eq(PROMPT),
        person_turn,
    );
    m.if_(
        m.get(TURN_VAR).eq(m.get(ENGINE_VAR)) & m.get(PROMPT_VAR).eq(PROMPT),
        |m| {
            m.if_else(
                m.get(ENGINE_VAR).eq("w"),
                |m| engine_turn(m, Color::White, depth, variant),
                |m| engine_turn(m, Color::Black, depth, variant),
            )
        },
    );
    m.delete(HINT_MOVE);
    compose_info(m);
    render(m);
}

/// The person's move (UCI), its SAN and its check sign, set when it is
/// played.
const PERSON_MOVE: &str = "pm";
const PERSON_SAN: &str = "ps";
const PERSON_SIGN: &str = "psx";
/// The engine's part of the last-moves line.
const ENGINE_LINE: &str = "el";

/// The last-moves line from the moves of this turn (empty when none was
/// played: the old line stays).
fn compose_info(m: &mut Machine) {
    m.if_(m.get(PERSON_MOVE).ne(""), |m| {
        m.set(
            NEW_INFO_VAR,
            Expr::from("You played ")
                .concat(m.get(PERSON_MOVE))
                .concat(" (")
                .concat(m.get(PERSON_SAN))
                .concat(m.get(PERSON_SIGN))
                .concat(")."),
        )
    });
    m.if_(m.get(ENGINE_LINE).ne(""), |m| {
        m.if_else(
            m.get(NEW_INFO_VAR).eq(""),
            |m| m.set(NEW_INFO_VAR, m.get(ENGINE_LINE)),
            |m| {
                m.set(
                    NEW_INFO_VAR,
                    m.get(NEW_INFO_VAR).concat(" ").concat(m.get(ENGINE_LINE)),
                )
            },
        )
    });
    for v in [PERSON_MOVE, PERSON_SAN, PERSON_SIGN, ENGINE_LINE] {
        m.delete(v);
    }
}

/// The position on the screen, `side` to move, before anyone moves: over
/// if `side` has no legal move, or by insufficient material or the
/// fifty-move rule (a repetition needs moves).
fn already_over(m: &mut Machine, side: Color) {
    has_moves_into(m, side, "hm0");
    m.if_else(
        m.get("hm0").eq("F"),
        |m| declare_result(m, side),
        |m| {
            draw_checks(m, None);
        },
    );
    m.delete("hm0");
}

/// Sets the message and `Game over.` for the first draw that holds:
/// insufficient material, the fifty-move rule, then (when `repetition` names
/// the variable holding it) threefold repetition. The caller has ruled out
/// mate and stalemate.
fn draw_checks(m: &mut Machine, repetition: Option<&str>) {
    m.special(Arc::new(dead_material()), &[], &[]);
    m.special(Arc::new(fifty_moves()), &[], &[]);
    m.if_else(
        m.get(DEAD_VAR).eq("T"),
        |m| draw(m, "Draw by insufficient material."),
        |m| {
            m.if_else(
                m.get(FIFTY_VAR).eq("T"),
                |m| draw(m, "Draw by the fifty-move rule."),
                |m| {
                    if let Some(rep) = repetition {
                        m.if_(m.get(rep).eq("T"), |m| {
                            draw(m, "Draw by threefold repetition.")
                        });
                    }
                },
            )
        },
    );
    m.delete(DEAD_VAR);
    m.delete(FIFTY_VAR);
}

fn draw(m: &mut Machine, message: &str) {
    m.set(MESSAGE_VAR, message);
    m.set(PROMPT_VAR, GAME_OVER);
}

/// After `us` moved (the thread holds the new position): the position goes
/// into the history (`rep` := its third occurrence), `ck1` := the side to
/// move is in check, `hm1` := it has a legal move when that must be known
/// here (`need_moves`, or the fifty-move rule is due: a mate on the 100th
/// halfmove is a mate); then the game ends if it is over, and `sx` is the
/// move's check sign (`~` for mate, written `#` on the screen).
fn after_move(m: &mut Machine, us: Color, need_moves: impl Fn(&Machine) -> Expr) {
    m.special(Arc::new(NotePosition), &[], &["rep"]);
    in_check_into(m, !us, "ck1");
    m.special(Arc::new(fifty_moves()), &[], &[]);
    m.set("hm1", "T");
    let need = need_moves(m) | m.get(FIFTY_VAR).eq("T");
    m.if_(need, |m| has_moves_into(m, !us, "hm1"));
    m.delete(FIFTY_VAR);
    m.if_else(
        m.get("ck1").eq("T"),
        |m| m.set("sx", "+"),
        |m| m.set("sx", ""),
    );
    m.if_else(
        m.get("hm1").eq("F"),
        |m| {
            m.if_(m.get("ck1").eq("T"), |m| m.set("sx", "~"));
            declare_result(m, !us);
        },
        |m| draw_checks(m, Some("rep")),
    );
    for v in ["rep", "ck1", "hm1"] {
        m.delete(v);
    }
}

/// The assembled turn program, the engine searching `depth` plies.
///
/// # Errors
///
/// Only if the program breaks an assembler rule (a bug).
pub fn turn_program(depth: Depth) -> Result<Program, AsmError> {
    regex_asm::assemble(|m| turn_dsl(m, depth))
}

/// The turn program whose engine searches as `variant` says (with the
/// default, [`turn_program`]).
///
/// # Errors
///
/// As [`turn_program`].
pub fn turn_program_with(depth: Depth, variant: Variant) -> Result<Program, AsmError> {
    regex_asm::assemble(|m| turn_dsl_with(m, depth, variant))
}

/// The same turn program in the stack style ([`regex_asm::lower_stack`]):
/// the same screens, written as a foreign stack machine writes them (a
/// benchmark of programs the executor did not write).
///
/// # Errors
///
/// Only if the program breaks an assembler rule (a bug).
pub fn turn_stack_program(depth: Depth) -> Result<Program, AsmError> {
    let ir = regex_asm::trace(|m| turn_dsl(m, depth))?;
    Ok(regex_asm::lower_stack(&regex_asm::optimize(&ir))?)
}

/// The same turn program in the hand-written style
/// ([`regex_asm::lower_hand`]): the same screens, written as a person
/// writes regexes for Python's `re` (a benchmark of such programs).
///
/// # Errors
///
/// Only if the program breaks an assembler rule (a bug).
pub fn turn_hand_program(depth: Depth) -> Result<Program, AsmError> {
    let ir = regex_asm::trace(|m| turn_dsl(m, depth))?;
    Ok(regex_asm::lower_hand(&regex_asm::optimize(&ir))?)
}

/// Why a line is not a move, by its sanitized class.
const MESSAGES: [(&str, &str); 8] = [
    (
        "help",
        "Moves: from and to squares, like e2e4 or g1f3; e7e8q promotes (e7e8 means a queen); e1g1 castles.",
    ),
    ("quit", "To stop, close the program (the regex machine cannot quit)."),
    ("empty", "Type a move, like e2e4."),
    ("lines", "One move per line, please."),
    ("chars", "That line has characters no move has."),
    ("long", "That line is too long to be a move."),
    (
        "square",
        "No such square or piece: files a-h, ranks 1-8, promotions q r b n.",
    ),
    (
        "syntax",
        "Not a move. Type moves like e2e4, or e7e8q to promote.",
    ),
];

fn person_turn(m: &mut Machine) {
    m.if_else(
        m.get(INPUT_CLASS_VAR).eq(OK),
        |m| {
            m.if_else(
                m.get(TURN_VAR).eq("w"),
                |m| person_move(m, Color::White),
                |m| person_move(m, Color::Black),
            );
        },
        |m| {
            for (class, text) in MESSAGES {
                m.if_(m.get(INPUT_CLASS_VAR).eq(class), |m| {
                    m.set(MESSAGE_VAR, text)
                });
            }
        },
    );
}

/// The person, playing `us`, typed a move: named in SAN on the position
/// before it, played if legal, then the game may end.
fn person_move(m: &mut Machine, us: Color) {
    m.set(BEST, m.get(INPUT_VAR));
    san(m, us);
    m.delete(BEST);
    apply_uci(m, INPUT_VAR);
    m.if_else(
        m.get("ok").eq("T"),
        |m| {
            m.set(PERSON_MOVE, m.get(MOVE_VAR));
            m.set(PERSON_SAN, m.get("san"));
            // Between two people nobody else will notice a mate; against
            // the engine its search does.
            after_move(m, us, |m| m.get(ENGINE_VAR).eq("n"));
            m.set(PERSON_SIGN, m.get("sx"));
            m.delete("sx");
        },
        |m| {
            m.set(
                MESSAGE_VAR,
                m.get(INPUT_VAR).concat(" is not a legal move here."),
            );
        },
    );
    m.delete("san");
}

/// `side`, to move, has no legal move: checkmate (who won, in the words of
/// the game: "you", "the engine", or the winning colour between two
/// people) or stalemate, and the game is over.
fn declare_result(m: &mut Machine, side: Color) {
    in_check_into(m, side, "ck2");
    let winner = match !side {
        Color::White => "Checkmate: white wins.",
        Color::Black => "Checkmate: black wins.",
    };
    let side_code = if side == Color::White { "w" } else { "b" };
    m.if_else(
        m.get("ck2").eq("T"),
        |m| {
            m.if_else(
                m.get(ENGINE_VAR).eq("n"),
                |m| m.set(MESSAGE_VAR, winner),
                |m| {
                    m.if_else(
                        m.get(ENGINE_VAR).eq(side_code),
                        |m| m.set(MESSAGE_VAR, "Checkmate: you win."),
                        |m| m.set(MESSAGE_VAR, "Checkmate: the engine wins."),
                    )
                },
            )
        },
        |m| m.set(MESSAGE_VAR, "Stalemate: draw."),
    );
    m.set(PROMPT_VAR, GAME_OVER);
}

/// Plays the legal move named by variable `want` (`e7e8` means `e7e8q`):
/// afterwards `ok` is `T` and the thread holds the new position and `m`,
/// or `ok` is `F` and the thread is unchanged.
pub fn apply_uci(m: &mut Machine, want: &str) {
    m.set("ok", "F");
    m.set(MOVE_VAR, "");
    let original = m.fork_inactive();
    legal_moves_dsl(m, Options::default());
    m.if_else(
        m.get(MOVE_VAR).eq(m.get(want)) | m.get(MOVE_VAR).eq(m.get(want).concat("q")),
        |m| m.set("ok", "T"),
        |m| m.destroy_active(),
    );
    m.reactivate(original);
    m.join();
}

/// `dst` := whether colour `c`'s king is attacked.
fn in_check_into(m: &mut Machine, c: Color, dst: &str) {
    m.special(Arc::new(Stage::InCheck(c)), &[], &[]);
    m.set(dst, m.get(CHECK_VAR));
    m.delete(CHECK_VAR);
}

fn has_moves_into(m: &mut Machine, c: Color, dst: &str) {
    any_move_into(m, c, dst, |_| {}, |_| Expr::from(true));
}

fn engine_turn(m: &mut Machine, us: Color, depth: Depth, variant: Variant) {
    // The history rides into the search's root (draw sense) and no
    // further.
    m.special(Arc::new(crate::search::repetition::LoadHistory), &[], &[]);
    search_onto_stack_with(m, us, depth, variant);
    m.delete(HISTORY);
    m.if_stack_empty(
        |m| {
            // The person's move left the engine nothing: mate or stalemate.
            in_check_into(m, us, "ck3");
            m.if_(m.get("ck3").eq("T"), |m| m.set(PERSON_SIGN, "~"));
            m.delete("ck3");
            declare_result(m, us)
        },
        |m| {
            m.pop_into(&[BEST, SCORE]);
            san(m, us);
            apply_uci(m, BEST);
            after_move(m, us, |_| Expr::from(true));
            score_text(m, us);
            let line = Expr::from(ENGINE_PLAYED)
                .concat(m.get(BEST))
                .concat(" (")
                .concat(m.get("san"))
                .concat(m.get("sx"))
                .concat("), score ")
                .concat(m.get("st"))
                .concat(".");
            m.set(ENGINE_LINE, line);
            for v in ["san", "sx", "st", BEST, SCORE] {
                m.delete(v);
            }
        },
    );
}

fn render(m: &mut Machine) {
    m.if_else(
        m.get(TURN_VAR).eq("w"),
        |m| status_side(m, Color::White),
        |m| status_side(m, Color::Black),
    );
    m.set(PLAYERS_VAR, players_line(None));
    for (code, engine) in [("w", Color::White), ("b", Color::Black)] {
        m.if_(m.get(ENGINE_VAR).eq(code), |m| {
            m.set(PLAYERS_VAR, players_line(Some(engine)))
        });
    }
    for name in RENDER_VARS.iter().rev() {
        m.set(name, m.get(name));
    }
    m.special(Arc::new(Render), &[], &[]);
}

/// `sw` := the status line's start for `side` to move, with the check.
fn status_side(m: &mut Machine, side: Color) {
    in_check_into(m, side, "ckr");
    m.if_else(
        m.get("ckr").eq("T"),
        |m| m.set(SIDE_WORD_VAR, side_words(side, true)),
        |m| m.set(SIDE_WORD_VAR, side_words(side, false)),
    );
    m.delete("ckr");
}
