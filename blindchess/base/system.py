"""What differs between Windows, macOS and Linux, in one place: opening files, folder sync, serial ports.

Every other module calls these functions and imports no operating-system-only
module (``fcntl``, ``msvcrt``, ``termios``, ``tty``, ``pty`` …) at module level:
the package imports on every system.

* :func:`open_fd` opens a file as a descriptor that never waits when opened
  (a FIFO nobody writes to would), is not inherited by child processes, and
  on Windows is binary (no ``\\r\\n`` translation: a journal's bytes are its
  check sums). :func:`make_blocking` then makes reads and writes wait again.
* :func:`sync_folder`: make a new name in a folder durable (``fsync`` of the
  folder on POSIX; on Windows a folder cannot be opened for syncing and NTFS
  journals its names itself, so there is nothing to do).
* :func:`is_port_path`: whether a board profile's port pattern is a device
  path to look for in the file system here (``/dev/ttyACM*`` on Linux,
  ``/dev/cu.usbmodem*`` on macOS) rather than a name the serial port list
  gives (``COM3`` on Windows).
"""

from __future__ import annotations

import errno
import os
import sys

__all__ = ["is_windows", "is_macos", "open_fd", "make_blocking", "sync_folder", "is_port_path", "lock_file",
           "unlock_file", "utf8_output"]

#: Where the Windows lock is taken: one byte at 1 TiB, far past any journal's end (at most 256 MiB), because Windows locks are
#: mandatory — a lock on the content would keep every reader (the journal list, a broadcast) out.
_WINDOWS_LOCK_AT = 1 << 40


def is_windows() -> bool:
    """True on Windows (``sys.platform == "win32"``)."""
    return sys.platform == "win32"


def is_macos() -> bool:
    """True on macOS."""
    return sys.platform == "darwin"


def open_fd(path: str | os.PathLike[str], flags: int, mode: int = 0o644) -> int:
    """``os.open(path, flags, mode)`` that never waits when opening and is not inherited; binary on Windows.

    On POSIX the descriptor is opened non-blocking (call :func:`make_blocking`
    before reading or writing it), close-on-exec and never as a controlling
    terminal. Raises OSError as ``os.open`` does.
    """
    if is_windows():
        return os.open(path, flags | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOINHERIT", 0), mode)
    return os.open(path, flags | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY, mode)


def make_blocking(fd: int) -> None:
    """Reads and writes on ``fd`` wait again (undoes the non-blocking open of :func:`open_fd`).

    Windows opens every file blocking (it has no ``O_NONBLOCK``) and has no ``os.set_blocking`` before
    Python 3.12 — and from 3.12 on only for pipes: nothing to undo there.
    """
    if not is_windows():
        os.set_blocking(fd, True)


def lock_file(fd: int) -> bool:
    """Hold an exclusive lock on the open file ``fd`` until :func:`unlock_file` or its closing; False when
    another open of the file (in this process or another) holds it. Never waits.

    POSIX: ``flock``; Windows: ``msvcrt.locking`` on one byte past any content (see
    :data:`_WINDOWS_LOCK_AT`), so readers are not kept out. Raises OSError for other failures.
    """
    if sys.platform == "win32":
        import msvcrt

        here = os.lseek(fd, 0, os.SEEK_CUR)
        try:
            os.lseek(fd, _WINDOWS_LOCK_AT, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except PermissionError:
            return False
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EDEADLK):
                return False
            raise
        finally:
            os.lseek(fd, here, os.SEEK_SET)
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def unlock_file(fd: int) -> None:
    """Give up the lock of :func:`lock_file` (closing the file gives it up too)."""
    if sys.platform == "win32":
        import msvcrt

        here = os.lseek(fd, 0, os.SEEK_CUR)
        try:
            os.lseek(fd, _WINDOWS_LOCK_AT, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
        finally:
            os.lseek(fd, here, os.SEEK_SET)
        return
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_UN)


def sync_folder(folder: str | os.PathLike[str]) -> None:
    """Make a new name in ``folder`` durable.

    POSIX: the folder is opened and ``fsync`` ed; file systems that cannot sync a
    folder are tolerated. Windows: nothing to do (a folder cannot be opened for
    syncing there; NTFS journals its names). Raises OSError for a real failure.
    """
    if is_windows():
        return
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def is_port_path(pattern: str) -> bool:
    """True when a board profile's port ``pattern`` names device files to look for here.

    POSIX: absolute paths (``/dev/ttyACM*``, ``/dev/cu.usbserial*``, ``~/…``).
    Windows has no device files: its ports (``COM3``) come from the serial port
    list only, so no pattern is a path there.
    """
    if is_windows():
        return False
    return pattern.startswith(("/", "~")) or os.sep in pattern


def utf8_output() -> None:
    """Standard output and error write UTF-8 when they go to a pipe or a file on Windows.

    There Python encodes them in the ANSI code page (cp1252 …), which has no chess pieces, no Cyrillic
    for a German Windows and no German umlauts for a Russian one: ``blindchess chess960 --unicode > file``
    would fail. A console is left alone (Python writes it as UTF-16), as is every other system (UTF-8
    already). Characters a stream still cannot take are replaced, never an error.
    """
    if not is_windows():
        return
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is None or stream.isatty():
            continue
        if str(getattr(stream, "encoding", "")).lower().replace("-", "") != "utf8":
            reconfigure(encoding="utf-8", errors="replace")
