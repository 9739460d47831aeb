"""Times every rewrite of a program under CPython's `re`, one by one.

Used by `regex-chess bench --profile N --program FILE`. Reads a JSON job
on standard input: {"pairs": [[pattern, replacement], ...], "runs": n,
"lines": [line, ...]}. Runs the passes `regex-chess run` runs (one from
the empty state, then one per line appended with "\n") `runs` times and
prints JSON: for each pass and rewrite the fastest time over the runs in
ms ("times"), the state's length in characters before the rewrite
("sizes") and the number of matches `re.subn` replaced ("matches"); and
the final state ("state").
"""

import json
import re
import sys
import time


def main():
    job = json.load(sys.stdin)
    rewrites = [(re.compile(p), r) for p, r in job["pairs"]]
    clock = time.perf_counter
    best = None
    for _ in range(job["runs"]):
        state = ""
        times, sizes, matches = [], [], []
        for line in [None] + job["lines"]:
            if line is not None:
                state += line + "\n"
            t, s, m = [], [], []
            for pattern, replacement in rewrites:
                s.append(len(state))
                t0 = clock()
                state, n = pattern.subn(replacement, state)
                t.append((clock() - t0) * 1000.0)
                m.append(n)
            times.append(t)
            sizes.append(s)
            matches.append(m)
        if best is None:
            best = times
        else:
            best = [[min(a, b) for a, b in zip(x, y)] for x, y in zip(best, times)]
    json.dump({"times": best, "sizes": sizes, "matches": matches, "state": state}, sys.stdout)


main()
