"""Tactile peg-board and DGT e-board: protocols, tracker (pure), serial link (adapter).

Modules:

* :mod:`.tracker` — pure: board events (Lift, Place, Snapshot, PieceUpdate) in,
  TrackerEvents ("touched", "move", "takeback", "mismatch", "in-sync") out.
* :mod:`.protocol` — pure: the blindchess line protocol (boards/PROTOCOL.md).
* :mod:`.dgt` — pure: the DGT e-board protocol.
* :mod:`.choreography` — pure: how a hand carries out a move (lifts/places).
* :mod:`.replay` — pure: a protocol log through the tracker.
* :mod:`.profiles` — board profiles from boards/*.toml.
* :mod:`.link` — adapter: pyserial reader thread, reconnect (SerialLink, DgtLink).
* :mod:`.simulator` — adapter: a virtual peg-board on a pseudo-terminal.

Only the pure modules may be imported by the core; ``link`` and ``simulator``
import pyserial / POSIX terminals and are imported by the app and the CLI.
"""
