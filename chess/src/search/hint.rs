//! The root's probe hint: a move the caller expects to be best (the
//! answer of the ladder's rung below, `deepen`), which the root's probe
//! (`probed_root`) searches beside the move its 2-ply look
//! chooses, the better score of the two becoming the probe's.
//!
//! A reply state may carry a [`HINT_PREFIX`] line before its thread;
//! [`LoadHint`] copies its move into the first thread's variable
//! [`HINT_MOVE`] (empty when there is none). A turn's input may start with
//! one before its screen (`game::screen` keeps it first); the turn
//! program loads it and [`DropHintLine`] takes the line off again. At the
//! root's probe, [`split`] makes a second run beside the look's,
//! [`keep_hint`] leaves in it only the candidate that plays the hint, and
//! [`join`] makes the two one run again, dropping the hint's candidate
//! where the look chose the same move. At depth 5 (and in depth 6's reply
//! searches, which search as depth 5 does) the same variable carries the
//! reply that refutes the root's probe's move to each root candidate, whose
//! second probe searches that move alone ([`keep_only_hint`]). The probe's
//! score only decides how many candidates are dropped before their search
//! (every one it cannot rule out is searched), so a wrong, illegal or stale
//! hint costs time, never a different move or score, at depths 2 to 5; at
//! depth 6 it also sets which moves get the ply more
//! (`deep_root`), so there it can change the move. Depth 6
//! also hints each reply search of its ply more (`deep_root`'s `deep_reply`):
//! with the best reply depth 5's search of the candidate found, in the same
//! variable, which costs time or saves it, never a score. This module owns
//! the line, the variables and those three steps; it must not choose
//! between the candidates or compare scores itself (`probed::probe` does, by
//! `reduce::KeepBest`).

use std::sync::Arc;

use regex_asm::ir::{RefError, WholeStateSpecial};
use regex_asm::{Expr, Machine, Paused};
use regex_vm::state::State;
use regex_vm::{Rewrite, Scope, Template};

use crate::rules::func::{append_empty, load_into_first};
use crate::rules::specials::{FROM, PROMOTION, TO};
use crate::search::vars::{CANDIDATE_NAME, HINT_MOVE, IN_HINT_RUN};

/// The line of a reply state's text before its thread that holds the hint:
/// `Probe:` and a move in UCI's long algebraic form (`e2e4`, `e7e8q`;
/// castling as the king's move, `e1g1`), as the search names its answer.
pub(crate) const HINT_PREFIX: &str = "Probe:";

/// The bytes a hint's move may have (squares and promotion letters).
const MOVE_BYTES: &str = "a-h1-8qrbn";

/// Whether `mv` can be a hint: a move's name as the search gives it.
fn is_move_name(mv: &str) -> bool {
    let b = mv.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    (b.len() == 4 || b.len() == 5)
        && square(b[0], b[1])
        && square(b[2], b[3])
        && b.get(4).is_none_or(|p| b"qrbn".contains(p))
}

/// The pattern of a hint line as a rewrite finds it: [`HINT_PREFIX`], one
/// or more of the bytes a move's name has, a newline.
pub(crate) fn hint_line_pattern() -> String {
    format!("{HINT_PREFIX}[{MOVE_BYTES}]+\\n")
}

/// Whether a line (without its newline) holds a hint: [`HINT_PREFIX`]
/// and one or more of the bytes a move's name has; its move.
fn hint_in(line: &str) -> Option<&str> {
    let mv = line.strip_prefix(HINT_PREFIX)?;
    let ok = !mv.is_empty()
        && mv.bytes().all(|c| {
            (b'a'..=b'h').contains(&c) || (b'1'..=b'8').contains(&c) || b"qrbn".contains(&c)
        });
    ok.then_some(mv)
}

/// The hint line `text` starts with, its newline included (what
/// [`hint_line_pattern`] matches at the start).
pub(crate) fn leading_hint_line(text: &str) -> Option<&str> {
    let end = text.find('\n')?;
    hint_in(&text[..end]).map(|_| &text[..=end])
}

/// The first [`HINT_PREFIX`] line of `prefix` whose move has only the
/// bytes a move's name has (the rewrite's test, which [`is_move_name`]
/// narrows for the callers that write the line).
fn hint_of(prefix: &str) -> Option<&str> {
    prefix
        .split_inclusive('\n')
        .find_map(|line| hint_in(line.strip_suffix('\n')?))
}

/// Gives every active thread the variable [`HINT_MOVE`]: the hint line's
/// move for the first thread when it is active and the text before it
/// has a hint line, empty otherwise.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LoadHint;

impl LoadHint {
    fn load(state: &State) -> Result<State, String> {
        load_into_first(state, HINT_MOVE, hint_of(&state.prefix))
    }
}

impl WholeStateSpecial for LoadHint {
    fn name(&self) -> String {
        "load_hint".into()
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        LoadHint::load(state).map_err(|message| RefError::Special {
            instr: self.name(),
            message,
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let p = HINT_PREFIX;
        let hm = HINT_MOVE;
        vec![
            append_empty(HINT_MOVE),
            // The prefix's lines hold no `%`, so `[^%]*?` stays before the
            // first thread, which must be active; the first hint line wins.
            Rewrite::new(
                format!(r"^((?:[^%\n]*\n)*?){p}([{MOVE_BYTES}]+)\n([^%]*%%\n[^%]*?#{hm}:)\n"),
                Template::new()
                    .group(1)
                    .text(p)
                    .group(2)
                    .text("\n")
                    .group(3)
                    .group(2)
                    .text("\n"),
            )
            .with_scope(Scope::Global),
        ]
    }

    fn defines(&self) -> Vec<String> {
        vec![HINT_MOVE.into()]
    }
}

/// Removes the hint line the text before the first thread starts with,
/// once [`LoadHint`] has read it: the turn program (`game::turn`) takes
/// its hint from the screen's first line, and the screen's own
/// instructions expect the history line there.
#[derive(Debug, Clone, Copy)]
pub(crate) struct DropHintLine;

impl WholeStateSpecial for DropHintLine {
    fn name(&self) -> String {
        "drop_hint_line".into()
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        let mut out = state.clone();
        if let Some(line) = leading_hint_line(&state.prefix) {
            out.prefix.drain(..line.len());
        }
        Ok(out)
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        vec![
            Rewrite::new(format!("^{}", hint_line_pattern()), Template::new())
                .with_scope(Scope::Global),
        ]
    }
}

/// At the root's probe, before its candidates are made: each active
/// thread (the probe's stripped copy of the root, holding [`HINT_MOVE`])
/// becomes two, the look's run and the hint's run, with a paused copy
/// between them so that each run keeps its own best candidate. Returns
/// the separator, for [`join`].
pub(crate) fn split(m: &mut Machine) -> Paused {
    m.set(IN_HINT_RUN, "F");
    let second = m.fork_inactive();
    let first = m.pause();
    m.reactivate(second);
    let third = m.fork_inactive();
    let separator = m.pause();
    m.reactivate(third);
    m.set(IN_HINT_RUN, "T");
    m.reactivate(first);
    separator
}

/// Once the candidates of both runs are made (the parts `f`, `t`, `u`
/// still set): the hint's run keeps only the candidate that plays the
/// hint (none when the hint is not a legal move), the look's run all of
/// them; each names its move in [`CANDIDATE_NAME`], for [`join`].
pub(crate) fn keep_hint(m: &mut Machine) {
    m.set(CANDIDATE_NAME, candidate_name(m));
    m.if_(
        m.get(IN_HINT_RUN).eq("T") & m.get(CANDIDATE_NAME).ne(m.get(HINT_MOVE)),
        |m| m.destroy_active(),
    );
    m.delete(IN_HINT_RUN);
}

/// Leaves, of each run of candidates (the parts `f`, `t`, `u` still set),
/// only the one that plays [`HINT_MOVE`] (none when the hint is not a
/// legal move there): a probe of the hint's move alone.
pub(crate) fn keep_only_hint(m: &mut Machine) {
    m.if_(candidate_name(m).ne(m.get(HINT_MOVE)), |m| {
        m.destroy_active()
    });
}

/// The move of each active thread (a candidate the move generation just
/// made, its parts `f`, `t`, `u` still set) as the search names moves
/// (UCI: `e2e4`, `e7e8q`), which a hint must be.
pub(crate) fn candidate_name(m: &Machine) -> Expr {
    m.get(FROM).concat(m.get(TO)).concat(m.get(PROMOTION))
}

/// Once each run has kept its candidate: the separator goes, the two
/// (or fewer) become one run, and the hint's goes when it plays the
/// look's move (one search of it will do). The caller searches them
/// and keeps the better score.
pub(crate) fn join(m: &mut Machine, separator: Paused) {
    let kept = m.pause();
    m.reactivate(separator);
    m.destroy_active();
    m.reactivate_alone(kept);
    m.special(Arc::new(DropRepeat), &[], &[]);
    m.delete(CANDIDATE_NAME);
}

/// Deletes an active thread that follows an active thread with the same
/// [`CANDIDATE_NAME`], pairs taken left to right without overlap (as a
/// replace-all finds them).
#[derive(Debug, Clone, Copy)]
struct DropRepeat;

impl WholeStateSpecial for DropRepeat {
    fn name(&self) -> String {
        "drop_repeated_probe".into()
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        let mut out = state.clone();
        let mut kept = Vec::with_capacity(out.threads.len());
        let mut threads = std::mem::take(&mut out.threads).into_iter().peekable();
        while let Some(first) = threads.next() {
            let name = first
                .is_active()
                .then(|| first.var(CANDIDATE_NAME))
                .flatten();
            let repeat = threads.peek().is_some_and(|next| {
                next.is_active() && name.is_some() && next.var(CANDIDATE_NAME) == name
            });
            kept.push(first);
            if repeat {
                threads.next();
            }
        }
        out.threads = kept;
        Ok(out)
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let nm = CANDIDATE_NAME;
        vec![Rewrite::new(
            format!(r"(%%\n[^%]*?\n#{nm}:([^\n]*)\n[^%]*)%%\n[^%]*?\n#{nm}:\2\n[^%]*"),
            Template::new().group(1),
        )
        .with_scope(Scope::Global)]
    }

    fn requires(&self) -> Vec<String> {
        vec![CANDIDATE_NAME.into()]
    }
}

/// The hint line for `mv`, to go after the history line (`None` when `mv`
/// is not a move's name, which a hint must be).
pub(crate) fn hint_line(mv: &str) -> Option<String> {
    is_move_name(mv).then(|| format!("{HINT_PREFIX}{mv}\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_vm::state::{Tag, Thread, VarName};
    use regex_vm::{Config, Executor, Program};

    fn thread(active: bool) -> Thread {
        Thread {
            tag: (!active).then(|| Tag::must("p")),
            stack: vec![],
            vars: vec![(VarName::must("z"), "/rnbqkbnr/".to_string())],
        }
    }

    /// The rewrites do what the meaning says on prefixes with and without
    /// a hint, malformed ones, two of them, and a paused first thread.
    #[test]
    fn the_rewrites_load_what_the_meaning_loads() {
        let exec =
            Executor::new(&Program::new(LoadHint.rewrites()), Config::default()).expect("compiles");
        let prefixes = [
            "",
            "Probe:e2e4\n",
            "Positions: wabc bdef\nProbe:e7e8q\n",
            "Probe:e2e4\nProbe:d2d4\n",
            "Probe:\nProbe:g1f3\n",
            "Probe:e2-e4\n",
            "Probe:E2E4\n",
            "Positions: w\n",
            "xProbe:e2e4\n",
        ];
        for prefix in prefixes {
            for first_active in [true, false] {
                let state = State {
                    prefix: prefix.to_string(),
                    threads: vec![thread(first_active), thread(true)],
                };
                let want = LoadHint.apply_state(&state).expect("loads").render();
                let mut got = state.render();
                exec.run(&mut got).expect("runs");
                assert_eq!(got, want, "prefix {prefix:?}, first active {first_active}");
            }
        }
        let state = State {
            prefix: "Positions: w\nProbe:e7e8q\n".into(),
            threads: vec![thread(true)],
        };
        let loaded = LoadHint.apply_state(&state).expect("loads");
        assert_eq!(loaded.threads[0].var(HINT_MOVE), Some("e7e8q"));
    }

    /// The rewrite drops what the meaning drops: a hint line at the very
    /// start, and nothing else (a later one, a malformed one, a state
    /// that starts with a thread).
    #[test]
    fn the_leading_hint_line_goes_as_the_meaning_says() {
        let exec = Executor::new(&Program::new(DropHintLine.rewrites()), Config::default())
            .expect("compiles");
        let prefixes = [
            ("", false),
            ("Probe:e2e4\n", true),
            ("Probe:e7e8q\nPositions: w\n", true),
            ("Positions: w\nProbe:e7e8q\n", false),
            ("Probe:\nPositions: w\n", false),
            ("Probe:e2-e4\n", false),
            ("Probe:E2E4\n", false),
            ("xProbe:e2e4\n", false),
            ("Probe:e2e4", false),
        ];
        for (prefix, drops) in prefixes {
            for threads in [vec![], vec![thread(true)], vec![thread(false)]] {
                let state = State {
                    prefix: prefix.to_string(),
                    threads,
                };
                let want = DropHintLine.apply_state(&state).expect("drops");
                assert_eq!(want.prefix.len() < prefix.len(), drops, "{prefix:?}");
                let mut got = state.render();
                exec.run(&mut got).expect("runs");
                assert_eq!(got, want.render(), "prefix {prefix:?}");
            }
        }
    }

    fn named(active: bool, name: Option<&str>) -> Thread {
        let mut t = thread(active);
        t.stack.push("5010".into());
        if let Some(n) = name {
            t.vars.push((VarName::must(CANDIDATE_NAME), n.to_string()));
        }
        t.vars.push((VarName::must("v"), "5000".into()));
        t
    }

    /// The rewrite drops what the meaning drops: the second of two
    /// adjacent active threads naming the same move, pairs taken left to
    /// right, never across a paused thread, a differing or missing name,
    /// or a name that only starts the same.
    #[test]
    fn the_repeated_probe_goes_as_the_meaning_says() {
        let exec = Executor::new(&Program::new(DropRepeat.rewrites()), Config::default())
            .expect("compiles");
        let a = |active| named(active, Some("e2e4"));
        let cases: Vec<(Vec<Thread>, usize)> = vec![
            (vec![a(true), a(true)], 1),
            (vec![a(true), named(true, Some("d2d4"))], 2),
            (vec![a(true), named(true, Some("e2e4q"))], 2),
            (vec![named(true, Some("e2e4q")), a(true)], 2),
            (vec![a(true), a(false), a(true)], 3),
            (vec![a(false), a(true), a(true)], 2),
            (vec![a(true), a(true), a(true)], 2),
            (vec![a(true), a(true), a(true), a(true)], 2),
            (vec![named(true, None), a(true), a(true)], 2),
            (vec![a(true), named(true, None)], 2),
            (vec![a(true)], 1),
        ];
        for (threads, left) in cases {
            let state = State {
                prefix: String::new(),
                threads,
            };
            let want = DropRepeat.apply_state(&state).expect("applies");
            assert_eq!(want.threads.len(), left, "{}", state.render());
            let mut got = state.render();
            exec.run(&mut got).expect("runs");
            assert_eq!(got, want.render(), "{}", state.render());
        }
    }

    #[test]
    fn only_move_names_make_a_hint_line() {
        assert_eq!(hint_line("e2e4").as_deref(), Some("Probe:e2e4\n"));
        assert_eq!(hint_line("a7a8n").as_deref(), Some("Probe:a7a8n\n"));
        for bad in [
            "", "e2e", "e2e4qq", "e9e4", "i2e4", "e2e4k", "0000", "e2e4\n",
        ] {
            assert_eq!(hint_line(bad), None, "{bad:?}");
        }
    }
}
