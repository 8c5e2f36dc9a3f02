"""The window's live broadcast of the game it plays: switched on and off by the setting (off by default).

The broadcast itself (server, pages, journal reading) is :mod:`blindchess.broadcast`, which the window
may not import (the layers); the command line hands its maker over with :func:`use` before the
window starts. The window only says which journal to follow, or none, and shows what comes back.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

__all__ = ["Broadcaster", "BroadcastSwitch", "use"]


class Broadcaster(Protocol):
    """A broadcast of one journal on a port (:class:`blindchess.broadcast.WindowBroadcast`)."""

    def follow(self, journal: Path | None) -> str | None:
        """Broadcast ``journal`` (None: stop); what to tell the user, or None."""

    def close(self) -> None: ...


#: Makes a broadcaster for (port, language); None: this window cannot broadcast.
_maker: Callable[[int, str], Broadcaster] | None = None


def use(maker: Callable[[int, str], Broadcaster] | None) -> None:
    """The broadcaster the window uses from now on (the command line's)."""
    global _maker
    _maker = maker


class BroadcastSwitch:
    """On while the setting is on and a game is open; follows the game's journal."""

    def __init__(self) -> None:
        self._caster: Broadcaster | None = None
        self._key: tuple[int, str] | None = None

    def sync(self, on: bool, port: int, journal: Path | None, lang: str) -> str | None:
        """Bring the broadcast in line with the setting and the game; what to tell the user, or None."""
        if not on or journal is None or _maker is None:
            self.close()
            return None
        if self._caster is not None and self._key != (port, lang):
            self.close()
        if self._caster is None:
            self._caster, self._key = _maker(port, lang), (port, lang)
        return self._caster.follow(journal)

    def close(self) -> None:
        if self._caster is not None:
            self._caster.close()
            self._caster = self._key = None
