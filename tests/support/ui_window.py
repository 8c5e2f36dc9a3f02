"""The app's main window for UI tests, with a speaker that reports texts instead of playing them.

The controller runs on a test clock (:class:`TestClock`) instead of the wall clock, and its
timer is stopped: time passes only when a test calls ``clock.advance(seconds)``, which ticks the
table — speech ends and begins, the pegs settle, exactly as far as the test says.
"""

from __future__ import annotations

from contextlib import contextmanager

from blindchess.adapters.speech.tts import Speaker
from blindchess.ui.app import build
from blindchess.ui.settings import Settings


class TestClock:
    """Seconds as a test sets them; ``advance`` lets the controller's table see the time pass."""

    __test__ = False

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self.controller = None

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
        if self.controller is not None:
            self.controller.tick()


@contextmanager
def open_window(qtbot, lang: str = "de", *, clock: TestClock | None = None):
    """Yield (controller, window) shown offscreen; no sound device here, so the "text" engine speaks.

    With ``clock`` the controller reads that clock and its timer does not run.
    """
    app, controller, window = build(Settings(lang=lang))
    if clock is not None:
        controller.use_clock(clock)
        clock.controller = controller
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
