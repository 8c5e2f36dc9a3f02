"""The game score in braille: North American braille ASCII (``.brf``) and Unicode braille.

FIDE Laws, Appendix D.2.7 (FIDE Laws Appendix D): the visually impaired player keeps the
game score in braille. This module writes a score as 6-dot braille and reads one
back, so the same text can go to an embosser, a braille display or the arbiter.

Conventions (docs/developer/records.md, "Braille conventions", names the sources):

* **Squares**: file letter + *lower* digit (dots 2 … 356), the British Braille
  Chess Code (BAUK 2015, §1.3) and German practice. In braille ASCII the lower
  digits are exactly the characters ``0``–``9``, so ``e4`` reads ``E4``.
* **Move numbers**: lower digits without numeric indicator, followed by a space
  (BAUK §1.3): ``1 E4 E5 2 SF3 SC6``. ``number_sign=True`` writes them with the
  number sign and upper digits instead (``#A E4``); the reader takes both.
* **A score starting with Black**: the first move is preceded by dots 3-6
  (``-``), the print "…" (BAUK §1.2).
* **Pieces**: the capital initial in the player's language (FIDE Laws
  Appendix C): German K D T L S, Russian Кр Ф Л С К in Russian braille. The
  English braille score follows the British Braille Chess Code (BAUK 2015,
  §1.3: ``2.♘f3`` is brailled ``⠎⠋⠒``): the knight is **S**, not the print N, so
  English reads K Q R B S (:data:`BRAILLE_LETTERS`). This is the one convention
  written; the reader takes S and the print N alike. Capitals carry no capital sign inside game moves (BAUK 2015);
  only when a piece letter could also be read as a pawn's file *and* both
  readings would be legal (``Bxc6`` / ``bxc6``) the piece letter gets the
  capital sign (dot 6, ``,``) so that every score reads back to one game.
* **Signs**: capture ``x`` (``X``, dots 1346), check ``+`` (``+``, dots 346, the
  computer-braille plus), mate ``++`` (FIDE Appendix C allows ``++``; ``#`` would
  be the number sign), castling ``0-0`` / ``0-0-0`` with lower zeros and hyphens
  (dots 3-6), promotion: the new piece's letter after the square (``D8D``),
  "e.p." left out (optional in FIDE Appendix C; the move is unique without it).
* **Results** ``1-0``, ``0-1``, ``1/2-1/2``, ``*`` at the end of the score.
* **Layout**: lines of at most ``width`` cells (default 40), pages of at most
  ``page_length`` lines (default 25) separated by a form feed, CR LF line ends
  (what embossers expect); a move never splits across lines and a move number
  stays with its white move. Optionally the braille page number (``#B``) on
  the last line of each page at the right margin (BANA formats practice).
* **Header** (names, event, date) is literary braille: liblouis (Python module
  ``louis``) when it is installed, otherwise a built-in uncontracted table
  limited to letters, digits (number sign + a–j), German umlauts, the Russian
  alphabet and common punctuation.

Pure: python-chess and the standard library only; no I/O except loading
liblouis (a C library through ctypes) when it is present.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import re
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, TypedDict, Unpack

import chess

from ..base import tr
from ..language import piece_letter, read, write
from .start_position import is_set_up, start_text

if TYPE_CHECKING:
    import chess.pgn

# ---------------------------------------------------------------------------
# Braille ASCII <-> dots <-> Unicode

#: North American braille ASCII: each of the 64 characters 0x20-0x5F is one
#: 6-dot cell, given as its dot numbers.
_BRF_DOTS_TEXT = {
    " ": "", "!": "2346", '"': "5", "#": "3456", "$": "1246", "%": "146", "&": "12346",
    "'": "3", "(": "12356", ")": "23456", "*": "16", "+": "346", ",": "6", "-": "36",
    ".": "46", "/": "34", "0": "356", "1": "2", "2": "23", "3": "25", "4": "256",
    "5": "26", "6": "235", "7": "2356", "8": "236", "9": "35", ":": "156", ";": "56",
    "<": "126", "=": "123456", ">": "345", "?": "1456", "@": "4",
    "A": "1", "B": "12", "C": "14", "D": "145", "E": "15", "F": "124", "G": "1245",
    "H": "125", "I": "24", "J": "245", "K": "13", "L": "123", "M": "134", "N": "1345",
    "O": "135", "P": "1234", "Q": "12345", "R": "1235", "S": "234", "T": "2345",
    "U": "136", "V": "1236", "W": "2456", "X": "1346", "Y": "13456", "Z": "1356",
    "[": "246", "\\": "1256", "]": "12456", "^": "45", "_": "456",
}


def _mask(dots: str) -> int:
    return sum(1 << (int(d) - 1) for d in dots)


#: Braille ASCII character -> dot bit mask (bit 0 = dot 1 … bit 5 = dot 6).
BRF_TO_MASK: dict[str, int] = {ch: _mask(d) for ch, d in _BRF_DOTS_TEXT.items()}
#: Dot bit mask -> braille ASCII character (a bijection over all 64 cells).
MASK_TO_BRF: dict[int, str] = {m: ch for ch, m in BRF_TO_MASK.items()}
#: The valid braille ASCII characters of one line.
BRF_CHARS = frozenset(BRF_TO_MASK)

#: Line and page separators kept as they are in both forms.
_LAYOUT = {"\n", "\r", "\f"}


def brf_to_unicode(text: str) -> str:
    """The same cells as Unicode braille (U+2800 block); line breaks and form feeds stay.

    Lower-case letters (0x60-0x7F, which some editors produce) count as their
    upper-case cells, as embossers treat them.
    """
    out = []
    for ch in text:
        if ch in _LAYOUT:
            out.append(ch)
            continue
        if "`" <= ch <= "~":
            ch = chr(ord(ch) - 0x20)
        if ch not in BRF_TO_MASK:
            raise ValueError(f"not braille ASCII: {ch!r}")
        out.append(chr(0x2800 + BRF_TO_MASK[ch]))
    return "".join(out)


def unicode_to_brf(text: str) -> str:
    """Braille ASCII for Unicode braille text; dots 7 and 8 are dropped (6-dot braille)."""
    out = []
    for ch in text:
        if ch in _LAYOUT:
            out.append(ch)
        elif 0x2800 <= ord(ch) <= 0x28FF:
            out.append(MASK_TO_BRF[(ord(ch) - 0x2800) & 0x3F])
        elif ch == " ":
            out.append(" ")
        else:
            raise ValueError(f"not a braille cell: {ch!r}")
    return "".join(out)


# ---------------------------------------------------------------------------
# Literary text (header): liblouis when present, else a small built-in table

#: liblouis tables for uncontracted literary braille per language.
LOUIS_TABLES = {
    "de": "de-g0.utb", "en": "en-ueb-g1.ctb", "fr": "fr-bfu-comp6.utb",
    "it": "it-it-comp6.utb", "nl": "nl-NL-g0.utb", "ru": "ru-litbrl.ctb",
}
_SYSTEM_LOUIS = Path("/usr/lib/python3/dist-packages/louis/__init__.py")


@functools.cache
def louis_module() -> ModuleType | None:
    """The liblouis Python binding, or None.

    The project's virtual environment does not see Debian's site-packages, so
    when ``import louis`` fails the module of Debian's python3-louis is loaded
    from its file (it is pure Python over ctypes).
    """
    try:
        return importlib.import_module("louis")
    except Exception:  # noqa: BLE001 - missing module or missing C library
        pass
    if not _SYSTEM_LOUIS.is_file():
        return None
    try:
        spec = importlib.util.spec_from_file_location("louis", _SYSTEM_LOUIS)
        if spec is None or spec.loader is None:
            return None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.version()
        return module
    except Exception:  # noqa: BLE001 - liblouis library absent or incompatible
        return None


_LETTERS_BRF = {chr(c): chr(c - 32) for c in range(ord("a"), ord("z") + 1)}
#: German umlauts and ß in German braille (Basisschrift).
_GERMAN_BRF = {"ä": ">", "ö": "[", "ü": "\\", "ß": "!"}
#: Russian braille alphabet (Cyrillic letters share the Latin letters' cells where they sound alike).
_RUSSIAN_DOTS = {
    "а": "1", "б": "12", "в": "2456", "г": "1245", "д": "145", "е": "15", "ё": "16",
    "ж": "245", "з": "1356", "и": "24", "й": "12346", "к": "13", "л": "123", "м": "134",
    "н": "1345", "о": "135", "п": "1234", "р": "1235", "с": "234", "т": "2345",
    "у": "136", "ф": "124", "х": "125", "ц": "14", "ч": "12345", "ш": "156",
    "щ": "1346", "ъ": "12356", "ы": "2346", "ь": "23456", "э": "246", "ю": "1256", "я": "1246",
}
_RUSSIAN_BRF = {ch: MASK_TO_BRF[_mask(d)] for ch, d in _RUSSIAN_DOTS.items()}
_PUNCT_BRF = {".": "4", ",": "1", ":": "3", ";": "2", "?": "8", "!": "6", "-": "-",
              "–": "-", "—": "-", "/": "/", "(": "7", ")": "7", "'": "'", '"': "8", "½": "#A/B"}
_DIGIT_LETTERS = "JABCDEFGHI"  # 0-9 as upper-cell digits after the number sign


def _builtin_text(text: str) -> str:
    """Uncontracted braille ASCII for header text (letters, digits, umlauts, punctuation)."""
    out: list[str] = []
    in_number = False
    for ch in text:
        low = ch.lower()
        if ch.isdigit() and ch.isascii():
            if not in_number:
                out.append("#")
                in_number = True
            out.append(_DIGIT_LETTERS[int(ch)])
            continue
        if in_number and low in "abcdefghij":
            out.append(";")  # letter sign: a letter a-j right after a number
        in_number = False
        if low in _LETTERS_BRF:
            out.append(_LETTERS_BRF[low])
        elif low in _GERMAN_BRF:
            out.append(_GERMAN_BRF[low])
        elif low in _RUSSIAN_BRF:
            out.append(_RUSSIAN_BRF[low])
        elif ch.isspace():
            out.append(" ")
        elif ch in _PUNCT_BRF:
            out.append(_PUNCT_BRF[ch])
        else:
            base = unicodedata.normalize("NFKD", low).encode("ascii", "ignore").decode()
            out.append("".join(_LETTERS_BRF.get(b, "") for b in base) or "?")
    return "".join(out)


def _script_fits(text: str, lang: str) -> bool:
    """Whether the language's liblouis table knows the text's letters (Cyrillic only in Russian)."""
    cyrillic = any("\u0400" <= ch <= "\u04ff" for ch in text)
    return cyrillic == (lang[:2] == "ru") or not cyrillic


def text_to_brf(text: str, lang: str = "de", *, use_louis: bool = True) -> str:
    """Literary (uncontracted) braille ASCII for a line of text, e.g. a player's name."""
    louis = louis_module() if use_louis else None
    table = LOUIS_TABLES.get(lang[:2])
    if louis is not None and table and _script_fits(text, lang):
        try:
            cells = louis.translateString([table], text, mode=louis.dotsIO | louis.ucBrl)
            return unicode_to_brf(cells.replace("\u2800", " "))
        except Exception:  # noqa: BLE001 - table missing on this system: use the built-in one
            pass
    return _builtin_text(text)


# ---------------------------------------------------------------------------
# Moves

#: Braille piece letters that differ from the print letters of FIDE Laws Appendix C:
#: English braille writes the knight S (British Braille Chess Code, BAUK 2015, §1.3).
BRAILLE_LETTERS: dict[str, dict[str, str]] = {"en": {"N": "S"}}


def _print_move(board: chess.Board, move: chess.Move, lang: str) -> str:
    """The move as the braille score spells it: the print move in the player's language
    (FIDE style) with the braille piece letters of :data:`BRAILLE_LETTERS`."""
    text = write(board, move, lang, style="fide")
    for print_letter, braille_letter in BRAILLE_LETTERS.get(lang, {}).items():
        text = text.replace(print_letter, braille_letter)   # an English move has no other capital N
    return text


#: Russian piece letters in Russian braille.
_CYRILLIC_BRF = {ch.upper(): cell for ch, cell in _RUSSIAN_BRF.items()}


def _cells_of_print(written: str) -> str:
    """Braille ASCII for one printed move (no capital signs)."""
    text = written.replace("e.p.", "").replace("=", "").strip()
    text = text.replace("#", "++").replace("O", "0").replace(" ", "")
    out = []
    for ch in text:
        if ch in _CYRILLIC_BRF:
            out.append(_CYRILLIC_BRF[ch])
        elif ch.lower() in _LETTERS_BRF:
            out.append(ch.upper())
        elif ch in BRF_CHARS:
            out.append(ch)
        elif ch.lower() in _RUSSIAN_BRF:
            out.append(_RUSSIAN_BRF[ch.lower()])
        else:
            raise ValueError(f"no braille for {ch!r} in {written!r}")
    return "".join(out)


def _strip_marks(cells: str) -> str:
    """A move's cells without check/mate signs and capital signs, for loose comparison."""
    return cells.replace(",", "").rstrip("+")


def _position_cells(board: chess.Board, lang: str, to_square: int | None = None,
                    castling: bool = False) -> dict[chess.Move, str]:
    """Legal moves' cells (all, those to ``to_square``, or the castlings).

    A piece letter gets the capital sign where two moves' cells would collide;
    colliding moves always share the arrival square, so one square is enough.
    """
    if castling:
        moves = [m for m in board.legal_moves if board.is_castling(m)]
    elif to_square is not None:
        moves = [m for m in board.legal_moves if m.to_square == to_square and not board.is_castling(m)]
    else:
        moves = list(board.legal_moves)
    raw = {move: _cells_of_print(_print_move(board, move, lang)) for move in moves}
    counts = Counter(_strip_marks(cells) for cells in raw.values())
    out = {}
    for move, cells in raw.items():
        is_piece = board.piece_type_at(move.from_square) != chess.PAWN and not board.is_castling(move)
        out[move] = "," + cells if is_piece and counts[_strip_marks(cells)] > 1 else cells
    return out


def move_to_brf(board: chess.Board, move: chess.Move, lang: str = "de") -> str:
    """One move as braille ASCII in the player's language letters (``SF3``, ``EXD6``, ``0-0``).

    The piece letter gets the capital sign only if another legal move would
    otherwise be written with the same cells (a pawn capture such as ``bxc6``
    against ``Bxc6``), so the score always reads back to one game.
    """
    cells = _cells_of_print(_print_move(board, move, lang))
    piece = board.piece_type_at(move.from_square)
    if piece == chess.PAWN or board.is_castling(move) or cells[:1] not in "ABCDEFGH":
        return cells
    return _position_cells(board, lang, move.to_square)[move]


# ---------------------------------------------------------------------------
# Writing a score

@dataclass(frozen=True)
class Layout:
    """Page geometry of a braille score (cells per line, lines per page)."""

    width: int = 40
    page_length: int = 25

    def __post_init__(self) -> None:
        if self.width < 12:
            raise ValueError("braille line width must be at least 12 cells")
        if self.page_length < 3:
            raise ValueError("braille page length must be at least 3 lines")


def _number_cells(number: int, number_sign: bool) -> str:
    if number_sign:
        return "#" + "".join(_DIGIT_LETTERS[int(d)] for d in str(number))
    return str(number)  # the lower digits are the characters 0-9 in braille ASCII


_RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "½-½": "1/2-1/2", "*": "*"}


def score_units(start: chess.Board, moves: Sequence[chess.Move], lang: str = "de", *,
                result: str | None = None, number_sign: bool = False) -> list[str]:
    """The score as unbreakable units: ``"1 E4"``, ``"E5"``, ``"2 SF3"`` …, then the result."""
    board = start.copy(stack=False)
    units: list[str] = []
    for index, move in enumerate(moves):
        if not board.is_legal(move):
            raise ValueError(f"illegal move {move.uci()} in {board.fen()}")
        cells = move_to_brf(board, move, lang)
        if board.turn == chess.WHITE:
            units.append(f"{_number_cells(board.fullmove_number, number_sign)} {cells}")
        elif index == 0:
            units.append(f"{_number_cells(board.fullmove_number, number_sign)} -{cells}")
        else:
            units.append(cells)
        board.push(move)
    if result and result in _RESULTS:
        units.append(_RESULTS[result])
    return units


def _wrap(units: Sequence[str], width: int) -> list[str]:
    """Fill lines with whole units separated by one space."""
    lines: list[str] = []
    line = ""
    for unit in units:
        if len(unit) > width:  # only with absurd widths: number and move on separate lines
            parts = unit.split(" ")
        else:
            parts = [unit]
        for part in parts:
            if len(part) > width:
                raise ValueError(f"{part!r} is wider than {width} cells")
            if not line:
                line = part
            elif len(line) + 1 + len(part) <= width:
                line += " " + part
            else:
                lines.append(line)
                line = part
    if line:
        lines.append(line)
    return lines


def _wrap_words(text: str, width: int) -> list[str]:
    """Word-wrap header text; a word longer than a line is cut (names only, never moves)."""
    words: list[str] = []
    for word in text.split():
        words.extend(word[i:i + width] for i in range(0, len(word), width))
    return _wrap(words, width)


def _paginate(lines: Sequence[str], page_length: int, width: int, page_numbers: bool) -> str:
    """Pages joined by form feeds; with ``page_numbers`` the last line of each page carries
    the braille page number at the right margin (number sign + upper digits, BANA practice)."""
    body = page_length - 1 if page_numbers else page_length
    pages = [list(lines[i:i + body]) for i in range(0, len(lines), body)] or [[]]
    if page_numbers:
        for number, page in enumerate(pages, start=1):
            page.extend([""] * (body - len(page)))
            page.append(_number_cells(number, True).rjust(width))
    return "\f".join("\r\n".join(page) + "\r\n" for page in pages)


def _chess960_number(headers: Mapping[str, str]) -> int | None:
    """The Chess960 start position number of a game's tags (None for classical chess)."""
    if "960" not in (headers.get("Variant") or "") or not headers.get("FEN"):
        return None
    try:
        number = chess.Board(headers["FEN"], chess960=True).chess960_pos()
    except ValueError:
        return None
    return None if number == 518 else number


def _set_up_start(headers: Mapping[str, str]) -> chess.Board | None:
    """The start position of the tags' ``FEN`` when it is a set-up position (not a Chess960 start)."""
    fen = (headers.get("FEN") or "").strip()
    if not fen:
        return None
    try:
        board = chess.Board(fen, chess960="960" in (headers.get("Variant") or ""))
    except ValueError:
        return None
    return board if is_set_up(board) else None


def header_lines(headers: Mapping[str, str], lang: str = "de", *, width: int = 40,
                 use_louis: bool = True) -> list[str]:
    """Literary braille lines for event, players, date and the start position (whatever is known): a
    Chess960 start by its number, a set-up position piece by piece (:func:`blindchess.records.start_position.start_text`)."""
    def known(key: str) -> str:
        value = (headers.get(key) or "").strip()
        return "" if value in ("?", "????.??.??", "-") else value

    texts = []
    event = " ".join(v for v in (known("Event"), known("Round") and f"({known('Round')})") if v)
    if event:
        texts.append(event)
    players = " - ".join(v for v in (known("White"), known("Black")) if v)
    if players:
        texts.append(players)
    date = known("Date").replace("??", "").strip(".")
    if date:
        texts.append(date)
    number = _chess960_number(headers)
    if number is not None:
        texts.append(tr("records.chess960_number", lang, number=number))
    start = _set_up_start(headers)
    if start is not None:
        texts.append(start_text(start, lang) or "")
    lines: list[str] = []
    for text in texts:
        lines.extend(_wrap_words(text_to_brf(text, lang, use_louis=use_louis), width))
    return lines


class BrfOptions(TypedDict, total=False):
    """The keyword options of :func:`score_to_brf` (for the functions that pass them on)."""

    width: int
    page_length: int
    result: str | None
    headers: Mapping[str, str] | None
    number_sign: bool
    page_numbers: bool
    use_louis: bool


def score_to_brf(start: chess.Board, moves: Sequence[chess.Move], lang: str = "de", *,
                 width: int = 40, page_length: int = 25, result: str | None = None,
                 headers: Mapping[str, str] | None = None, number_sign: bool = False,
                 page_numbers: bool = False, use_louis: bool = True) -> str:
    """The game score as braille ASCII (``.brf``): CR LF line ends, form feed between pages.

    ``start`` is the position before the first move (Chess960 included),
    ``moves`` the legal moves in order. With ``headers`` (PGN tag names: Event,
    Round, White, Black, Date, Variant/FEN) the score is preceded by those lines
    in literary braille and a blank line. ``page_numbers`` puts the braille page
    number on the last line of every page, at the right margin.
    """
    layout = Layout(width, page_length)
    lines: list[str] = []
    if headers:
        head = header_lines(headers, lang, width=layout.width, use_louis=use_louis)
        if head:
            lines.extend(head)
            lines.append("")
    lines.extend(_wrap(score_units(start, moves, lang, result=result, number_sign=number_sign),
                       layout.width))
    return _paginate(lines, layout.page_length, layout.width, page_numbers)


def score_to_unicode(start: chess.Board, moves: Sequence[chess.Move], lang: str = "de",
                     **options: Unpack[BrfOptions]) -> str:
    """The same score as Unicode braille: :func:`score_to_brf` cell for cell."""
    return brf_to_unicode(score_to_brf(start, moves, lang, **options))


def game_to_brf(game: chess.pgn.Game, lang: str = "de", **options: Unpack[BrfOptions]) -> str:
    """A python-chess ``chess.pgn.Game`` as braille ASCII (main line, headers, result)."""
    options.setdefault("headers", dict(game.headers))
    options.setdefault("result", game.headers.get("Result"))
    return score_to_brf(game.board(), list(game.mainline_moves()), lang, **options)


# ---------------------------------------------------------------------------
# Reading a score back

@dataclass
class BrfProblem:
    """Why reading stopped: the token at ``ply`` (0-based) fits no legal move, or several."""

    ply: int
    number: int
    white: bool
    cells: str
    problem: str  # "illegal" | "ambiguous" | "unreadable"


@dataclass
class BrfReading:
    """A braille score read back: the moves up to the first problem, the result if written."""

    start: chess.Board
    moves: list[chess.Move] = field(default_factory=list)
    result: str | None = None
    problems: list[BrfProblem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def board(self) -> chess.Board:
        board = self.start.copy(stack=False)
        for move in self.moves:
            board.push(move)
        return board


_LOWER_NUMBER = re.compile(r"^[0-9]+$")
_PAGE_NUMBER = re.compile(r"^ +#[A-J]+ *$")  # a braille page number at the right margin
_SIGN_NUMBER = re.compile(r"^#[A-J]+$")


def _as_number(token: str) -> int | None:
    if _LOWER_NUMBER.match(token):
        return int(token)
    if _SIGN_NUMBER.match(token):
        return int("".join(str(_DIGIT_LETTERS.index(c)) for c in token[1:]))
    return None


def _letters_in_use(lang: str) -> tuple[str, ...]:
    """The piece letters of ``lang``, longest first (``Кр`` before ``К``)."""
    swap = BRAILLE_LETTERS.get(lang, {})
    letters = {swap.get(letter, letter) for letter in
               (piece_letter(p, lang) for p in (chess.KING, chess.QUEEN, chess.ROOK,
                                                         chess.BISHOP, chess.KNIGHT))}
    return tuple(sorted(letters, key=len, reverse=True))


def _print_candidates(cells: str, lang: str) -> list[str]:
    """Print spellings a braille move may stand for: piece letters upper case, the rest lower case."""
    body = cells.replace(",", "").replace("++", "#")
    core = body.rstrip("+#")
    marks = body[len(core):]
    candidates = [body.lower()]
    for letter in _letters_in_use(lang):
        form = _cells_of_print(letter)
        if core.startswith(form):
            candidates.insert(0, letter + body[len(form):].lower())
        if core.endswith(form) and core[: -len(form)][-1:] in ("1", "8"):  # promotion piece
            candidates.append(core[: -len(form)].lower() + letter + marks)
    return list(dict.fromkeys(candidates))


_SQUARE_CELLS = re.compile(r"[A-H][1-8]")


def _read_move(board: chess.Board, token: str, lang: str) -> tuple[chess.Move | None, str]:
    """The legal move a braille token stands for, or None with the reason."""
    squares = _SQUARE_CELLS.findall(_strip_marks(token))
    if token.startswith("0"):
        cells = _position_cells(board, lang, castling=True)
    elif squares:
        cells = _position_cells(board, lang, chess.parse_square(squares[-1].lower()))
    else:
        cells = {}
    exact = [move for move, c in cells.items() if c == token]
    if len(exact) == 1:
        return exact[0], ""
    loose = [move for move, c in cells.items() if _strip_marks(c) == _strip_marks(token)]
    if len(loose) == 1:
        return loose[0], ""
    if len(loose) > 1:
        return None, "ambiguous"
    # Not written the way this module writes it: let the notation reader judge the letters.
    found: set[chess.Move] = set()
    problem = "unreadable"
    back = {b: p for p, b in BRAILLE_LETTERS.get(lang, {}).items()}
    for text in _print_candidates(token, lang):
        if back and text[:1] in back:
            text = back[text[0]] + text[1:]                 # braille S is the print N (BAUK 2015)
        reading = read(board, text, lang)
        if reading.ok and reading.move is not None:
            found.add(reading.move)
        elif reading.problem in ("ambiguous", "illegal") and problem != "ambiguous":
            problem = reading.problem
    if len(found) == 1:
        return found.pop(), ""
    return None, ("ambiguous" if len(found) > 1 else problem)


def _score_start(lines: Sequence[str]) -> int:
    """Index of the score's first line: 0, or after the header's blank line."""
    filled = [i for i, line in enumerate(lines) if line]
    if not filled or _as_number(lines[filled[0]].split()[0]) is not None:
        return 0
    blank = next((i for i in range(filled[0], len(lines)) if not lines[i]), None)
    if blank is not None:
        return blank + 1
    return next((i for i in filled if _as_number(lines[i].split()[0]) is not None), len(lines))


def read_brf(text: str, *, board: chess.Board | None = None, lang: str = "de") -> BrfReading:
    """Read a braille score (braille ASCII or Unicode braille) back into moves.

    The score starts at the first line whose first word is a move number (header
    lines before it are skipped). Move numbers are checked against the position;
    reading stops at the first move that fits no legal move, or several.
    """
    if any(0x2800 <= ord(ch) <= 0x28FF for ch in text):
        text = unicode_to_brf(text.replace("\u2800", " "))
    start = (board or chess.Board()).copy(stack=False)
    reading = BrfReading(start=start)
    text = text.replace("\r\n", "\n").replace("\n\f", "\n").replace("\f", "\n")
    text = "".join(chr(ord(ch) - 0x20) if "`" <= ch <= "~" else ch for ch in text)  # lower-case BRF
    lines = ["" if _PAGE_NUMBER.match(line) else line.strip() for line in text.split("\n")]
    first = _score_start(lines)
    tokens = " ".join(lines[first:]).split()
    current = start.copy(stack=False)
    for token in tokens:
        if token in ("1-0", "0-1", "1/2-1/2", "*"):
            reading.result = token
            break
        if _as_number(token) is not None:
            continue
        if token.startswith("-") and not reading.moves:
            token = token[1:]
        move, problem = _read_move(current, token, lang)
        if move is None:
            reading.problems.append(BrfProblem(len(reading.moves), current.fullmove_number,
                                               current.turn == chess.WHITE, token, problem))
            break
        reading.moves.append(move)
        current.push(move)
    return reading
