"""The simulated boards of a scenario: the blind player's peg-board and the sighted player's DGT e-board.

A script moves pegs and pieces by hand; these devices keep what stands on the
board and say it the way the real device does on its wire, so the table reads
them through the same decoders as in the app:

* :class:`PegBoardDevice` keeps the holes; it says hello (``I`` and ``S``
  lines) when the link (re)connects and answers a snapshot request with an
  ``S`` line (the blindchess line protocol, ``boards/PROTOCOL.md``).
* :class:`EBoardDevice` keeps the pieces (also while unplugged and across a
  restart of the program); every change becomes DGT field-update bytes read by
  one real :class:`~blindchess.pegboard.dgt.DgtDecoder`, a dump request is
  answered with a BOARD_DUMP. As on a real board (and the emulator
  :class:`~blindchess.adapters.devices.simulator.VirtualDgtBoard`), lifting from an
  empty square sends nothing; unplugged, nothing reaches the host.

Pure: python-chess and the pure protocol modules; no serial port, no clock.
"""

from __future__ import annotations

import chess

from ..pegboard import (
    DgtDecoder,
    Lift,
    PieceUpdate,
    Place,
    Snapshot,
    board_dump,
    eboard_events,
    ident_line,
    parse_action,
    parse_line,
    snapshot_line,
)

__all__ = ["DEVICE_IDENT", "peg_change", "PegBoardDevice", "EBoardDevice"]

#: What the simulated peg-board answers to ``V``.
DEVICE_IDENT = "blindchess scenario pegboard 1.0"


def peg_change(text: str) -> Lift | Place | Snapshot | None:
    """The change a peg-board line describes, its checksum ignored (the device's own view: the pegs moved,
    whatever the wire made of the line). None for a line that moves no peg (``I``) or is no protocol line."""
    message = parse_line(text.split("*", 1)[0].encode("utf-8"), 0.0)
    return message if isinstance(message, (Lift, Place, Snapshot)) else None


class PegBoardDevice:
    """The peg-board as the script moves its pegs: it keeps the holes as they stand.

    :meth:`apply` takes each scripted ``peg`` line (the device sent it, so the
    pegs moved, whatever the link made of the line); :meth:`hello` is what the
    device sends when the link (re)connects (the host sends ``V?``);
    :meth:`snapshot` answers a snapshot request (``?``).
    """

    def __init__(self, occupied: int) -> None:
        self.occupied = occupied

    def apply(self, text: str) -> None:
        """Update the holes for one scripted line (``L``/``P``/``S``; ``I`` changes nothing)."""
        change = peg_change(text)
        if isinstance(change, Lift):
            self.occupied &= ~chess.BB_SQUARES[change.square]
        elif isinstance(change, Place):
            self.occupied |= chess.BB_SQUARES[change.square]
        elif isinstance(change, Snapshot):
            self.occupied = change.occupied

    def snapshot(self) -> str:
        """The ``S`` line for the pegs as they stand (with checksum, as the device sends it)."""
        return snapshot_line(self.occupied).decode("ascii").rstrip("\n")

    def hello(self) -> list[str]:
        """The answer to ``V?``: an ``I`` line and an ``S`` line."""
        return [ident_line(DEVICE_IDENT).decode("ascii").rstrip("\n"), self.snapshot()]


class EBoardDevice:
    """The sighted player's DGT e-board as the script moves its pieces (see the module docstring)."""

    def __init__(self, board: chess.BaseBoard) -> None:
        self.pieces: dict[int, chess.Piece] = dict(board.piece_map())
        self.plugged = True
        self.decoder = DgtDecoder()

    def act(self, action: str, t: float) -> list[PieceUpdate]:
        """One action (``L e2`` / ``P e4 P``): the pieces change; the updates the host reads (none unplugged).

        Raises :class:`~blindchess.pegboard.dgt.ActionError` for a malformed action.
        """
        square, piece = parse_action(action)
        if piece is None:
            if self.pieces.pop(square, None) is None:
                return []
        else:
            self.pieces[square] = piece
        if not self.plugged:
            return []
        return eboard_events([action], t, self.decoder)

    def dump(self, t: float) -> list[Snapshot]:
        """The answer to SEND_BRD, as the host decodes it (none unplugged)."""
        if not self.plugged:
            return []
        return [m for m in self.decoder.feed(board_dump(self.pieces), t) if isinstance(m, Snapshot)]

    def cable(self, plugged: bool) -> None:
        """Pull the cable out or put it back: a half-received message belongs to nothing."""
        self.plugged = plugged
        self.decoder.reset()
