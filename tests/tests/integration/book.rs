//! The opening book (`chess::book`): every book move is legal where it
//! stands (by shakmaty, not by the book's own reader); the programs with
//! the book's stage answer a book position with the book's move and
//! score, and search every other position as the programs without it do
//! (one ply off the book, the same board with other castling rights or
//! the other side to move); with the book off the programs are the ones
//! without a stage; the stage's rewrites mean what its reference meaning
//! says, instruction by instruction.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::book::{book, play, Book, BookError};
use chess::codec::{encode, fen_of, thread_of};
use chess::search::{reply_program, reply_program_with, Variant};
use chess::turn::{turn_program, turn_program_with};
use chess::UseBook;
use regex_asm::{interpret, lower, optimize, trace};
use regex_chess_tests::depth;
use regex_vm::state::State;
use regex_vm::{Config, Executor};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// The position a book entry's moves reach, played by shakmaty.
fn position_of(moves: &[String]) -> Chess {
    let mut pos = Chess::default();
    for mv in moves {
        let m = mv.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    pos
}

#[test]
fn every_book_move_is_legal_in_its_position() {
    let book = book();
    assert!(book.entries.len() >= 20, "{} entries", book.entries.len());
    assert!(
        book.probe(&Chess::default()).is_some(),
        "the start is in the book"
    );
    for e in &book.entries {
        let pos = position_of(&e.moves);
        let legal: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| m.to_uci(CastlingMode::Standard).to_string())
            .collect();
        assert!(
            legal.contains(&e.answer),
            "{}: {} is not legal",
            fen_of(&pos),
            e.answer
        );
        assert_eq!(book.probe(&pos).map(|(mv, _)| mv), Some(e.answer.as_str()));
    }
}

#[test]
fn a_bad_book_is_refused_with_its_line() {
    assert_eq!(
        Book::parse("e2e4: e7e5 5000\ne2e5: e7e5 5000\n"),
        Err(BookError::Illegal {
            line: 2,
            mv: "e2e5".into()
        })
    );
    assert_eq!(
        Book::parse(": e2e4 5000\n: d2d4 5000\n"),
        Err(BookError::Twice { line: 2, first: 1 })
    );
    assert_eq!(
        Book::parse("e2e4 e7e5 5000\n"),
        Err(BookError::NoColon { line: 1 })
    );
    assert_eq!(Book::parse(": e2e4\n"), Err(BookError::Answer { line: 1 }));
    assert_eq!(
        Book::parse("e2e4: e2e4 5000\n"),
        Err(BookError::Illegal {
            line: 1,
            mv: "e2e4".into()
        })
    );
}

/// An en passant square with no legal capture is the same key with or
/// without its mark (a FEN may leave it out); with a legal capture it is
/// not.
#[test]
fn a_loose_en_passant_square_matches_both_ways() {
    let b = Book::parse("e2e4: e7e5 5000\ne2e4 d7d5 e4e5 f7f5: e5f6 5000\n").unwrap();
    let without =
        chess::codec::parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
            .unwrap();
    assert_eq!(b.probe(&without).map(|(m, _)| m), Some("e7e5"));
    let pos = play(&Chess::default(), "e2e4").unwrap();
    assert_eq!(b.probe(&pos).map(|(m, _)| m), Some("e7e5"));
    let legal_ep =
        chess::codec::parse_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3")
            .unwrap();
    assert_eq!(b.probe(&legal_ep), None, "f6 must be marked");
}

/// Positions the book answers whose answer differs from depth 2's
/// search: there the stage must have answered.
fn differing_entries(n: usize) -> Vec<(String, String, u32)> {
    let d2 = depth(2);
    book()
        .entries
        .iter()
        .map(|e| (fen_of(&position_of(&e.moves)), e.answer.clone(), e.score))
        .filter(|(fen, answer, _)| {
            let plain = chess::search(fen, &[], d2).unwrap().best.unwrap();
            plain.0 != *answer
        })
        .take(n)
        .collect()
}

#[test]
fn the_reply_program_answers_a_book_position_from_the_book() {
    let found = differing_entries(6);
    assert!(
        found.len() >= 3,
        "the book should differ from depth 2 somewhere"
    );
    for (fen, answer, score) in found {
        for d in [depth(2), depth(3)] {
            let got = chess::search_variant(&fen, &[], d, Variant::of_book(UseBook::On)).unwrap();
            assert_eq!(got.best, Some((answer.clone(), score)), "{fen} at {d}");
        }
    }
}

/// Positions that are not in the book: one ply past a book position (a
/// move the book does not follow), the start with other castling rights,
/// the start's board with black to move, and a middlegame.
fn misses() -> Vec<String> {
    let start = Chess::default();
    let off = start
        .legal_moves()
        .iter()
        .map(|m| {
            let mut p = start.clone();
            p.play_unchecked(*m);
            p
        })
        .flat_map(|p| {
            p.legal_moves()
                .into_iter()
                .map(move |m| {
                    let mut q = p.clone();
                    q.play_unchecked(m);
                    q
                })
                .collect::<Vec<_>>()
        })
        .find(|q| book().probe(q).is_none())
        .unwrap();
    let fens = vec![
        fen_of(&off),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1".to_string(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1".to_string(),
        "r1bq1rk1/ppp2ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPP2PPP/R1BQ1RK1 w - - 0 7".to_string(),
    ];
    for fen in &fens {
        let pos = chess::codec::parse_fen(fen).unwrap();
        assert_eq!(book().probe(&pos), None, "{fen} is in the book");
    }
    fens
}

#[test]
fn a_position_not_in_the_book_is_searched_as_without_the_book() {
    for fen in misses() {
        for d in [depth(2), depth(3)] {
            let with = chess::search_variant(&fen, &[], d, Variant::of_book(UseBook::On)).unwrap();
            let without = chess::search(&fen, &[], d).unwrap();
            assert_eq!(with.best, without.best, "{fen} at {d}");
        }
    }
}

#[test]
fn the_turn_program_plays_the_book_reply() {
    let d2 = depth(2);
    let (fen, answer, _) = differing_entries(1).pop().unwrap();
    // A screen with the engine to move in the book position.
    let engine = chess::codec::parse_fen(&fen).unwrap().turn();
    let mut state = chess::screen::start_screen(&fen, Some(engine)).unwrap();
    chess::play_turn_with(&mut state, None, d2, Variant::of_book(UseBook::On)).unwrap();
    let info = chess::screen::parse_screen(&state).unwrap().info;
    assert_eq!(
        chess::turn::engine_move(&info),
        Some(answer.as_str()),
        "{info}"
    );
    // Without the book, depth 2 plays its own move there.
    let mut plain = chess::screen::start_screen(&fen, Some(engine)).unwrap();
    chess::play_turn(&mut plain, None, d2).unwrap();
    let info = chess::screen::parse_screen(&plain).unwrap().info;
    assert_ne!(chess::turn::engine_move(&info), Some(answer.as_str()));
}

#[test]
fn with_the_book_off_the_programs_are_unchanged() {
    for d in [depth(2), depth(3)] {
        let off = reply_program_with(d, Variant::of_book(UseBook::Off)).unwrap();
        assert_eq!(off.rewrites(), reply_program(d).unwrap().rewrites());
        let on = reply_program_with(d, Variant::of_book(UseBook::On)).unwrap();
        assert!(on.len() > off.len() + book().entries.len() / 2);
    }
    let d2 = depth(2);
    let off = turn_program_with(d2, Variant::of_book(UseBook::Off)).unwrap();
    assert_eq!(off.rewrites(), turn_program(d2).unwrap().rewrites());
}

/// The book's stage run instruction by instruction on the reference
/// interpreter and on the VM, on a state of a book position and a miss
/// of each side: the same bytes after each instruction.
#[test]
fn the_book_stage_means_its_reference() {
    let ir = optimize(
        &trace(|m| chess::search::reply_dsl_with(m, depth(2), Variant::of_book(UseBook::On)))
            .unwrap(),
    );
    let program = lower(&ir).unwrap();
    let mut per_instr = vec![Vec::new(); ir.instrs.len()];
    for r in program.rewrites() {
        per_instr[r.origin.as_ref().unwrap().instr].push(r.clone());
    }
    let steps: Vec<Executor> = per_instr
        .into_iter()
        .map(|rs| Executor::new(&regex_vm::Program::new(rs), Config::default()).unwrap())
        .collect();
    let hit = position_of(&book().entries[1].moves);
    let miss = chess::codec::parse_fen(&misses()[0]).unwrap();
    for positions in [vec![hit.clone()], vec![miss.clone()], vec![hit, miss]] {
        let start = State {
            prefix: String::new(),
            threads: positions.iter().map(|p| thread_of(&encode(p))).collect(),
        };
        let mut reference = start.clone();
        let mut text = start.render();
        for (i, instr) in ir.instrs.iter().enumerate() {
            interpret::execute(instr, &mut reference).unwrap();
            steps[i].run(&mut text).unwrap();
            assert_eq!(text, reference.render(), "instruction {i} ({instr})");
        }
    }
}

/// On a clock, a book position is answered by the first rung: the
/// deeper ones would answer the same book move.
#[test]
fn a_book_position_ends_the_climb_at_once() {
    let e = &book().entries[1];
    let fen = fen_of(&position_of(&e.moves));
    let limits = chess::search::deepen::Limits {
        book: UseBook::On,
        ..chess::search::deepen::Limits::to_depth(depth(5))
    };
    let thought = chess::think(&fen, &[], &limits, |_| {}).unwrap();
    assert_eq!(thought.rungs.len(), 1);
    assert_eq!(thought.answer().answer, Some((e.answer.clone(), e.score)));
}
