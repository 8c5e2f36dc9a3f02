"""Virtual boards on POSIX pseudo-terminals (adapter: os.openpty): a peg-board and a DGT e-board.

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

:class:`VirtualDgtBoard` is the device side of DGT's protocol (facts in
:mod:`.dgt`): it answers SEND_BRD with a BOARD_DUMP, SEND_VERSION with
VERSION, and after SEND_UPDATE_BRD / SEND_UPDATE / SEND_UPDATE_NICE reports
every change as a FIELD_UPDATE (SEND_RESET: idle again, changes unreported,
as on a real board).  A whole game can be played on it by e-board actions
(``L e2``, ``P e4 P``) or by moves (:func:`.dgt.move_actions`)::

    with VirtualDgtBoard(link=Path("/tmp/eboard")) as eboard:
        link = SerialLink(None, on_input=table_input, profile=load_profile("dgt-sighted"), port=eboard.port)
        eboard.wait_for_host(5)
        eboard.play_move(board, chess.Move.from_uci("e2e4"))   # "L e2", "P e4 P"
"""

from __future__ import annotations

import os
import random
import select
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import chess

from ...pegboard import (
    MAGIC_CODES,
    SEND_BRD,
    SEND_RESET,
    SEND_UPDATE,
    SEND_UPDATE_BRD,
    SEND_UPDATE_NICE,
    SEND_VERSION,
    PegStep,
    board_dump,
    field_update,
    format_line,
    ident_line,
    lift_line,
    move_actions,
    parse_action,
    place_line,
    plan_move,
    snapshot_line,
)
from ...pegboard import version as dgt_version

__all__ = ["VirtualPegboard", "VirtualDgtBoard"]


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
        import tty  # POSIX only (termios): the package itself must import on Windows

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
        self._greet()
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

    def perform(self, steps: Iterable[PegStep], *, speed: float = 1.0,
                sleep: Callable[[float], None] = time.sleep, on_step: Callable[[PegStep], None] | None = None) -> None:
        """Carry out planned steps in real time (``speed`` > 1: faster)."""
        for step in steps:
            sleep(step.gap / speed)
            if step.kind == "L" and step.square is not None:
                self.lift(step.square)
            elif step.kind == "P" and step.square is not None:
                VirtualPegboard.place(self, step.square)
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

    def _greet(self) -> None:
        """What the device sends when plugged in: its identification."""
        self.send(ident_line(self.ident, with_checksum=self.checksums))

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
                self._command(byte)

    def _command(self, byte: int) -> None:
        """One host-to-device byte."""
        command = bytes([byte])
        if command in (b"\r", b"\n"):
            return
        self.commands.append(command)
        if command in (b"?", b"V"):
            self.host_seen.set()
        if command == b"?":
            self.snapshot()
        elif command == b"V":
            self.send(ident_line(self.ident, with_checksum=self.checksums))


class VirtualDgtBoard(VirtualPegboard):
    """A DGT e-board on a pseudo-terminal (POSIX only): pieces on 64 fields, DGT commands and messages.

    Port, link, :meth:`open`/:meth:`close`/:meth:`reopen` (unplug and plug in
    again), :meth:`wait_for_host` and :meth:`send` as :class:`VirtualPegboard`.
    ``commands`` holds the command bytes the host sent; ``host_seen`` is set
    by the host's first command.  ``magic``: square -> DGT magic piece code
    (13-15) standing there.  ``rotated``: the board stands turned (connector
    on White's right), so fields are numbered from h1.
    """

    def __init__(self, board: chess.BaseBoard | None = None, *, link: str | Path | None = None,
                 version: tuple[int, int] = (1, 7), rotated: bool = False) -> None:
        super().__init__(board, link=link, ident="", checksums=False)
        self.pieces: dict[int, chess.Piece] = dict((board or chess.Board()).piece_map())
        self.magic: dict[int, int] = {}
        self.version = version
        self.rotated = rotated
        self.update_mode = False
        self.dgt_commands: list[int] = []

    # -- the device ---------------------------------------------------------------
    def _greet(self) -> None:
        """A DGT board plugged in is idle and says nothing until asked."""
        self.update_mode = False

    def dump(self) -> bytes:
        """The BOARD_DUMP of the pieces standing now."""
        return board_dump(self.pieces, rotated=self.rotated, magic=self.magic)

    def _report(self, square: int, code: chess.Piece | None | int) -> bool:
        if not self.update_mode:
            return True      # idle mode: the change is not reported (a dump shows it)
        return self.send(field_update(square, code, rotated=self.rotated))

    # -- what the hand does ----------------------------------------------------------
    def lift(self, square: int) -> bool:
        """A piece (or magic piece) leaves ``square``; False (nothing sent) when it was empty."""
        if self.pieces.pop(square, None) is None and self.magic.pop(square, None) is None:
            return False
        self._sync_occupied()
        return self._report(square, None)

    def place(self, square: int, piece: chess.Piece | None = None) -> bool:
        """``piece`` is set down on ``square`` (replacing what stood there, as a fast hand may)."""
        if piece is None:
            raise ValueError("a DGT board senses the piece: say which")
        self.magic.pop(square, None)
        self.pieces[square] = piece
        self._sync_occupied()
        return self._report(square, piece)

    def place_magic(self, square: int, code: int) -> bool:
        """One of DGT's magic pieces (13-15) is set down on ``square``."""
        if code not in MAGIC_CODES:
            raise ValueError(f"not a DGT magic piece code: {code}")
        self.pieces.pop(square, None)
        self.magic[square] = code
        self._sync_occupied()
        return self._report(square, code)

    def act(self, action: str) -> bool:
        """One e-board action, ``L e4`` or ``P e4 Q`` (raises :class:`.dgt.ActionError`)."""
        square, piece = parse_action(action)
        return self.lift(square) if piece is None else self.place(square, piece)

    def scan(self, changes: dict[int, chess.Piece | None], rng: random.Random | None = None) -> None:
        """Several changes seen in one board scan, reported in scan order (shuffled by ``rng``)."""
        items = list(changes.items())
        if rng is not None:
            rng.shuffle(items)
        for square, piece in items:
            if piece is None:
                self.lift(square)
            else:
                self.place(square, piece)

    def play_move(self, board: chess.Board, move: chess.Move) -> list[str]:
        """A hand makes ``move`` (legal in ``board``): its actions, each reported; returns them."""
        actions = move_actions(board, move)
        for action in actions:
            self.act(action)
        return actions

    def snapshot(self) -> bool:
        return self.send(self.dump())

    def _sync_occupied(self) -> None:
        occupied = 0
        for square in self.pieces:
            occupied |= chess.BB_SQUARES[square]
        self.occupied = occupied

    # -- answering the host -------------------------------------------------------------
    def _command(self, byte: int) -> None:
        self.dgt_commands.append(byte)
        self.commands.append(bytes([byte]))
        self.host_seen.set()
        if byte == SEND_BRD:
            self.send(self.dump())
        elif byte == SEND_VERSION:
            self.send(dgt_version(*self.version))
        elif byte in (SEND_UPDATE_BRD, SEND_UPDATE_NICE, SEND_UPDATE):
            self.update_mode = True
        elif byte == SEND_RESET:
            self.update_mode = False
