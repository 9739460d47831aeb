//! A move in standard algebraic notation (SAN), written in the DSL: the
//! move's parts read off the board before it is played (`move_parts`),
//! the rivals that make a piece's move ambiguous (the same kind going to
//! the same square, found with "is there a legal move such that" passes),
//! castling, captures and promotions. It reads the position and the move
//! and writes only `san` (its working variables are deleted); it must not
//! play the move or judge its legality (that is `turn`'s `apply_uci`), nor
//! add the check sign (`turn`'s `after_move`).

use std::sync::Arc;

use regex_asm::{Expr, Machine};
use regex_vm::state::Thread;
use regex_vm::Template;
use shakmaty::Color;

use crate::board::{letter, name_at, pieces, squares, ANY, BOARD_VAR};
use crate::game::any_move_into;
use crate::rules::func::{append, get, local, Func};
use crate::rules::specials::{FROM, PIECE, TO};
use crate::vocabulary::BEST;

/// Appends the parts of the move in `em` seen on the board before it is
/// played: `uf ut upr` (from, to, promotion letter), `uff ufr` (from's
/// file and rank), `utf` (to's file), `upc` (the piece on `uf`), `utc`
/// (what stands on `ut`).
pub(crate) fn move_parts() -> Func {
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
pub(crate) fn from_parts() -> Func {
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
pub(super) fn san(m: &mut Machine, us: Color) {
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
