"""Slow and hostile clients stall nobody: a real broadcast on a free port, held by connections that send their
request's head slowly or never, by live streams that never read, and by hundreds of clients at once — while
the arbiter's page and every other client are answered."""

from __future__ import annotations

import asyncio
import socket
import threading
from pathlib import Path

import aiohttp
import pytest

from blindchess.broadcast import Broadcast
from tests.support.broadcast import diverged, fetch, play
from tests.support.waiting import wait_for


@pytest.fixture
def hall(tmp_path: Path):
    play("game_whole.scn", tmp_path / "1.jsonl")
    play("claim_threefold.scn", tmp_path / "2.jsonl")
    diverged(tmp_path / "3.jsonl")
    started: list[Broadcast] = []

    def start(**options) -> Broadcast:
        b = Broadcast([tmp_path], lang="en", port=0, **options)
        b.start()
        started.append(b)
        assert b.ready(60)
        return b

    yield start
    for b in started:
        b.stop()


def hold(port: int, count: int, data: bytes) -> list[socket.socket]:
    """``count`` connections that each send ``data`` and then nothing more."""
    out = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        if data:
            sock.sendall(data)
        out.append(sock)
    return out


def test_slow_heads_a_silent_connection_and_unread_streams_stall_neither_the_arbiter_nor_the_others(hall) -> None:
    broadcast = hall(head_timeout=120.0)        # the slow ones stay for the whole test
    port = broadcast.port
    slow = hold(port, 70, b"GET /games.pgn HTTP/1.1\r\nHost: hall\r\nX-Slow: ")   # a head never finished
    silent = hold(port, 1, b"")                                                   # connects, never says a word
    unread = hold(port, 12, b"GET /events HTTP/1.1\r\nHost: hall\r\n\r\n")         # a live stream never read
    for sock in unread:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    try:
        assert wait_for(lambda: broadcast.hall.streams == 12, 30)
        answers: list[int] = []
        lock = threading.Lock()

        def client(path: str) -> None:
            status, body, _ = fetch(broadcast.url + path)
            with lock:
                answers.append(status if body else -1)

        paths = ["arbiter", "arbiter/still", "", "games.pgn", "games.json", "game/2.pgn"] * 5
        threads = [threading.Thread(target=client, args=(p,)) for p in paths]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert answers == [200] * len(paths)
        status, body, _ = fetch(broadcast.url + "arbiter")
        assert status == 200 and b"Anna &lt;b&gt;" in body           # the arbiter's page, whole
        for _ in range(30):                                           # the live streams' clients still read nothing
            broadcast.refresh(force=True)
        assert fetch(broadcast.url + "games.pgn")[0] == 200
    finally:
        for sock in slow + silent + unread:
            sock.close()


def test_hundreds_of_clients_at_once_are_all_answered(hall) -> None:
    broadcast = hall(per_client=1000)          # all of them come from this one address here

    async def many() -> list[int]:
        connector = aiohttp.TCPConnector(limit=0, force_close=True)
        async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=120)) as session:

            async def one(path: str) -> int:
                async with session.get(broadcast.url + path) as response:
                    await response.read()
                    return response.status

            paths = ["games.pgn", "games.json", "", "arbiter"] * 100
            return list(await asyncio.gather(*(one(p) for p in paths)))

    statuses = asyncio.run(many())
    assert statuses == [200] * 400


def test_a_client_that_does_not_read_its_answer_is_cut_off_and_nobody_waits_for_it(hall) -> None:
    broadcast = hall()
    port = broadcast.port
    greedy = socket.create_connection(("127.0.0.1", port), timeout=30)
    greedy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    greedy.sendall(b"GET /games.pgn HTTP/1.1\r\nHost: hall\r\n\r\n" * 200)     # pipelined, never read
    try:
        for _ in range(20):
            assert fetch(broadcast.url + "arbiter")[0] == 200
    finally:
        greedy.close()
    assert wait_for(lambda: broadcast.connections <= 2, 60)
