"""Drives `regex-chess play` under a pseudo-terminal, as a person would.

Usage: python3 play_pty.py BINARY. The binary's standard input, output and
error are the pty's far end (so `play` takes its line-editing path); this
script answers the terminal's cursor-position query as a terminal does,
types a move with a line-editing key (`2e4`, Ctrl-A to go to the start of
the line, `e`: only the line editor makes that `e2e4`; a terminal's plain
line mode would pass the Ctrl-A through), waits for the engine's reply, takes the moves back with
`undo`, ends with `quit` and exits with the binary's exit status. Any
missing answer within the time limit exits 2 with the transcript so far.
"""

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

TIMEOUT = 300.0  # seconds for any one answer (debug builds are slow)

binary = sys.argv[1]
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
env = dict(os.environ, TERM="xterm")
child = subprocess.Popen(
    [binary, "play", "--depth", "2", "--ascii"],
    stdin=slave,
    stdout=slave,
    stderr=slave,
    env=env,
    start_new_session=True,
)
os.close(slave)
seen = b""


def fail(why):
    sys.stdout.write(f"FAILED: {why}\n--- transcript ---\n")
    sys.stdout.write(seen.decode("utf-8", "replace"))
    sys.stdout.flush()
    child.kill()
    sys.exit(2)


def expect(text, start):
    """Reads until `text` appears after offset `start`; returns its end."""
    global seen
    want = text.encode()
    deadline = time.monotonic() + TIMEOUT
    while True:
        i = seen.find(want, start)
        if i >= 0:
            return i + len(want)
        left = deadline - time.monotonic()
        if left <= 0:
            fail(f"no {text!r} within {TIMEOUT:.0f} s")
        ready, _, _ = select.select([master], [], [], min(left, 1.0))
        if not ready:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the far end closed (EIO on Linux)
            chunk = b""
        if not chunk:
            fail(f"the terminal closed before {text!r}")
        # A terminal answers "where is the cursor?" (ESC [ 6 n).
        if b"\x1b[6n" in chunk:
            os.write(master, b"\x1b[1;1R")
        seen += chunk


def send(line):
    os.write(master, line.encode() + b"\r")


at = expect("Your move: ", 0)
send("2e4\x01e")
at = expect("You played e2e4 (e4). The engine played ", at)
at = expect("Your move: ", at)
send("undo")
at = expect("Taken back.", at)
at = expect("Your move: ", at)
send("undo")
at = expect("Nothing to take back.", at)
at = expect("Your move: ", at)
send("quit")
at = expect("Bye.", at)
try:
    status = child.wait(timeout=TIMEOUT)
except subprocess.TimeoutExpired:
    fail("the program did not exit after quit")
# Drain what is left so the transcript is whole.
while select.select([master], [], [], 0.2)[0]:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    seen += chunk
sys.stdout.write(seen.decode("utf-8", "replace"))
sys.exit(status)
