"""The table: one game under FIDE Laws Appendix D as the people at the table live it (pure core).

:class:`Table` is the façade the front ends use — the Qt window, the command
line and the scenario runner. Every input is a command (:mod:`blindchess.table.commands`,
one frozen dataclass each) handed to :meth:`Table.handle` with ``now`` (seconds); the
table never reads a clock, never sleeps, imports no Qt, audio or serial code. What
happens comes out as typed events (:mod:`blindchess.table.events`) to
:meth:`Table.subscribe`'s callbacks. Events produced while the table is built
(:meth:`Table.new`, :meth:`Table.resume`) are kept and given to the first
subscriber.

Each group of rules lives in one module; the façade only wires them, gives each
command to its part with one ``match`` (:meth:`Table._apply`), and dispatches the
rules engine's events: every command to the engine returns the events it caused, a
part puts them at the end of the input's one queue (``TableState.react``), and
:meth:`Table._drain` takes them from the front, batch after batch, handing each event
to the parts that act on it with one ``match`` (:meth:`Table._dispatch`). What those
parts cause is queued behind everything queued before, so the order of events and of
what is said follows from the order of the code, never from how deeply calls nest.
Everything one input causes is one unit of the journal, written before anybody is
told anything (:meth:`Table._input`).

=========================================  ==============================================================
:mod:`~blindchess.table.setup`             :class:`TableSetup`, the shared small types (the players, the question)
:mod:`~blindchess.table.commands`          every input at the table, one frozen dataclass each
:mod:`~blindchess.table.notes`             the table's facts kept in the journal, typed
:mod:`~blindchess.table.state`             the game, the one voice, events out, the queue back from the engine
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
from typing import assert_never

import chess

from ..base import UserError, plural, tr
from ..game import (
    Adjourned,
    AnnounceIgnored,
    AnnounceMismatch,
    AnnounceUnclear,
    BoardMoveRejected,
    BoardsAgree,
    ClaimJudged,
    ClockRefused,
    ClockTimes,
    CorrectionAgreed,
    CorrectionRefused,
    Divergence,
    DrawDeclined,
    DrawOffer,
    EnvelopeLost,
    EnvelopeOpened,
    FlagFallen,
    GameEnd,
    GameEvent,
    GameSnapshot,
    IllegalCorrected,
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
from ..language import grammar as phonetic_grammar
from ..laws import Proposal
from ..pegboard import ProtocolError
from ..storage import InputId, JournalRead, read_journal
from .adjournment import Adjournments
from .assistant import AssistantDuties
from .clock import ClockKeeper
from .commands import (
    AgreesCorrection,
    AmendScore,
    Answers,
    ArbiterAdjourn,
    ArbiterAnnul,
    ArbiterApply,
    ArbiterContinue,
    ArbiterLate,
    ArbiterPause,
    ArbiterQuickplay,
    ArbiterResult,
    ArbiterResume,
    ArbiterResumeAbsent,
    ArbiterResumeSealerAbsent,
    ArbiterRetrace,
    ArbiterSetClock,
    ArbiterToggleClock,
    BlindSays,
    Claims,
    ClaimsQuickplay,
    ClaimsSetup,
    ClaimsTouch,
    ClockPress,
    Command,
    ConnectEngine,
    EBoardInput,
    EngineFailed,
    EngineMove,
    Finish,
    OffersDraw,
    PegInput,
    PegLine,
    PointsOutClock,
    Reading,
    Repeat,
    Request,
    Resigns,
    Seals,
    SetLanguage,
    SetWording,
    SightedMove,
    SightedSays,
    SightedTouch,
    StopSpeech,
    TactileMove,
    TakesBack,
    Tick,
)
from .eboard import EBoard
from .ending import Endings
from .events import Final, TableEvent
from .hearing import Hearing
from .moves import Moves
from .notes import TableClosed, WordingChosen
from .opponent import Opponent
from .questions import Questions
from .requests import Requests
from .ruling import TableRulings
from .setup import Question, TableSetup
from .speech import SpeechPolicy
from .start import new_session, read_notes, resumed_text, setup_from_journal, start_shown, start_text
from .state import TableState
from .status import final, next_step
from .tactile import TactileBoard

__all__ = ["TableSetup", "Question", "Table", "APP_INPUTS"]

#: The origin of the inputs the program numbers itself (:meth:`Table.handle` without an identity).
APP_INPUTS = "app"


class Table:
    """One game at one table; see the module docstring. Build with :meth:`new` or :meth:`resume`."""

    def __init__(self, session: Session, setup: TableSetup) -> None:
        self.state = TableState(session, setup)
        self.tactile = TactileBoard(self.state)
        self.questions = Questions(self.state)
        self.clock = ClockKeeper(self.state)
        self.requests = Requests(self.state)
        self.endings = Endings(self.state, self.questions)
        self.moves = Moves(self.state, self.tactile)
        self.adjournments = Adjournments(self.state, self.tactile)
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
    def _drain(self) -> None:
        """Dispatch what is queued, first come first served: a batch of the engine's events (what the
        parts do with them is queued behind everything queued before), or a part's next step."""
        queue = self.state.queue
        while queue:
            item = queue.popleft()
            if callable(item):
                item()
            else:
                self._dispatch(item)

    def _dispatch(self, events: Sequence[GameEvent]) -> None:
        """The one dispatch of the engine's events (the batch one command returned) to the parts of the
        table that act on them."""
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
                case CorrectionAgreed():
                    self.endings.correction_agreed(ev)
                case IllegalCorrected():
                    self.endings.illegal_corrected(ev)
                    self._position_restored(ev.t)
                case QuickplayFiled():
                    self.endings.quickplay_filed(ev)
                case TimeAdded():
                    self.endings.time_added(ev)
                case Divergence():
                    self.rulings.diverged(ev)
                case BoardsAgree():
                    # after a ruling (in its batch) the boards agree by the ruling's doing, which is no news
                    self.rulings.boards_agree(ev, ruled=any(isinstance(e, (Ruling, RulingOverride))
                                                            for e in events[:i]))
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

    def _position_restored(self, now: float) -> None:
        """The game went back to an earlier position (an illegal move taken back): the boards are set right."""
        self.tactile.set_right(now)
        if self.eboard is not None:
            self.eboard.ruled(now)

    def _journal_damaged(self, ev: JournalDamaged) -> None:
        lines = list(ev.lines)
        self.state.show(ev.t, plural(len(lines), "session.journal_damaged_one", "session.journal_damaged", self.lang,
                                     lines=", ".join(map(str, lines)), path=self.state.game.journal_path))

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
            if session.snapshot.time_control is not None:
                state.react(session.start_clock(now))
            state.show(now, start_shown(setup, state.lang))
            if setup.rules is not None:      # chosen for the event: which rules apply (Appendices A, B)
                state.show(now, session.snapshot.rules.describe(state.lang))
            if session.snapshot.blind_color is not None:
                state.say(now, start_text(setup, state.lang), "blind", "answer")
            table.tactile.expect(now)
        return table

    @classmethod
    def resume(cls, journal: Path, now: float, setup: TableSetup | None = None, *,
               count_closed_time: bool | None = None, pegs_still_since: float | None = None) -> Table:
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
        nobody time. ``pegs_still_since``: when the hands last moved the pegs, if the front knows it
        (the pegs' settle time counts from then, not from the first snapshot). Raises UserError for a
        missing or unreadable journal.
        """
        try:
            read: JournalRead | None = read_journal(journal)     # read once, as a stream
        except OSError:
            read = None     # Session.open says what is wrong with the file
        if count_closed_time is None:
            count_closed_time = read is None or not _closed_on_purpose(read)
        session = Session.open(journal, now, count_closed_time=count_closed_time, read=read)
        noted, question = read_notes(session)
        table = cls(session, setup if setup is not None else setup_from_journal(session, noted))
        state = table.state
        state.now = now
        with table._input(now):
            for ev in session.events:
                if isinstance(ev, JournalDamaged):
                    table._journal_damaged(ev)
            # a clock stands still only before it is started (the game's end stops it; an adjournment pauses it):
            # the journal was cut off before the clock was started
            if session.snapshot.time_control is not None and session.clock.running is None \
                    and not session.snapshot.finished and not session.snapshot.adjourned:
                state.react(session.start_clock(session.snapshot.created))
            text = resumed_text(session, state.lang)
            state.show(now, text)
            if session.snapshot.blind_color is not None:
                state.say(now, text, "blind", "answer")
            if question is not None:
                table.questions.restore(question, now)
            table.endings.resumed(now)
            table.tactile.resumed(now, pegs_still_since)
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
    def handle(self, command: Command, now: float, ident: InputId | None = None) -> None:
        """Apply ``command`` at ``now`` (seconds): the one entry of every input at the table.

        Everything it causes is one unit of the journal, and nobody is told anything before it is
        written (:meth:`_input`). A peg-board line that is no board event (``I``, a comment) is
        nothing for the table.

        ``ident``: the input's identity, kept in its unit — a front that may give an input again after a
        crash (a script played on from where the program was killed) names each one; an input the game
        holds already (:meth:`~blindchess.game.Session.holds`) is not applied a second time. Without it the
        input is numbered by the program's own count (origin ``"app"``, going on across restarts).
        """
        if ident is None:
            ident = self._next_input()
        elif self.state.session.holds(ident):
            return      # applied before the crash: every input once
        if isinstance(command, PegLine):
            message = self.tactile.parse(command.text, now)
            if message is None:
                return
            with self._input(now, ident):
                if isinstance(message, ProtocolError):
                    self.tactile.unreadable(now)
                else:
                    self.tactile.feed(message, now)
            return
        with self._input(now, ident):
            self._apply(command, now)

    def _next_input(self) -> InputId:
        """The next number of the program's own count of inputs (after the highest one the game holds)."""
        held = self.state.session.held(APP_INPUTS)
        return InputId(APP_INPUTS, (held.number if held is not None else 0) + 1)

    def _apply(self, command: Command, now: float) -> None:
        """The one ``match`` that gives each command to the part of the table it is for."""
        state = self.state
        opponent = self.opponent
        match command:
            case PegLine():
                pass    # read in :meth:`handle`
            case PegInput(event=event):
                self.tactile.feed(event, now)
            case EBoardInput(event=event):
                if self.eboard is not None:
                    self.eboard.feed(event, now)
            case Tick():
                pass    # time has passed (:meth:`_begin`)
            case BlindSays(text=text, confidence=confidence):
                if opponent is None or not opponent.hears(text, confidence, now):
                    self.hearing.blind_says(text, confidence, now)
            case Answers(who=who, answer=answer):
                self.questions.answer(who, answer, now)
            case SightedMove(move=move):
                self.moves.board_move("sighted", move, now)
            case TactileMove(move=move):
                self.moves.board_move("tactile", move, now)
            case SightedTouch(square=square):
                self.moves.sighted_touch(square, now)
            case SightedSays(text=text):
                self.hearing.sighted_says(text, now)
            case Resigns(who=who):
                self.endings.ask_resign(who, now)
            case OffersDraw(who=who):
                self.endings.offer_draw(who, now)
            case Claims(who=who, kind=kind, move=move):
                # the move he declares he will make is read in the game's position, whatever his board shows
                # (the blind player's: before his own move not yet pressed, which his announcement declared)
                position = state.hearing_board() if who == "blind" else state.session.game_board()
                declared = None if move is None else self.moves.read("sighted" if who == "sighted" else "tactile",
                                                                     move, now, position=position)
                if move is None or declared is not None:
                    self.endings.claim(who, kind, now, declared)
            case ClaimsQuickplay(who=who, ground=ground):
                self.endings.claim_quickplay(who, ground, now)
            case ClaimsSetup(who=who, fault=fault):
                self.endings.claim_setup(who, fault, now)
            case ClaimsTouch(who=who):
                self.endings.claim_touch(who, now)
            case PointsOutClock(who=who):
                self.adjournments.clock_pointed_out(who, now)
            case AgreesCorrection(who=who):
                self.endings.agree_correction(who, now)
            case Seals(who=who, text=text):
                self.adjournments.seal(who, text, now)
            case ClockPress(color=color):
                self.clock.press(color, now)
            case Request(what=what, by=by, square=square, piece_type=piece_type, color=color, ply=ply):
                self.requests.answer(what, by, now, square=square, piece_type=piece_type, color=color, ply=ply)
            case ArbiterApply():
                self.rulings.apply(now)
            case ArbiterRetrace(plies=plies):
                self.rulings.retrace(plies, now)
            case ArbiterResult(result=result):
                self.endings.arbiter_result(result, now)
            case ArbiterQuickplay(verdict=verdict):
                self.endings.arbiter_quickplay(verdict, now)
            case ArbiterAdjourn(session_end=session_end):
                self.adjournments.adjourn(now, session_end)
            case ArbiterResume():
                self.adjournments.resume(now)
            case ArbiterResumeAbsent():
                self.adjournments.resume_absent(now)
            case ArbiterResumeSealerAbsent():
                self.adjournments.resume(now, sealer_absent=True)
            case ArbiterLate(color=color):
                self.adjournments.late(color, now)
            case ArbiterAnnul():
                self.adjournments.annul(now)
            case ArbiterPause():
                self.clock.pause(now)
            case ArbiterContinue():
                self.clock.continue_clock(now)
            case ArbiterToggleClock():
                self.clock.toggle(now)
            case ArbiterSetClock(color=color, seconds=seconds):
                self.clock.set_clock(color, seconds, now)
            case AmendScore(who=who, index=index, text=text):
                self.rulings.amend(who, index, text, now)
            case SetWording(wording=wording):
                if wording != state.wording:
                    state.wording = wording
                    state.session.note(tr("table.note_wording", self.lang), now, WordingChosen(wording))
            case SetLanguage(lang=lang):
                if lang != state.lang:         # nothing journaled: the program sets its language again on reopening
                    state.lang = lang
                    state.speech.use_language(lang, wpm=state.setup.wpm)
                    self.questions.use_language(lang)
            case Repeat():
                self.requests.repeat(now)
            case StopSpeech():
                for ev in state.speech.stop(now):
                    state.emit(ev)
            case Reading(text=text):
                state.say(now, text, "blind", "reading")
            case Finish():
                for ev in state.speech.finish(now):
                    state.emit(ev)
            case ConnectEngine(chooser=chooser):
                if opponent is not None:
                    opponent.connect(chooser, now)
            case EngineMove(move=move, fen=fen):
                if opponent is not None:
                    opponent.chosen(move, fen, now)
            case EngineFailed(message=message):
                if opponent is not None:
                    opponent.failed(message, now)
            case TakesBack():
                if opponent is not None:
                    opponent.take_back(now)
                else:
                    state.refuse(now, "take-back", tr("engine.take_back_not_coaching", self.lang), to="blind")
            case _:
                assert_never(command)

    @contextmanager
    def _input(self, now: float, ident: InputId | None = None) -> Iterator[None]:
        """One input at the table: time passes until ``now``, the input is handled, what falls due
        after it (the e-board's reading, the computer's move) follows — each step followed by what
        it caused, dispatched from the one queue (:meth:`_drain`); everything the engine records
        meanwhile is one unit of the journal, and nobody is told anything before it is written.

        When the journal cannot be written nothing of the input counts: the engine is restored
        from the file, the events are dropped, and the failure is said and shown.
        """
        state = self.state
        try:
            with state.session.unit(ident):
                self._begin(now)
                yield
                self._drain()
                self._after()
        except UserError as exc:
            state.drop_queued()
            state.show(state.now, exc.message)
            state.say(state.now, exc.message, "all", "move")
        for ev in state.speech.advance(state.now):
            state.emit(ev)
        state.deliver()

    def _begin(self, now: float) -> None:
        """Time has passed until ``now``: speech ends and begins, the arbiter looks at the clock (a flag
        that fell meanwhile is seen before the input, Art. 6.8), the assistant's duties, the pegs and the
        e-board settle — each followed by what it caused."""
        state = self.state
        state.now = max(state.now, now)
        state.withdrawn = False
        for ev in state.speech.advance(now):
            state.emit(ev)
        steps: list[Callable[[float], None]] = [self.clock.tick, self.assistant.tick, self.tactile.tick]
        if self.eboard is not None:
            steps.append(self.eboard.tick)
        for step in steps:
            step(now)
            self._drain()

    def _after(self) -> None:
        """What falls due after the input: the e-board's reading, the computer's move, the proposed
        ruling — each followed by what it caused."""
        now = self.state.now
        if self.eboard is not None:
            self.eboard.align(now)
            self._drain()
        if self.opponent is not None:
            self.opponent.step(now)
            self._drain()
        self.rulings.refresh()

    # ================================================================ state for the front ends
    @property
    def session(self) -> Session:
        """The game, both boards, both scores, the clock, the journal."""
        return self.state.session

    @property
    def game(self) -> GameSnapshot:
        """The game as it stands (the rules engine's snapshot)."""
        return self.state.game

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
        front gives the table a ``Tick`` then — the app's timer, the scenario runner. A moment not
        after ``now`` is overdue: tick now.
        """
        dues = [due for due in (self.state.speech.next_end(readings=False), self.tactile.settle_due(),
                                self.clock.due(now)) if due is not None]
        if self.eboard is not None and (due := self.eboard.settle_due()) is not None:
            dues.append(due)
        if self.opponent is not None and (due := self.opponent.due_at(now)) is not None:
            dues.append(due)
        return min(dues) if dues else None

    def close(self, now: float | None = None) -> None:
        """The game leaves this table on purpose (the app quits, another game is opened) at ``now`` (None: the
        table's time): an unfinished game's journal notes it — so :meth:`resume` does not count the time
        until the game is reopened as play time — and is closed. No events."""
        session = self.state.session
        if session.snapshot.result is None and session.snapshot.journal_path is not None:
            at = self.state.now if now is None else now
            try:
                session.note(tr("table.note_closed", self.lang), max(at, session.snapshot.last_time), TableClosed())
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


def _closed_on_purpose(read: JournalRead) -> bool:
    """Whether the journal's last input is the note :meth:`Table.close` writes."""
    last = next((ev for ev in reversed(read.events) if not ev.get("derived")), None)
    return last is not None and last.get("type") == "note" and last.get("kind") == TableClosed.KIND
