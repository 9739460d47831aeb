//! The VM crate's integration tests, one test binary (`cargo test -p
//! regex-vm --test integration`): each former test file is a module here,
//! and the helpers they share (`matcher/`, `python/`) are modules of it
//! too. A test's name is its module's then its own
//! (`fast_equals_naive::...`); `cargo test -p regex-vm --test integration
//! js_differential` runs one module. proptest's failure files stay beside
//! their module (`WithSource`, `NAME.proptest-regressions`).

mod backtrack_differential;
mod fast_equals_naive;
mod js_differential;
mod matcher;
mod python;
mod python_differential;
mod thread_table;
