"""What a blind player hears, third pass: a whole game by keys under the real Orca — nothing cut, nothing stuck,
no dangerous focus, little to listen to, braille too.

Debian's Orca runs on the desktop of tests/support/orca_desktop.py (Xvfb, D-Bus, the AT-SPI registry, a private
speech-dispatcher); every key goes through AT-SPI as a user's does. The app presents its texts through Orca
itself — each a notification in its status bar, which Orca speaks and flashes on the braille display — so what
the blind player heard of the program is read from Orca's own log (``desk.notices()``: the time, what Orca said,
what it showed in braille), and what Orca read of the window (the focus) from its "SPEECH OUTPUT" lines. One
German session, keyboard only, without an electronic tactile board (the blind player Anna, White, types his moves),
the live broadcast switched on in the settings beforehand. Each test below is one point of the issue; they run in
order on the same desktop, each going on from where the one before left the game:

1. messages never cut each other: the start of a game (the greeting, the broadcast's address, a look changed
   meanwhile) — each said whole, in order, the line not about the game after the one about it; a text is
   replaced only by the same request, never by another;
2. (arbiter) after adjourning and after opening the envelope the keyboard is on the next step, never on
   "White wins (decision)", which asks first;
3. (arbiter) after the envelope is opened the next step is the game's, not a mirror long made;
4. one language for the whole program, changed in the settings at once and said;
5. the ruling view: the two boards sound different, the title says the finding, the clock fields read whole;
6. keys: Alt+N without a question says so and types nothing; a draw offered by the sighted side is asked to the
   blind player; Ctrl+1 and Ctrl+L always answer; Ctrl+J's change is said;
7. the speech plan: his move confirmed, the opponent's move once, nothing of the mirror instructions or the sighted
   side's actions, no raw notation; the keyboard back in the move line after the opponent's move; NVUI's letters
   in the line; history one half-move at a time, the move list stepped;
8. an answer asked while a long one is read comes at once (a newer request replaces the older);
9. braille: the board's square and a move on Orca's braille line, in at most 40 cells.

``BLINDCHESS_KEEP_ORCA=1`` keeps Orca's and speech-dispatcher's logs (the folder is printed). Skipped with the
reason where Orca, Xvfb, dbus-launch, speech-dispatcher or python3-pyatspi is missing.
"""

from __future__ import annotations

import re
import socket

import pytest

from blindchess.base import speaking_time
from tests.support.orca_desktop import OrcaDesktop, german_desktop
from tests.support.waiting import wait_for

pytestmark = pytest.mark.slow

WAIT = 20.0
#: Raw notation: a move or square written as letters and digits ("Sf3", "e2e4", "0-0"), which a synthesiser spells.
NOTATION = re.compile(r"\b[KDTLSQRBN]?[a-h]?x?[a-h][1-8]\b|\b0-0\b|\bO-O\b")
#: A square of the board as the program says it ("Eva fünf, schwarzer Bauer", "Hector acht, leer").
SQUARE = re.compile(r"^[A-ZÄ][a-zäöü]+ [a-zäöü]+, (leer|(weiß|schwarz)e[rs]? [A-ZÄ][a-zäöü]+)\.?$")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def desk():
    with german_desktop({"broadcast": "true", "broadcast_port": str(_free_port())}) as desktop:
        assert wait_for(lambda: any(t.startswith("leer.") for t in desktop.orca_said()), 60), \
            f"the new-game dialog is read at the first start; Orca said {desktop.orca_said()}"
        desktop.settle(1.0)
        yield desktop


def _notices_since(desk: OrcaDesktop, start: int, wanted, what: str) -> list[str]:
    """Wait until the app has presented a text for which ``wanted(text)`` holds (since its ``start``-th)."""
    assert wait_for(lambda: any(wanted(t) for t in desk.app_said()[start:]), WAIT), \
        f"{what}; the app said: {desk.app_said()[start:]}"
    desk.settle(0.8)
    return desk.app_said()[start:]


def _focus(desk: OrcaDesktop) -> dict:
    return desk.walker.ask("focused") or {}


def _walk(nodes):
    for node in nodes:
        if node is None:
            continue
        yield node
        yield from _walk(node.get("children", []))


def _named(desk: OrcaDesktop, role: str, prefix: str):
    return next((n for n in _walk(desk.walker.ask("tree")) if n["role"] == role and n["name"].startswith(prefix)), None)


def _tab_to(desk: OrcaDesktop, name: str, limit: int = 30) -> dict:
    """Tab until the keyboard is on the control called ``name`` (prefix)."""
    for _ in range(limit):
        focused = _focus(desk)
        if focused.get("name", "").startswith(name):
            return focused
        desk.keys("Tab", idle=0.5)
    raise AssertionError(f"{name!r} not reached by Tab; the focus is on {_focus(desk)}")


# ------------------------------------------------------------------------------------------------ 1
def test_1_the_start_of_a_game_each_text_whole_in_order_nothing_cut(desk):
    start = len(desk.app_said())
    said = desk.hear("text:Anna", "Tab", least=2)
    assert said[:2] == ["Schwarz text.", "leer. Name des Spielers mit Schwarz."], said
    desk.walker.keys("text:Bernd", "Return")
    told = _notices_since(desk, start, lambda t: t.startswith("Übertragung") or "http://" in t, "the broadcast's address")
    desk.walker.keys("ctrl+minus")                      # the look changed while the game's texts are being said
    told = _notices_since(desk, start, lambda t: t.startswith("Darstellung"), "the look changed")
    greeting = told.index("Neue Partie: Anna gegen Bernd.")
    address = next(i for i, t in enumerate(told) if "http://127.0.0.1:" in t)
    look = next(i for i, t in enumerate(told) if t.startswith("Darstellung"))
    assert greeting < address < look, told          # the game first; the lines not about it after, in turn
    spoken = [speech for _t, speech, _braille in desk.notices()]
    for text in (told[greeting], told[address], told[look]):
        assert sum(s.rstrip(".") == text.rstrip(".") for s in spoken) == 1, (text, spoken)   # each whole, once
    assert desk.app_sent() == [] and desk.server.received("CANCEL self", "blindchess") == 0


# ------------------------------------------------------------------------------------------------ 7, 9
def test_7_9_a_move_pair_his_move_confirmed_the_opponents_once_and_both_in_braille(desk):
    w = desk.walker
    assert wait_for(lambda: (_focus(desk).get("name") == "Zug oder Ansage"), WAIT), _focus(desk)
    start = len(desk.app_said())
    desk.keys("text:e4", "Return")
    told = _notices_since(desk, start, lambda t: t.startswith("Zug ausgeführt"), "his move confirmed")
    assert told == ["Zug ausgeführt: Eva vier."], told      # nothing about the mirror the sighted side makes
    assert "Zug ausgeführt: Eva vier." in desk.braille()     # flashed on the braille display, as Orca shows it
    assert len("Zug ausgeführt: Eva vier.") <= 40

    mark = len(desk.braille())
    assert desk.hear("ctrl+1") == ["Eva zwei, weißer Bauer."]
    square = [line for line in desk.braille(mark) if "Eva zwei, weißer Bauer" in line]
    assert square, desk.braille(mark)                         # the board's square on the braille line
    region = square[0].split("frame ", 1)[-1]
    assert len(region) <= 40, region                           # the focused square fits a 40-cell display

    # the sighted side mirrors 1. e4 and plays 1… e5 on its board: the blind player hears the move, once
    start = len(desk.app_said())
    mark = desk.mark()
    for key in ("space", "4", "space", "7", "space", "5", "space"):
        desk.keys(key, idle=0.4)
    told = _notices_since(desk, start, lambda t: t == "Eva fünf", "the opponent's move")
    assert told.count("Eva fünf") == 1 and not any("e5" in t or "nachziehen" in t or "ist am Zug" in t for t in told), told
    assert not any(NOTATION.search(t) for t in desk.app_said()), desk.app_said()
    # the keyboard is back in the move line: his next move is one line and Enter — its hint not read again
    assert wait_for(lambda: _focus(desk).get("name") == "Zug oder Ansage", WAIT), _focus(desk)
    assert wait_for(lambda: "Zug oder Ansage text." in desk.orca_said(mark), WAIT), desk.orca_said(mark)
    desk.settle(1.0)
    assert not any("Strg+J wechselt" in t for t in desk.orca_said(mark)), desk.orca_said(mark)
    assert w is desk.walker


def test_7_nvui_letters_in_the_move_line_and_the_game_half_move_by_half_move(desk):
    start = len(desk.app_said())
    desk.keys("text:l", "Return")
    _notices_since(desk, start, lambda t: t == "Zug 1, Schwarz: Eva fünf", "l: the last move")
    start = len(desk.app_said())
    desk.keys("text:o", "Return")
    _notices_since(desk, start, lambda t: t == "Ihr Gegner: Bernd, Schwarz.", "o: the opponent")
    start = len(desk.app_said())
    desk.keys("text:c", "Return")
    _notices_since(desk, start, lambda t: t.startswith("Sie:"), "c: the clock, asked")
    assert (_named(desk, "text", "Zug oder Ansage") or {}).get("text", "") == ""

    start = len(desk.app_said())
    desk.keys("text:Springer Felix drei", "Return")
    _notices_since(desk, start, lambda t: t == "Zug ausgeführt: Springer Felix drei.", "2. Sf3 confirmed")
    desk.keys("ctrl+1")
    for key in ("g", "1", "space", "f", "3", "space"):       # the mirror on the sighted board
        desk.keys(key, idle=0.4)
    start = len(desk.app_said())
    desk.keys("ctrl+Left")                   # one half-move back: the move and the squares it changed
    told = _notices_since(desk, start, lambda t: t.startswith("Zug 1, Schwarz"), "a half-move back")
    assert told[-1] == "Zug 1, Schwarz: Eva fünf. Eva sieben, leer; Eva fünf, schwarzer Bauer.", told
    start = len(desk.app_said())
    desk.keys("ctrl+Right")
    told = _notices_since(desk, start, lambda t: t.startswith("Zug 2, Weiß"), "a half-move on")
    assert told[-1] == "Zug 2, Weiß: Springer Felix drei. Gustav eins, leer; Felix drei, weißer Springer.", told
    start = len(desk.app_said())
    desk.keys("ctrl+Up")
    _notices_since(desk, start, lambda t: t.startswith("Stellung nach Zug 2, Weiß: Weiß: König Eva eins"),
                   "the whole position there")
    start = len(desk.app_said())
    desk.keys("ctrl+shift+m")
    _notices_since(desk, start, lambda t: t == "Zug 1 von 2: Eva vier, Eva fünf.", "the move list, first number")
    start = len(desk.app_said())
    desk.keys("ctrl+shift+m")
    _notices_since(desk, start, lambda t: t == "Zug 2 von 2: Springer Felix drei.", "… and the next")


# ------------------------------------------------------------------------------------------------ 8
def test_8_an_answer_asked_while_a_long_one_is_read_comes_at_once(desk):
    start = len(desk.notices())
    desk.walker.keys("ctrl+p", "ctrl+g")
    assert wait_for(lambda: any(b == "Ihr Gegner: Bernd, Schwarz." for _t, _s, b in desk.notices()[start:]), WAIT)
    notices = desk.notices()[start:]
    position = next(n for n in notices if n[2].startswith("Weiß: König"))
    opponent = next(n for n in notices if n[2] == "Ihr Gegner: Bernd, Schwarz.")

    def seconds(stamp: str) -> float:
        hours, minutes, rest = stamp.split(":")
        return int(hours) * 3600 + int(minutes) * 60 + float(rest)

    # not held back until the position (a newer request replaces it) would have been read to its end
    assert seconds(opponent[0]) - seconds(position[0]) < speaking_time(position[2]), (position, opponent)


# ------------------------------------------------------------------------------------------------ 6
def test_6_keys_answer_always_and_a_draw_offered_is_asked(desk):
    desk.keys("ctrl+1")
    start = len(desk.app_said())
    desk.keys("ctrl+1")                                   # already on the board: where am I, the square said again
    _notices_since(desk, start, lambda t: bool(SQUARE.match(t)), "Ctrl+1 again")
    desk.keys("ctrl+l")
    start = len(desk.app_said())
    desk.keys("ctrl+l")                                   # already there: where am I, said
    _notices_since(desk, start, lambda t: t == "Zug oder Ansage, Ansage des blinden Spielers: leer", "Ctrl+L again")
    start = len(desk.app_said())
    desk.keys("alt+n")                                    # no question: said so, nothing typed
    _notices_since(desk, start, lambda t: t == "Keine Frage offen.", "Alt+N without a question")
    assert (_named(desk, "text", "Zug oder Ansage") or {}).get("text", "") == ""
    start = len(desk.app_said())
    desk.keys("alt+y")
    _notices_since(desk, start, lambda t: t == "Keine Frage offen.", "Alt+Y without a question")
    assert (_named(desk, "text", "Zug oder Ansage") or {}).get("text", "") == ""

    for mode in ("Zug auf dem Tastbrett", "Sehende Seite sagt", "Zug auf dem sehenden Brett",
                 "Ansage des blinden Spielers"):
        start = len(desk.app_said())
        desk.keys("ctrl+j")                               # each change said
        _notices_since(desk, start, lambda t, m=mode: t.startswith(f"Eingabe: {m}"), f"Ctrl+J: {mode}")

    start = len(desk.app_said())
    desk.keys("ctrl+d")                                   # the sighted player offers a draw: the blind player asked
    told = _notices_since(desk, start, lambda t: t.startswith("Ihr Gegner bietet Remis an."), "the offer asked")
    assert "Ja oder nein" in told[-1]
    start = len(desk.app_said())
    desk.keys("alt+n")
    _notices_since(desk, start, lambda t: t == "Remis abgelehnt.", "declined by Alt+N")


# ------------------------------------------------------------------------------------------------ 5, 2, 3
def test_5_the_ruling_view_two_boards_that_sound_different_its_title_the_finding_clocks_read_whole(desk):
    desk.keys("ctrl+1")
    start = len(desk.app_said())
    for key in ("b", "8", "space", "c", "6", "space"):        # Bernd's 2… Nc6 on his board
        desk.keys(key, idle=0.4)
    _notices_since(desk, start, lambda t: t == "Springer Cäsar sechs", "2… Nc6 announced")
    said = desk.hear("ctrl+shift+a", least=2, idle=1.5)
    assert any(t.startswith("Schiedsrichter – Die Bretter stimmen überein.") for t in said), said   # the finding
    assert not any("weichen" in t for t in said), said
    said = desk.hear("Tab", least=1)
    assert said[0].startswith("Nächster Schritt:"), said
    sighted = desk.hear("Tab", least=1)
    tactile = desk.hear("Tab", least=1)
    assert sighted[0].startswith("Brett: ") and tactile[0].startswith("Tastbrett: "), (sighted, tactile)
    assert sighted[0].split(": ", 1)[1] == tactile[0].split(": ", 1)[1]     # the same square, told apart
    desk.keys("Tab")                                                          # the scoresheets
    said = desk.hear("Tab", least=2)
    field = said.index("Uhr Weiß text.")                  # (after the group's name, on entering it)
    assert re.fullmatch(r"1:[0-5]\d:[0-5]\d ausgewählt\.", said[field + 1]), said   # the time, whole
    assert not any("unselected" in t or "nicht ausgewählt" in t for t in said), said


def test_2_3_after_adjourning_and_opening_the_envelope_the_keyboard_is_safe_and_the_step_the_games(desk):
    button = _tab_to(desk, "Partie abbrechen")
    assert button["role"] == "push button"
    said = desk.hear("space", least=1)
    focused = _focus(desk)
    assert focused["role"] == "label" and focused["name"].startswith("Nächster Schritt: Die Partie ist abgebrochen")
    assert not any("gewinnt" in t for t in said), said                      # never onto "Weiß gewinnt"
    assert any(t.startswith("Nächster Schritt: Die Partie ist abgebrochen") for t in said), said

    desk.keys("Escape", idle=1.0)                                            # back to the game; Anna seals
    desk.keys("ctrl+l")
    start = len(desk.app_said())
    desk.keys("text:Lb5", "Return")                      # (XTest types no umlauts: the notation)
    _notices_since(desk, start, lambda t: "Umschlag verschlossen" in t or "abgegeben" in t, "the move sealed")

    desk.hear("ctrl+shift+a", least=1, idle=1.5)
    _tab_to(desk, "Umschlag öffnen")
    start = len(desk.app_said())
    said = desk.hear("space", least=1, idle=1.5)
    focused = _focus(desk)
    assert focused["role"] == "label" and focused["name"].startswith("Nächster Schritt: Bernd (Schwarz) ist am Zug"), \
        focused
    assert not any("gewinnt" in t for t in said), said
    told = _notices_since(desk, start, lambda t: t.startswith("Umschlag geöffnet"), "the sealed move said")
    assert told[-1] == "Umschlag geöffnet. Abgegebener Zug: Läufer Bella fünf.", told
    step = _named(desk, "label", "Nächster Schritt: ")                       # the window's next-step line
    assert step is not None and "auf dem Tastbrett nach" not in step["name"], step   # not the mirror long made
    assert "Bernd (Schwarz) ist am Zug" in step["name"], step

    _tab_to(desk, "Weiß gewinnt")
    mark = desk.mark()
    desk.walker.keys("space")                                                  # a decision that ends the game …
    assert wait_for(lambda: any("endet sofort" in t for t in desk.orca_said(mark)), WAIT), desk.orca_said(mark)
    desk.keys("Escape", idle=1.0)                                             # … asked first; Escape: no
    step = _named(desk, "label", "Nächster Schritt: ")
    assert step is not None and "Partie beendet" not in step["name"], step
    assert _focus(desk).get("name", "").startswith("Weiß gewinnt")          # back where it was
    desk.keys("Escape", idle=1.0)


# ------------------------------------------------------------------------------------------------ 4
def test_4_one_language_changed_in_the_settings_at_once_and_said(desk):
    said = desk.hear("ctrl+comma", least=2, idle=1.5)
    assert any(t.startswith("Einstellungen dialog") for t in said), said
    assert _focus(desk).get("role") == "combo box"                              # the language, first
    desk.keys("Down", idle=0.5)
    desk.keys("Down", idle=0.5)                                                # Deutsch, English
    start = len(desk.app_said())
    desk.walker.keys("Return")
    told = _notices_since(desk, start, lambda t: t == "Language: English.", "the change said, in English")
    assert not any(t.startswith("Sprache:") for t in told), told
    said = desk.hear("ctrl+1")
    assert said and re.search(r"\b(one|two|three|four|five|six|seven|eight), (empty|white|black)", said[-1]), said
    said = desk.hear("ctrl+F1", least=1)
    assert said[0].startswith("Keyboard shortcuts dialog"), said
    desk.keys("Escape", idle=1.0)
    mark = desk.mark()
    desk.walker.keys("F1")                                                      # the guide, in English too
    assert wait_for(lambda: any(t.startswith("User guide dialog") for t in desk.orca_said(mark)), WAIT), \
        desk.orca_said(mark)
    desk.keys("Escape", idle=1.0)
    start = len(desk.app_said())
    desk.keys("ctrl+w")                                                         # the table's words follow too
    told = _notices_since(desk, start, lambda t: "NATO" in t, "Ctrl+W in English")
    assert all(not re.search(r"[äöüß]|Brett|Zug", t) for t in told), told
