//! `regex-chess listing`: a program as the assembler sees it.
//!
//! It owns the assembly of a chosen program with its instruction list kept
//! (trace, optimize, lower: the same three stages `regex_asm::assemble`
//! runs, so the rewrites are the ones the game runs and `dump` writes) and
//! the plain-text listing: one `007: push "x"` line per instruction, with
//! `--rewrites` each rewrite it was lowered to under it, then a summary per
//! instruction kind. It runs nothing on the VM and decides nothing about
//! chess. Output goes through a buffered writer; a reader that closes the
//! pipe early (`| head`, a pager quit) ends the listing quietly.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::io::{self, Write};

use anyhow::{Context, Result};
use regex_asm::IrProgram;
use regex_vm::{Program, Rewrite};

/// Which program to show.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Which {
    /// The turn program `play` runs (what `dump` writes).
    #[default]
    Turn,
    /// The reply program (`reply`), at `--depth`.
    Reply,
    /// The legal-move program (`moves`, `perft`).
    Moves,
    /// The successors list (`successors`, `dump --program successors`),
    /// all promotions.
    Successors,
}

/// Arguments of `listing`.
#[derive(clap::Args, Debug)]
pub(crate) struct ListingArgs {
    /// The program to list.
    #[arg(long, value_enum, default_value_t = Which::Turn)]
    pub program: Which,
    /// Show under each instruction the rewrites it was lowered to.
    #[arg(long)]
    pub rewrites: bool,
    /// Search depth of the turn and reply programs (plies; 4 is two
    /// full-width plies and two capture plies).
    #[arg(long, default_value_t = chess::Depth::FAST)]
    pub depth: chess::Depth,
}

/// A program with the instruction list it was lowered from: rewrite `i`
/// comes from `ir.instrs[program.rewrites()[i].origin.instr]`.
pub(crate) struct Assembled {
    /// The optimized instructions.
    pub ir: IrProgram,
    /// Their rewrites, in order.
    pub program: Program,
}

/// Traces, optimizes and lowers the chosen program.
///
/// # Errors
///
/// When the program breaks an assembler rule (a bug in the chess program).
pub(crate) fn assemble(which: Which, depth: chess::Depth) -> Result<Assembled> {
    let traced = match which {
        Which::Turn => regex_asm::trace(|m| chess::turn::turn_dsl(m, depth)),
        Which::Reply => regex_asm::trace(|m| chess::search::reply_dsl(m, depth)),
        Which::Moves => regex_asm::trace(|m| {
            chess::movegen::legal_moves_dsl(m, chess::movegen::Options::default())
        }),
        Which::Successors => regex_asm::trace(|m| {
            chess::successors::successors_dsl(m, chess::successors::Promotions::All)
        }),
    }
    .context("tracing the program")?;
    let ir = regex_asm::optimize(&traced);
    let program = regex_asm::lower(&ir).context("lowering the program")?;
    Ok(Assembled { ir, program })
}

/// The index of the instruction each rewrite came from.
///
/// # Errors
///
/// When a rewrite carries no origin (the lowering always sets one).
pub(crate) fn origins(program: &Program) -> Result<Vec<usize>> {
    program
        .rewrites()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            r.origin
                .as_ref()
                .map(|o| o.instr)
                .with_context(|| format!("rewrite {i} has no instruction"))
        })
        .collect()
}

/// One line of the listing per rewrite, as `Program`'s own listing writes
/// it: index, pattern and replacement (Rust syntax), both quoted.
pub(crate) fn rewrite_line(index: usize, r: &Rewrite) -> String {
    format!(
        "    [{index:05}] {:?} -> {:?}",
        r.pattern,
        r.replacement.to_rust()
    )
}

/// Per instruction kind: instructions, rewrites, distinct patterns.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct KindSummary {
    /// Instructions of this kind.
    pub count: usize,
    /// Rewrites they were lowered to.
    pub rewrites: usize,
    /// Distinct patterns among those rewrites.
    pub patterns: usize,
}

/// The summary per instruction kind (the instruction's short name).
pub(crate) fn summary(a: &Assembled) -> Result<BTreeMap<String, KindSummary>> {
    let mut out: BTreeMap<String, KindSummary> = BTreeMap::new();
    let mut patterns: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for instr in &a.ir.instrs {
        out.entry(instr.name()).or_default().count += 1;
    }
    for (r, i) in a.program.rewrites().iter().zip(origins(&a.program)?) {
        let name =
            a.ir.instrs
                .get(i)
                .with_context(|| format!("rewrite from instruction {i}, past the end"))?
                .name();
        patterns.entry(name.clone()).or_default().insert(&r.pattern);
        out.entry(name).or_default().rewrites += 1;
    }
    for (name, set) in patterns {
        out.entry(name).or_default().patterns = set.len();
    }
    Ok(out)
}

/// Writes the listing.
fn write_listing(out: &mut impl Write, which: Which, a: &Assembled, rewrites: bool) -> Result<()> {
    let origins = origins(&a.program)?;
    writeln!(
        out,
        "# {which:?} program: {} instructions, {} rewrites, {} distinct patterns",
        a.ir.instrs.len(),
        a.program.len(),
        a.program.distinct_patterns()
    )?;
    let mut next = 0;
    for (i, instr) in a.ir.instrs.iter().enumerate() {
        let first = next;
        while next < origins.len() && origins[next] == i {
            next += 1;
        }
        writeln!(out, "{i:03}: {instr}  ({} rewrites)", next - first)?;
        if rewrites {
            for (k, r) in a.program.rewrites()[first..next].iter().enumerate() {
                writeln!(out, "{}", rewrite_line(first + k, r))?;
            }
        }
    }
    anyhow::ensure!(
        next == origins.len(),
        "rewrite {next} is out of instruction order"
    );
    writeln!(out)?;
    writeln!(
        out,
        "# per kind: {:<24} {:>7} {:>9} {:>9}",
        "instruction", "count", "rewrites", "patterns"
    )?;
    for (name, k) in summary(a)? {
        writeln!(
            out,
            "# per kind: {name:<24} {:>7} {:>9} {:>9}",
            k.count, k.rewrites, k.patterns
        )?;
    }
    writeln!(
        out,
        "# per kind: {:<24} {:>7} {:>9} {:>9}",
        "total",
        a.ir.instrs.len(),
        a.program.len(),
        a.program.distinct_patterns()
    )?;
    out.flush()?;
    Ok(())
}

/// Runs `listing`.
pub(crate) fn run(args: ListingArgs) -> Result<()> {
    let a = assemble(args.program, args.depth)?;
    let mut out = io::BufWriter::new(crate::textio::stdout());
    write_listing(&mut out, args.program, &a, args.rewrites)?;
    // A closed pipe found here is `textio::Closed`, a quiet end in `main`.
    out.flush().context("writing standard output")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_rewrites_are_the_programs_the_game_runs() {
        let a = assemble(Which::Turn, chess::Depth::FAST).expect("assembles");
        let game = &chess::turn_pass(chess::Depth::FAST)
            .expect("builds")
            .program;
        assert_eq!(&a.program, game);
        let moves = assemble(Which::Moves, chess::Depth::FAST).expect("assembles");
        assert_eq!(&moves.program, &chess::move_pass().expect("builds").program);
        let reply = assemble(Which::Reply, chess::Depth::FAST).expect("assembles");
        assert_eq!(
            &reply.program,
            &chess::reply_pass(chess::Depth::FAST)
                .expect("builds")
                .program
        );
        let successors = assemble(Which::Successors, chess::Depth::FAST).expect("assembles");
        let dumped = chess::successors::pass(chess::successors::Promotions::All).expect("builds");
        assert_eq!(&successors.program, &dumped.program);
    }

    #[test]
    fn summary_counts_add_up_to_the_program() {
        for which in [Which::Turn, Which::Reply, Which::Moves, Which::Successors] {
            let a = assemble(which, chess::Depth::FAST).expect("assembles");
            let s = summary(&a).expect("summary");
            let count: usize = s.values().map(|k| k.count).sum();
            let rewrites: usize = s.values().map(|k| k.rewrites).sum();
            assert_eq!(count, a.ir.instrs.len(), "{which:?}");
            assert_eq!(rewrites, a.program.len(), "{which:?}");
            for (name, k) in &s {
                assert!(k.patterns <= k.rewrites, "{which:?} {name}");
                assert_eq!(k.patterns == 0, k.rewrites == 0, "{which:?} {name}");
            }
        }
    }
}
