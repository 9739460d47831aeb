//! What the tests of every crate share about the outside tools they run
//! (python3, node, Stockfish, Chromium): one rule for a tool that is
//! missing.
//!
//! Under `CI=true` every tool is part of the machine (`.ci/run` installs
//! them), so a missing one fails the test, naming the tool. Anywhere else
//! the test skips the part that needs it and says so on a line of its own
//! that `cargo test` shows: the line goes straight to the process's
//! standard error, past libtest's capture of `println!`/`eprintln!` (which
//! would hide it behind an `ok`). This crate only decides skip or fail; it
//! must not find, install or run the tools beyond asking one its version.

#![forbid(unsafe_code)]

use std::io::Write;
use std::process::Command;

/// Whether the tests run under CI (`CI=true`), where every tool must be
/// there.
pub fn under_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// Whether `command --version` runs and succeeds; when it does not, the
/// same as [`missing`]`(command, skipped)`.
///
/// # Panics
///
/// Under `CI=true`, when the command does not run.
pub fn needs(command: &str, skipped: &str) -> bool {
    let runs = Command::new(command)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !runs {
        missing(command, skipped);
    }
    runs
}

/// Says that `tool` is missing, so that `skipped` (what the test leaves
/// out, and how to get the tool) does not run: a failure under `CI=true`,
/// otherwise a visible `SKIPPED` line naming the test and the tool. The
/// caller then returns (or leaves out the part).
///
/// # Panics
///
/// Under `CI=true`, always: the message names the tool.
pub fn missing(tool: &str, skipped: &str) {
    report_missing(under_ci(), tool, skipped);
}

/// [`missing`], with whether the tests run under CI given.
fn report_missing(ci: bool, tool: &str, skipped: &str) {
    assert!(
        !ci,
        "{tool} is missing, and under CI=true every tool is required ({skipped})"
    );
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    // Straight to the file descriptor: libtest captures only the print
    // macros, so this line shows in `cargo test`'s output.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED in {test}: {tool} is missing: {skipped}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outside CI a missing tool is a skip; under CI a failure that names
    /// the tool.
    #[test]
    fn a_missing_tool_skips_outside_ci_and_fails_under_it() {
        let tool = "no-such-tool-of-regex-chess";
        report_missing(false, tool, "testkit's own check of the skip line");
        let failure = std::panic::catch_unwind(|| report_missing(true, tool, "nothing"));
        let message = failure.expect_err("fails under CI");
        let message = message
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_default();
        assert!(message.contains(tool), "{message}");
    }

    /// A command that cannot exist is not found; one that every machine
    /// running these tests has is.
    #[test]
    fn needs_asks_the_command_its_version() {
        if !under_ci() {
            assert!(!needs("no-such-tool-of-regex-chess", "nothing"));
        }
        assert!(needs("cargo", "nothing"));
    }
}
