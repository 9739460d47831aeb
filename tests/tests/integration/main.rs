//! The integration and differential tests of the workspace, one module
//! per subject, built as one test binary (one link, and libtest runs the
//! tests of every module side by side). Each module's own `//!` says what
//! it checks and against what.

mod architecture;
mod bench_turns;
mod capture_plies;
mod chess_isa;
mod cross_engine;
mod deadline;
mod draw_sense;
mod dsl;
mod endgames;
mod isa;
mod movegen;
mod probe_cut;
mod quiescence;
mod search;
mod search_cap;
mod stack_style;
mod successors;
mod threats;
mod turn;
