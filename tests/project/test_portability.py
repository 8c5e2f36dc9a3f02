"""blindchess on Windows and macOS, checked here on Linux: every module imports and a journaled game is played
with the POSIX-only modules unavailable and ``sys.platform`` set to "win32"; the package metadata (licence,
version); the CI workflow for the three systems; the simulator unplugged by SIGTERM."""

from __future__ import annotations

import importlib.metadata
import json
import os
import signal
import subprocess
import sys
import textwrap

import chess.pgn
import pytest

from tests.support.paths import REPO

ROOT = REPO

#: Modules a Windows Python does not have.
POSIX_ONLY = ("fcntl", "termios", "tty", "pty", "grp", "pwd", "resource", "syslog", "posix_ipc")
#: ``os`` names a Windows Python does not have.
POSIX_OS_NAMES = ("O_NONBLOCK", "O_DIRECTORY", "O_CLOEXEC", "O_NOCTTY", "openpty", "ttyname", "set_blocking",
                  "fork", "setsid", "killpg", "getuid")

# Runs in a fresh interpreter, so nothing of the pretended Windows leaks into other tests. Standard and
# third-party modules that pick their own backend by the platform when imported (subprocess, pyserial, Qt)
# are imported first with the real one — on Windows they take their Windows backend; blindchess itself is
# imported only after the platform is Windows and the POSIX-only modules are gone.
SIMULATION = textwrap.dedent('''
    import importlib, json, os, sys, traceback
    from pathlib import Path
    for name in ("subprocess", "tempfile", "shutil", "uuid", "ctypes", "selectors", "socket", "locale", "asyncio",
                 "aiohttp", "sysconfig", "zoneinfo", "babel.dates", "chess.engine", "serial", "serial.tools.list_ports",
                 "PySide6.QtCore", "PySide6.QtGui", "PySide6.QtWidgets"):   # zoneinfo: Babel's plural data loads it
        importlib.import_module(name)
    sys.platform = "win32"
    for name in POSIX_ONLY:
        sys.modules[name] = None
    # Windows' own msvcrt cannot load on Linux: a stand-in records the lock calls the journal makes
    import types
    msvcrt = types.ModuleType("msvcrt")
    msvcrt.LK_UNLCK, msvcrt.LK_NBLCK = 0, 2
    msvcrt.calls = []
    msvcrt.locking = lambda fd, mode, n: msvcrt.calls.append([mode, os.lseek(fd, 0, os.SEEK_CUR), n])
    sys.modules["msvcrt"] = msvcrt
    for name in POSIX_OS_NAMES:
        if hasattr(os, name):
            delattr(os, name)
    out = {"failed": {}}
    import blindchess
    package = Path(blindchess.__file__).parent
    for path in sorted(package.rglob("*.py")):
        name = ".".join(("blindchess", *path.relative_to(package).with_suffix("").parts)).removesuffix(".__init__")
        if name == "blindchess.__main__":   # importing it starts the program
            continue
        try:
            importlib.import_module(name)
        except BaseException as exc:
            out["failed"][name] = "".join(traceback.format_exception(exc)[-3:]).strip()
    out["modules"] = sorted(m for m in sys.modules if m.startswith("blindchess"))
    from blindchess.base import system
    out["windows"] = system.is_windows()
    from blindchess.cli import main
    journal = Path(sys.argv[1])
    out["scenario"] = main(["scenario", "run", "--journal", str(journal), sys.argv[2]])
    out["export"] = main(["export", str(journal), "-o", str(journal.with_suffix(".pgn"))])
    out["export_device"] = main(["export", str(journal), "-o", os.devnull])   # a device: no os.set_blocking here
    out["locking"] = msvcrt.calls
    del os.environ["BLINDCHESS_HOME"]
    os.environ["WIN_PD_OVERRIDE_LOCAL_APPDATA"] = "C:\\\\Users\\\\Anna\\\\AppData\\\\Local"
    from blindchess.base import paths
    out["data_dir"] = str(paths.data_dir())
    print("RESULT " + json.dumps(out))
''')


def test_every_module_imports_and_a_journaled_game_is_played_as_on_windows(tmp_path):
    journal = tmp_path / "game.jsonl"
    code = f"POSIX_ONLY = {POSIX_ONLY!r}\nPOSIX_OS_NAMES = {POSIX_OS_NAMES!r}\n" + SIMULATION
    done = subprocess.run([sys.executable, "-c", code, str(journal), str(ROOT / "tests/scenarios/game_whole.scn")],
                          capture_output=True, encoding="utf-8", cwd=ROOT, timeout=300,   # the program writes UTF-8 to pipes
                          env={**os.environ, "BLINDCHESS_LANG": "en", "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.split("RESULT ", 1)[1])
    assert result["failed"] == {}
    assert result["windows"] is True
    assert {"blindchess.storage.journal", "blindchess.adapters.devices.simulator", "blindchess.adapters.devices.link",
            "blindchess.ui.app", "blindchess.adapters.speech.screenreader", "blindchess.base.system"} <= set(result["modules"])
    assert result["scenario"] == 0 and result["export"] == 0 and result["export_device"] == 0
    # the journal was locked while written and let go at the end, on one byte past any content (Windows
    # locks keep readers out of what they cover)
    assert result["locking"][0] == [2, 1 << 40, 1] and result["locking"][-1] == [0, 1 << 40, 1]
    # the journal the pretended Windows wrote is whole, and its game reads back
    from blindchess.storage.journal import read_journal

    read = read_journal(journal)
    assert read.checked and read.problems == [] and read.ends_with_newline
    assert b"\r\n" not in journal.read_bytes()        # binary descriptors: no line-end translation
    game = chess.pgn.read_game(journal.with_suffix(".pgn").open(encoding="utf-8"))
    assert game is not None and game.headers["White"] == "Bernd Blind"
    moves = [m.uci() for m in game.mainline_moves()]
    assert moves[:3] == ["e2e4", "g8f6", "e4e5"] and "e5d6" in moves and "e7f8q" in moves
    # the user's folder on Windows: the local application data folder, not the roaming profile
    assert result["data_dir"].startswith("C:\\Users\\Anna\\AppData\\Local") and result["data_dir"].endswith("blindchess")


def test_port_patterns_are_device_files_on_posix_and_port_names_on_windows(monkeypatch):
    from blindchess.base import system

    monkeypatch.setattr(sys, "platform", "linux")
    assert system.is_port_path("/dev/ttyACM*") and system.is_port_path("~/board")
    assert not system.is_port_path("COM*")
    monkeypatch.setattr(sys, "platform", "darwin")
    assert system.is_port_path("/dev/cu.usbmodem*") and system.is_macos()
    monkeypatch.setattr(sys, "platform", "win32")
    assert not system.is_port_path("COM*") and not system.is_port_path("/dev/ttyACM*")


@pytest.mark.skipif(os.name != "posix", reason="a folder is opened and synced on POSIX only")
def test_a_folder_is_synced_on_posix(tmp_path, monkeypatch):
    from blindchess.base import system

    synced: list[int] = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd))[1])
    system.sync_folder(tmp_path)
    assert len(synced) == 1


def test_a_folder_is_left_alone_on_windows(tmp_path, monkeypatch):
    from blindchess.base import system

    tried: list[object] = []
    monkeypatch.setattr(os, "fsync", tried.append)
    monkeypatch.setattr(os, "open", lambda *args, **kwargs: tried.append(args))
    monkeypatch.setattr(sys, "platform", "win32")   # a folder cannot be opened there: nothing is tried
    system.sync_folder(tmp_path / "not even there")
    system.sync_folder(tmp_path)
    assert tried == []


# --------------------------------------------------------------------------- metadata

def test_the_licence_is_gpl_3_or_later_in_the_metadata_and_the_licence_file():
    meta = importlib.metadata.metadata("blindchess")
    assert meta["License-Expression"] == "GPL-3.0-or-later"
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "GNU GENERAL PUBLIC LICENSE" in licence and "Version 3, 29 June 2007" in licence
    shown = subprocess.run([sys.executable, "-m", "pip", "show", "blindchess"], capture_output=True, text=True,
                           timeout=120)
    assert "GPL-3.0-or-later" in shown.stdout


def test_the_version_comes_from_the_package_metadata():
    done = subprocess.run([sys.executable, "-m", "blindchess", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0
    assert done.stdout.strip() == f"blindchess {importlib.metadata.version('blindchess')}"


def test_the_extras_name_the_windows_screen_reader_library_for_windows_only():
    requires = importlib.metadata.requires("blindchess") or []
    windows = [r for r in requires if 'extra == "windows"' in r]
    assert len(windows) == 1 and windows[0].startswith("accessible_output2") and 'sys_platform == "win32"' in windows[0]


# --------------------------------------------------------------------------- CI

def test_the_workflow_runs_the_fast_suite_on_three_systems_and_python_versions_and_lints_once():
    yaml = pytest.importorskip("yaml")
    flow = yaml.safe_load((ROOT / ".github/workflows/ci.yml").read_text(encoding="utf-8"))
    jobs = flow["jobs"]
    matrix = jobs["test"]["strategy"]["matrix"]
    assert {s.split("-")[0] for s in matrix["os"]} == {"ubuntu", "windows", "macos"}
    assert {"3.11", "3.13"} <= set(map(str, matrix["python"]))        # the oldest supported and the newest
    steps = " ".join(str(s.get("run", "")) for s in jobs["test"]["steps"])
    assert "pytest" in steps and '-m "not slow"' in steps and "-c packaging/constraints.txt" in steps
    assert "[test,windows]" in steps and "tests.platform.windows_skips" in steps   # the NVDA route installed on Windows
    assert jobs["test"]["env"]["QT_QPA_PLATFORM"] == "offscreen"
    lint = " ".join(str(s.get("run", "")) for s in jobs["lint"]["steps"])
    assert jobs["lint"]["runs-on"].startswith("ubuntu") and "ruff check" in lint and "mypy blindchess" in lint
    assert "lint-imports" in lint
    dist = jobs["dist"]
    assert {s.split("-")[0] for s in dist["strategy"]["matrix"]["os"]} == {"windows", "macos"}
    assert "packaging/build_dist.py" in " ".join(str(s.get("run", "")) for s in dist["steps"])


def test_a_tag_builds_and_attaches_the_windows_and_macos_zips():
    yaml = pytest.importorskip("yaml")
    flow = yaml.safe_load((ROOT / ".github/workflows/release.yml").read_text(encoding="utf-8"))
    trigger = flow.get("on", flow.get(True))          # YAML 1.1 reads the key `on` as True
    assert trigger["push"]["tags"] == ["v*"]
    build = flow["jobs"]["build"]
    systems = build["strategy"]["matrix"]["os"]
    assert any(s.startswith("windows") for s in systems) and sum(s.startswith("macos") for s in systems) == 2
    assert "packaging/build_dist.py" in " ".join(str(s.get("run", "")) for s in build["steps"])
    publish = " ".join(str(s.get("run", "")) for s in flow["jobs"]["publish"]["steps"])
    assert "gh release" in publish and "*.zip" in publish
    assert flow["jobs"]["publish"]["permissions"]["contents"] == "write"


def test_ci_here_runs_the_suite_and_the_windows_program_under_wine_when_wine_is_there():
    run = (ROOT / ".ci/run").read_text(encoding="utf-8")
    assert "make test\n" in run and "make test-windows" in run and "command -v wine" in run


# --------------------------------------------------------------------------- the simulator

@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")
def test_the_simulator_stopped_with_sigterm_closes_its_port_and_removes_its_link(tmp_path):
    link = tmp_path / "board"
    proc = subprocess.Popen([sys.executable, "-m", "blindchess", "pegboard", "simulate", "--link", str(link)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "BLINDCHESS_LANG": "en"})
    try:
        assert proc.stdout.readline().startswith("Virtual peg-board ready. Port: /dev/")
        assert proc.stdout.readline().startswith("Link: ")
        assert link.is_symlink()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "Simulator ended, port closed." in out
    assert not link.exists() and not link.is_symlink()


@pytest.mark.slow
def test_the_package_builds_without_a_warning_and_ships_its_data(tmp_path):
    # "Package 'blindchess._boards.firmware' is absent from the packages configuration", once per file
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "-w", str(tmp_path),
                           str(ROOT)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    output = done.stdout + done.stderr
    assert "absent from" not in output and "BuildBackendWarning" not in output and "SetuptoolsDeprecationWarning" not in output
    import zipfile

    (wheel,) = tmp_path.glob("blindchess-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "blindchess/_boards/firmware/blindchess_pegboard/blindchess_pegboard.ino" in names
    assert "blindchess/_voices/de.toml" in names and "blindchess/base/locale/records.ru.toml" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
