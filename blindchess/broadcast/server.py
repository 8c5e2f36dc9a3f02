"""The broadcast over HTTP: an asynchronous server (aiohttp), read-only, bounded, fair to every client.

Why aiohttp: one well-kept library is both the server and the client the push to Lichess needs
(:mod:`.lichess`); it runs on the standard library's asyncio in a thread of its own beside the window or
the command line, with no framework or process manager around it; Server-Sent Events are a plain
streamed response; it installs from wheels on Windows, macOS and Linux. (Starlette on uvicorn would
bring two packages, an ASGI layer and uvicorn's own start-up and signal handling, and still need a
client for Lichess.)

One connection costs a socket and a small object, never a thread: a client that sends its request
slowly, or never, or does not read its answer, holds nobody else up. Bounds:

* the request's head must be whole within :data:`HEAD_TIMEOUT` seconds of the connection (or of the
  end of the last answer on a kept connection), else the connection is closed; its line at most
  :data:`MAX_REQUEST_LINE` bytes, each header :data:`MAX_FIELD` bytes, at most :data:`MAX_HEADERS`
  headers (else 400, the connection closed); no body is read;
* each answer must be sent within :data:`DEADLINE` seconds (a client that does not read is cut off);
  a live stream (``/events``) drops a client whose messages pile up unread;
* at most ``per_client`` connections from one address and ``max_connections`` in all: past that the
  connection of that address (or of any) that has been idle longest — waiting for its request's head,
  or kept open after an answer — is closed to make room; only when every one is busy is a new one
  turned away ("503, retry after a second"). So a new request, the arbiter's among them, always gets in
  ahead of idle connections;
* the listening socket's backlog is :data:`BACKLOG` (the system may lower it).

Only ``GET`` and ``HEAD`` (anything else: 405). Nothing of a request reaches a file: the path is looked
up among the answers made (a game by its number, ``/game/3.pgn``), anything else is 404. Answers carry an
entity tag, so a poll of an unchanged file is a 304 without a body.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import socket
import threading
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from ..base import UserError, os_error_text, tr

__all__ = ["HttpServer", "Answer", "MAX_CONNECTIONS", "PER_CLIENT", "HEAD_TIMEOUT", "DEADLINE", "BACKLOG",
           "MAX_REQUEST_LINE", "MAX_FIELD", "MAX_HEADERS"]

MAX_CONNECTIONS = 768
PER_CLIENT = 64
HEAD_TIMEOUT = 10.0
DEADLINE = 20.0
BACKLOG = 1024
MAX_REQUEST_LINE = 2048
MAX_FIELD = 8190
MAX_HEADERS = 64

_log = logging.getLogger("blindchess.broadcast")

#: What a request is answered with: web.StreamResponse made (and sent) by the handler.
Answer = web.StreamResponse
Handler = Callable[[web.BaseRequest], Awaitable[web.StreamResponse]]


class _Connection(RequestHandler):
    """One client connection, known to the :class:`_Guard` (who may close it to make room)."""

    guard: _Guard
    peer: str = ""
    opened: float = 0.0
    idle_since: float = 0.0
    busy: int = 0
    refused: bool = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.opened = self.idle_since = time.monotonic()
        peer = transport.get_extra_info("peername")
        self.peer = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.guard.admit(self)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.guard.release(self)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self.refused:                # a connection turned away reads nothing more
            super().data_received(data)

    def handle_error(self, request: web.BaseRequest, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        """A request refused before it reached the broadcast (a head too long, not HTTP): a short page in
        the broadcast's language, never the request's own words; the connection is closed."""
        if status >= 500:
            _log.debug("broadcast: error answering %s", request.remote, exc_info=exc)
        page = self.guard.error_page(status)
        response = web.Response(status=status, body=page.body, headers={
            "Content-Type": page.content_type, "Connection": "close", "Server": "blindchess-broadcast",
            "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'"})
        response.force_close()
        return response


class _Guard:
    """Counts the connections and makes room for new ones (module docstring)."""

    def __init__(self, max_connections: int, per_client: int, error_page: Callable[[int], Any]) -> None:
        self.max_connections = max_connections
        self.per_client = per_client
        self.error_page = error_page
        self.open: dict[_Connection, None] = {}
        self.by_peer: dict[str, int] = {}

    def admit(self, conn: _Connection) -> None:
        self.open[conn] = None
        self.by_peer[conn.peer] = self.by_peer.get(conn.peer, 0) + 1
        if self.by_peer[conn.peer] > self.per_client and not self._evict(conn, conn.peer):
            self._refuse(conn)
            return
        if len(self.open) > self.max_connections and not self._evict(conn, None):
            self._refuse(conn)

    def release(self, conn: _Connection) -> None:
        if conn not in self.open:
            return                          # released already (closed to make room, then lost)
        del self.open[conn]
        left = self.by_peer[conn.peer] - 1
        if left > 0:
            self.by_peer[conn.peer] = left
        else:
            del self.by_peer[conn.peer]

    def _evict(self, newcomer: _Connection, peer: str | None) -> bool:
        """Close the connection (of ``peer``, or any) idle longest; False when every one is busy."""
        idle = [c for c in self.open if c is not newcomer and not c.busy and (peer is None or c.peer == peer)]
        if not idle:
            return False
        oldest = min(idle, key=lambda c: c.idle_since)
        self.release(oldest)
        oldest.force_close()
        if oldest.transport is not None:
            oldest.transport.close()
        return True

    def _refuse(self, conn: _Connection) -> None:
        """Turn ``conn`` away: "503, retry after a second", its sending side closed; the socket itself a moment
        later (closed at once, what the client sent unread would reset it before it reads the answer)."""
        self.release(conn)
        conn.refused = True
        transport = conn.transport
        if transport is None:
            return
        with contextlib.suppress(OSError, RuntimeError):
            transport.write(b"HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Length: 0\r\n"
                            b"Connection: close\r\n\r\n")
            if transport.can_write_eof():
                transport.write_eof()
        asyncio.get_running_loop().call_later(2.0, transport.close)


class _Server(web.Server):
    """aiohttp's low-level server whose connections the guard knows."""

    def __init__(self, handler: Handler, guard: _Guard, **kwargs: Any) -> None:
        super().__init__(handler, **kwargs)
        self._guard = guard

    def __call__(self) -> RequestHandler:
        conn = _Connection(self, loop=self._loop, **self._kwargs)
        conn.guard = self._guard
        return conn


class HttpServer:
    """The broadcast's HTTP server on ``host``:``port`` (0: any free one), run in a thread of its own.

    ``handler`` answers each request (a coroutine run in the server's loop; see :meth:`busy`); ``error_page``
    gives the page for a status. Raises :class:`~blindchess.base.errors.UserError` (in ``lang``) when it cannot
    listen (the port taken, a host that is not this machine's)."""

    def __init__(self, host: str, port: int, handler: Handler, error_page: Callable[[int], Any], lang: str, *,
                 max_connections: int = MAX_CONNECTIONS, per_client: int = PER_CLIENT,
                 head_timeout: float = HEAD_TIMEOUT) -> None:
        self.host = host
        self.lang = lang
        self._handler = handler
        self._guard = _Guard(max_connections, per_client, error_page)
        self._head_timeout = head_timeout
        self._sock = _listen(host, port, lang)
        self.loop = asyncio.new_event_loop()
        self._thread: threading.Thread | None = None
        self._server: asyncio.AbstractServer | None = None
        self._web: _Server | None = None
        self._ready = threading.Event()

    @property
    def port(self) -> int:
        return int(self._sock.getsockname()[1])

    @property
    def connections(self) -> int:
        """How many connections are open."""
        return len(self._guard.open)

    def start(self) -> None:
        """Serve in a thread of its own until :meth:`stop`."""
        _more_files()
        self._thread = threading.Thread(target=self._run, name="broadcast-http", daemon=True)
        self._thread.start()
        self._ready.wait(30.0)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._open())
        self._ready.set()
        try:
            self.loop.run_forever()
        finally:
            self.loop.run_until_complete(self._close())
            self.loop.close()

    async def _open(self) -> None:
        self._web = _Server(self._serve, self._guard, keepalive_timeout=self._head_timeout,
                            max_line_size=MAX_REQUEST_LINE, max_field_size=MAX_FIELD, max_headers=MAX_HEADERS,
                            handler_cancellation=True, access_log=None)
        self._server = await self.loop.create_server(self._web, sock=self._sock, backlog=BACKLOG)

    async def _close(self) -> None:
        if self._server is not None:
            self._server.close()
        if self._web is not None:
            with contextlib.suppress(Exception):
                await self._web.shutdown(1.0)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)
        tasks = [t for t in asyncio.all_tasks(self.loop) if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _serve(self, request: web.BaseRequest) -> web.StreamResponse:
        conn = request.protocol
        if isinstance(conn, _Connection):
            conn.busy += 1
        try:
            return await self._handler(request)
        finally:
            if isinstance(conn, _Connection):
                conn.busy -= 1
                conn.idle_since = time.monotonic()

    def call(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run ``callback(*args)`` in the server's loop (from any thread)."""
        if not self.loop.is_closed():
            with contextlib.suppress(RuntimeError):
                self.loop.call_soon_threadsafe(callback, *args)

    def stop(self) -> None:
        """Stop serving; the listening socket is closed."""
        if self._thread is not None and self.loop.is_running():
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=10.0)
        self._thread = None
        with contextlib.suppress(OSError):
            self._sock.close()


def _listen(host: str, port: int, lang: str) -> socket.socket:
    """The listening socket (IPv6 for an address with a colon). Raises UserError when it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if os.name != "nt":     # elsewhere SO_REUSEADDR only skips TIME_WAIT; on Windows it shares the port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, True)
        sock.bind((host, port))
        sock.listen(BACKLOG)               # the loop makes it non-blocking when it starts serving
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE or getattr(exc, "winerror", None) == 10048:   # WSAEADDRINUSE
            raise UserError(tr("broadcast.port_in_use", lang, host=host, port=port)) from exc
        raise UserError(tr("broadcast.cannot_listen", lang, host=host, port=port, error=os_error_text(exc, lang))) from exc
    return sock


def _more_files() -> None:
    """As many open files as the system allows this process (each connection is one), on systems that limit them."""
    try:
        import resource
    except ImportError:      # Windows: no such limit per process
        return
    with contextlib.suppress(ValueError, OSError):
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
