"""Vosk speech models: where they are, and installing them safely.

Lookup order (:func:`find_model`): an explicit setting, the environment
variable ``BLINDCHESS_VOSK_MODEL``, then ``paths.models_dir()/<lang>``.

Installation (:func:`install`) downloads the official small model listed in
``models.toml`` (a data file: names, sizes, SHA-256 — the published sums, each cited
there), verifies the SHA-256 and refuses a mismatch before anything is unpacked (a
sum given with ``--sha256`` takes the catalogue's place: a mirror's own archive); an
entry without a sum is installed unverified and said so. It extracts the zip only after checking every entry (no absolute
paths, no ``..``, no symlinks, nothing outside the target), and moves the model
into place with a rename, so a model folder is either complete or absent —
never half-installed. Downloads and extraction happen in a staging folder
inside the models folder (same file system, so the final rename is atomic) that
is removed whatever happens; a staging folder left by a killed process is removed
by the next ``blindchess models`` command (:func:`clean_stale`).

Bounds: the download may be at most the catalogue's ``size_mb``
× :data:`DOWNLOAD_MARGIN` + :data:`DOWNLOAD_SLACK_MB` (a server that announces
more is refused before reading, one that sends no length is cut off there, a
local ``--from`` file must be a regular file within it); the archive may unpack
to at most ``unpacked_mb`` (or ``size_mb`` × :data:`UNPACK_FACTOR`) — counted
while writing, so a zip whose headers lie is stopped too; an entry with the
encryption flag refuses the archive; the whole download must finish before an
overall deadline (``time_limit`` seconds on an injectable ``clock``; each wait for
data is bounded by the socket ``timeout`` besides). Only names of the catalogue
are accepted as models (``remove .`` or ``..`` or a path is refused).
"""

from __future__ import annotations

import hashlib
import http.client
import json
import logging
import os
import shutil
import stat
import tempfile
import time
import tomllib
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ...base import UserError, models_dir, open_fd, os_error_text, quoted, tr

ENV_MODEL = "BLINDCHESS_VOSK_MODEL"
ENV_URL = "BLINDCHESS_MODEL_URL"
MANIFEST = "blindchess-model.json"
#: Refuse archives that unpack to more than this whatever the catalogue says (a zip bomb, not a speech model).
MAX_UNPACKED = 4 * 1024**3
#: The download may be this much larger than the catalogue's ``size_mb`` (a mirror, a rebuilt archive) ...
DOWNLOAD_MARGIN = 1.5
#: ... plus this many MB.
DOWNLOAD_SLACK_MB = 5
#: Without ``unpacked_mb`` in the catalogue, a model may unpack to ``size_mb`` times this (vosk's small
#: models unpack to about 1.6 times their zip).
UNPACK_FACTOR = 4
#: Bounds for a catalogue entry without a size.
FALLBACK_MB = 500
#: The whole download must be done within this many seconds.
DEFAULT_TIME_LIMIT = 30 * 60.0
#: Prefixes of the folders an installation or a removal works in (removed when their process is gone).
STAGING_PREFIXES = (".install-", ".remove-")

Progress = Callable[[int, int | None], None]


@dataclass(frozen=True)
class ModelInfo:
    """One downloadable model (``size_mb``: the zip; ``bytes``: its exact size, 0 = unknown; ``sha256``: the
    published sum, "" = none on record; ``unpacked_mb``: unpacked, 0 = unknown)."""

    lang: str
    name: str
    size_mb: int
    sha256: str
    unpacked_mb: int = 0
    bytes: int = 0

    @property
    def max_download(self) -> int:
        """The most bytes a download of this model may have."""
        size = self.size_mb or FALLBACK_MB
        return int((size * DOWNLOAD_MARGIN + DOWNLOAD_SLACK_MB) * 1_000_000)

    @property
    def max_unpacked(self) -> int:
        """The most bytes this model's archive may unpack to."""
        size = self.unpacked_mb * DOWNLOAD_MARGIN if self.unpacked_mb else (self.size_mb or FALLBACK_MB) * UNPACK_FACTOR
        return min(MAX_UNPACKED, int((size + DOWNLOAD_SLACK_MB) * 1_000_000))


def _catalogue() -> dict:
    with (Path(__file__).with_name("models.toml")).open("rb") as f:
        return tomllib.load(f)


def catalogue() -> dict[str, ModelInfo]:
    """The models blindchess knows, by language."""
    data = _catalogue()
    return {lang: ModelInfo(lang, m["name"], int(m.get("size_mb", 0)), str(m.get("sha256", "")).lower(),
                            int(m.get("unpacked_mb", 0)), int(m.get("bytes", 0)))
            for lang, m in data.get("models", {}).items()}


def model_url(info: ModelInfo) -> str:
    """Where the model's zip is downloaded from.

    ``BLINDCHESS_MODEL_URL`` is a folder URL (the model's file name is added) or,
    when its path ends in ``.zip``, the archive itself (a mirror with other names).
    """
    base = (os.environ.get(ENV_URL) or "").strip() or _catalogue().get("base_url", "")
    if base.split("?")[0].lower().endswith(".zip"):
        return base
    return base.rstrip("/") + "/" + info.name + ".zip"


def is_model_dir(path: Path) -> bool:
    """True when ``path`` looks like an unpacked vosk model."""
    path = Path(path)
    return path.is_dir() and ((path / "am").is_dir() or (path / "conf").is_dir() or (path / "final.mdl").is_file())


def installed_path(lang: str) -> Path:
    return models_dir() / lang


def configured_problem(setting: str | os.PathLike | None = None, ui_lang: str | None = None,
                       lang: str = "de") -> str | None:
    """Why a configured model folder (the setting, else ``BLINDCHESS_VOSK_MODEL``) cannot be used, or None.

    A folder that does not exist is a typing slip or an unplugged disk: the user
    must hear so, not get another model silently.
    """
    for candidate, key in ((setting, "speech.model_setting_missing"), (os.environ.get(ENV_MODEL), "speech.model_env_missing")):
        if candidate and not Path(candidate).expanduser().is_dir():
            return tr(key, ui_lang, path=str(candidate), env=ENV_MODEL, lang=lang)
    return None


def find_model(lang: str, setting: str | os.PathLike | None = None, *, strict: bool = False,
               ui_lang: str | None = None) -> Path | None:
    """The model folder for ``lang``: the setting, ``BLINDCHESS_VOSK_MODEL``, then the user's models.

    A configured folder that does not exist is reported (:func:`configured_problem`):
    with ``strict`` as a :class:`UserError`, else as a warning on the
    ``blindchess.adapters.speech`` logger before falling back to the installed model.
    """
    problem = configured_problem(setting, ui_lang, lang)
    if problem is not None:
        if strict:
            raise UserError(problem)
        logging.getLogger("blindchess.adapters.speech").warning(problem)
    for candidate in (setting, os.environ.get(ENV_MODEL)):
        if not candidate:
            continue
        path = Path(candidate).expanduser()
        if is_model_dir(path):
            return path
        if is_model_dir(path / lang):
            return path / lang
    path = installed_path(lang)
    return path if is_model_dir(path) else None


def manifest(lang: str) -> dict:
    """What was recorded at installation (name, url, sha256), or {}."""
    try:
        return json.loads((installed_path(lang) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def info_for(lang: str, ui_lang: str | None = None) -> ModelInfo:
    known = catalogue()
    if lang not in known:
        raise UserError(tr("speech.unknown_lang", ui_lang, lang=lang, langs=", ".join(sorted(known))))
    return known[lang]


# --------------------------------------------------------------------------- download

def download(url: str, target: Path, *, progress: Progress | None = None, lang: str = "de",
             ui_lang: str | None = None, timeout: float = 30.0, max_bytes: int | None = None,
             time_limit: float | None = None, clock: Callable[[], float] = time.monotonic) -> str:
    """Download ``url`` to ``target``; returns the SHA-256.

    ``max_bytes``: a server announcing more is refused before anything is read, and the
    download is cut off as soon as it passes it (a server that sends no length);
    ``time_limit``: seconds on ``clock`` within which the whole download must be done
    (checked after every piece of data; each wait for data is bounded by ``timeout``).
    Offline, HTTP errors, truncation, too large, too late: :class:`UserError`."""
    digest = hashlib.sha256()
    try:
        host = urllib.parse.urlsplit(url).netloc or url
    except ValueError as exc:   # "http://[::1": not even splittable
        raise UserError(tr("speech.bad_url", ui_lang, url=url, error=quoted("urllib", exc, ui_lang))) from exc
    done = 0
    limit_mb = (max_bytes or 0) // 1_000_000
    deadline = None if time_limit is None else clock() + time_limit
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response, open(target, "wb") as out:
            length = response.headers.get("Content-Length")
            total = int(length) if length and length.isdigit() else None
            if max_bytes is not None and total is not None and total > max_bytes:
                raise UserError(tr("filecheck.model_claims_too_much", ui_lang, size=total // 1_000_000,
                                   limit=limit_mb))
            if progress:
                progress(0, total)
            while True:
                block = response.read1(64 * 1024)   # whatever has arrived: a slow drip cannot hold it
                if not block:
                    break
                done += len(block)
                if max_bytes is not None and done > max_bytes:
                    raise UserError(tr("filecheck.model_too_big", ui_lang, limit=limit_mb))
                out.write(block)
                digest.update(block)
                if progress:
                    progress(done, total)
                if deadline is not None and clock() > deadline:
                    raise UserError(tr("filecheck.model_deadline", ui_lang, minutes=f"{(time_limit or 0) / 60:g}"))
    except urllib.error.HTTPError as exc:
        raise UserError(tr("speech.http_error", ui_lang, status=f"{exc.code} {exc.reason}", url=url)) from exc
    except urllib.error.URLError as exc:
        raise UserError(tr("speech.offline", ui_lang, host=host, error=quoted("urllib", exc.reason, ui_lang), lang=lang)) from exc
    except http.client.IncompleteRead as exc:
        expected = done + len(exc.partial) + (exc.expected or 0)
        raise UserError(tr("speech.truncated", ui_lang, got=done + len(exc.partial), expected=expected)) from exc
    except (TimeoutError, ConnectionError) as exc:
        raise UserError(tr("speech.offline", ui_lang, host=host, error=quoted(type(exc).__name__, exc, ui_lang), lang=lang)) from exc
    except ValueError as exc:   # "not a url", "http://[::1": urllib refuses it before connecting
        raise UserError(tr("speech.bad_url", ui_lang, url=url, error=quoted("urllib", exc, ui_lang))) from exc
    except OSError as exc:      # the staging file (disk full, permissions)
        raise UserError(tr("speech.disk_error", ui_lang, error=os_error_text(exc, ui_lang))) from exc
    if total is not None and done != total:
        raise UserError(tr("speech.truncated", ui_lang, got=done, expected=total))
    return digest.hexdigest()


def copy_source(source: str | os.PathLike, target: Path, max_bytes: int, ui_lang: str | None = None) -> None:
    """Copy a local archive (``--from``) into ``target``: a regular file only (``/dev/zero`` or a FIFO is
    refused without reading), at most ``max_bytes``. Raises :class:`UserError`."""
    path = Path(source)
    try:
        fd = open_fd(path, os.O_RDONLY)   # never waits on a FIFO; binary on Windows
    except FileNotFoundError as exc:
        raise UserError(tr("speech.archive_missing", ui_lang, path=source)) from exc
    except IsADirectoryError as exc:
        raise UserError(tr("speech.archive_is_folder", ui_lang, path=source)) from exc
    except OSError as exc:
        raise UserError(tr("speech.archive_unreadable", ui_lang, path=source, error=os_error_text(exc, ui_lang))) from exc
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise UserError(tr("speech.archive_is_folder", ui_lang, path=source))
        raise UserError(tr("filecheck.model_source_not_regular", ui_lang, path=source))
    with os.fdopen(fd, "rb") as src:
        if info.st_size > max_bytes:
            raise UserError(tr("filecheck.model_archive_too_big", ui_lang, path=source, limit=max_bytes // 1_000_000))
        try:
            with open(target, "wb") as out:
                copied = 0
                for block in iter(lambda: src.read(1024 * 1024), b""):
                    copied += len(block)
                    if copied > max_bytes:   # the file grew while it was copied
                        raise UserError(tr("filecheck.model_archive_too_big", ui_lang, path=source,
                                           limit=max_bytes // 1_000_000))
                    out.write(block)
        except OSError as exc:
            raise UserError(tr("speech.archive_unreadable", ui_lang, path=source, error=os_error_text(exc, ui_lang))) from exc


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1024 * 1024), b""):
            digest.update(block)
    return digest.hexdigest()


# --------------------------------------------------------------------------- safe extraction

def _unsafe_reason(info: zipfile.ZipInfo) -> str | None:
    name = info.filename
    if "\x00" in name:
        return "NUL"
    normal = name.replace("\\", "/")
    if normal.startswith("/") or (len(normal) > 1 and normal[1] == ":"):
        return "absolute path"
    if ".." in PurePosixPath(normal).parts:
        return "'..'"
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        return "symlink"
    if mode and not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)) and stat.S_IFMT(mode):
        return "special file"
    return None


def safe_extract(archive: Path, dest: Path, *, ui_lang: str | None = None, max_unpacked: int = MAX_UNPACKED) -> None:
    """Extract a zip into ``dest`` after checking every entry; refuse the whole archive on any unsafe one,
    an encrypted entry, or more than ``max_unpacked`` bytes (declared, and counted while writing)."""
    dest = Path(dest).resolve()
    try:
        with zipfile.ZipFile(archive) as zf:
            members = zf.infolist()
            total = 0
            for info in members:
                if info.flag_bits & 0x1:
                    raise UserError(tr("filecheck.model_encrypted", ui_lang, entry=info.filename))
                reason = _unsafe_reason(info)
                target = (dest / info.filename.replace("\\", "/")).resolve()
                if reason is None and target != dest and dest not in target.parents:
                    reason = "outside the target folder"
                if reason:
                    raise UserError(tr("speech.unsafe_archive", ui_lang, entry=info.filename, reason=reason))
                total += info.file_size
            if total > max_unpacked:
                raise UserError(tr("filecheck.model_unpacked_too_big", ui_lang, size=total // 1_000_000,
                                   limit=max_unpacked // 1_000_000))
            written = 0
            for info in members:
                target = dest / info.filename.replace("\\", "/")
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, open(target, "wb") as out:
                    for block in iter(lambda: src.read(1024 * 1024), b""):
                        written += len(block)
                        if written > max_unpacked:   # the headers lied about the sizes
                            raise UserError(tr("filecheck.model_unpacked_too_big", ui_lang,
                                               size=written // 1_000_000, limit=max_unpacked // 1_000_000))
                        out.write(block)
    except zipfile.BadZipFile as exc:
        raise UserError(tr("speech.bad_archive", ui_lang, error=quoted("zipfile", exc, ui_lang))) from exc
    except (zipfile.LargeZipFile, EOFError, NotImplementedError, RuntimeError) as exc:
        raise UserError(tr("speech.bad_archive", ui_lang, error=quoted("zipfile", exc, ui_lang))) from exc


def _model_root(folder: Path) -> Path | None:
    if is_model_dir(folder):
        return folder
    entries = [p for p in folder.iterdir() if not p.name.startswith("__MACOSX")]
    if len(entries) == 1 and is_model_dir(entries[0]):
        return entries[0]
    return None


# --------------------------------------------------------------------------- install / remove

@dataclass(frozen=True)
class InstallResult:
    lang: str
    name: str
    path: Path
    sha256: str
    verified: bool


def install(lang: str, *, source: str | os.PathLike | None = None, progress: Progress | None = None,
            expected_sha256: str | None = None, ui_lang: str | None = None,
            time_limit: float = DEFAULT_TIME_LIMIT, clock: Callable[[], float] = time.monotonic,
            timeout: float = 30.0) -> InstallResult:
    """Download (or take ``source``, a local zip) and install the model for ``lang``.

    Nothing is left half-installed: on any error the previous model (if any)
    stays as it was and the staging folder is removed. The download and the
    unpacked model are bounded by the catalogue's figures (see the module
    docstring); the download must be done within ``time_limit`` seconds on
    ``clock``. Raises :class:`UserError` for every failure.
    """
    info = info_for(lang, ui_lang)
    expected = (expected_sha256 or info.sha256 or "").lower()
    root = models_dir()
    try:
        root.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".install-{lang}-{os.getpid()}-", dir=root))
    except OSError as exc:
        raise UserError(tr("speech.disk_error", ui_lang, error=exc)) from exc
    try:
        archive = staging / f"{info.name}.zip"
        if source is not None:
            copy_source(source, archive, info.max_download, ui_lang)
            got = sha256_file(archive)
        else:
            got = download(model_url(info), archive, progress=progress, lang=lang, ui_lang=ui_lang,
                           timeout=timeout, max_bytes=info.max_download, time_limit=time_limit, clock=clock)
        if expected and got != expected:
            raise UserError(tr("speech.checksum_mismatch", ui_lang, expected=expected, got=got))
        unpacked = staging / "unpacked"
        unpacked.mkdir()
        safe_extract(archive, unpacked, ui_lang=ui_lang, max_unpacked=info.max_unpacked)
        model = _model_root(unpacked)
        if model is None:
            raise UserError(tr("speech.not_a_model", ui_lang))
        (model / MANIFEST).write_text(json.dumps(
            {"lang": lang, "name": info.name, "url": None if source else model_url(info),
             "sha256": got, "verified": bool(expected)}, indent=1), encoding="utf-8")
        target = installed_path(lang)
        old = None
        if target.exists():
            old = staging / "previous"
            os.replace(target, old)
        try:
            os.replace(model, target)
        except OSError:
            if old is not None:
                os.replace(old, target)
            raise
        return InstallResult(lang, info.name, target, got, bool(expected))
    except OSError as exc:
        raise UserError(tr("speech.disk_error", ui_lang, error=exc)) from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def remove(lang: str, *, ui_lang: str | None = None) -> bool:
    """Remove the installed model for ``lang``; False when there was none.

    Only a model name of the catalogue is accepted (``.``, ``..``, a path, anything else: :class:`UserError`,
    exit 2) — nothing outside ``models_dir()/<name>`` is ever removed."""
    known = catalogue()
    if lang not in known:
        raise UserError(tr("filecheck.model_bad_name", ui_lang, name=lang, langs=", ".join(sorted(known))))
    target = installed_path(lang)
    if not target.exists() and not target.is_symlink():
        return False
    trash = target.with_name(f".remove-{lang}-{os.getpid()}")
    try:
        os.replace(target, trash)
    except OSError as exc:
        raise UserError(tr("speech.disk_error", ui_lang, error=exc)) from exc
    shutil.rmtree(trash, ignore_errors=True)
    return True


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale(root: Path | None = None) -> list[Path]:
    """Remove staging folders (``.install-*``, ``.remove-*``) whose process is gone (killed during an
    installation); returns what was removed. Folders of a running installation stay."""
    root = Path(root) if root is not None else models_dir()
    removed: list[Path] = []
    if not root.is_dir():
        return removed
    for entry in root.iterdir():
        if not entry.name.startswith(STAGING_PREFIXES) or entry.is_symlink() or not entry.is_dir():
            continue
        parts = entry.name.split("-")      # .install-<lang>-<pid>-<random>, .remove-<lang>-<pid>
        pid = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None
        if pid is not None and (pid == os.getpid() or _process_alive(pid)):
            continue
        shutil.rmtree(entry, ignore_errors=True)
        removed.append(entry)
    return removed


def status() -> list[tuple[ModelInfo, Path | None]]:
    """Every known model and where it is installed (None: not installed)."""
    return [(info, installed_path(lang) if is_model_dir(installed_path(lang)) else None)
            for lang, info in catalogue().items()]

