"""Shared test set-up: an isolated user data directory, on a German system; no window outlives its test."""

from __future__ import annotations

import os
import random
import sys

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Every test gets its own BLINDCHESS_HOME so nothing touches the real user data."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("BLINDCHESS_HOME", str(home))
    monkeypatch.delenv("BLINDCHESS_LANG", raising=False)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "de_DE.UTF-8")   # the system's language is German (a test may choose another)
    return home


def pytest_configure(config):
    """The crash test's sample seed, drawn once for the whole run (every worker inherits it)."""
    if not hasattr(config, "workerinput") and not os.environ.get("BLINDCHESS_CRASH_SEED"):
        os.environ["BLINDCHESS_CRASH_SEED"] = str(random.SystemRandom().randrange(1, 1_000_000))


#: Tests that mostly wait for a screen reader on a desktop of their own (Xvfb, D-Bus, AT-SPI, Orca): run first, so
#: that their waiting overlaps the rest of the suite on the other workers instead of trailing after it.
_DESKTOP_TESTS = ("tests/ui/test_orca", "tests/ui/test_atspi.py")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: not item.nodeid.startswith(_DESKTOP_TESTS))     # stable: the order kept otherwise


def pytest_terminal_summary(terminalreporter):
    seed = os.environ.get("BLINDCHESS_CRASH_SEED")
    if seed:
        terminalreporter.write_line(f"crash test sample: seed {seed} (BLINDCHESS_CRASH_SEED={seed} repeats it)")


@pytest.fixture(autouse=True)
def _the_process_language_is_the_tests_own():
    """The program's one language is the process's (a language chosen in the window sets it): a test that
    chose one leaves the next test the language it found."""
    from blindchess.base import i18n

    before = i18n._chosen
    yield
    i18n._chosen = before


@pytest.fixture(autouse=True)
def _no_window_outlives_its_test():
    """Windows and dialogs a test left open are closed and deleted after it, so that the next test's
    application-wide changes (a style sheet, a palette, a font) never reach a widget of an earlier test."""
    yield
    widgets = sys.modules.get("PySide6.QtWidgets")
    if widgets is None or widgets.QApplication.instance() is None:
        return
    core = sys.modules["PySide6.QtCore"]
    for window in widgets.QApplication.topLevelWidgets():
        window.close()
        window.deleteLater()
    core.QCoreApplication.sendPostedEvents(None, core.QEvent.Type.DeferredDelete)
