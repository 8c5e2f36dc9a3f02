"""The speech channel: the table's speech decisions carried out where the user chose; push-to-talk to text.

:class:`TableVoice` is the one place that makes sound for the window. It
receives every table event (:meth:`TableVoice.table_event`) and the window's own
messages (:meth:`TableVoice.message`) and says each message once, through the
channel the user chose in the settings (``Settings.speech_channel``):

``"auto"`` (the default) — ``"screenreader"`` when a screen reader runs in
    this session (:func:`blindchess.adapters.speech.screenreader.running`: Orca, NVDA,
    JAWS, VoiceOver), ``"app"`` otherwise; decided when the channel is applied
    (at start and after the settings dialog). A blind player with a screen
    reader never hears the program's voice and his screen reader read the
    same text.
``"app"`` — the program's voice (:class:`~blindchess.adapters.speech.tts.Speaker`)
    says everything the table says (:class:`~blindchess.table.events.Speak`),
    the board cursor's squares included. The window's messages are shown only.
``"screenreader"`` — the user's own screen reader
    (:mod:`blindchess.adapters.speech.screenreader`: speech-dispatcher, NVDA/JAWS,
    VoiceOver) says everything the table says and the window's messages
    (refusals, device problems, "saved"); the board's squares are left to the
    screen reader, which reads the focused square itself. The program's voice
    is silent.
``"both"`` — split by listener, never doubled: what the table says to the
    blind player (``Speak.to == "blind"``) and the window's messages go to the
    screen reader; what it says to everyone at the table or to the sighted side
    goes to the program's voice; the squares are left to the screen reader.

Every message therefore has exactly one output. The few texts that reach the
channel twice are recognised and said once: a refusal the table also says to
the blind player (its ``Refused`` and its ``Speak``), and the window's copy
(``info`` → message line → :meth:`message`) of a table event the channel has
just handled (a ``Shown`` text is for the sighted side's eyes and is not
spoken; a ``Refused`` text is). Nothing is sent as an AT-SPI announcement.

When the screen reader chosen cannot be reached (or stops answering), the
program's voice takes over as in ``"app"``; this is said once — through
``on_status`` (the window's message line) and by the program's voice — and
:meth:`TableVoice.name` (the speech status) shows it.

Timing is the table's: :class:`~blindchess.table.events.Speak` begins an
utterance (``interrupt``: cut what is being said first); a
:class:`~blindchess.table.events.Said` with ``cut`` (the policy cut it, or the
listener stopped the voice) stops the output that was saying it. All texts go
to the program's speaker with one priority, so the speaker never cuts or
reorders on its own: what may interrupt what is decided by the table's speech
policy only.

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
from collections import deque
from collections.abc import Callable
from typing import Any

from ..adapters import (
    PRIORITY_ANSWER,
    PRIORITY_READING,
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
from ..table import Asked, Moved, Refused, Said, Shown, Speak, spoken
from .settings import CHANNELS, Settings
from .text import t

#: Connects the screen reader for ``(lang, ui_lang)``; raises ScreenReaderUnavailable.
Connect = Callable[[str, str], ScreenReader]
#: The name of the screen reader running in this session, or None.
Detect = Callable[[], str | None]


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
    whether one runs (for "auto"); nothing is connected before :meth:`apply` or
    :meth:`use` asks for a screen-reader channel. Every method runs on the GUI
    thread and raises nothing.
    """

    def __init__(self, speaker: Speaker | None = None, *, connect: Connect = _connect,
                 detect: Detect = running) -> None:
        self.speaker = speaker
        self.connect = connect
        self.detect = detect
        self.chosen = "app"                     # the user's choice
        self.channel = "app"                    # in effect: the choice, or "app" when no screen reader answers
        self.lang = "de"
        self.screen_reader: ScreenReader | None = None
        self.problem = ""                       # why the screen reader chosen is not used ("" otherwise)
        self.earcons: EarconPlayer | None = None
        self.on_status: Callable[[str], None] | None = None
        self._routes: dict[tuple[float, str, str], tuple[str, ...]] = {}   # utterance -> its outputs
        self._early: deque[str] = deque(maxlen=16)   # refusals the screen reader said before their Speak came
        self._table_texts: set[str] = set()          # texts of the table event being handled (its window copy)

    # ------------------------------------------------------------ configuration
    def apply(self, settings: Settings, *, on_status: Callable[[str], None] | None = None) -> None:
        """Take the channel and the earcons from ``settings`` (at start and after the settings dialog)."""
        self.use(settings.speech_channel, lang=settings.lang, on_status=on_status)
        self.use_earcons(settings.earcons)

    def use(self, channel: str, *, lang: str | None = None, screen_reader: ScreenReader | None = None,
            on_status: Callable[[str], None] | None = None) -> None:
        """Speak through ``channel`` (one of :data:`~blindchess.ui.settings.CHANNELS`; unknown: "auto").

        ``screen_reader``: use this one instead of connecting. A screen reader that
        cannot be reached gives "app" with one status message (see the module docstring).
        "auto" is "screenreader" when ``screen_reader`` is given or one runs, else "app" (no message).
        """
        self.lang = lang or self.lang
        if on_status is not None:
            self.on_status = on_status
        self.chosen = channel if channel in CHANNELS else "auto"
        wanted = self.chosen
        if wanted == "auto":
            wanted = "screenreader" if screen_reader is not None or self.detect() else "app"
        if wanted == "app":
            self._drop_screen_reader()
            self.channel, self.problem = "app", ""
            return
        if screen_reader is not None and screen_reader is not self.screen_reader:
            self._drop_screen_reader()
            self.screen_reader = screen_reader
        if self.screen_reader is None:
            try:
                self.screen_reader = self.connect(self.lang, self.lang)
            except ScreenReaderUnavailable as exc:
                self._fall_back(tr("voice.fallback", self.lang, reason=exc.message))
                return
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

    def _fall_back(self, text: str) -> None:
        """No screen reader: the program's voice speaks; said once (status line and voice)."""
        self._drop_screen_reader()
        self.channel, self.problem = "app", text
        if self.on_status is not None:
            self.on_status(text)
        if self.speaker is not None:
            self.speaker.say(text, priority=PRIORITY_ANSWER)

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

    # ------------------------------------------------------------ the table's events
    def table_event(self, event: object) -> None:
        """Carry out one table event: speak, cut, play its earcon, say a refusal to the screen-reader user."""
        self._table_texts.clear()
        if isinstance(event, Speak):
            self.speak(event)
        elif isinstance(event, Said):
            self._said(event)
        elif isinstance(event, Shown):
            self._table_texts.add(_norm(event.text))
        elif isinstance(event, Refused):
            self._table_texts.add(_norm(event.text))
            if self.channel != "app":      # the table's refusal: with the table's texts, never cut by the window's
                self._early.append(_norm(event.text))
                self._to_screen_reader(event.text, "answer")
        name = earcon_for(event)
        if name is not None and self.earcons is not None:
            self.earcons.play(name)

    def speak(self, event: Speak) -> None:
        """Begin saying ``event.text`` now on its output (see the module docstring)."""
        outputs = self._outputs(event)
        self._routes[(event.t, event.to, event.text)] = outputs
        for output in outputs:
            if output == "app":
                self._to_app(event.text, interrupt=event.interrupt)
            elif _norm(event.text) in self._early:
                self._early.remove(_norm(event.text))    # said already, when the table refused it
            else:
                self._to_screen_reader(event.text, event.priority)

    def _outputs(self, event: Speak) -> tuple[str, ...]:
        if event.priority == "reading":
            return ("app",) if self.wants_readings else ()
        if self.channel == "screenreader":
            return ("screenreader",)
        if self.channel == "both" and event.to == "blind":
            return ("screenreader",)
        return ("app",)

    def _said(self, event: Said) -> None:
        outputs = self._routes.pop((event.t, event.to, event.text), ())
        if not event.cut:
            return
        for output in outputs:
            if output == "app":
                if self.speaker is not None:
                    self.speaker.stop()
            elif self.screen_reader is not None:
                try:
                    self.screen_reader.cancel()
                except ScreenReaderLost as exc:
                    self._fall_back(tr("voice.lost", self.lang, reason=exc.message))

    def _to_app(self, text: str, *, interrupt: bool = False) -> None:
        if self.speaker is not None:
            self.speaker.say(text, interrupt=interrupt, priority=PRIORITY_ANSWER)

    def _to_screen_reader(self, text: str, priority: str) -> None:
        """Queue ``text`` on the screen reader as spoken (no article numbers — they are shown); a cut is
        carried out on the Said that reports it."""
        text = spoken(text)
        if not text:
            return
        reader = self.screen_reader
        if reader is None:
            self._to_app(text)
            return
        try:
            reader.say(text, priority)
        except ScreenReaderLost as exc:
            self._fall_back(tr("voice.lost", self.lang, reason=exc.message))
            self._to_app(text)          # the message that did not get through

    # ------------------------------------------------------------ the window's own speech
    def message(self, text: str) -> None:
        """A message of the window (message line): said once through the screen reader when the channel has
        one; shown only with "app". The window's copy of a table event just handled is not said again."""
        key = _norm(text)
        if not key or key in self._table_texts:
            return
        if self.channel != "app":
            self._to_screen_reader(text, "window")

    def answer(self, texts: list[str]) -> None:
        """The window's answer to the person at the keyboard (``texts`` said as one utterance, repeats left out):
        through the screen reader, replacing the window's text being said; shown only with "app"."""
        unique = list(dict.fromkeys(spoken(text) for text in texts if text and spoken(text)))
        if unique and self.channel != "app":
            self._to_screen_reader(" ".join(unique), "window")

    def reading(self, text: str) -> None:
        """Without a game: a square name, cutting the previous one (only when the program's voice reads squares)."""
        if self.speaker is not None and text and self.wants_readings:
            self.speaker.say(text, interrupt=True, priority=PRIORITY_READING)


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
