//! The backtracking machine: runs a program anchored at one place of a
//! text, with CPython's semantics, and reports whether it matched there
//! and the match's groups (which places to try is `places`'s).
//!
//! Positions are byte offsets into UTF-8 text that step over whole
//! characters. The machine never recurses: its choice points, the undo
//! records of captures and loop counters, and the barriers of
//! look-arounds and atomic groups live on one explicit stack, bounded by
//! a frame limit; every 4,096 steps it asks a `Stop` whether to give up.
//! CPython's rules are here: a loop leaves when it would start an
//! iteration where its last iteration past its minimum started; a
//! possessive loop matches each iteration atomically; captures follow
//! CPython's marks (a high-water mark of set groups; inside a possessive
//! loop that no general loop encloses, a failed alternative's captures
//! are kept). A match at the place may be refused when empty (re.sub's
//! rule after an empty match). One thing is kept from place to place of
//! a text: where a look-ahead that cannot depend on where it started
//! failed (`look_memo`), so it is not entered again inside the same run.
//! It owns no parsing and no replacement.

use memchr::memrchr;

use super::ast::{CharTest, Fold, Greed, UNBOUNDED};
use super::look_memo::LookMemo;
use super::prog::{Follow, Inst, Pc, Prog};
use super::text::{
    anchor_holds, can_follow, can_start, char_at, prev_boundary, run_chars, run_end,
    starts_with_at, take_chars,
};
use super::unicode;
use super::SearchLimits;
use crate::stop::StopReason;

/// No position (an unset capture).
pub(crate) const NONE: usize = usize::MAX;

/// Why a search did not finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// Its `Stop` fell due.
    #[error("the search was stopped: {0}")]
    Stopped(StopReason),
    /// A match whose group starts after it ends, which CPython reports
    /// as `SystemError: The span of capturing group is wrong` when it
    /// makes a match object of it (`re.sub` does when the replacement
    /// names a group); its marks inside a possessive loop can leave a
    /// group so.
    #[error("CPython raises SystemError on this match: group {group} starts after it ends")]
    GroupSpan {
        /// The group.
        group: usize,
    },
    /// Its backtracking stack passed the frame limit.
    #[error("the search's backtracking stack passed {limit} entries (a limit of ours)")]
    StackFull {
        /// The limit.
        limit: usize,
    },
}

/// How many steps forward (and, apart, how many frames popped) pass
/// between two questions to the search's `Stop`.
const STEPS_PER_CHECK: u32 = 4096;

/// The size of one stack entry, in bytes.
pub(crate) const FRAME_BYTES: usize = std::mem::size_of::<Frame>();

#[derive(Debug, Clone, Copy)]
enum Frame {
    /// Resume at `pc`, at `pos`.
    Alt { pc: Pc, pos: usize },
    /// Resume the `Branch` at `pc` at `pos`, with the branches `rest` (a
    /// bit each) still to try.
    Branch { pc: Pc, pos: usize, rest: u64 },
    /// Give capture slot `slot` back its value.
    Slot { slot: u32, old: usize },
    /// Give a loop back its count and last iteration's start.
    Counter { loop_: u32, count: u32, last: usize },
    /// Give the high-water mark of set capture slots back its value.
    LastMark(usize),
    /// Give every capture slot and the high-water mark back the values
    /// kept at `at` in the snapshot store (a possessive iteration that
    /// failed).
    Snapshot { at: usize },
    /// A greedy run of `RepeatOne` at `pc` that now ends at `end` and may
    /// give back characters down to `floor`.
    Run { pc: Pc, floor: usize, end: usize },
    /// A lazy run at `pc` that now ends at `end` after `n` characters.
    LazyRun { pc: Pc, end: usize, n: u32 },
    /// The barrier of a look-around at `pc`, entered at `pos`.
    Look { pc: Pc, pos: usize },
    /// The barrier of an atomic group.
    Atomic,
}

/// A search's buffers, kept between searches.
#[derive(Debug, Default)]
pub(crate) struct Cache {
    /// The capture slots of the last match.
    pub(crate) slots: Vec<usize>,
    counters: Vec<(u32, usize)>,
    stack: Vec<Frame>,
    /// Stack indices of the barriers, innermost last.
    barriers: Vec<usize>,
    /// How many frames on the stack resume the match (choices: `Alt`,
    /// `Branch`, `Run`, `LazyRun`, a negative look-around's `Look`). With
    /// none, a failure fails the place, so the undo records it would pop
    /// are not kept at all.
    choices: usize,
    /// The highest capture slot set (CPython's "lastmark", in slots:
    /// group `i` is set only while `2i + 1 <= lastmark`); 1 for none.
    lastmark: usize,
    /// Kept capture slots of possessive iterations: the high-water mark,
    /// then the slots.
    snaps: Vec<usize>,
    /// A group of the last match that starts after it ends (see
    /// [`MatchError::GroupSpan`]).
    pub(crate) bad_group: Option<usize>,
    /// Frames popped, counted for the stop (see `STEPS_PER_CHECK`).
    steps: u32,
    /// Steps forward left before the stop is asked.
    fuel: u32,
    /// Failed look-aheads remembered over the text (see
    /// `Inst::LookStart::memo`), kept from place to place.
    pub(crate) looks: LookMemo,
}

/// Runs the program anchored at `at`: whether it matched there (with a
/// match's groups in `cache.slots`); `not_empty`: an empty match fails.
///
/// # Errors
///
/// [`MatchError`] when the stop falls due or the stack passes its limit.
pub(crate) fn run(
    prog: &Prog,
    text: &[u8],
    at: usize,
    not_empty: bool,
    cache: &mut Cache,
    limits: &SearchLimits<'_>,
) -> Result<bool, MatchError> {
    cache.slots.clear();
    cache.slots.resize(prog.slots, NONE);
    cache.counters.clear();
    cache.counters.resize(prog.loops, (0, NONE));
    cache.stack.clear();
    cache.barriers.clear();
    cache.choices = 0;
    cache.snaps.clear();
    cache.lastmark = 1;
    cache.bad_group = None;
    let mut m = Machine {
        prog,
        text,
        cache,
        limits,
    };
    m.run(at, not_empty)
}

/// Whether a frame is a choice (see `Cache::choices`; a negative
/// look-around's `Look` is counted where it is pushed and popped).
#[inline]
fn is_choice(f: &Frame) -> bool {
    matches!(
        f,
        Frame::Alt { .. } | Frame::Branch { .. } | Frame::Run { .. } | Frame::LazyRun { .. }
    )
}

struct Machine<'a, 'c, 's> {
    prog: &'a Prog,
    text: &'a [u8],
    cache: &'c mut Cache,
    limits: &'a SearchLimits<'s>,
}

/// What to do after a step.
enum Next {
    /// Go on at this instruction and position.
    Go(Pc, usize),
    /// Backtrack.
    Fail,
}

impl Machine<'_, '_, '_> {
    fn push(&mut self, f: Frame) -> Result<(), MatchError> {
        if self.cache.stack.len() >= self.limits.max_frames {
            return Err(MatchError::StackFull {
                limit: self.limits.max_frames,
            });
        }
        if is_choice(&f) {
            self.cache.choices += 1;
        }
        self.cache.stack.push(f);
        Ok(())
    }

    /// Pushes an undo record, when a choice below it could need it.
    fn record(&mut self, f: Frame) -> Result<(), MatchError> {
        if self.cache.choices == 0 {
            return Ok(());
        }
        self.push(f)
    }

    /// Whether a frame resumes the match when popped.
    fn resumes(&self, f: &Frame) -> bool {
        match f {
            Frame::Look { pc, .. } => matches!(
                self.prog.insts[*pc as usize],
                Inst::LookStart { negate: true, .. }
            ),
            f => is_choice(f),
        }
    }

    fn tick(&mut self) -> Result<(), MatchError> {
        self.cache.steps = self.cache.steps.wrapping_add(1);
        if self.cache.steps.is_multiple_of(STEPS_PER_CHECK) {
            if let Some(reason) = self.limits.stop.due() {
                return Err(MatchError::Stopped(reason));
            }
        }
        Ok(())
    }

    fn run(&mut self, at: usize, not_empty: bool) -> Result<bool, MatchError> {
        // Steps forward until the stop is asked, counted in a local (a
        // step is a few instructions) and kept for the next place.
        let mut fuel = self.cache.fuel;
        let result = self.run_from(at, not_empty, &mut fuel);
        self.cache.fuel = fuel;
        result
    }

    #[inline(always)]
    fn run_from(&mut self, at: usize, not_empty: bool, fuel: &mut u32) -> Result<bool, MatchError> {
        let mut pc: Pc = 0;
        let mut pos = at;
        loop {
            if *fuel == 0 {
                *fuel = STEPS_PER_CHECK;
                if let Some(reason) = self.limits.stop.due() {
                    return Err(MatchError::Stopped(reason));
                }
            }
            *fuel -= 1;
            let next = match &self.prog.insts[pc as usize] {
                Inst::Match => {
                    if not_empty && pos == at {
                        Next::Fail
                    } else {
                        self.settle();
                        return Ok(true);
                    }
                }
                inst => self.step(inst, pc, pos)?,
            };
            match next {
                Next::Go(p, q) => {
                    pc = p;
                    pos = q;
                }
                Next::Fail => match self.backtrack()? {
                    Some((p, q)) => {
                        pc = p;
                        pos = q;
                    }
                    None => return Ok(false),
                },
            }
        }
    }

    fn step(&mut self, inst: &Inst, pc: Pc, pos: usize) -> Result<Next, MatchError> {
        let text = self.text;
        let go = |p: usize| Next::Go(pc + 1, p);
        Ok(match inst {
            Inst::Str(s) => {
                if starts_with_at(text, pos, s) {
                    go(pos + s.len())
                } else {
                    Next::Fail
                }
            }
            Inst::Test(t) => match char_at(text, pos) {
                Some((c, n)) if t.matches(c) => go(pos + n),
                _ => Next::Fail,
            },
            Inst::Anchor(a) => {
                if anchor_holds(*a, text, pos) {
                    go(pos)
                } else {
                    Next::Fail
                }
            }
            Inst::Save { slot, leaky } => {
                self.save(*slot as usize, *leaky, pos)?;
                go(pos)
            }
            Inst::Split(second) => {
                self.push(Frame::Alt { pc: *second, pos })?;
                go(pos)
            }
            Inst::SplitLazy(second) => {
                self.push(Frame::Alt { pc: pc + 1, pos })?;
                Next::Go(*second, pos)
            }
            Inst::Branch(b) => {
                let viable = b.viable(text, pos);
                if viable == 0 {
                    return Ok(Next::Fail);
                }
                let rest = viable & (viable - 1);
                if rest != 0 {
                    self.push(Frame::Branch { pc, pos, rest })?;
                }
                Next::Go(b.starts[viable.trailing_zeros() as usize], pos)
            }
            Inst::Jmp(to) => Next::Go(*to, pos),
            Inst::Backref(group, fold) => self.backref(*group, *fold, pc, pos),
            Inst::RepeatOne {
                test,
                min,
                max,
                greed,
                stops,
                ..
            } => self.repeat_one(pc, pos, test, *min, *max, *greed, stops.as_deref())?,
            Inst::LoopStart(l) => {
                let (count, last) = self.cache.counters[*l as usize];
                self.record(Frame::Counter {
                    loop_: *l,
                    count,
                    last,
                })?;
                self.cache.counters[*l as usize] = (0, NONE);
                go(pos)
            }
            Inst::LoopCheck {
                loop_,
                min,
                max,
                lazy,
                exit,
                body,
            } => {
                // CPython's rule: `last` is where the last iteration past
                // the minimum started (none yet after the minimum ones);
                // the loop leaves when it would start another one there.
                let (count, last) = self.cache.counters[*loop_ as usize];
                if !can_start(body.as_deref(), text, pos) {
                    // An iteration would fail at once, undoing all it did.
                    return Ok(if count < *min {
                        Next::Fail
                    } else {
                        Next::Go(*exit, pos)
                    });
                }
                if count < *min {
                    self.count_iteration(*loop_, count, last, last)?;
                    Next::Go(pc + 2, pos)
                } else if count >= *max || last == pos {
                    Next::Go(*exit, pos)
                } else if *lazy {
                    self.push(Frame::Alt { pc: pc + 1, pos })?;
                    Next::Go(*exit, pos)
                } else {
                    self.push(Frame::Alt { pc: *exit, pos })?;
                    self.count_iteration(*loop_, count, last, pos)?;
                    Next::Go(pc + 2, pos)
                }
            }
            Inst::LoopIterate(l) => {
                let (count, last) = self.cache.counters[*l as usize];
                self.count_iteration(*l, count, last, pos)?;
                go(pos)
            }
            Inst::PossessiveCheck {
                loop_,
                snapshot,
                min,
                max,
                exit,
                body,
            } => {
                // As a general loop: only the iterations past the minimum
                // record where they start, and an empty one ends the loop.
                let (count, last) = self.cache.counters[*loop_ as usize];
                if count >= *max || (count >= *min && last == pos) {
                    return Ok(Next::Go(*exit, pos));
                }
                if !can_start(body.as_deref(), text, pos) {
                    // An iteration would fail at once, and its snapshot
                    // give back any capture it left.
                    return Ok(if count < *min {
                        Next::Fail
                    } else {
                        Next::Go(*exit, pos)
                    });
                }
                self.cache.barriers.push(self.cache.stack.len());
                self.push(Frame::Atomic)?;
                if count >= *min {
                    self.push(Frame::Alt { pc: exit - 1, pos })?;
                }
                self.record(Frame::Counter {
                    loop_: *loop_,
                    count,
                    last,
                })?;
                if *snapshot {
                    // The kept slots count against the stack's bound too.
                    let words = self.cache.snaps.len() + self.cache.slots.len() + 1;
                    if words / (FRAME_BYTES / 8) + self.cache.stack.len() >= self.limits.max_frames
                    {
                        return Err(MatchError::StackFull {
                            limit: self.limits.max_frames,
                        });
                    }
                    let at = self.cache.snaps.len();
                    self.cache.snaps.push(self.cache.lastmark);
                    let slots = std::mem::take(&mut self.cache.slots);
                    self.cache.snaps.extend_from_slice(&slots);
                    self.cache.slots = slots;
                    self.push(Frame::Snapshot { at })?;
                }
                let last = if count >= *min { pos } else { last };
                self.cache.counters[*loop_ as usize] = (count + 1, last);
                go(pos)
            }
            Inst::DropBarrier => {
                self.cut();
                go(pos)
            }
            Inst::LookStart { memo: true, .. } if !self.enter_remembered(pc, pos) => Next::Fail,
            Inst::LookStart {
                behind,
                negate,
                end,
                ..
            } => {
                let from = match behind {
                    None => Some(pos),
                    Some(w) => self.back(pos, *w),
                };
                match from {
                    Some(from) => {
                        self.cache.barriers.push(self.cache.stack.len());
                        self.push(Frame::Look { pc, pos })?;
                        if *negate {
                            // Its body failing resumes the match.
                            self.cache.choices += 1;
                        }
                        go(from)
                    }
                    // Not enough text behind: the body cannot match.
                    None if *negate => Next::Go(end + 1, pos),
                    None => Next::Fail,
                }
            }
            Inst::LookEnd => self.look_end(pos)?,
            Inst::AtomicStart => {
                self.cache.barriers.push(self.cache.stack.len());
                self.push(Frame::Atomic)?;
                go(pos)
            }
            Inst::AtomicEnd => {
                self.cut();
                go(pos)
            }
            Inst::IfGroup { group, no } => {
                if self.span(*group as usize).is_some_and(|(s, e)| s <= e) {
                    go(pos)
                } else {
                    Next::Go(*no, pos)
                }
            }
            Inst::Match => Next::Fail,
        })
    }

    /// Whether a remembering look-ahead at `pc` is worth entering at
    /// `pos` ([`LookMemo::enter`], with where the run its body starts
    /// with stops).
    fn enter_remembered(&mut self, pc: Pc, pos: usize) -> bool {
        let Some(Inst::RepeatOne { test, stops, .. }) = self.prog.insts.get(pc as usize + 1) else {
            return true;
        };
        let text = self.text;
        self.cache
            .looks
            .enter(pc, pos, || run_end(text, pos, test, stops.as_deref()))
    }

    /// Loop `l` starts its iteration `count + 1`, with `last` as the
    /// start of its last iteration past the minimum.
    fn count_iteration(
        &mut self,
        l: u32,
        count: u32,
        old_last: usize,
        last: usize,
    ) -> Result<(), MatchError> {
        self.record(Frame::Counter {
            loop_: l,
            count,
            last: old_last,
        })?;
        self.cache.counters[l as usize] = (count + 1, last);
        Ok(())
    }

    /// `w` characters back from `pos`, if the text has them.
    fn back(&self, mut pos: usize, w: u32) -> Option<usize> {
        // Over ASCII each byte is a character.
        let start = pos.checked_sub(w as usize)?;
        if self.text[start..pos].is_ascii() {
            return Some(start);
        }
        for _ in 0..w {
            if pos == 0 {
                return None;
            }
            pos = prev_boundary(self.text, pos);
        }
        Some(pos)
    }

    /// Where group `group` (1 or more) lies, if it is set: both its
    /// slots recorded and within the high-water mark.
    fn span(&self, group: usize) -> Option<(usize, usize)> {
        let (s, e) = (self.cache.slots[2 * group], self.cache.slots[2 * group + 1]);
        (2 * group < self.cache.lastmark && s != NONE && e != NONE).then_some((s, e))
    }

    /// Records `pos` in capture slot `slot`. As CPython's marks: passing
    /// the high-water mark clears the slots between; a leaky save is not
    /// undone on backtracking (the high-water mark is).
    fn save(&mut self, slot: usize, leaky: bool, pos: usize) -> Result<(), MatchError> {
        let lastmark = self.cache.lastmark;
        if slot >= 2 && slot > lastmark {
            for j in lastmark + 1..slot {
                let old = self.cache.slots[j];
                if old != NONE {
                    if !leaky {
                        self.record(Frame::Slot {
                            slot: j as u32,
                            old,
                        })?;
                    }
                    self.cache.slots[j] = NONE;
                }
            }
            self.record(Frame::LastMark(lastmark))?;
            self.cache.lastmark = slot;
        }
        if !leaky {
            let old = self.cache.slots[slot];
            self.record(Frame::Slot {
                slot: slot as u32,
                old,
            })?;
        }
        self.cache.slots[slot] = pos;
        Ok(())
    }

    /// A match is found: groups past the high-water mark are unset; a set
    /// group that starts after it ends is noted (CPython's `SystemError`
    /// when it makes a match object of it).
    fn settle(&mut self) {
        for group in 1..self.cache.slots.len() / 2 {
            match self.span(group) {
                Some((s, e)) if s > e => {
                    self.cache.bad_group.get_or_insert(group);
                }
                Some(_) => {}
                None => {
                    self.cache.slots[2 * group] = NONE;
                    self.cache.slots[2 * group + 1] = NONE;
                }
            }
        }
    }

    fn backref(&self, group: u32, fold: Fold, pc: Pc, pos: usize) -> Next {
        let Some((s, e)) = self.span(group as usize).filter(|(s, e)| s <= e) else {
            return Next::Fail;
        };
        let text = self.text;
        let want = &text[s..e];
        match fold {
            Fold::Exact => {
                if text.len() - pos >= want.len() && &text[pos..pos + want.len()] == want {
                    Next::Go(pc + 1, pos + want.len())
                } else {
                    Next::Fail
                }
            }
            Fold::Lower { ascii } => {
                let (mut i, mut p) = (0, pos);
                while i < want.len() {
                    let (Some((a, n)), Some((b, m))) = (char_at(want, i), char_at(text, p)) else {
                        return Next::Fail;
                    };
                    if a != b && unicode::lower(a, ascii) != unicode::lower(b, ascii) {
                        return Next::Fail;
                    }
                    i += n;
                    p += m;
                }
                Next::Go(pc + 1, p)
            }
        }
    }

    /// The end of a greedy run of `test` from `pos`: up to `max`
    /// characters; with the count when it is needed (a bounded run, or a
    /// minimum over one).
    #[allow(clippy::too_many_arguments)]
    fn repeat_one(
        &mut self,
        pc: Pc,
        pos: usize,
        test: &CharTest,
        min: u32,
        max: u32,
        greed: Greed,
        stops: Option<&[u8]>,
    ) -> Result<Next, MatchError> {
        let text = self.text;
        if greed == Greed::Lazy {
            let Some(end) = take_chars(text, pos, test, min) else {
                return Ok(Next::Fail);
            };
            if min < max {
                self.push(Frame::LazyRun { pc, end, n: min })?;
            }
            return Ok(Next::Go(pc + 1, end));
        }
        // The floor (after `min` characters), then the run's end.
        let Some(floor) = take_chars(text, pos, test, min) else {
            return Ok(Next::Fail);
        };
        let end = match stops {
            Some(_) if max == UNBOUNDED => run_end(text, floor, test, stops),
            _ => run_chars(text, floor, test, (max - min) as usize),
        };
        if end > floor && greed == Greed::Greedy {
            self.push(Frame::Run { pc, floor, end })?;
        }
        Ok(Next::Go(pc + 1, end))
    }

    /// A look-around's body matched at `pos`.
    fn look_end(&mut self, pos: usize) -> Result<Next, MatchError> {
        let Some(&b) = self.cache.barriers.last() else {
            return Ok(Next::Fail);
        };
        let Frame::Look { pc, pos: entered } = self.cache.stack[b] else {
            return Ok(Next::Fail);
        };
        let Inst::LookStart {
            behind,
            negate,
            end,
            memo,
        } = &self.prog.insts[pc as usize]
        else {
            return Ok(Next::Fail);
        };
        if *memo {
            self.cache.looks.held(pc);
        }
        if behind.is_some() && pos != entered {
            // A look-behind's body must end where it started looking.
            return Ok(Next::Fail);
        }
        if *negate {
            // The assertion fails: undo the body and the barrier.
            self.unwind_to(b);
            return Ok(Next::Fail);
        }
        let end = *end;
        self.cut();
        Ok(Next::Go(end + 1, entered))
    }

    /// Drops the choices above the innermost barrier and the barrier,
    /// keeping the undo records (captures and counters set inside stay,
    /// and are undone if the match backtracks past this point).
    fn cut(&mut self) {
        let Some(b) = self.cache.barriers.pop() else {
            return;
        };
        let stack = &mut self.cache.stack;
        let mut keep = b;
        let mut snaps_from = None;
        for i in b + 1..stack.len() {
            match stack[i] {
                Frame::Slot { .. } | Frame::Counter { .. } | Frame::LastMark(_) => {
                    stack[keep] = stack[i];
                    keep += 1;
                }
                Frame::Snapshot { at } => {
                    snaps_from.get_or_insert(at);
                }
                // Inner barriers are gone before this one ends: what
                // resumes here is a choice.
                f if is_choice(&f) => self.cache.choices -= 1,
                _ => {}
            }
        }
        stack.truncate(keep);
        if let Some(at) = snaps_from {
            self.cache.snaps.truncate(at);
        }
    }

    /// Undoes every record above stack index `b`, and pops the barrier
    /// there.
    fn unwind_to(&mut self, b: usize) {
        while self.cache.stack.len() > b {
            if let Some(f) = self.cache.stack.pop() {
                if self.resumes(&f) {
                    self.cache.choices -= 1;
                }
                self.undo(f);
            }
        }
        self.cache.barriers.pop();
    }

    fn undo(&mut self, f: Frame) {
        match f {
            Frame::Slot { slot, old } => self.cache.slots[slot as usize] = old,
            Frame::Counter { loop_, count, last } => {
                self.cache.counters[loop_ as usize] = (count, last);
            }
            Frame::LastMark(m) => self.cache.lastmark = m,
            Frame::Snapshot { at } => {
                let n = self.cache.slots.len();
                self.cache.lastmark = self.cache.snaps[at];
                self.cache
                    .slots
                    .copy_from_slice(&self.cache.snaps[at + 1..at + 1 + n]);
                self.cache.snaps.truncate(at);
            }
            _ => {}
        }
    }

    /// The next choice: pops frames, undoing records, until one resumes.
    fn backtrack(&mut self) -> Result<Option<(Pc, usize)>, MatchError> {
        loop {
            if self.cache.choices == 0 {
                // Nothing resumes: the place fails (its records are left
                // as they are; the next place starts afresh).
                return Ok(None);
            }
            let Some(f) = self.cache.stack.pop() else {
                return Ok(None);
            };
            self.tick()?;
            if self.resumes(&f) {
                self.cache.choices -= 1;
            }
            match f {
                Frame::Alt { pc, pos } => return Ok(Some((pc, pos))),
                Frame::Branch { pc, pos, rest } => {
                    let Inst::Branch(b) = &self.prog.insts[pc as usize] else {
                        continue;
                    };
                    let next = rest & (rest - 1);
                    if next != 0 {
                        self.repush(Frame::Branch {
                            pc,
                            pos,
                            rest: next,
                        });
                    }
                    return Ok(Some((b.starts[rest.trailing_zeros() as usize], pos)));
                }
                Frame::Slot { .. }
                | Frame::Counter { .. }
                | Frame::LastMark(_)
                | Frame::Snapshot { .. } => self.undo(f),
                Frame::Run { pc, floor, end } => {
                    let Inst::RepeatOne { next, .. } = &self.prog.insts[pc as usize] else {
                        continue;
                    };
                    // The last place before `end` (and not before the
                    // floor) where what follows can stand.
                    let text = self.text;
                    let len = text.len();
                    let new_end = match next {
                        Follow::Any => prev_boundary(text, end),
                        Follow::Byte(b) => match memrchr(*b, &text[floor..end]) {
                            Some(i) => floor + i,
                            None => continue,
                        },
                        // The set holds no continuation byte: a byte of it
                        // starts a character.
                        Follow::Set(set) => {
                            match text[floor..end].iter().rposition(|&b| set.contains(b)) {
                                Some(i) => floor + i,
                                None => continue,
                            }
                        }
                        // The run reached `end` <= len before: nothing
                        // shorter ends at the end.
                        Follow::End => continue,
                        Follow::EndOrFinalNewline => {
                            // `len > floor` keeps `len - 1` at or past it.
                            if len > floor && len - 1 < end && text[len - 1] == b'\n' {
                                len - 1
                            } else {
                                continue;
                            }
                        }
                        Follow::LineEnd => match memrchr(b'\n', &text[floor..end]) {
                            Some(i) => floor + i,
                            None => continue,
                        },
                    };
                    if new_end > floor {
                        self.repush(Frame::Run {
                            pc,
                            floor,
                            end: new_end,
                        });
                    }
                    return Ok(Some((pc + 1, new_end)));
                }
                Frame::LazyRun { pc, end, n } => {
                    let Inst::RepeatOne {
                        test, max, next, ..
                    } = &self.prog.insts[pc as usize]
                    else {
                        continue;
                    };
                    // One character more, and on while what follows could
                    // not stand at the new end (those ends would fail).
                    let (mut end, mut n) = (end, n);
                    let resumed = loop {
                        match char_at(self.text, end) {
                            Some((c, k)) if test.matches(c) => {
                                end += k;
                                n += 1;
                            }
                            _ => break false,
                        }
                        if n >= *max || can_follow(next, self.text, end) {
                            break true;
                        }
                    };
                    if resumed {
                        if n < *max {
                            self.repush(Frame::LazyRun { pc, end, n });
                        }
                        return Ok(Some((pc + 1, end)));
                    }
                }
                Frame::Look { pc, pos } => {
                    self.cache.barriers.pop();
                    if let Inst::LookStart {
                        negate: true, end, ..
                    } = &self.prog.insts[pc as usize]
                    {
                        // The body failed: a negative look-around holds.
                        return Ok(Some((end + 1, pos)));
                    }
                }
                Frame::Atomic => {
                    self.cache.barriers.pop();
                }
            }
        }
    }

    /// Puts back a choice just popped, with what it has left to try (the
    /// stack has room: it held the frame).
    fn repush(&mut self, f: Frame) {
        self.cache.choices += 1;
        self.cache.stack.push(f);
    }
}
