"""The app as a screen reader sees it: through AT-SPI, on a real X server, keys only.

The app runs under Xvfb with its own D-Bus session (``dbus-launch``); the AT-SPI
registry is started first (``pyatspi.Registry`` touched once by the walker), and
Qt's bridge is switched on with ``QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1``. The
walker (tests/support/atspi_walker.py) runs under the system's Python — Debian's
python3-pyatspi, which the venv cannot import — and answers JSON commands: the
tree, a table, the focused object, keys typed through AT-SPI (the registry's
device controller, XTest on X11). What Orca would read is what these tests read.

Asserted: the board is a group of 64 squares (list items, in reading order) named
"Eva zwei, weißer Bauer" and nothing else, the cursor's square focused and the
picked-up piece's square selected; every control has a name, and every label that shows a value
carries it in its name; Tab goes board → input line → scores → log; and the
keyboard-only flow: a new game, moves by keys (his announcement typed, the board), the last
move, the clock on request (D.2.10 d), the arbiter's view, the help screen, the
PGN export, Ctrl+N asking before it replaces the running game.

Skipped (with the reason) where Xvfb, dbus-launch or python3-pyatspi are missing
(``make test`` installs xvfb, dbus-x11, at-spi2-core, python3-pyatspi). No fixed
sleeps: every wait polls the tree (tests/support/waiting.py) a bounded time.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.orca_desktop import Walker
from tests.support.waiting import wait_for

pytestmark = pytest.mark.slow

SYSTEM_PYTHON = "/usr/bin/python3"
APP_NAME = "blindchess"
#: Roles a screen reader stops on: each needs a name (containers, scroll bars and separators do not).
CONTROL_ROLES = {"push button", "toggle button", "check box", "radio button", "text", "password text",
                 "combo box", "spin button", "table", "progress bar", "slider", "menu item", "page tab", "list",
                 "tree table", "dialog", "frame"}
#: Labels that show a value carry it in their accessible name: "<caption>: <value>".
VALUE_LABELS = ("Meldung: ", "Nächster Schritt: ", "Uhr Weiß, ", "Uhr Schwarz, ", "Anschluss: ", "Gerät: ",
                "Tastbrett: ", "Stimme: ", "Spracherkennung: ")
#: Roles of dialog windows (a QMessageBox is an "alert").
DIALOGS = ("dialog", "alert")
WAIT = 20.0   # seconds a condition may take to show in the tree (a loaded machine)


def _missing() -> str | None:
    """Why the AT-SPI test cannot run here, or None."""
    for tool, package in (("Xvfb", "xvfb"), ("dbus-launch", "dbus-x11")):
        if shutil.which(tool) is None:
            return f"{tool} is missing (Debian package {package})"
    if not Path(SYSTEM_PYTHON).is_file():
        return f"{SYSTEM_PYTHON} is missing (the AT-SPI walker runs under the system's Python)"
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi"], capture_output=True, check=False)
    if probe.returncode != 0:
        return "python3-pyatspi is missing (Debian package python3-pyatspi, with at-spi2-core)"
    return None



class Desktop:
    """Xvfb, a D-Bus session with the AT-SPI registry, the app and the walker."""

    def __init__(self, home: Path) -> None:
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24",
                                      "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as display_pipe:
            display = display_pipe.readline().strip()   # written once the server accepts clients
        assert display, "Xvfb did not start"
        env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "NO_AT_BRIDGE")}
        env["DISPLAY"] = f":{display}"
        launched = subprocess.run(["dbus-launch", "--sh-syntax"], capture_output=True, text=True, env=env,
                                  check=True).stdout
        self.bus_pid = int(re.search(r"DBUS_SESSION_BUS_PID=(\d+)", launched).group(1))
        env["DBUS_SESSION_BUS_ADDRESS"] = re.search(r"DBUS_SESSION_BUS_ADDRESS='([^']+)'", launched).group(1)
        env.update(QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1", QT_QPA_PLATFORM="xcb",
                   BLINDCHESS_HOME=str(home), BLINDCHESS_REPORT_READY="1", LANG="de_DE.UTF-8")
        self.env = env
        self.walker = Walker(env, APP_NAME)          # touches pyatspi.Registry: the registry runs before the app starts
        self.app = subprocess.Popen([sys.executable, "-m", "blindchess", "app", "--lang", "de"], env=env,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def close(self) -> None:
        if self.app.poll() is None:
            self.app.send_signal(signal.SIGINT)
            wait_for(lambda: self.app.poll() is not None, WAIT)
            if self.app.poll() is None:
                self.app.kill()
        self.app.wait()
        self.walker.close()
        os.kill(self.bus_pid, signal.SIGTERM)
        self.xvfb.terminate()
        self.xvfb.wait()


@pytest.fixture(scope="module")
def desktop(tmp_path_factory):
    reason = _missing()
    if reason:
        pytest.skip(reason)
    d = Desktop(tmp_path_factory.mktemp("atspi-home"))
    try:
        yield d
    finally:
        d.close()


def until(probe, what: str, timeout: float = WAIT):
    """Poll ``probe()`` until it gives something true; its last value otherwise fails the test with ``what``."""
    seen = []

    def ok():
        seen[:] = [probe()]
        return bool(seen[0])

    assert wait_for(ok, timeout), f"{what}; last seen: {seen[0] if seen else None!r}"
    return seen[0]


def _walk(nodes):
    for node in nodes:
        if node is None:
            continue
        yield node
        yield from _walk(node.get("children", []))


def _named(walker: Walker, role: str, prefix: str):
    """The first showing object with ``role`` whose name starts with ``prefix``, or None."""
    return next((n for n in _walk(walker.ask("tree")) if n["role"] == role and n["name"].startswith(prefix)), None)


def _unnamed(tree) -> list[tuple[str, str]]:
    """Controls a screen reader stops on that have no name (role, start of the description)."""
    return [(n["role"], n["description"][:40]) for n in _walk(tree) if n["role"] in CONTROL_ROLES and not n["name"]]


def _focus(walker: Walker) -> dict:
    return walker.ask("focused") or {}


def _dialog_focus(walker: Walker, what: str) -> dict:
    """Wait until a dialog is shown and has the keyboard; its focused object."""
    def probe():
        dialogs = [win["name"] for win in walker.ask("windows") if win["role"] in DIALOGS]
        focus = _focus(walker)
        return focus if dialogs and focus.get("window") in dialogs else None
    return until(probe, what)


def _no_dialog(walker: Walker, what: str) -> None:
    until(lambda: not any(win["role"] in DIALOGS for win in walker.ask("windows")), what)


def _log(walker: Walker) -> list[tuple[str, str]]:
    table = walker.ask("table", name="Ansagen") or {"cells": []}
    rows: dict[int, dict[int, str]] = {}
    for row, column, name, _description, _states in table["cells"]:
        rows.setdefault(row, {})[column] = name
    return [(cells.get(1, ""), cells.get(2, "")) for _row, cells in sorted(rows.items())]


def _cell(walker: Walker, board_name: str, square: str) -> dict:
    """A square ("e4") of a board shown from White's side: name, description, states."""
    board = walker.ask("squares", name=board_name)
    row, column = 8 - int(square[1]), "abcdefgh".index(square[0])
    name, description, states = board["squares"][row * 8 + column]
    return {"name": name, "description": description, "states": states}


def _where(focus: dict) -> str | None:
    """What the keyboard is on: the board or table it is in, else the control's name."""
    return focus.get("group") or focus.get("table") or focus.get("name")


@pytest.fixture(scope="module")
def game(desktop):
    """The app as it starts (the new-game dialog open), then a game started by keys: Anna (blind, White) v Bernd."""
    w = desktop.walker
    until(lambda: any(win["role"] == "dialog" and win["name"] == "Neue Partie" for win in w.ask("windows")),
          "the app offers a new game at its first start")
    focus = until(lambda: _focus(w).get("name") == "Weiß" and _focus(w), "the focus is in the field for White")
    assert focus["role"] == "text"
    assert _unnamed(w.ask("tree", window="Neue Partie")) == []
    w.keys("text:Anna", "Tab", "text:Bernd", "Return")
    _no_dialog(w, "Enter starts the game")
    until(lambda: _named(w, "label", "Uhr Weiß, Anna: 1:30:00"), "the clock shows Anna's time")
    return w


def test_the_board_is_64_named_squares_and_every_control_has_a_name_and_its_value(game):
    w = game
    board = w.ask("squares", name="Brett")
    names = [name for name, _description, _states in board["squares"]]
    assert len(names) == 64 and all(names)
    assert names[0] == "Anna acht, schwarzer Turm"               # the blind player (White) sees White at the bottom
    assert names[6 * 8 + 4] == "Eva zwei, weißer Bauer"
    assert names[7 * 8 + 6] == "Gustav eins, weißer Springer"
    assert all(description == "" for _name, description, _states in board["squares"])   # the name only

    nodes = list(_walk(w.ask("tree")))
    assert _unnamed(w.ask("tree")) == []
    labels = [n["name"] for n in nodes if n["role"] == "label"]
    for prefix in VALUE_LABELS:
        shown = [name for name in labels if name.startswith(prefix)]
        assert shown and all(len(name) > len(prefix) for name in shown), (prefix, labels)
    assert any(re.fullmatch(r"Uhr Schwarz, Bernd: 1:30:00, 0 Züge", name) for name in labels)
    step = next(name for name in labels if name.startswith("Nächster Schritt: "))
    assert "Anna" in step
    entry = next(n for n in nodes if n["role"] == "text" and n["name"] == "Zug oder Ansage")
    assert entry["text"] == ""                                   # a text field's value is its text
    mode = next(n for n in nodes if n["role"] == "combo box" and n["description"].startswith("Strg+J"))
    assert mode["name"] == "Ansage des blinden Spielers"         # its value: no tactile board, his announcement


def test_focus_goes_board_input_scores_log(game):
    w = game
    w.keys("ctrl+1")
    focus = until(lambda: _focus(w).get("group") == "Brett" and _focus(w), "Ctrl+1 puts the focus on the board")
    assert focus["role"] == "list item" and focus["name"] == "Eva zwei, weißer Bauer"
    order = ["Brett"]
    for _ in range(12):
        before = order[-1]
        w.keys("Tab")
        here = until(lambda b=before: (lambda f: _where(f) != b and f)(_focus(w)), f"Tab leaves {before}")
        order.append(_where(here))
        if order[-1] == "Brett":
            break
    positions = [order.index(name) for name in ("Brett", "Zug oder Ansage", "Partieformulare", "Ansagen")]
    assert positions == sorted(positions), order
    assert order[1] == "Zug oder Ansage", order                  # the input line right after the board


def test_keyboard_only_game(game, desktop, tmp_path):
    w = game
    said_before = len(_log(w))
    # 1. e4 — without an electronic tactile board his announcement makes his move: one line and Enter
    w.keys("ctrl+l")
    until(lambda: _named(w, "combo box", "Ansage des blinden Spielers"), "the input line takes his announcement")
    w.keys("text:Eva vier", "Return")
    until(lambda: "nachziehen: e4" in (_named(w, "label", "Nächster Schritt: ") or {}).get("name", ""),
          "the next step asks for the mirror on the sighted board")
    # … mirrored on the board by keys: e, 2 (the square), Space, 4, Space
    w.keys("ctrl+1", "e", "2", "space")
    until(lambda: "selected" in _cell(w, "Brett", "e2")["states"], "Space picks up the pawn: its square is selected")
    w.keys("4", "space")
    until(lambda: _cell(w, "Brett", "e4")["name"] == "Eva vier, weißer Bauer", "the board shows 1. e4")
    # 1… e5 — the sighted player (Black) moves on the board by keys; the blind player hears it
    w.keys("7", "space", "5", "space")
    until(lambda: _cell(w, "Brett", "e5")["name"] == "Eva fünf, schwarzer Bauer", "the board shows 1… e5")
    until(lambda: any("Eva fünf" in text for _kind, text in _log(w)[said_before:]), "1… e5 is announced")
    w.keys("ctrl+l", "ctrl+j")
    until(lambda: _named(w, "combo box", "Zug auf dem Tastbrett"), "Ctrl+J: the tactile board's move")
    w.keys("text:e7e5", "Return")
    scores = until(lambda: (lambda t: t if t and t["rows"] == 1 and "e5" in [c[2] for c in t["cells"]] else None)(
        w.ask("table", name="Partieformulare")), "both scores have 1. e4 e5")
    assert [c[2] for c in scores["cells"] if c[0] == 0] == ["1.", "e4", "e5", "e4", "e5"]

    # the last move, on request (L on the board)
    count = len(_log(w))
    w.keys("ctrl+1", "l")
    until(lambda: any("Eva fünf" in text for _k, text in _log(w)[count:]), "L says the last move")
    # the clock, only on request (T on the board; D.2.10 d)
    count = len(_log(w))
    w.keys("t")
    answer = until(lambda: [text for _k, text in _log(w)[count:] if re.search(r"Minute|Stunde|\d", text)],
                   "T says the time")
    assert answer
    # the arbiter's view (Ctrl+Shift+A): both boards are tables named for what they are, before the buttons
    w.keys("ctrl+shift+a")
    first = _dialog_focus(w, "Ctrl+Shift+A opens the arbiter's view, the keyboard in it")
    assert first["name"].startswith("Vorschlag: ")                # the ruling text first, its text in its name
    sighted = until(lambda: w.ask("squares", name="Brett von Bernd (sehend)"), "the sighted board in the arbiter's view")
    tactile = until(lambda: w.ask("squares", name="Tastbrett von Anna"), "the tactile board in the arbiter's view")
    assert len(sighted["squares"]) == len(tactile["squares"]) == 64
    assert _unnamed(w.ask("tree")) == []
    tree = list(_walk(w.ask("tree")))
    boards = [n for n in tree if n["role"] == tactile["role"] and n["name"] == "Tastbrett von Anna"]
    assert "Tastbrett" in boards[0]["description"] and "Nur zum Ansehen" in boards[0]["description"]
    finding = next(n["name"] for n in tree if n["role"] == "label" and n["name"].startswith("Befund: "))
    assert finding == "Befund: Die Bretter stimmen überein."
    visited = []
    for _ in range(24):                               # past the procedures' buttons (adjournment, result)
        w.keys("Tab")
        visited.append(_where(_focus(w)))
    buttons = [i for i, name in enumerate(visited) if name in ("Schließen", "Vorschlag anwenden", "Zurück zum Halbzug")]
    assert buttons, visited
    first_button = buttons[0]
    assert visited.index("Brett von Bernd (sehend)") < visited.index("Tastbrett von Anna") < first_button, visited
    w.keys("Escape")
    _no_dialog(w, "Escape closes the arbiter's view")

    # F1: the user guide — its contents (pages and headings) and its text reachable as Orca reads them
    w.keys("F1")
    contents = _dialog_focus(w, "F1 opens the user guide, the keyboard in its contents")
    assert contents["role"] in ("tree", "tree item", "tree table", "table cell", "list item"), contents
    guide = until(lambda: w.ask("tree", window="Benutzerhandbuch"), "the guide's window")
    nodes = list(_walk(guide))
    items = [n["name"] for n in nodes if n["role"] in ("tree item", "table cell", "list item")]
    assert "Eine Partie spielen" in items and "Fragen" in items, items
    text = next(n for n in nodes if n["name"].startswith("Handbuch: "))
    assert "Benutzerhandbuch von blindchess" in text.get("text", ""), text
    assert not _unnamed(guide)
    w.keys("Escape")
    _no_dialog(w, "Escape closes the guide")

    # the list of keys (Ctrl+F1) lists the board's keys and counts the input modes
    w.keys("ctrl+F1")
    _dialog_focus(w, "Ctrl+F1 opens the list of keys, the keyboard in it")
    shortcuts = until(lambda: w.ask("table", name="Liste der Tastenkürzel"), "Ctrl+F1 shows the keys")
    rows: dict[int, list[str]] = {}
    for row, _column, name, _d, _s in shortcuts["cells"]:
        rows.setdefault(row, []).append(name)
    text = [" | ".join(cells) for _r, cells in sorted(rows.items())]
    assert any("Strg+J" in line and "4 Arten" in line for line in text), text
    assert any("Umschalt + K, D, T, L, S, B" in line for line in text), text
    w.keys("Escape")
    _no_dialog(w, "Escape closes the list of keys")

    # the export (Ctrl+S): a file name typed, Enter
    target = tmp_path / "partie.pgn"
    w.keys("ctrl+s")
    field = _dialog_focus(w, "Ctrl+S asks where to save, the keyboard in the file name")
    assert field["role"] == "text"
    w.keys("text:" + str(target))
    until(lambda: _focus(w).get("text") == str(target), "the file name is typed")
    for _attempt in range(3):   # a first Return may only close the file name completer's list
        w.keys("Return")
        if wait_for(target.is_file, WAIT / 4):
            break
    until(lambda: _named(w, "label", "Meldung: Gespeichert"), "the message line says it is saved")
    pgn = target.read_text(encoding="utf-8")          # written whole before it appears (renamed into place)
    assert '[White "Anna"]' in pgn and re.search(r"1\. e4 (\{[^}]*\} )?(1\.\.\. )?e5", pgn), pgn

    # Ctrl+N while the game runs: asked first; Escape keeps the game
    w.keys("ctrl+n")
    _dialog_focus(w, "Ctrl+N asks first, the keyboard in the question")
    question = until(lambda: _named(w, "label", "Eine Partie läuft noch"), "the question names the running game")
    assert question
    w.keys("Escape")
    _no_dialog(w, "Escape: no new game")
    assert _cell(w, "Brett", "e5")["name"] == "Eva fünf, schwarzer Bauer"
