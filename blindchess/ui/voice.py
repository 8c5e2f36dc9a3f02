"""The app's voice and ears: the table's speech decisions carried out on a Speaker; push-to-talk to text.

:class:`TableVoice` carries out :class:`~blindchess.table.events.Speak` events
— the decisions of the table's :class:`~blindchess.table.speech.SpeechPolicy`
— on the real :class:`~blindchess.speech.tts.Speaker`: ``interrupt`` cuts what
is being said and drops what waits; otherwise the text is queued behind it.
All texts go to the speaker with one priority, so the speaker never cuts or
reorders on its own: what may interrupt what is decided by the policy only.
Outside a game (no table, no policy) :meth:`TableVoice.reading` says a board
square directly, cutting the previous one.

:class:`Ears` is the recogniser and the microphone (when a vosk model and a
capture device exist): push-to-talk audio becomes ``on_text(text, confidence)``
on the recogniser's thread; the caller forwards it to the GUI thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..errors import UserError
from ..speech import asr, models
from ..speech.audio import rms
from ..speech.microphone import Listener, MicGate, Microphone
from ..speech.tts import PRIORITY_ANSWER, PRIORITY_READING, Speaker
from ..table.events import Speak
from .text import t


class TableVoice:
    """Speaks what the table decided (see the module docstring). ``speaker`` None: nothing is spoken."""

    def __init__(self, speaker: Speaker | None = None) -> None:
        self.speaker = speaker

    def speak(self, event: Speak) -> None:
        """Begin saying ``event.text`` now: cut what is being said first when the policy says so."""
        if self.speaker is not None:
            self.speaker.say(event.text, interrupt=event.interrupt, priority=PRIORITY_ANSWER)

    def reading(self, text: str) -> None:
        """Without a game: a square name, cutting the previous one (nothing else is being said)."""
        if self.speaker is not None and text:
            self.speaker.say(text, interrupt=True, priority=PRIORITY_READING)

    def name(self, lang: str) -> str | None:
        """"engine (lang)" when a speech engine really speaks, else None."""
        if self.speaker is None or not self.speaker.available:
            return None
        return f"{self.speaker.engine_name} ({lang})"


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
        model = models.find_model(lang, model_setting or None)
        if model is None:
            return
        try:
            # one result with word confidences (shown in the log) rather than ranked alternatives
            self.recognizer = asr.Recognizer(model, lang, alternatives=0, ui_lang=lang)
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
