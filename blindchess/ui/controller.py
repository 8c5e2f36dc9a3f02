"""The shell between the window and the table: widgets and devices in, table events out.

Every rule of the game lives in :class:`blindchess.table.table.Table` (and the
session behind it): who must do what next, touches, questions and answers,
both scores, rulings, clocks, what is said to whom and when. The controller
only

* turns input — clicks and keys in the window, typed text, recognised speech
  (:class:`~blindchess.ui.voice.Ears`), the tactile board's and the sighted
  player's e-board's raw events (:class:`~blindchess.ui.tactile.TactileLink`)
  — into the table's commands (:mod:`blindchess.table.commands`, the widgets'
  values read into them here, once), handed to ``Table.handle`` with the
  time of its ``clock`` (injectable: the scenario front passes the script's);
* turns Table events into Qt signals for the window and carries out the
  table's decisions on the devices: :class:`~blindchess.table.events.Speak`
  on the speaker (:class:`~blindchess.ui.voice.TableVoice`),
  :class:`~blindchess.table.events.DeviceRequest` on the serial link;
* lets time pass: ``Tick()`` from a QTimer.

The board cursor's square names go through the table's ``Reading`` command (the lowest
priority of the table's speech policy), so they never cut an announcement.
Threads (link, recogniser) never call the table: their work is queued and run
on the GUI thread.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from pathlib import Path
from typing import get_args

import chess
from PySide6.QtCore import QObject, Qt, QTimer, Signal

from ..adapters import LinkStatus, Speaker
from ..base import UserError, atomic_path, os_error_text, use_lang
from ..game import ClaimKind
from ..language import WORDINGS
from ..pegboard import InputEvent
from ..storage import new_path as new_journal_path
from ..table import (
    AgreesCorrection,
    AmendScore,
    Answer,
    Answers,
    ArbiterAdjourn,
    ArbiterAnnul,
    ArbiterApply,
    ArbiterLate,
    ArbiterQuickplay,
    ArbiterResult,
    ArbiterResume,
    ArbiterResumeAbsent,
    ArbiterResumeSealerAbsent,
    ArbiterRetrace,
    ArbiterSetClock,
    ArbiterToggleClock,
    Asked,
    BlindSays,
    Claims,
    ClaimsQuickplay,
    ClaimsSetup,
    ClaimsTouch,
    ClockPress,
    Command,
    DeviceRequest,
    Diverged,
    EBoardInput,
    GameResult,
    Heard,
    Moved,
    OffersDraw,
    PegInput,
    PointsOutClock,
    QuickplayGround,
    QuickplayVerdict,
    Reading,
    Refused,
    Repeat,
    Request,
    Resigns,
    Ruled,
    Seals,
    SetLanguage,
    SetupFault,
    SetWording,
    Shown,
    SightedMove,
    SightedSays,
    SightedTouch,
    Speak,
    StopSpeech,
    Table,
    TableEvent,
    TableSetup,
    TactileMove,
    TakesBack,
    Tick,
    Who,
)
from .broadcasting import BroadcastSwitch
from .new_game import GameSetup, start_headers
from .practice import PracticeDriver
from .practice import table_setup as practice_setup
from .settings import Settings
from .tactile import TactileLink, eboard_choice, eboard_failed, eboard_link, senses_pieces
from .text import UI_LANGS, t
from .view import TableView
from .voice import Ears, TableVoice

#: Low-time thresholds (seconds) spoken to a blind player who chose warnings (D.2.10 d).
WARNINGS = (300.0, 60.0)


def table_setup(setup: GameSetup, settings: Settings) -> TableSetup:
    """The table's setup for the new-game dialog's choices (the app presses the clock itself)."""
    blind = {(True, True): "both", (True, False): "white", (False, True): "black", (False, False): "none"}[
        (setup.white_impaired, setup.black_impaired)]
    return TableSetup(white=setup.white, black=setup.black, blind=blind, time_control=setup.time_control or None,
                      chess960=setup.chess960, lang=setup.lang, tactile="none" if setup.tactile == "none" else "pegboard",
                      assistant=setup.assistant or None, auto_press=True, headers={**setup.headers(), **start_headers()},
                      senses_pieces=senses_pieces(setup.tactile, setup.profile),
                      warnings=WARNINGS if settings.spoken_clock_warnings else (),
                      sighted_board=getattr(setup, "sighted_board", "window"), wording=settings.wording,
                      rules=setup.rules or None, supervised=setup.supervised)


class GameController(TableView, QObject):
    """One table at a time, seen by one window (what it shows: :class:`~blindchess.ui.view.TableView`)."""

    changed = Signal()              # anything visible changed: the window refreshes
    said = Signal(str)              # a text the table began to say (readings of the board cursor excepted)
    heard = Signal(str, object)     # what the table heard: text, confidence (None when typed)
    confided = Signal(str)          # a text for the sighted player alone (his sealed move to write again)
    info = Signal(str)              # a message for the sighted side: message line, screen reader, log
    question = Signal(object)       # the table asks (an Asked event): the window shows it with its answers
    acted = Signal(list, list)      # an action of the window was done: (texts the table said, texts it showed)
    divergence = Signal()           # the boards diverged (D.2.9): open the arbiter's view
    tableEvent = Signal(object)     # every table event, in order (the scenario front collects them)
    micLevel = Signal(float)        # 0..1
    _wake = Signal()                # work waits in _inbox for the GUI thread (link, recogniser)

    def __init__(self, settings: Settings, *, speaker: Speaker | None = None,
                 clock: Callable[[], float] = time.time, ticking: bool = True) -> None:
        super().__init__()
        self.settings = settings
        self.lang = settings.lang
        self.now = clock
        self.table: Table | None = None
        self.setup: GameSetup | None = None
        self.speaker = speaker
        self._own_speaker = speaker is None
        self.voice = TableVoice(speaker)
        self.ears: Ears | None = None
        self.tactile = TactileLink()
        self.eboard = eboard_link()     # the sighted player's DGT e-board
        self.readings: list[str] = []   # texts given to the table as Reading (the scenario front tells them apart)
        self._unsubscribe: Callable[[], None] | None = None
        self._practice: PracticeDriver | None = None   # the engine of a practice game
        self._answer: list[TableEvent] | None = None   # the table's events during a call being made (its answer)
        self._inbox: queue.SimpleQueue[Callable[[], object]] = queue.SimpleQueue()
        self._wake.connect(self._drain_inbox, Qt.ConnectionType.QueuedConnection)
        self.broadcast = BroadcastSwitch()   # the game broadcast live when the setting says so
        self._timer = QTimer(self)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self.tick)
        self._due = QTimer(self)            # the moment the table's next thing falls due (the next text begins)
        self._due.setSingleShot(True)
        self._due.setTimerType(Qt.TimerType.PreciseTimer)   # a coarse timer may fire 5 % late: 85 ms on 1.7 s
        self._due.timeout.connect(self.tick)
        if ticking:
            self._timer.start()

    def use_clock(self, clock: Callable[[], float]) -> None:
        """Read ``clock`` from now on and stop the timer: time passes only through :meth:`tick` (tests, scenarios)."""
        self.now = clock
        self._timer.stop()
        self._due.stop()

    def _schedule(self) -> None:
        """Tick the table exactly when its next thing falls due — a text waiting behind another begins the moment
        that one ends, not at the next beat of the 200-ms timer (whose redraw waits behind everything else on a
        loaded machine)."""
        if self.table is None or not self._timer.isActive():
            return
        now = self.now()
        due = self.table.next_due(now)
        if due is None or due <= now:        # nothing, or overdue already (the tick just made was for it): the beat
            self._due.stop()
            return
        wait = int((due - now) * 1000) + 1
        if not self._due.isActive() or self._due.remainingTime() > wait:
            self._due.start(wait)

    # ------------------------------------------------------------ threads
    def _later(self, fn: Callable[[], object]) -> None:
        """Run ``fn`` on the GUI thread, from the event loop (callable from any thread)."""
        self._inbox.put(fn)
        self._wake.emit()

    def _drain_inbox(self) -> None:
        while True:
            try:
                fn = self._inbox.get_nowait()
            except queue.Empty:
                return
            fn()

    # ------------------------------------------------------------ devices
    def start_devices(self) -> None:
        """Create the speaker and the recogniser (when a model is installed); called once the window shows."""
        if self.speaker is None:
            self.speaker = Speaker(self.lang, rate=self.settings.rate or None, voice=self.settings.voice or None)
            self.voice.speaker = self.speaker
            if not self.speaker.available:
                self.info.emit(t("speech.no_voice", self.lang))
        self.voice.apply(self.settings, on_status=self.info.emit)  # the speech channel, earcons
        self.ears = Ears(self.lang, self.settings.model, self.speaker,
                         on_text=lambda text, conf: self._later(lambda: self.hear(text, conf)),
                         on_level=self.micLevel.emit, on_info=lambda text: self._later(lambda: self.info.emit(text)))
        self._update_grammar()
        self.changed.emit()

    def attach_speaker(self, speaker: Speaker) -> None:
        """Use ``speaker`` (tests pass one with ``engine="text"``)."""
        self.speaker = self.voice.speaker = speaker

    def listen(self, on: bool) -> None:
        """Push-to-talk pressed (on) or released (off)."""
        if self.ears is None:
            self.info.emit(t("speech.cannot_listen", self.lang, error=t("speech.no_model", self.lang)))
            return
        self.ears.listen(on)

    def _update_grammar(self) -> None:
        if self.ears is not None and self.table is not None:
            self.ears.set_grammar(self.table.grammar())

    def open_tactile(self, kind: str, port: str = "", profile: str = "") -> None:
        """Connect the tactile board ("none", "simulator", "profile" or "serial"); its raw events go to the table."""
        self.tactile.close()
        if kind != "none" and self.table is not None:
            try:
                self.tactile.open(kind, port, profile, lang=self.lang, clock=self.now,
                                  on_input=lambda e: self._later(lambda: self.board_input(e)),
                                  on_status=lambda s: self._later(lambda: self._link_status(s)))
            except UserError as exc:
                self.tactile.close()
                self.info.emit(t("tactile.failed", self.lang, error=exc.message))
            except (OSError, ValueError) as exc:
                self.tactile.close()
                self.info.emit(t("tactile.failed", self.lang, error=exc))
        self.changed.emit()

    def _link_status(self, status: LinkStatus) -> None:
        self.tactile.status(status)
        if status.message:
            self.info.emit(status.message)
        self.changed.emit()

    def board_input(self, event: InputEvent) -> None:
        """One raw event of the tactile board (Lift, Place, Snapshot, PieceUpdate), as the link delivers it."""
        self.act(PegInput(event), answer=False)

    def open_eboard(self, port: str = "") -> None:
        """Connect the sighted player's DGT e-board (on ``port``, or found by its profile) when the game has one."""
        self.eboard.close()
        if self.table is not None and self.table.setup.sighted_board == "dgt":
            try:
                self.eboard.open(*eboard_choice(port), lang=self.lang, clock=self.now,
                                 on_input=lambda e: self._later(lambda: self.eboard_input(e)),
                                 on_status=lambda s: self._later(lambda: self._eboard_status(s)))
            except UserError as exc:
                self.eboard.close()
                self.info.emit(eboard_failed(exc.message, self.lang))
            except (OSError, ValueError) as exc:
                self.eboard.close()
                self.info.emit(eboard_failed(exc, self.lang))
        self.changed.emit()

    def _eboard_status(self, status: LinkStatus) -> None:
        self.eboard.status(status)
        if status.message:
            self.info.emit(status.message)
        self.changed.emit()

    def eboard_input(self, event: InputEvent) -> None:
        """One raw event of the sighted player's e-board (PieceUpdate, Snapshot), as the link delivers it."""
        self.act(EBoardInput(event), answer=False)

    # ------------------------------------------------------------ the game
    def new_game(self, setup: GameSetup) -> bool:
        """Start a journaled game as set up in the new-game dialog."""
        if self.start(practice_setup(table_setup(setup, self.settings), setup), None):
            self.setup = setup
            self.settings.board_profile = "simulator" if setup.tactile == "simulator" else (
                setup.profile if setup.tactile in ("profile", "serial") else "")
            self.settings.port = setup.port if setup.tactile == "serial" else ""
            self.settings.save()
            self.open_tactile(setup.tactile, setup.port, setup.profile)
            self.open_eboard(getattr(setup, "sighted_port", ""))
            return True
        return False

    def start(self, setup: TableSetup, journal: Path | None) -> bool:
        """A new table as set up, journaled to ``journal`` (None: a new file in the journal folder)."""
        path = journal or new_journal_path(setup.white, setup.black)
        try:
            table = Table.new(setup, self.now(), path)
        except UserError as exc:
            self.info.emit(exc.message)
            return False
        except ValueError as exc:
            self.info.emit(t("new.bad_time_control", self.lang, text=setup.time_control or "", error=exc))
            return False
        self._attach(table)
        return True

    def open_journal(self, path: Path) -> bool:
        """Reopen a game exactly as its journal recorded it (a restart; the clock runs on from now)."""
        try:
            table = Table.resume(path, self.now())
        except UserError as exc:
            self.info.emit(exc.message)
            return False
        except (OSError, ValueError, KeyError) as exc:  # a damaged file, a journal from another version
            self.info.emit(t("journal_broken", self.lang, path=path, error=exc))
            return False
        self._attach(table)
        for line, problem in table.game.journal_problems:
            self.info.emit(f"{path.name}:{line}: {problem}")
        profile = self.settings.board_profile
        if profile == "simulator":
            self.open_tactile("simulator")
        elif self.settings.port:
            self.open_tactile("serial", self.settings.port, profile)
        elif profile:
            self.open_tactile("profile", "", profile)
        self.open_eboard(getattr(self.setup, "sighted_port", "") if self.setup is not None else "")
        return True

    def _attach(self, table: Table) -> None:
        self.close_game()  # only now: a game that cannot start leaves the current one as it is
        self.table = table
        if table.lang != self.lang and self.lang in UI_LANGS:    # one language: a reopened game speaks the program's
            table.handle(SetLanguage(self.lang), self.now())
        self.settings.last_journal = str(table.game.journal_path or "")
        self.settings.save()
        self.voice.wording = table.state.wording
        self._unsubscribe = table.subscribe(self._on_event)  # the events of new()/resume() come now
        if self._practice is not None:   # practice against the computer: its engine, off the GUI thread
            self._practice.close()
        self._practice = PracticeDriver.attach(table, later=self._later, now=self.now, changed=self.changed.emit,
                                               threaded=self._timer.isActive())
        self._update_grammar()
        self._sync_broadcast()
        self.changed.emit()

    def _sync_broadcast(self) -> None:
        message = self.broadcast.sync(self.settings.broadcast, self.settings.broadcast_port, self.journal_path, self.lang)
        if message:
            self.info.emit(message)

    def abandon(self) -> None:
        """The program is killed (scenario ``app crash``): the table is dropped, nothing is closed or written;
        its journal's file is let go as the system does for a killed program."""
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self.table is not None:
            self.table.abandon()
        self._unsubscribe, self.table = None, None

    def close_game(self) -> None:
        self.tactile.close()
        self.eboard.close()
        if self._practice is not None:   # the engine process ends with its game
            self._practice.close()
            self._practice = None
        table = self.table
        self.abandon()
        if table is not None:
            table.close()

    def shutdown(self) -> None:
        self._timer.stop()
        self.broadcast.close()
        self.close_game()
        if self.ears is not None:
            self.ears.stop()
        self.voice.close()
        if self.speaker is not None and self._own_speaker:
            self.speaker.close()
            self.speaker = self.voice.speaker = None

    # ------------------------------------------------------------ table calls and events
    def act(self, command: Command, *, refresh: bool = True, answer: bool = True) -> bool:
        """One command to the table with the time passed in; False when there is no game or the table refused it.

        ``refresh``: the window is redrawn afterwards (not for readings: they change nothing shown).
        ``answer``: the call is an action of the person at the keyboard: :attr:`acted` tells the window what the
        table said and showed to it (devices, ticks and readings are no such actions).
        """
        if self.table is None:
            self.info.emit(t("next.no_game", self.lang))
            return False
        events: list[TableEvent] = []
        self._answer = events
        asked = self.table.speech.asked_for_blind
        try:
            self.table.handle(command, self.now())
        finally:
            self._answer = None
        if answer and refresh:
            # what the person at the keyboard hears of it — now or when the voice is free; what was only shown or
            # refused answers him otherwise
            said = [e.text for e in events if isinstance(e, Speak) and e.priority != "reading" and self.voice.heard(e)]
            if not said and self.table is not None and self.table.speech.asked_for_blind > asked \
                    and self.voice.channel != "app":
                said = ["…"]      # asked for, waiting behind what is being said
            self.acted.emit(said, [e.text for e in events
                                    if isinstance(e, (Shown, Refused)) and not getattr(e, "private", False)])
        if refresh:
            self.changed.emit()
        self._schedule()
        return not any(isinstance(e, Refused) for e in events)

    def _on_event(self, event: TableEvent) -> None:
        """Carry out one table event (called by the table after each call, in order)."""
        self.voice.table_event(event)   # speech and earcons, through the channel the user chose
        if self._answer is not None:
            self._answer.append(event)
        if isinstance(event, Speak):
            if event.priority != "reading" and not event.private:
                self.said.emit(event.text)       # a private text (the sealer's) is never logged
        elif isinstance(event, Shown) and event.private:
            self.confided.emit(event.text)       # for the sighted player alone: his message line, no log, no voice
        elif isinstance(event, (Shown, Refused)):
            self.info.emit(event.text)
        elif isinstance(event, Heard):
            self.heard.emit(event.text, event.confidence)
        elif isinstance(event, Asked):
            self.question.emit(event)
        elif isinstance(event, Diverged):
            self.divergence.emit()
        elif isinstance(event, (Moved, Ruled)):
            self._update_grammar()
        elif isinstance(event, DeviceRequest):
            self.tactile.request(event)
            self.eboard.request(event)
        self.tableEvent.emit(event)

    def tick(self) -> None:
        """Time passes (QTimer, and the moment the table's next thing falls due): the pegs settle, speech ends and
        begins, flags fall."""
        if self.table is not None:
            self.table.handle(Tick(), self.now())          # nobody at the keyboard asked for what time brings
            self.changed.emit()
            self._schedule()

    # ------------------------------------------------------------ input (the window's values read into commands, here)
    def sighted_move(self, move: chess.Move | str) -> bool:
        """A move on the sighted board (clicked, or typed in any notation)."""
        return self.act(SightedMove(move))

    def sighted_text(self, text: str) -> bool:
        return self.sighted_move(text)

    def tactile_text(self, text: str) -> bool:
        """Without an electronic tactile board: the move made on it, entered by hand."""
        return self.act(TactileMove(text))

    def blind_typed(self) -> bool:
        """Whether the blind player's moves are typed or spoken (no electronic tactile board at this table)."""
        table = self.table
        return table is not None and table.setup.tactile == "none" and table.game.blind_color is not None

    def hear(self, text: str, confidence: float | None = None, *, typed: bool = False) -> bool:
        """What the blind player said (recognised, with its confidence) or his assistant typed."""
        return self.act(BlindSays(text, None if typed else confidence))

    def sighted_says(self, text: str) -> bool:
        """What the sighted side said (answers, a draw offer, resignation)."""
        return self.act(SightedSays(text))

    def answer(self, answer: int | str, who: str | None = None) -> bool:
        """An answer to the open question by key: 1..n, "yes" or "no"; ``who`` None: the one asked."""
        question = self.table.question if self.table is not None else None
        by: Who = _who(who) if who is not None else (question.to if question is not None else "blind")
        key: Answer = answer if isinstance(answer, int) else ("yes" if answer == "yes" else "no")
        return self.act(Answers(by, key))

    def request(self, what: str, *, square: int | None = None, piece_type: int | None = None,
                color: bool | None = None, ply: int | None = None) -> None:
        """A request by key (D.2.10 d): answered to the blind player (``ply``: the half-move "step" reads)."""
        self.act(Request(what, "blind", square=square, piece_type=piece_type, color=color, ply=ply))

    def sighted_touch(self, square: int) -> None:
        self.act(SightedTouch(square))

    def sighted_draw(self) -> None:
        self.act(OffersDraw("sighted"))

    def sighted_resign(self) -> None:
        self.act(Resigns("sighted"))

    def press(self, color: bool) -> bool:
        return self.act(ClockPress(color))

    def speak_quietly(self, text: str) -> None:
        """The board cursor's square: through the table's policy, so it never cuts an announcement."""
        if self.table is None:
            self.voice.reading(text)
        elif text and self.voice.wants_readings:   # else the screen reader reads the focused square itself
            self.readings.append(text)
            self.act(Reading(text), refresh=False, answer=False)

    def set_wording(self, wording: str) -> None:
        """The blind player hears moves and squares in ``wording`` from now on (``board_words.WORDINGS``)."""
        chosen = next((w for w in WORDINGS if w == wording), None)
        if chosen is None:
            raise ValueError(f"wording must be one of {', '.join(WORDINGS)}: {wording!r}")
        self.voice.wording = chosen
        self.act(SetWording(chosen))

    def take_back(self) -> None:
        """Practice with coaching: take back the last move and the computer's reply (the table may refuse)."""
        self.act(TakesBack())

    def repeat(self) -> None:
        self.act(Repeat())

    def stop_speech(self) -> None:
        """Ctrl+.: silence — the table's voice and what the screen reader still has of ours."""
        self.voice.stop()
        self.act(StopSpeech())

    def toggle_pause(self) -> None:
        self.act(ArbiterToggleClock())

    def amend_score(self, who: str, index: int, text: str) -> bool:
        """Write or correct entry ``index`` of score ``who`` as written (the keeper, the arbiter)."""
        ok = self.act(AmendScore(_who(who), index, text))
        if ok and self.table is not None and self.table.game.divergence:
            self.divergence.emit()  # a changed score changes the proposed ruling
        return ok

    def save_pgn(self, path: Path) -> bool:
        if self.table is None:
            return False
        try:   # written whole or not at all: a reader never finds the file half-written
            with atomic_path(path, self.lang) as tmp:
                tmp.write_text(str(self.table.session.to_pgn_game()) + "\n", encoding="utf-8")
        except UserError as exc:
            self.info.emit(exc.message)
            return False
        except OSError as exc:
            self.info.emit(t("pgn.cannot_save", self.lang, error=os_error_text(exc, self.lang)))
            return False
        self.info.emit(t("pgn.saved", self.lang, path=path))
        return True

    def apply_settings(self, settings: Settings) -> None:
        """New settings, at once (the language: :meth:`set_language`, which the window calls; the voice and the
        recognition model at the next start)."""
        self.settings = settings
        self.voice.apply(settings, on_status=self.info.emit)
        self._sync_broadcast()

    def set_language(self, lang: str) -> None:
        """The whole program speaks ``lang`` from now on: messages, the program's voice, the screen reader, the
        recogniser and the table of the game being played (its scoresheets keep their notation)."""
        self.lang = self.settings.lang = lang
        use_lang(lang)
        if self.speaker is not None:
            self.speaker.set_language(lang)
        self.voice.use(self.voice.chosen, lang=lang)
        if self.table is not None and self.table.lang != lang:
            self.act(SetLanguage(lang), answer=False)
        if self.ears is not None:
            self.ears.stop()
            self.ears = Ears(lang, self.settings.model, self.speaker,
                             on_text=lambda text, conf: self._later(lambda: self.hear(text, conf)),
                             on_level=self.micLevel.emit,
                             on_info=lambda text: self._later(lambda: self.info.emit(text)))
            self._update_grammar()

    # ------------------------------------------------------------ the arbiter (D.2.9)
    def set_clocks(self, clocks: dict[bool, float]) -> None:
        """The arbiter sets remaining times (only the ones he changed are given)."""
        for colour, seconds in clocks.items():
            self.act(ArbiterSetClock(colour, seconds))

    def apply_ruling(self) -> bool:
        return self.act(ArbiterApply())

    def retrace(self, plies: int) -> bool:
        return self.act(ArbiterRetrace(plies))

    def claim(self, who: str, kind: str, move: str | None = None) -> bool:
        """``who`` ("blind"/"sighted") claims ``kind`` (threefold, fifty, time, illegal), with the declared move."""
        claim = next((k for k in get_args(ClaimKind) if k == kind), None)
        if claim is None:
            raise ValueError(f"no such claim: {kind!r}")
        return self.act(Claims(_who(who), claim, move))

    def claim_quickplay(self, who: str, ground: QuickplayGround) -> bool:
        """``who`` claims a draw with under two minutes left (Guidelines III.4); the arbiter decides."""
        return self.act(ClaimsQuickplay(_who(who), ground))

    def arbiter_quickplay(self, verdict: QuickplayVerdict) -> bool:
        """The arbiter decides the quickplay-finish claim (Guidelines III.5)."""
        return self.act(ArbiterQuickplay(verdict))

    def seal(self, who: str, text: str) -> bool:
        """``who`` writes his sealed move (Guidelines I.1)."""
        return self.act(Seals(_who(who), text))

    def adjourn(self, session_left: float = 0.0) -> bool:
        """The arbiter adjourns the game (Guidelines I.1 a); ``session_left`` seconds of the session still to
        go: adjourned before its end, the sealing counts as made then (I.1 b)."""
        return self.act(ArbiterAdjourn(self.now() + session_left if session_left > 0 else None))

    def resume_sealer_absent(self) -> bool:
        """The arbiter resumes while the sealer is absent: the envelope is opened, the sealed move made, and
        his opponent seals the reply in a new envelope (Guidelines I.9 c)."""
        return self.act(ArbiterResumeSealerAbsent())

    def late(self, color: chess.Color) -> bool:
        """The player of ``color`` has not come by the default time (Guidelines I.10)."""
        return self.act(ArbiterLate(color))

    def annul(self) -> bool:
        """The arbiter annuls the game: a new game is to be played (Guidelines I.12 b, Art. 7.2.1)."""
        return self.act(ArbiterAnnul())

    def claim_setup(self, who: str, fault: str) -> bool:
        """``who`` claims a wrong set-up of the pieces, the board's orientation or the clock (Appendix A a)."""
        chosen = next((f for f in get_args(SetupFault) if f == fault), None)
        if chosen is None:
            raise ValueError(f"no such set-up fault: {fault!r}")
        return self.act(ClaimsSetup(_who(who), chosen))

    def claim_touch(self, who: str) -> bool:
        """``who`` claims touch-move against his opponent's last move (Art. 4.3, Appendix A b)."""
        return self.act(ClaimsTouch(_who(who)))

    def point_out_clock(self, who: str) -> bool:
        """``who`` points out a clock wrongly set at the resumption, before his first move (Guidelines I.13)."""
        return self.act(PointsOutClock(_who(who)))

    def agree_correction(self, who: str) -> bool:
        """``who`` agrees to correct the illegal move that stands (blitz, Appendix B)."""
        return self.act(AgreesCorrection(_who(who)))

    def resume_adjourned(self) -> bool:
        """The arbiter resumes the adjourned game: the envelope is opened (Guidelines I.7, I.9)."""
        return self.act(ArbiterResume())

    def arbiter_result(self, result: str) -> bool:
        """The arbiter decides the result, "1-0", "0-1" or "1/2-1/2" (Art. 12.9, Guidelines I.10)."""
        decided = next((r for r in get_args(GameResult) if r == result), None)
        if decided is None:
            raise ValueError(f"no result {result!r}")
        return self.act(ArbiterResult(decided))

    def resume_absent(self) -> bool:
        """The arbiter resumes while the replying player is absent: his clock is started (Guidelines I.9 b)."""
        return self.act(ArbiterResumeAbsent())


def _who(name: str) -> Who:
    """"blind" or "sighted", as the window's widgets name the players; ValueError otherwise."""
    if name == "blind":
        return "blind"
    if name == "sighted":
        return "sighted"
    raise ValueError(f"no such player: {name!r}")
