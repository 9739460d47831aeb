//! The engine's score in the words of the last-moves line: `+1.2 for
//! black (pawns)`, or `mate in 2 for black` when the score is a mate
//! (`vocabulary::mate_in` reads it). DSL code and the special instructions it
//! needs (`mate_words`, `tenths`); it reads the score variable and writes
//! only its own variables, and must not touch the board, the moves or the
//! screen.

use std::sync::Arc;

use regex_asm::{Expr, Machine};
use regex_vm::state::Thread;
use regex_vm::Template;
use shakmaty::Color;

use crate::rules::func::{append, get, local, Func};
use crate::vocabulary::SCORE;

/// `st` := the score as the person reads it, from the engine's (`us`)
/// side: `+1.2 for black (pawns)`, or `mate in 2 for black` (see
/// [`mate_words`]).
pub(super) fn score_text(m: &mut Machine, us: Color) {
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
pub(crate) fn mate_text(score: &str, us: Color) -> String {
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
pub(crate) fn mate_words(us: Color) -> Func {
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
pub(crate) fn tenths(x: &str) -> Func {
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
