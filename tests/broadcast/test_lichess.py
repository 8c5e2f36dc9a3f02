"""The push to a Lichess broadcast round, against a local stand-in that checks each request as Lichess's API
documentation describes ``POST /api/broadcast/round/{broadcastRoundId}/push`` (operation ``broadcastPush``) and
answers as it documents. Lichess itself cannot be reached from here; everything else is real: the broadcast
on a free port, journals written as at the table, aiohttp on both ends."""

from __future__ import annotations

import asyncio
import io
import json
import re
import threading
from pathlib import Path

import chess
import chess.pgn
import pytest
from aiohttp import web

from blindchess.base.i18n import tr
from blindchess.broadcast import Broadcast, LichessTarget
from blindchess.broadcast import lichess as push
from blindchess.cli import main
from blindchess.game import Player, Session
from tests.support.broadcast import fetch
from tests.support.waiting import wait_for

TOKEN = "lip_hallTokenForTests123"
ROUND = "AbCd1234"


class StandIn:
    """Lichess's push endpoint as documented: a bearer token with study:write, ``text/plain`` PGN, an 8-character
    round id, games separated by a blank line, at most 64 a round. Answers ``{"games": [{"tags", "moves"} or
    {"tags", "error"}]}``; a game whose White is called "Refused" gets an error. ``fail``: what the next pushes
    meet ("drop" — the connection closed —, "proxy" — a proxy's 502 page —, or a status such as 500 or 429)."""

    def __init__(self) -> None:
        self.pushes: list[str] = []
        self.checked: list[str] = []          # what was wrong with a request (must stay empty)
        self.fail: list[str | int] = []
        self.attempts = 0
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(30)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        app = web.Application()
        app.router.add_post("/api/broadcast/round/{round}/push", self.push)
        self.runner = web.AppRunner(app)
        self.loop.run_until_complete(self.runner.setup())
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]       # type: ignore[union-attr]
        self.ready.set()
        self.loop.run_forever()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def push(self, request: web.Request) -> web.StreamResponse:
        self.attempts += 1
        if self.fail:
            what = self.fail.pop(0)
            if what == "drop":
                assert request.transport is not None
                request.transport.close()
                return web.Response(status=500)
            if what == "proxy":                # a proxy's own page, not Lichess's JSON
                return web.Response(text="<html>Bad Gateway</html>", status=502, content_type="text/html")
            return web.json_response({"error": "try later"}, status=int(what))
        problems = []
        if not re.fullmatch(r"[A-Za-z0-9]{8}", request.match_info["round"]):
            problems.append("round id")
        if request.headers.get("Authorization") != f"Bearer {TOKEN}":
            problems.append("token")
        if request.content_type != "text/plain":
            problems.append("content type " + request.content_type)
        text = (await request.read()).decode("utf-8")
        games = []
        stream = io.StringIO(text)
        while (game := chess.pgn.read_game(stream)) is not None:
            if game.errors:
                problems.append(f"PGN: {game.errors}")
            games.append(game)
        if text.count("[Event ") != len(games) or "\n\n[Event " not in "\n\n" + text:
            problems.append("games not separated by a blank line")
        if len(games) > 64:
            problems.append("more than 64 games")
        self.checked += problems
        if problems:
            return web.json_response({"error": "; ".join(problems)}, status=400)
        self.pushes.append(text)
        answer = []
        for game in games:
            tags = {k: v for k, v in game.headers.items() if k in ("White", "Black", "Result", "Event")}
            if game.headers.get("White") == "Refused":
                answer.append({"tags": tags, "error": "Invalid PGN: a player cannot be named like that"})
            else:
                answer.append({"tags": tags, "moves": len(list(game.mainline_moves()))})
        return web.json_response({"games": answer})

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self.runner.cleanup(), self.loop).result(30)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(30)


@pytest.fixture
def lichess(monkeypatch):
    monkeypatch.setattr(push, "FIRST_PAUSE", 0.2)
    monkeypatch.setattr(push, "MIN_INTERVAL", 0.05)
    monkeypatch.setattr(push, "RATE_PAUSE", 0.5)
    stand_in = StandIn()
    yield stand_in
    stand_in.close()


@pytest.fixture
def broadcasting(tmp_path: Path, lichess: StandIn):
    started: list[Broadcast] = []
    told: list[str] = []

    def start(**options) -> Broadcast:
        b = Broadcast([tmp_path / "hall"], lang="en", port=0, lichess=LichessTarget(ROUND, TOKEN, lichess.url),
                      on_problem=told.append, **options)
        b.start()
        started.append(b)
        assert b.ready(60)
        return b

    start.told = told     # type: ignore[attr-defined]
    yield start
    for b in started:
        b.stop()


def game(path: Path, white: str, black: str) -> Session:
    path.parent.mkdir(exist_ok=True)
    s = Session.new(Player(white), Player(black, True), "90+30", journal=path, now=2e9,
                    headers={"Event": "Open", "Round": "1"})
    s.start_clock(2e9)
    return s


def move(s: Session, uci: str, now: float) -> None:
    m = chess.Move.from_uci(uci)
    if s.snapshot.to_move == chess.WHITE:
        s.board_move("sighted", m, now)
        s.press_clock(chess.WHITE, now + 0.5)
        s.board_move("tactile", m, now + 1)
    else:
        s.board_move("tactile", m, now)
        s.announce(m, m.uci(), now + 0.5)
        s.press_clock(chess.BLACK, now + 1)
        s.board_move("sighted", m, now + 1.5)


def test_the_round_s_pgn_goes_to_lichess_as_documented_and_again_at_each_change(tmp_path: Path, lichess: StandIn,
                                                                                broadcasting) -> None:
    a = game(tmp_path / "hall" / "a.jsonl", "Anna", "Bert")
    b = game(tmp_path / "hall" / "b.jsonl", "Clara", "Dora")
    move(a, "e2e4", 2e9 + 10)
    broadcast = broadcasting()
    # the public PGN, every game (the first push may come before the second journal is read)
    assert wait_for(lambda: lichess.pushes and lichess.pushes[-1] == fetch(broadcast.url + "games.pgn")[1].decode(), 30)
    move(a, "e7e5", 2e9 + 20)
    move(b, "d2d4", 2e9 + 30)
    assert wait_for(lambda: "1... e5" in lichess.pushes[-1] and "1. d4" in lichess.pushes[-1], 30)
    assert lichess.checked == []
    assert broadcast.lichess is not None
    assert wait_for(lambda: broadcast.lichess.answers and broadcast.lichess.answers[-1]["games"][0]["moves"] == 2, 30)
    assert tr("broadcast.notices_none", "en").encode() in fetch(broadcast.url + "arbiter")[1]
    a.close()
    b.close()


def test_a_game_lichess_refuses_is_told_to_the_arbiter(tmp_path: Path, lichess: StandIn, broadcasting) -> None:
    game(tmp_path / "hall" / "a.jsonl", "Anna", "Bert").close()
    game(tmp_path / "hall" / "b.jsonl", "Refused", "Dora").close()
    broadcast = broadcasting()
    told = tr("broadcast.lichess_game_error", "en", number=2, players="Refused – Dora",
              error="Invalid PGN: a player cannot be named like that")
    assert wait_for(lambda: told in broadcasting.told, 30)
    assert wait_for(lambda: told in fetch(broadcast.url + "arbiter")[1].decode().replace("&#x27;", "'"), 30)
    assert "Refused" not in fetch(broadcast.url + "arbiter")[1].decode().split(tr("broadcast.notices_heading", "en"))[0]


def test_a_push_that_fails_is_tried_again_after_a_pause_and_nothing_is_lost(tmp_path: Path, lichess: StandIn,
                                                                           broadcasting) -> None:
    a = game(tmp_path / "hall" / "a.jsonl", "Anna", "Bert")
    lichess.fail = ["drop", 500, 429, 503]
    broadcast = broadcasting()
    assert wait_for(lambda: lichess.attempts >= 2, 30)
    assert wait_for(lambda: any(tr("broadcast.lichess_refused", "en", error="try later") == t or
                                t.startswith(tr("broadcast.lichess_unreachable", "en", error="")[:20])
                                for t in broadcasting.told), 30)
    for i, uci in enumerate(("e2e4", "e7e5", "g1f3", "b8c6")):     # moves made while Lichess fails
        move(a, uci, 2e9 + 10 * (i + 1))
    assert wait_for(lambda: lichess.pushes and "2... Nc6" in lichess.pushes[-1], 60)
    assert lichess.attempts >= 5 and lichess.checked == []
    pushed = chess.pgn.read_game(io.StringIO(lichess.pushes[-1]))
    assert [m.uci() for m in pushed.mainline_moves()] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert wait_for(lambda: tr("broadcast.notices_none", "en").encode() in fetch(broadcast.url + "arbiter")[1], 30)
    a.close()


def test_a_round_holds_at_most_64_games_and_the_arbiter_hears_of_the_others(tmp_path: Path, lichess: StandIn,
                                                                           broadcasting) -> None:
    for i in range(66):
        game(tmp_path / "hall" / f"{i:02d}.jsonl", f"White {i}", f"Black {i}").close()
    broadcasting()
    assert wait_for(lambda: lichess.pushes and "White 63" in lichess.pushes[-1], 60)     # read in the meantime
    assert lichess.pushes[-1].count("[Event ") == 64 and "White 64" not in lichess.pushes[-1]
    assert lichess.checked == []
    assert wait_for(lambda: tr("broadcast.lichess_too_many", "en", count=66, limit=64) in broadcasting.told, 30)


def test_the_command_line_asks_for_a_round_id_and_the_token(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.delenv("LICHESS_TOKEN", raising=False)
    with pytest.raises(SystemExit) as stop:
        main(["broadcast", str(tmp_path), "--port", "0", "--lichess-round", "nope", "--lang", "en"])
    assert stop.value.code == 2 and tr("broadcast.bad_round", "en", value="nope") in capsys.readouterr().err
    assert main(["broadcast", str(tmp_path), "--port", "0", "--lichess-round", ROUND, "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == tr("broadcast.lichess_no_token", "en", variable="LICHESS_TOKEN") and err.count("\n") == 1
    assert json.dumps(TOKEN) not in err


def _round_pgn(white: str, moves: str) -> str:
    return f'[Event "Open"]\n[White "{white}"]\n[Black "Bert"]\n[Result "*"]\n\n{moves} *\n\n'


def test_after_a_failed_push_the_pause_doubles_from_two_seconds_to_five_minutes_and_is_a_minute_after_429() -> None:
    # Lichess asks every API client to wait a full minute after a 429; the pauses are the program's own (no stand-in
    # values): the push's waiting is handed a recorder instead of asyncio's sleep, so no time passes
    stand_in = StandIn()
    slept: list[float] = []
    told: list[tuple[str, ...]] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        await asyncio.sleep(0)

    async def until(condition) -> None:
        while not condition():
            await asyncio.sleep(0.01)

    async def pushing() -> push.LichessPush:
        p = push.LichessPush(LichessTarget(ROUND, TOKEN, stand_in.url), "en", told.append, sleep=sleep)
        stand_in.fail = [500] * 10
        p.update([(1, "Anna – Bert", _round_pgn("Anna", "1. e4"))])
        task = asyncio.create_task(p.run())
        try:
            await asyncio.wait_for(until(lambda: p.pushes == 1 and len(slept) == 11), 60)
            assert slept == [2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 300.0, 300.0, 1.0]
            p.update([(1, "Anna – Bert", _round_pgn("Anna", "1. e4"))])       # the same PGN: not pushed again
            await asyncio.wait_for(until(lambda: not p._changed.is_set()), 60)
            stand_in.fail = [429, 500]
            p.update([(1, "Anna – Bert", _round_pgn("Anna", "1. e4 e5"))])
            await asyncio.wait_for(until(lambda: p.pushes == 2 and len(slept) == 14), 60)
            assert slept[11:] == [60.0, 4.0, 1.0]            # a minute after the 429; the pause went on doubling
            assert stand_in.attempts == 14
        finally:
            task.cancel()
        return p

    try:
        asyncio.run(pushing())
    finally:
        stand_in.close()
    refused = (tr("broadcast.lichess_refused", "en", error="try later"),)
    busy = (tr("broadcast.lichess_busy", "en", seconds=60),)
    assert told == [refused, (), busy, refused, ()]           # each told once, until a push goes through


def test_the_round_and_the_token_come_from_the_command_line_and_the_environment(monkeypatch) -> None:
    assert push.round_id_ok("AbCd1234") and not push.round_id_ok("AbCd123") and not push.round_id_ok("AbCd12345")
    assert not push.round_id_ok("AbCd-234")
    monkeypatch.setenv(push.TOKEN_VARIABLE, "  ")
    assert LichessTarget.from_environment(ROUND) is None                        # a blank token is no token
    monkeypatch.setenv(push.TOKEN_VARIABLE, f" {TOKEN}\n")
    monkeypatch.delenv(push.URL_VARIABLE, raising=False)
    target = LichessTarget.from_environment(ROUND)
    assert target == LichessTarget(ROUND, TOKEN, "https://lichess.org")
    assert target.endpoint == f"https://lichess.org/api/broadcast/round/{ROUND}/push"
    monkeypatch.setenv(push.URL_VARIABLE, "http://127.0.0.1:9/ ")
    assert LichessTarget.from_environment(ROUND) == LichessTarget(ROUND, TOKEN, "http://127.0.0.1:9")


def test_only_the_first_games_a_round_holds_are_pushed_and_nothing_while_there_are_none(monkeypatch) -> None:
    monkeypatch.setattr(push, "MAX_GAMES", 2)             # a round's chapters as a small number (Lichess's: 64)
    stand_in = StandIn()
    told: list[tuple[str, ...]] = []

    async def no_pause(seconds: float) -> None:
        await asyncio.sleep(0)

    async def until(condition) -> None:
        while not condition():
            await asyncio.sleep(0.01)

    async def pushing() -> None:
        p = push.LichessPush(LichessTarget(ROUND, TOKEN, stand_in.url), "en", told.append, sleep=no_pause)
        task = asyncio.create_task(p.run())
        try:
            p.update([])
            await asyncio.wait_for(until(lambda: not p._changed.is_set()), 60)
            assert stand_in.attempts == 0                   # no game yet: nothing to push
            p.update([(n, f"W{n} – Bert", _round_pgn(f"W{n}", "1. e4")) for n in (1, 2)])
            await asyncio.wait_for(until(lambda: p.pushes == 1), 60)
            assert told == [] and stand_in.pushes[-1].count("[Event ") == 2
            p.update([(n, f"W{n} – Bert", _round_pgn(f"W{n}", "1. e4")) for n in (1, 2, 3)])
            await asyncio.wait_for(until(lambda: len(told) == 1), 60)
            assert stand_in.attempts == 1                   # the same two games: not pushed again, only told
            assert told == [(tr("broadcast.lichess_too_many", "en", count=3, limit=2),)]
        finally:
            task.cancel()

    try:
        asyncio.run(pushing())
    finally:
        stand_in.close()


def test_a_token_lichess_refuses_and_a_proxy_s_page_are_each_told_in_words() -> None:
    stand_in = StandIn()
    told: list[tuple[str, ...]] = []

    async def no_pause(seconds: float) -> None:
        await asyncio.sleep(0)

    async def until(condition) -> None:
        while not condition():
            await asyncio.sleep(0.01)

    async def pushing() -> None:
        p = push.LichessPush(LichessTarget(ROUND, TOKEN, stand_in.url), "en", told.append, sleep=no_pause)
        stand_in.fail = [401, 403, "proxy"]
        p.update([(1, "Anna – Bert", _round_pgn("Anna", "1. e4"))])
        task = asyncio.create_task(p.run())
        try:
            await asyncio.wait_for(until(lambda: p.pushes == 1), 60)
        finally:
            task.cancel()
        assert p.answers[-1]["games"][0]["moves"] == 1 and len(p.answers) == 3      # the proxy's page is no answer

    try:
        asyncio.run(pushing())
    finally:
        stand_in.close()
    assert told == [(tr("broadcast.lichess_token_refused", "en", error="try later"),),
                    (tr("broadcast.lichess_refused", "en", error="HTTP 502"),), ()]


def test_telling_the_arbiter_that_fails_never_stops_the_pushes() -> None:
    stand_in = StandIn()

    def broken(notices: tuple[str, ...]) -> None:
        raise RuntimeError("the arbiter's page is gone")

    async def no_pause(seconds: float) -> None:
        await asyncio.sleep(0)

    async def until(condition) -> None:
        while not condition():
            await asyncio.sleep(0.01)

    async def pushing() -> None:
        p = push.LichessPush(LichessTarget(ROUND, TOKEN, stand_in.url), "en", broken, sleep=no_pause)
        stand_in.fail = [500]
        p.update([(1, "Anna – Bert", _round_pgn("Anna", "1. e4"))])
        task = asyncio.create_task(p.run())
        try:
            await asyncio.wait_for(until(lambda: p.pushes == 1), 60)
            p.update([(1, "Anna – Bert", _round_pgn("Anna", "1. e4 e5"))])
            await asyncio.wait_for(until(lambda: p.pushes == 2), 60)
        finally:
            task.cancel()

    try:
        asyncio.run(pushing())
    finally:
        stand_in.close()
    assert "1. e4 e5 *" in stand_in.pushes[-1]
