"""Benchmark of blindchess.language.notation (a plain script, not a pytest test).

Prints median and p99 of ``read`` on the position with 218 legal moves (every
move written in German FIDE style, and the same set with slips and errors),
of ``write``, and of ``read_score`` on a long game and on 10 MB of text.

    .venv/bin/python tests/benchmarks/bench_notation.py [--announce-only]

``announce_stream`` writes a file of a large tournament archive's shape (19 MB, 271,428
short games) and runs ``blindchess announce`` on it in a subprocess: wall time
and the child's peak resident memory (ru_maxrss).
"""

from __future__ import annotations

import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import chess

from blindchess.language import notation as N

FEN_218 = "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1"


def timed(fn, items, repeat: int = 3) -> list[float]:
    out = []
    for _ in range(repeat):
        for item in items:
            t = time.perf_counter()
            fn(item)
            out.append(time.perf_counter() - t)
    return out


def report(name: str, samples: list[float]) -> None:
    samples = sorted(samples)
    p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
    print(f"{name:48s} n={len(samples):6d}  median {statistics.median(samples) * 1e3:7.3f} ms"
          f"  p99 {p99 * 1e3:7.3f} ms  max {samples[-1] * 1e3:7.3f} ms")


def main() -> None:
    board = chess.Board(FEN_218)
    moves = list(board.legal_moves)
    assert len(moves) == 218
    written = [N.write(board, m, "de") for m in moves]
    N.read(board, written[0], "de")                          # warm the caches once
    report("read 218-move position, correct SAN (de)", timed(lambda w: N.read(board, w, "de"), written))
    report("read 218-move position, no language hint", timed(lambda w: N.read(board, w), written))
    long_form = [f"{chess.square_name(m.from_square)}-{chess.square_name(m.to_square)}" for m in moves]
    report("read 218-move position, long form e2-e4", timed(lambda w: N.read(board, w, "de"), long_form))
    rng = random.Random(1)
    wrong = [w[:-1] + rng.choice("12345678") for w in written]      # mostly illegal -> suggestions
    report("read 218-move position, wrong rank (suggest)", timed(lambda w: N.read(board, w, "de"), wrong, 1))
    junk = ["Dz9", "xyz", "Sf", "D", "??", "Hallo"]
    report("read 218-move position, unreadable", timed(lambda w: N.read(board, w, "de"), junk, 5))
    report("write 218-move position (de, fide)", timed(lambda m: N.write(board, m, "de"), moves))

    # a long random game, read back as a scoresheet
    rng = random.Random(7)
    b = chess.Board()
    game = []
    while not b.is_game_over() and len(game) < 400:
        m = rng.choice(list(b.legal_moves))
        game.append(m)
        b.push(m)
    text = N.write_score(chess.Board(), game, "de")
    t = time.perf_counter()
    score = N.read_score(text, lang="de")
    dt = time.perf_counter() - t
    assert score.ok and score.moves == game
    print(f"read_score {len(game)}-ply game: {dt * 1e3:.1f} ms ({dt / len(game) * 1e6:.0f} µs per half-move)")
    big = ("1. e4 e5 2. Sf3 Кc6 {κείμενο} 漢字 ☃ " * 300_000)[:10_000_000]
    t = time.perf_counter()
    N.read_score(big)
    print(f"read_score 10 MB of mixed text: {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    N.read_score("Sf3 Sf6 Sg1 Sg8 " * 700_000)
    print(f"read_score 11 MB of legal shuffling (capped at {N.MAX_PLIES} plies): {time.perf_counter() - t:.2f} s")


OPENINGS = ("1. e4 e5 2. Nf3 Nc6 3. Bb5 *", "1. d4 Nf6 2. c4 e6 3. Nc3 *", "1. c4 e5 2. Nc3 Nf6 *",
            "1. e4 c5 2. Nf3 d6 3. d4 *", "1. Nf3 d5 2. g3 Nf6 *")


def many_games_file(path: Path, games: int = 271_428) -> int:
    """A PGN file of ``games`` short games (about 70 bytes each: 19 MB for 271,428 games)."""
    with path.open("w", encoding="utf-8") as f:
        for i in range(games):
            f.write(f'[White "W{i}"]\n[Black "B{i}"]\n\n{OPENINGS[i % len(OPENINGS)]}\n\n')
    return path.stat().st_size


def announce_stream(games: int = 271_428) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "many.pgn"
        size = many_games_file(path, games)
        t = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        done = subprocess.run([sys.executable, "-m", "blindchess", "announce", str(path)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
        dt = time.perf_counter() - t
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        assert done.returncode == 0, done.stderr.decode()
        print(f"announce {size / 1e6:.1f} MB, {games} games: {dt:.1f} s, peak RSS {max(peak, before) / 1024:.0f} MB")


if __name__ == "__main__":
    if "--announce-only" not in sys.argv:
        main()
    announce_stream()
