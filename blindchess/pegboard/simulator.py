"""A virtual peg-board on a POSIX pseudo-terminal (adapter: os.openpty).

The simulator is the device side of the blindchess line protocol: it keeps the
occupancy of 64 holes, writes ``L``/``P`` lines as pegs are lifted and placed
(with ``*HH`` checksums unless told otherwise), and answers the host's ``?``
(snapshot) and ``V`` (identification).  Its port is the pseudo-terminal's
slave device, or a symbolic link to it (``link``) that survives
:meth:`VirtualPegboard.reopen` — unplugging and replugging the board.

    sim = VirtualPegboard(link=Path("/tmp/board"))
    port = sim.open()
    sim.lift(chess.E2); sim.place(chess.E4)
    sim.close()
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
import tty
from collections.abc import Callable, Iterable
from pathlib import Path

import chess

from .choreography import Step, plan_move
from .protocol import format_line, ident_line, lift_line, place_line, snapshot_line

__all__ = ["VirtualPegboard"]


class VirtualPegboard:
    """A peg-board on a pseudo-terminal (POSIX only)."""

    def __init__(self, board: chess.BaseBoard | None = None, *, link: str | Path | None = None,
                 ident: str = "blindchess simulator 1.0", checksums: bool = True) -> None:
        self.occupied = int((board or chess.Board()).occupied)
        self.link = Path(link) if link is not None else None
        self.ident = ident
        self.checksums = checksums
        self.device: str | None = None
        self.commands: list[bytes] = []      # what the host sent (for tests and the log)
        self._master: int | None = None
        self._slave: int | None = None
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.host_seen = threading.Event()   # set by the host's first ``?`` or ``V``

    # -- the device ---------------------------------------------------------------
    @property
    def port(self) -> str:
        """The port to open: the link if there is one, else the slave device."""
        if self.link is not None:
            return str(self.link)
        assert self.device is not None, "open() first"
        return self.device

    def open(self) -> str:
        """Plug the board in: a new pseudo-terminal; returns the port.

        The link may replace an older link, never anything else: a file or
        folder at that path raises :class:`FileExistsError` and nothing is opened.
        """
        if self.link is not None and (self.link.exists() or self.link.is_symlink()) and not self.link.is_symlink():
            raise FileExistsError(str(self.link))
        master, slave = os.openpty()
        tty.setraw(slave)          # no echo, no line editing: bytes pass as they are
        tty.setraw(master)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.device = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            tmp.unlink(missing_ok=True)
            os.symlink(self.device, tmp)
            os.replace(tmp, self.link)
        self._stop.clear()
        self._thread = threading.Thread(target=self._serve, name="pegboard-simulator", daemon=True)
        self._thread.start()
        self.send(ident_line(self.ident, with_checksum=self.checksums))
        return self.port

    def close(self) -> None:
        """Unplug the board: the pseudo-terminal disappears."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(1.0)
            self._thread = None
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    try:
                        os.close(fd)
                    except OSError:
                        pass
            self._master = self._slave = None

    def reopen(self) -> str:
        """Plug the board in again (a new pseudo-terminal; the link follows)."""
        self.close()
        return self.open()

    def remove_link(self) -> None:
        """Remove the link — only if it is still a link (never a file that took its place)."""
        if self.link is not None and self.link.is_symlink():
            self.link.unlink(missing_ok=True)

    def __enter__(self) -> VirtualPegboard:
        self.open()
        return self

    def __exit__(self, *exc) -> None:
        self.close()
        self.remove_link()

    # -- what the hand does ----------------------------------------------------------
    def send(self, data: bytes) -> bool:
        """Raw bytes to the host; False when unplugged (the bytes are lost, as on a real cable)."""
        with self._lock:
            if self._master is None:
                return False
            view = memoryview(data)
            deadline = time.monotonic() + 1.0
            while view:
                try:
                    written = os.write(self._master, view)
                    view = view[written:]
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        return False
                    time.sleep(0.001)
                except OSError:
                    return False
            return True

    def lift(self, square: int) -> bool:
        """A peg leaves ``square`` (the line is sent only if the hole held a peg)."""
        bit = chess.BB_SQUARES[square]
        if not self.occupied & bit:
            return False
        self.occupied &= ~bit
        return self.send(lift_line(square, with_checksum=self.checksums))

    def place(self, square: int) -> bool:
        bit = chess.BB_SQUARES[square]
        if self.occupied & bit:
            return False
        self.occupied |= bit
        return self.send(place_line(square, with_checksum=self.checksums))

    def snapshot(self) -> bool:
        return self.send(snapshot_line(self.occupied, with_checksum=self.checksums))

    def comment(self, text: str) -> bool:
        return self.send(format_line(f"# {text}", with_checksum=False))

    def perform(self, steps: Iterable[Step], *, speed: float = 1.0,
                sleep: Callable[[float], None] = time.sleep, on_step: Callable[[Step], None] | None = None) -> None:
        """Carry out planned steps in real time (``speed`` > 1: faster)."""
        for step in steps:
            sleep(step.gap / speed)
            if step.kind == "L":
                self.lift(step.square)
            elif step.kind == "P":
                self.place(step.square)
            if on_step is not None:
                on_step(step)

    def play(self, start: chess.Board, moves: Iterable[chess.Move], *, rng: random.Random | None = None,
             delay: float = 1.5, settle: float = 0.5, sleep: Callable[[float], None] = time.sleep,
             on_move: Callable[[chess.Board, chess.Move], None] | None = None) -> None:
        """Play a game: each move by a realistic hand, ``delay`` seconds between moves."""
        rng = rng or random.Random()
        board = start.copy()
        for move in moves:
            sleep(delay)
            if on_move is not None:
                on_move(board, move)
            self.perform(plan_move(board, move, rng, settle=settle), sleep=sleep)
            board.push(move)

    def wait_for_host(self, timeout: float | None = None) -> bool:
        """Block until a host has sent ``?`` or ``V`` (the blindchess link sends ``V?`` on connect).

        On a pseudo-terminal nothing tells the device that a program opened the
        port; the host's first request is the only sure sign.  True when seen.
        """
        return self.host_seen.wait(timeout)

    # -- answering the host -------------------------------------------------------------
    def _serve(self) -> None:
        while not self._stop.is_set():
            master = self._master
            if master is None:
                return
            try:
                ready, _, _ = select.select([master], [], [], 0.05)
                if not ready:
                    continue
                data = os.read(master, 256)
            except (OSError, ValueError):
                if self._stop.wait(0.05):
                    return
                continue
            for byte in data:
                command = bytes([byte])
                if command in (b"\r", b"\n"):
                    continue
                self.commands.append(command)
                if command in (b"?", b"V"):
                    self.host_seen.set()
                if command == b"?":
                    self.snapshot()
                elif command == b"V":
                    self.send(ident_line(self.ident, with_checksum=self.checksums))
