"""Writing export files whole or not at all: a temporary file beside the target, then rename."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import UserError
from ..i18n import tr


def _why(exc: OSError, lang: str | None) -> str:
    from ..textfile import os_error_text

    return os_error_text(exc, lang)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextlib.contextmanager
def atomic_path(target: str | Path, lang: str | None = None, *, suffix: str = "") -> Iterator[Path]:
    """A temporary path in the target's folder; renamed onto ``target`` when the block succeeds.

    On any error the temporary file is removed and the target is left as it was.
    """
    target = Path(target)
    if target.exists() and not target.is_file() and not target.is_dir():
        # a device or a pipe (/dev/stdout, a FIFO): renaming onto it would replace it — copy into it
        with _special(target, lang, suffix or target.suffix) as tmp:
            yield tmp
        return
    if target.is_symlink():
        target = target.resolve()   # write beside the real file; the link stays a link
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise UserError(tr("records.cannot_write", lang, path=target, error=tr("records.no_folder", lang)))
    if target.is_dir():
        raise UserError(tr("records.cannot_write", lang, path=target, error=tr("records.target_is_folder", lang)))
    try:
        fd, name = tempfile.mkstemp(prefix=".blindchess-", suffix=suffix or target.suffix, dir=folder)
    except OSError as exc:
        raise UserError(tr("records.cannot_write", lang, path=target, error=_why(exc, lang))) from exc
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; an export is an ordinary file
        os.replace(tmp, target)
    except OSError as exc:
        raise UserError(tr("records.cannot_write", lang, path=target, error=_why(exc, lang))) from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


@contextlib.contextmanager
def _special(target: Path, lang: str | None, suffix: str) -> Iterator[Path]:
    """Produce into a temporary file, then copy its bytes into the device or pipe ``target``."""
    with tempfile.TemporaryDirectory(prefix="blindchess-") as folder:
        tmp = Path(folder) / f"out{suffix}"
        yield tmp
        try:
            with open(tmp, "rb") as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
        except OSError as exc:
            raise UserError(tr("records.cannot_write", lang, path=target, error=_why(exc, lang))) from exc


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
    if not parent.is_dir():
        raise UserError(tr("records.cannot_write", lang, path=target, error=tr("records.no_folder", lang)))
    if target.exists() and not target.is_dir():
        raise UserError(tr("records.cannot_write", lang, path=target, error=tr("records.target_is_file", lang)))
    tmp = Path(tempfile.mkdtemp(prefix=".blindchess-", dir=parent))
    try:
        yield tmp
        target.mkdir(exist_ok=True)
        for item in sorted(tmp.iterdir()):
            os.chmod(item, 0o666 & ~_umask())
            os.replace(item, target / item.name)
    except OSError as exc:
        raise UserError(tr("records.cannot_write", lang, path=target, error=_why(exc, lang))) from exc
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
