"""A unit the journal cannot take (the disk full) counts nothing: the command is refused in words and the game
is what the journal holds — the move of the refused unit not made, the game going on from there, written
again once the disk has room."""

from __future__ import annotations

import errno

import chess
import pytest

from blindchess.base import UserError
from blindchess.game import Session
from blindchess.storage import JournalWriter
from tests.support.sessions import played


def test_a_move_whose_unit_cannot_be_written_is_not_made_and_the_game_goes_on(tmp_path, monkeypatch):
    journal = tmp_path / "g.jsonl"
    s = played(("e2e4", "e7e5"), journal)
    real_append = JournalWriter.append_unit

    def disk_full(self: JournalWriter, *args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(journal))

    monkeypatch.setattr(JournalWriter, "append_unit", disk_full)
    with pytest.raises(UserError):
        s.board_move("tactile", chess.Move.from_uci("g1f3"), 5.0)
    assert s.snapshot.plies == 2 and s.board("tactile").move_stack == s.board("sighted").move_stack
    assert len(s.board("tactile").move_stack) == 2
    monkeypatch.setattr(JournalWriter, "append_unit", real_append)
    s.board_move("tactile", chess.Move.from_uci("g1f3"), 6.0)          # the disk has room again
    s.announce(chess.Move.from_uci("g1f3"), "Sf3", 6.1)
    assert s.snapshot.plies == 3
    s.close()
    assert Session.open(journal, 7.0).snapshot.plies == 3
