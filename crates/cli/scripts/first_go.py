"""Times a first `go` on a clock sent at once after launching `regex-chess uci`.

Usage: python3 first_go.py BINARY [RUNS] [--isready]

Each run launches `BINARY uci` and sends `uci`, `position startpos` and
`go wtime 10000 btime 10000 winc 100 binc 100` at once (with --isready,
`ucinewgame` and `isready` first, the `go` at once after `readyok`, as
python-chess does before a game's first move). It prints, per run, the
time from launch to `bestmove`, the process's CPU time (user + system,
all its threads, read from /proc when `bestmove` arrives) and the depths
the search finished and skipped; then the median, minimum and maximum of
the times and the median CPU time, and the load average before and after.
Linux only (/proc).
"""

import os
import statistics
import subprocess
import sys
import time

GO = "go wtime 10000 btime 10000 winc 100 binc 100"


def cpu_seconds(pid):
    """User and system time of process `pid` so far, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        # The fields after the command name, which is in parentheses.
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def one_run(binary, isready):
    start = time.perf_counter()
    engine = subprocess.Popen(
        [binary, "uci"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )

    def send(*lines):
        engine.stdin.write("".join(line + "\n" for line in lines))
        engine.stdin.flush()

    send("uci")
    if isready:
        send("ucinewgame", "isready")
        while engine.stdout.readline().strip() != "readyok":
            pass
    send("position startpos", GO)
    finished, skipped = [], []
    while True:
        line = engine.stdout.readline()
        if not line:
            sys.exit("the engine closed its output before bestmove")
        words = line.split()
        if words[0] == "bestmove":
            took = time.perf_counter() - start
            cpu = cpu_seconds(engine.pid)
            best = words[1]
            break
        if words[:2] == ["info", "depth"]:
            finished.append(words[2])
        if words[:3] == ["info", "string", "depth"] and "skipped:" in words:
            skipped.append(words[3])
    send("quit")
    engine.wait()
    return took, cpu, best, finished, skipped


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if not args:
        sys.exit(__doc__)
    binary = args[0]
    runs = int(args[1]) if len(args) > 1 else 10
    isready = "--isready" in sys.argv
    load_before = os.getloadavg()
    times, cpus = [], []
    for _ in range(runs):
        took, cpu, best, finished, skipped = one_run(binary, isready)
        times.append(took)
        cpus.append(cpu)
        print(
            f"{took:.3f} s, CPU {cpu:.2f} s: bestmove {best}; finished "
            f"{','.join(finished) or '-'}; skipped {','.join(skipped) or '-'}",
            flush=True,
        )
    load_after = os.getloadavg()
    print(
        f"launch to bestmove: median {statistics.median(times):.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}, {runs} runs); "
        f"CPU to bestmove: median {statistics.median(cpus):.2f} s; "
        f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after"
    )


if __name__ == "__main__":
    main()
