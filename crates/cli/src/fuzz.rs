//! `regex-chess fuzz`: differential fuzzing against shakmaty.

use std::process::ExitCode;

use anyhow::Result;

/// Arguments of `fuzz`.
#[derive(clap::Args, Debug)]
pub struct FuzzArgs {
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    pub games: u64,
}

/// Runs the fuzzer.
pub fn run(_args: FuzzArgs) -> Result<ExitCode> {
    anyhow::bail!("not written yet")
}
