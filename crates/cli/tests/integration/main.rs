//! The binary's integration tests, one test binary (`cargo test -p
//! regex-chess --test integration`): each former test file is a module
//! here, `common` holds what they share. A test's name is its module's
//! then its own (`uci::scripted_session_over_a_pipe`); `cargo test -p
//! regex-chess --test integration uci::` runs one module. The Python and
//! JavaScript helpers the tests run (`play_pty.py`, `uci_python.py`,
//! `successors_check.py`, `web_driver.cjs`) sit one folder up, in
//! `crates/cli/tests/`.

mod arena;
mod bench_program;
mod cli;
mod common;
mod corpus;
mod endings;
mod engine_bench;
mod fuzz;
mod inspect;
mod play;
mod profile_program;
mod run;
mod successors;
mod uci;
mod web;
