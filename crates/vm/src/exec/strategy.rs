//! Strategies: the ways one distinct pattern can run, one type each, and
//! running one rewrite by its pattern's strategy.
//!
//! A [`Strategy`] is chosen once per distinct pattern when the executor is
//! built (by `prepare`, from the pattern's facts); the run loop then calls
//! [`Strategy::apply`] once per rewrite that its gate lets through, and
//! that is the only dispatch on a pattern's kind at run time. Some
//! strategies hold another to fall back on (our own matcher hands a
//! search it gives up on, or a state that is not ASCII, to the engine it
//! stands in for; a Python-engine pattern's form for the `regex` crate
//! hands a form too large to build to the Python engine): each fallback
//! is exact, so a rewrite leaves the same bytes whichever way it ran. The
//! naive strategies (`Regex` with no groups cut, `Fancy`, `Python`) are
//! the plain loop's `re.sub`.
//!
//! It owns running a rewrite and turning an engine's failure into an
//! [`ExecError`] naming the rewrite; it must not choose a strategy (that
//! is `prepare`), skip a rewrite (that is `gate`) or write a replace-all of
//! its own (those are `replace`).

use std::borrow::Cow;

use memchr::memmem::Finder;

use super::analysis::GroupEdges;
use super::backtrack::Matcher;
use super::deferred::Deferred;
use super::replace::{
    anchored_replace_all, backtrack_replace_all, fancy_anchored_replace_all, fancy_replace_all,
    fixed_replace_all, from_place, literal_replace_all, Expand, Places, Scratchpad,
};
use super::ExecError;
use crate::program::Template;
use crate::pyre;
use crate::stop::Stop;

/// How one distinct pattern runs.
pub(super) enum Strategy {
    /// The pattern is one literal text.
    Literal(Literal),
    /// The `regex` crate's `replace_all` over the text.
    Regex(RegexSearch),
    /// The `regex` crate, anchored, where a prefix occurs.
    RegexAtPrefix(RegexAtPrefix),
    /// `fancy-regex`'s search over the text.
    Fancy(FancySearch),
    /// `fancy-regex`, anchored, where a prefix occurs.
    FancyAtPrefix(FancyAtPrefix),
    /// Our own matcher where a prefix occurs, on ASCII states.
    Own(Own),
    /// Our Python engine.
    Python(Python),
    /// On ASCII states, the pattern's form in the `regex` crate's syntax;
    /// elsewhere our Python engine.
    AsciiForm(AsciiForm),
}

/// A pattern that is literal text: `memmem` finds every match.
pub(super) struct Literal {
    pub(super) finder: Finder<'static>,
}

/// A plain pattern on the `regex` crate, searched over the text from the
/// first place a match can start.
pub(super) struct RegexSearch {
    pub(super) regex: Deferred,
    /// Where its groups lie in the whole match, when that is fixed: then
    /// only the whole match is searched for (see `fixed_replace_all`).
    pub(super) groups: Option<Box<[GroupEdges]>>,
}

/// A plain pattern every match of which starts with `prefix` (two bytes
/// or more: a thread head, or a line's name such as `#z:`):
/// `^(?:pattern)`, tried only where the prefix occurs (and, with a skip
/// needle, only in pieces that hold it). If the anchored form does not
/// build, `search` runs the rewrite.
pub(super) struct RegexAtPrefix {
    pub(super) prefix: Finder<'static>,
    pub(super) anchored: Deferred,
    pub(super) search: RegexSearch,
}

/// A back-reference pattern on `fancy-regex`, searched over the text.
pub(super) struct FancySearch {
    pub(super) regex: fancy_regex::Regex,
}

/// A back-reference pattern every match of which starts with `prefix`:
/// `^(?:pattern)` on `fancy-regex`, tried only where the prefix occurs.
pub(super) struct FancyAtPrefix {
    pub(super) prefix: Finder<'static>,
    pub(super) anchored: fancy_regex::Regex,
    /// Places may be cut to their piece: no backtracking budget applies
    /// (see `fancy_anchored_replace_all`).
    pub(super) cut: bool,
}

/// A pattern every match of which starts with `prefix`, on our own
/// backtracking matcher (see `backtrack`), tried only where the prefix
/// occurs, on ASCII states; on other states, or when the matcher gives up,
/// `otherwise` (the engine it stands in for) runs the rewrite.
pub(super) struct Own {
    pub(super) prefix: Finder<'static>,
    pub(super) matcher: Matcher,
    pub(super) otherwise: Box<Strategy>,
}

/// A pattern only our Python engine reads as CPython does.
pub(super) struct Python {
    pub(super) regex: pyre::Regex,
    /// The engine's stack limit (see `Config::max_state_bytes`).
    pub(super) max_frames: usize,
}

/// A Python-engine pattern with a form in the `regex` crate's syntax that
/// means the same on ASCII text (see `pyre::Regex::ascii_pattern`): that
/// form's strategy on ASCII states, the Python engine elsewhere and when
/// the form's automaton is too large to build (nothing was written yet).
pub(super) struct AsciiForm {
    pub(super) ascii: Box<Strategy>,
    pub(super) python: Python,
}

/// What one rewrite gives its pattern's strategy besides the text: what
/// to write for each match, and what is proven of where matches lie.
pub(super) struct Edit {
    pub(super) template: Template,
    /// The replacement when it has no group reference.
    pub(super) literal: Option<String>,
    /// A literal every match contains past its start, when matches stay
    /// in one piece: places whose piece lacks it are passed over (see
    /// `replace_at_prefixes`).
    pub(super) skip: Option<Finder<'static>>,
    /// `Some(n)` when every match lies inside one piece and starts with
    /// that piece's `n` `%` marks (2 for `%%`, 1 for another head, 0 for no
    /// head): a place is tried on its piece only (see `replace::piece_end`).
    pub(super) head_marks: Option<usize>,
}

/// Where one rewrite runs.
#[derive(Clone, Copy)]
pub(super) struct At<'a> {
    /// The rewrite's index, for errors.
    pub(super) rewrite: usize,
    /// No match starts before this.
    pub(super) from: usize,
    /// The text is ASCII (our own matcher reads bytes).
    pub(super) ascii: bool,
    /// Asked by the Python engine during long searches.
    pub(super) stop: &'a Stop,
}

impl Strategy {
    /// One replace-all of `edit` on `text`; `None` when nothing matched.
    ///
    /// # Errors
    ///
    /// [`ExecError`] naming the rewrite when an engine fails or the stop
    /// falls due during a Python-engine search.
    pub(super) fn apply(
        &self,
        edit: &Edit,
        text: &str,
        at: At<'_>,
        pad: &mut Scratchpad,
    ) -> Result<Option<String>, ExecError> {
        Ok(match self.replace(edit, text, at, pad)? {
            Cow::Borrowed(_) => None,
            Cow::Owned(s) => Some(s),
        })
    }

    fn replace<'t>(
        &self,
        edit: &Edit,
        text: &'t str,
        at: At<'_>,
        pad: &mut Scratchpad,
    ) -> Result<Cow<'t, str>, ExecError> {
        match self {
            Strategy::Literal(s) => Ok(s.replace(edit, text, at, pad)),
            Strategy::Regex(s) => s.replace(edit, text, at, pad),
            Strategy::RegexAtPrefix(s) => s.replace(edit, text, at, pad),
            Strategy::Fancy(s) => s.replace(edit, text, at),
            Strategy::FancyAtPrefix(s) => s.replace(edit, text, at, pad),
            Strategy::Own(s) => s.replace(edit, text, at, pad),
            Strategy::Python(s) => s.replace(edit, text, at),
            Strategy::AsciiForm(s) => s.replace(edit, text, at, pad),
        }
    }

    /// How the pattern runs, in a few words (for listings).
    pub(super) fn path(&self) -> &'static str {
        match self {
            Strategy::Literal(_) => "regex, memmem for the literal",
            Strategy::Regex(_) => "regex",
            Strategy::RegexAtPrefix(_) => "regex anchored at the prefix",
            Strategy::Fancy(_) => "fancy-regex",
            Strategy::FancyAtPrefix(_) => "fancy-regex anchored at the prefix",
            Strategy::Own(own) => match *own.otherwise {
                Strategy::Fancy(_) | Strategy::FancyAtPrefix(_) => {
                    "own matcher at the prefix, else fancy-regex"
                }
                _ => "own matcher at the prefix, else regex",
            },
            Strategy::Python(_) => "python engine",
            Strategy::AsciiForm(_) => "python engine; on ASCII states the regex crate",
        }
    }
}

/// Where [`replace_at_prefixes`](super::replace) tries a pattern whose
/// every match starts with `prefix`.
fn places<'a>(prefix: &'a Finder<'static>, edit: &'a Edit, at: At<'_>) -> Places<'a> {
    Places {
        prefix,
        skip: edit.skip.as_ref(),
        from: at.from,
        head_marks: edit.head_marks,
    }
}

impl Literal {
    fn replace<'t>(
        &self,
        edit: &Edit,
        text: &'t str,
        at: At<'_>,
        pad: &mut Scratchpad,
    ) -> Cow<'t, str> {
        literal_replace_all(&self.finder, text, &edit.template, at.from, &mut pad.spare)
    }
}

impl RegexSearch {
    fn replace<'t>(
        &self,
        edit: &Edit,
        text: &'t str,
        at: At<'_>,
        pad: &mut Scratchpad,
    ) -> Result<Cow<'t, str>, ExecError> {
        let re = self.built(at.rewrite)?;
        Ok(from_place(text, at.from, |rest| {
            match (&edit.literal, &self.groups) {
                (Some(lit), _) => re.replace_all(rest, regex::NoExpand(lit)),
                (None, Some(groups)) => {
                    fixed_replace_all(re, groups, rest, &edit.template, &mut pad.spare)
                }
                (None, None) => re.replace_all(rest, Expand(&edit.template)),
            }
        }))
    }

    /// The regex, built now if its rewrite runs for the first time.
    fn built(&self, rewrite: usize) -> Result<&regex::Regex, ExecError> {
        self.regex.get().map_err(|source| ExecError::TooLarge {
            rewrite,
            source: source.clone(),
        })
    }
}

impl RegexAtPrefix {
    /// The anchored form is a faster way only: if it does not build (one
    /// more group past the nesting limit), the pattern itself runs.
    fn replace<'t>(
        &self,
        edit: &Edit,
        text: &'t str,
        at: At<'_>,
        pad: &mut Scratchpad,
    ) -> Result<Cow<'t, str>, ExecError> {
        match self.anchored.get() {
            Ok(regex) => Ok(anchored_replace_all(
                places(&self.prefix, edit, at),
                regex,
                text,
                edit.literal.as_deref(),
                self.search.groups.as_deref(),
                &edit.template,
                &mut pad.spare,
            )),
            Err(_) => self.search.replace(edit, text, at, pad),
        }
    }
}

impl FancySearch {
    fn replace<'t>(
        &self,
        edit: &Edit,
        text: &'t str,
        at: At<'_>,
    ) -> Result<Cow<'t, str>, ExecError> {
        fancy_replace_all(&self.regex, text, &edit.template, at.from).map_err(|source| {
            ExecError::FancyRegex {
                rewrite: at.rewrite,
                source,
            }
        })
    }
}

impl FancyAtPrefix {
    fn replace<'t>(
        &self,
        edit: &Edit,
        text: &'t str,
        at: At<'_>,
        pad: &mut Scratchpad,
    ) -> Result<Cow<'t, str>, ExecError> {
        let places = places(&self.prefix, edit, at);
        let spare = &mut pad.spare;
        fancy_anchored_replace_all(
            &self.anchored,
            places,
            self.cut,
            text,
            &edit.template,
            spare,
        )
        .map_err(|source| ExecError::FancyRegex {
            rewrite: at.rewrite,
            source,
        })
    }
}

impl Own {
    fn replace<'t>(
        &self,
        edit: &Edit,
        text: &'t str,
        at: At<'_>,
        pad: &mut Scratchpad,
    ) -> Result<Cow<'t, str>, ExecError> {
        if at.ascii {
            let places = places(&self.prefix, edit, at);
            // Given up (`backtrack::GaveUp`): the engine runs it.
            let template = &edit.template;
            if let Ok(next) = backtrack_replace_all(places, &self.matcher, text, template, pad) {
                return Ok(next);
            }
        }
        self.otherwise.replace(edit, text, at, pad)
    }
}

impl Python {
    fn replace<'t>(
        &self,
        edit: &Edit,
        text: &'t str,
        at: At<'_>,
    ) -> Result<Cow<'t, str>, ExecError> {
        let limits = pyre::SearchLimits {
            stop: at.stop,
            max_frames: self.max_frames,
        };
        match self
            .regex
            .replace_all(text, &edit.template, at.from, limits)
        {
            Ok(Some(next)) => Ok(Cow::Owned(next)),
            Ok(None) => Ok(Cow::Borrowed(text)),
            Err(pyre::MatchError::Stopped(reason)) => Err(ExecError::Stopped {
                rewrite: at.rewrite,
                reason,
            }),
            Err(source) => Err(ExecError::Python {
                rewrite: at.rewrite,
                source,
            }),
        }
    }
}

impl AsciiForm {
    fn replace<'t>(
        &self,
        edit: &Edit,
        text: &'t str,
        at: At<'_>,
        pad: &mut Scratchpad,
    ) -> Result<Cow<'t, str>, ExecError> {
        if at.ascii {
            match self.ascii.replace(edit, text, at, pad) {
                // The form too large to build: the Python engine runs the
                // rewrite (nothing was written yet).
                Err(ExecError::TooLarge { .. }) => {}
                done => return done,
            }
        }
        self.python.replace(edit, text, at)
    }
}
