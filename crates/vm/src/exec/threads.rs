//! The state as a table of threads: a stretch of thread-confined rewrites
//! run on the threads each rewrite can touch, not on the whole state, and
//! the state assembled once at the stretch's end.
//!
//! The table cuts the state before every `%` that does not follow a `%`
//! (a thread start); piece 0 is the text before the first cut (maybe
//! empty), every later piece is one thread, `%+[^%]*`. A confined rewrite
//! (see `prepare`: its matches provably lie inside one piece, and its
//! pattern has no anchor nor any look-around that could read past the
//! piece, `pyre::confine`, so what matches at a place depends on no text
//! outside that piece) leaves, on each piece run
//! alone, exactly the bytes it leaves there on the whole state: the
//! pieces' results, in order, are the whole state's. A rewrite that can
//! only match a thread of one kind (`%%`, `` %` ``, `%tag\n`) runs only on
//! the pieces whose head is of that kind, known from each piece's head
//! without reading the state; an unchanged piece is neither read nor
//! copied. A changed piece's text goes to the end of the arena (the
//! buffer every piece's text lives in); one that now holds several thread
//! starts becomes several pieces, an emptied one goes. A replacement that
//! would join a piece to the one before it (its text no longer starts a
//! thread, or ends with a `%`) is taken by cutting the assembled state
//! anew. A step whose engine failed or gave up on a piece, and a step
//! with so many pieces to visit that one scan of the whole state costs
//! less, runs on the whole state as the one-at-a-time loop runs it.
//!
//! It owns the table, the choice between table and whole state for a
//! stretch and for each of its steps, and the counting of what each step
//! did (the bytes, changes and peaks of the one-at-a-time loop); it must
//! not decide which rewrites are confined (that is `prepare`, from
//! `analysis`) nor how a pattern runs (each step's strategy).

use std::ops::Range;
use std::time::{Duration, Instant};

use super::analysis::{Analysis, Reach};
use super::step::{check_stop, Did, LoopState};
use super::strategy::At;
use super::{ExecError, Executor, Stats};

/// By default, states shorter than this run their stretches on the whole
/// state (see `Config::table_bytes`).
pub(super) const TABLE_BYTES: usize = 16 << 10;

/// By default, a visit to one piece is priced as scanning and copying
/// this many bytes of the whole state (see `Config::visit_bytes`).
pub(super) const VISIT_BYTES: usize = 512;

/// Bytes after a head's `%` marks read for its tag (the tag and its
/// `\n`): a longer tag is told apart by the rewrite's own search.
const TAG_BYTES: usize = 32;

/// What a piece's head says of it: which rewrites can match in it.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Head {
    /// Its leading `%` marks (at most 255 counted).
    marks: u8,
    /// The byte after them (0 if none).
    first: u8,
    /// A key of the bytes after them up to the first `\n`, when that is
    /// within [`TAG_BYTES`]; `NO_KEY` otherwise.
    key: u64,
}

const NO_KEY: u64 = 0;

/// A key of `tag_line` (a tag and its `\n`), never [`NO_KEY`].
fn key_of(tag_line: &[u8]) -> u64 {
    // FNV-1a: a few bytes, once per piece cut.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in tag_line {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h | 1
}

impl Head {
    fn of(text: &[u8]) -> Head {
        let marks = text.iter().take_while(|&&b| b == b'%').count();
        let rest = &text[marks..];
        let key = rest
            .iter()
            .take(TAG_BYTES)
            .position(|&b| b == b'\n')
            .map_or(NO_KEY, |end| key_of(&rest[..=end]));
        Head {
            marks: marks.min(255) as u8,
            first: rest.first().copied().unwrap_or(0),
            key,
        }
    }
}

/// Which pieces a rewrite can match in, from where its matches start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Want {
    /// Every piece, the text before the first thread included.
    Any,
    /// Threads with two marks or more (`%%`).
    Active,
    /// Threads whose marks are followed by `` ` ``.
    Marked,
    /// Threads whose marks are followed by this tag's key; `NO_KEY` for a
    /// tag too long to key, which any thread may hold.
    Tagged(u64),
}

impl Want {
    fn of(reach: &Reach) -> Option<Want> {
        Some(match reach {
            Reach::Global => return None,
            Reach::AnyPiece => Want::Any,
            Reach::Active => Want::Active,
            Reach::Marked => Want::Marked,
            Reach::Tagged(tag) if tag.len() < TAG_BYTES => {
                Want::Tagged(key_of(format!("{tag}\n").as_bytes()))
            }
            Reach::Tagged(_) => Want::Tagged(NO_KEY),
        })
    }

    fn takes(self, head: Head) -> bool {
        match self {
            Want::Any => true,
            Want::Active => head.marks >= 2,
            Want::Marked => head.marks >= 1 && head.first == b'`',
            Want::Tagged(NO_KEY) => head.marks >= 1,
            Want::Tagged(key) => head.marks >= 1 && head.key == key,
        }
    }
}

/// What the pieces a rewrite visits must be for its matches to lie
/// inside them (see `analysis::Lined`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Needs {
    /// Nothing: its matches lie inside one piece on any state.
    Nothing,
    /// Each ends with `\n` (or is the last): no match holds `\n%`.
    Ended,
    /// Each ends with `\n` (or is the last) and holds more newlines
    /// than this.
    Beyond(usize),
}

/// Whether and how a rewrite runs on the table of threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct OnTable {
    want: Want,
    needs: Needs,
}

impl OnTable {
    /// From a pattern's analysis: confined patterns on any table, lined
    /// ones on the pieces that keep their matches in.
    pub(super) fn of(analysis: &Analysis) -> Option<OnTable> {
        if analysis.reach != Reach::Global && !analysis.looks {
            return Some(OnTable {
                want: Want::of(&analysis.reach)?,
                needs: Needs::Nothing,
            });
        }
        let lined = analysis.lined.as_ref()?;
        let needs = match lined.cross {
            None => Needs::Ended,
            Some(usize::MAX) => return None,
            Some(n) => Needs::Beyond(n),
        };
        Some(OnTable {
            want: Want::of(&lined.reach)?,
            needs,
        })
    }
}

/// One piece: its text's place in the arena and its head.
#[derive(Clone, Copy, Debug)]
struct Piece {
    start: usize,
    end: usize,
    head: Head,
    /// Its newlines, once counted (`UNCOUNTED` before).
    lines: u32,
}

const UNCOUNTED: u32 = u32::MAX;

impl Piece {
    fn new(bytes: &[u8], start: usize, end: usize) -> Piece {
        Piece {
            start,
            end,
            head: Head::of(&bytes[start..end]),
            lines: UNCOUNTED,
        }
    }

    /// The text before the first thread, `bytes[..end]`.
    fn first(end: usize) -> Piece {
        Piece {
            start: 0,
            end,
            head: Head::default(),
            lines: UNCOUNTED,
        }
    }
}

/// The state cut into pieces (see the module doc), and the buffers a
/// stretch reuses.
#[derive(Default)]
pub(super) struct Table {
    /// Every piece's text lives here; changed texts are appended.
    arena: String,
    /// Piece 0 (the text before the first thread), then one per thread.
    pieces: Vec<Piece>,
    /// The state's length: the sum of the pieces'.
    len: usize,
    /// The arena is the pieces' texts in order and nothing else.
    flat: bool,
    /// One more each time a piece comes or goes or its head changes.
    heads_version: u64,
    /// The pieces whose head a [`Want`] takes (empty ones too), and the
    /// want and heads' version they were gathered for: consecutive
    /// rewrites of one kind of thread read them instead of every head.
    wanted: Vec<usize>,
    wanted_for: Option<(Want, u64)>,
    /// Scratch: the pieces a step visits, its changes, the next pieces,
    /// the buffer the state is assembled in.
    visit: Vec<usize>,
    changes: Vec<(usize, Range<usize>)>,
    next: Vec<Piece>,
    spare: String,
}

/// How a step ran on the table.
enum Ran {
    /// On the pieces: what it did.
    Table(Did),
    /// Not at all: the whole state must run it.
    Whole,
}

impl Table {
    /// Takes `state` in as the arena and cuts it.
    fn cut(&mut self, state: &mut String) {
        std::mem::swap(&mut self.arena, state);
        state.clear();
        self.len = self.arena.len();
        self.flat = true;
        self.heads_version += 1;
        self.pieces.clear();
        let bytes = self.arena.as_bytes();
        let first = memchr::memchr(b'%', bytes).unwrap_or(bytes.len());
        self.pieces.push(Piece::first(first));
        push_threads(&mut self.pieces, bytes, first, bytes.len());
    }

    /// Gives the state back in `state` (whose buffer the table keeps).
    fn assemble(&mut self, state: &mut String) {
        if !self.flat {
            self.compact();
        }
        std::mem::swap(state, &mut self.arena);
        self.arena.clear();
        self.pieces.clear();
        self.len = 0;
    }

    /// Copies the pieces' texts, in order, to a fresh arena.
    fn compact(&mut self) {
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        out.reserve(self.len);
        for p in &mut self.pieces {
            let start = out.len();
            out.push_str(&self.arena[p.start..p.end]);
            (p.start, p.end) = (start, out.len());
        }
        self.spare = std::mem::replace(&mut self.arena, out);
        self.flat = true;
    }

    /// Threads: the pieces after the first.
    fn threads(&self) -> usize {
        self.pieces.len() - 1
    }

    /// Gathers the pieces a rewrite can match in; `false` when one of
    /// them is not as the rewrite needs (its matches might leave it).
    fn gather(&mut self, on: OnTable) -> bool {
        if self.wanted_for != Some((on.want, self.heads_version)) {
            self.wanted.clear();
            let takes = |(i, p): (usize, &Piece)| on.want.takes(p.head).then_some(i);
            self.wanted
                .extend(self.pieces.iter().enumerate().filter_map(takes));
            self.wanted_for = Some((on.want, self.heads_version));
        }
        self.visit.clear();
        let last = self.pieces.len() - 1;
        for &i in &self.wanted {
            let p = &mut self.pieces[i];
            // A rewrite on the table never matches the empty text.
            if p.end == p.start {
                continue;
            }
            self.visit.push(i);
            let ended = i == last || self.arena.as_bytes()[p.end - 1] == b'\n';
            let fits = match on.needs {
                Needs::Nothing => true,
                Needs::Ended => ended,
                Needs::Beyond(n) => {
                    if p.lines == UNCOUNTED {
                        let text = &self.arena.as_bytes()[p.start..p.end];
                        p.lines = memchr::memchr_iter(b'\n', text).count() as u32;
                    }
                    ended && p.lines as usize > n
                }
            };
            if !fits {
                return false;
            }
        }
        true
    }

    /// Takes a step's changes (in piece order); `false`, the table
    /// unchanged, when a changed text would join a piece to the one
    /// before it (the caller then cuts the assembled state anew).
    fn commit(&mut self) -> bool {
        let bytes = self.arena.as_bytes();
        let last = self.pieces.len() - 1;
        let mut same_count = true;
        for (i, r) in &self.changes {
            let t = &bytes[r.clone()];
            let starts = match *i {
                0 => true,
                _ => t.is_empty() || t[0] == b'%',
            };
            if !starts || (*i != last && t.last() == Some(&b'%')) {
                return false;
            }
            same_count &= match *i {
                0 => memchr::memchr(b'%', t).is_none(),
                _ => !t.is_empty() && !has_inner_cut(t),
            };
        }
        self.flat = false;
        if same_count {
            for (i, r) in &self.changes {
                let next = match *i {
                    0 => Piece {
                        start: r.start,
                        ..Piece::first(r.end)
                    },
                    _ => Piece::new(bytes, r.start, r.end),
                };
                if next.head != self.pieces[*i].head {
                    self.heads_version += 1;
                }
                self.pieces[*i] = next;
            }
            return true;
        }
        self.heads_version += 1;
        self.next.clear();
        let mut changes = self.changes.iter().peekable();
        for (i, p) in self.pieces.iter().enumerate() {
            let Some((_, r)) = changes.next_if(|(j, _)| *j == i) else {
                self.next.push(*p);
                continue;
            };
            let (from, to) = (r.start, r.end);
            let from = if i == 0 {
                let first = memchr::memchr(b'%', &bytes[from..to]).map_or(to, |k| from + k);
                self.next.push(Piece {
                    start: from,
                    ..Piece::first(first)
                });
                first
            } else {
                from
            };
            push_threads(&mut self.next, bytes, from, to);
        }
        std::mem::swap(&mut self.pieces, &mut self.next);
        true
    }

    /// The state after a step whose changes [`Table::commit`] refused,
    /// cut anew.
    fn recut(&mut self) {
        let mut out = String::with_capacity(self.len);
        let mut changes = self.changes.iter().peekable();
        for (i, p) in self.pieces.iter().enumerate() {
            let r = match changes.next_if(|(j, _)| *j == i) {
                Some((_, r)) => r.clone(),
                None => p.start..p.end,
            };
            out.push_str(&self.arena[r]);
        }
        self.cut(&mut out);
    }
}

/// Whether a thread's text holds a thread start past its first byte.
fn has_inner_cut(t: &[u8]) -> bool {
    memchr::memchr_iter(b'%', t).any(|i| i > 0 && t[i - 1] != b'%')
}

/// Pushes the threads of `bytes[from..to]`, which starts at a thread start
/// (or is empty), one piece each.
fn push_threads(out: &mut Vec<Piece>, bytes: &[u8], from: usize, to: usize) {
    if from == to {
        return;
    }
    let mut start = from;
    for i in memchr::memchr_iter(b'%', &bytes[from + 1..to]).map(|k| from + 1 + k) {
        if bytes[i - 1] != b'%' {
            out.push(Piece::new(bytes, start, i));
            start = i;
        }
    }
    out.push(Piece::new(bytes, start, to));
}

/// Gives the state back from the table, when the table holds it.
fn give_back(held: &mut bool, table: &mut Table, state: &mut String, lane: &mut LoopState<'_>) {
    if std::mem::take(held) {
        table.assemble(state);
        lane.found.version += 1;
    }
}

impl Executor {
    /// Runs the stretch `steps` of confined rewrites on the state as a
    /// table of threads (see the module doc); `false`, with the state
    /// untouched and nothing counted, when its first step has so many
    /// threads to visit that the whole state is the cheaper way (the
    /// caller then runs the stretch as before). A step with too many
    /// threads to visit later in the stretch runs on the whole state, and
    /// so does the rest of the stretch.
    pub(super) fn run_table(
        &self,
        steps: Range<usize>,
        state: &mut String,
        lane: &mut LoopState<'_>,
        stats: &mut Stats,
        table: &mut Table,
    ) -> Result<bool, ExecError> {
        let Some(on) = self.steps[steps.start].on_table else {
            return Ok(false);
        };
        table.cut(state);
        if !self.worth(table, on) {
            table.assemble(state);
            return Ok(false);
        }
        // Whether the table holds the state (else `state` does).
        let mut held = true;
        for index in steps {
            if let Err(e) = check_stop(lane.stop, index) {
                give_back(&mut held, table, state, lane);
                return Err(e);
            }
            let t0 = self.config.profile.then(Instant::now);
            let ran = match (held, self.steps[index].on_table) {
                (true, Some(on)) => self.table_step(index, on, table, lane),
                _ => Ran::Whole,
            };
            let (did, len, threads) = match ran {
                Ran::Table(did) => {
                    stats.on_table += 1;
                    (did, table.len, table.threads())
                }
                Ran::Whole => {
                    give_back(&mut held, table, state, lane);
                    let did = self.step(index, state, lane)?;
                    let threads = if did.changed && self.steps[index].adds_threads {
                        crate::state::count_heads(state)
                    } else {
                        0
                    };
                    (did, state.len(), threads)
                }
            };
            if self.config.profile {
                stats
                    .per_rewrite
                    .push(t0.map_or(Duration::ZERO, |t| t.elapsed()));
            }
            self.count(index, did, len, || threads, stats);
            if did.changed {
                if let Err(e) = self.check_size(index, len) {
                    give_back(&mut held, table, state, lane);
                    return Err(e);
                }
            }
        }
        give_back(&mut held, table, state, lane);
        Ok(true)
    }

    /// Whether a table whose first rewrite runs `on` it is worth
    /// keeping.
    fn worth(&self, table: &mut Table, on: OnTable) -> bool {
        table.gather(on) && table.visit.len() * self.config.visit_bytes <= table.len
    }

    /// Rewrite `index` on the pieces it can match in.
    fn table_step(
        &self,
        index: usize,
        on: OnTable,
        table: &mut Table,
        lane: &mut LoopState<'_>,
    ) -> Ran {
        if !table.gather(on)
            || table.visit.len() * self.config.visit_bytes > table.len.max(self.config.table_bytes)
        {
            return Ran::Whole;
        }
        let step = &self.steps[index];
        let strategy = &self.strategies[step.strategy];
        let at = At {
            rewrite: index,
            from: 0,
            ascii: lane.ascii,
            stop: lane.stop,
        };
        table.changes.clear();
        let mut len = table.len;
        for k in 0..table.visit.len() {
            let p = table.pieces[table.visit[k]];
            let text = &table.arena[p.start..p.end];
            match strategy.apply(&step.edit, text, at, lane.pad) {
                Ok(None) => {}
                Ok(Some(next)) => {
                    len = len + next.len() - (p.end - p.start);
                    let start = table.arena.len();
                    table.arena.push_str(&next);
                    lane.pad.spare.recycle(next);
                    table
                        .changes
                        .push((table.visit[k], start..table.arena.len()));
                }
                // The whole state runs it, and reports the error if it
                // is one there.
                Err(_) => return Ran::Whole,
            }
        }
        let changed = !table.changes.is_empty();
        if changed {
            if !table.commit() {
                table.len = len;
                table.recut();
            }
            table.len = len;
            if table.arena.len() > 2 * table.len + (64 << 10) {
                table.compact();
            }
        }
        Ran::Table(Did {
            ran: !table.visit.is_empty(),
            changed,
        })
    }
}
