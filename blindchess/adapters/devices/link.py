"""The serial link to a peg-board or DGT board (adapter: pyserial, a reader thread).

Two modes.  **Tracker mode** (the link judges the board itself)::

    tracker = Tracker(chess.Board())
    link = SerialLink(tracker, on_event=print, on_status=lambda s: print(s.message),
                      profile=load_profile("blindchess-pegboard"))   # or port="/dev/ttyACM0"
    link.start()
    ...
    link.expect(board_after_announced_move)    # mirroring (D.2.9 first sign)
    link.announce(move)                        # completes a promotion etc.
    link.stop()

**Input mode** (someone else owns the tracker — the table)::

    link = SerialLink(None, on_input=lambda event: table.handle(PegInput(event), event.t),
                      on_status=..., profile=load_profile("blindchess-pegboard"), clock=app_clock)
    link.start()
    link.request_snapshot()                    # e.g. on the table's DeviceRequest(what="snapshot")

Callbacks — the whole API an app needs:

``on_event(event: TrackerEvent)`` (tracker mode)
    every tracker event ("touched", "move", "takeback", "mismatch", "in-sync",
    "inconsistent"), in order, exactly once.  Called from the reader thread,
    or from the thread that called :meth:`SerialLink.expect` /
    :meth:`SerialLink.announce` for the events those cause — always in order,
    one at a time (delivery holds the link's lock).  Do not block in it: a Qt
    app should forward the event to the GUI thread with a queued signal.
``on_input(event: InputEvent)`` (input mode)
    every parsed board event — :class:`Lift`, :class:`Place`, :class:`Snapshot`
    (with ``pieces`` from a DGT board), :class:`PieceUpdate` — in order,
    exactly once, from the reader thread, one at a time; ``event.t`` is the
    link's ``clock()`` when the bytes were read.  Nothing half-received is
    delivered.  The owner of the tracker asks for a snapshot when its tracker
    reports "inconsistent" (the link still asks by itself after bad bytes and
    after every (re)connect).
``on_status(status: LinkStatus)``
    connection changes in the user's language: "connecting", "connected",
    "identified", "disconnected", "reconnecting", "reconnected", "not-found",
    "checksum-error", "protocol-error", "out-of-step", "stopped".
    ``status.message`` is ready to show or speak and short: at most one
    protocol status per read, naming what was dropped and how many bytes.

Robustness: the reader assembles lines from partial reads and drops noise,
overlong lines, invalid UTF-8 and lines with bad checksums (each reported,
each followed by a snapshot request), in time linear in the bytes and with
bounded buffers (a line: 120 characters; a DGT message: 8 KB).  When the
device disappears the link reports it, re-scans by profile (or reopens the
same path) until the device is back, then requests identification and a
snapshot; the snapshot resynchronises the tracker, so a move finished while
the cable was out is reported once, and nothing half-received is applied.  A
callback that raises is reported on stderr and does not stop the link.  DGT
"magic pieces" (codes 13-15) count as empty squares and are otherwise ignored.
"""

from __future__ import annotations

import fnmatch
import glob
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import chess
import serial
from serial.tools import list_ports

from ...base import data_dir, is_port_path, tr
from ...pegboard import (
    REQUEST_IDENT,
    REQUEST_SNAPSHOT,
    SEND_BRD,
    SEND_RESET,
    SEND_UPDATE_BRD,
    SEND_VERSION,
    BoardProfile,
    Comment,
    Decoder,
    DgtDecoder,
    Ident,
    InputEvent,
    MagicPiece,
    ProtocolError,
    Tracker,
    TrackerEvent,
    load_profile,
)

__all__ = ["SerialLink", "DgtLink", "LinkStatus", "scan_ports"]


@dataclass(frozen=True)
class LinkStatus:
    """A change of the connection; ``message`` is in the user's language."""
    state: str
    message: str
    port: str | None = None
    detail: str = ""


def _expand(pattern: str) -> str:
    return os.path.expanduser(pattern.replace("{data}", str(data_dir())))


def scan_ports(profile: BoardProfile) -> list[str]:
    """Ports that may hold this board: USB IDs first, then the profile's port patterns.

    A pattern is matched against the system's serial port list (``COM*`` on Windows) and, where
    ports are device files (Linux ``/dev/ttyACM*``, macOS ``/dev/cu.usbmodem*``), against the file system."""
    found: list[str] = []
    try:
        infos = list(list_ports.comports())
    except Exception:  # noqa: BLE001 - a broken enumeration must not stop the scan
        infos = []
    wanted = set(profile.usb)
    for info in infos:
        if info.vid is not None and (info.vid, info.pid) in wanted:
            found.append(info.device)
    for pattern in profile.ports:
        expanded = _expand(pattern)
        if is_port_path(expanded):   # a device file here (/dev/ttyACM0); COM3 only from the port list
            found += sorted(glob.glob(expanded))
        found += [i.device for i in infos if fnmatch.fnmatch(i.device, expanded)]
    return list(dict.fromkeys(found))


class _LineDriver:
    """The blindchess line protocol."""

    def __init__(self, rotated: bool) -> None:
        self.decoder = Decoder(rotated=rotated)

    def hello(self) -> bytes:
        return REQUEST_IDENT + REQUEST_SNAPSHOT

    def snapshot_request(self) -> bytes:
        return REQUEST_SNAPSHOT

    def feed(self, data: bytes, t: float) -> list:
        return self.decoder.feed(data, t)

    def reset(self) -> None:
        self.decoder.reset()


class _DgtDriver:
    """DGT: reset, version, board dump, then field updates."""

    def __init__(self, rotated: bool) -> None:
        self.decoder = DgtDecoder(rotated=rotated)

    def hello(self) -> bytes:
        return bytes([SEND_RESET, SEND_VERSION, SEND_BRD, SEND_UPDATE_BRD])

    def snapshot_request(self) -> bytes:
        return bytes([SEND_BRD])

    def feed(self, data: bytes, t: float) -> list:
        return self.decoder.feed(data, t)

    def reset(self) -> None:
        self.decoder.reset()


class SerialLink:
    """Reads a board in its own thread (see the module docstring for both modes).

    ``SerialLink(tracker, on_event, ...)``: tracker mode — the link feeds
    ``tracker`` and delivers its :class:`TrackerEvent` s to ``on_event``.
    ``SerialLink(None, on_input=callback, ...)``: input mode — the link
    delivers the parsed board events (Lift, Place, Snapshot, PieceUpdate with
    their time stamps) to ``callback`` and judges nothing; :meth:`expect` and
    :meth:`announce` raise RuntimeError then.  :meth:`request_snapshot` works
    in both modes.  Give a ``port`` or a ``profile``; ``role`` is the
    profile's ("blind": the tactile board, "sighted": the sighted player's
    e-board).  Raises ValueError for a missing port and profile, or when not
    exactly one of ``tracker`` and ``on_input`` is given (or ``on_event``
    without a tracker).
    """

    def __init__(self, tracker: Tracker | None, on_event: Callable[[TrackerEvent], None] | None = None, *,
                 on_input: Callable[[InputEvent], None] | None = None,
                 port: str | None = None, profile: BoardProfile | None = None,
                 on_status: Callable[[LinkStatus], None] | None = None, rotated: bool | None = None,
                 lang: str | None = None, retry: float = 0.5, poll: float = 0.02,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if port is None and profile is None:
            raise ValueError("give a port or a profile")
        if (tracker is None) == (on_input is None):
            raise ValueError("give a tracker (tracker mode) or on_input (input mode), exactly one")
        if tracker is None and on_event is not None:
            raise ValueError("on_event needs a tracker; in input mode events go to on_input")
        self.tracker = tracker
        self.on_input = on_input
        self.profile = profile or BoardProfile(name="port", title=str(port))
        self.role = self.profile.role
        self.port = port
        self._explicit_port = port
        self.on_event = on_event
        self.on_status = on_status
        self.lang = lang
        self.retry = retry
        self.poll = poll
        self.clock = clock
        self.rotated = self.profile.rotated if rotated is None else rotated
        self.driver: _LineDriver | _DgtDriver = (
            _DgtDriver(self.rotated) if self.profile.protocol == "dgt" else _LineDriver(self.rotated))
        self.ident: str | None = None
        self.status: LinkStatus = LinkStatus("stopped", tr("pegboard.status_stopped", lang))
        self.errors = 0
        self._serial: serial.Serial | None = None
        self._lock = threading.RLock()
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._was_connected = False
        self._last_request = float("-inf")
        self._missing_reported = False

    # -- public ---------------------------------------------------------------
    def start(self) -> None:
        """Start the reader thread (returns at once; the device may come later)."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._status("connecting", "pegboard.status_connecting")
        self._thread = threading.Thread(target=self._run, name="pegboard-link", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop reading and close the port."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._close()
        self._status("stopped", "pegboard.status_stopped")

    @property
    def connected(self) -> bool:
        return self._serial is not None

    @property
    def input_mode(self) -> bool:
        """True when parsed board events go to ``on_input`` (no tracker of its own)."""
        return self.tracker is None

    def _own_tracker(self) -> Tracker:
        if self.tracker is None:
            raise RuntimeError("this link delivers raw input (on_input): the tracker's owner judges the board")
        return self.tracker

    def expect(self, board: chess.Board) -> None:
        """The position the board should show (see :meth:`Tracker.expect`; tracker mode only)."""
        tracker = self._own_tracker()
        with self._lock:
            self._deliver(tracker.expect(board))

    def announce(self, move: chess.Move) -> None:
        """A move was announced (see :meth:`Tracker.announce`; tracker mode only)."""
        tracker = self._own_tracker()
        with self._lock:
            self._deliver(tracker.announce(move))

    def request_snapshot(self) -> None:
        """Ask the board for its full state (both modes; unplugged: nothing is sent, the
        link asks again on reconnect).  Safe from any thread."""
        self._send(self.driver.snapshot_request())

    # -- thread -----------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            if self._serial is None and not self._open():
                self._stop.wait(self.retry)
                self._tick(self.clock())   # time goes on: what was fully received still settles
                continue
            try:
                ser = self._serial
                assert ser is not None
                data = ser.read(ser.in_waiting or 1)
                if data and ser.in_waiting:
                    data += ser.read(ser.in_waiting)
            except (serial.SerialException, OSError, TypeError, ValueError, AttributeError) as exc:
                self._lost(exc)
                continue
            now = self.clock()
            if data:
                self._handle(data, now)
            self._tick(now)

    def _tick(self, now: float) -> None:
        if self.tracker is not None:
            with self._lock:
                self._deliver(self.tracker.tick(now))

    def _candidates(self) -> list[str]:
        if self._explicit_port is not None:
            return [self._explicit_port]
        return scan_ports(self.profile)

    def _open(self) -> bool:
        for path in self._candidates():
            try:
                ser = serial.Serial(path, baudrate=self.profile.baud, bytesize=self.profile.bytesize,
                                    parity=self.profile.parity, stopbits=self.profile.stopbits,
                                    timeout=self.poll, write_timeout=1.0)
            except (serial.SerialException, OSError, ValueError):
                continue
            self.driver.reset()
            self._serial = ser
            self.port = path
            reconnect = self._was_connected
            self._was_connected = True
            self._missing_reported = False
            self._status("reconnected" if reconnect else "connected",
                         "pegboard.status_reconnected" if reconnect else "pegboard.status_connected", port=path)
            self._send(self.driver.hello())
            self._last_request = self.clock()
            return True
        if not self._missing_reported:
            self._missing_reported = True
            if self._was_connected:
                self._status("reconnecting", "pegboard.status_reconnecting")
            else:
                self._status("not-found", "pegboard.status_not_found", profile=self.profile.title)
        return False

    def _close(self) -> None:
        ser, self._serial = self._serial, None
        if ser is not None:
            try:
                ser.close()
            except Exception:  # noqa: BLE001 - closing a vanished device may fail any way
                pass

    def _lost(self, exc: BaseException) -> None:
        port = self.port
        self._close()
        self.driver.reset()  # a half-received line belongs to nothing
        if self._stop.is_set():
            return
        self._status("disconnected", "pegboard.status_disconnected", port=port, detail=str(exc))
        self._missing_reported = False
        # without an explicit port the profile is re-scanned: the device may come back under another name

    def _send(self, data: bytes) -> None:
        ser = self._serial
        if ser is None:
            return
        try:
            with self._write_lock:
                ser.write(data)
        except (serial.SerialException, OSError, ValueError):
            pass  # the reader notices a vanished device

    def _handle(self, data: bytes, now: float) -> None:
        errors: list[ProtocolError] = []
        for item in self.driver.feed(data, now):
            if isinstance(item, ProtocolError):
                errors.append(item)
                continue
            if isinstance(item, Ident):
                self.ident = item.text
                self._status("identified", "pegboard.status_identified", ident=item.text)
                continue
            if isinstance(item, (Comment, MagicPiece)):
                continue
            if self.tracker is None:
                with self._lock:
                    self._deliver_input(item)
                continue
            with self._lock:
                events = self.tracker.feed(item)
                self._deliver(events)
            if any(e.type == "inconsistent" for e in events):
                self._status("out-of-step", "pegboard.status_out_of_step")
                self._request_resync(now)
        if errors:
            self._report_errors(errors, now)

    def _report_errors(self, errors: list[ProtocolError], now: float) -> None:
        """At most two short statuses for everything dropped in one read (bad checksums;
        other dropped bytes with their count), then a snapshot request."""
        self.errors += len(errors)
        checksums = [e for e in errors if e.kind == "checksum"]
        bad = [e for e in errors if e.kind != "checksum"]
        if checksums:
            self._status("checksum-error", "pegboard.status_checksum", detail=checksums[0].text)
        if bad:
            kind_key = f"pegboard.kind_{bad[0].kind.replace('-', '_')}"
            kind = tr(kind_key, self.lang)
            self._status("protocol-error", "pegboard.status_dropped", detail=bad[0].text,
                         kind=bad[0].kind if kind == kind_key else kind,
                         count=sum(e.dropped for e in bad))
        self._request_resync(now)

    def _request_resync(self, now: float) -> None:
        if now - self._last_request >= 0.2:
            self._last_request = now
            self.request_snapshot()

    def _deliver_input(self, event: InputEvent) -> None:
        if self.on_input is None:
            return
        try:
            self.on_input(event)
        except Exception:  # noqa: BLE001 - a faulty consumer must not kill the link
            traceback.print_exc(file=sys.stderr)

    def _deliver(self, events: list[TrackerEvent]) -> None:
        if self.on_event is None:
            return
        for event in events:
            try:
                self.on_event(event)
            except Exception:  # noqa: BLE001 - a faulty consumer must not kill the link
                traceback.print_exc(file=sys.stderr)

    def _status(self, state: str, key: str, *, port: str | None = None, detail: str = "", **params) -> None:
        port = port if port is not None else self.port
        self.status = LinkStatus(state, tr(key, self.lang, port=port or "-", detail=detail, **params), port, detail)
        if self.on_status is not None:
            try:
                self.on_status(self.status)
            except Exception:  # noqa: BLE001
                traceback.print_exc(file=sys.stderr)


class DgtLink(SerialLink):
    """A :class:`SerialLink` for a DGT board (profile ``dgt`` unless given); a tracker should sense pieces.

    Both modes as :class:`SerialLink` (``DgtLink(None, on_input=...)`` for input mode).
    """

    def __init__(self, tracker: Tracker | None, on_event: Callable[[TrackerEvent], None] | None = None,
                 **kwargs: Any) -> None:
        if kwargs.get("profile") is None:
            kwargs["profile"] = load_profile("dgt")
        super().__init__(tracker, on_event, **kwargs)
