"""Broadcast behaviours the mutation sample found unpinned: the move text written again from the start keeps the
first move's number, a follower held back by a delay reads the journal exactly as far as it was written then,
a finished game's result says why it ended, the board's text for those who cannot see it, a new state handed to the
spectators only when a game or its status changed, a folder that can no longer be written told once, the arbiter's cookie, one address's share of live streams,
a page catching up from the state it showed, and a new move taken from the new lines alone."""

from __future__ import annotations

import asyncio
import dataclasses
import html as html_module
import http.client
import io
import json
import logging
import os
import random
import re
import resource
import shutil
import socket
import threading
import time
import urllib.request
from pathlib import Path

import chess
import chess.pgn
import pytest

from blindchess.adapters.exports.source import game_from_journal
from blindchess.base import UserError, tr
from blindchess.broadcast import Broadcast, WindowBroadcast, hall, is_loopback, reading, server, watch
from blindchess.broadcast.answers import Answers, Config, Pieces, State
from blindchess.broadcast.cards import clock_state, game_card, status_of
from blindchess.broadcast.folder import FolderWriter
from blindchess.broadcast.hall import COOKIE, STREAMS_PER_CLIENT
from blindchess.broadcast.lichess import LichessTarget
from blindchess.broadcast.movetext import MoveText
from blindchess.broadcast.pages import (
    Page,
    announcement,
    arbiter_page,
    attention_section,
    attention_text,
    board_alt,
    error_page,
    game_row,
    game_section,
    moves_text,
    spectators_page,
    table_row,
)
from blindchess.broadcast.reading import _EPOCH, ClaimRecord, GameFollower, pgn_text, read_game
from blindchess.broadcast.report import TableWatch
from blindchess.broadcast.server import MAX_CONNECTIONS, PER_CLIENT, HttpServer, _Guard
from blindchess.game import Parting, Player, Session
from blindchess.storage.tail import as_of
from tests.support.broadcast import EventReader, diverged, fetch, play, structure
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
    assert "Dd1" in board_alt(read_game(path, "de", tmp_path), "de")          # the pieces in the page's language
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

    def __init__(self, path: Path, headers: dict[str, str] | None = None) -> None:
        self.session = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=path, now=EPOCH, headers=headers)
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


# -- the folder, the watcher's bounds and order ---------------------------------------------------------------------

def test_a_folder_file_whose_text_did_not_change_is_left_alone(tmp_path: Path):
    # a tool polling the LiveChess folder sees a file replaced only when its games changed

    out = tmp_path / "live"
    out.mkdir()
    writer = FolderWriter(out, "en")
    writer.write({"/games.pgn": "A\n\n", "/round3/games.pgn": "B\n\n"})
    first = {name: (out / name).stat().st_ino for name in ("games.pgn", "round3/games.pgn")}
    writer.write({"/games.pgn": "A\n\n", "/round3/games.pgn": "C\n\n"})
    assert (out / "games.pgn").stat().st_ino == first["games.pgn"]              # the same text: not written again
    assert (out / "round3" / "games.pgn").read_text(encoding="utf-8") == "C\n\n"
    assert (out / "round3" / "games.pgn").stat().st_ino != first["round3/games.pgn"]   # replaced whole


def test_a_broadcast_follows_at_most_its_bound_of_games_and_looks_at_twice_as_many_files(tmp_path: Path, monkeypatch,
                                                                                          caplog):

    monkeypatch.setattr(watch, "MAX_GAMES", 2)        # the bound as a small number (the program's is 1000)
    games = [_Game(tmp_path / f"{name}.jsonl") for name in "abc"]
    for name in "def":
        (tmp_path / f"{name}.jsonl").write_bytes(b"")   # tables that have not written their game yet
    watcher = watch.Watcher([tmp_path], "en", tmp_path / "work", clock=lambda: time.time() + 100.0, budget=1e9)
    (tmp_path / "work").mkdir()
    try:
        with caplog.at_level("WARNING", logger="blindchess.broadcast"):
            assert watcher.poll() is True
            assert watcher.poll() is False
        assert [(n, g.path.name) for n, g in watcher.games] == [(1, "a.jsonl"), (2, "b.jsonl")]
        games[2].play("e2e4")
        assert watcher.poll() is False                  # the game left out changed: nothing the hall shows did
        # four files looked at (twice the games): the third game is read but not numbered, one empty file is told
        assert [name for name, _ in watcher.problems] == ["d.jsonl"]
        assert [r.getMessage() for r in caplog.records].count(
            "broadcast: more than 2 journals; the others are left out") == 1       # told once
    finally:
        for game in games:
            game.session.close()


def test_a_move_a_ruling_took_back_is_served_as_a_side_line_marked_retracted(tmp_path: Path):
    # FIDE Laws D.2.9: the arbiter set the game back to 2 half-moves; White's 2. Nf3 was taken back, 2. Nc3 played

    served = read_game(play("pegs_set_right_in_any_order.scn", tmp_path / "g.jsonl"), "en", tmp_path)
    assert served.pgn == pgn_text(game_from_journal(tmp_path / "g.jsonl", "en"))    # pressed: the export's own clock
    game = chess.pgn.read_game(io.StringIO(served.pgn))
    assert game is not None
    second = list(game.mainline())[1]
    assert [v.san() for v in second.variations] == ["Nc3", "Nf3"]
    assert second.variations[1].comment == tr("session.pgn_retracted", "en")


# -- a journal followed: units not yet whole, a file that shrank, looks with nothing new ------------------------------

def _journal_in_steps(tmp_path: Path) -> tuple[bytes, list[int]]:
    """A journal's bytes and where it stood: after 1. e4 made and pressed, after 1... e5 made and pressed, after the
    first of the three lines of 2. Nf3 made, after 2. Nf3 made."""
    real = tmp_path / "table.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=real, now=EPOCH)
    s.start_clock(EPOCH)
    steps: list[int] = []
    for i, uci in enumerate(("e2e4", "e7e5")):
        s.board_move("sighted", chess.Move.from_uci(uci), EPOCH + 10.0 * (i + 1))
        s.press_clock(chess.WHITE if i == 0 else chess.BLACK, EPOCH + 10.0 * (i + 1) + 1.0)
        steps.append(len(real.read_bytes()))
    s.board_move("sighted", chess.Move.from_uci("g1f3"), EPOCH + 30.0)
    s.close()
    data = real.read_bytes()
    steps.append(data.index(b"\n", steps[1]) + 1)
    steps.append(len(data))
    return data, steps


def _grow(path: Path, data: bytes) -> None:
    """The journal as it stood with these bytes, written in place (the same file, as the table's writer keeps it)."""

    with open(path, "r+b") as out:
        out.write(as_of(data))


def test_a_unit_not_yet_whole_waits_while_the_table_writes_and_is_judged_whole_once_it_is_quiet(tmp_path: Path):
    data, (move_1, moves_2, nf3_first_line, nf3_whole) = _journal_in_steps(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    for settled in (False, True):
        path = tmp_path / f"hall-{settled}.jsonl"
        path.write_bytes(b"")
        _grow(path, data[:move_1])
        follower = GameFollower(path, "en", work, clock=lambda: EPOCH + 100.0)
        assert follower.look() and follower.game is not None
        _grow(path, data[:nf3_first_line])       # 1... e5 whole, then the first of the three lines of 2. Nf3
        if settled:
            # quiet for a while: the unit was cut off by a crash, and the game is what a fresh reading makes of it
            assert follower.look(settled=True)
            assert follower.whole_reads == 2 and follower.game.pgn == read_game(path, "en", work).pgn
            assert follower.game.sans == ("e4", "e5", "Nf3")
        else:
            assert follower.look()               # the table is writing: its new unit waits to be whole
            assert follower.whole_reads == 1 and follower.game.sans == ("e4", "e5")
        _grow(path, data[:nf3_whole])
        follower.look(settled=settled)
        assert follower.game.sans == ("e4", "e5", "Nf3") and follower.game.pgn == read_game(path, "en", work).pgn
    assert moves_2 < nf3_first_line


def test_a_journal_that_shrank_in_place_is_read_whole_again(tmp_path: Path):
    data, (_, moves_2, _, nf3_whole) = _journal_in_steps(tmp_path)
    path = tmp_path / "hall.jsonl"
    path.write_bytes(b"")
    _grow(path, data[:nf3_whole])
    follower = GameFollower(path, "en", tmp_path, clock=lambda: EPOCH + 100.0)
    assert follower.look() and follower.game is not None and follower.game.sans == ("e4", "e5", "Nf3")
    inode = path.stat().st_ino
    with open(path, "r+b") as out:                # the same file cut back to 1... e5 (a journal restored in place)
        out.truncate(moves_2)
    _grow(path, data[:moves_2])
    assert path.stat().st_ino == inode
    assert follower.look() and follower.game.sans == ("e4", "e5") and follower.whole_reads == 2


def test_after_new_units_a_look_with_nothing_new_reads_nothing_again(tmp_path: Path):
    data, (_, moves_2, _, nf3_whole) = _journal_in_steps(tmp_path)
    path = tmp_path / "hall.jsonl"
    path.write_bytes(b"")
    _grow(path, data[:moves_2])
    follower = GameFollower(path, "en", tmp_path, clock=lambda: EPOCH + 100.0)
    assert follower.look()
    _grow(path, data[:nf3_whole])
    assert follower.look() and (follower.whole_reads, follower.tail_reads) == (1, 1)
    for settled in (False, True):
        assert follower.look(settled=settled) is False
    assert (follower.whole_reads, follower.tail_reads) == (1, 1)      # the new move cost its own lines, once


def test_a_follower_held_back_reads_a_whole_game_as_it_stood_not_a_damaged_one(tmp_path: Path):
    data, (move_1, moves_2, _, nf3_whole) = _journal_in_steps(tmp_path)
    path = tmp_path / "hall.jsonl"
    path.write_bytes(b"")
    _grow(path, data[:nf3_whole])
    public = GameFollower(path, "en", tmp_path, clock=lambda: EPOCH + 100.0)
    assert public.look(moves_2, settled=True)
    assert public.game is not None and public.game.sans == ("e4", "e5") and public.game.damage == ()
    assert public.look(nf3_whole, settled=True) and public.game.sans == ("e4", "e5", "Nf3") and public.game.damage == ()
    later = GameFollower(path, "en", tmp_path, clock=lambda: EPOCH + 100.0)
    assert later.look(move_1, settled=True) and later.game is not None and later.game.sans == ("e4",)
    assert later.look(moves_2, settled=True) and later.game.sans == ("e4", "e5")     # its new lines, no further
    assert later.tail_reads == 1


def test_a_file_that_holds_no_game_is_no_change_and_says_why(tmp_path: Path):
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"")
    follower = GameFollower(path, "en", tmp_path)
    assert follower.look() is False and follower.game is None and follower.problem
    path.write_text("not a journal\n", encoding="utf-8")
    assert follower.look() is False and follower.problem and "empty.jsonl" in follower.problem


def _touched(path: Path, moment: float) -> None:
    """The file last changed at ``moment`` (seconds since 1970): the watcher's clock and the file's agree."""

    os.utime(path, ns=(int(moment * 1e9), int(moment * 1e9)))


def test_a_journal_is_looked_at_once_more_when_it_has_been_quiet_a_second_and_then_left_alone(tmp_path: Path):
    data, (_, moves_2, nf3_first_line, _) = _journal_in_steps(tmp_path)
    hall = tmp_path / "hall"
    hall.mkdir()
    path = hall / "g.jsonl"
    path.write_bytes(b"")
    _grow(path, data[:moves_2])
    now = [EPOCH + 100.0]
    watcher = watch.Watcher([hall], "en", tmp_path, clock=lambda: now[0])
    _touched(path, EPOCH + 100.0)
    assert watcher.poll() and watcher.games[0][1].sans == ("e4", "e5")
    _grow(path, data[:nf3_first_line])                 # the first line of 2. Nf3's unit: the table is writing
    _touched(path, EPOCH + 200.0)
    now[0] = EPOCH + 200.5
    assert watcher.poll() is False and watcher.games[0][1].sans == ("e4", "e5")     # its unit waits
    assert watcher.poll() is False
    now[0] = EPOCH + 200.0 + watch.SETTLE             # quiet for a second: the unit was cut off, judged whole
    assert watcher.poll() is True and watcher.games[0][1].sans == ("e4", "e5", "Nf3")
    follower = watcher._entries[path].follower
    reads = follower.whole_reads
    now[0] = EPOCH + 300.0
    assert watcher.poll() is False and follower.whole_reads == reads         # quiet and looked at: left alone


def test_with_a_delay_the_public_sees_a_crashed_table_s_last_unit_as_the_arbiter_does_once_the_delay_passed(
        tmp_path: Path):

    data, (_, moves_2, nf3_first_line, _) = _journal_in_steps(tmp_path)    # 2. Nf3 made at EPOCH + 30
    hall = tmp_path / "hall"
    hall.mkdir()
    path = hall / "g.jsonl"
    path.write_bytes(b"")
    _grow(path, data[:moves_2])
    _touched(path, EPOCH + 21.0)
    now = [EPOCH + 25.0]
    watcher = watch.Watcher([hall], "en", tmp_path, delay=30.0, clock=lambda: now[0])
    assert watcher.poll()
    assert watcher.games[0][1].sans == ("e4", "e5") and watcher.public == []      # nothing 30 seconds old yet
    now[0] = EPOCH + 60.0
    assert watcher.poll() and [(n, g.sans) for n, g in watcher.public] == [(1, ("e4", "e5"))]
    assert watcher.public[0][1].changed == watcher.games[0][1].changed      # when its journal last changed: now
    _grow(path, data[:nf3_first_line])                  # the table crashes writing 2. Nf3
    _touched(path, EPOCH + 30.0)
    assert watcher.poll() is True                       # quiet long since: judged as a fresh reading judges it
    assert watcher.games[0][1].sans == ("e4", "e5", "Nf3") and watcher.public[0][1].sans == ("e4", "e5", "Nf3")
    assert watcher.poll() is False


def test_a_damaged_journal_looked_at_again_with_nothing_new_is_not_read_again(tmp_path: Path):
    data, (_, moves_2, _, _) = _journal_in_steps(tmp_path)
    path = tmp_path / "hall.jsonl"
    path.write_bytes(b"")
    _grow(path, data[:moves_2])
    with open(path, "r+b") as out:            # one byte of 1... e5's score line damaged (its check no longer fits)
        damaged = path.read_bytes().replace(b'"uci":"e7e5","san":"e5"', b'"uci":"e7e5","san":"e6"', 1)
        out.write(damaged)
    follower = GameFollower(path, "en", tmp_path)
    assert follower.look() and follower.game is not None and follower.game.damage
    for _ in range(2):
        assert follower.look() is False
    assert follower.whole_reads == 1


def test_each_poll_reads_for_its_budget_the_journals_that_waited_longest_first(tmp_path: Path):
    # at the start the first games are served while the others are still read; one poll's reading is bounded

    hall = tmp_path / "hall"
    hall.mkdir()
    games = {name: _Game(hall / f"{name}.jsonl") for name in "abcd"}
    ticks = [0.0]

    def timer() -> float:                 # the poll's own stopwatch: each look at it an eighth of a second later
        ticks[0] += 0.125
        return ticks[0]

    watcher = watch.Watcher([hall], "en", tmp_path, clock=lambda: EPOCH + 1000.0, budget=0.25, timer=timer)

    def plies() -> dict[str, int]:
        return {g.path.stem: g.plies for _, g in watcher.games}

    try:
        for game in games.values():
            game.play("e2e4")
        assert not watcher.behind                                        # nothing found yet, so nothing waits
        assert watcher.poll() and watcher.behind                       # two journals within the budget, by name
        assert plies() == {"a": 1, "b": 1}
        assert watcher.poll() and not watcher.behind
        assert [(n, g.path.stem) for n, g in watcher.games] == [(1, "a"), (2, "b"), (3, "c"), (4, "d")]
        for name, second in zip("abcd", (400.0, 100.0, 300.0, 200.0), strict=True):
            games[name].play("e7e5")
            _touched(hall / f"{name}.jsonl", EPOCH + second)
        assert watcher.poll() and watcher.behind
        assert plies() == {"a": 1, "b": 2, "c": 1, "d": 2}           # the two that changed the longest time ago
        assert watcher.poll() and not watcher.behind and set(plies().values()) == {2}
    finally:
        for game in games.values():
            game.session.close()


def test_a_poll_reads_at_least_one_journal_however_long_a_look_takes(tmp_path: Path):
    games = [_Game(tmp_path / f"{name}.jsonl") for name in "ab"]
    (tmp_path / "work").mkdir()
    watcher: watch.Watcher

    def timer() -> float:                 # the poll's stopwatch: each look at a journal takes a whole second
        return sum(e.follower.whole_reads + e.follower.tail_reads for e in watcher._entries.values()) * 1.0

    watcher = watch.Watcher([tmp_path], "en", tmp_path / "work", clock=lambda: EPOCH + 1000.0, budget=0.25, timer=timer)
    try:
        assert watcher.poll() and watcher.behind and len(watcher.games) == 1
        assert watcher.poll() and not watcher.behind and len(watcher.games) == 2
    finally:
        for game in games:
            game.session.close()


# -- the broadcast as a whole: where it listens, its first state ----------------------------------------------------

def test_only_this_computer_s_own_addresses_count_as_loopback_for_the_arbiter_s_token():
    for host in ("localhost", " LocalHost ", "127.0.0.1", "127.8.9.10", "::1", "[::1]"):
        assert is_loopback(host), host
    for host in ("0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "hall.example.org", "localhost.example.org", ""):
        assert not is_loopback(host), host
    assert Broadcast([], lang="en", host="127.0.0.1").token is None
    assert Broadcast([], lang="en", host="127.0.0.1", arbiter_token="given").token == "given"
    assert len(Broadcast([], lang="en", host="0.0.0.0").token or "") >= 24          # made at the start


def test_the_addresses_printed_name_an_ipv6_host_in_brackets_and_the_arbiter_s_token():
    b = Broadcast([], lang="en", host="::1", port=8801, arbiter_token="t0k")
    assert b.url == "http://[::1]:8801/"
    assert b.arbiter_url == "http://[::1]:8801/arbiter?token=t0k"
    assert Broadcast([], lang="en").url == "http://127.0.0.1:8765/"      # the default the organiser's guide names
    plain = Broadcast([], lang="en", host="127.0.0.1", port=8802)
    assert plain.arbiter_url == "http://127.0.0.1:8802/arbiter" and plain.connections == 0 and not plain.behind


def test_an_empty_hall_is_served_from_its_first_look(tmp_path: Path):
    b = _looked_at_by_hand([tmp_path])
    workdir = b._workdir
    try:
        assert b.changes == 1 and b.connections == 0
        status, body, _ = fetch(b.url + "games.json")
        assert status == 200 and json.loads(body) == []
        assert b.refresh() is False and b.changes == 1
    finally:
        b.stop()
    assert workdir is not None and not workdir.exists()       # its private copies go with it


# -- live streams: how many, a quiet one kept open, which states a page may name -----------------------------------

def test_a_page_naming_its_state_in_other_digits_gets_every_game_not_an_error(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl")
    game.play("e2e4")
    b = _looked_at_by_hand([tmp_path])
    readers: list[EventReader] = []
    try:
        for named in ("events?v=%C2%B2", "events?v=%D9%A3", "events?v=1234567890123"):   # ², Arabic-Indic 3, 13 digits
            reader = EventReader(b.url + named)
            readers.append(reader)
            assert wait_for(lambda r=reader: r.of("page") or r.status not in (None, 200), 30)
            assert reader.status == 200 and [g["number"] for g in reader.of("game")] == [1], named
        reader = EventReader(b.url + "events", {"Last-Event-ID": "\u00b2"})
        readers.append(reader)
        assert wait_for(lambda: reader.of("page") or reader.status not in (None, 200), 30) and reader.status == 200
    finally:
        for reader in readers:
            reader.close()
        b.stop()
        game.session.close()


def test_the_broadcast_keeps_at_most_its_bound_of_live_streams_in_all(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(hall, "MAX_STREAMS", 3)      # the bound as a small number (the program's is 512)
    monkeypatch.setattr(hall, "PING", 0.05)          # a stream whose client left is found out at its next comment
    game = _Game(tmp_path / "a.jsonl")
    b = _looked_at_by_hand([tmp_path])
    readers: list[EventReader] = []
    try:
        for audience in ("events", "arbiter/events", "events"):
            reader = EventReader(b.url + audience)
            readers.append(reader)
            assert wait_for(lambda r=reader: r.of("page"), 30) and reader.status == 200
        turned_away = EventReader(b.url + "arbiter/events")
        readers.append(turned_away)
        assert wait_for(lambda: turned_away.status is not None, 30) and turned_away.status == 503
        readers[0].close()                                    # one leaves: the next is let in
        assert wait_for(lambda: b.hall is not None and b.hall.streams == 2, 30)
        again = EventReader(b.url + "events")
        readers.append(again)
        assert wait_for(lambda: again.of("page"), 30) and again.status == 200
    finally:
        for reader in readers:
            reader.close()
        b.stop()
        game.session.close()


def test_a_quiet_live_stream_gets_a_comment_now_and_then_to_keep_the_connection(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(hall, "PING", 0.05)
    b = _looked_at_by_hand([tmp_path])
    reader = EventReader(b.url + "events")
    try:
        assert wait_for(lambda: reader.raw.count(b"\n: ping\n\n") >= 2, 30)
        assert reader.raw.startswith(b"HTTP/1.1 200") and b"retry: 2000\n\n" in reader.raw
    finally:
        reader.close()
        b.stop()


def test_a_page_showing_a_state_older_than_those_remembered_gets_every_game(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(hall, "_HISTORY", 2)         # states remembered, as a small number (the program's is 32)
    first, second = _Game(tmp_path / "a.jsonl"), _Game(tmp_path / "b.jsonl")
    b = _looked_at_by_hand([tmp_path])
    readers: list[EventReader] = []

    def games_sent(since: int) -> list[int]:
        reader = EventReader(b.url + f"events?v={since}")
        readers.append(reader)
        assert wait_for(lambda: reader.of("page"), 30) and reader.status == 200
        return sorted(g["number"] for g in reader.of("game"))

    try:
        assert b.hall is not None
        shown = b.hall.version
        for uci in ("e2e4", "e7e5"):
            first.play(uci)
            assert b.refresh() is True
        assert wait_for(lambda: b.hall.version == shown + 2, 30)
        assert games_sent(shown + 1) == [1]             # remembered: only the game that changed since
        assert games_sent(shown) == [1, 2]              # forgotten: every game
    finally:
        for reader in readers:
            reader.close()
        b.stop()
        first.session.close()
        second.session.close()


# -- the arbiter's texts of a table ---------------------------------------------------------------------------------

def _cells(row: str) -> dict[str, str]:
    """A table row's cells by their field name, as text (markup inside a cell dropped)."""

    cells = dict(re.findall(r'<t[dh][^>]*data-field="(\w+)"[^>]*>(.*?)</t[dh]>', row))
    return {k: html_module.unescape(re.sub(r"<[^>]+>", "", v)) for k, v in cells.items()}


def _after_one_move(tmp_path: Path):
    """A game after 1.e4, closed, as the broadcast reads it (in English)."""
    game = _Game(tmp_path / "a.jsonl")
    game.play("e2e4")
    game.session.close()
    return read_game(tmp_path / "a.jsonl", "en", tmp_path)


def test_the_arbiter_s_row_tells_each_table_s_state_in_words(tmp_path: Path):
    base = _after_one_move(tmp_path)
    now = base.changed + 10.0

    def row(**state) -> dict[str, str]:
        return _cells(table_row(4, dataclasses.replace(base, state=dataclasses.replace(base.state, **state)), "en", now,
                                600.0))

    plain = row()
    assert plain["state"] == "Black to move (Bert)" and plain["boards"] == "agree" and plain["proposal"] == "none"
    assert plain["flag"] == "none fallen" and plain["claim"] == "none" and plain["journal"] == "whole"
    assert plain["head"] == "4"
    assert row(draw_offer=chess.WHITE)["state"] == "Black to move (Bert); White's draw offer stands (Art. 9.1)"
    assert row(adjourned=True)["state"] == "Black to move (Bert); adjourned, the move is being sealed (Guidelines I.1)"
    assert row(adjourned=True, sealed=True)["state"] == \
        "Black to move (Bert); adjourned, the sealed move is in the envelope (Guidelines I)"
    assert row(result="1-0", reason="resignation")["state"] == \
        f"Game over: 1-0 ({tr('session.reason_resignation', 'en')})"
    assert row(result="1/2-1/2")["state"] == "Game over: 1/2-1/2"
    at_start = row(parting=Parting(0, ("e2", "e4"), "tactile"), proposal_kind="correct-board")
    assert at_start["boards"] == "The tactile board differs already in the starting position; squares: e2, e4"
    assert at_start["proposal"] == "correct the board that differs, the clocks stay"
    assert at_start["head"] == "Attention: 4"
    later = row(parting=Parting(1, (), None), proposal_kind="retrace", proposal_plies=1)
    assert later["boards"] == "Each board differs after half-move 1; squares: –"    # neither agrees with the game
    assert later["proposal"] == "back to the position after half-move 1, the clocks as they were then"
    assert row(parting=Parting(1, ("d2",), "sighted"), proposal_kind="none")["proposal"] == "change nothing"
    flagged = row(flags=(chess.WHITE, chess.BLACK))
    assert flagged["flag"] == "White: fallen; Black: fallen" and flagged["head"] == "Attention: 4"
    assert row(flags=(chess.BLACK,), result="1-0")["head"] == "4"        # a flag in a game over: no call for him
    claims = tuple(ClaimRecord(c, k, u) for c, k, u in ((chess.WHITE, "fifty", False), (chess.BLACK, "threefold", None),
                                                          (chess.WHITE, "time", True), (chess.BLACK, "illegal", None)))
    assert row(claims=claims)["claim"] == ("Black: threefold repetition (Art. 9.2) – not yet decided; "
                                           "White: opponent's time has run out (Art. 6.8) – upheld; "
                                           "Black: illegal move (Appendix A.4) – not yet decided")       # the last three
    assert row(claims=claims[:1])["claim"] == "White: fifty-move rule (Art. 9.3) – rejected"
    # what he is told first when a table comes to need him, and the section that says all of it
    parted = dataclasses.replace(base, state=dataclasses.replace(base.state, parting=Parting(1, ("e4",), "tactile"),
                                                                 proposal="set the pegs right", flags=(chess.WHITE,)))
    assert attention_text(parted, "en", now, 600.0) == "The tactile board differs after half-move 1; squares: e4"
    section = attention_section(4, parted, "en", now, 600.0)
    assert "Proposal: set the pegs right" in section and "White: fallen" in section
    flag_only = dataclasses.replace(base, state=dataclasses.replace(base.state, flags=(chess.BLACK,)))
    assert attention_text(flag_only, "en", now, 600.0) == "Black: fallen"
    stale = attention_text(base, "en", base.changed + 601.0, 600.0)
    assert stale.startswith("No news from this table since ")
    damaged = dataclasses.replace(base, damage=("The journal is damaged.",))
    assert attention_text(damaged, "en", now, 600.0) == "The journal is damaged."
    assert _cells(table_row(4, damaged, "en", now, 600.0))["journal"] == "damaged (details above)"
    assert _cells(table_row(4, damaged, "en", now, 600.0))["head"] == "Attention: 4"
    stale_row = _cells(table_row(4, base, "en", base.changed + 601.0, 600.0))
    assert stale_row["head"] == "Attention: 4" and stale_row["state"].startswith("Black to move (Bert); No news from")
    silent = _text(attention_section(4, base, "en", base.changed + 601.0, 600.0))
    assert "No news from this table since" in silent and "fallen" not in silent and "Proposal" not in silent
    assert "Each board" not in silent and "agree" not in silent


def test_a_journal_larger_than_a_journal_may_be_is_refused_and_one_just_that_large_is_read(tmp_path: Path, monkeypatch):
    data, (_, moves_2, _, _) = _journal_in_steps(tmp_path)
    path = tmp_path / "hall.jsonl"
    path.write_bytes(b"")
    _grow(path, data[:moves_2])
    monkeypatch.setattr(reading, "MAX_BYTES", moves_2 - 1)        # the bound as a small number
    follower = GameFollower(path, "en", tmp_path)
    assert follower.look() is False and follower.game is None and follower.problem and "hall.jsonl" in follower.problem
    monkeypatch.setattr(reading, "MAX_BYTES", moves_2)
    assert follower.look() and follower.game is not None and follower.game.sans == ("e4", "e5")
    assert follower.problem is None


def test_a_folder_of_thousands_of_files_is_looked_at_only_as_far_as_two_thousand(tmp_path: Path):
    # twice the thousand games a broadcast follows: files that hold no game count too, the rest are left out

    hall = tmp_path / "hall"
    hall.mkdir()
    for i in range(2001):
        (hall / f"{i:04d}.jsonl").write_bytes(b"")
    watcher = watch.Watcher([hall], "en", tmp_path, clock=lambda: EPOCH, budget=1e9)
    watcher.poll()
    told = watcher.problems
    assert len(told) == 2000 and told[-1][0] == "1999.jsonl" and watcher.games == []


# -- the spectators' texts of a game --------------------------------------------------------------------------------

def _text(html_text: str) -> str:
    return html_module.unescape(re.sub(r"<[^>]+>", "", html_text))


def test_the_spectators_row_and_section_tell_the_game_in_words(tmp_path: Path):
    path = tmp_path / "a.jsonl"
    game = _Game(path, {"Event": "Open", "Site": "?", "Date": "????.??.??", "Round": "3.1", "Board": "",
                        "WhiteElo": "2350", "WhiteTitle": "FM", "BlackTitle": "-"})
    game.play("e2e4")
    base = read_game(path, "en", tmp_path)
    now = base.changed + 10.0

    def row(g=base, at=now) -> dict[str, str]:
        return _cells(game_row(7, g, "en", at, 600.0))

    first = row()
    assert first["white"] == "Anna (FM, 2350)" and first["black"] == "Bert" and first["round"] == "3.1"
    assert first["result"] == "in progress" and first["status"] == "in progress" and first["last"] == "1. e4"
    assert first["moves"] == "1" and "(running)" in first["clocks"].split("Black")[1]       # Black's clock runs
    section = _text(game_section(7, base, "en", now, 600.0))
    assert "Event: Open · Round: 3.1" in section and "Site:" not in section and "Date:" not in section
    assert "Board:" not in section and "White: Anna (FM, 2350) · Black: Bert" in section
    assert "Time left: White 1:30:" in section and "(as of the last entry)" in section
    for plies, moves in ((("e4", "e5"), "1"), (("e4", "e5", "Nf3"), "2")):
        assert row(dataclasses.replace(base, moves=plies))["moves"] == moves
    assert row(dataclasses.replace(base, moves=("e4", "e5")))["last"] == "1... e5"
    assert row(at=base.changed + 600.0)["status"] == "no news from the table"
    stale = _text(game_section(7, base, "en", base.changed + 600.0, 600.0))
    assert "No news from this table since" in stale
    over = dataclasses.replace(base, headers={**base.headers, "Result": "1-0"},
                               state=dataclasses.replace(base.state, result="1-0", reason="resignation"))
    assert row(over)["result"] == "1-0" and row(over)["status"] == "finished" and "(running)" not in row(over)["clocks"]
    other_reason = dataclasses.replace(over, state=dataclasses.replace(over.state, result="0-1"))
    assert "Result: 1-0\n" in _text(game_section(7, other_reason, "en", now, 600.0)) + "\n"     # no reason of another
    adjourned = dataclasses.replace(base, state=dataclasses.replace(base.state, adjourned=True))
    assert "(running)" not in row(adjourned)["clocks"] and row(adjourned)["status"] == "adjourned"
    assert "Adjourned (Guidelines I)" in _text(game_section(7, adjourned, "en", now, 600.0))
    unclocked = dataclasses.replace(base, state=dataclasses.replace(base.state, clocks=(None, None), running=None))
    assert row(unclocked)["clocks"] == "no clock"
    assert "Time left" not in _text(game_section(7, unclocked, "en", now, 600.0))
    for half in ((5400.0, None), (None, 5400.0)):          # one side's time unknown: no clock is shown
        half_known = dataclasses.replace(base, state=dataclasses.replace(base.state, clocks=half))
        assert row(half_known)["clocks"] == "no clock"
    half_known = dataclasses.replace(base, state=dataclasses.replace(base.state, clocks=(5400.0, None)))
    assert "Time left: no clock" in _text(game_section(7, half_known, "en", now, 600.0))
    damaged = _text(game_section(7, dataclasses.replace(base, damage=("line 9 is damaged",)), "en", now, 600.0))
    assert "This game's journal is damaged:" in damaged and "line 9 is damaged" in damaged
    assert announcement(7, base, "en") == "Game 7, Anna – Bert: 1. e4"
    assert announcement(7, base, "en", arbiter=True) == "Table 7: 1. e4"
    assert announcement(7, dataclasses.replace(base, moves=()), "en") is None
    black_begins = chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12")
    assert moves_text(black_begins, ["e5", "Nf3", "Nc6"]) == "12... e5 13. Nf3 Nc6"
    assert moves_text(chess.Board(), ["e4", "e5", "Nf3"]) == "1. e4 e5 2. Nf3"
    assert row(dataclasses.replace(base, start=black_begins, moves=("e5", "Nf3")))["last"] == "13. Nf3"
    assert row(dataclasses.replace(base, start=black_begins, moves=("e5",)))["last"] == "12... e5"
    game.session.close()


# -- the server: as many connections as the system allows, addresses it cannot listen on ---------------------------

def test_the_server_raises_its_open_files_limit_to_what_the_system_allows(monkeypatch):
    # each connection is an open file: a hall's hundreds of clients need more than a system's default soft limit


    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
        server._more_files()
        wanted = min(hard if hard != resource.RLIM_INFINITY else 65536, 65536)
        assert resource.getrlimit(resource.RLIMIT_NOFILE) == (wanted, hard)
        calls: list[tuple[int, int]] = []
        monkeypatch.setattr(resource, "setrlimit", lambda kind, limits: calls.append(limits))
        server._more_files()                         # already as high as allowed: nothing to change
        assert calls == []
    finally:
        monkeypatch.undo()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_an_address_that_is_not_this_computer_s_is_refused_in_one_line_naming_it():
    with pytest.raises(UserError) as refused:
        HttpServer("192.0.2.1", 0, lambda request: None, lambda code: None, "en")      # TEST-NET-1: nobody's
    assert refused.value.message.startswith(tr("broadcast.cannot_listen", "en", host="192.0.2.1", port=0, error="")[:30])
    assert "192.0.2.1" in refused.value.message and "\n" not in refused.value.message


def test_the_pages_say_what_is_there_and_hide_what_is_not(tmp_path: Path):
    base = _after_one_move(tmp_path)
    now = base.changed + 10.0
    empty = spectators_page([], "en", "12:00:00", now=now, stale_after=600.0)
    assert '<p data-field="empty">No game yet.</p>' in empty and "a delay against cheating" not in empty
    assert structure(empty.encode()).script_sources == ["/live.js"] and 'data-events="/events?v=0"' in empty
    held = spectators_page([(1, base)], "en", "12:00:00", now=now, stale_after=600.0, delay=90.0, version=5)
    assert '<p data-field="empty" hidden>' in held and 'data-events="/events?v=5"' in held
    assert "Moves are shown 90 seconds after they are made" in held
    assert '<option value="1">' in held and "data-game=\"1\"" in held
    live = arbiter_page([(1, base)], [], "en", "12:00:00", now=now, stale_after=600.0, version=3)
    assert "This page keeps itself up to date; it never reloads." in live and 'href="/arbiter/still"' in live
    assert 'data-events="/arbiter/events?v=3"' in live and 'id="latest"' in live
    assert '<ul data-field="notices"><li>None.</li></ul>' in live
    assert '<p data-field="attention_none">No table needs the arbiter.</p>' in live
    assert "Files that hold no game" not in live and '<p data-field="empty" hidden>' in live
    still = arbiter_page([(1, base)], [("b.jsonl", "no game yet")], "en", "12:00:00", now=now, stale_after=600.0,
                         live=False, notices=("Lichess refused game 2",))
    assert "This page does not renew itself." in still and 'href="/arbiter"' in still
    assert "data-events" not in still and 'id="latest"' not in still and structure(still.encode()).script_sources == []
    assert '<ul data-field="notices"><li>Lichess refused game 2</li></ul>' in still
    assert "<li>b.jsonl: no game yet</li>" in still
    parted = dataclasses.replace(base, state=dataclasses.replace(base.state, parting=Parting(1, ("e4",), "tactile")))
    needing = arbiter_page([(1, parted)], [], "en", "12:00:00", now=now, stale_after=600.0)
    assert '<p data-field="attention_none" hidden>' in needing and 'id="table-1"' in needing
    empty_arbiter = arbiter_page([], [], "en", "12:00:00", now=now, stale_after=600.0)
    assert '<p data-field="empty">No game yet.</p>' in empty_arbiter and 'data-events="/arbiter/events?v=0"' in empty_arbiter
    # the pieces already made for a state are used as they are
    made = spectators_page([(1, base)], "en", "12:00:00", now=now, stale_after=600.0, rows={1: "<tr>ROW 1</tr>"},
                           sections={1: "<section>SECTION 1</section>"})
    assert "<tr>ROW 1</tr>" in made and "<section>SECTION 1</section>" in made and 'data-game="1"' not in made
    made = arbiter_page([(1, base)], [], "en", "12:00:00", now=now, stale_after=600.0, rows={1: "<tr>TABLE 1</tr>"})
    assert "<tr>TABLE 1</tr>" in made


# -- the answers of one state, and what the live streams are told of the next ---------------------------------------

def _events(messages: list[bytes]) -> list[tuple[str, dict]]:
    out = []
    for message in messages:
        kind, data = message.decode("utf-8").split("\n")[:2]
        out.append((kind.removeprefix("event: "), json.loads(data.removeprefix("data: "))))
    return out


def test_each_address_of_a_state_is_answered_from_its_games_and_made_once(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl", {"Round": "3"})
    game.play("e2e4")
    game.session.close()
    base = read_game(tmp_path / "a.jsonl", "en", tmp_path)
    other = dataclasses.replace(base, headers={**base.headers, "Round": "?"})
    held_back = dataclasses.replace(base, moves=(), sans=(), pgn="held back\n\n")
    state = State(((1, base), (2, other)), ((1, held_back), (2, other)), (), (), base.changed + 5.0)
    answers = Answers(state, Config("en", 600.0), Pieces(), 7)
    assert answers.public("/") is answers.public("/") and answers.public("/index.html").body == answers.public("/").body
    assert answers.public("/game/1.pgn").body == b"held back\n\n"               # the public's games, held back
    assert answers.public("/round3/games.pgn").body == b"held back\n\n"          # only the games of round 3
    assert answers.public("/round4/games.pgn") is None
    assert answers.public("/games.pgn").body == b"held back\n\n" + other.pgn.encode()
    cards = json.loads(answers.public("/games.json").body)
    assert [(c["number"], c["plies"], c["round"]) for c in cards] == [(1, 0, "3"), (2, 1, None)]
    assert json.loads(answers.public("/game/2.json").body)["number"] == 2
    diagram = answers.public("/game/2.svg").body.decode()
    # 360 pixels as the page's image says, the files and ranks named around the board (the margin of the view)
    assert diagram.startswith("<svg") and 'width="360" height="360"' in diagram and 'viewBox="0 0 390 390"' in diagram
    assert 'data-events="/events?v=0"' in Answers(state, Config("en", 600.0), Pieces()).public("/").body.decode()
    # the next state's answers keep each piece of a game that did not change: made once
    following = Answers(state, Config("en", 600.0), answers.pieces, 8)
    assert following.public("/game/2.svg") is answers.public("/game/2.svg")
    for missing in ("/game/3.pgn", "/game/0.pgn", "/game/1.txt", "/games.txt", "/arbiter"):
        assert answers.public(missing) is None, missing
    assert b"Arbiter: every table" in answers.arbiter("/arbiter").body
    assert b"data-events" not in answers.arbiter("/arbiter/still").body
    assert answers.arbiter("/arbiter/other") is None and answers.arbiter("/") is None
    arbiter_html = answers.arbiter("/arbiter").body.decode()
    assert '<tr data-game="1" data-plies="1"' in arbiter_html                   # the arbiter's: never held back


def test_the_arbiter_is_alerted_once_when_a_table_comes_to_need_him(tmp_path: Path):
    base = _after_one_move(tmp_path)
    parted = dataclasses.replace(base, state=dataclasses.replace(base.state, parting=Parting(1, ("e4",), "tactile")))
    config, pieces = Config("en", 600.0), Pieces()
    now = base.changed + 5.0

    def answers(*games, version: int) -> Answers:
        numbered = tuple(enumerate(games, start=1))
        return Answers(State(numbered, numbered, (), ("a notice",), now), config, pieces, version)

    first = answers(base, version=1)
    opened = _events(first.messages(None, "arbiter"))
    assert [k for k, _ in opened] == ["game", "page"] and opened[0][1]["alert"] is None
    assert opened[0][1]["attention"] is None and opened[1][1]["notices"] == ["a notice"]
    second = answers(parted, version=2)
    told = _events(second.messages(first, "arbiter"))
    assert told[0][1]["alert"] == "The tactile board differs after half-move 1; squares: e4"
    assert 'id="table-1"' in told[0][1]["attention"]
    third = answers(parted, version=3)
    assert [k for k, _ in _events(third.messages(second, "arbiter"))] == ["page"]      # nothing new of the table
    assert _events(answers(parted, version=4).messages(None, "arbiter"))[0][1]["alert"] is None   # a page opened now
    public = _events(second.messages(first, "public"))
    assert public[0][1]["announce"] == "Game 1, Anna – Bert: 1. e4" and "section" in public[0][1]
    assert "notices" not in public[-1][1] and public[-1][1]["games"] == 1
    # the same game turning stale with the time alone is news, and its pieces are made again
    later = Answers(State(((1, base),), ((1, base),), (), (), base.changed + 600.0), config, pieces, 5)
    assert [k for k, _ in _events(later.messages(first, "public"))] == ["game", "page"]
    assert "no news from the table" in later.public("/").body.decode()
    assert "no news from the table" not in first.public("/").body.decode()


def test_a_file_that_holds_no_game_appearing_in_the_hall_is_told_to_the_arbiter_at_the_next_look(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl")
    b = _looked_at_by_hand([tmp_path], clock=lambda: time.time() + 100.0)
    try:
        changes = b.changes
        (tmp_path / "b.jsonl").write_text("not a journal\n", encoding="utf-8")
        assert b.refresh() is True and b.changes == changes + 1
        assert wait_for(lambda: b"b.jsonl" in fetch(b.url + "arbiter")[1], 30)
        assert b.refresh() is False
        (tmp_path / "b.jsonl").unlink()
        game.play("e2e4")
        assert b.refresh() is True
    finally:
        b.stop()
        game.session.close()


def test_a_broadcast_left_alone_hands_on_no_new_state_however_often_it_looks(tmp_path: Path, monkeypatch):
    looks = [0]
    real_poll = watch.Watcher.poll

    def counted(self) -> bool:
        looks[0] += 1
        return real_poll(self)

    monkeypatch.setattr(watch.Watcher, "poll", counted)
    game = _Game(tmp_path / "a.jsonl")
    game.play("e2e4")
    b = Broadcast([tmp_path], lang="en", port=0, poll=0.01, clock=lambda: time.time() + 100.0)
    b.start()
    try:
        assert b.ready(60)
        assert [t.daemon for t in threading.enumerate() if t.name == "broadcast-poll"] == [True]   # never holds the exit
        assert wait_for(lambda: looks[0] >= 6, 30)
        assert b.changes == 1
        game.play("e7e5")
        assert wait_for(lambda: b.changes == 2, 30)          # looked at by itself: the move is handed on
    finally:
        b.stop()
        game.session.close()
    b.wait()                                              # stopped: waiting for the stop returns at once


def test_a_broadcast_made_beyond_this_computer_gets_a_token_of_eighteen_random_bytes():
    tokens = {Broadcast([], lang="en", host="0.0.0.0").token for _ in range(3)}
    assert len(tokens) == 3 and all(t is not None and len(t) == 24 for t in tokens)    # 144 bits, URL-safe base64


def test_a_broadcast_whose_private_folder_was_cleared_away_still_stops(tmp_path: Path):
    # a system's cleaner may empty the temporary folders during a long broadcast
    b = _looked_at_by_hand([tmp_path])
    workdir = b._workdir
    assert workdir is not None and workdir.is_dir()
    shutil.rmtree(workdir)
    b.stop()
    assert b.connections == 0 and not workdir.exists()


def test_a_journal_that_can_no_longer_be_read_keeps_its_last_game_and_is_no_file_without_one(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl")
    game.play("e2e4")
    game.session.close()
    watcher = watch.Watcher([tmp_path], "en", tmp_path / "work", clock=lambda: EPOCH + 1000.0)
    (tmp_path / "work").mkdir()
    assert watcher.poll()
    (tmp_path / "a.jsonl").write_text("overwritten\n", encoding="utf-8")
    watcher.poll()
    assert [(n, g.sans) for n, g in watcher.games] == [(1, ("e4",))] and watcher.problems == []


# -- the move text written half-move by half-move -------------------------------------------------------------------

def _exported(start: chess.Board, plies: list[tuple[chess.Move, str]], result: str, opening: str) -> str:
    """The game as python-chess's exporter writes it (the text the broadcast must serve)."""
    game = chess.pgn.Game()
    game.headers["Result"] = result
    if start.fen() != chess.STARTING_FEN:
        game.setup(start)
    game.comment = opening
    node: chess.pgn.GameNode = game
    for move, comment in plies:
        node = node.add_variation(move)
        node.comment = comment
    return game.accept(chess.pgn.StringExporter(columns=80, headers=True, variations=True, comments=True)) + "\n\n"


def test_the_move_text_kept_up_to_date_is_the_exporter_s_text_after_every_change():
    # random games with comments of every length, so that the result meets the end of a line in every way

    starts = (chess.Board(), chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 7"))
    for seed in range(12):
        rng = random.Random(seed)
        start = starts[seed % 2]
        board = start.copy()
        plies: list[tuple[chess.Move, str]] = []
        opening = rng.choice(("", "Touched: white pawn on e2"))
        text = MoveText(start, "en")
        text.update(0, opening, [])
        for _ in range(rng.randrange(20, 60)):
            legal = list(board.legal_moves)
            if not legal:
                break
            move = rng.choice(legal)
            board.push(move)
            plies.append((move, rng.choice(("", "[%clk 1:30:00]", "x" * rng.randrange(1, 40)))))
            text.update(len(plies), "", plies[-1:])
            if rng.random() < 0.2:                            # the last move's comment changes (its press)
                plies[-1] = (move, plies[-1][1] + " [%emt 0:00:05]")
                text.update(len(plies), "", plies[-1:])
            if rng.random() < 0.05:                           # written again from the start
                text.update(0, opening, plies)
            for result in ("*", "1-0", "1/2-1/2"):
                expected = _exported(start, plies, result, opening)
                headers = chess.pgn.read_game(io.StringIO(expected)).headers
                assert text.text(headers, result) == expected, (seed, len(plies), result)
        replay = start.copy()
        sans = []
        for move, _ in plies:
            sans.append(replay.san(move))
            replay.push(move)
        assert text.sans == sans and text.plies == len(plies) and text.board == board


def test_the_score_in_the_broadcast_s_language_marks_check_and_mate_and_refuses_a_gap():
    text = MoveText(chess.Board(), "de")
    moves = [chess.Move.from_uci(u) for u in ("f2f3", "e7e5", "g2g4", "d8h4")]
    text.update(1, "", [(m, "") for m in moves])
    assert text.written == ["f3", "e5", "g4", "Dh4#"] and text.sans == ["f3", "e5", "g4", "Qh4#"]
    check = MoveText(chess.Board("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), "de")
    check.update(1, "", [(chess.Move.from_uci("a1a8"), "")])
    assert check.written == ["Ta8+"]
    with pytest.raises(ValueError):
        text.update(6, "", [])                                # half-move 6 follows no written half-move 5
    assert text.moves("1-0", plies=2) == ["1. f3 e5 1-0"]


# -- the table's report for the arbiter, event by event ---------------------------------------------------------------

def test_the_table_s_report_kept_event_by_event_is_the_report_made_afresh():
    s = Session.new(Player("Anna"), Player("Bert"), "60+0", now=0.0)
    watch_ = TableWatch()
    before = watch_.report(s, "en")
    assert before.running is None and before.clocks == (3600.0, 3600.0) and before.flags == () and before.claims == ()
    s.start_clock(0.0)
    assert watch_.report(s, "en").running == chess.WHITE
    s.claim(chess.BLACK, "threefold", 10.0)              # no repetition: rejected (Art. 9.2)
    s.claim(chess.WHITE, "fifty", 20.0)
    claims = watch_.report(s, "en").claims
    assert [(c.color, c.kind, c.upheld) for c in claims] == [(chess.BLACK, "threefold", False),
                                                             (chess.WHITE, "fifty", False)]
    s.tick(3601.0 + 240.0)                               # White's hour and the two minutes added are gone (Art. 6.9)
    s.tick(3700.0 + 240.0)
    after = watch_.report(s, "en")
    assert after.flags == (chess.WHITE,) and after.running is None and after.clocks[0] == 0.0
    assert (after.result, after.reason) == ("0-1", "time_forfeit")
    assert after == TableWatch().report(s, "en")
    untimed = Session.new(Player("Anna"), Player("Bert"), None, now=0.0)
    assert TableWatch().report(untimed, "en").clocks == (None, None)


# -- the connection guard: room made by closing the connection idle longest -----------------------------------------

class _Transport:
    def __init__(self) -> None:
        self.sent = b""
        self.closed = False
        self.eof = False

    def write(self, data: bytes) -> None:
        self.sent += data

    def can_write_eof(self) -> bool:
        return True

    def write_eof(self) -> None:
        self.eof = True

    def close(self) -> None:
        self.closed = True


class _Client:
    """A connection as the guard sees it: its address, whether a request is being answered, since when it is idle."""

    def __init__(self, peer: str, idle_since: float, busy: int = 0) -> None:
        self.peer, self.idle_since, self.busy, self.refused = peer, idle_since, busy, False
        self.transport = _Transport()
        self.forced = False

    def force_close(self) -> None:
        self.forced = True


def test_the_guard_closes_the_connection_idle_longest_to_make_room_and_turns_away_only_when_all_are_busy():
    async def run() -> None:
        guard = _Guard(3, 2, lambda code: None)
        a1, a2, a3 = _Client("A", 1.0), _Client("A", 2.0), _Client("A", 3.0)
        for c in (a1, a2, a3):
            guard.admit(c)                               # a third from A: A's connection idle longest makes room
        assert a1.forced and a1.transport.closed and not (a2.forced or a3.forced)
        assert list(guard.open) == [a2, a3] and guard.by_peer == {"A": 2}
        a2.busy = a3.busy = 1
        a4 = _Client("A", 4.0)
        guard.admit(a4)                                  # every one of A's is answering: turned away
        assert a4.refused and a4.transport.sent.startswith(b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n")
        assert a4.transport.eof and not a4.transport.closed and guard.by_peer == {"A": 2}
        b1 = _Client("B", 5.0)
        guard.admit(b1)
        assert list(guard.open) == [a2, a3, b1] and not b1.refused          # three in all: room enough
        c1 = _Client("C", 6.0)
        guard.admit(c1)                                  # a fourth in all: the one idle longest anywhere goes
        assert b1.forced and list(guard.open) == [a2, a3, c1] and guard.by_peer == {"A": 2, "C": 1}
        c1.busy = 1
        c2 = _Client("C", 7.0)
        guard.admit(c2)
        assert c2.refused and list(guard.open) == [a2, a3, c1]
        guard.release(a2)
        guard.release(a2)                                # released twice: counted once
        assert guard.by_peer == {"A": 1, "C": 1}
        guard.release(a3)
        assert guard.by_peer == {"C": 1}

    asyncio.run(run())


# -- what each address answers, for whom -------------------------------------------------------------------------------

def test_another_site_may_ask_before_reading_the_public_answers_but_not_the_arbiter_s(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl")
    b = _looked_at_by_hand([tmp_path], arbiter_token="hall-7")

    def ask(method: str, path: str, headers: dict[str, str] | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", b.port, timeout=30)
        conn.request(method, path, headers=headers or {})
        answer = conn.getresponse()
        body = answer.read()
        conn.close()
        return answer.status, answer.headers, body

    try:
        status, headers, body = ask("OPTIONS", "/games.json")        # a browser's CORS preflight
        assert (status, headers["Allow"], headers["Access-Control-Allow-Origin"], body) == \
            (204, "GET, HEAD, OPTIONS", "*", b"")
        status, headers, body = ask("OPTIONS", "/arbiter")
        assert status == 405 and headers["Allow"] == "GET, HEAD" and "Access-Control-Allow-Origin" not in headers
        assert tr("broadcast.error_title", "en", code=405).encode() in body
        assert headers["X-Frame-Options"] == "DENY"
        status, headers, _ = ask("GET", "/games.json")
        assert headers["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *"
        assert headers["Content-Type"] == "application/json; charset=utf-8"
        status, headers, _ = ask("GET", "/live.js")                   # public as the pages it serves
        assert status == 200 and headers["Access-Control-Allow-Origin"] == "*"
        status, headers, body = ask("GET", "/game/1.svg")
        assert status == 200 and headers["Content-Type"] == "image/svg+xml; charset=utf-8" and body.startswith(b"<svg")
        status, headers, body = ask("GET", "/nowhere")
        assert status == 404 and headers["Content-Type"] == "text/html; charset=utf-8"
        assert int(headers["Content-Length"]) == len(body) and "frame-ancestors *" in headers["Content-Security-Policy"]
        status, headers, body = ask("HEAD", "/events")
        assert status == 200 and headers["Content-Type"] == "text/event-stream; charset=utf-8" and body == b""
        status, headers, _ = ask("GET", "/arbiter/still?token=hall-7&lang=en&x=1")   # the token leaves, the rest stays
        assert status == 303 and headers["Location"] == "/arbiter/still?lang=en&x=1"
        assert headers["Cache-Control"] == "no-store"
        status, headers, _ = ask("GET", "/arbiter")
        assert status == 403 and headers["Cache-Control"] == "no-store" and headers["X-Frame-Options"] == "DENY"
    finally:
        b.stop()
        game.session.close()


def test_journals_given_one_by_one_are_numbered_in_the_order_given_and_a_file_given_twice_once(tmp_path: Path):
    games = [_Game(tmp_path / f"{name}.jsonl") for name in "ab"]
    (tmp_path / "work").mkdir()
    watcher = watch.Watcher([tmp_path / "b.jsonl", tmp_path / "a.jsonl", tmp_path], "en", tmp_path / "work",
                            clock=lambda: EPOCH + 1000.0)
    try:
        assert watcher.poll()
        assert [(n, g.path.name) for n, g in watcher.games] == [(1, "b.jsonl"), (2, "a.jsonl")]
    finally:
        for game in games:
            game.session.close()


def _timed_journal(path: Path, now: float) -> Session:
    """A journal begun at ``now`` (the table's clock), 1. e4 made at +10 and pressed at +11, 1... e5 at +20 and +21."""
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=path, now=now)
    s.start_clock(now)
    for i, uci in enumerate(("e2e4", "e7e5")):
        s.board_move("sighted", chess.Move.from_uci(uci), now + 10.0 * (i + 1))
        s.press_clock(chess.WHITE if i == 0 else chess.BLACK, now + 10.0 * (i + 1) + 1.0)
    s.close()
    return s


def test_a_table_clock_from_the_time_of_day_on_dates_each_line_by_it(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    _timed_journal(path, _EPOCH)                   # the very first second that counts as the time of day
    follower = GameFollower(path, "en", tmp_path)
    assert follower.look()
    data = path.read_bytes()
    upto = follower.offset_at(_EPOCH + 10.5)
    assert b'"uci":"e2e4"' in data[:upto] and b'"type":"press"' not in data[:upto]
    assert follower.offset_at(_EPOCH - 0.5) == 0 and follower.game is not None
    assert follower.game.clock_at == _EPOCH + 21.0            # the clocks as of the last line, by the table's clock
    begun = tmp_path / "begun.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=begun, now=_EPOCH)
    s.start_clock(_EPOCH)
    s.close()
    assert read_game(begun, "en", tmp_path).clock_at == _EPOCH    # its very first second is the time of day too


def test_a_table_clock_counting_from_the_game_s_start_is_dated_back_from_the_file_s_last_change(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    _timed_journal(path, 0.0)                      # a script's clock: seconds from the game's start
    _touched(path, EPOCH)                          # the last line (+21) was written at EPOCH
    follower = GameFollower(path, "en", tmp_path)
    assert follower.look() and follower.game is not None and follower.game.clock_at == EPOCH
    data = path.read_bytes()
    e4_made = follower.offset_at(EPOCH - 11.0)     # 1. e4 made at +10: 11 seconds before the last line
    assert b'"uci":"e2e4"' in data[:e4_made] and b'"type":"press"' not in data[:e4_made]
    assert follower.offset_at(EPOCH - 11.5) < e4_made
    assert follower.offset_at(EPOCH - 1.0) < follower.offset_at(EPOCH) == len(data)
    assert follower.offset_at(EPOCH - 21.5) == 0


# -- the served PGN's last move: its time before the press, the adjournment -------------------------------------------

def _last_node(pgn: str) -> chess.pgn.GameNode:
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None
    return game.end()


def test_the_newest_move_made_but_not_pressed_carries_the_mover_s_time_when_he_made_it(tmp_path: Path):
    # as an e-board broadcast reports a move the moment it is seen on the board (D.2.4: the press completes it)
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    follower = GameFollower(path, "en", tmp_path)
    follower.look()
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 10.0)
    assert follower.look() and follower.game is not None
    for pgn in (follower.game.pgn, read_game(path, "en", tmp_path).pgn):
        assert _last_node(pgn).clock() == 5390.0                   # 90 minutes less the 10 seconds he thought
        assert tr("broadcast.pgn_adjourned", "en") not in pgn
    s.press_clock(chess.WHITE, 12.0)
    assert follower.look() and _last_node(follower.game.pgn).clock() == 5418.0     # pressed: 30 seconds added
    s.board_move("sighted", chess.Move.from_uci("e7e5"), 20.0)
    s.resign(chess.WHITE, 21.0)                                # the game over: his time when it ended, in the record
    s.close()
    assert follower.look() and _last_node(follower.game.pgn).clock() == 5391.0
    assert _last_node(read_game(path, "en", tmp_path).pgn).clock() == 5391.0


def test_after_a_ruling_the_newest_move_not_yet_pressed_carries_its_time_too(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    diverged(path)                             # 1. e4 on the pegs, d2-d4 wrongly on the sighted board (D.2.9)
    s = Session.open(path, now=5.0)
    ruling = s.propose_ruling("en")
    assert ruling is not None
    s.apply_ruling(ruling, 6.0)
    s.board_move("sighted", chess.Move.from_uci("e7e5"), 10.0)       # Black's clock runs since the press at 2.0
    s.close()
    served = read_game(path, "en", tmp_path)
    node = _last_node(served.pgn)
    assert node.move == chess.Move.from_uci("e7e5") and node.clock() == 5393.0
    assert served.last == chess.Move.from_uci("e7e5")            # the move the diagram marks
    assert tr("broadcast.pgn_adjourned", "en") not in served.pgn
    s = Session.open(path, now=30.0)
    s.adjourn(31.0)                                              # adjourned after the ruling (Guidelines I)
    s.close()
    node = _last_node(read_game(path, "en", tmp_path).pgn)
    assert node.comment.endswith(tr("broadcast.pgn_adjourned", "en"))


def test_an_adjourned_game_says_so_on_its_last_move_or_before_the_first(tmp_path: Path):
    told = tr("broadcast.pgn_adjourned", "en")
    for moves in ((), ("e2e4",)):
        path = tmp_path / f"g{len(moves)}.jsonl"
        s = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=path, now=0.0)
        s.start_clock(0.0)
        follower = GameFollower(path, "en", tmp_path)
        follower.look()
        for uci in moves:
            s.board_move("sighted", chess.Move.from_uci(uci), 10.0)
            s.press_clock(chess.WHITE, 11.0)
        s.adjourn(20.0)
        s.close()
        assert follower.look() and follower.game is not None
        for pgn in (follower.game.pgn, read_game(path, "en", tmp_path).pgn):
            game = chess.pgn.read_game(io.StringIO(pgn))
            assert game is not None and game.headers["Result"] == "*"
            assert game.end().comment.endswith(told), pgn
            assert pgn.count(told) == 1


def _started_one_look_at_a_time(tmp_path: Path, monkeypatch, names: str):
    """A broadcast of ``names``' journals whose every look at a journal takes a second on its stopwatch (so each
    poll reads one), its second poll held until the test lets it go. Returns (broadcast, games, let go)."""

    gate = threading.Event()
    polls = [0]
    real_poll = watch.Watcher.poll

    def held(self) -> bool:
        polls[0] += 1
        if polls[0] == 2:
            assert gate.wait(60)
        return real_poll(self)

    monkeypatch.setattr(watch.Watcher, "poll", held)
    games = [_Game(tmp_path / f"{name}.jsonl") for name in names]
    b: Broadcast

    def stopwatch() -> float:
        w = b._watcher
        return 0.0 if w is None else float(sum(e.follower.whole_reads for e in w._entries.values()))

    b = Broadcast([tmp_path], lang="en", port=0, poll=0.01, timer=stopwatch)
    b.start()
    assert wait_for(lambda: polls[0] >= 2, 30)         # the first poll is over, the second waits
    return b, games, gate


def test_a_broadcast_is_ready_only_once_every_journal_found_is_read_and_served(tmp_path: Path, monkeypatch):
    b, games, gate = _started_one_look_at_a_time(tmp_path, monkeypatch, "abc")
    try:
        assert b.ready(0) is False and b.behind                       # one game read and served, two waiting
        assert len(json.loads(fetch(b.url + "games.json")[1])) == 1
        gate.set()
        assert b.ready(60) and not b.behind
        assert len(json.loads(fetch(b.url + "games.json")[1])) == 3
    finally:
        gate.set()
        b.stop()
        for game in games:
            game.session.close()


def test_a_broadcast_whose_last_journal_waiting_at_the_start_is_gone_is_ready_with_the_others(tmp_path: Path,
                                                                                              monkeypatch):
    b, games, gate = _started_one_look_at_a_time(tmp_path, monkeypatch, "ab")
    try:
        assert b.ready(0) is False
        (tmp_path / "b.jsonl").unlink()                               # removed before it was read
        gate.set()
        assert b.ready(60) and len(json.loads(fetch(b.url + "games.json")[1])) == 1
    finally:
        gate.set()
        b.stop()
        for game in games:
            game.session.close()


def test_a_live_stream_with_more_messages_waiting_than_its_queue_holds_is_dropped_and_the_others_go_on(
        tmp_path: Path, monkeypatch):

    monkeypatch.setattr(hall, "QUEUE", 3)            # messages that may wait, as a small number (the program's: 256)
    monkeypatch.setattr(hall, "PING", 3600.0)        # the dropped stream's connection ends with the drop itself
    game = _Game(tmp_path / "a.jsonl")
    b = _looked_at_by_hand([tmp_path])
    reader = EventReader(b.url + "events")
    try:
        assert wait_for(lambda: reader.of("page"), 30) and b.hall is not None and b.hall.streams == 1
        state = b.hall._state
        b._server.call(lambda: [b.hall.publish(state) for _ in range(4)])     # four messages at once: one too many
        assert wait_for(lambda: b.hall.streams == 0, 30)
        assert wait_for(lambda: not reader._thread.is_alive(), 30)          # its connection closed
        again = EventReader(b.url + "events")        # the browser connects again and catches up
        try:
            assert wait_for(lambda: again.of("page"), 30) and b.hall.streams == 1
            b._server.call(lambda: [b.hall.publish(state) for _ in range(3)])     # three at once: room enough
            assert wait_for(lambda: len(again.of("page")) == 4, 30) and b.hall.streams == 1
        finally:
            again.close()
    finally:
        reader.close()
        b.stop()
        game.session.close()


def test_a_broadcast_stopped_with_clients_connected_can_listen_on_its_port_again_at_once(tmp_path: Path):
    # the window's broadcast is stopped and started again on its own port: the connections the stop closed must
    # not hold the port for minutes (TIME_WAIT)

    b = _looked_at_by_hand([tmp_path])
    port = b.port
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/games.json")
    assert conn.getresponse().read() == b"[]\n"
    b.stop()
    conn.close()
    again = Broadcast([tmp_path], lang="en", port=port, poll=3600.0)
    again.start()
    try:
        assert again.port == port and fetch(again.url + "games.json")[0] == 200
    finally:
        again.stop()


def test_a_broadcast_listens_on_an_ipv6_address_too(tmp_path: Path):
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback on this computer")
    b = Broadcast([tmp_path], lang="en", host="::1", port=0, poll=3600.0)
    b.start()
    try:
        assert b.url.startswith("http://[::1]:") and fetch(b.url + "games.json")[0] == 200
    finally:
        b.stop()


def test_what_one_thread_hands_another_cannot_be_changed_afterwards(tmp_path: Path):
    # the reading thread hands games, reports and states to the server's loop; the answers made from them are
    # shared by every request: none of them can be changed once made



    game = _Game(tmp_path / "a.jsonl")
    game.session.close()
    live = read_game(tmp_path / "a.jsonl", "en", tmp_path)
    made = (live, live.state, ClaimRecord(chess.WHITE, "fifty", None), Page.of("x", "text/plain"),
            State((), (), (), (), 0.0), Config("en", 600.0), LichessTarget("AbCd1234", "t"))
    for value in made:
        field = dataclasses.fields(value)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, field, None)


def test_a_folder_whose_games_file_cannot_be_written_from_the_start_is_told_at_once(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl")
    out = tmp_path / "live"
    (out / "games.pgn").mkdir(parents=True)            # the folder can be written, its games file cannot
    told: list[str] = []
    b = _looked_at_by_hand([tmp_path / "a.jsonl"], folder=out, on_problem=told.append)
    try:
        assert len(told) == 1 and "games.pgn" in told[0]
    finally:
        b.stop()
        game.session.close()


def test_names_are_served_as_written_in_the_json_and_the_live_stream(tmp_path: Path):
    # UTF-8 as the pages are: a club's program and a person reading the file see "Jürgen Müller", not escapes

    path = tmp_path / "a.jsonl"
    s = Session.new(Player("Jürgen Müller"), Player("Алёна"), "90+30", journal=path, now=EPOCH)
    s.close()
    game = read_game(path, "en", tmp_path)
    answers = Answers(State(((1, game),), ((1, game),), (), (), EPOCH), Config("en", 600.0), Pieces(), 1)
    for body in (answers.public("/games.json").body, answers.public("/game/1.json").body,
                 b"".join(answers.messages(None, "public"))):
        assert "Jürgen Müller".encode() in body and "Алёна".encode() in body


def _idle_connections(port: int, hosts: list[str]) -> list:
    """One connection to ``port`` from each of ``hosts`` (loopback addresses), in order, sending nothing."""

    out = []
    for host in hosts:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((host, 0))
        sock.connect(("127.0.0.1", port))
        out.append(sock)
    return out


def _closed_by_the_server(sock) -> bool:
    sock.settimeout(30)
    try:
        return sock.recv(1) == b""
    except OSError:
        return True


def _still_open(sock) -> bool:
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    finally:
        sock.setblocking(True)


def test_sixty_four_connections_from_one_address_and_768_in_all_then_the_idle_longest_makes_room(tmp_path: Path):
    # the bounds the developer guide names (server.py): no head ever sent, none answering, so each is idle

    b = _looked_at_by_hand([tmp_path], head_timeout=3600.0)
    socks: list = []
    try:
        socks += _idle_connections(b.port, ["127.0.0.2"] * PER_CLIENT)
        assert wait_for(lambda: b.connections == PER_CLIENT, 30) and _still_open(socks[0])
        socks += _idle_connections(b.port, ["127.0.0.2"])               # one more from the same address
        assert _closed_by_the_server(socks[0]) and _still_open(socks[1])
        others = [f"127.0.1.{i}" for i in range(1, 40) for _ in range(20)][:MAX_CONNECTIONS - PER_CLIENT]
        socks += _idle_connections(b.port, others)                      # 768 in all
        assert wait_for(lambda: b.connections == MAX_CONNECTIONS, 30) and _still_open(socks[1])
        socks += _idle_connections(b.port, ["127.0.2.1"])               # one more: the idle longest anywhere goes
        assert _closed_by_the_server(socks[1]) and _still_open(socks[2])
        assert (PER_CLIENT, MAX_CONNECTIONS) == (64, 768)
    finally:
        for sock in socks:
            sock.close()
        b.stop()


def test_a_request_the_broadcast_fails_on_is_answered_500_in_its_language_and_noted(caplog):
    async def failing(request):
        raise RuntimeError("a fault of the broadcast")

    server = HttpServer("127.0.0.1", 0, failing, lambda code: error_page(code, "de"), "de")
    server.start()
    try:
        with caplog.at_level(logging.DEBUG, logger="blindchess.broadcast"):
            status, body, headers = fetch(f"http://127.0.0.1:{server.port}/")
        assert status == 500 and tr("broadcast.error_title", "de", code=500).encode() in body
        assert headers["Connection"] == "close" and b"a fault of the broadcast" not in body
        assert [r.exc_info[1].args[0] for r in caplog.records if r.exc_info] == ["a fault of the broadcast"]
        assert [t.daemon for t in threading.enumerate() if t.name == "broadcast-http"] == [True]
    finally:
        server.stop()


def test_a_port_windows_says_is_taken_is_told_as_a_port_in_use(monkeypatch):
    class Taken(socket.socket):
        def bind(self, address) -> None:
            error = OSError(0, "Only one usage of each socket address is normally permitted")
            error.winerror = 10048           # type: ignore[attr-defined]   # WSAEADDRINUSE
            raise error

    monkeypatch.setattr(server.socket, "socket", Taken)
    with pytest.raises(UserError) as refused:
        server._listen("127.0.0.1", 8765, "en")
    assert refused.value.message == tr("broadcast.port_in_use", "en", host="127.0.0.1", port=8765)


def test_the_open_files_limit_raised_on_systems_whose_hard_limit_is_unlimited_or_high(monkeypatch):
    unlimited = resource.RLIM_INFINITY
    for limits, wanted in (((256, unlimited), (65536, unlimited)), ((256, 100000), (65536, 100000)),
                           ((unlimited, unlimited), None), ((65536, 100000), None)):
        calls: list[tuple[int, int]] = []
        monkeypatch.setattr(resource, "getrlimit", lambda kind, limits=limits: limits)
        monkeypatch.setattr(resource, "setrlimit", lambda kind, new, calls=calls: calls.append(new))
        server._more_files()
        assert calls == ([wanted] if wanted else []), limits


def test_a_client_that_leaves_a_live_stream_is_let_go_at_once(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(hall, "PING", 3600.0)        # no comment comes to find it out: the leaving itself does
    b = _looked_at_by_hand([tmp_path])
    reader = EventReader(b.url + "events")
    try:
        assert wait_for(lambda: reader.of("page"), 30) and b.hall is not None and b.hall.streams == 1
        import socket

        reader.sock.shutdown(socket.SHUT_RDWR)        # the browser's tab closed: the connection ends
        assert wait_for(lambda: b.hall.streams == 0, 30)
    finally:
        reader.close()
        b.stop()


def test_the_texts_a_page_gives_its_script_are_written_as_they_are_said():
    page = spectators_page([], "ru", "12:00:00", now=EPOCH, stale_after=600.0)
    texts = re.search(r'data-texts="([^"]*)"', page)
    assert texts is not None and tr("broadcast.connection_lost", "ru") in texts.group(1)


def test_a_request_s_head_is_answered_up_to_its_bounds_and_refused_400_beyond(tmp_path: Path):
    # the bounds the developer guide names: a path of 2048 bytes, a header line of 8190, 64 header lines

    b = _looked_at_by_hand([tmp_path])

    def status(request: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", b.port), timeout=30) as sock:
            sock.sendall(request)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        return answer[:12]

    try:
        assert status(b"GET /" + b"a" * 2047 + b" HTTP/1.0\r\n\r\n") == b"HTTP/1.0 404"
        assert status(b"GET /" + b"a" * 2048 + b" HTTP/1.0\r\n\r\n") == b"HTTP/1.0 400"
        assert status(b"GET / HTTP/1.0\r\nX: " + b"b" * 8189 + b"\r\n\r\n") == b"HTTP/1.0 200"
        assert status(b"GET / HTTP/1.0\r\nX: " + b"b" * 8190 + b"\r\n\r\n") == b"HTTP/1.0 400"
        for lines, answer in ((64, b"HTTP/1.0 200"), (65, b"HTTP/1.0 400")):
            head = b"".join(b"X-%d: 1\r\n" % i for i in range(lines))
            assert status(b"GET / HTTP/1.0\r\n" + head + b"\r\n") == answer
    finally:
        b.stop()


def test_a_card_gives_the_clocks_in_tenths_of_a_second_as_of_a_moment_in_milliseconds(tmp_path: Path):
    path = tmp_path / "a.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=path, now=EPOCH)
    s.start_clock(EPOCH)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), EPOCH + 10.25)
    s.close()
    game = read_game(path, "en", tmp_path)
    game = dataclasses.replace(game, clock_at=EPOCH + 10.123456)
    clocks = clock_state(game)
    assert clocks == {"white": 5389.8, "black": 5400.0, "running": "white", "at": EPOCH + 10.123}
    assert game_card(3, game, EPOCH + 11.0, 600.0)["clocks"] == clocks
    # a running game's clock runs on the card whatever the stale bound; a game stale at exactly the bound
    assert status_of(game, game.changed + 1.0, 1.0) == "stale" and status_of(game, game.changed + 0.5, 1.0) == "live"
    assert status_of(game, game.changed + 1e9, 0.0) == "live"          # 0: never stale


def test_the_live_stream_says_the_server_s_moment_to_the_millisecond(tmp_path: Path):
    # the pages' clocks tick from the card's "at" and the server's "now" (the viewer's own clock does not matter)

    game = _Game(tmp_path / "a.jsonl")
    game.session.close()
    live = read_game(tmp_path / "a.jsonl", "en", tmp_path)
    answers = Answers(State(((1, live),), ((1, live),), (), (), EPOCH + 0.123456), Config("en", 600.0), Pieces(), 1)
    told = _events(answers.messages(None, "public"))
    assert [data["now"] for _, data in told] == [EPOCH + 0.123, EPOCH + 0.123]


def test_each_address_has_its_own_share_of_live_streams_and_the_hall_its_bound(tmp_path: Path, monkeypatch):
    # the bounds the developer guide names: 32 live streams from one address, 512 in all, 256 messages waiting

    assert (hall.STREAMS_PER_CLIENT, hall.MAX_STREAMS, hall.QUEUE) == (32, 512, 256)
    monkeypatch.setattr(hall, "STREAMS_PER_CLIENT", 2)
    game = _Game(tmp_path / "a.jsonl")
    b = _looked_at_by_hand([tmp_path])
    readers: list[EventReader] = []

    def opened(source: str, audience: str = "events") -> EventReader:
        reader = EventReader(b.url + audience, source=source)
        readers.append(reader)
        assert wait_for(lambda: reader.status is not None, 30)
        return reader

    try:
        first = [opened("127.0.0.2"), opened("127.0.0.2", "arbiter/events")]
        assert all(r.status == 200 for r in first)
        assert "Access-Control-Allow-Origin" in first[0].raw.split(b"\r\n\r\n")[0].decode()
        assert "Access-Control-Allow-Origin" not in first[1].raw.split(b"\r\n\r\n")[0].decode()
        assert opened("127.0.0.2").status == 503                  # that address has its share
        assert opened("127.0.0.3").status == 200                  # another has its own
    finally:
        for reader in readers:
            reader.close()
        b.stop()
        game.session.close()


def test_a_page_is_caught_up_from_any_of_the_last_32_states_and_a_stream_holds_256_messages(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl")
    b = _looked_at_by_hand([tmp_path])
    readers: list[EventReader] = []

    def games_sent(since: int) -> list[int]:
        reader = EventReader(b.url + f"events?v={since}")
        readers.append(reader)
        assert wait_for(lambda: reader.of("page"), 30) and reader.status == 200
        reader.close()
        return [g["number"] for g in reader.of("game")]

    try:
        assert b.hall is not None
        state = b.hall._state
        listening = EventReader(b.url + "events")
        readers.append(listening)
        assert wait_for(lambda: listening.of("page"), 30) and b.hall.streams == 1
        b._server.call(lambda: [b.hall.publish(state) for _ in range(256)])   # 256 messages at once: it holds them
        assert wait_for(lambda: len(listening.of("page")) == 257, 30) and b.hall.streams == 1
        b._server.call(lambda: [b.hall.publish(state) for _ in range(257)])   # 257 at once: one too many
        assert wait_for(lambda: b.hall.streams == 0, 30)
        now = b.hall.version
        assert games_sent(now - 31) == [] and games_sent(now - 32) == [1]      # 32 states remembered
    finally:
        for reader in readers:
            reader.close()
        b.stop()
        game.session.close()


def test_a_pipe_named_like_a_journal_is_never_waited_on_and_is_told_as_no_journal(tmp_path: Path):
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes on this system")
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    follower = GameFollower(fifo, "en", tmp_path)
    assert follower.look() is False and follower.game is None
    assert follower.problem == tr("broadcast.not_a_journal", "en", path="pipe.jsonl")


def test_new_units_are_dated_when_read_or_by_the_table_s_clock_when_that_is_later(tmp_path: Path):
    # a follower held back reads a unit only once it is as old as the delay, however early it was read
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=path, now=EPOCH)
    s.start_clock(EPOCH)
    now = [EPOCH + 5.0]                          # the broadcast's clock: behind the table's
    follower = GameFollower(path, "en", tmp_path, clock=lambda: now[0])
    assert follower.look()
    start = path.stat().st_size
    s.board_move("sighted", chess.Move.from_uci("e2e4"), EPOCH + 10.0)
    s.press_clock(chess.WHITE, EPOCH + 11.0)
    assert follower.look() and follower.tail_reads == 1
    assert follower.offset_at(EPOCH + 9.0) == start            # not yet written by the table's clock
    assert follower.offset_at(EPOCH + 11.0) == path.stat().st_size
    now[0] = EPOCH + 50.0                       # read later than the table wrote it: dated when read
    s.board_move("sighted", chess.Move.from_uci("e7e5"), EPOCH + 20.0)
    s.close()
    before = follower.offset_at(EPOCH + 49.0)
    assert follower.look() and follower.offset_at(EPOCH + 49.0) == before < follower.offset_at(EPOCH + 50.0)
    script = tmp_path / "s.jsonl"                # a script's clock (not the time of day): dated when read
    t = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=script, now=0.0)
    t.start_clock(0.0)
    _touched(script, EPOCH)
    reader = GameFollower(script, "en", tmp_path, clock=lambda: EPOCH + 7.0)
    assert reader.look()
    t.board_move("sighted", chess.Move.from_uci("e2e4"), 10.0)
    t.close()
    assert reader.look() and reader.offset_at(EPOCH + 7.0) == script.stat().st_size
    assert reader.offset_at(EPOCH + 6.9) < script.stat().st_size


def test_damage_that_touches_no_half_move_keeps_the_game_and_its_result_and_says_so_on_its_last_move(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    for i, uci in enumerate(("e2e4", "e7e5", "g1f3")):
        s.board_move("sighted", chess.Move.from_uci(uci), 10.0 * (i + 1))
        s.press_clock(chess.WHITE if i % 2 == 0 else chess.BLACK, 10.0 * (i + 1) + 1.0)
    s.resign(chess.BLACK, 40.0)
    s.close()
    data = path.read_bytes()
    at = data.index(b'"white":', data.index(b'"type":"clock"')) + 9      # a digit of a clock line: its check fails
    path.write_bytes(data[:at] + (b"9" if data[at:at + 1] != b"9" else b"8") + data[at + 1:])
    game = read_game(path, "en", tmp_path)
    assert game.damage and not game.cut and game.sans == ("e4", "e5", "Nf3") and game.result == "1-0"
    pgn = chess.pgn.read_game(io.StringIO(game.pgn))
    assert pgn is not None and pgn.headers["Termination"] == "normal"
    last = pgn.end().comment
    assert " ".join(game.damage) in last and "End of the game: resignation." in last
    assert tr("broadcast.damage_kept", "en", plies=3) not in game.pgn


def test_the_window_s_broadcast_tells_why_it_cannot_start_and_says_nothing_when_nothing_changes(tmp_path: Path):
    game = _Game(tmp_path / "a.jsonl")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        window = WindowBroadcast(port, "en")
        assert window.follow(tmp_path / "a.jsonl") == tr("broadcast.port_in_use", "en", host="127.0.0.1", port=port)
        assert window.url is None
    window = WindowBroadcast(port, "en")
    try:
        assert window.follow(tmp_path / "a.jsonl") == tr("broadcast.window_started", "en",
                                                         url=f"http://127.0.0.1:{port}/")
        assert window.url == f"http://127.0.0.1:{port}/"
        assert window.follow(tmp_path / "a.jsonl") is None            # the same game: nothing to tell
        assert window.follow(None) is None and window.url is None
    finally:
        window.close()
        game.session.close()


def test_a_game_without_a_time_control_serves_no_clock_for_its_newest_move(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), None, journal=path, now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 10.0)
    s.close()
    game = read_game(path, "en", tmp_path)
    assert game.sans == ("e4",) and _last_node(game.pgn).clock() is None and "%clk" not in game.pgn


def test_the_newest_move_of_either_side_not_yet_pressed_carries_its_mover_s_time(tmp_path: Path):
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", journal=path, now=0.0)
    s.start_clock(0.0)
    for i, uci in enumerate(("e2e4", "e7e5")):
        s.board_move("sighted", chess.Move.from_uci(uci), 10.0 * (i + 1))
        s.press_clock(chess.WHITE if i == 0 else chess.BLACK, 10.0 * (i + 1) + 1.0)
    s.board_move("sighted", chess.Move.from_uci("g1f3"), 40.0)       # White's second move, his clock running since 21
    s.close()
    assert _last_node(read_game(path, "en", tmp_path).pgn).clock() == 5400.0 - 11.0 + 30.0 - 19.0


def test_the_move_text_begins_from_its_start_position_not_the_moves_that_led_there():
    # a game set up from a position (an imported or Chess960 start): the board's history is no part of this game
    start = chess.Board()
    for uci in ("e2e4", "e7e5"):
        start.push_uci(uci)
    text = MoveText(start, "en")
    assert text.board.move_stack == [] and text.board.fen() == start.fen()
    text.update(1, "", [(chess.Move.from_uci("g1f3"), "")])
    assert text.board.move_stack == [chess.Move.from_uci("g1f3")] and text.sans == ["Nf3"]
    assert text.moves("*") == ["2. Nf3 *"]
    assert start.move_stack == [chess.Move.from_uci("e2e4"), chess.Move.from_uci("e7e5")]    # its own left alone
