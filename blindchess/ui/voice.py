"""The speech channel: the table's speech decisions carried out where the user chose; push-to-talk to text.

:class:`TableVoice` is the one place that makes sound for the window. It
receives every table event (:meth:`TableVoice.table_event`) and the window's own
texts (:meth:`TableVoice.answer`, :meth:`TableVoice.notice`, :meth:`TableVoice.step`)
and says each once, through the channel the user chose in the settings
(``Settings.speech_channel``):

``"auto"`` (the default) — ``"screenreader"`` when a screen reader runs in
    this session (:func:`blindchess.adapters.speech.screenreader.running`: Orca, NVDA,
    JAWS, VoiceOver), ``"app"`` otherwise; decided when the channel is applied
    (at start and after the settings dialog). A blind player with a screen
    reader never hears the program's voice and his screen reader read the
    same text.
``"app"`` — the program's voice (:class:`~blindchess.adapters.speech.tts.Speaker`)
    says everything the table says (:class:`~blindchess.table.events.Speak`),
    the board cursor's squares included — a loudspeaker for the whole table.
    The window's texts are shown only.
``"screenreader"`` — the user's own screen reader says what the blind player
    hears (the speech plan, :func:`blindchess.table.speech.blind_hears`, at the
    chosen verbosity) and the window's texts; the board's squares are left to
    the screen reader, which reads the focused square itself. With Orca the
    texts go through Orca itself as notifications (:class:`~blindchess.ui.a11y.Notices`):
    spoken in Orca's voice *and* shown on its braille display; elsewhere through
    :mod:`blindchess.adapters.speech.screenreader` (speech-dispatcher, NVDA/JAWS,
    VoiceOver). The program's voice is silent.
``"both"`` — split by listener, never doubled: what the blind player hears
    goes to the screen reader; what is said to everyone at the table or to the
    sighted side goes to the program's voice; the squares are left to the
    screen reader.

What the blind player hears (the speech plan of :mod:`blindchess.table.speech`): the
table's texts to him or to everyone at move, question and answer priority — his move
confirmed, the opponent's move once, questions, answers, refusals, the end — the game's
states from "normal" on, the next step when it concerns him at "full"; the answer of
the window to each key he presses always; its notices (not about the game) from
"normal" on, after everything about the game. Never what is said to the sighted side,
the mirror instructions or a text that is only shown; never raw notation (the texts are
:func:`~blindchess.table.speech.worded`). The verbosity is ``Settings.verbosity``.

Every output keeps the program's one queue (:class:`blindchess.base.SpeechQueue`): a
text is cut only by the one that replaces it — the same request (``about``) — so the
window's texts never cut each other or the table's.

When the screen reader chosen cannot be reached (or stops answering), the
program's voice takes over as in ``"app"``; this is said once — through
``on_status`` (the window's message line) and by the program's voice — and
:meth:`TableVoice.name` (the speech status) shows it. Nothing is lost: what
the screen reader had not said yet is said by the program's voice.

Timing is the table's: :class:`~blindchess.table.events.Speak` begins an
utterance; a :class:`~blindchess.table.events.Said` with ``cut`` (the policy
cut it, or the listener stopped the voice) stops exactly that utterance on the
output that was saying it.

Earcons (:mod:`blindchess.adapters.speech.earcons`, ``Settings.earcons``): a move, a
capture, a check (from the ``Moved`` event), a question (``Asked``), an error
(``Refused``), on every channel. Without an audio output the player gives the
earcons' words to its ``on_text`` (not wired in the window: the spoken texts
say the same) and the status says once that there are none.

:class:`Ears` is the recogniser and the microphone (when a vosk model and a
capture device exist): push-to-talk audio becomes ``on_text(text, confidence)``
on the recogniser's thread; the caller forwards it to the GUI thread.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from ..adapters import (
    EarconPlayer,
    Listener,
    MicGate,
    Microphone,
    Recognizer,
    ScreenReader,
    ScreenReaderLost,
    ScreenReaderUnavailable,
    Speaker,
    find_model,
    move_earcon,
    rms,
    running,
)
from ..adapters import connect as connect_screen_reader
from ..base import UserError, tr
from ..table import (
    Asked,
    Moved,
    Refused,
    Said,
    Shown,
    Speak,
    blind_hears,
    brief_form,
    spoken,
    step_for_blind,
    window_heard,
    worded,
)
from .settings import CHANNELS, Settings
from .text import t

#: Connects the screen reader for ``(lang, ui_lang)``; raises ScreenReaderUnavailable.
Connect = Callable[[str, str], ScreenReader]
#: The name of the screen reader running in this session, or None.
Detect = Callable[[], str | None]
#: Makes the window's own screen-reader output that goes through Orca itself (None: not possible here).
Present = Callable[[], ScreenReader | None]


def _connect(lang: str, ui_lang: str) -> ScreenReader:
    return connect_screen_reader(lang, ui_lang=ui_lang)


def _norm(text: str) -> str:
    """A text as compared for "said already": as spoken (no article numbers); case and spacing do not count."""
    return re.sub(r"\s+", " ", spoken(text)).strip().casefold()


def earcon_for(event: object) -> str | None:
    """The earcon of a table event, or None: a move sounds as its SAN says (check, capture or move),
    a question "question", a refusal "error"."""
    match event:
        case Moved(san=san):
            return move_earcon(san)
        case Asked():
            return "question"
        case Refused():
            return "error"
    return None


class TableVoice:
    """The speech channel (see the module docstring). ``speaker`` None: the program's voice is silent.

    ``connect`` opens the screen reader (tests pass their own); ``detect`` tells
    whether one runs (for "auto"); ``present`` gives the output through Orca itself (the window sets it);
    nothing is connected before :meth:`apply` or :meth:`use` asks for a screen-reader channel. Every method
    runs on the GUI thread and raises nothing.
    """

    def __init__(self, speaker: Speaker | None = None, *, connect: Connect = _connect,
                 detect: Detect = running, present: Present | None = None) -> None:
        self.speaker = speaker
        self.connect = connect
        self.detect = detect
        self.present = present
        self.chosen = "app"                     # the user's choice
        self.channel = "app"                    # in effect: the choice, or "app" when no screen reader answers
        self.lang = "de"
        self.verbosity = "normal"
        self.wording = "phonetic"
        self.screen_reader: ScreenReader | None = None
        self.problem = ""                       # why the screen reader chosen is not used ("" otherwise)
        self.earcons: EarconPlayer | None = None
        self.on_status: Callable[[str], None] | None = None
        self._routes: dict[tuple[float, str, str], list[tuple[str, int]]] = {}   # utterance -> (output, number)
        self._table_texts: set[str] = set()          # texts of the table event being handled (its window copy)
        self._after_move = False                     # the last text of the table he heard was a move
        self.sent: list[tuple[str, str]] = []        # (output, text) of the last texts given out (tests, benchmark)

    # ------------------------------------------------------------ configuration
    def apply(self, settings: Settings, *, on_status: Callable[[str], None] | None = None) -> None:
        """Take the channel, the verbosity and the earcons from ``settings`` (at start and after the settings)."""
        self.verbosity = settings.verbosity
        self.use(settings.speech_channel, lang=settings.lang, on_status=on_status)
        self.use_earcons(settings.earcons)

    def use(self, channel: str, *, lang: str | None = None, screen_reader: ScreenReader | None = None,
            on_status: Callable[[str], None] | None = None) -> None:
        """Speak through ``channel`` (one of :data:`~blindchess.ui.settings.CHANNELS`; unknown: "auto").

        ``screen_reader``: use this one instead of connecting. A screen reader that
        cannot be reached gives "app" with one status message (see the module docstring).
        "auto" is "screenreader" when ``screen_reader`` is given or one runs, else "app" (no message).
        """
        relang = lang is not None and lang != self.lang
        self.lang = lang or self.lang
        if on_status is not None:
            self.on_status = on_status
        self.chosen = channel if channel in CHANNELS else "auto"
        wanted = self.chosen
        found = None if screen_reader is not None else self.detect()
        if wanted == "auto":
            wanted = "screenreader" if screen_reader is not None or found else "app"
        if wanted == "app":
            self._drop_screen_reader()
            self.channel, self.problem = "app", ""
            return
        if screen_reader is not None and screen_reader is not self.screen_reader:
            self._drop_screen_reader()
            self.screen_reader = screen_reader
        if self.screen_reader is None and found == "Orca" and self.present is not None:
            self.screen_reader = self.present()          # through Orca itself: speech and braille
        if self.screen_reader is None:
            try:
                self.screen_reader = self.connect(self.lang, self.lang)
            except ScreenReaderUnavailable as exc:
                self._fall_back(tr("voice.fallback", self.lang, reason=exc.message))
                return
        elif relang:
            self.screen_reader.set_language(self.lang)
        self.channel, self.problem = wanted, ""

    def use_earcons(self, on: bool, player: EarconPlayer | None = None) -> None:
        """Earcons on (with ``player``, default: the sound card) or off."""
        if not on:
            if self.earcons is not None:
                self.earcons.close()
            self.earcons = None
        elif player is not None or self.earcons is None:
            if self.earcons is not None:
                self.earcons.close()
            self.earcons = player or EarconPlayer(lang=self.lang)
            if not self.earcons.available and self.on_status is not None:
                self.on_status(self.earcons.problem)     # no sound card: said once, in the status

    def close(self) -> None:
        """Let go of the screen reader and the earcon player (the program ends)."""
        self._drop_screen_reader()
        self.use_earcons(False)

    def _drop_screen_reader(self) -> None:
        if self.screen_reader is not None:
            self.screen_reader.close()
        self.screen_reader = None

    def _fall_back(self, text: str, unsaid: list[str] | None = None) -> None:
        """No screen reader: the program's voice speaks; said once (status line and voice), then what the
        screen reader had not said yet."""
        self._drop_screen_reader()
        self.channel, self.problem = "app", text
        if self.on_status is not None:
            self.on_status(text)
        if self.speaker is not None:
            self.speaker.say(text, priority="answer")
            for lost in unsaid or ():
                self.speaker.say(lost, priority="answer")

    # ------------------------------------------------------------ state
    @property
    def wants_readings(self) -> bool:
        """Whether the program's voice says the board cursor's squares (False: the screen reader reads them)."""
        return self.channel == "app"

    def name(self, lang: str) -> str | None:
        """The speech status: "espeak-ng (de)", "Bildschirmleser: speech-dispatcher", both, or None (silent)."""
        parts = []
        if self.channel in ("app", "both") and self.speaker is not None and self.speaker.available:
            parts.append(f"{self.speaker.engine_name} ({lang})")
        if self.channel in ("screenreader", "both") and self.screen_reader is not None:
            parts.append(tr("voice.screenreader_name", lang, name=self.screen_reader.name))
        return " + ".join(parts) or None

    def heard(self, event: Speak) -> bool:
        """Whether the person at the keyboard hears ``event`` on this channel (the screen reader: the plan)."""
        return bool(self._outputs(event))

    # ------------------------------------------------------------ the table's events
    def table_event(self, event: object) -> None:
        """Carry out one table event: speak, cut, play its earcon."""
        self._table_texts.clear()
        if isinstance(event, Speak):
            self.speak(event)
        elif isinstance(event, Said):
            self._said(event)
        elif isinstance(event, (Shown, Refused)):
            self._table_texts.add(_norm(event.text))
        name = earcon_for(event)
        if name is not None and self.earcons is not None:
            self.earcons.play(name)

    def speak(self, event: Speak) -> None:
        """Begin saying ``event.text`` now on its outputs (see the module docstring)."""
        if event.priority != "reading" and event.to != "sighted":
            self._after_move = event.priority == "move"
        routes = []
        for output in self._outputs(event):
            text = event.text
            if output == "screenreader" and self.verbosity == "brief":
                text = brief_form(text, self.lang)
            ident = self._to_app(text, event.priority) if output == "app" else \
                self._to_screen_reader(text, event.priority)
            if ident:
                routes.append((output, ident))
        self._routes[(event.t, event.to, event.text)] = routes

    def _outputs(self, event: Speak) -> tuple[str, ...]:
        if event.priority == "reading":
            return ("app",) if self.wants_readings else ()
        if self.channel == "app":
            return ("app",)
        to_blind = blind_hears(self.verbosity, event.to, event.priority)
        if self.channel == "both" and event.to != "blind":
            return ("app",)
        return ("screenreader",) if to_blind else ()

    def _said(self, event: Said) -> None:
        routes = self._routes.pop((event.t, event.to, event.text), [])
        if not event.cut:
            return
        for output, ident in routes:
            if output == "app":
                if self.speaker is not None:
                    self.speaker.cut(ident)
            elif self.screen_reader is not None:
                try:
                    self.screen_reader.cut(ident)
                except ScreenReaderLost as exc:
                    self._fall_back(tr("voice.lost", self.lang, reason=exc.message), exc.unsaid)

    def _to_app(self, text: str, priority: str = "answer", about: str | None = None) -> int:
        if self.speaker is None:
            return 0
        text = worded(spoken(text), self.lang, self.wording)
        self.sent.append(("app", text))
        return self.speaker.say(text, priority=priority, about=about)

    def _to_screen_reader(self, text: str, priority: str, about: str | None = None) -> int:
        """Queue ``text`` on the screen reader as spoken (no article numbers — they are shown; moves in words)."""
        text = worded(spoken(text), self.lang, self.wording)
        if not text:
            return 0
        reader = self.screen_reader
        if reader is None:
            return self._to_app(text, priority, about)
        try:
            ident = reader.say(text, priority, about)
        except ScreenReaderLost as exc:
            self._fall_back(tr("voice.lost", self.lang, reason=exc.message), exc.unsaid)
            if text in exc.unsaid:
                return 0
            return self._to_app(text, priority, about)          # the message that did not get through
        self.sent.append(("screenreader", text))
        return ident

    def stop(self) -> None:
        """The listener stopped the voice: everything the screen reader still had of ours goes too."""
        if self.screen_reader is not None and self.channel != "app":
            try:
                self.screen_reader.cancel()
            except ScreenReaderLost as exc:
                self._fall_back(tr("voice.lost", self.lang, reason=exc.message))

    # ------------------------------------------------------------ the window's own speech
    def _window(self, texts: list[str], kind: str, about: str | None, priority: str) -> None:
        unique = list(dict.fromkeys(spoken(text) for text in texts if text and spoken(text)))
        if unique and self.channel != "app" and window_heard(self.verbosity, kind):
            self._to_screen_reader(" ".join(unique), priority, about)

    def notice(self, text: str, about: str | None = None) -> None:
        """A line of the window that is not about the game (the look, a device, "saved", the broadcast): said
        through the screen reader after everything about the game, from "normal" on; shown only with "app". The
        window's copy of a table event just handled is not said again."""
        key = _norm(text)
        if not key or key in self._table_texts:
            return
        self._window([text], "notice", about, "notice")

    def message(self, text: str) -> None:
        """The window's message line: a notice (see :meth:`notice`)."""
        self.notice(text)

    def answer(self, texts: list[str], about: str | None = "answer") -> None:
        """The window's answer to the key the person at the keyboard pressed (``texts`` said as one utterance,
        repeats left out): through the screen reader at every verbosity, replacing the older answer about the
        same (``about``); shown only with "app"."""
        self._window(texts, "answer", about, "answer")

    def step(self, step: str) -> None:
        """The next step changed: said at "full" when it concerns the blind player (never a mirror for the
        sighted board or the sighted player's move, nor his turn right after the opponent's move he heard);
        newer replaces older."""
        if step and step_for_blind(step, self.lang, after_move=self._after_move):
            self._window([step], "step", "step", "status")

    def reading(self, text: str) -> None:
        """Without a game: a square name, cutting the previous one (only when the program's voice reads squares)."""
        if self.speaker is not None and text and self.wants_readings:
            self.speaker.say(text, priority="reading", about="reading")


class Ears:
    """Recogniser + microphone for push-to-talk. Raises nothing: problems go to ``on_info``.

    ``on_text(text, confidence)`` and ``on_level(0..1)`` are called from audio threads.
    """

    def __init__(self, lang: str, model_setting: str, speaker: Speaker | None, *,
                 on_text: Callable[[str, float | None], None], on_level: Callable[[float], None],
                 on_info: Callable[[str], None]) -> None:
        self.lang = lang
        self.on_text = on_text
        self.on_level = on_level
        self.on_info = on_info
        self.recognizer: Any = None
        self.microphone: Microphone | None = None
        self.listener: Listener | None = None
        self._lock = threading.Lock()
        model = find_model(lang, model_setting or None)
        if model is None:
            return
        try:
            # one result with word confidences (shown in the log) rather than ranked alternatives
            self.recognizer = Recognizer(model, lang, alternatives=0, ui_lang=lang)
        except UserError as exc:  # a broken model folder, no vosk: say so, go on without
            on_info(t("speech.cannot_listen", lang, error=exc.message))
            return
        gate = MicGate()
        if speaker is not None:
            gate.attach(speaker)
        self.listener = Listener(self.recognizer, self._recognised, gate=gate)
        self.microphone = Microphone(self._audio, gate=gate, ui_lang=lang)

    def _audio(self, pcm: bytes) -> None:  # on the audio thread
        self.on_level(min(1.0, rms(pcm) / 8000.0))
        with self._lock:
            if self.listener is not None:
                self.listener.feed(pcm)

    def _recognised(self, result: dict[str, Any]) -> None:
        text = (result or {}).get("text", "")
        if text:
            self.on_text(text, result.get("confidence"))

    @property
    def model_name(self) -> str | None:
        path = getattr(self.recognizer, "model_path", None)
        return path.name if path is not None else None

    def can_listen(self) -> bool:
        return self.listener is not None and self.microphone is not None and self.microphone.available

    def set_grammar(self, phrases: list[str]) -> None:
        """The phrases to expect now (the table's :meth:`~blindchess.table.table.Table.grammar`)."""
        if self.recognizer is not None:
            with self._lock:  # the audio thread may be feeding the recogniser right now
                self.recognizer.set_grammar(phrases)

    def listen(self, on: bool) -> None:
        """Push-to-talk pressed (on) or released (off); says why not when listening is impossible."""
        if not self.can_listen() or self.listener is None or self.microphone is None:
            problem = getattr(self.microphone, "problem", "") or t("speech.no_model", self.lang)
            self.on_info(t("speech.cannot_listen", self.lang, error=problem))
            return
        if on:
            with self._lock:
                self.listener.key_down()
            if self.microphone.start():
                self.on_info(t("speech.listening", self.lang))
        else:
            self.microphone.stop()
            with self._lock:
                self.listener.key_up()
            self.on_info(t("speech.not_listening", self.lang))

    def stop(self) -> None:
        if self.microphone is not None:
            self.microphone.stop()
