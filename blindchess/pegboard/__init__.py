"""The tactile peg-board and the DGT e-board, pure: their protocols and the occupancy tracker.

* :mod:`.tracker` — board events (Lift, Place, Snapshot, PieceUpdate) in, tracker events
  (touched, move, take-back, mismatch, in sync) out;
* :mod:`.protocol` — the blindchess line protocol (``boards/PROTOCOL.md``);
* :mod:`.dgt` — the DGT e-board protocol;
* :mod:`.choreography` — how a hand carries out a move (lifts and places);
* :mod:`.profiles` — board profiles from ``boards/*.toml``.

The serial links, the virtual peg-board and protocol logs replayed are adapters
(:mod:`blindchess.adapters`). Other packages import this face, never its modules.
"""

from __future__ import annotations

from .choreography import PegStep, plan_move
from .dgt import (
    MAGIC_CODES,
    SEND_BRD,
    SEND_RESET,
    SEND_UPDATE,
    SEND_UPDATE_BRD,
    SEND_UPDATE_NICE,
    SEND_VERSION,
    DgtDecoder,
    MagicPiece,
    board_dump,
    eboard_events,
    field_update,
    move_actions,
    parse_action,
    version,
)
from .profiles import BoardProfile, available_profiles, load_profile
from .protocol import (
    REQUEST_IDENT,
    REQUEST_SNAPSHOT,
    Comment,
    Decoder,
    Ident,
    ProtocolError,
    format_line,
    ident_line,
    lift_line,
    parse_line,
    place_line,
    snapshot_line,
)
from .tracker import (
    DEFAULT_SETTLE,
    InputEvent,
    Lift,
    PieceUpdate,
    Place,
    Snapshot,
    Tracker,
    TrackerEvent,
    TrackerEventType,
    occupancy,
    same_position,
)

__all__ = [
    "available_profiles", "board_dump", "BoardProfile", "Comment", "Decoder", "DEFAULT_SETTLE", "DgtDecoder",
    "eboard_events", "field_update", "format_line", "Ident", "ident_line", "InputEvent", "Lift", "lift_line",
    "load_profile", "MAGIC_CODES", "MagicPiece", "move_actions", "occupancy", "parse_action", "parse_line", "PegStep",
    "PieceUpdate", "Place", "place_line", "plan_move", "ProtocolError", "REQUEST_IDENT", "REQUEST_SNAPSHOT",
    "same_position", "SEND_BRD", "SEND_RESET", "SEND_UPDATE", "SEND_UPDATE_BRD", "SEND_UPDATE_NICE", "SEND_VERSION",
    "Snapshot", "snapshot_line", "Tracker", "TrackerEvent", "TrackerEventType", "version",
]
