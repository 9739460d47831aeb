"""Plays regex-chess through python-chess's UCI client.

usage: uci_python.py ENGINE OPPONENT PLIES SEED COLOR [FEN]

ENGINE is the regex-chess binary (run as `ENGINE uci`); OPPONENT is
`random` (a seeded random mover) or the path of a Stockfish binary (played
at Skill Level 0 with a short movetime); COLOR is the side regex-chess
plays, `white` or `black`; FEN is the start position (the standard one
when absent). Every move regex-chess returns must be legal; the script
exits non-zero otherwise and prints one summary line when the game is over
or PLIES plies were played.
"""

import random
import sys

import chess
import chess.engine


def main():
    engine_path, opponent, plies, seed, color = sys.argv[1:6]
    plies, seed = int(plies), int(seed)
    ours = chess.WHITE if color == "white" else chess.BLACK
    board = chess.Board(sys.argv[6]) if len(sys.argv) > 6 else chess.Board()
    rng = random.Random(seed)

    engine = chess.engine.SimpleEngine.popen_uci([engine_path, "uci"], timeout=60)
    stockfish = None
    try:
        name = engine.id.get("name", "")
        assert name.startswith("regex-chess "), f"engine name {name!r}"
        if opponent != "random":
            stockfish = chess.engine.SimpleEngine.popen_uci(opponent, timeout=60)
            stockfish.configure({"Skill Level": 0})
        ours_played = 0
        while len(board.move_stack) < plies and not board.is_game_over():
            if board.turn == ours:
                result = engine.play(
                    board, chess.engine.Limit(time=0.05), info=chess.engine.INFO_ALL
                )
                move = result.move
                assert move is not None, f"no move in {board.fen()}"
                assert move in board.legal_moves, f"illegal {move} in {board.fen()}"
                info = result.info
                assert info.get("depth") == 2, f"info {info}"
                assert info.get("nodes", 0) > 0, f"info {info}"
                assert "score" in info, f"info {info}"
                ours_played += 1
            elif stockfish is not None:
                move = stockfish.play(board, chess.engine.Limit(time=0.01)).move
            else:
                move = rng.choice(sorted(board.legal_moves, key=lambda m: m.uci()))
            board.push(move)
    finally:
        engine.quit()
        if stockfish is not None:
            stockfish.quit()

    outcome = board.outcome()
    print(
        f"regex-chess ({color}) vs {'random' if stockfish is None else 'stockfish'}: "
        f"{len(board.move_stack)} plies, {ours_played} engine moves, all legal; "
        f"result {board.result() if outcome else '* (unfinished)'}; final {board.fen()}"
    )


if __name__ == "__main__":
    main()
