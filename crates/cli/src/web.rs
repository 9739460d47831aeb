//! `regex-chess web DIR`: the game as a static web site.
//!
//! This module owns writing the site and nothing else: the page's own
//! files (`index.html`, `app.js`, `workers.js`, `worker.js`, `style.css`, kept under
//! `crates/cli/web/` and built into the binary), the turn program of each
//! depth of the ladder as an ES module (`turn2.js`, `turn3.js`,
//! `turn5.js`, `turn6.js`), the legal-move program that reads a screen
//! (`moves.js`, used only to read SAN lines and to mark the squares a
//! piece can reach) and `screen.js`, the few screen texts the page needs
//! (the start screens of the standard position, the help text) and how
//! the engine thinks: the ladder, each rung's expected growth, the levels
//! a person picks from (each a set of rungs and a time budget from
//! `chess::search::clock`; the default thinks 5 s a move, as the
//! terminal's `play --movetime 5000`). In the page Web Workers run the
//! rewrite lists with JavaScript `RegExp`, one pass per rung, given up at
//! the level's deadline; the page climbs the rungs as
//! `chess::search::deepen` does, each rung once its program has loaded,
//! and draws the screen of the deepest that finished, appending the
//! person's line as the README's Python loop does. This module decides no
//! chess and runs no program.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use chess::movegen::{legal_moves_dsl, Options, MOVE_VAR};
use chess::screen::{start_screen, ParseScreen, Sanitize, GAME_OVER, PROMPT};
use regex_vm::Program;
use shakmaty::Color;
use std::sync::Arc;

/// Arguments of `web`.
#[derive(clap::Args, Debug)]
pub(crate) struct WebArgs {
    /// The folder to write the site into (created if missing; files of the
    /// same names are replaced).
    pub dir: PathBuf,
}

/// A strength the page offers: the rungs its engine climbs and the time a
/// move may take (`None`: as long as the rungs take).
struct Level {
    name: &'static str,
    /// The rungs' depths in plies (as the page reads them).
    rungs: Vec<u32>,
    movetime_ms: Option<u64>,
}

/// The rungs the page climbs: the whole ladder, up to the top a time
/// limit climbs to in the terminal (`deepen::TIMED_TOP`, depth 6), as
/// `play --movetime` and `uci`'s `go movetime` climb it. Only the timed
/// levels reach past depth 5; the untimed level 5 plays the terminal's
/// `play`, depth 5, however long it takes.
fn page_ladder() -> Vec<chess::Depth> {
    chess::search::deepen::rungs_to(chess::search::deepen::TIMED_TOP)
}

/// The page's levels, weakest first. The timed levels climb as the
/// terminal's `play --movetime` does (levels 3 and 4 are `--movetime 1000`
/// and `--movetime 5000`), with the same budget and growth, in a slower
/// regex engine; level 5 is the terminal's untimed engine (depth 5, the
/// same moves as `play`), which in a browser can take a minute a move.
fn levels() -> Vec<Level> {
    let timed = plies(&page_ladder());
    let untimed = plies(&chess::search::deepen::rungs_to(chess::Depth::DEFAULT));
    vec![
        Level {
            name: "1: depth 2, at once",
            rungs: vec![2],
            movetime_ms: None,
        },
        Level {
            name: "2: depth 3",
            rungs: vec![2, 3],
            movetime_ms: None,
        },
        Level {
            name: "3: up to depth 6, 1 s a move",
            rungs: timed.clone(),
            movetime_ms: Some(1_000),
        },
        Level {
            name: "4: up to depth 6, 5 s a move",
            rungs: timed,
            movetime_ms: Some(5_000),
        },
        Level {
            name: "5: depth 5, untimed",
            rungs: untimed,
            movetime_ms: None,
        },
    ]
}

/// The index in [`levels`] the page starts at: level 4, 5 s a move, so
/// that nobody waits longer (as lichess's levels think on a clock).
const DEFAULT_LEVEL: usize = 3;

/// The plies of each depth of `depths`.
fn plies(depths: &[chess::Depth]) -> Vec<u32> {
    depths.iter().map(|d| d.plies()).collect()
}

/// The file name of the turn program of `depth`.
fn turn_file(depth: chess::Depth) -> String {
    format!("turn{depth}.js")
}

/// The page's hand-written files, built into the binary.
const PAGE_FILES: [(&str, &str); 5] = [
    ("index.html", include_str!("../web/index.html")),
    ("app.js", include_str!("../web/app.js")),
    ("workers.js", include_str!("../web/workers.js")),
    ("worker.js", include_str!("../web/worker.js")),
    ("style.css", include_str!("../web/style.css")),
];

/// The legal moves of the position a screen shows: the screen is read into
/// a position thread by the turn program's own first steps, then one thread
/// per legal move holds the move's coordinates in variable `m`.
fn moves_program() -> Result<Program> {
    regex_asm::assemble(|m| {
        m.special(Arc::new(Sanitize), &[], &[]);
        m.special(Arc::new(ParseScreen), &[], &[]);
        legal_moves_dsl(m, Options::QUIET);
    })
    .context("assembling the legal-move program")
}

/// How the page's engine thinks, for `screen.js`: the ladder, each rung's
/// growth (`chess::search::deepen::growth`), how far past its target a clocked
/// move may start a rung (`chess::search::clock::STRETCH_START`), the levels with
/// their budgets (`chess::search::clock::budget` of their movetime) and the size
/// of each program.
fn engine_value(turns: &[(chess::Depth, usize)], moves: usize) -> serde_json::Value {
    let ms = |d: std::time::Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
    let levels: Vec<serde_json::Value> = levels()
        .iter()
        .map(|level| {
            let budget = level.movetime_ms.and_then(|t| {
                chess::search::clock::budget(&chess::search::clock::Clock {
                    movetime: Some(std::time::Duration::from_millis(t)),
                    ..chess::search::clock::Clock::default()
                })
            });
            serde_json::json!({
                "name": level.name,
                "rungs": level.rungs,
                "budget": budget.map(|b| serde_json::json!({
                    "targetMs": ms(b.target),
                    "limitMs": ms(b.limit),
                    "banked": b.banked,
                })),
            })
        })
        .collect();
    let growth: serde_json::Map<String, serde_json::Value> = page_ladder()
        .iter()
        .map(|&d| (d.to_string(), chess::search::deepen::growth(d).into()))
        .collect();
    let sizes: serde_json::Map<String, serde_json::Value> = turns
        .iter()
        .map(|&(d, n)| (format!("turn{d}"), n.into()))
        .chain([("moves".to_string(), moves.into())])
        .collect();
    serde_json::json!({
        "enginePlayed": chess::turn::ENGINE_PLAYED,
        "ladder": plies(&page_ladder()),
        "growth": growth,
        "stretchStart": chess::search::clock::STRETCH_START,
        "levels": levels,
        "defaultLevel": DEFAULT_LEVEL + 1,
        "sizes": sizes,
    })
}

/// `screen.js`: the texts the page takes from the program rather than
/// repeating them, and how its engine thinks ([`engine_value`]).
fn screen_module(engine: serde_json::Value) -> Result<String> {
    let start = |engine| start_screen(crate::START_FEN, engine).context("the standard position");
    let value = serde_json::json!({
        "startFen": crate::START_FEN,
        "prompt": PROMPT,
        "gameOver": GAME_OVER,
        "moveVar": MOVE_VAR,
        "help": crate::play::HELP,
        "standardStart": {
            "white": start(Some(Color::White))?,
            "black": start(Some(Color::Black))?,
            "none": start(None)?,
        },
        "engine": engine,
    });
    let text = serde_json::to_string_pretty(&value).context("writing screen.js")?;
    Ok(format!(
        "// The screen texts the page needs, written by `regex-chess web`.\nexport const screen = {text};\n"
    ))
}

fn write(dir: &Path, name: &str, text: &str) -> Result<u64> {
    let path = dir.join(name);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    Ok(text.len() as u64)
}

/// Writes the site into `args.dir`.
pub(crate) fn run(args: WebArgs) -> Result<()> {
    let dir = &args.dir;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    chess::build_passes(&page_ladder(), true).context("building the turn programs")?;
    let moves = moves_program()?;
    let mut total = 0;
    for (name, text) in PAGE_FILES {
        total += write(dir, name, text)?;
    }
    let mut turns = Vec::new();
    for depth in page_ladder() {
        let turn = &chess::turn_pass(depth)
            .context("building the turn program")?
            .program;
        let module =
            regex_vm::format::to_js(turn).context("writing the turn program as JavaScript")?;
        total += write(dir, &turn_file(depth), &module)?;
        turns.push((depth, turn.len()));
    }
    total += write(
        dir,
        "screen.js",
        &screen_module(engine_value(&turns, moves.len()))?,
    )?;
    let module =
        regex_vm::format::to_js(&moves).context("writing the moves program as JavaScript")?;
    total += write(dir, "moves.js", &module)?;
    let listed: Vec<String> = turns
        .iter()
        .map(|(d, n)| format!("{} ({n} rewrites)", turn_file(*d)))
        .collect();
    let mut out = crate::textio::stdout();
    writeln!(
        out,
        "wrote {}: index.html, app.js, workers.js, worker.js, style.css, screen.js, {}, \
         moves.js ({} rewrites); {total} bytes",
        dir.display(),
        listed.join(", "),
        moves.len()
    )?;
    writeln!(
        out,
        "serve it with any static server, e.g. python3 -m http.server -d {} 8000, \
         and open http://localhost:8000/",
        dir.display()
    )
}
