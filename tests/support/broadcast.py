"""Journals of whole games for the broadcast's tests, and the structure of a served page."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import chess

from blindchess import scenario
from blindchess.game import Player, Session

from .paths import SCENARIOS


def play(script: str, journal: Path) -> Path:
    """A whole game from a scenario script, journaled to ``journal`` (the table the app runs)."""
    scenario.play(scenario.read_script(SCENARIOS / script, "de"), scenario.HeadlessFront(), journal)
    return journal


def diverged(path: Path) -> Session:
    """White (blind) plays e2-e4; the assistant mirrors it wrongly as d2-d4 on the sighted board (D.2.9)."""
    s = Session.new(Player("Anna <b>", True), Player("Bert"), "90+30", journal=path, now=0.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 1.0)
    s.announce(chess.Move.from_uci("e2e4"), "Eva vier", 1.5)
    s.press_clock(chess.WHITE, 2.0)
    s.board_move("sighted", chess.Move.from_uci("d2d4"), 3.0)
    s.offer_draw(chess.BLACK, 4.0)
    s.close()
    return Session.load(path)


class Structure(HTMLParser):
    """What a screen reader navigates by: the language, headings, table headers and captions; the scripts (written
    into the page, and their sources), the live regions (politeness, id) and the images (source, text alternative)."""

    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None
        self.headings: list[str] = []
        self.th_scopes: list[str | None] = []
        self.captions = 0
        self.scripts = 0
        self.script_sources: list[str] = []
        self.live_regions: list[tuple[str | None, str | None]] = []
        self.images: list[tuple[str | None, str | None]] = []
        self.refresh: str | None = None
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if tag in ("h1", "h2", "h3"):
            self._in = tag
            self.headings.append(tag + ":")
        if tag == "th":
            self.th_scopes.append(a.get("scope"))
        if tag == "caption":
            self.captions += 1
        if tag == "script":
            if a.get("src"):
                self.script_sources.append(a["src"] or "")
            else:
                self.scripts += 1           # a script written into the page itself (the policy forbids it)
        if a.get("aria-live"):
            self.live_regions.append((a.get("aria-live"), a.get("id")))
        if tag == "img":
            self.images.append((a.get("src"), a.get("alt")))
        if tag == "meta" and a.get("http-equiv") == "refresh":
            self.refresh = a.get("content")

    def handle_endtag(self, tag: str) -> None:
        if tag == self._in:
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in:
            self.headings[-1] += data


def structure(html: bytes) -> Structure:
    parser = Structure()
    parser.feed(html.decode("utf-8"))
    return parser


# -- talking to a broadcast ------------------------------------------------------------------------------

def fetch(url: str, headers: dict[str, str] | None = None, timeout: float = 30.0):
    """(status, body, headers) of a GET; an error status is an answer too."""
    import urllib.error
    import urllib.request

    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), exc.headers


class EventReader:
    """A live stream (``/events``) read in a thread of its own, as a browser's EventSource reads it: every
    event as (type, data as JSON), and the raw bytes received. ``source``: the (loopback) address it comes from."""

    def __init__(self, url: str, headers: dict[str, str] | None = None, source: str | None = None) -> None:
        import socket
        import threading
        from urllib.parse import urlsplit

        parts = urlsplit(url)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=60,
                                             source_address=(source, 0) if source else None)
        head = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        target = parts.path + (f"?{parts.query}" if parts.query else "")
        self.sock.sendall(f"GET {target} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n{head}\r\n".encode())
        self.raw = b""
        self.events: list[tuple[str, dict]] = []
        self.status: int | None = None
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        import json

        buffer = b""
        try:
            while chunk := self.sock.recv(65536):
                with self._lock:
                    self.raw += chunk
                buffer += chunk
                if self.status is None and b"\r\n\r\n" in buffer:
                    head, buffer = buffer.split(b"\r\n\r\n", 1)
                    self.status = int(head.split(b" ", 2)[1])
                    if b"chunked" in head.lower():
                        self._chunked = True
                if self.status is None:
                    continue
                text = _dechunk(buffer) if getattr(self, "_chunked", False) else buffer
                blocks = text.split(b"\n\n")
                done = blocks[:-1]
                parsed = []
                for block in done:
                    kind, data = "message", []
                    for line in block.decode("utf-8").split("\n"):
                        if line.startswith("event: "):
                            kind = line[7:]
                        elif line.startswith("data: "):
                            data.append(line[6:])
                    if data:
                        parsed.append((kind, json.loads("\n".join(data))))
                with self._lock:
                    self.events = parsed
        except OSError:
            return

    def of(self, kind: str) -> list[dict]:
        with self._lock:
            return [data for k, data in self.events if k == kind]

    def close(self) -> None:
        self.sock.close()


def _dechunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, sep, rest = data.partition(b"\r\n")
        if not sep:
            break
        try:
            size = int(size_line.split(b";")[0], 16)
        except ValueError:
            break
        if size == 0 or len(rest) < size + 2:
            out += rest[:size] if size and len(rest) >= size else b""
            break
        out += rest[:size]
        data = rest[size + 2:]
    return out


def long_game(plies: int, seed: int = 1) -> list[chess.Move]:
    """A legal game of ``plies`` half-moves that has not ended (no mate, stalemate, dead position, repetition,
    75-move rule): random moves, a capture or a pawn move preferred once the 50-move count runs high."""
    import random

    rng = random.Random(seed)
    board = chess.Board()
    out: list[chess.Move] = []
    while len(out) < plies:
        legal = list(board.legal_moves)
        rng.shuffle(legal)
        if board.halfmove_clock > 60:
            legal.sort(key=lambda m: not (board.is_capture(m) or board.piece_type_at(m.from_square) == chess.PAWN))
        for move in legal:
            board.push(move)
            if board.outcome(claim_draw=False) is None and not board.is_repetition(3):
                out.append(move)
                break
            board.pop()
        else:
            return long_game(plies, seed + 1000)
    return out


def half_move(s: Session, move: chess.Move, now: float) -> None:
    """One half-move as at the table, the sighted player White: he moves and presses, the blind player mirrors;
    the blind player moves on his board, announces, presses, and the sighted board follows."""
    if s.snapshot.to_move == chess.WHITE:
        s.board_move("sighted", move, now)
        s.press_clock(chess.WHITE, now + 0.1)
        s.board_move("tactile", move, now + 0.2)
    else:
        s.board_move("tactile", move, now)
        s.announce(move, move.uci(), now + 0.1)
        s.press_clock(chess.BLACK, now + 0.2)
        s.board_move("sighted", move, now + 0.3)


# -- a real browser, driven over the Chrome DevTools Protocol -------------------------------------------

class Browser:
    """Headless Chromium with its DevTools endpoint: :meth:`open` a page, then :meth:`call` protocol methods on it
    (``Runtime.evaluate`` …) from asyncio code. The browser is ended in :meth:`close`."""

    FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--hide-scrollbars", "--remote-debugging-port=0"]

    def __init__(self, chromium: str, profile: Path) -> None:
        import re
        import subprocess

        self.process = subprocess.Popen([chromium, *self.FLAGS, f"--user-data-dir={profile}", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        assert self.process.stderr is not None
        for line in self.process.stderr:
            found = re.search(r"DevTools listening on (ws://[^\s]+)", line)
            if found:
                self.endpoint = found.group(1)
                break
        else:
            raise RuntimeError("Chromium did not start its DevTools endpoint")
        self.http = "http://" + self.endpoint.split("//", 1)[1].split("/", 1)[0]

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except Exception:   # noqa: BLE001 - a browser that does not end is killed
            self.process.kill()
            self.process.wait(timeout=30)


class Tab:
    """One page of the :class:`Browser`: protocol calls and the events it sends (``events``)."""

    def __init__(self, ws, session) -> None:
        self.ws = ws
        self.session = session
        self.events: list[dict] = []
        self._next = 0
        self._waiting: dict[int, object] = {}

    @classmethod
    async def open(cls, browser: Browser, url: str) -> Tab:
        import asyncio
        import json as _json

        import aiohttp

        session = aiohttp.ClientSession()
        async with session.put(f"{browser.http}/json/new?{url}") as response:
            target = _json.loads(await response.text())
        ws = await session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0)
        tab = cls(ws, session)
        tab._reader = asyncio.create_task(tab._read())
        return tab

    async def _read(self) -> None:
        import json as _json

        async for message in self.ws:
            data = _json.loads(message.data)
            if "id" in data and data["id"] in self._waiting:
                self._waiting.pop(data["id"]).set_result(data)      # type: ignore[attr-defined]
            else:
                self.events.append(data)

    async def call(self, method: str, **params) -> dict:
        import asyncio
        import json as _json

        self._next += 1
        future = asyncio.get_running_loop().create_future()
        self._waiting[self._next] = future
        await self.ws.send_str(_json.dumps({"id": self._next, "method": method, "params": params}))
        answer = await asyncio.wait_for(future, 60)
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer["result"]

    async def value(self, expression: str):
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        return result["result"].get("value")

    async def until(self, expression: str, timeout: float = 60.0):
        """The value of ``expression`` once it is truthy (None when it never is within ``timeout`` seconds)."""
        import asyncio
        import time as _time

        deadline = _time.monotonic() + timeout
        while _time.monotonic() < deadline:
            found = await self.value(expression)
            if found:
                return found
            await asyncio.sleep(0.05)
        return None

    async def close(self) -> None:
        self._reader.cancel()
        await self.ws.close()
        await self.session.close()
