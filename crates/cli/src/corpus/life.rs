//! `life`: Conway's Game of Life on a bounded grid, as a person writes it
//! with Python's `re`.
//!
//! The state is the grid, `#` alive and `.` dead, one row a line. A
//! generation turns each cell into a letter that also counts its live
//! neighbours (`a`..`i` dead with 0..8, `A`..`I` alive), one direction at
//! a time: a look-behind or look-ahead of a fixed width finds the
//! neighbour (the cell above is a row and its newline back), and the
//! counts are raised from the highest down so that no cell is raised
//! twice by one direction. Then `C`, `D` (alive with two or three) and `d`
//! (dead with three) live and the rest die. Each pass runs
//! [`GENERATIONS`] generations; each input line (`tick`) asks for one
//! more pass. It writes the program; it runs nothing.

/// Columns.
const WIDTH: usize = 40;
/// Rows.
const HEIGHT: usize = 30;
/// Generations per pass.
const GENERATIONS: usize = 20;

/// The input: one pass per line after the first.
pub(crate) const INPUT: &str = "tick\ntick\ntick\ntick\n";

/// The first grid: a glider, a blinker, an R-pentomino, a lightweight
/// spaceship and a block, at (row, column).
fn grid() -> String {
    let shapes: [(&[&str], usize, usize); 5] = [
        (&[".#.", "..#", "###"], 1, 1),
        (&["###"], 3, 30),
        (&[".##", "##.", ".#."], 14, 18),
        (&[".#..#", "#....", "#...#", "####."], 22, 4),
        (&["##", "##"], 24, 34),
    ];
    let mut rows = vec![vec!['.'; WIDTH]; HEIGHT];
    for (shape, top, left) in shapes {
        for (r, line) in shape.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                rows[top + r][left + c] = ch;
            }
        }
    }
    rows.into_iter()
        .map(|r| format!("{}\\n", r.into_iter().collect::<String>()))
        .collect()
}

/// The neighbour test of one direction, around a cell pattern `cell`:
/// `(rows, cols)` is where the neighbour is.
fn neighbour(cell: &str, (dr, dc): (isize, isize)) -> String {
    // A row is WIDTH cells and a newline.
    let offset = dr * (WIDTH as isize + 1) + dc;
    let live = "[A-I]";
    match offset {
        o if o < 0 => {
            let gap = (-o - 1) as usize;
            if gap == 0 {
                format!("(?<={live}){cell}")
            } else {
                format!(r"(?<={live}[\s\S]{{{gap}}}){cell}")
            }
        }
        o => {
            let gap = (o - 1) as usize;
            if gap == 0 {
                format!("{cell}(?={live})")
            } else {
                format!(r"{cell}(?=[\s\S]{{{gap}}}{live})")
            }
        }
    }
}

/// The program.
pub(crate) fn program() -> Vec<(String, String)> {
    let dead = "abcdefghi";
    let alive = "ABCDEFGHI";
    let mut out: Vec<(String, String)> = vec![
        ("^$".into(), grid()),
        ("(?m)^tick\\n".into(), String::new()),
    ];
    for _ in 0..GENERATIONS {
        out.push((r"\.".into(), "a".into()));
        out.push(("#".into(), "A".into()));
        for dir in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            for count in (0..8).rev() {
                for letters in [dead, alive] {
                    let from = &letters[count..=count];
                    let to = &letters[count + 1..=count + 1];
                    out.push((neighbour(from, dir), to.into()));
                }
            }
        }
        out.push(("[CDd]".into(), "#".into()));
        out.push(("[A-Ia-i]".into(), ".".into()));
    }
    out
}
