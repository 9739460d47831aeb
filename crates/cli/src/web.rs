//! `regex-chess web DIR`: the game as a static web site.
//!
//! This module owns writing the site and nothing else: the page's own
//! files (`index.html`, `app.js`, `worker.js`, `style.css`, kept under
//! `crates/cli/web/` and built into the binary), the turn program as an ES
//! module (`turn.js`), the legal-move program that reads a screen
//! (`moves.js`, used only to read SAN lines and to mark the squares a piece
//! can reach) and `screen.js`, the few screen texts the page needs (the
//! start screens of the standard position, the help text). In the page a
//! Web Worker runs the rewrite lists with JavaScript `RegExp`; the page only
//! draws the screen the turn program produced and appends the person's
//! line, as the README's Python loop does. This module decides no chess and
//! runs no program.

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
    /// Search depth of the page's turn program (plies; 4 is two
    /// full-width plies and two capture plies).
    #[arg(long, default_value_t = chess::search::FAST_DEPTH)]
    pub depth: u32,
}

/// The page's hand-written files, built into the binary.
const PAGE_FILES: [(&str, &str); 4] = [
    ("index.html", include_str!("../web/index.html")),
    ("app.js", include_str!("../web/app.js")),
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

/// `screen.js`: the texts the page takes from the program rather than
/// repeating them.
fn screen_module() -> Result<String> {
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
    let turn = &chess::turn_pass_at(args.depth)
        .context("building the turn program")?
        .program;
    let moves = moves_program()?;
    let mut total = 0;
    for (name, text) in PAGE_FILES {
        total += write(dir, name, text)?;
    }
    total += write(dir, "screen.js", &screen_module()?)?;
    total += write(dir, "turn.js", &regex_vm::format::to_js(turn))?;
    total += write(dir, "moves.js", &regex_vm::format::to_js(&moves))?;
    let mut out = crate::textio::stdout();
    writeln!(
        out,
        "wrote {}: index.html, app.js, worker.js, style.css, screen.js, \
         turn.js ({} rewrites), moves.js ({} rewrites); {total} bytes",
        dir.display(),
        turn.len(),
        moves.len()
    )?;
    writeln!(
        out,
        "serve it with any static server, e.g. python3 -m http.server -d {} 8000, \
         and open http://localhost:8000/",
        dir.display()
    )
}
