//! `book`: writes the opening book (`chess::book`'s file) from the
//! project's own deeper native searches, nothing downloaded.
//!
//! The walk starts at the start position, every position one ply from it
//! and the position after each opening of `--openings` (UCI moves, one
//! opening a line), and goes `--line` plies further from each: at every
//! position it visits, the native reference (`chess::reference`, the
//! regex program's leaves, its probe cut: exact) searches the deep plan
//! `--plan`, and the move it finds (of equal best moves, the one whose
//! piece stands first in the board line, as the regex program keeps) is
//! the book's; the walk follows that move and the one the engine itself
//! would play there (the native search of `--depth`'s plan, the
//! engine's default), so that the book covers the lines the engine's
//! own games take. This module writes a file; the book's meaning and its
//! stage in the programs are `chess::book`'s.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{anyhow, bail, Context, Result};
use shakmaty::{Chess, Move, Position};

use chess::book::{play, uci_of, Book, Entry};
use chess::reference::cost::Meter;
use chess::reference::{best_moves_metered, Leaves};
use chess::vocabulary::Plan;

use crate::textio;

/// Arguments of `book`.
#[derive(clap::Args, Debug)]
pub(crate) struct BookArgs {
    /// The file to write (the compiled-in book is chess/book.txt).
    #[arg(long, value_name = "FILE", default_value = "chess/book.txt")]
    out: PathBuf,
    /// The deep search: FULL full-width plies, PLIES in all (capture
    /// plies after), as `match --plan`.
    #[arg(long, value_name = "FULL,PLIES", default_value = "5,7")]
    plan: String,
    /// The engine's own search, whose moves the walk follows too (the
    /// regex program's depth).
    #[arg(long, default_value_t = chess::Depth::DEFAULT)]
    depth: chess::Depth,
    /// Openings whose positions start a walk besides the start position
    /// and its 20 successors: UCI moves from the start, one a line (`#`
    /// lines skipped).
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Plies the walk goes past each start.
    #[arg(long, value_name = "N", default_value_t = 2)]
    line: u32,
    /// `--plan` searches the positions at most this many plies from the
    /// start; `--later-plan` the others (5,7 takes seconds to minutes a
    /// position past the first ply).
    #[arg(long, value_name = "N", default_value_t = 1)]
    deep_plies: usize,
    /// The plan of the positions past `--deep-plies`.
    #[arg(long, value_name = "FULL,PLIES", default_value = "4,6")]
    later_plan: String,
    /// Keep the positions of an existing `--out` (written by an earlier
    /// run cut short) instead of searching them again.
    #[arg(long)]
    resume: bool,
    /// The most positions to write.
    #[arg(long, value_name = "N", default_value_t = 400)]
    max: usize,
}

/// A position to visit: the moves that reach it and the plies the walk
/// still goes past it.
struct Visit {
    moves: Vec<String>,
    pos: Chess,
    left: u32,
}

pub(crate) fn run(args: BookArgs) -> Result<()> {
    let plan = parse_plan(&args.plan)?;
    let later = parse_plan(&args.later_plan)?;
    let done = if args.resume {
        let text = std::fs::read_to_string(&args.out)
            .with_context(|| format!("reading {}", args.out.display()))?;
        Book::parse(&text).with_context(|| format!("reading {}", args.out.display()))?
    } else {
        Book::default()
    };
    let leaves = chess::reference::SEARCHED;
    let mut queue: VecDeque<Visit> = starts(args.openings.as_ref())?
        .into_iter()
        .map(|(moves, pos)| Visit {
            moves,
            pos,
            left: args.line,
        })
        .collect();
    let mut book = Book::default();
    let began = Instant::now();
    while let Some(visit) = queue.pop_front() {
        if book.entries.len() >= args.max {
            break;
        }
        if book.holds(&visit.pos) || visit.pos.legal_moves().is_empty() {
            continue;
        }
        let (deep, score, answered) = match done.probe(&visit.pos) {
            Some((mv, score)) => (play_move(&visit.pos, mv)?, score, "kept".to_string()),
            None if visit.moves.len() <= args.deep_plies => deep_move(&visit.pos, plan)
                .ok_or_else(|| anyhow!("no move after {}", visit.moves.join(" ")))?,
            None => deep_move(&visit.pos, later)
                .ok_or_else(|| anyhow!("no move after {}", visit.moves.join(" ")))?,
        };
        eprintln!(
            "{:>4} {:>7.1}s  {}: {} {score} ({answered})",
            book.entries.len() + 1,
            began.elapsed().as_secs_f64(),
            visit.moves.join(" "),
            uci_of(&deep)
        );
        book.entries.push(Entry::of(
            &visit.pos,
            visit.moves.clone(),
            uci_of(&deep),
            score,
        ));
        // Written after each position, so that a walk cut short leaves
        // a book of the positions done.
        write(&args, &book)?;
        if visit.left == 0 {
            continue;
        }
        let own = best_of(&visit.pos, args.depth.plan(), leaves).map(|(m, _)| m);
        let mut next = vec![deep];
        next.extend(own.filter(|m| !next.contains(m)));
        for m in next {
            let mut pos = visit.pos.clone();
            pos.play_unchecked(m);
            let mut moves = visit.moves.clone();
            moves.push(uci_of(&m));
            queue.push_back(Visit {
                moves,
                pos,
                left: visit.left - 1,
            });
        }
    }
    let text = write(&args, &book)?;
    textio::println(format_args!(
        "wrote {}: {} positions, {} bytes",
        args.out.display(),
        book.entries.len(),
        text.len()
    ))
}

/// Writes `book` to `args.out` with its header (the command that wrote
/// it), checked by reading it back.
fn write(args: &BookArgs, book: &Book) -> Result<String> {
    let openings = args
        .openings
        .as_ref()
        .map(|p| format!(" --openings {}", p.display()))
        .unwrap_or_default();
    let text = format!(
        "# The opening book (chess::book): the moves from the start position: the\n\
         # book move and its score for the side to move. Written by\n\
         # `regex-chess book --plan {} --deep-plies {} --later-plan {} --depth {}\n\
         # --line {}{openings}`:\n\
         # the native reference (the regex program's leaves and hand values),\n\
         # plan {} up to ply {}, plan {} after.\n{}",
        args.plan,
        args.deep_plies,
        args.later_plan,
        args.depth,
        args.line,
        args.plan,
        args.deep_plies,
        args.later_plan,
        chess::book::render(book)
    );
    Book::parse(&text).context("the book just written does not read back")?;
    std::fs::write(&args.out, &text).with_context(|| format!("writing {}", args.out.display()))?;
    Ok(text)
}

/// The walk's starts: the start position, each position one ply from
/// it, and each opening of `openings`.
fn starts(openings: Option<&PathBuf>) -> Result<Vec<(Vec<String>, Chess)>> {
    let start = Chess::default();
    let mut out = vec![(Vec::new(), start.clone())];
    for m in start.legal_moves() {
        let mut pos = start.clone();
        pos.play_unchecked(m);
        out.push((vec![uci_of(&m)], pos));
    }
    let Some(path) = openings else {
        return Ok(out);
    };
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if line.contains('/') {
            // A FEN, as `match --openings` takes: only the start
            // position's, already a start here (the book's positions are
            // the moves that reach them from it).
            let pos = chess::codec::parse_fen(line)
                .with_context(|| format!("{}: the FEN {}", path.display(), textio::quote(line)))?;
            if pos.board() != start.board() || pos.turn() != start.turn() {
                bail!(
                    "{}: {}: the book's openings are moves from the start position",
                    path.display(),
                    textio::quote(line)
                );
            }
            continue;
        }
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for mv in line.split_whitespace() {
            pos = play(&pos, mv).ok_or_else(|| {
                anyhow!(
                    "{}: {} is not a legal move in the opening {}",
                    path.display(),
                    textio::quote(mv),
                    textio::quote(line)
                )
            })?;
            moves.push(mv.to_string());
        }
        out.push((moves, pos));
    }
    Ok(out)
}

/// The book's move in `pos` by `plan`, its score and a note of what
/// answered (the plan, the search's time).
fn deep_move(pos: &Chess, plan: Plan) -> Option<(Move, u32, String)> {
    let began = Instant::now();
    let (best, score) = best_of(pos, plan, chess::reference::SEARCHED)?;
    let note = format!(
        "{},{} in {:.1} s",
        plan.full,
        plan.plies,
        began.elapsed().as_secs_f64()
    );
    Some((best, score, note))
}

/// The move `mv` (UCI) in `pos`.
fn play_move(pos: &Chess, mv: &str) -> Result<Move> {
    let uci: shakmaty::uci::UciMove = mv.parse().map_err(|_| anyhow!("{mv}: not UCI"))?;
    uci.to_move(pos).map_err(|_| anyhow!("{mv}: not legal"))
}

/// Of equal best moves, the one whose piece stands first in the board
/// line (rank 8 first, file a first), as the regex program keeps.
fn first_in_board_order(best: Vec<Move>) -> Option<Move> {
    best.into_iter().min_by_key(|m| {
        m.from()
            .map(|sq| (7 - u32::from(sq.rank()), u32::from(sq.file())))
    })
}

/// The native reference's move in `pos` searching `plan` (of equal
/// best, the one whose piece stands first in the board line) and its
/// score.
fn best_of(pos: &Chess, plan: Plan, leaves: Leaves) -> Option<(Move, u32)> {
    let (best, score) = best_moves_metered(pos, plan, "", leaves, &mut Meter::unlimited())
        .unwrap_or_else(|_| unreachable!("an unlimited meter stops nothing"))?;
    Some((first_in_board_order(best)?, score))
}

/// `FULL,PLIES`, as `match --plan` reads it.
fn parse_plan(text: &str) -> Result<Plan> {
    let bad = || anyhow!("--plan {}: use FULL,PLIES (e.g. 5,7)", textio::quote(text));
    let (full, plies) = text.split_once(',').ok_or_else(bad)?;
    let plan = Plan {
        full: full.trim().parse().map_err(|_| bad())?,
        plies: plies.trim().parse().map_err(|_| bad())?,
    };
    if plan.full == 0 || plan.full > plan.plies || plan.plies > plan.full + 2 || plan.plies > 8 {
        bail!(
            "--plan {}: 1 <= FULL <= PLIES <= FULL + 2, PLIES <= 8",
            textio::quote(text)
        );
    }
    Ok(plan)
}
