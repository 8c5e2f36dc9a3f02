"""Reading a user's text file (a score, a log, a PGN) with plain messages.

Every command that takes a text file meets the same trouble: the file is
missing, is a folder, may not be read, is binary, or is not UTF-8 (a scoresheet
typed on Windows, UTF-16 from a notepad). This module turns each case into a
:class:`blindchess.base.errors.UserError` in the user's language — never the
operating system's English ("Is a directory") — and decodes the text as a user
would expect: UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252.
Pure: the standard library only.

It is also the one place that decides whether a path given on the command line
may be read at all (:func:`regular_file`, :func:`read_bytes`): only regular
files are read — a FIFO nobody writes to would block, ``/dev/zero`` never
ends — and a name the system refuses (too long, a symlink loop) is a plain
message, never an internal error.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import UserError
from .i18n import quoted, tr

#: Larger files are refused (a score or a log is a few kilobytes; readers cap their text anyway).
MAX_BYTES = 20_000_000


#: Longer paths are shortened in messages: an ordinary path stays whole, a 300-character name would fill
#: the screen reader's line.
SHOWN_PATH_CHARS = 200


def shown_path(path: object) -> str:
    """``path`` as text for a message: at most :data:`SHOWN_PATH_CHARS` characters, the end kept.

    Anything that is not a path (a file descriptor number in an ``OSError``) is shown as ``str()``.
    """
    text = os.fsdecode(path) if isinstance(path, (str, bytes, os.PathLike)) else str(path)
    if len(text) <= SHOWN_PATH_CHARS:
        return text
    return "…" + text[-(SHOWN_PATH_CHARS - 1):]


def os_error_text(exc: OSError, lang: str | None = None) -> str:
    """Why ``exc`` happened, in the user's language (for rare cases the system's own text, quoted as such)."""
    key = {
        errno.ENOENT: "files.no_such_file",
        errno.EISDIR: "files.is_folder",
        errno.ENOTDIR: "files.no_such_file",
        errno.EACCES: "files.no_permission",
        errno.EPERM: "files.no_permission",
        errno.ENOSPC: "files.disk_full",
        errno.EROFS: "files.read_only",
        errno.ENAMETOOLONG: "files.name_too_long",
        errno.ELOOP: "files.symlink_loop",
        errno.ENXIO: "files.not_regular",
        errno.EFBIG: "files.disk_full",
        errno.EDQUOT: "files.disk_full",
    }.get(exc.errno or 0)
    return tr(key, lang) if key else quoted(tr("files.system", lang), exc.strerror or exc, lang)


def is_missing(path: str | os.PathLike[str]) -> bool:
    """True only when nothing at all is at ``path`` (a dangling link, a refused name are "there")."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def _not_regular(mode: int, lang: str | None) -> str:
    """Why a file of this ``st_mode`` is not read: a folder, or a device/pipe/socket."""
    return tr("files.is_folder" if stat.S_ISDIR(mode) else "files.not_regular", lang)


def regular_file(path: str | os.PathLike[str], lang: str | None = None) -> Path:
    """``path`` as a :class:`Path` when it names an existing regular file (symlinks followed).

    Raises :class:`UserError` (exit 2) with the reason in the user's language when the
    file is missing, is a folder, a device, a FIFO or a socket, or when the system refuses
    the name (too long, a symlink loop, no permission). For paths that are handed to
    libraries which open the file themselves (WAV readers, journals).
    """
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise UserError(tr("files.missing", lang, path=shown_path(path)), 2) from None
    except OSError as exc:
        raise UserError(tr("files.cannot_read", lang, path=shown_path(path), error=os_error_text(exc, lang)), 2) from None
    if not stat.S_ISREG(mode):
        raise UserError(tr("files.cannot_read", lang, path=shown_path(path), error=_not_regular(mode, lang)), 2)
    return Path(path)


def read_bytes(path: str | os.PathLike[str], lang: str | None = None, *, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of a regular file, at most ``max_bytes`` ("-" is not special here).

    The file is opened without blocking (a FIFO with no writer is refused, not waited
    on) and checked to be a regular file before anything is read. Raises
    :class:`UserError` (exit 2) when the file is missing, not a regular file, unreadable,
    named in a way the system refuses, or larger than ``max_bytes``.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise UserError(tr("files.missing", lang, path=shown_path(path)), 2) from None
    except OSError as exc:
        reason = tr("files.is_folder", lang) if exc.errno == errno.EISDIR else os_error_text(exc, lang)
        raise UserError(tr("files.cannot_read", lang, path=shown_path(path), error=reason), 2) from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise UserError(tr("files.cannot_read", lang, path=shown_path(path), error=_not_regular(mode, lang)), 2)
    with os.fdopen(fd, "rb") as f:
        try:
            data = f.read(max_bytes + 1)
        except OSError as exc:
            raise UserError(tr("files.cannot_read", lang, path=shown_path(path), error=os_error_text(exc, lang)), 2) from None
    if len(data) > max_bytes:
        raise UserError(tr("files.too_big", lang, path=shown_path(path), limit=max_bytes // 1_000_000), 2)
    return data


def decode(data: bytes, path: str | os.PathLike[str], lang: str | None = None) -> str:
    """UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252; binary is refused."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise UserError(tr("files.binary", lang, path=shown_path(path)), 2) from None
    if b"\x00" in data:
        raise UserError(tr("files.binary", lang, path=shown_path(path)), 2)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        raise UserError(tr("files.binary", lang, path=shown_path(path)), 2) from None
    controls = sum(1 for c in text if ord(c) < 32 and c not in "\t\n\r\f")
    if controls > len(text) // 100:
        raise UserError(tr("files.binary", lang, path=shown_path(path)), 2)
    return text


def read_text(path: str | os.PathLike[str], lang: str | None = None, *, max_bytes: int = MAX_BYTES) -> str:
    """The text of a user's file, decoded as :func:`decode` does."""
    return decode(read_bytes(path, lang, max_bytes=max_bytes), path, lang)
