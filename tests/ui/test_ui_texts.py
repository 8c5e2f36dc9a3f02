"""Every interface text exists in German and English (no key ever shows instead of a message)."""

from __future__ import annotations

import re
import tomllib

import pytest

from blindchess.base.resources import locale_dir
from blindchess.table.speech import internal_ids
from blindchess.ui.main_window import INPUT_MODES
from blindchess.ui.shortcuts import BOARD_KEYS, MENUS, SHORTCUTS
from blindchess.ui.text import UI_LANGS
from tests.support.paths import REPO

UI = REPO / "blindchess" / "ui"


def _used_keys() -> set[str]:
    keys: set[str] = set()
    for path in [*UI.glob("*.py"), UI.parent / "cli" / "app.py"]:
        source = path.read_text(encoding="utf-8")
        keys |= set(re.findall(r'\bt\("([^"{]+)"', source))
        keys |= {k[len("ui."):] for k in re.findall(r'\btr\("(ui\.[^"{]+)"', source)}
        # widgets labelled through a helper get "<key>" and "<key>_description"
        labelled = re.findall(r'(?<![\w.])(?:field_|row|self\._row)\([^()]*(?:\([^()]*\))?[^()]*, "([\w.]+)"\)', source)
        labelled += re.findall(r'\(self\.\w+, "([\w.]+)"\)', source) + re.findall(r'\("([\w.]+)", self\.(?!lang\b)\w+\)', source)
        keys |= {k for k in labelled if "." in k} | {f"{k}_description" for k in labelled if "." in k}
    keys.discard("key")  # the docstring's example
    for action, _menu, _keys in SHORTCUTS:
        keys |= {f"action.{action}", f"action.{action}_description"}
    for _keys, key in BOARD_KEYS:
        keys |= {key, f"{key}_description"}
    keys |= {f"menu.{m}" for m in MENUS} | {f"menu.{m}_description" for m in MENUS}
    keys |= {f"input.mode_{m}" for m in INPUT_MODES}
    keys |= {"question.yes", "question.no"}
    keys |= {f"log.{k}" for k in ("said", "heard", "typed", "info", "assistant")}
    keys |= {f"theme.{k}" for k in ("normal", "high-contrast")}
    for which in ("sighted", "tactile"):
        keys |= {f"arbiter.board_{which}", f"arbiter.board_{which}_description", f"arbiter.board_{which}_named"}
    return keys


@pytest.mark.parametrize("lang", UI_LANGS)
def test_every_text_the_window_uses_is_translated(lang):
    with (locale_dir() / f"ui.{lang}.toml").open("rb") as f:
        catalogue = tomllib.load(f)
    used = _used_keys()
    assert len(used) > 250
    assert sorted(k for k in used if k not in catalogue) == []


def test_german_and_english_have_the_same_keys_and_placeholders():
    cats = {}
    for lang in UI_LANGS:
        with (locale_dir() / f"ui.{lang}.toml").open("rb") as f:
            cats[lang] = tomllib.load(f)
    assert set(cats["de"]) == set(cats["en"])

    def fields(value) -> set[str]:       # a counted message is a table of plural forms: the fields of its forms
        forms = [v for k, v in value.items() if k != "count"] if isinstance(value, dict) else [value]
        return {name for form in forms for name in re.findall(r"{(\w+)}", form)}

    for key, text in cats["de"].items():
        assert fields(text) == fields(cats["en"][key]), key


@pytest.mark.parametrize("lang", UI_LANGS)
def test_no_interface_text_shows_an_internal_id(lang):
    """Defect 8: "sighted_follows", "retrace" and the like never reach a person."""
    with (locale_dir() / f"ui.{lang}.toml").open("rb") as f:
        catalogue = tomllib.load(f)
    texts = {key: " ".join(v for k, v in value.items() if k != "count") if isinstance(value, dict) else value
             for key, value in catalogue.items()}   # a plural table: every form
    assert {key: internal_ids(text) for key, text in texts.items() if internal_ids(text)} == {}
