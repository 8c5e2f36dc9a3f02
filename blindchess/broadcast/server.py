"""The broadcast over HTTP: the standard library's threading server, read-only and bounded.

Why :class:`http.server.ThreadingHTTPServer`: it is part of Python (nothing to install, nothing
more to keep up to date on the machine at the table), one thread a connection is plenty for a
handful of spectators and the arbiter, and every answer is a body made beforehand
(:mod:`blindchess.broadcast.pages`), so a request costs a dictionary look-up and a ``send``. For a
hall of a hundred boards and many spectators a real front would replace it: an asyncio server
(aiohttp, or uvicorn) behind a caching proxy (nginx, or a CDN) that answers the polls from its cache
for the second the PGN stays the same — or, simpler still, ``--folder`` and any web server.

Bounds: only ``GET`` and ``HEAD`` (anything else: 405); the request line at most
:data:`MAX_REQUEST_LINE` bytes (414), the request's head at most :data:`MAX_HEAD` bytes (431), no
body read; a connection that says nothing for :data:`TIMEOUT` seconds is closed; at most
``max_connections`` at once — one more gets "503, retry after a second" and is closed. HTTP/1.0:
one request a connection, so no idle connection holds a place. Nothing of a request reaches a file:
the path is looked up among the answers made (a game by its number, ``/game/3.pgn``), anything else
is 404. Answers carry an entity tag, so a poll of an unchanged file is a 304 without a body.
"""

from __future__ import annotations

import errno
import http.client
import logging
import os
import socket
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ..base import UserError, os_error_text, tr
from .pages import Page, error_page, not_found_page

__all__ = ["BroadcastServer", "MAX_CONNECTIONS", "MAX_REQUEST_LINE", "MAX_HEAD", "TIMEOUT"]

MAX_CONNECTIONS = 64
MAX_REQUEST_LINE = 2048
MAX_HEAD = 16 * 1024
TIMEOUT = 10.0

_log = logging.getLogger("blindchess.broadcast")

_BUSY = (b"HTTP/1.0 503 Service Unavailable\r\nRetry-After: 1\r\nContent-Type: text/plain; charset=utf-8\r\n"
         b"Content-Length: 0\r\nConnection: close\r\n\r\n")
_SECURITY = (("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
             ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"))


class _Head:
    """The request's head read through a budget: a line beyond it is ``LineTooLong`` (answered 431)."""

    def __init__(self, raw: Any, budget: int) -> None:
        self._raw = raw
        self._left = budget

    def readline(self, size: int = -1) -> bytes:
        if self._left <= 0:
            raise http.client.LineTooLong("request head")
        cap = self._left if size is None or size < 0 else min(size, self._left)
        line = self._raw.readline(cap)
        self._left -= len(line)
        if self._left <= 0 and not line.endswith(b"\n"):
            raise http.client.LineTooLong("request head")
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class _Handler(BaseHTTPRequestHandler):
    """Answers from the pages made; see the module docstring."""

    server: BroadcastServer
    protocol_version = "HTTP/1.0"
    server_version = "blindchess-broadcast"
    sys_version = ""
    timeout = TIMEOUT

    def version_string(self) -> str:
        return self.server_version

    def handle_one_request(self) -> None:
        try:
            line = self.rfile.readline(MAX_REQUEST_LINE + 1)
            if len(line) > MAX_REQUEST_LINE:
                self.requestline = self.request_version = self.command = ""
                self.send_error(HTTPStatus.REQUEST_URI_TOO_LONG)
                return
            if not line:
                self.close_connection = True
                return
            self.raw_requestline = line
            raw = self.rfile
            self.rfile = _Head(raw, MAX_HEAD)   # type: ignore[assignment]
            try:
                parsed = self.parse_request()
            finally:
                self.rfile = raw
            if not parsed:
                return
            if self.command not in ("GET", "HEAD"):
                self.send_error(HTTPStatus.METHOD_NOT_ALLOWED)
                return
            self._answer(body=self.command == "GET")
            self.wfile.flush()
        except (TimeoutError, ConnectionError):
            self.close_connection = True

    def _answer(self, *, body: bool) -> None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        page = self.server.page(path)
        status = HTTPStatus.OK
        if page is None:
            page, status = not_found_page(self.server.lang), HTTPStatus.NOT_FOUND
        elif page.etag in (self.headers.get("If-None-Match") or ""):
            status = HTTPStatus.NOT_MODIFIED
        self._send(status, page, body=body and status != HTTPStatus.NOT_MODIFIED)

    def _send(self, status: int, page: Page, *, body: bool, extra: tuple[tuple[str, str], ...] = ()) -> None:
        self.send_response(status)
        self.send_header("Content-Type", page.content_type)
        if status != HTTPStatus.NOT_MODIFIED:
            self.send_header("Content-Length", str(len(page.body)))
        self.send_header("ETag", page.etag)
        self.send_header("Cache-Control", "no-cache")
        for name, value in _SECURITY + extra:
            self.send_header(name, value)
        self.end_headers()
        if body:
            self.wfile.write(page.body)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """A refusal as a short page in the broadcast's language (never the request's own words)."""
        self.close_connection = True
        extra = (("Allow", "GET, HEAD"),) if code == HTTPStatus.METHOD_NOT_ALLOWED else ()
        try:
            self._send(code, error_page(int(code), self.server.lang), body=self.command != "HEAD", extra=extra)
        except OSError:
            pass

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the standard library's name
        _log.debug("%s %s", self.address_string(), format % args)


class BroadcastServer(ThreadingHTTPServer):
    """The HTTP server of a broadcast: answers ``page(path)`` gives, at most ``max_connections`` at once.

    Raises :class:`~blindchess.base.errors.UserError` (in ``lang``) when it cannot listen on
    ``host``:``port`` (the port taken, a host that is not this machine's)."""

    daemon_threads = True
    # SO_REUSEADDR lets two servers share a port on Windows; elsewhere it only skips TIME_WAIT.
    allow_reuse_address = os.name != "nt"

    def __init__(self, host: str, port: int, page: Callable[[str], Page | None], lang: str, *,
                 max_connections: int = MAX_CONNECTIONS) -> None:
        self.page = page
        self.lang = lang
        self._slots = threading.BoundedSemaphore(max_connections)
        if ":" in host:
            self.address_family = socket.AF_INET6
        try:
            super().__init__((host, port), _Handler)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE or getattr(exc, "winerror", None) == 10048:   # WSAEADDRINUSE
                raise UserError(tr("broadcast.port_in_use", lang, host=host, port=port)) from exc
            raise UserError(tr("broadcast.cannot_listen", lang, host=host, port=port,
                               error=os_error_text(exc, lang))) from exc

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    def process_request(self, request: Any, client_address: Any) -> None:
        if not self._slots.acquire(blocking=False):
            try:
                request.sendall(_BUSY)
            except OSError:
                pass
            self.shutdown_request(request)
            return
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request: Any, client_address: Any) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A connection that broke (the spectator left): noted in the log, never printed."""
        _log.debug("broadcast: connection from %s ended with an error", client_address, exc_info=True)
