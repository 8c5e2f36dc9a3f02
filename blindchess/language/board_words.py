"""What the board commands say: the readings of Lichess's blind mode, in the wording the listener chose.

Commands at least as rich as Lichess's blind mode (NVUI):
square names, scans of a rank or a file, the legal moves from a square, the
captured pieces, piece locations, the last move with side and move number —
each in a *wording* the listener chose (:data:`WORDINGS`):

* ``"phonetic"`` — the voice's file names of FIDE Laws D.2.1 ("Eva vier");
* ``"nato"`` — the NATO alphabet for the files ("Echo vier"), from
  ``voices/wordings.toml``;
* ``"san"`` — plain algebraic notation in the game's language ("e4", "Sf3").

The Qt window reads the board it shows with these texts (its cells are named
:func:`describe_square`); the table answers the requests of
:data:`REQUESTS` with :func:`answer` (by key and by voice alike). Pure:
python-chess, the voice data and the message catalogues
(``locale/board_words.<lang>.toml``); no Qt, no clock. Nothing here raises for
a legal position and a square; an unknown wording raises ValueError.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Iterable
from typing import Literal, get_args

import chess

from ..base import plural, tr, voices_dir
from . import notation, phonetic

#: How a listener hears moves and squares: the phonetic alphabet (D.2.1), the NATO alphabet, SAN.
Wording = Literal["phonetic", "nato", "san"]
#: The wordings a listener can choose, in the order a key cycles through them.
WORDINGS: tuple[Wording, ...] = get_args(Wording)
#: Requests the table answers with :func:`answer` (besides those of ``phonetic.REQUESTS``).
REQUESTS = ("rank", "file", "legal_moves", "captured", "last_move")

_ORDER = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)


def _check(wording: str) -> None:
    if wording not in WORDINGS:
        raise ValueError(f"unknown wording {wording!r}; one of {', '.join(WORDINGS)}")


@functools.cache
def _nato(lang: str) -> tuple[str, ...]:
    """The NATO file words for ``lang`` (English words when the language has none of its own)."""
    with (voices_dir() / "wordings.toml").open("rb") as f:
        data = tomllib.load(f)
    table = data["nato"]
    words = table.get(lang, table["en"])
    if len(words) != 8:
        raise ValueError(f"voices/wordings.toml: [nato] {lang} needs 8 words, has {len(words)}")
    return tuple(str(w) for w in words)


def _lang(lang: str) -> str:
    """The voice's language code (``phonetic.voice`` gives English for unknown languages)."""
    return phonetic.voice(lang).lang


def file_words(file: int, lang: str, wording: str = "phonetic") -> str:
    """The name of a file (0 = a): "Eva", "Echo" or "e"."""
    _check(wording)
    if wording == "san":
        return chess.FILE_NAMES[file]
    if wording == "nato":
        return _nato(_lang(lang))[file]
    return phonetic.voice(lang).files[file]


def rank_words(rank: int, lang: str, wording: str = "phonetic") -> str:
    """The name of a rank (0 = the first): "vier" (spoken words) or "4" (SAN)."""
    _check(wording)
    if wording == "san":
        return str(rank + 1)
    return phonetic.voice(lang).ranks[rank]


def square_words(square: int, lang: str, wording: str = "phonetic") -> str:
    """A square: "Eva vier", "Echo vier" or "e4"."""
    _check(wording)
    if wording == "san":
        return chess.square_name(square)
    return f"{file_words(chess.square_file(square), lang, wording)} {rank_words(chess.square_rank(square), lang, wording)}"


def piece_words(piece: chess.Piece | None, lang: str) -> str:
    """"weißer Bauer", or the voice's word for an empty square ("leer")."""
    v = phonetic.voice(lang)
    if piece is None:
        return v.spoken["empty"]
    words = v.pieces[piece.piece_type]
    return words.white if piece.color == chess.WHITE else words.black


def describe_square(board: chess.Board, square: int, lang: str, wording: str = "phonetic") -> str:
    """What stands on a square: "Eva vier, weißer Bauer" / "e4, leer"."""
    return f"{square_words(square, lang, wording)}, {piece_words(board.piece_at(square), lang)}"


def move_words(board: chess.Board, move: chess.Move, lang: str, wording: str = "phonetic") -> str:
    """A legal move of ``board`` in the wording: "Springer Felix drei", "Springer Foxtrot drei" or "Sf3".

    The phonetic form is ``phonetic.announce`` (D.2.1); the NATO form is the same
    phrase with the NATO file words. Raises ValueError for an illegal move.
    """
    _check(wording)
    if wording == "san":
        return notation.write(board, move, lang if lang in notation.LETTERS else "en")
    text = phonetic.announce(board, move, lang)
    if wording == "phonetic":
        return text
    files = phonetic.voice(lang).files
    nato = _nato(_lang(lang))
    return " ".join(nato[files.index(word)] if word in files else word for word in text.split(" "))


def last_move(board: chess.Board, lang: str, wording: str = "phonetic") -> str:
    """The last move of ``board``'s move stack with its number and side: "Zug 12, Schwarz: Springer Cäsar sechs"."""
    if not board.move_stack:
        return tr("board_words.no_last_move", lang)
    before = board.copy()
    move = before.pop()
    side = phonetic.voice(lang).spoken["white" if before.turn == chess.WHITE else "black"]
    return tr("board_words.last_move", lang, number=before.fullmove_number, side=side,
              move=move_words(before, move, lang, wording))


def legal_moves(board: chess.Board, square: int, lang: str, wording: str = "phonetic") -> str:
    """The legal moves of the piece on ``square``: "Springer Gustav eins: Felix drei, Hector drei."."""
    piece = board.piece_at(square)
    where = square_words(square, lang, wording)
    if piece is None:
        return tr("board_words.no_piece", lang, square=where)
    v = phonetic.voice(lang)
    name = f"{v.pieces[piece.piece_type].name} {where}"
    if piece.color != board.turn:
        side = v.spoken["white" if board.turn == chess.WHITE else "black"]
        return tr("board_words.not_to_move", lang, piece=name, side=side)
    moves = sorted((m for m in board.legal_moves if m.from_square == square),
                   key=lambda m: (chess.square_file(m.to_square), chess.square_rank(m.to_square)))
    targets = [_target_words(board, m, lang, wording) for m in moves]
    if not targets:
        return tr("board_words.no_moves", lang, piece=name)
    return tr("board_words.moves", lang, piece=name, moves=", ".join(dict.fromkeys(targets)))


def _target_words(board: chess.Board, move: chess.Move, lang: str, wording: str) -> str:
    """One move in a list of moves from a square: "Felix drei", "schlägt Eva fünf", "Anna acht wird Dame"."""
    v = phonetic.voice(lang)
    if board.is_castling(move):
        text = v.spoken["castle_short" if board.is_kingside_castling(move) else "castle_long"]
    else:
        text = square_words(move.to_square, lang, wording)
        if board.is_capture(move):
            text = f"{v.spoken['capture']} {text}"
        if move.promotion is not None:
            text = f"{text} {v.spoken['promotion']} {v.pieces[move.promotion].promotion}"
    if board.gives_check(move):
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        text = f"{text} {v.spoken['mate' if mate else 'check']}"
    return text


def _scan(board: chess.Board, squares: Iterable[int], title: str, lang: str, wording: str) -> str:
    found, empty = [], 0
    for square in squares:
        piece = board.piece_at(square)
        if piece is None:
            empty += 1
        else:
            found.append(describe_square(board, square, lang, wording))
    if not found:
        return tr("board_words.scan_empty", lang, title=title)
    rest = plural(empty, "board_words.empty_one", "board_words.empty", lang) if empty else ""
    return tr("board_words.scan", lang, title=title, pieces="; ".join(found), rest=rest).rstrip()


def scan_rank(board: chess.Board, rank: int, lang: str, wording: str = "phonetic", *, white_view: bool = True) -> str:
    """Every piece on a rank, seen from White's side (a to h) or Black's (h to a), and the empty squares."""
    files = range(8) if white_view else range(7, -1, -1)
    title = tr("board_words.rank", lang, rank=rank_words(rank, lang, wording))
    return _scan(board, (chess.square(f, rank) for f in files), title, lang, wording)


def scan_file(board: chess.Board, file: int, lang: str, wording: str = "phonetic", *, white_view: bool = True) -> str:
    """Every piece on a file, from the listener's side (1 to 8 for White, 8 to 1 for Black), and the empty squares."""
    ranks = range(8) if white_view else range(7, -1, -1)
    title = tr("board_words.file", lang, file=file_words(file, lang, wording))
    return _scan(board, (chess.square(file, r) for r in ranks), title, lang, wording)


def captured_pieces(board: chess.Board) -> dict[chess.Color, list[int]]:
    """The piece types each colour has lost, replayed from ``board``'s move stack (most valuable first)."""
    lost: dict[chess.Color, list[int]] = {chess.WHITE: [], chess.BLACK: []}
    replay = board.root()
    for move in board.move_stack:
        if replay.is_capture(move) and not replay.is_castling(move):
            if replay.is_en_passant(move):
                kind = chess.PAWN
            else:
                victim = replay.piece_at(move.to_square)
                assert victim is not None  # a capture that is no en passant takes a piece
                kind = victim.piece_type
            lost[not replay.turn].append(kind)
        replay.push(move)
    for kinds in lost.values():
        kinds.sort(key=_ORDER.index)
    return lost


def captured(board: chess.Board, lang: str) -> str:
    """The captured pieces of both sides: "Geschlagen. Weiß: 2 Bauern, Springer. Schwarz: keine."."""
    v = phonetic.voice(lang)
    parts = []
    for color, kinds in captured_pieces(board).items():
        side = v.spoken["white" if color == chess.WHITE else "black"]
        groups = []
        for kind in dict.fromkeys(kinds):
            n = kinds.count(kind)
            words = v.pieces[kind]
            groups.append(words.name if n == 1 else f"{n} {words.plural}")
        pieces = ", ".join(groups) if groups else tr("board_words.none", lang)
        parts.append(tr("board_words.captured_side", lang, side=side, pieces=pieces))
    return tr("board_words.captured", lang, sides=" ".join(parts))


def answer(what: str, board: chess.Board, lang: str, *, wording: str = "phonetic", square: int | None = None,
           white_view: bool = True) -> str:
    """The answer to one of :data:`REQUESTS` about ``board`` (with its move stack).

    ``square``: the cursor square or the square heard — the rank or file through
    it is scanned, its piece's moves listed; without one, the listener is asked
    which. ``white_view``: scans run from White's side (False: Black's).
    Raises ValueError for a request not in :data:`REQUESTS` or an unknown wording.
    """
    _check(wording)
    if what == "captured":
        return captured(board, lang)
    if what == "last_move":
        return last_move(board, lang, wording)
    if what not in REQUESTS:
        raise ValueError(f"unknown request {what!r}; one of {', '.join(REQUESTS)}")
    if square is None:
        return tr("board_words.which_square", lang)
    if what == "rank":
        return scan_rank(board, chess.square_rank(square), lang, wording, white_view=white_view)
    if what == "file":
        return scan_file(board, chess.square_file(square), lang, wording, white_view=white_view)
    return legal_moves(board, square, lang, wording)


def next_piece(board: chess.Board, start: int, piece_type: int, order: list[int]) -> int | None:
    """The next square after ``start`` in ``order`` (wrapping) holding a piece of ``piece_type``, either colour."""
    if start not in order:
        raise ValueError(f"square {start} is not in the order")
    at = order.index(start)
    for step in range(1, len(order) + 1):
        square = order[(at + step) % len(order)]
        piece = board.piece_at(square)
        if piece is not None and piece.piece_type == piece_type:
            return square
    return None


def piece_type_for_letter(letter: str, lang: str) -> int | None:
    """The piece type whose letter in ``lang``'s notation is ``letter`` (any case; "B"/"P" … for pawns), else None."""
    if not letter:
        return None
    letters = notation.LETTERS.get(lang if lang in notation.LETTERS else "en", notation.LETTERS["en"])
    upper = letter.upper()
    for kind, sign in letters.items():
        if sign.upper() == upper:
            return kind
    return chess.PAWN if upper == tr("board_words.pawn_letter", lang).upper() else None
