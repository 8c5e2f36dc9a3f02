"""Benchmark: the D.2.9 ruling on a 300-ply game (target: well under 50 ms).

Plain script (not a pytest test); prints median and p99 in milliseconds for:

* ``text``: both scores as whole texts, different languages (German vs English
  letters), read with blindchess.language.notation, the boards diverged at ply 250,
  the scores differ at ply 240 (a retrace) — the worst realistic case;
* ``entries``: both scores as lists of written entries (German / English);
* ``session``: ``Session.propose_ruling()`` on a 300-ply session whose scores
  were read as they were written (the app's case);
* ``floor``: ``notation.read`` alone on every entry of both scores in its
  position — what the ruling costs at least, since every written entry goes
  through the one reader (no fast path of its own).

The machine is shared by several engineers: figures vary with load.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


from blindchess.game import Player, Session  # noqa: E402
from blindchess.language import notation  # noqa: E402
from blindchess.laws.ruling import rule  # noqa: E402


def long_game(plies: int, seed: int) -> list[chess.Move]:
    """A random legal game of exactly ``plies`` half-moves (retries until no early end)."""
    rng = random.Random(seed)
    while True:
        board = chess.Board()
        moves = []
        while len(moves) < plies and not board.is_game_over(claim_draw=False):
            legal = sorted(board.legal_moves, key=lambda m: m.uci())
            # prefer quiet moves so the game lasts
            quiet = [m for m in legal if not board.is_capture(m)] or legal
            m = rng.choice(quiet)
            board.push(m)
            moves.append(m)
        if len(moves) == plies:
            return moves
        seed += 1000
        rng = random.Random(seed)


def entries(moves: list[chess.Move], lang: str) -> list[str]:
    board = chess.Board()
    out = []
    for m in moves:
        out.append(notation.write(board, m, lang))
        board.push(m)
    return out


def measure(fn, runs: int) -> tuple[float, float, float, float, float]:
    """(wall median, wall p99, CPU median, CPU p99, CPU min) in milliseconds."""
    fn()  # warm-up
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)

    def p99(xs):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(round(0.99 * (len(xs) - 1))))]

    return statistics.median(wall), p99(wall), statistics.median(cpu), p99(cpu), min(cpu)


def main() -> None:
    moves = long_game(300, 7)
    board = chess.Board()
    for m in moves:
        board.push(m)
    de, en = entries(moves, "de"), entries(moves, "en")
    # score B differs at ply 240 (a different legal move there)
    b2 = chess.Board()
    for m in moves[:239]:
        b2.push(m)
    other = next(m for m in sorted(b2.legal_moves, key=lambda m: m.uci()) if m != moves[239])
    en_diff = en[:239] + [b2.san(other)] + en[240:]
    board_b = chess.Board()
    for m in moves[:249]:
        board_b.push(m)
    text_de = notation.write_score(chess.Board(), moves, "de")
    text_en = " ".join(en_diff)

    runs = 30
    cases = {
        "text (de vs en, retrace)": lambda: rule(text_de, text_en, board, board_b),
        "entries (de vs en, retrace)": lambda: rule(de, en_diff, board, board_b),
        "entries (de vs en, agree)": lambda: rule(de, en, board, board_b),
    }
    s = Session.new(Player("A"), Player("B", visually_impaired=True), "90+30", now=0.0)
    t = 0.0
    for i, m in enumerate(moves):
        t += 1
        if i % 2 == 0:
            s.board_move("sighted", m, t)
            s.board_move("tactile", m, t)
        else:
            s.board_move("tactile", m, t)
            s.announce(m, de[i], t)
            s.board_move("sighted", m, t)
        s.write("sighted", en[i], t, index=i)     # the keepers' own writing amends the entry made as announced
        s.write("blind", de[i], t, index=i)
    cases["session.propose_ruling (force)"] = lambda: s.propose_ruling(force=True)
    positions = []
    walk = chess.Board()
    for m in moves:
        positions.append(walk.copy(stack=False))
        walk.push(m)

    def floor() -> None:
        for position, d, e in zip(positions, de, en_diff):
            notation.read(position, d, "de")
            notation.read(position, e, "en")

    cases["floor: notation.read x 600"] = floor
    print(f"ruling on a {len(moves)}-ply game, {runs} runs each (shared machine: wall time varies with load;")
    print("CPU time is this process's own)")
    for name, fn in cases.items():
        med, p99, cmed, cp99, cmin = measure(fn, runs)
        print(f"  {name:<32} wall median {med:7.2f} ms  p99 {p99:7.2f} ms | CPU median {cmed:6.2f} ms  p99 {cp99:6.2f} ms"
              f"  min {cmin:6.2f} ms")


if __name__ == "__main__":
    main()
