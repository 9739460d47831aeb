//! `regex-chess successors`: the FEN of every position one legal move
//! away, computed by the successors rewrite list (`chess::successors`) on
//! our VM; and the choice of that list for `dump`.
//!
//! It owns the command's arguments and printing: the `--fen` position is
//! checked and written as python-chess writes it (`input_line`), the list
//! runs on it once, and its lines are printed, each with a newline. It
//! computes no chess itself.

use anyhow::{Context, Result};
use chess::successors::Promotions;

use crate::textio;

/// The promotions a successors list makes (`--promotions`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum PromotionsArg {
    /// To a bishop, knight, queen or rook.
    #[default]
    All,
    /// To a queen only.
    Queen,
}

impl From<PromotionsArg> for Promotions {
    fn from(p: PromotionsArg) -> Promotions {
        match p {
            PromotionsArg::All => Promotions::All,
            PromotionsArg::Queen => Promotions::Queen,
        }
    }
}

/// Arguments of `regex-chess successors`.
#[derive(clap::Args)]
pub(crate) struct SuccessorsArgs {
    /// The position (FEN; missing fields after the board mean `w - - 0 1`,
    /// the clocks may have any number of digits).
    #[arg(long, default_value = crate::START_FEN)]
    pub fen: String,
    /// The promotions a pawn reaching the last rank makes.
    #[arg(long, value_enum, default_value_t = PromotionsArg::All)]
    pub promotions: PromotionsArg,
}

/// Prints the successors of `--fen`, one FEN per line, in the order of
/// the moves' UCI text.
pub(crate) fn run(args: SuccessorsArgs) -> Result<()> {
    let line = chess::successors::input_line(&args.fen).context("the --fen position")?;
    let out = chess::successors::run(&line, args.promotions.into())
        .context("running the successors list")?;
    if !out.is_empty() {
        textio::println(&out)?;
    }
    Ok(())
}

/// The successors list `dump` writes.
pub(crate) fn program(promotions: PromotionsArg) -> Result<&'static regex_vm::Program> {
    Ok(&chess::successors::pass(promotions.into())
        .context("building the successors program")?
        .program)
}
