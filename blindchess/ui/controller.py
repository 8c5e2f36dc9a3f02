"""The glue between the window and the game: session, tactile board, speaker, recogniser.

Thin on purpose. Every decision about the game is the session's
(:mod:`blindchess.session`: D.2.3 made moves, D.2.8 corrections, D.2.9
divergence and rulings, the clock); every word about a move is the move
language's (:mod:`blindchess.phonetic`, :mod:`blindchess.notation`); what the
pegs do is the tracker's (:mod:`blindchess.pegboard.tracker`). The controller
only

* turns input (clicks, typed text, recognised speech, tracker events) into
  session calls, passing the wall-clock time in;
* turns session events into Qt signals (shown, logged, announced to the screen
  reader by the window) and speech (:class:`blindchess.speech.tts.Speaker`);
* keeps both game scores as the players would (see :meth:`_record_scores`);
* passes the assistant's instructions (:mod:`blindchess.assistant`, D.2.10) and
  answers time requests with the talking clock's words
  (:mod:`blindchess.talking_clock`, D.2.6, only on request: D.2.10 d).

The tactile board is read by :class:`blindchess.pegboard.link.SerialLink` (its
own thread, its own :class:`~blindchess.pegboard.tracker.Tracker`); the
simulator is the one of ``blindchess pegboard simulate``, found through the
``simulator`` board profile. Without an electronic board the move made on the
tactile board is typed (:meth:`tactile_text`).

Game scores. The app is the visually impaired player's recording device
(D.2.7) and the assistant's score (D.2.10 c): the blind player's score gets his
own moves as announced and the opponent's moves as he carried them out on the
tactile board; the sighted player's score gets the moves as made on the
sighted board (his own and his mirrors of the blind player's). So a wrong
mirror makes the scores differ at that move and the ruling retraces (D.2.9);
an arbiter can amend an entry in the score table.

Session calls are never made from inside a session callback: events are
queued and handled after the call that produced them returned
(:meth:`_call`), so follow-ups (writing a score entry) cannot re-enter it.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path

import chess
from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal

from ..errors import UserError
from .new_game import GameSetup
from .text import t

#: Session events whose message is spoken (besides moves): D.2.2, D.2.3, D.2.8, D.2.9, D.2.4, flags, results.
SPOKEN_EVENTS = frozenset({
    "touch", "announce-mismatch", "announce-unclear", "announce-ignored", "correction-refused", "clock-refused",
    "divergence", "boards-agree", "flag-fallen", "game-end", "ruling", "ruling-override", "draw-offer",
    "draw-declined", "board-move-rejected", "heard",
})
#: Session events whose message is shown (everything that has one is logged; these also go to the message line).
SHOWN_EVENTS = SPOKEN_EVENTS | {"move-made", "mirror-needed", "placed", "score-deviation", "journal-damaged",
                                "clock-pause", "clock-resume", "clock-set"}
#: Low-time thresholds (seconds) shown on screen; spoken only when the player opted in (D.2.10 d).
WARNINGS = (300.0, 60.0)


def _wall_clock() -> float:
    return time.time()


def _senses_pieces(setup: GameSetup) -> bool:
    """Whether the chosen tactile board reports pieces (DGT) or only occupancy (peg-boards)."""
    if setup.tactile not in ("profile", "serial") or not setup.profile:
        return False
    try:
        from ..pegboard.profiles import load_profile

        return load_profile(setup.profile).senses_pieces
    except (ImportError, UserError):
        return False


class GameController(QObject):
    """One game at a time, seen by one window."""

    changed = Signal()                  # anything visible changed: the window refreshes
    said = Signal(str)                  # the app said (or, without a speech engine, showed) this
    heard = Signal(str, object)         # recognised or typed utterance, confidence (None when typed)
    info = Signal(str)                  # a message: message line, screen reader, log
    assistant = Signal(str)             # an instruction for the assistant (D.2.10): shown and logged, not spoken
    status = Signal(str)                # message line and screen reader only (it is also spoken, and logged as said)
    divergence = Signal()               # the boards diverged (D.2.9): open the arbiter's view
    micLevel = Signal(float)            # 0..1
    _wake = Signal()                    # work waits in _inbox for the GUI thread (speaker, link, microphone)

    def __init__(self, settings, *, speaker=None, clock: Callable[[], float] = _wall_clock) -> None:
        super().__init__()
        self.settings = settings
        self.lang = settings.lang
        self.now = clock
        self.session = None
        self.setup: GameSetup | None = None
        self.speaker = speaker
        self._own_speaker = speaker is None
        self.link = None                 # pegboard.link.SerialLink or the simulator's link
        self.tracker = None
        self.tactile_port: str | None = None
        self.tactile_device: str | None = None
        self.tactile_mismatch: list[str] = []
        self.tactile_state: str | None = None
        self.tactile_in_sync: bool | None = None  # the tracker's last word: in sync / mismatch
        self.adjusting = False
        self.lifted: int | None = None
        self.recognizer = None
        self.microphone = None
        self.listener = None
        self._asr_lock = threading.Lock()
        self._pending: list[dict] = []
        self._handling = False
        self._unsubscribe = None
        self._unsubscribe_assistant = None
        self._warned: dict[bool, set[float]] = {chess.WHITE: set(), chess.BLACK: set()}
        # Link, speaker and microphone threads (and the link's own expect/announce callbacks)
        # put work into the inbox; the event loop runs it, never inside another handler.
        # Only a bare signal crosses threads: no Python object is handed through Qt.
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._wake.connect(self._drain_inbox, Qt.ConnectionType.QueuedConnection)
        self._timer = QTimer(self)
        self._timer.setInterval(200)
        self._timer.timeout.connect(self._tick)
        self._timer.start()

    def _later(self, fn: Callable[[], None]) -> None:
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
        """Create the speaker (and the recogniser when a model is installed); called once the window shows."""
        if self.speaker is None:
            try:
                from ..speech.tts import Speaker

                self.speaker = Speaker(self.lang, rate=self.settings.rate or None, voice=self.settings.voice or None)
            except Exception:  # noqa: BLE001 - no speech engine at all: texts are still shown and logged
                self.info.emit(t("speech.no_voice", self.lang))
        if self.speaker is not None and self._own_speaker:
            self.speaker.on_event(self._speech_event)
        self._start_recognizer()
        self.changed.emit()

    def attach_speaker(self, speaker) -> None:
        """Use ``speaker`` (tests pass one with ``engine="text"``); its texts are logged as said."""
        self.speaker = speaker
        speaker.on_event(self._speech_event)

    def _speech_event(self, event) -> None:
        from ..speech.tts import PRIORITY_READING

        if event.kind == "text" and event.priority != PRIORITY_READING:  # not the board cursor's squares
            if QThread.currentThread() == self.thread():
                self.said.emit(event.text)   # said now, logged now: the log stays in order
            else:
                self._later(lambda text=event.text: self.said.emit(text))

    def _tell(self, text: str, *, urgent: bool = False) -> None:
        """Show and speak a state change (logged once, as said)."""
        if text:
            self.status.emit(text)
            self._say(text, urgent=urgent)

    def _say(self, text: str, *, urgent: bool = False) -> None:
        if not text:
            return
        if self.speaker is None:
            self.said.emit(text)
            return
        from ..speech.tts import PRIORITY_ANSWER, PRIORITY_MOVE

        self.speaker.say(text, priority=PRIORITY_MOVE if urgent else PRIORITY_ANSWER)

    def speak_quietly(self, text: str) -> None:
        """Board navigation: spoken without logging, cutting off the previous square."""
        if self.speaker is not None and text:
            from ..speech.tts import PRIORITY_READING

            self.speaker.say(text, interrupt=True, priority=PRIORITY_READING)

    def voice_name(self) -> str | None:
        if self.speaker is None or not getattr(self.speaker, "available", False):
            return None
        return f"{self.speaker.engine_name} ({self.lang})"

    def model_name(self) -> str | None:
        path = getattr(self.recognizer, "model_path", None)
        return path.name if path is not None else None

    def can_listen(self) -> bool:
        return self.listener is not None and self.microphone is not None and self.microphone.available

    def _start_recognizer(self) -> None:
        """Vosk model + microphone when both exist; otherwise the player's phrases are typed."""
        try:
            from ..speech import asr, models
            from ..speech.microphone import Listener, MicGate, Microphone
        except ImportError:
            return
        model = models.find_model(self.lang, self.settings.model or None)
        if model is None:
            return
        try:
            # one result with word confidences (shown in the log) rather than ranked alternatives
            self.recognizer = asr.Recognizer(model, self.lang, alternatives=0, ui_lang=self.lang)
        except Exception as exc:  # noqa: BLE001 - a broken model: say so, go on without
            self.info.emit(t("speech.cannot_listen", self.lang, error=exc))
            self.recognizer = None
            return
        gate = MicGate()
        if self.speaker is not None:
            gate.attach(self.speaker)
        self.listener = Listener(self.recognizer, self._recognised, gate=gate)

        def audio(pcm: bytes) -> None:  # on the audio thread
            from ..speech.audio import rms

            self.micLevel.emit(min(1.0, rms(pcm) / 8000.0))
            with self._asr_lock:
                self.listener.feed(pcm)

        self.microphone = Microphone(audio, gate=gate, ui_lang=self.lang)
        self._update_grammar()

    def _update_grammar(self) -> None:
        if self.recognizer is None or self.session is None:
            return
        from .. import phonetic

        phrases = phonetic.grammar(self.session.game_board(), self.lang)
        with self._asr_lock:  # the audio thread may be feeding the recogniser right now
            self.recognizer.set_grammar(phrases)

    def listen(self, on: bool) -> None:
        """Push-to-talk pressed (on) or released (off)."""
        if not self.can_listen():
            self.info.emit(t("speech.cannot_listen", self.lang,
                             error=getattr(self.microphone, "problem", "") or t("speech.no_model", self.lang)))
            return
        if on:
            with self._asr_lock:
                self.listener.key_down()
            if self.microphone.start():
                self.info.emit(t("speech.listening", self.lang))
        else:
            self.microphone.stop()
            with self._asr_lock:
                self.listener.key_up()
            self.info.emit(t("speech.not_listening", self.lang))

    def _recognised(self, result: dict) -> None:
        text = (result or {}).get("text", "")
        if text:
            self._later(lambda: self.hear(text, result.get("confidence")))

    # ------------------------------------------------------------ tactile board
    def open_tactile(self, kind: str, port: str = "", profile: str = "") -> None:
        """Connect the tactile board through :class:`blindchess.pegboard.link.SerialLink`.

        ``kind``: "none" (moves entered by hand), "simulator" (the virtual board of
        ``blindchess pegboard simulate``, found through the simulator profile),
        "profile" (a board found by its profile, e.g. "dgt") or "serial" (``port``,
        read with ``profile``'s protocol). The link waits for a board that is not
        there yet and reconnects; its status is shown in the tactile-board panel.
        """
        self.close_tactile()
        if kind == "none" or self.session is None:
            self.changed.emit()
            return
        try:
            from ..pegboard.link import SerialLink
            from ..pegboard.profiles import load_profile
            from ..pegboard.tracker import Tracker
        except ImportError as exc:
            self.info.emit(t("missing_module", self.lang, module=exc.name or "blindchess.pegboard"))
            return
        try:
            board_profile = load_profile("simulator" if kind == "simulator" else profile, self.lang) \
                if (kind != "serial" or profile) else None
            self.tracker = Tracker(self.session.board("tactile"),
                                   senses_pieces=bool(board_profile and board_profile.senses_pieces))
            self.link = SerialLink(self.tracker, self._tracker_event_from_thread, port=port or None,
                                   profile=board_profile, on_status=self._link_status_from_thread, lang=self.lang)
            self.tactile_device = board_profile.title if board_profile else port
            self.tactile_port = port or None
            self.link.start()
        except UserError as exc:
            self.close_tactile()
            self.info.emit(t("tactile.failed", self.lang, error=exc.message))
        except (OSError, ValueError) as exc:
            self.close_tactile()
            self.info.emit(t("tactile.failed", self.lang, error=exc))
        self.changed.emit()

    def close_tactile(self) -> None:
        if self.link is not None:
            try:
                self.link.on_status = None
                self.link.stop()
            except Exception:  # noqa: BLE001 - a vanished device may fail to close in any way
                pass
        self.link = self.tracker = None
        self.tactile_port = self.tactile_device = None
        self.tactile_mismatch = []
        self.tactile_in_sync = None
        self.lifted = None
        self.adjusting = False

    def _tracker_event_from_thread(self, event) -> None:
        self._later(lambda: self.tactile_events([event]))

    def _link_status_from_thread(self, status) -> None:
        self._later(lambda: self._link_status(status))

    def _link_status(self, status) -> None:
        if self.link is None:
            return
        if status.port:
            self.tactile_port = status.port
        if getattr(self.link, "ident", None):
            self.tactile_device = self.link.ident
        self.tactile_state = status.state
        if status.message:
            if status.state in ("disconnected", "reconnected", "not-found"):
                self._tell(status.message)
            else:
                self.info.emit(status.message)
        self.changed.emit()

    def tactile_events(self, events) -> None:
        """Tracker events of the tactile board (D.2.2 touched, D.2.3 placed, mismatches)."""
        if self.session is None:
            return
        for event in events:
            kind = event.type
            if kind == "touched":
                self.lifted = event.square
                if self._mirroring() or self.adjusting or self.tactile_mismatch:
                    continue  # mirroring the opponent's move or setting the board right is no touch (D.2.2)
                self._call(lambda now, e=event: self.session.touch(e.square, now, board="tactile",
                                                                   piece=e.piece.symbol() if e.piece else None))
            elif kind == "move":
                self.lifted = None
                if event.promotion_pending:
                    continue  # completed when the promotion piece is announced (D.2.1)
                self._call(lambda now, e=event: self.session.tactile_move(e.move, now))
            elif kind == "takeback":
                self.lifted = None
                self.adjusting = False
                self._call(lambda now: self.session.take_back("tactile", now))
            elif kind == "mismatch":
                self.lifted = None
                squares = [chess.square_name(s) for s in (event.squares or [])]
                if squares != self.tactile_mismatch:
                    self.tactile_mismatch = squares
                    self._tell(t("tactile.mismatch", self.lang, squares=", ".join(squares)))
            elif kind == "in-sync":
                self.lifted = None
                self.adjusting = False
                if self.tactile_mismatch:
                    self.tactile_mismatch = []
                    self.info.emit(t("tactile.in_sync", self.lang))
        if self.tracker is not None:
            self.tactile_in_sync = self.tracker.in_sync
            if self.tactile_in_sync and self.tactile_mismatch:  # a move or take-back explained it
                self.tactile_mismatch = []
                self.info.emit(t("tactile.in_sync", self.lang))
        self.changed.emit()

    def _mirroring(self) -> bool:
        """The tactile board is behind the game: the blind player is carrying out the opponent's move."""
        s = self.session
        return len(s.moves("tactile")) < len(s.game_moves) or (
            s.blind_color is not None and s.to_move != s.blind_color)

    def _expect_tactile(self) -> None:
        """Tell the tracker what the tactile board should show now."""
        if self.link is None or self.session is None:
            return
        game = self.session.game_board()
        tactile = self.session.board("tactile")
        self.link.expect(game if len(game.move_stack) >= len(tactile.move_stack) else tactile)

    # ------------------------------------------------------------ the game
    def new_game(self, setup: GameSetup) -> bool:
        """Start a journaled game as set up in the new-game dialog."""
        from ..session import Player, Session

        white = Player(setup.white, setup.white_impaired, setup.assistant or None if setup.white_impaired else None)
        black = Player(setup.black, setup.black_impaired, setup.assistant or None if setup.black_impaired else None)
        now = self.now()
        try:
            session = Session.new(white, black, setup.time_control or None, chess960=setup.chess960,
                                  lang=setup.lang, journal=True, now=now, auto_press=True,
                                  tactile_senses_pieces=_senses_pieces(setup))
        except UserError as exc:
            self.info.emit(exc.message)
            return False
        except ValueError as exc:
            self.info.emit(t("new.bad_time_control", self.lang, text=setup.time_control, error=exc))
            return False
        self.close_game()  # only now: a game that cannot start leaves the current one as it is
        self.setup = setup
        self.settings.board_profile = "simulator" if setup.tactile == "simulator" else (
            setup.profile if setup.tactile in ("profile", "serial") else "")
        self.settings.port = setup.port if setup.tactile == "serial" else ""
        self._attach(session)
        if session.time_control is not None:
            self._call(lambda n: session.start_clock(n))
        message = t("new.started", self.lang, white=white.name, black=black.name)
        if setup.chess960 is not None:
            from .. import chess960

            message += " " + t("new.chess960_started", self.lang, number=setup.chess960,
                               description=chess960.describe(setup.chess960, session.lang))
        self._tell(message)
        self.open_tactile(setup.tactile, setup.port, setup.profile)
        self.changed.emit()
        return True

    def open_journal(self, path: Path) -> bool:
        """Reopen a game exactly as its journal recorded it (the clock runs on from now)."""
        from ..session import Session

        try:
            session = Session.open(path, self.now())
        except UserError as exc:
            self.info.emit(exc.message)
            return False
        except Exception as exc:  # noqa: BLE001 - a journal from a future version, a damaged file
            self.info.emit(t("journal_broken", self.lang, path=path, error=exc))
            return False
        self.close_game()  # only now: a journal that cannot be opened leaves the current game as it is
        self._attach(session)
        for line, problem in session.journal_problems:
            self.info.emit(f"{path.name}:{line}: {problem}")
        message = t("journal.reopened", self.lang, white=session.white.name, black=session.black.name,
                    plies=len(session.game_moves))
        self._tell(message)
        profile = self.settings.board_profile
        if profile == "simulator":
            self.open_tactile("simulator")
        elif self.settings.port:
            self.open_tactile("serial", self.settings.port, profile)
        elif profile:
            self.open_tactile("profile", "", profile)
        if session.divergence:
            self.divergence.emit()
        self.changed.emit()
        return True

    def _attach(self, session) -> None:
        self.session = session
        self.lang = session.lang if session.lang in ("de", "en") else self.lang
        self._unsubscribe = session.subscribe(self._pending.append)
        self._unsubscribe_assistant = None
        blind = session.player(session.blind_color) if session.blind_color is not None else None
        if blind is not None and blind.assistant:
            try:
                from ..assistant import Assistant
            except ImportError:
                Assistant = None  # noqa: N806 - the tournament module is optional here
            if Assistant is not None:
                # D.2.10: the assistant's duties, worded by blindchess.assistant, in order with the events
                helper = Assistant.for_session(session)
                self._unsubscribe_assistant = helper.attach(
                    session, lambda i: self._pending.append({"type": "_assistant", "instruction": i}))
        self._warned = {chess.WHITE: set(), chess.BLACK: set()}
        self.settings.last_journal = str(session.journal_path or "")
        self.settings.save()
        self._update_grammar()

    def close_game(self) -> None:
        self.close_tactile()
        for unsubscribe in (self._unsubscribe, self._unsubscribe_assistant):
            if unsubscribe is not None:
                unsubscribe()
        self._unsubscribe = self._unsubscribe_assistant = None
        if self.session is not None:
            self.session.close()
        self.session = None

    def shutdown(self) -> None:
        self._timer.stop()
        self.close_game()
        if self.microphone is not None:
            self.microphone.stop()
        if self.speaker is not None and self._own_speaker:
            self.speaker.close()
            self.speaker = None

    @property
    def journal_path(self) -> Path | None:
        return self.session.journal_path if self.session is not None else None

    def last_setup(self) -> GameSetup:
        if self.setup is not None:
            return self.setup
        return GameSetup(lang=self.lang, tactile="simulator" if self.settings.board_profile == "simulator" else (
            "serial" if self.settings.port else "none"), port=self.settings.port, profile=self.settings.board_profile)

    # ------------------------------------------------------------ session calls
    def _call(self, action: Callable[[float], object]):
        """Run one session call with the time passed in, then handle the events it produced."""
        if self.session is None:
            self.info.emit(t("next.no_game", self.lang))
            return None
        try:
            result = action(self.now())
        except UserError as exc:
            self.info.emit(exc.message)
            return None
        except ValueError as exc:  # e.g. an arbiter's override with an illegal move
            self.info.emit(t("arbiter.cannot", self.lang, error=exc))
            return None
        if not self._handling and self._pending:  # nothing happened (a clock tick): nothing to redraw
            self._handling = True
            try:
                while self._pending:
                    self._handle(self._pending.pop(0))
            finally:
                self._handling = False
            self.changed.emit()
        return result

    def _handle(self, event: dict) -> None:
        kind = event.get("type")
        message = event.get("message") or ""
        if kind == "move-made":
            self.adjusting = False  # the game goes on
            mover = chess.WHITE if event.get("color") == "white" else chess.BLACK
            if self.session.is_blind(mover):
                self._tell(message, urgent=True)   # the blind player's move, repeated to him (D.2.1)
            else:
                self.info.emit(message)
                self._say(event.get("text", ""), urgent=True)  # the sighted player's move announced (D.2.1)
            self._update_grammar()
        elif kind == "_assistant":
            instruction = event["instruction"]
            # the moves are announced and the score is shown already; the rest is the assistant's to do
            if instruction.to == "assistant" and instruction.kind not in ("announce", "score"):
                self.assistant.emit(instruction.text)
            return
        elif kind == "mirror-needed":
            if self._unsubscribe_assistant is None:
                self.info.emit(message)  # with an assistant, his "carry out" instruction says it
            if event.get("board") == "tactile":
                self._expect_tactile()
        elif kind in ("ruling", "ruling-override"):
            self._tell(t("arbiter.applied", self.lang, text=message), urgent=True)
            self._expect_tactile()
            if self.link is not None:
                self.adjusting = True        # until the pegs show the ruled position again
                self.link.request_snapshot()  # the pegs still stand as before the ruling: compare them
            self._update_grammar()
        elif kind == "divergence":
            self._tell(message, urgent=True)
            self.divergence.emit()
        elif kind == "announce" and event.get("uci"):
            if self.link is not None:
                self.link.announce(chess.Move.from_uci(event["uci"]))
        elif kind in SPOKEN_EVENTS and message:
            self._tell(message, urgent=kind in ("announce-mismatch", "flag-fallen"))
        elif kind in SHOWN_EVENTS and message:
            self.info.emit(message)
        self._record_scores(event)

    def _record_scores(self, event: dict) -> None:
        """Keep both game scores as the players write them (module docstring)."""
        from .. import notation

        s = self.session
        kind = event.get("type")
        if kind == "board-move":
            name, ply = event["board"], int(event["ply"])
            who = "sighted" if name == "sighted" else "blind"
            if who == "blind" and event.get("role") == "own":
                return  # his own move is written when it is made (the announcement decides, D.2.3)
            board = s.board(name)
            board.pop()
            text = notation.write(board, board.parse_uci(event["uci"]), s.lang)
            self._write(who, ply - 1, text)
        elif kind == "move-made" and s.is_blind(chess.WHITE if event.get("color") == "white" else chess.BLACK):
            board = s.start.copy(stack=False)
            for move in s.game_moves[: int(event["ply"]) - 1]:
                board.push(move)
            self._write("blind", int(event["ply"]) - 1, notation.write(board, chess.Move.from_uci(event["uci"]), s.lang))

    def amend_score(self, who: str, index: int, text: str) -> bool:
        """Write or correct entry ``index`` of score ``who`` as written (the assistant keeps it, D.2.10 c)."""
        entries = self.score(who)
        if not 0 <= index <= len(entries):
            return False
        result = self._call(lambda now: self.session.write(who, text, now, index=index))
        if result is not None and self.session.divergence:
            self.divergence.emit()  # a changed score changes the proposed ruling
        return result is not None

    def _write(self, who: str, index: int, text: str) -> None:
        entries = self.session.score(who)
        if index == len(entries):
            self.session.write(who, text, self.now())
        elif index < len(entries) and entries[index] != text:
            self.session.write(who, text, self.now(), index=index)

    # ------------------------------------------------------------ input
    def sighted_move(self, move: chess.Move) -> bool:
        """A move made on the sighted board (the sighted player's own, or a mirror)."""
        result = self._call(lambda now: self.session.sighted_move(move, now))
        return bool(result) and result.get("type") == "board-move"

    def sighted_text(self, text: str) -> bool:
        """A move typed for the sighted board: any notation (``notation.read``), else a spoken phrase."""
        if self.session is None:
            self.info.emit(t("next.no_game", self.lang))
            return False
        from .. import notation, phonetic

        board = self.session.board("sighted")
        reading = notation.read(board, text, self.session.lang)
        if reading.ok and reading.move is not None:
            return self.sighted_move(reading.move)
        understanding = phonetic.understand(board, text, self.session.lang)
        if understanding.kind == "move" and understanding.move is not None:
            return self.sighted_move(understanding.move)
        if understanding.kind == "request":
            return self._answer(understanding)
        self.info.emit(reading.message(self.lang) if reading.problem != "unreadable" or not understanding.message
                       else understanding.message)
        return False

    def tactile_text(self, text: str) -> bool:
        """Without an electronic tactile board: the move made on it, entered by hand (notation or phrase)."""
        if self.session is None:
            self.info.emit(t("next.no_game", self.lang))
            return False
        move = self._read_move(self.session.board("tactile"), text)
        if move is None:
            return False
        result = self._call(lambda now: self.session.tactile_move(move, now))
        return bool(result) and result.get("type") == "board-move"

    def _read_move(self, board: chess.Board, text: str) -> chess.Move | None:
        """A move in any notation (``notation.read``), else as a spoken phrase (``phonetic.understand``)."""
        from .. import notation, phonetic

        reading = notation.read(board, text, self.session.lang)
        if reading.ok and reading.move is not None:
            return reading.move
        understanding = phonetic.understand(board, text, self.session.lang)
        if understanding.kind == "move" and understanding.move is not None:
            return understanding.move
        self.info.emit(reading.message(self.lang) if reading.problem != "unreadable" or not understanding.message
                       else understanding.message)
        return None

    def hear(self, text: str, confidence: float | None = None, *, typed: bool = False) -> bool:
        """What the visually impaired player said (recognised) or his assistant typed."""
        if typed:
            self.heard.emit(text, None)
        else:
            self.heard.emit(text, confidence)
        if self.session is None:
            self.info.emit(t("next.no_game", self.lang))
            return False
        from .. import phonetic

        understanding = phonetic.understand(self.session.game_board(), text, self.session.lang)
        if understanding.kind == "repeat":
            self.repeat()
            return True
        if understanding.kind == "request" and understanding.request not in ("time", "moves"):
            return self._answer(understanding)
        if understanding.kind in ("yes", "no") and self.session.draw_offer is not None \
                and self.session.blind_color is not None and self.session.draw_offer != self.session.blind_color:
            self._call(lambda now: self.session.answer_draw(self.session.blind_color, understanding.kind == "yes", now))
            return True
        event = self._call(lambda now: self.session.hear(text, now))
        if event and "type" not in event and event.get("message"):  # the answer to a time request (D.2.10 d)
            self._tell(self._talking_clock(event["message"]))
            return True
        return bool(event) and event.get("type") not in ("heard", "announce-ignored")

    def request(self, what: str, *, square: int | None = None, piece_type: int | None = None,
                color: bool | None = None) -> None:
        """A request by key (D.2.10 d): the answer is spoken and shown."""
        from types import SimpleNamespace

        self._answer(SimpleNamespace(request=what, square=square, piece_type=piece_type, color=color))

    def _answer(self, understanding) -> bool:
        from .. import phonetic

        if self.session is None:
            self.info.emit(t("next.no_game", self.lang))
            return False
        lang = self.session.lang
        board = self.session.game_board()
        what = understanding.request
        if what in ("time", "moves"):
            event = self._call(lambda now: self.session.request_time(now, by="blind"))  # journaled (D.2.10 d)
            text = self._talking_clock((event or {}).get("message", ""))
            if self.session.time_control is None:
                text = t("request.time_without_clock", self.lang, moves=len(self.session.game_moves))
        elif what == "last_move":
            if not board.move_stack:
                text = t("request.no_last_move", self.lang)
            else:
                move = board.pop()
                text = phonetic.announce(board, move, lang)
        elif what == "square" and understanding.square is not None:
            text = phonetic.describe_square(board, understanding.square, lang)
        elif what == "pieces":
            text = phonetic.describe_pieces(board, understanding.piece_type, understanding.color, lang)
        else:
            text = phonetic.describe_position(board, lang)
        self._tell(text)
        return True

    def sighted_touch(self, square: int) -> None:
        """The sighted player touched a piece (D.2.10 e); the session words it and we say it."""
        self._call(lambda now: self.session.touch(square, now, board="sighted"))

    def sighted_draw(self) -> None:
        """Offer a draw for the sighted player, or accept the blind player's standing offer."""
        s = self.session
        if s is None or s.finished:
            return
        me = self.sighted_color
        if s.draw_offer is not None and s.draw_offer != me:
            self._call(lambda now: s.answer_draw(me, True, now))
        else:
            self._call(lambda now: s.offer_draw(me, now))

    def sighted_resign(self) -> None:
        if self.session is not None and not self.session.finished:
            self._call(lambda now: self.session.resign(self.sighted_color, now))

    def _talking_clock(self, fallback: str) -> str:
        """The answer as the talking clock words it for the blind player (D.2.6): "Sie: …, Gegner: …, n Züge"."""
        s = self.session
        if s is None or s.blind_color is None or s.time_control is None:
            return fallback
        try:
            from ..talking_clock import phrase_from_clock
        except ImportError:
            return fallback
        return phrase_from_clock(s.clock, s.blind_color, self.now(), s.lang)

    def repeat(self) -> None:
        if self.speaker is not None:
            self.speaker.repeat()

    def stop_speech(self) -> None:
        if self.speaker is not None:
            self.speaker.stop()

    def toggle_pause(self) -> None:
        if self.session is None or self.session.time_control is None:
            return
        if self.session.clock.paused:
            self._call(lambda now: self.session.resume(now))
            self.info.emit(t("clock.resumed", self.lang))
        else:
            self._call(lambda now: self.session.pause(now))
            self.info.emit(t("clock.paused", self.lang))

    def save_pgn(self, path: Path) -> bool:
        if self.session is None:
            return False
        try:
            game = self.session.to_pgn_game()
            path.write_text(str(game) + "\n", encoding="utf-8")
        except OSError as exc:
            self.info.emit(t("pgn.cannot_save", self.lang, error=exc.strerror or exc))
            return False
        self.info.emit(t("pgn.saved", self.lang, path=path))
        return True

    def apply_settings(self, settings) -> None:
        """New settings; language, voice and model take effect at the next start (the dialog says so)."""
        self.settings = settings

    # ------------------------------------------------------------ the arbiter (D.2.9)
    def propose_ruling(self):
        if self.session is None:
            return None
        return self.session.propose_ruling(self.lang, force=True)

    def apply_ruling(self, ruling, *, clocks: dict[bool, float] | None = None) -> bool:
        if self._call(lambda now: self.session.apply_ruling(ruling, now)) is None:
            return False
        self._set_clocks(clocks)
        return True

    def override_ruling(self, choice: str, *, plies: int = 0, clocks: dict[bool, float] | None = None) -> bool:
        """The arbiter decides otherwise: one board follows the other, or retrace to ``plies`` half-moves."""
        s = self.session
        if s is None:
            return False
        if choice == "tactile_follows":
            moves = s.moves("sighted")
        elif choice == "sighted_follows":
            moves = s.moves("tactile")
        else:
            moves = s.game_moves[:plies] if plies <= len(s.game_moves) else s.moves("sighted")[:plies]
        times = None if clocks is None else {"white": clocks[chess.WHITE], "black": clocks[chess.BLACK]}
        return self._call(lambda now: s.override(moves, now, clocks=times, note=choice)) is not None

    def _set_clocks(self, clocks: dict[bool, float] | None) -> None:
        if not clocks or self.session is None or self.session.time_control is None:
            return
        now = self.now()
        for colour, seconds in clocks.items():
            if abs(self.session.clock.remaining(colour, now) - seconds) >= 1.0:
                self._call(lambda n, c=colour, v=seconds: self.session.set_remaining(c, v, n))

    # ------------------------------------------------------------ what the window shows
    def board(self, which: str) -> chess.Board:
        return self.session.board(which) if self.session is not None else chess.Board()

    def score(self, who: str) -> list[str]:
        return self.session.score(who) if self.session is not None else []

    def start_board(self) -> chess.Board:
        return self.session.start if self.session is not None else chess.Board()

    @property
    def blind_color(self) -> bool | None:
        return self.session.blind_color if self.session is not None else None

    @property
    def sighted_color(self) -> bool:
        blind = self.blind_color
        return chess.WHITE if blind is None else not blind

    def player_names(self) -> tuple[str, str]:
        if self.session is None:
            return t("white", self.lang), t("black", self.lang)
        return self.session.white.name, self.session.black.name

    def sheet_names(self) -> tuple[str, str]:
        """(blind player's name, sighted player's name)."""
        if self.session is None or self.session.blind_color is None:
            return t("score.blind", self.lang), t("score.sighted", self.lang)
        return (self.session.player(self.session.blind_color).name,
                self.session.player(not self.session.blind_color).name)

    def differing(self) -> set[int]:
        squares = set()
        if self.session is not None and self.session.divergence:
            squares |= {chess.parse_square(s) for s in self.session.divergence.get("squares", [])}
        squares |= {chess.parse_square(s) for s in self.tactile_mismatch}
        return squares

    def mismatch_names(self) -> list[str]:
        names = set(self.tactile_mismatch)
        if self.session is not None and self.session.divergence:
            names |= set(self.session.divergence.get("squares", []))
        return sorted(names)

    def next_step(self) -> str:
        """One line: what the assistant or the players do now."""
        s = self.session
        if s is None:
            return t("next.no_game", self.lang)
        if s.finished:
            return t("next.game_over", self.lang, result=s.result)
        if s.divergence:
            return t("next.diverged", self.lang)
        from .. import notation

        game = s.game_moves
        for name in ("sighted", "tactile"):
            made = s.moves(name)
            if len(made) < len(game) and made == game[: len(made)]:
                board = s.start.copy(stack=False)
                for move in game[: len(made)]:
                    board.push(move)
                written = notation.write(board, game[len(made)], s.lang)
                if name == "sighted":
                    return t("next.mirror_on_sighted", self.lang, move=written)
                return t("next.mirror_on_tactile", self.lang, name=s.player(s.blind_color).name, move=written)
        side = s.to_move
        if s.is_blind(side) and len(s.moves("tactile")) == len(game) + 1:  # placed, not yet announced (D.2.3)
            board = s.game_board()
            written = notation.write(board, s.moves("tactile")[-1], s.lang) \
                if board.is_legal(s.moves("tactile")[-1]) else s.moves("tactile")[-1].uci()
            return t("next.announce", self.lang, name=s.player(side).name, move=written)
        key = "next.blind_to_move" if s.is_blind(side) else "next.sighted_to_move"
        return t(key, self.lang, name=s.player(side).name, side=t("white" if side else "black", self.lang))

    def clock_state(self):
        """({colour: remaining, None without a clock}, running colour, {colour: moves completed})."""
        s = self.session
        if s is None:
            return {chess.WHITE: None, chess.BLACK: None}, None, {}
        now = self.now()
        clock = s.clock
        remaining = {c: (clock.remaining(c, now) if s.time_control is not None else None)
                     for c in (chess.WHITE, chess.BLACK)}
        running = None if getattr(clock, "paused", False) else clock.running
        return remaining, running, {c: clock.moves_completed(c) for c in (chess.WHITE, chess.BLACK)}

    # ------------------------------------------------------------ time passing
    def _tick(self) -> None:
        if self.session is None:
            return
        if self.session.time_control is not None and not self.session.finished:
            self._call(lambda now: self.session.tick(now))
            self._clock_warnings()

    def _clock_warnings(self) -> None:
        """Low time: shown once per threshold; spoken only to a player who opted in (D.2.10 d)."""
        remaining, running, _moves = self.clock_state()
        if running is None or remaining[running] is None:
            return
        seconds = remaining[running]
        from ..clock import format_time

        for threshold in WARNINGS:
            if seconds <= threshold and threshold not in self._warned[running]:
                self._warned[running].add(threshold)
                message = t("clock.warning", self.lang, name=self.session.player(running).name,
                            time=format_time(seconds))
                if getattr(self.settings, "spoken_clock_warnings", False):
                    self._tell(message)
                else:
                    self.info.emit(message)
