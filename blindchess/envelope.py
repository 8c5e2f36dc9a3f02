"""Adjourned games (FIDE Laws, Guidelines I): the sealed move, the envelope, resumption.

The arbiter's paper procedure of an adjournment is a small state machine, :class:`EnvelopeProcedure`, with one method per
step of the procedure. Every step checks that it is allowed now, records a
:class:`Note` (a message key citing the point of Guidelines I, localized with
:meth:`Note.message`) and moves to the next :class:`Phase`::

    SEALING --stop_clock--> SEALED --set_up--> SET_UP --open--------------> RESUMED
       |  seal() any number      |  offer_draw/answer_draw (4)  |--responder_absent--> WAITING
       |  of times (1)           |  agree_draw / resign (6)      |   (9 b, 11)   --responder_arrives--> SET_UP
       |                         |  envelope_lost (12)           |--correct_clock (13)
       +-------------------------+--> ENDED (6, 8, 10)   ANNULLED (12)

* **Sealing (point 1).** The sealer writes his move in any notation
  (:func:`blindchess.notation.read`) or says it (:func:`blindchess.phonetic.understand`);
  it is validated at once (:func:`check_sealed_move`) and a move that is ambiguous,
  unreadable or illegal is reported as losing under point 8 — he may change it
  until he stops his clock. His clock runs while he seals. A move made on the
  board after being told to seal must be the sealed move (:meth:`EnvelopeProcedure.moved_on_board`).
  Adjourning before the end of the session charges him the time up to its end.
* **The envelope (point 2)** — :class:`Envelope`, fields (a)–(g) as data, as text
  (:meth:`Envelope.text`, de/en) and as a PDF (:mod:`blindchess.records.envelope_pdf`).
  It never shows the sealed move: that is on the scoresheet inside.
* **Resumption.** :meth:`~EnvelopeProcedure.set_up` gives the position before the sealed
  move and the clock times (point 5); :meth:`~EnvelopeProcedure.open` opens the envelope
  only with the responder present (7), checks the sealed move again (8: the sealer
  loses, unless the game had already ended otherwise), makes it and starts the
  responder's clock (9 a); :meth:`~EnvelopeProcedure.responder_absent` starts his clock
  without opening (9 b, and 11 when nobody is there);
  :meth:`~EnvelopeProcedure.reply_in_new_envelope` lets the responder seal his reply when
  the sealer is absent (9 c); a late arrival loses (10);
  :meth:`~EnvelopeProcedure.envelope_lost` (12), :meth:`~EnvelopeProcedure.correct_clock` (13).

Keeping the move hidden in the journal
--------------------------------------
:meth:`EnvelopeProcedure.record` returns a :class:`SealedRecord`. Its ``public`` part
(the envelope, with a SHA-256 *commitment* to the move) may be shown anywhere;
its ``hidden`` part (the written move, its language, a random nonce) must not be
shown on the responder's side before the envelope is opened.

At the table (the app's way) the procedure is the rules engine's
(:mod:`blindchess.game.adjournment`) and the table's (:mod:`blindchess.table.adjournment`):
the arbiter adjourns, the sealer's move is checked with :func:`check_sealed_move`, the
envelope (:class:`Envelope`) is journaled with a SHA-256 *commitment* (:func:`commitment`)
while the move as written stays in the envelope file beside the journal, and the opening
makes the move. :class:`EnvelopeProcedure` is the arbiter's paper procedure around it
(points 4, 6, 9 b–c, 10–13: draws and resignations while adjourned, an absent player, a
lost envelope, clock corrections); :func:`begin_from_session` starts it from a running
game and :func:`set_session_clocks` sets the game's clocks from it (point 5).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import secrets
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, cast

import chess

from .i18n import tr
from .plural import is_one

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

    Typed text goes through :func:`blindchess.notation.read` (any of the six
    notations; corrections only where the meaning is certain); spoken text through
    :func:`blindchess.phonetic.understand`, where several fitting moves make it
    ambiguous and none unreadable.
    """
    text = text if isinstance(text, str) else str(text)
    if spoken:
        from .phonetic import announce, understand  # lazily: the phonetic engineer's pure module

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
    from .notation import read  # lazily: the notation engineer's pure module

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
    from .notation import piece_letter  # lazily

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


@dataclass(frozen=True)
class SealedRecord:
    """An adjournment as the journal stores it: a public envelope and a hidden move."""

    envelope: Envelope
    written: str
    lang: str
    spoken: bool
    nonce: str

    def public(self) -> dict[str, Any]:
        """What any side of the app may show: the envelope and the commitment."""
        return self.envelope.to_dict()

    def hidden(self) -> dict[str, Any]:
        """What only the opening of the envelope may reveal."""
        return {"written": self.written, "lang": self.lang, "spoken": self.spoken, "nonce": self.nonce}

    def to_journal(self) -> dict[str, Any]:
        return {"type": "adjourned", "public": self.public(), "hidden": self.hidden()}

    @classmethod
    def from_journal(cls, data: dict[str, Any]) -> SealedRecord:
        hidden = data["hidden"]
        return cls(Envelope.from_dict(data["public"]), hidden["written"], hidden.get("lang", "de"),
                   bool(hidden.get("spoken")), hidden["nonce"])

    def verify(self) -> bool:
        """Whether the hidden move is the one sealed (the commitment still matches)."""
        return commitment(self.envelope.position, self.written, self.nonce) == self.envelope.commitment


# -- the state machine ------------------------------------------------------------

class Phase(StrEnum):
    SEALING = "sealing"     # point 1: the sealer writes his move; his clock runs
    SEALED = "sealed"       # points 1-4: clock stopped, envelope closed, kept by the arbiter
    SET_UP = "set_up"       # point 5: position and clocks set for resumption
    WAITING = "waiting"     # point 9 b / 11: responder absent, his clock running
    RESUMED = "resumed"     # point 9 a: sealed move made, responder's clock running
    ENDED = "ended"         # points 6, 8, 10: the game has a result
    ANNULLED = "annulled"   # point 12: position lost, game to be replayed


class AdjournmentError(ValueError):
    """A step that is not allowed in the current phase; ``note`` says why (localized)."""

    def __init__(self, note: Note) -> None:
        super().__init__(note.key)
        self.note = note

    def message(self, lang: str = "de") -> str:
        return self.note.message(lang)


@dataclass(frozen=True)
class Note:
    """One step of the procedure as a message key (``tournament.<key>``) with parameters."""

    key: str
    params: dict[str, Any] = field(default_factory=dict)

    def message(self, lang: str = "de") -> str:
        params = {k: (_color_name(v, lang) if isinstance(v, bool) else v) for k, v in self.params.items()}
        if "reason" in params:
            params["reason"] = tr(f"tournament.reason_{params['reason']}", lang)
        key = self.key
        minutes = params.get("minutes")
        if key in _COUNTED and minutes is not None and is_one(minutes):
            key += "_one"           # "1 Minute", not "1 Minuten"
        return tr(f"tournament.{key}", lang, **params)


RESULT = {chess.WHITE: "1-0", chess.BLACK: "0-1"}
_COUNTED = frozenset({"adj_early", "adj_late"})   # notes whose {minutes} needs a singular form


@dataclass
class EnvelopeProcedure:
    """One adjournment from the request to seal until the game goes on (or ends).

    Create it with :meth:`begin`; see the module docstring for the steps.
    ``white_used``/``black_used`` are the times used so far (field c), kept up to
    date by the steps that run a clock.
    """

    board: chess.Board
    white: str
    black: str
    white_used: float
    black_used: float
    sealer: chess.Color = chess.WHITE
    white_remaining: float | None = None
    black_remaining: float | None = None
    lang: str = "de"
    event: str = ""
    round: str = ""
    phase: Phase = Phase.SEALING
    draw_offer: chess.Color | None = None
    resumption: Resumption = field(default_factory=Resumption)
    sealed: SealCheck | None = None
    forced_move: chess.Move | None = None
    result: str | None = None
    notes: list[Note] = field(default_factory=list)
    clock_running: chess.Color | None = None
    clock_since: float = 0.0
    first_move_made: bool = False
    nonce: str = field(default_factory=lambda: secrets.token_hex(16))
    envelope: Envelope | None = None
    for_absent_opponent: bool = False  # 9 c: a reply sealed while the first sealer is absent

    # -- helpers ----------------------------------------------------------------
    @property
    def responder(self) -> chess.Color:
        return not self.sealer

    def _note(self, key: str, **params: Any) -> Note:
        note = Note(key, params)
        self.notes.append(note)
        return note

    def _require(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise AdjournmentError(Note("adj_not_now", {"phase": self.phase.value}))

    def _run_clock(self, color: chess.Color, now: float) -> None:
        self._stop_clock(now)
        self.clock_running, self.clock_since = color, now

    def _stop_clock(self, now: float) -> None:
        if self.clock_running is None:
            return
        spent = max(0.0, now - self.clock_since)
        self._charge(self.clock_running, spent)
        self.clock_running = None

    def _charge(self, color: chess.Color, seconds: float) -> None:
        if color == chess.WHITE:
            self.white_used += seconds
            if self.white_remaining is not None:
                self.white_remaining -= seconds
        else:
            self.black_used += seconds
            if self.black_remaining is not None:
                self.black_remaining -= seconds

    def used(self, color: chess.Color, now: float | None = None) -> float:
        """Time used by ``color``, including a running clock when ``now`` is given."""
        base = self.white_used if color == chess.WHITE else self.black_used
        if now is not None and self.clock_running == color:
            base += max(0.0, now - self.clock_since)
        return base

    def messages(self, lang: str | None = None) -> list[str]:
        """Every step so far, localized."""
        return [n.message(lang or self.lang) for n in self.notes]

    # -- point 1: sealing ---------------------------------------------------------
    @classmethod
    def begin(cls, board: chess.Board, *, white: str, black: str, white_used: float, black_used: float,
              now: float, white_remaining: float | None = None, black_remaining: float | None = None,
              draw_offer: chess.Color | None = None, lang: str = "de", event: str = "", round: str = "",
              nonce: str | None = None) -> EnvelopeProcedure:
        """The arbiter asks the player to move to seal (point 1); his clock keeps running."""
        adj = cls(board=board.copy(), white=white, black=black, white_used=float(white_used),
                  black_used=float(black_used), sealer=board.turn, white_remaining=white_remaining,
                  black_remaining=black_remaining, lang=lang, event=event, round=round,
                  draw_offer=draw_offer)
        if nonce is not None:
            adj.nonce = nonce
        adj.clock_running, adj.clock_since = adj.sealer, now
        adj._note("adj_seal_asked", player=adj.sealer)
        return adj

    def seal(self, text: str, *, lang: str | None = None, spoken: bool = False) -> SealCheck:
        """Write (or say) the sealed move; allowed until the clock is stopped (point 1).

        Returns the check, which warns at once when the move would lose under point 8.
        The last call before :meth:`stop_clock` counts.
        """
        if self.phase != Phase.SEALING:
            raise AdjournmentError(Note("adj_seal_closed"))
        check = check_sealed_move(self.board, text, lang or self.lang, spoken=spoken)
        if self.forced_move is not None and check.move != self.forced_move:
            raise AdjournmentError(Note("adj_seal_must_be_board_move",
                                        {"move": self.board.san(self.forced_move)}))
        self.sealed = check
        self._note("adj_sealed_ok" if check.ok else f"adj_sealed_{check.problem}", written=check.written)
        if check.draw_offer:
            self.draw_offer = self.sealer
        return check

    def moved_on_board(self, move: chess.Move) -> SealCheck:
        """The player made a move on the board after being told to seal: he must seal it (point 1)."""
        if self.phase != Phase.SEALING:
            raise AdjournmentError(Note("adj_seal_closed"))
        from .notation import write  # lazily

        self.forced_move = None
        check = self.seal(write(self.board, move, self.lang))
        self.forced_move = move
        self._note("adj_board_move_sealed", move=check.written)
        return check

    def stop_clock(self, now: float, *, session_end: float | None = None) -> Envelope:
        """The sealer puts both scoresheets in the envelope, seals it and stops his clock (point 1).

        ``session_end``: when he adjourns before the end of the session, his clock
        is charged up to the end of the session (he is treated as sealing then).
        """
        self._require(Phase.SEALING)
        if self.sealed is None:
            raise AdjournmentError(Note("adj_nothing_sealed"))
        self._stop_clock(now)
        if session_end is not None and session_end > now:
            self._charge(self.sealer, session_end - now)
            self._note("adj_early", player=self.sealer, minutes=round((session_end - now) / 60))
        self.phase = Phase.SEALED
        self.envelope = self._make_envelope()
        self._note("adj_clock_stopped", player=self.sealer, number=self.board.fullmove_number)
        if self.for_absent_opponent:  # 9 c: the absent player's clock is started at once
            self.phase = Phase.WAITING
            self.clock_running, self.clock_since = self.responder, now
            self._note("adj_reply_clock_started", player=self.responder)
        return self.envelope

    def _make_envelope(self) -> Envelope:
        assert self.sealed is not None
        fen = self.board.fen()
        return Envelope(white=self.white, black=self.black, position=fen, white_used=self.white_used,
                        black_used=self.black_used, sealer=self.sealer, move_number=self.board.fullmove_number,
                        draw_offer=self.draw_offer, resumption=self.resumption,
                        white_remaining=self.white_remaining, black_remaining=self.black_remaining,
                        event=self.event, round=self.round,
                        commitment=commitment(fen, self.sealed.written, self.nonce))

    @classmethod
    def restore(cls, record: SealedRecord, board: chess.Board | None = None, *,
                lang: str | None = None) -> EnvelopeProcedure:
        """The adjournment as it stands after sealing, rebuilt from a journal record.

        ``board`` may carry the game's move history (for repetitions); it must show
        the envelope's position. The hidden move is not checked or shown here.
        """
        env = record.envelope
        start = board.copy() if board is not None else env.board()
        if start.fen() != env.position:
            raise AdjournmentError(Note("adj_record_tampered"))
        adj = cls(board=start, white=env.white, black=env.black, white_used=env.white_used,
                  black_used=env.black_used, sealer=env.sealer, white_remaining=env.white_remaining,
                  black_remaining=env.black_remaining, lang=lang or record.lang, event=env.event,
                  round=env.round, phase=Phase.SEALED, draw_offer=env.draw_offer,
                  resumption=env.resumption, nonce=record.nonce, envelope=env)
        adj.sealed = SealCheck(record.written, record.lang, record.spoken, None, None)
        return adj

    def record(self) -> SealedRecord:
        """The journal record: public envelope, hidden move (see the module docstring)."""
        if self.envelope is None or self.sealed is None:
            raise AdjournmentError(Note("adj_nothing_sealed"))
        return SealedRecord(self.envelope, self.sealed.written, self.sealed.lang, self.sealed.spoken, self.nonce)

    # -- points 2-4, 6: between the sessions ---------------------------------------
    def set_resumption(self, date: str, time: str, venue: str) -> None:
        """(g) date, time and venue of resumption."""
        self._require(Phase.SEALING, Phase.SEALED)
        self.resumption = Resumption(date, time, venue)
        if self.envelope is not None:
            self.envelope = dataclasses.replace(self.envelope, resumption=self.resumption)
        self._note("adj_resumption_set", date=date, time=time, venue=venue)

    def arbiter_keeps(self) -> list[str]:
        """The arbiter checks the envelope and keeps it safe (point 3); the fields still missing."""
        self._require(Phase.SEALED)
        assert self.envelope is not None
        missing = self.envelope.missing()
        if missing:
            self._note("adj_envelope_incomplete", fields=", ".join(missing))
        else:
            self._note("adj_envelope_kept")
        return missing

    def offer_draw(self, by: chess.Color) -> None:
        """A draw offered after sealing stays valid until accepted or rejected (point 4)."""
        self._require(Phase.SEALED, Phase.SET_UP, Phase.WAITING)
        self.draw_offer = by
        self._note("adj_draw_offered", player=by)

    def answer_draw(self, by: chess.Color, accept: bool) -> None:
        """The other player accepts (the game ends, point 6) or rejects the current offer."""
        self._require(Phase.SEALED, Phase.SET_UP, Phase.WAITING)
        if self.draw_offer is None or self.draw_offer == by:
            raise AdjournmentError(Note("adj_no_draw_offer"))
        if accept:
            self._end("1/2-1/2", "adj_draw_agreed")
        else:
            self.draw_offer = None
            self._note("adj_draw_rejected", player=by)

    def resign(self, color: chess.Color) -> None:
        """A resignation notified to the arbiter before resumption ends the game (point 6)."""
        self._require(Phase.SEALED, Phase.SET_UP, Phase.WAITING)
        self._end(RESULT[not color], "adj_resigned", player=color)

    def _end(self, result: str, key: str, **params: Any) -> None:
        self.result = result
        self.phase = Phase.ENDED
        self.clock_running = None
        self._note(key, result=result, **params)

    # -- point 5, 13: setting up ------------------------------------------------------
    def set_up(self) -> tuple[chess.Board, dict[chess.Color, float]]:
        """The position before the sealed move and the times used at adjournment (point 5)."""
        self._require(Phase.SEALED)
        self.phase = Phase.SET_UP
        self._note("adj_set_up", white=_hms(self.white_used), black=_hms(self.black_used))
        return self.board.copy(), {chess.WHITE: self.white_used, chess.BLACK: self.black_used}

    def correct_clock(self, color: chess.Color, used: float, *, arbiter_finds_serious: bool = False) -> bool:
        """A wrongly set clock pointed out before the first move is corrected (point 13).

        After the first move at resumption it is corrected only when the arbiter
        finds the error too serious; returns whether the time was corrected.
        """
        self._require(Phase.SET_UP, Phase.WAITING, Phase.RESUMED)
        if self.first_move_made and not arbiter_finds_serious:
            self._note("adj_clock_not_corrected", player=color)
            return False
        diff = float(used) - self.used(color)
        if color == chess.WHITE:
            self.white_used = float(used)
            if self.white_remaining is not None:
                self.white_remaining -= diff
        else:
            self.black_used = float(used)
            if self.black_remaining is not None:
                self.black_remaining -= diff
        self._note("adj_clock_corrected", player=color, time=_hms(used))
        return True

    # -- points 7-11: resumption ---------------------------------------------------------
    def open(self, now: float, *, responder_present: bool = True, record: SealedRecord | None = None,
             responder_flag_fallen: bool = False) -> SealCheck:
        """Open the envelope, check the sealed move again and make it (points 7, 8, 9 a).

        Only with the responder present (7). A sealed move that is ambiguous,
        unreadable or illegal loses (8 a–c), unless the game had already ended
        otherwise. ``record`` (from the journal) is verified against the commitment.
        Otherwise the move is made and the responder's clock started.
        """
        self._require(Phase.SET_UP)
        if not responder_present:
            raise AdjournmentError(Note("adj_open_needs_responder", {"player": self.responder}))
        if record is not None:
            if not record.verify() or (self.envelope and record.envelope.commitment != self.envelope.commitment):
                raise AdjournmentError(Note("adj_record_tampered"))
            text, lang, spoken = record.written, record.lang, record.spoken
        elif self.sealed is not None:
            text, lang, spoken = self.sealed.written, self.sealed.lang, self.sealed.spoken
        else:
            raise AdjournmentError(Note("adj_nothing_sealed"))
        self._note("adj_opened", player=self.responder)
        return self._make_sealed_move(check_sealed_move(self.board, text, lang, spoken=spoken), now,
                                      responder_flag_fallen)

    def _make_sealed_move(self, check: SealCheck, now: float, responder_flag_fallen: bool) -> SealCheck:
        over = game_already_over(self.board, responder_flag_fallen=responder_flag_fallen)
        if over is not None:
            if over == "flag":
                self._end(RESULT[self.sealer], "adj_over_flag", player=self.responder)
            else:
                outcome = self.board.outcome(claim_draw=False)
                assert outcome is not None
                self._end(outcome.result(), "adj_over_before", reason=over)
            return check
        if not check.ok:
            self._end(RESULT[self.responder], f"adj_loses_{check.problem}", player=self.sealer,
                      written=check.written)
            return check
        assert check.move is not None
        from .notation import write  # lazily

        san = write(self.board, check.move, self.lang)
        self.board.push(check.move)
        self.first_move_made = True
        self.phase = Phase.RESUMED
        self._run_clock(self.responder, now)
        self._note("adj_move_made", move=san, player=self.responder)
        outcome = self.board.outcome(claim_draw=False)
        if outcome is not None:  # a sealed mate or stalemate ends the game at once
            self._end(outcome.result(), "adj_sealed_ends", reason=outcome.termination.name.lower())
        return check

    def responder_absent(self, now: float) -> None:
        """The responder is not there: his clock is started, the envelope stays closed (9 b).

        Also point 11: when nobody is present at the start, call this with ``now`` =
        the starting time — the responder loses the time until he arrives.
        """
        self._require(Phase.SET_UP)
        self.phase = Phase.WAITING
        self.clock_running, self.clock_since = self.responder, now
        self._note("adj_responder_absent", player=self.responder)

    def responder_arrives(self, now: float, *, default_time: float | None = None,
                          arbiter_excuses: bool = False) -> bool:
        """The responder arrives, stops his clock and summons the arbiter (9 b).

        Returns whether the game goes on: arriving after ``default_time`` (seconds
        after the start) loses (point 10), unless the arbiter decides otherwise —
        or the sealed move mates or stalemates (older texts of point 10: it stands).
        Afterwards :meth:`open` opens the envelope.
        """
        self._require(Phase.WAITING)
        waited = max(0.0, now - self.clock_since)
        self._stop_clock(now)
        self.phase = Phase.SET_UP
        if default_time is not None and waited > default_time and not arbiter_excuses:
            if self.sealed is not None:
                check = check_sealed_move(self.board, self.sealed.written, self.sealed.lang,
                                          spoken=self.sealed.spoken)
                if check.ok and check.move is not None:
                    after = self.board.copy()
                    after.push(check.move)
                    if after.is_checkmate() or after.is_stalemate():
                        self.board = after
                        outcome = after.outcome()
                        assert outcome is not None
                        self._end(outcome.result(), "adj_sealed_ends", reason=outcome.termination.name.lower())
                        return False
            self._end(RESULT[self.sealer], "adj_late", player=self.responder, minutes=round(waited / 60))
            return False
        self._note("adj_responder_arrived", player=self.responder, time=_hms(waited))
        return True

    def sealer_late(self, waited: float, *, default_time: float, arbiter_excuses: bool = False) -> bool:
        """The sealer arrives ``waited`` seconds after the start (point 10); returns whether play goes on."""
        self._require(Phase.SET_UP, Phase.RESUMED, Phase.WAITING)
        if waited > default_time and not arbiter_excuses:
            self._end(RESULT[self.responder], "adj_late", player=self.sealer, minutes=round(waited / 60))
            return False
        return True

    def reply_in_new_envelope(self, now: float) -> EnvelopeProcedure:
        """The sealer is absent: the responder may seal his reply instead of making it (9 c).

        Returns a new adjournment in the sealing phase with the responder as sealer;
        his clock, started at the opening, keeps running until he stops it — and
        then the absent player's clock is started (phase WAITING); the new envelope
        is opened on his arrival (:meth:`responder_arrives`, :meth:`open`).
        """
        self._require(Phase.RESUMED)
        self._stop_clock(now)
        self.phase = Phase.SEALED  # this envelope is done; the new one carries on
        self._note("adj_reply_sealed", player=self.responder)
        reply = EnvelopeProcedure.begin(self.board, white=self.white, black=self.black, white_used=self.white_used,
                                  black_used=self.black_used, now=now, white_remaining=self.white_remaining,
                                  black_remaining=self.black_remaining, draw_offer=self.draw_offer,
                                  lang=self.lang, event=self.event, round=self.round)
        reply.for_absent_opponent = True
        return reply

    def envelope_lost(self, stated: str | None, now: float, *, position_known: bool = True,
                      lang: str | None = None) -> SealCheck | None:
        """The envelope is lost (point 12).

        If the adjourned position and the recorded times can be re-established,
        play resumes from there and the sealer makes the move he states he sealed
        (checked as a sealed move); otherwise the game is annulled and replayed.
        """
        self._require(Phase.SEALED, Phase.SET_UP)
        if not position_known:
            self.phase = Phase.ANNULLED
            self.result = None
            self._note("adj_annulled")
            return None
        self.phase = Phase.SET_UP
        self._note("adj_envelope_lost", player=self.sealer)
        if not stated:
            raise AdjournmentError(Note("adj_nothing_sealed"))
        check = check_sealed_move(self.board, stated, lang or self.lang)
        return self._make_sealed_move(check, now, False)

    def next_steps(self, lang: str | None = None) -> list[str]:
        """What has to be done now, localized — for the arbiter, the players and an assistant (D.2.10 f)."""
        lang = lang or self.lang
        key = {Phase.SEALING: "todo_sealing", Phase.SEALED: "todo_sealed", Phase.SET_UP: "todo_set_up",
               Phase.WAITING: "todo_waiting", Phase.RESUMED: "todo_resumed", Phase.ENDED: "todo_ended",
               Phase.ANNULLED: "todo_annulled"}[self.phase]
        text = tr(f"tournament.{key}", lang, sealer=_color_name(self.sealer, lang),
                  responder=_color_name(self.responder, lang), result=self.result or "")
        return [line.strip() for line in text.split("|") if line.strip()]


# -- working with a running game -----------------------------------------------------
#
# The journal holds an adjournment as a ``sealed-move`` event with the public envelope;
# journals of earlier versions hold a ``note`` ``{"text": "adjourned", "public": …,
# "hidden": …}`` with the move, still read. :func:`public_view` drops ``hidden`` from
# such raw lines until a later ``envelope-opened`` reveals the move.

def begin_from_session(session: Any, now: float, *, event: str = "", round: str = "") -> EnvelopeProcedure:
    """Start the arbiter's procedure from a running game, a :class:`blindchess.game.Session` (point 1).

    Takes the game position (with its history), the players' names, the times
    used and remaining from the session clock, and a draw offer that is current.
    """
    board = session.game_board()
    clock = session.clock

    def remaining(color: chess.Color) -> float | None:
        value = clock.remaining(color, now)
        return None if value == float("inf") else value

    return EnvelopeProcedure.begin(board, white=session.white.name, black=session.black.name,
                             white_used=clock.used(chess.WHITE, now), black_used=clock.used(chess.BLACK, now),
                             white_remaining=remaining(chess.WHITE), black_remaining=remaining(chess.BLACK),
                             draw_offer=session.draw_offer, lang=session.lang, now=now,
                             event=event or session.headers.get("Event", ""),
                             round=round or session.headers.get("Round", ""))


def set_session_clocks(session: Any, adjournment: EnvelopeProcedure, now: float) -> None:
    """Point 5 (and 13): set the session clock to the remaining times recorded for resumption."""
    for color, remaining in ((chess.WHITE, adjournment.white_remaining), (chess.BLACK, adjournment.black_remaining)):
        if remaining is not None:
            session.set_remaining(color, remaining, now)


def _is_sealed_event(ev: Entry) -> bool:
    return ev.get("type") in ("sealed-move", "adjourned") or (
        ev.get("type") == "note" and ev.get("text") == "adjourned")


def _is_opening(ev: Entry) -> bool:
    return ev.get("type") == "envelope-opened" or (ev.get("type") == "note" and ev.get("text") == "envelope-opened")


def envelope_from_events(events: list[Entry]) -> Envelope | None:
    """The envelope (fields a–g) of the last adjournment in journal lines, or None. The move as
    written is not in the journal (the envelope file beside it keeps it), so it is never read here."""
    for ev in reversed(events):
        public = ev.get("public")
        if _is_sealed_event(ev) and isinstance(public, dict):
            return Envelope.from_dict(public)
    return None


def sealed_record_from_events(events: list[Entry]) -> SealedRecord | None:
    """The last adjournment in journal lines (or a session's events once its envelope is opened).

    A session's public events do not hold the sealed move before the opening:
    then this is None — the arbiter's side uses :func:`sealed_record_from_session`.
    """
    for ev in reversed(events):
        if _is_sealed_event(ev) and "public" in ev:
            return SealedRecord.from_journal(ev) if isinstance(ev.get("hidden"), dict) else None
    return None


def public_view(event: Entry, events: list[Entry] | None = None) -> Entry:
    """``event`` as a player may see it: the hidden sealed move removed until the envelope is opened."""
    if "hidden" not in event or _is_opening(event):
        return event
    if events is not None:
        after = events[events.index(event) + 1:] if event in events else []
        if any(_is_opening(e) for e in after):
            return event
    return {k: v for k, v in event.items() if k != "hidden"}

