//! The search: a compiled program run anchored at the start of a byte
//! slice, the leftmost-first match and its captures written to a
//! [`Scratch`]. Runs are measured with `memchr` and ended only where their
//! hint can hold; programs with nothing to come back to run in one pass.
//!
//! It owns the step budget ([`GaveUp`]) and the backtracking stack; it
//! must not compile, and never reads the pattern.

use super::inst::{starts_with, Hint, Inst, NO_SLOT};
use super::{GaveUp, Matcher};

/// Bytes of a run looked at one by one before `memchr` is asked.
const SHORT_RUN: usize = 16;

/// Where the piece around a place ends, once a search has looked: the
/// first `%` at or after `from` is at `at` (the text's end when none).
#[derive(Debug, Clone, Copy)]
struct PieceEnd {
    from: usize,
    at: usize,
}

impl PieceEnd {
    /// Nothing known yet.
    const UNKNOWN: PieceEnd = PieceEnd {
        from: usize::MAX,
        at: 0,
    };
}

/// Where to resume after a failure.
#[derive(Debug, Clone, Copy)]
enum Frame {
    /// Another branch.
    Resume { pc: usize, pos: usize },
    /// Undo a capture.
    Restore { slot: usize, value: usize },
    /// The greedy run at `pc`: shorter ends than `cur`, down to `lo`,
    /// remain.
    Greedy { pc: usize, lo: usize, cur: usize },
    /// The lazy run at `pc`: longer ends than `cur`, up to `hi`, remain.
    Lazy { pc: usize, hi: usize, cur: usize },
}

/// Reusable memory for searches with one matcher.
#[derive(Debug, Default)]
pub struct Scratch {
    stack: Vec<Frame>,
    /// Capture slots: start and end of each group, `usize::MAX` when unset.
    pub(crate) slots: Vec<usize>,
}

impl Scratch {
    /// The capture slots of the last match [`Matcher::find_anchored`]
    /// reported: group `n` spans `slots()[2n]..slots()[2n+1]`,
    /// `usize::MAX` when the group did not take part.
    pub fn slots(&self) -> &[usize] {
        &self.slots
    }
}

impl Matcher {
    /// The end of the longest run of set `set` in `hay[pos..]`, at most
    /// `max` long.
    fn run_end(
        &self,
        set: usize,
        hay: &[u8],
        pos: usize,
        max: usize,
        piece: &mut PieceEnd,
    ) -> usize {
        let limit = hay.len().min(pos.saturating_add(max));
        if self.piece_sets[set] {
            // `[^%]`: the run ends where the piece does. Patterns often
            // have two such runs; the first search answers the second.
            if !(piece.from <= pos && pos <= piece.at) {
                let at = memchr::memchr(b'%', &hay[pos..]).map_or(hay.len(), |i| pos + i);
                *piece = PieceEnd { from: pos, at };
            }
            return piece.at.min(limit);
        }
        let span = &hay[pos..limit];
        let members = &self.sets[set];
        // Most runs in the state are a few bytes long (a name, a digit
        // string): look at the first bytes in line before a library call.
        let near = span.len().min(SHORT_RUN);
        if let Some(i) = span[..near].iter().position(|&b| !members.contains(b)) {
            return pos + i;
        }
        if near == span.len() {
            return limit;
        }
        let rest = &span[near..];
        let found = match self.stops[set].as_deref() {
            Some(s) => match *s {
                [] => None,
                [a] => memchr::memchr(a, rest),
                [a, b] => memchr::memchr2(a, b, rest),
                [a, b, c] => memchr::memchr3(a, b, c, rest),
                _ => unreachable!("at most three stops"),
            },
            None => rest.iter().position(|&b| !members.contains(b)),
        };
        found.map_or(limit, |i| pos + near + i)
    }

    /// The match of the pattern anchored at the start of `hay` that the
    /// leftmost-first rule picks, with its captures in `scratch.slots`
    /// (group `n` spans `slots[2n]..slots[2n+1]`, `usize::MAX` when the
    /// group did not take part); `Ok(false)` when nothing matches there.
    /// `hay` must be ASCII.
    ///
    /// # Errors
    ///
    /// [`GaveUp`] when the search took more than `budget` steps; the
    /// budget left is written back.
    pub fn find_anchored(
        &self,
        hay: &[u8],
        scratch: &mut Scratch,
        budget: &mut usize,
    ) -> Result<bool, GaveUp> {
        self.find_from(hay, PieceEnd::UNKNOWN, scratch, budget)
    }

    /// [`Matcher::find_anchored`] on `hay` cut where the piece it starts
    /// in ends: no `%` in it past its first `marks` bytes (what
    /// [`crate::exec::replace::piece_end`] gives). A `[^%]` run then ends at the
    /// end of `hay` with no search for `%`.
    ///
    /// # Errors
    ///
    /// As [`Matcher::find_anchored`].
    pub fn find_anchored_in_piece(
        &self,
        hay: &[u8],
        marks: usize,
        scratch: &mut Scratch,
        budget: &mut usize,
    ) -> Result<bool, GaveUp> {
        debug_assert!(!hay.iter().skip(marks).any(|&b| b == b'%'));
        let piece = PieceEnd {
            from: marks.min(hay.len()),
            at: hay.len(),
        };
        self.find_from(hay, piece, scratch, budget)
    }

    /// Whether a run of the program stops only at `%` (`[^%]*`): such a
    /// run looks as far as the piece it starts in goes.
    pub fn has_piece_runs(&self) -> bool {
        self.piece_sets.iter().any(|&p| p)
    }

    /// [`Matcher::find_anchored`], with what is known of where the piece
    /// ends.
    fn find_from(
        &self,
        hay: &[u8],
        piece: PieceEnd,
        scratch: &mut Scratch,
        budget: &mut usize,
    ) -> Result<bool, GaveUp> {
        // `hay` is ASCII: the executor calls this matcher only on a state
        // it found ASCII once per run (`Executor::run_fast`), and a check
        // here would read the whole rest of the state at every place.
        if self.straight && scratch.slots.len() == self.slots {
            // Every save runs on the way to a match: no slot can be left
            // over from an earlier search.
        } else {
            scratch.slots.clear();
            scratch.slots.resize(self.slots, usize::MAX);
        }
        scratch.stack.clear();
        if self.single {
            // A single-path search is short (one pass over the program):
            // it is charged its length, and only an empty budget stops it.
            if *budget == 0 {
                return Err(GaveUp);
            }
            *budget = budget.saturating_sub(self.prog.len());
            return Ok(self.find_straight(hay, piece, &mut scratch.slots));
        }
        let slots = &mut scratch.slots;
        let stack = &mut scratch.stack;
        let (mut pc, mut pos) = (0usize, 0usize);
        // Choice frames on the stack. With none, a failure ends the search,
        // so a capture need not be restored and its old value is not kept.
        let mut choices = 0usize;
        let mut piece = piece;
        slots[0] = 0;
        loop {
            if *budget == 0 {
                return Err(GaveUp);
            }
            *budget -= 1;
            for &slot in &self.pre[pc] {
                if slot == NO_SLOT {
                    break;
                }
                set_slot(slots, stack, choices > 0, slot as usize, pos);
            }
            let ok = match &self.prog[pc] {
                Inst::Lit(bytes) => {
                    let ok = starts_with(&hay[pos..], bytes);
                    pos += bytes.len();
                    pc += 1;
                    ok
                }
                Inst::Set(s) => {
                    let ok = hay.get(pos).is_some_and(|&b| self.sets[*s].contains(b));
                    pos += 1;
                    pc += 1;
                    ok
                }
                Inst::Start => {
                    pc += 1;
                    pos == 0
                }
                Inst::Save(slot) => {
                    set_slot(slots, stack, choices > 0, *slot, pos);
                    pc += 1;
                    true
                }
                Inst::Backref(group) => {
                    pc += 1;
                    match backref(hay, slots, *group, pos) {
                        Some(len) => {
                            pos += len;
                            true
                        }
                        None => false,
                    }
                }
                Inst::Split(a, b) => {
                    stack.push(Frame::Resume { pc: *b, pos });
                    choices += 1;
                    pc = *a;
                    true
                }
                Inst::Jmp(a) => {
                    pc = *a;
                    true
                }
                Inst::Words(w) => {
                    let len = self.words[*w].matches(&hay[pos..]);
                    pos += len.unwrap_or(0);
                    pc += 1;
                    len.is_some()
                }
                &Inst::Spread {
                    set,
                    count,
                    group,
                    greedy,
                } => {
                    pc += 1;
                    match self.spread_taken(set, count, hay, pos) {
                        None => false,
                        Some(taken) => {
                            for (k, start, end) in spread_spans(count, taken, greedy, pos) {
                                set_slot(slots, stack, choices > 0, 2 * (group + k), start);
                                set_slot(slots, stack, choices > 0, 2 * (group + k) + 1, end);
                            }
                            pos += taken;
                            true
                        }
                    }
                }
                Inst::Match => {
                    slots[1] = pos;
                    return Ok(true);
                }
                &Inst::Run {
                    set,
                    min,
                    max,
                    step,
                    greedy,
                    hint,
                    whole,
                } => {
                    let lo = pos + min;
                    // A short bounded run ends in a small window: when
                    // nothing there is what the rest needs, fail before
                    // measuring the run.
                    if !whole
                        && max - min <= SHORT_RUN
                        && !matches!(hint, Hint::None)
                        && lo <= hay.len()
                        && self
                            .greedy_hinted(hay, hint, lo, hay.len().min(pos + max) + 1)
                            .is_none()
                    {
                        pc += 1;
                        false
                    } else {
                        let end = self.run_end(set, hay, pos, max, &mut piece);
                        *budget = budget.saturating_sub((end - pos) / 64);
                        if whole {
                            pc += 1;
                            let ok = end >= lo && (step == 1 || (end - lo).is_multiple_of(step));
                            pos = end;
                            ok
                        } else if end < lo {
                            false
                        } else {
                            let first = if greedy {
                                self.greedy_candidate(hay, (hint, step), lo, end + 1)
                            } else {
                                self.lazy_candidate(hay, (hint, step), lo, lo, end)
                            };
                            match first {
                                None => false,
                                Some(p) => {
                                    if greedy && p > lo {
                                        stack.push(Frame::Greedy { pc, lo, cur: p });
                                        choices += 1;
                                    } else if !greedy && p < end {
                                        stack.push(Frame::Lazy {
                                            pc,
                                            hi: end,
                                            cur: p,
                                        });
                                        choices += 1;
                                    }
                                    pc += 1;
                                    pos = p;
                                    true
                                }
                            }
                        }
                    }
                }
            };
            if ok {
                continue;
            }
            // Backtrack to the most recent choice left.
            loop {
                let Some(f) = stack.pop() else {
                    return Ok(false);
                };
                match f {
                    Frame::Restore { slot, value } => slots[slot] = value,
                    Frame::Resume { pc: p, pos: q } => {
                        choices -= 1;
                        pc = p;
                        pos = q;
                        break;
                    }
                    Frame::Greedy { pc: p, lo, cur } => {
                        choices -= 1;
                        if let Some(q) = self.greedy_candidate(hay, self.run(p), lo, cur) {
                            if q > lo {
                                stack.push(Frame::Greedy { pc: p, lo, cur: q });
                                choices += 1;
                            }
                            pc = p + 1;
                            pos = q;
                            break;
                        }
                    }
                    Frame::Lazy { pc: p, hi, cur } => {
                        choices -= 1;
                        if let Some(q) = self.lazy_candidate(hay, self.run(p), cur, cur + 1, hi) {
                            if q < hi {
                                stack.push(Frame::Lazy { pc: p, hi, cur: q });
                                choices += 1;
                            }
                            pc = p + 1;
                            pos = q;
                            break;
                        }
                    }
                }
                if *budget == 0 {
                    return Err(GaveUp);
                }
                *budget -= 1;
            }
        }
    }

    /// [`Matcher::find_anchored`] for a program with nothing to come back
    /// to: each instruction either moves on or ends the search. Its work
    /// is bounded by the program and the runs' lengths, so no budget.
    fn find_straight(&self, hay: &[u8], mut piece: PieceEnd, slots: &mut [usize]) -> bool {
        let mut pos = 0usize;
        slots[0] = 0;
        for (inst, pre) in self.prog.iter().zip(&self.pre) {
            for &slot in pre {
                if slot == NO_SLOT {
                    break;
                }
                slots[slot as usize] = pos;
            }
            match *inst {
                Inst::Lit(ref bytes) => {
                    if !starts_with(&hay[pos..], bytes) {
                        return false;
                    }
                    pos += bytes.len();
                }
                Inst::Set(s) => {
                    if !hay.get(pos).is_some_and(|&b| self.sets[s].contains(b)) {
                        return false;
                    }
                    pos += 1;
                }
                Inst::Save(slot) => slots[slot] = pos,
                Inst::Backref(group) => match backref(hay, slots, group, pos) {
                    Some(len) => pos += len,
                    None => return false,
                },
                Inst::Start => {
                    if pos != 0 {
                        return false;
                    }
                }
                Inst::Words(w) => match self.words[w].matches(&hay[pos..]) {
                    Some(len) => pos += len,
                    None => return false,
                },
                Inst::Spread {
                    set,
                    count,
                    group,
                    greedy,
                } => {
                    let Some(taken) = self.spread_taken(set, count, hay, pos) else {
                        return false;
                    };
                    for (k, start, end) in spread_spans(count, taken, greedy, pos) {
                        slots[2 * (group + k)] = start;
                        slots[2 * (group + k) + 1] = end;
                    }
                    pos += taken;
                }
                Inst::Run {
                    set,
                    min,
                    max,
                    step,
                    ..
                } => {
                    // Whole (only the longest run can be followed) or of
                    // one length: either way, the end is the run's end.
                    let end = self.run_end(set, hay, pos, max, &mut piece);
                    let len = end - pos;
                    if len < min || (step > 1 && !(len - min).is_multiple_of(step)) {
                        return false;
                    }
                    pos = end;
                }
                Inst::Match => {
                    slots[1] = pos;
                    return true;
                }
                Inst::Split(..) | Inst::Jmp(_) => unreachable!("not in a single-path program"),
            }
        }
        false
    }

    /// How many bytes a [`Inst::Spread`] of `count` groups takes at
    /// `pos`: every byte of the set there, when there are at most `count`.
    fn spread_taken(&self, set: usize, count: usize, hay: &[u8], pos: usize) -> Option<usize> {
        let members = &self.sets[set];
        let run = hay[pos..]
            .iter()
            .take(count + 1)
            .take_while(|&&b| members.contains(b))
            .count();
        (run <= count).then_some(run)
    }

    /// The hint and step of the run at `pc`.
    fn run(&self, pc: usize) -> (Hint, usize) {
        match self.prog[pc] {
            Inst::Run { hint, step, .. } => (hint, step),
            _ => (Hint::None, 1),
        }
    }

    /// The largest run end in `lo..below` that the hint allows, a
    /// multiple of `step` past `lo`.
    fn greedy_candidate(
        &self,
        hay: &[u8],
        (hint, step): (Hint, usize),
        lo: usize,
        mut below: usize,
    ) -> Option<usize> {
        loop {
            let p = self.greedy_hinted(hay, hint, lo, below)?;
            if step == 1 || (p - lo).is_multiple_of(step) {
                return Some(p);
            }
            below = p;
        }
    }

    /// The smallest run end in `from..=hi` that the hint allows, a
    /// multiple of `step` past `base`.
    fn lazy_candidate(
        &self,
        hay: &[u8],
        (hint, step): (Hint, usize),
        base: usize,
        mut from: usize,
        hi: usize,
    ) -> Option<usize> {
        loop {
            let p = self.lazy_hinted(hay, hint, from, hi)?;
            if step == 1 || (p - base).is_multiple_of(step) {
                return Some(p);
            }
            from = p + 1;
        }
    }

    /// The largest run end in `lo..below` that the hint allows.
    fn greedy_hinted(&self, hay: &[u8], hint: Hint, lo: usize, below: usize) -> Option<usize> {
        if below <= lo {
            return None;
        }
        // Places `lo + offset .. below + offset` of the tested byte.
        let window = |offset: usize| {
            let top = below.saturating_add(offset).min(hay.len());
            let from = lo + offset;
            (from < top).then(|| (from, &hay[from..top]))
        };
        match hint {
            Hint::None => Some(below - 1),
            Hint::Lit(l) => {
                let (from, w) = window(0)?;
                last_of(self.lits[l].0, w).map(|i| from + i)
            }
            Hint::Byte { offset, byte } => {
                let (from, w) = window(offset)?;
                last_of(byte, w).map(|i| from + i - offset)
            }
            Hint::Set { offset, set } => {
                let (from, w) = window(offset)?;
                let set = &self.sets[set];
                w.iter()
                    .rposition(|&b| set.contains(b))
                    .map(|i| from + i - offset)
            }
        }
    }

    /// The smallest run end in `from..=hi` that the hint allows.
    fn lazy_hinted(&self, hay: &[u8], hint: Hint, from: usize, hi: usize) -> Option<usize> {
        if from > hi {
            return None;
        }
        // Places `from + offset ..= hi + offset` of the tested byte.
        let window = |offset: usize, width: usize| {
            let top = hi.saturating_add(offset + width).min(hay.len());
            let start = from + offset;
            (start < top).then(|| (start, &hay[start..top]))
        };
        match hint {
            Hint::None => Some(from),
            Hint::Lit(l) => {
                let finder = &self.lits[l].1;
                let (start, w) = window(0, finder.needle().len())?;
                finder.find(w).map(|i| start + i).filter(|&p| p <= hi)
            }
            Hint::Byte { offset, byte } => {
                let (start, w) = window(offset, 1)?;
                first_of(byte, w).map(|i| start + i - offset)
            }
            Hint::Set { offset, set } => {
                let (start, w) = window(offset, 1)?;
                let set = &self.sets[set];
                w.iter()
                    .position(|&b| set.contains(b))
                    .map(|i| start + i - offset)
            }
        }
    }
}

/// Records `value` in capture slot `slot`, keeping the old value on the
/// stack for backtracking when a choice is `open` (with none, a failure
/// ends the search and nothing needs restoring).
fn set_slot(slots: &mut [usize], stack: &mut Vec<Frame>, open: bool, slot: usize, value: usize) {
    if open {
        stack.push(Frame::Restore {
            slot,
            value: slots[slot],
        });
    }
    slots[slot] = value;
}

/// The length of group `group`'s text when it also stands at `pos`;
/// `None` when it does not, or the group did not take part.
fn backref(hay: &[u8], slots: &[usize], group: usize, pos: usize) -> Option<usize> {
    let (start, end) = (*slots.get(2 * group)?, *slots.get(2 * group + 1)?);
    if start == usize::MAX || end == usize::MAX || end < start {
        return None;
    }
    let len = end - start;
    (hay.get(pos..pos + len)? == &hay[start..end]).then_some(len)
}

/// The span of each group of a [`Inst::Spread`] of `count` groups at `pos`
/// that takes `taken` bytes: `(group offset, start, end)`. Lazy groups
/// leave the first ones empty, greedy groups the last.
fn spread_spans(
    count: usize,
    taken: usize,
    greedy: bool,
    pos: usize,
) -> impl Iterator<Item = (usize, usize, usize)> {
    let empty_first = if greedy { 0 } else { count - taken };
    let mut at = pos;
    (0..count).map(move |k| {
        let takes = if greedy { k < taken } else { k >= empty_first };
        let start = at;
        if takes {
            at += 1;
        }
        (k, start, at)
    })
}

/// `memchr`, with short windows (a bounded run's ends) searched in line:
/// the call costs more than a few compares.
fn first_of(byte: u8, w: &[u8]) -> Option<usize> {
    if w.len() <= SHORT_RUN {
        w.iter().position(|&b| b == byte)
    } else {
        memchr::memchr(byte, w)
    }
}

/// `memrchr`, with short windows searched in line (see [`first_of`]).
fn last_of(byte: u8, w: &[u8]) -> Option<usize> {
    if w.len() <= SHORT_RUN {
        w.iter().rposition(|&b| b == byte)
    } else {
        memchr::memrchr(byte, w)
    }
}
