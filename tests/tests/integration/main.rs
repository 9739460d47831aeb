//! The workspace's integration and differential tests, one test binary
//! (`cargo test -p regex-chess-tests --test integration`): each former
//! test file is a module here (`architecture` has its source reader in
//! `architecture/source.rs`). A test's name is its module's then its own
//! (`probe_cut::...`); `cargo test -p regex-chess-tests --test integration
//! probe_cut::` runs one module. Shared machinery is the crate's library
//! (`tests/src/lib.rs`); proptest's failure files stay beside their module
//! (`regex_chess_tests::proptest_config`).

mod architecture;
mod bench_turns;
mod book;
mod capture_plies;
mod chess_isa;
mod cost_model;
mod cross_engine;
mod deadline;
mod draw_sense;
mod dsl;
mod endgames;
mod isa;
mod mate_guard;
mod movegen;
mod probe_cut;
mod quiescence;
mod search;
mod search_cap;
mod styles;
mod successors;
mod threats;
mod turn;
