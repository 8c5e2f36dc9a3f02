"""The boards' serial links in input mode: raw board events for the table, device requests carried out.

:class:`TactileLink` opens :class:`blindchess.adapters.devices.link.SerialLink` with
``on_input`` (the table owns the tracker and judges the pegs): every parsed
board event (Lift, Place, Snapshot, PieceUpdate) goes to ``on_input`` and every
connection change to ``on_status`` — both from the link's reader thread; the
controller forwards them to the GUI thread. The table's
:class:`~blindchess.table.events.DeviceRequest` "snapshot" is carried out by
:meth:`TactileLink.request`; "expect" needs nothing from the device (the
table's tracker holds the expected position).

Kinds: "simulator" (the virtual board of ``blindchess pegboard simulate``,
found through the ``simulator`` profile), "profile" (a board found by its
profile, e.g. "dgt"), "serial" (an explicit port, read with ``profile``'s
protocol when given).

The sighted player's DGT e-board is a second :class:`TactileLink`
for the device "eboard" (:func:`eboard_link`): it is opened with the profile
``dgt-sighted`` (role "sighted", :data:`EBOARD_PROFILE`) — found by its USB
ids and port patterns, or on the port the new-game dialog names
(:func:`eboard_choice`) — and its events go to the table as ``EBoardInput``; it
carries out the table's ``DeviceRequest(device="eboard", what="snapshot")``
(a board dump). Each link carries out only the requests of its own device.
"""

from __future__ import annotations

from collections.abc import Callable

from ..adapters import LinkStatus, SerialLink
from ..base import UserError, tr
from ..pegboard import BoardProfile, InputEvent, load_profile
from ..table import DeviceRequest

#: The profile of the sighted player's DGT e-board (role "sighted").
EBOARD_PROFILE = "dgt-sighted"


def board_profile(kind: str, profile: str, lang: str | None = None) -> BoardProfile | None:
    """The profile of the chosen board (None: a bare serial port). Raises UserError for an unknown profile."""
    if kind == "simulator":
        return load_profile("simulator", lang)
    if kind in ("profile", "serial") and profile:
        return load_profile(profile, lang)
    return None


def senses_pieces(kind: str, profile: str) -> bool:
    """Whether the chosen board reports pieces (DGT) or only occupancy (peg-boards)."""
    if kind not in ("profile", "serial") or not profile:
        return False
    try:
        return load_profile(profile).senses_pieces
    except UserError:
        return False


def eboard_choice(port: str = "") -> tuple[str, str, str]:
    """(kind, port, profile) to open the sighted player's e-board: on ``port``, or found by its profile."""
    return ("serial", port, EBOARD_PROFILE) if port else ("profile", "", EBOARD_PROFILE)


def eboard_failed(error: object, lang: str | None = None) -> str:
    """The message when the e-board's link cannot be opened (the window's board still works)."""
    return tr("eboard.link_failed", lang, error=error)


def eboard_link() -> TactileLink:
    """A link for the sighted player's e-board (it carries out the table's "eboard" requests)."""
    return TactileLink("eboard")


class TactileLink:
    """One open link to a board. Raises UserError / OSError / ValueError from :meth:`open`.

    ``target``: the device whose :class:`DeviceRequest` events it carries out
    ("pegboard": the tactile board; "eboard": the sighted player's e-board).
    """

    def __init__(self, target: str = "pegboard") -> None:
        self.target = target
        self.link: SerialLink | None = None
        self.port: str | None = None
        self.device: str | None = None
        self.state: str | None = None

    def open(self, kind: str, port: str, profile: str, *, lang: str, on_input: Callable[[InputEvent], None],
             on_status: Callable[[LinkStatus], None], clock: Callable[[], float]) -> None:
        """Start reading the board (the link waits for a device that is not there yet, and reconnects)."""
        self.close()
        chosen = board_profile(kind, profile, lang)
        self.link = SerialLink(None, on_input=on_input, port=port or None, profile=chosen, on_status=on_status,
                               lang=lang, clock=clock)
        self.device = chosen.title if chosen is not None else port
        self.port = port or None
        self.link.start()

    @property
    def connected(self) -> bool:
        return self.link is not None and self.link.connected

    def status(self, status: LinkStatus) -> None:
        """Note a connection change (port, device identification, state)."""
        if self.link is None:
            return
        if status.port:
            self.port = status.port
        if self.link.ident:
            self.device = self.link.ident
        self.state = status.state

    def request(self, request: DeviceRequest) -> None:
        """Carry out the table's request on this link's device ("snapshot"; "expect" needs nothing)."""
        if self.link is not None and request.device == self.target and request.what == "snapshot":
            self.link.request_snapshot()

    def close(self) -> None:
        link, self.link = self.link, None
        if link is not None:
            link.on_status = None
            link.stop()
        self.port = self.device = self.state = None
