//! `fours`: four in a row on an 8x8 board, the engine searching two
//! plies, written on [`Machine`] in the manner of the original Python
//! project's chess program, to have that program's measured profile
//! (issue 67) without its code.
//!
//! One pass per move, as there: the person's line (`d5`) is read into the
//! thread, checked (a square, and empty), played; if it makes four in a
//! row the person wins. Otherwise the engine lists the squares within two
//! steps of a stone (a `;`-list sorted and stripped of repeats by
//! back-reference rewrites over every list of the state), rates each
//! empty one (the stones of either side that run up to three squares from
//! it along the eight directions, one nested branch per square looked
//! at), keeps the best [`BEAM`], forks one thread per move, plays it,
//! scores the position (an offset plus the engine's windows of four less
//! the person's) and rates the person's replies the same way in each,
//! then forks again (the leaves: up to `BEAM` x `BEAM` threads of about a
//! kilobyte). Each leaf plays its reply and takes off the score what the
//! reply does in the windows through its square: that code runs once per
//! square, on the few leaves whose reply it is, the others paused. A
//! reply that makes four is a loss; two squares that each complete the
//! person's four nearly one. The leaves fall to one per engine move (the
//! lowest score, neighbouring threads compared by back-reference), then
//! to one (the highest); its move is played and the screen drawn before
//! the thread. So most of the list runs on one thread or on the `BEAM`
//! threads of the first ply, and the time on the leaves. It writes the
//! program and its input; it plays no game itself.

use super::stack_machine::Machine;

/// The board's side.
const SIDE: usize = 8;
/// Moves kept at each ply.
const BEAM: usize = 24;
/// The score every leaf starts from (a tally of ones).
const OFFSET: usize = 60;
/// A score above any leaf's: the engine wins at once.
const WIN: usize = 200;
/// Four in a row.
const ROW: usize = 4;

/// The input: the moves of the person, one per pass after the first.
pub(crate) const INPUT: &str = "d5\n";

/// The thread the first pass starts (every variable the program uses).
fn boot() -> String {
    let board = ".".repeat(SIDE * SIDE);
    let vars = [
        ("board", board.as_str()),
        ("board1", board.as_str()),
        ("board0", board.as_str()),
        ("input", ""),
        ("cell", ""),
        ("ok", ""),
        ("h", ""),
        ("near", ""),
        ("ranked", ""),
        ("cands", ""),
        ("move", ""),
        ("won", ""),
        ("msg", "Your move: a column and a row, like d5."),
        ("log", ""),
        ("parent", ""),
        ("threats", ""),
        ("score", ""),
        // Last: the person's line arrives after it.
        ("screen", ""),
    ];
    let mut thread = String::from(r"%%\n#stack:\n");
    for (name, value) in vars {
        thread.push_str(&format!(r"#{name}: {value}\n"));
    }
    thread
}

/// A square's name: `a8` is square 0, `h1` square 63.
fn coord(i: usize) -> String {
    let file = (b'a' + (i % SIDE) as u8) as char;
    format!("{file}{}", SIDE - i / SIDE)
}

/// The square `k` steps from `i` in direction `(dr, dc)`, if on the board.
fn step(i: usize, (dr, dc): (isize, isize), k: isize) -> Option<usize> {
    let r = (i / SIDE) as isize + dr * k;
    let c = (i % SIDE) as isize + dc * k;
    let side = SIDE as isize;
    ((0..side).contains(&r) && (0..side).contains(&c)).then(|| (r * side + c) as usize)
}

/// The eight directions.
const DIRECTIONS: [(isize, isize); 8] = [
    (0, 1),
    (0, -1),
    (1, 0),
    (-1, 0),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// Every window of four squares in a row, column or diagonal.
fn windows() -> Vec<[usize; ROW]> {
    let mut out = Vec::new();
    for i in 0..SIDE * SIDE {
        for dir in [(0, 1), (1, 0), (1, 1), (1, -1)] {
            let cells: Option<Vec<usize>> = (0..ROW as isize).map(|k| step(i, dir, k)).collect();
            if let Some(cells) = cells {
                out.push([cells[0], cells[1], cells[2], cells[3]]);
            }
        }
    }
    out
}

/// Pushes the window's four squares as one item (`.xo.`).
fn push_window(m: &mut Machine, w: &[usize; ROW]) {
    for (k, &cell) in w.iter().enumerate() {
        m.push_char("board", cell);
        if k > 0 {
            m.concat();
        }
    }
}

/// Sets `won` to `side` where `side` has four in a row.
fn wins(m: &mut Machine, side: char) {
    let four: String = std::iter::repeat_n(side, ROW).collect();
    for w in windows() {
        push_window(m, &w);
        m.is(&four);
        m.when(|m| m.set("won", &side.to_string()));
    }
}

/// Plays `side` on the square named by variable `at` (a square number).
fn play_at(m: &mut Machine, at: &str, side: char) {
    for i in 0..SIDE * SIDE {
        m.test_var(at, &i.to_string());
        m.when(|m| m.set_char("board", i, side));
    }
}

/// Adds to `h` the stones of `side` in a run from square `i` along `dir`
/// (at most three).
fn ray(m: &mut Machine, i: usize, dir: (isize, isize), side: char, k: isize) {
    let Some(cell) = step(i, dir, k).filter(|_| k <= 3) else {
        return;
    };
    m.test_char("board", cell, &side.to_string());
    m.when(|m| {
        m.add("h", 1);
        ray(m, i, dir, side, k + 1);
    });
}

/// The squares within two steps of square `i`.
fn around(i: usize) -> Vec<usize> {
    let (r, c) = ((i / SIDE) as isize, (i % SIDE) as isize);
    let side = SIDE as isize;
    let mut out = Vec::new();
    for dr in -2..=2 {
        for dc in -2..=2 {
            let (rr, cc) = (r + dr, c + dc);
            if (dr, dc) != (0, 0) && (0..side).contains(&rr) && (0..side).contains(&cc) {
                out.push((rr * side + cc) as usize);
            }
        }
    }
    out
}

/// Stones of the longest list `near` sorts fully.
const NEAR_STONES: usize = 2;

/// `near` := the squares within two steps of a stone, two digits and `;`
/// each, in order and once: every stone adds its squares, the list is
/// sorted by neighbours swapping (the comparison an alternation over the
/// digits, keyed by a back-reference to the common first digit) and
/// repeats are dropped, all lists of the state at once.
fn near(m: &mut Machine) {
    m.set("near", "");
    for i in 0..SIDE * SIDE {
        m.test_char("board", i, "xo");
        m.when(|m| {
            for j in around(i) {
                m.append("near", &format!("{j:02};"));
            }
        });
    }
    let second: Vec<String> = (1..10).map(|d| format!(r"{d};\1[0-{}]", d - 1)).collect();
    let first: Vec<String> = (1..10).map(|d| format!(r"{d}\d;[0-{}]", d - 1)).collect();
    let after = format!(r"(?=(?:(\d)(?:{})|{}))", second.join("|"), first.join("|"));
    for _ in 0..24 * NEAR_STONES {
        m.rule(
            format!(r"(?<=[ ;]){after}(\d\d);(\d\d)(?=;)"),
            r"\g<3>;\g<2>",
        );
    }
    m.rule(r"(: |;)([^;\n]*;)\2+", r"\g<1>\g<2>");
}

/// Appends `;i=tally` to `ranked`: the stones of either side that run
/// from square `i` along each direction.
fn rate(m: &mut Machine, i: usize) {
    m.set("h", "");
    for side in ['o', 'x'] {
        for dir in DIRECTIONS {
            ray(m, i, dir, side, 1);
        }
    }
    m.rule(
        r"(%%[^%]*#h: (1*)\n[^%]*#ranked: [^\n]*)",
        format!(r"\g<1>;{i}=\g<2>"),
    );
}

/// `ranked` := `;square=tally` for every empty square near a stone, the
/// best first; `cands` := the first [`BEAM`] squares, each followed by
/// `;`.
fn rank(m: &mut Machine) {
    near(m);
    m.set("ranked", "");
    for i in 0..SIDE * SIDE {
        m.push("F");
        m.rule(
            format!(r"(%%\n#stack:\n)F\n([^%]*#near: [^\n]*[ ;]{i:02};)"),
            r"\g<1>T\n\g<2>",
        );
        m.when(|m| {
            m.test_char("board", i, r"\.");
            m.when(|m| rate(m, i));
        });
    }
    // Bubble the longer tallies forward: each rewrite swaps every pair
    // out of order, left to right.
    for _ in 0..SIDE * SIDE {
        m.rule(
            r";(\d+)=(1*);(\d+)=\2(1+)(?=;|\n)",
            r";\g<3>=\g<2>\g<4>;\g<1>=\g<2>",
        );
    }
    m.rule(
        format!(r"(%%[^%]*#ranked: ((?:;[^;\n]*){{0,{BEAM}}})[^\n]*\n[^%]*#cands: )[^\n]*"),
        r"\g<1>\g<2>",
    );
    m.rule(r"=1*(?=[^\n]*\n#move: )", "");
    m.rule(r"(%%[^%]*#cands: );([^\n]+)", r"\g<1>\g<2>;");
}

/// What a window holding only `stones` stones of one side is worth to
/// that side: the engine's gain, the person's loss.
const GAIN: [usize; 4] = [0, 1, 3, 9];
const LOSS: [usize; 4] = [0, 1, 4, 12];

/// `score` := [`OFFSET`] plus the engine's windows less the person's
/// (a window with stones of one side only counts for that side).
fn evaluate(m: &mut Machine) {
    m.set("score", &"1".repeat(OFFSET));
    m.set("threats", "");
    for w in windows() {
        push_window(m, &w);
        for (k, &gap) in w.iter().enumerate() {
            let shape: String = (0..ROW).map(|j| if j == k { r"\." } else { "o" }).collect();
            m.rule(
                format!(r"(%%\n#stack:\n{shape}\n[^%]*#threats: [^\n]*)"),
                format!(r"\g<1>{gap};"),
            );
        }
        dedupe(m, "threats");
        for stones in 1..ROW {
            m.rule(
                format!(r"(%%\n#stack:\n)(?:\.*o){{{stones}}}\.*\n([^%]*#score: )"),
                format!(r"\g<1>\g<2>{}", "1".repeat(GAIN[stones])),
            );
            m.rule(
                format!(
                    r"(%%\n#stack:\n)(?:\.*x){{{stones}}}\.*\n([^%]*#score: )1{{0,{}}}",
                    LOSS[stones]
                ),
                r"\g<1>\g<2>",
            );
        }
        m.rule(r"(%%\n#stack:\n)[.xo]{4}\n", r"\g<1>");
    }
    // Two squares that each make four: the person cannot stop both.
    m.rule(
        r"(%%[^%]*#threats: [^;\n]*;[^;\n]+;[^\n]*\n#score: )",
        format!(r"\g<1>{}", "1".repeat(WIN / 2)),
    );
}

/// The person's reply, played where `move` says and scored from the
/// score of the engine's move: only the windows through the reply's
/// square change, so only they are read, on the threads whose reply it
/// is. A window the reply fills with four sets `won`; one it leaves with
/// three and a gap adds the gap to `threats`; the reply's value in each
/// window (the person's stones there, or the engine's stones it blocks)
/// comes off the score.
fn reply_at_each_square(m: &mut Machine) {
    let all = windows();
    for cell in 0..SIDE * SIDE {
        m.push_var("move");
        m.push(&cell.to_string());
        m.equal();
        m.when(|m| {
            m.set_char("board", cell, 'x');
            for w in all.iter().filter(|w| w.contains(&cell)) {
                push_window(m, w);
                m.rule(
                    r"(%%\n#stack:\nxxxx\n[^%]*#won: )[^\n]*",
                    r"\g<1>x",
                );
                for (k, &gap) in w.iter().enumerate() {
                    let shape: String =
                        (0..ROW).map(|j| if j == k { r"\." } else { "x" }).collect();
                    m.rule(
                        format!(r"(%%\n#stack:\n{shape}\n[^%]*#threats: [^\n]*)"),
                        format!(r"\g<1>{gap};"),
                    );
                }
                dedupe(m, "threats");
                for stones in 1..ROW {
                    m.rule(
                        format!(
                            r"(%%\n#stack:\n)(?:\.*x){{{stones}}}\.*\n([^%]*#score: )1{{0,{}}}",
                            LOSS[stones]
                        ),
                        r"\g<1>\g<2>",
                    );
                    m.rule(
                        format!(
                            r"(%%\n#stack:\n)(?=[.o]*x[.o]*\n)(?:[.x]*o){{{stones}}}[.x]*\n([^%]*#score: )1{{0,{}}}",
                            GAIN[stones]
                        ),
                        r"\g<1>\g<2>",
                    );
                }
                m.rule(r"(%%\n#stack:\n)[.xo]{4}\n", r"\g<1>");
            }
        });
    }
    m.rule(
        r"(%%[^%]*#threats: [^;\n]*;[^;\n]+;[^\n]*\n#score: )1*",
        r"\g<1>1",
    );
}

/// Drops repeats from the `;`-list `list`: a run of one item collapses.
fn dedupe(m: &mut Machine, list: &str) {
    m.rule(
        format!(r"(%%[^%]*#{list}: (?:[^;\n]*;)*?)([^;\n]*;)\2+"),
        r"\g<1>\g<2>",
    );
}

/// Leaves one thread per `parent`: the lowest score (the first of equals).
fn keep_lowest(m: &mut Machine) {
    for _ in 0..BEAM.next_power_of_two().trailing_zeros() {
        m.rule(
            r"%%([^%]*#parent: (\d+)\n[^%]*#score: (1*)\n[^%]*)%%[^%]*#parent: \2\n[^%]*#score: \3(1*)\n[^%]*",
            r"%%\g<1>",
        );
        m.rule(
            r"%%[^%]*#parent: (\d+)\n[^%]*#score: (1*)1+\n[^%]*(%%[^%]*#parent: \1\n[^%]*#score: \2\n[^%]*)",
            r"\g<3>",
        );
    }
}

/// Leaves one thread: the highest score (the first of equals).
fn keep_highest(m: &mut Machine) {
    for _ in 0..BEAM.next_power_of_two().trailing_zeros() {
        m.rule(
            r"%%([^%]*#score: (1*)(1*)\n[^%]*)%%[^%]*#score: \2\n[^%]*",
            r"%%\g<1>",
        );
        m.rule(
            r"%%[^%]*#score: (1*)\n[^%]*(%%[^%]*#score: \1(1+)\n[^%]*)",
            r"\g<2>",
        );
    }
}

/// The engine's move: two plies, then one thread again.
fn search(m: &mut Machine) {
    m.fork("cands", "move", BEAM);
    play_at(m, "move", 'o');
    m.copy("board", "board1");
    m.copy("move", "parent");
    m.set("won", "");
    wins(m, 'o');
    evaluate(m);
    m.test_var("won", "o");
    m.when(|m| {
        m.set("score", &"1".repeat(WIN));
        m.sleep("won");
    });
    rank(m);
    m.test_var("cands", "");
    m.when(|m| m.sleep("full"));
    m.set("threats", "");
    m.fork("cands", "move", BEAM);
    reply_at_each_square(m);
    m.test_var("won", "x");
    m.when(|m| m.set("score", ""));
    m.wake("won");
    m.wake("full");
    keep_lowest(m);
    keep_highest(m);
    m.copy_back("board1", "board");
    for i in 0..SIDE * SIDE {
        m.test_var("parent", &i.to_string());
        m.when(|m| {
            m.set("msg", &format!("I play {}.", coord(i)));
            m.append("log", &format!("{};", coord(i)));
        });
    }
    m.test_var("won", "o");
    m.when(|m| m.append("msg", " I win."));
    for var in [
        "ranked", "cands", "move", "parent", "threats", "score", "won",
    ] {
        m.set(var, "");
    }
}

/// The person's move is a square: play it if empty, then reply.
fn turn(m: &mut Machine) {
    m.copy("board", "board0");
    m.set("ok", "");
    for i in 0..SIDE * SIDE {
        m.test_var("cell", &i.to_string());
        m.when(|m| {
            m.test_char("board", i, r"\.");
            m.when(|m| {
                m.set_char("board", i, 'x');
                m.set("ok", "T");
            });
        });
    }
    m.test_var("ok", "T");
    m.either(
        |m| {
            m.rule(
                r"(%%[^%]*#input: ([^\n]*)\n[^%]*#log: [^\n]*)",
                r"\g<1>\g<2>;",
            );
            m.set("won", "");
            wins(m, 'x');
            m.test_var("won", "x");
            m.either(
                |m| m.set("msg", "Four in a row: you win."),
                |m| {
                    rank(m);
                    m.test_var("cands", "");
                    m.either(|m| m.set("msg", "The board is full."), search);
                },
            );
        },
        |m| m.set("msg", "That square is taken."),
    );
}

/// Draws the board and the message into `screen`, then puts the screen
/// before the thread.
fn render(m: &mut Machine) {
    m.set("screen", "");
    for r in 0..SIDE {
        m.append("screen", &(SIDE - r).to_string());
        for c in 0..SIDE {
            m.push_char("board", r * SIDE + c);
            m.push_var("screen");
            m.rule(
                r"(%%\n#stack:\n)([^\n]*)\n([^\n]*)\n([^%]*#screen: )[^\n]*",
                r"\g<1>\g<4>\g<2> \g<3>",
            );
        }
        m.append("screen", "/");
    }
    let files: String = (0..SIDE)
        .map(|c| format!(" {}", (b'a' + c as u8) as char))
        .collect();
    m.append("screen", &format!(" {files}/"));
    m.rule(
        r"(%%[^%]*#msg: ([^\n]*)\n[^%]*#screen: [^\n]*)",
        r"\g<1>\g<2>/",
    );
    m.rule(r"(%%[^%]*#screen: )([^\n]*)", r"\g<2>\g<1>");
    m.rule(r"/(?=[^%]*%%)", r"\n");
}

/// The program.
pub(crate) fn program() -> Vec<(String, String)> {
    let mut m = Machine::new();
    m.rule("^$", boot());
    m.rule(r"\A[^%]+", "");
    m.rule(
        r"(%%[^%]*#input: )[^\n]*(\n[^%]*#screen: [^\n]*\n)([^\n%]*)\n\Z",
        r"\g<1>\g<3>\g<2>",
    );
    m.set("cell", "");
    for i in 0..SIDE * SIDE {
        m.push_var("input");
        m.push(&coord(i));
        m.equal();
        m.when(|m| m.set("cell", &i.to_string()));
    }
    m.test_var("cell", "");
    m.either(
        |m| {
            m.test_var("input", "");
            m.either(
                |_| {},
                |m| {
                    m.set(
                        "msg",
                        "That is not a square: say a column and a row, like d5.",
                    )
                },
            );
        },
        turn,
    );
    render(&mut m);
    m.set("input", "");
    m.finish()
}
