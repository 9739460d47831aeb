#!/usr/bin/env python3
"""Writes crates/vm/src/pyre/tables.rs: the character facts the Python-regex
engine needs, measured on the running CPython's `re` itself (the oracle), not
read from Unicode data files, so they hold for exactly the Python that made
them (3.11, Unicode 14.0).

Run from the repository root:  python3 crates/vm/tools/pyre_tables.py
It prints nothing on success and exits non-zero if an assumption the engine
makes about the data does not hold (each is checked below).
"""
import collections
import re
import sys
import unicodedata

OUT = "crates/vm/src/pyre/tables.rs"
ALL = [chr(i) for i in range(0x110000) if not 0xD800 <= i < 0xE000]
TEXT = "".join(ALL)


def ranges(chars):
    """Sorted, merged inclusive code point ranges of a set of characters."""
    out = []
    for c in sorted(ord(c) for c in chars):
        if out and out[-1][1] + 1 == c:
            out[-1][1] = c
        else:
            out.append([c, c])
    return out


def members(pattern):
    return set(re.findall(pattern, TEXT))


def check(cond, what):
    if not cond:
        sys.exit("pyre_tables.py: assumption failed: " + what)


word, digit, space = members(r"\w"), members(r"\d"), members(r"\s")
# The engine reads \b as "\w on one side only": checked here once.
check({c for c in ALL if re.match(r"\b", c)} == word, r"\b is \w at the start")
check(members(r"(?i)\w") == word and members(r"(?i)\d") == digit, "(?i) leaves categories")

# Simple lowercase, as a back-reference under (?i) compares: a pair (a, b)
# matches `(?i)(.)\1` iff lower(a) == lower(b). Candidates come from
# str.lower (single characters); each is checked against the oracle.
def lower1(c):
    s = c.lower()
    return s if len(s) == 1 else None


lower = {}
for c in ALL:
    l = lower1(c)
    if l is None:
        # A full lowercase of several characters (U+0130): find the simple
        # one among the first character's candidates.
        l = c.lower()[0]
    if l != c:
        lower[c] = l
backref = re.compile(r"(?i)(.)\1", re.S)
by_lower = collections.defaultdict(set)
for c in ALL:
    by_lower[lower.get(c, c)].add(c)
for key, group in by_lower.items():
    for a in group:
        for b in group:
            check(backref.fullmatch(a + b) is not None, f"backref {a!r} {b!r}")
# And nothing else: pairs across groups that share an uppercase.
for c in ALL:
    u = c.upper()
    if len(u) == 1 and lower.get(u, u) != lower.get(c, c):
        check(backref.fullmatch(c + u) is None, f"backref apart {c!r} {u!r}")

# Literal case-insensitive classes: `(?i)c` matches t. Candidates: the
# closure of "same simple lowercase" and "same single-character uppercase";
# each member checked against the oracle, and the classes must partition.
by_upper = collections.defaultdict(set)
for c in ALL:
    u = c.upper()
    if len(u) == 1:
        by_upper[u].add(c)
        by_upper[u].add(u)
parent = {}


def find(c):
    while parent.get(c, c) != c:
        c = parent[c]
    return c


def union(a, b):
    a, b = find(a), find(b)
    if a != b:
        parent[max(a, b)] = min(a, b)


for group in list(by_lower.values()) + list(by_upper.values()):
    g = sorted(group)
    for x in g[1:]:
        union(g[0], x)
candidates = collections.defaultdict(set)
for c in list(parent):
    candidates[find(c)].add(c)
classes = []
for root, group in candidates.items():
    group |= {root}
    verdict = {}
    for c in group:
        p = re.compile("(?i)" + re.escape(c))
        verdict[c] = frozenset(t for t in group if p.fullmatch(t))
    parts = set(verdict.values())
    for part in parts:
        check(all(verdict[c] == part for c in part), f"fold classes partition {sorted(part)!r}")
        if len(part) > 1:
            classes.append(sorted(ord(c) for c in part))
classes.sort()
folded = {chr(c) for cl in classes for c in cl}
# Spot check: characters outside every class match only themselves.
import random

rng = random.Random(7)
sample = rng.sample(ALL, 2000)
for c in sample + sorted(folded)[:400]:
    p = re.compile("(?i)" + re.escape(c))
    for t in rng.sample(ALL, 200):
        if p.fullmatch(t):
            check(t == c or (c in folded and any(ord(t) in cl and ord(c) in cl for cl in classes)), f"fold {c!r} {t!r}")

# Identifiers (group names): str.isidentifier.
xid_start = {c for c in ALL if c.isidentifier()}
xid_continue = {c for c in ALL if ("a" + c).isidentifier()}
# int() of a conditional's group: decimal digits come in runs of ten from 0.
zeros = sorted(ord(c) for c in digit if unicodedata.decimal(c) == 0)
check(all(unicodedata.decimal(c) == (ord(c) - max(z for z in zeros if z <= ord(c))) for c in digit), "digit runs")
check({c for c in ALL if c.isspace()} == space, "str.isspace is \\s")

# Lowercase as runs: (first, count, stride, delta).
runs = []
for c in sorted(ord(c) for c in lower):
    d = ord(lower[chr(c)]) - c
    if runs:
        f, n, s, dd = runs[-1]
        last = f + (n - 1) * s
        if dd == d and ((n == 1 and c - last in (1, 2)) or (n > 1 and c - last == s)):
            runs[-1] = (f, n + 1, c - last if n == 1 else s, d)
            continue
    runs.append((c, 1, 1, d))


def table(name, rows, doc, fmt=lambda r: "(0x%X, 0x%X)" % tuple(r)):
    lines = ["/// " + d for d in doc]
    lines.append(f"pub(super) const {name}: &[{rowtype(rows)}] = &[")
    line = "   "
    for r in rows:
        item = " " + fmt(r) + ","
        if len(line) + len(item) > 99:
            lines.append(line)
            line = "   "
        line += item
    lines.append(line)
    lines.append("];")
    return "\n".join(lines) + "\n"


def rowtype(rows):
    r = rows[0]
    if isinstance(r, list) and len(set(len(x) for x in rows)) > 1:
        return "&[u32]"
    if isinstance(r, (list, tuple)):
        return "(" + ", ".join(["u32"] * (len(r) - 1) + ["i32" if len(r) == 4 else "u32"]) + ")"
    return "u32"


out = [
    "//! Character tables of CPython's `re` (generated: do not edit).\n//!\n"
    "//! Written by `crates/vm/tools/pyre_tables.py`, which measures them on\n"
    f"//! CPython {sys.version.split()[0]} (Unicode {unicodedata.unidata_version}) itself. Ranges are\n"
    "//! inclusive code point pairs, sorted and disjoint.\n\n",
    f'/// The Unicode version of the Python that wrote these tables.\npub(super) const UNICODE_VERSION: &str = "{unicodedata.unidata_version}";\n\n',
    table("WORD", ranges(word), [r"`\w`: `str.isalnum()` or `_`."]) + "\n",
    table("DIGIT", ranges(digit), [r"`\d`: the decimal digits (`str.isdecimal()`)."]) + "\n",
    table("SPACE", ranges(space), [r"`\s`: `str.isspace()`, `\x1c`-`\x1f` included."]) + "\n",
    table("DIGIT_ZEROS", zeros, ["The digit zero of each run of ten decimal digits (`int()` reads them)."], fmt=lambda z: "0x%X" % z) + "\n",
    table("LOWER_RUNS", runs, ["Simple lowercase as runs `(first, count, stride, delta)`: the characters",
          "`first + k * stride` for `k < count` lowercase to themselves plus `delta`.",
          "A back-reference under `(?i)` compares characters by it."],
          fmt=lambda r: "(0x%X, %d, %d, %d)" % r) + "\n",
    table("FOLD_CLASSES", classes, ["The classes of characters a literal matches under `(?i)` (each sorted;",
          "a character in none matches only itself)."],
          fmt=lambda cl: "&[" + ", ".join("0x%X" % c for c in cl) + "]") + "\n",
    table("XID_START", ranges(xid_start), ["Characters that may start a group name (`str.isidentifier()`)."]) + "\n",
    table("XID_CONTINUE", ranges(xid_continue), ["Characters that may follow in a group name."]),
]
with open(OUT, "w", encoding="utf-8") as f:
    f.write("".join(out))
