//! The data of the matcher's differential tests: the state alphabet and
//! its weighted form, pattern literals, classes, word characters, state
//! fragments, real patterns of the turn program and real states. Constants
//! only: no generator and no comparison.

/// Characters of the state grammar (plus a few letters the real patterns
/// name), from which haystacks and pattern literals are drawn.
pub(crate) const ALPHABET: &[u8] = b"%#:\n.,pnbrqkPNBRQKTF|0123456789@*/`;<>-Hiszutvxacdefgh";

/// Weighted alphabet for random haystacks: `%` and `\n` are frequent, as
/// in the state.
pub(crate) const HAY_WEIGHTED: &[u8] =
    b"%%%%#:\n\n\n\n..,,pnbrqkPNBRQKTF||0123456789@**HHiszutvx..,,::##TTFF//`;abcdefgh";

/// Literal characters for generated patterns (unescaped).
pub(crate) const LIT_CHARS: &[u8] = b"%#:\n.,pnbrqkPNBRQKTF|0123456789@*/`;Hzstae";

/// Characters of the words of generated word lists (`(?:a8|b8|c7)`).
pub(crate) const WORD_CHARS: &[u8] = b"abcdefgh12345678|.\n";

/// Classes the state grammar uses.
pub(crate) const CLASSES: &[&str] = &[
    r"[^%]",
    r"[^%\n]",
    r"[^%\n]",
    r"[.,]",
    r"[0-9]",
    r"[pnbrqk]",
    r"[PNBRQKT]",
    r"[.,pnbrqkt]",
    r"[KX]",
    r"[@]",
    r"[^#%]",
    r"[^\n]",
    r"[TF]",
    r"[a-h]",
    r"[1-8]",
    r"[^P\n]",
    r".",
    r"\d",
];

/// Pieces that occur, as they are, in the project's patterns.
pub(crate) const PIECES: &[&str] = &[
    r"%%\n",
    r"#s:\n",
    r"#z:",
    r"#t:",
    r"#u:",
    r"\n",
    r"[^%]*?",
    r"[^%]*",
    r"[^%\n]*",
    r"[^%\n]{3,5}",
    r"[^%\n]{2}",
    r"([^%\n]*)",
    r"([^%]*)",
    r"([^%]*?#t:([^%\n]*)\n)",
    r"(#dv:H*)",
    r"\|",
    r"T*",
    r"T{3}",
    r"\*",
    r"([.,pnbrqkt])",
    r"([@])",
    r"([0-9]??)",
    r"(?:[^%\n]{3})*",
    r"(?:[^%\n]{2})*?",
    r"(?:[.,]{2})+",
    r"(?:[.,])*",
    r"(?:a8|b8|c7|d5)",
    r"(?:12|7|\n)",
    r"`(i*);",
];

/// Fragments of states, concatenated into haystacks.
pub(crate) const FRAGMENTS: &[&str] = &[
    "%%\n",
    "%%\n#s:\n",
    "#s:\n",
    "%%\n#stack:\n",
    "%t326\n#stack:\n",
    "#z:..p.K..*.\n",
    "#z:,.,.pP.@.\n",
    "#z:.,.,.,.,.,\n",
    "#z:/t.bqkbnt//pppppppp//n.......//....*...//........//PPPP.PPP/\n",
    "#t:12\n",
    "#t:\n",
    "#t:7\n",
    "#t:e4\n",
    "%x\n",
    "%t12\n",
    "#u:ab\n",
    "#u:\n",
    "#dv:HH|TTTT|",
    "#dv:|TTT|",
    "#dv:H|T|ii\n",
    "#x:p\n",
    "#x:.\n",
    "#pc:N\n",
    "#pc:P\n",
    "#f:e4\n",
    "#f:a8\n",
    "#ut:d5\n",
    "#c:KQkq\n#ep:-\n",
    "`iii;",
    "`|0;",
    "`ii|;\n",
    "12\n",
    "7\n",
    "\n",
    "%",
    "*",
    "|",
    "@",
    "T",
    "F\n",
    "T\nF\n",
];

/// Patterns of the real turn program (and the shapes the brief names),
/// all of which the matcher accepts.
pub(crate) const REAL: &[&str] = &[
    r"%%\n#s:\n([^%]*?#t:([^%\n]*)\n)",
    r"(#z:[^%\n]{3,5}\*[^%]*?#u:[^%\n]*\n)",
    r"%%\n([^%]*?#z:[^%\n]*)([.,pnbrqkt])([^%\n]{2})([@])([^%]*)",
    r"([0-9]??)([0-9]??)\n",
    r"(#dv:H*)\|(T*)T{3}\|",
    r"%%\n#stack:\n([^%]*?#ck:([^%\n]*)\n)",
    r"%%(\n#stack:\n[^%]*?#pc:(?:R|T)\n)",
    r"%%(\n#stack:\n[^%]*?#nl:(?:)\n)",
    r"%%(\n#stack:\n[^%]*?#ic:(?:square)\n)",
    r"%%\n#stack:\n(?:F\n[TF]|T\nF)\n",
    r"%%\n#stack:\n(?:P|N|B|R|Q|K|T)\n",
    r"%%\n#stack:\n([^#%\n]*)\n([^#%]*)",
    r"%%\n#stack:\n([^#%\n]*\n)([^#%\n]*\n)",
    r"%%\n#stack:\n0+([0-9])",
    r"%%\n#stack:\nT\n[^%]*",
    r"%%\n#stack:\n`;`(?:\|1|0\|1|\|2|0\|2|1\|2|\|3|0\|3|1\|3|2\|3);[^%\n]*\n",
    r"%%\n([^%]*?#z:[^%\n]*)([,])([^%\n]{8})([@])([p])([^%]*)",
    r"%%\n([^%]*?#z:[^%\n]*)([.,PNBRQKT])([.,])([.,])([@])([^%]*)",
    r"%%\n([^%]*?#z:[^%\n]*)([.,PNBRQKT])([^%\n]{10})([.,])([^%\n]{10})([@])([^%]*)",
    r"%%\n([^%]*?#z:[^%\n]{1,1})([t])([.])([.])([.])([@])([^%]*)",
    r"%%\n([^%]*?#z:[^%\n]{1,8}\*[^%]*?#pc:P\n[^%]*?#u:)(\n[^%]*)",
    r"%%\n([^%]*?#z:[^%\n]{11,18})([@])([^%\n]{9})([.,])([^%\n]{9})([.,])([^%]*)",
    r"%%\n([^%]*?#z:[^%\n]{12,12})([PNBRQKT])([^%]*)",
    r"(#dv:H*\|)T{0}\|([0-9])\n",
    r"(#dv:H*\|T*)\|(i*)i{10}\n",
    r"(#dv:H*\|T*\|)i{0}\n",
    r"(#dv:H*\|T*\|)i{2}\n",
    r"(#pc:N\n#f:(?:d5|e5|d4|e4)\n#x:[^\n]*\n#u:[^\n]*\n#t:[^\n]*\n)",
    r"(#pc:P\n#f:[^\n]*\n#x:,\n#u:[^\n]*\n#t:[^\n]*\n#dv:H*)(\|T*)(\|i*)\n",
    r"(#pc:[^P\n]\n#f:[^\n]*\n#x:,\n#u:[^\n]*\n#t:[^\n]*\n#dv:H*)(\|T*)(\|i*)\n",
    r"(#u:n\n#t:(?:c6|d6|e6|f6|c5|f5|c4|f4|c3|d3|e3|f3)\n#dv:H*)(\|T*)(\|i*)\n",
    r"(#x:\.\n#u:[^\n]*\n#t:[^\n]*\n#dv:H*)(\|T*)(\|i*)\n",
    r"(#z:(?:[^%\n]{10})*[^%\n]{1}\*[^%]*?#t:)",
    r"(#z:[^%\n]*)\*([^%]*?#pc:([PNBRQK])\n)",
    r"(#z:[^%\n]{1,8}\*[^%]*?#u:[^%\n]*\n)",
    r"(#z:[^%\n]{4})xx",
    r"(%%\n#stack:\n#z:.{21})\.([^%]*?#ep:a6\n)",
    r"(%%\n#stack:\n#z:.{8})r([^%]*?#c:[^\n]*k)",
    r"(%%\n#stack:\n#z:[^\n]*\n#s:)B\n",
    r"(%%\n#stack:\n)([^%]*%%\n#stack:\n[^%]*?#dv:([0-9]+)\n)",
    r"(%%\n#stack:\n)([^%]*?)#y:`([0-9]{3})([0-9]{3})\n",
    r"(%%\n#stack:\n)F\n([^%]*)%%\n[^%]*",
    r"(%%\n#stack:\n[^#%]*)([^%]*)%%\n#stack:\n([^#%]*)[^%]*",
    r"(%%\n#stack:\n[^#%]*)[^%]*?(#dv:[^%\n]*\n)[^%]*",
    r"(%%\n#stack:\n[^%]*)#c:[^\n]*\n#ep:[^\n]*\n",
    r"(%%\n#stack:\n[^%]*?#z:([^\n]*)\n[^%]*)",
    r"(%%\n#stack:\n[^%]*?#z:.{1}t[^%]*?#c:K?Q?k?)",
    r"(%%\n#stack:\n[^%]*?#z:.{21},[^%]*?#ep:)-",
    r"(%%\n#stack:\n[^%]*?)#ck1:[^%\n]*\n",
    r"(%%\n[^%]*?#em:([a-h][1-8])([a-h][1-8])([qrbn]?)\n[^%]*)",
    r"(%%\n[^%]*?#sd:)([0-9]+)([0-9])\n",
    r"(%%\n[^%]*?#uf:([a-h])([1-8])\n#ut:([a-h])[^%]*)",
    r"(%%\n[^%]*?#z:[^%\n]{11}([^%\n])[^%]*?#uf:a7\n[^%]*)",
    r"(%%\n[^%]*?#z:[^%\n]{21,28}),",
    r"(%t109\n#stack:\n[^#%]*)([^%]*)%%\n#stack:\n([^#%]*)[^%]*",
    r"(`<[^>%]*><[^>%]*><[^>%]*>)<(d*)><(D*)([eE]*)>",
    r"<[a-fA-F]{0}>",
    r"Your move: *([a-h][1-8][a-h][1-8][qrbn]?) *\n",
    r"Your move: [^\n]*\n(?:[^\n]|\n)+",
    r"Your move: [^\n]{41,}\n",
    r"^((?:[^\n]*\n){3}[^\n~]*)~",
    r"`(?:a8|b8|c8|g8|h8)k",
    r"`(?:c6|d6|e6|f6|c5|f5|c4|f4|c3|d3|e3|f3)N",
    r"`(i*);`iiiiiiiiii(i*);((?:`i*;){1})\n",
    r"`(i*)\|0;",
    r"`[a-h][1-8][.,]",
    r"`iii;",
    r"(#x:p\n#u:[^\n]*\n#t:(?:12|7)\n#dv:H*)(\|T*)(\|i*)\n",
    r"#z:(?:[^%\n]{3})*[^%\n]{2}\*[^%]*?#t:",
    r"#z:(?:[^%\n]{2})*?[^%\n]\*",
    r"#z:[^%\n]*?(\*)[^%\n]{1,3}?([@.])",
    r"(?:[^%\n]{3})*\*",
    r"(?:\.|,[.,])+@",
];

/// States of a real turn (after the user played e2e4), shortened.
pub(crate) const REAL_STATES: &[&str] = &[
    "New game. Type moves like e2e4 (e7e8q to promote), help or quit.\n%t34\n#stack:\n\
     #nl:You played e2e4.\n#ok:T\n#s:b\n#h:0\n#m:e2e4\n#pr:Your move: \n#msg:\n\
     #z:/tnbqkbnt//pppppppp//........//........//....P...//....,...//PPPP.PPP//TNBQKBNT/\n\
     #e:b\n#n:1\n#ic:ok\n#i:e2e4\n",
    "%t326\n#stack:\n#ev:4998\n#em:b8a6\n#s:w\n#m:b8a6\n#ok:T\n\
     #z:/t.bqkbnt//pppppppp//n.......//........//....P...//........//PPPP.PPP//TNBQKBNT/\n\
     #ck:F\n%t328\n#stack:\n#ev:4998\n#em:b8a6\n#s:w\n#m:b8a6\n#ok:T\n\
     #z:/t.bqkbnt//pppppppp//n.......//....*...//........//........//PPPP.PPP//TNBQKBNT/\n\
     #ck:F\n#pc:P\n#f:e4\n#x:.\n#u:\n%t328\n#stack:\n#ev:4998\n#em:b8a6\n#s:w\n\
     #z:/t.bqkbnt//pppppppp//n.......//........//*...P...//,.......//.PPP.PPP//TNBQKBNT/\n\
     #ck:F\n#pc:P\n#f:a2\n#x:.\n#u:\n",
    "%t419\n#stack:\n#dis:\n#pl:N\n#rvr:F\n#rvf:F\n#rv:F\n#v:4998\n#em:b8c6\n\
     #nl:You played e2e4.\n#ok:T\n#s:b\n#h:0\n#m:e2e4\n#pr:Your move: \n#msg:\n\
     #z:/tnbqkbnt//pppppppp//........//........//....P...//....,...//PPPP.PPP//TNBQKBNT/\n\
     #e:b\n#n:1\n#ic:ok\n#i:e2e4\n#uf:b8\n#ut:c6\n#upr:\n#uff:b\n#ufr:8\n#utf:c\n\
     #upc:n\n#utc:.\n",
    "%%\n#stack:\n`;`0|3;rest\n%%\n#stack:\nF\nT\n%%\n#stack:\n007\n",
    "#dv:HH|TTT|iiiiiiiiiiii\n#dv:H|3\n`iii;`iiiiiiiiiiiii;`ii;\n`<aa><bb><c><dd><DD>>\n",
    "#pc:N\n#f:d5\n#x:,\n#u:q\n#t:c6\n#dv:HH|TT|iii\nYour move:  e2e4 \nYour move: \n\n",
];
