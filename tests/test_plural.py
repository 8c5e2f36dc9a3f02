"""blindchess.plural: the singular for exactly one, the plural for every other count."""

from __future__ import annotations

import pytest

from blindchess.plural import is_one, plural


@pytest.mark.parametrize("n, de, en", [
    (0, "0 Halbzüge", "0 half-moves"), (1, "1 Halbzug", "1 half-move"), (2, "2 Halbzüge", "2 half-moves"),
    ("1", "1 Halbzug", "1 half-move"), (1.5, "1.5 Halbzüge", "1.5 half-moves"),
])
def test_plural_picks_the_form_by_the_count(n, de, en):
    assert plural(n, "notation.half_moves_one", "notation.half_moves", "de") == de
    assert plural(n, "notation.half_moves_one", "notation.half_moves", "en") == en


def test_is_one_only_for_exactly_one():
    assert is_one(1) and is_one(1.0) and is_one("1")
    assert not any(is_one(x) for x in (0, 2, 0.5, "eins", None))
