//! `regex-chess play`: a game in the terminal.
//!
//! The screen the regex turn program produces is the state; this module
//! shows it (Unicode pieces unless `--ascii`, the board turned to the
//! person's side), reads the person's line (line editing on a terminal,
//! plain lines from a pipe, in bounded memory, a line that is not UTF-8
//! asked again), and hands every move to the turn program after
//! [`crate::notation`] has made it coordinates. The commands that are not
//! moves (`help`, `undo`, `new`, `resign`, `hint`, `moves`, `fen`, `flip`,
//! `quit`) are the front end's: `undo` and `new` go back to screens it
//! kept, so the regex program never sees them. It decides nothing about
//! chess. Every way out (game over, `quit`, end of input, a closed or full
//! standard output, an error) leaves the `--pgn` file written.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use chess::codec::decode;
use chess::screen::{parse_screen, start_screen, GAME_OVER};
use shakmaty::{Color, Position};

use crate::move_text::{read_move, san_of, Reading};
use crate::play_record::{load, PgnFile, Record};
use crate::textio::{self, quote, Line};

/// Who the engine plays.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EngineColor {
    /// The engine plays white (and moves first from the start position).
    White,
    /// The engine plays black.
    Black,
    /// No engine: two people take turns at the same terminal.
    None,
}

/// Arguments of `play`.
#[derive(clap::Args, Debug, Default)]
pub(crate) struct PlayArgs {
    /// Start from this position (FEN) instead of the standard one.
    #[arg(long, conflicts_with = "load")]
    pub fen: Option<String>,
    /// The engine's colour.
    #[arg(long, value_enum)]
    pub engine_color: Option<EngineColor>,
    /// Plain letters instead of Unicode chess symbols.
    #[arg(long)]
    pub ascii: bool,
    /// Draw the board from the other side (the person's side is the
    /// default: black at the bottom when the person plays black).
    #[arg(long)]
    pub flip: bool,
    /// Write the game as PGN to this new file (checked before the first
    /// move, rewritten after every move).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Let --pgn name an existing file and add the games after its own.
    #[arg(long, requires = "pgn")]
    pub append: bool,
    /// Resume the last game of this PGN file.
    #[arg(long, value_name = "GAME.pgn")]
    pub load: Option<PathBuf>,
    /// Plies the engine searches (default: the engine's default depth,
    /// 5); with --movetime, the deepest it climbs to (default 6).
    #[arg(long)]
    pub depth: Option<chess::Depth>,
    /// The engine thinks this many milliseconds a move, deepening (depth
    /// 2, 3, 5, then 6) as `uci`'s `go movetime` does, instead of
    /// searching a fixed depth.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// The engine answers from its opening book first (`chess::book`):
    /// a book position is answered at once, without a search.
    #[arg(long)]
    pub book: bool,
    /// Late-move pruning keeping the K best-looking candidates at the
    /// probed nodes below the root (`chess::Variant::late`; acts at
    /// depths 4 to 6); 0 is off.
    #[arg(long, value_name = "K", default_value_t = crate::LATE_MOVES, value_parser = crate::late_moves_arg)]
    pub late_moves: u32,
}

pub(crate) const HELP: &str = "\
Type a move as its squares: e2e4, E2-E4, e2 e4, g1f3, e1g1 (castling),
or in algebraic notation: e4, Nf3, exd5, O-O (or 0-0), e8=Q (or e8).
Promotions add the piece: e7e8q, e7e8r, e7e8b, e7e8n (e7e8 alone is a queen).
Commands:
  help    this text
  undo    take back your last move (and the engine's reply)
  new     start a new game
  resign  give up this game
  hint    the engine's move for you
  moves   the game so far
  fen     the position as FEN
  flip    turn the board around
  quit    leave (the game is kept with --pgn)";

/// The longest line read from a pipe; a longer one is refused unread.
const MAX_LINE: usize = 64 * 1024;

/// Unicode symbol of a piece letter.
fn glyph(c: char) -> char {
    match c {
        'K' => '♔',
        'Q' => '♕',
        'R' => '♖',
        'B' => '♗',
        'N' => '♘',
        'P' => '♙',
        'k' => '♚',
        'q' => '♛',
        'r' => '♜',
        'b' => '♝',
        'n' => '♞',
        'p' => '♟',
        c => c,
    }
}

/// The screen as shown: board rows in Unicode unless `ascii`, and with
/// `flipped` the board seen from black's side (rank 1 on top, file h on
/// the left). The lines below the board are shown as they are, but for
/// the line of positions the program keeps for repetition, not shown.
pub(crate) fn display(screen: &str, ascii: bool, flipped: bool) -> String {
    let lines: Vec<&str> = screen
        .split('\n')
        .filter(|line| !line.starts_with(chess::ending::HISTORY_PREFIX))
        .collect();
    let mut shown: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    if flipped && lines.len() >= 10 {
        let reversed = |line: &str| {
            let cells: Vec<&str> = line.trim_start().split(' ').rev().collect();
            let indent = &line[..line.len() - line.trim_start().len()];
            format!("{indent}{}", cells.join(" "))
        };
        shown[0] = reversed(lines[0]);
        shown[9] = reversed(lines[9]);
        for row in 1..=8 {
            shown[row] = reversed(lines[9 - row]);
        }
    }
    for line in shown.iter_mut().take(9).skip(1) {
        if !ascii {
            *line = line.chars().map(glyph).collect();
        }
    }
    shown.join("\n")
}

/// One read from the person.
enum Read {
    /// A line.
    Line(String),
    /// A line that could not be read, and why (asked again).
    Unreadable(String),
    /// Reading failed, and why (asked again a few times, then the end).
    Failed(String),
    /// The end of the input.
    End,
}

enum Input {
    Editor(Box<rustyline::DefaultEditor>),
    Pipe(std::io::StdinLock<'static>),
}

impl Input {
    fn new() -> Result<Input> {
        if std::io::stdin().is_terminal() {
            let editor = rustyline::DefaultEditor::new().context("starting line editing")?;
            Ok(Input::Editor(Box::new(editor)))
        } else {
            Ok(Input::Pipe(std::io::stdin().lock()))
        }
    }

    /// One line after `prompt`.
    fn read(&mut self, prompt: &str) -> Result<Read> {
        match self {
            Input::Editor(ed) => match ed.readline(prompt) {
                Ok(line) => {
                    let _ = ed.add_history_entry(line.as_str());
                    Ok(Read::Line(line))
                }
                Err(rustyline::error::ReadlineError::Eof)
                | Err(rustyline::error::ReadlineError::Interrupted) => Ok(Read::End),
                // Rustyline reports bytes that are not UTF-8 as invalid
                // data; anything else is the terminal failing.
                Err(rustyline::error::ReadlineError::Io(e))
                    if e.kind() == std::io::ErrorKind::InvalidData =>
                {
                    Ok(Read::Unreadable("that line is not UTF-8 text".into()))
                }
                Err(e) => Ok(Read::Failed(format!("the line could not be read ({e})"))),
            },
            Input::Pipe(lock) => {
                textio::print_flush(prompt)?;
                match textio::read_line(lock, MAX_LINE) {
                    Ok(None) => {
                        textio::println("")?;
                        Ok(Read::End)
                    }
                    Ok(Some(Line::Text(line))) => {
                        textio::println(&line)?;
                        Ok(Read::Line(line))
                    }
                    Ok(Some(Line::NotUtf8)) => {
                        textio::println("")?;
                        Ok(Read::Unreadable("that line is not UTF-8 text".into()))
                    }
                    Ok(Some(Line::TooLong(n))) => {
                        textio::println("")?;
                        Ok(Read::Unreadable(format!("that line is {n} bytes long")))
                    }
                    Err(e) => Ok(Read::Failed(format!("the line could not be read ({e})"))),
                }
            }
        }
    }
}

fn info_line(screen: &str) -> &str {
    screen.split('\n').nth(12).unwrap_or("")
}

/// A game being played: the current screen, its record, and the screens
/// before each turn that moved (for `undo`).
struct Game {
    state: String,
    record: Record,
    /// The screen the last turn that moved left (or the game's first):
    /// what `undo` goes back to, without the error line of a later turn
    /// that moved nothing.
    settled: String,
    history: Vec<(String, Record)>,
}

/// How the engine thinks: a fixed depth, or deepening to it within a
/// time a move.
#[derive(Debug, Clone, Copy)]
struct Thinking {
    /// Plies the engine searches (the deepest, with `movetime`).
    depth: chess::Depth,
    /// Time a move.
    movetime: Option<std::time::Duration>,
    /// The opening book first (`--book`).
    book: chess::UseBook,
    /// Late-move pruning (`--late-moves`), `None` off.
    late: Option<u32>,
}

impl Thinking {
    /// The programs it plays: the book's stage and late-move pruning as
    /// `--book` and `--late-moves` say.
    fn variant(&self) -> chess::Variant {
        chess::Variant {
            book: self.book,
            late: self.late,
        }
    }
}

/// One turn's engine figures: what the terminal prints after it.
struct Reply {
    /// The turn's time, every depth searched included.
    took: std::time::Duration,
    /// The depth that answered, when the engine deepened.
    depth: Option<chess::Depth>,
}

impl Thinking {
    /// The depths this engine runs, each built before the game.
    fn depths(&self) -> Vec<chess::Depth> {
        match self.movetime {
            Some(_) => chess::search::deepen::rungs_to(self.depth),
            None => vec![self.depth],
        }
    }

    /// The deepening limits of a move starting now, `None` at a fixed
    /// depth.
    fn limits(&self) -> Option<chess::search::deepen::Limits> {
        let movetime = self.movetime?;
        let budget = chess::search::clock::budget(&chess::search::clock::Clock {
            movetime: Some(movetime),
            ..chess::search::clock::Clock::default()
        });
        Some(chess::search::deepen::Limits {
            budget,
            book: self.book,
            late: self.late,
            ..chess::search::deepen::Limits::to_depth(self.depth)
        })
    }

    /// Runs one turn of the turn program (see `chess::play_turn` and
    /// `chess::play_turn_within`).
    fn turn(&self, state: &mut String, line: Option<&str>) -> Result<Reply> {
        match self.limits() {
            None => {
                let stats = chess::play_turn_with(state, line, self.depth, self.variant())
                    .context("running the turn program")?;
                Ok(Reply {
                    took: stats.elapsed,
                    depth: None,
                })
            }
            Some(limits) => {
                let climb = chess::play_turn_within(state, line, &limits)
                    .context("running the turn program")?;
                Ok(Reply {
                    took: climb.elapsed,
                    depth: Some(climb.answer().depth),
                })
            }
        }
    }

    /// The engine's move for the side to move of `fen` (a hint).
    fn hint(&self, fen: &str) -> Result<Option<String>> {
        let best = match self.limits() {
            None => chess::search_variant(fen, &[], self.depth, self.variant())?.best,
            Some(limits) => chess::think(fen, &[], &limits, |_| {})?
                .answer()
                .answer
                .clone(),
        };
        Ok(best.map(|(uci, _)| uci))
    }
}

/// Where a session starts a game (again for `new`).
struct Start {
    fen: String,
    engine: Option<Color>,
    /// The game loaded with `--load`: its screens and records.
    loaded: Option<Game>,
    /// How the engine thinks.
    thinking: Thinking,
}

impl Start {
    /// A fresh game (or the loaded one), with the engine's first move when
    /// it is the engine's turn.
    fn game(&self, fresh: bool) -> Result<(Game, Option<Reply>)> {
        let mut game = match (&self.loaded, fresh) {
            (Some(g), false) => Game {
                state: g.state.clone(),
                record: g.record.clone(),
                settled: g.settled.clone(),
                history: g.history.clone(),
            },
            _ => Game {
                state: if self.fen == crate::START_FEN && self.engine == Some(Color::Black) {
                    // The regex program boots the standard game itself.
                    String::new()
                } else {
                    start_screen(&self.fen, self.engine)
                        .with_context(|| format!("position {}", quote(&self.fen)))?
                },
                record: Record::new(&self.fen, self.engine)?,
                settled: String::new(),
                history: Vec::new(),
            },
        };
        // First pass: boots the empty state, or lets an engine to move play.
        let before = info_line(&game.state).to_string();
        let reply = self.thinking.turn(&mut game.state, None)?;
        game.record.note_turn(&before, &game.state);
        game.settled.clone_from(&game.state);
        let moved = info_line(&game.state).contains(chess::turn::ENGINE_PLAYED);
        Ok((game, moved.then_some(reply)))
    }
}

/// The screens of a loaded game: the position after its moves, with the
/// screens of the person's earlier turns kept for `undo`.
fn loaded_game(path: &std::path::Path, engine: Option<Color>) -> Result<(String, Game)> {
    let shown = quote(&path.to_string_lossy());
    let text = std::fs::read_to_string(path).with_context(|| format!("reading --load {shown}"))?;
    let game = load(&text).with_context(|| format!("--load {shown}"))?;
    let mut record = Record::new(&game.start_fen, engine)?;
    let mut history = Vec::new();
    let mut fen = game.start_fen.clone();
    let persons_turn = |record: &Record| engine != Some(record.position().turn());
    for (uci, after) in &game.moves {
        if persons_turn(&record) {
            history.push((start_screen(&fen, engine)?, record.clone()));
        }
        record.play(uci);
        fen = after.clone();
    }
    let state = start_screen(&fen, engine)?;
    Ok((
        game.start_fen,
        Game {
            settled: state.clone(),
            state,
            record,
            history,
        },
    ))
}

/// Plays a game on standard input and output.
pub(crate) fn run(args: PlayArgs) -> Result<ExitCode> {
    let engine = match args.engine_color.unwrap_or(EngineColor::Black) {
        EngineColor::White => Some(Color::White),
        EngineColor::Black => Some(Color::Black),
        EngineColor::None => None,
    };
    // The file is checked before anything is played.
    let mut pgn = match &args.pgn {
        Some(path) => Some(PgnFile::open(path, args.append)?),
        None => None,
    };
    // The position is read before the programs are built, so a bad one
    // is refused at once.
    let (fen, loaded) = match &args.load {
        Some(path) => {
            let (fen, game) = loaded_game(path, engine)?;
            (fen, Some(game))
        }
        None => {
            let fen = args.fen.as_deref().unwrap_or(crate::START_FEN);
            // The FEN is checked (and its clocks' bounds) here, at the
            // input; the error quotes at most its first 100 characters.
            let (pos, warnings) =
                chess::codec::parse_fen_with_warnings(fen).context("the --fen position")?;
            for w in warnings {
                eprintln!("regex-chess: warning: {w}");
            }
            (chess::codec::fen_of(&pos), None)
        }
    };
    let t0 = Instant::now();
    let thinking = Thinking {
        depth: args.depth.unwrap_or(chess::search::deepen::unasked_depth(
            args.movetime.is_some(),
        )),
        movetime: args.movetime.map(std::time::Duration::from_millis),
        book: crate::use_book(args.book),
        late: crate::late_moves(args.late_moves),
    };
    chess::build_passes_with(&thinking.depths(), true, thinking.variant())
        .context("building the turn programs")?;
    let build = t0.elapsed();
    let start = Start {
        fen,
        engine,
        loaded,
        thinking,
    };
    let (mut game, stats) = start.game(false)?;
    if let Some(file) = &pgn {
        file.write(&game.record)?;
    }
    let sizes: Vec<String> = thinking
        .depths()
        .iter()
        .map(|&d| {
            Ok(chess::turn_pass_with(d, thinking.variant())?
                .program
                .len()
                .to_string())
        })
        .collect::<Result<_>>()?;
    eprintln!(
        "regex-chess: turn program{} of {} rewrites ready in {} ms",
        if sizes.len() > 1 { "s" } else { "" },
        sizes.join(", "),
        build.as_millis()
    );
    let mut view = View {
        ascii: args.ascii,
        // The person's side at the bottom: black when the engine is white.
        flipped: (engine == Some(Color::White)) != args.flip,
    };
    let outcome = session(&start, &mut game, stats, &mut view, &mut pgn);
    // Whatever ended the session, the game is kept.
    if let Some(file) = &pgn {
        match file.write(&game.record) {
            Ok(()) => eprintln!("regex-chess: game saved to {}", file.path().display()),
            Err(e) if outcome.is_ok() => return Err(e),
            Err(e) => eprintln!("error: {e:#}"),
        }
    }
    outcome.map(|()| ExitCode::SUCCESS)
}

/// How the board is drawn.
struct View {
    ascii: bool,
    flipped: bool,
}

/// The person's turns until the game ends, `quit` or the end of input.
fn session(
    start: &Start,
    game: &mut Game,
    mut engine_stats: Option<Reply>,
    view: &mut View,
    pgn: &mut Option<PgnFile>,
) -> Result<()> {
    let mut input = Input::new()?;
    loop {
        let (body, prompt) = match game.state.rsplit_once('\n') {
            Some((b, p)) => (b.to_string(), p.to_string()),
            None => (String::new(), game.state.clone()),
        };
        textio::println(display(&body, view.ascii, view.flipped))?;
        if let Some(reply) = engine_stats.take() {
            let ms = reply.took.as_secs_f64() * 1e3;
            match reply.depth {
                Some(depth) => {
                    textio::println(format_args!("(engine reply: {ms:.0} ms, depth {depth})"))?
                }
                None => textio::println(format_args!("(engine reply: {ms:.0} ms)"))?,
            }
        }
        if prompt == GAME_OVER {
            return textio::println(&prompt);
        }
        let mut failures = 0;
        let line = loop {
            let line = match input.read(&prompt)? {
                Read::End => return Ok(()),
                Read::Unreadable(why) => {
                    textio::println(format_args!("Not read: {why}. Type it again."))?;
                    continue;
                }
                // An input that keeps failing ends the game (it is saved).
                Read::Failed(why) if failures == 2 => {
                    textio::println(format_args!("Not read: {why}. Stopping."))?;
                    return Ok(());
                }
                Read::Failed(why) => {
                    failures += 1;
                    textio::println(format_args!("Not read: {why}. Type it again."))?;
                    continue;
                }
                Read::Line(l) => l,
            };
            match command(&line, start, game, view, pgn)? {
                Command::Done => continue,
                Command::Redraw(stats) => {
                    engine_stats = stats;
                    break None;
                }
                Command::Quit => {
                    textio::println("Bye.")?;
                    return Ok(());
                }
                Command::GameOver => return textio::println(GAME_OVER),
                Command::NotOne => {}
            }
            let fen = current_fen(&game.state);
            match fen.as_deref().map(|f| read_move(f, &line)) {
                // Said by the front end; the screen stays as it is.
                Some(Ok(Reading::Say(message))) => textio::println(message)?,
                Some(Ok(Reading::Send(l))) => break Some(l),
                Some(Err(e)) => return Err(e).context("listing the legal moves"),
                None => break Some(line),
            }
        };
        let Some(line) = line else { continue };
        let before_record = game.record.clone();
        let before = info_line(&game.state).to_string();
        let reply = start.thinking.turn(&mut game.state, Some(&line))?;
        game.record.note_turn(&before, &game.state);
        if game.record.len() != before_record.len() {
            // Undone, the turn shows the screen it started from as the
            // last turn that moved left it, not an error line since.
            let settled = std::mem::replace(&mut game.settled, game.state.clone());
            game.history.push((settled, before_record));
            if let Some(file) = pgn.as_ref() {
                file.write(&game.record)?;
            }
        }
        // Only a new engine move gets its time printed.
        let engine_moved = info_line(&game.state) != before
            && info_line(&game.state).contains(chess::turn::ENGINE_PLAYED);
        engine_stats = engine_moved.then_some(reply);
    }
}

/// The position a screen shows, as FEN.
fn current_fen(state: &str) -> Option<String> {
    parse_screen(state).and_then(|s| decode(&s.position).ok())
}

/// What a command did.
enum Command {
    /// Answered; read the next line.
    Done,
    /// The game changed: draw it again (with the engine's move time).
    Redraw(Option<Reply>),
    /// Leave.
    Quit,
    /// The game has ended (resigned).
    GameOver,
    /// Not a command: a move for the turn program.
    NotOne,
}

/// Carries out a front-end command.
fn command(
    line: &str,
    start: &Start,
    game: &mut Game,
    view: &mut View,
    pgn: &mut Option<PgnFile>,
) -> Result<Command> {
    let word = line.trim().to_ascii_lowercase();
    Ok(match word.as_str() {
        "help" | "?" => {
            textio::println(HELP)?;
            Command::Done
        }
        "quit" | "exit" => Command::Quit,
        "flip" => {
            view.flipped = !view.flipped;
            Command::Redraw(None)
        }
        "fen" => {
            match current_fen(&game.state) {
                Some(fen) => textio::println(fen)?,
                None => textio::println("No position on the screen yet.")?,
            }
            Command::Done
        }
        "moves" => {
            let text = game.record.movetext();
            textio::println(if text.is_empty() {
                "No moves yet."
            } else {
                &text
            })?;
            Command::Done
        }
        "hint" => {
            let Some(fen) = current_fen(&game.state) else {
                bail!("the screen shows no position");
            };
            let best = start.thinking.hint(&fen).context("searching for a hint")?;
            match best {
                Some(uci) => {
                    let san = san_of(game.record.position(), &uci).unwrap_or_default();
                    textio::println(format_args!("Hint: {uci} ({san})."))?
                }
                None => textio::println("There is no legal move.")?,
            }
            Command::Done
        }
        "undo" | "takeback" => match game.history.pop() {
            Some((state, record)) => {
                game.settled.clone_from(&state);
                game.state = state;
                game.record = record;
                if let Some(file) = pgn.as_ref() {
                    file.write(&game.record)?;
                }
                textio::println("Taken back.")?;
                Command::Redraw(None)
            }
            None => {
                textio::println("Nothing to take back.")?;
                Command::Done
            }
        },
        "new" => {
            if let Some(file) = pgn.as_mut() {
                file.finish(&game.record);
            }
            let (fresh, stats) = start.game(true)?;
            *game = fresh;
            if let Some(file) = pgn.as_ref() {
                file.write(&game.record)?;
            }
            textio::println("New game.")?;
            Command::Redraw(stats)
        }
        "resign" => {
            let side = game.record.position().turn();
            game.record.resign();
            let winner = match (start.engine, side) {
                (Some(e), s) if e != s => "You resign; the engine wins.",
                (Some(_), _) => "The engine resigns; you win.",
                (None, Color::White) => "White resigns; black wins.",
                (None, Color::Black) => "Black resigns; white wins.",
            };
            textio::println(winner)?;
            Command::GameOver
        }
        _ => Command::NotOne,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flipped_board_has_rank_one_on_top_and_file_h_left() {
        let screen = start_screen(crate::START_FEN, Some(Color::White)).unwrap();
        let shown = display(&screen, true, true);
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[0], "  h g f e d c b a");
        assert_eq!(lines[1], "1 R N B K Q B N R 1");
        assert_eq!(lines[8], "8 r n b k q b n r 8");
        assert_eq!(lines[9], "  h g f e d c b a");
        assert_eq!(lines[10], screen.lines().nth(10).unwrap());
        // Unflipped, the screen is shown as it is, but for the line of
        // positions kept for repetition.
        let unshown: Vec<&str> = screen
            .split('\n')
            .filter(|l| !l.starts_with(chess::ending::HISTORY_PREFIX))
            .collect();
        assert!(unshown.len() < screen.split('\n').count());
        assert_eq!(display(&screen, true, false), unshown.join("\n"));
    }
}
