"""The sighted player's e-board at the edges of the game: his sealed move made on it (FIDE Guidelines I.1 a),
kept secret while the position before it is set up again; a touched piece that could not move is no
touch-move matter (Art. 4.3); after the game is over a move on it is refused once and the board shown to differ,
nothing held for later."""

from __future__ import annotations

import dataclasses

import chess
import pytest

from blindchess.base import tr
from blindchess.table.commands import Answers, ArbiterAdjourn, ArbiterResume, BlindSays, Resigns, Tick
from blindchess.table.eboard import EBoardTouch, touch_report
from blindchess.table.table import Table
from tests.table.test_eboard import EBoardTable


def _after_e4_e5() -> EBoardTable:
    """Sabine Sehend (White) on the e-board, Bernd Blind (Black): 1.e4 e5, both mirrored, White to move."""
    return _after_e4_e5_with("e7e5", "Bauer Eva fünf")


def _after_e4_e5_with(reply: str, words: str) -> EBoardTable:
    t = EBoardTable()
    t.dump(0.0)
    t.act(1.0, "L e2", "P e4 P")
    t.table.handle(BlindSays(words, 1.0), 3.2)     # without a tactile board his words make it
    t.act(5.0, f"L {reply[:2]}", f"P {reply[2:]} p")
    assert t.table.game.plies == 2
    return t


def _texts(t: EBoardTable, type_: str, since: float) -> list[str]:
    return [e["text"] for e in t.of(type_) if e["t"] >= since]


def test_the_sealed_move_made_on_the_eboard_is_sealed_and_its_squares_never_shown():
    t = _after_e4_e5()
    t.table.handle(ArbiterAdjourn(), 10.0)
    t.act(12.0, "L g1", "P f3 N")             # she makes her move instead of writing it: her sealed move
    assert [e["by"] for e in t.of("sealed")] == ["sighted"]
    assert t.table.game.plies == 2 and not t.of("move")[2:]
    eboard = t.table.eboard
    assert eboard is not None and eboard.adjusting
    t.act(14.0, "L f3")                       # on the way back: nothing of it is shown, nothing is a move
    t.act(15.0, "P g1 N")
    assert not eboard.adjusting and eboard.mismatch == ()
    shown = _texts(t, "shown", 12.0)
    assert not [s for s in shown if "f3" in s or "g1" in s or "Sf3" in s]
    assert not t.of("refused") and not t.of("touched")[1:] and not t.of("divergence")
    t.table.handle(ArbiterResume(), 86400.0)            # the envelope opened: the sealed move made
    assert [e["uci"] for e in t.of("move")][2:] == ["g1f3"]


def test_a_touched_piece_that_could_not_move_is_no_touch_move_matter():
    t = EBoardTable()
    t.dump(0.0)
    t.act(1.0, "L a1", "P a1 R")              # the rook lifted and put back: it has no legal move
    t.act(3.0, "L g1", "P f3 N")
    assert [e["square"] for e in t.of("touched")] == ["a1"]
    assert [e["uci"] for e in t.of("move")] == ["g1f3"]
    assert not [s for s in _texts(t, "shown", 0.0) if "Zuerst berührt" in s]


def test_a_touched_piece_that_could_move_and_was_not_moved_is_told_to_the_arbiter():
    t = EBoardTable()
    t.dump(0.0)
    t.act(1.0, "L b1", "P b1 N")
    t.act(3.0, "L g1", "P f3 N")
    told = [s for s in _texts(t, "shown", 0.0) if "Zuerst berührt" in s]
    assert len(told) == 1 and "b1" in told[0] and "Sf3" in told[0]


def test_after_the_game_a_move_on_the_eboard_is_refused_once_and_shown_to_differ():
    t = _after_e4_e5()
    t.table.handle(Resigns("blind"), 7.0)
    t.table.handle(Answers("blind", "yes"), 7.5)
    assert t.table.game.result == "1-0"
    t.act(9.0, "L g1", "P f3 N")
    assert not [e for e in t.of("touched") if e["t"] >= 9.0]       # no touch after the game either
    eboard = t.table.eboard
    assert eboard is not None and eboard.held is None
    assert [e["what"] for e in t.of("refused")] == ["move"]
    assert set(eboard.mismatch) == {"f3", "g1"}
    assert [s for s in _texts(t, "shown", 9.0) if s.startswith("Das E-Brett weicht")]
    t.dump(11.0)                              # read again: the same move is not refused again
    t.act(12.0, "L a2", "P a2 P")
    assert [e["what"] for e in t.of("refused")] == ["move"]
    assert [e["uci"] for e in t.of("move")] == ["e2e4", "e7e5"]


def test_after_the_game_two_moves_found_on_a_reconnected_eboard_are_not_read():
    t = _after_e4_e5()
    t.table.handle(Resigns("blind"), 7.0)
    t.table.handle(Answers("blind", "yes"), 7.5)
    # the cable out: Nf3 and Nc6 set up meanwhile; the dump after it shows both
    for frm, to in (("g1", "f3"), ("b8", "c6")):
        t.pieces[chess.parse_square(to)] = t.pieces.pop(chess.parse_square(frm))
    t.dump(20.0)
    t.table.handle(Tick(), 21.0)
    assert [e["uci"] for e in t.of("move")] == ["e2e4", "e7e5"]
    assert not t.of("refused")
    assert t.table.eboard is not None and set(t.table.eboard.mismatch) == {"b8", "c6", "f3", "g1"}


def test_his_move_and_a_reply_set_up_while_the_cable_was_out_read_his_move_and_hold_the_reply():
    """The board dump after a reconnect shows two moves beyond the game: the sighted player's own move (made, D.2.5)
    and the blind player's reply set up already — a mirror of a move not made, held until he makes it (D.2.3)."""
    t = EBoardTable()
    t.dump(0.0)
    for frm, to in (("e2", "e4"), ("e7", "e5")):
        t.pieces[chess.parse_square(to)] = t.pieces.pop(chess.parse_square(frm))
    t.dump(5.0)
    t.table.handle(Tick(), 6.0)
    assert [e["uci"] for e in t.of("move")] == ["e2e4"]
    eboard = t.table.eboard
    assert eboard is not None and eboard.held == chess.Move.from_uci("e7e5") and eboard.mismatch == ()
    t.table.handle(BlindSays("Bauer Eva fünf", 1.0), 8.0)       # his move made: the held mirror counts
    assert [e["uci"] for e in t.of("move")] == ["e2e4", "e7e5"]
    assert [(e["board"], e["ply"]) for e in t.of("mirrored") if e["board"] == "sighted"] == [("sighted", 2)]


def test_a_touch_on_the_eboard_is_a_value_kept_as_it_was():
    touch = EBoardTouch(1.0, chess.G1, chess.Piece(chess.KNIGHT, chess.WHITE), 0)
    assert touch == EBoardTouch(1.0, chess.G1, chess.Piece(chess.KNIGHT, chess.WHITE), 0) and len({touch, touch}) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        touch.square = chess.B1    # type: ignore[misc]


def test_the_touches_said_on_request_are_those_of_the_sighted_players_last_or_current_turn():
    """D.2.10 e: with the sighted player as Black, his touch in his move is told after it (the blind player to move),
    and no longer once his next turn has begun."""
    t = EBoardTable(blind="white")
    t.dump(0.0)
    name = "Sabine Sehend"
    t.table.handle(BlindSays("Bauer Eva vier", 1.0), 1.0)
    t.act(2.0, "L e2", "P e4 P")              # the mirror
    assert touch_report(t.table.session, "de") == tr("eboard.no_touches_said", "de", name=name)
    t.act(4.0, "L g8", "P g8 n")              # touched, put back: told in his move under way
    touched = tr("eboard.touches_said", "de", name=name,
                 touches=tr("eboard.touch_said", "de", piece="schwarzer Springer", square="Gustav acht"))
    assert touch_report(t.table.session, "de") == touched
    t.act(6.0, "L b8", "P c6 n")              # another piece moved: told after his move too
    assert touch_report(t.table.session, "de") == touched
    t.table.handle(BlindSays("Bauer David vier", 1.0), 8.0)
    t.act(9.0, "L d2", "P d4 P")
    assert touch_report(t.table.session, "de") == tr("eboard.no_touches_said", "de", name=name)


def test_a_piece_touched_before_a_restart_is_still_his_first_touch_after_it(tmp_path):
    """Art. 4.3: the sighted player touched his knight on b1, the program went down; after the restart he moves the
    other knight — the arbiter is told, and no new first touch is recorded."""
    journal = tmp_path / "game.jsonl"
    t = EBoardTable(journal=journal)
    t.dump(0.0)
    t.act(1.0, "L b1", "P b1 N")              # touched, put back
    t.table.abandon()                          # the program dies
    again = EBoardTable(table=Table.resume(journal, 5.0))
    again.pieces = dict(t.pieces)
    again.dump(5.0)
    again.act(6.0, "L g1", "P f3 N")
    assert [e["uci"] for e in again.of("move")] == ["g1f3"]
    assert not again.of("touched")
    told = [s for s in _texts(again, "shown", 6.0) if "Zuerst berührt" in s]
    assert len(told) == 1 and "b1" in told[0] and "Sf3" in told[0]
    assert [ev.square for ev in again.table.session.snapshot.touches if ev.board == "sighted"] == ["b1"]


def test_a_capture_begun_by_lifting_the_captured_piece_records_his_own_piece_as_touched():
    """Art. 4.3, D.2.5: the first of his own pieces he lifts is his touch; taking the captured pawn off first is the
    capture under way, no touch of his."""
    t = _after_e4_e5_with("d7d5", "Bauer David fünf")
    t.act(7.0, "L d5", "L e4", "P d5 P")      # exd5: the black pawn off first
    assert [e["uci"] for e in t.of("move")] == ["e2e4", "d7d5", "e4d5"]
    assert [e["square"] for e in t.of("touched")] == ["e2", "e4"]
    assert not [s for s in _texts(t, "shown", 7.0) if "Zuerst berührt" in s]
