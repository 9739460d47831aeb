//! A game as the user sees it: one turn of a game as one pass of the turn
//! program (`turn`: read the user's move, check it, answer, show the
//! result), the moves it names in SAN (`notation`), the engine's score in
//! words (`wording`) and the screen printed between turns (`screen`). This
//! folder owns the flow of a turn and the text a player reads; the rules
//! live in `rules`, the engine's reply in `search`. This file holds the one
//! query the turn and its notation share: whether a legal move satisfies a
//! condition.

use regex_asm::{Expr, Machine};
use shakmaty::Color;

use crate::movegen::{legal_moves_for, Options};

mod notation;
pub mod screen;
pub mod turn;
mod wording;

/// `dst` := whether colour `c` (to move) has a legal move satisfying
/// `cond` (evaluated in each move's thread, parts kept, after `prepare`).
fn any_move_into(
    m: &mut Machine,
    c: Color,
    dst: &str,
    prepare: impl FnOnce(&mut Machine),
    cond: impl Fn(&Machine) -> Expr,
) {
    let copy = m.fork_inactive();
    let root = m.pause();
    m.reactivate(copy);
    legal_moves_for(
        m,
        c,
        Options {
            clocks: false,
            keep_parts: true,
            leaf: false,
            delta: None,
        },
    );
    prepare(m);
    let test = cond(m);
    m.if_else(test, |m| m.push("T"), |m| m.destroy_active());
    m.absorb(&root);
    m.destroy_active();
    m.reactivate(root);
    m.if_stack_empty(
        |m| m.set(dst, "F"),
        |m| {
            m.discard_top();
            m.set(dst, "T");
        },
    );
}
