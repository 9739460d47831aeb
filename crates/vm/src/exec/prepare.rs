//! Building an executor: each distinct pattern read once, its facts
//! derived once (`analysis`) and its [`Strategy`] chosen once from them
//! (a literal search, our own matcher, `^(?:pattern)` at each literal
//! start, a plain search, the Python engine; in naive mode always the
//! plain `re.sub`); then each rewrite's step (its pattern's strategy, its
//! [`Edit`], whether it can add threads, whether it is thread-confined)
//! and gate (the texts it needs in the state).
//!
//! It owns every choice the executor makes about a pattern; every fact
//! about a pattern it asks of `analysis` (or, for a Python-engine
//! pattern, of `pyre`), never of the pattern's characters. It must not
//! run anything on a state.

use std::collections::HashMap;

use memchr::memmem::Finder;

use super::analysis::{self, Analysis, Facts, Reach};
use super::backtrack::Matcher;
use super::cache::Pool;
use super::deferred::Deferred;
use super::gate::{Gate, NO_PROBE};
use super::reading::Reading;
use super::strategy::{
    AsciiForm, Edit, FancyAtPrefix, FancySearch, Literal, Own, Python, RegexAtPrefix, RegexSearch,
    Strategy,
};
use super::threads::OnTable;
use super::{CompileError, Config, EngineError, Executor};
use crate::program::{Engine, Piece, Program, Rewrite, Template};
use crate::ranks::ByteRanks;

/// One rewrite, ready to run.
pub(super) struct Step {
    /// Its pattern's strategy, an index into the executor's strategies.
    pub(super) strategy: usize,
    /// What it writes and where its matches can lie.
    pub(super) edit: Edit,
    /// Where matches can lie, proven from the pattern.
    pub(super) reach: Reach,
    /// Its matches lie inside one piece and nothing before a place
    /// changes what matches there: it can run on two halves of the state.
    pub(super) confined: bool,
    /// The pieces of the table of threads it can match in, and what they
    /// must be for it to run there (see `threads`); `None`: it runs on
    /// the whole state.
    pub(super) on_table: Option<OnTable>,
    /// The replacement can add a thread (a fork): it writes two thread
    /// heads, or one not at its start, or copies a group that can hold one.
    /// Others leave the count as it was or lower it.
    pub(super) adds_threads: bool,
}

/// A distinct pattern of the program.
struct Distinct<'p> {
    /// The first rewrite that uses it.
    index: usize,
    pattern: &'p str,
    engine: Engine,
}

/// A distinct pattern compiled: its strategy, and what its rewrites'
/// steps and gates are built from.
struct Compiled {
    strategy: Strategy,
    /// Of the pattern as written.
    analysis: Analysis,
    /// The literal text every match starts with (empty if none).
    required: String,
    /// Which groups of the pattern as written can hold `%`.
    percent_groups: Option<Vec<bool>>,
    /// Its group that holds the thread head every match starts with, and
    /// no other `%`.
    head_group: Option<usize>,
    /// It was compiled without its one group around everything (see
    /// [`analysis::whole_match_group`]).
    stripped: bool,
}

impl Executor {
    /// Compiles every distinct pattern of `program` once.
    ///
    /// # Errors
    ///
    /// [`CompileError`] naming the first rewrite whose pattern does not
    /// compile.
    pub fn new(program: &Program, config: Config) -> Result<Executor, CompileError> {
        let (ids, distinct) = distinct_patterns(program);
        let compiled = compile_all(&distinct, &config)?;
        let mut probes = Probes::new(config.byte_ranks);
        // A gate depends on the pattern only: made once for each.
        let mut distinct_gates: Vec<Option<Gate>> = vec![None; distinct.len()];
        let mut steps = Vec::with_capacity(program.len());
        let mut gates = Vec::with_capacity(program.len());
        for (r, &id) in program.rewrites().iter().zip(&ids) {
            let stripped = compiled[id].stripped;
            let gate =
                *distinct_gates[id].get_or_insert_with(|| gate_of(&compiled[id], &mut probes));
            gates.push(gate);
            steps.push(step_of(r, id, &compiled[id], stripped, config.byte_ranks));
        }
        let ascii_templates = program.rewrites().iter().all(|r| {
            r.replacement.pieces().iter().all(|p| {
                matches!(p, Piece::Literal(s) if s.is_ascii()) || matches!(p, Piece::Group(_))
            })
        });
        Ok(Executor {
            stretch_end: stretch_ends(&steps, |s| s.confined),
            table_end: stretch_ends(&steps, |s| s.on_table.is_some()),
            steps,
            gates,
            probes: probes.finders,
            ascii_templates,
            strategies: compiled.into_iter().map(|c| c.strategy).collect(),
            config,
            caches: Pool::default(),
            program: program.clone(),
        })
    }
}

/// The program's distinct `(pattern, engine)` pairs in order of first
/// use, and each rewrite's index among them.
fn distinct_patterns(program: &Program) -> (Vec<usize>, Vec<Distinct<'_>>) {
    let mut ids: HashMap<(&str, Engine), usize> = HashMap::new();
    let mut distinct = Vec::new();
    let of_rewrite = program
        .rewrites()
        .iter()
        .enumerate()
        .map(|(index, r)| {
            *ids.entry((r.pattern.as_str(), r.engine))
                .or_insert_with(|| {
                    distinct.push(Distinct {
                        index,
                        pattern: &r.pattern,
                        engine: r.engine,
                    });
                    distinct.len() - 1
                })
        })
        .collect();
    (of_rewrite, distinct)
}

/// Every distinct pattern compiled, on all cores; the first failure (by
/// rewrite index) is the error.
fn compile_all(distinct: &[Distinct<'_>], config: &Config) -> Result<Vec<Compiled>, CompileError> {
    use rayon::prelude::*;
    let results: Vec<Result<Compiled, CompileError>> = distinct
        .par_iter()
        .map(|d| {
            compile(d, config).map_err(|source| CompileError {
                index: d.index,
                pattern: d.pattern.to_string(),
                source,
            })
        })
        .collect();
    results.into_iter().collect()
}

/// One distinct pattern's strategy and facts. A pattern that is one
/// group around everything is compiled without it (see
/// [`analysis::whole_match_group`]), outside the plain loop.
fn compile(d: &Distinct<'_>, config: &Config) -> Result<Compiled, EngineError> {
    if d.engine == Engine::Python {
        return compile_python(d.pattern, config);
    }
    let stripped = match d.engine {
        Engine::Plain if !config.naive => analysis::whole_match_group(d.pattern),
        _ => None,
    };
    let source = stripped.unwrap_or(d.pattern);
    let reading = Reading::new(source);
    let facts = Facts::of(&reading);
    let strategy = match d.engine {
        Engine::Backref => backref_strategy(&reading, &facts, config)?,
        _ => plain_strategy(&reading, &facts, config)?,
    };
    // The steps read the pattern as written (a stripped group changes
    // which groups there are, not where matches lie).
    let whole = stripped.map(|_| Facts::of(&Reading::new(d.pattern)));
    let whole = whole.unwrap_or_else(|| facts.clone());
    Ok(Compiled {
        strategy,
        analysis: whole.analysis,
        required: facts.prefix,
        percent_groups: whole.percent_groups,
        head_group: whole.head_group,
        stripped: stripped.is_some(),
    })
}

/// A plain pattern's strategy (see [`Strategy`]): a literal text by
/// `memmem`; a pattern with a literal start on our own matcher, else
/// anchored at that start; else a search over the text.
fn plain_strategy(
    reading: &Reading,
    facts: &Facts,
    config: &Config,
) -> Result<Strategy, EngineError> {
    let pattern = reading.pattern();
    // A portable pattern without back-references is its own skeleton,
    // which `portable::check` read as the `regex` crate reads it.
    let regex = match reading.portable() {
        Some(info) if !info.backrefs => Deferred::checked(pattern),
        _ => Deferred::new(pattern)?,
    };
    if config.naive {
        return Ok(Strategy::Regex(RegexSearch {
            regex,
            groups: None,
        }));
    }
    let search = RegexSearch {
        regex,
        groups: facts.fixed_groups.clone().map(Vec::into_boxed_slice),
    };
    let ranks = config.byte_ranks;
    if !facts.at_a_place {
        return Ok(Strategy::Regex(search));
    }
    if let Some(text) = &facts.literal {
        return Ok(Strategy::Literal(Literal {
            finder: ranks.finder(text.as_bytes()),
        }));
    }
    // A pattern whose search may guess, and whose groups the `regex`
    // crate gives without a capture search, runs faster there (its
    // automaton reads each byte once).
    let own = own_matcher(reading, config).filter(|m| !(m.guesses() && search.groups.is_some()));
    Ok(match own {
        Some(matcher) => Strategy::Own(Own {
            prefix: ranks.finder(&matcher.prefix()),
            matcher,
            otherwise: Box::new(Strategy::Regex(search)),
        }),
        None if facts.prefix.len() >= 2 => Strategy::RegexAtPrefix(RegexAtPrefix {
            prefix: ranks.finder(facts.prefix.as_bytes()),
            anchored: Deferred::checked(&format!("^(?:{pattern})")),
            search,
        }),
        None => Strategy::Regex(search),
    })
}

/// A back-reference pattern's strategy (see [`Strategy`]): our own
/// matcher where it applies, `fancy-regex` anchored at a literal start
/// where there is one, else `fancy-regex`'s search.
fn backref_strategy(
    reading: &Reading,
    facts: &Facts,
    config: &Config,
) -> Result<Strategy, EngineError> {
    let pattern = reading.pattern();
    let build = |p: &str| {
        fancy_regex::RegexBuilder::new(p)
            .backtrack_limit(config.fancy_backtrack_limit)
            .build()
            .map_err(EngineError::from)
    };
    let regex = build(pattern)?;
    if config.naive {
        return Ok(Strategy::Fancy(FancySearch { regex }));
    }
    let ranks = config.byte_ranks;
    // Anchored at a place, a pattern must not look at the text before
    // it: only portable patterns are run that way.
    let fancy = if facts.prefix.is_empty() || !facts.at_a_place {
        // A search from every place. With no backtracking budget (a file's
        // program, searched as long as CPython would), our Python engine
        // (which reads a portable pattern as the `regex` crate does)
        // passes over the places no match starts at and backtracks faster
        // than `fancy-regex` (`bench --engine`: `([^;\n]*;)\1+` 0.9x
        // CPython on `fancy-regex`, 2.3x on ours); a budget is
        // `fancy-regex`'s.
        match crate::pyre::Regex::new(pattern) {
            Ok(regex) if config.fancy_backtrack_limit == usize::MAX => {
                Strategy::Python(python(regex, config))
            }
            _ => Strategy::Fancy(FancySearch { regex }),
        }
    } else {
        Strategy::FancyAtPrefix(FancyAtPrefix {
            prefix: ranks.finder(facts.prefix.as_bytes()),
            anchored: build(&format!("^(?:{pattern})"))?,
            // With no budget, a place cut to its piece fails only where
            // the whole text would.
            cut: config.fancy_backtrack_limit == usize::MAX,
        })
    };
    let own = own_matcher(reading, config).filter(|_| facts.at_a_place);
    Ok(match own {
        Some(matcher) => Strategy::Own(Own {
            prefix: ranks.finder(&matcher.prefix()),
            matcher,
            otherwise: Box::new(fancy),
        }),
        None => fancy,
    })
}

/// Our own matcher for the pattern, when it is on, compiles the pattern,
/// and every match starts with a literal it can be tried at.
fn own_matcher(reading: &Reading, config: &Config) -> Option<Matcher> {
    let matcher = config
        .own_matcher
        .then(|| Matcher::of_reading(reading, config.byte_ranks))
        .flatten()?;
    let start = matcher.prefix();
    (start.len() >= BACKTRACK_PREFIX || start.first() == Some(&b'`')).then_some(matcher)
}

/// A Python-engine pattern's strategy and facts: the facts from our own
/// parse (the Rust parser may read the pattern otherwise, or not at all),
/// those of a superset of it in the `regex` crate's syntax, else its
/// exact texts only.
fn compile_python(pattern: &str, config: &Config) -> Result<Compiled, EngineError> {
    let regex = crate::pyre::Regex::new(pattern)?;
    let needle = regex.needle().map(str::to_string);
    let needle_leads = regex.needle() == Some(regex.prefix());
    let (analysis, percent_groups, head_group) = match regex.superset_pattern() {
        Some(s) => {
            let facts = Facts::of(&Reading::new(s));
            let mut a = facts.analysis;
            if a.needle.is_none() {
                a.needle = needle;
                a.needle_leads = needle_leads;
            }
            (a, facts.percent_groups, facts.head_group)
        }
        None => (
            Analysis {
                reach: Reach::Global,
                needle,
                needle_leads,
                looks: true,
                lined: None,
            },
            None,
            None,
        ),
    };
    let required = regex.prefix().to_string();
    // A form the `regex` crate cannot read leaves the Python engine alone
    // (and so does one too large to build, when it first runs).
    let ascii = regex
        .ascii_pattern()
        .filter(|_| !config.naive)
        .and_then(|p| {
            let reading = Reading::new(p);
            plain_strategy(&reading, &Facts::of(&reading), config).ok()
        });
    // A form the `regex` crate could only search for over the whole text
    // (its own parse cannot prove where matches start) loses to ours
    // where every match starts with a literal: ours tries only where the
    // literal occurs, where the crate's capture engines walk every byte
    // (`(?s)BEGIN(.*?)END`: 0.6x CPython on the crate, 3.8x on ours).
    let searched_everywhere = matches!(ascii, Some(Strategy::Regex(_)));
    let ascii =
        ascii.filter(|_| !(searched_everywhere && regex.prefix().len() >= BACKTRACK_PREFIX));
    let python = python(regex, config);
    let strategy = match ascii {
        Some(ascii) => Strategy::AsciiForm(AsciiForm {
            ascii: Box::new(ascii),
            python,
        }),
        None => Strategy::Python(python),
    };
    Ok(Compiled {
        strategy,
        analysis,
        required,
        percent_groups,
        head_group,
        stripped: false,
    })
}

/// A pattern on our Python engine, its stack bounded by the state cap.
fn python(regex: crate::pyre::Regex, config: &Config) -> Python {
    Python {
        regex,
        max_frames: (config.max_state_bytes / crate::pyre::FRAME_BYTES).max(1 << 20),
    }
}

/// The distinct texts the gates probe, each given an index once.
struct Probes {
    ranks: ByteRanks,
    ids: HashMap<String, usize>,
    finders: Vec<Finder<'static>>,
}

impl Probes {
    fn new(ranks: ByteRanks) -> Probes {
        Probes {
            ranks,
            ids: HashMap::new(),
            finders: Vec::new(),
        }
    }

    /// The index of `text`'s probe.
    fn id(&mut self, text: &str) -> usize {
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        self.finders.push(self.ranks.finder(text.as_bytes()));
        self.ids.insert(text.to_string(), self.finders.len() - 1);
        self.finders.len() - 1
    }
}

/// The gate of a rewrite of pattern `c`: its thread head, the text it
/// starts with, its needle.
fn gate_of(c: &Compiled, probes: &mut Probes) -> Gate {
    let analysis = &c.analysis;
    // Texts every match starts with: its thread head, and its literal
    // prefix (the longer).
    let head = match &analysis.reach {
        Reach::Active => Some("%%".to_string()),
        Reach::Marked => Some("%`".to_string()),
        Reach::Tagged(tag) => Some(format!("%{tag}\n")),
        Reach::Global | Reach::AnyPiece => None,
    };
    let required = Some(c.required.as_str()).filter(|t| !t.is_empty());
    let mut slots = [NO_PROBE; 3];
    for (slot, text) in slots.iter_mut().zip(
        [head.as_deref(), required, analysis.needle.as_deref()]
            .into_iter()
            .flatten(),
    ) {
        *slot = probes.id(text);
    }
    Gate {
        probes: slots,
        lead: required
            .or(head.as_deref())
            .filter(|_| !analysis.looks)
            .map_or(NO_PROBE, |t| probes.id(t)),
    }
}

/// The step of rewrite `r`, whose pattern is distinct pattern `id`,
/// compiled as `c` (`stripped`: without its one group).
fn step_of(r: &Rewrite, id: usize, c: &Compiled, stripped: bool, ranks: ByteRanks) -> Step {
    let analysis = &c.analysis;
    let template = match stripped {
        true => group_one_as_whole_match(&r.replacement),
        false => r.replacement.clone(),
    };
    let skip = analysis
        .needle
        .as_deref()
        .filter(|n| !analysis.needle_leads && analysis.reach != Reach::Global && !n.contains('%'))
        .map(|n| ranks.finder(n.as_bytes()));
    let head_marks = match analysis.reach {
        Reach::Global => None,
        Reach::AnyPiece => Some(0),
        Reach::Active => Some(2),
        Reach::Marked | Reach::Tagged(_) => Some(1),
    };
    Step {
        strategy: id,
        edit: Edit {
            template,
            literal: literal_of(&r.replacement),
            skip,
            head_marks,
        },
        reach: analysis.reach.clone(),
        confined: analysis.reach != Reach::Global && !analysis.looks,
        on_table: OnTable::of(analysis),
        adds_threads: adds_threads(c, &r.replacement),
    }
}

/// The replacement's text when it has no group reference.
fn literal_of(template: &Template) -> Option<String> {
    (!template.has_groups()).then(|| {
        template
            .pieces()
            .iter()
            .map(|p| match p {
                Piece::Literal(s) => s.as_str(),
                Piece::Group(_) => "",
            })
            .collect()
    })
}

/// Per step, the end of the stretch of steps that are `in_stretch` it
/// starts (the first step after it that is not, or the program's end).
fn stretch_ends(steps: &[Step], in_stretch: impl Fn(&Step) -> bool) -> Vec<usize> {
    let mut stretch_end = vec![steps.len(); steps.len()];
    for i in (0..steps.len()).rev() {
        stretch_end[i] = match (in_stretch(&steps[i]), stretch_end.get(i + 1)) {
            (false, _) => i,
            (true, Some(&end)) => end,
            (true, None) => steps.len(),
        };
    }
    stretch_end
}

/// Whether a rewrite of pattern `c` can raise the thread count (see
/// [`Step::adds_threads`]): one head written at the start of the
/// replacement (as text, or as the group that holds the match's head)
/// only replaces the head every match starts with, when the pattern
/// starts with one.
fn adds_threads(c: &Compiled, template: &Template) -> bool {
    let Some(groups) = &c.percent_groups else {
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
            Piece::Group(n) if i == 0 && c.head_group == Some(*n) => heads += 1,
            Piece::Group(n) => {
                if groups.get(*n).copied().unwrap_or(true) {
                    return true;
                }
            }
        }
    }
    let reach = &c.analysis.reach;
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
