//! Replace-all: one rewrite applied to one text, every match replaced.
//!
//! This module owns the ways the executor finds a pattern's matches in a
//! text and writes the next text: at each place a literal start occurs
//! (`replace_at_prefixes`, with the places of a skip needle passed over),
//! on our own matcher, on `regex` anchored at a place, as a literal, on
//! fancy-regex, and the [`Scratchpad`] a loop keeps for them between
//! rewrites (the buffer the next text is built in, our matcher's stack),
//! which the caller passes in. Each is exact for the patterns the executor
//! hands it (portable ones where it tries a pattern at a place); which one
//! a rewrite takes, and when, is decided in `prepare` and `strategy`. It
//! knows nothing of programs, gates or statistics.

use std::borrow::Cow;

use super::analysis::{Edge, GroupEdges};
use super::backtrack::{self, Matcher, Scratch};
use crate::program::{Piece, Template};

/// Steps our own matcher may take in one replace-all, plus 16 per byte of
/// text, before the `regex` crate takes over.
pub(crate) const BACKTRACK_BUDGET: usize = 200_000;

/// Places a skip needle is tried on before it is dropped, if it passed
/// over fewer than a quarter of them.
pub(crate) const SKIP_TRIAL: usize = 32;

/// Appends `template` with each group reference read through `group`
/// (a group that did not take part adds nothing).
pub(crate) fn expand<'h>(
    template: &Template,
    out: &mut String,
    group: impl Fn(usize) -> Option<&'h str>,
) {
    for p in template.pieces() {
        match p {
            Piece::Literal(s) => out.push_str(s),
            Piece::Group(n) => out.push_str(group(*n).unwrap_or_default()),
        }
    }
}

/// One way of matching at a place and writing the replacement, for
/// [`replace_at_prefixes`].
trait AtPlace<'t> {
    type Error;
    /// Whether the pattern matches at the start of `rest`, and how long
    /// the match is; what [`AtPlace::write`] needs is kept.
    fn try_at(&mut self, rest: &'t str) -> Result<Option<usize>, Self::Error>;
    /// Appends the replacement of the match just found at `rest`.
    fn write(&mut self, rest: &'t str, out: &mut String);
    /// Whether a place is worth cutting to its piece (see
    /// [`Places::head_marks`]) before [`AtPlace::try_at`]: not when the
    /// search stops at the first `%` anyway at no cost.
    fn wants_piece(&self) -> bool {
        true
    }
    /// Told that the next `rest` is cut to its piece, whose `%` marks are
    /// its first `marks` bytes.
    fn in_piece(&mut self, _marks: Option<usize>) {}
}

/// Replace-all where every match starts with a literal `prefix`: the
/// leftmost match at or after a position starts at the first occurrence of
/// the prefix there where the pattern, anchored, matches. So the prefix is
/// found with `memmem` and the pattern tried only there. Exact for
/// portable patterns: they have no look-around, no word boundary and no
/// `^` but at the start, so the text before a place cannot change what
/// matches there. With a skip needle (a literal every match contains
/// past its start, the pattern confined to one piece of the state), a
/// place is passed over, up to the start of the piece where the needle
/// next occurs, when its own piece ends before that occurrence. The
/// output is sized once, at the first match, and each replacement is
/// written straight into it.
fn replace_at_prefixes<'t, P: AtPlace<'t>>(
    places: Places<'_>,
    text: &'t str,
    mut place: P,
    spare: &mut Spare,
) -> Result<Cow<'t, str>, P::Error> {
    let mut out = spare.take();
    let (mut last, mut at, mut any) = (0, places.from, false);
    let bytes = text.as_bytes();
    // The first occurrence of the skip needle at or after the last place.
    let mut needle: Option<usize> = None;
    let mut skip = places.skip;
    // Places checked against the needle, and how many it passed over: a
    // needle most pieces have is dropped after a while.
    let (mut checked, mut passed) = (0usize, 0usize);
    while let Some(i) = places.prefix.find(&bytes[at..]) {
        let start = at + i;
        if let Some(finder) = skip {
            if needle.is_none_or(|n| n < start) {
                match finder.find(&bytes[start..]) {
                    Some(j) => needle = Some(start + j),
                    None => break,
                }
            }
            checked += 1;
            if let Some(head) = needle.and_then(|n| piece_head_between(bytes, start, n)) {
                passed += 1;
                at = head;
                continue;
            }
            if checked >= SKIP_TRIAL && passed * 4 < checked {
                skip = None;
            }
        }
        // A long `[^%]*` span (or any other) never looks past the piece.
        let marks = places.head_marks.filter(|_| place.wants_piece());
        let end = marks.map_or(text.len(), |marks| piece_end(bytes, start, marks));
        place.in_piece(marks);
        let rest = &text[start..end];
        match place.try_at(rest)? {
            Some(len) => {
                if !any {
                    any = true;
                    out.reserve(text.len() + text.len() / 4 + 64);
                }
                out.push_str(&text[last..start]);
                place.write(rest, &mut out);
                last = start + len;
                // Portable patterns cannot match the empty string, but
                // never loop on one.
                at = last.max(start + 1);
            }
            None => at = start + 1,
        }
    }
    if !any {
        spare.recycle(out);
        return Ok(Cow::Borrowed(text));
    }
    out.push_str(&text[last..]);
    Ok(Cow::Owned(out))
}

/// What one loop over a text keeps for replace-all from one rewrite to
/// the next: the buffer the next text is built in, and our own matcher's
/// stack and slots (allocated once per loop rather than once per rewrite).
#[derive(Default)]
pub(crate) struct Scratchpad {
    pub(crate) spare: Spare,
    pub(crate) matcher: Scratch,
}

/// A buffer to build the next text in: the text a rewrite replaced, kept
/// for the next one (an allocation and a free per change saved, which on
/// small states is a fair part of a rewrite).
#[derive(Default)]
pub(crate) struct Spare(String);

impl Spare {
    /// An empty buffer, with the capacity of the last text recycled.
    fn take(&mut self) -> String {
        let mut out = std::mem::take(&mut self.0);
        out.clear();
        out
    }

    /// Keeps `buffer` for the next [`Spare::take`] (the larger, if one is
    /// kept).
    pub(crate) fn recycle(&mut self, buffer: String) {
        if buffer.capacity() > self.0.capacity() {
            self.0 = buffer;
        }
    }
}

/// Where [`replace_at_prefixes`] tries a pattern: where `prefix` occurs,
/// and, given `skip`, only in pieces of the state (the text before the
/// first thread, or one thread) that contain it from that place on.
#[derive(Clone, Copy)]
pub(crate) struct Places<'a> {
    pub(crate) prefix: &'a memchr::memmem::Finder<'static>,
    pub(crate) skip: Option<&'a memchr::memmem::Finder<'static>>,
    /// No match starts before this.
    pub(crate) from: usize,
    /// `Some(n)` when every match lies inside the piece it starts in and
    /// its first `n` bytes are that piece's `%` marks (a thread head's; 0
    /// for a pattern that never matches `%`): each place is then tried on
    /// its piece only, up to the first `%` past those (see [`piece_end`]).
    pub(crate) head_marks: Option<usize>,
}

/// Where the piece a place starts in ends, for a pattern whose matches
/// start with `marks` bytes `%` (at most that many are skipped) and
/// contain no `%` after them: the first `%` past them, or the text's end.
/// Exact: such a match cannot reach that `%`, and a portable pattern has
/// no assertion that could see where the text it is given ends, so the
/// match at the place is the same on the piece as on the rest of the text.
pub(crate) fn piece_end(bytes: &[u8], start: usize, marks: usize) -> usize {
    let mut from = start;
    while from < bytes.len() && from - start < marks && bytes[from] == b'%' {
        from += 1;
    }
    memchr::memchr(b'%', &bytes[from..]).map_or(bytes.len(), |i| from + i)
}

/// `replace_all` run on the text from `from` on (no match starts before
/// it), with the text before put back in front. Exact for portable
/// patterns: nothing before a place changes what matches there.
pub(crate) fn from_place<'t>(
    text: &'t str,
    from: usize,
    replace_all: impl FnOnce(&'t str) -> Cow<'t, str>,
) -> Cow<'t, str> {
    match replace_all(&text[from..]) {
        Cow::Owned(rest) if from > 0 => {
            let mut out = String::with_capacity(from + rest.len());
            out.push_str(&text[..from]);
            out.push_str(&rest);
            Cow::Owned(out)
        }
        next => next,
    }
}

/// The start of the last piece that begins in `start + 1 ..= end` (a `%`
/// not right after a `%`), if one does: a match starting at `start` that
/// stays in its piece cannot reach `end` then.
pub(crate) fn piece_head_between(bytes: &[u8], start: usize, end: usize) -> Option<usize> {
    let last = start + 1 + memchr::memrchr(b'%', bytes.get(start + 1..=end)?)?;
    let mut head = last;
    while head > 0 && bytes[head - 1] == b'%' {
        head -= 1;
    }
    (head > start).then_some(head)
}

/// A plain pattern whose matches all start with a literal (a thread head
/// or another), run as `^(?:pattern)` only where the literal is: one
/// forward search per place instead of a forward, a reverse and a capture
/// search over the text.
pub(crate) fn anchored_replace_all<'t>(
    places: Places<'_>,
    regex: &regex::Regex,
    text: &'t str,
    literal: Option<&str>,
    groups: Option<&[GroupEdges]>,
    template: &Template,
    spare: &mut Spare,
) -> Cow<'t, str> {
    struct Anchored<'a> {
        regex: &'a regex::Regex,
        locs: regex::CaptureLocations,
        literal: Option<&'a str>,
        /// The groups, when they can be cut from the whole match.
        groups: Option<&'a [GroupEdges]>,
        /// The length of the match just found, when `groups` is known.
        len: usize,
        template: &'a Template,
    }
    impl<'t> AtPlace<'t> for Anchored<'_> {
        type Error = std::convert::Infallible;
        fn try_at(&mut self, rest: &'t str) -> Result<Option<usize>, Self::Error> {
            Ok(match (self.literal, self.groups) {
                (Some(_), _) => self.regex.find(rest).map(|m| m.end()),
                (None, Some(_)) => self.regex.find(rest).map(|m| {
                    self.len = m.end();
                    m.end()
                }),
                (None, None) => self
                    .regex
                    .captures_read(&mut self.locs, rest)
                    .map(|m| m.end()),
            })
        }
        fn write(&mut self, rest: &'t str, out: &mut String) {
            match (self.literal, self.groups) {
                (Some(lit), _) => out.push_str(lit),
                (None, Some(groups)) => {
                    let whole = &rest[..self.len];
                    expand(self.template, out, |n| fixed_group(groups, n, whole));
                }
                (None, None) => expand(self.template, out, |n| {
                    self.locs.get(n).map(|(s, e)| &rest[s..e])
                }),
            }
        }
    }
    let place = Anchored {
        regex,
        locs: regex.capture_locations(),
        literal,
        groups,
        len: 0,
        template,
    };
    match replace_at_prefixes(places, text, place, spare) {
        Ok(cow) => cow,
        Err(never) => match never {},
    }
}

/// A plain pattern whose matches all start with `prefix`, run by our own
/// matcher only where the prefix is (see [`backtrack`]). The text must be
/// ASCII. Gives up, changing nothing, when the search runs past a budget
/// that grows with the text.
pub(crate) fn backtrack_replace_all<'t>(
    places: Places<'_>,
    matcher: &Matcher,
    text: &'t str,
    template: &Template,
    pad: &mut Scratchpad,
) -> Result<Cow<'t, str>, backtrack::GaveUp> {
    let place = Backtracking {
        matcher,
        template,
        scratch: &mut pad.matcher,
        budget: BACKTRACK_BUDGET + 16 * text.len(),
        marks: None,
    };
    replace_at_prefixes(places, text, place, &mut pad.spare)
}

/// Our own matcher at one place (see [`backtrack_replace_all`]).
struct Backtracking<'a> {
    matcher: &'a Matcher,
    template: &'a Template,
    scratch: &'a mut Scratch,
    /// Steps left for the whole rewrite.
    budget: usize,
    /// The place is cut to its piece, with this many `%` marks.
    marks: Option<usize>,
}

impl<'t> AtPlace<'t> for Backtracking<'_> {
    type Error = backtrack::GaveUp;

    fn try_at(&mut self, rest: &'t str) -> Result<Option<usize>, Self::Error> {
        let (hay, scratch, budget) = (rest.as_bytes(), &mut *self.scratch, &mut self.budget);
        let found = match self.marks {
            Some(marks) => self
                .matcher
                .find_anchored_in_piece(hay, marks, scratch, budget)?,
            None => self.matcher.find_anchored(hay, scratch, budget)?,
        };
        Ok(found.then(|| self.scratch.slots[1]))
    }

    /// Only a `[^%]` run looks as far as the next `%`, and it finds that
    /// `%` itself: cutting first saves nothing unless the run can then
    /// skip its own search.
    fn wants_piece(&self) -> bool {
        self.matcher.has_piece_runs()
    }

    fn in_piece(&mut self, marks: Option<usize>) {
        self.marks = marks;
    }

    fn write(&mut self, rest: &'t str, out: &mut String) {
        let slots = &self.scratch.slots;
        expand(self.template, out, |n| {
            let (s, e) = (*slots.get(2 * n)?, *slots.get(2 * n + 1)?);
            (s != usize::MAX && e != usize::MAX).then(|| &rest[s..e])
        });
    }
}

/// A pattern that is literal text: its occurrences, found by `memmem`, are
/// its matches (the template's only possible group is the whole match).
pub(crate) fn literal_replace_all<'t>(
    finder: &memchr::memmem::Finder<'static>,
    text: &'t str,
    template: &Template,
    from: usize,
    spare: &mut Spare,
) -> Cow<'t, str> {
    let len = finder.needle().len();
    let places = Places {
        prefix: finder,
        skip: None,
        from,
        head_marks: None,
    };
    struct Literal<'a> {
        len: usize,
        template: &'a Template,
    }
    impl<'t> AtPlace<'t> for Literal<'_> {
        type Error = std::convert::Infallible;
        fn try_at(&mut self, _: &'t str) -> Result<Option<usize>, Self::Error> {
            Ok(Some(self.len))
        }
        fn write(&mut self, rest: &'t str, out: &mut String) {
            expand(self.template, out, |n| (n == 0).then(|| &rest[..self.len]));
        }
    }
    match replace_at_prefixes(places, text, Literal { len, template }, spare) {
        Ok(cow) => cow,
        Err(never) => match never {},
    }
}

/// The text of group `n` of `whole`, a match of a pattern whose groups
/// lie at `groups` (see [`super::analysis::fixed_groups`]).
fn fixed_group<'h>(groups: &[GroupEdges], n: usize, whole: &'h str) -> Option<&'h str> {
    let at = |edge: Edge| match edge {
        Edge::FromStart(k) => Some(k),
        Edge::FromEnd(k) => whole.len().checked_sub(k),
    };
    match n {
        0 => Some(whole),
        _ => {
            let &(start, end) = groups.get(n - 1)?;
            whole.get(at(start)?..at(end)?)
        }
    }
}

/// Replace-all on the `regex` crate for a pattern whose groups all lie a
/// fixed number of bytes from the ends of the whole match (see
/// [`super::analysis::fixed_groups`]): only the whole match is searched
/// for (a forward and a reverse scan), the groups are cut from it, and the
/// capture search that `replace_all` runs on every match is saved. The
/// matches are those of `replace_all`: the same iteration, the same spans.
pub(crate) fn fixed_replace_all<'t>(
    regex: &regex::Regex,
    groups: &[GroupEdges],
    text: &'t str,
    template: &Template,
    spare: &mut Spare,
) -> Cow<'t, str> {
    let mut out: Option<String> = None;
    let mut last = 0;
    for m in regex.find_iter(text) {
        let out = out.get_or_insert_with(|| {
            let mut out = spare.take();
            out.reserve(text.len() + text.len() / 4 + 64);
            out
        });
        out.push_str(&text[last..m.start()]);
        let whole = m.as_str();
        expand(template, out, |n| fixed_group(groups, n, whole));
        last = m.end();
    }
    match out {
        Some(mut out) => {
            out.push_str(&text[last..]);
            Cow::Owned(out)
        }
        None => Cow::Borrowed(text),
    }
}

/// Expands a [`Template`] for the `regex` crate.
pub(crate) struct Expand<'a>(pub(crate) &'a Template);

impl regex::Replacer for Expand<'_> {
    fn replace_append(&mut self, caps: &regex::Captures<'_>, dst: &mut String) {
        expand(self.0, dst, |n| caps.get(n).map(|m| m.as_str()));
    }
}

/// Replace-all on `fancy-regex` for a back-reference pattern every match
/// of which starts with a literal, reporting engine failures instead of
/// panicking: `regex` is the pattern anchored at the start, tried only at
/// the places where the literal occurs (see [`replace_at_prefixes`]),
/// each cut to its piece when `cut` (only when no backtracking budget
/// applies: see `Fancy::wants_piece`).
pub(crate) fn fancy_anchored_replace_all<'t>(
    regex: &fancy_regex::Regex,
    places: Places<'_>,
    cut: bool,
    text: &'t str,
    template: &Template,
    spare: &mut Spare,
) -> Result<Cow<'t, str>, fancy_regex::Error> {
    struct Fancy<'a> {
        regex: &'a fancy_regex::Regex,
        template: &'a Template,
        /// The spans of the groups of the match just found.
        spans: Vec<Option<(usize, usize)>>,
        /// Places may be cut to their piece.
        cut: bool,
    }
    impl<'t> AtPlace<'t> for Fancy<'_> {
        type Error = fancy_regex::Error;
        fn try_at(&mut self, rest: &'t str) -> Result<Option<usize>, Self::Error> {
            let Some(caps) = self.regex.captures(rest)? else {
                return Ok(None);
            };
            let Some(whole) = caps.get(0) else {
                return Ok(None);
            };
            self.spans.clear();
            self.spans
                .extend(caps.iter().map(|g| g.map(|m| (m.start(), m.end()))));
            Ok(Some(whole.end()))
        }
        /// fancy-regex's backtracking budget counts steps, and the
        /// plain loop hands it the whole text: under a budget a cut
        /// place could pass where the plain loop fails, so it is cut
        /// only when there is none (`regex-chess run`'s programs).
        fn wants_piece(&self) -> bool {
            self.cut
        }
        fn write(&mut self, rest: &'t str, out: &mut String) {
            let spans = &self.spans;
            expand(self.template, out, |n| {
                spans.get(n).copied().flatten().map(|(s, e)| &rest[s..e])
            });
        }
    }
    let place = Fancy {
        regex,
        template,
        spans: Vec::new(),
        cut,
    };
    replace_at_prefixes(places, text, place, spare)
}

/// Replace-all on `fancy-regex` over the text from `from` on (no match
/// starts before it), reporting engine failures instead of panicking.
pub(crate) fn fancy_replace_all<'t>(
    re: &fancy_regex::Regex,
    text: &'t str,
    template: &Template,
    from: usize,
) -> Result<Cow<'t, str>, fancy_regex::Error> {
    let mut out = String::new();
    let (mut last, mut any) = (0, false);
    let rest = &text[from..];
    for caps in re.captures_iter(rest) {
        let caps = caps?;
        let Some(whole) = caps.get(0) else { continue };
        if !any {
            out.push_str(&text[..from]);
            any = true;
        }
        out.push_str(&rest[last..whole.start()]);
        expand(template, &mut out, |n| caps.get(n).map(|m| m.as_str()));
        last = whole.end();
    }
    if !any {
        return Ok(Cow::Borrowed(text));
    }
    out.push_str(&rest[last..]);
    Ok(Cow::Owned(out))
}
