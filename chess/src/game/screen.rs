//! The screen: the state between turns, as a person sees it.
//!
//! This module owns the screen's text format and the three special
//! instructions that cross between screen and thread: [`Sanitize`] turns the
//! person's appended line into a safe marker line, [`ParseScreen`] turns the
//! screen into a position thread (keeping the last-moves line as the text
//! before it), [`Render`] turns the thread back into a screen. Each has a
//! native twin (`render_screen`, `parse_screen`, `classify_input`) that is
//! its reference meaning and that the CLI and the fuzzer use to read screens.
//! It does not decide moves (that is `turn`).
//!
//! ```text
//!   a b c d e f g h
//! 8 r n b q k b n r 8
//! ...
//! 1 R N B Q K B N R 1
//!   a b c d e f g h
//! White to move. Castling: KQkq. En passant: -. Halfmove clock: 0. Move: 1.
//! You play white; the engine plays black.
//! <last moves>
//! <message>
//! Positions: <the history for repetition, see `ending`>
//! Your move: _
//! ```
//!
//! The status line says `White to move, in check.` when it is so. The last
//! line is the prompt (`Your move: `, the person's line and a newline are
//! appended there) or `Game over.`; the line before it carries the
//! positions since the last capture or pawn move (front ends may hide it). A `#` in the last-moves
//! line (a mating SAN move) is written `~` inside threads, where `#` is
//! reserved.
//!
//! A turn's input may start with one more line before the screen, a hint
//! (`Probe:e7e5`, see `search::hint`): a front end that climbs the depths
//! gives each deeper pass the move of the one below. Screens the turn
//! writes never have it.

use regex_asm::ir::{RefError, WholeStateSpecial};
use regex_vm::state::{State, Thread, VarName};
use regex_vm::{Rewrite, Scope, Template};
use shakmaty::Color;

use crate::board::codec::{Encoded, FULLMOVE_VAR, HALFMOVE_VAR, TURN_VAR};
use crate::board::{index, index_of, name_at, BOARD_VAR};
use crate::rules::ending::{start_history, HISTORY_PREFIX};
use crate::search::hint::{hint_line_pattern, leading_hint_line};

/// The prompt a person answers.
pub const PROMPT: &str = "Your move: ";
/// The last line once the game has ended.
pub const GAME_OVER: &str = "Game over.";
/// The last-moves line of a new game.
pub const NEW_GAME: &str = "New game. Type moves like e2e4 (e7e8q to promote), help or quit.";
/// The engine's colour variable.
pub const ENGINE_VAR: &str = "e";
/// The sanitized input class variable.
pub const INPUT_CLASS_VAR: &str = "ic";
/// The input move variable (empty unless the class is `ok`).
pub const INPUT_VAR: &str = "i";
/// Render inputs: the new last-moves line (empty: keep the old one).
pub const NEW_INFO_VAR: &str = "nl";
/// Render inputs: the message line.
pub const MESSAGE_VAR: &str = "msg";
/// Render inputs: the last line.
pub const PROMPT_VAR: &str = "pr";
/// Render inputs: "White"/"Black" to move.
pub const SIDE_WORD_VAR: &str = "sw";
/// Render inputs: the players line.
pub const PLAYERS_VAR: &str = "pl";

const FILES: &str = "  a b c d e f g h";

fn color_word(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The line saying who plays what.
pub fn players_line(engine: Option<Color>) -> String {
    match engine {
        Some(e) => format!(
            "You play {}; the engine plays {}.",
            color_word(!e),
            color_word(e)
        ),
        None => TWO_PLAYERS.to_string(),
    }
}

/// The players line of a game without the engine.
pub const TWO_PLAYERS: &str = "Two players, no engine.";

/// What a screen shows, beyond the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screen {
    /// The position (board line with castling rooks and en passant mark).
    pub position: Encoded,
    /// The engine's colour; `None` for a game between two people.
    pub engine: Option<Color>,
    /// The last-moves line.
    pub info: String,
    /// The message line.
    pub message: String,
    /// The last line (prompt or `Game over.`).
    pub prompt: String,
    /// Whether the side to move is in check.
    pub check: bool,
    /// The history line's text after `Positions:` (see `ending`).
    pub history: String,
}

/// Castling rights as FEN writes them, from the board line.
pub fn castling_of(board: &str) -> String {
    let b = board.as_bytes();
    let mut s = String::new();
    for (file, rank, ch, right) in [
        (7, 1, b'T', 'K'),
        (0, 1, b'T', 'Q'),
        (7, 8, b't', 'k'),
        (0, 8, b't', 'q'),
    ] {
        if b.get(index(file, rank)) == Some(&ch) {
            s.push(right);
        }
    }
    if s.is_empty() {
        s.push('-');
    }
    s
}

/// The en passant square's name, or `-`.
pub fn ep_of(board: &str) -> String {
    board.find(',').map_or_else(|| "-".to_string(), name_at)
}

/// The screen text (the native twin of [`Render`]).
pub fn render_screen(s: &Screen) -> String {
    let b = s.position.board.as_bytes();
    let mut out = format!("{FILES}\n");
    for rank in (1..=8).rev() {
        let row: Vec<String> = (0..8)
            .map(|f| {
                let c = match b[index(f, rank)] {
                    b'T' => 'R',
                    b't' => 'r',
                    b',' => '.',
                    c => c as char,
                };
                c.to_string()
            })
            .collect();
        out.push_str(&format!("{rank} {} {rank}\n", row.join(" ")));
    }
    out.push_str(&format!(
        "{FILES}\n{}. Castling: {}. En passant: {}. Halfmove clock: {}. Move: {}.\n",
        side_words(s.position.turn, s.check),
        castling_of(&s.position.board),
        ep_of(&s.position.board),
        s.position.halfmoves,
        s.position.fullmoves
    ));
    out.push_str(&format!(
        "{}\n{}\n{}\n{HISTORY_PREFIX}{}\n{}",
        players_line(s.engine),
        s.info.replace('~', "#"),
        s.message,
        s.history,
        s.prompt
    ));
    out
}

/// The start of the status line: `White to move`, `Black to move, in
/// check`.
pub fn side_words(turn: Color, check: bool) -> String {
    let side = match turn {
        Color::White => "White",
        Color::Black => "Black",
    };
    let check = if check { ", in check" } else { "" };
    format!("{side} to move{check}")
}

/// The screen of a new game from `fen` with the engine playing `engine`
/// (`None`: two people play, the engine never moves).
///
/// # Errors
///
/// [`crate::FenError`] for an invalid FEN.
pub fn start_screen(fen: &str, engine: Option<Color>) -> Result<String, crate::FenError> {
    use shakmaty::Position;
    let pos = crate::board::codec::parse_fen(fen)?;
    let position = crate::board::codec::encode(&pos);
    Ok(render_screen(&Screen {
        history: start_history(&position.board, position.turn),
        position,
        engine,
        info: NEW_GAME.to_string(),
        message: String::new(),
        prompt: PROMPT.to_string(),
        check: pos.is_check(),
    }))
}

/// Reads a screen back (the native twin of [`ParseScreen`]); `None` if the
/// text is not a screen. The prompt line is returned as it is.
pub fn parse_screen(text: &str) -> Option<Screen> {
    let lines: Vec<&str> = text.split('\n').collect();
    if lines.len() < 16 || lines[0] != FILES || lines[9] != FILES {
        return None;
    }
    let mut board: Vec<u8> = (0..80)
        .map(|i| {
            if crate::board::square_at(i).is_some() {
                b'.'
            } else {
                b'/'
            }
        })
        .collect();
    for (row, line) in lines[1..9].iter().enumerate() {
        let rank = 8 - row;
        let cells: Vec<&str> = line.split(' ').collect();
        if cells.len() != 10 || cells[0] != rank.to_string() || cells[9] != rank.to_string() {
            return None;
        }
        for f in 0..8 {
            let c = cells[1 + f];
            if c.len() != 1 || !".PNBRQKpnbrqk".contains(c) {
                return None;
            }
            board[index(f, rank)] = c.as_bytes()[0];
        }
    }
    let status = lines[10];
    let (turn, check, rest) = [
        (Color::White, false),
        (Color::White, true),
        (Color::Black, false),
        (Color::Black, true),
    ]
    .into_iter()
    .find_map(|(turn, check)| {
        status
            .strip_prefix(&format!("{}. Castling: ", side_words(turn, check)))
            .map(|rest| (turn, check, rest))
    })?;
    let (castling, rest) = rest.split_once(". En passant: ")?;
    let (ep, rest) = rest.split_once(". Halfmove clock: ")?;
    let (h, rest) = rest.split_once(". Move: ")?;
    let n = rest.strip_suffix('.')?;
    if !(castling == "-" || (!castling.is_empty() && castling.chars().all(|c| "KQkq".contains(c))))
    {
        return None;
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(h) || !digits(n) {
        return None;
    }
    for (right, file, rank, plain, castle) in [
        ('K', 7, 1, b'R', b'T'),
        ('Q', 0, 1, b'R', b'T'),
        ('k', 7, 8, b'r', b't'),
        ('q', 0, 8, b'r', b't'),
    ] {
        let i = index(file, rank);
        if castling.contains(right) && board[i] == plain {
            board[i] = castle;
        }
    }
    if ep != "-" {
        let b = ep.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b[1] == b'3' || b[1] == b'6') {
            return None;
        }
        let i = index_of(ep)?;
        if board[i] == b'.' {
            board[i] = b',';
        }
    }
    let engine = [Some(Color::White), Some(Color::Black), None]
        .into_iter()
        .find(|e| players_line(*e) == lines[11])?;
    let history = lines[14].strip_prefix(HISTORY_PREFIX)?;
    if !history.bytes().all(|b| b" wb.,PNBRQKTpnbrqkt".contains(&b)) {
        return None;
    }
    Some(Screen {
        position: Encoded {
            board: String::from_utf8(board).ok()?,
            turn,
            halfmoves: h.parse().ok()?,
            fullmoves: n.parse().ok()?,
        },
        engine,
        info: lines[12].to_string(),
        message: lines[13].to_string(),
        prompt: lines[15..].join("\n"),
        check,
        history: history.to_string(),
    })
}

/// The class of a person's line (the native twin of [`Sanitize`]): the
/// text after the prompt, to the end of the state. `none` means nothing was
/// appended (a fresh screen, or a pass run to let the engine move first);
/// `empty` is an empty line.
pub fn classify_input(after_prompt: &str) -> (&'static str, String) {
    let Some((line, tail)) = after_prompt.split_once('\n') else {
        return if after_prompt.is_empty() {
            ("none", String::new())
        } else {
            ("syntax", String::new())
        };
    };
    if !tail.is_empty() {
        return ("lines", String::new());
    }
    let trimmed = line.trim_matches(' ');
    let b = trimmed.as_bytes();
    if crate::vocabulary::is_move_name(trimmed) {
        return ("ok", trimmed.to_string());
    }
    if line.chars().all(|c| c == ' ') {
        return ("empty", String::new());
    }
    if trimmed == "help" || trimmed == "quit" {
        return (
            if trimmed == "help" { "help" } else { "quit" },
            String::new(),
        );
    }
    if line.chars().any(|c| !(' '..='~').contains(&c)) || line.contains(['%', '#', '`']) {
        return ("chars", String::new());
    }
    if line.len() > 40 {
        return ("long", String::new());
    }
    let looks_like = (b.len() == 4 || b.len() == 5)
        && b[0].is_ascii_lowercase()
        && b[1].is_ascii_digit()
        && b[2].is_ascii_lowercase()
        && b[3].is_ascii_digit()
        && (b.len() == 4 || b[4].is_ascii_lowercase());
    if looks_like {
        return ("square", String::new());
    }
    ("syntax", String::new())
}

fn global(pattern: impl Into<String>, template: Template) -> Rewrite {
    Rewrite::new(pattern, template).with_scope(Scope::Global)
}

/// Turns the person's line after the prompt into `>class move\n`.
#[derive(Debug, Clone, Copy)]
pub struct Sanitize;

impl WholeStateSpecial for Sanitize {
    fn name(&self) -> String {
        "sanitize".into()
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        let mut s = state.clone();
        if let Some(pos) = s.prefix.find(PROMPT) {
            let (class, mv) = classify_input(&s.prefix[pos + PROMPT.len()..]);
            let marker = if mv.is_empty() {
                format!(">{class}\n")
            } else {
                format!(">{class} {mv}\n")
            };
            s.prefix.truncate(pos);
            s.prefix.push_str(&marker);
        }
        Ok(s)
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let marker = |class: &str| Template::literal(&format!(">{class}\n"));
        vec![
            global(r"Your move: [^\n]*\n(?:[^\n]|\n)+", marker("lines")),
            global(
                r"Your move: *([a-h][1-8][a-h][1-8][qrbn]?) *\n",
                Template::literal(">ok ").group(1).text("\n"),
            ),
            global(r"Your move:  *\n", marker("empty")),
            global(r"Your move: *help *\n", marker("help")),
            global(r"Your move: *quit *\n", marker("quit")),
            global(r"Your move: \n", marker("empty")),
            global(r"Your move: [^\n]*[^ -~\n][^\n]*\n", marker("chars")),
            global("Your move: [^\\n]*[%#`][^\\n]*\\n", marker("chars")),
            global(r"Your move: [^\n]{41,}\n", marker("long")),
            global(
                r"Your move: *[a-z][0-9][a-z][0-9][a-z]? *\n",
                marker("square"),
            ),
            global(r"Your move: [^\n]*\n", marker("syntax")),
            global(r"Your move: [^\n]+", marker("syntax")),
            global(r"Your move: ", marker("none")),
        ]
    }
}

/// Turns a sanitized screen into one position thread, keeping the
/// last-moves line as the text before it. Variables: `z s h n e ic i`. A
/// hint line before the screen (`Probe:e7e5`, `search::hint`: a front end
/// climbing the depths names the rung below's move) stays first in that
/// text, before the history line.
#[derive(Debug, Clone, Copy)]
pub struct ParseScreen;

/// The variables [`ParseScreen`] defines.
pub const PARSED_VARS: [&str; 7] = [
    BOARD_VAR,
    TURN_VAR,
    HALFMOVE_VAR,
    FULLMOVE_VAR,
    ENGINE_VAR,
    INPUT_CLASS_VAR,
    INPUT_VAR,
];

impl WholeStateSpecial for ParseScreen {
    fn name(&self) -> String {
        "parse_screen".into()
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        if !state.threads.is_empty() {
            return Ok(state.clone());
        }
        let hint = leading_hint_line(&state.prefix).unwrap_or_default();
        let text = &state.prefix[hint.len()..];
        let Some(marker_at) = text.rfind("\n>") else {
            return Ok(state.clone());
        };
        let marker = &text[marker_at + 2..];
        let Some(marker) = marker.strip_suffix('\n') else {
            return Ok(state.clone());
        };
        let (class, mv) = marker.split_once(' ').unwrap_or((marker, ""));
        let screen_text = format!("{}\n{PROMPT}", &text[..marker_at]);
        let Some(screen) = parse_screen(&screen_text) else {
            return Ok(state.clone());
        };
        if screen.info.contains(['%', '`']) || !class.bytes().all(|b| b.is_ascii_lowercase()) {
            return Ok(state.clone());
        }
        let turn = match screen.position.turn {
            Color::White => "w",
            Color::Black => "b",
        };
        let engine = match screen.engine {
            Some(Color::White) => "w",
            Some(Color::Black) => "b",
            None => "n",
        };
        let vars = [
            (BOARD_VAR, screen.position.board.clone()),
            (TURN_VAR, turn.to_string()),
            (ENGINE_VAR, engine.to_string()),
            (HALFMOVE_VAR, screen.position.halfmoves.to_string()),
            (FULLMOVE_VAR, screen.position.fullmoves.to_string()),
            (INPUT_CLASS_VAR, class.to_string()),
            (INPUT_VAR, mv.to_string()),
        ];
        Ok(State {
            prefix: format!(
                "{hint}{HISTORY_PREFIX}{}\n{}\n",
                screen.history, screen.info
            ),
            threads: vec![Thread {
                tag: None,
                stack: vec![],
                vars: vars
                    .into_iter()
                    .map(|(n, v)| (VarName::must(n), v))
                    .collect(),
            }],
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        // An optional hint line first (`search::hint`): group 1, empty
        // when there is none, kept before the history line.
        let mut pattern = format!(r"^((?:{})?){FILES}\n", hint_line_pattern());
        for rank in (1..=8).rev() {
            pattern.push_str(&format!("{rank}"));
            for _ in 0..8 {
                pattern.push_str(" ([.PNBRQKpnbrqk])");
            }
            pattern.push_str(&format!(r" {rank}\n"));
        }
        pattern.push_str(&format!(r"{FILES}\n"));
        pattern.push_str(
            r"(W|B)(?:hite|lack) to move(?:, in check)?\. Castling: ([KQkq]+|-)\. En passant: ([a-h][36]|-)\. Halfmove clock: ([0-9]+)\. Move: ([0-9]+)\.\n",
        );
        pattern.push_str(
            r"(?:You play (?:white|black); the engine plays (w|b)(?:hite|lack)|Two players, (n)o engine)\.\n",
        );
        pattern.push_str(&format!(
            "([^%`\\n]*\\n)[^\\n]*\\n{HISTORY_PREFIX}([ wb.,PNBRQKTpnbrqkt]*)\\n>([a-z]+) ?([a-h1-8qrbn]*)\\n"
        ));
        // Groups: 1 the hint line, 2-65 squares, 66 side, 67 castling, 68
        // ep, 69 halfmove, 70 fullmove, 71 engine (w/b), 72 no engine (n),
        // 73 info line, 74 history, 75 class, 76 move.
        let mut t = Template::new()
            .group(1)
            .text(HISTORY_PREFIX)
            .group(74)
            .text("\n")
            .group(73)
            .text(&format!("%%\n#stack:\n#{BOARD_VAR}:"));
        for row in 0..8 {
            t = t.text("/");
            for f in 0..8 {
                t = t.group(2 + row * 8 + f);
            }
            t = t.text("/");
        }
        t = t
            .text(&format!("\n#{TURN_VAR}:"))
            .group(66)
            .text(&format!("\n#{ENGINE_VAR}:"))
            .group(71)
            .group(72)
            .text(&format!("\n#{HALFMOVE_VAR}:"))
            .group(69)
            .text(&format!("\n#{FULLMOVE_VAR}:"))
            .group(70)
            .text(&format!("\n#{INPUT_CLASS_VAR}:"))
            .group(75)
            .text(&format!("\n#{INPUT_VAR}:"))
            .group(76)
            .text("\n#c:")
            .group(67)
            .text("\n#ep:")
            .group(68)
            .text("\n");
        let head = r"%%\n#stack:\n";
        let mut out = vec![global(pattern, t)];
        for (upper, lower) in [("W", "w"), ("B", "b")] {
            out.push(global(
                format!(r"({head}#{BOARD_VAR}:[^\n]*\n#{TURN_VAR}:){upper}\n"),
                Template::new().group(1).text(&format!("{lower}\n")),
            ));
        }
        for (file, rank, right, rook) in [
            (7, 1, 'K', 'R'),
            (0, 1, 'Q', 'R'),
            (7, 8, 'k', 'r'),
            (0, 8, 'q', 'r'),
        ] {
            let castle = if rook == 'R' { 'T' } else { 't' };
            out.push(global(
                format!(
                    r"({head}#{BOARD_VAR}:.{{{}}}){rook}([^%]*?#c:[^\n]*{right})",
                    index(file, rank)
                ),
                Template::new().group(1).text(&castle.to_string()).group(2),
            ));
        }
        for rank in [3, 6] {
            for file in 0..8 {
                let i = index(file, rank);
                out.push(global(
                    format!(
                        r"({head}#{BOARD_VAR}:.{{{i}}})\.([^%]*?#ep:{}\n)",
                        name_at(i)
                    ),
                    Template::new().group(1).text(",").group(2),
                ));
            }
        }
        out.push(global(
            format!(r"({head}[^%]*)#c:[^\n]*\n#ep:[^\n]*\n"),
            Template::new().group(1),
        ));
        out
    }

    fn defines(&self) -> Vec<String> {
        PARSED_VARS.iter().map(|s| s.to_string()).collect()
    }
}

/// Turns the one thread back into a screen. It reads, in this order at the
/// front of the thread's variables, `nl msg pr sw pl h n`, and anywhere
/// after them the board `z`; the thread goes. An empty `nl` keeps the text
/// before the thread (the old last-moves line).
#[derive(Debug, Clone, Copy)]
pub struct Render;

/// The variables [`Render`] reads, in the order they must come first.
pub const RENDER_VARS: [&str; 7] = [
    NEW_INFO_VAR,
    MESSAGE_VAR,
    PROMPT_VAR,
    SIDE_WORD_VAR,
    PLAYERS_VAR,
    HALFMOVE_VAR,
    FULLMOVE_VAR,
];

impl WholeStateSpecial for Render {
    fn name(&self) -> String {
        "render".into()
    }

    fn apply_state(&self, state: &State) -> Result<State, RefError> {
        let fail = |m: &str| {
            Err(RefError::Special {
                instr: "render".into(),
                message: m.into(),
            })
        };
        let [t] = state.threads.as_slice() else {
            return fail("needs exactly one thread");
        };
        let front: Vec<&str> = t
            .vars
            .iter()
            .take(RENDER_VARS.len())
            .map(|(n, _)| n.as_str())
            .collect();
        if front != RENDER_VARS || !t.stack.is_empty() || !t.is_active() {
            return fail("variables out of order, stack not empty or thread paused");
        }
        let v = |name: &str| t.var(name).unwrap_or_default().to_string();
        let Ok(halfmoves) = v(HALFMOVE_VAR).parse() else {
            return fail("bad halfmove clock");
        };
        let Ok(fullmoves) = v(FULLMOVE_VAR).parse() else {
            return fail("bad move number");
        };
        let Some((history, old_info)) = state
            .prefix
            .strip_prefix(HISTORY_PREFIX)
            .and_then(|p| p.split_once('\n'))
        else {
            return fail("no history line before the thread");
        };
        let info = v(NEW_INFO_VAR);
        let info = if info.is_empty() {
            old_info.trim_end_matches('\n').to_string()
        } else {
            info
        };
        let side = v(SIDE_WORD_VAR);
        let text = render_screen(&Screen {
            position: Encoded {
                board: v(BOARD_VAR),
                turn: if side.starts_with("White") {
                    Color::White
                } else {
                    Color::Black
                },
                halfmoves,
                fullmoves,
            },
            check: side.ends_with(", in check"),
            history: history.to_string(),
            engine: [Some(Color::White), Some(Color::Black), None]
                .into_iter()
                .find(|e| players_line(*e) == v(PLAYERS_VAR))
                .unwrap_or(None),
            info,
            message: v(MESSAGE_VAR),
            prompt: v(PROMPT_VAR),
        });
        Ok(State {
            prefix: text,
            threads: vec![],
        })
    }

    fn rewrites(&self) -> Vec<Rewrite> {
        let head = r"%%\n#stack:\n";
        let mut out = Vec::new();
        // Derived text: castling rights, en passant square, display board.
        out.push(global(
            format!(r"({head}[^%]*?#{BOARD_VAR}:([^\n]*)\n[^%]*)"),
            Template::new()
                .group(1)
                .text("#c:\n#ep:-\n#d:")
                .group(2)
                .text("\n"),
        ));
        for (i, (file, rank, ch, right)) in [
            (7, 1, 'T', 'K'),
            (0, 1, 'T', 'Q'),
            (7, 8, 't', 'k'),
            (0, 8, 't', 'q'),
        ]
        .into_iter()
        .enumerate()
        {
            let before: String = ["K?", "Q?", "k?"][..i].concat();
            out.push(global(
                format!(
                    r"({head}[^%]*?#{BOARD_VAR}:.{{{}}}{ch}[^%]*?#c:{before})",
                    index(file, rank)
                ),
                Template::new().group(1).text(&right.to_string()),
            ));
        }
        out.push(global(
            format!(r"({head}[^%]*?#c:)\n"),
            Template::new().group(1).text("-\n"),
        ));
        for rank in [3, 6] {
            for file in 0..8 {
                let i = index(file, rank);
                out.push(global(
                    format!(r"({head}[^%]*?#{BOARD_VAR}:.{{{i}}},[^%]*?#ep:)-"),
                    Template::new().group(1).text(&name_at(i)),
                ));
            }
        }
        for (from, to, times) in [('T', 'R', 2), ('t', 'r', 2), (',', '.', 1)] {
            for _ in 0..times {
                out.push(global(
                    format!(r"({head}[^%]*?#d:[^\n]*){from}"),
                    Template::new().group(1).text(&to.to_string()),
                ));
            }
        }
        // The screen, with the new last-moves line or the old one.
        let mut vars = String::new();
        for name in RENDER_VARS {
            if name == NEW_INFO_VAR {
                continue;
            }
            vars.push_str(&format!(r"#{name}:([^\n]*)\n"));
        }
        let mut board_pat = String::from("#d:");
        for _ in 0..8 {
            board_pat.push_str("/(.)(.)(.)(.)(.)(.)(.)(.)/");
        }
        // Group 1 the history; after the info group (2): msg pr sw pl h n
        // (6), then c ep, then 64 squares.
        for keep in [false, true] {
            let info_group = 2;
            let pattern = if keep {
                format!(
                    r"^{HISTORY_PREFIX}([^\n]*)\n([^%]*)\n{head}#{NEW_INFO_VAR}:\n{vars}[^%]*?#c:([^\n]*)\n#ep:([^\n]*)\n{board_pat}\n[^%]*"
                )
            } else {
                format!(
                    r"^{HISTORY_PREFIX}([^\n]*)\n[^%]*{head}#{NEW_INFO_VAR}:([^\n]+)\n{vars}[^%]*?#c:([^\n]*)\n#ep:([^\n]*)\n{board_pat}\n[^%]*"
                )
            };
            let g = |k: usize| info_group + k;
            let mut t = Template::literal(&format!("{FILES}\n"));
            for row in 0..8 {
                let rank = 8 - row;
                t = t.text(&rank.to_string());
                for f in 0..8 {
                    t = t.text(" ").group(g(9 + row * 8 + f));
                }
                t = t.text(&format!(" {rank}\n"));
            }
            t = t
                .text(&format!("{FILES}\n"))
                .group(g(3))
                .text(". Castling: ")
                .group(g(7))
                .text(". En passant: ")
                .group(g(8))
                .text(". Halfmove clock: ")
                .group(g(5))
                .text(". Move: ")
                .group(g(6))
                .text(".\n")
                .group(g(4))
                .text("\n")
                .group(info_group)
                .text("\n")
                .group(g(1))
                .text(&format!("\n{HISTORY_PREFIX}"))
                .group(1)
                .text("\n")
                .group(g(2));
            out.push(global(pattern, t));
        }
        // A mate sign travels as `~` inside threads.
        out.push(global(
            r"^((?:[^\n]*\n){12}[^\n~]*)~",
            Template::new().group(1).text("#"),
        ));
        out
    }

    fn requires(&self) -> Vec<String> {
        let mut v: Vec<String> = RENDER_VARS.iter().map(|s| s.to_string()).collect();
        v.push(BOARD_VAR.into());
        v
    }
}
