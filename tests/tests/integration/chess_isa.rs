//! The chess special instructions join the ISA's central property: on
//! states holding real positions, the reference interpreter (which gives
//! each special its meaning by indexing into the board string) and the
//! lowered rewrites on the VM agree byte for byte, instruction by
//! instruction, over the whole legal-move program.
// A failing unwrap in a test helper is a failing test.
#![allow(clippy::unwrap_used)]

use chess::codec::{encode, fen_of, thread_of};
use chess::movegen::{legal_moves_dsl, Options};
use chess::search::reply_dsl;
use proptest::prelude::*;
use regex_chess_tests::depth;
use std::sync::OnceLock;

use chess::codec::START_FEN;
use regex_asm::ir::IrProgram;
use regex_asm::{interpret, lower, optimize, trace};
use regex_chess_tests::positions::{random_game, Rng};
use regex_chess_tests::proptest_config;
use regex_vm::state::State;
use regex_vm::{Config, Executor};
use shakmaty::Chess;

/// A program, and one compiled executor per instruction.
struct Stepwise {
    ir: IrProgram,
    steps: Vec<Executor>,
}

impl Stepwise {
    fn new(ir: IrProgram) -> Stepwise {
        let program = lower(&ir).unwrap();
        let mut per_instr = vec![Vec::new(); ir.instrs.len()];
        for r in program.rewrites() {
            per_instr[r.origin.as_ref().unwrap().instr].push(r.clone());
        }
        let steps = per_instr
            .into_iter()
            .map(|rs| Executor::new(&regex_vm::Program::new(rs), Config::default()).unwrap())
            .collect();
        Stepwise { ir, steps }
    }
}

fn move_pass() -> &'static Stepwise {
    static CELL: OnceLock<Stepwise> = OnceLock::new();
    CELL.get_or_init(|| {
        Stepwise::new(optimize(
            &trace(|m| legal_moves_dsl(m, Options::default())).unwrap(),
        ))
    })
}

fn reply_pass() -> &'static Stepwise {
    static CELL: OnceLock<Stepwise> = OnceLock::new();
    CELL.get_or_init(|| Stepwise::new(optimize(&trace(|m| reply_dsl(m, depth(2))).unwrap())))
}

/// Runs the program instruction by instruction on both sides; the first
/// divergence is the error.
fn compare_stepwise(program: &Stepwise, start: &State) -> Result<(), String> {
    let Stepwise { ir, steps } = program;
    let mut reference_state = start.clone();
    let mut text = start.render();
    for (i, instr) in ir.instrs.iter().enumerate() {
        interpret::execute(instr, &mut reference_state)
            .map_err(|e| format!("reference refused instruction {i} ({instr}): {e}"))?;
        steps[i].run(&mut text).unwrap();
        if text != reference_state.render() {
            return Err(format!(
                "instruction {i} ({instr}) diverges\nvm:\n{text}\nreference:\n{}",
                reference_state.render()
            ));
        }
    }
    Ok(())
}

fn state_of(positions: &[Chess]) -> State {
    State {
        prefix: String::new(),
        threads: positions.iter().map(|p| thread_of(&encode(p))).collect(),
    }
}

proptest! {
    #![proptest_config(proptest_config(200))]

    /// Two random positions in one state (often one per side to move), so
    /// both colours' branches run at once.
    #[test]
    fn chess_specials_interp_and_vm_agree(a in any::<u64>(), b in any::<u64>(), plies in 0usize..100) {
        let start = Chess::default();
        let p = random_game(&start, &mut Rng::new(a), plies);
        let q = random_game(&start, &mut Rng::new(b), plies / 2 + 1);
        let state = state_of(&[p.clone(), q.clone()]);
        let r = compare_stepwise(move_pass(), &state);
        prop_assert!(r.is_ok(), "{} / {}: {}", fen_of(&p), fen_of(&q), r.unwrap_err());
    }
}

#[test]
fn hand_made_special_cases_agree() {
    for fen in [
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/3r1r2/R3K2R w KQ - 0 1",
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1",
        "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    ] {
        let pos = chess::codec::parse_fen(fen).unwrap();
        compare_stepwise(move_pass(), &state_of(&[pos])).unwrap_or_else(|e| panic!("{fen}: {e}"));
    }
}

/// A capture ply's move pass (`search`'s capture plies): the good
/// captures only (`good_captures`), each with its change of the other
/// side's evaluation (`eval::MoveDelta`).
fn capture_pass() -> &'static Stepwise {
    static CELL: OnceLock<Stepwise> = OnceLock::new();
    CELL.get_or_init(|| {
        Stepwise::new(optimize(
            &trace(|m| {
                use chess::codec::{POSITION_VARS, TURN_VAR};
                use chess::movegen::legal_captures_for;
                use shakmaty::Color;
                m.assume_set(&POSITION_VARS);
                m.if_else(
                    m.get(TURN_VAR).eq("w"),
                    |m| {
                        legal_captures_for(m, Color::White, Options::quiet_with_delta(Color::Black))
                    },
                    |m| {
                        legal_captures_for(m, Color::Black, Options::quiet_with_delta(Color::White))
                    },
                );
            })
            .unwrap(),
        ))
    })
}

proptest! {
    #![proptest_config(proptest_config(100))]

    /// The capture pass on random positions, two at a time.
    #[test]
    fn capture_pass_interp_and_vm_agree(a in any::<u64>(), b in any::<u64>(), plies in 10usize..100) {
        let start = Chess::default();
        let p = random_game(&start, &mut Rng::new(a), plies);
        let q = random_game(&start, &mut Rng::new(b), plies / 2 + 1);
        let r = compare_stepwise(capture_pass(), &state_of(&[p.clone(), q.clone()]));
        prop_assert!(r.is_ok(), "{} / {}: {}", fen_of(&p), fen_of(&q), r.unwrap_err());
    }
}

/// The capture pass where it keeps and drops: a queen taking a defended
/// pawn (dropped) and a hanging one (kept), a rook taking a defended
/// knight (dropped) and a queen (kept), a pawn taking a defended piece, en
/// passant, a capturing promotion, a king taking an undefended piece.
#[test]
fn capture_pass_keeps_the_good_captures_and_agrees() {
    use std::collections::BTreeSet;
    for (fen_in, kept) in [
        ("4k3/7p/2p5/1p6/8/8/8/1Q2K3 w - - 0 1", &["b1h7"][..]),
        ("4k3/3p4/4n3/8/8/4R3/8/4K3 w - - 0 1", &[][..]),
        ("4k3/3p4/4q3/8/8/4R3/8/4K3 w - - 0 1", &["e3e6"][..]),
        ("4k3/8/8/3pPp2/8/8/8/4K3 w - d6 0 1", &["e5d6"][..]),
        (
            "r3k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            &["b7a8q", "b7a8r", "b7a8b", "b7a8n"][..],
        ),
        ("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", &["e1d2"][..]),
        ("4k3/2p5/3n4/4P3/8/8/8/4K3 w - - 0 1", &["e5d6"][..]),
    ] {
        let pos = chess::codec::parse_fen(fen_in).unwrap();
        let state = state_of(std::slice::from_ref(&pos));
        compare_stepwise(capture_pass(), &state).unwrap_or_else(|e| panic!("{fen_in}: {e}"));
        let mut text = state.render();
        regex_vm::Executor::new(&lower(&capture_pass().ir).unwrap(), Config::default())
            .unwrap()
            .run(&mut text)
            .unwrap();
        let got: BTreeSet<String> = State::parse(&text)
            .unwrap()
            .threads
            .iter()
            .map(|t| t.var("m").unwrap().to_string())
            .collect();
        let want: BTreeSet<String> = kept.iter().map(|s| s.to_string()).collect();
        assert_eq!(got, want, "{fen_in}");
    }
}

/// The search's instructions (eval, keep-best, absorb, stack tests) agree
/// with the reference on real searches.
#[test]
fn reply_program_interp_and_vm_agree() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
        // Replies that take en passant, castle, promote, take a castling
        // rook while promoting.
        "4k3/8/8/8/1p6/8/P7/4K3 w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
        "1r2k3/P7/8/8/8/8/6p1/4K2R w K - 0 1",
    ] {
        let pos = chess::codec::parse_fen(fen).unwrap();
        compare_stepwise(reply_pass(), &state_of(&[pos]))
            .unwrap_or_else(|e| panic!("{fen}: {}", &e[..e.len().min(3000)]));
    }
}

proptest! {
    #![proptest_config(proptest_config(20))]

    /// The whole reply program, instruction by instruction, on random
    /// positions.
    #[test]
    fn reply_specials_interp_and_vm_agree(seed in any::<u64>(), plies in 0usize..80) {
        let p = random_game(&Chess::default(), &mut Rng::new(seed), plies);
        let r = compare_stepwise(reply_pass(), &state_of(std::slice::from_ref(&p)));
        prop_assert!(r.is_ok(), "{}: {}", fen_of(&p), r.unwrap_err());
    }
}

fn turn_pass() -> &'static Stepwise {
    static CELL: OnceLock<Stepwise> = OnceLock::new();
    CELL.get_or_init(|| {
        Stepwise::new(optimize(
            &trace(|m| chess::turn::turn_dsl(m, chess::Depth::FAST)).unwrap(),
        ))
    })
}

/// The screen instructions (sanitize, parse, render) and the turn's helper
/// specials agree with their reference meanings, on every kind of line.
#[test]
fn turn_program_interp_and_vm_agree() {
    let screen = |fen: &str, engine| chess::screen::start_screen(fen, engine).unwrap();
    let start = START_FEN;
    let cases: Vec<(String, &str)> = vec![
        (String::new(), ""),
        (screen(start, Some(shakmaty::Color::Black)), "e2e4\n"),
        (screen(start, Some(shakmaty::Color::Black)), "hello\n"),
        (screen(start, Some(shakmaty::Color::Black)), "e9e4\n"),
        (screen(start, Some(shakmaty::Color::Black)), "e2e5\n"),
        (screen(start, Some(shakmaty::Color::Black)), "x y z 1 2\n"),
        (screen(start, Some(shakmaty::Color::Black)), "a\nb\n"),
        (screen(start, Some(shakmaty::Color::White)), ""),
        (screen(start, None), "e2e4\n"),
        (
            screen(
                "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
                Some(shakmaty::Color::Black),
            ),
            "a1a8\n",
        ),
        (
            screen(
                "1r4k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1",
                Some(shakmaty::Color::Black),
            ),
            "a2a3\n",
        ),
        (
            screen(
                "8/P6k/8/8/8/8/6K1/8 w - - 0 1",
                Some(shakmaty::Color::Black),
            ),
            "a7a8n\n",
        ),
        // The endings: insufficient material, the fifty-move rule, mate on
        // the 100th halfmove, a position over at once, an en passant key.
        (screen("7k/8/8/8/8/8/3r4/4K3 w - - 0 1", None), "e1d2\n"),
        (screen("8/8/8/4k3/8/8/8/4K2R w K - 99 80", None), "h1h2\n"),
        (
            screen(
                "7k/8/6K1/8/8/8/8/R7 w - - 99 80",
                Some(shakmaty::Color::Black),
            ),
            "a1a8\n",
        ),
        (screen("8/8/8/4k3/8/8/8/4K3 w - - 0 1", None), ""),
        (screen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", None), "e2e4\n"),
        // A hint line before the screen (`search::hint`): a move, and one
        // that is not legal there.
        (
            format!(
                "Probe:e7e5\n{}",
                screen(start, Some(shakmaty::Color::Black))
            ),
            "e2e4\n",
        ),
        (
            format!(
                "Probe:a1h8q\n{}",
                screen(start, Some(shakmaty::Color::White))
            ),
            "",
        ),
    ];
    // The third occurrence of a position, two people moving knights.
    let mut repeated = screen(start, None);
    for mv in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"] {
        chess::play_turn(&mut repeated, Some(mv), chess::Depth::FAST).unwrap();
    }
    let mut cases = cases;
    cases.push((repeated, "f6g8\n"));
    for (screen, line) in cases {
        let start = State::parse(&format!("{screen}{line}")).unwrap();
        compare_stepwise(turn_pass(), &start)
            .unwrap_or_else(|e| panic!("{line:?}: {}", &e[..e.len().min(3000)]));
    }
}

/// Sanitize on raw lines the structured state cannot hold (`%`, `#`,
/// backticks, non-ASCII, several lines): the rewrites leave exactly the
/// marker its native twin computes.
#[test]
fn sanitize_matches_its_native_twin_on_raw_lines() {
    use chess::screen::{classify_input, Sanitize, PROMPT};
    use regex_asm::ir::Special;
    let program = regex_vm::Program::new(Sanitize.rewrites());
    let exec = Executor::new(&program, Config::default()).unwrap();
    let screen = chess::screen::start_screen(START_FEN, Some(shakmaty::Color::Black)).unwrap();
    let long = "e".repeat(10_000);
    for line in [
        "",
        "\n",
        "e2e4\n",
        " e7e8q  \n",
        "%\n",
        "#\n",
        "`\n",
        "%%\n#stack:\n",
        "é2e4\n",
        "\u{1F600}\n",
        "e2e4\r\n",
        "a\nb\n",
        "e2e4",
        "hello",
        "e9e4\n",
        "help\n",
        "quit\n",
        &long,
        "e1e2e3\n",
        "\t\n",
    ] {
        let mut text = format!("{screen}{line}");
        exec.run(&mut text).unwrap();
        let (class, mv) = classify_input(line);
        let marker = if mv.is_empty() {
            format!(">{class}\n")
        } else {
            format!(">{class} {mv}\n")
        };
        let head = &screen[..screen.len() - PROMPT.len()];
        assert_eq!(text, format!("{head}{marker}"), "line {line:?}");
    }
}

/// The successors program of each promotion rule.
fn successors_pass(promotions: chess::successors::Promotions) -> &'static Stepwise {
    use chess::successors::{successors_dsl, Promotions};
    static CELLS: [OnceLock<Stepwise>; 2] = [OnceLock::new(), OnceLock::new()];
    let k = usize::from(promotions == Promotions::Queen);
    CELLS[k]
        .get_or_init(|| Stepwise::new(optimize(&trace(|m| successors_dsl(m, promotions)).unwrap())))
}

/// The successors program's input: a FEN line as python-chess writes it
/// (the en passant square only where a capture is legal).
fn fen_line(pos: &Chess, newline: bool) -> State {
    let fen = shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string();
    State {
        prefix: if newline { format!("{fen}\n") } else { fen },
        threads: vec![],
    }
}

proptest! {
    #![proptest_config(proptest_config(60))]

    /// The successors program (FEN text in, FEN lines out), instruction by
    /// instruction, on random positions, both promotion rules.
    #[test]
    fn successors_specials_interp_and_vm_agree(seed in any::<u64>(), plies in 0usize..120, newline in any::<bool>()) {
        use chess::successors::Promotions;
        let p = random_game(&Chess::default(), &mut Rng::new(seed), plies);
        for promotions in [Promotions::All, Promotions::Queen] {
            let r = compare_stepwise(successors_pass(promotions), &fen_line(&p, newline));
            prop_assert!(r.is_ok(), "{}: {}", fen_of(&p), r.unwrap_err());
        }
    }
}

/// The successors program on the moves and texts that random games seldom
/// reach: promotions taking castling rooks, en passant pinned and not,
/// clocks with long runs of nines, and text that is not a FEN line.
#[test]
fn successors_program_interp_and_vm_agree_on_special_cases() {
    use chess::successors::Promotions;
    let mut texts: Vec<String> = [
        "r3k2r/1P6/8/8/8/8/1p6/R3K2R b KQkq - 99 12345",
        "r3k2r/1P6/8/8/8/8/1p6/R3K2R w KQkq - 9999999999999 1999",
        "8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1",
        "4k3/3p4/8/4P3/8/8/8/K6b w - - 0 1",
        "4k3/8/8/8/1p1p4/8/2P5/4K3 w - - 0 1",
        "4k3/8/8/2Pp4/8/8/8/4K3 w - d6 0 1",
        "8/8/3k4/8/3pP3/8/8/3RK3 b - e3 0 1",
        "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
        "",
        "hello",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n#x",
    ]
    .map(String::from)
    .to_vec();
    texts.push(format!(
        "4k3/8/8/8/8/8/8/4K2R b K - {} 8{}",
        "9".repeat(2100),
        "9".repeat(1030)
    ));
    for text in texts {
        for promotions in [Promotions::All, Promotions::Queen] {
            let start = State {
                prefix: text.clone(),
                threads: vec![],
            };
            compare_stepwise(successors_pass(promotions), &start).unwrap_or_else(|e| {
                panic!(
                    "{}: {}",
                    &text[..text.len().min(90)],
                    &e[..e.len().min(3000)]
                )
            });
        }
    }
}
