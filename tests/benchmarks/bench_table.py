"""The cost of a move at the table does not grow with the game; a right mirror counts at once.

Plays generated games of 50 and 400 half-moves (random legal moves, seeded; no move that ends the game)
through the scenario runner — the table, the rules engine, the journal, the speech policy — twice:
with the blind player's peg-board (every peg lifted and placed as a hand does it: captures, castling,
en passant, promotions) and without an electronic tactile board (his announcements make his moves).
Counts python-chess board pushes (every SAN, legality probe and position kept) and the wall-clock time
per half-move. Then measures how long after the last peg of a right mirror the table acknowledges it
(script time: when ``mirrored`` is reported; wall clock: the processing of that peg line).

    .venv/bin/python tests/benchmarks/bench_table.py [--seed N]

Figures go in docs/developer/benchmarks.md (the speed table); no test asserts them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

import chess

from blindchess.language import phonetic
from blindchess.scenario import HeadlessFront, parse, play
from blindchess.table.commands import ClockPress, PegLine, SightedMove, Tick
from blindchess.table.events import MirrorDone
from blindchess.table.table import Table, TableSetup


def generate(plies: int, seed: int) -> list[chess.Move] | None:
    """``plies`` random legal moves none of which ends the game (None: this seed's game ended sooner)."""
    rnd = random.Random(seed)
    board = chess.Board()
    moves: list[chess.Move] = []
    while len(moves) < plies:
        candidates = []
        for move in board.legal_moves:
            board.push(move)
            if board.outcome(claim_draw=False) is None:
                candidates.append(move)
            board.pop()
        if not candidates:
            return None
        move = rnd.choice(candidates)
        moves.append(move)
        board.push(move)
    return moves


def peg_lines(board: chess.Board, move: chess.Move) -> list[str]:
    """The peg-board lines of a hand making ``move`` (a captured peg taken off first)."""
    name = chess.square_name
    if board.is_castling(move):
        rook_from = move.to_square if board.piece_type_at(move.to_square) == chess.ROOK else \
            chess.square(7 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else 0,
                         chess.square_rank(move.from_square))
        rank = chess.square_rank(move.from_square)
        kingside = chess.square_file(rook_from) > chess.square_file(move.from_square)
        king_to, rook_to = (chess.square(6, rank), chess.square(5, rank)) if kingside else \
            (chess.square(2, rank), chess.square(3, rank))
        return [f"L {name(move.from_square)}", f"L {name(rook_from)}", f"P {name(king_to)}", f"P {name(rook_to)}"]
    lines = []
    if board.is_en_passant(move):
        lines.append(f"L {name(move.to_square + (-8 if board.turn == chess.WHITE else 8))}")
    elif board.is_capture(move):
        lines.append(f"L {name(move.to_square)}")
    return lines + [f"L {name(move.from_square)}", f"P {name(move.to_square)}"]


def script(moves: list[chess.Move], pegboard: bool) -> str:
    """The blind player (White) announces and places his moves, mirrors Black's; the assistant mirrors."""
    lines = ["@white Bernd Blind", "@black Sabine Sehend", "@time 90+30"]
    if not pegboard:
        lines.append("@tactile none")
    board = chess.Board()
    t = 1.0
    for move in moves:
        words = phonetic.announce(board, move, "de")
        if board.turn == chess.WHITE:
            if pegboard:
                for i, line in enumerate(peg_lines(board, move)):
                    lines.append(f"{t + 0.1 * i:.1f} peg {line}")
                t += 1.0
            lines.append(f"{t:.1f} blind says {words}")
            lines.append(f"{t + 0.5:.1f} clock press white")
            lines.append(f"{t + 1.0:.1f} sighted move {move.uci()}")
        else:
            lines.append(f"{t:.1f} sighted move {move.uci()}")
            lines.append(f"{t + 0.5:.1f} clock press black")
            if pegboard:
                for i, line in enumerate(peg_lines(board, move)):
                    lines.append(f"{t + 1.0 + 0.1 * i:.1f} peg {line}")
                t += 1.0
        board.push(move)
        t += 3.0
    return "\n".join(lines) + "\n"


def measure(text: str) -> tuple[int, int, float]:
    """(half-moves made, board pushes, seconds) of one scripted game."""
    pushes = [0]
    push = chess.Board.push

    def counting(self: chess.Board, move: chess.Move) -> None:
        pushes[0] += 1
        push(self, move)

    with tempfile.TemporaryDirectory() as folder:
        parsed = parse(text, "de")
        chess.Board.push = counting  # type: ignore[method-assign]
        try:
            start = time.perf_counter()
            events = play(parsed, HeadlessFront(), Path(folder) / "game.jsonl")
            seconds = time.perf_counter() - start
        finally:
            chess.Board.push = push  # type: ignore[method-assign]
    return int(events[-1]["plies"]), pushes[0], seconds  # type: ignore[call-overload]


def mirror_latency(rounds: int = 40) -> tuple[list[float], list[float]]:
    """Script-time delay between a right mirror's last peg and its acknowledgement; wall-clock ms of that
    peg line's processing."""
    delays: list[float] = []
    wall: list[float] = []
    for _ in range(rounds):
        table = Table.new(TableSetup(blind="black", time_control="90+30"), 0.0)
        seen: list[object] = []
        table.subscribe(seen.append)
        table.handle(SightedMove("e2e4"), 1.0)
        table.handle(ClockPress(chess.WHITE), 1.5)
        table.handle(PegLine("L e2"), 3.0)
        start = time.perf_counter()
        table.handle(PegLine("P e4"), 3.2)
        wall.append(1000 * (time.perf_counter() - start))
        table.handle(Tick(), 5.0)
        mirrored = [ev for ev in seen if isinstance(ev, MirrorDone) and ev.board == "tactile" and ev.ply == 1]
        delays.append(1000 * (mirrored[0].t - 3.2) if mirrored else float("inf"))
    return delays, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for pegboard in (True, False):
        label = "peg-board" if pegboard else "no tactile board"
        rows = []
        for plies in (50, 400):
            seed = args.seed
            while (moves := generate(plies, seed)) is None:
                seed += 1
            made, pushes, seconds = measure(script(moves, pegboard))
            rows.append((plies, made, pushes / made, 1000 * seconds / made))
            print(f"{label:17} {plies:3} half-moves (seed {seed}): {made} made, "
                  f"{pushes / made:6.1f} pushes and {1000 * seconds / made:6.2f} ms per half-move")
        print(f"{label:17} 400 against 50: pushes x{rows[1][2] / rows[0][2]:.2f}, time x{rows[1][3] / rows[0][3]:.2f}")
    delays, wall = mirror_latency()
    print(f"right mirror acknowledged {max(delays):.0f} ms (script time) after its last peg; "
          f"processing median {statistics.median(wall):.2f} ms, max {max(wall):.2f} ms")


if __name__ == "__main__":
    main()
