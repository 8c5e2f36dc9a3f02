"""Benchmark: how well the notation reader ranks the meant move for a slip.

A plain script, not a pytest test (``tests/language/test_notation_suggestions.py`` holds
the thresholds on a smaller fixed sample built by the same code)::

    .venv/bin/python tests/benchmarks/bench_suggestions.py [--per-game N] [--seed S]

The slip set is built from real games (``tests/data/games/classics.pgn``, 56
games, and ``tests/data/scoresheets/immortal_en.pgn``), deterministically from
the seed. Each game is written as a scoresheet in one of the six notation
languages (FIDE style, the language chosen per game from the seed); then one
half-move is written wrongly, in one of the ways a hand slips:

- ``letter``: a piece move written with another piece letter of the sheet's
  language (``Lf3`` for ``Sf3``), the wrong letter chosen uniformly;
- ``pawn-letter``: a pawn move written with the language's word initial for a
  pawn (German ``B``, English/French/Dutch ``P``, Italian ``P``, Russian ``п``
  is not used: Russian sheets get a ``letter`` slip instead);
- ``square``: the arrival square one file or one rank off (``Sf4`` for ``Sf3``);
- ``disambiguation``: the departure file or rank left out where two like
  pieces can reach the square (``Sd7`` for ``Sbd7``).

A slip that is itself a legal, unambiguous move is not a slip the reader can
see at that half-move; it is counted apart ("silent") and left out of the
figures. For every other slip the whole score is read with
:func:`blindchess.language.notation.read_score` and the benchmark checks that the
first problem is at the slip's half-move and where the meant move stands in the
list shown to the user (the suggestions of an illegal entry, the candidates of
an ambiguous one): first, among the first three, or missing. With ``--other``
the opponent's score (the same game, written correctly, as the second score of
FIDE Laws D.2.7 would be) is given to the reader as well.
"""

from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.pgn

from blindchess.language import notation as N

DATA = Path(__file__).resolve().parents[1] / "data"
GAME_FILES = (DATA / "games" / "classics.pgn", DATA / "scoresheets" / "immortal_en.pgn")
LANGS = ("de", "en", "fr", "it", "nl", "ru")
#: The initial of the word for "pawn", written by mistake before a pawn move.
PAWN_INITIAL = {"de": "B", "en": "P", "fr": "P", "it": "P", "nl": "P"}
KINDS = ("letter", "pawn-letter", "square", "disambiguation")


@dataclass(frozen=True)
class Slip:
    game: int                    # index of the game in the set
    lang: str                    # the sheet's language
    ply: int                     # 1-based half-move of the slip
    kind: str
    meant: chess.Move
    written: str                 # the slip as written
    score: str                   # the whole score with the slip, as text
    other: str                   # the same game written correctly (the opponent's score)


def real_games() -> list[tuple[chess.Board, list[chess.Move]]]:
    """Start position and moves of every real game in the test data, in file order."""
    games = []
    for path in GAME_FILES:
        with path.open(encoding="utf-8") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                moves = list(game.mainline_moves())
                if moves:
                    games.append((game.board(), moves))
    return games


def _write_entries(start: chess.Board, moves: list[chess.Move], lang: str) -> list[str]:
    board = start.copy()
    out = []
    for move in moves:
        out.append(N.write(board, move, lang))
        board.push(move)
    return out


def _score_text(start: chess.Board, entries: list[str]) -> str:
    parts = []
    number, white = start.fullmove_number, start.turn == chess.WHITE
    for i, entry in enumerate(entries):
        if white:
            parts.append(f"{number}.")
        elif i == 0:
            parts.append(f"{number}...")
        parts.append(entry)
        if not white:
            number += 1
        white = not white
    return " ".join(parts)


def _slips_at(board: chess.Board, move: chess.Move, lang: str, rng: random.Random) -> list[tuple[str, str]]:
    """The possible slips of one move: (kind, written)."""
    written = N.write(board, move, lang)
    body = written.split(" ")[0].rstrip("+#")
    tail = written[len(body):]
    piece = board.piece_type_at(move.from_square)
    out: list[tuple[str, str]] = []
    if board.is_castling(move):
        return out
    letters = N.LETTERS[lang]
    if piece != chess.PAWN:
        own = letters[piece]  # type: ignore[index]
        others = [letters[pt] for pt in (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
                  if pt != piece]
        out.append(("letter", rng.choice(others) + body[len(own):] + tail))
    elif lang in PAWN_INITIAL and not N.read(board, body).corrected:
        out.append(("pawn-letter", PAWN_INITIAL[lang] + body + tail))
    # arrival square one off: the square is the last file+rank pair before a promotion letter
    to_name = chess.square_name(move.to_square)
    at = body.rfind(to_name)
    if at >= 0:
        f, r = chess.square_file(move.to_square), chess.square_rank(move.to_square)
        near = [(f + df, r + dr) for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                if 0 <= f + df < 8 and 0 <= r + dr < 8]
        nf, nr = rng.choice(near)
        out.append(("square", body[:at] + chess.square_name(chess.square(nf, nr)) + body[at + 2:] + tail))
    # missing disambiguation: SAN names the departure file or rank
    core = board.san(move).rstrip("+#")
    if piece != chess.PAWN and core[1:].replace("x", "")[:-2]:
        capture = "x" if board.is_capture(move) else ""
        out.append(("disambiguation", letters[piece] + capture + to_name + tail))  # type: ignore[index]
    return out


def slip_set(per_game: int = 12, seed: int = 2015, games: list | None = None) -> list[Slip]:
    """Slips of the real games: up to ``per_game`` per game, deterministic for ``seed``."""
    rng = random.Random(seed)
    out: list[Slip] = []
    for index, (start, moves) in enumerate(games if games is not None else real_games()):
        lang = LANGS[rng.randrange(len(LANGS))]
        entries = _write_entries(start, moves, lang)
        other = _score_text(start, entries)
        plies = list(range(len(moves)))
        rng.shuffle(plies)
        taken = 0
        for ply in plies:
            if taken >= per_game:
                break
            board = start.copy()
            for m in moves[:ply]:
                board.push(m)
            options = _slips_at(board, moves[ply], lang, rng)
            if not options:
                continue
            kind, written = rng.choice(options)
            text = _score_text(start, entries[:ply] + [written] + entries[ply + 1:])
            out.append(Slip(index, lang, ply + 1, kind, moves[ply], written, text, other))
            taken += 1
    return out


@dataclass
class Outcome:
    slip: Slip
    silent: bool                 # the slip is itself a legal move: nothing to flag at its ply
    flagged: bool                # the first problem is at the slip's half-move
    rank: int | None             # 0-based place of the meant move in the list shown; None: missing
    problem: str | None = None


def judge(slip: Slip, *, with_other: bool = False) -> Outcome:
    """Read the score with the slip and find the meant move among what the reader shows."""
    score = N.read_score(slip.score, lang=slip.lang, other=slip.other if with_other else None)
    if score.plies >= slip.ply:                         # the slip read as a (different) legal move
        return Outcome(slip, True, False, None)
    problem = score.problems[0] if score.problems else None
    if problem is None or problem.ply != slip.ply:
        return Outcome(slip, False, False, None, problem.problem if problem else None)
    reading = score.readings[-1]
    shown = reading.candidates if reading.problem == "ambiguous" else reading.suggestions
    rank = shown.index(slip.meant) if slip.meant in shown else None
    return Outcome(slip, False, True, rank, reading.problem)


def figures(outcomes: list[Outcome]) -> dict[str, float | int]:
    seen = [o for o in outcomes if not o.silent]
    n = len(seen)
    first = sum(1 for o in seen if o.rank == 0)
    top3 = sum(1 for o in seen if o.rank is not None and o.rank < 3)
    flagged = sum(1 for o in seen if o.flagged)
    return {"slips": n, "silent": len(outcomes) - n, "flagged": flagged,
            "first": first / n if n else 0.0, "top3": top3 / n if n else 0.0,
            "missing": (n - top3) / n if n else 0.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-game", type=int, default=40)
    parser.add_argument("--seed", type=int, default=2015)
    parser.add_argument("--other", action="store_true", help="give the reader the opponent's score too")
    parser.add_argument("--show", type=int, default=0, help="print this many misses")
    args = parser.parse_args(argv)
    games = real_games()
    t = time.perf_counter()
    slips = slip_set(args.per_game, args.seed, games)
    outcomes = [judge(s, with_other=args.other) for s in slips]
    dt = time.perf_counter() - t
    total = figures(outcomes)
    print(f"{len(games)} real games, {sum(len(m) for _, m in games)} half-moves; seed {args.seed}, "
          f"{args.per_game} slips per game; other score: {'yes' if args.other else 'no'}")
    print(f"{'kind':16s} {'slips':>6s} {'silent':>6s} {'flagged':>8s} {'first':>7s} {'top 3':>7s} {'missing':>8s}")
    by_kind = collections.defaultdict(list)
    for o in outcomes:
        by_kind[o.slip.kind].append(o)
    for kind in (*KINDS, "all"):
        group = outcomes if kind == "all" else by_kind.get(kind, [])
        f = figures(group)
        print(f"{kind:16s} {f['slips']:6d} {f['silent']:6d} {f['flagged']:8d} {f['first'] * 100:6.1f}% "
              f"{f['top3'] * 100:6.1f}% {f['missing'] * 100:7.1f}%")
    by_lang = collections.defaultdict(list)
    for o in outcomes:
        by_lang[o.slip.lang].append(o)
    print("per language: " + ", ".join(
        f"{lang} {figures(by_lang[lang])['first'] * 100:.1f}%/{figures(by_lang[lang])['top3'] * 100:.1f}%"
        for lang in LANGS if by_lang.get(lang)))
    print(f"{len(slips)} slips judged in {dt:.1f} s ({dt / max(1, len(slips)) * 1e3:.1f} ms each)")
    misses = [o for o in outcomes if not o.silent and o.rank != 0][:args.show]
    for o in misses:
        print(f"  game {o.slip.game} ply {o.slip.ply} {o.slip.lang} {o.slip.kind}: wrote {o.slip.written!r}, "
              f"meant {o.slip.meant.uci()}, rank {o.rank}, {o.problem}")
    return 0 if total["first"] >= 0.80 and total["top3"] >= 0.98 else 1


if __name__ == "__main__":
    sys.exit(main())
