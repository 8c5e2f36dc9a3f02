"""Chess960 start positions and castling as the player carries it out (FIDE Laws, Guidelines II).

python-chess does the numbering (the standard Scharnagl scheme, 0–959, 518 is the
normal start position) and the rules; this module adds what a blind player and his
sighted opponent need on top of it:

* :func:`start_board` / :func:`random_number` — a position by number or at random
  (seedable, so a tournament can publish its seed);
* :func:`describe` — the spoken description of a start position ("Weiß: Turm Anna
  eins, König Bella eins, …"), with the square and piece names of
  :mod:`blindchess.language.phonetic`;
* :func:`castling_plan` — castling of any of the four kinds (double move, king–rook
  swap, king-only move, rook-only move) as the steps the player carries out on the
  sighted board and on the tactile board: announce "Ich werde rochieren", take the
  king off the board, move the rook, place the king (FIDE Laws, Guidelines II),
  then announce the castling as usual (D.2.1: "Kurze Rochade").

Pure: python-chess and the standard library only; the phonetic names are imported
lazily so that this module never depends on another module being importable.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Literal

import chess

from ..base import UserError, tr

#: The Scharnagl number of the normal chess start position.
NORMAL_START = 518
#: How many Chess960 start positions there are.
COUNT = 960

CastlingKind = Literal["double", "swap", "king_only", "rook_only"]
BoardKind = Literal["sighted", "tactile"]
Side = Literal["king", "queen"]  # g-side (0-0) and c-side (0-0-0)


def check_number(number: int, lang: str | None = None) -> int:
    """``number`` if it is a start position number, else a :class:`UserError`."""
    if not isinstance(number, int) or isinstance(number, bool) or not 0 <= number < COUNT:
        raise UserError(tr("tournament.chess960_bad_number", lang, number=number))
    return number


def start_board(number: int) -> chess.Board:
    """The Chess960 start position ``number`` (0–959), a board in Chess960 mode."""
    return chess.Board.from_chess960_pos(check_number(number))


def random_number(seed: int | str | None = None) -> int:
    """A start position number drawn at random; the same ``seed`` gives the same number."""
    return random.Random(seed).randrange(COUNT)


def number_of(board: chess.Board) -> int | None:
    """The Scharnagl number of a start position, ``None`` if it is not one."""
    return board.chess960_pos(ignore_turn=False, ignore_castling=False, ignore_counters=False)


# -- spoken names ---------------------------------------------------------------

def _square_name(square: chess.Square, lang: str) -> str:
    from ..language import square_name  # lazily: the phonetic engineer's pure module

    return square_name(square, lang)


def _piece_name(piece_type: chess.PieceType, lang: str) -> str:
    from ..language import piece_name

    return piece_name(piece_type, lang)


def describe(number: int, lang: str = "de") -> str:
    """The spoken description of start position ``number``.

    White's back rank from the a-file to the h-file, then the pawns, then Black's
    mirror image — e.g. "Position 518. Weiß: Turm Anna eins, Springer Bella eins, …;
    Bauern Anna zwei bis Hector zwei. Schwarz: Turm Anna acht, …".
    """
    board = start_board(number)
    parts = [tr("tournament.chess960_position", lang, number=number)]
    for color, back, pawns in ((chess.WHITE, 0, 1), (chess.BLACK, 7, 6)):
        pieces = []
        for file in range(8):
            square = chess.square(file, back)
            piece = board.piece_at(square)
            assert piece is not None  # every back-rank square is occupied at the start
            pieces.append(tr("tournament.piece_on", lang, piece=_piece_name(piece.piece_type, lang),
                             square=_square_name(square, lang)))
        parts.append(tr("tournament.chess960_side", lang,
                        color=tr("tournament.white" if color else "tournament.black", lang),
                        pieces=", ".join(pieces),
                        first=_square_name(chess.square(0, pawns), lang),
                        last=_square_name(chess.square(7, pawns), lang)))
    return " ".join(parts)


# -- castling --------------------------------------------------------------------

@dataclass(frozen=True)
class CastlingStep:
    """One physical action: ``announce`` words, ``lift`` a piece off the board, ``place`` it.

    A lifted king is put down beside the board near its destination (FIDE Laws, Guidelines II);
    on the tactile board "lift" means taking the peg out of its securing hole, which
    counts as touching the piece (D.2.2).
    """

    action: Literal["announce", "lift", "place"]
    piece: chess.Piece | None = None
    square: chess.Square | None = None
    words: str = ""  # the message key of what is said, for ``announce``


@dataclass(frozen=True)
class CastlingPlan:
    """Castling of one colour to one side, from a given position."""

    color: chess.Color
    side: Side
    kind: CastlingKind
    king_from: chess.Square
    king_to: chess.Square
    rook_from: chess.Square
    rook_to: chess.Square
    move: chess.Move  # python-chess's encoding (king takes own rook in Chess960 mode)

    @property
    def notation(self) -> str:
        """0-0 (g-side) or 0-0-0 (c-side), written with zeros (Appendix C)."""
        return "0-0" if self.side == "king" else "0-0-0"

    @property
    def steps(self) -> list[CastlingStep]:
        """The physical steps, the same on both boards (FIDE Laws, Guidelines II).

        Announce "Ich werde rochieren"; take the king off the board; move the rook
        (if it moves); place the king on its destination — in a rook-only castling
        back on its own square, so that touching the king has shown the castling;
        finally announce the move ("Kurze Rochade" / "Lange Rochade", D.2.1).
        """
        king = chess.Piece(chess.KING, self.color)
        rook = chess.Piece(chess.ROOK, self.color)
        steps = [CastlingStep("announce", words="tournament.castle_intent"),
                 CastlingStep("lift", king, self.king_from)]
        if self.rook_from != self.rook_to:
            steps += [CastlingStep("lift", rook, self.rook_from), CastlingStep("place", rook, self.rook_to)]
        steps.append(CastlingStep("place", king, self.king_to))
        words = "tournament.castle_short" if self.side == "king" else "tournament.castle_long"
        steps.append(CastlingStep("announce", words=words))
        return steps

    def instructions(self, board: BoardKind, lang: str = "de") -> list[str]:
        """The steps as sentences for whoever carries them out on ``board``.

        Squares are named phonetically for the tactile board ("Gustav eins") and
        algebraically for the sighted board ("g1").
        """
        def name(square: chess.Square) -> str:
            return _square_name(square, lang) if board == "tactile" else chess.square_name(square)

        out: list[str] = []
        steps = self.steps
        for i, step in enumerate(steps):
            if step.action == "announce":
                out.append(tr("tournament.step_announce", lang, words=tr(step.words, lang)))
                continue
            assert step.piece is not None and step.square is not None
            piece = _piece_name(step.piece.piece_type, lang)
            if step.action == "lift" and step.piece.piece_type == chess.KING:
                out.append(tr(f"tournament.step_king_off_{board}", lang, piece=piece,
                              square=name(step.square), near=name(self.king_to)))
            elif step.action == "lift":  # the rook: lifted and placed in one sentence
                target = steps[i + 1].square
                assert target is not None  # a lifted rook is placed next
                out.append(tr(f"tournament.step_move_{board}", lang, piece=piece,
                              origin=name(step.square), target=name(target)))
            elif step.piece.piece_type == chess.KING:
                key = "step_king_back" if self.kind == "rook_only" else "step_king_on"
                out.append(tr(f"tournament.{key}_{board}", lang, piece=piece, square=name(step.square)))
        return out


def castling_kind(king_from: chess.Square, king_to: chess.Square,
                  rook_from: chess.Square, rook_to: chess.Square) -> CastlingKind:
    """Which of the four kinds a castling is, from the squares of king and rook."""
    if king_from == king_to:
        return "rook_only"
    if rook_from == rook_to:
        return "king_only"
    if king_to == rook_from and rook_to == king_from:
        return "swap"
    return "double"


def castling_plan(board: chess.Board, color: chess.Color, side: Side) -> CastlingPlan | None:
    """The castling of ``color`` to ``side`` in ``board``, if it still has that right.

    Whether it is legal right now is a separate question (``plan.move in
    board.legal_moves``): the plan also describes castling that is possible later.
    """
    king_from = board.king(color)
    if king_from is None:
        return None
    back = chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
    rooks = board.clean_castling_rights() & back
    if side == "king":
        candidates = [sq for sq in chess.scan_forward(rooks) if sq > king_from]
    else:
        candidates = [sq for sq in chess.scan_forward(rooks) if sq < king_from]
    if not candidates:
        return None
    rook_from = candidates[0] if side == "queen" else candidates[-1]
    rank = chess.square_rank(king_from)
    king_to = chess.square(6 if side == "king" else 2, rank)
    rook_to = chess.square(5 if side == "king" else 3, rank)
    return CastlingPlan(color=color, side=side,
                        kind=castling_kind(king_from, king_to, rook_from, rook_to),
                        king_from=king_from, king_to=king_to, rook_from=rook_from, rook_to=rook_to,
                        move=chess.Move(king_from, rook_from))


def plan_for_move(board: chess.Board, move: chess.Move) -> CastlingPlan | None:
    """The plan of ``move`` if it is a castling move in ``board``, else ``None``."""
    if not board.is_castling(move):
        return None
    side: Side = "king" if board.is_kingside_castling(move) else "queen"
    return castling_plan(board, board.turn, side)


def apply_steps(placement: dict[chess.Square, chess.Piece], steps: list[CastlingStep]) -> dict[chess.Square, chess.Piece]:
    """Carry out ``steps`` on a physical board given as square → piece.

    Raises :class:`ValueError` when a step is impossible (lifting from an empty
    square or the wrong piece, placing on an occupied square, placing what is not in
    hand) — the check that a plan can really be carried out on a real board.
    """
    board = dict(placement)
    hand: list[chess.Piece] = []
    for step in steps:
        if step.action == "announce":
            continue
        assert step.square is not None  # a lift or a place names its square
        if step.action == "lift":
            if board.get(step.square) != step.piece:
                raise ValueError(f"no {step.piece} on {chess.square_name(step.square)}")
            hand.append(board.pop(step.square))
        elif step.action == "place":
            if step.square in board:
                raise ValueError(f"{chess.square_name(step.square)} is occupied")
            if step.piece not in hand:
                raise ValueError(f"{step.piece} is not in hand")
            hand.remove(step.piece)
            board[step.square] = step.piece
    if hand:
        raise ValueError("pieces left beside the board")
    return board
