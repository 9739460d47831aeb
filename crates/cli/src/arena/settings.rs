//! `match`'s settings: the numbers and names of [`MatchArgs`] read and
//! checked once ([`Settings::of`], [`Settings::check`]), each error
//! quoting at most 100 characters of what was typed, and the native
//! engines of a match ([`Native`]: leaves and selective rules). It plays
//! nothing and starts no process; `arena` runs the match with them.

use anyhow::{anyhow, bail, Result};
use shakmaty::Color;

use chess::reference::{Leaves, Select};
use chess::vocabulary::Plan;

use super::sprt::Sprt;
use super::time_control::TimeControl;
use super::{quote, MatchArgs};

/// The numbers of `MatchArgs`, parsed here rather than by clap so that an
/// error quotes at most 100 characters of what was typed.
pub(super) struct Settings {
    /// The most games to play, `None`: until the test decides.
    pub(super) games: Option<u32>,
    /// The sequential test (`--sprt`).
    pub(super) sprt: Option<Sprt>,
    /// Games played at once.
    pub(super) concurrency: u32,
    pub(super) movetime: u64,
    /// Both engines' clocks (`--tc`).
    pub(super) tc: Option<TimeControl>,
    /// Our time a move (`--our-movetime`).
    pub(super) our_movetime: Option<u64>,
    pub(super) depth: chess::Depth,
    pub(super) max_plies: u32,
    /// Our side in every game, `None` for alternating colours.
    pub(super) ours: Option<Color>,
    /// The native reference's leaves and rules, `None` for the regex
    /// program.
    pub(super) native: Option<Native>,
    /// The native opponent (`--versus-native`), `None` for a UCI engine.
    pub(super) versus: Option<Native>,
    /// The native reference's plan (`--plan`, else `--depth`'s).
    pub(super) plan: Plan,
    /// The native reference thinks and is timed at the regex program's
    /// modeled time (`--regex-time`).
    pub(super) regex_time: bool,
    /// The regex program's late-move pruning (`--select lmp:K` without
    /// `--native`), `None`: off.
    pub(super) late: Option<u32>,
    /// Our engine answers from the opening book first (`--book`).
    pub(super) book: chess::UseBook,
}

impl Settings {
    /// The regex program's variant our engine plays (`--book`, `--select
    /// lmp:K`).
    pub(super) fn variant(&self) -> chess::Variant {
        chess::Variant {
            book: self.book,
            late: self.late,
        }
    }

    pub(super) fn of(args: &MatchArgs) -> Result<Settings> {
        fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T> {
            text.trim()
                .parse()
                .map_err(|_| anyhow!("{flag} {}: not a whole number in range", quote(text)))
        }
        let timed = args.tc.is_some() || args.our_movetime.is_some();
        let depth = match &args.depth {
            Some(text) => {
                let plies: u32 = number("--depth", text)?;
                chess::Depth::new(plies).map_err(|_| unknown_depth(plies))?
            }
            None => chess::search::deepen::unasked_depth(
                timed && (args.native.is_none() || args.regex_time),
            ),
        };
        let sprt = args.sprt.as_deref().map(Sprt::parse).transpose()?;
        let games = match (&args.games, &sprt) {
            (Some(text), _) => Some(number("--games", text)?),
            (None, Some(_)) => None,
            (None, None) => Some(DEFAULT_GAMES),
        };
        let (late, native_select) = match (&args.native, &args.select) {
            (None, Some(text)) => (regex_late(text)?, &None),
            (None, None) => (crate::late_moves(crate::LATE_MOVES), &None),
            _ => (None, &args.select),
        };
        let mut settings = Settings {
            games,
            sprt,
            concurrency: number("--concurrency", &args.concurrency)?,
            movetime: match &args.movetime {
                Some(text) => number("--movetime", text)?,
                None => DEFAULT_MOVETIME,
            },
            tc: args.tc.as_deref().map(TimeControl::parse).transpose()?,
            our_movetime: args
                .our_movetime
                .as_deref()
                .map(|text| number("--our-movetime", text))
                .transpose()?,
            depth,
            plan: depth.plan(),
            max_plies: number("--max-plies", &args.max_plies)?,
            ours: match args.ours.trim() {
                "both" => None,
                "white" => Some(Color::White),
                "black" => Some(Color::Black),
                other => bail!("--ours {}: use both, white or black", quote(other)),
            },
            native: Native::of(&args.native, native_select, "--native", "--select")?
                .map(|n| n.with_book(args.book)),
            versus: Native::of(
                &args.versus_native,
                &args.versus_select,
                "--versus-native",
                "--versus-select",
            )?
            .map(|n| n.with_book(args.versus_book)),
            book: crate::use_book(args.book),
            regex_time: args.regex_time,
            late,
        };
        if args.versus_book && args.versus_native.is_none() {
            bail!("--versus-book gives the native opponent (--versus-native) the book; a UCI opponent has its own");
        }
        match (&args.opponent, settings.versus) {
            (Some(_), Some(_)) => bail!(
                "--opponent and --versus-native both name the opponent: give one"
            ),
            (None, None) => bail!(
                "no opponent: give --opponent CMD (a UCI engine) or --versus-native LEAVES (the native reference)"
            ),
            (None, Some(_)) if !args.options.is_empty() => {
                bail!("--option sets a UCI opponent's option: the native opponent (--versus-native) has none")
            }
            _ => {}
        }
        if let Some(text) = &args.plan {
            if settings.native.is_none() {
                bail!("--plan: only the native reference (--native) searches other plans");
            }
            settings.plan = native_plan(text)?;
        }
        settings.check(args.movetime.is_some())?;
        Ok(settings)
    }

    /// Refuses the settings that do not go together (`movetime`: the
    /// opponent's `--movetime` was given).
    pub(super) fn check(&self, movetime: bool) -> Result<()> {
        if self.games == Some(0) {
            bail!("--games 0: nothing to play");
        }
        if !(1..=MAX_CONCURRENCY).contains(&self.concurrency) {
            bail!("--concurrency: from 1 to {MAX_CONCURRENCY} games at once");
        }
        if self.sprt.is_some() && self.ours.is_some() {
            bail!(
                "--sprt counts pairs of games, one opening from both sides: it needs --ours both"
            );
        }
        if self.sprt.is_some() && self.games.is_some_and(|n| n % 2 == 1) {
            bail!("--sprt counts pairs of games: --games must be even");
        }
        if self.tc.is_some() && movetime {
            bail!("--tc puts both engines on a clock: --movetime does not go with it");
        }
        if self.tc.is_some() && self.our_movetime.is_some() {
            bail!("--tc puts both engines on a clock: --our-movetime does not go with it");
        }
        if self.regex_time && self.native.is_none() {
            bail!("--regex-time times the native reference (--native) as the regex program");
        }
        if self.versus.is_some() {
            self.check_self_play(movetime)?;
        }
        if self.native.is_some() && !self.regex_time && self.our_movetime.is_some() {
            bail!("--native searches a fixed plan: --our-movetime times the regex program (or the native reference with --regex-time)");
        }
        Ok(())
    }
}

impl Settings {
    /// Refuses what self-play (`--versus-native`) cannot do: our engine
    /// must be a native one too, both get our limits (no `--movetime`),
    /// and the two must differ (identical deterministic searches score
    /// every pair 1 point).
    fn check_self_play(&self, movetime: bool) -> Result<()> {
        let Some(ours) = self.native else {
            bail!("--versus-native plays the native reference against itself: give our engine with --native");
        };
        if movetime {
            bail!("--versus-native: the native opponent thinks with our engine's limits (--depth or --plan, --tc or --our-movetime): --movetime does not go with it");
        }
        if self.versus == Some(ours) {
            bail!(
                "--native {} --versus-native {}: the same search on both sides (every pair would score 1 point); give the sides different leaves, rules or books (--select, --versus-select, --book, --versus-book)",
                ours.leaves.name(),
                ours.leaves.name()
            );
        }
        Ok(())
    }
}

/// A native engine of the match: the reference's leaves and its
/// selective rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Native {
    pub(crate) leaves: Leaves,
    pub(crate) select: Select,
    /// Whether it answers from the opening book first (`chess::book`).
    pub(crate) book: bool,
}

/// The regex program's rules of `--select` (`text`) without `--native`:
/// late-move pruning is the one it has (`chess::Variant::late`), and
/// `lmp:0` turns it off.
fn regex_late(text: &str) -> Result<Option<u32>> {
    if text.trim() == "lmp:0" {
        return Ok(None);
    }
    let select = text
        .trim()
        .parse::<Select>()
        .map_err(|e| anyhow!("--select: {e}"))?;
    if select.probcut.is_some() || select.futility.is_some() {
        bail!(
            "--select {}: the regex program has lmp:K only; probcut and futility are the native search's (give its leaves with --native)",
            quote(text.trim())
        );
    }
    Ok(select.lmp)
}

impl Native {
    /// The engine named by `leaves` (`flag`) and `select` (`select_flag`),
    /// `None` without leaves.
    fn of(
        leaves: &Option<String>,
        select: &Option<String>,
        flag: &str,
        select_flag: &str,
    ) -> Result<Option<Native>> {
        let select = select
            .as_deref()
            .map(|text| text.trim().parse::<Select>())
            .transpose()
            .map_err(|e| anyhow!("{select_flag}: {e}"))?;
        let Some(leaves) = leaves else {
            if select.is_some() {
                bail!(
                    "{select_flag} sets the rules of a native search: give its leaves with {flag}"
                );
            }
            return Ok(None);
        };
        let leaves = leaves
            .trim()
            .parse::<Leaves>()
            .map_err(|e| anyhow!("{flag}: {e}"))?;
        Ok(Some(Native {
            leaves,
            select: select.unwrap_or(Select::NONE),
            book: false,
        }))
    }

    /// This engine, answering from the book first where `book`.
    fn with_book(self, book: bool) -> Native {
        Native { book, ..self }
    }
}

impl std::fmt::Display for Native {
    /// The leaves' name (`Threats`), then the rules, if any
    /// (`Threats, select lmp:6`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.leaves)?;
        if !self.select.is_none() {
            write!(f, ", select {}", self.select)?;
        }
        if self.book {
            write!(f, ", book")?;
        }
        Ok(())
    }
}

/// The plan `FULL,PLIES` of `--plan`: at least one full-width ply, at
/// least two plies in all, at most [`MAX_NATIVE_PLIES`].
fn native_plan(text: &str) -> Result<Plan> {
    let bad = || {
        anyhow!(
            "--plan {}: use FULL,PLIES with 1 <= FULL <= PLIES, 2 <= PLIES <= {MAX_NATIVE_PLIES} (e.g. 3,5)",
            quote(text)
        )
    };
    let (full, plies) = text.split_once(',').ok_or_else(bad)?;
    let (full, plies): (u32, u32) = (
        full.trim().parse().map_err(|_| bad())?,
        plies.trim().parse().map_err(|_| bad())?,
    );
    if full == 0 || full > plies || !(2..=MAX_NATIVE_PLIES).contains(&plies) {
        return Err(bad());
    }
    Ok(Plan { full, plies })
}

/// Games played without `--games` or `--sprt`.
const DEFAULT_GAMES: u32 = 10;

/// The most games `--concurrency` plays at once.
const MAX_CONCURRENCY: u32 = 64;

/// The opponent's time a move without `--movetime` or `--tc`.
const DEFAULT_MOVETIME: u64 = 100;

/// The deepest plan `--plan` takes: the native search has no alpha-beta
/// above its leaves, so each ply multiplies its time.
const MAX_NATIVE_PLIES: u32 = 8;

pub(super) fn parse_option(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) if !name.trim().is_empty() => {
            Ok((name.trim().to_string(), value.trim().to_string()))
        }
        _ => Err(format!("{} is not NAME=VALUE", quote(text))),
    }
}

fn unknown_depth(depth: u32) -> anyhow::Error {
    let offered: Vec<String> = chess::Depth::all().map(|d| d.to_string()).collect();
    anyhow!(
        "--depth {depth}: our engine offers only depth {}",
        offered.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without `--depth`, our engine searches the playing commands'
    /// default depth.
    #[test]
    fn the_default_depth_is_the_engines() {
        #[derive(clap::Parser)]
        struct Command {
            #[command(flatten)]
            args: MatchArgs,
        }
        let parsed =
            <Command as clap::Parser>::try_parse_from(["match", "--opponent", "sf"]).unwrap();
        let settings = Settings::of(&parsed.args).unwrap();
        assert_eq!(settings.depth, chess::Depth::DEFAULT);
        assert_eq!(settings.plan, chess::Depth::DEFAULT.plan());
        for timed in [["--tc", "60+0.6"], ["--our-movetime", "1000"]] {
            let parsed = <Command as clap::Parser>::try_parse_from(
                ["match", "--opponent", "sf"].into_iter().chain(timed),
            )
            .unwrap();
            let settings = Settings::of(&parsed.args).unwrap();
            assert_eq!(settings.depth, chess::search::deepen::TIMED_TOP);
        }
    }

    #[test]
    fn native_plans_parse_and_bad_ones_are_refused() {
        assert_eq!(native_plan("3,5").unwrap(), Plan { full: 3, plies: 5 });
        assert_eq!(native_plan(" 2 , 2 ").unwrap(), chess::Depth::MIN.plan());
        for bad in [
            "", "3", "3,", ",5", "0,2", "4,3", "1,1", "3,9", "a,b", "3,5,7",
        ] {
            let e = native_plan(bad).unwrap_err().to_string();
            assert!(e.starts_with("--plan `"), "{bad}: {e}");
        }
    }

    #[test]
    fn errors_quote_at_most_100_characters() {
        let long = "x".repeat(500);
        let q = quote(&long);
        assert_eq!(q.chars().filter(|&c| c == 'x').count(), 100);
        assert!(q.ends_with("…`"));
        assert_eq!(quote("a\nb"), "`a\\nb`");
        let e = parse_option(&long).unwrap_err();
        assert!(e.len() < 200, "{e}");
        assert_eq!(
            parse_option("Skill Level=0"),
            Ok(("Skill Level".to_string(), "0".to_string()))
        );
    }
}
