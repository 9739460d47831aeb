"""Times one game's passes of program files under `regex-chess run` and
under CPython's `re` (the README's loop, patterns compiled once, not
timed), checks that both print the same bytes, and prints the median time
of each pass and the ratio.

    python3 -I docs/run_vs_cpython.py target/release/regex-chess \
        turn.json stack.json --lines e2e4,g1f3,f1c4 --reps 5

Each repetition runs every program on both sides in turn (alternated), so
a change of load hits them alike. Pass 1 boots the start screen; each
later pass is one turn (the line, the engine's reply, the screen).
"""

import argparse
import json
import re
import statistics
import subprocess
import sys
import time


def ours(binary, program, text):
    out = subprocess.run(
        [binary, "run", program, "--stats"],
        input=text.encode(),
        capture_output=True,
        check=True,
    )
    times = [
        float(line.split()[2])
        for line in out.stderr.decode().splitlines()
        if line.startswith("pass ")
    ]
    return out.stdout, times


def cpython(rewrites, lines):
    state, printed, times = "", [], []
    for line in [None] + lines:
        if line is not None:
            state += line + "\n"
        start = time.perf_counter()
        for pattern, replacement in rewrites:
            state = pattern.sub(replacement, state)
        times.append((time.perf_counter() - start) * 1e3)
        printed.append(state)
    return "".join(printed).encode(), times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("programs", nargs="+")
    ap.add_argument("--lines", default="e2e4,g1f3,f1c4")
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    lines = args.lines.split(",")
    text = "".join(l + "\n" for l in lines)
    compiled = {
        p: [(re.compile(a), b) for a, b in json.load(open(p, encoding="utf-8"))]
        for p in args.programs
    }
    got = {p: ([], []) for p in args.programs}
    for _ in range(args.reps):
        for p in args.programs:
            out_ours, t_ours = ours(args.binary, p, text)
            out_py, t_py = cpython(compiled[p], lines)
            if out_ours != out_py:
                sys.exit(f"{p}: regex-chess run and CPython print different bytes")
            got[p][0].append(t_ours)
            got[p][1].append(t_py)
    print("program | pass | input | run ms | CPython ms | ratio")
    for p in args.programs:
        t_ours, t_py = got[p]
        for i in range(len(lines) + 1):
            a = statistics.median(r[i] for r in t_ours)
            b = statistics.median(r[i] for r in t_py)
            line = lines[i - 1] if i else "(boot)"
            print(f"{p} | {i + 1} | {line} | {a:.1f} | {b:.1f} | {b / a:.1f}x")


main()
