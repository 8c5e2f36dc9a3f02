"""Reading a user's text file (a score, a log, a PGN) with plain messages.

Every command that takes a text file meets the same trouble: the file is
missing, is a folder, may not be read, is binary, or is not UTF-8 (a scoresheet
typed on Windows, UTF-16 from a notepad). This module turns each case into a
:class:`blindchess.errors.UserError` in the user's language — never the
operating system's English ("Is a directory") — and decodes the text as a user
would expect: UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252.
Pure: the standard library only.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from .errors import UserError
from .i18n import tr

#: Larger files are refused (a score or a log is a few kilobytes; readers cap their text anyway).
MAX_BYTES = 20_000_000


def os_error_text(exc: OSError, lang: str | None = None) -> str:
    """Why ``exc`` happened, in the user's language (the OS text for rare cases)."""
    key = {
        errno.ENOENT: "files.no_such_file",
        errno.EISDIR: "files.is_folder",
        errno.ENOTDIR: "files.no_such_file",
        errno.EACCES: "files.no_permission",
        errno.EPERM: "files.no_permission",
        errno.ENOSPC: "files.disk_full",
        errno.EROFS: "files.read_only",
    }.get(exc.errno or 0)
    return tr(key, lang) if key else str(exc.strerror or exc)


def read_bytes(path: str | os.PathLike, lang: str | None = None, *, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of a file ("-" is not special here); UserError (exit 2) when impossible."""
    p = Path(path)
    if p.is_dir():
        raise UserError(tr("files.cannot_read", lang, path=path, error=tr("files.is_folder", lang)), 2)
    try:
        with p.open("rb") as f:
            data = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise UserError(tr("files.missing", lang, path=path), 2) from None
    except OSError as exc:
        raise UserError(tr("files.cannot_read", lang, path=path, error=os_error_text(exc, lang)), 2) from None
    if len(data) > max_bytes:
        raise UserError(tr("files.too_big", lang, path=path, limit=max_bytes // 1_000_000), 2)
    return data


def decode(data: bytes, path: str | os.PathLike, lang: str | None = None) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252; binary is refused."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise UserError(tr("files.binary", lang, path=path), 2) from None
    if b"\x00" in data:
        raise UserError(tr("files.binary", lang, path=path), 2)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        raise UserError(tr("files.binary", lang, path=path), 2) from None
    controls = sum(1 for c in text if ord(c) < 32 and c not in "\t\n\r\f")
    if controls > len(text) // 100:
        raise UserError(tr("files.binary", lang, path=path), 2)
    return text


def read_text(path: str | os.PathLike, lang: str | None = None, *, max_bytes: int = MAX_BYTES) -> str:
    """The text of a user's file, decoded as :func:`decode` does."""
    return decode(read_bytes(path, lang, max_bytes=max_bytes), path, lang)
