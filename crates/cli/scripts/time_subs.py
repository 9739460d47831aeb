"""Times `re.sub` on cases, one by one, under CPython.

Used by `regex-chess bench --engine`. Reads a JSON job on standard input:
{"cases": [[pattern, replacement, subject], ...], "min_ms": t,
"outputs": bool}. For each case it compiles the pattern once, then calls
`compiled.sub(replacement, subject)` until at least `min_ms` have passed
(at least once), counting the thread's CPU time (`time.thread_time`:
other processes on a loaded machine disturb it less than the wall's),
and prints JSON: each case's time per call in ms
("times") and, when asked, each case's result ("outputs").
"""

import json
import re
import sys
import time


def main():
    job = json.load(sys.stdin)
    clock = time.thread_time
    budget = job["min_ms"] / 1000.0
    times, outputs = [], []
    for pattern, replacement, subject in job["cases"]:
        compiled = re.compile(pattern)
        calls = 0
        t0 = clock()
        while True:
            out = compiled.sub(replacement, subject)
            calls += 1
            elapsed = clock() - t0
            if elapsed >= budget:
                break
        times.append(elapsed * 1000.0 / calls)
        if job["outputs"]:
            outputs.append(out)
    json.dump({"times": times, "outputs": outputs}, sys.stdout)


main()
