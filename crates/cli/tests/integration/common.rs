//! What the binary's integration tests share: running `regex-chess` and
//! reading what it left, and (re-exported from `regex-chess-testkit`) the
//! rule for an outside tool that is missing. Each test module takes what
//! it uses (`use crate::common::...`); it must not hold anything one
//! module alone needs.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

pub(crate) use testkit::{missing, needs};

/// The binary under test.
pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_regex-chess");

/// A command that runs the binary.
pub(crate) fn bin() -> Command {
    Command::new(BIN)
}

/// Runs `cmd` with `input` on its standard input and its output piped. A
/// run that refuses its arguments may exit before reading its input: a
/// broken pipe is that, not a failure.
///
/// # Panics
///
/// When the command does not start or its input cannot be written.
pub(crate) fn feed(mut cmd: Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("a piped stdin");
    match stdin.write_all(input) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.expect("the input is written"),
    }
    drop(stdin);
    child.wait_with_output().expect("the binary ends")
}

/// Whether the run succeeded, and its stdout and stderr as text.
pub(crate) fn texts(out: &Output) -> (bool, String, String) {
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The binary with `args` and nothing on its standard input: whether it
/// succeeded, its stdout and its stderr.
///
/// # Panics
///
/// When the binary does not start.
pub(crate) fn run(args: &[&str]) -> (bool, String, String) {
    texts(&bin().args(args).output().expect("the binary runs"))
}

/// The binary with `args` and `input` on its standard input (see
/// [`feed`]): whether it succeeded, its stdout and its stderr.
pub(crate) fn run_with(args: &[&str], input: &str) -> (bool, String, String) {
    let mut cmd = bin();
    cmd.args(args);
    texts(&feed(cmd, input.as_bytes()))
}

/// A run's status, stdout and stderr, for a failure message.
pub(crate) fn describe(out: &Output) -> String {
    format!(
        "status {}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A `stockfish` binary: on the PATH, or where Debian's package puts it.
pub(crate) fn stockfish() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join("stockfish"))
        .find(|candidate| candidate.is_file())
}

/// Whether `python3` can import python-chess (asked once; run outside the
/// workspace, whose `chess/` folder would shadow the package).
pub(crate) fn python_chess() -> bool {
    static READY: OnceLock<bool> = OnceLock::new();
    *READY.get_or_init(|| {
        Command::new("python3")
            .args(["-I", "-c", "import chess.engine"])
            .current_dir(std::env::temp_dir())
            .output()
            .is_ok_and(|o| o.status.success())
    })
}
