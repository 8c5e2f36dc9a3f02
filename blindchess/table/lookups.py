"""What a player looks up about the board and the game, beside the board commands (pure).

Answers in words, in the listener's wording (:mod:`blindchess.language.board_words`):
``captures`` (the legal captures of the piece on a square), ``around`` (the
pieces on the squares around a square), ``opponent`` (the opponent's name and
colour, with his rating when the game's headers know it), ``last_capture``
(the last piece taken: which, where, by which move), ``move_list`` (every move
of the game in words, move number by move number), ``move_pair`` (one move number of
that list — the list stepped through), ``step`` (one half-move of the game with its
number and side, and the squares it changed — to go through the game move by move)
and ``position_at`` (the whole position after a half-move). Nothing here changes the game.
"""

from __future__ import annotations

from collections.abc import Mapping

import chess

from ..base import plural, tr
from ..language import describe_position, describe_square, legal_moves, move_words, piece_words, square_words, voice

__all__ = ["KINDS", "captures", "around", "opponent", "last_capture", "move_list", "step", "position_at", "move_pair"]

#: The lookups answered here (requests of the table).
KINDS = ("captures", "around", "opponent", "last_capture", "move_list", "step", "position_at", "move_pair")


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


def _before(board: chess.Board, ply: int) -> chess.Board:
    """The position before half-move ``ply`` (1 = the first) of ``board``'s game."""
    replay = board.root()
    for move in board.move_stack[:max(0, ply - 1)]:
        replay.push(move)
    return replay


def changed_squares(before: chess.Board, move: chess.Move) -> list[int]:
    """The squares ``move`` changes on ``before``: where the piece came from and went, the rook of a castling,
    the pawn taken en passant."""
    squares = [move.from_square, move.to_square]
    if before.is_castling(move):
        rank = chess.square_rank(move.from_square)
        kingside = before.is_kingside_castling(move)
        king_to = chess.square(6 if kingside else 2, rank)
        rook_to = chess.square(5 if kingside else 3, rank)
        rook_from = move.to_square                     # python-chess writes castling as the king taking his rook
        if not before.chess960:
            rook_from = chess.square(7 if kingside else 0, rank)
        squares = list(dict.fromkeys([move.from_square, king_to, rook_from, rook_to]))
    elif before.is_en_passant(move):
        squares.append(chess.square(chess.square_file(move.to_square), chess.square_rank(move.from_square)))
    return squares


def step(board: chess.Board, ply: int, lang: str, wording: str = "phonetic") -> str:
    """Half-move ``ply`` (1 = the first) of the game with its number and side, then the squares it changed as they
    stand after it ("Zug 2, Weiß: Springer Felix drei. Gustav eins, leer; Felix drei, weißer Springer."); ``ply``
    0: the start. Out of range: clamped to the game (the first or the last half-move). The whole position after
    it: :func:`position_at`."""
    plies = len(board.move_stack)
    ply = max(0, min(ply, plies))
    if ply == 0:
        return _t("step_start", lang, plies=plies)
    replay = _before(board, ply)
    move = board.move_stack[ply - 1]
    side = voice(lang).spoken["white" if replay.turn == chess.WHITE else "black"]
    said = move_words(replay, move, lang, wording)
    number = replay.fullmove_number
    squares = changed_squares(replay, move)
    replay.push(move)
    changed = "; ".join(describe_square(replay, square, lang, wording) for square in squares)
    return _t("step", lang, ply=ply, plies=plies, number=number, side=side, move=said, changed=changed)


def position_at(board: chess.Board, ply: int, lang: str) -> str:
    """The whole position after half-move ``ply`` of the game (0: the start), clamped to the game."""
    ply = max(0, min(ply, len(board.move_stack)))
    if ply == 0:
        return _t("position_start", lang, position=describe_position(board.root(), lang))
    replay = _before(board, ply)
    side = voice(lang).spoken["white" if replay.turn == chess.WHITE else "black"]
    number = replay.fullmove_number
    replay.push(board.move_stack[ply - 1])
    return _t("position_at", lang, number=number, side=side, position=describe_position(replay, lang))


def move_pair(board: chess.Board, number: int, lang: str, wording: str = "phonetic") -> str:
    """One move number of the game in words, with how many there are: "Zug 2 von 12: Springer Felix drei, Springer
    Cäsar sechs." — the move list stepped through. Clamped to the game; no moves: said so."""
    if not board.move_stack:
        return _t("no_moves", lang)
    replay = board.root()
    pairs: dict[int, list[str]] = {}
    for move in board.move_stack:
        words = move_words(replay, move, lang, wording)
        black_first = replay.turn == chess.BLACK and replay.fullmove_number not in pairs   # a pair without White's
        pairs.setdefault(replay.fullmove_number, []).append(f"… {words}" if black_first else words)
        replay.push(move)
    first, last = min(pairs), max(pairs)
    number = max(first, min(number, last))
    return _t("move_pair", lang, number=number, count=last, moves=", ".join(pairs[number]))
