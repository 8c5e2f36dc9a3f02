"""Broadcast behaviours the mutation sample found unpinned: the move text written again from the start keeps the
first move's number, a follower held back by a delay reads the journal exactly as far as it was written then,
a finished game's result says why it ended, and the board's text for those who cannot see it."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.base import tr
from blindchess.broadcast.movetext import MoveText
from blindchess.broadcast.pages import board_alt, game_section
from blindchess.broadcast.reading import GameFollower, read_game
from blindchess.game import Player, Session

EPOCH = 1_700_000_000.0     # the window's clock: seconds since 1970


def test_the_move_text_written_again_from_the_start_keeps_black_s_first_move_numbered():
    start = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")     # Black to move
    text = MoveText(start, "en")
    text.update(0, "", [(chess.Move.from_uci("e7e5"), "")])
    text.update(2, "", [(chess.Move.from_uci("g1f3"), "")])
    text.update(0, "", [(chess.Move.from_uci("e7e5"), ""), (chess.Move.from_uci("g1f3"), "")])    # a whole rewrite
    assert " ".join(text.moves("*")).startswith("1... e5 2. Nf3")


def test_a_follower_held_back_reads_the_journal_as_far_as_it_was_written_then(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", journal=path, now=EPOCH)
    s.start_clock(EPOCH)
    for i, uci in enumerate(("e2e4", "e7e5", "g1f3")):
        s.board_move("sighted", chess.Move.from_uci(uci), EPOCH + 10.0 * (i + 1))
    s.close()
    follower = GameFollower(path, "en", tmp_path, clock=lambda: EPOCH + 100.0)
    assert follower.look()
    data = path.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == 0x0A]
    for moment in (EPOCH + 10.0, EPOCH + 25.0):
        upto = follower.offset_at(moment)
        assert upto in ends
        shown = data[:upto].decode("utf-8")
        assert '"t":%s' % (EPOCH + 10.0) in shown
        later = [line for line in data[upto:].decode("utf-8").splitlines() if '"move-made"' in line]
        assert all(f'"t":{moment}' not in line for line in later)
    assert follower.offset_at(EPOCH + 15.0) == follower.offset_at(EPOCH + 19.0) < follower.offset_at(EPOCH + 20.0)
    assert follower.offset_at(EPOCH - 1.0) == 0
    assert follower.offset_at(EPOCH + 1000.0) == len(data)


def test_a_finished_game_s_result_line_says_why_it_ended(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    s.resign(chess.BLACK, 5.0)
    s.close()
    game = read_game(path, "en", tmp_path)
    html = game_section(1, game, "en", 10.0, 600.0)
    assert f"1-0 ({tr('session.reason_resignation', 'en')})" in html


def test_the_board_s_text_for_those_who_cannot_see_it_names_the_start_or_the_last_move(tmp_path: Path):
    # the board image's alternative text: before any move the start position, after one the move that led to it
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    before = board_alt(read_game(path, "en", tmp_path), "en")
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    s.close()
    after = board_alt(read_game(path, "en", tmp_path), "en")
    assert before.startswith("Starting position: White Ke1") and "White to move" in before
    assert after.startswith("Position after 1. e4:") and "White Ke1" in after and "Black to move" in after
