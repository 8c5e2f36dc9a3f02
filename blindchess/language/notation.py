"""Algebraic notation in six languages: write moves, read them like an arbiter.

FIDE Laws, Appendix C: a piece move is the piece's capital initial
and the arrival square (``Sf3``), a pawn move the arrival square (``e4``); each
player may use the letters of his own language:

======  =====  =====  =====  =====  =====  =====
piece   de     en     fr     it     nl     ru
======  =====  =====  =====  =====  =====  =====
king    K      K      R      R      K      Кр
queen   D      Q      D      D      D      Ф
rook    T      R      T      T      T      Л
bishop  L      B      F      A      L      С
knight  S      N      C      C      P      К
======  =====  =====  =====  =====  =====  =====

Writing (:func:`write`, :func:`write_score`) is python-chess SAN with the letters
swapped, in the FIDE form (``0-0``, ``exd6 e.p.``, ``d8D``) or the PGN form
(``O-O``, ``d8=Q``; with ``lang="en"`` exactly python-chess SAN).

Reading (:func:`read`, :func:`parse`, :func:`read_score`) follows how an arbiter
reads a handwritten scoresheet (FIDE Laws Appendix C). The text is cut
into symbols, each with its possible meanings and a *cost* (0 = as written in the
sheet's language; 1 = a reading that needs a correction: a letter of another
language where the sheet's language is given, a case slip such as ``sf3`` or
``E4``, ``l``/``I`` read as ``1``, a pawn capture written as the bare arrival
square, a transliterated Russian letter). Every legal move gets the lowest cost
of a reading that fits it; the moves with the lowest cost are the answer: one
move — read; several — *ambiguous* (they are listed); none — *illegal*; text
that is no move at all — *unreadable*.

A correction may make a reading certain only where the meaning is certain.
The rule of certainty: when the text *as written* is a well-formed
move — every symbol read as written, the piece letter (and a promotion letter)
one of the sheet's language (any language's, when none is given) — and no legal
move is that move, the reading is *illegal*; the corrected readings that would
fit come first among the suggestions, they never make the reading ok. So an
English ``Bc4`` that no bishop can play is illegal (``bxc4`` suggested), not
read as a case slip for ``bc4``. Per correction kind:

- another language's letter (``Nf3`` on a German sheet): used only because the
  letter is no piece letter of the sheet's language, so the text as written is
  no move of that sheet; certain when exactly one of its meanings fits;
- case slips: a lower-case piece letter that is no file (``sf3``) or an
  upper-case file letter that is no piece letter of the sheet's language
  (``E4``, ``SF3``, ``Bc4`` on a German sheet); a capital piece letter of the
  sheet's language stays that piece (rule above) and a lower-case file letter
  stays the file (``bc4`` is the b-pawn);
- ``l``/``I``/``|`` for ``1`` (``Kfl``): the text as written is no move;
- transliterated Russian letters (``L`` for Л, ``S`` for С ...): only on Russian
  sheets or without a language, and under the rule above (``Lh5`` without a
  language is the bishop L, illegal if no bishop gets there);
- a pawn capture written as the bare arrival square (``d5`` for ``exd5``), a
  common scoresheet shortcut: the piece (a pawn, by the missing letter) and the
  square are as written, only the departure file and ``x`` are left out as in
  a missing ``x``; certain when no pawn moves straight to that square and
  exactly one pawn captures there (two: ambiguous);
- the old pawn shorthand ``ed``/``exd``: certain when exactly one pawn capture
  from that file to that file is legal;
- a king move onto its castling square (``Kg1``) is castling: the king's move as
  written, not a correction.

What is ignored because it never changes which
move is meant: a missing or extra ``x``/``:``, ``+``, ``#``, ``++``, ``e.p.``,
``!?``-style annotations and NAGs, a move number in front, stray whitespace and
dots. ``(=)`` is reported as :attr:`Reading.draw_offer`. Long algebraic
(``Sg1-f3``, ``Sg1xf3``, ``e2-e4``) and UCI (``g1f3``, ``e7e8q``) are read too;
a promotion needs its piece (``e8D``, ``e8=D``, ``e8/D``, ``e8(D)``), without it
the move is ambiguous between the four pieces. Castling is ``0-0``/``0-0-0`` with
zeros, letter O, lower-case o or Cyrillic О, with or without hyphens; a king move
onto its castling square (``Kg1``) is read as castling too.

A problem comes with :attr:`Reading.suggestions`: the legal moves nearest to
what is written, ranked by a distance in "pen strokes": the written piece with
the wrong disambiguation (1), the written piece to a square one character away
(``Sf4`` → ``Se4``, 1.1), another piece to the written square (2), the written
piece to a square two characters away (2.1–2.2); for castling the other castling
and then other king moves. Unreadable text is compared with every legal move
written in full, by edit distance.

The module is pure: python-chess and the standard library only, no I/O; texts
are capped (:data:`MAX_MOVE_CHARS`, :data:`MAX_SCORE_CHARS`, :data:`MAX_PLIES`)
so any input is read in bounded time.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import TypedDict, cast

import chess

from ..base import MAX_PLIES, NOTATION_LANGS, UserError, default_lang, tr

__all__ = [
    "LETTERS", "STYLES", "MAX_MOVE_CHARS", "MAX_SCORE_CHARS", "MAX_PLIES",
    "Reading", "ScoreEntry", "Problem", "ScoreReading", "NotationError",
    "PROBLEMS", "write", "san_in", "read", "parse", "read_score", "read_entries", "read_entry", "SpokenReader", "write_score", "guess_lang", "piece_letter", "is_move_text",
    "split_games", "iter_games",
]

#: Piece letters per language (FIDE Laws Appendix C); pawns have no letter.
LETTERS: dict[str, dict[int, str]] = {
    "de": {chess.KING: "K", chess.QUEEN: "D", chess.ROOK: "T", chess.BISHOP: "L", chess.KNIGHT: "S"},
    "en": {chess.KING: "K", chess.QUEEN: "Q", chess.ROOK: "R", chess.BISHOP: "B", chess.KNIGHT: "N"},
    "fr": {chess.KING: "R", chess.QUEEN: "D", chess.ROOK: "T", chess.BISHOP: "F", chess.KNIGHT: "C"},
    "it": {chess.KING: "R", chess.QUEEN: "D", chess.ROOK: "T", chess.BISHOP: "A", chess.KNIGHT: "C"},
    "nl": {chess.KING: "K", chess.QUEEN: "D", chess.ROOK: "T", chess.BISHOP: "L", chess.KNIGHT: "P"},
    "ru": {chess.KING: "Кр", chess.QUEEN: "Ф", chess.ROOK: "Л", chess.BISHOP: "С", chess.KNIGHT: "К"},
}
STYLES = ("fide", "pgn")

#: Longer single-move texts (after trimming) are unreadable without further work.
MAX_MOVE_CHARS = 48
#: Score texts are read up to this many characters (a long annotated game is ~50 kB).
MAX_SCORE_CHARS = 2_000_000
#: At most this many half-moves are read from one score: the one limit every reader keeps (no game is longer).
#: After the first problem, at most this many further unreadable entries are reported.
MAX_LATER_PROBLEMS = 100

PROBLEMS = ("illegal", "ambiguous", "unreadable")

_PROMOTABLE = (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)

# --------------------------------------------------------------------------- writing


def piece_letter(piece_type: int, lang: str = "de") -> str:
    """The letter of ``piece_type`` in ``lang`` ("" for a pawn)."""
    if piece_type == chess.PAWN:
        return ""
    return _letters(lang)[piece_type]


def _letters(lang: str) -> dict[int, str]:
    try:
        return LETTERS[lang]
    except KeyError:
        raise ValueError(f"unknown notation language {lang!r}; one of {', '.join(NOTATION_LANGS)}") from None


_SAN_RE = re.compile(r"^(?P<body>.*?)(?:=(?P<promo>[QRBN]))?(?P<check>[+#]?)$")
_EN_PIECES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT}


def write(board: chess.Board, move: chess.Move, lang: str = "de", *, style: str = "fide") -> str:
    """``move`` in short algebraic notation with the piece letters of ``lang``.

    ``style="fide"`` writes castling with zeros (``0-0``), en passant with
    ``e.p.`` (``exd6 e.p.``) and promotion with the bare letter (``d8D``);
    ``style="pgn"`` writes ``O-O`` and ``d8=D`` (``lang="en"`` gives exactly
    python-chess SAN). Check ``+`` and mate ``#`` are appended in both styles.
    Raises ValueError for an illegal move, unknown language or style.
    """
    _letters(lang)   # an unknown language is refused before the move is looked at
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; one of {', '.join(STYLES)}")
    if not board.is_legal(move):
        raise ValueError(f"illegal move {move.uci()} in {board.fen()}")
    written = san_in(board.san(move), lang, style=style)
    if style == "fide" and board.is_en_passant(move):
        written = written[:-1] + " e.p." + written[-1] if written[-1] in "+#" else written + " e.p."
    return written


def san_in(san: str, lang: str, *, style: str = "fide") -> str:
    """A move written in python-chess SAN (``"Nf3"``, ``"e8=Q+"``, ``"O-O"``) with the letters of ``lang``.

    The same writing as :func:`write` without a board (``"Pf3"`` in Dutch, ``"Кf3"`` in Russian), except
    that an en passant capture carries no ``e.p.``: for a move already made and reported as SAN (a log
    line). Text that is no SAN is returned as it is. Raises ValueError for an unknown language or style.
    """
    letters = _letters(lang)
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; one of {', '.join(STYLES)}")
    if (style == "pgn" and lang == "en") or not san:
        return san
    m = _SAN_RE.match(san)
    assert m is not None  # every text matches
    body, promo, check = m.group("body"), m.group("promo"), m.group("check")
    if body.startswith("O-O"):
        return (body.replace("O", "0") if style == "fide" else body) + check
    if body and body[0] in _EN_PIECES:
        body = letters[_EN_PIECES[body[0]]] + body[1:]
    if promo:
        body += ("" if style == "fide" else "=") + letters[_EN_PIECES[promo]]
    return body + check


def write_score(board: chess.Board, moves: list[chess.Move], lang: str = "de", *, style: str = "fide") -> str:
    """The moves from ``board`` as one line, ``"1. e4 e5 2. Sf3 Sc6"``.

    Numbers follow the board's move number; a score starting with Black reads
    ``"12... Sc6 13. d4"``. Raises ValueError when a move is illegal.
    """
    b = board.copy(stack=False)
    parts: list[str] = []
    for i, move in enumerate(moves):
        if b.turn == chess.WHITE:
            parts.append(f"{b.fullmove_number}.")
        elif i == 0:
            parts.append(f"{b.fullmove_number}...")
        parts.append(write(b, move, lang, style=style))
        b.push(move)
    return " ".join(parts)


# --------------------------------------------------------------------------- symbols

# Meanings of a piece letter: (language, piece type, base cost). Language "*" is
# language-neutral (figurines). Base cost 1 marks a non-standard use.
_P, _N, _B, _R, _Q, _K = chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING
_LETTER_MEANINGS: dict[str, tuple[tuple[str, int, int], ...]] = {
    "K": (("de", _K, 0), ("en", _K, 0), ("nl", _K, 0), ("ru", _N, 1)),   # ru: К transliterated
    "Q": (("en", _Q, 0),),
    "R": (("en", _R, 0), ("fr", _K, 0), ("it", _K, 0)),
    "B": (("en", _B, 0),),
    "N": (("en", _N, 0),),
    "D": (("de", _Q, 0), ("fr", _Q, 0), ("it", _Q, 0), ("nl", _Q, 0)),
    "T": (("de", _R, 0), ("fr", _R, 0), ("it", _R, 0), ("nl", _R, 0)),
    "L": (("de", _B, 0), ("nl", _B, 0), ("ru", _R, 1)),                  # ru: Л transliterated
    "S": (("de", _N, 0), ("ru", _B, 1)),                                  # ru: С transliterated
    "F": (("fr", _B, 0), ("ru", _Q, 1)),                                  # ru: Ф transliterated
    "C": (("fr", _N, 0), ("it", _N, 0), ("ru", _B, 1)),                   # ru: С looks like C
    "A": (("it", _B, 0),),
    "P": (("nl", _N, 0), ("en", _P, 1)),                                  # en: P for pawn, rare
    "Кр": (("ru", _K, 0),),
    "Kp": (("ru", _K, 1),), "Kr": (("ru", _K, 1),),                       # Кр in Latin letters
    "К": (("ru", _N, 0), ("de", _K, 1), ("en", _K, 1), ("nl", _K, 1)),   # Cyrillic К looks like K
    "Ф": (("ru", _Q, 0),),
    "Л": (("ru", _R, 0),),
    "С": (("ru", _B, 0), ("fr", _N, 1), ("it", _N, 1)),                   # Cyrillic С looks like C
    "Т": (("de", _R, 1), ("fr", _R, 1), ("it", _R, 1), ("nl", _R, 1)),   # Cyrillic Т looks like T
    "Р": (("nl", _N, 1),),                                                # Cyrillic Р looks like P
    "А": (("it", _B, 1),),                                                # Cyrillic А looks like A
    "В": (("en", _B, 1),),                                                # Cyrillic В looks like B
}
for _glyphs, _pt in (("♔♚", _K), ("♕♛", _Q), ("♖♜", _R), ("♗♝", _B), ("♘♞", _N), ("♙♟", _P)):
    for _g in _glyphs:
        _LETTER_MEANINGS[_g] = (("*", _pt, 0),)

_FILES = "abcdefgh"
_FILE_HOMOGLYPHS = {"а": 0, "с": 2, "е": 4}        # Cyrillic а, с, е typed for a, c, e
_RANK_MISREAD = "lI|і"                              # read as "1" (a correction)
_CAPTURE = set("xX×хХ:")
_HYPHEN = set("-–—‑")
_PROMO_SEP = set("=/()")
_CASTLE_RE = re.compile(r"^[0OoОоØø]([-–—‑_.:]?[0OoОоØø]){1,2}$")
_ANNOTATION_TAIL = re.compile(
    r"(?:\(\s*=\s*\)|\+/?-|-/?\+|=\+|\+=|[+#†‡]+|[!?‼⁇⁈⁉□±∓⩲⩱∞]+|\$\d+"    # draw offer, evaluations, checks, NAGs
    r"|\be\.?\s?p\.?|(?<=\d)e\.?p\.?|[.,;\s])$",                         # e.p., stray punctuation
    re.IGNORECASE)
_DRAW_RE = re.compile(r"\(\s*=\s*\)")
_MOVE_NUMBER_HEAD = re.compile(r"^[1-9]\d*\s*(?:\.+|…)\s*")


@dataclass(frozen=True)
class _Sym:
    kind: str                                # "piece" "file" "rank" "x" "-" "sep"
    value: object                            # meanings tuple / index
    cost: int = 0

    @property
    def index(self) -> int:
        """A "file" or "rank" symbol's 0-based index."""
        return cast(int, self.value)

    @property
    def meanings(self) -> tuple[tuple[int, int], ...]:
        """A "piece" symbol's (piece type, cost) meanings."""
        return cast("tuple[tuple[int, int], ...]", self.value)


class _Fields(TypedDict, total=False):
    """The constraints read so far (keyword arguments of :class:`_Pattern`)."""
    pieces: tuple[tuple[int, int], ...] | None
    from_file: int
    from_rank: int
    capture: bool
    to_file: int
    to_rank: int


@dataclass(frozen=True)
class _Pattern:
    """One way of reading the text: constraints on the move and the reading's cost."""
    pieces: tuple[tuple[int, int], ...] | None      # (piece type, cost); None: no letter written
    from_file: int | None = None
    from_rank: int | None = None
    capture: bool = False
    to_file: int | None = None
    to_rank: int | None = None
    promotion: tuple[tuple[int, int], ...] | None = None
    castle: str | None = None                        # "K" short, "Q" long
    cost: int = 0

    @property
    def to_square(self) -> int | None:
        if self.to_file is None or self.to_rank is None:
            return None
        return chess.square(self.to_file, self.to_rank)

    @property
    def any_piece(self) -> bool:
        """Written as from-square and to-square without a letter (``g1f3``)."""
        return self.pieces is None and self.from_file is not None and self.from_rank is not None


def _meanings(letter: str, hint: str | None, extra: int) -> tuple[tuple[int, int], ...]:
    """Piece types a letter may stand for, each with its cost under ``hint``."""
    best: dict[int, int] = {}
    for lang, pt, base in _LETTER_MEANINGS.get(letter, ()):
        if base and hint is not None and lang != hint:
            continue                    # a non-standard use counts only on sheets of its language
        cost = base + extra + (1 if hint is not None and lang not in (hint, "*") else 0)
        if pt not in best or cost < best[pt]:
            best[pt] = cost
    return tuple(sorted(best.items(), key=lambda kv: kv[1]))


def _symbols(text: str, hint: str | None) -> list[list[_Sym]] | None:
    """The symbols of a trimmed move text, each with its alternatives; None if junk."""
    out: list[list[_Sym]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        two = text[i:i + 2]
        if len(two) == 2 and two[0] in "KКkк" and two[1] in "рРpPrR":
            cyrillic = two == "Кр"
            slip = 0 if two[0] in "KК" else 1
            out.append([_Sym("piece", _meanings("Кр" if cyrillic else "Kp", hint, slip), slip)])
            i += 2
            continue
        alts: list[_Sym] = []
        if c in _FILES:
            alts.append(_Sym("file", _FILES.index(c)))
            if c.upper() in _LETTER_MEANINGS:                       # b, d, c, f, a as a letter
                alts.append(_Sym("piece", _meanings(c.upper(), hint, 1), 1))
        elif c in _FILE_HOMOGLYPHS:
            alts.append(_Sym("file", _FILE_HOMOGLYPHS[c]))
            if c.upper() in _LETTER_MEANINGS:
                alts.append(_Sym("piece", _meanings(c.upper(), hint, 1), 1))
        elif c in "12345678":
            alts.append(_Sym("rank", int(c) - 1))
        elif c in _RANK_MISREAD:
            alts.append(_Sym("rank", 0, 1))
            if c == "l":
                alts.append(_Sym("piece", _meanings("L", hint, 1), 1))
        elif c in _CAPTURE:
            alts.append(_Sym("x", None))
        elif c in _HYPHEN:
            alts.append(_Sym("-", None))
        elif c in _PROMO_SEP:
            alts.append(_Sym("sep", None))
        elif c in _LETTER_MEANINGS:
            alts.append(_Sym("piece", _meanings(c, hint, 0)))
            if c in "ABCDEFGH":                                     # E4: a case slip
                alts.append(_Sym("file", _FILES.index(c.lower()), 1))
            elif c == "А":
                alts.append(_Sym("file", 0, 1))
            elif c == "С":
                alts.append(_Sym("file", 2, 1))
        elif c.upper() in _LETTER_MEANINGS and c.upper() != c:      # sf3, кf3: case slip
            alts.append(_Sym("piece", _meanings(c.upper(), hint, 1), 1))
        elif c in "EGHЕ":
            alts.append(_Sym("file", _FILES.index(c.lower()) if c != "Е" else 4, 1))
        else:
            return None
        out.append(alts)
        i += 1
    return out


def _grammar(syms: list[list[_Sym]]) -> list[_Pattern]:
    """All patterns the symbol sequence fits, by backtracking over the alternatives.

    Grammar: [piece] [file] [rank] [x|-] file rank [sep* piece sep*]
    and the old pawn shorthand file [x] file ("ed", "exd"; cost 1).
    """
    found: list[_Pattern] = []
    n = len(syms)

    def alts(i: int, kind: str) -> Iterator[_Sym]:
        if i < n:
            for s in syms[i]:
                if s.kind == kind:
                    yield s

    def finish(i: int, fields: _Fields, cost: int) -> None:
        # optional promotion part after the arrival square
        j = i
        while j < n and any(s.kind == "sep" for s in syms[j]):
            j += 1
        if j == n:
            found.append(_Pattern(cost=cost, **fields))
            return
        for p in alts(j, "piece"):
            k = j + 1
            while k < n and any(s.kind == "sep" for s in syms[k]):
                k += 1
            if k == n:
                promo = tuple((pt, c) for pt, c in p.meanings if pt in _PROMOTABLE)
                if promo:
                    found.append(_Pattern(promotion=promo, cost=cost, **fields))

    def target(i: int, fields: _Fields, cost: int) -> None:
        for f in alts(i, "file"):
            for r in alts(i + 1, "rank"):
                finish(i + 2, {**fields, "to_file": f.index, "to_rank": r.index}, cost + f.cost + r.cost)

    def after_from(i: int, fields: _Fields, cost: int) -> None:
        target(i, fields, cost)
        for s in list(alts(i, "x")) + list(alts(i, "-")):
            target(i + 1, {**fields, "capture": fields.get("capture", False) or s.kind == "x"}, cost)

    def from_part(i: int, fields: _Fields, cost: int) -> None:
        after_from(i, fields, cost)
        for f in alts(i, "file"):
            after_from(i + 1, {**fields, "from_file": f.index}, cost + f.cost)
            for r in alts(i + 1, "rank"):
                after_from(i + 2, {**fields, "from_file": f.index, "from_rank": r.index}, cost + f.cost + r.cost)
        for r in alts(i, "rank"):
            after_from(i + 1, {**fields, "from_rank": r.index}, cost + r.cost)

    if n == 0 or n > 12:
        return found
    from_part(0, {"pieces": None}, 0)
    for p in alts(0, "piece"):
        if p.meanings:
            from_part(1, {"pieces": p.meanings}, p.cost)
    # pawn shorthand "ed" / "exd"
    if n in (2, 3) and (n == 2 or any(s.kind == "x" for s in syms[1])):
        for f1 in alts(0, "file"):
            for f2 in alts(n - 1, "file"):
                if f2.index != f1.index:
                    found.append(_Pattern(pieces=None, from_file=f1.index, to_file=f2.index, capture=True,
                                          cost=1 + f1.cost + f2.cost))
    return found


def _trim(text: str) -> tuple[str, bool]:
    """Remove whitespace, move number, annotations, check marks, e.p.; note "(=)"."""
    t = unicodedata.normalize("NFKC", text)
    draw = bool(_DRAW_RE.search(t))
    t = _DRAW_RE.sub("", t)
    t = "".join(t.split())
    t = _MOVE_NUMBER_HEAD.sub("", t)
    for _ in range(12):
        new = _ANNOTATION_TAIL.sub("", t)
        if new == t:
            break
        t = new
    t = t.strip(".")
    return t, draw


def _patterns(text: str, hint: str | None) -> tuple[tuple[_Pattern, ...], bool, str]:
    """Patterns for a move text, whether it offers a draw, and the trimmed text."""
    if len(text) <= 32:
        return _patterns_cached(text, hint)
    return _patterns_uncached(text, hint)


@functools.lru_cache(maxsize=8192)
def _patterns_cached(text: str, hint: str | None) -> tuple[tuple[_Pattern, ...], bool, str]:
    return _patterns_uncached(text, hint)


def _patterns_uncached(text: str, hint: str | None) -> tuple[tuple[_Pattern, ...], bool, str]:
    stripped = text.strip()
    if len(stripped) > 4 * MAX_MOVE_CHARS:
        return (), False, ""
    t, draw = _trim(stripped)
    if not t or len(t) > MAX_MOVE_CHARS:
        return (), draw, t
    if _CASTLE_RE.match(t):
        zeros = sum(1 for c in t if c in "0OoОоØø")
        return (_Pattern(pieces=None, castle="K" if zeros == 2 else "Q"),), draw, t
    syms = _symbols(t, hint)
    if syms is None:
        return (), draw, t
    # keep the cheapest cost per distinct pattern
    best: dict[tuple[object, ...], _Pattern] = {}
    for p in _grammar(syms):
        key = (p.pieces, p.from_file, p.from_rank, p.capture, p.to_file, p.to_rank, p.promotion)
        if key not in best or p.cost < best[key].cost:
            best[key] = p
    return tuple(best.values()), draw, t


# --------------------------------------------------------------------------- matching


def _targets(board: chess.Board, move: chess.Move) -> dict[int, int]:
    """Squares a written arrival square may name for ``move``, with their cost."""
    if not board.is_castling(move):
        return {move.to_square: 0}
    dest = chess.square(6 if board.is_kingside_castling(move) else 2, chess.square_rank(move.from_square))  # g- or c-file
    rook = move.to_square if board.chess960 else chess.square(
        7 if chess.square_file(dest) == 6 else 0, chess.square_rank(dest))
    targets = {move.to_square: 0 if not board.chess960 else 1}
    targets.setdefault(dest, 1)
    targets.setdefault(rook, 1)
    return targets


def _fit(board: chess.Board, p: _Pattern, move: chess.Move) -> int | None:
    """The cost of reading ``move`` from pattern ``p``, or None when it does not fit."""
    if p.castle is not None:
        if p.castle == "K" and board.is_kingside_castling(move):
            return p.cost
        if p.castle == "Q" and board.is_queenside_castling(move):
            return p.cost
        return None
    piece = board.piece_type_at(move.from_square)
    cost = p.cost
    if p.pieces is None:
        if not p.any_piece and piece != chess.PAWN:
            return None
    else:
        for pt, c in p.pieces:
            if pt == piece:
                cost += c
                break
        else:
            return None
    if p.to_rank is None:                                   # pawn shorthand "ed"
        if p.to_file != chess.square_file(move.to_square) or piece != chess.PAWN:
            return None
    else:
        tc = _targets(board, move).get(p.to_square)  # type: ignore[arg-type]
        if tc is None:
            return None
        cost += tc
    if p.from_file is not None and p.from_file != chess.square_file(move.from_square):
        return None
    if p.from_rank is not None and p.from_rank != chess.square_rank(move.from_square):
        return None
    if piece == chess.PAWN and not p.any_piece and p.from_file is None and not p.capture \
            and chess.square_file(move.from_square) != chess.square_file(move.to_square):
        cost += 1                                           # "d5" for a pawn capture on d5
    if move.promotion:
        if p.promotion is not None:
            for pt, c in p.promotion:
                if pt == move.promotion:
                    cost += c
                    break
            else:
                return None
    elif p.promotion is not None:
        return None
    return cost


def _candidate_moves(board: chess.Board, pats: Iterable[_Pattern]) -> list[chess.Move]:
    """Legal moves that could fit any pattern (generated only from and to the squares named)."""
    from_mask = to_mask = 0
    castles = False
    own = board.occupied_co[board.turn]
    for p in pats:
        if p.castle is not None:
            castles = True
            continue
        if p.pieces is None:
            pm = own if p.any_piece else board.pawns & own
        else:
            pm = 0
            for pt, _ in p.pieces:
                pm |= board.pieces_mask(pt, board.turn)
        if p.from_file is not None:
            pm &= chess.BB_FILES[p.from_file]
        if p.from_rank is not None:
            pm &= chess.BB_RANKS[p.from_rank]
        if not pm:
            continue
        from_mask |= pm
        if p.to_rank is None:
            to_mask |= chess.BB_FILES[p.to_file]  # type: ignore[index]
        else:
            to_mask |= chess.BB_SQUARES[p.to_square]  # type: ignore[index]
            if pm & board.kings:
                castles = True
    moves = list(board.generate_legal_moves(from_mask, to_mask)) if to_mask else []
    if castles:
        moves.extend(m for m in board.generate_castling_moves() if m not in moves)
    return moves


# --------------------------------------------------------------------------- suggestions


#: The initial of the word for "pawn", which a hand sometimes writes before a pawn move.
_PAWN_INITIALS = {"de": "B", "en": "P", "fr": "P", "it": "P", "nl": "P"}
_VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
_LEADING_LETTER = re.compile(r"^(Кр|[A-ZА-ЯЁ])")


def _hand_cost(board: chess.Board, p: _Pattern, move: chess.Move, letter: str | None,
               hint: str | None) -> float | None:
    """How unlikely it is that a hand meaning ``move`` wrote pattern ``p`` (None: too far).

    The slips an arbiter expects: a letter of another language or a
    case slip (the letter's cost, about 1), the word initial of "pawn" before a
    pawn move (``Be4`` on a German sheet, 1), another piece letter of the sheet
    (2), the arrival square one file or one rank off (1; diagonally 2, two
    squares 2.2), a departure file or rank that does not fit (1 each), a missing
    or extra capture sign (0.2 / 0.5), a wrong promotion piece (1).
    """
    piece = board.piece_type_at(move.from_square)
    if p.castle is not None:
        if board.is_castling(move):
            return 0.0 if (p.castle == "K") == board.is_kingside_castling(move) else 1.0
        return 2.5 if piece == chess.KING else None
    cost = 0.0
    if p.pieces is None:
        if not p.any_piece and piece != chess.PAWN:
            cost += 2.0                                     # a piece move written as a pawn move
    else:
        fit = min((c for pt, c in p.pieces if pt == piece), default=None)
        if fit is not None:
            cost += float(fit)
        elif piece == chess.PAWN and letter is not None and hint is not None and \
                _PAWN_INITIALS.get(hint) == letter:
            cost += 1.0
        else:
            cost += 2.0
    if p.to_rank is None:
        if p.to_file != chess.square_file(move.to_square):
            return None
    else:
        best: float | None = None
        for sq in _targets(board, move):
            df = abs(chess.square_file(sq) - (p.to_file or 0))
            dr = abs(chess.square_rank(sq) - (p.to_rank or 0))
            if df + dr == 0:
                dd = 0.0
            elif df + dr == 1:
                dd = 1.0
            elif df == 1 and dr == 1:
                dd = 2.0
            elif max(df, dr) == 2 and min(df, dr) == 0:
                dd = 2.2
            else:
                continue
            best = dd if best is None else min(best, dd)
        if best is None:
            return None
        cost += best
    if p.from_file is not None and p.from_file != chess.square_file(move.from_square):
        cost += 1.0
    if p.from_rank is not None and p.from_rank != chess.square_rank(move.from_square):
        cost += 1.0
    capture = board.is_capture(move)
    if p.capture and not capture:
        cost += 0.5
    elif capture and not p.capture and not p.any_piece:
        cost += 0.2 if piece != chess.PAWN or p.from_file is not None else 0.5
    wrong_piece = bool(move.promotion) and p.promotion is not None and \
        all(pt != move.promotion for pt, _ in p.promotion)
    if wrong_piece or bool(move.promotion) != (p.promotion is not None):
        cost += 1.0
    return cost


def _plausibility(board: chess.Board, move: chess.Move) -> float:
    """What the position says against ``move`` (lower is more plausible), in the same units.

    A recapture on the square of the last capture, a capture of a piece worth
    at least the capturer and, in the opening, a knight or bishop leaving its
    first rank are likely; a piece moved to a square where it is taken for less,
    or left undefended under attack, is unlikely.
    """
    cost = 0.0
    piece = board.piece_type_at(move.from_square) or chess.PAWN
    us = board.turn
    if board.is_capture(move):
        victim = board.piece_type_at(move.to_square) or chess.PAWN
        cost -= 0.3 if _VALUES[victim] >= _VALUES[piece] else 0.1
        if board.move_stack:
            last = board.peek()
            if last.to_square == move.to_square:
                cost -= 0.4                                 # a recapture
    if piece in (chess.KNIGHT, chess.BISHOP) and board.fullmove_number <= 12 and \
            chess.square_rank(move.from_square) == (0 if us == chess.WHITE else 7):
        cost -= 0.15                                        # developing a minor piece in the opening
    if piece == chess.KING:
        return cost
    after = board.copy(stack=False)
    after.push(move)
    attackers = after.attackers(not us, move.to_square)
    if attackers:
        cheapest = min(_VALUES[after.piece_type_at(sq) or chess.PAWN] or 10 for sq in attackers)
        if cheapest < _VALUES[piece] or not after.attackers(us, move.to_square):
            cost += 0.6                                     # the piece is simply lost there
    return cost


def _check_cost(board: chess.Board, move: chess.Move, written: str) -> float:
    """A check sign written for a move that gives none (0.8), or left out (0.2)."""
    marked = bool(re.search(r"[+#†‡]", written.replace("+-", "").replace("-+", "").replace("+=", "")))
    gives = board.gives_check(move)
    if marked and not gives:
        return 0.8
    if gives and not marked:
        return 0.2
    return 0.0


def _rank(board: chess.Board, pats: Iterable[_Pattern], written: str, hint: str | None,
          limit: int = 6, cutoff: float = 2.5, bonus: dict[chess.Move, float] | None = None) -> list[chess.Move]:
    """The legal moves a hand most likely meant by ``written``, best first (at most ``limit``).

    Each legal move gets the lowest :func:`_hand_cost` over the patterns (moves
    above ``cutoff`` are left out), plus what the position says
    (:func:`_plausibility`), a check sign that does not fit (:func:`_check_cost`)
    and ``bonus`` (negative: what the moves around it say, see
    :func:`read_score`). Ties go by UCI so the order is deterministic.
    """
    _, _, trimmed = _patterns(written, hint)
    m = _LEADING_LETTER.match(trimmed)
    letter = m.group(1) if m else None
    pats = list(pats)
    scored: list[tuple[float, str, chess.Move]] = []
    for move in board.legal_moves:
        best: float | None = None
        for p in pats:
            c = _hand_cost(board, p, move, letter, hint)
            if c is not None and (best is None or c < best):
                best = c
        if best is None or best > cutoff:
            continue
        total = best + _plausibility(board, move) + _check_cost(board, move, written)
        if bonus:
            total += bonus.get(move, 0.0)
        scored.append((total, move.uci(), move))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [mv for _, _, mv in scored[:limit]]


def _levenshtein(a: str, b: str, limit: int) -> int:
    """Edit distance of two short strings; anything above ``limit`` is returned as limit + 1."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def _plain_forms(board: chess.Board, move: chess.Move, lang: str) -> list[str]:
    """Cheap written forms of a move (no check marks) to compare unreadable text with."""
    piece = board.piece_type_at(move.from_square)
    letter = piece_letter(piece, lang) if piece else ""
    frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
    promo = piece_letter(move.promotion, lang) if move.promotion else ""
    forms = [f"{letter}{to}{promo}", f"{letter}{frm}{to}{promo}", f"{letter}{frm}-{to}{promo}"]
    if piece == chess.PAWN and chess.square_file(move.from_square) != chess.square_file(move.to_square):
        forms.append(f"{frm[0]}x{to}{promo}")
    if board.is_castling(move):
        forms.append("0-0" if board.is_kingside_castling(move) else "0-0-0")
    return forms


def _suggest_unreadable(board: chess.Board, text: str, lang: str, limit: int = 5) -> list[chess.Move]:
    if not text or len(text) > 12:
        return []
    allowed = max(1, min(2, len(text) // 3))
    scored: list[tuple[int, str, chess.Move]] = []
    for move in board.legal_moves:
        d = min(_levenshtein(text, f, allowed) for f in _plain_forms(board, move, lang))
        if d <= allowed:
            scored.append((d, move.uci(), move))
    scored.sort(key=lambda t: (t[0], t[1]))
    return [m for _, _, m in scored[:limit]]


# --------------------------------------------------------------------------- reading


@dataclass
class Reading:
    """What a written move means in a position.

    ``move`` is set when exactly one legal move fits (``problem`` is None).
    Otherwise ``problem`` is "illegal" (no legal move fits), "ambiguous" (every
    move in ``candidates`` fits) or "unreadable" (the text is no move);
    ``suggestions`` are the nearest legal moves, best first.
    """

    written: str
    move: chess.Move | None
    problem: str | None
    candidates: list[chess.Move] = field(default_factory=list)
    suggestions: list[chess.Move] = field(default_factory=list)
    draw_offer: bool = False
    lang: str | None = None
    corrected: bool = False          # read only after a correction (case slip, l for 1, other letters ...)
    board: chess.Board | None = field(default=None, repr=False, compare=False)
    _pattern: _Pattern | None = field(default=None, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.problem is None and self.move is not None

    def sans(self, moves: Iterable[chess.Move], lang: str | None = None, *, style: str = "fide") -> list[str]:
        """``moves`` written in the sheet's language (or ``lang``)."""
        if self.board is None:
            return []
        return [write(self.board, m, lang or self.lang or "de", style=style) for m in moves]

    def message(self, lang: str | None = None) -> str:
        """A one-sentence explanation in the user's language ``lang``."""
        lang = lang or default_lang()
        written = _short(self.written)
        if self.ok:
            san = self.sans([self.move])[0] if self.move else ""
            return tr("notation.ok", lang, written=written, san=san)
        if self.problem == "ambiguous":
            cands = _join(self.sans(self.candidates), lang)
            if self.candidates and all(m.promotion for m in self.candidates) and \
                    len({(m.from_square, m.to_square) for m in self.candidates}) == 1:
                return tr("notation.ambiguous_promotion", lang, written=written, candidates=cands)
            letter_text = self._letter_meanings(lang)
            if letter_text:
                return tr("notation.ambiguous_letter", lang, written=written, candidates=cands,
                          letter=letter_text[0], meanings=letter_text[1])
            return tr("notation.ambiguous", lang, written=written, candidates=cands)
        if self.problem == "illegal":
            text = tr("notation.illegal", lang, written=written, reason=self._reason(lang))
        else:
            text = tr("notation.unreadable", lang, written=written)
        if self.suggestions:
            text += " " + tr("notation.suggest", lang, suggestions=_join(self.sans(self.suggestions), lang))
        return text

    def _letter_meanings(self, lang: str) -> tuple[str, str] | None:
        """(letter, "Turm (englisch) oder König (französisch, italienisch)") when the
        candidates are different pieces because the letter means different pieces
        in different languages; None when they are like pieces (or no letter is written)."""
        board = self.board
        if board is None or len(self.candidates) < 2:
            return None
        kinds = {board.piece_type_at(m.from_square) for m in self.candidates}
        if len(kinds) < 2:
            return None
        _, _, trimmed = _patterns(self.written, self.lang)
        m = _LEADING_LETTER.match(trimmed)
        if m is None:
            return None
        letter = m.group(1)
        by_piece: dict[int, list[str]] = {}
        for language, pt, _ in _LETTER_MEANINGS.get(letter, ()):
            if pt in kinds and language in LETTERS:
                by_piece.setdefault(pt, []).append(language)
        if len(by_piece) < 2:
            return None
        parts = [tr(f"notation.piece_{chess.piece_name(pt)}", lang) + " ("
                 + ", ".join(tr(f"notation.lang_{code}", lang) for code in codes) + ")"
                 for pt, codes in by_piece.items()]
        return letter, _join(parts, lang)

    def _reason(self, lang: str) -> str:
        p, board = self._pattern, self.board
        if p is None or board is None:
            return tr("notation.reason_none", lang)
        if p.castle is not None:
            return tr("notation.reason_castle_" + p.castle, lang)
        if p.pieces is None and p.any_piece:
            frm = chess.square(p.from_file, p.from_rank)  # type: ignore[arg-type]
            piece = board.piece_at(frm)
            if piece is None or piece.color != board.turn:
                return tr("notation.reason_empty", lang, square=chess.square_name(frm))
            pt = piece.piece_type
        else:
            pt = chess.PAWN if p.pieces is None else p.pieces[0][0]
        name = tr(f"notation.piece_{chess.piece_name(pt)}", lang)
        no_piece = tr(f"notation.no_{chess.piece_name(pt)}", lang)     # "keine Dame": gender as data
        square = chess.square_name(p.to_square) if p.to_square is not None else _FILES[p.to_file or 0]
        if p.from_file is not None and p.from_rank is not None:
            frm = chess.square(p.from_file, p.from_rank)
            piece = board.piece_at(frm)
            if piece is None or piece.color != board.turn or piece.piece_type != pt:
                return tr("notation.reason_not_on", lang, piece=name, no_piece=no_piece,
                          square=chess.square_name(frm))
            return tr("notation.reason_from_cannot", lang, piece=name, no_piece=no_piece,
                      origin=chess.square_name(frm), square=square)
        if p.promotion is not None and pt == chess.PAWN and p.to_rank not in (0, 7):
            return tr("notation.reason_no_promotion", lang, square=square)
        if p.from_file is not None or p.from_rank is not None:
            origin = (_FILES[p.from_file] if p.from_file is not None else "") + \
                     (str(p.from_rank + 1) if p.from_rank is not None else "")
            if pt != chess.PAWN:
                return tr("notation.reason_from_cannot", lang, piece=name, no_piece=no_piece,
                          origin=origin, square=square)
        return tr("notation.reason_no_piece_to", lang, piece=name, no_piece=no_piece, square=square)


def _short(text: str, limit: int = 40) -> str:
    t = " ".join(text.split())
    return t if len(t) <= limit else t[:limit - 1] + "…"


def _join(items: list[str], lang: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + tr("notation.or", lang) + items[-1]


class NotationError(UserError):
    """A written move that is not exactly one legal move; ``.reading`` says why."""

    def __init__(self, reading: Reading, lang: str | None = None) -> None:
        super().__init__(reading.message(lang), exit_code=1)
        self.reading = reading


def _as_written(p: _Pattern) -> _Pattern | None:
    """``p`` restricted to the meanings that need no correction (None: ``p`` needs one).

    Every symbol must be read as written (pattern cost 0) and the piece letter
    and promotion letter keep only their meanings in the sheet's language (or,
    without a language, in any language).
    """
    if p.cost:
        return None
    pieces, promotion = p.pieces, p.promotion
    if pieces is not None:
        pieces = tuple((pt, c) for pt, c in pieces if c == 0)
        if not pieces:
            return None
    if promotion is not None:
        promotion = tuple((pt, c) for pt, c in promotion if c == 0)
        if not promotion:
            return None
    return replace(p, pieces=pieces, promotion=promotion)


def _main_pattern(pats: list[_Pattern]) -> _Pattern:
    """The pattern to explain an illegal move with: one naming a piece letter, if any."""
    return next((p for p in pats if p.pieces is not None), pats[0])


def read(board: chess.Board, text: str, lang: str | None = None) -> Reading:
    """Read one written move in ``board`` (see the module docstring for how).

    ``lang`` is the sheet's language, used to decide between letters that mean
    different pieces in different languages and to tell a correction from the
    text as written (the rule of certainty in the module docstring); None reads
    every letter set alike. Never raises for any text.
    """
    if not isinstance(text, str):
        text = str(text)
    hint = lang if lang in LETTERS else None
    pats, draw, trimmed = _patterns(text, hint)
    snapshot = board.copy(stack=False)
    if not pats:
        sugg = _suggest_unreadable(board, trimmed, hint or "de") if trimmed else []
        return Reading(text, None, "unreadable", [], sugg, draw, hint, board=snapshot)
    costs: dict[chess.Move, int] = {}
    pattern_of: dict[chess.Move, _Pattern] = {}
    for move in _candidate_moves(board, pats):
        for p in pats:
            c = _fit(board, p, move)
            if c is not None and (move not in costs or c < costs[move]):
                costs[move] = c
                pattern_of[move] = p
    low = min(costs.values()) if costs else None
    if low != 0:
        # Rule of certainty: a text that is, as written, a well-formed move (every
        # letter a piece letter of the sheet's language, every square as written)
        # but no legal move, is illegal -- a correction that would turn it into a
        # legal move is a guess and only comes first among the suggestions.
        literal = [q for q in (_as_written(p) for p in pats) if q is not None]
        if literal and not any(_fit(board, q, m) is not None
                               for m in _candidate_moves(board, literal) for q in literal):
            corrected = [m for m, c in costs.items() if c == low]
            ranked = _rank(board, pats, text, hint, limit=max(6, len(corrected)))
            sugg = [m for m in ranked if m in corrected] + \
                sorted((m for m in corrected if m not in ranked), key=lambda m: m.uci())
            sugg += [m for m in ranked if m not in sugg]
            return Reading(text, None, "illegal", [], sugg[:max(6, len(corrected))], draw, hint,
                           board=snapshot, _pattern=_main_pattern(literal))
    if not costs:
        cheapest = min(p.cost for p in pats)
        main = [p for p in pats if p.cost == cheapest]
        return Reading(text, None, "illegal", [], _rank(board, pats, text, hint), draw, hint,
                       board=snapshot, _pattern=main[0])
    assert low is not None
    best = sorted((m for m, c in costs.items() if c == low), key=lambda m: m.uci())
    if len(best) == 1:
        return Reading(text, best[0], None, [best[0]], [], draw, hint, corrected=low > 0,
                       board=snapshot, _pattern=pattern_of[best[0]])
    return Reading(text, None, "ambiguous", best, list(best), draw, hint, corrected=low > 0,
                   board=snapshot, _pattern=pattern_of[best[0]])


def parse(board: chess.Board, text: str, lang: str | None = None) -> chess.Move:
    """The legal move ``text`` stands for; raises :class:`NotationError` otherwise."""
    reading = read(board, text, lang)
    if not reading.ok:
        raise NotationError(reading)
    assert reading.move is not None
    return reading.move


def is_move_text(text: str) -> bool:
    """Whether ``text`` has the form of a move at all (position-independent)."""
    pats, _, _ = _patterns(text, None)
    return bool(pats)


# --------------------------------------------------------------------------- language guess

_LANG_SIGNS: dict[str, str] = {
    # letters that occur as piece letters only in these languages (Latin)
    "S": "de", "N": "en", "Q": "en", "B": "en", "F": "fr", "A": "it", "P": "nl", "C": "fr it",
    "L": "de nl", "R": "en fr it", "D": "de fr it nl", "T": "de fr it nl",
}
_PIECE_HEAD = re.compile(r"(?:^|[\s.…])(Кр|[KQRBNDTLSFCAPКФЛС])(?=[a-hа-х1-8xX:×-])")


def guess_lang(text: str) -> str | None:
    """The notation language a score is most likely written in (None: no letters).

    Counts the piece letters that begin moves; a letter votes for every language
    that uses it; Cyrillic letters vote for Russian. Ties go to the earlier
    language in ``NOTATION_LANGS`` (German first).
    """
    votes = dict.fromkeys(NOTATION_LANGS, 0)
    seen = 0
    for m in _PIECE_HEAD.finditer(text[:MAX_SCORE_CHARS]):
        letter = m.group(1)
        seen += 1
        if letter in ("Кр", "К", "Ф", "Л", "С"):
            votes["ru"] += 3
            continue
        if letter == "K":
            for lg in ("de", "en", "nl"):
                votes[lg] += 1
            continue
        langs = _LANG_SIGNS.get(letter, "").split()
        for lg in langs:
            votes[lg] += 3 if len(langs) == 1 else 1
        for lg in NOTATION_LANGS:
            if lg not in langs and lg != "ru" and letter not in LETTERS[lg].values():
                votes[lg] -= 1
        if seen > 2000:
            break
    if not seen:
        return None
    best = max(votes.values())
    if best <= 0:
        return None
    return next(lg for lg in NOTATION_LANGS if votes[lg] == best)


# --------------------------------------------------------------------------- scores


@dataclass(frozen=True)
class ScoreEntry:
    """One written half-move of a score, in playing order (``ply`` from 1)."""
    ply: int
    number: int
    white: bool
    written: str
    draw_offer: bool = False


@dataclass(frozen=True)
class Problem:
    """A written half-move that is not one legal move (or cannot be read)."""
    ply: int
    number: int
    white: bool
    written: str
    problem: str                       # "illegal" | "ambiguous" | "unreadable"
    suggestions: list[str]
    message: str

    @property
    def index(self) -> int:
        """The half-move's place in the score, from 0 (-1: the start position itself)."""
        return self.ply - 1

    def line(self, lang: str | None = None) -> str:
        """``"Zug 12, Schwarz: ..."`` in the user's language."""
        lang = lang or default_lang()
        if self.ply == 0:
            return tr("notation.start_line", lang, message=self.message)
        colour = tr("notation.white" if self.white else "notation.black", lang)
        return tr("notation.move_line", lang, number=self.number, colour=colour, message=self.message)

    def as_dict(self) -> dict[str, object]:
        return {"ply": self.ply, "number": self.number, "colour": "white" if self.white else "black",
                "written": self.written, "problem": self.problem, "suggestions": list(self.suggestions),
                "message": self.message}


@dataclass
class ScoreReading:
    """A whole score read from its start position: the one result of every score reader
    (:func:`read_score` for a text, :func:`read_entries` for one entry per half-move).

    ``moves`` are the legal moves before the first problem (``plies`` of them);
    ``problems`` lists that first problem and, after it, every further entry that
    is not even move-shaped ("unreadable"): once a move cannot be read the
    position is unknown, so later entries are checked for form only.
    ``heading`` is the text written before the first move number
    ("Musterpartie:", "Partie 1"), None when there is none; ``headers`` are
    the game's PGN tag pairs. ``lang`` is the sheet's notation language (None:
    no piece letter told it).
    """

    start: chess.Board
    entries: list[ScoreEntry]
    moves: list[chess.Move]
    problems: list[Problem]
    lang: str | None = None
    style: str = "fide"
    truncated: bool = False
    readings: list[Reading] = field(default_factory=list, repr=False)
    heading: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    _end: chess.Board | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.truncated

    @property
    def problem(self) -> Problem | None:
        """The first entry that is not one legal move (None: every entry was read)."""
        return self.problems[0] if self.problems else None

    @property
    def written(self) -> list[str]:
        """Every entry as written, in playing order."""
        return [e.written for e in self.entries]

    def board(self, plies: int | None = None, *, stack: bool = True) -> chess.Board:
        """The start position with the first ``plies`` moves read played (default: every one), a new board.

        The end position is kept between calls, so a reading asked again — after
        :meth:`append` too — or for a position near its end plays only the moves it
        has not played yet. ``stack=False``: the board without its move stack.
        ``plies`` beyond the moves read mean all of them.
        """
        n = len(self.moves) if plies is None else max(0, min(plies, len(self.moves)))
        end = self._end_board()
        back = len(self.moves) - n
        if back < n:                                   # nearer the end: take moves back
            b = end.copy(stack=True if stack else back)    # without a stack: only the moves to take back
            for _ in range(back):
                b.pop()
            return b
        b = self.start.copy(stack=stack)
        for m in self.moves[:n]:
            b.push(m)
        if not stack:
            b.clear_stack()
        return b

    def _end_board(self) -> chess.Board:
        base = len(self.start.move_stack)
        b = self._end
        if b is None or len(b.move_stack) - base > len(self.moves) or \
                b.move_stack[base:] != self.moves[:len(b.move_stack) - base]:
            b = self.start.copy()
        for m in self.moves[len(b.move_stack) - base:]:
            b.push(m)
        self._end = b
        return b

    def append(self, written: str, move: chess.Move | None = None, problem: str = "unreadable",
               message: str = "") -> None:
        """Add the next entry as written: with the ``move`` it was read as, or — ``move`` None — as a
        ``problem`` ("illegal", "ambiguous", "unreadable") with its ``message``. After the first
        problem the position is unknown: the entry is added, no move and no further problem."""
        ply = len(self.entries) + 1
        half = len(self.entries) + int(self.start.turn == chess.BLACK)
        number, white = self.start.fullmove_number + half // 2, half % 2 == 0
        self.entries.append(ScoreEntry(ply, number, white, written, bool(_DRAW_RE.search(written))))
        if self.problems:
            return
        if move is not None:
            self.moves.append(move)
        else:
            self.problems.append(Problem(ply, number, white, written, problem, [], message or problem))

    def sans(self, lang: str | None = None, *, style: str | None = None) -> str:
        """The legal moves as a score line in ``lang`` (default: the sheet's)."""
        return write_score(self.start, self.moves, lang or self.lang or "de", style=style or self.style)

    def as_dict(self) -> dict[str, object]:
        """The reading as JSON-ready data; ``heading`` only when the score has one."""
        out = {"plies": self.plies, "moves": [m.uci() for m in self.moves],
               "problems": [p.as_dict() for p in self.problems], "ok": self.ok,
               "lang": self.lang, "start": self.start.fen(), "end": self.board().fen(),
               "truncated": self.truncated}
        if self.heading is not None:
            out["heading"] = self.heading
        return out


_SCORE_TOKEN = re.compile(
    r"(?P<header>\[[^\]\n]*\])"
    r"|(?P<comment>\{[^}]*\}?)"
    r"|(?P<line>;[^\n]*)"
    r"|(?P<escape>(?m:^%[^\n]*))"
    r"|(?P<draw>\(\s*=\s*\))"
    r"|(?P<open>\()"
    r"|(?P<close>\))"
    r"|(?P<word>[^\s(){}\[\];]+(?:\((?:=|[A-ZА-Я][а-яa-z]?)\))?)"
)
_RESULT = re.compile(r"^(?:1-0|0-1|1/2-1/2|½-½|1:0|0:1|½:½|\*)$")
_NUMBER = re.compile(r"^(?P<n>[1-9]\d{0,4})(?P<dots>\.{1,3}|…|\.…|\))?(?P<rest>.*)$")
_SUFFIX = re.compile(r"^(?:[+#†‡]+|[!?‼⁇⁈⁉□±∓⩲⩱∞=]+|\+-|-\+|\+/-|-/\+|\+=|=\+|e\.?p\.?[+#]?|\$\d+|\(=\))$",
                     re.IGNORECASE)
_DOTS = re.compile(r"^[.…]+$")
_HEADER_FIELD = re.compile(r'^\[\s*(\w+)\s+"((?:[^"\\]|\\.)*)"\s*\]$')


#: python-chess's status flags, as the user is told them (catalogue keys ``notation.fen_<name>``).
_STATUS_NAMES = ("no_white_king", "no_black_king", "too_many_kings", "too_many_white_pawns",
                 "too_many_black_pawns", "pawns_on_backrank", "too_many_white_pieces",
                 "too_many_black_pieces", "bad_castling_rights", "invalid_ep_square", "opposite_check",
                 "empty", "too_many_checkers", "impossible_check")


def status_text(status: int, lang: str | None = None) -> str:
    """Why a position is not legal (``chess.Board.status()`` flags), in the user's language."""
    ui = lang or default_lang()
    reasons = [tr(f"notation.fen_{name}", ui) for name in _STATUS_NAMES
               if status & getattr(chess, f"STATUS_{name.upper()}")]
    return ", ".join(reasons) or tr("notation.fen_invalid", ui)


def fen_error_text(exc: ValueError, lang: str | None = None) -> str:
    """Why a text is no FEN at all (python-chess's ValueError), in the user's language."""
    ui = lang or default_lang()
    text = str(exc)
    for key, marker in (("fen_empty_text", "empty fen"), ("fen_rows", "rows"), ("fen_turn", "turn"),
                        ("fen_castling", "castling"), ("fen_ep", "en passant"), ("fen_counters", "clock"),
                        ("fen_counters", "fullmove"), ("fen_piece", "piece"), ("fen_piece", "position part")):
        if marker in text:
            return tr(f"notation.{key}", ui)
    return tr("notation.fen_not_fen", ui)


def _start_from_headers(headers: dict[str, str]) -> tuple[chess.Board | None, str | None]:
    """The start set by ``FEN``/``Variant`` headers (None: the standard start) and
    why the FEN cannot be used (None: it can)."""
    fen = headers.get("FEN")
    chess960 = "960" in headers.get("Variant", "") or "fischer" in headers.get("Variant", "").lower()
    if fen is not None:
        try:
            start = chess.Board(fen, chess960=chess960)
        except ValueError as exc:
            return None, fen_error_text(exc)
        if not chess960 and start.status() & chess.STATUS_BAD_CASTLING_RIGHTS:
            other = chess.Board(fen, chess960=True)     # Shredder-FEN castling rights (FIDE Laws Guidelines II, Chess960)
            if other.is_valid():
                start = other
        status = start.status() & ~chess.STATUS_BAD_CASTLING_RIGHTS
        if status:
            return None, status_text(status)
        return start, None
    return (chess.Board(chess960=chess960) if chess960 else None), None


def _words(text: str) -> tuple[list[tuple[str, int, int]], dict[str, str]]:
    """Move-level words (text, start, end) of the main line, and the PGN headers."""
    words: list[tuple[str, int, int]] = []
    headers: dict[str, str] = {}
    depth = 0
    for m in _SCORE_TOKEN.finditer(text):
        kind = m.lastgroup
        if kind == "header":
            if words:
                break                                   # the next game begins
            h = _HEADER_FIELD.match(m.group())
            if h:
                headers[h.group(1)] = h.group(2)
        elif kind == "open":
            depth += 1
        elif kind == "close":
            depth = max(0, depth - 1)
        elif depth:
            continue
        elif kind == "draw":
            words.append(("(=)", m.start(), m.end()))
        elif kind == "word":
            w = m.group()
            if _RESULT.match(w):
                if words:
                    break
                continue
            words.append((w, m.start(), m.end()))
        if len(words) > 4 * MAX_PLIES:
            break
    return words, headers


_JOINERS = "-–—‑xX×:"
_DASH_CHARS = "-–—‑"
_DASHES = re.compile(r"^[-–—‑]+$")


def _is_square_pair(text: str) -> bool:
    """Whether ``text`` reads as a move from one named square to another (``Sg1-f3``, ``e2-e4``)."""
    pats, _, _ = _patterns(text, None)
    return any(p.from_file is not None and p.from_rank is not None and p.to_rank is not None for p in pats)


def _split_number(word: str) -> tuple[int | None, bool, str]:
    """("12...Sf3") -> (12, True, "Sf3"); a castling "0-0" is never a number."""
    if _CASTLE_RE.match(word.rstrip("+#!?")):
        return None, False, word
    m = _NUMBER.match(word)
    if not m or (m.group("rest") and not m.group("dots")):
        return None, False, word
    dots = m.group("dots") or ""
    return int(m.group("n")), dots in ("...", "…", "..", ".…"), m.group("rest")


def _first_numbered_move(words: list[tuple[str, int, int]], limit: int = 64) -> int | None:
    """Index of the first move number followed by a move (``1. e4``, ``1.e4``, ``12... Sc6``).

    Only the first ``limit`` words are looked at: a heading is short.
    """
    for i, (w, _, _) in enumerate(words[:limit]):
        number, _, rest = _split_number(w)
        if number is None:
            continue
        if rest:
            if is_move_text(rest):
                return i
            continue
        j = i + 1
        while j < len(words) and _DOTS.match(words[j][0]):
            j += 1
        if j < len(words) and _split_number(words[j][0])[0] is None and is_move_text(words[j][0]):
            return i
    return None


_TAG_LINE = re.compile(r'^\s*\[[A-Za-z0-9_]+\s+"')


def iter_games(lines: Iterable[str]) -> Iterator[str]:
    """The games of a text given line by line (a PGN file read as a stream), one text each.

    A tag pair after movetext starts the next game; a text without tag pairs is
    one game. Each game's text is kept only up to :data:`MAX_SCORE_CHARS`
    characters and one more line (:func:`read_score` then marks it truncated),
    so memory stays bounded whatever the input. Lines keep their line ends.
    """
    current: list[str] = []
    size = 0
    moves_seen = False
    for line in lines:
        tag = bool(_TAG_LINE.match(line))
        if tag and moves_seen:
            chunk = "".join(current)
            if chunk.strip():
                yield chunk
            current, size, moves_seen = [], 0, False
        if size <= MAX_SCORE_CHARS:
            current.append(line)
            size += len(line)
        if line.strip() and not tag and not line.startswith("%"):
            moves_seen = True
    chunk = "".join(current)
    if chunk.strip():
        yield chunk


def split_games(text: str) -> list[str]:
    """The games of a text holding several (a PGN file): a tag pair after movetext starts the next.

    Each part can be given to :func:`read_score`; a text without tag pairs is one
    game (see :func:`iter_games`, the streaming form).
    """
    return list(iter_games(str(text).splitlines(keepends=True)))


def read_score(text: str, *, board: chess.Board | None = None, lang: str | None = None,
               ui_lang: str | None = None, other: str | None = None) -> ScoreReading:
    """Read a game score: PGN movetext or a scoresheet transcribed as text.

    Accepted: PGN (headers — a ``FEN``/``Variant`` header sets the start when
    ``board`` is None —, comments ``{}`` and ``;``, NAGs, variations in
    parentheses, results, all ignored; reading stops at the result or at the
    next game's headers); ``"1.e4 e5 2.Sf3"``; ``"1. e4 e5"`` per line; one move
    per line with or without numbers; ``"1... e5"``; and two columns per line
    (``"1. e4 e5   31. Td1 Te8"``): entries are placed by their move numbers
    (a repeated number is Black's move, a number whose moves are both taken
    continues after the previous entry), unnumbered ones follow the previous.
    A piece letter or file separated from its square by stray spaces
    (``S f3``, ``e 4``, ``0 - 0``) is joined to it; a move that stands on its own
    is joined through a dash or ``x`` to the next word only when the result is a
    move from one named square to another (``Sg1 - f3``, ``e2 - e4``), and when
    that joined reading is not a legal move the two parts are read as two
    half-moves (the old style ``1. e4 - e5``); a dash standing between two moves
    (``1. Sf3 - Sc6``, ``La4 -Sf6``) is skipped. ``e.p.``, ``+``, ``!?``,
    ``(=)`` written as separate words belong to the move before.

    An invalid ``FEN`` header (not parseable, or no legal position: a king
    missing, pawns on the first rank ...) is reported, never replaced by the
    standard start: a :class:`Problem` on ply 0 ("unreadable", ``written`` the
    header, :meth:`Problem.line` "Ausgangsstellung: ..."); ``start`` is then the
    standard position only as a placeholder, no move is read (``plies`` 0) and
    the entries are checked for form only. A Chess960 FEN (Shredder castling
    rights) without a ``Variant`` header is read as Chess960.

    After a problem: ``moves``/``plies`` stop before the first illegal,
    ambiguous or unreadable entry, because the position after it is unknown;
    every later entry is still checked for form and reported as "unreadable" if
    it is no move at all (at most :data:`MAX_LATER_PROBLEMS` of them). The
    first problem's message adds what an arbiter would check next: for an
    ambiguous move, which candidate the following moves fit; for an illegal one,
    whether it would be legal for the other side (a half-move left out).
    Scores longer than :data:`MAX_SCORE_CHARS` characters or :data:`MAX_PLIES`
    half-moves are read in part and marked ``truncated`` (then ``ok`` is False).
    ``lang`` is the sheet's language; None guesses it from the piece letters
    (:func:`guess_lang`). Problem messages are in ``ui_lang`` (default: the
    user's language). Never raises for any text.
    """
    if not isinstance(text, str):
        text = str(text)
    truncated = len(text) > MAX_SCORE_CHARS
    text = text[:MAX_SCORE_CHARS]
    text = re.sub(r"(?i)\be\.\s+p\.", "e.p.", text)
    ui = ui_lang or default_lang()
    words, headers = _words(text)
    bad_fen: str | None = None
    if board is None:
        header_start, bad_fen = _start_from_headers(headers)
        board = header_start or chess.Board()
    start = board.copy()
    heading: str | None = None
    first = _first_numbered_move(words)
    if first and _split_number(words[first][0])[0] == start.fullmove_number:
        # text before the game's first move number that is not the score: a heading
        heading = " ".join(text[words[0][1]:words[first - 1][2]].split())
        words = words[first:]
    hint = lang if lang in LETTERS else guess_lang(text)
    style = "pgn" if headers or re.search(r"(?<![0-9])O-O|=[QRBN]\b", text) else "fide"

    # 1. group words into move texts with their number positions
    # (slot, written, draw, split): split is the joined entry's two half-moves
    # ("e4 - e5" -> ("e4", "e5")), tried when the joined reading fails
    raw: list[tuple[tuple[int, bool] | None, str, bool, tuple[str, str] | None]] = []
    pending_number: tuple[int, bool] | None = None
    i = 0
    while i < len(words):
        w, s, e = words[i]
        i += 1
        if _DOTS.match(w):                                  # "12. ... Sf6": Black's move follows
            if pending_number is not None:
                pending_number = (pending_number[0], True)
            continue
        number, black, rest = _split_number(w)
        if number is not None:
            pending_number = (number, black)
            if not rest:
                continue
            w, s = rest, e - len(rest)
        if (_SUFFIX.match(w) or w == "(=)") and raw:
            slot, written, draw, split = raw[-1]
            if not w.startswith("$"):
                written = f"{written} {w}"
                if split is not None:
                    split = (split[0], f"{split[1]} {w}")
            raw[-1] = (slot, written, draw or "=" in w and "(" in w, split)
            continue
        if _DASHES.match(w):
            continue                                        # "1. e4 - e5": a dash between half-moves
        # join stray fragments: "S f3", "Sg1 - f3", "e 4"; a move on its own joined
        # through a dash or "x" only into a square pair ("e2 - e4"), and then with
        # the split kept in case the pair is no legal move ("1. e4 - e5")
        end = e
        split = None
        glued = i < len(words) and words[i][0][:1] in _JOINERS and not _SUFFIX.match(words[i][0])
        alone = is_move_text(w.rstrip(_JOINERS))
        if glued or not is_move_text(w):
            for k in range(1, 4):
                if i - 1 + k >= len(words):
                    break
                joined = "".join(x[0] for x in words[i - 1:i + k])
                if not is_move_text(joined):
                    continue
                if alone and _CASTLE_RE.match(joined):
                    pass                                    # "0-0 -0": long castling
                elif alone and not _is_square_pair(joined):
                    break
                elif alone:
                    rest = text[words[i][1]:words[i - 1 + k][2]].lstrip(_JOINERS + " \t").strip()
                    split = (text[s:e].rstrip(_JOINERS + " \t"), rest) if rest else None
                end = words[i - 1 + k][2]
                i += k
                break
        if end == e and not is_move_text(w) and is_move_text(w.strip(_DASH_CHARS)):
            # "4. La4 -Sf6", "e4- e5" with the second half unjoinable: the dash separates
            s += len(w) - len(w.lstrip(_DASH_CHARS))
            end = e - (len(w) - len(w.rstrip(_DASH_CHARS)))
        written = text[s:end]
        slot = None
        if pending_number is not None:
            slot = pending_number
            pending_number = None
        raw.append((slot, written, bool(_DRAW_RE.search(written)), split))
        if len(raw) >= MAX_PLIES:
            truncated = truncated or i < len(words)
            break

    # 2. place the entries by their numbers
    taken: set[tuple[int, bool]] = set()
    placed: list[tuple[tuple[int, int], int, str, bool, tuple[str, str] | None]] = []
    prev: tuple[int, bool] | None = None
    base = (start.fullmove_number, start.turn == chess.BLACK)

    def following(pos: tuple[int, bool] | None) -> tuple[int, bool]:
        if pos is None:
            return base
        return (pos[0], True) if not pos[1] else (pos[0] + 1, False)

    for order, (slot, written, draw, split) in enumerate(raw):
        pos: tuple[int, bool]
        if slot is not None:
            n, black = slot
            if black:
                pos = (n, True) if (n, True) not in taken else following(prev)
            elif (n, False) not in taken:
                pos = (n, False)
            elif (n, True) not in taken:
                pos = (n, True)
            else:
                pos = following(prev)
        else:
            pos = following(prev)
            while pos in taken:
                pos = following(pos)
        taken.add(pos)
        prev = pos
        placed.append(((pos[0], int(pos[1])), order, written, draw, split))
    placed.sort(key=lambda t: (t[0], t[1]))

    # the opponent's score (D.2.7), read on its own: its entries speak for the meant move
    other_score = read_score(other, board=start, ui_lang=ui) if other else None

    # 3. read the entries in the position
    entries: list[ScoreEntry] = []
    moves: list[chess.Move] = []
    problems: list[Problem] = []
    readings: list[Reading] = []
    b = start.copy()
    failed = False
    if bad_fen is not None:
        # a start position that cannot be set up: no move can be judged (ply 0 = the start)
        fen = headers.get("FEN", "")
        msg = tr("notation.bad_fen_header", ui, fen=_short(fen, 90), error=bad_fen)
        problems.append(Problem(0, start.fullmove_number, start.turn == chess.WHITE, f'[FEN "{fen}"]',
                                "unreadable", [], msg))
        failed = True
    first_number, first_black = start.fullmove_number, start.turn == chess.BLACK
    idx = -1
    while idx + 1 < len(placed):
        idx += 1
        key, order, written, draw, split = placed[idx]
        if split is not None and not failed and not read(b, written, hint).ok and read(b, split[0], hint).ok:
            # "1. e4 - e5": the joined pair is no legal move, the two half-moves are
            placed[idx] = (key, order, split[0], bool(_DRAW_RE.search(split[0])), None)
            placed.insert(idx + 1, (key, order, split[1], bool(_DRAW_RE.search(split[1])), None))
            written, draw = placed[idx][2], placed[idx][3]
        half = idx + int(first_black)
        number, white = first_number + half // 2, half % 2 == 0
        entries.append(ScoreEntry(idx + 1, number, white, written, draw))
        if failed:
            if len(problems) <= MAX_LATER_PROBLEMS and not is_move_text(written):
                msg = tr("notation.unreadable", ui, written=_short(written))
                problems.append(Problem(idx + 1, number, white, written, "unreadable", [], msg))
            continue
        reading = read(b, written, hint)
        readings.append(reading)
        if reading.ok:
            assert reading.move is not None
            moves.append(reading.move)
            b.push(reading.move)
            continue
        failed = True
        if reading.problem in ("illegal", "ambiguous"):
            reading = _rerank(reading, b, [e[2] for e in placed[idx + 1:idx + 1 + _CONTEXT_PLIES]], hint,
                              _other_entry(other_score, idx))
            readings[-1] = reading
        shown = reading.candidates if reading.problem == "ambiguous" else reading.suggestions
        sugg = [write(b, m, hint or "de", style=style) for m in shown]
        problems.append(Problem(idx + 1, number, white, written, reading.problem or "unreadable", sugg,
                                _score_message(reading, b, placed[idx + 1:], hint, ui)))
    return ScoreReading(start, entries, moves, problems, hint, style, truncated, readings, heading, headers)



#: Reads a spoken phrase that is no written move ("Springer Felix drei"): (board, text, the user's
#: language) -> the move it names, or None (:func:`blindchess.language.phonetic.read_phrase`).
SpokenReader = Callable[[chess.Board, str, "str | None"], "chess.Move | None"]


def read_entry(board: chess.Board, text: str, lang: str | None = None, *, hint: str | None = None,
               spoken: SpokenReader | None = None) -> tuple[chess.Move | None, str | None, str]:
    """Read one written entry of a score in ``board``: (move, problem, message in ``lang``).

    :func:`read` decides what a written move means (``hint``, the sheet's language,
    decides between letters that mean different pieces in different languages: "R"
    is a rook in English, a king in French). An entry :func:`read` finds unreadable
    and that holds a space goes to ``spoken``, when given. ``problem`` is
    "illegal", "ambiguous" or "unreadable" (None with the move read); never raises.
    """
    text = str(text)
    reading = read(board, text, hint)
    if reading.ok:
        return reading.move, None, ""
    problem = reading.problem or "unreadable"
    if problem == "unreadable" and spoken is not None and " " in text.strip():
        move = spoken(board, text, lang)
        if move is not None:
            return move, None, ""
    return None, problem, reading.message(lang)


def read_entries(entries: Iterable[str | chess.Move], *, board: chess.Board | None = None,
                 ui_lang: str | None = None, spoken: SpokenReader | None = None,
                 reference: ScoreReading | None = None) -> ScoreReading:
    """Read a score given as its entries, one per half-move: written texts (any notation the sheet
    uses, or a spoken phrase read by ``spoken``) or ``chess.Move``\\s, from ``board`` (default: the
    standard start).

    The result is as :func:`read_score`'s: the moves up to the first entry that is not
    one legal move, that entry's problem (message in ``ui_lang``), every entry as
    written; the sheet's language is guessed from all its entries (:func:`guess_lang`).
    ``reference`` is another score of the same game already read: while the two agree,
    an entry written exactly as the reference's, in the same position and in the
    same sheet language, is the same reading and is taken over, not read again.
    Never raises for any text.
    """
    items = list(entries)
    start = (board if board is not None else chess.Board()).copy()
    texts = [str(e) for e in items if not isinstance(e, chess.Move)]
    hint = guess_lang(" ".join(texts)) if texts else None
    ui = ui_lang or default_lang()
    same: list[str] = []
    if reference is not None and reference.lang == hint:
        same = [w.strip() for w in reference.written[:reference.plies]]
    out = ScoreReading(start, [], [], [], hint)
    b = start.copy()
    for entry in items:
        if out.problems:
            out.append(entry.uci() if isinstance(entry, chess.Move) else str(entry))
            continue
        i = len(out.moves)
        move: chess.Move | None
        if isinstance(entry, chess.Move):
            if b.is_legal(entry):
                out.append(b.san(entry), entry)
                b.push(entry)
            else:
                reading = read(b, entry.uci(), hint)
                out.append(entry.uci(), None, "illegal", reading.message(ui))
            continue
        text = str(entry)
        if i < len(same) and text.strip() == same[i]:
            move, problem, message = reference.moves[i], None, ""  # type: ignore[union-attr]
        else:
            same = []
            move, problem, message = read_entry(b, text, ui, hint=hint, spoken=spoken)
        if move is None:
            out.append(text, None, problem or "unreadable", message)
        else:
            out.append(text, move)
            b.push(move)
    out._end = b
    return out


#: How many following half-moves are read to judge a candidate (an arbiter looks a few moves on).
_CONTEXT_PLIES = 6


def _other_entry(other: ScoreReading | None, index: int) -> str | None:
    """What the other score has at the same half-move (None: no other score, or it is shorter)."""
    if other is None or index >= len(other.entries):
        return None
    return other.entries[index].written


def _continuation(board: chess.Board, move: chess.Move, following: list[str], hint: str | None) -> int:
    """How many of the ``following`` entries read as legal moves after ``move``, in a row."""
    b = board.copy(stack=False)
    b.push(move)
    count = 0
    for text in following:
        r = read(b, text, hint)
        if not r.ok or r.move is None:
            break
        b.push(r.move)
        count += 1
    return count


def _rerank(reading: Reading, board: chess.Board, following: list[str], hint: str | None,
            other: str | None) -> Reading:
    """``reading`` with its suggestions (illegal) or candidates (ambiguous) ordered as an arbiter would.

    Besides what the hand and the position say (:func:`_rank`), the moves around
    it decide: a candidate after which more of the following entries read as
    legal moves is likelier (0.45 a half-move, 0.5 more when all of them read),
    and the other score's entry at the same half-move (D.2.7: both players keep
    a score) counts strongly for the move it names (3) or suggests (1).
    """
    pats, _, _ = _patterns(reading.written, hint)
    if reading.problem == "ambiguous":
        pool = list(reading.candidates)
    else:
        pool = list(dict.fromkeys([*reading.suggestions, *_rank(board, pats, reading.written, hint, limit=12)]))
    if len(pool) < 2:
        return reading
    bonus: dict[chess.Move, float] = {}
    other_reading = read(board, other, None) if other else None
    for move in pool:
        count = _continuation(board, move, following, hint)
        b = -0.45 * count - (0.5 if following and count == len(following) else 0.0)
        if other_reading is not None:
            if other_reading.move == move:
                b -= 3.0
            elif move in other_reading.candidates or move in other_reading.suggestions[:3]:
                b -= 1.0
        bonus[move] = b
    if reading.problem == "ambiguous":
        order = sorted(pool, key=lambda m: (_plausibility(board, m) + bonus[m], m.uci()))
        return replace(reading, candidates=order, suggestions=list(order))
    ranked = _rank(board, pats, reading.written, hint, limit=len(pool) + 6, bonus=bonus)
    ranked = [m for m in ranked if m in bonus] + [m for m in pool if m not in ranked]
    return replace(reading, suggestions=ranked[:max(6, len(reading.suggestions))])


def _score_message(reading: Reading, board: chess.Board,
                   rest: list[tuple[tuple[int, int], int, str, bool, tuple[str, str] | None]],
                   hint: str | None, ui: str) -> str:
    """The reading's message; for an ambiguous move also which candidate the later moves support.

    An arbiter resolves "Sd2" with two knights able to go there by looking at the
    next moves: if only one candidate lets the following entries (up to six
    half-moves) be read, the message names it and the first entry that decides.
    """
    msg = reading.message(ui)
    if reading.problem == "illegal" and not board.is_check():
        # a common slip: a half-move left out, so this is the other side's move
        other = board.copy(stack=False)
        other.push(chess.Move.null())
        if read(other, reading.written, hint).ok:
            colour = tr("notation.white" if other.turn == chess.WHITE else "notation.black", ui)
            msg += " " + tr("notation.missing_ply", ui, written=_short(reading.written), colour=colour)
    if reading.problem != "ambiguous" or not rest:
        return msg
    reach: dict[chess.Move, int] = {}
    for cand in reading.candidates:
        b = board.copy(stack=False)
        b.push(cand)
        count = 0
        for entry in rest[:6]:
            r = read(b, entry[2], hint)
            if not r.ok:
                break
            b.push(r.move)  # type: ignore[arg-type]
            count += 1
        reach[cand] = count
    best = max(reach.values())
    winners = [m for m, c in reach.items() if c == best]
    if len(winners) == 1:
        decisive = max(c for m, c in reach.items() if m != winners[0])
        msg += " " + tr("notation.continuation", ui, san=write(board, winners[0], hint or "de"),
                        next=_short(rest[decisive][2]))
    return msg
