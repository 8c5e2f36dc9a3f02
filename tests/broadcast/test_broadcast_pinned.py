"""Broadcast behaviours the mutation sample found unpinned: the move text written again from the start keeps the
first move's number, a follower held back by a delay reads the journal exactly as far as it was written then,
a finished game's result says why it ended, the board's text for those who cannot see it, a new state handed to the
spectators only when a game or its status changed, a folder that can no longer be written told once, the arbiter's cookie, one address's share of live streams,
a page catching up from the state it showed, and a new move taken from the new lines alone."""

from __future__ import annotations

import io
import json
import re
import shutil
import time
import urllib.request
from pathlib import Path

import chess
import chess.pgn

from blindchess.base import tr
from blindchess.broadcast import Broadcast
from blindchess.broadcast.hall import COOKIE, STREAMS_PER_CLIENT
from blindchess.broadcast.movetext import MoveText
from blindchess.broadcast.pages import board_alt, game_section
from blindchess.broadcast.reading import GameFollower, read_game
from blindchess.game import Player, Session
from tests.support.broadcast import EventReader, fetch
from tests.support.waiting import wait_for

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


def _fetch(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.read().decode("utf-8")


def _moves(pgn: str) -> list[str]:
    """The moves of a PGN game, as the spectator's viewer reads them."""
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None and not game.errors
    return [node.san() for node in game.mainline()]


class _Game:
    """A game of two sighted players, journaled: each move made on the board, then the clock pressed."""

    def __init__(self, path: Path) -> None:
        self.session = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=path, now=EPOCH)
        self.session.start_clock(EPOCH)
        self.color = chess.WHITE
        self.at = EPOCH

    def play(self, uci: str) -> None:
        self.at += 10.0
        self.session.board_move("sighted", chess.Move.from_uci(uci), self.at)
        self.session.press_clock(self.color, self.at + 1.0)
        self.color = not self.color


def _looked_at_by_hand(sources: list[Path], **options) -> Broadcast:
    """A broadcast whose own look comes once, at the start (an hour between looks): the test looks by hand."""
    b = Broadcast(sources, lang="en", port=0, poll=3600.0, **options)
    b.start()
    assert b.ready(60)
    return b


def test_the_spectators_get_a_new_state_only_when_a_game_or_its_status_changed(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    game = _Game(path)
    game.play("e2e4")
    now = [time.time() + 100.0]      # the journal has long been left alone: every look at it is settled
    b = _looked_at_by_hand([path], stale_after=600.0, clock=lambda: now[0])
    try:
        assert b.changes == 1                                  # the games read at the start: one state
        assert _moves(_fetch(b.url + "game/1.pgn")) == ["e4"]
        assert b.refresh() is False and b.changes == 1         # a look with nothing new hands on nothing
        game.play("e7e5")
        assert b.refresh() is True and b.changes == 2          # a move: one new state, served
        assert wait_for(lambda: _moves(_fetch(b.url + "game/1.pgn")) == ["e4", "e5"], 30)
        assert b.refresh() is False and b.changes == 2
        now[0] += 601.0                                        # the table falls silent: the game turns stale
        assert b.refresh() is True and b.changes == 3
        assert wait_for(lambda: json.loads(_fetch(b.url + "game/1.json"))["status"] == "stale", 30)
        assert b.refresh() is False and b.changes == 3         # still stale: nothing new
        assert b.refresh(force=True) is True and b.changes == 4
        b.stop()
        game.play("g1f3")
        assert b.refresh() is False and b.changes == 4         # stopped: a last look hands nothing on
    finally:
        b.stop()
        game.session.close()


def test_a_folder_that_can_no_longer_be_written_is_told_once_until_it_can_be_again(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    game = _Game(path)
    out = tmp_path / "live"
    out.mkdir()
    told: list[str] = []
    b = _looked_at_by_hand([path], folder=out, on_problem=told.append, clock=lambda: time.time() + 100.0)

    def move_and_look(uci: str) -> None:
        game.play(uci)
        assert b.refresh() is True

    def folder_taken() -> None:
        shutil.rmtree(out)
        out.write_text("a file where the folder was", encoding="utf-8")

    try:
        assert (out / "games.pgn").is_file() and told == []
        folder_taken()
        move_and_look("e2e4")
        assert len(told) == 1 and str(out) in told[0]          # told, naming the folder
        move_and_look("e7e5")
        assert len(told) == 1                                  # still failing: not told again
        out.unlink()
        out.mkdir()
        move_and_look("g1f3")
        assert len(told) == 1 and _moves((out / "games.pgn").read_text(encoding="utf-8")) == ["e4", "e5", "Nf3"]
        folder_taken()
        move_and_look("b8c6")
        assert len(told) == 2                                  # failing again after it worked: told again
    finally:
        b.stop()
        game.session.close()


def test_a_page_that_reconnects_gets_only_the_games_changed_since_the_state_it_showed(tmp_path: Path):
    first_game, second_game = _Game(tmp_path / "a.jsonl"), _Game(tmp_path / "b.jsonl")
    first_game.play("e2e4")
    second_game.play("d2d4")
    b = _looked_at_by_hand([tmp_path], clock=lambda: time.time() + 100.0)
    readers: list[EventReader] = []

    def games_sent(url: str, headers: dict[str, str] | None = None) -> list[tuple[int, int]]:
        reader = EventReader(b.url + url, headers)
        readers.append(reader)
        assert wait_for(lambda: reader.of("page"), 30) and reader.status == 200
        return sorted((g["number"], g["plies"]) for g in reader.of("game"))

    try:
        assert games_sent("events") == [(1, 1), (2, 1)]                    # a new page: every game
        shown = re.findall(rb"\nid: (\d+)\n", readers[0].raw)[-1].decode()
        first_game.play("e7e5")
        assert b.refresh() is True
        # the browser connecting again names the state its page shows: only the game that changed since comes
        assert games_sent("events", {"Last-Event-ID": shown}) == [(1, 2)]
        assert games_sent(f"events?v={shown}") == [(1, 2)]
        assert games_sent("events?v=junk") == [(1, 2), (2, 1)]             # a state it cannot name: every game
    finally:
        for reader in readers:
            reader.close()
        b.stop()
        first_game.session.close()
        second_game.session.close()


def test_a_cookie_with_a_wrong_token_does_not_open_the_arbiter_s_pages(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl")
    b = _looked_at_by_hand([tmp_path], arbiter_token="hall-7-arbiter")
    try:
        for cookie in ("hall-7-arbitex", "x", "hall-7-arbiter"):
            status, _, _ = fetch(b.url + "arbiter", {"Cookie": f"{COOKIE}={cookie}"})
            assert status == (200 if cookie == "hall-7-arbiter" else 403), cookie
    finally:
        b.stop()
        game.session.close()


def test_one_address_gets_its_share_of_live_streams_and_the_next_is_asked_to_come_back_later(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl")
    b = _looked_at_by_hand([tmp_path])
    readers: list[EventReader] = []
    try:
        for audience in ["events", "arbiter/events"] * (STREAMS_PER_CLIENT // 2):   # public and arbiter alike
            reader = EventReader(b.url + audience)
            readers.append(reader)
            assert wait_for(lambda r=reader: r.of("page"), 30) and reader.status == 200
        turned_away = EventReader(b.url + "events")
        readers.append(turned_away)
        assert wait_for(lambda: turned_away.status is not None, 30) and turned_away.status == 503
        assert b"Retry-After: 5" in turned_away.raw
    finally:
        for reader in readers:
            reader.close()
        b.stop()
        game.session.close()


def test_a_game_s_first_moves_are_taken_from_the_journal_s_new_lines_alone(tmp_path: Path):
    # a spectator following from before the first move: that move costs its new lines, never a whole reading
    path = tmp_path / "g.jsonl"
    game = _Game(path)
    follower = GameFollower(path, "en", tmp_path, clock=lambda: time.time() + 100.0)
    try:
        assert follower.look(settled=True) and follower.whole_reads == 1
        game.play("e2e4")
        assert follower.look(settled=True)
        assert follower.whole_reads == 1 and follower.tail_reads == 1
        assert follower.game is not None and follower.game.sans[-1:] == ("e4",)
        game.play("e7e5")                                       # and so does the next
        assert follower.look(settled=True)
        assert follower.whole_reads == 1 and follower.tail_reads == 2 and follower.game.sans[-2:] == ("e4", "e5")
    finally:
        game.session.close()


def test_with_a_delay_a_look_with_nothing_new_hands_on_nothing_even_beside_a_file_with_no_game(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl")
    game.play("e2e4")
    (tmp_path / "b.jsonl").write_bytes(b"")                 # a table that has not written its game yet
    b = _looked_at_by_hand([tmp_path], delay=30.0, clock=lambda: time.time() + 100.0)
    try:
        changes = b.changes
        assert b.refresh() is False and b.refresh() is False and b.changes == changes
        game.play("e7e5")
        assert b.refresh() is True and b.changes == changes + 1
    finally:
        b.stop()
        game.session.close()
