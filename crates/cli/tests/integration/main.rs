//! The binary's tests, one module per subject, built as one test binary
//! (one link, and libtest runs the tests of every module side by side):
//! each spawns `regex-chess` through `common` and checks what it prints,
//! against shakmaty, python-chess, CPython, Node, Stockfish or Chromium as
//! each module's own `//!` says.

mod arena;
mod bench_program;
mod cli;
mod common;
mod endings;
mod fuzz;
mod inspect;
mod play;
mod run;
mod successors;
mod uci;
mod web;
