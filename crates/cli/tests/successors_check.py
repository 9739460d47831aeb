"""The successors list under CPython's plain loop against python-chess.

Usage: successors_check.py all|queen LIST.json PERFT.epd OUT.json

Builds a seeded set of positions as python-chess writes them (random games
from the start and from every perft.epd position, games that favour pawn
moves and captures so that promotions and en passant come up, hand-made
positions, long clocks), runs the rewrite list (all promotions, or to a
queen only) on each position with

    for p, r in pairs: fen = re.sub(p, r, fen)

and compares the lines with python-chess's legal moves applied
(`Board.fen()`), as sets and in the order of the moves' UCI text; checks
for duplicates and empty lines. Writes the positions, what was fed to the
list (with or without a final newline) and every output to OUT.json for
the other engines, prints a summary, and exits 1 on any difference.
"""

import json
import random
import re
import statistics
import sys
import time

import chess

# Clocks of thousands of digits are python-chess FENs too.
sys.set_int_max_str_digits(0)

HAND_MADE = [
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1",
    "r3k2r/1P6/8/8/8/8/1p6/R3K2R b KQkq - 99 12345",
    "r3k2r/1P6/8/8/8/8/1p6/R3K2R w KQkq - 7 30",
    "8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1",
    "4k3/3p4/8/4P3/8/8/8/K6b w - - 0 1",
    "k6B/8/8/8/4p3/8/3P4/4K3 w - - 0 1",
    "4k3/8/8/8/1p1p4/8/2P5/4K3 w - - 0 1",
    "8/8/8/8/2p5/8/3P4/2k1K3 w - - 0 1",
    "4k3/8/8/2Pp4/8/8/8/4K3 w - d6 0 1",
    "8/8/3k4/8/3pP3/8/8/3RK3 b - e3 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "7k/8/8/8/8/8/8/K7 w - - 0 1",
]


def long_clock(rng):
    """A decimal of up to thousands of digits, often with long runs of nines."""
    kind = rng.randrange(20)
    if kind == 0:
        return str(rng.randrange(1, 10)) + "9" * rng.randrange(1020, 1030)
    if kind == 1:
        return "9" * rng.randrange(2045, 2050)
    if kind < 8:
        return "9" * rng.randrange(1, 40)
    if kind < 14:
        return str(rng.randrange(1, 10**30))
    return str(rng.randrange(1, 10)) + "".join(rng.choice("0123456789") for _ in range(rng.randrange(5, 60)))


def pick(board, rng, eager):
    """A random legal move; with `eager`, pawn moves, captures and
    promotions are favoured."""
    moves = list(board.legal_moves)
    if eager and rng.random() < 0.7:
        keen = [m for m in moves if m.promotion or board.is_capture(m)
                or board.piece_type_at(m.from_square) == chess.PAWN]
        if keen:
            return rng.choice(keen)
    return rng.choice(moves)


def positions(perft_path, seed):
    rng = random.Random(seed)
    starts = [chess.STARTING_FEN]
    for line in open(perft_path, encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            starts.append(line.split(";")[0].strip())
    fens = [chess.Board(f).fen() for f in HAND_MADE + starts]
    for game in range(120):
        board = chess.Board(starts[game % len(starts)])
        eager = game % 3 != 0
        for _ in range(rng.randrange(10, 160)):
            if board.is_game_over(claim_draw=False):
                break
            board.push(pick(board, rng, eager))
            if rng.random() < 0.12:
                fens.append(board.fen())
        fens.append(board.fen())
    out = []
    for fen in fens:
        if rng.random() < 0.1:
            fields = fen.split(" ")
            fields[4] = long_clock(rng) if rng.random() < 0.8 else fields[4]
            fields[5] = long_clock(rng) if rng.random() < 0.8 else fields[5]
            fen = chess.Board(" ".join(fields)).fen()
        out.append(fen)
    return list(dict.fromkeys(out))


def expected(board, queen_only):
    pairs = []
    for move in board.legal_moves:
        if queen_only and move.promotion not in (None, chess.QUEEN):
            continue
        board.push(move)
        pairs.append((move.uci(), board.fen()))
        board.pop()
    pairs.sort()
    return [fen for _, fen in pairs]


def categories(board):
    found = set()
    if board.turn == chess.BLACK:
        found.add("black to move")
    moves = list(board.legal_moves)
    if not moves:
        found.add("no legal move")
    if any(m.promotion for m in moves):
        found.add("promotion")
    if any(board.is_castling(m) for m in moves):
        found.add("castling")
    if any(board.is_en_passant(m) for m in moves):
        found.add("en passant capture")
    if board.castling_rights and any(
        board.is_capture(m) and m.to_square in (chess.A1, chess.H1, chess.A8, chess.H8)
        for m in moves
    ):
        found.add("capture on a rook's corner")
    for m in moves:
        if board.piece_type_at(m.from_square) == chess.PAWN and abs(m.to_square - m.from_square) == 16:
            board.push(m)
            legal_ep = board.ep_square is not None and board.has_legal_en_passant()
            pseudo_ep = board.ep_square is not None and board.has_pseudo_legal_en_passant()
            board.pop()
            if legal_ep:
                found.add("double push allowing en passant")
            elif pseudo_ep:
                found.add("double push, en passant not legal")
    fields = board.fen().split(" ")
    if len(fields[4]) >= 10 or len(fields[5]) >= 10:
        found.add("long clocks")
    return found


def main():
    variant, path, perft_path, out_path = sys.argv[1:5]
    queen_only = variant == "queen"
    fens = positions(perft_path, 34)
    fed = [fen + "\n" if i % 2 else fen for i, fen in enumerate(fens)]
    counts = {}
    for fen in fens:
        for c in categories(chess.Board(fen)):
            counts[c] = counts.get(c, 0) + 1
    pairs = json.load(open(path, encoding="utf-8"))
    outputs, times, failures = [], [], []
    for i, (fen, given) in enumerate(zip(fens, fed)):
        text = given
        start = time.perf_counter()
        for p, r in pairs:
            text = re.sub(p, r, text)
        times.append(time.perf_counter() - start)
        outputs.append(text)
        want = expected(chess.Board(fen), queen_only)
        lines = text.split("\n") if text else []
        problems = []
        if set(lines) != set(want):
            problems.append("missing %s, extra %s" % (
                sorted(set(want) - set(lines))[:3], sorted(set(lines) - set(want))[:3]))
        if len(set(lines)) != len(lines):
            problems.append("duplicate lines")
        if "" in lines or text.endswith("\n"):
            problems.append("an empty line")
        if lines != want:
            problems.append("not in the order of the moves' UCI text")
        if i % 10 < 2:
            # The same position with the other ending (`fed` alternates).
            other = fen if given.endswith("\n") else fen + "\n"
            for p, r in pairs:
                other = re.sub(p, r, other)
            if other != text:
                problems.append("a final newline changes the output")
        if problems:
            failures.append("%s (%s): %s" % (fen[:200], variant, "; ".join(problems)))
    times.sort()
    json.dump({"positions": fens, "fed": fed, "categories": counts, "outputs": outputs,
               "failures": failures}, open(out_path, "w", encoding="utf-8"))
    print("%d positions; categories: %s" % (len(fens), json.dumps(counts, sort_keys=True)))
    print("%s: %d lines, median %.2f ms, 90th percentile %.2f ms, max %.2f ms per position (CPython %s)"
          % (variant, sum(len(o.split("\n")) for o in outputs if o), statistics.median(times) * 1e3,
             times[int(len(times) * 0.9)] * 1e3, times[-1] * 1e3, sys.version.split()[0]))
    for f in failures[:10]:
        print("DIFFERENCE:", f)
    print("%d differences" % len(failures))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
