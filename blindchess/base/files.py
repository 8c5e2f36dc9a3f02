"""Writing export files whole or not at all: a temporary file beside the target, then rename.

The one place that checks an output path the user gave before anything is
produced: a name the system refuses (too long, a symlink loop, a path through a
file), a folder where a file belongs, or a missing folder is a
:class:`blindchess.base.errors.UserError` (exit 2) and nothing is written.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from .errors import UserError
from .i18n import tr
from .system import make_blocking
from .textfile import os_error_text, shown_path


def _why(exc: OSError, lang: str | None) -> str:
    return os_error_text(exc, lang)


def _cannot_write(target: str | os.PathLike[str], error: str, lang: str | None) -> UserError:
    return UserError(tr("records.cannot_write", lang, path=shown_path(target), error=error))


def _mode(path: str | os.PathLike[str], lang: str | None, *, follow: bool = True) -> int | None:
    """``st_mode`` of ``path`` (symlinks followed unless ``follow`` is false), None when it does not exist.

    Raises UserError when the system refuses the name (too long, a symlink loop, no permission).
    """
    try:
        return os.stat(path, follow_symlinks=follow).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _cannot_write(path, _why(exc, lang), lang) from None


def output_target(target: str | Path, lang: str | None = None) -> Path:
    """The file an export to ``target`` really replaces (a symlink's destination), checked.

    Raises UserError when ``target`` is a folder, its folder does not exist, its name is
    refused by the system. A device or a pipe is returned as it is: :func:`atomic_path` writes
    into it and refuses a pipe nobody reads from when it comes to writing (never waits for ever).
    """
    target = Path(target)
    mode = _mode(target, lang)
    if mode is not None and stat.S_ISDIR(mode):
        raise _cannot_write(target, tr("records.target_is_folder", lang), lang)
    if mode is not None and not stat.S_ISREG(mode):
        return target   # a device or a pipe: not probed (a reader would see the end); checked when written
    if mode is None and _mode(target, lang, follow=False) is not None:
        target = Path(os.path.realpath(target))   # a dangling link: the file is created where it points
    elif mode is not None and stat.S_ISREG(mode):
        target = Path(os.path.realpath(target))   # write beside the real file; the link stays a link
    folder = target.parent if str(target.parent) else Path(".")
    folder_mode = _mode(folder, lang)
    if folder_mode is None or not stat.S_ISDIR(folder_mode):
        raise _cannot_write(target, tr("records.no_folder", lang), lang)
    return target


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(target: str | Path, lang: str | None = None, *, suffix: str = "") -> Iterator[Path]:
    """A temporary path in the target's folder; renamed onto ``target`` when the block succeeds.

    On any error the temporary file is removed and the target is left as it was.
    """
    mode = _mode(target, lang)
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        # a device or a pipe (/dev/stdout, a FIFO): renaming onto it would replace it — copy into it
        target = Path(target)
        with _special(target, lang, suffix or target.suffix) as tmp:
            yield tmp
        return
    target = output_target(target, lang)
    folder = target.parent
    try:
        fd, name = tempfile.mkstemp(prefix=".blindchess-", suffix=suffix or target.suffix, dir=folder)
    except OSError as exc:
        raise _cannot_write(target, _why(exc, lang), lang) from exc
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; an export is an ordinary file
        os.replace(tmp, target)
    except OSError as exc:
        raise _cannot_write(target, _why(exc, lang), lang) from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _open_special(target: Path, lang: str | None) -> int:
    """A blocking write descriptor of the device or pipe ``target``; UserError when a pipe has no reader.

    Opened without blocking first: a FIFO nobody reads from fails at once (ENXIO) instead of waiting.
    """
    try:
        fd = os.open(target, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        reason = tr("records.no_reader", lang) if exc.errno == errno.ENXIO else _why(exc, lang)
        raise _cannot_write(target, reason, lang) from None
    make_blocking(fd)   # Windows opened it blocking (no O_NONBLOCK there, nor os.set_blocking before 3.12)
    return fd


@contextlib.contextmanager
def _special(target: Path, lang: str | None, suffix: str) -> Iterator[Path]:
    """Produce into a temporary file, then copy its bytes into the device or pipe ``target``."""
    with tempfile.TemporaryDirectory(prefix="blindchess-") as folder:
        tmp = Path(folder) / f"out{suffix}"
        yield tmp
        fd = _open_special(target, lang)
        try:
            with open(tmp, "rb") as src, os.fdopen(fd, "wb") as dst:
                shutil.copyfileobj(src, dst)
        except OSError as exc:
            raise _cannot_write(target, _why(exc, lang), lang) from exc


def write_text(target: str | Path, text: str, lang: str | None = None, *, encoding: str = "utf-8",
               newline: str | None = None) -> Path:
    """Write ``text`` atomically."""
    with atomic_path(target, lang) as tmp, open(tmp, "w", encoding=encoding, newline=newline) as f:
        f.write(text)
    return Path(target)


def write_with(target: str | Path, produce: Callable[[Path], object], lang: str | None = None) -> Path:
    """Let ``produce(tmp_path)`` write the file, then rename it onto ``target``."""
    with atomic_path(target, lang) as tmp:
        produce(tmp)
    return Path(target)


@contextlib.contextmanager
def atomic_folder(target: str | Path, lang: str | None = None) -> Iterator[Path]:
    """A temporary folder; its files are moved into ``target`` only when the block succeeds."""
    target = Path(target)
    parent = target.parent if str(target.parent) else Path(".")
    parent_mode = _mode(parent, lang)
    if parent_mode is None or not stat.S_ISDIR(parent_mode):
        raise _cannot_write(target, tr("records.no_folder", lang), lang)
    mode = _mode(target, lang)
    if mode is not None and not stat.S_ISDIR(mode):
        raise _cannot_write(target, tr("records.target_is_file", lang), lang)
    if mode is None and _mode(target, lang, follow=False) is not None:
        raise _cannot_write(target, tr("records.target_is_file", lang), lang)   # a dangling link
    tmp = Path(tempfile.mkdtemp(prefix=".blindchess-", dir=parent))
    try:
        yield tmp
        target.mkdir(exist_ok=True)
        for item in sorted(tmp.iterdir()):
            os.chmod(item, 0o666 & ~_umask())
            os.replace(item, target / item.name)
    except OSError as exc:
        raise _cannot_write(target, _why(exc, lang), lang) from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
