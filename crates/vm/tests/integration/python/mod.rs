//! The oracle and the comparison of the Python differential tests: one
//! `python3` process, fed one case per line over a pipe (JSON lines), and
//! our side of the same case (the program `regex_vm::python::load` makes
//! of it, run by the executor, fast and naive).

pub(crate) mod gen;

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use regex_vm::python::{self, Reason};
use regex_vm::{Config, ExecError, Executor};

/// CPython's side: compile, then `re.sub`; each failure named by phase.
const ORACLE: &str = r#"
import json, re, sys, warnings
warnings.simplefilter("ignore")
print(json.dumps(list(sys.version_info[:2])), flush=True)
for line in sys.stdin:
    case = json.loads(line)
    try:
        pattern = re.compile(case["p"])
    except Exception as e:
        answer = {"refused": "pattern", "why": f"{type(e).__name__}: {e}"}
    else:
        try:
            answer = {"out": pattern.sub(case["r"], case["s"])}
        except SystemError as e:
            answer = {"refused": "runtime", "why": f"{type(e).__name__}: {e}"}
        except Exception as e:
            answer = {"refused": "replacement", "why": f"{type(e).__name__}: {e}"}
    print(json.dumps(answer), flush=True)
"#;

/// One `re.sub` call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Case {
    /// The pattern.
    pub(crate) pattern: String,
    /// The replacement.
    pub(crate) replacement: String,
    /// The text.
    pub(crate) subject: String,
}

/// What a side made of a case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The text after the substitution.
    Out(String),
    /// Refused, in this phase (`pattern`, `replacement`, or `runtime` for
    /// an error while matching), for this reason.
    Refused(&'static str, String),
}

impl Outcome {
    /// The same bytes, or a refusal in the same phase.
    pub(crate) fn agrees(&self, other: &Outcome) -> bool {
        match (self, other) {
            (Outcome::Out(a), Outcome::Out(b)) => a == b,
            (Outcome::Refused(a, _), Outcome::Refused(b, _)) => a == b,
            _ => false,
        }
    }
}

/// A running `python3` answering cases.
pub(crate) struct Oracle {
    child: Child,
    to: BufWriter<ChildStdin>,
    from: BufReader<ChildStdout>,
}

impl Oracle {
    /// Starts `python3`; `None` (a visible skip) when it is missing or not
    /// CPython 3.11 outside CI; under `CI=true` either fails.
    pub(crate) fn start() -> Option<Oracle> {
        let child = Command::new("python3")
            .args(["-I", "-c", ORACLE])
            .env("PYTHONIOENCODING", "utf-8")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn();
        let Ok(mut child) = child else {
            testkit::missing("python3", "the CPython oracle");
            return None;
        };
        let to = BufWriter::new(child.stdin.take().expect("stdin"));
        let mut from = BufReader::new(child.stdout.take().expect("stdout"));
        let mut line = String::new();
        from.read_line(&mut line)
            .expect("python3 prints its version");
        let version: Vec<u32> = serde_json::from_str(&line).expect("a version");
        if version != [3, 11] {
            testkit::missing(
                "CPython 3.11",
                &format!("the oracle (python3 is {version:?})"),
            );
            return None;
        }
        Some(Oracle { child, to, from })
    }

    /// CPython's outcome of a case.
    pub(crate) fn ask(&mut self, case: &Case) -> Outcome {
        let line = serde_json::json!({"p": case.pattern, "r": case.replacement, "s": case.subject});
        writeln!(self.to, "{line}").expect("python3 reads");
        self.to.flush().expect("python3 reads");
        let mut answer = String::new();
        self.from.read_line(&mut answer).expect("python3 answers");
        let v: serde_json::Value = serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("python3 answered {answer:?} to {case:?}: {e}"));
        match (&v["out"], &v["refused"]) {
            (serde_json::Value::String(s), _) => Outcome::Out(s.clone()),
            (_, serde_json::Value::String(phase)) => Outcome::Refused(
                match phase.as_str() {
                    "pattern" => "pattern",
                    "runtime" => "runtime",
                    _ => "replacement",
                },
                v["why"].as_str().unwrap_or("").to_string(),
            ),
            _ => panic!("python3 answered {answer:?}"),
        }
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Our outcome of a case: the program `python::load` makes of it, run by
/// the executor in `config`.
pub(crate) fn ours(case: &Case, config: &Config) -> Outcome {
    let pairs = [(case.pattern.clone(), case.replacement.clone())];
    let program = match python::load(&pairs) {
        Ok(p) => p,
        Err(e) => {
            let phase = match e.reason {
                Reason::Pattern(_) => "pattern",
                Reason::Replacement(_) => "replacement",
            };
            let why = format!("{e}: {:?}", e.reason);
            return Outcome::Refused(phase, why);
        }
    };
    let exec = Executor::new(&program, config.clone())
        .unwrap_or_else(|e| panic!("loaded but does not compile: {case:?}: {e}"));
    let mut state = case.subject.clone();
    match exec.run(&mut state) {
        Ok(_) => Outcome::Out(state),
        // CPython's own failure while matching (its SystemError).
        Err(e @ ExecError::Python { .. }) => Outcome::Refused("runtime", e.to_string()),
        Err(e) => panic!("loaded but does not run: {case:?}: {e}"),
    }
}

/// The executor's settings for these tests: `run`'s (no backtracking
/// budget), fast or naive.
pub(crate) fn config(naive: bool) -> Config {
    Config {
        naive,
        fancy_backtrack_limit: usize::MAX,
        max_state_bytes: 1 << 20,
        ..Config::default()
    }
}
