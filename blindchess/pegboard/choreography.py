"""How a hand carries out a move on a peg-board: lifts and places with timing (pure).

Used by the simulator (``blindchess pegboard simulate``) and to generate
protocol logs for tests.  A plan is realistic: captured pieces removed before
or after the capturing piece is lifted, castling king first or rook first (and,
as recommended for Chess960, the king sometimes taken off the board while the
rook moves), sliding pieces sometimes set down on squares on the way and moved
on within the settle time, a peg sometimes held in the hand for a while.  A peg
is only ever put into an empty hole.  Randomness comes from the ``rng`` passed in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import chess

from .protocol import format_line

__all__ = ["PegStep", "plan_move", "plan_game", "to_log"]


@dataclass(frozen=True)
class PegStep:
    """``kind`` "L" (lift), "P" (place) or ">" (announcement ``text``), ``gap`` seconds after the previous step."""
    kind: str
    square: int | None
    gap: float
    text: str = ""


def _hand_moves(board: chess.Board, move: chess.Move) -> tuple[list[int], dict[int, int | None]]:
    """Squares whose peg must leave, and where each goes (None: off the board)."""
    after = board.copy(stack=False)
    after.push(move)
    lifts = [sq for sq in chess.SQUARES
             if board.piece_at(sq) is not None and board.piece_at(sq) != after.piece_at(sq)]
    dest: dict[int, int | None] = {sq: None for sq in lifts}
    if board.is_castling(move):
        king_to = after.king(board.turn)
        assert king_to is not None  # castling: the king stays on the board
        rank = chess.square_rank(move.from_square)
        rook_from = move.to_square if board.piece_type_at(move.to_square) == chess.ROOK else chess.square(
            7 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else 0, rank)
        rook_to = chess.square(5 if chess.square_file(king_to) == 6 else 3, rank)
        for sq, to in ((move.from_square, king_to), (rook_from, rook_to)):
            if sq not in dest:       # this piece does not move; sometimes taken off anyway
                lifts.append(sq)
            dest[sq] = to
    else:
        dest[move.from_square] = move.to_square
    return lifts, dest


def plan_move(board: chess.Board, move: chess.Move, rng: random.Random, *, settle: float = 0.5,
              slide_chance: float = 0.3, hold_chance: float = 0.15, partner_chance: float = 0.5) -> list[PegStep]:
    """The steps of one move; every gap inside the move is shorter than ``settle``."""
    lifts, dest = _hand_moves(board, move)
    if board.is_castling(move):
        # an unmoved castling partner is lifted only sometimes
        lifts = [sq for sq in lifts if dest[sq] != sq or rng.random() < partner_chance]
    occupied = set(chess.SQUARES[s] for s in chess.scan_forward(board.occupied))
    base = set(occupied)
    to_lift = list(lifts)
    hand: list[int] = []            # lifted pegs (by origin) still to be placed
    steps: list[PegStep] = []

    def gap() -> float:
        return rng.uniform(0.1, 0.8) * settle

    while to_lift or hand:
        choices: list[tuple[str, int]] = [("L", sq) for sq in to_lift]
        choices += [("P", sq) for sq in hand if dest[sq] is not None and dest[sq] not in occupied]
        kind, sq = rng.choice(choices)
        if kind == "L":
            to_lift.remove(sq)
            occupied.discard(sq)
            steps.append(PegStep("L", sq, gap()))
            if dest[sq] is not None:
                hand.append(sq)
            if rng.random() < hold_chance and occupied <= base:
                steps.append(PegStep("#", None, settle * rng.uniform(1.5, 4.0)))  # thinking, peg in the hand
            continue
        target = dest[sq]
        assert target is not None
        piece = board.piece_type_at(sq)
        if piece in (chess.BISHOP, chess.ROOK, chess.QUEEN) and rng.random() < slide_chance:
            path = [s for s in chess.SquareSet(chess.between(sq, target)) if s not in occupied]
            if sq < target:
                path = sorted(path)
            else:
                path = sorted(path, reverse=True)
            for hop in path[: rng.randint(1, 2)]:
                steps.append(PegStep("P", hop, gap()))
                steps.append(PegStep("L", hop, rng.uniform(0.05, 0.6) * settle))
        hand.remove(sq)
        occupied.add(target)
        steps.append(PegStep("P", target, gap()))
    return steps


def plan_game(board: chess.Board, moves: list[chess.Move], rng: random.Random, *, settle: float = 0.5,
              announce_promotions: bool = True, late_chance: float = 0.0, **options: float) -> list[PegStep]:
    """Steps for a whole game from ``board``; moves are separated by more than ``settle``.

    A promotion is followed by its announcement (SAN or UCI); with ``late_chance``
    the announcement comes only after the next move (the tracker must still
    complete it).
    """
    board = board.copy()
    steps: list[PegStep] = []
    deferred: PegStep | None = None
    for move in moves:
        planned = plan_move(board, move, rng, settle=settle, **options)
        if planned:
            first = planned[0]
            planned[0] = PegStep(first.kind, first.square, settle * rng.uniform(1.2, 4.0), first.text)
        steps += planned
        if deferred is not None:
            steps.append(deferred)
            deferred = None
        if move.promotion and announce_promotions:
            text = rng.choice([board.san(move), move.uci()])
            announcement = PegStep(">", None, settle * rng.uniform(1.2, 2.0), text)
            if rng.random() < late_chance:
                deferred = announcement
            else:
                steps.append(announcement)
        board.push(move)
    if deferred is not None:
        steps.append(deferred)
    return steps


def to_log(steps: list[PegStep], *, start: float = 0.0, timestamps: bool = True, checksums: bool = True) -> str:
    """A replayable protocol log (``[ms ]line`` per step; "#" steps only pass time)."""
    lines: list[str] = []
    t = start
    for step in steps:
        t += step.gap
        if step.kind == "#":
            continue
        if step.kind == ">":
            body = f"> {step.text}"
        else:
            assert step.square is not None  # "L" and "P" steps have a square
            body = format_line(f"{step.kind} {chess.square_name(step.square)}",
                               with_checksum=checksums).decode("ascii").rstrip("\n")
        lines.append(f"{round(t * 1000)} {body}" if timestamps else body)
    return "\n".join(lines) + "\n"
