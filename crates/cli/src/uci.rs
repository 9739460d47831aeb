//! `regex-chess uci`: the UCI protocol.

use anyhow::Result;

/// Runs the protocol loop on stdin/stdout.
pub fn run() -> Result<()> {
    anyhow::bail!("not written yet")
}
