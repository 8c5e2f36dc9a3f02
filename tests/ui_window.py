"""The app's main window for UI tests, with a speaker that reports texts instead of playing them."""

from __future__ import annotations

from contextlib import contextmanager

from blindchess.speech.tts import Speaker
from blindchess.ui.app import build
from blindchess.ui.settings import Settings


@contextmanager
def open_window(qtbot, lang: str = "de"):
    """Yield (controller, window) shown offscreen; no sound device here, so the "text" engine speaks."""
    app, controller, window = build(Settings(lang=lang))
    speaker = Speaker(lang, engine="text")
    controller.attach_speaker(speaker)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    try:
        yield controller, window
    finally:
        controller.shutdown()
        speaker.close()
