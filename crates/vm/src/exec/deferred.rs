//! A `regex` crate regex whose automaton is built when it first runs.
//!
//! Building the automaton is most of the cost of loading a program, and
//! most of a program's patterns never run in a given game (or run on
//! another path: our own matcher, a literal search). The syntax is read
//! at load, so a pattern the `regex` crate refuses is still refused
//! there, naming its rewrite; what is left for the first run is the one
//! error no parse can foresee, an automaton past the size limit. It owns
//! only the building; it must not choose paths or run anything.

use std::sync::OnceLock;

/// The `regex` crate's limit on a compiled automaton (its default is 10 MB;
/// some of the turn program's patterns need more). `format` checks files
/// against the same one.
pub(crate) const SIZE_LIMIT: usize = 64 << 20;

/// A regex built on first use.
pub(super) struct Deferred {
    pattern: Box<str>,
    built: OnceLock<Result<regex::Regex, regex::Error>>,
}

impl Deferred {
    /// `pattern`, its syntax read now.
    ///
    /// # Errors
    ///
    /// The `regex` crate's syntax error, as building it would give.
    pub(super) fn new(pattern: &str) -> Result<Deferred, regex::Error> {
        // The same reading as `regex::RegexBuilder`'s defaults.
        regex_syntax::Parser::new()
            .parse(pattern)
            .map_err(|e| regex::Error::Syntax(e.to_string()))?;
        Ok(Deferred::checked(pattern))
    }

    /// `pattern`, whose syntax the caller knows to be good (a portable
    /// pattern, or one made from a pattern that was read).
    pub(super) fn checked(pattern: &str) -> Deferred {
        Deferred {
            pattern: pattern.into(),
            built: OnceLock::new(),
        }
    }

    /// The regex, built now if this is its first use.
    ///
    /// # Errors
    ///
    /// The `regex` crate's error (an automaton past [`SIZE_LIMIT`]), the
    /// same at every call.
    pub(super) fn get(&self) -> Result<&regex::Regex, &regex::Error> {
        self.built
            .get_or_init(|| {
                regex::RegexBuilder::new(&self.pattern)
                    .size_limit(SIZE_LIMIT)
                    .build()
            })
            .as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_syntax_error_is_found_at_load_and_a_size_error_at_first_use() {
        let Err(e) = Deferred::new("a(b") else {
            panic!("refused at load")
        };
        assert!(matches!(e, regex::Error::Syntax(_)), "{e:?}");
        // Parses, but its automaton passes the limit.
        let big = Deferred::new(r"\w{1000}\w{1000}\w{1000}").expect("parses");
        assert!(matches!(big.get(), Err(regex::Error::CompiledTooBig(_))));
        assert!(big.get().is_err(), "the same answer again");
        let small = Deferred::new("a+b").expect("parses");
        assert!(small.get().expect("builds").is_match("xaab"));
    }
}
