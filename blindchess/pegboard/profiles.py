"""Board profiles: the TOML files in ``boards/`` (data, not code).

A profile says how to find and talk to a board: protocol ("blindchess" line
protocol or "dgt"), baud rate and framing, port patterns and USB IDs to scan
for, orientation, whether the board senses pieces, and its ``role``:
"blind" (default: the blind player's tactile board) or "sighted" (the
sighted player's board read by itself, e.g. ``boards/dgt-sighted.toml``; it
must sense pieces).  Stdlib only.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..base import UserError, boards_dir, default_lang, tr

__all__ = ["BoardProfile", "load_profile", "available_profiles", "PROTOCOLS", "ROLES"]

PROTOCOLS = ("blindchess", "dgt")
#: Which board of the table a profile is for: the blind player's tactile board
#: (D.1) or the sighted player's board read by itself (an e-board).
ROLES = ("blind", "sighted")


@dataclass(frozen=True)
class BoardProfile:
    name: str
    title: str
    protocol: str = "blindchess"
    baud: int = 115200
    bytesize: int = 8
    parity: str = "N"
    stopbits: int = 1
    ports: tuple[str, ...] = ()
    usb: tuple[tuple[int, int], ...] = ()
    orientation: str = "normal"
    senses_pieces: bool = False
    checksums: str = "optional"
    role: str = "blind"
    source: Path | None = field(default=None, compare=False)

    @property
    def rotated(self) -> bool:
        """True when reported squares are turned by 180 degrees."""
        return self.orientation == "rotated"


def _parse(data: dict[str, Any], source: Path, lang: str | None) -> BoardProfile:
    def bad(key: str) -> UserError:
        return UserError(tr("pegboard.profile_bad", lang, path=source, key=key))

    try:
        usb = tuple((int(str(u["vid"]), 16), int(str(u["pid"]), 16)) for u in data.get("usb", []))
    except (KeyError, TypeError, ValueError):
        raise bad("usb") from None
    profile = BoardProfile(
        name=str(data.get("name", source.stem)),
        title=str(data.get(f"title_{(lang or default_lang())[:2]}") or data.get("title", source.stem)),
        protocol=str(data.get("protocol", "blindchess")),
        baud=data.get("baud", 115200),
        bytesize=data.get("bytesize", 8),
        parity=str(data.get("parity", "N")),
        stopbits=data.get("stopbits", 1),
        ports=tuple(str(p) for p in data.get("ports", [])),
        usb=usb,
        orientation=str(data.get("orientation", "normal")),
        senses_pieces=bool(data.get("senses_pieces", False)),
        checksums=str(data.get("checksums", "optional")),
        role=str(data.get("role", "blind")),
        source=source,
    )
    if profile.protocol not in PROTOCOLS:
        raise bad("protocol")
    if not isinstance(profile.baud, int) or profile.baud <= 0:
        raise bad("baud")
    if profile.role not in ROLES:
        raise bad("role")
    if profile.role == "sighted" and not profile.senses_pieces:
        raise bad("role/senses_pieces")   # the sighted board's moves are read from its pieces
    if profile.orientation not in ("normal", "rotated"):
        raise bad("orientation")
    if profile.parity not in ("N", "E", "O") or profile.bytesize not in (5, 6, 7, 8) or profile.stopbits not in (1, 2):
        raise bad("parity/bytesize/stopbits")
    return profile


def load_profile(name_or_path: str | Path, lang: str | None = None) -> BoardProfile:
    """A shipped profile by name ("dgt") or any profile file by path."""
    path = Path(name_or_path)
    if path.suffix != ".toml":
        path = boards_dir() / f"{name_or_path}.toml"
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except OSError:
        raise UserError(tr("pegboard.profile_missing", lang, name=name_or_path,
                           names=", ".join(available_profiles()))) from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(tr("pegboard.profile_bad", lang, path=path, key=str(exc))) from None
    return _parse(data, path, lang)


def available_profiles() -> list[str]:
    """Names of the shipped profiles."""
    return sorted(p.stem for p in boards_dir().glob("*.toml"))
