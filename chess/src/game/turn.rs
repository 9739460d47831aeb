//! One turn of a game as one pass of one regex list.
//!
//! The state between turns is the screen (`screen`). The person's line is
//! appended; one pass of the turn program: boots an empty state into the
//! start screen, sanitizes the line, parses the screen into a thread,
//! applies the person's move if it is legal (otherwise the same position
//! comes back with a one-line message), lets the engine reply with the
//! search of the program's depth (`search`), notices checkmate, stalemate and the draws of
//! `ending` after every move (and at once on a position that is already
//! over), names both moves in SAN, and renders the next screen with the
//! check on its status line. Everything here is DSL code; this module knows the
//! screen only through `screen`'s instructions and variable names.

use std::sync::Arc;

use regex_asm::ir::Instr;
use regex_asm::{AsmError, Expr, Machine};
use regex_vm::state::{Thread, VarName};
use regex_vm::{Program, Template};
use shakmaty::Color;

use crate::board::codec::TURN_VAR;
use crate::board::{letter, name_at, pieces, squares, ANY, BOARD_VAR};
use crate::game::screen::{
    players_line, side_words, ParseScreen, Render, Sanitize, ENGINE_VAR, GAME_OVER,
    INPUT_CLASS_VAR, INPUT_VAR, MESSAGE_VAR, NEW_INFO_VAR, PLAYERS_VAR, PROMPT, PROMPT_VAR,
    RENDER_VARS, SIDE_WORD_VAR,
};
use crate::movegen::{legal_moves_dsl, legal_moves_for, Options, MOVE_VAR};
use crate::rules::ending::{dead_material, fifty_moves, NotePosition, DEAD_VAR, FIFTY_VAR};
use crate::rules::func::{append, get, local, Func};
use crate::rules::specials::{Stage, CHECK_VAR, FROM, PIECE, TO};
use crate::search::search_onto_stack;
use crate::vocabulary::{Depth, BEST, SCORE};

const OK: &str = "ok";

fn var(name: &str) -> VarName {
    VarName::must(name)
}

/// How the last-moves line of a screen tells the engine's move.
pub const ENGINE_PLAYED: &str = "The engine played ";

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
    m.boot(&default_start_screen());
    m.special(Arc::new(Sanitize), &[], &[]);
    m.special(Arc::new(ParseScreen), &[], &[]);
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
                |m| engine_turn(m, Color::White, depth),
                |m| engine_turn(m, Color::Black, depth),
            )
        },
    );
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

/// `dst` := whether colour `c` (to move) has a legal move satisfying
/// `cond` (evaluated in each move's thread, parts kept, after `prepare`).
fn any_move_into(
    m: &mut Machine,
    c: Color,
    dst: &str,
    prepare: impl FnOnce(&mut Machine),
    cond: impl Fn(&Machine) -> Expr,
) {
    let copy = m.fork_inactive();
    let root = m.pause();
    m.reactivate(copy);
    legal_moves_for(
        m,
        c,
        Options {
            clocks: false,
            keep_parts: true,
            leaf: false,
            delta: None,
        },
    );
    prepare(m);
    let test = cond(m);
    m.if_else(
        test,
        |m| m.emit_raw(Instr::Push("T".into())),
        |m| m.destroy_active(),
    );
    m.absorb(&root);
    m.destroy_active();
    m.reactivate(root);
    m.if_stack_empty(
        |m| m.set(dst, "F"),
        |m| {
            m.emit_raw(Instr::Pop);
            m.set(dst, "T");
        },
    );
}

fn has_moves_into(m: &mut Machine, c: Color, dst: &str) {
    any_move_into(m, c, dst, |_| {}, |_| Expr::from(true));
}

fn engine_turn(m: &mut Machine, us: Color, depth: Depth) {
    // The history rides into the search's root (draw sense) and no
    // further.
    m.special(Arc::new(crate::search::repetition::LoadHistory), &[], &[]);
    search_onto_stack(m, us, depth);
    m.delete(crate::search::repetition::HISTORY_VAR);
    m.if_stack_empty(
        |m| {
            // The person's move left the engine nothing: mate or stalemate.
            in_check_into(m, us, "ck3");
            m.if_(m.get("ck3").eq("T"), |m| m.set(PERSON_SIGN, "~"));
            m.delete("ck3");
            declare_result(m, us)
        },
        |m| {
            m.emit_raw(Instr::AssignPop(var(BEST)));
            m.emit_raw(Instr::AssignPop(var(SCORE)));
            m.assume_set(&[BEST, SCORE]);
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

/// `st` := the score as the person reads it, from the engine's (`us`)
/// side: `+1.2 for black (pawns)`, or `mate in 2 for black` (see
/// [`mate_words`]).
fn score_text(m: &mut Machine, us: Color) {
    let whose = match us {
        Color::White => " for white",
        Color::Black => " for black",
    };
    m.special(Arc::new(mate_words(us)), &[], &[]);
    m.if_else(
        m.get(MATE_WORDS).ne(""),
        |m| m.set("st", m.get(MATE_WORDS)),
        |m| {
            m.if_else(
                m.get(SCORE).ge(5000u32),
                |m| {
                    m.set("sd", m.get(SCORE) - 5000u32);
                    m.set("sg", "+");
                },
                |m| {
                    m.set("sd", Expr::from(5000u32) - m.get(SCORE));
                    m.set("sg", "-");
                },
            );
            m.special(Arc::new(tenths("sd")), &[], &[]);
            m.set(
                "st",
                m.get("sg")
                    .concat(m.get("sd"))
                    .concat(whose)
                    .concat(" (pawns)"),
            );
            m.delete("sd");
            m.delete("sg");
        },
    );
    m.delete(MATE_WORDS);
}

/// The variable [`mate_words`] sets.
const MATE_WORDS: &str = "mt";

/// The words for a mate score of `us` (the engine), `mate in 2 for white`
/// (the side that mates), as [`crate::vocabulary::mate_in`] reads the score;
/// empty for any other score.
pub fn mate_text(score: &str, us: Color) -> String {
    let side = |c: Color| match c {
        Color::White => "white",
        Color::Black => "black",
    };
    match score.parse().ok().and_then(crate::vocabulary::mate_in) {
        Some(n) if n > 0 => format!("mate in {n} for {}", side(us)),
        Some(n) => format!("mate in {} for {}", n.unsigned_abs(), side(!us)),
        None => String::new(),
    }
}

/// Appends `mt`, [`mate_text`] of the score `v`: one rewrite appends it
/// empty, then one rewrite per mate score (every score [`mate_text`] has
/// words for) fills it in.
pub fn mate_words(us: Color) -> Func {
    let mut rules = vec![local(
        r"(%%\n[^%]*)",
        Template::new().group(1).text(&format!("#{MATE_WORDS}:\n")),
    )];
    for score in 0..=2 * crate::vocabulary::EVEN {
        let words = mate_text(&score.to_string(), us);
        if !words.is_empty() {
            rules.push(local(
                format!(r"(%%\n[^%]*?#{SCORE}:{score}\n[^%]*?#{MATE_WORDS}:)\n"),
                Template::new().group(1).text(&words).text("\n"),
            ));
        }
    }
    Func {
        name: format!("mate_words_{}", if us == Color::White { "w" } else { "b" }),
        rules,
        meaning: Arc::new(move |mut t: Thread| {
            let words = mate_text(&get(&t, SCORE)?, us);
            append(&mut t, MATE_WORDS, words)?;
            Ok(vec![t])
        }),
        defines: vec![MATE_WORDS.into()],
        requires: vec![SCORE.into()],
    }
}

/// `x` (an integer in tenths) := `x/10` with one decimal (`23` -> `2.3`).
pub fn tenths(x: &str) -> Func {
    let name = x.to_string();
    Func {
        name: format!("tenths_{x}"),
        rules: vec![
            local(
                format!(r"(%%\n[^%]*?#{x}:)([0-9]+)([0-9])\n"),
                Template::new()
                    .group(1)
                    .group(2)
                    .text(".")
                    .group(3)
                    .text("\n"),
            ),
            local(
                format!(r"(%%\n[^%]*?#{x}:)([0-9])\n"),
                Template::new().group(1).text("0.").group(2).text("\n"),
            ),
        ],
        meaning: Arc::new(move |mut t: Thread| {
            let v = get(&t, &name)?;
            if v.is_empty() || !v.bytes().all(|b| b.is_ascii_digit()) {
                return Err(format!("{v:?} is not a number"));
            }
            let (int, dec) = v.split_at(v.len() - 1);
            let int = if int.is_empty() { "0" } else { int };
            crate::rules::func::replace(&mut t, &name, format!("{int}.{dec}"))?;
            Ok(vec![t])
        }),
        defines: vec![],
        requires: vec![x.to_string()],
    }
}

/// Appends the parts of the move in `em` seen on the board before it is
/// played: `uf ut upr` (from, to, promotion letter), `uff ufr` (from's
/// file and rank), `utf` (to's file), `upc` (the piece on `uf`), `utc`
/// (what stands on `ut`).
pub fn move_parts() -> Func {
    let mut rules = vec![
        local(
            format!(r"(%%\n[^%]*?#{BEST}:([a-h][1-8])([a-h][1-8])([qrbn]?)\n[^%]*)"),
            Template::new()
                .group(1)
                .text("#uf:")
                .group(2)
                .text("\n#ut:")
                .group(3)
                .text("\n#upr:")
                .group(4)
                .text("\n"),
        ),
        local(
            r"(%%\n[^%]*?#uf:([a-h])([1-8])\n#ut:([a-h])[^%]*)",
            Template::new()
                .group(1)
                .text("#uff:")
                .group(2)
                .text("\n#ufr:")
                .group(3)
                .text("\n#utf:")
                .group(4)
                .text("\n"),
        ),
    ];
    for (square_var, dst) in [("uf", "upc"), ("ut", "utc")] {
        for i in squares() {
            rules.push(local(
                format!(
                    r"(%%\n[^%]*?#{BOARD_VAR}:{ANY}{{{i}}}({ANY})[^%]*?#{square_var}:{}\n[^%]*)",
                    name_at(i)
                ),
                Template::new()
                    .group(1)
                    .text(&format!("#{dst}:"))
                    .group(2)
                    .text("\n"),
            ));
        }
    }
    Func {
        name: "move_parts".into(),
        rules,
        meaning: Arc::new(|mut t: Thread| {
            let em = get(&t, BEST)?;
            let b = em.as_bytes();
            let square = |s: &[u8]| {
                s.len() == 2 && (b'a'..=b'h').contains(&s[0]) && (b'1'..=b'8').contains(&s[1])
            };
            if !(em.len() == 4 || em.len() == 5) || !square(&b[0..2]) || !square(&b[2..4]) {
                return Err(format!("{em:?} is not a move"));
            }
            let board = get(&t, BOARD_VAR)?;
            let at = |name: &str| -> Result<String, String> {
                let i = crate::board::index_of(name).ok_or("bad square")?;
                Ok(board[i..i + 1].to_string())
            };
            let (uf, ut) = (&em[0..2], &em[2..4]);
            for (n, v) in [
                ("uf", uf.to_string()),
                ("ut", ut.to_string()),
                ("upr", em[4..].to_string()),
                ("uff", uf[0..1].to_string()),
                ("ufr", uf[1..2].to_string()),
                ("utf", ut[0..1].to_string()),
                ("upc", at(uf)?),
                ("utc", at(ut)?),
            ] {
                append(&mut t, n, v)?;
            }
            Ok(vec![t])
        }),
        defines: ["uf", "ut", "upr", "uff", "ufr", "utf", "upc", "utc"]
            .map(String::from)
            .to_vec(),
        requires: vec![BEST.into(), BOARD_VAR.into()],
    }
}

/// Appends `ff` and `fr`, the file and rank of the move's from-square `f`.
pub fn from_parts() -> Func {
    Func {
        name: "from_parts".into(),
        rules: vec![local(
            format!(r"(%%\n[^%]*?#{FROM}:([a-h])([1-8])\n[^%]*)"),
            Template::new()
                .group(1)
                .text("#ff:")
                .group(2)
                .text("\n#fr:")
                .group(3)
                .text("\n"),
        )],
        meaning: Arc::new(|mut t: Thread| {
            let f = get(&t, FROM)?;
            if f.len() != 2 {
                return Err(format!("{f:?} is not a square"));
            }
            append(&mut t, "ff", &f[0..1])?;
            append(&mut t, "fr", &f[1..2])?;
            Ok(vec![t])
        }),
        defines: vec!["ff".into(), "fr".into()],
        requires: vec![FROM.into()],
    }
}

/// `san` := the standard algebraic notation of `em` (without the check
/// sign), computed on the position before the move.
fn san(m: &mut Machine, us: Color) {
    m.special(Arc::new(move_parts()), &[], &[]);
    let rooks = [letter(us, 'R').to_string(), letter(us, 'T').to_string()];
    let king = letter(us, 'K').to_string();
    let home = if us == Color::White { "1" } else { "8" };
    let same_kind = move |m: &Machine| {
        m.get(PIECE).eq(m.get("upc")) | (m.get(PIECE).is_any(&rooks) & m.get("upc").is_any(&rooks))
    };
    let rival =
        move |m: &Machine| same_kind(m) & m.get(TO).eq(m.get("ut")) & m.get(FROM).ne(m.get("uf"));
    // Rivals: other pieces of the same kind that can go to the same square,
    // and whether one shares the file, or the rank, of the move's square.
    let parts = |m: &mut Machine| m.special(Arc::new(from_parts()), &[], &[]);
    let rival = &rival;
    for v in ["rv", "rvf", "rvr"] {
        m.set(v, "F");
    }
    // Only a knight, bishop, rook or queen can have a rival; the file and
    // the rank matter only when there is one.
    let officers: Vec<String> = "NBRTQ".chars().map(|c| letter(us, c).to_string()).collect();
    m.if_(m.get("upc").is_any(&officers), |m| {
        any_move_into(m, us, "rv", |_| {}, rival);
        m.if_(m.get("rv").eq("T"), |m| {
            any_move_into(m, us, "rvf", parts, |m| {
                rival(m) & m.get("ff").eq(m.get("uff"))
            });
            any_move_into(m, us, "rvr", parts, |m| {
                rival(m) & m.get("fr").eq(m.get("ufr"))
            });
        });
    });
    let pawn = letter(us, 'P').to_string();
    // A person's `e7e8` means `e7e8q`.
    let last_rank: Vec<String> = ["a", "b", "c", "d", "e", "f", "g", "h"]
        .iter()
        .map(|f| format!("{f}{}", if us == Color::White { 8 } else { 1 }))
        .collect();
    m.if_(
        m.get("upc").eq(pawn.as_str()) & m.get("upr").eq("") & m.get("ut").is_any(&last_rank),
        |m| m.set("upr", "q"),
    );
    let enemy: Vec<String> = pieces(!us).chars().map(String::from).collect();
    m.if_else(
        m.get("upc").eq(pawn.as_str()),
        |m| {
            m.if_else(
                m.get("uff").eq(m.get("utf")),
                |m| m.set("san", m.get("ut")),
                |m| m.set("san", m.get("uff").concat("x").concat(m.get("ut"))),
            );
            for p in ["q", "r", "b", "n"] {
                m.if_(m.get("upr").eq(p), |m| {
                    m.set("san", m.get("san").concat("=").concat(p.to_uppercase()))
                });
            }
        },
        |m| {
            let short = Expr::from(format!("e{home}")).eq(m.get("uf"))
                & m.get("ut").eq(format!("g{home}"))
                & m.get("upc").eq(king.as_str());
            let long = Expr::from(format!("e{home}")).eq(m.get("uf"))
                & m.get("ut").eq(format!("c{home}"))
                & m.get("upc").eq(king.as_str());
            m.if_else(
                short,
                |m| m.set("san", "O-O"),
                |m| {
                    m.if_else(
                        long,
                        |m| m.set("san", "O-O-O"),
                        |m| piece_san(m, us, &enemy),
                    )
                },
            );
        },
    );
    for v in [
        "uf", "ut", "upr", "uff", "ufr", "utf", "upc", "utc", "rv", "rvf", "rvr",
    ] {
        m.delete(v);
    }
}

fn piece_san(m: &mut Machine, us: Color, enemy: &[String]) {
    m.set("pl", "K");
    for (upper, chars) in [
        ("N", vec![letter(us, 'N')]),
        ("B", vec![letter(us, 'B')]),
        ("R", vec![letter(us, 'R'), letter(us, 'T')]),
        ("Q", vec![letter(us, 'Q')]),
    ] {
        let chars: Vec<String> = chars.into_iter().map(String::from).collect();
        m.if_(m.get("upc").is_any(&chars), |m| m.set("pl", upper));
    }
    m.if_else(
        m.get("rv").eq("F"),
        |m| m.set("dis", ""),
        |m| {
            m.if_else(
                m.get("rvf").eq("F"),
                |m| m.set("dis", m.get("uff")),
                |m| {
                    m.if_else(
                        m.get("rvr").eq("F"),
                        |m| m.set("dis", m.get("ufr")),
                        |m| m.set("dis", m.get("uf")),
                    )
                },
            )
        },
    );
    m.if_else(
        m.get("utc").is_any(enemy),
        |m| m.set("cx", "x"),
        |m| m.set("cx", ""),
    );
    m.set(
        "san",
        m.get("pl")
            .concat(m.get("dis"))
            .concat(m.get("cx"))
            .concat(m.get("ut")),
    );
    for v in ["pl", "dis", "cx"] {
        m.delete(v);
    }
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
