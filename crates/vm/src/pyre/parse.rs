//! Python's pattern syntax: a `str` pattern read as CPython 3.11's
//! `re.compile` reads it (no `flags` argument: flags come inline), into
//! the tree of `ast`, or the error CPython raises.
//!
//! It owns the structure of a pattern: alternation, sequences, groups
//! (capturing, named, non-capturing, look-ahead and look-behind, atomic,
//! conditional, comments), inline flags (global ones only at the start,
//! scoped ones for a group), verbose mode, quantifiers (`{,n}`, a `{` that
//! starts no quantifier is a literal, lazy and possessive forms), and the
//! checks CPython makes: back-references to closed groups only, group
//! names, look-behind of fixed width. Escapes and classes are `escape`'s,
//! the inline flag letters `flags`'.
//! Every refusal CPython makes is a refusal here, at a position counted
//! in characters as CPython counts it; the one refusal of ours is a
//! nesting deeper than [`MAX_NESTING`] groups (CPython's parser recurses
//! and gives up near 500). The recursion of this parser is bounded by
//! that limit. It runs nothing.

use std::collections::HashMap;

use super::ast::{self, Anchor, CharTest, Greed, Node, UNBOUNDED};
use super::cursor::{error, Cursor, PatternError};
use super::escape::{self, Escaped, Item};
use super::flags::{self, fold_of, is_flag_start, Flags, Inline};
use super::unicode;

/// The deepest nesting of groups we read (ours, a stated limit: CPython's
/// recursive parser raises `RecursionError` near 500).
pub(crate) const MAX_NESTING: usize = 400;

/// A pattern, parsed.
#[derive(Debug, Clone)]
pub(crate) struct Parsed {
    /// The tree.
    pub(crate) node: Node,
    /// Number of capturing groups.
    pub(crate) groups: usize,
    /// Group names and their numbers.
    pub(crate) names: HashMap<String, usize>,
}

/// Parses `pattern` as CPython 3.11 does.
///
/// # Errors
///
/// [`PatternError`] wherever `re.compile(pattern)` raises.
pub(crate) fn parse(pattern: &str) -> Result<Parsed, PatternError> {
    let mut p = Parser {
        text: Cursor::new(pattern),
        groups: 0,
        open: Vec::new(),
        names: HashMap::new(),
        widths: vec![(0, 0)],
        lookbehind: None,
        global: Flags::default(),
        top_started: false,
        cond_refs: Vec::new(),
    };
    let node = p.alternation(0)?;
    if p.text.pos < p.text.chars.len() {
        // Only a `)` stops the top level early.
        return Err(error("unbalanced parenthesis", p.text.pos));
    }
    for &(group, pos) in &p.cond_refs {
        if group > p.groups {
            return Err(error(format!("invalid group reference {group}"), pos));
        }
    }
    Ok(Parsed {
        node,
        groups: p.groups,
        names: p.names,
    })
}

/// The class items of a character item (a literal, a class that is not
/// negated, a category), which an alternation of such items joins.
pub(crate) type Spec = Vec<(Item, Option<u32>)>;

/// The last item of a sequence, for what a quantifier after it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Last {
    /// Nothing yet (or an assertion): "nothing to repeat".
    Nothing,
    /// A quantified item: "multiple repeat".
    Quantified,
    /// Something a quantifier applies to.
    Item,
}

pub(crate) struct Parser {
    /// The pattern and the place being read.
    text: Cursor,
    /// Groups opened so far.
    groups: usize,
    /// Groups open now.
    open: Vec<usize>,
    names: HashMap<String, usize>,
    /// The width of each closed group (index 0 unused).
    widths: Vec<(u32, u32)>,
    /// Groups opened before the outermost look-behind we are in.
    lookbehind: Option<usize>,
    /// The global flags.
    pub(crate) global: Flags,
    /// Something other than global flags and comments was read at the
    /// top level.
    top_started: bool,
    /// Conditionals' group numbers, checked against the total at the end.
    cond_refs: Vec<(usize, usize)>,
}

impl Parser {
    /// Alternatives up to a `)` or the end, at nesting `depth`.
    fn alternation(&mut self, depth: usize) -> Result<Node, PatternError> {
        let branches = self.branches(depth, None)?;
        let flags = self.global;
        Ok(self.join(branches, flags).0)
    }

    /// The branches of an alternation, each with its class items when it
    /// is one character item (see [`Spec`]); `flags` are the scope's (the
    /// global ones at the top).
    fn branches(
        &mut self,
        depth: usize,
        flags: Option<Flags>,
    ) -> Result<Vec<(Node, Option<Spec>)>, PatternError> {
        let mut branches = vec![self.sequence(depth, flags)?];
        while self.text.eat('|') {
            if depth == 0 {
                self.top_started = true;
            }
            branches.push(self.sequence(depth, flags)?);
        }
        Ok(branches)
    }

    /// An alternation's node. Like CPython, an alternation of two or more
    /// branches that are each one character item (a literal, a class that
    /// is not negated, a category) is read as one class of all their
    /// items, with a class's case folding (which differs from a
    /// literal's for astral letters: `(?i)\U00010400|a` does not match
    /// `\U00010400`, measured).
    fn join(&self, branches: Vec<(Node, Option<Spec>)>, flags: Flags) -> (Node, Option<Spec>) {
        if branches.len() == 1 {
            return branches.into_iter().next().unwrap_or((Node::Empty, None));
        }
        if branches.iter().all(|(_, spec)| spec.is_some()) {
            let items: Spec = branches
                .into_iter()
                .flat_map(|(_, s)| s.unwrap_or_default())
                .collect();
            let node = Node::Char(escape::class_test(&items, false, flags, self.global));
            return (node, Some(items));
        }
        (
            Node::Alt(branches.into_iter().map(|(n, _)| n).collect()),
            None,
        )
    }

    fn skip_verbose(&mut self) -> Result<(), PatternError> {
        while let Some(c) = self.text.peek() {
            if matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c') {
                self.text.pos += 1;
            } else if c == '#' {
                // To the end of the line, read as CPython reads it: a
                // backslash takes the next character (a newline too),
                // and one that ends the pattern is an error.
                while let Some(c) = self.text.peek() {
                    self.text.pos += 1;
                    if c == '\n' {
                        break;
                    }
                    if c == '\\' {
                        if self.text.peek().is_none() {
                            return Err(error("bad escape (end of pattern)", self.text.pos - 1));
                        }
                        self.text.pos += 1;
                    }
                }
            } else {
                break;
            }
        }
        Ok(())
    }

    /// Items up to a `|`, a `)` or the end; with its class items when it
    /// is one character item.
    fn sequence(
        &mut self,
        depth: usize,
        scope: Option<Flags>,
    ) -> Result<(Node, Option<Spec>), PatternError> {
        let mut items: Vec<Node> = Vec::new();
        let mut last = Last::Nothing;
        // The class items of the only item so far, when it is a
        // character item.
        let mut spec: Option<Spec> = None;
        loop {
            let flags = scope.unwrap_or(self.global);
            if flags.verbose {
                self.skip_verbose()?;
            }
            let Some(c) = self.text.peek() else { break };
            if c == '|' || c == ')' {
                break;
            }
            let start = self.text.pos;
            self.text.pos += 1;
            let quantifier = match c {
                '*' => Some((0, UNBOUNDED)),
                '+' => Some((1, UNBOUNDED)),
                '?' => Some((0, 1)),
                '{' => self.braces()?,
                _ => None,
            };
            if let Some((min, max)) = quantifier {
                match last {
                    Last::Nothing => return Err(error("nothing to repeat", start)),
                    Last::Quantified => return Err(error("multiple repeat", start)),
                    Last::Item => {}
                }
                let greed = if self.text.eat('?') {
                    Greed::Lazy
                } else if self.text.eat('+') {
                    Greed::Possessive
                } else {
                    Greed::Greedy
                };
                spec = None;
                let node = items.pop().unwrap_or(Node::Empty);
                items.push(Node::Repeat {
                    node: Box::new(node),
                    min,
                    max,
                    greed,
                });
                last = Last::Quantified;
                continue;
            }
            let mut item_spec = None;
            let item = match c {
                '(' => match self.group(start, depth, flags)? {
                    Some((node, s)) => {
                        item_spec = s;
                        node
                    }
                    None => continue,
                },
                '[' => {
                    let (class_items, negated) = escape::class(&mut self.text, start)?;
                    if !negated {
                        item_spec = Some(class_items.clone());
                    }
                    Node::Char(escape::class_test(
                        &class_items,
                        negated,
                        flags,
                        self.global,
                    ))
                }
                '.' => Node::Char(if flags.dot_all {
                    CharTest::Any
                } else {
                    CharTest::NotNewline
                }),
                '^' => Node::Anchor(if flags.multiline {
                    Anchor::LineStart
                } else {
                    Anchor::Start
                }),
                '$' => Node::Anchor(if flags.multiline {
                    Anchor::LineEnd
                } else {
                    Anchor::EndOrFinalNewline
                }),
                '\\' => match escape::outside(&mut self.text, start, flags)? {
                    Escaped::Char(c) => {
                        item_spec = Some(vec![(Item::Char(c), None)]);
                        literal(c, flags)
                    }
                    Escaped::Class(item) => {
                        item_spec = Some(vec![(item, None)]);
                        Node::Char(escape::class_test(
                            &[(item, None)],
                            false,
                            flags,
                            self.global,
                        ))
                    }
                    Escaped::Node(node) => node,
                    Escaped::Backref(group) => self.backref(group, start, flags)?,
                },
                c => {
                    item_spec = Some(vec![(Item::Char(c as u32), None)]);
                    literal(c as u32, flags)
                }
            };
            spec = if items.is_empty() { item_spec } else { None };
            if depth == 0 {
                self.top_started = true;
            }
            // Only an assertion written as such (`^`, `\b`, ...) takes no
            // quantifier; a group around one does (`(?:^)*`).
            let bare_anchor =
                c == '^' || c == '$' || (c == '\\' && matches!(item, Node::Anchor(_)));
            last = if bare_anchor {
                Last::Nothing
            } else {
                Last::Item
            };
            items.push(item);
        }
        let spec = if items.len() == 1 { spec } else { None };
        Ok((
            match items.len() {
                0 => Node::Empty,
                1 => items.pop().unwrap_or(Node::Empty),
                _ => Node::Seq(items),
            },
            spec,
        ))
    }

    /// After a `{`: `Some((min, max))` when a quantifier follows (`{m}`,
    /// `{m,}`, `{,n}`, `{m,n}`, `{,}`, ASCII digits only, nothing else
    /// inside), else `None` with the position back after the `{` (a
    /// literal `{`).
    fn braces(&mut self) -> Result<Option<(u32, u32)>, PatternError> {
        let open = self.text.pos - 1;
        let digits = |p: &mut Parser| {
            let from = p.text.pos;
            while p.text.peek().is_some_and(|c| c.is_ascii_digit()) {
                p.text.pos += 1;
            }
            p.text.chars[from..p.text.pos].iter().collect::<String>()
        };
        let lo = digits(self);
        let (hi, comma) = if self.text.eat(',') {
            (digits(self), true)
        } else {
            (lo.clone(), false)
        };
        if !self.text.eat('}') || (lo.is_empty() && !comma) {
            self.text.pos = open + 1;
            return Ok(None);
        }
        let number = |s: &str| -> Result<Option<u32>, PatternError> {
            if s.is_empty() {
                return Ok(None);
            }
            match s.parse::<u64>() {
                Ok(n) if n < u64::from(UNBOUNDED) => Ok(Some(n as u32)),
                _ => Err(PatternError {
                    message: "the repetition number is too large".into(),
                    pos: None,
                }),
            }
        };
        let min = number(&lo)?.unwrap_or(0);
        let max = number(&hi)?.unwrap_or(UNBOUNDED);
        if max < min {
            return Err(error("min repeat greater than max repeat", open + 1));
        }
        Ok(Some((min, max)))
    }

    /// A back-reference to group `group` written at `pos`: valid only to
    /// a closed group, and not to one inside the same look-behind.
    fn backref(&mut self, group: usize, pos: usize, flags: Flags) -> Result<Node, PatternError> {
        if group > self.groups {
            return Err(error(format!("invalid group reference {group}"), pos + 1));
        }
        self.check_ref(group, pos)?;
        Ok(Node::Backref(group, fold_of(flags)))
    }

    /// A reference to an existing group must not be to an open one, nor
    /// to one defined in the look-behind we are in.
    fn check_ref(&self, group: usize, pos: usize) -> Result<(), PatternError> {
        if self.open.contains(&group) {
            return Err(error("cannot refer to an open group", pos));
        }
        self.check_lookbehind_ref(group, pos)
    }

    fn check_lookbehind_ref(&self, group: usize, pos: usize) -> Result<(), PatternError> {
        if let Some(before) = self.lookbehind {
            if group > before {
                return Err(error(
                    "cannot refer to group defined in the same lookbehind subpattern",
                    pos,
                ));
            }
        }
        Ok(())
    }

    /// After `(` at `start`: a group (with its class items when it is a
    /// non-capturing group around one character item), or `None` for
    /// what leaves no item (a comment, global flags).
    fn group(
        &mut self,
        start: usize,
        depth: usize,
        flags: Flags,
    ) -> Result<Option<(Node, Option<Spec>)>, PatternError> {
        if depth + 1 > MAX_NESTING {
            return Err(error(
                format!("groups nest deeper than {MAX_NESTING} (a limit of ours)"),
                start,
            ));
        }
        if !self.text.eat('?') {
            if depth == 0 {
                self.top_started = true;
            }
            return self
                .capture(start, depth, flags, None)
                .map(|n| Some((n, None)));
        }
        let Some(c) = self.text.peek() else {
            return Err(error("unexpected end of pattern", self.text.pos));
        };
        let ext = self.text.pos;
        self.text.pos += 1;
        if depth == 0 && c != '#' && !is_flag_start(c) {
            self.top_started = true;
        }
        let node = match c {
            ':' => return self.body(start, depth, flags).map(Some),
            'P' => match self.text.peek() {
                Some('<') => {
                    self.text.pos += 1;
                    let name = self.name('>', "missing >, unterminated name")?;
                    if depth == 0 {
                        self.top_started = true;
                    }
                    return self
                        .capture(start, depth, flags, Some(name))
                        .map(|n| Some((n, None)));
                }
                Some('=') => {
                    self.text.pos += 1;
                    let at = self.text.pos;
                    let (name, _) = self.name(')', "missing ), unterminated name")?;
                    let Some(&group) = self.names.get(&name) else {
                        return Err(error(format!("unknown group name '{name}'"), at));
                    };
                    self.check_ref(group, at)?;
                    if depth == 0 {
                        self.top_started = true;
                    }
                    return Ok(Some((Node::Backref(group, fold_of(flags)), None)));
                }
                Some(c) => return Err(error(format!("unknown extension ?P{c}"), ext)),
                None => return Err(error("unexpected end of pattern", self.text.pos)),
            },
            '=' | '!' => {
                let (node, _) = self.body(start, depth, flags)?;
                Node::Look {
                    behind: None,
                    negate: c == '!',
                    node: Box::new(node),
                }
            }
            '<' => {
                let negate = match self.text.peek() {
                    Some('=') => false,
                    Some('!') => true,
                    Some(c) => return Err(error(format!("unknown extension ?<{c}"), ext)),
                    None => return Err(error("unexpected end of pattern", self.text.pos)),
                };
                self.text.pos += 1;
                let outer = self.lookbehind;
                if outer.is_none() {
                    self.lookbehind = Some(self.groups);
                }
                let node = self.body(start, depth, flags);
                self.lookbehind = outer;
                let (node, _) = node?;
                let (lo, hi) = ast::width(&node, &self.widths);
                if lo != hi {
                    return Err(PatternError {
                        message: "look-behind requires fixed-width pattern".into(),
                        pos: None,
                    });
                }
                if hi == UNBOUNDED {
                    return Err(PatternError {
                        message: "looks too much behind".into(),
                        pos: None,
                    });
                }
                Node::Look {
                    behind: Some(hi),
                    negate,
                    node: Box::new(node),
                }
            }
            '#' => {
                // Read as CPython reads it: a backslash takes the next
                // character with it (`(?#\))` is unterminated).
                while let Some(c) = self.text.peek() {
                    self.text.pos += 1;
                    if c == ')' {
                        return Ok(None);
                    }
                    if c == '\\' && self.text.peek().is_some() {
                        self.text.pos += 1;
                    }
                }
                return Err(error("missing ), unterminated comment", start));
            }
            '(' => self.conditional(start, depth, flags)?,
            '>' => Node::Atomic(Box::new(self.body(start, depth, flags)?.0)),
            c if is_flag_start(c) => {
                self.text.pos -= 1;
                return self.flags(start, depth, flags);
            }
            c => return Err(error(format!("unknown extension ?{c}"), ext)),
        };
        Ok(Some((node, None)))
    }

    /// A group's alternatives and its `)`.
    fn body(
        &mut self,
        start: usize,
        depth: usize,
        flags: Flags,
    ) -> Result<(Node, Option<Spec>), PatternError> {
        let branches = self.branches(depth + 1, Some(flags))?;
        self.close(start)?;
        Ok(self.join(branches, flags))
    }

    fn close(&mut self, start: usize) -> Result<(), PatternError> {
        if self.text.eat(')') {
            Ok(())
        } else {
            Err(error("missing ), unterminated subpattern", start))
        }
    }

    /// A capturing group, named or not.
    fn capture(
        &mut self,
        start: usize,
        depth: usize,
        flags: Flags,
        name: Option<(String, usize)>,
    ) -> Result<Node, PatternError> {
        self.groups += 1;
        let index = self.groups;
        if let Some((name, at)) = name {
            if let Some(&was) = self.names.get(&name) {
                return Err(error(
                    format!(
                        "redefinition of group name '{name}' as group {index}; was group {was}"
                    ),
                    at,
                ));
            }
            self.names.insert(name, index);
        }
        self.open.push(index);
        let (node, _) = self.body(start, depth, flags)?;
        self.open.pop();
        if self.widths.len() <= index {
            self.widths.resize(index + 1, (0, 0));
        }
        self.widths[index] = ast::width(&node, &self.widths);
        Ok(Node::Group(index, Box::new(node)))
    }

    /// A group name up to `end` (consumed), checked as an identifier;
    /// with its position.
    fn name(&mut self, end: char, unterminated: &str) -> Result<(String, usize), PatternError> {
        let (name, at) = self.name_text(end, unterminated)?;
        if !unicode::is_identifier(&name) {
            return Err(error(format!("bad character in group name '{name}'"), at));
        }
        Ok((name, at))
    }

    /// The text of a group name up to `end` (consumed), not empty; with
    /// its position.
    fn name_text(
        &mut self,
        end: char,
        unterminated: &str,
    ) -> Result<(String, usize), PatternError> {
        let at = self.text.pos;
        let Some(len) = self.text.chars[at..].iter().position(|&c| c == end) else {
            return Err(error(unterminated, at));
        };
        self.text.pos = at + len + 1;
        if len == 0 {
            return Err(error("missing group name", at));
        }
        Ok((self.text.chars[at..at + len].iter().collect(), at))
    }

    /// `(?(id)yes|no)` after its `(?(`.
    fn conditional(
        &mut self,
        start: usize,
        depth: usize,
        flags: Flags,
    ) -> Result<Node, PatternError> {
        let (name, at) = self.name_text(')', "missing ), unterminated name")?;
        let group = if unicode::is_identifier(&name) {
            match self.names.get(&name) {
                Some(&g) => g,
                None => return Err(error(format!("unknown group name '{name}'"), at)),
            }
        } else {
            match unicode::python_int(&name) {
                None => return Err(error(format!("bad character in group name '{name}'"), at)),
                Some(n) if n < 0 => {
                    return Err(error(format!("bad character in group name '{name}'"), at))
                }
                Some(0) => return Err(error("bad group number", at)),
                Some(n) => match usize::try_from(n) {
                    Ok(g) if g < 1 << 30 => g,
                    _ => return Err(error(format!("invalid group reference {n}"), at)),
                },
            }
        };
        if self.lookbehind.is_some() {
            if group > self.groups {
                return Err(error("cannot refer to an open group", at));
            }
            self.check_lookbehind_ref(group, at)?;
        }
        self.cond_refs.push((group, at));
        let mut branches: Vec<Node> = self
            .branches(depth + 1, Some(flags))?
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        if branches.len() > 2 {
            return Err(error(
                "conditional backref with more than two branches",
                self.text.pos,
            ));
        }
        self.close(start)?;
        let no = if branches.len() == 2 {
            branches.pop().unwrap_or(Node::Empty)
        } else {
            Node::Empty
        };
        let yes = branches.pop().unwrap_or(Node::Empty);
        Ok(Node::Cond {
            group,
            yes: Box::new(yes),
            no: Box::new(no),
        })
    }

    /// Inline flags after `(?` at `start`: global ones (`(?i)`, only at
    /// the start) change [`Parser::global`] and leave no item; scoped ones
    /// (`(?i-s:...)`) make a group.
    fn flags(
        &mut self,
        start: usize,
        depth: usize,
        flags: Flags,
    ) -> Result<Option<(Node, Option<Spec>)>, PatternError> {
        match flags::read(&mut self.text)? {
            Inline::Global(on) => {
                if depth > 0 || self.top_started {
                    return Err(error(
                        "global flags not at the start of the expression",
                        start,
                    ));
                }
                flags::add_global(&mut self.global, on)?;
                Ok(None)
            }
            Inline::Scoped { on, off } => {
                if depth == 0 {
                    self.top_started = true;
                }
                let inner = flags::scoped(flags, on, off);
                let (node, _) = self.body(start, depth, inner)?;
                Ok(Some((Node::Scoped(Box::new(node)), None)))
            }
        }
    }
}

/// The node of a literal character under `flags`: itself, or under
/// `(?i)` the set of characters it matches.
pub(crate) fn literal(c: u32, flags: Flags) -> Node {
    if flags.ignore_case && unicode::has_fold(c, flags.ascii) {
        let class = unicode::fold_class(c, flags.ascii);
        Node::Char(CharTest::Set(ast::CharSet::new(
            class.iter().map(|&c| (c, c)).collect(),
            false,
        )))
    } else {
        Node::Char(CharTest::Lit(c))
    }
}
