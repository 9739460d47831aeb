//! `x := x + 1` for a decimal of any length, in a fixed number of rewrites.
//!
//! Adding one turns the run of trailing nines into zeros and raises the
//! digit before it. A rewrite sees only its own match, so no fixed list
//! can turn each nine of an unbounded run into a zero one match at a time
//! (a nine does not know that only nines follow it); this module makes
//! the run short instead. Every 1,024 nines in a row anywhere in the state
//! become one `A`, every 1,024 `A`s one `C` (a rewrite needs no context to
//! do that, and the reverse restores them), so a run of nines is at most
//! 1,023 `C`s, 1,023 `A`s and 1,023 nines. A `!` after the number then
//! walks left over them, turning nines into zeros, `A`s into `D`s (1,024
//! zeros) and `C`s into `E`s (1,024 `D`s) in halving blocks (512, 256, ...
//! 1: ten rewrites a level), the digit before it goes up, and `E`, `D`,
//! `C`, `A` are spelled out again. Runs of up to 1,024^3 - 1 nines (a
//! number of a billion digits) are handled; the turn program's
//! `func::increment` stops at ten trailing nines.
//!
//! It reads and writes one variable of each active thread and knows
//! nothing of chess; the state must hold no `!`, `A`, `C`, `D` or `E`
//! outside the numbers it spells (board letters, the other variables and
//! the grammar's own lines have none).

use std::sync::Arc;

use regex_vm::state::Thread;
use regex_vm::{Rewrite, Scope, Template};

use crate::rules::func::{decimal_successor, get, local, replace, Func};

/// Nines per `A`, `A`s per `C`.
const BLOCK: usize = 1024;
/// The halving blocks the `!` walks over, largest first.
const HALVES: [usize; 10] = [512, 256, 128, 64, 32, 16, 8, 4, 2, 1];
/// Per level: the symbol of a block of nines, and of as many zeros.
const LEVELS: [(&str, char); 3] = [("9", '0'), ("A", 'D'), ("C", 'E')];

fn global(pattern: impl Into<String>, template: Template) -> Rewrite {
    Rewrite::new(pattern, template).with_scope(Scope::Global)
}

/// `x := x + 1` on every active thread, `x` a canonical decimal of any
/// length.
pub(crate) fn increment_any(x: &str) -> Func {
    let name = x.to_string();
    let mut rules = vec![local(
        format!(r"(%%\n[^%]*?#{x}:[0-9]*)\n"),
        Template::new().group(1).text("!\n"),
    )];
    rules.push(global(format!("9{{{BLOCK}}}"), Template::literal("A")));
    rules.push(global(format!("A{{{BLOCK}}}"), Template::literal("C")));
    for (nine, zero) in LEVELS {
        for k in HALVES {
            let zeros: String = std::iter::repeat_n(zero, k).collect();
            rules.push(global(
                format!("{nine}{{{k}}}!"),
                Template::literal(&format!("!{zeros}")),
            ));
        }
    }
    for (symbol, spelled) in [("E", 'D'), ("D", '0'), ("C", 'A'), ("A", '9')] {
        let text: String = std::iter::repeat_n(spelled, BLOCK).collect();
        rules.push(global(symbol, Template::literal(&text)));
    }
    for d in 0..=8u8 {
        rules.push(global(
            format!("{d}!"),
            Template::literal(&(d + 1).to_string()),
        ));
    }
    rules.push(global(":!", Template::literal(":1")));
    Func {
        name: format!("increment_any_{x}"),
        rules,
        meaning: Arc::new(move |mut t: Thread| {
            let v = get(&t, &name)?;
            let next = decimal_successor(&v).ok_or_else(|| {
                format!(
                    "{} is not a canonical decimal",
                    crate::board::codec::excerpt(&v)
                )
            })?;
            replace(&mut t, &name, next)?;
            Ok(vec![t])
        }),
        defines: vec![],
        requires: vec![x.to_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_asm::ir::Special;
    use regex_vm::state::{State, VarName};
    use regex_vm::{Config, Executor, Program};

    fn thread(h: &str, n: &str) -> Thread {
        Thread {
            tag: None,
            stack: vec![],
            vars: vec![
                (VarName::must("z"), "/rnbqkbnr/".to_string()),
                (VarName::must("h"), h.to_string()),
                (VarName::must("n"), n.to_string()),
            ],
        }
    }

    /// The rewrites and the meaning agree on numbers with short and very
    /// long runs of nines, the other number left alone.
    #[test]
    fn long_runs_of_nines_carry() {
        let f = increment_any("h");
        let exec = Executor::new(&Program::new(f.rewrites()), Config::default()).expect("compiles");
        let nines = |k: usize| "9".repeat(k);
        let cases = [
            "0".to_string(),
            "9".to_string(),
            "18".to_string(),
            "1929".to_string(),
            nines(10),
            nines(11),
            nines(1023),
            nines(1024),
            format!("7{}", nines(1025)),
            format!("{}8{}", nines(3000), nines(2049)),
            nines(1024 * 1024 + 5),
        ];
        for h in cases {
            let other = format!("9{}", nines(1030));
            let mut text = State {
                prefix: String::new(),
                threads: vec![thread(&h, &other)],
            }
            .render();
            exec.run(&mut text).expect("runs");
            let want = f.apply(thread(&h, &other)).expect("a decimal");
            let want = State {
                prefix: String::new(),
                threads: want,
            }
            .render();
            assert!(text == want, "h of {} digits", h.len());
            let after = State::parse(&text).expect("a state");
            let got = after.threads[0].var("h").expect("h").to_string();
            assert_eq!(Some(got), decimal_successor(&h));
        }
    }
}
