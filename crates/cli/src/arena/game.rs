//! One game of `match`, played to its end: the loop of moves (the
//! opening's book moves, then our engine's and the opponent's in turn),
//! each move timed around it, charged to its clock (`--tc`), checked with
//! shakmaty and adjudicated (`adjudicate`), and our moves' notes and
//! allowed mates counted into the game's own [`Tally`].
//!
//! It owns how our engine is asked for a move ([`engine_move`]: the
//! regex program at a depth or on a clock, as `uci` plays; [`native_move`]:
//! the native reference). It starts no process and writes no file: the
//! opponent is given, and the caller (`arena`) writes the PGN.

use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context, Result};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Position};

use chess::reference::Leaves;
use chess::search::deepen::Ended;
use chess::vocabulary::Plan;

use super::adjudicate::{adjudicate, allowed_mate, Ending, Repetitions};
use super::openings::{legal_move, start_position};
use super::opponent::Opponent;
use super::record::{engine_note, seconds, Game, Played};
use super::tally::Tally;
use super::time_control::{Clocks, Unanswered};
use super::{quote, Native, Settings};

/// The opponent of a match: a UCI engine in its process, or the native
/// reference with its leaves in this one (`--versus-native`), thinking
/// with our engine's plan and limits.
pub(in crate::arena) enum Rival {
    /// A UCI engine (`--opponent`).
    Uci(Opponent),
    /// The native reference (`--versus-native`).
    Native(Native),
}

/// What [`engine_move`] gives: the move (UCI) and its score, `None` when
/// there is none; the depth that answered; on a clock, the rung that ran
/// without answering, if one did.
struct OurMove {
    best: Option<(String, u32)>,
    depth: chess::Depth,
    unfinished: Option<Unanswered>,
}

/// Our engine's move (UCI) and its score in `fen`, `None` when it has
/// none, and the depth that answered; `history` (the game's position keys since the last
/// capture or pawn move) lets it score a move back into one of them as a
/// draw. With `clock` it thinks as `uci`'s `go` does with the same limits
/// (`chess::search::clock::budget`, then `chess::think` up the ladder to `depth`,
/// timed from `start`); without, it searches `depth` plies. Last, on a
/// clock, the rung that ran without answering, if one did.
///
/// # Errors
///
/// A failure of the regex program.
fn engine_move(
    fen: &str,
    history: &[String],
    settings: &Settings,
    clock: Option<&chess::search::clock::Clock>,
    start: Instant,
) -> Result<OurMove> {
    let depth = settings.depth;
    let variant = chess::Variant {
        book: settings.book,
        late: settings.late,
    };
    let context = || format!("our engine on {}", quote(fen));
    let Some(clock) = clock else {
        let searched = chess::search_variant(fen, history, depth, variant).with_context(context)?;
        return Ok(OurMove {
            best: searched.best,
            depth: searched.depth,
            unfinished: None,
        });
    };
    let limits = chess::search::deepen::Limits {
        start,
        budget: chess::search::clock::budget(clock),
        book: variant.book,
        late: variant.late,
        ..chess::search::deepen::Limits::to_depth(depth)
    };
    let thought = chess::think(fen, history, &limits, |_| {}).with_context(context)?;
    let answer = thought.answer();
    // A rung that ran without answering: from the answer's end to the
    // climb's.
    let lost = thought.elapsed.saturating_sub(answer.at);
    let unfinished = match thought.ended {
        Ended::Stopped { .. } => Some(Unanswered {
            stopped: true,
            time: lost,
        }),
        Ended::TooLarge { .. } => Some(Unanswered {
            stopped: false,
            time: lost,
        }),
        Ended::Top | Ended::Settled | Ended::NotStarted { .. } | Ended::NotBuilt { .. } => None,
    };
    Ok(OurMove {
        best: answer.answer.clone(),
        depth: answer.depth,
        unfinished,
    })
}

/// The native reference's move (UCI) and its score in `pos` with
/// `leaves`, `None` when it has none; `history` as for [`engine_move`].
/// Of equal best moves, the one whose piece stands first in the board line
/// (rank 8 first, file a first), as the regex program's tournament keeps
/// the earliest thread and makes them in that order.
fn native_move(
    pos: &Chess,
    history: &[String],
    plan: Plan,
    leaves: Leaves,
) -> Option<(String, u32)> {
    let (best, score) =
        chess::reference::best_moves_planned(pos, plan, &history_keys(history), leaves)?;
    first_in_board_order(&best, score)
}

/// The game's position keys as the reference takes them, each after a
/// space.
fn history_keys(history: &[String]) -> String {
    history.iter().map(|k| format!(" {k}")).collect()
}

/// Of the equal best moves `best` (scoring `score`), the one whose piece
/// stands first in the board line (rank 8 first, file a first), as UCI
/// text with the score.
fn first_in_board_order(best: &[shakmaty::Move], score: u32) -> Option<(String, u32)> {
    best.iter()
        .min_by_key(|m| {
            m.from()
                .map(|sq| (7 - u32::from(sq.rank()), u32::from(sq.file())))
        })
        .map(|m| (m.to_uci(CastlingMode::Standard).to_string(), score))
}

/// Plays one game to its end, recording it in `game`.
pub(super) fn play(
    game: &mut Game,
    opponent: &mut Rival,
    settings: &Settings,
    tally: &mut Tally,
) -> Result<()> {
    if let Rival::Uci(uci) = opponent {
        uci.new_game()?;
    }
    let mut pos = start_position(game.opening.fen.as_deref())?;
    let mut repetitions = Repetitions::default();
    let mut occurrences = repetitions.add(&pos);
    let mut history = vec![history_key(&pos)];
    let mut uci_moves: Vec<String> = Vec::new();
    let mut book = game.opening.moves.clone().into_iter();
    let mut clocks = settings.tc.map(Clocks::new);
    loop {
        let plies = uci_moves.len() as u32;
        if let Some(ending) = adjudicate(&pos, occurrences, plies, settings.max_plies) {
            game.ending = Some(ending);
            return Ok(());
        }
        let fen = Fen::from_position(&pos, EnPassantMode::Legal).to_string();
        let side = pos.turn();
        let start = Instant::now();
        let (text, ours, note, took) = if let Some(m) = book.next() {
            (m, false, "book".to_string(), Duration::ZERO)
        } else if side == game.ours {
            let clock = our_clock(settings, clocks.as_ref(), side);
            let (m, note, took) = our_move(&pos, &fen, &history, settings, clock, start, tally)?;
            (m, true, note, took)
        } else {
            let clock = our_clock(settings, clocks.as_ref(), side);
            let (m, note, took) = match opponent {
                Rival::Native(native) => {
                    native_rival_move(&pos, &fen, &history, settings, *native, clock, start)?
                }
                Rival::Uci(uci) => {
                    let (m, took) =
                        their_move(uci, game, &uci_moves, clocks.as_ref(), side, settings)?;
                    (m, seconds(took), took)
                }
            };
            tally.times.theirs.push(took);
            (m, false, note, took)
        };
        // The book's moves take no time; every other move is charged
        // with its time, measured around it (ours with `--regex-time`:
        // the cost model's).
        if let Some(c) = clocks
            .as_mut()
            .filter(|_| game.moves.len() >= game.opening.moves.len())
        {
            if c.charge(side, took).is_err() {
                game.ending = Some(Ending::Time { winner: !side });
                return Ok(());
            }
        }
        let Some(m) = legal_move(&pos, &text) else {
            let who = if ours { "our engine" } else { "the opponent" };
            bail!(
                "{who} played the illegal move {} in {}",
                quote(&text),
                quote(&fen)
            );
        };
        let allowed = if ours { allowed_mate(&pos, &m) } else { None };
        tally.engine_moves += u32::from(ours);
        if let Some(a) = &allowed {
            tally.allowed += 1;
            if tally.wants_example() {
                tally.examples.push((
                    game.round,
                    fen.clone(),
                    SanPlus::from_move(pos.clone(), m).to_string(),
                    a.clone(),
                ));
            }
        }
        uci_moves.push(m.to_uci(CastlingMode::Standard).to_string());
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        game.moves.push(Played {
            san: san.to_string(),
            note,
            allowed,
        });
        occurrences = repetitions.add(&pos);
        if pos.halfmoves() == 0 {
            history.clear();
        }
        history.push(history_key(&pos));
    }
}

/// The opponent's move (UCI text) after `moves` of `game`, and its time:
/// `go` with the clocks (`--tc`) or `--movetime`.
fn their_move(
    opponent: &mut Opponent,
    game: &Game,
    moves: &[String],
    clocks: Option<&Clocks>,
    side: Color,
    settings: &Settings,
) -> Result<(String, Duration)> {
    let start = Instant::now();
    let (limits, expected) = match clocks {
        Some(c) => (
            format!(
                "wtime {} btime {} winc {} binc {}",
                c.left(Color::White).as_millis(),
                c.left(Color::Black).as_millis(),
                c.increment().as_millis(),
                c.increment().as_millis()
            ),
            c.left(side),
        ),
        None => (
            format!("movetime {}", settings.movetime),
            Duration::from_millis(settings.movetime),
        ),
    };
    let m = opponent.best_move(game.opening.fen.as_deref(), moves, &limits, expected)?;
    Ok((m, start.elapsed()))
}

/// Our engine's move in `pos` (`fen`, the game's `history`): its UCI
/// text, its note, and its time, measured around it from `start` (with
/// `--regex-time`, the regex program's time by the cost model); `clock`:
/// its time rule, if any. Its time and depth go into `tally`.
fn our_move(
    pos: &Chess,
    fen: &str,
    history: &[String],
    settings: &Settings,
    clock: Option<chess::search::clock::Clock>,
    start: Instant,
    tally: &mut Tally,
) -> Result<(String, String, Duration)> {
    let (m, plies, modeled) = match settings.native {
        None => {
            let our = engine_move(fen, history, settings, clock.as_ref(), start)?;
            if clock.is_some() {
                tally.times.climb(our.unfinished);
            }
            (our.best, our.depth.plies(), None)
        }
        Some(native) => {
            let thought = native_thought(pos, history, settings, native, clock, start);
            if let Some(unfinished) = thought.climbed {
                tally.times.climb(unfinished);
            }
            (thought.best, thought.plies, Some(thought.took))
        }
    };
    let took = modeled.unwrap_or_else(|| start.elapsed());
    tally.times.ours(took, plies);
    if (settings.native.is_none() || settings.regex_time)
        && settings
            .our_movetime
            .is_some_and(|ms| took > Duration::from_millis(ms))
    {
        tally.times.over_movetime += 1;
    }
    let (m, score) = m.ok_or_else(|| anyhow!("our engine found no move in {}", quote(fen)))?;
    Ok((m, engine_note(score, plies, took), took))
}

/// The native opponent `native`'s move in `pos` (`fen`, the game's
/// `history`): its UCI text, its note (score, depth and time, as ours)
/// and its time, the model's with `--regex-time`.
fn native_rival_move(
    pos: &Chess,
    fen: &str,
    history: &[String],
    settings: &Settings,
    native: Native,
    clock: Option<chess::search::clock::Clock>,
    start: Instant,
) -> Result<(String, String, Duration)> {
    let thought = native_thought(pos, history, settings, native, clock, start);
    let (m, score) = thought
        .best
        .ok_or_else(|| anyhow!("the native opponent found no move in {}", quote(fen)))?;
    let note = engine_note(score, thought.plies, thought.took);
    Ok((m, note, thought.took))
}

/// A native engine's answer ([`native_thought`]).
struct Thought {
    /// Its move (UCI) and score, `None` without a legal move.
    best: Option<(String, u32)>,
    /// The plies of the plan that answered.
    plies: u32,
    /// Its time: the cost model's with `--regex-time`, else measured.
    took: Duration,
    /// On a modeled clock, the rung stopped at the move's limit, if one
    /// was (`None` without a budget).
    climbed: Option<Option<Unanswered>>,
}

/// The native engine `native`'s move in `pos` (the game's `history`)
/// under the match's plan and limits: with `--regex-time`,
/// climbing the ladder within `clock`'s budget at the regex program's
/// modeled time; else its fixed plan, timed from `start` (on a clock it
/// is charged but not limited).
fn native_thought(
    pos: &Chess,
    history: &[String],
    settings: &Settings,
    native: Native,
    clock: Option<chess::search::clock::Clock>,
    start: Instant,
) -> Thought {
    let Native {
        leaves,
        select,
        book,
    } = native;
    let budget = clock.as_ref().and_then(chess::search::clock::budget);
    if let Some((mv, score)) = book.then(|| chess::book::book().probe(pos)).flatten() {
        // As the regex program with the book: the first rung answers the
        // book's move, its search skipped (`chess::think`).
        return Thought {
            best: Some((mv.to_string(), score)),
            // No ply searched: `depth reached: 0` counts the book's moves.
            plies: 0,
            took: if settings.regex_time {
                chess::reference::cost::time_of(chess::reference::cost::BOOK_HIT_BYTES)
            } else {
                start.elapsed()
            },
            climbed: if settings.regex_time {
                budget.map(|_| None)
            } else {
                None
            },
        };
    }
    if !settings.regex_time {
        let best = if select.is_none() {
            native_move(pos, history, settings.plan, leaves)
        } else {
            let mut meter = chess::reference::cost::Meter::unlimited();
            chess::reference::best_moves_selective(
                pos,
                settings.plan,
                &history_keys(history),
                leaves,
                select,
                &mut meter,
            )
            .unwrap_or_default()
            .and_then(|(moves, score)| first_in_board_order(&moves, score))
        };
        return Thought {
            best,
            plies: settings.plan.plies,
            took: start.elapsed(),
            climbed: None,
        };
    }
    let rungs = chess::reference::clocked::rungs_to(settings.plan);
    let climbed = chess::reference::clocked::climb_selective(
        pos,
        &history_keys(history),
        leaves,
        select,
        &rungs,
        budget,
    );
    let stopped = climbed.stopped.map(|time| Unanswered {
        stopped: true,
        time,
    });
    Thought {
        best: climbed
            .best
            .and_then(|(moves, score)| first_in_board_order(&moves, score)),
        plies: climbed.plan.plies,
        took: climbed.time,
        climbed: budget.map(|_| stopped),
    }
}

/// What our engine's time rule is given for a move of `side`: the game's
/// clock (`--tc`), else `--our-movetime`, else nothing (a fixed depth).
fn our_clock(
    settings: &Settings,
    clocks: Option<&Clocks>,
    side: Color,
) -> Option<chess::search::clock::Clock> {
    match (clocks, settings.our_movetime) {
        (Some(c), _) => Some(chess::search::clock::Clock {
            remaining: Some(c.left(side)),
            increment: c.increment(),
            ..chess::search::clock::Clock::default()
        }),
        (None, Some(ms)) => Some(chess::search::clock::Clock {
            movetime: Some(Duration::from_millis(ms)),
            ..chess::search::clock::Clock::default()
        }),
        (None, None) => None,
    }
}

/// The key of `pos` in our engine's history of the game.
fn history_key(pos: &Chess) -> String {
    chess::ending::position_key(&chess::codec::encode(pos).board, pos.turn())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_ply_after_three_full_plies_sees_a_discovered_attack() {
        // From a lost match game: at depth 3 the search plays Nxf6+, whose
        // line gxf6 Nxd4 uncovers the bishop's attack on the queen (Bxd1),
        // a capture past its leaves; one capture ply more sees it.
        let fen = "1r1qkb1r/2p3pp/p4p2/4p3/P2nN1bP/3P1N2/1PP2PP1/R1BQ1RK1 w k - 4 13";
        let pos: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let moves = |plan| {
            let (best, _) =
                chess::reference::best_moves_planned(&pos, plan, "", Leaves::Threats).unwrap();
            best.iter()
                .map(|m| m.to_uci(CastlingMode::Standard).to_string())
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(Plan { full: 3, plies: 3 }), ["e4f6"]);
        let deeper = moves(Plan { full: 3, plies: 4 });
        assert!(!deeper.contains(&"e4f6".to_string()), "{deeper:?}");
    }
}
