"""A game that cannot begin or be reopened says why in one sentence of the user's language and changes nothing:
an unknown time control, an unknown start position, a journal already holding a game, a journal open in another
window, a journal that cannot be written."""

from __future__ import annotations

import pytest

from blindchess.base import UserError, tr
from blindchess.game import Player, Session


def _new(**kw) -> Session:
    kw.setdefault("now", 0.0)
    return Session.new(Player("Anna"), Player("Bert", visually_impaired=True), kw.pop("tc", "90+30"), **kw)


def test_an_unknown_time_control_or_start_is_one_sentence_in_the_user_s_language():
    with pytest.raises(UserError) as bad:
        _new(tc="neunzig Minuten", lang="en")
    assert str(bad.value) == tr("session.bad_time_control", "en", text="neunzig Minuten")
    with pytest.raises(UserError) as start:
        _new(start_fen="not a position", lang="de")
    assert str(start.value) == tr("session.bad_start", "de", value="not a position")
    with pytest.raises(UserError) as number:
        _new(chess960=960, lang="de")
    assert str(number.value) == tr("session.bad_start", "de", value=960)


def test_a_journal_holding_a_game_is_not_overwritten_and_one_open_elsewhere_is_not_reopened(tmp_path):
    journal = tmp_path / "g.jsonl"
    first = _new(journal=journal)
    held = journal.read_bytes()
    with pytest.raises(FileExistsError):
        _new(journal=journal)
    assert journal.read_bytes() == held
    with pytest.raises(UserError) as in_use:
        Session.open(journal, 5.0)
    assert str(in_use.value) == tr("session.journal_in_use", "de", path=journal)
    first.close()
    again = Session.open(journal, 6.0)               # closed in the other window: it opens
    assert again.snapshot.plies == 0
    again.close()


def test_a_journal_that_cannot_be_written_is_said_and_no_game_begins(tmp_path):
    (tmp_path / "a file").write_text("not a folder", encoding="utf-8")
    journal = tmp_path / "a file" / "g.jsonl"        # its folder is a file
    with pytest.raises(UserError) as failed:
        _new(journal=journal, lang="en")
    assert str(failed.value).startswith(tr("session.journal_write_failed", "en", path=journal, error="§").split("§")[0])
