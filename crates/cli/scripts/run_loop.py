"""The README's loop: run a program file as `regex-chess run` runs it.

python3 run_loop.py PROGRAM.json < INPUT: one pass from the empty state,
then for each input line the line and "\n" appended and one pass; the
state printed after every pass. Used by `regex-chess corpus bench` (the
whole-process time) and the corpus test (the bytes).
"""

import json
import re
import sys

rewrites = [(re.compile(p), r) for p, r in json.load(open(sys.argv[1], encoding="utf-8"))]
state = ""
while True:
    for pattern, replacement in rewrites:
        state = pattern.sub(replacement, state)
    sys.stdout.write(state)
    line = sys.stdin.readline()
    if not line:
        break
    state += line.rstrip("\n") + "\n"
sys.stdout.flush()
