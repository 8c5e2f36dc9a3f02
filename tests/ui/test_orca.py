"""What a blind player hears: the app driven by keys under the real screen reader, Orca, and what it spoke.

Debian's Orca runs on a virtual X display with its own D-Bus session, the AT-SPI registry
started first and a private speech-dispatcher (tests/support/orca_desktop.py). Every key goes
through AT-SPI as a user's key does; what Orca said comes from its own speech log, what
the app said through its screen-reader channel from speech-dispatcher's log. One session,
keyboard only, German: a new game without an electronic tactile board (the blind player
Anna, White, types his announcements: one line and Enter), moves for both sides, the
board's keys, the blind player's requests, a question, dialogs (Ctrl+F1, Ctrl+N) and a fallen
flag (a game reopened from its journal after a crash, its time long gone).

Asserted: the square — and only the square — is read when the focus comes back to the
board (Ctrl+1, a dialog closing); one square per arrow, digit or file key; the app speaks
through the screen reader (the "auto" channel found Orca), never with its own voice, and
nothing the app says is also read by Orca; every action is answered (a move typed, a mirror
made on the board, F8 pause and resume, the next step, the end of the game, an empty text
field, a combo box's new value); a question does not take the board's keys; a request asked again replaces its older
answer; the Ctrl+N question is read once; after the flag the window no longer says that a
game is running.

``BLINDCHESS_KEEP_ORCA=1`` keeps Orca's and speech-dispatcher's logs (the folder is printed).
Skipped with the reason where Orca, Xvfb, dbus-launch, speech-dispatcher or python3-pyatspi
is missing (``make test`` installs them).
"""

from __future__ import annotations

import time

import pytest

from blindchess.table.commands import BlindSays, SightedMove
from tests.support.orca_desktop import OrcaDesktop, german_desktop
from tests.support.waiting import wait_for

pytestmark = pytest.mark.slow

WAIT = 20.0
SQUARE = r"^[A-ZÄ][a-zäöü]+ [a-zäöü]+, (leer|(weiß|schwarz)e[rs]? [A-ZÄ][a-zäöü]+)\.$"


@pytest.fixture(scope="module")
def desk():
    with german_desktop() as desktop:
        yield desktop


def _app_gets(desk: OrcaDesktop, start: int, wanted, what: str) -> list[str]:
    """Wait until the app has sent a text for which ``wanted(text)`` holds (since its ``start``-th text)."""
    assert wait_for(lambda: any(wanted(t) for t in desk.app_said()[start:]), WAIT), \
        f"{what}; the app said: {desk.app_said()[start:]}"
    return desk.app_said()[start:]


def _only_square(said: list[str], square: str) -> None:
    """Orca read exactly this square, and nothing else."""
    assert said == [f"{square}."], said


def test_a_blind_player_hears_the_game_through_orca(desk, tmp_path):
    import re

    w = desk.walker
    assert wait_for(lambda: any(t.startswith("leer.") for t in desk.orca_said()), 60), \
        f"the new-game dialog is read at the first start; Orca said {desk.orca_said()}"
    desk.settle(1.0)
    opening = desk.orca_said()
    assert "Weiß text." in opening and any(t.startswith("leer.") for t in opening), opening   # an empty field

    # a new game by keys: names, Enter — no electronic tactile board: the input line has the keyboard
    said = desk.hear("text:Anna", "Tab", least=2)
    assert said[:2] == ["Schwarz text.", "leer. Name des Spielers mit Schwarz."], said
    start = len(desk.app_said())
    said = desk.hear("text:Bernd", "Return", least=2, idle=1.5)
    assert said[:2] == ["blindchess frame.", "Zug oder Ansage text."], said
    told = _app_gets(desk, start, lambda t: t.startswith("Anna (Weiß) ist am Zug"), "the next step is said")
    assert "Neue Partie: Anna gegen Bernd." in told
    status = next(n for n in _walk(w.ask("tree")) if n["role"] == "label" and n["name"].startswith("Stimme: "))
    assert status["name"] == "Stimme: Bildschirmleser: speech-dispatcher"   # "auto": Orca runs, so Orca speaks

    # his own move: one line and Enter (three keys)
    start = len(desk.app_said())
    assert desk.keys("text:e4", "Return") == []
    told = _app_gets(desk, start, lambda t: "nachziehen: e4" in t, "the mirror asked for")
    assert told[0] == "Zug ausgeführt: Eva vier."

    # the board: the square first and only, one square per key
    _only_square(desk.hear("ctrl+1"), "Eva zwei, weißer Bauer")
    _only_square(desk.hear("Up"), "Eva drei, leer")
    _only_square(desk.hear("Right"), "Felix drei, leer")
    _only_square(desk.hear("4"), "Felix vier, leer")
    _only_square(desk.hear("Left"), "Eva vier, leer")
    _only_square(desk.hear("Down"), "Eva drei, leer")
    # the assistant mirrors 1. e4 on the sighted board by keys: answered by the next step
    _only_square(desk.hear("2"), "Eva zwei, weißer Bauer")
    start = len(desk.app_said())
    assert desk.keys("space") == []
    _app_gets(desk, start, lambda t: t == "Aufgenommen: Eva zwei, weißer Bauer", "the pick-up is said")
    _only_square(desk.hear("4"), "Eva vier, leer")
    start = len(desk.app_said())
    assert desk.keys("space") == []
    _app_gets(desk, start, lambda t: t.startswith("Bernd (Schwarz) ist am Zug"), "the mirror is answered")
    # Bernd's 1… e5 on the board; Anna hears it
    _only_square(desk.hear("7"), "Eva sieben, schwarzer Bauer")
    desk.keys("space")
    _only_square(desk.hear("5"), "Eva fünf, leer")
    start = len(desk.app_said())
    desk.keys("space")
    _app_gets(desk, start, lambda t: t == "Eva fünf", "1… e5 is announced to the blind player")

    # 2. Sf3 said as he says it
    assert desk.hear("ctrl+l", least=2) == ["Zug oder Ansage text.", "leer. Enter führt aus; Strg+J wechselt die Eingabeart."]
    start = len(desk.app_said())
    desk.keys("text:Springer Felix drei", "Return")
    _app_gets(desk, start, lambda t: t == "Zug ausgeführt: Springer Felix drei.", "2. Sf3 is confirmed")

    # a request asked three times: the newest answer replaces the older ones (speech-dispatcher is told so)
    _only_square(desk.hear("ctrl+1"), "Eva fünf, schwarzer Bauer")
    cancels = desk.server.received("CANCEL self", "blindchess:table")
    start = len(desk.app_said())
    assert desk.keys("shift+Left", "shift+Left", "shift+Left") == []
    told = _app_gets(desk, start, lambda t: t.startswith("Reihe fünf: "), "the rank is read")
    assert wait_for(lambda: desk.server.received("CANCEL self", "blindchess:table") >= cancels + 2, WAIT)

    # a question never takes the board's keys: "1" moves the cursor; Alt+N answers
    desk.keys("ctrl+l")
    start = len(desk.app_said())
    desk.keys("text:ich gebe auf", "Return")
    told = _app_gets(desk, start, lambda t: t == "Wollen Sie wirklich aufgeben? Ja oder nein.", "the question")
    assert told.count("Wollen Sie wirklich aufgeben? Ja oder nein.") == 1 and not any("Offene Frage" in t for t in told)
    desk.keys("ctrl+1")
    _only_square(desk.hear("1"), "Eva eins, weißer König")
    assert _named(w, "label", "Frage: ")                    # still open: "1" was the board's
    desk.keys("alt+n")
    assert wait_for(lambda: not _named(w, "label", "Frage: "), WAIT), "Alt+N answers no"

    # the window's own texts: Ctrl+J three times — each replaces the one before on the screen reader
    cancels = desk.server.received("CANCEL self", "blindchess:window")
    start = len(desk.app_said("window"))
    desk.keys("ctrl+j", "ctrl+j", "ctrl+j")
    assert wait_for(lambda: len(desk.app_said("window")) >= start + 3, WAIT)
    assert desk.server.received("CANCEL self", "blindchess:window") >= cancels + 3

    # F8: the clock stopped and running again — said, though the table only shows it
    start = len(desk.app_said())
    desk.keys("F8")
    _app_gets(desk, start, lambda t: t == "Die Uhr ist angehalten.", "F8 is answered")
    start = len(desk.app_said())
    desk.keys("F8")
    _app_gets(desk, start, lambda t: t == "Die Uhr läuft wieder.", "F8 again is answered")

    # a combo box changed with the arrow keys says its new value (Orca itself says nothing there)
    desk.keys("ctrl+l")
    mark = desk.mark()
    desk.keys("Tab", "Tab")
    assert wait_for(lambda: any(t.startswith("Eingabe für combo box") for t in desk.orca_said(mark)), WAIT), \
        desk.orca_said(mark)
    start = len(desk.app_said())
    desk.keys("Down")
    _app_gets(desk, start, lambda t: t == "Ansage des blinden Spielers", "the new value is said")

    # a dialog closing gives the keyboard back to the board: its square is read, nothing else
    _only_square(desk.hear("ctrl+1"), "Eva eins, weißer König")
    said = desk.hear("ctrl+F1")
    assert said[0] == "Tastenkürzel dialog Alle Befehle und ihre Tasten.", said
    assert desk.hear("Escape", least=2) == ["blindchess frame.", "Eva eins, weißer König."]
    running = "Eine Partie läuft noch. Eine neue Partie beginnen?"
    mark = desk.mark()
    desk.walker.keys("ctrl+n")
    assert wait_for(lambda: any(running in t for t in desk.orca_said(mark)), WAIT), desk.orca_said(mark)
    desk.settle(1.0)
    said = desk.orca_said(mark)
    assert sum(running in t for t in said) == 1, said         # the question is read once
    assert desk.hear("Escape", least=2) == ["blindchess frame.", "Eva eins, weißer König."]

    # every text the app said, said once (the rank asked three times aside, and the next step "Anna to move",
    # said whenever it is the step again: without a tactile board her board follows the game at once, so after
    # 1...e5 it is her move as at the start); nothing the app said also read by Orca
    app = [t for t in desk.app_said() if not t.startswith(("Reihe fünf: ", "Anna (Weiß) ist am Zug"))]
    assert len(app) == len(set(app)), app
    everything = desk.orca_said()
    assert not set(everything) & {t for t in desk.app_said() if len(t) > 12}
    squares = [t for t in everything if re.match(SQUARE, t)]
    assert squares, everything

    # the flag: a game whose time ran out while the program was gone (a crash), reopened with Ctrl+O
    journal = _game_out_of_time(tmp_path)
    start = len(desk.app_said())
    desk.keys("ctrl+o", idle=1.5)
    assert wait_for(lambda: (_focus(w) or {}).get("role") == "text", WAIT), "Ctrl+O asks for the journal"
    desk.keys("text:" + str(journal))
    for _attempt in range(3):   # a first Return may only close the file name completer's list
        desk.keys("Return", idle=1.0)
        if any("Zeit" in t or "beendet" in t for t in desk.app_said()[start:]):
            break
    told = _app_gets(desk, start, lambda t: t.startswith("Partie beendet"), "the end of the game is said")
    assert told.count(next(t for t in told if t.startswith("Partie beendet"))) == 1
    mark = desk.mark()
    desk.walker.keys("ctrl+n")                                 # no game runs: no question, the new-game dialog
    assert wait_for(lambda: any(t.startswith("Neue Partie dialog") for t in desk.orca_said(mark)), WAIT), \
        desk.orca_said(mark)
    assert not any(running in t for t in desk.orca_said(mark))
    desk.keys("Escape")


def _game_out_of_time(folder):
    """A journal of a game (five minutes, Anna blind with White) whose program died ten minutes ago: Anna's
    time ran out meanwhile (after a crash the player to move kept thinking)."""
    from blindchess.table.table import Table, TableSetup

    path = folder / "flag.jsonl"
    table = Table.new(TableSetup(white="Anna", black="Bernd", blind="white", tactile="none", time_control="5+0",
                                 auto_press=True, lang="de"), time.time() - 600.0, path)
    table.handle(BlindSays("e4", None), time.time() - 590.0)
    table.handle(SightedMove("e2e4"), time.time() - 589.0)
    table.handle(SightedMove("e7e5"), time.time() - 588.0)
    table.session.close()      # the file is complete; the game was not closed on purpose (no note)
    return path


def _walk(nodes):
    for node in nodes:
        if node is None:
            continue
        yield node
        yield from _walk(node.get("children", []))


def _named(walker, role: str, prefix: str):
    return next((n for n in _walk(walker.ask("tree")) if n["role"] == role and n["name"].startswith(prefix)), None)


def _focus(walker):
    return walker.ask("focused")
