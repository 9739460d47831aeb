//! Texel's method for the evaluation's values, in two commands: `selfplay`
//! plays the native reference against itself and writes its quiet
//! positions with each game's result (`selfplay`); `tune` fits the
//! logistic's scale to the current values, then moves each piece-square
//! value by whole units while the mean squared error between the results
//! and the logistic of the evaluation falls, within the bounds the regex
//! program sums (`chess::values`), and writes the table as source
//! (`tune`). The positions' text (`positions`) is the one thing both
//! share. Nothing here runs a regex program.

mod positions;
mod selfplay;
mod tune;

pub(crate) use selfplay::{run as run_selfplay, SelfplayArgs};
pub(crate) use tune::{run as run_tune, TuneArgs};
