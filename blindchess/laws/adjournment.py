"""Adjourned games (FIDE Laws, Guidelines I): the sealed move checked, the envelope (pure).

* **The sealed move (point 1, point 8).** :func:`check_sealed_move` reads it as the
  arbiter would: written in any notation (:func:`blindchess.language.notation.read`) or said
  (:func:`blindchess.language.phonetic.understand`); a move that is ambiguous, unreadable or
  illegal is reported as losing under point 8 a–c (:class:`SealCheck`).
  :func:`game_already_over` names the exceptions of point 8 (the game had ended otherwise).
* **The envelope (point 2)** — :class:`Envelope`, fields (a)–(g) as data, as text
  (:meth:`Envelope.text`) and as a PDF (:mod:`blindchess.adapters.exports.envelope_pdf`). It never
  shows the sealed move; its SHA-256 :func:`commitment` binds the move as written without
  telling it. :func:`envelope_from_events` finds the last envelope in journal lines.

The procedure itself — the arbiter adjourns, the sealer seals, the envelope is kept
beside the journal and opened at resumption — is the rules engine's
(:mod:`blindchess.game.adjournment`) and the table's (:mod:`blindchess.table.adjournment`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import chess

from ..base import tr
from ..language import announce, piece_letter, read, understand

#: A journal line as data (its JSON object): what the session writes and gives back for the
#: sealed move and the opening of the envelope.
Entry = dict[str, Any]

Problem = Literal["ambiguous", "unreadable", "illegal"]
#: Point 8 of Guidelines I: which letter covers which problem.
POINT_8 = {"ambiguous": "a", "unreadable": "b", "illegal": "c"}


def _shown_name(name: str, lang: str) -> str:
    """A player's name as printed; a missing one is said to be missing, never left blank."""
    return name.strip() if name and name.strip() else tr("tournament.env_name_not_given", lang)


def _color_name(color: chess.Color, lang: str) -> str:
    return tr("tournament.white" if color else "tournament.black", lang)


def _hms(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    whole = int(max(0.0, seconds) + 1e-9)
    h, rest = divmod(whole, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}"


# -- checking a sealed move -------------------------------------------------------

@dataclass(frozen=True)
class SealCheck:
    """What a sealed move means in the position before it (point 8)."""

    written: str
    lang: str
    spoken: bool
    move: chess.Move | None
    problem: Problem | None
    candidates: tuple[chess.Move, ...] = ()
    draw_offer: bool = False
    explanation: str = ""  # the reader's own explanation, already localized

    @property
    def ok(self) -> bool:
        return self.problem is None and self.move is not None

    @property
    def point(self) -> str | None:
        """"8 a", "8 b" or "8 c" — the point under which this sealed move loses."""
        return None if self.problem is None else f"8 {POINT_8[self.problem]}"

    def message(self, lang: str | None = None, *, at_resumption: bool = False) -> str:
        """Localized: the move is fine, or why it would lose (at sealing) / loses (at resumption)."""
        lang = lang or self.lang
        if self.ok:
            return tr("tournament.seal_ok", lang, written=self.written)
        key = "seal_loses" if at_resumption else "seal_would_lose"
        text = tr(f"tournament.{key}_{self.problem}", lang, written=self.written)
        return f"{text} {self.explanation}".strip()


def check_sealed_move(board: chess.Board, text: str, lang: str = "de", *, spoken: bool = False) -> SealCheck:
    """Read a sealed move in ``board`` (the position before it) as the arbiter would.

    Typed text goes through :func:`blindchess.language.notation.read` (any of the six
    notations; corrections only where the meaning is certain); spoken text through
    :func:`blindchess.language.phonetic.understand`, where several fitting moves make it
    ambiguous and none unreadable.
    """
    text = text if isinstance(text, str) else str(text)
    if spoken:
        u = understand(board, text, lang)
        if u.kind == "move" and u.move is not None:
            return SealCheck(text, lang, True, u.move, None, (u.move,))
        if u.kind != "move" or not u.candidates:
            return SealCheck(text, lang, True, None, "unreadable", explanation=u.message or "")
        # Candidates are the moves that fit or, when none fits, the nearest ones. A
        # candidate fits when its full announcement contains every word said
        # ("Springer David zwei" -> "Springer Bella David zwei"): then it is ambiguous.
        said = _words(text)
        fitting = tuple(m for m in u.candidates if said <= _words(announce(board, m, lang)))
        problem: Problem = "ambiguous" if len(fitting) > 1 else "illegal"
        return SealCheck(text, lang, True, None, problem, fitting if problem == "ambiguous" else (),
                         explanation=u.message or "")
    reading = read(board, text, lang)
    explanation = "" if reading.ok else reading.message(lang)
    return SealCheck(text, lang, False, reading.move if reading.ok else None, cast("Problem | None", reading.problem),
                     tuple(reading.candidates), reading.draw_offer, explanation)


def _words(text: str) -> set[str]:
    return {w.casefold() for w in re.findall(r"[^\W_]+", text)}


def game_already_over(board: chess.Board, *, responder_flag_fallen: bool = False) -> str | None:
    """Why the game ended before the sealed move counts (exceptions of point 8), if it did.

    Checkmate, stalemate, dead position (approximated by insufficient material),
    fivefold repetition or 75 moves (Art. 9.6), or the responder's flag (Art. 6.9).
    """
    if responder_flag_fallen:
        return "flag"
    outcome = board.outcome(claim_draw=False)
    return None if outcome is None else outcome.termination.name.lower()


# -- the envelope -----------------------------------------------------------------

@dataclass(frozen=True)
class Resumption:
    """(g): date, time and venue of resumption, as the arbiter writes them."""

    date: str = ""
    time: str = ""
    venue: str = ""

    def __bool__(self) -> bool:
        return bool(self.date and self.time and self.venue)


@dataclass(frozen=True)
class Envelope:
    """The envelope of Guidelines I point 2, fields (a)–(g); never the sealed move itself."""

    white: str                       # (a)
    black: str                       # (a)
    position: str                    # (b) FEN of the position immediately before the sealed move
    white_used: float                # (c) time used, seconds
    black_used: float                # (c)
    sealer: chess.Color              # (d)
    move_number: int                 # (e) number of the sealed move
    draw_offer: chess.Color | None = None   # (f) who offered a draw that is still current
    resumption: Resumption = field(default_factory=Resumption)  # (g)
    white_remaining: float | None = None    # point 1: remaining time recorded
    black_remaining: float | None = None
    event: str = ""
    round: str = ""
    commitment: str = ""             # SHA-256 over position, sealed move and nonce (see module doc)

    @property
    def sealer_name(self) -> str:
        return self.white if self.sealer == chess.WHITE else self.black

    @property
    def responder(self) -> chess.Color:
        return not self.sealer

    def board(self) -> chess.Board:
        """The position before the sealed move."""
        return board_from_fen(self.position)

    def missing(self) -> list[str]:
        """Fields (a)–(g) the arbiter still has to fill in before he keeps it (point 3)."""
        out = []
        if not (self.white and self.black):
            out.append("a")
        if not self.resumption:
            out.append("g")
        return out

    def fields(self, lang: str = "de") -> list[tuple[str, str]]:
        """(label, value) pairs in order, localized — the printable content."""
        board = self.board()
        rows = []
        if self.event or self.round:
            rows.append((tr("tournament.env_event", lang), " – ".join(x for x in (self.event, self.round) if x)))
        rows += [
            (tr("tournament.env_a", lang), tr("tournament.env_players", lang, white=_shown_name(self.white, lang),
                                               black=_shown_name(self.black, lang))),
            (tr("tournament.env_b", lang), piece_list(board, lang)),
            (tr("tournament.env_fen", lang), self.position),
            (tr("tournament.env_c", lang), tr("tournament.env_times", lang, white=_hms(self.white_used),
                                               black=_hms(self.black_used))),
            (tr("tournament.env_d", lang), f"{_shown_name(self.sealer_name, lang)} ({_color_name(self.sealer, lang)})"),
            (tr("tournament.env_e", lang), tr("tournament.env_move_number", lang, number=self.move_number,
                                               color=_color_name(self.sealer, lang))),
            (tr("tournament.env_f", lang), tr("tournament.env_no_draw", lang) if self.draw_offer is None
             else tr("tournament.env_draw", lang, color=_color_name(self.draw_offer, lang))),
            (tr("tournament.env_g", lang), tr("tournament.env_resume", lang, date=self.resumption.date or "–",
                                               time=self.resumption.time or "–", venue=self.resumption.venue or "–")),
        ]
        return rows

    def text(self, lang: str = "de") -> str:
        """The envelope as plain text, with a diagram of the position."""
        lines = [tr("tournament.env_title", lang), ""]
        lines += [f"{label}: {value}" for label, value in self.fields(lang)]
        lines += ["", diagram(self.board()), "", tr("tournament.env_sealed_inside", lang)]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["sealer"] = "white" if self.sealer else "black"
        data["draw_offer"] = None if self.draw_offer is None else ("white" if self.draw_offer else "black")
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Envelope:
        data = dict(data)
        data["sealer"] = data["sealer"] == "white"
        offer = data.get("draw_offer")
        data["draw_offer"] = None if offer is None else offer == "white"
        data["resumption"] = Resumption(**data.get("resumption") or {})
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


def board_from_fen(fen: str) -> chess.Board:
    """A board for ``fen``, in Chess960 mode when its castling rights need it.

    Raises ``ValueError`` for text that is no FEN and for a position that
    cannot arise in a game (a king missing, pawns on the first rank, the side
    not to move in check ...): no sealed move can be judged there.
    """
    board = chess.Board(fen, chess960=True)
    if not board.has_chess960_castling_rights():
        board.chess960 = False
    status = board.status() & ~chess.STATUS_BAD_CASTLING_RIGHTS
    if status:
        raise ValueError(f"not a legal position: {chess.Status(status)!r}")
    return board


def piece_list(board: chess.Board, lang: str = "de") -> str:
    """"Weiß: Kg1, Tf1, Bf2, g2, h3; Schwarz: …" — with the language's piece letters."""

    parts = []
    for color in (chess.WHITE, chess.BLACK):
        squares = []
        for piece_type in (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN):
            for square in board.pieces(piece_type, color):
                letter = "" if piece_type == chess.PAWN else piece_letter(piece_type, lang)
                squares.append(letter + chess.square_name(square))
        parts.append(f"{_color_name(color, lang)}: {', '.join(squares)}")
    return "; ".join(parts)


def diagram(board: chess.Board, orientation: chess.Color = chess.WHITE) -> str:
    """A plain-text diagram with coordinates (upper case White, lower case Black)."""
    ranks = range(7, -1, -1) if orientation == chess.WHITE else range(8)
    files = list(range(8)) if orientation == chess.WHITE else list(range(7, -1, -1))
    lines = []
    for rank in ranks:
        row = []
        for file in files:
            piece = board.piece_at(chess.square(file, rank))
            row.append(piece.symbol() if piece else ("." if (file + rank) % 2 else ":"))
        lines.append(f"{rank + 1}  {' '.join(row)}")
    lines.append("   " + " ".join(chess.FILE_NAMES[f] for f in files))
    return "\n".join(lines)


# -- the hidden sealed move in the journal ------------------------------------------

def commitment(position: str, written: str, nonce: str) -> str:
    """SHA-256 over the position, the written sealed move and a nonce."""
    return hashlib.sha256(json.dumps([position, written, nonce]).encode("utf-8")).hexdigest()


def _is_sealed_event(ev: Entry) -> bool:
    return ev.get("type") in ("sealed-move", "adjourned") or (
        ev.get("type") == "note" and ev.get("text") == "adjourned")


def envelope_from_events(events: list[Entry]) -> Envelope | None:
    """The envelope (fields a–g) of the last adjournment in journal lines, or None. The move as
    written is not in the journal (the envelope file beside it keeps it), so it is never read here."""
    for ev in reversed(events):
        public = ev.get("public")
        if _is_sealed_event(ev) and isinstance(public, dict):
            return Envelope.from_dict(public)
    return None
