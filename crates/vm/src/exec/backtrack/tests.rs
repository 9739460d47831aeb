//! Unit tests of the matcher: its answers against the `regex` crate's and
//! fancy-regex's on the program's pattern shapes, and what it declines.

use super::*;

/// Our answer on `hay` anchored at each position, against `regex`'s
/// for `^(?:pattern)` on the same suffix: match, end and every group.
fn agree(pattern: &str, hay: &str) {
    let m = Matcher::new(pattern).unwrap_or_else(|| panic!("{pattern:?} declined"));
    let re = regex::Regex::new(&format!("^(?:{pattern})")).unwrap();
    for start in 0..=hay.len() {
        let rest = &hay[start..];
        let mut scratch = Scratch::default();
        let mut budget = usize::MAX;
        let ours = m
            .find_anchored(rest.as_bytes(), &mut scratch, &mut budget)
            .unwrap()
            .then(|| {
                (0..m.slot_count() / 2)
                    .map(|g| {
                        let (s, e) = (scratch.slots[2 * g], scratch.slots[2 * g + 1]);
                        (s != usize::MAX).then_some((s, e))
                    })
                    .collect::<Vec<_>>()
            });
        let theirs = re.captures(rest).map(|c| {
            c.iter()
                .map(|g| g.map(|g| (g.start(), g.end())))
                .collect::<Vec<_>>()
        });
        assert_eq!(ours, theirs, "{pattern:?} on {rest:?}");
    }
}

/// [`agree`] for back-reference patterns, against fancy-regex.
fn agree_backrefs(pattern: &str, hay: &str) {
    let m = Matcher::new(pattern).unwrap_or_else(|| panic!("{pattern:?} declined"));
    let re = fancy_regex::Regex::new(&format!("^(?:{pattern})")).unwrap();
    for start in 0..=hay.len() {
        let rest = &hay[start..];
        let mut scratch = Scratch::default();
        let mut budget = usize::MAX;
        let ours = m
            .find_anchored(rest.as_bytes(), &mut scratch, &mut budget)
            .unwrap()
            .then(|| {
                (0..m.slot_count() / 2)
                    .map(|g| {
                        let (s, e) = (scratch.slots[2 * g], scratch.slots[2 * g + 1]);
                        (s != usize::MAX).then_some((s, e))
                    })
                    .collect::<Vec<_>>()
            });
        let theirs = re.captures(rest).unwrap().map(|c| {
            c.iter()
                .map(|g| g.map(|g| (g.start(), g.end())))
                .collect::<Vec<_>>()
        });
        assert_eq!(ours, theirs, "{pattern:?} on {rest:?}");
    }
}

#[test]
fn back_references_agree_with_fancy_regex() {
    let hay =
        "%%\n#stack:\nab\nab\nx\n#ab: 12\n%%\n#stack:\nAAA\nAA\n#n: 1;2;2;2;3\n%%\n#stack:\nA\nA\n";
    for p in [
        r"(%%\n#stack:\n)([^\n]*)\n\2\n",
        r"(%%\n#stack:\n)([^\n]+)\n([^%]*#\2: )([^#%\n]*)",
        r"(%%\n#stack:\n)(A*)(A+)\n\2\n",
        r"(%%[^%]*#n: [^\n]*)([^;\n]*;)\2+([^%\n]*)",
        r"(a|ab)(c|bcd)\2",
        r"(x?)(?:\1y|z)",
        r"(%%\n)?(#[a-z]+):[^%]*\2",
    ] {
        agree_backrefs(p, hay);
    }
}

const THREADS: &str = "%%\n#stack:\n12\n#z:..p.K,.*.@\n..,.....*.\n#t:e4\n#dv:HH|TTT|iiiiiiiiiiii\n%x\n#stack:\n#z:.*..@\n#t:a1\n";

#[test]
fn the_program_shapes_agree_with_regex() {
    for p in [
        r"%%\n#stack:\n([^%]*?#t:([^%\n]*)\n)",
        r"#z:(?:[^%\n]{3})*[^%\n]{2}\*[^%]*?#t:",
        r"#z:(?:[^%\n]{2})*?[^%\n]\*",
        r"%%\n([^%]*?#z:[^%\n]*)([.,pK])([^%\n]{2})([@])([^%]*)",
        r"(#dv:H*\|T*)\|(i*)i{10}\n",
        r"(#dv:H*\|T*\|)i{2}\n",
        r"#t:(?:a1|e4|h8)\n",
        r"(%%\n#stack:\n[^#%]*)[^%]*?(#dv:[^%\n]*\n)[^%]*",
        r"#z:[^%\n]*?(\*)[^%\n]{1,3}?([@.])",
        r"([0-9]??)([0-9]??)\n",
    ] {
        agree(p, THREADS);
    }
}

#[test]
fn runs_that_end_alone_and_folded_saves_agree_with_regex() {
    let hay = "aaab|HH|TTT|ii\nxaab-ab(ab)ba";
    for p in [
        // A run followed by a byte outside its class ends in one place.
        r"(H*)(\|T*)(\|i*)\n",
        r"(?:a{2})*b",
        r"(?:a{2})*?b",
        r"a*?(b)",
        r"([^|]*)\|",
        // Saves before a jump target, inside loops and alternations.
        r"(?:(a)|b)+(\|)",
        r"((a)*)b",
        r"(a)(b)(\||-)",
        r"(?:(a)(b)|(b)(a))",
        r"(\()(a*)(b*)(\))",
    ] {
        agree(p, hay);
    }
}

#[test]
fn columns_of_optional_digits_agree_with_regex() {
    let hay = "%%\n#stack:\n4999\n12\n\n7\n123456789\n12345678\nx1\n";
    for p in [
        r"%%\n#stack:\n([0-9]??)([0-9]??)([0-9]??)([0-9]??)\n([0-9]??)([0-9]??)([0-9]??)([0-9]??)\n",
        r"([0-9]??)([0-9]??)([0-9]??)\n",
        r"([0-9]?)([0-9]?)([0-9]?)\n",
        r"x([0-9]??)([0-9]??)\n",
        r"([0-9]??)([0-9]??)([0-9]??)([0-9]??)([0-9]??)([0-9]??)([0-9]??)([0-9]??)\n",
        // Followed by a byte of the set, or by nothing: not a column.
        r"([0-9]??)([0-9]??)1",
        r"\n([0-9]??)([0-9]??)",
        // Mixed greediness or sets: two columns or none.
        r"([0-9]??)([0-9]?)([0-9]?)\n",
        r"([0-9]??)([1-9]??)\n",
        r"(?:([0-9]??)([0-9]??)|x)\n",
    ] {
        agree(p, hay);
    }
    let m = Matcher::new(r"%%\n#stack:\n([0-9]??)([0-9]??)([0-9]??)\n").unwrap();
    assert!(m.single, "one pass, no choice");
    assert!(m
        .prog
        .iter()
        .any(|i| matches!(i, Inst::Spread { count: 3, .. })));
}

#[test]
fn a_run_before_a_byte_outside_its_class_keeps_no_choice() {
    let m = Matcher::new(r"#d:(H*)(\|T*)\n").unwrap();
    assert!(m
        .prog
        .iter()
        .all(|i| !matches!(i, Inst::Run { whole: false, .. })));
    assert!(m.straight);
    // Saves ride on the instructions after them.
    assert!(!m.prog.iter().any(|i| matches!(i, Inst::Save(_))));
}

#[test]
fn declines_what_it_cannot_run_exactly() {
    for p in [r"(?:a?)*b", r"a\b", "^$", r"a*b*c*d*e*f*g"] {
        assert!(Matcher::new(p).is_none(), "{p:?}");
    }
    assert_eq!(Matcher::new(r"(%%\n#x:)").unwrap().prefix(), b"%%\n#x:");
}

#[test]
fn gives_up_past_its_budget() {
    let m = Matcher::new(r"%%[^%]*?#q:").unwrap();
    let mut budget = 2;
    let r = m.find_anchored(b"%%\n#a:\n#b:\n#q:", &mut Scratch::default(), &mut budget);
    assert_eq!(r, Err(GaveUp));
}

#[test]
fn a_search_cut_to_its_piece_agrees_with_one_on_the_whole_text() {
    let state = "%%\n#stack:\nab\nab\n#x: 1\n#ab: 7\n%t\n#stack:\n#ab: 9\n\
                 %%\n#stack:\nA\nAA\n#ab: %%\n#stack:\ncd\n#list: 1;2;2;3;\n";
    let patterns = [
        r"(%%\n#stack:\n)([^\n]+)\n([^%]*#\2: )([^#%\n]*)",
        r"(%%[^%]*#list: [^\n]*)([^;\n]*;)\2+([^%\n]*)",
        r"(%%\n#stack:)([^%]*\n#ab: )([^#%]*)\n",
        r"%%[^%]*?#x: [^%\n]*",
        r"%t\n[^%]*#ab: ([^%\n]*)",
    ];
    let bytes = state.as_bytes();
    for pattern in patterns {
        let m = Matcher::new(pattern).unwrap_or_else(|| panic!("{pattern:?} declined"));
        assert!(m.has_piece_runs(), "{pattern:?}");
        // The head's `%` marks (what `exec` reads from the reach).
        let marks = if pattern.contains("%%") { 2 } else { 1 };
        for start in (0..bytes.len()).filter(|&i| bytes[i] == b'%') {
            let end = crate::exec::replace::piece_end(bytes, start, marks);
            assert!(!bytes[start..end].iter().skip(marks).any(|&b| b == b'%'));
            let search = |cut: bool| {
                let (mut scratch, mut budget) = (Scratch::default(), usize::MAX);
                let found = if cut {
                    m.find_anchored_in_piece(&bytes[start..end], marks, &mut scratch, &mut budget)
                } else {
                    m.find_anchored(&bytes[start..], &mut scratch, &mut budget)
                };
                found.unwrap().then_some(scratch.slots)
            };
            assert_eq!(search(true), search(false), "{pattern:?} at {start}");
        }
    }
}
