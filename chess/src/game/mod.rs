//! A game as the user sees it: one turn of a game as one pass of the turn
//! program (`turn`: read the user's move, check it, answer, show the
//! result) and the screen printed between turns (`screen`). This folder
//! owns the flow of a turn and the text a player reads; the rules live in
//! `rules`, the engine's reply in `search`.

pub mod screen;
pub mod turn;
