"""The table: one game under FIDE Laws Appendix D as the people at the table live it (pure core).

:class:`Table` owns the :class:`~blindchess.session.Session` (the game, both
boards, both scores, the clock, the journal), the peg-board
:class:`~blindchess.pegboard.tracker.Tracker`, the
:class:`~blindchess.table.speech.SpeechPolicy` and the open question. Every
input takes ``now`` (seconds); the table never reads a clock, never sleeps,
imports no Qt, audio or serial code. What happens comes out as typed events
(:mod:`blindchess.table.events`) to :meth:`Table.subscribe`'s callbacks; the Qt
window, the command line and the scenario runner are front ends on it.

The rules the table keeps (the session keeps the rest):

* **Touches** (D.2.2): a peg lifted counts as a touch only when the blind
  player is to move, his board shows the game, and no mirror, board correction
  or ruling is under way: carrying out the opponent's move (also removing the
  captured peg, however long the pause) is no touch. A mirror finished less
  than the settle time before his next lift is settled first, so it is seen.
  A touch is spoken at once or not at all.
* **Hearing** (D.2.1): what the blind player says is decided by
  :class:`~blindchess.speech.dialogue.Dialogue`: a move heard with confidence
  below ``min_confidence``, or fitting several moves, is asked about; the
  answer is "ja"/"nein", a candidate's phrase, or keys 1…n (:meth:`answer`).
  Resignation and accepting a draw are asked about too before anything ends.
  An open question is noted in the journal, so it survives a crash.
* **Scores** (D.2.7, D.2.9): when a move is made, both scores get it as it was
  announced, in the session language's notation. Boards never write scores, so
  a wrong mirror leaves them agreeing and D.2.9's first case ("correct-board")
  applies. After a ruling the scores are completed to the game.
* **Time** (D.2.10 d): the talking clock's words only when asked; low-time
  warnings only for a player who chose them (``TableSetup.warnings``).
* **Devices**: a snapshot of the peg-board after a ruling and on resume, the
  position the tracker expects — :class:`~blindchess.table.events.DeviceRequest`.

Events produced while the table is built (:meth:`new`, :meth:`resume`) are
kept and given to the first subscriber.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import chess

from .. import notation, phonetic, talking_clock
from ..i18n import tr
from ..pegboard.protocol import Comment, Ident, ProtocolError, parse_line
from ..pegboard.tracker import DEFAULT_SETTLE, InputEvent, Lift, Tracker, TrackerEvent, occupancy, same_position
from ..session import Player, Session
from ..speech.dialogue import Decision, Dialogue
from .events import (
    Asked,
    ClockPressed,
    DeviceRequest,
    Diverged,
    Final,
    GameEnded,
    Heard,
    Mirrored,
    Moved,
    Refused,
    Ruled,
    Shown,
    TableEvent,
    Touched,
)
from .speech import SpeechPolicy

__all__ = ["TableSetup", "Question", "Table"]

Who = Literal["blind", "sighted"]
Answer = int | Literal["yes", "no"]
SessionEvent = dict[str, Any]

#: Note kinds the table writes into the journal (through ``Session.note``).
NOTE_SETUP = "table-setup"
NOTE_QUESTION = "table-question"
NOTE_QUESTION_CLOSED = "table-question-closed"


@dataclass(frozen=True)
class TableSetup:
    """How the table is set up (the new-game dialog, a scenario's header lines).

    ``blind``: "white" | "black" | "both" | "none" (who uses the tactile board).
    ``time_control``: "90+30", a PGN time control, or None (no clock).
    ``tactile``: "pegboard" (a peg-board sends protocol lines) | "none" (moves
    on the tactile board are entered with :meth:`Table.tactile_move`).
    ``settle``: the peg-board's settle time (None: the tracker's default).
    ``headers``: PGN headers (Event, Site, Date, Round).
    ``warnings``: low-time thresholds (seconds) the blind player chose to hear;
    empty = none (D.2.10 d). ``wpm``: the voice's rate (None: the voice file's).
    """

    white: str = "Weiß"
    black: str = "Schwarz"
    blind: str = "white"
    time_control: str | None = None
    start_fen: str | None = None
    chess960: int | None = None
    lang: str = "de"
    tactile: str = "pegboard"
    settle: float | None = None
    assistant: str | None = None
    headers: Mapping[str, str] | None = None
    auto_press: bool = False
    senses_pieces: bool = False
    min_confidence: float = 0.6
    warnings: tuple[float, ...] = ()
    wpm: float | None = None

    def __post_init__(self) -> None:
        if self.blind not in ("white", "black", "both", "none"):
            raise ValueError(f"blind must be white, black, both or none: {self.blind!r}")
        if self.tactile not in ("pegboard", "none"):
            raise ValueError(f"tactile must be pegboard or none: {self.tactile!r}")
        if self.settle is not None and self.settle < 0:
            raise ValueError(f"settle time must not be negative: {self.settle}")

    @property
    def settle_time(self) -> float:
        """The settle time in seconds."""
        return DEFAULT_SETTLE if self.settle is None else float(self.settle)

    def to_note(self) -> dict[str, Any]:
        """The parts the session does not keep, for the journal."""
        return {"tactile": self.tactile, "settle": self.settle_time, "min_confidence": self.min_confidence,
                "warnings": list(self.warnings), "wpm": self.wpm}


@dataclass(frozen=True)
class Question:
    """The table's open question.

    ``kind``: "move" (which move was announced, D.2.1), "resign", "draw-accept".
    ``to``: who answers. ``candidates``: UCI moves or ("yes", "no").
    ``phrases``: how each candidate is said. ``correction``: the move question
    is about a correction (D.2.8). ``color``: whose resignation or acceptance.
    """

    kind: str
    to: str
    text: str
    candidates: tuple[str, ...]
    phrases: tuple[str, ...] = ()
    correction: bool = False
    color: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "to": self.to, "text": self.text, "candidates": list(self.candidates),
                "phrases": list(self.phrases), "correction": self.correction, "color": self.color}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Question:
        return cls(str(d["kind"]), str(d["to"]), str(d["text"]), tuple(str(c) for c in d["candidates"]),
                   tuple(str(p) for p in d.get("phrases", ())), bool(d.get("correction")), d.get("color"))


def _color_name(color: chess.Color) -> str:
    return "white" if color == chess.WHITE else "black"


def _to_color(value: chess.Color | str) -> chess.Color:
    if isinstance(value, bool):
        return value
    if value in ("white", "w"):
        return chess.WHITE
    if value in ("black", "b"):
        return chess.BLACK
    raise ValueError(f"not a colour: {value!r}")


class Table:
    """One game at one table; see the module docstring. Build with :meth:`new` or :meth:`resume`."""

    def __init__(self, session: Session, setup: TableSetup) -> None:
        self.session = session
        self.setup = setup
        self.lang = session.lang
        self.speech = SpeechPolicy(self.lang, wpm=setup.wpm)
        self.dialogue = Dialogue(self.lang, min_confidence=setup.min_confidence, max_options=9,
                                 understand=lambda b, t, lang: phonetic.understand(b, t, lang, heard=True))
        self.question: Question | None = None
        self.proposal: Any = None          # the proposed D.2.9 ruling (blindchess.ruling.Ruling) or None
        self.tracker: Tracker | None = None
        if setup.tactile == "pegboard" and session.blind_color is not None:
            self.tracker = Tracker(session.board("tactile"), settle=setup.settle_time, senses_pieces=setup.senses_pieces)
        self.adjusting = False             # a ruling or resume: the pegs are being set right (no touches)
        self.mismatch: tuple[str, ...] = ()
        self._lifted: int | None = None
        self._candidates: tuple[chess.Move, ...] = ()   # what the pegs alone could not exclude (last move)
        self._subscribers: list[Callable[[TableEvent], None]] = []
        self._backlog: list[TableEvent] | None = []
        self._out: list[TableEvent] = []
        self._inbox: list[SessionEvent] = []
        self._withdrawn = False
        self._last_peg: float | None = None
        self._expected_fen: str | None = None
        self._low: dict[chess.Color, float] = {}
        self._now = 0.0
        self._handlers: dict[str, Callable[[SessionEvent], None]] = {
            "move-made": self._on_move_made,
            "move-withdrawn": self._on_move_withdrawn,
            "mirror-needed": self._on_mirror_needed,
            "mirrored": self._on_mirrored,
            "announce-mismatch": self._on_announce_mismatch,
            "announce-unclear": self._on_announce_unclear,
            "announce-ignored": self._on_announce_ignored,
            "correction-refused": self._on_correction_refused,
            "clock-refused": self._on_clock_refused,
            "clock": self._on_clock,
            "divergence": self._on_divergence,
            "boards-agree": self._on_boards_agree,
            "score-deviation": self._on_shown_message,
            "journal-damaged": self._on_shown_message,
            "game-end": self._on_game_end,
            "flag-fallen": self._on_flag,
            "draw-offer": self._on_draw_offer,
            "draw-declined": self._on_draw_declined,
            "ruling": self._on_ruling,
            "ruling-override": self._on_ruling,
            "board-move-rejected": self._on_board_move_rejected,
        }
        session.subscribe(self._inbox.append)

    # ================================================================ construction
    @classmethod
    def new(cls, setup: TableSetup, now: float, journal: Path | None = None) -> Table:
        """A new game as set up; journaled to ``journal`` when given (a new, empty file).

        Raises ValueError for a bad time control or start position, FileExistsError
        for a journal that already holds a game.
        """
        white = Player(setup.white, setup.blind in ("white", "both"),
                       setup.assistant if setup.blind in ("white", "both") else None)
        black = Player(setup.black, setup.blind in ("black", "both"),
                       setup.assistant if setup.blind == "black" else None)
        session = Session.new(white, black, setup.time_control, chess960=setup.chess960, start_fen=setup.start_fen,
                              lang=setup.lang, journal=journal, now=now, auto_press=setup.auto_press,
                              tactile_senses_pieces=setup.senses_pieces,
                              headers=dict(setup.headers) if setup.headers else None)
        table = cls(session, setup)
        table._now = now
        session.note(tr("table.note_setup", table.lang), now, kind=NOTE_SETUP, setup=setup.to_note())
        if session.time_control is not None:
            session.start_clock(now)
        table._process()
        text = tr("table.started", table.lang, white=setup.white, black=setup.black)
        table._show(now, text)
        if session.blind_color is not None:
            table._say(now, text, "blind", "answer")
        table._expect(now)
        table._deliver()
        return table

    @classmethod
    def resume(cls, journal: Path, now: float, setup: TableSetup | None = None, *,
               count_closed_time: bool = True) -> Table:
        """The game of ``journal`` exactly as it stood (a crash, a restart); appends from then on.

        The pending states come back: a placement not yet announced and an
        announcement not yet placed (the session's journal), an open question
        (noted by the table), a proposed ruling (the boards still differ). The
        peg-board is asked for a snapshot (the pegs are where the hands left
        them). ``setup`` overrides what the journal noted. ``count_closed_time``:
        the time since the last journal entry was play time (a crash: the player
        to move kept thinking, so a crash gives nobody time); False for a game
        closed on purpose. Raises what ``Session.open`` raises for a missing or
        unreadable journal.
        """
        session = Session.open(journal, now, count_closed_time=count_closed_time)
        noted: dict[str, Any] = {}
        question: Question | None = None
        for ev in session.events:
            if ev.get("type") != "note":
                continue
            if ev.get("kind") == NOTE_SETUP and isinstance(ev.get("setup"), dict):
                noted = dict(ev["setup"])
            elif ev.get("kind") == NOTE_QUESTION and isinstance(ev.get("question"), dict):
                question = Question.from_dict(ev["question"])
            elif ev.get("kind") == NOTE_QUESTION_CLOSED:
                question = None
        if setup is None:
            blind = "none" if session.blind_color is None else _color_name(session.blind_color)
            if session.white.visually_impaired and session.black.visually_impaired:
                blind = "both"
            warnings = tuple(float(w) for w in noted.get("warnings", ()))
            blind_player = session.player(session.blind_color) if session.blind_color is not None else None
            setup = TableSetup(white=session.white.name, black=session.black.name, blind=blind,
                               lang=session.lang, tactile=str(noted.get("tactile", "pegboard")),
                               settle=float(noted.get("settle", DEFAULT_SETTLE)),
                               assistant=blind_player.assistant if blind_player else None,
                               auto_press=session.auto_press, senses_pieces=session.tactile_senses_pieces,
                               min_confidence=float(noted.get("min_confidence", 0.6)), warnings=warnings,
                               wpm=noted.get("wpm"))
        table = cls(session, setup)
        table._now = now
        table.question = question
        table._restore_announcement()
        if session.divergence is not None:
            table.proposal = session.propose_ruling(table.lang)
        text = tr("table.resumed", table.lang, plies=len(session.game_moves))
        table._show(now, text)
        if session.blind_color is not None:
            table._say(now, text, "blind", "answer")
        if question is not None:
            table._emit(Asked(now, question.text, question.candidates, question.to))
            table._say(now, question.text, question.to, "question")
        if table.tracker is not None:
            table.adjusting = True
            table._emit(DeviceRequest(now, "pegboard", "snapshot"))
        table._expect(now, force=True)
        table._deliver()
        return table

    def _restore_announcement(self) -> None:
        """An announcement not yet placed tells the tracker what the pegs should show (promotion piece)."""
        s = self.session
        if self.tracker is None or s.blind_color is None:
            return
        plies = len(s.game_moves)
        for ev in reversed(s.events):
            if ev.get("type") in ("move-made", "ruling", "ruling-override", "take-back"):
                return
            if ev.get("type") == "announce" and ev.get("uci") and int(ev.get("ply", 0)) == plies + 1:
                self.tracker.announce(chess.Move.from_uci(ev["uci"]))
                return

    # ================================================================ subscribers
    def subscribe(self, callback: Callable[[TableEvent], None]) -> Callable[[], None]:
        """Call ``callback`` with every table event, in order; returns the unsubscribe function.

        The first subscriber also gets the events of :meth:`new`/:meth:`resume`.
        """
        self._subscribers.append(callback)
        backlog, self._backlog = self._backlog, None
        for ev in backlog or ():
            callback(ev)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)
        return unsubscribe

    def _emit(self, ev: TableEvent) -> None:
        self._out.append(ev)

    def _deliver(self) -> None:
        out, self._out = self._out, []
        if self._backlog is not None:
            self._backlog.extend(out)
            return
        for ev in out:
            for cb in list(self._subscribers):
                cb(ev)

    # ================================================================ inputs
    def _begin(self, now: float) -> None:
        """Time has passed until ``now``: speech ends and begins, the pegs settle."""
        self._now = max(self._now, now)
        self._withdrawn = False
        for ev in self.speech.advance(now):
            self._emit(ev)
        if self.tracker is not None:
            self._tracker_events(self.tracker.tick(now), now)

    def _end(self, now: float) -> None:
        self._process()
        self._deliver()

    def peg_line(self, line: str, now: float) -> None:
        """One line from the peg-board (``L e2``, ``P e4``, ``S …``, ``I …``; boards/PROTOCOL.md).

        A line the protocol cannot read asks the board for a snapshot (events may be lost).
        """
        message = parse_line(line.encode("utf-8", "replace"), now)
        if message is None or isinstance(message, (Ident, Comment)):
            return
        if isinstance(message, ProtocolError):
            self._begin(now)
            self._emit(DeviceRequest(now, "pegboard", "snapshot"))
            self._end(now)
            return
        self.peg_input(message, now)

    def peg_input(self, event: InputEvent, now: float) -> None:
        """A parsed peg-board event (Lift, Place, Snapshot, PieceUpdate) at ``now``."""
        self._begin(now)
        tracker = self.tracker
        if tracker is None:
            self._end(now)
            return
        if isinstance(event, Lift):
            self._settle_mirror(now)
            self._lifted = event.square
        else:
            self._lifted = None
        self._tracker_events(tracker.feed(event), now)
        self._last_peg = now
        self._end(now)

    def _settle_mirror(self, now: float) -> None:
        """A new lift while a finished mirror waits for its settle time: the mirror is judged first."""
        tracker = self.tracker
        if tracker is None or tracker.pending is None or self._last_peg is None:
            return
        expected = tracker.board
        expected.push(tracker.pending)
        if occupancy(expected) != tracker.occupied:
            return
        self._tracker_events(tracker.tick(max(now, self._last_peg + tracker.settle)), now)

    def tick(self, now: float) -> None:
        """Let time pass: the tracker settles, speech ends and begins, flags fall, warnings come due."""
        self._begin(now)
        s = self.session
        if s.time_control is not None and not s.finished:
            s.tick(now)
            self._process()
            self._warnings(now)
        self._end(now)

    def blind_says(self, text: str, confidence: float | None, now: float) -> None:
        """What the recogniser heard from the blind player (``confidence`` 0..1, None: typed)."""
        self._begin(now)
        self._emit(Heard(now, "blind", text, confidence))
        s = self.session
        if s.blind_color is None:
            self._refuse(now, "speech", tr("table.no_blind_player", self.lang))
            self._end(now)
            return
        board = self._hearing_board()
        u = phonetic.understand(board, text, self.lang, heard=True)
        q = self.question
        if q is not None and q.to == "blind" and self._answer_by_voice(q, u, now):
            self._end(now)
            return
        if u.kind == "repeat":
            self._repeat(now)
        elif u.kind in ("yes", "no"):
            if s.draw_offer is not None and s.draw_offer != s.blind_color and u.kind == "yes":
                self._ask_draw_accept("blind", now)
            elif s.draw_offer is not None and s.draw_offer != s.blind_color:
                s.answer_draw(s.blind_color, False, now)
            else:
                self._say(now, tr("table.no_question", self.lang), "blind", "answer")
        elif u.kind == "resign":
            self._ask_resign("blind", now)
        elif u.kind == "draw_offer":
            if s.draw_offer is not None and s.draw_offer != s.blind_color:
                self._ask_draw_accept("blind", now)
            else:
                s.offer_draw(s.blind_color, now)
        elif u.kind == "request":
            self._answer_request(u.request or "position", "blind", now, square=u.square, piece_type=u.piece_type,
                                 color=u.color)
        elif u.kind == "castle_intent":
            s.note(text, now, kind="castle-intent")
            self._show(now, tr("table.castle_intent", self.lang, name=self._name(s.blind_color)))
        elif u.kind == "adjust":
            self.adjusting = True
            self._show(now, tr("table.adjust", self.lang, name=self._name(s.blind_color)))
        else:
            self.dialogue.cancel()
            decision = self.dialogue.hear(board, [text], confidence=confidence)
            self._decide(decision, text, u.kind == "correction", now)
        self._end(now)

    def _decide(self, decision: Decision, text: str, correction: bool, now: float) -> None:
        s = self.session
        if decision.action == "play" and decision.move is not None:
            self._close_question(now)
            said = getattr(decision.understanding, "move", None) == decision.move
            index = len(self._hearing_board().move_stack)
            s.announce(text if said else decision.move, now, correction=correction or self._unpressed_own())
            self._process()
            self._announced(decision.move, index)
        elif decision.action == "ask" and decision.candidates:
            board = self._hearing_board()
            moves = [m for m in decision.candidates if board.is_legal(m)]
            phrases = tuple(phonetic.announce(board, m, self.lang) for m in moves)
            self._open_question(Question("move", "blind", decision.speech, tuple(m.uci() for m in moves), phrases,
                                         correction or self._unpressed_own()), now)
        else:
            message = decision.speech or tr("table.not_understood", self.lang, text=text)
            self._say(now, message, "blind", "answer")
            self._show(now, tr("table.heard", self.lang, text=text, message=message))

    def answer(self, who: Who, answer: Answer, now: float) -> None:
        """An answer to the open question: 1…n (the candidate), "yes" or "no" (keys or a button)."""
        self._begin(now)
        q = self.question
        if q is None:
            self._refuse(now, "answer", tr("table.no_question", self.lang), to=who)
        elif q.to != who and q.to != "all":
            self._refuse(now, "answer", tr("table.not_your_question", self.lang), to=who)
        else:
            self._resolve(q, answer, now)
        self._end(now)

    def sighted_move(self, move: chess.Move | str, now: float) -> None:
        """A move on the sighted board: the sighted player's own (made, D.2.5) or a mirror.

        ``move``: a ``chess.Move``, UCI, or any notation or spoken phrase in the game's
        language; an unreadable one is refused (``Refused(what="move")``).
        """
        self._begin(now)
        read = self._read_move("sighted", move, now)
        if read is not None:
            self.session.sighted_move(read, now)
        self._end(now)

    def tactile_move(self, move: chess.Move | str, now: float) -> None:
        """Without a peg-board: the move made on the tactile board, entered by hand (as :meth:`sighted_move`)."""
        self._begin(now)
        read = self._read_move("tactile", move, now)
        if read is not None:
            self.session.tactile_move(read, now)
        self._end(now)

    def _read_move(self, board_name: str, move: chess.Move | str, now: float) -> chess.Move | None:
        if isinstance(move, chess.Move):
            return move
        text = move.strip()
        try:
            uci = chess.Move.from_uci(text.lower())
        except ValueError:
            uci = None
        if uci is not None and uci != chess.Move.null():
            return uci
        board = self.session.board(board_name)
        reading = notation.read(board, text, self.lang)
        if reading.ok and reading.move is not None:
            return reading.move
        u = phonetic.understand(board, text, self.lang)
        if u.kind == "move" and u.move is not None:
            return u.move
        why = u.message if reading.problem == "unreadable" and u.message else reading.message(self.lang)
        self._refuse(now, "move", why or tr("table.not_understood", self.lang, text=text),
                     to="blind" if board_name == "tactile" else "sighted")
        return None

    def sighted_touch(self, square: int | str, now: float) -> None:
        """The sighted player touched a piece (D.2.5; the assistant reports it, D.2.10 e)."""
        self._begin(now)
        sq = square if isinstance(square, int) else chess.parse_square(square)
        board = self.session.board("sighted")
        piece = board.piece_at(sq)
        self.session.touch(sq, now, board="sighted")
        self._emit(Touched(now, chess.square_name(sq), "sighted"))
        self._show(now, tr("table.sighted_touched", self.lang, piece=self._piece_words(piece),
                           square=chess.square_name(sq)))
        self._end(now)

    def sighted_says(self, text: str, now: float) -> None:
        """What the sighted side said or typed: answers ("ja", "nein"), a draw offer, resignation."""
        self._begin(now)
        self._emit(Heard(now, "sighted", text, None))
        s = self.session
        me = self._sighted_color()
        u = phonetic.understand(s.game_board(), text, self.lang)
        q = self.question
        if q is not None and q.to == "sighted" and u.kind in ("yes", "no"):
            self._resolve(q, "yes" if u.kind == "yes" else "no", now)
        elif u.kind == "resign":
            self._ask_resign("sighted", now)
        elif u.kind in ("draw_offer", "yes") and s.draw_offer is not None and s.draw_offer != me:
            self._ask_draw_accept("sighted", now)
        elif u.kind == "no" and s.draw_offer is not None and s.draw_offer != me:
            s.answer_draw(me, False, now)
        elif u.kind == "draw_offer":
            s.offer_draw(me, now)
        else:
            self._show(now, tr("table.not_understood", self.lang, text=text))
        self._end(now)

    def resign(self, who: Who | str, now: float) -> None:
        """``who`` ("blind"/"sighted" or a colour) wants to resign: asked first (nothing ends before the answer)."""
        self._begin(now)
        self._ask_resign(self._who(who), now)
        self._end(now)

    def offer_draw(self, who: Who | str, now: float) -> None:
        """``who`` offers a draw, or — when the opponent's offer stands — is asked to confirm accepting it."""
        self._begin(now)
        s = self.session
        side = self._who(who)
        color = s.blind_color if side == "blind" else self._sighted_color()
        if color is None:
            self._refuse(now, "draw", tr("table.no_blind_player", self.lang), to=side)
        elif s.finished:
            self._refuse(now, "draw", tr("table.game_over", self.lang), to=side)
        elif s.draw_offer is not None and s.draw_offer != color:
            self._ask_draw_accept(side, now)
        else:
            s.offer_draw(color, now)
        self._end(now)

    def pause(self, now: float) -> None:
        """The arbiter stops the clock."""
        self._begin(now)
        if self.session.time_control is None:
            self._refuse(now, "pause", tr("table.no_clock", self.lang))
        elif not self.session.clock.paused:
            self.session.pause(now)
            self._show(now, tr("table.clock_paused", self.lang))
        self._end(now)

    def continue_clock(self, now: float) -> None:
        """The arbiter starts the clock again after :meth:`pause`."""
        self._begin(now)
        if self.session.time_control is not None and self.session.clock.paused:
            self.session.resume(now)
            self._show(now, tr("table.clock_resumed", self.lang))
        self._end(now)

    def set_clock(self, color: chess.Color | str, seconds: float, now: float) -> None:
        """The arbiter sets ``color``'s remaining time (D.2.9: he readjusts the clocks)."""
        self._begin(now)
        if self.session.time_control is None:
            self._refuse(now, "clock", tr("table.no_clock", self.lang))
        else:
            self.session.set_remaining(_to_color(color), seconds, now)
        self._end(now)

    def amend(self, who: Who, index: int, text: str, now: float) -> None:
        """Entry ``index`` (0-based) of ``who``'s score is written or corrected by hand (the keeper, the arbiter).

        The proposed ruling is computed again (a changed score changes it).
        """
        self._begin(now)
        entries = self.session.score(who)
        if not 0 <= index <= len(entries):
            self._refuse(now, "score", tr("table.no_such_entry", self.lang, number=index + 1))
        else:
            self.session.write(who, text, now, index=index if index < len(entries) else None)
            self._process()
            self.proposal = self.session.propose_ruling(self.lang)
        self._end(now)

    def press(self, color: chess.Color | str, now: float) -> None:
        """``color`` presses the clock (refused unless his move has been made, D.2.4)."""
        self._begin(now)
        c = _to_color(color)
        if self.session.time_control is None:
            self._refuse(now, "press", tr("table.no_clock", self.lang))
        else:
            self.session.press_clock(c, now)
        self._end(now)

    def arbiter_apply(self, now: float) -> None:
        """The arbiter applies the proposed D.2.9 ruling (refused when there is none)."""
        self._begin(now)
        s = self.session
        proposal = self.proposal if self.proposal is not None else s.propose_ruling(self.lang)
        if proposal is None or getattr(proposal, "kind", "none") == "none":
            self._refuse(now, "ruling", tr("table.nothing_to_rule", self.lang), to="sighted")
        else:
            s.apply_ruling(proposal, now)
        self._end(now)

    def arbiter_retrace(self, plies: int, now: float) -> None:
        """The arbiter retraces to ``plies`` half-moves of the game (D.2.9, his own decision)."""
        self._begin(now)
        s = self.session
        if not 0 <= plies <= len(s.game_moves):
            self._refuse(now, "ruling", tr("table.no_such_ply", self.lang, plies=plies, made=len(s.game_moves)),
                         to="sighted")
        else:
            clocks = None
            snap = s.clock.times_at(plies) if s.time_control is not None else None
            if snap is not None:
                clocks = {"white": snap.remaining[0], "black": snap.remaining[1]}
            s.override(s.game_moves[:plies], now, clocks=clocks,
                       note=tr("table.retrace_note", self.lang, plies=plies))
        self._end(now)

    def request(self, what: str, now: float, by: Who = "blind", *, square: int | None = None,
                piece_type: int | None = None, color: chess.Color | None = None) -> None:
        """A request answered only because it was asked (D.2.10 d): "time", "moves", "last_move",
        "square", "pieces", "position". The answer is said to ``by``."""
        self._begin(now)
        self._answer_request(what, by, now, square=square, piece_type=piece_type, color=color)
        self._end(now)

    def repeat(self, now: float) -> None:
        """Say the last announcement again."""
        self._begin(now)
        self._repeat(now)
        self._end(now)

    def stop_speech(self, now: float) -> None:
        """The listener stopped the voice."""
        self._begin(now)
        for ev in self.speech.stop(now):
            self._emit(ev)
        self._end(now)

    def reading(self, text: str, now: float) -> None:
        """The UI's own speech (board cursor, menus): the lowest priority, never cuts an announcement."""
        self._begin(now)
        self._say(now, text, "blind", "reading")
        self._end(now)

    def finish(self, now: float) -> None:
        """Everything still to be said is said to the end (the end of a script or of the program)."""
        self._begin(now)
        for ev in self.speech.finish(now):
            self._emit(ev)
        self._end(now)

    # ================================================================ state for the front ends
    @property
    def lifted(self) -> int | None:
        """The square of a peg in the hand (only one, the last lifted), None when none."""
        return self._lifted

    @property
    def tactile_mismatch(self) -> list[str]:
        """Squares where the tactile board differs from what it should show (names)."""
        return list(self.mismatch)

    @property
    def tactile_in_sync(self) -> bool | None:
        """The tracker's last word: the pegs show the expected position (None: not known yet / no peg-board)."""
        return self.tracker.in_sync if self.tracker is not None else None

    def grammar(self) -> list[str]:
        """The phrases the recogniser should listen for now (the position the blind player announces in)."""
        return list(phonetic.grammar(self._hearing_board(), self.lang))

    def idle_at(self, now: float) -> float:
        """When everything started is over: the speech and what waits behind it, the pegs' settle time."""
        end = self.speech.idle_at(now)
        if self.tracker is not None and self._last_peg is not None:
            end = max(end, self._last_peg + self.tracker.settle)
        return max(now, end)

    def close(self) -> None:
        """The end of the game at this table: the journal is closed (no events)."""
        self.session.close()

    def final(self, now: float) -> Final:
        """The state now: both boards and the game (FEN), plies, both scores, clocks, result."""
        s = self.session
        clocks: dict[str, float | None] = {"white": None, "black": None}
        if s.time_control is not None:
            clocks = {_color_name(c): round(max(0.0, s.clock.remaining(c, now)), 3) for c in (chess.WHITE, chess.BLACK)}
        return Final(now, {"sighted": s.board("sighted").fen(), "tactile": s.board("tactile").fen()},
                     s.game_board().fen(), len(s.game_moves), {"blind": list(s.score("blind")),
                                                                "sighted": list(s.score("sighted"))},
                     clocks, s.result)

    def next_step(self) -> str:
        """One line: what the players or the assistant do now."""
        s = self.session
        if s.finished:
            return tr("table.next_game_over", self.lang, result=s.result)
        if self.question is not None:
            return tr("table.next_question", self.lang, question=self.question.text)
        if s.divergence:
            return tr("table.next_diverged", self.lang)
        game = s.game_moves
        for name in ("sighted", "tactile"):
            made = s.moves(name)
            if len(made) < len(game) and made == game[: len(made)]:
                written = self._written(len(made))
                if name == "sighted":
                    return tr("table.next_mirror_on_sighted", self.lang, move=written)
                return tr("table.next_mirror_on_tactile", self.lang, name=self._name(s.blind_color), move=written)
        side = s.to_move
        tactile = s.moves("tactile")
        if s.is_blind(side) and len(tactile) == len(game) + 1:
            board = s.game_board()
            placed = tactile[-1]
            written = notation.write(board, placed, self.lang) if board.is_legal(placed) else placed.uci()
            return tr("table.next_announce", self.lang, name=self._name(side), move=written)
        key = "table.next_blind_to_move" if s.is_blind(side) else "table.next_sighted_to_move"
        return tr(key, self.lang, name=self._name(side), side=tr(f"table.{_color_name(side)}", self.lang))

    # ================================================================ session events
    def _process(self) -> None:
        """Handle the session's events in order (handlers may cause more)."""
        while self._inbox:
            ev = self._inbox.pop(0)
            handler = self._handlers.get(str(ev.get("type")))
            if handler is not None:
                handler(ev)

    def _on_move_made(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        s = self.session
        ply = int(ev["ply"])
        color = _to_color(str(ev["color"]))
        move = chess.Move.from_uci(str(ev["uci"]))
        self.adjusting = False
        self.mismatch = ()
        self._emit(Moved(t, ply, _color_name(color), move.uci(), str(ev["san"])))
        before = self._board_at(ply - 1)
        written = notation.write(before, move, self.lang)
        phrase = phonetic.announce(before, move, self.lang)
        self._write_scores(ply - 1, written, t)
        self._show(t, tr("table.move_shown", self.lang, color=tr(f"table.{_color_name(color)}", self.lang),
                         move=written))
        if s.is_blind(color):
            self._say(t, tr("table.move_confirmed", self.lang, move=phrase), "blind", "move")
        elif s.blind_color is not None:
            self._say(t, phrase, "blind", "move")        # the sighted player's move announced to him (D.2.1)
        self._expect(t)

    def _on_move_withdrawn(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        self._withdrawn = True
        self._show(t, tr("table.move_withdrawn_shown", self.lang, ply=ev.get("ply")))

    def _on_mirror_needed(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        written = self._written(int(ev["ply"]) - 1)
        if ev.get("board") == "sighted":
            self._show(t, tr("table.next_mirror_on_sighted", self.lang, move=written))
        else:
            self._show(t, tr("table.next_mirror_on_tactile", self.lang, name=self._name(self.session.blind_color),
                             move=written))
        self._expect(t)

    def _on_mirrored(self, ev: SessionEvent) -> None:
        self._emit(Mirrored(float(ev["t"]), str(ev["board"]), int(ev["ply"])))

    def _on_announce_mismatch(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        message = str(ev.get("message", ""))
        self._show(t, message)
        if not self._withdrawn:   # after a correction the pegs follow the corrected move: nothing to say yet
            self._say(t, message, "blind", "answer")

    def _on_announce_unclear(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        text = tr("table.not_understood", self.lang, text=ev.get("text", ""))
        self._say(t, text, "blind", "answer")
        self._show(t, str(ev.get("message", text)))

    def _on_announce_ignored(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        self._say(t, str(ev.get("message", "")), "blind", "answer")

    def _on_correction_refused(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        self._refuse(t, "correction", tr("table.correction_refused", self.lang))

    def _on_clock_refused(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        color = _to_color(str(ev["color"]))
        self._refuse(t, "press", str(ev.get("message", "")), to="blind" if self.session.is_blind(color) else "sighted")

    def _on_clock(self, ev: SessionEvent) -> None:
        white, black = ev.get("white"), ev.get("black")
        self._emit(ClockPressed(float(ev["t"]), int(ev["ply"]), None if white is None else float(white),
                                None if black is None else float(black)))

    def _on_divergence(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        self._emit(Diverged(t, int(ev["ply"])))
        self.proposal = self.session.propose_ruling(self.lang)
        self._show(t, str(ev.get("message", "")))
        self._say(t, tr("table.divergence_said", self.lang), "all", "answer")

    def _on_boards_agree(self, ev: SessionEvent) -> None:
        self.proposal = None
        self._show(float(ev["t"]), tr("table.boards_agree", self.lang))

    def _on_shown_message(self, ev: SessionEvent) -> None:
        if ev.get("message"):
            self._show(float(ev["t"]), str(ev["message"]))

    def _on_game_end(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        result, reason = str(ev["result"]), str(ev.get("reason", ""))
        self._close_question(t)
        self._emit(GameEnded(t, result, reason))
        text = tr("table.game_end", self.lang, result=self._result_words(result),
                  reason=tr(f"session.reason_{reason}", self.lang))
        self._show(t, text)
        self._say(t, text, "all", "move")

    def _on_flag(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        message = str(ev.get("message", ""))
        self._show(t, message)
        self._say(t, message, "all", "answer")

    def _on_draw_offer(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        color = _to_color(str(ev["color"]))
        self._show(t, tr("table.draw_offered", self.lang, name=self._name(color)))
        if self.session.blind_color is not None and color != self.session.blind_color:
            self._say(t, tr("table.draw_offered_to_blind", self.lang), "blind", "answer")

    def _on_draw_declined(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        text = tr("table.draw_declined", self.lang)
        self._show(t, text)
        self._say(t, text, "all", "answer")

    def _on_ruling(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        s = self.session
        plies = len(s.game_moves)
        kind = "retrace" if ev.get("type") == "ruling-override" else str(ev.get("kind", "correct-board"))
        self.proposal = None
        self._close_question(t)
        self._emit(Ruled(t, kind, plies))
        self._complete_scores(t)
        if kind == "retrace":
            said = tr("table.ruling_retrace", self.lang, plies=plies)
        else:
            boards = [str(b) for b in ev.get("fix_boards", [])]
            key = "table.ruling_correct_tactile" if boards == ["tactile"] else (
                "table.ruling_correct_sighted" if boards == ["sighted"] else "table.ruling_correct")
            said = tr(key, self.lang)
        explanation = str(ev.get("explanation") or ev.get("message") or "")
        self._show(t, tr("table.ruling_shown", self.lang, text=explanation) if explanation else said)
        self._say(t, said, "all", "move")
        if self.tracker is not None:
            self.adjusting = True
            self._emit(DeviceRequest(t, "pegboard", "snapshot"))
        self._expect(t, force=True)

    def _on_board_move_rejected(self, ev: SessionEvent) -> None:
        t = float(ev["t"])
        name = str(ev.get("board", "sighted"))
        uci = str(ev.get("uci", ""))
        if ev.get("reason") == "not-made":
            text = tr("table.refused_not_made", self.lang, move=self._uci_words(name, uci),
                      name=self._name(self._mover_of_next(name)))
            what = "mirror"
        else:
            text = tr("table.refused_illegal", self.lang, move=self._uci_words(name, uci),
                      board=tr(f"table.board_{name}", self.lang))
            what = "move"
        self._refuse(t, what, text, to="blind" if name == "tactile" else "sighted")

    # ================================================================ the tactile board
    def _tracker_events(self, events: list[TrackerEvent], now: float) -> None:
        for e in events:
            self._tracker_event(e, now)
            self._process()

    def _tracker_event(self, e: TrackerEvent, now: float) -> None:
        s = self.session
        if e.type == "touched" and e.square is not None:
            if not self._touch_counts(e):
                return
            piece = e.piece
            s.touch(e.square, now, board="tactile", piece=piece.symbol() if piece else None)
            self._emit(Touched(now, chess.square_name(e.square), "blind"))
            words = tr("table.touched", self.lang, piece=self._piece_words(piece),
                       square=phonetic.square_name(e.square, self.lang))
            self._say(now, words, "blind", "status")      # at once or not at all
            self._show(now, tr("table.touched_shown", self.lang, piece=self._piece_words(piece),
                               square=chess.square_name(e.square)))
        elif e.type == "move" and e.move is not None:
            if e.promotion_pending:
                return       # complete when the piece is announced (D.2.1)
            self._candidates = tuple(e.candidates)
            tactile = s.board("tactile")
            if tactile.move_stack and tactile.peek() == e.move and self.tracker is not None \
                    and same_position(self.tracker.board, tactile):
                return       # the session knows it already (a wrong mirror fed before, a ruling, a resume)
            s.tactile_move(e.move, now)
        elif e.type == "takeback":
            if self.adjusting:
                return
            if s.moves("tactile"):
                s.take_back("tactile", now)
        elif e.type == "mismatch":
            self._mismatch(e, now)
        elif e.type == "in-sync":
            if self.mismatch:
                self.mismatch = ()
                self._show(now, tr("table.tactile_in_sync", self.lang))
            self.adjusting = False
        elif e.type == "inconsistent":
            self._emit(DeviceRequest(now, "pegboard", "snapshot"))

    def _touch_counts(self, e: TrackerEvent) -> bool:
        """D.2.2: a lift counts as a touch only in the blind player's own move, nothing else under way."""
        s = self.session
        if s.blind_color is None or s.finished or self.adjusting or self.mismatch:
            return False
        if e.expected is not None or (self.tracker is not None and self.tracker.pending is not None):
            return False     # mirroring the opponent's move (also removing the captured peg)
        if s.to_move != s.blind_color or len(s.moves("tactile")) != len(s.game_moves):
            return False
        return s.divergence is None

    def _mismatch(self, e: TrackerEvent, now: float) -> None:
        s = self.session
        made = e.move
        tactile = s.moves("tactile")
        if made is not None and e.expected is not None and not self.adjusting and len(tactile) < len(s.game_moves):
            # a wrong mirror: it is on the tactile board, so the session must know (D.2.9 follows)
            s.tactile_move(made, now)
            self._process()
            self._expect(now, force=True)
            return
        squares = tuple(chess.square_name(sq) for sq in e.squares)
        if squares != self.mismatch:
            self.mismatch = squares
            if not self.adjusting:
                self._say(now, tr("table.tactile_mismatch", self.lang,
                                  squares=", ".join(phonetic.square_name(sq, self.lang) for sq in e.squares)),
                          "blind", "status")
            self._show(now, tr("table.tactile_mismatch_shown", self.lang, squares=", ".join(squares)))

    def _expect(self, now: float, *, force: bool = False) -> None:
        """Tell the tracker (and the device) which position the tactile board should show."""
        tracker = self.tracker
        if tracker is None:
            return
        s = self.session
        game, tactile = s.game_board(), s.board("tactile")
        target = game if len(game.move_stack) >= len(tactile.move_stack) else tactile
        if s.divergence is not None and len(tactile.move_stack) >= len(game.move_stack):
            target = tactile   # a wrong mirror stands until the ruling
        fen = target.fen()
        if fen == self._expected_fen and not force:
            return
        self._expected_fen = fen
        self._tracker_events(tracker.expect(target), now)
        self._emit(DeviceRequest(now, "pegboard", "expect", fen))

    def _announced(self, move: chess.Move, index: int) -> None:
        """The announced move (of half-move ``index``, 0-based) completes a promotion or settles
        what occupancy cannot tell.

        An announcement that contradicts a clear placement is not passed on: the
        pegs stand as they stand, and the session tells the player (D.2.3); a slip
        of the tongue corrected at once leaves no false mismatch behind. A
        correction that withdrew the made move (D.2.8) is passed on: the pegs are
        to follow it.
        """
        tracker = self.tracker
        if tracker is None:
            return
        tactile = self.session.moves("tactile")
        placed = tactile[index] if len(tactile) > index else None     # on the pegs for the announced half-move
        if placed is not None and placed != move and move not in self._candidates and not self._withdrawn \
                and (placed.from_square, placed.to_square) != (move.from_square, move.to_square):
            return
        self._tracker_events(tracker.announce(move), self._now)

    # ================================================================ questions
    def _open_question(self, q: Question, now: float) -> None:
        self.question = q
        self.session.note(q.text, now, kind=NOTE_QUESTION, question=q.to_dict())
        self._emit(Asked(now, q.text, q.candidates, q.to))
        if q.to == "blind":
            self._say(now, q.text, "blind", "question")
        self._show(now, tr("table.question_shown", self.lang, text=q.text,
                           keys=self._choices(q)))

    def _close_question(self, now: float) -> None:
        if self.question is None:
            return
        self.question = None
        self.dialogue.cancel()
        self.session.note(tr("table.question_closed", self.lang), now, kind=NOTE_QUESTION_CLOSED)

    def _choices(self, q: Question) -> str:
        if q.candidates == ("yes", "no"):
            return tr("table.choices_yes_no", self.lang)
        return ", ".join(f"{i + 1}: {p}" for i, p in enumerate(q.phrases or q.candidates))

    def _answer_by_voice(self, q: Question, u: phonetic.Understanding, now: float) -> bool:
        """An utterance while a question is open; False: not an answer (then it is heard afresh)."""
        if u.kind == "yes":
            self._resolve(q, "yes", now)
            return True
        if u.kind == "no":
            self._resolve(q, "no", now)
            return True
        if u.kind == "repeat":
            self._say(now, q.text, "blind", "question")
            return True
        if q.kind == "move" and u.kind in ("move", "correction"):
            named = [u.move] if u.move is not None else list(u.candidates)
            picked = [m.uci() for m in named if m is not None and m.uci() in q.candidates]
            if len(picked) == 1:
                self._resolve(q, q.candidates.index(picked[0]) + 1, now)
                return True
        self._close_question(now)
        return False

    def _resolve(self, q: Question, answer: Answer, now: float) -> None:
        s = self.session
        if q.kind == "move":
            if answer == "no":
                self._close_question(now)
                self._say(now, tr("table.cancelled", self.lang), q.to, "answer")
                return
            if answer == "yes":
                if len(q.candidates) != 1:
                    self._refuse(now, "answer", tr("table.say_which", self.lang, choices=self._choices(q)), to=q.to)
                    return
                answer = 1
            if not isinstance(answer, int) or not 1 <= answer <= len(q.candidates):
                self._refuse(now, "answer", tr("table.no_such_answer", self.lang, choices=self._choices(q)), to=q.to)
                return
            move = chess.Move.from_uci(q.candidates[answer - 1])
            self._close_question(now)
            index = len(self._hearing_board().move_stack)
            s.announce(move, now, correction=q.correction or self._unpressed_own())
            self._process()
            self._announced(move, index)
            return
        if answer not in ("yes", "no"):
            if isinstance(answer, int) and 1 <= answer <= 2:
                answer = "yes" if answer == 1 else "no"
            else:
                self._refuse(now, "answer", tr("table.no_such_answer", self.lang, choices=self._choices(q)), to=q.to)
                return
        self._close_question(now)
        color = _to_color(q.color or "white")
        if answer == "no":
            if q.kind == "draw-accept":
                s.answer_draw(color, False, now)
            else:
                self._say(now, tr("table.cancelled", self.lang), q.to, "answer")
                self._show(now, tr("table.cancelled", self.lang))
            return
        if q.kind == "resign":
            s.resign(color, now)
        elif q.kind == "draw-accept":
            if s.draw_offer is not None and s.draw_offer != color:
                s.answer_draw(color, True, now)
            else:
                self._refuse(now, "answer", tr("table.no_draw_offer", self.lang), to=q.to)

    def _ask_resign(self, who: Who, now: float) -> None:
        s = self.session
        color = s.blind_color if who == "blind" else self._sighted_color()
        if color is None or s.finished:
            self._refuse(now, "resign", tr("table.game_over", self.lang), to=who)
            return
        self._open_question(Question("resign", who, tr("table.ask_resign", self.lang), ("yes", "no"),
                                     color=_color_name(color)), now)

    def _ask_draw_accept(self, who: Who, now: float) -> None:
        s = self.session
        color = s.blind_color if who == "blind" else self._sighted_color()
        if color is None or s.finished:
            return
        self._open_question(Question("draw-accept", who, tr("table.ask_draw_accept", self.lang), ("yes", "no"),
                                     color=_color_name(color)), now)

    # ================================================================ requests
    def _answer_request(self, what: str, by: str, now: float, *, square: int | None = None,
                        piece_type: int | None = None, color: chess.Color | None = None) -> None:
        s = self.session
        board = s.game_board()
        to = "blind" if by == "blind" else "sighted"
        if what in ("time", "moves"):
            s.request_time(now, by=by)       # journaled: it was asked (D.2.10 d)
            if s.time_control is None:
                moves = len(s.game_moves)
                text = tr("table.time_without_clock", self.lang, moves=moves)
            else:
                own = s.blind_color if by == "blind" and s.blind_color is not None else self._sighted_color()
                text = talking_clock.phrase_from_clock(s.clock, own, now, self.lang)
        elif what == "last_move":
            if not board.move_stack:
                text = tr("table.no_last_move", self.lang)
            else:
                move = board.pop()
                text = phonetic.announce(board, move, self.lang)
        elif what == "square" and square is not None:
            text = phonetic.describe_square(board, square, self.lang)
        elif what == "pieces":
            text = phonetic.describe_pieces(board, piece_type, color, self.lang)
        else:
            text = phonetic.describe_position(board, self.lang)
        if to == "blind":
            self._say(now, text, "blind", "answer")
        else:
            self._show(now, text)

    def _warnings(self, now: float) -> None:
        """Low time: said only to a blind player who chose warnings (D.2.10 d); never shown unasked."""
        s = self.session
        if not self.setup.warnings or s.blind_color is None or s.time_control is None:
            return
        prefs = talking_clock.WarningPreferences.chosen(*self.setup.warnings)
        color = s.blind_color
        current = s.clock.remaining(color, now)
        previous = self._low.get(color, float("inf"))
        self._low[color] = current
        for threshold in talking_clock.due_warnings(previous, current, prefs):
            self._say(now, talking_clock.warning_phrase(threshold, self.lang), "blind", "answer")

    def _repeat(self, now: float) -> None:
        if self.speech.last_announcement is None:
            self._say(now, tr("table.nothing_to_repeat", self.lang), "blind", "answer")
            return
        for ev in self.speech.repeat(now):
            self._emit(ev)

    # ================================================================ scores
    def _write_scores(self, index: int, text: str, now: float) -> None:
        """Both keepers write the move of half-move ``index`` as announced (D.2.7, D.2.10 c)."""
        for who in ("blind", "sighted"):
            entries = self.session.score(who)
            if index < len(entries):
                if entries[index] != text:
                    self.session.write(who, text, now, index=index)
            else:
                for i in range(len(entries), index):
                    self.session.write(who, self._written(i), now)
                self.session.write(who, text, now)

    def _complete_scores(self, now: float) -> None:
        """After a ruling: entries the game has and a score lacks are written (the game goes on from there)."""
        plies = len(self.session.game_moves)
        for who in ("blind", "sighted"):
            for i in range(len(self.session.score(who)), plies):
                self.session.write(who, self._written(i), now)

    # ================================================================ words and helpers
    def _say(self, now: float, text: str, to: str, priority: str) -> None:
        for ev in self.speech.say(text, to, priority, now):
            self._emit(ev)

    def _show(self, now: float, text: str) -> None:
        if text:
            self._emit(Shown(now, text))

    def _refuse(self, now: float, what: str, text: str, *, to: str = "sighted") -> None:
        self._emit(Refused(now, what, text))
        if to == "blind":
            self._say(now, text, "blind", "answer")

    def _board_at(self, plies: int) -> chess.Board:
        board = self.session.start.copy(stack=False)
        for move in self.session.game_moves[:plies]:
            board.push(move)
        return board

    def _written(self, index: int) -> str:
        """Half-move ``index`` of the game in the session language's notation."""
        return notation.write(self._board_at(index), self.session.game_moves[index], self.lang)

    def _uci_words(self, board_name: str, uci: str) -> str:
        board = self.session.board(board_name)
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            return uci
        if board.is_legal(move):
            return notation.write(board, move, self.lang)
        game = self.session.game_board()
        return notation.write(game, move, self.lang) if game.is_legal(move) else uci

    def _hearing_board(self) -> chess.Board:
        """The position an announcement refers to: before the blind player's own unpressed move (D.2.8)."""
        if self._unpressed_own():
            return self._board_at(len(self.session.game_moves) - 1)
        return self.session.game_board()

    def _unpressed_own(self) -> bool:
        s = self.session
        made = len(s.game_moves)
        if s.blind_color is None or made == 0 or s.auto_press:
            return False
        last_mover = self._board_at(made - 1).turn
        return last_mover == s.blind_color and s.plies_pressed < made and s.to_move != s.blind_color

    def _who(self, who: str) -> Who:
        """"blind"/"sighted", also from a colour name."""
        if who in ("blind", "sighted"):
            return "blind" if who == "blind" else "sighted"
        color = _to_color(who)
        return "blind" if self.session.blind_color is not None and color == self.session.blind_color else "sighted"

    def _sighted_color(self) -> chess.Color:
        blind = self.session.blind_color
        return chess.WHITE if blind is None else not blind

    def _mover_of_next(self, board_name: str) -> chess.Color:
        return self.session.board(board_name).turn

    def _name(self, color: chess.Color | None) -> str:
        if color is None:
            return ""
        return str(self.session.player(color).name)

    def _piece_words(self, piece: chess.Piece | None) -> str:
        if piece is None:
            return tr("session.piece_unknown", self.lang)
        return tr(f"session.piece_{'w' if piece.color else 'b'}{piece.symbol().lower()}", self.lang)

    def _result_words(self, result: str) -> str:
        return tr({"1-0": "table.result_white", "0-1": "table.result_black"}.get(result, "table.result_draw"),
                  self.lang)

