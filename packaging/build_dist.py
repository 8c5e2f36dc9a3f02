"""Build the stand-alone blindchess program with PyInstaller and check that it starts: ``make dist``.

1. A fresh virtual environment in ``build/dist-env`` gets blindchess as a user installs it
   (``pip install .[dist]``, not editable; on Windows ``.[dist,windows]``, the NVDA/JAWS route) and
   PyInstaller, every version pinned by the lock ``packaging/constraints.txt`` (``make lock``).
2. PyInstaller builds ``packaging/blindchess.spec`` into ``dist/blindchess/`` (``dist/blindchess.app`` on
   macOS), with ``SOURCE_DATE_EPOCH`` (the last commit's time) and ``PYTHONHASHSEED=0``, so the same
   sources and packages give the same program.
3. The built program is started as a user would: ``--version``, a whole scenario game
   (``scenario run tests/scenarios/game_whole.scn``), and the window (offscreen), which must
   report that it is ready; on Windows also ``blindchess-window.exe`` (no console: its exit code
   says it got to the ready window).
4. ``dist/blindchess-<version>-<system>-<machine>.zip``: the folder (or the app) with ``licenses/``
   (every bundled component's licence text, packaging/licences.py), entries sorted and dated
   ``SOURCE_DATE_EPOCH``.

Runs on Linux, Windows and macOS (the workflow's dist jobs run it there); exits non-zero on any failure.
"""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENV = ROOT / "build" / "dist-env"
WORK = ROOT / "build" / "pyinstaller"
DIST = ROOT / "dist"
WINDOWS = sys.platform == "win32"
LOCK = ROOT / "packaging" / "constraints.txt"


def _env_python() -> Path:
    return ENV / ("Scripts/python.exe" if WINDOWS else "bin/python")


def _epoch() -> str:
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return os.environ["SOURCE_DATE_EPOCH"]
    try:
        return subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "315532800"   # 1980-01-01, the earliest date a zip file can hold


def _run(args: list[str | Path], **kwargs) -> subprocess.CompletedProcess[str]:
    print("+", " ".join(str(a) for a in args), flush=True)
    done = subprocess.run([str(a) for a in args], text=True, **kwargs)
    if done.returncode != 0:
        raise SystemExit(f"exit {done.returncode}: {' '.join(str(a) for a in args)}\n{done.stdout or ''}{done.stderr or ''}")
    return done


def forget_earlier_builds() -> None:
    """setuptools builds the wheel in the source tree's build/ and keeps what an earlier build put there: a module
    since moved or removed would be shipped again. Each build starts from the sources alone."""
    for stale in [ROOT / "build" / "lib", *(ROOT / "build").glob("bdist.*")]:
        shutil.rmtree(stale, ignore_errors=True)


def build(env: dict[str, str]) -> None:
    if not _env_python().exists():
        venv.create(ENV, with_pip=True, clear=True)
    _run([_env_python(), "-m", "pip", "install", "-q", "--upgrade", "pip"], env=env)
    extras = "dist,windows" if WINDOWS else "dist"
    forget_earlier_builds()
    _run([_env_python(), "-m", "pip", "install", "-q", "-c", LOCK, f"{ROOT}[{extras}]"], env=env)
    shutil.rmtree(DIST / "blindchess", ignore_errors=True)
    shutil.rmtree(DIST / "blindchess.app", ignore_errors=True)
    _run([_env_python(), "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
          "--distpath", DIST, "--workpath", WORK, ROOT / "packaging" / "blindchess.spec"],
         cwd=ROOT / "packaging", env=env)


def program() -> Path:
    """The built console program."""
    return DIST / "blindchess" / ("blindchess.exe" if WINDOWS else "blindchess")


def check(env: dict[str, str]) -> str:
    """Start the built program as a user would; returns its version. Raises on any failure."""
    home = WORK / "home"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    run_env = {**env, "BLINDCHESS_HOME": str(home), "BLINDCHESS_LANG": "en", "QT_QPA_PLATFORM": "offscreen"}
    version = _run([program(), "--version"], env=run_env, capture_output=True).stdout.strip()
    print(version)
    game = _run([program(), "scenario", "run", "--journal", home / "game.jsonl",
                 ROOT / "tests" / "scenarios" / "game_whole.scn"], env=run_env, capture_output=True).stdout
    if "end: result" not in game or "Thxf8" not in game:
        raise SystemExit(f"the built program did not play the scenario to its end:\n{game[-2000:]}")
    print(game.strip().splitlines()[-8])
    ready = _run([program(), "app"], env={**run_env, "BLINDCHESS_EXIT_WHEN_READY": "1"}, capture_output=True,
                 timeout=120).stdout
    if not ready.startswith("ready "):
        raise SystemExit(f"the built program's window did not report ready: {ready!r}")
    print("window:", ready.strip())
    if WINDOWS:
        window = program().with_name("blindchess-window.exe")
        _run([window], env={**run_env, "BLINDCHESS_EXIT_WHEN_READY": "1"}, capture_output=True, timeout=120)
        print("window program: ready")
    return version.split()[-1]


def archive(version: str, epoch: int) -> Path:
    """The program as one zip, named by version, system and machine (see :func:`archive_folder`)."""
    folder = DIST / ("blindchess.app" if sys.platform == "darwin" else "blindchess")
    system = {"win32": "windows", "darwin": "macos"}.get(sys.platform, sys.platform)
    machine = os.environ.get("BLINDCHESS_TARGET_ARCH") or platform.machine().lower()   # universal2 on request
    return archive_folder(folder, DIST / f"blindchess-{version}-{system}-{machine}.zip", epoch)


def archive_folder(folder: Path, target: Path, epoch: int) -> Path:
    """``folder`` as one zip (its name the top folder), entries sorted and dated ``epoch``: the same build
    gives the same bytes."""
    stamp = time.gmtime(max(epoch, 315532800))[:6]
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(folder.rglob("*")):
            if path.is_dir() and not path.is_symlink():
                continue
            info = zipfile.ZipInfo(str(path.relative_to(folder.parent)).replace(os.sep, "/"), stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            if path.is_symlink():   # macOS frameworks: links stay links
                info.external_attr = (0o120777 << 16)
                zf.writestr(info, os.readlink(path))
            else:
                info.external_attr = ((0o755 if os.access(path, os.X_OK) else 0o644) | 0o100000) << 16
                zf.writestr(info, path.read_bytes())
    return target


def main() -> int:
    epoch = _epoch()
    env = {**os.environ, "SOURCE_DATE_EPOCH": epoch, "PYTHONHASHSEED": "0"}
    build(env)
    version = check(env)
    target = archive(version, int(epoch))
    print(f"built {target} ({target.stat().st_size // (1024 * 1024)} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
