"""What each address of the broadcast answers, for whom: the routes, the live streams, the arbiter's token.

Public (anyone who reaches the port; the PGN, the cards, the diagrams and the stream may be read by
another site — ``Access-Control-Allow-Origin: *`` — and the pages embedded): ``/``, ``/games.pgn``,
``/roundN/games.pgn``, ``/game/N.pgn``, ``/games.json``, ``/game/N.json``, ``/game/N.svg``, ``/events``
(Server-Sent Events: one ``game`` message per game that changed, one ``page`` message per change, a
comment every :data:`PING` seconds to keep the connection) and ``/live.js``, the pages' script. With a
delay they show each game as it stood that many seconds ago.

The arbiter's (never delayed, never embedded): ``/arbiter``, ``/arbiter/still``, ``/arbiter/events``. With a
token (:class:`Hall` ``token``) they need it: ``/arbiter?token=…`` once — the browser then keeps it in a
cookie only for these addresses (``HttpOnly``, ``SameSite=Strict``), and the address without it is shown —,
else the locked page (403). The token is compared in constant time.

A page names the state it shows (``/events?v=N``); its stream then begins with what changed since, or with
every game when that state is no longer known. A stream whose client does not read is dropped once
:data:`QUEUE` messages wait for it (the browser's EventSource connects again by itself and catches up).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
from collections import OrderedDict
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from .answers import Answers, Config, Pieces, State
from .assets import LIVE_JS
from .pages import Page, error_page, locked_page, not_found_page
from .server import DEADLINE

__all__ = ["Hall", "PING", "QUEUE", "MAX_STREAMS", "STREAMS_PER_CLIENT", "COOKIE"]

#: Seconds between two comments on a quiet live stream.
PING = 15.0
#: Messages that may wait for one live stream's client before it is dropped.
QUEUE = 256
#: Live streams in all, and from one address.
MAX_STREAMS = 512
STREAMS_PER_CLIENT = 32
#: The cookie that carries the arbiter's token.
COOKIE = "blindchess_arbiter"
#: States remembered, so a page's stream can begin with what changed since the state it shows.
_HISTORY = 32
#: A state's number as a page names it (ASCII digits only: ``int`` would take other scripts' digits too, or fail).
_VERSION = re.compile(r"[0-9]{1,12}")

_log = logging.getLogger("blindchess.broadcast")

_PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self'; connect-src 'self'; "
             "base-uri 'none'; form-action 'none'; frame-ancestors {frames}")
_DATA_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors *"
_SECURITY = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Server": "blindchess-broadcast"}


class _Stream:
    def __init__(self, peer: str) -> None:
        self.peer = peer
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(QUEUE)
        self.task = asyncio.current_task()
        self.dropped = False


class Hall:
    """The broadcast's answers for every request, kept in the server's loop: :meth:`publish` the state
    at each change (from any thread through :meth:`blindchess.broadcast.server.HttpServer.call`),
    :meth:`handle` each request. ``token``: the arbiter's (None: his pages are open, on this computer only)."""

    def __init__(self, config: Config, *, token: str | None = None) -> None:
        self.config = config
        self.token = token
        self.pieces = Pieces()
        self.answers = Answers(State((), (), (), (), 0.0), config, self.pieces)
        self.version = self.answers.version                 # the state of no game yet
        self._history: OrderedDict[int, Answers] = OrderedDict({self.version: self.answers})
        self._streams: dict[str, set[_Stream]] = {"public": set(), "arbiter": set()}
        self.notices: tuple[str, ...] = ()
        self._state = self.answers.state

    # -- the state ---------------------------------------------------------------------------------
    def publish(self, state: State) -> None:
        """Answer from ``state`` from now on, and tell every live stream what changed."""
        self._state = state
        before = self.answers
        self.version += 1
        self.answers = Answers(replace(state, notices=state.notices + self.notices), self.config, self.pieces,
                              self.version)
        self._history[self.version] = self.answers
        while len(self._history) > _HISTORY:
            self._history.popitem(last=False)
        for audience, streams in self._streams.items():
            if streams:
                messages = [_with_id(m, self.version) for m in self.answers.messages(before, audience)]
                for stream in list(streams):
                    self._send(stream, messages)

    def notice(self, notices: tuple[str, ...]) -> None:
        """What the arbiter must be told from now on (a push to Lichess refused), on his page at once."""
        if notices != self.notices:
            self.notices = notices
            self.publish(self._state)

    def _send(self, stream: _Stream, messages: list[bytes]) -> None:
        for message in messages:
            try:
                stream.queue.put_nowait(message)
            except asyncio.QueueFull:
                self._drop(stream)
                return

    def _drop(self, stream: _Stream) -> None:
        if not stream.dropped:
            stream.dropped = True
            for streams in self._streams.values():
                streams.discard(stream)
            if stream.task is not None:
                stream.task.cancel()

    @property
    def streams(self) -> int:
        return sum(len(s) for s in self._streams.values())

    # -- requests ----------------------------------------------------------------------------------
    async def handle(self, request: web.BaseRequest) -> web.StreamResponse:
        """Answer one request (module docstring)."""
        lang = self.config.lang
        method = request.method
        path = request.path
        public = not (path == "/arbiter" or path.startswith("/arbiter/"))
        if method == "OPTIONS" and public:
            return await _send(request, 204, None, {"Allow": "GET, HEAD, OPTIONS", **_cors(True)})
        if method not in ("GET", "HEAD"):
            return await _send(request, 405, error_page(405, lang), {"Allow": "GET, HEAD", **_csp(public)})
        if path == "/live.js":
            return await self._page(request, LIVE_JS, public=True)
        if path == "/events":
            return await self._stream(request, "public")
        if not public:
            locked = self._locked(request)
            if locked is not None:
                return locked
            if path == "/arbiter/events":
                return await self._stream(request, "arbiter")
            page = self.answers.arbiter(path)
        else:
            page = self.answers.public(path)
        if page is None:
            return await _send(request, 404, not_found_page(lang), _csp(public))
        return await self._page(request, page, public=public)

    def _locked(self, request: web.BaseRequest) -> web.StreamResponse | None:
        """None when the arbiter may see his page; else what is answered instead (the locked page, or the
        address without the token once the cookie is set)."""
        if self.token is None:
            return None
        given = request.query.get("token")
        if given is not None and hmac.compare_digest(given.encode(), self.token.encode()):
            query = {k: v for k, v in request.query.items() if k != "token"}
            target = request.path + ("?" + urlencode(query) if query else "")
            response = web.Response(status=303, headers={"Location": target, "Cache-Control": "no-store", **_SECURITY})
            response.set_cookie(COOKIE, self.token, path="/arbiter", httponly=True, samesite="Strict")
            return response
        cookie = request.cookies.get(COOKIE, "")
        if cookie and hmac.compare_digest(cookie.encode(), self.token.encode()):
            return None
        page = locked_page(self.config.lang)
        response = web.Response(status=403, body=page.body, headers={"Content-Type": page.content_type,
                                                                     "Cache-Control": "no-store", **_SECURITY,
                                                                     **_csp(False)})
        return response

    async def _page(self, request: web.BaseRequest, page: Page, *, public: bool) -> web.StreamResponse:
        headers = {"ETag": page.etag, "Cache-Control": "no-cache", **_csp(public, page.content_type), **_cors(public)}
        if page.etag in (request.headers.get("If-None-Match") or ""):
            return await _send(request, 304, None, headers)
        return await _send(request, 200, page, headers)

    async def _stream(self, request: web.BaseRequest, audience: str) -> web.StreamResponse:
        """A live stream: what changed since the state the page shows, then each change as it comes."""
        peer = request.remote or "?"
        streams = self._streams[audience]
        mine = sum(1 for s in self._streams["public"] | self._streams["arbiter"] if s.peer == peer)
        if self.streams >= MAX_STREAMS or mine >= STREAMS_PER_CLIENT:
            return await _send(request, 503, error_page(503, self.config.lang), {"Retry-After": "5"})
        response = web.StreamResponse(status=200, headers={
            "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", "X-Accel-Buffering": "no",
            **_SECURITY, **_cors(audience == "public")})
        stream = _Stream(peer)
        since = _version(request.headers.get("Last-Event-ID")) or _version(request.query.get("v"))
        try:
            async with asyncio.timeout(DEADLINE):
                await response.prepare(request)
                if request.method == "HEAD":
                    return response
                before = self._history.get(since) if since is not None else None
                first = [b"retry: 2000\n\n"] + [_with_id(m, self.version) for m in
                                                self.answers.messages(before, audience)]
                await response.write(b"".join(first))
            streams.add(stream)
            while not stream.dropped:
                try:
                    message = await asyncio.wait_for(stream.queue.get(), PING)
                except TimeoutError:
                    message = b": ping\n\n"
                async with asyncio.timeout(DEADLINE):
                    await response.write(message)
        except (ConnectionError, TimeoutError, RuntimeError):
            pass                                    # the client left, or does not read: its stream ends
        finally:
            self._drop(stream)
        if request.transport is not None:
            request.transport.close()
        return response


async def _send(request: web.BaseRequest, status: int, page: Page | None, headers: dict[str, str]) -> web.StreamResponse:
    """Send an answer whole within :data:`~.server.DEADLINE` seconds (a client that does not read is cut off)."""
    response = web.StreamResponse(status=status, headers={**_SECURITY, **headers})
    if page is not None:
        response.content_type = page.content_type.split(";")[0]
        response.charset = "utf-8" if "charset" in page.content_type else None
        response.content_length = len(page.body)
    elif status != 304:
        response.content_length = 0
    try:
        async with asyncio.timeout(DEADLINE):
            await response.prepare(request)
            if page is not None and request.method != "HEAD" and status != 304:
                await response.write(page.body)
            await response.write_eof()
    except TimeoutError:
        if request.transport is not None:
            request.transport.close()
    return response


def _csp(public: bool, content_type: str = "text/html") -> dict[str, str]:
    if not content_type.startswith("text/html"):
        return {"Content-Security-Policy": _DATA_CSP}
    return {"Content-Security-Policy": _PAGE_CSP.format(frames="*" if public else "'none'"),
            **({} if public else {"X-Frame-Options": "DENY"})}


def _cors(public: bool) -> dict[str, Any]:
    return {"Access-Control-Allow-Origin": "*"} if public else {}


def _with_id(message: bytes, version: int) -> bytes:
    return message[:-1] + f"id: {version}\n\n".encode() if message.endswith(b"\n\n") else message


def _version(text: str | None) -> int | None:
    return int(text) if text is not None and _VERSION.fullmatch(text) else None
