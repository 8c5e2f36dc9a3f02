"""The words of the spoken move language: voices, square and piece names, move words.

The shared base of :mod:`blindchess.language.phonetic` (announcing and understanding
moves, FIDE Laws Appendix D.2.1) and :mod:`blindchess.language.recognition` (the phrases a
speech recogniser may hear). Both import this module; neither imports the other
back, so there is no import cycle. The words of each language are data in
``voices/<lang>.toml`` (see voices/README.md); :func:`voice` loads them once
and raises :class:`VoiceError` when a shipped file is missing or inconsistent.

Pure: python-chess and the standard library only; time is never read.
"""

from __future__ import annotations

import functools
import re
import tomllib
import unicodedata
from dataclasses import dataclass
from typing import Any

import chess

from ..base import voices_dir

#: Shipped voices, German (the announcing language of Appendix D) first.
LANGS: tuple[str, ...] = ("de", "en", "nl", "ru")

#: How much of a text is read; longer input is cut (bounded work on any input).
MAX_CHARS = 400
MAX_TOKENS = 60

_PIECE_KEYS = {
    "king": chess.KING, "queen": chess.QUEEN, "rook": chess.ROOK,
    "bishop": chess.BISHOP, "knight": chess.KNIGHT, "pawn": chess.PAWN,
}
_PIECE_NAMES = {pt: key for key, pt in _PIECE_KEYS.items()}
_PIECE_ORDER = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN)

# Internal tokens standing for written castling "0-0-0" / "0-0" (also O-O).
_LONG_TOKEN = "zzcastlelong"
_SHORT_TOKEN = "zzcastleshort"

#: Request kinds (D.2.10 d and the blind player's questions about the board).
REQUESTS = ("time", "moves", "last_move", "square", "pieces", "position", "rank", "file", "legal_moves", "captured",
            "touched", "captures", "around", "opponent", "last_capture", "move_list")
#: Requests that name a place (a square, a rank, a file): the recogniser's phrases come from [grammar] templates.
_PLACED_REQUESTS = ("square", "rank", "file", "legal_moves", "captures", "around")
#: Requests about a square whose recogniser phrases come from ``[grammar] <name>_requests`` ("Züge von {square}").
_SQUARE_TEMPLATES = ("legal_moves", "captures", "around")


class VoiceError(ValueError):
    """A voice file is missing or inconsistent (a packaging error, not user input)."""


# --------------------------------------------------------------------------- text


_DIGRAPHS = (("ae", "a"), ("oe", "o"), ("ue", "u"))
_ZERO_LONG = re.compile(r"(?<![^\W_])[0o]\s*-\s*[0o]\s*-\s*[0o](?![^\W_])")
_ZERO_SHORT = re.compile(r"(?<![^\W_])[0o]\s*-\s*[0o](?![^\W_])")
# Cyrillic letters that look like file letters, glued to a rank digit ("е4").
_CYRILLIC_SQUARE = re.compile(r"(?<![^\W\d_])([асе])(?=[1-8](?!\d))")
_CYRILLIC_LATIN = {"а": "a", "с": "c", "е": "e"}
_TOKEN = re.compile(r"[^\W\d_]+|\d+")


def fold(text: str) -> str:
    """Lowercase without diacritics, "ß" as "ss", "ä"/"ae" alike ("fünf" = "fuenf")."""
    text = text.casefold()
    if not text.isascii():
        text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    for a, b in _DIGRAPHS:
        text = text.replace(a, b)
    return text


def _tokens(folded: str) -> list[str]:
    folded = _ZERO_LONG.sub(f" {_LONG_TOKEN} ", folded)
    folded = _ZERO_SHORT.sub(f" {_SHORT_TOKEN} ", folded)
    if not folded.isascii():
        folded = _CYRILLIC_SQUARE.sub(lambda m: _CYRILLIC_LATIN[m.group(1)], folded)
    return _TOKEN.findall(folded)


# -------------------------------------------------------------------------- voice


@dataclass(frozen=True)
class _PieceWords:
    name: str
    plural: str
    white: str
    black: str
    white_plural: str
    black_plural: str
    none: str
    promotion: str


class Voice:
    """The words of one language, loaded from ``voices/<lang>.toml``."""

    def __init__(self, lang: str, data: dict[str, Any]) -> None:
        self.lang = lang
        try:
            self.files = tuple(_as_list(data["files"][f])[0] for f in "abcdefgh")
            self.ranks = tuple(_as_list(data["ranks"][str(r)])[0] for r in range(1, 9))
            self.pieces = {
                pt: _PieceWords(**{k: str(data["pieces"][key][k]) for k in _PieceWords.__dataclass_fields__})
                for key, pt in _PIECE_KEYS.items()
            }
            self.spoken = {k: str(v) for k, v in data["spoken"].items()}
            for key in ("capture", "check", "mate", "en_passant", "promotion", "castle_short",
                        "castle_long", "white", "black", "empty", "and"):
                self.spoken[key]  # noqa: B018 - presence check
        except (KeyError, IndexError, TypeError) as exc:
            raise VoiceError(f"voices/{lang}.toml: missing or malformed entry {exc}") from exc
        grammar = data.get("grammar", {})
        self.square_requests = [str(s) for s in grammar.get("square_requests", [])]
        self.piece_requests = [str(s) for s in grammar.get("piece_requests", [])]
        self.rank_requests = [str(s) for s in grammar.get("rank_requests", [])]
        self.file_requests = [str(s) for s in grammar.get("file_requests", [])]
        self.square_templates = {name: [str(s) for s in grammar.get(f"{name}_requests", [])]
                                 for name in _SQUARE_TEMPLATES}
        self.legal_moves_requests = self.square_templates["legal_moves"]
        self.asr_words = {fold(k): str(v).lower() for k, v in grammar.get("words", {}).items()}
        self.squares = tuple(f"{self.files[chess.square_file(s)]} {self.ranks[chess.square_rank(s)]}"
                             for s in chess.SQUARES)
        self.lexicon: dict[tuple[str, ...], tuple[str, object]] = {}
        self._build_lexicon(data)
        self.max_phrase = max(len(k) for k in self.lexicon)
        self.vocab = frozenset(t for key in self.lexicon for t in key)
        self._deletions: dict[str, str | None] = {}
        for word in self.vocab:
            if len(word) >= 4 and not word.startswith("zz"):
                for i in range(len(word)):
                    d = word[:i] + word[i + 1:]
                    self._deletions[d] = word if self._deletions.get(d, word) == word else None
        self.command_phrases = self._command_phrases(data)

    # lexicon: folded token tuple -> meaning (kind, value)
    def _add(self, text: str, meaning: tuple[str, object]) -> None:
        key = tuple(_tokens(fold(text)))
        if not key:
            return
        old = self.lexicon.get(key)
        if old is not None and old != meaning:
            raise VoiceError(f"voices/{self.lang}.toml: {text!r} means both {old} and {meaning}")
        self.lexicon[key] = meaning

    def _build_lexicon(self, data: dict[str, Any]) -> None:
        for i, f in enumerate("abcdefgh"):
            self._add(f, ("file", i))
            for word in _as_list(data["files"][f]):
                self._add(word, ("file", i))
        for r in range(1, 9):
            self._add(str(r), ("rank", r - 1))
            for word in _as_list(data["ranks"][str(r)]):
                self._add(word, ("rank", r - 1))
        for key, pt in _PIECE_KEYS.items():
            entry = data["pieces"][key]
            for word in [entry["name"], entry["plural"], *_as_list(entry.get("variants", []))]:
                self._add(word, ("piece", pt))
        words = data.get("words", {})
        for kind in ("capture", "check", "mate", "en_passant", "promotion", "filler"):
            for word in _as_list(words.get(kind, [])):
                self._add(word, ({"en_passant": "ep", "promotion": "promo"}.get(kind, kind), None))
        self._add(_SHORT_TOKEN, ("castle", "short"))
        self._add(_LONG_TOKEN, ("castle", "long"))
        for side in ("short", "long"):
            for word in [self.spoken[f"castle_{side}"], *_as_list(words.get(f"castle_{side}", []))]:
                self._add(word, ("castle", side))
        for name, phrases in data.get("commands", {}).items():
            for phrase in _as_list(phrases):
                self._add(phrase, ("cmd", name))
        for name, phrases in data.get("requests", {}).items():
            if name not in REQUESTS:
                raise VoiceError(f"voices/{self.lang}.toml: unknown request {name!r}")
            for phrase in _as_list(phrases):
                self._add(phrase, ("req", name))
        for name, phrases in data.get("owners", {}).items():
            for phrase in _as_list(phrases):
                self._add(phrase, ("owner", name))
        for name, phrases in data.get("colors", {}).items():
            for phrase in _as_list(phrases):
                self._add(phrase, ("color", name == "white"))

    def _command_phrases(self, data: dict[str, Any]) -> list[str]:
        """Command and request phrases as a recogniser returns them (lowercase words)."""
        out: list[str] = []
        for table in ("commands", "requests"):
            for name, phrases in data.get(table, {}).items():
                if table == "requests" and name in _PLACED_REQUESTS:
                    continue  # incomplete without the place: the templates below add it
                out.extend(_as_list(phrases))
        # a recogniser says numbers as words: a typed form with digits ("50 Züge") is no phrase of its
        out = [p for p in (_spoken_lower(p) for p in out if not any(c.isdigit() for c in p)) if p]
        for template in self.square_requests:
            out.extend(_spoken_lower(template.format(square=self.g(sq))) for sq in self.squares)
        for templates in self.square_templates.values():
            for template in templates:
                out.extend(_spoken_lower(template.format(square=self.g(sq))) for sq in self.squares)
        for template in self.rank_requests:
            out.extend(_spoken_lower(template.format(rank=self.g(rank))) for rank in self.ranks)
        for template in self.file_requests:
            out.extend(_spoken_lower(template.format(file=self.g(file))) for file in self.files)
        for template in self.piece_requests:
            for pt in _PIECE_ORDER:
                words = self.pieces[pt]
                # per-piece words such as the article ("der Turm", "die Dame") come from the voice data
                forms = {k: self.g(str(val)) for k, val in data["pieces"][_PIECE_NAMES[pt]].items()
                         if isinstance(val, str)}
                try:
                    phrase = template.format(**{**forms, "piece": self.g(words.name), "pieces": self.g(words.plural)})
                except (KeyError, IndexError) as exc:
                    raise VoiceError(f"voices/{self.lang}.toml: template {template!r} needs {exc}") from exc
                out.append(_spoken_lower(phrase))
        for side in ("short", "long"):
            out.append(_spoken_lower(self.spoken[f"castle_{side}"]))
        return [p for p in dict.fromkeys(out) if p]

    def g(self, text: str) -> str:
        """``text`` in the speech model's spelling (lowercase, ``[grammar.words]`` applied)."""
        words = text.lower().split()
        return " ".join(self.asr_words.get(fold(w), w) for w in words)

    # token normalisation (position independent, cached)
    def fuzzy(self, token: str) -> str | None:
        """The vocabulary word one edit away from ``token`` (None if none or several)."""
        if len(token) < 4:
            return None
        found = self._deletions.get(token)  # one letter too many
        candidates = {found} if found else set()
        for i in range(len(token)):  # one letter missing or wrong
            d = token[:i] + token[i + 1:]
            if d in self.vocab and len(d) >= 4:
                candidates.add(d)
            w = self._deletions.get(d)
            if w:
                candidates.add(w)
        candidates.discard(None)
        return candidates.pop() if len(candidates) == 1 else None

    def segment(self, token: str) -> list[str] | None:
        """Split a merged word ("evavier") into vocabulary words, fewest pieces."""
        n = len(token)
        if n > 40 or n < 2:
            return None
        # single letters only in a written pawn capture ("exd"); "bc" (from "Bc4") is notation
        short_ok = n == 3 and token[1] == "x" and set(token) <= set("abcdefghx")
        best: list[list[str] | None] = [None] * (n + 1)
        best[0] = []
        for i in range(n):
            if best[i] is None:
                continue
            for j in range(i + (1 if short_ok else 2), min(n, i + 16) + 1):
                w = token[i:j]
                if w in self.vocab and not w.startswith("zz"):
                    cand = best[i] + [w]  # type: ignore[operator]
                    if best[j] is None or len(cand) < len(best[j]):  # type: ignore[arg-type]
                        best[j] = cand
        result = best[n]
        return result if result and len(result) > 1 else None


def _as_list(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value]
    raise TypeError(f"expected a string or a list, got {type(value).__name__}")


def _spoken_lower(text: str) -> str:
    """A phrase as vosk returns it: lowercase words, no punctuation."""
    return " ".join(re.findall(r"[^\W\d_]+", text.lower()))


def _lang(lang: str | None) -> str:
    code = (lang or LANGS[0]).strip().lower()[:2]
    return code if code in LANGS else "en"


@functools.cache
def voice(lang: str = "de") -> Voice:
    """The vocabulary of a shipped language (unknown languages get English)."""
    code = _lang(lang)
    path = voices_dir() / f"{code}.toml"
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise VoiceError(f"{path}: {exc}") from exc
    return Voice(code, data)


# ----------------------------------------------------------------------- announce


def square_name(square: int, lang: str = "de") -> str:
    """The spoken name of a square: ``Eva vier``."""
    return voice(lang).squares[square]


def piece_name(piece_type: int, lang: str = "de") -> str:
    """The spoken name of a piece type: ``Springer``."""
    return voice(lang).pieces[piece_type].name


def _is_mate_after(board: chess.Board, move: chess.Move) -> bool:
    """Whether ``move`` mates; played on a copy, so the caller's board is never touched."""
    after = board.copy(stack=False)
    after.push(move)
    return after.is_checkmate()


def _gives_check(board: chess.Board, move: chess.Move, piece: int | None = None) -> bool:
    """``board.gives_check(move)`` without pushing the move (hot path of grammar/round trip).

    Direct check from the arrival square or a discovered check through the
    vacated square; castling, en passant and promotion use python-chess itself.
    """
    if move.promotion or board.ep_square == move.to_square or board.castling_rights and board.is_castling(move):
        return board.gives_check(move)
    king = board.king(not board.turn)
    if king is None:
        return False
    if piece is None:
        piece = board.piece_type_at(move.from_square)
    from_bb = chess.BB_SQUARES[move.from_square]
    to = move.to_square
    king_bb = chess.BB_SQUARES[king]
    occ = (board.occupied & ~from_bb) | chess.BB_SQUARES[to]
    if piece == chess.PAWN:
        direct = chess.BB_PAWN_ATTACKS[board.turn][to]
    elif piece == chess.KNIGHT:
        direct = chess.BB_KNIGHT_ATTACKS[to]
    elif piece == chess.KING:
        direct = 0
    else:
        direct = 0
        if piece in (chess.BISHOP, chess.QUEEN):
            direct |= chess.BB_DIAG_ATTACKS[to][chess.BB_DIAG_MASKS[to] & occ]
        if piece in (chess.ROOK, chess.QUEEN):
            direct |= (chess.BB_RANK_ATTACKS[to][chess.BB_RANK_MASKS[to] & occ]
                       | chess.BB_FILE_ATTACKS[to][chess.BB_FILE_MASKS[to] & occ])
    if direct & king_bb:
        return True
    if not chess.BB_RAYS[king][move.from_square]:
        return False  # the vacated square is on no line through the king: no discovered check
    return bool(board.attackers_mask(board.turn, king, occ) & board.occupied_co[board.turn] & ~from_bb)


def _disambiguation(move: chess.Move, others: int) -> tuple[bool, bool]:
    """(name the file, name the rank) of departure, exactly as SAN does (Appendix C)."""
    if not others:
        return False, False
    file_, rank = False, False
    if others & chess.BB_RANKS[chess.square_rank(move.from_square)]:
        file_ = True
    if others & chess.BB_FILES[chess.square_file(move.from_square)]:
        rank = True
    else:
        file_ = True
    return file_, rank


def _move_words(board: chess.Board, move: chess.Move, v: Voice, others: int | None = None,
                *, long: bool = False) -> list[str]:
    """The words of a move without check/mate (``others``: other like pieces reaching the target)."""
    sp = v.spoken
    if board.is_castling(move):
        return [sp["castle_short"] if board.is_kingside_castling(move) else sp["castle_long"]]
    piece = board.piece_type_at(move.from_square) or chess.PAWN
    capture = board.is_capture(move)
    words: list[str] = []
    if long:
        if piece != chess.PAWN:
            words.append(v.pieces[piece].name)
        words.append(v.squares[move.from_square])
    elif piece == chess.PAWN:
        if capture:
            words.append(v.files[chess.square_file(move.from_square)])
    else:
        words.append(v.pieces[piece].name)
        if others is None:  # other like pieces that can go to the same square
            others = 0
            for m in _index(board).by_target.get(move.to_square, ()):
                if m.from_square != move.from_square and board.piece_type_at(m.from_square) == piece:
                    others |= chess.BB_SQUARES[m.from_square]
        by_file, by_rank = _disambiguation(move, others)
        if by_file and by_rank:
            words.append(v.squares[move.from_square])
        elif by_file:
            words.append(v.files[chess.square_file(move.from_square)])
        elif by_rank:
            words.append(v.ranks[chess.square_rank(move.from_square)])
    if capture:
        words.append(sp["capture"])
    words.append(v.squares[move.to_square])
    if board.is_en_passant(move):
        words.append(sp["en_passant"])
    if move.promotion:
        words.append(sp["promotion"])
        words.append(v.pieces[move.promotion].promotion)
    return words



def _king_destination(board: chess.Board, move: chess.Move) -> int:
    """Where the king ends up when castling (g1/c1, g8/c8), also in Chess960."""
    rank = chess.square_rank(move.from_square)
    return chess.square(6 if board.is_kingside_castling(move) else 2, rank)


class _Index:
    """The legal moves of one position, by arrival square (castling kept apart)."""

    __slots__ = ("by_target", "castling")

    def __init__(self, board: chess.Board) -> None:
        self.by_target: dict[int, list[chess.Move]] = {}
        self.castling: list[chess.Move] = []
        kings = board.kings
        for m in board.generate_legal_moves():
            if kings & chess.BB_SQUARES[m.from_square] and board.is_castling(m):
                self.castling.append(m)
            else:
                self.by_target.setdefault(m.to_square, []).append(m)


#: pieces and colours (8 bitboards), turn, castling rights, en-passant square, Chess960
_IndexKey = tuple[int, int, int, int, int, int, int, int, bool, int, int | None, bool]
_INDEX_CACHE: dict[_IndexKey, _Index] = {}
_INDEX_CACHE_MAX = 256


def _index(board: chess.Board) -> _Index:
    """The move index of ``board``; cached, as a position is usually asked about repeatedly."""
    key = (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
           board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK], board.turn,
           board.castling_rights, board.ep_square, board.chess960)
    index = _INDEX_CACHE.get(key)
    if index is None:
        if len(_INDEX_CACHE) >= _INDEX_CACHE_MAX:
            _INDEX_CACHE.clear()
        index = _INDEX_CACHE[key] = _Index(board)
    return index
