"""The table: one game under FIDE Laws Appendix D as the people at the table live it (pure core).

:class:`Table` is the façade the front ends use — the Qt window, the command
line and the scenario runner. Every input takes ``now`` (seconds); the table
never reads a clock, never sleeps, imports no Qt, audio or serial code. What
happens comes out as typed events (:mod:`blindchess.table.events`) to
:meth:`Table.subscribe`'s callbacks. Events produced while the table is built
(:meth:`Table.new`, :meth:`Table.resume`) are kept and given to the first
subscriber.

Each group of rules lives in one module; the façade only wires them, passes the
inputs on, and dispatches the rules engine's events (every command to the engine
returns the events it caused; :meth:`Table._react` hands each to the parts that act
on it, with ``match``). Everything one input causes is one unit of the journal,
written before anybody is told anything (:meth:`Table._input`).

=========================================  ==============================================================
:mod:`~blindchess.table.setup`             :class:`TableSetup`, the shared small types
:mod:`~blindchess.table.state`             the game, the one voice, events out, the way back from the engine
:mod:`~blindchess.table.start`             a new game, a resumed game, the start text
:mod:`~blindchess.table.tactile`           the peg-board: touches (D.2.2), moves and mirrors, mismatches
:mod:`~blindchess.table.eboard`            the sighted player's DGT e-board: his moves and touches (D.2.5), mirrors
:mod:`~blindchess.table.physical`          what both physical boards share: the position each should show, settling
:mod:`~blindchess.table.moves`             moves on both boards made, announced, refused (D.2.1, D.2.3, D.2.5)
:mod:`~blindchess.table.hearing`           what the players say (D.2.1, D.2.8)
:mod:`~blindchess.table.questions`         the open question and its answer (D.2.1)
:mod:`~blindchess.table.ending`           resignation, draw offers and claims, flags, the end (Art. 5, 6.9, 9)
:mod:`~blindchess.table.clock`             presses, pause, the arbiter's look at the clock, chosen warnings (D.2.4, D.2.10 d)
:mod:`~blindchess.table.requests`          what is said only when asked (D.2.10 d), repeat
:mod:`~blindchess.table.ruling`           divergence and the arbiter's ruling (D.2.9)
:mod:`~blindchess.table.adjournment`       an adjourned game: the sealed move, the envelope, resumption (Guidelines I)
:mod:`~blindchess.table.assistant`         the assistant's duties offered when the blind player has one (D.2.10)
:mod:`~blindchess.table.status`            the next step, the final state
:mod:`~blindchess.table.opponent`          practice: the computer plays the sighted side
:mod:`~blindchess.table.speech`            who hears what, priorities, what may interrupt what, what is stale
=========================================  ==============================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import chess

from ..base import UI_LANGS, UserError, plural, tr
from ..game import (
    Adjourned,
    AnnounceIgnored,
    AnnounceMismatch,
    AnnounceUnclear,
    BoardMoveRejected,
    BoardsAgree,
    ClaimJudged,
    ClaimKind,
    ClockRefused,
    ClockTimes,
    CorrectionRefused,
    Divergence,
    DrawDeclined,
    DrawOffer,
    EnvelopeLost,
    EnvelopeOpened,
    FlagFallen,
    GameEnd,
    GameEvent,
    JournalDamaged,
    Mirrored,
    MirrorNeeded,
    MoveMade,
    MoveWithdrawn,
    QuickplayFiled,
    ResponderClockStarted,
    Ruling,
    RulingOverride,
    ScoreDeviation,
    SealedMove,
    Session,
    TimeAdded,
    Touch,
)
from ..language import WORDINGS, Dialogue
from ..language import grammar as phonetic_grammar
from ..laws import Proposal
from ..pegboard import InputEvent, ProtocolError, Tracker
from ..storage import read_journal
from .adjournment import Adjournments
from .assistant import AssistantDuties
from .clock import ClockKeeper
from .eboard import EBoard
from .ending import Endings, QuickplayGround, QuickplayVerdict
from .events import Final, TableEvent
from .hearing import Hearing
from .moves import Moves
from .opponent import MoveChooser, Opponent
from .questions import Question, Questions
from .requests import Requests
from .ruling import TableRulings
from .setup import NOTE_CLOSED, NOTE_WORDING, Answer, TableSetup, Who
from .speech import SpeechPolicy
from .start import new_session, read_notes, resumed_text, setup_from_journal, start_shown, start_text
from .state import TableState
from .status import final, next_step
from .tactile import TactileBoard

__all__ = ["TableSetup", "Question", "Table"]


class Table:
    """One game at one table; see the module docstring. Build with :meth:`new` or :meth:`resume`."""

    def __init__(self, session: Session, setup: TableSetup) -> None:
        self.state = TableState(session, setup)
        self.state.react = self._react
        self.tactile = TactileBoard(self.state)
        self.questions = Questions(self.state)
        self.clock = ClockKeeper(self.state)
        self.requests = Requests(self.state)
        self.endings = Endings(self.state, self.questions)
        self.moves = Moves(self.state, self.tactile)
        self.adjournments = Adjournments(self.state)
        self.assistant = AssistantDuties(self.state)
        self.hearing = Hearing(self.state, self.questions, self.tactile, self.endings, self.requests,
                               self.adjournments)
        self.rulings = TableRulings(self.state, self.questions, self.tactile)
        #: The sighted player's e-board (``TableSetup.sighted_board == "dgt"``), else None.
        self.eboard: EBoard | None = EBoard(self.state) if setup.sighted_board == "dgt" else None
        #: The computer as the sighted side of a practice game (``TableSetup.opponent == "engine"``), else None.
        self.opponent: Opponent | None = None
        if setup.opponent == "engine":
            self.opponent = Opponent(self.state, self.moves, self.clock, self.rulings, self.questions, self.endings,
                                     self.tactile, level=setup.engine_level, coaching=setup.coaching)

    # ================================================================ the engine's events
    def _react(self, events: Sequence[GameEvent]) -> None:
        """The one dispatch of the engine's events to the parts of the table that act on them."""
        for i, ev in enumerate(events):
            if self.opponent is not None:
                self.opponent.saw(ev)
            match ev:
                case MoveMade():
                    self.moves.made(ev)
                    self.assistant.made(ev)
                    if self.eboard is not None:
                        self.eboard.made(ev)
                case Touch():
                    self.assistant.touched(ev)
                case MoveWithdrawn():
                    self.moves.withdrawn(ev)
                case MirrorNeeded():
                    self.moves.mirror_needed(ev)
                case Mirrored():
                    self.moves.mirrored(ev)
                case BoardMoveRejected():
                    self.moves.rejected(ev)
                case AnnounceMismatch():
                    self.hearing.mismatch(ev)
                case AnnounceUnclear():
                    self.hearing.unclear(ev)
                case AnnounceIgnored():
                    self.hearing.ignored(ev)
                case CorrectionRefused():
                    self.hearing.correction_refused(ev)
                case ClockTimes():
                    self.clock.pressed(ev)
                case ClockRefused():
                    self.clock.refused(ev)
                case FlagFallen():
                    self.endings.flag_fallen(ev)
                case GameEnd():
                    self.endings.game_end(ev)
                case DrawOffer():
                    self.endings.draw_offered(ev)
                case DrawDeclined():
                    self.endings.draw_declined(ev)
                case ClaimJudged():
                    self.endings.claim_judged(ev)
                case QuickplayFiled():
                    self.endings.quickplay_filed(ev)
                case TimeAdded():
                    self.endings.time_added(ev)
                case Divergence():
                    self.rulings.diverged(ev)
                case BoardsAgree():
                    self.rulings.boards_agree(ev)
                case ScoreDeviation():
                    self.rulings.score_deviation(ev)
                case Ruling() | RulingOverride():
                    self.rulings.ruled(ev)
                    if self.eboard is not None:
                        self.eboard.ruled(ev.t)
                case Adjourned():
                    self.adjournments.adjourned(ev)
                case SealedMove():
                    self.adjournments.sealed(ev)
                case EnvelopeOpened():
                    made = next((m for m in events[i + 1:] if isinstance(m, MoveMade)), None)
                    self.adjournments.opened(ev, chess.Move.from_uci(made.uci) if made is not None else None)
                case EnvelopeLost():
                    self.adjournments.lost(ev)
                case ResponderClockStarted():
                    self.adjournments.responder_absent(ev)
                case JournalDamaged():
                    self._journal_damaged(ev)
                case _:
                    pass    # inputs and outcomes nobody at the table acts on (a touch, a note, a press)

    def _journal_damaged(self, ev: JournalDamaged) -> None:
        lines = list(ev.lines)
        self.state.show(ev.t, plural(len(lines), "session.journal_damaged_one", "session.journal_damaged", self.lang,
                                     lines=", ".join(map(str, lines)), path=self.session.journal_path))

    # ================================================================ construction
    @classmethod
    def new(cls, setup: TableSetup, now: float, journal: Path | None = None) -> Table:
        """A new game as set up; journaled to ``journal`` when given (a new, empty file).

        Raises UserError for a bad time control or start position or a journal that cannot be
        written, FileExistsError for a journal that already holds a game.
        """
        session = new_session(setup, now, journal)
        table = cls(session, setup)
        state = table.state
        state.now = now
        with table._input(now):
            if session.time_control is not None:
                state.react(session.start_clock(now))
            state.show(now, start_shown(setup, state.lang))
            if setup.rules is not None:      # chosen for the event: which rules apply (Appendices A, B)
                state.show(now, session.rules.describe(state.lang))
            if session.blind_color is not None:
                state.say(now, start_text(setup, state.lang), "blind", "answer")
            table.tactile.expect(now)
        return table

    @classmethod
    def resume(cls, journal: Path, now: float, setup: TableSetup | None = None, *,
               count_closed_time: bool | None = None) -> Table:
        """The game of ``journal`` exactly as it stood (a crash, a restart); appends from then on.

        The pending states come back: a placement not yet announced and an
        announcement not yet placed (the engine's journal), an open question and
        the wording (noted by the table), a proposed ruling (the boards still differ),
        a draw offer that stands (told again). The peg-board is asked for a snapshot
        (the pegs are where the hands left them). ``setup`` overrides what the journal
        holds. ``count_closed_time``: whether the time since the last journal entry was
        play time. None (the default) decides from the journal: a game closed on
        purpose (:meth:`close` noted it) was not played meanwhile — the clock runs on
        from ``now``; after a crash the player to move kept thinking, so a crash gives
        nobody time. Raises UserError for a missing or unreadable journal.
        """
        if count_closed_time is None:
            count_closed_time = not _closed_on_purpose(journal)
        session = Session.open(journal, now, count_closed_time=count_closed_time)
        noted, question = read_notes(session)
        table = cls(session, setup if setup is not None else setup_from_journal(session, noted))
        state = table.state
        state.now = now
        with table._input(now):
            for ev in session.events:
                if isinstance(ev, JournalDamaged):
                    table._journal_damaged(ev)
            clock = session.clock
            if session.time_control is not None and clock.running is None and not clock.history[1:] \
                    and not session.finished and not session.adjourned:
                state.react(session.start_clock(session.created))   # cut off before the clock was started
            if session.divergence is not None:
                table.rulings.propose()
            text = resumed_text(session, state.lang)
            state.show(now, text)
            if session.blind_color is not None:
                state.say(now, text, "blind", "answer")
            if question is not None:
                table.questions.restore(question, now)
            table.endings.resumed(now)
            table.tactile.set_right(now)
            table.tactile.restore_announcement()    # after the expected position: it is to be placed next
            if table.eboard is not None:
                table.eboard.resumed(now)
        return table

    # ================================================================ subscribers
    def subscribe(self, callback: Callable[[TableEvent], None]) -> Callable[[], None]:
        """Call ``callback`` with every table event, in order; returns the unsubscribe function.

        The first subscriber also gets the events of :meth:`new`/:meth:`resume`.
        """
        return self.state.subscribe(callback)

    # ================================================================ inputs
    @contextmanager
    def _input(self, now: float) -> Iterator[None]:
        """One input at the table: time passes until ``now``, the input is handled, what falls due
        after it (the e-board's reading, the computer's move) follows; everything the engine records
        meanwhile is one unit of the journal, and nobody is told anything before it is written.

        When the journal cannot be written nothing of the input counts: the engine is restored
        from the file, the events are dropped, and the failure is said and shown.
        """
        state = self.state
        try:
            with state.session.unit():
                self._begin(now)
                yield
                self._after()
        except UserError as exc:
            state.drop_queued()
            state.show(state.now, exc.message)
            state.say(state.now, exc.message, "all", "move")
        for ev in state.speech.advance(state.now):
            state.emit(ev)
        state.deliver()

    def _begin(self, now: float) -> None:
        """Time has passed until ``now``: speech ends and begins, the pegs settle, the arbiter looks at
        the clock (a flag that fell meanwhile is seen before the input, Art. 6.8)."""
        state = self.state
        state.now = max(state.now, now)
        state.withdrawn = False
        for ev in state.speech.advance(now):
            state.emit(ev)
        self.clock.tick(now)
        self.assistant.tick(now)
        self.tactile.tick(now)
        if self.eboard is not None:
            self.eboard.tick(now)

    def _after(self) -> None:
        if self.eboard is not None:
            self.eboard.align(self.state.now)
        if self.opponent is not None:
            self.opponent.step(self.state.now)
        self.rulings.refresh()

    def peg_line(self, line: str, now: float) -> None:
        """One line from the peg-board (``L e2``, ``P e4``, ``S …``, ``I …``; boards/PROTOCOL.md).

        A line the protocol cannot read asks the board for a snapshot (events may be lost).
        """
        message = self.tactile.parse(line, now)
        if message is None:
            return
        if isinstance(message, ProtocolError):
            with self._input(now):
                self.tactile.unreadable(now)
            return
        self.peg_input(message, now)

    def peg_input(self, event: InputEvent, now: float) -> None:
        """A parsed peg-board event (Lift, Place, Snapshot, PieceUpdate) at ``now``."""
        with self._input(now):
            self.tactile.feed(event, now)

    def eboard_input(self, event: InputEvent, now: float) -> None:
        """A raw event of the sighted player's DGT e-board (PieceUpdate, Snapshot) at ``now``.

        Ignored without an e-board (``TableSetup.sighted_board != "dgt"``).
        """
        with self._input(now):
            if self.eboard is not None:
                self.eboard.feed(event, now)

    def tick(self, now: float) -> None:
        """Let time pass: the tracker settles, speech ends and begins, flags fall, warnings come due."""
        with self._input(now):
            pass

    def blind_says(self, text: str, confidence: float | None, now: float) -> None:
        """What the recogniser heard from the blind player (``confidence`` 0..1, None: typed).

        Without an electronic tactile board his announcement of a move also makes it on his
        board (his hands carry it out unseen, D.2.3)."""
        with self._input(now):
            if self.opponent is None or not self.opponent.hears(text, confidence, now):
                self.hearing.blind_says(text, confidence, now)

    def answer(self, who: Who, answer: Answer, now: float) -> None:
        """An answer to the open question: 1…n (the candidate), "yes" or "no" (keys or a button)."""
        with self._input(now):
            self.questions.answer(who, answer, now)

    def sighted_move(self, move: chess.Move | str, now: float) -> None:
        """A move on the sighted board: the sighted player's own (made, D.2.5) or a mirror.

        ``move``: a ``chess.Move``, UCI, or any notation or spoken phrase in the game's
        language; an unreadable one is refused (``Refused(what="move")``).
        """
        with self._input(now):
            self.moves.sighted_move(move, now)

    def tactile_move(self, move: chess.Move | str, now: float) -> None:
        """Without a peg-board: the move made on the tactile board, entered by hand (as :meth:`sighted_move`)."""
        with self._input(now):
            self.moves.tactile_move(move, now)

    def sighted_touch(self, square: int | str, now: float) -> None:
        """The sighted player touched a piece (D.2.5; the assistant reports it, D.2.10 e)."""
        with self._input(now):
            self.moves.sighted_touch(square, now)

    def sighted_says(self, text: str, now: float) -> None:
        """What the sighted side said or typed: answers ("ja", "nein"), a draw offer or claim, resignation."""
        with self._input(now):
            self.hearing.sighted_says(text, now)

    def resign(self, who: Who | str, now: float) -> None:
        """``who`` ("blind"/"sighted" or a colour) wants to resign: asked first (nothing ends before the answer)."""
        with self._input(now):
            self.endings.ask_resign(self.state.who(who), now)

    def offer_draw(self, who: Who | str, now: float) -> None:
        """``who`` offers a draw, or — when the opponent's offer stands — is asked to confirm accepting it."""
        with self._input(now):
            self.endings.offer_draw(self.state.who(who), now)

    def claim(self, who: Who | str, kind: ClaimKind, now: float, move: chess.Move | str | None = None) -> None:
        """``who`` claims a draw by threefold repetition or fifty moves (Art. 9.2, 9.3; with ``move``, the
        move he declares he will make, read as a sighted move is), the opponent's flag (Art. 6.8, D.2.10 e)
        or an illegal move (rapid and blitz without adequate supervision). ValueError for an unknown kind."""
        if kind not in ("threefold", "fifty", "time", "illegal"):
            raise ValueError(f"no such claim: {kind!r}")
        with self._input(now):
            declared = None
            if move is not None:
                declared = self.moves.read("sighted" if self.state.who(who) == "sighted" else "tactile", move, now)
            if move is None or declared is not None:
                self.endings.claim(self.state.who(who), kind, now, declared)

    def claim_quickplay(self, who: Who | str, ground: QuickplayGround, now: float) -> None:
        """``who`` claims a draw with under two minutes left (Guidelines III: "cannot_win" — the opponent
        cannot win by normal means — or "no_effort"); the clocks stop and the arbiter decides."""
        with self._input(now):
            self.endings.claim_quickplay(self.state.who(who), ground, now)

    def arbiter_result(self, result: str, now: float) -> None:
        """The arbiter decides the result, "1-0", "0-1" or "1/2-1/2" (Art. 12.9, Guidelines I.10); refused
        when the game is over. ValueError for any other text."""
        with self._input(now):
            self.endings.arbiter_result(result, now)

    def arbiter_quickplay(self, verdict: QuickplayVerdict, now: float) -> None:
        """The arbiter decides the quickplay-finish claim: "draw", "reject" or "postpone"."""
        with self._input(now):
            self.endings.arbiter_quickplay(verdict, now)

    def adjourn(self, now: float) -> None:
        """The arbiter adjourns the game (Guidelines I.1): the player to move seals his move."""
        with self._input(now):
            self.adjournments.adjourn(now)

    def seal(self, who: Who | str, text: str, now: float) -> None:
        """``who`` writes (or says) his sealed move (Guidelines I.1); never said or shown back."""
        with self._input(now):
            self.adjournments.seal(self.state.who(who), text, now)

    def resume_adjourned(self, now: float) -> None:
        """The arbiter resumes the adjourned game: the envelope is opened, the sealed move made (I.7, I.9 a)."""
        with self._input(now):
            self.adjournments.resume(now)

    def resume_absent(self, now: float) -> None:
        """The arbiter resumes while the player who must reply is absent: his clock is started, the envelope
        stays closed until he arrives (Guidelines I.9 b; then :meth:`resume_adjourned`)."""
        with self._input(now):
            self.adjournments.resume_absent(now)

    def pause(self, now: float) -> None:
        """The arbiter stops the clock."""
        with self._input(now):
            self.clock.pause(now)

    def continue_clock(self, now: float) -> None:
        """The arbiter starts the clock again after :meth:`pause`."""
        with self._input(now):
            self.clock.continue_clock(now)

    def toggle_clock(self, now: float) -> None:
        """The arbiter stops the clock, or starts it again when he had stopped it (nothing without a clock)."""
        with self._input(now):
            s = self.state.session
            if s.time_control is None:
                return
            if s.clock.paused:
                self.clock.continue_clock(now)
            else:
                self.clock.pause(now)

    def set_clock(self, color: chess.Color | str, seconds: float, now: float) -> None:
        """The arbiter sets ``color``'s remaining time (D.2.9: he readjusts the clocks)."""
        with self._input(now):
            self.clock.set_clock(color, seconds, now)

    def amend(self, who: Who, index: int, text: str, now: float) -> None:
        """Entry ``index`` (0-based) of ``who``'s score is written or corrected by hand (the keeper, the arbiter).

        Refused when there is no such entry (an entry may be added only right after the last);
        the proposed ruling follows the amended score."""
        with self._input(now):
            state = self.state
            entries = state.session.score(who)
            if not 0 <= index <= len(entries):
                state.refuse(now, "score", tr("table.no_such_entry", state.lang, number=index + 1))
            else:
                state.react(state.session.write(who, text, now, index=index if index < len(entries) else None))
                self.rulings.propose()

    def press(self, color: chess.Color | str, now: float) -> None:
        """``color`` presses the clock (refused unless his move has been made, D.2.4)."""
        with self._input(now):
            self.clock.press(color, now)

    def arbiter_apply(self, now: float) -> None:
        """The arbiter applies the ruling D.2.9 gives now (refused when there is none)."""
        with self._input(now):
            self.rulings.apply(now)

    def arbiter_retrace(self, plies: int, now: float) -> None:
        """The arbiter retraces to ``plies`` half-moves of the game (D.2.9, his own decision)."""
        with self._input(now):
            self.rulings.retrace(plies, now)

    def request(self, what: str, now: float, by: Who = "blind", *, square: int | None = None,
                piece_type: int | None = None, color: chess.Color | None = None, ply: int | None = None) -> None:
        """A request answered only because it was asked (D.2.10 d): "time", "moves", "last_move",
        "square", "pieces", "position", the lookups ("captures", "around", "opponent", "last_capture",
        "move_list", "step" to half-move ``ply``). The answer is said to ``by``."""
        with self._input(now):
            self.requests.answer(what, by, now, square=square, piece_type=piece_type, color=color, ply=ply)

    def set_wording(self, wording: str, now: float) -> None:
        """From now on the blind player hears moves and squares in ``wording`` (``board_words.WORDINGS``:
        "phonetic", "nato", "san"); noted in the journal, so a resumed game keeps it. Raises ValueError
        for an unknown wording."""
        if wording not in WORDINGS:
            raise ValueError(f"wording must be one of {', '.join(WORDINGS)}: {wording!r}")
        with self._input(now):
            if wording != self.state.wording:
                self.state.wording = wording
                self.state.session.note(tr("table.note_wording", self.lang), now, kind=NOTE_WORDING, wording=wording)

    def set_language(self, lang: str, now: float) -> None:
        """From now on the table speaks, shows and understands ``lang`` (the program's one language, chosen while
        the game runs). The scoresheets keep the notation they are written in; nothing is journaled — the
        program sets its language again when it reopens the game. Raises ValueError for a language the table
        does not speak."""
        if lang not in UI_LANGS:
            raise ValueError(f"language must be one of {', '.join(UI_LANGS)}: {lang!r}")
        with self._input(now):
            if lang != self.state.lang:
                self.state.lang = lang
                self.state.speech.use_language(lang, wpm=self.state.setup.wpm)
                self.questions.use_language(lang)

    def repeat(self, now: float) -> None:
        """Say the last announcement again."""
        with self._input(now):
            self.requests.repeat(now)

    def stop_speech(self, now: float) -> None:
        """The listener stopped the voice."""
        with self._input(now):
            for ev in self.state.speech.stop(now):
                self.state.emit(ev)

    def reading(self, text: str, now: float) -> None:
        """The UI's own speech (board cursor, menus): the lowest priority, never cuts an announcement."""
        with self._input(now):
            self.state.say(now, text, "blind", "reading")

    def finish(self, now: float) -> None:
        """Everything still to be said is said to the end (the end of a script or of the program)."""
        with self._input(now):
            for ev in self.state.speech.finish(now):
                self.state.emit(ev)

    # ================================================================ practice against the computer
    def connect_engine(self, chooser: MoveChooser | None, now: float) -> None:
        """Practice games: the engine is there. ``chooser`` is asked when the computer's turn begins;
        None: the table asks with ``DeviceRequest(device="engine", what="move", fen)`` and the front
        answers with :meth:`engine_move` / :meth:`engine_failed`. Ignored in other games."""
        with self._input(now):
            if self.opponent is not None:
                self.opponent.connect(chooser, now)

    def engine_move(self, move: chess.Move, fen: str, now: float) -> None:
        """The engine's answer to the request for position ``fen``: played when due (dropped when stale)."""
        with self._input(now):
            if self.opponent is not None:
                self.opponent.chosen(move, fen, now)

    def engine_failed(self, message: str, now: float) -> None:
        """The engine failed (``message``: one sentence): said and shown; the game stands as it is."""
        with self._input(now):
            if self.opponent is not None:
                self.opponent.failed(message, now)

    def take_back(self, now: float) -> None:
        """Practice with coaching: the blind player's last move and the computer's reply are taken back
        (refused otherwise)."""
        with self._input(now):
            if self.opponent is not None:
                self.opponent.take_back(now)
            else:
                self.state.refuse(now, "take-back", tr("engine.take_back_not_coaching", self.lang), to="blind")

    # ================================================================ state for the front ends
    @property
    def session(self) -> Session:
        """The game, both boards, both scores, the clock, the journal."""
        return self.state.session

    @property
    def setup(self) -> TableSetup:
        """How the table is set up."""
        return self.state.setup

    @property
    def lang(self) -> str:
        """The game's language."""
        return self.state.lang

    @property
    def speech(self) -> SpeechPolicy:
        """The one voice at the table."""
        return self.state.speech

    @property
    def dialogue(self) -> Dialogue:
        """The confidence gate for the blind player's announcements."""
        return self.questions.dialogue

    @property
    def tracker(self) -> Tracker | None:
        """The peg-board tracker (None without a peg-board)."""
        return self.tactile.tracker

    @property
    def question(self) -> Question | None:
        """The open question, or None."""
        return self.questions.question

    @property
    def proposal(self) -> Proposal | None:
        """The proposed D.2.9 ruling, or None while the boards agree."""
        return self.rulings.proposal

    @property
    def adjusting(self) -> bool:
        """The tactile board is being set right (after a ruling, on resume, on request): no touches."""
        return self.state.adjusting

    @adjusting.setter
    def adjusting(self, value: bool) -> None:
        self.state.adjusting = value

    @property
    def mismatch(self) -> tuple[str, ...]:
        """Squares (names) where the tactile board differs from what it should show."""
        return self.tactile.mismatch

    @property
    def lifted(self) -> int | None:
        """The square of a peg in the hand (only one, the last lifted), None when none."""
        return self.tactile.lifted

    @property
    def tactile_mismatch(self) -> list[str]:
        """Squares where the tactile board differs from what it should show (names)."""
        return list(self.tactile.mismatch)

    @property
    def tactile_in_sync(self) -> bool | None:
        """The tracker's last word: the pegs show the expected position (None: not known yet / no peg-board)."""
        tracker = self.tactile.tracker
        return tracker.in_sync if tracker is not None else None

    def grammar(self) -> list[str]:
        """The phrases the recogniser should listen for now (the position the blind player announces in)."""
        phrases = list(phonetic_grammar(self.state.hearing_board(), self.lang))
        if self.opponent is not None:
            phrases += self.opponent.phrases()      # practice: "take back"
        return phrases

    def idle_at(self, now: float) -> float:
        """When everything started is over: the speech and what waits behind it, the pegs' settle time.

        The UI's readings (board cursor, menus) are left out: a reading is cut by anything and nothing
        waits for it, so the end of a game (the final's time and clocks) does not depend on whether a
        square was being read. A flag is no such thing either (:meth:`next_due` has it).
        """
        end = self.state.speech.idle_at(now, readings=False)
        settled = self.tactile.settled_at()
        if settled is not None:
            end = max(end, settled)
        if self.eboard is not None:
            end = max(end, self.eboard.idle_at(now))
        if self.opponent is not None and (due := self.opponent.due_at(now)) is not None:
            end = max(end, due)     # the computer's move (a ruling, a reminder) still to come
        return max(now, end)

    def next_due(self, now: float) -> float | None:
        """The earliest moment something falls due: the pegs settle, the utterance being said ends (the
        next one begins), a flag falls or a chosen low-time warning comes (just after it). None: nothing
        will fall due without an input. The end of a reading is left out (as in :meth:`idle_at`). The
        front ticks the table then (:meth:`tick`) — the app's timer, the scenario runner. A moment not
        after ``now`` is overdue: tick now.
        """
        dues = [due for due in (self.state.speech.next_end(readings=False), self.tactile.settle_due(),
                                self.clock.due(now)) if due is not None]
        if self.eboard is not None and (due := self.eboard.settle_due()) is not None:
            dues.append(due)
        if self.opponent is not None and (due := self.opponent.due_at(now)) is not None:
            dues.append(due)
        return min(dues) if dues else None

    def close(self) -> None:
        """The game leaves this table on purpose (the app quits, another game is opened): an
        unfinished game's journal notes it — so :meth:`resume` does not count the time until the
        game is reopened as play time — and is closed. No events."""
        session = self.state.session
        if session.result is None and session.journal_path is not None:
            try:
                session.note(tr("table.note_closed", self.lang), max(self.state.now, session.last_time),
                             kind=NOTE_CLOSED)
            except UserError:
                pass     # the journal cannot be written: the game is reopened as after a crash
        session.close()

    def abandon(self) -> None:
        """The program dies here (a crash simulated): nothing is written, the journal's file is let go as the
        system does for a killed process; :meth:`resume` opens it as after a crash."""
        self.state.session.abandon()

    def final(self, now: float) -> Final:
        """The state now: both boards and the game (FEN), plies, both scores, clocks, result."""
        return final(self.state, now)

    def next_step(self) -> str:
        """One line: what the players or the assistant do now."""
        return next_step(self.state, self.questions.question)


def _closed_on_purpose(journal: Path) -> bool:
    """Whether the journal's last input is the note :meth:`Table.close` writes."""
    try:
        events = read_journal(journal).events
    except OSError:
        return False   # Session.open says what is wrong with the file
    inputs = [ev for ev in events if not ev.get("derived")]
    return bool(inputs) and inputs[-1].get("type") == "note" and inputs[-1].get("kind") == NOTE_CLOSED
