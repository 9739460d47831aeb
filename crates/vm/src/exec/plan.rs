//! Building an executor: each distinct pattern compiled once, on the
//! engine and path its proven facts allow (a literal search, our own
//! matcher, `^(?:pattern)` at each literal start, or a plain search), and
//! each rewrite's step (template, reach, skip needle, whether it can add
//! threads) and gate (the texts it needs in the state).
//!
//! It owns the choice of path; every fact about a pattern it asks of
//! `analysis`, never of the pattern's characters. It must not run
//! anything on a state.

use std::collections::HashMap;

use super::analysis::{self, GroupEdges, Reach};
use super::backtrack::Matcher;
use super::deferred::Deferred;
use super::gate::{Gate, NO_PROBE};
use super::reading::Reading;
use super::{CompileError, Config, EngineError, Executor};
use crate::program::{Engine, Piece, Program, Template};

pub(super) enum Compiled {
    /// A plain pattern; with its required prefix and the same pattern
    /// anchored at the start, when every match begins with a literal (see
    /// [`anchored_replace_all`]); and where its groups lie in the whole
    /// match, when that is fixed (see [`analysis::fixed_groups`]).
    Plain(Deferred, Option<Box<PlainFast>>, Option<Box<[GroupEdges]>>),
    /// A back-reference pattern; with its required prefix and the same
    /// pattern anchored at the start, when every match begins with a
    /// literal (see [`fancy_replace_all`]).
    Fancy(
        Box<fancy_regex::Regex>,
        Option<Box<Anchored>>,
        Option<Box<Own>>,
    ),
    /// A pattern only our Python engine reads as CPython does; with its
    /// form for ASCII states on the `regex` crate's paths, when it has one
    /// (see `pyre::Regex::ascii_pattern`).
    Python(Box<crate::pyre::Regex>, Option<Box<Compiled>>),
}

impl Compiled {
    /// How a pattern runs, in a few words (for listings).
    pub(super) fn path(&self) -> &'static str {
        match self {
            Compiled::Plain(_, None, _) => "regex",
            Compiled::Plain(_, Some(fast), _) => match **fast {
                PlainFast::Literal(_) => "regex, memmem for the literal",
                PlainFast::Anchored { .. } => "regex anchored at the prefix",
                PlainFast::Backtrack { .. } => "own matcher at the prefix, else regex",
            },
            Compiled::Fancy(_, _, Some(_)) => "own matcher at the prefix, else fancy-regex",
            Compiled::Fancy(_, Some(_), None) => "fancy-regex anchored at the prefix",
            Compiled::Fancy(_, None, None) => "fancy-regex",
            Compiled::Python(_, None) => "python engine",
            Compiled::Python(_, Some(_)) => "python engine; on ASCII states the regex crate",
        }
    }
}

/// A back-reference pattern our own matcher runs (see [`backtrack`]),
/// tried only where `prefix` occurs, on ASCII states; if it gives up,
/// fancy-regex runs the rewrite.
pub(super) struct Own {
    pub(super) prefix: memchr::memmem::Finder<'static>,
    pub(super) matcher: Matcher,
}

/// A faster way to run a plain pattern, proven from its text.
pub(super) enum PlainFast {
    /// The pattern is this literal text: `memmem` finds every match.
    Literal(memchr::memmem::Finder<'static>),
    /// Every match starts with `prefix` (two bytes or more: a thread
    /// head, or a line's name such as `#z:`): `^(?:pattern)`, tried only
    /// where the prefix occurs (and, with a skip needle, only in pieces
    /// that hold it).
    Anchored {
        prefix: memchr::memmem::Finder<'static>,
        regex: Deferred,
    },
    /// Every match starts with `prefix`: our own backtracking matcher,
    /// tried only where the prefix occurs, on ASCII states (see
    /// [`backtrack`]). If it gives up, the `regex` crate runs the rewrite.
    Backtrack {
        prefix: memchr::memmem::Finder<'static>,
        matcher: Matcher,
    },
}

/// A back-reference pattern every match of which starts with `prefix`:
/// `^(?:pattern)`, tried only where the prefix occurs.
pub(super) struct Anchored {
    pub(super) prefix: memchr::memmem::Finder<'static>,
    pub(super) regex: fancy_regex::Regex,
}

pub(super) struct Step {
    pub(super) compiled: usize,
    pub(super) template: Template,
    /// The replacement when it has no group reference.
    pub(super) literal: Option<String>,
    /// Where matches can lie, proven from the pattern.
    pub(super) reach: Reach,
    /// A literal every match contains past its start, when matches stay
    /// in one piece: places whose piece lacks it are passed over (see
    /// [`replace_at_prefixes`]).
    pub(super) skip: Option<memchr::memmem::Finder<'static>>,
    /// `Some(n)` when every match lies inside one piece and starts with
    /// that piece's `n` `%` marks (2 for `%%`, 1 for another head, 0 for no
    /// head): a place is tried on its piece only (see
    /// [`super::replace::piece_end`]).
    pub(super) head_marks: Option<usize>,
    /// The replacement can add a thread (a fork): it writes two thread
    /// heads, or one not at its start, or copies a group that can hold one.
    /// Others leave the count as it was or lower it.
    pub(super) adds_threads: bool,
}

impl Executor {
    /// Compiles every distinct pattern of `program` once.
    ///
    /// # Errors
    ///
    /// [`CompileError`] naming the first rewrite whose pattern does not
    /// compile.
    pub fn new(program: &Program, config: Config) -> Result<Executor, CompileError> {
        // Distinct patterns first, in order of first use, compiled on all
        // cores; the first failure (by rewrite index) is the error.
        // A pattern that is one group around everything is compiled
        // without it (see `whole_match_group`), outside the plain loop.
        let mut by_pattern: HashMap<(&str, Engine), usize> = HashMap::new();
        let mut distinct: Vec<(usize, &str, Engine, Option<&str>)> = Vec::new();
        for (index, r) in program.rewrites().iter().enumerate() {
            by_pattern
                .entry((r.pattern.as_str(), r.engine))
                .or_insert_with(|| {
                    let stripped = match r.engine {
                        Engine::Plain if !config.naive => analysis::whole_match_group(&r.pattern),
                        _ => None,
                    };
                    distinct.push((index, r.pattern.as_str(), r.engine, stripped));
                    distinct.len() - 1
                });
        }
        // Each distinct pattern's engine and facts, on all cores.
        let (compiled, facts): (Vec<Compiled>, Vec<Facts>) = {
            use rayon::prelude::*;
            let results: Vec<Result<(Compiled, Facts), CompileError>> = distinct
                .par_iter()
                .map(|&(index, pattern, engine, stripped)| {
                    let source = stripped.unwrap_or(pattern);
                    let compiled =
                        compile(source, engine, &config).map_err(|source| CompileError {
                            index,
                            pattern: pattern.to_string(),
                            source,
                        })?;
                    let facts = Facts::of(pattern, source, &compiled);
                    Ok((compiled, facts))
                })
                .collect();
            results
                .into_iter()
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .unzip()
        };
        let mut steps = Vec::with_capacity(program.len());
        let mut gates = Vec::with_capacity(program.len());
        let mut looks = Vec::with_capacity(program.len());
        let mut probe_ids: HashMap<String, usize> = HashMap::new();
        let mut probes = Vec::new();
        let mut probe = |text: String| {
            *probe_ids.entry(text).or_insert_with_key(|t| {
                probes.push(config.byte_ranks.finder(t.as_bytes()));
                probes.len() - 1
            })
        };
        for r in program.rewrites() {
            let id = by_pattern[&(r.pattern.as_str(), r.engine)];
            let literal = if !r.replacement.has_groups() {
                Some(
                    r.replacement
                        .pieces()
                        .iter()
                        .map(|p| match p {
                            Piece::Literal(s) => s.as_str(),
                            Piece::Group(_) => "",
                        })
                        .collect(),
                )
            } else {
                None
            };
            let Facts {
                analysis,
                required,
                percent_groups,
            } = &facts[id];
            looks.push(analysis.looks);
            let stripped = distinct[id].3;
            let template = match stripped {
                Some(_) => group_one_as_whole_match(&r.replacement),
                None => r.replacement.clone(),
            };
            // Texts every match starts with: its thread head, and its
            // literal prefix (the longer).
            let head = match &analysis.reach {
                Reach::Active => Some("%%".to_string()),
                Reach::Marked => Some("%`".to_string()),
                Reach::Tagged(tag) => Some(format!("%{tag}\n")),
                Reach::Global | Reach::AnyPiece => None,
            };
            let required = Some(required.clone()).filter(|t| !t.is_empty());
            let mut probes = [NO_PROBE; 3];
            for (slot, text) in probes
                .iter_mut()
                .zip([&head, &required, &analysis.needle].into_iter().flatten())
            {
                *slot = probe(text.clone());
            }
            gates.push(Gate {
                probes,
                lead: required
                    .as_ref()
                    .or(head.as_ref())
                    .filter(|_| !analysis.looks)
                    .map_or(NO_PROBE, |t| probe(t.clone())),
            });
            steps.push(Step {
                compiled: id,
                template,
                literal,
                skip: analysis
                    .needle
                    .as_deref()
                    .filter(|n| {
                        !analysis.needle_leads
                            && analysis.reach != Reach::Global
                            && !n.contains('%')
                    })
                    .map(|n| config.byte_ranks.finder(n.as_bytes())),
                head_marks: match analysis.reach {
                    Reach::Global => None,
                    Reach::AnyPiece => Some(0),
                    Reach::Active => Some(2),
                    Reach::Marked | Reach::Tagged(_) => Some(1),
                },
                reach: analysis.reach.clone(),
                adds_threads: adds_threads(percent_groups, &r.replacement, &analysis.reach),
            });
        }
        let ascii_templates = program.rewrites().iter().all(|r| {
            r.replacement.pieces().iter().all(|p| {
                matches!(p, Piece::Literal(s) if s.is_ascii()) || matches!(p, Piece::Group(_))
            })
        });
        // A step is thread-confined when its matches provably lie inside
        // one piece and nothing before a place changes what matches there.
        let mut stretch_end = vec![steps.len(); steps.len()];
        for i in (0..steps.len()).rev() {
            let confined = steps[i].reach != Reach::Global && !looks[i];
            stretch_end[i] = match (confined, stretch_end.get(i + 1)) {
                (false, _) => i,
                (true, Some(&end)) => end,
                (true, None) => steps.len(),
            };
        }
        Ok(Executor {
            stretch_end,
            steps,
            gates,
            probes,
            ascii_templates,
            compiled,
            config,
            program: program.clone(),
        })
    }
}

/// What the steps of one distinct pattern need to know of it.
struct Facts {
    analysis: analysis::Analysis,
    /// The literal text every match starts with (empty if none).
    required: String,
    /// Which groups can hold `%` (see [`analysis::groups_with_percent`]).
    percent_groups: Option<Vec<bool>>,
}

impl Facts {
    /// The facts of `pattern`, compiled from `source` (the pattern, or
    /// the inside of its one group) as `compiled`.
    fn of(pattern: &str, source: &str, compiled: &Compiled) -> Facts {
        match compiled {
            // Facts from our own parse (the Rust parser may read the
            // pattern otherwise, or not at all): those of a superset of
            // it in the `regex` crate's syntax, else its exact texts only.
            Compiled::Python(re, _) => {
                let needle = re.needle().map(str::to_string);
                let needle_leads = re.needle() == Some(re.prefix());
                let (analysis, percent_groups) = match re.superset_pattern() {
                    Some(s) => {
                        let facts = analysis::Facts::of(&Reading::new(s));
                        let mut a = facts.analysis;
                        if a.needle.is_none() {
                            a.needle = needle;
                            a.needle_leads = needle_leads;
                        }
                        (a, facts.percent_groups)
                    }
                    None => (
                        analysis::Analysis {
                            reach: Reach::Global,
                            needle,
                            needle_leads,
                            looks: true,
                        },
                        None,
                    ),
                };
                Facts {
                    analysis,
                    required: re.prefix().to_string(),
                    percent_groups,
                }
            }
            Compiled::Plain(..) | Compiled::Fancy(..) => {
                let whole = analysis::Facts::of(&Reading::new(pattern));
                Facts {
                    analysis: whole.analysis,
                    required: analysis::Facts::of(&Reading::new(source)).prefix,
                    percent_groups: whole.percent_groups,
                }
            }
        }
    }
}

fn compile(pattern: &str, engine: Engine, config: &Config) -> Result<Compiled, EngineError> {
    match engine {
        Engine::Python => {
            let re = crate::pyre::Regex::new(pattern)?;
            // A form the `regex` crate cannot read leaves the Python
            // engine alone (and so does one too large to build, when it
            // first runs).
            let on_ascii = re
                .ascii_pattern()
                .filter(|_| !config.naive)
                .and_then(|p| compile(p, Engine::Plain, config).ok())
                .map(Box::new);
            Ok(Compiled::Python(Box::new(re), on_ascii))
        }
        Engine::Plain => {
            let reading = Reading::new(pattern);
            let facts = analysis::Facts::of(&reading);
            // A portable pattern without back-references is its own
            // skeleton, which `portable::check` read as the `regex` crate
            // reads it.
            let re = match reading.portable() {
                Some(info) if !info.backrefs => Deferred::checked(pattern),
                _ => Deferred::new(pattern)?,
            };
            let prefix = facts.prefix;
            let groups = facts.fixed_groups.map(Vec::into_boxed_slice);
            let fast = if !facts.at_a_place {
                None
            } else if let Some(text) = facts.literal {
                Some(Box::new(PlainFast::Literal(
                    config.byte_ranks.finder(text.as_bytes()),
                )))
            } else if let Some((matcher, start)) = config
                .own_matcher
                .then(|| Matcher::of_reading(&reading, config.byte_ranks))
                .flatten()
                // A pattern whose search may guess, and whose groups the
                // `regex` crate gives without a capture search, runs
                // faster there (its automaton reads each byte once).
                .filter(|m| !(m.guesses() && groups.is_some()))
                .map(|m| {
                    let start = m.prefix();
                    (m, start)
                })
                .filter(|(_, start)| {
                    start.len() >= BACKTRACK_PREFIX || start.first() == Some(&b'`')
                })
            {
                Some(Box::new(PlainFast::Backtrack {
                    prefix: config.byte_ranks.finder(&start),
                    matcher,
                }))
            } else if prefix.len() >= 2 {
                Some(Box::new(PlainFast::Anchored {
                    prefix: config.byte_ranks.finder(prefix.as_bytes()),
                    regex: Deferred::checked(&format!("^(?:{pattern})")),
                }))
            } else {
                None
            };
            Ok(Compiled::Plain(re, fast, groups))
        }
        Engine::Backref => {
            let build = |p: &str| {
                fancy_regex::RegexBuilder::new(p)
                    .backtrack_limit(config.fancy_backtrack_limit)
                    .build()
                    .map_err(EngineError::from)
            };
            let re = build(pattern)?;
            let reading = Reading::new(pattern);
            let facts = analysis::Facts::of(&reading);
            let prefix = facts.prefix;
            // Anchored at a place, a pattern must not look at the text
            // before it: only portable patterns are run that way.
            let portable = facts.at_a_place;
            let anchored = if prefix.is_empty() || !portable {
                None
            } else {
                Some(Box::new(Anchored {
                    prefix: config.byte_ranks.finder(prefix.as_bytes()),
                    regex: build(&format!("^(?:{pattern})"))?,
                }))
            };
            let own = config
                .own_matcher
                .then_some(())
                .filter(|()| portable)
                .and_then(|()| Matcher::of_reading(&reading, config.byte_ranks))
                .and_then(|matcher| {
                    let start = matcher.prefix();
                    (start.len() >= BACKTRACK_PREFIX || start.first() == Some(&b'`')).then(|| {
                        Box::new(Own {
                            prefix: config.byte_ranks.finder(&start),
                            matcher,
                        })
                    })
                });
            Ok(Compiled::Fancy(Box::new(re), anchored, own))
        }
    }
}

/// Whether a rewrite can raise the thread count (see [`Step::adds_threads`]):
/// one head written at the start of the replacement only replaces the head
/// every match starts with, when the pattern starts with one.
/// `groups` is [`analysis::groups_with_percent`] of the pattern.
fn adds_threads(groups: &Option<Vec<bool>>, template: &Template, reach: &Reach) -> bool {
    let Some(groups) = groups else {
        return true;
    };
    let mut heads = 0;
    for (i, piece) in template.pieces().iter().enumerate() {
        match piece {
            Piece::Literal(s) => {
                let b = s.as_bytes();
                for j in (0..b.len()).filter(|&j| b[j] == b'%' && (j == 0 || b[j - 1] != b'%')) {
                    if i > 0 || j > 0 {
                        return true;
                    }
                    heads += 1;
                }
            }
            Piece::Group(n) => {
                if groups.get(*n).copied().unwrap_or(true) {
                    return true;
                }
            }
        }
    }
    heads > 1 || (heads == 1 && matches!(reach, Reach::Global | Reach::AnyPiece))
}

/// The template with group 1 read as the whole match (see
/// [`analysis::whole_match_group`]).
fn group_one_as_whole_match(template: &Template) -> Template {
    template
        .pieces()
        .iter()
        .fold(Template::new(), |t, p| match p {
            Piece::Literal(s) => t.text(s),
            Piece::Group(1) => t.group(0),
            Piece::Group(n) => t.group(*n),
        })
}

/// Our own matcher runs a pattern only when every match starts with a
/// literal at least this long (one rare byte, `` ` ``, measured no
/// better).
const BACKTRACK_PREFIX: usize = 2;
