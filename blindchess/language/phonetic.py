"""The spoken move language of FIDE Laws Appendix D.2.1.

A player (or his assistant, D.2.10 b) announces every move aloud with the
phonetic file names Anna, Bella, Cäsar, David, Eva, Felix, Gustav, Hector and
the rank numbers eins … acht. This module turns moves into such phrases and
phrases (typed, or the text of a speech recogniser) back into moves, commands
and requests. The words of each language are data in ``voices/<lang>.toml``.

Spoken forms (German shown; the other voices follow the same pattern):

- piece move: piece name and target, ``Springer Felix drei``; when two like
  pieces can reach the target the departure file, rank or square is added as in
  SAN (Appendix C): ``Springer Bella David zwei``, ``Turm eins David eins``;
- pawn move: the target only, ``Eva vier``; a pawn capture names the file of
  departure, ``Eva schlägt David fünf``; ``… en passant``;
- capture ``schlägt``, promotion ``Eva acht wird Dame`` (D.2.1: the chosen piece
  must be announced), castling ``Kurze Rochade`` / ``Lange Rochade`` (also in
  Chess960, FIDE Laws Guidelines II), then ``Schach`` or ``matt``.

:func:`understand` accepts these and also the long form (``Springer Gustav eins
Felix drei``), bare short forms, filler words, spelling variants, split or merged
words, digits (``e4``, ``Eva 4``), written notation (through
:mod:`blindchess.language.notation`), commands (D.2.8 correction, draw offer,
resignation, j'adoube, "Ich werde rochieren") and the requests of D.2.10 d.

Certainty: ``move`` is set (and ``certain`` is True) only when exactly one
legal move fits what was said, every word was understood and nothing said
contradicts the move. When one move fits only by taking a word as misheard (a
corrected misspelling, an unknown word, a missing "schlägt", a "Schach" that is
no check), ``move`` is None, ``candidates`` holds that move and ``message`` asks
"Meinten Sie …?". When several moves fit, ``candidates`` holds them ranked and
``message`` is the question to ask. A guess is never returned as the move.
A request (or another command) is certain when every word was understood
("wie viel Zeit habe ich" is one of the voice's request phrases); a square
request also needs its square. Natural phrasings belong in the voice data, not
in code.

Data: the words are in ``voices/<lang>.toml`` (see voices/README.md); the
messages ("Kein Springer kann nach Felix drei ziehen.", "Meinten Sie …?") are
in ``blindchess/base/locale/phonetic.<lang>.toml``. Speed: a position's legal moves
are indexed by arrival square once (cached), and the reading of a text is
cached independently of the position, so ``understand`` costs tens of
microseconds (tests/benchmarks/bench_phonetic.py). Pure: python-chess and the
standard library only; time is never read.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass, field
from typing import Literal, cast, get_args

import chess

from ..base import tr, voices_dir
from . import notation
from .recognition import phrases as _grammar_phrases
from .spoken import (
    _INDEX_CACHE,
    _PIECE_ORDER,
    LANGS,
    MAX_CHARS,
    MAX_TOKENS,
    REQUESTS,
    Voice,
    VoiceError,
    _gives_check,
    _Index,
    _index,
    _is_mate_after,
    _king_destination,
    _move_words,
    _tokens,
    fold,
    piece_name,
    square_name,
    voice,
)

__all__ = [
    "LANGS", "KINDS", "CLAIMS", "ClaimWord", "UtteranceKind", "REQUESTS", "MAX_CHARS", "MAX_TOKENS", "Understanding",
    "Voice", "VoiceError", "announce", "describe_pieces", "describe_position", "describe_square", "fold", "grammar",
    "piece_name", "read_phrase", "square_name", "understand", "voice", "voices_dir", "_INDEX_CACHE", "_Index",
]

#: What an utterance is (the ``kind`` of an :class:`Understanding`).
UtteranceKind = Literal["move", "correction", "request", "claim", "draw_offer", "resign", "adjust",
                        "castle_intent", "yes", "no", "repeat", "unknown"]
#: Every utterance kind.
KINDS: tuple[UtteranceKind, ...] = get_args(UtteranceKind)

#: What a claim is about (the ``claim`` of an :class:`Understanding`): the opponent's flag (Art. 6.8),
#: threefold repetition (Art. 9.2), fifty moves (Art. 9.3), an illegal move (A.4, B.3).
ClaimWord = Literal["time", "threefold", "fifty", "illegal"]
#: Every claim word.
CLAIMS: tuple[ClaimWord, ...] = get_args(ClaimWord)

@dataclass
class Understanding:
    """What an utterance means in a position.

    ``kind`` is one of :data:`KINDS`; ``move`` is set only when exactly one
    legal move fits, for certain (for a move, a correction naming a move, a draw
    offer made with a move); ``candidates`` are the fitting (or, when none fits,
    the nearest) legal moves, best first; ``message`` is in the user's language:
    the question to ask or why nothing fits. ``certain`` is False whenever
    something had to be guessed. For requests ``request`` is one of
    :data:`REQUESTS`, with ``square`` / ``piece_type`` / ``color`` when named;
    for a claim ``claim`` is one of :data:`CLAIMS`, with ``move`` when a move
    is named with it (the move he declares he will make, Art. 9.2.1.1);
    ``owner`` is "own" / "opponent" for "meine" / "seine" (the app knows who
    asks, so ``color`` stays None then).
    """

    text: str
    kind: UtteranceKind = "unknown"
    move: chess.Move | None = None
    candidates: list[chess.Move] = field(default_factory=list)
    certain: bool = False
    request: str | None = None
    claim: ClaimWord | None = None
    square: int | None = None
    piece_type: int | None = None
    color: bool | None = None
    owner: str | None = None
    message: str = ""



def announce(board: chess.Board, move: chess.Move, lang: str = "de") -> str:
    """The phrase a player or assistant says for ``move`` (D.2.1), unambiguous here.

    ``Springer Felix drei``, ``Eva vier``, ``David schlägt Eva fünf``,
    ``Springer Bella David zwei``, ``Eva acht wird Dame``, ``Kurze Rochade``,
    ``Dame Hector fünf Schach``, ``Turm Anna acht matt``. An illegal move
    raises ValueError (a programming error: callers announce legal moves).
    """
    v = voice(lang)
    index = _index(board)
    if move not in index.by_target.get(move.to_square, ()) and move not in index.castling:
        raise ValueError(f"illegal move {move.uci()} in {board.fen()}")
    words = _move_words(board, move, v)
    if _gives_check(board, move):
        words.append(v.spoken["mate"] if _is_mate_after(board, move) else v.spoken["check"])
    return " ".join(words)


# ------------------------------------------------------------------ descriptions


def describe_square(board: chess.Board, square: int, lang: str = "de") -> str:
    """What stands on a square: ``Eva vier, weißer Bauer`` / ``Eva vier, leer``."""
    v = voice(lang)
    piece = board.piece_at(square)
    if piece is None:
        what = v.spoken["empty"]
    else:
        words = v.pieces[piece.piece_type]
        what = words.white if piece.color == chess.WHITE else words.black
    return f"{v.squares[square]}, {what}"


def _join(items: list[str], v: Voice) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {v.spoken['and']} " + items[-1]


def _squares_text(squares: chess.SquareSet, v: Voice) -> str:
    return _join([v.squares[s] for s in squares], v)


def describe_pieces(board: chess.Board, piece_type: int | None, color: bool | None,
                    lang: str = "de") -> str:
    """Where the pieces of a kind stand: ``Weiße Springer: Bella eins und Gustav eins``.

    ``piece_type`` None means every kind; ``color`` None means both colours.
    """
    v = voice(lang)
    colors = [chess.WHITE, chess.BLACK] if color is None else [bool(color)]
    types = list(_PIECE_ORDER) if piece_type is None else [piece_type]
    parts = []
    for c in colors:
        for pt in types:
            squares = board.pieces(pt, c)
            words = v.pieces[pt]
            if piece_type is None and not squares:
                continue
            label = (words.white if c else words.black) if len(squares) == 1 else \
                (words.white_plural if c else words.black_plural)
            where = _squares_text(squares, v) if squares else tr("phonetic.none_left", v.lang)
            parts.append(f"{label[:1].upper()}{label[1:]}: {where}")
    return "; ".join(parts) + "."


def describe_position(board: chess.Board, lang: str = "de") -> str:
    """The whole position, White then Black, and who is to move.

    ``Weiß: König Gustav eins, Türme Anna eins und Hector eins, …; Schwarz: …
    Weiß am Zug.``
    """
    v = voice(lang)
    sides = []
    for color in (chess.WHITE, chess.BLACK):
        groups = []
        for pt in _PIECE_ORDER:
            squares = board.pieces(pt, color)
            if squares:
                words = v.pieces[pt]
                groups.append(f"{words.name if len(squares) == 1 else words.plural} {_squares_text(squares, v)}")
        side = v.spoken["white" if color else "black"]
        sides.append(f"{side}: {', '.join(groups)}")
    to_move = tr("phonetic.white_to_move" if board.turn else "phonetic.black_to_move", v.lang)
    return "; ".join(sides) + ". " + to_move


# --------------------------------------------------------------------- understand


@dataclass(frozen=True)
class _Parsed:
    """Position-independent reading of a text: meaningful items and doubts."""

    items: tuple[tuple[str, object], ...]
    unknown: int  # words not understood (skipped)
    fuzzy: int    # words corrected by spelling distance
    said: _Said | None = None  # the move constraints, when the text names a move
    commands: tuple[str, ...] = ()
    requests: tuple[str, ...] = ()
    has_move: bool = False  # a square, piece, capture or castling was named


_PARSE_CACHE: dict[tuple[str, str], _Parsed] = {}
_PARSE_CACHE_MAX = 8192


def _parse(v: Voice, text: str) -> _Parsed:
    text = text[:MAX_CHARS]
    key = (v.lang, text)
    hit = _PARSE_CACHE.get(key)
    if hit is not None:
        return hit
    raw = _tokens(fold(text))[:MAX_TOKENS]
    toks: list[str] = []
    unknown = fuzzy = 0
    i = 0
    while i < len(raw):
        t = raw[i]
        if t in v.vocab or t.isdigit():
            toks.append(t)
            i += 1
            continue
        joined = next((k for k in (2, 3) if i + k <= len(raw) and "".join(raw[i:i + k]) in v.vocab), 0)
        if joined:
            toks.append("".join(raw[i:i + joined]))
            i += joined
            continue
        parts = v.segment(t)
        if parts:
            toks.extend(parts)
        else:
            near = v.fuzzy(t)
            if near:
                toks.append(near)
                fuzzy += 1
            else:
                unknown += 1
        i += 1
    items: list[tuple[str, object]] = []
    i = 0
    while i < len(toks):
        for n in range(min(v.max_phrase, len(toks) - i), 0, -1):
            meaning = v.lexicon.get(tuple(toks[i:i + n]))
            if meaning is not None:
                if meaning[0] != "filler":
                    items.append(meaning)
                i += n
                break
        else:
            if toks[i].isdigit():
                unknown += 1  # a number that is no rank
            i += 1
    move_items = [(k, val) for k, val in items if k in _MOVE_KINDS]
    parsed = _Parsed(
        tuple(items), unknown, fuzzy, _said(move_items) if move_items else None,
        commands=tuple(value for kind, value in items if kind == "cmd"),  # type: ignore[misc]
        requests=tuple(value for kind, value in items if kind == "req"),  # type: ignore[misc]
        has_move=any(k in ("file", "rank", "piece", "castle", "capture") for k, _ in move_items),
    )
    if len(_PARSE_CACHE) >= _PARSE_CACHE_MAX:
        _PARSE_CACHE.clear()
    _PARSE_CACHE[key] = parsed
    return parsed


_MOVE_KINDS = frozenset(("file", "rank", "square", "piece", "capture", "check", "mate", "ep", "promo", "castle"))


@dataclass
class _Said:
    """The constraints a move phrase puts on the move."""

    piece: int | None = None
    origin_file: int | None = None
    origin_rank: int | None = None
    target_file: int | None = None
    target_rank: int | None = None
    capture: bool = False
    captured: int | None = None
    promotion: int | None = None
    check: bool = False
    mate: bool = False
    ep: bool = False
    castle: str | None = None
    doubtful: bool = False  # contradictory or superfluous words

    @property
    def has_origin(self) -> bool:
        return self.origin_file is not None or self.origin_rank is not None

    @property
    def target_square(self) -> int | None:
        if self.target_file is None or self.target_rank is None:
            return None
        return chess.square(self.target_file, self.target_rank)


def _said(items: list[tuple[str, object]]) -> _Said:
    said = _Said()
    # pair a file with the rank right after it into a square
    seq: list[tuple[str, object]] = []
    for kind, value in items:
        if kind == "rank" and seq and seq[-1][0] == "file":
            seq[-1] = ("square", (seq[-1][1], value))
        else:
            seq.append((kind, value))
    capture_at = next((i for i, (k, _) in enumerate(seq) if k == "capture"), None)
    squares = [i for i, (k, _) in enumerate(seq) if k == "square"]
    locs = [i for i, (k, _) in enumerate(seq) if k in ("square", "file", "rank")]
    if squares:
        target_at: int | None = squares[-1]
    elif capture_at is not None:
        target_at = next((i for i in locs if i > capture_at), None)
    else:
        target_at = None
    if target_at is not None:
        kind, value = seq[target_at]
        if kind == "square":
            said.target_file, said.target_rank = value  # type: ignore[misc]
        elif kind == "file":
            said.target_file = value  # type: ignore[assignment]
        else:
            said.target_rank = value  # type: ignore[assignment]
    for i in locs:
        if i == target_at:
            continue
        if target_at is not None and i > target_at:
            said.doubtful = True  # a square after the target: superfluous words
            continue
        kind, value = seq[i]
        f: int | None
        r: int | None
        f, r = value if kind == "square" else ((value, None) if kind == "file" else (None, value))  # type: ignore[misc]
        if f is not None:
            if said.origin_file not in (None, f):
                said.doubtful = True
            said.origin_file = f
        if r is not None:
            if said.origin_rank not in (None, r):
                said.doubtful = True
            said.origin_rank = r
    promo_marker = False
    for i, (kind, value) in enumerate(seq):
        if kind == "piece":
            if promo_marker or (target_at is not None and i > target_at):
                if said.promotion not in (None, value):
                    said.doubtful = True
                said.promotion = value  # type: ignore[assignment]
            elif capture_at is not None and i > capture_at:
                said.captured = value  # type: ignore[assignment]
            elif said.piece is None:
                said.piece = value  # type: ignore[assignment]
            elif said.piece != value:
                said.doubtful = True
        elif kind == "promo":
            promo_marker = True
        elif kind == "capture":
            said.capture = True
        elif kind == "check":
            said.check = True
        elif kind == "mate":
            said.mate = True
        elif kind == "ep":
            said.ep = True
            said.capture = True
        elif kind == "castle":
            said.castle = value  # type: ignore[assignment]
    return said




def _fitting(board: chess.Board, said: _Said) -> list[chess.Move]:
    """Legal moves that fit the hard constraints: squares, pieces, promotion, castling side."""
    us = board.turn
    index = _index(board)
    if said.castle is not None:
        return [m for m in index.castling if board.is_kingside_castling(m) == (said.castle == "short")]
    if said.piece is not None:
        from_mask = board.pieces_mask(said.piece, us)
    elif said.origin_file is not None and said.origin_rank is not None:
        from_mask = board.occupied_co[us]  # long form: the departure square names the piece
    else:
        from_mask = board.pawns & board.occupied_co[us]  # "Eva vier" is a pawn move
    if said.origin_file is not None:
        from_mask &= chess.BB_FILES[said.origin_file]
    if said.origin_rank is not None:
        from_mask &= chess.BB_RANKS[said.origin_rank]
    if said.target_file is not None or said.target_rank is not None:
        to_mask = chess.BB_ALL
        if said.target_file is not None:
            to_mask &= chess.BB_FILES[said.target_file]
        if said.target_rank is not None:
            to_mask &= chess.BB_RANKS[said.target_rank]
    elif said.capture:
        to_mask = board.occupied_co[not us]
        if board.ep_square is not None:
            to_mask |= chess.BB_SQUARES[board.ep_square]
    else:
        return []
    if said.captured is not None:
        victims = board.pieces_mask(said.captured, not us)
        if said.captured == chess.PAWN and board.ep_square is not None:
            victims |= chess.BB_SQUARES[board.ep_square]
        to_mask &= victims
    target = said.target_square
    if target is not None:
        pool = index.by_target.get(target, ())
    else:
        pool = [m for ms in index.by_target.values() for m in ms]
    moves = [m for m in pool if from_mask >> m.from_square & 1 and to_mask >> m.to_square & 1]
    # castling named by the king's move ("König Gustav eins")
    if target is not None and said.piece in (None, chess.KING) and (said.piece or said.has_origin) \
            and said.captured is None:
        for m in index.castling:
            if not from_mask >> m.from_square & 1:
                continue
            # only a real king move of two or more squares; a one-step king move is a king move
            if _king_destination(board, m) == target and chess.square_distance(m.from_square, target) > 1 \
                    and m not in moves:
                moves.append(m)
    if said.promotion is not None:
        moves = [m for m in moves if m.promotion == said.promotion]
    return moves


def _mismatches(board: chess.Board, said: _Said, move: chess.Move) -> int:
    """How many soft details contradict ``move`` (capture, check, mate, en passant)."""
    n = 0
    if said.castle is None and board.is_capture(move) != said.capture:
        n += 1
    if said.ep and not board.is_en_passant(move):
        n += 1
    if (said.check or said.mate) and (
            not _gives_check(board, move) or said.mate and not said.check and not _is_mate_after(board, move)):
        n += 1
    return n


def _rank_key(move: chess.Move) -> tuple[int, int]:
    return (-(move.promotion or 0), move.from_square)


def _options(board: chess.Board, moves: list[chess.Move], v: Voice) -> str:
    names = [announce(board, m, v.lang) for m in moves[:4]]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " " + tr("phonetic.or", v.lang) + " " + names[-1]


def _suggestions(board: chess.Board, said: _Said) -> list[chess.Move]:
    """The nearest legal moves when nothing fits: other pieces to the named square
    first, then the named piece's moves nearest to it (at most four)."""
    if said.castle is not None:
        return []
    index = _index(board)
    target = said.target_square
    same_target = list(index.by_target.get(target, ())) if target is not None else []
    same_piece: list[chess.Move] = []
    if said.piece is not None:
        mask = board.pieces_mask(said.piece, board.turn)
        same_piece = [m for ms in index.by_target.values() for m in ms
                      if mask >> m.from_square & 1 and m not in same_target]
        if target is not None:
            same_piece = heapq.nsmallest(4, same_piece, key=lambda m: chess.square_distance(m.to_square, target))
    same_target.sort(key=_rank_key)
    return (same_target + same_piece)[:4]


def _explain(board: chess.Board, said: _Said, v: Voice) -> str:
    lang = v.lang
    target = said.target_square
    if said.castle is not None:
        castle = v.spoken[f"castle_{said.castle}"]
        return tr("phonetic.no_castle", lang, castle=castle[:1].upper() + castle[1:])
    if target is None and said.target_file is None and said.target_rank is None and not said.capture:
        return tr("phonetic.which_square", lang)
    if said.promotion is not None and target is not None:
        return tr("phonetic.no_promotion", lang, square=v.squares[target],
                  piece=v.pieces[said.promotion].name)
    if target is None:
        piece = said.piece if said.piece is not None else chess.PAWN
        return tr("phonetic.no_capture", lang, none=v.pieces[piece].none)
    if said.piece is None and not said.has_origin:
        return tr("phonetic.no_pawn_to", lang, square=v.squares[target])
    if said.origin_file is not None and said.origin_rank is not None:
        origin = chess.square(said.origin_file, said.origin_rank)
        return tr("phonetic.no_move_from_to", lang, from_square=v.squares[origin], square=v.squares[target])
    piece = said.piece if said.piece is not None else chess.PAWN
    return tr("phonetic.no_piece_to", lang, none=v.pieces[piece].none, square=v.squares[target])


def _resolve_move(board: chess.Board, said: _Said, doubt: bool, v: Voice, result: Understanding) -> None:
    """Fill ``result`` with the move(s) fitting ``said`` and the message to give."""
    lang = v.lang
    fitting = _fitting(board, said)
    if len(fitting) == 1 and not doubt and not said.doubtful and not _mismatches(board, said, fitting[0]):
        result.move = fitting[0]
        result.candidates = fitting
        result.certain = True
        return
    if fitting:
        scored = sorted(((_mismatches(board, said, m), _rank_key(m), m) for m in fitting),
                        key=lambda t: (t[0], t[1]))
        exact = [m for n, _, m in scored if n == 0]
        result.candidates = [m for _, _, m in scored]
        if len(exact) == 1 or (not exact and len(fitting) == 1):
            best = exact[0] if exact else fitting[0]
            result.candidates.remove(best)
            result.candidates.insert(0, best)
            if exact and not doubt and not said.doubtful:
                result.move = best
                result.certain = True
            else:  # one move fits, but only if a word is taken as misheard: ask, never guess
                result.message = tr("phonetic.did_you_mean", lang, options=_options(board, [best], v))
            return
        result.message = tr("phonetic.did_you_mean", lang, options=_options(board, exact or result.candidates, v))
        return
    if not _index(board).by_target and not _index(board).castling:
        result.message = tr("phonetic.no_legal_move", lang)
        return
    result.message = _explain(board, said, v)
    suggestions = _suggestions(board, said)
    result.candidates = suggestions
    if suggestions:
        result.message += " " + tr("phonetic.possible", lang, options=_options(board, suggestions, v))


# Written notation: a letter glued to a rank digit or castling zeros ("Sf3", "exd5", "0-0", "O-O").
_WRITTEN = re.compile(r"[^\W\d_][1-8]|[0oO]-[0oO]")


def _from_notation(board: chess.Board, text: str, lang: str, result: Understanding) -> bool:
    """Written notation ("Sf3", "exd5", "0-0") read by :func:`blindchess.language.notation.read`.

    Fills ``result`` and returns True when the text is written notation that
    names a move, several (a question) or an illegal move the notation reader
    explains better than the spoken reading did; False otherwise.
    """
    stripped = text.strip()
    if not stripped or len(stripped) > 40 or not _WRITTEN.search(stripped):
        return False
    reading = notation.read(board, stripped, lang)
    if reading.ok and reading.move is not None:
        result.kind = "move"
        result.move = reading.move
        result.candidates = [reading.move]
        result.certain = True
        result.message = ""
        return True
    v = voice(lang)
    if reading.problem == "ambiguous" and reading.candidates:
        result.kind = "move"
        result.candidates = list(reading.candidates)
        result.message = tr("phonetic.did_you_mean", lang, options=_options(board, result.candidates, v))
        return True
    if reading.problem == "illegal" and result.message in (tr("phonetic.which_square", lang),
                                                           tr("phonetic.not_understood", lang)):
        # written, but no legal move: the notation reader's explanation is the better one
        suggestions = list(reading.suggestions)[:4]
        result.message = tr("phonetic.written_illegal", lang, written=stripped)
        result.kind = "move"
        result.candidates = suggestions
        if suggestions:
            result.message += " " + tr("phonetic.possible", lang, options=_options(board, suggestions, v))
        return True
    return False


def understand(board: chess.Board, text: str, lang: str = "de", *, heard: bool = False) -> Understanding:
    """What ``text`` (typed, or a speech recogniser's words) means in this position.

    ``heard=True`` marks the text as a speech recogniser's: then a move named as
    a king move of two or more squares that is castling ("König Gustav eins")
    is not taken for certain but asked ("Meinten Sie Kurze Rochade?"), because
    recognisers turn "Springer"/"knight" into "König"/"K" (D.2.1: never guess).
    Typed text (the default) reads such a king move as castling, as written
    notation does (``Kg1``). Never raises for any string; at most
    :data:`MAX_CHARS` characters are read.
    """
    if not isinstance(text, str):
        text = bytes(text).decode("utf-8", "replace") if isinstance(text, (bytes, bytearray)) else str(text)
    v = voice(lang)
    result = Understanding(text=text)
    parsed = _parse(v, text)
    doubt = parsed.unknown > 0 or parsed.fuzzy > 0
    commands, requests, has_move = parsed.commands, parsed.requests, parsed.has_move

    if "correction" in commands or ("no" in commands and has_move):
        result.kind = "correction"
    elif "resign" in commands:
        result.kind = "resign"
    elif claims := [c for c in CLAIMS if f"claim_{c}" in commands]:
        result.kind = "claim"       # "Remis durch Stellungswiederholung" claims, it offers nothing
        result.claim = claims[0]
        if not has_move:
            result.certain = not doubt and len(claims) == 1
            return result
    elif "draw_offer" in commands:
        result.kind = "draw_offer"
    elif "adjust" in commands:
        result.kind = "adjust"
    elif "castle_intent" in commands:
        result.kind = "castle_intent"
    elif requests:
        return _request(board, requests[0], list(parsed.items), v, result, doubt)
    elif "repeat" in commands:
        result.kind = "repeat"
    elif has_move:
        result.kind = "move"
    elif "yes" in commands or "no" in commands:
        result.kind = "yes" if "yes" in commands else "no"
    if result.kind == "unknown":
        if not _from_notation(board, text[:MAX_CHARS], v.lang, result):
            result.message = tr("phonetic.not_understood", v.lang)
        return result
    if result.kind in ("resign", "castle_intent", "repeat", "yes", "no"):
        result.certain = not doubt and not has_move
        return result
    if result.kind == "adjust":
        result.square = parsed.said.target_square if parsed.said else None
        result.certain = not doubt
        return result
    if not has_move:  # a bare correction or draw offer
        result.certain = not doubt
        return result
    said = parsed.said or _Said()
    _resolve_move(board, said, doubt, v, result)
    if heard and result.move is not None and said.castle is None and board.is_castling(result.move):
        # castling heard only as a king move: a misheard piece name must not castle
        result.move = None
        result.certain = False
        result.message = tr("phonetic.did_you_mean", v.lang, options=_options(board, result.candidates[:1], v))
        return result
    if result.move is None and result.kind == "move":
        _from_notation(board, text[:MAX_CHARS], v.lang, result)
    return result


def read_phrase(board: chess.Board, text: str, lang: str | None = None) -> chess.Move | None:
    """The move a spoken phrase written on a score names ("Springer Felix drei"), understood in the
    user's language ``lang`` first, then in every other voice; None when no voice hears one move in
    it (a :data:`blindchess.language.notation.SpokenReader`). Never raises for any string."""
    langs = [lang] if lang in LANGS else []
    langs += [x for x in LANGS if x not in langs]
    for candidate in langs:
        u = understand(board, text, candidate)
        if u.kind in ("move", "correction") and u.move is not None:
            return u.move
    return None


def _request(board: chess.Board, name: str, items: list[tuple[str, object]], v: Voice, result: Understanding,
             doubt: bool) -> Understanding:
    result.kind = "request"
    result.request = name
    result.certain = not doubt
    said = _said([(k, val) for k, val in items if k in _MOVE_KINDS and k != "piece"])
    file: int | None = None
    rank: int | None = None
    for kind, value in items:  # the value's type follows from its kind (see _parse)
        if kind == "piece" and result.piece_type is None:
            result.piece_type = cast(int, value)
        elif kind == "color" and result.color is None:
            result.color = cast(bool, value)
        elif kind == "owner" and result.owner is None:
            result.owner = cast(str, value)
        elif kind == "file" and file is None:
            file = cast(int, value)
        elif kind == "rank" and rank is None:
            rank = cast(int, value)
    # a scan names a rank or a file: given as a square on it (the a-file, the first rank)
    if name == "rank" and rank is not None:
        result.square = chess.square(0, rank)
    elif name == "file" and file is not None:
        result.square = chess.square(file, 0)
    elif name in ("legal_moves", "captures", "around"):
        result.square = said.target_square
    if name == "square":
        result.square = said.target_square
        if result.square is None:
            result.certain = False
            result.message = tr("phonetic.which_square", v.lang)
    return result


def grammar(board: chess.Board, lang: str = "de") -> list[str]:
    """The vosk grammar for this position: every legal move in every accepted
    spoken form, every command and request, and ``"[unk]"``. See
    :mod:`blindchess.language.recognition`."""
    return _grammar_phrases(board, lang)

