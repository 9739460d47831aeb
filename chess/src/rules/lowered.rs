//! Rewrites built once per distinct special instruction: a special's
//! rewrites are a function of its fields alone, and a deep program lowers
//! the same special many times (the depth-6 reply program holds 8,992
//! special instructions, 79 of them distinct), so [`Lowered`] keeps each
//! distinct special's rewrites for the process and hands out copies.
//!
//! It owns that cache and nothing else: which rewrites a special has is
//! the special's own `rewrites`, called once per distinct value.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Mutex, PoisonError};

use regex_vm::Rewrite;

/// The rewrites of one kind of special, by its value: a key equal to
/// another (`Eq`, derived over every field) has the same rewrites.
pub(crate) struct Lowered<K> {
    built: Mutex<Option<HashMap<K, Vec<Rewrite>>>>,
}

impl<K: Hash + Eq + Clone> Lowered<K> {
    /// An empty cache.
    pub(crate) const fn new() -> Lowered<K> {
        Lowered {
            built: Mutex::new(None),
        }
    }

    /// The rewrites of `key`, `build(key)` the first time (built outside
    /// the lock, so that builds on several threads do not wait for one
    /// another; two that race keep the first).
    pub(crate) fn get(&self, key: &K, build: impl FnOnce(&K) -> Vec<Rewrite>) -> Vec<Rewrite> {
        let lock = || self.built.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(rewrites) = lock().as_ref().and_then(|built| built.get(key).cloned()) {
            return rewrites;
        }
        let rewrites = build(key);
        lock()
            .get_or_insert_with(HashMap::new)
            .entry(key.clone())
            .or_insert_with(|| rewrites.clone());
        rewrites
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_vm::Template;

    #[test]
    fn each_key_is_built_once_and_copied_after() {
        static CACHE: Lowered<u32> = Lowered::new();
        let builds = std::cell::Cell::new(0);
        let build = |n: &u32| {
            builds.set(builds.get() + 1);
            vec![Rewrite::new(format!("a{{{n}}}"), Template::literal("b"))]
        };
        let first = CACHE.get(&3, build);
        let again = CACHE.get(&3, build);
        assert_eq!(builds.get(), 1);
        assert_eq!(first, again);
        assert_eq!(first[0].pattern, "a{3}");
        let other = CACHE.get(&4, build);
        assert_eq!(builds.get(), 2);
        assert_eq!(other[0].pattern, "a{4}");
    }
}
