"""What a player looks up about the board and the game, beside the board commands (pure).

Answers in words, in the listener's wording (:mod:`blindchess.language.board_words`):
``captures`` (the legal captures of the piece on a square), ``around`` (the
pieces on the squares around a square), ``opponent`` (the opponent's name and
colour, with his rating when the game's headers know it), ``last_capture``
(the last piece taken: which, where, by which move), ``move_list`` (every move
of the game in words, move number by move number) and ``step`` (one half-move
of the game with its number and side, and the position after it — to go
through the game move by move). Nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Mapping

import chess

from ..base import plural, tr
from ..language import describe_position, describe_square, legal_moves, move_words, piece_words, square_words, voice

__all__ = ["KINDS", "captures", "around", "opponent", "last_capture", "move_list", "step"]

#: The lookups answered here (requests of the table).
KINDS = ("captures", "around", "opponent", "last_capture", "move_list", "step")


def _t(key: str, lang: str, /, **params: object) -> str:
    """The lookup text ``key`` in ``lang`` (``locale/lookups.<lang>.toml``)."""
    return tr(f"lookups.{key}", lang, **params)

def captures(board: chess.Board, square: int, lang: str, wording: str = "phonetic") -> str:
    """The legal captures of the piece on ``square``: "Springer Felix drei schlägt: Eva fünf." (or why none)."""
    piece = board.piece_at(square)
    where = square_words(square, lang, wording)
    if piece is None:
        return _t("no_piece", lang, square=where)
    name = f"{voice(lang).pieces[piece.piece_type].name} {where}"
    if piece.color != board.turn:
        return legal_moves(board, square, lang, wording)      # "… : Schwarz ist am Zug."
    targets = sorted({m.to_square for m in board.legal_moves if m.from_square == square and board.is_capture(m)},
                     key=lambda s: (chess.square_file(s), chess.square_rank(s)))
    if not targets:
        return _t("no_captures", lang, piece=name)
    return _t("captures", lang, piece=name,
                   targets="; ".join(describe_square(board, s, lang, wording) for s in targets))


def around(board: chess.Board, square: int, lang: str, wording: str = "phonetic", *, white_view: bool = True) -> str:
    """The pieces on the (up to eight) squares around ``square``, read row by row from the listener's side."""
    file, rank = chess.square_file(square), chess.square_rank(square)
    ranks = range(rank + 1, rank - 2, -1) if white_view else range(rank - 1, rank + 2)
    files = range(file - 1, file + 2) if white_view else range(file + 1, file - 2, -1)
    near = [chess.square(f, r) for r in ranks for f in files
            if 0 <= f < 8 and 0 <= r < 8 and (f, r) != (file, rank)]
    found = [describe_square(board, s, lang, wording) for s in near if board.piece_at(s) is not None]
    where = square_words(square, lang, wording)
    empty = len(near) - len(found)
    if not found:
        return _t("around_empty", lang, square=where)
    rest = plural(empty, "board_words.empty_one", "board_words.empty", lang) if empty else ""
    return _t("around", lang, square=where, pieces="; ".join(found), rest=rest).rstrip()


def opponent(name: str, color: chess.Color, lang: str, headers: Mapping[str, str] | None = None) -> str:
    """"Ihr Gegner: Bernd, Schwarz." — with his rating ("Elo 1850") when ``headers`` (PGN) give one."""
    side = voice(lang).spoken["white" if color == chess.WHITE else "black"]
    rating = (headers or {}).get("WhiteElo" if color == chess.WHITE else "BlackElo", "")
    if rating.strip().isdigit() and int(rating) > 0:
        return _t("opponent_rated", lang, name=name, side=side, rating=rating.strip())
    return _t("opponent", lang, name=name, side=side)


def last_capture(board: chess.Board, lang: str, wording: str = "phonetic") -> str:
    """The last piece taken in ``board``'s move stack: "Zuletzt geschlagen: weißer Bauer auf Eva vier, mit Zug 3,
    Schwarz: Läufer schlägt Eva vier." — or that nothing has been taken."""
    replay = board.root()
    found = None
    for move in board.move_stack:
        if replay.is_capture(move) and not replay.is_castling(move):
            victim_square = move.to_square
            if replay.is_en_passant(move):
                victim_square = chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square))
            victim = replay.piece_at(victim_square)
            found = (victim, victim_square, replay.fullmove_number, replay.turn,
                     move_words(replay, move, lang, wording))
        replay.push(move)
    if found is None:
        return _t("no_capture", lang)
    victim, where, number, side, move_text = found
    v = voice(lang)
    return _t("last_capture", lang, piece=piece_words(victim, lang),
                   square=square_words(where, lang, wording), number=number,
                   side=v.spoken["white" if side == chess.WHITE else "black"], move=move_text)


def move_list(board: chess.Board, lang: str, wording: str = "phonetic") -> str:
    """Every move of the game in words: "1. Eva vier, Eva fünf. 2. Springer Felix drei, …" (moves never as
    letters spelled out)."""
    replay = board.root()
    if not board.move_stack:
        return _t("no_moves", lang)
    parts: list[str] = []
    for move in board.move_stack:
        said = move_words(replay, move, lang, wording)
        if replay.turn == chess.WHITE or not parts:
            dots = "." if replay.turn == chess.WHITE else " …"
            parts.append(f"{replay.fullmove_number}{dots} {said}")
        else:
            parts[-1] = f"{parts[-1]}, {said}"
        replay.push(move)
    return _t("move_list", lang, moves=". ".join(parts))


def step(board: chess.Board, ply: int, lang: str, wording: str = "phonetic") -> str:
    """Half-move ``ply`` (1 = the first) of the game with its number and side, then the position after it;
    ``ply`` 0: the start position. Out of range: clamped to the game (the first or the last half-move)."""
    plies = len(board.move_stack)
    ply = max(0, min(ply, plies))
    replay = board.root()
    for move in board.move_stack[:max(0, ply - 1)]:
        replay.push(move)
    if ply == 0:
        return _t("step_start", lang, position=describe_position(replay, lang))
    move = board.move_stack[ply - 1]
    side = voice(lang).spoken["white" if replay.turn == chess.WHITE else "black"]
    said = move_words(replay, move, lang, wording)
    number = replay.fullmove_number
    replay.push(move)
    return _t("step", lang, ply=ply, plies=plies, number=number, side=side, move=said,
                   position=describe_position(replay, lang))
