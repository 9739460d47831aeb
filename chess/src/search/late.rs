//! Late-move pruning (`lmp:K`, the plan's `late`): at a probed node below
//! the root, only the `K` candidates its look ranks best are searched,
//! besides the forcing ones (captures, promotions, checks) and every
//! candidate of a side in check. It is inexact (a quiet move the look
//! ranks late may be the best), so it is off unless the plan asks for it
//! (`NodePlan::with_late`), and it mirrors `reference::Select`'s `lmp`
//! move for move.
//!
//! The look (`probed`) scores each candidate as the leaves score a reply
//! (`DELTA_VAR`, lower is better for the side to move). With the rule
//! on, each look thread pushes an entry `~score name captured board`;
//! the node's run is joined into one thread, and [`RankLate`] ranks its
//! entries by the look's score, ties by the move's name (UCI text, so
//! the order is the same whichever order the moves were made in), and
//! leaves the best one's board and name (the node's probe) and the list
//! of the names kept ([`LATE_LIST`]): the first `K` and every capture or
//! promotion. The node carries the list down to where its candidates are
//! made (`own_probes`, `standing`), whose threads test their move
//! against it ([`InLateList`]) and drop a quiet one not in it, unless it
//! gives check; a node in check keeps all ([`ALL`]).
//!
//! This module owns the ranking, the list and the drop; it must not
//! touch a node where the plan has no late-move pruning.

use std::sync::Arc;

use regex_asm::ir::{RefError, Special};
use regex_asm::{Expr, Machine};
use regex_vm::state::Thread;
use regex_vm::{Rewrite, Scope, Template};

use crate::board::BOARD_VAR;
use crate::eval::DELTA_VAR;
use crate::movegen::MOVE_VAR;
use crate::rules::specials::{CAPTURED, CHECK_VAR, PIECE};
use crate::search::hint;
use crate::search::vars::{PROBE_MOVE, ROOT_BOUND};
use crate::search::KeepOnly;

/// A probed node's list of the candidates it searches (besides those
/// giving check): ` name name .. ` (each name after a space, one more
/// space at the end), or [`ALL`].
pub(crate) const LATE_LIST: &str = "lk";

/// Whether a candidate's move is in its node's [`LATE_LIST`] (`T`/`F`),
/// between the test and the drop.
pub(crate) const IN_LATE_LIST: &str = "lm";

/// The list of a node in check: every candidate is searched.
pub(crate) const ALL: &str = "*";

/// The widest look score an entry may hold (five digits: scores stay
/// within `2 * EVEN`).
const SCORE_DIGITS: usize = 5;

/// The rest of a probed node's look with late-move pruning, keeping the
/// `keep` best: each active thread a candidate made by the look (its
/// parts and [`DELTA_VAR`] set), a run a node; leaves one thread a node,
/// the probe's (the best by the look's score, ties by name), with its
/// board, its name in [`PROBE_MOVE`] and the node's [`LATE_LIST`] (and
/// [`ROOT_BOUND`] where the node holds it).
pub(crate) fn rank(m: &mut Machine, keep: u32) {
    let entry = Expr::from("~")
        .concat(m.get(DELTA_VAR))
        .concat(" ")
        .concat(hint::candidate_name(m))
        .concat(" ")
        .concat(m.get(CAPTURED))
        .concat(" ")
        .concat(m.get(PIECE))
        .concat(" ")
        .concat(m.get(BOARD_VAR));
    m.push(entry);
    let kept: &'static [&'static str] = if m.is_set(ROOT_BOUND) {
        &[ROOT_BOUND]
    } else {
        &[]
    };
    m.special(Arc::new(KeepOnly(kept)), &[], &[]);
    // The tracer is told what the special dropped.
    for v in m.defined_vars() {
        if !kept.contains(&v.as_str()) {
            m.delete(&v);
        }
    }
    m.join();
    m.special(
        Arc::new(RankLate { keep }),
        &[],
        &[BOARD_VAR, PROBE_MOVE, LATE_LIST],
    );
}

/// At a probed node holding its [`LATE_LIST`] and [`CHECK_VAR`] (whether
/// its side to move is in check): in check, the list becomes [`ALL`].
/// `CHECK_VAR` goes.
pub(crate) fn keep_all_in_check(m: &mut Machine) {
    m.if_(m.get(CHECK_VAR).eq("T"), |m| m.set(LATE_LIST, ALL));
    m.delete(CHECK_VAR);
}

/// Each active thread a candidate of a node holding its [`LATE_LIST`], its
/// move in `MOVE_VAR`: whether the move is in the list, in
/// [`IN_LATE_LIST`]; the list goes.
pub(crate) fn test_late(m: &mut Machine) {
    m.special(Arc::new(InLateList), &[], &[IN_LATE_LIST]);
    m.delete(LATE_LIST);
}

/// Each active thread a candidate holding [`IN_LATE_LIST`] and
/// [`CHECK_VAR`] (whether it gives check): dropped when it is in neither.
pub(crate) fn drop_late(m: &mut Machine) {
    m.if_(
        m.get(IN_LATE_LIST).eq("F") & m.get(CHECK_VAR).eq("F"),
        |m| m.destroy_active(),
    );
    m.delete(IN_LATE_LIST);
}

/// One entry of a joined look: its score, its move's name, what stood on
/// its destination (`.` nothing, `,` the square a pawn just skipped), the
/// piece that moved and the board after it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    score: String,
    name: String,
    captured: String,
    piece: String,
    board: String,
}

impl Entry {
    fn parse(item: &str) -> Option<Entry> {
        let mut parts = item.splitn(5, ' ');
        let score = parts.next()?;
        let name = parts.next()?;
        let captured = parts.next()?;
        let piece = parts.next()?;
        let board = parts.next()?;
        let named = crate::vocabulary::is_move_name(name);
        let scored = !score.is_empty()
            && score.len() <= SCORE_DIGITS
            && score.bytes().all(|c| c.is_ascii_digit());
        let one = |s: &str| s.len() == 1 && !s.contains([' ', '\n']);
        let ok = named
            && scored
            && one(captured)
            && one(piece)
            && board.starts_with('/')
            && !board.contains([' ', '\n']);
        ok.then(|| Entry {
            score: score.to_string(),
            name: name.to_string(),
            captured: captured.to_string(),
            piece: piece.to_string(),
            board: board.to_string(),
        })
    }

    /// The rank key: the score zero-padded, then the name, `-`-padded
    /// to five (what the rewrites compare, character by character; in
    /// ASCII `-` is below every promotion letter, so a name sorts as its
    /// UCI text does).
    fn key(&self) -> String {
        format!("{:0>w$}{:-<5}", self.score, self.name, w = SCORE_DIGITS)
    }

    /// A promotion, or a capture: a piece taken, or a pawn onto the
    /// square a pawn just skipped (en passant).
    fn forcing(&self) -> bool {
        let taken = self.captured.bytes().all(|b| b.is_ascii_alphabetic());
        let en_passant = self.captured == "," && (self.piece == "P" || self.piece == "p");
        self.name.len() == 5 || taken || en_passant
    }
}

/// Ranks the entries on each active thread's stack (a node's joined look,
/// one entry an item, see [`rank`]) and leaves three items: the best
/// one's board (on top), its name, and the node's [`LATE_LIST`]: the
/// names of the first `keep` and of every capture or promotion, in the
/// stack's order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RankLate {
    /// How many best-looking candidates the node keeps.
    pub keep: u32,
}

/// The characters a rank key holds, in ASCII order (`-` pads a name
/// without promotion).
const KEY_CHARS: &str = "-0123456789abcdefghnqr";

/// A rank key's width: the score's digits and a name of five.
const KEY_WIDTH: usize = SCORE_DIGITS + 5;

impl RankLate {
    fn bad(&self, message: String) -> RefError {
        RefError::Special {
            instr: self.name(),
            message,
        }
    }

    /// One pass of the tournament: adjacent pool lines (`` `p ``, other
    /// lines between them skipped) paired, the greater key losing its
    /// `p`. Five rewrites, none with a back-reference: the two keys
    /// (of [`KEY_WIDTH`]) interleaved beside the first (`` `pA|a0b0a1b1.. ``),
    /// compared there by their first unequal pair (`<` or `>`), the mark
    /// applied.
    fn pass() -> Vec<Rewrite> {
        let skip = r"(?:\n`[^p][^\n]*)*";
        let char = format!("([{KEY_CHARS}])");
        let key = char.repeat(KEY_WIDTH);
        let mut template = Template::new().text("\n`p");
        for i in 1..=KEY_WIDTH {
            template = template.group(i);
        }
        template = template.text("|");
        for i in 1..=KEY_WIDTH {
            template = template.group(i).group(KEY_WIDTH + 1 + i);
        }
        template = template.group(KEY_WIDTH + 1);
        for i in 1..=KEY_WIDTH {
            template = template.group(KEY_WIDTH + 1 + i);
        }
        let pair = local(format!(r"\n`p{key}([^\n]*{skip}\n`p){key}"), template);
        let chars: Vec<char> = KEY_CHARS.chars().collect();
        let same: Vec<String> = chars.iter().map(|c| format!("{c}{c}")).collect();
        let mut below = Vec::new();
        for (i, x) in chars.iter().enumerate() {
            for y in &chars[i + 1..] {
                below.push(format!("{x}{y}"));
            }
        }
        let lower = local(
            format!(
                r"\n`p([^|\n]*)\|(?:{})*(?:{})[^ \n]*",
                same.join("|"),
                below.join("|")
            ),
            Template::new().text("\n`p").group(1).text("<"),
        );
        let higher = local(
            r"\n`p([^|\n]*)\|[^ \n]*".into(),
            Template::new().text("\n`p").group(1).text(">"),
        );
        let second_loses = local(
            format!(r"\n`p([^<>\n ]*)<([^\n]*{skip}\n`)p"),
            Template::new().text("\n`p").group(1).group(2),
        );
        let first_loses = local(
            r"\n`p([^<>\n ]*)>".into(),
            Template::new().text("\n`").group(1),
        );
        vec![pair, lower, higher, second_loses, first_loses]
    }
}

fn local(pattern: String, template: Template) -> Rewrite {
    Rewrite::new(pattern, template).with_scope(Scope::ActiveThread)
}

impl Special for RankLate {
    fn name(&self) -> String {
        format!("rank_late_{}", self.keep)
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let entries: Vec<Entry> = t
            .stack
            .iter()
            .map(|item| {
                let body = item.strip_prefix('~').and_then(Entry::parse);
                body.ok_or_else(|| self.bad(format!("{item:?} is no look entry")))
            })
            .collect::<Result<_, _>>()?;
        let mut order: Vec<usize> = (0..entries.len()).collect();
        order.sort_by_key(|&i| entries[i].key());
        let best = order
            .first()
            .map(|&i| entries[i].clone())
            .ok_or_else(|| self.bad("no entry".into()))?;
        let mut kept = vec![false; entries.len()];
        for &i in order.iter().take(self.keep as usize) {
            kept[i] = true;
        }
        let mut list = String::from(" ");
        for (e, k) in entries.iter().zip(&kept) {
            if *k || e.forcing() {
                list.push_str(&e.name);
                list.push(' ');
            }
        }
        t.stack = vec![best.board, best.name, list];
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let mut out = Vec::new();
        // Entries become lines `` `KEY captured board ``, out of the pool.
        for digits in 1..=SCORE_DIGITS {
            let pad = "0".repeat(SCORE_DIGITS - digits);
            let start = format!(r"\n~([0-9]{{{digits}}}) ([a-h][1-8][a-h][1-8]");
            out.push(local(
                format!(r"{start}[bnqr])( [^ \n] [^ \n] /)"),
                Template::new()
                    .text(&format!("\n`{pad}"))
                    .group(1)
                    .group(2)
                    .group(3),
            ));
            out.push(local(
                format!(r"{start})( [^ \n] [^ \n] /)"),
                Template::new()
                    .text(&format!("\n`{pad}"))
                    .group(1)
                    .group(2)
                    .text("-")
                    .group(3),
            ));
        }
        for round in 0..self.keep {
            out.push(local(
                r"\n`([0-9])".into(),
                Template::new().text("\n`p").group(1),
            ));
            for _ in 0..crate::search::reduce::PASSES {
                out.extend(RankLate::pass());
            }
            let mark = if round == 0 { "\n`@" } else { "\n`=" };
            out.push(local(r"\n`p".into(), Template::new().text(mark)));
        }
        // The forcing ones stay; the rest go.
        out.push(local(
            r"\n`([0-9]{5}[a-h][1-8][a-h][1-8][bnqr] )".into(),
            Template::new().text("\n`=").group(1),
        ));
        out.push(local(
            r"\n`([0-9][^ \n]* (?:[A-Za-z] [^ \n]|, [Pp]) )".into(),
            Template::new().text("\n`=").group(1),
        ));
        out.push(local(r"\n`[0-9][^\n]*".into(), Template::new()));
        out.push(local(
            r"\n`=[0-9]{5}([a-h][1-8][a-h][1-8][bnqr]?)[^\n]*".into(),
            Template::new().text("\n`=").group(1),
        ));
        // The best's board and name on top, then the list's line.
        out.push(local(
            r"(\n#stack:)((?:\n`=[^\n]*)*)\n`@[0-9]{5}([a-h][1-8][a-h][1-8][bnqr]?)-? [^ \n]+ [^ \n]+ ([^\n]*)".into(),
            Template::new()
                .group(1)
                .text("\n")
                .group(4)
                .text("\n")
                .group(3)
                .text("\n`")
                .group(2)
                .text("\n`=")
                .group(3),
        ));
        out.push(local(r"\n`=".into(), Template::new().text(" ")));
        out.push(local(
            r"\n`([^\n]*)".into(),
            Template::new().text("\n").group(1).text(" "),
        ));
        out
    }

    fn stack_effect(&self) -> (usize, usize) {
        (0, 3)
    }
}

/// Pushes `T` onto each active thread's stack where its move
/// (`MOVE_VAR`) is in its [`LATE_LIST`] (or the list is [`ALL`]), `F`
/// elsewhere.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InLateList;

impl Special for InLateList {
    fn name(&self) -> String {
        "in_late_list".into()
    }

    fn apply(&self, mut t: Thread) -> Result<Vec<Thread>, RefError> {
        let (Some(mv), Some(list)) = (t.var(MOVE_VAR), t.var(LATE_LIST)) else {
            return Err(RefError::Special {
                instr: self.name(),
                message: "the move or the list is not set".into(),
            });
        };
        let found = list == ALL
            || (!mv.is_empty() && !mv.contains(' ') && list.contains(&format!(" {mv} ")));
        t.stack.insert(0, if found { "T" } else { "F" }.to_string());
        Ok(vec![t])
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let (mv, lk) = (MOVE_VAR, LATE_LIST);
        let yes = || Template::new().text("%`\n#stack:\nT\n").group(1);
        vec![
            local(format!(r"%%\n#stack:\n([^%]*?#{lk}:\*\n)"), yes()),
            local(
                format!(r"%%\n#stack:\n([^%]*?#{lk}:[^\n%]* ([^ \n%]+) [^\n%]*\n[^%]*?#{mv}:\2\n)"),
                yes(),
            ),
            local(
                format!(r"%%\n#stack:\n([^%]*?#{mv}:([^\n%]+)\n[^%]*?#{lk}:[^\n%]* \2 )"),
                yes(),
            ),
            local(
                r"%%\n#stack:\n".into(),
                Template::new().text("%%\n#stack:\nF\n"),
            ),
            local(r"%`\n".into(), Template::new().text("%%\n")),
        ]
    }

    fn stack_effect(&self) -> (usize, usize) {
        (0, 1)
    }

    fn requires(&self) -> Vec<String> {
        vec![MOVE_VAR.into(), LATE_LIST.into()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::codec::{encode, parse_fen};
    use regex_vm::state::{State, Tag, VarName};
    use regex_vm::{Config, Executor, Program};
    use shakmaty::{CastlingMode, Position};

    /// The look's entries of `fen`'s moves, each scored by `score` of its
    /// index (ties on purpose), as [`rank`] pushes them.
    fn entries(fen: &str, score: impl Fn(usize) -> u32) -> Vec<String> {
        let pos = parse_fen(fen).expect("a legal position");
        pos.legal_moves()
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let mut after = pos.clone();
                after.play_unchecked(*m);
                let captured = match (m.capture(), m.is_en_passant()) {
                    (_, true) => ",".to_string(),
                    (Some(role), _) => role.of(!pos.turn()).char().to_string(),
                    (None, _) => ".".to_string(),
                };
                let piece = m.role().of(pos.turn()).char();
                let name = m.to_uci(CastlingMode::Standard);
                let board = encode(&after).board;
                format!("~{} {name} {captured} {piece} {board}", score(i))
            })
            .collect()
    }

    fn thread(stack: Vec<String>, vars: &[(&str, &str)], tag: Option<&str>) -> Thread {
        let mut t = Thread::active();
        t.tag = tag.map(|n| Tag::new(n).expect("a tag"));
        t.stack = stack;
        for (n, v) in vars {
            t.vars
                .push((VarName::new(n).expect("a name"), v.to_string()));
        }
        t
    }

    /// Runs `special`'s rewrites on `state` (on the plain loop and on the
    /// fast paths) and its meaning on each active thread: the same bytes.
    fn agrees(special: &dyn Special, state: &State) -> String {
        let mut want = state.clone();
        want.threads = state
            .threads
            .iter()
            .flat_map(|t| {
                if t.is_active() {
                    special.apply(t.clone()).expect("the meaning")
                } else {
                    vec![t.clone()]
                }
            })
            .collect();
        let want = want.render();
        for naive in [true, false] {
            let config = Config {
                naive,
                ..Config::default()
            };
            let program = Program::new(special.rewrites());
            let mut text = state.render();
            Executor::new(&program, config)
                .expect("compiles")
                .run(&mut text)
                .expect("runs");
            assert_eq!(text, want, "naive {naive}");
        }
        want
    }

    /// Ranked by score, ties by name; the forcing moves kept however
    /// late; a paused thread (holding what a waiting node holds: scores,
    /// moves, a list; never a look's entries, which the ranking consumes
    /// in the instruction after their join) is left alone.
    #[test]
    fn the_ranking_rewrites_do_what_it_means() {
        let fens = [
            // Captures (one of a queen), checks, castling, quiet moves.
            "r3k3/8/8/8/3q4/8/4N3/R3K2R w KQ - 0 1",
            // En passant and promotions.
            "1r2k3/P7/8/3pP3/8/8/8/4K3 w - d6 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        ];
        for fen in fens {
            for keep in [1, 2, 5, 40] {
                for spread in [1, 3, 1000] {
                    let stack = entries(fen, |i| (i * 7 % spread) as u32 * 13 + 4990 - 900);
                    let active = thread(stack.clone(), &[("al", "5003")], None);
                    let waiting = vec!["5012".into(), "e2e4".into(), " e2e4 g1f3 ".into()];
                    let paused = thread(waiting, &[("z", "x")], Some("T7"));
                    let state = State {
                        prefix: "Positions: w1\n".into(),
                        threads: vec![active.clone(), paused, active],
                    };
                    let out = agrees(&RankLate { keep }, &state);
                    assert!(!out.contains('`') && !out.contains("\n~0"), "{out}");
                }
            }
        }
    }

    #[test]
    fn the_ranking_means_score_then_name() {
        let stack = vec![
            "~7 b1c3 . N /b".to_string(),
            "~5 g1f3 . N /g".to_string(),
            "~5 e2e4 . P /e".to_string(),
            "~9 d1d7 p Q /d".to_string(),
            "~8 a7a8q . P /a".to_string(),
        ];
        let t = thread(stack, &[], None);
        let out = RankLate { keep: 2 }.apply(t).expect("ranks").remove(0);
        assert_eq!(out.stack, vec!["/e", "e2e4", " g1f3 e2e4 d1d7 a7a8q "]);
    }

    #[test]
    fn the_list_test_rewrites_do_what_it_means() {
        let cases = [
            (" e2e4 g1f3 ", "g1f3", "T"),
            (" e2e4 g1f3 ", "e2e3", "F"),
            (" e2e4 g1f3 ", "e2e", "F"),
            ("*", "a1a2", "T"),
            (" a7a8q ", "a7a8", "F"),
        ];
        let mut threads = Vec::new();
        for (list, mv, _) in cases {
            threads.push(thread(
                vec!["7".into()],
                &[(LATE_LIST, list), (MOVE_VAR, mv)],
                None,
            ));
            threads.push(thread(vec![], &[(MOVE_VAR, mv), (LATE_LIST, list)], None));
        }
        threads.push(thread(
            vec![],
            &[(MOVE_VAR, "e2e4"), (LATE_LIST, " e2e4 ")],
            Some("W"),
        ));
        let state = State {
            prefix: String::new(),
            threads,
        };
        let out = State::parse(&agrees(&InLateList, &state)).expect("a state");
        for (i, (_, _, want)) in cases.iter().enumerate() {
            assert_eq!(out.threads[2 * i].stack[0], *want, "{:?}", cases[i]);
            assert_eq!(out.threads[2 * i + 1].stack[0], *want, "{:?}", cases[i]);
        }
        assert!(out.threads.last().expect("paused").stack.is_empty());
    }
}
