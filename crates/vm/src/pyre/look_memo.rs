//! Failed look-aheads remembered over one text: a positive look-ahead
//! whose body starts with an unbounded run of one test that has stop
//! bytes and reads and sets no group (`Inst::LookStart::memo`,
//! `(?=[^\n]*\n\Z)`), having failed at a place, fails at every later
//! place up to where that run stops, since each tries a subset of the
//! run's ends and what follows the run does not depend on where it
//! started. This module keeps those spans for the machine (`vm`); it
//! decides nothing about which look-aheads may be remembered (`compile`
//! does) and reads no text.

use super::prog::Pc;

/// The spans of the remembering look-aheads of the text being searched.
#[derive(Debug, Default)]
pub(crate) struct LookMemo {
    /// Of each remembering look-ahead last entered on this text and not
    /// known to have held: its `LookStart`, where it was entered and
    /// where the run its body starts with stops. If it held, [`held`]
    /// dropped the entry; else it failed, and fails anywhere in that
    /// span. Kept from place to place.
    ///
    /// [`held`]: LookMemo::held
    spans: Vec<(Pc, usize, usize)>,
    /// How many times a remembered failure spared entering a look-ahead.
    pub(crate) spared: usize,
}

impl LookMemo {
    /// Forgets what was learned of the last text (a new search's text).
    pub(crate) fn new_text(&mut self) {
        self.spans.clear();
    }

    /// Whether the remembering look-ahead at `pc` is worth entering at
    /// `pos`: not when it failed at a place whose run stops at or past
    /// `pos` (the same run, a subset of its ends). Otherwise it is
    /// remembered as entered here, its run stopping at `run_end()`, until
    /// [`LookMemo::held`] says it held.
    pub(crate) fn enter(&mut self, pc: Pc, pos: usize, run_end: impl FnOnce() -> usize) -> bool {
        let entry = self.spans.iter().position(|&(at, ..)| at == pc);
        if let Some(i) = entry {
            let (_, from, to) = self.spans[i];
            if from <= pos && pos <= to {
                self.spared += 1;
                return false;
            }
        }
        let span = (pc, pos, run_end());
        match entry {
            Some(i) => self.spans[i] = span,
            None => self.spans.push(span),
        }
        true
    }

    /// The look-ahead at `pc` held: nothing to remember of it.
    pub(crate) fn held(&mut self, pc: Pc) {
        self.spans.retain(|&(at, ..)| at != pc);
    }
}
