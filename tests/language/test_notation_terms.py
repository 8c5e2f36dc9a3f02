"""One German term for the blind player's board in every message catalogue.

The board the visually impaired player plays on is "das Tastbrett" (des
Tastbretts, auf dem Tastbrett) everywhere; "Steckbrett" and "Taktilbrett" were
used for the same thing in some catalogues and confused the users.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import blindchess

ROOT = Path(blindchess.__file__).resolve().parent
LOCALE = ROOT / "base" / "locale"
# every German catalogue (a new domain is checked as soon as it exists)
DOMAINS = tuple(sorted(p.name.split(".")[0] for p in LOCALE.glob("*.de.toml")))
OTHER_TERMS = re.compile(r"steckbrett|taktilbrett|tastschachbrett|blindenbrett", re.IGNORECASE)


@pytest.mark.parametrize("domain", DOMAINS)
def test_german_catalogues_call_the_blind_players_board_tastbrett(domain):
    path = LOCALE / f"{domain}.de.toml"
    if not path.exists():
        pytest.skip(f"{path.name} not present")
    text = path.read_text(encoding="utf-8")
    assert not OTHER_TERMS.findall(text), (path.name, OTHER_TERMS.findall(text))


def test_voices_and_the_move_language_modules_use_the_same_term():
    from blindchess.base.resources import voices_dir

    files = [*sorted(Path(voices_dir()).glob("*.toml")), ROOT / "language" / "notation.py",
             ROOT / "language" / "phonetic.py", ROOT / "language" / "recognition.py", ROOT / "cli" / "notation.py"]
    for path in files:
        assert not OTHER_TERMS.search(path.read_text(encoding="utf-8")), path.name
