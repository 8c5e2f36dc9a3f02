"""blindchess.base.i18n.plural: the form for the count by the language's CLDR plural rules (Babel)."""

from __future__ import annotations

import pytest

from blindchess.base.i18n import is_one, plural, plural_category


@pytest.mark.parametrize("n, de, en, nl", [
    (0, "0 Halbzüge", "0 half-moves", "0 halve zetten"), (1, "1 Halbzug", "1 half-move", "1 halve zet"),
    (2, "2 Halbzüge", "2 half-moves", "2 halve zetten"), ("1", "1 Halbzug", "1 half-move", "1 halve zet"),
    (1.5, "1.5 Halbzüge", "1.5 half-moves", "1.5 halve zetten"),
])
def test_plural_picks_the_form_by_the_count(n, de, en, nl):
    assert plural(n, "notation.half_moves_one", "notation.half_moves", "de") == de
    assert plural(n, "notation.half_moves_one", "notation.half_moves", "en") == en
    assert plural(n, "notation.half_moves_one", "notation.half_moves", "nl") == nl


@pytest.mark.parametrize("n, ru", [
    (1, "1 полуход"), (2, "2 полухода"), (4, "4 полухода"), (5, "5 полуходов"), (11, "11 полуходов"),
    (12, "12 полуходов"), (21, "21 полуход"), (22, "22 полухода"), (0, "0 полуходов"), (1.5, "1.5 полухода"),
])
def test_russian_has_three_forms_and_one_for_fractions(n, ru):
    assert plural(n, "notation.half_moves_one", "notation.half_moves", "ru") == ru


def test_the_categories_are_cldrs():
    assert [plural_category(n, "ru") for n in (1, 3, 7, 21, 1.5)] == ["one", "few", "many", "one", "other"]
    assert [plural_category(n, "de") for n in (1, 2, 0, 1.5)] == ["one", "other", "other", "other"]
    assert plural_category("x", "ru") == "other"


def test_is_one_only_for_exactly_one():
    assert is_one(1) and is_one(1.0) and is_one("1")
    assert not any(is_one(x) for x in (0, 2, 0.5, "eins", None))
