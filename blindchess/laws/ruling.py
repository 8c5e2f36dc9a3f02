"""The arbiter's ruling when the two boards diverge (FIDE Laws D.2.9).

Pure: python-chess, the stdlib, :mod:`blindchess.language.notation` and :mod:`blindchess.language.phonetic`
(to read what was written).

D.2.9: *If during play different positions arise on the two boards, they must
be corrected with the assistance of the arbiter and by consulting both players'
game scores. If the two game scores correspond, the player who has written the
move correctly but made the wrong move on his board must adjust his position to
correspond with the move on the game scores. When the game scores are found to
differ, the moves are retraced to the point where the two scores agree, and the
arbiter readjusts the clocks accordingly.*

API
---
``rule(score_a, score_b, board_a, board_b, *, start=None, clock_history=None,
lang="de", occupancy_only=(), labels=("a", "b")) -> Proposal``

* ``score_a``/``score_b``: a game score — the whole text (``"1. e4 e5 2. Sf3"``,
  any supported notation, read with ``blindchess.language.notation.read_score``), a
  list of written entries (one per half-move; notation or a spoken phrase such
  as ``"Springer Felix drei"``), a list of ``chess.Move``, or a
  :class:`blindchess.language.notation.ScoreReading`. Scores are compared by meaning: ``Sf3`` = ``Nf3`` =
  ``Springer Felix drei``.
* ``board_a``/``board_b``: what stands on each board — a ``chess.Board`` /
  ``chess.BaseBoard``, a FEN (piece placement alone is accepted), or an ``int``
  occupancy bitmask (a tactile board that senses occupancy only). Boards named
  in ``occupancy_only`` are compared by occupancy only.
* ``start``: the start position (default: the standard one; Chess960 boards work).
* ``clock_history``: a :class:`blindchess.laws.clock.Clock`, a mapping
  ``ply -> (white_remaining, black_remaining)``, or a list of snapshots /
  dicts ``{"ply", "white", "black"}`` (ply 0 = the start; ply k = right after
  the k-th half-move was completed).

:class:`Proposal` fields: ``boards_agree``, ``sheets_agree``, ``agreed_plies``
(half-moves on which both scores agree), ``kind`` ("none" | "correct-board" |
"retrace"), ``position`` (the ``chess.Board`` both boards must show afterwards:
side to move, castling and en passant rights included), ``moves`` (the moves
from ``start`` to it), ``position_fen``, ``fix_boards``
(["a"], ["b"], ["a", "b"]), ``squares`` ({"a": ["f3", "g1"]}), ``changes`` (the
same with the pieces: :class:`SquareChange`), ``clocks`` (``{"ply", "white",
"black", "restore", "exact"}`` or ``None``), ``shorter`` ("a" | "b" | None) and
``missing_plies`` (a score that is only shorter — not a reason to retrace),
``disagreement`` (:class:`Disagreement` at the first ply where the scores part,
also for an illegal / unreadable / ambiguous written move), ``scores_behind``
(one or both boards show one legal move more than the scores: the last move is
probably not written yet — the explanation asks to complete the scores; when
the boards agree the ruling is "none" and ``position``/``moves`` are the
boards' position, so nothing correct is undone), ``explain(lang)``
(plain words citing D.2.9) and ``to_dict()`` (the JSON of ``blindchess reconcile``).

The decision:

1. Both boards show the same position → "none" (a difference between the
   scores alone is reported, but it is no D.2.9 matter).
2. The scores agree (one may be shorter: the last move not yet written) →
   "correct-board": every board that differs from the position of the longer
   score is set to it.
3. The scores differ (or one holds an illegal/unreadable move) at ply k →
   "retrace": both boards go back to the position after the k agreed
   half-moves; the clocks to the times recorded at ply k.

Reading: both scores are read by the one score reader, :mod:`blindchess.language.notation`
(``read_score`` for a text, ``read_entries`` for entries; every written move through
``notation.read``, the sheet's language guessed by ``notation.guess_lang`` deciding
letters that differ between languages), a spoken phrase that notation cannot read
through ``blindchess.language.phonetic.read_phrase`` (:func:`reading_of`); the result is
``notation.ScoreReading``. The only shortcut is a cache: while the two scores agree,
an entry of score b written exactly as score a's entry (same text, same position,
same sheet language) is the same reading and is taken over.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import chess

from ..base import NOTATION_LANGS, plural, tr
from ..language import ScoreReading, is_move_text, read_entries, read_phrase, read_score, write
from .clock import Clock, ClockSnapshot, format_time

__all__ = [
    "rule", "Proposal", "ScoreInput", "Disagreement", "SquareChange",
    "reading_of", "parse_board", "placement_key", "diff_squares", "move_ref",
]

# -- reading what was written ------------------------------------------------

#: A score as :func:`rule` takes it: the text, its entries (texts or moves), or a reading.
ScoreInput: TypeAlias = "str | ScoreReading | Iterable[str | chess.Move]"


def reading_of(score: ScoreInput, start: chess.Board, lang: str | None = None, *,
               reference: ScoreReading | None = None) -> ScoreReading:
    """A score as the ruling takes it (see :data:`ScoreInput`), read from ``start`` by the one score
    reader, :mod:`blindchess.language.notation`; problem messages in ``lang``.

    A text goes to :func:`blindchess.language.notation.read_score`; when it stops at a problem and
    has several lines, it is also read as one spoken phrase per line (a transcribed
    recording: "Springer Felix drei") and the reading that gets further stands. Entries
    go to :func:`blindchess.language.notation.read_entries`, spoken phrases through
    :func:`blindchess.language.phonetic.read_phrase`; ``reference`` (the other score, already
    read) lets identical entries be taken over while both agree. A reading is
    returned as it is. Never raises for any text.
    """
    if isinstance(score, ScoreReading):
        return score
    if isinstance(score, str):
        read = read_score(score, board=start.copy(stack=False), lang=None, ui_lang=lang)
        if read.problems and "\n" in score.strip():
            by_line = read_entries(_line_entries(score), board=start, ui_lang=lang, spoken=read_phrase)
            if by_line.problem is None or by_line.plies > read.plies:
                return by_line
        return read
    return read_entries(score, board=start, ui_lang=lang, spoken=read_phrase, reference=reference)


_RESULT_TOKEN = re.compile(r"^(1-0|0-1|1/2-1/2|½-½|\*)$")
_EP = ("e.p.", "ep", "e.p")


def _line_entries(text: str) -> list[str]:
    """Entries of a score written one line per half-move (or "N. white black" per line)."""
    out: list[str] = []
    for line in text.splitlines():
        line = line.strip()
        line = re.sub(r"^\d+\s*(\.{1,3}|…)\s*", "", line)
        if not line or _RESULT_TOKEN.match(line):
            continue
        words = line.split()
        if len(words) > 1 and all(is_move_text(w) or w.lower() in _EP for w in words):
            out.extend(w for w in words if w.lower() not in _EP)
        else:
            out.append(line)
    return out


# -- boards -------------------------------------------------------------------


def parse_board(value: object) -> chess.BaseBoard | int:
    """A board argument as a ``BaseBoard`` (full placement) or ``int`` (occupancy only).

    Raises ValueError for a FEN that cannot be read.
    """
    if isinstance(value, chess.BaseBoard):
        return value
    if isinstance(value, bool):
        raise ValueError(repr(value))
    if isinstance(value, int):
        return value & chess.BB_ALL
    if isinstance(value, str):
        placement = value.strip().split()[0] if value.strip() else ""
        return chess.BaseBoard(placement)
    raise ValueError(repr(value))


def placement_key(board: chess.BaseBoard) -> tuple[int, ...]:
    """A fast comparable key of the piece placement (no side to move, no castling)."""
    return (board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings,
            board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK])


def diff_squares(board: chess.BaseBoard | int, target: chess.BaseBoard, occupancy_only: bool = False) -> list[int]:
    """Squares (ascending) where ``board`` differs from ``target``."""
    if isinstance(board, int) or occupancy_only:
        occ = board if isinstance(board, int) else board.occupied
        mask = occ ^ target.occupied
    else:
        a, b = placement_key(board), placement_key(target)
        mask = 0
        for x, y in zip(a, b):
            mask |= x ^ y
    return list(chess.scan_forward(mask))


@dataclass(frozen=True)
class SquareChange:
    """One square to change: what stands there now and what must stand there (symbols, None = empty)."""

    square: str
    now: str | None  # piece symbol ("N", "p"), "?" for an occupied square of an occupancy-only board
    target: str | None

    def describe(self, lang: str | None = None) -> str:
        if self.target is None:
            return tr("session.change_clear", lang, square=self.square, piece=_piece_words(self.now, lang))
        if self.now is None:
            return tr("session.change_put", lang, square=self.square, piece=_piece_words(self.target, lang))
        return tr("session.change_replace", lang, square=self.square, piece=_piece_words(self.target, lang),
                  old=_piece_words(self.now, lang))


def _piece_words(symbol: str | None, lang: str | None) -> str:
    if symbol is None:
        return tr("session.piece_none", lang)
    if symbol == "?":
        return tr("session.piece_unknown", lang)
    return tr(f"session.piece_{'w' if symbol.isupper() else 'b'}{symbol.lower()}", lang)


def _changes(board: chess.BaseBoard | int, target: chess.BaseBoard, occupancy_only: bool) -> list[SquareChange]:
    out = []
    for sq in diff_squares(board, target, occupancy_only):
        want = target.piece_at(sq)
        if isinstance(board, int):
            have = "?" if board & chess.BB_SQUARES[sq] else None
        else:
            p = board.piece_at(sq)
            have = p.symbol() if p else None
        out.append(SquareChange(chess.square_name(sq), have, want.symbol() if want else None))
    return out


# -- clocks -------------------------------------------------------------------

#: A clock history as :func:`rule` takes it: a :class:`Clock`, ``{ply: (white, black)}``,
#: or rows — :class:`ClockSnapshot`, ``(ply, white, black)`` or journal ``clock`` objects
#: (``{"ply", "white", "black"}`` as read from JSON; None = no limit).
ClockHistory: TypeAlias = (
    "Clock | Mapping[int, tuple[float, float]] "
    "| Iterable[ClockSnapshot | Mapping[str, Any] | tuple[int, float, float]] | None"
)


@dataclass(frozen=True)
class ClockAt:
    """The clock times a ruling restores: those recorded after half-move ``ply`` (``white``/``black`` None:
    no limit); ``restore``: the clocks go back to them (a retrace), ``exact``: recorded at that very
    half-move (not an earlier one)."""

    ply: int
    white: float | None
    black: float | None
    restore: bool = False
    exact: bool = True


@dataclass(frozen=True)
class ClockSetting:
    """The remaining times the arbiter sets (D.2.9: he readjusts the clocks); None leaves a side's as it is."""

    white: float | None = None
    black: float | None = None


def _clock_rows(history: ClockHistory) -> list[tuple[int, float, float]]:
    """Normalize any supported clock history to sorted (ply, white, black) rows."""
    if history is None:
        return []
    rows: list[tuple[int, float, float]] = []
    if isinstance(history, Clock):
        history = history.history
    if isinstance(history, Mapping):
        for ply, (w, b) in history.items():
            rows.append((int(ply), float(w), float(b)))
    else:
        for item in history:
            if isinstance(item, ClockSnapshot):
                rows.append((item.ply, float(item.remaining[0]), float(item.remaining[1])))
            elif isinstance(item, Mapping):
                w, b = item.get("white"), item.get("black")
                rows.append((int(item["ply"]), math.inf if w is None else float(w), math.inf if b is None else float(b)))
            else:
                ply, w, b = item
                rows.append((int(ply), float(w), float(b)))
    rows.sort(key=lambda r: r[0])
    return rows


def _clock_at(rows: list[tuple[int, float, float]], ply: int | None, restore: bool) -> ClockAt | None:
    if not rows:
        return None
    if ply is None:
        chosen = rows[-1]
    else:
        before = [r for r in rows if r[0] <= ply]
        if not before:
            return None
        chosen = before[-1]

    def j(x: float) -> float | None:
        return None if math.isinf(x) else x

    return ClockAt(ply=chosen[0], white=j(chosen[1]), black=j(chosen[2]), restore=restore,
                   exact=ply is None or chosen[0] == ply)


# -- the ruling -----------------------------------------------------------------


@dataclass(frozen=True)
class Disagreement:
    """The first half-move where the two scores part (0-based ``index``)."""

    index: int
    number: int
    white: bool
    written_a: str | None
    written_b: str | None
    problem_a: str | None  # None when the entry was read (or missing)
    problem_b: str | None
    message_a: str = ""
    message_b: str = ""


def move_ref(start: chess.Board, index: int, lang: str | None = None) -> str:
    """Words for the half-move with 0-based ``index`` from ``start``: "Zug 12 von Weiß"."""
    number, white = _move_number(start, index)
    return tr("session.move_ref_white" if white else "session.move_ref_black", lang, number=number)


def _move_number(start: chess.Board, index: int) -> tuple[int, bool]:
    offset = 0 if start.turn == chess.WHITE else 1
    number = start.fullmove_number + (index + offset) // 2
    white = (index + offset) % 2 == 0
    return number, white


@dataclass
class Proposal:
    """The outcome of :func:`rule`; see the module docstring."""

    boards_agree: bool
    sheets_agree: bool
    agreed_plies: int
    kind: str
    position: chess.Board
    moves: list[chess.Move]
    fix_boards: list[str]
    squares: dict[str, list[str]]
    changes: dict[str, list[SquareChange]]
    clocks: ClockAt | None
    shorter: str | None
    missing_plies: int
    disagreement: Disagreement | None
    start: chess.Board
    plies_a: int
    plies_b: int
    labels: tuple[str, str] = ("a", "b")
    lang: str = "de"
    boards_diff: list[str] = field(default_factory=list)
    scores_behind: bool = False

    @property
    def position_fen(self) -> str:
        return self.position.fen()

    def to_dict(self) -> dict[str, object]:
        """The JSON object of ``blindchess reconcile --json``."""
        d: dict[str, object] = {
            "boards_agree": self.boards_agree,
            "sheets_agree": self.sheets_agree,
            "agreed_plies": self.agreed_plies,
            "ruling": self.kind,
            "position_fen": self.position_fen,
            "fix_boards": list(self.fix_boards),
            "squares": {k: list(v) for k, v in self.squares.items()},
            "moves": [m.uci() for m in self.moves],
            "shorter": self.shorter,
            "missing_plies": self.missing_plies,
            "plies_a": self.plies_a,
            "plies_b": self.plies_b,
            "scores_behind": self.scores_behind,
        }
        if self.disagreement is not None:
            dg = self.disagreement
            d["disagreement"] = {"ply": dg.index + 1, "number": dg.number, "color": "white" if dg.white else "black",
                                 "a": dg.written_a, "b": dg.written_b,
                                 "problem_a": dg.problem_a, "problem_b": dg.problem_b}
        else:
            d["disagreement"] = None
        if self.clocks is not None:
            d["clocks"] = dataclasses.asdict(self.clocks)
        d["explanation"] = self.explain(self.lang)
        return d

    def _board_name(self, which: str, lang: str | None) -> str:
        label = self.labels[0] if which == "a" else self.labels[1]
        return tr(f"session.board_{label}", lang)

    def _score_name(self, which: str, lang: str | None) -> str:
        label = self.labels[0] if which == "a" else self.labels[1]
        return tr(f"session.score_{label}", lang)

    def _after(self, plies: int, lang: str | None) -> str:
        if plies == 0:
            return tr("session.at_start", lang)
        return tr("session.after_move", lang, move=self._move_words(plies, lang))

    def _move_words(self, plies: int, lang: str | None) -> str:
        """The ``plies``-th half-move of ``moves`` as written: "2. Sf3" / "2... Sc6"."""
        board = self.start.copy(stack=False)
        for m in self.moves[: plies - 1]:
            board.push(m)
        number, white = _move_number(self.start, plies - 1)
        return f"{number}.{'' if white else '..'} {_write(board, self.moves[plies - 1], lang)}"

    def explain(self, lang: str | None = None) -> str:
        """The ruling in plain words, in ``lang``, citing D.2.9."""
        lang = lang or self.lang
        parts: list[str] = []
        if self.boards_agree:
            parts.append(tr("session.rule_boards_agree", lang))
        else:
            parts.append(tr("session.rule_boards_differ", lang, squares=", ".join(self.boards_diff)))
        if self.sheets_agree:
            plies = self.agreed_plies if self.shorter is None else max(self.plies_a, self.plies_b)
            parts.append(plural(plies, "session.rule_sheets_agree_one", "session.rule_sheets_agree", lang,
                                plies=plies))
            if self.shorter:
                key = "session.rule_shorter_one" if self.missing_plies == 1 else "session.rule_shorter"
                parts.append(tr(key, lang, score=self._score_name(self.shorter, lang), count=self.missing_plies))
        elif self.disagreement is not None:
            parts.append(self._explain_disagreement(lang))
        if self.kind == "none":
            if self.scores_behind:
                last = self._move_words(len(self.moves), lang) if len(self.moves) > max(self.plies_a, self.plies_b) \
                    else "?"
                parts.append(tr("session.rule_scores_behind_none", lang, move=last))
            elif not self.sheets_agree:
                parts.append(tr("session.rule_none_sheets", lang))
            else:
                parts.append(tr("session.rule_none", lang))
        elif self.kind == "correct-board":
            if self.scores_behind:
                parts.append(tr("session.rule_scores_behind", lang))
            parts.append(tr("session.rule_correct", lang, position=self._after(len(self.moves), lang)))
            for which in self.fix_boards:
                changes = "; ".join(c.describe(lang) for c in self.changes.get(which, []))
                parts.append(tr("session.rule_fix_board", lang, board=_cap(self._board_name(which, lang)),
                                changes=changes))
        else:
            parts.append(plural(self.agreed_plies, "session.rule_retrace_one", "session.rule_retrace", lang,
                                plies=self.agreed_plies,
                            position=self._after(self.agreed_plies, lang)))
            for which in self.fix_boards:
                changes = "; ".join(c.describe(lang) for c in self.changes.get(which, []))
                parts.append(tr("session.rule_fix_board", lang, board=_cap(self._board_name(which, lang)),
                                changes=changes))
        if self.clocks is not None and self.kind == "retrace":
            parts.append(tr("session.rule_clocks", lang, white=format_time(self.clocks.white),
                            black=format_time(self.clocks.black)))
        return " ".join(p for p in parts if p)

    def _explain_disagreement(self, lang: str | None) -> str:
        dg = self.disagreement
        if dg is None:
            return ""
        ref = move_ref(self.start, dg.index, lang)
        bits = []
        for which, written, problem in (("a", dg.written_a, dg.problem_a), ("b", dg.written_b, dg.problem_b)):
            name = self._score_name(which, lang)
            if written is None:
                bits.append(tr("session.score_missing", lang, score=name))
            elif problem:
                bits.append(tr(f"session.score_{problem}", lang, score=name, written=written))
            else:
                bits.append(tr("session.score_has", lang, score=name, written=written))
        return tr("session.rule_sheets_differ", lang, ref=ref, details="; ".join(bits))


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _write(board: chess.Board, move: chess.Move, lang: str | None) -> str:
    """``move`` as written in ``lang`` (English SAN for a language without its own letters)."""
    return write(board, move, lang if lang in NOTATION_LANGS else "en")


def rule(score_a: ScoreInput, score_b: ScoreInput, board_a: object, board_b: object, *,
         start: chess.Board | None = None, clock_history: ClockHistory = None,
         lang: str = "de", occupancy_only: Iterable[str] = (), labels: tuple[str, str] = ("a", "b")) -> Proposal:
    """The D.2.9 ruling; see the module docstring. Raises ValueError for an unreadable board."""
    start = start.copy(stack=False) if start is not None else chess.Board()
    occ_only = set(occupancy_only)
    ba, bb = parse_board(board_a), parse_board(board_b)
    ra = reading_of(score_a, start, lang)
    # Score b's entries that say what score a says are taken over, not read again.
    rb = reading_of(score_b, start, lang, reference=ra)

    n = min(ra.plies, rb.plies)
    k = 0
    ma, mb = ra.moves, rb.moves
    while k < n and ma[k] == mb[k]:
        k += 1

    disagreement = None
    if k < n:
        disagreement = _disagreement(start, k, ra, rb)
    else:
        first = [p for p in (ra.problem, rb.problem) if p is not None]
        if first:
            disagreement = _disagreement(start, min(p.index for p in first), ra, rb)
    sheets_agree = disagreement is None
    shorter, missing = None, 0
    if sheets_agree and ra.plies != rb.plies:
        shorter = "a" if ra.plies < rb.plies else "b"
        missing = abs(ra.plies - rb.plies)

    # Boards compared with each other.
    occ_between = bool(occ_only) or isinstance(ba, int) or isinstance(bb, int)
    if isinstance(ba, int) or isinstance(bb, int) or occ_between:
        oa = ba if isinstance(ba, int) else ba.occupied
        ob = bb if isinstance(bb, int) else bb.occupied
        between = list(chess.scan_forward(oa ^ ob))
    else:
        between = diff_squares(ba, bb)
    boards_agree = not between

    if sheets_agree:
        longer = ra if ra.plies >= rb.plies else rb
        moves = list(longer.moves)
        kind = "correct-board"
        position = longer.board(stack=False)
    else:
        moves = list(ma[:k])
        kind = "retrace"
        position = ra.board(k, stack=False)

    fix: list[str] = []
    squares: dict[str, list[str]] = {}
    changes: dict[str, list[SquareChange]] = {}
    if boards_agree:
        kind = "none"
    else:
        for which, b in (("a", ba), ("b", bb)):
            ch = _changes(b, position, which in occ_only)
            if ch:
                fix.append(which)
                squares[which] = [c.square for c in ch]
                changes[which] = ch
        if not fix:  # boards differ only in what occupancy cannot tell apart
            kind = "none"

    scores_behind = kind == "correct-board" and fix == ["a", "b"] and _one_move_ahead(position, (ba, bb), occ_only)
    if boards_agree and sheets_agree:
        # Neither score has the last move yet: the boards agree and show the scores'
        # position plus one legal move. Nothing is undone — complete the scores.
        ahead = _moves_ahead(position, (ba, bb), occ_only)
        if ahead:
            scores_behind = True
            if len(ahead) == 1:  # the boards' position is the one that stands
                moves = moves + ahead
                position = position.copy(stack=False)
                position.push(ahead[0])

    if kind == "none" and sheets_agree and not scores_behind:
        # Boards that agree where one of them senses occupancy only can still differ in a piece
        # (a wrong promotion piece): every board that shows its pieces is judged against the scores.
        for which, b in (("a", ba), ("b", bb)):
            if isinstance(b, int) or which in occ_only:
                continue
            ch = _changes(b, position, False)
            if ch:
                fix.append(which)
                squares[which] = [c.square for c in ch]
                changes[which] = ch
                between = sorted(set(between) | {chess.parse_square(c.square) for c in ch})
        if fix:
            kind, boards_agree = "correct-board", False

    rows = _clock_rows(clock_history)
    clocks = _clock_at(rows, k if kind == "retrace" else None, kind == "retrace")
    return Proposal(boards_agree, sheets_agree, k if not sheets_agree else min(ra.plies, rb.plies), kind, position,
                  moves, fix, squares, changes, clocks, shorter, missing, disagreement, start, ra.plies, rb.plies,
                  (labels[0], labels[1]), lang, [chess.square_name(s) for s in between], scores_behind)


def _moves_ahead(position: chess.Board, boards: Sequence[chess.BaseBoard | int], occ_only: set[str]) -> list[chess.Move]:
    """The legal moves from ``position`` after which every board shows what it shows (boards that agree)."""
    full = [b for which, b in zip(("a", "b"), boards) if not isinstance(b, int) and which not in occ_only]
    occ = [b if isinstance(b, int) else b.occupied for b in boards]
    if full:  # one move changes the placement on 1-4 squares (a capture 2, castling up to 4)
        changed = len(diff_squares(full[0], position))
        if not 1 <= changed <= 4:
            return []
    elif chess.popcount(occ[0] ^ position.occupied) > 4:
        return []
    board = position.copy(stack=False)
    out = []
    for move in board.legal_moves:
        board.push(move)
        key = placement_key(board)
        if all(placement_key(b) == key for b in full) and all(o == board.occupied for o in occ):
            out.append(move)
        board.pop()
    return out


def _one_move_ahead(position: chess.Board, boards: Sequence[chess.BaseBoard | int], occ_only: set[str]) -> bool:
    """Whether a board shows ``position`` plus one legal move (the scores lag a move behind)."""
    targets: list[tuple[str, int | tuple[int, ...]]] = []  # ("occ", occupancy) or ("full", placement key)
    for which, b in zip(("a", "b"), boards):
        if isinstance(b, int) or which in occ_only:
            targets.append(("occ", b if isinstance(b, int) else b.occupied))
        else:
            targets.append(("full", placement_key(b)))
    board = position.copy(stack=False)
    for move in board.legal_moves:
        board.push(move)
        key = placement_key(board)
        hit = any(k == key if mode == "full" else k == board.occupied for mode, k in targets)
        board.pop()
        if hit:
            return True
    return False


def _disagreement(start: chess.Board, k: int, ra: ScoreReading, rb: ScoreReading) -> Disagreement:
    number, white = _move_number(start, k)

    def side(r: ScoreReading) -> tuple[str | None, str | None, str]:
        written = r.written[k] if k < len(r.written) else None
        if r.problem is not None and r.problem.index == k:
            return written, r.problem.problem, r.problem.message
        return written, None, ""

    wa, pa, xa = side(ra)
    wb, pb, xb = side(rb)
    return Disagreement(k, number, white, wa, wb, pa, pb, xa, xb)
