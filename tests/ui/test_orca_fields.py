"""What a blind player hears of a filled text field in the new-game dialog, under the real screen reader, Orca.

Orca 43 read a ``QLineEdit``'s value without its last letter ("Ann ausgewählt." for "Anna", "Bern" for
"Bernd", "2026.12.0" for a date): the dialog's text fields are one-line plain-text fields now
(blindchess/ui/line.py). Driven by keys through AT-SPI on the desktop of tests/support/orca_desktop.py (Xvfb, D-Bus,
the AT-SPI registry, a private speech-dispatcher, Debian's Orca), asserted on Orca's own "SPEECH OUTPUT":
a name typed and a date filled in by the dialog are read whole, once, after the field's name; Enter in a
text field starts the game.

``BLINDCHESS_KEEP_ORCA=1`` keeps Orca's and speech-dispatcher's logs (the folder is printed). Skipped with
the reason where Orca, Xvfb, dbus-launch, speech-dispatcher or python3-pyatspi is missing.
"""

from __future__ import annotations

import re

import pytest

from tests.support.orca_desktop import german_desktop
from tests.support.waiting import wait_for

pytestmark = pytest.mark.slow

WAIT = 20.0


@pytest.fixture
def desk():
    with german_desktop() as desktop:
        yield desktop


def test_filled_fields_of_the_new_game_dialog_are_read_whole(desk):
    assert wait_for(lambda: any(t.startswith("leer.") for t in desk.orca_said()), 60), \
        f"the new-game dialog is read at the first start; Orca said {desk.orca_said()}"
    desk.settle(1.0)
    assert desk.orca_said()[-2:] == ["Weiß text.", "leer. Name des Spielers mit Weiß."]

    assert desk.hear("text:Anna", "Tab", least=2) == ["Schwarz text.", "leer. Name des Spielers mit Schwarz."]
    desk.keys("text:Bernd")
    # back to the filled fields: the name, then the value whole and once, then the description
    assert desk.hear("shift+Tab", least=3) == ["Weiß text.", "Anna ausgewählt.", "Name des Spielers mit Weiß."]
    assert desk.hear("Tab", least=3) == ["Schwarz text.", "Bernd ausgewählt.", "Name des Spielers mit Schwarz."]

    # the date the dialog fills in itself (today)
    said: list[str] = []
    for _ in range(10):
        said = desk.hear("Tab")
        if "Datum text." in said:
            break
    assert "Datum text." in said, said
    value = said[said.index("Datum text.") + 1]
    assert re.fullmatch(r"\d{4}\.\d{2}\.\d{2} ausgewählt\.", value), said
    assert sum("ausgewählt" in t for t in said) == 1, said

    # Enter in a text field starts the game, as it did in a line edit
    start = len(desk.app_said())
    said = desk.hear("Return", least=3, idle=1.5)
    window = [t for t in said if t != "Neue Partie: Anna gegen Bernd."]     # (the program's notice, Orca presents it)
    assert window[:2] == ["blindchess frame.", "Zug oder Ansage text."], said
    assert wait_for(lambda: "Neue Partie: Anna gegen Bernd." in desk.app_said()[start:], WAIT), desk.app_said()[start:]
