"""Acceptance: replaying protocol logs of 100+ generated games reproduces every move.

Games are random but seeded and biased towards the hard cases: captures (either
lift order), castling (king first or rook first, every Chess960 kind), en
passant, promotions (completed by an announcement), slides over transient
squares, pegs held in the hand.  The logs go through the same replay the CLI
uses (``blindchess pegboard replay``), with and without time stamps and
checksums.
"""

from __future__ import annotations

import collections
import random

import chess
import pytest

from blindchess.adapters.devices.replay import moves_of, replay
from blindchess.pegboard.choreography import plan_game, to_log

GAMES = 100


def random_game(rng: random.Random, chess960: bool) -> tuple[chess.Board, list[chess.Move]]:
    board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
    start = board.copy()
    moves: list[chess.Move] = []
    for _ in range(rng.randint(25, 90)):
        legal = list(board.legal_moves)
        if not legal:
            break
        special = [m for m in legal if board.is_castling(m) or board.is_en_passant(m) or m.promotion]
        captures = [m for m in legal if board.is_capture(m)]
        pawns = [m for m in legal if board.piece_type_at(m.from_square) == chess.PAWN]
        r = rng.random()
        if special and r < 0.8:
            move = rng.choice(special)
        elif captures and r < 0.85:
            move = rng.choice(captures)
        elif pawns and r < 0.93:
            move = rng.choice(pawns)
        else:
            move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return start, moves


def castle_kind(board: chess.Board, move: chess.Move) -> str:
    after = board.copy(stack=False)
    after.push(move)
    king_moves = after.king(board.turn) != move.from_square
    rook_from = move.to_square if board.chess960 else None
    rook_moves = True
    if rook_from is not None:
        rook_moves = after.piece_at(rook_from) != board.piece_at(rook_from)
        if after.piece_type_at(rook_from) == chess.KING:
            return "swap"
        rook_to = chess.square(5 if chess.square_file(after.king(board.turn)) == 6 else 3, chess.square_rank(rook_from))
        rook_moves = rook_from != rook_to
    if not king_moves:
        return "rook-only"
    if not rook_moves:
        return "king-only"
    return "both"


def coverage(start: chess.Board, moves: list[chess.Move]) -> collections.Counter:
    """Which hard cases the game contains (so the test proves they occur)."""
    seen: collections.Counter = collections.Counter()
    board = start.copy()
    for move in moves:
        if board.is_castling(move):
            seen[f"castle-{castle_kind(board, move)}"] += 1
        if board.is_en_passant(move):
            seen["en-passant"] += 1
        if move.promotion:
            seen["promotion"] += 1
        if board.is_capture(move):
            seen["capture"] += 1
        board.push(move)
    return seen


def order_coverage(start: chess.Board, moves: list[chess.Move], rng_seed: int) -> collections.Counter:
    """Lift orders of captures and castlings, replanned move by move with the same generator."""
    from blindchess.pegboard.choreography import plan_move

    rng = random.Random(rng_seed)
    seen: collections.Counter = collections.Counter()
    board = start.copy()
    for move in moves:
        steps = plan_move(board, move, rng)
        first_lift = next(s.square for s in steps if s.kind == "L")
        if board.is_capture(move) and not board.is_en_passant(move):
            seen["capture-victim-first" if first_lift == move.to_square else "capture-capturer-first"] += 1
        if board.is_castling(move):
            seen["castle-king-first" if first_lift == move.from_square else "castle-rook-first"] += 1
        if any(s.kind == "P" and s.square not in (move.to_square,) and board.piece_type_at(move.from_square)
               in (chess.BISHOP, chess.ROOK, chess.QUEEN) for s in steps):
            seen["slide"] += 1
        board.push(move)
    return seen


@pytest.mark.slow
def test_replaying_generated_games_reproduces_every_move():
    total: collections.Counter = collections.Counter()
    plies = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        chess960 = seed % 3 == 0
        start, moves = random_game(rng, chess960)
        steps = plan_game(start, moves, rng, late_chance=0.3)
        log = to_log(steps, timestamps=True, checksums=seed % 2 == 0)
        items = replay(log.encode("ascii"), start)
        assert moves_of(items) == moves, f"game {seed}"
        assert not [i for i in items if getattr(i, "type", "") in ("mismatch", "protocol-error")], f"game {seed}"
        total += coverage(start, moves)
        total += order_coverage(start, moves, seed + 1000)
        plies += len(moves)
    assert plies > 3000
    for case in ("capture", "en-passant", "promotion", "castle-both", "castle-king-only", "castle-rook-only",
                 "castle-swap", "capture-victim-first", "capture-capturer-first", "castle-king-first",
                 "castle-rook-first", "slide"):
        assert total[case] > 0, (case, total)
    print(dict(total))


@pytest.mark.parametrize("seed", range(200, 210))
def test_logs_without_time_stamps_still_reproduce_the_game(seed):
    """Each line then counts as arriving after the settle time: stops become moves and are revised."""
    rng = random.Random(seed)
    start, moves = random_game(rng, seed % 2 == 1)
    steps = plan_game(start, moves, rng)
    items = replay(to_log(steps, timestamps=False).encode("ascii"), start)
    assert moves_of(items) == moves
