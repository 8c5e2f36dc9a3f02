"""The Windows program, run as on Windows: the official embeddable CPython for Windows under Wine.

``make test-windows`` prepares the Wine prefix (tests/platform/wine.py) and runs these; ``make test``
skips them. What they do not reach: real SAPI voices and sound cards (Wine 8.0 has neither a SAPI voice
nor audio here), a real NVDA or JAWS (Wine's answer "NVDA is running" is not believed: the tests check
that the controller DLLs load from the program's own folder), and msvcrt's lock error (Wine sets no errno;
tests/platform/windows_skips.py).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import threading
import zipfile
from pathlib import Path

import chess.pgn
import pytest

from tests.platform import wine
from tests.support.paths import REPO, SCENARIOS
from tests.support.waiting import wait_for

pytestmark = pytest.mark.wine

#: Whole games played by the Windows program, each with its journal: a whole game with en passant and
#: promotion, Chess960, an adjournment sealed by the blind player, a crash resumed from the journal, the
#: sighted player's e-board.
GAMES = ["game_whole.scn", "game_chess960.scn", "adjournment_sealed_by_the_blind_player.scn", "crash_placed.scn",
         "eboard_game.scn"]


def _windows(args: list[str | Path], *, timeout: float = 300, **env: str) -> subprocess.CompletedProcess[str]:
    return wine.wine(args, env=wine.environment(BLINDCHESS_LANG="en", **env), timeout=timeout)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def test_the_windows_python_is_the_official_embeddable_cpython_and_runs_the_program():
    done = _windows([wine.windows_python(), "-c",
                     "import sys, platform; print(sys.platform, platform.python_implementation(), sys.version_info[:2], "
                     "any(p.endswith('.zip') for p in sys.path))"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["win32", "CPython", "(3,", "13)", "True"]
    version = _windows([wine.windows_python(), "-m", "blindchess", "--version"])
    assert version.returncode == 0, version.stderr
    assert re.fullmatch(r"blindchess \d+\.\d+\.\d+\S*", version.stdout.strip())


@pytest.mark.parametrize("name", GAMES)
def test_whole_games_are_played_with_journals_that_read_back_anywhere(name: str, home: Path, tmp_path: Path):
    journal = tmp_path / "game.jsonl"
    done = _windows([wine.windows_python(), "-m", "blindchess", "scenario", "run", "--journal",
                     wine.windows_path(journal), wine.windows_path(SCENARIOS / name)],
                    BLINDCHESS_HOME=wine.windows_path(home))
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    from blindchess.storage.journal import read_journal

    read = read_journal(journal)   # written on Windows, read on Linux: the same bytes
    assert read.checked and read.problems == [] and read.ends_with_newline
    assert b"\r\n" not in journal.read_bytes()


def test_a_game_is_exported_to_a_file_and_to_the_nul_device(home: Path, tmp_path: Path):
    journal = tmp_path / "game.jsonl"
    played = _windows([wine.windows_python(), "-m", "blindchess", "scenario", "run", "--journal",
                       wine.windows_path(journal), wine.windows_path(SCENARIOS / "game_whole.scn")],
                      BLINDCHESS_HOME=wine.windows_path(home))
    assert played.returncode == 0, played.stderr
    pgn = tmp_path / "game.pgn"
    exported = _windows([wine.windows_python(), "-m", "blindchess", "export", wine.windows_path(journal), "-o",
                         wine.windows_path(pgn)], BLINDCHESS_HOME=wine.windows_path(home))
    assert exported.returncode == 0, exported.stderr
    game = chess.pgn.read_game(pgn.open(encoding="utf-8"))
    assert game is not None and [m.uci() for m in game.mainline_moves()][:3] == ["e2e4", "g8f6", "e4e5"]
    # NUL, Windows' null device: written into, not replaced (no os.set_blocking on Windows before 3.12)
    nul = _windows([wine.windows_python(), "-m", "blindchess", "export", wine.windows_path(journal), "-o", "NUL"],
                   BLINDCHESS_HOME=wine.windows_path(home))
    assert nul.returncode == 0, nul.stderr
    assert nul.stderr == ""


def test_output_to_a_pipe_is_utf8_with_chess_pieces():
    done = _windows([wine.windows_python(), "-m", "blindchess", "chess960", "518", "--unicode"])
    assert done.returncode == 0, done.stderr
    assert "♜" in done.stdout or "♖" in done.stdout


def test_sapi_is_reached_over_com_on_the_speakers_thread():
    """Wine 8.0's SAPI.SpVoice is a stub (E_NOTIMPL, or an object without SAPI's automation interface): the COM
    call is made (pywin32 loads, COM is initialised on the speaker's worker thread, not the caller's) and its
    failure is one message; no voice is heard here."""
    code = textwrap.dedent("""
        import json, threading
        from blindchess.adapters.speech import sapi
        from blindchess.adapters.speech.tts import Speaker
        seen = {}
        real = sapi._com_voice
        def spy():
            seen["thread"] = threading.get_ident()
            return real()
        sapi._com_voice = spy
        speaker = Speaker("de", engine="sapi")
        print(json.dumps({"main": threading.get_ident(), "com": seen.get("thread"), "available": speaker.available,
                          "problem": speaker.problem}))
        speaker.close()
    """)
    done = _windows([wine.windows_python(), "-c", code])
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["com"] is not None and result["com"] != result["main"]
    assert result["available"] is False and ("com_error" in result["problem"] or "SAPI.SpVoice" in result["problem"])


def test_the_window_starts_on_qt_s_windows_platform(display: str, home: Path):
    env = wine.environment(DISPLAY=display, BLINDCHESS_EXIT_WHEN_READY="1", BLINDCHESS_LANG="de",
                           BLINDCHESS_HOME=wine.windows_path(home))
    env.pop("QT_QPA_PLATFORM", None)     # Qt's native "windows" platform, drawn by Wine on the X display
    done = wine.wine([wine.windows_python(), "-c",
                      "import sys; from blindchess.cli import main; code = main(['app']); "
                      "from PySide6.QtGui import QGuiApplication; print('platform', QGuiApplication.platformName()); "
                      "sys.exit(code)"], env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ready ") and lines[0].endswith(" de")
    assert "platform windows" in lines


# --------------------------------------------------------------------------- the PyInstaller build

@pytest.fixture(scope="module")
def build() -> Path:
    """The stand-alone Windows program built by PyInstaller under Wine from packaging/blindchess.spec."""
    dist, work = wine.home() / "dist", wine.home() / "pyinstaller"
    shutil.rmtree(dist, ignore_errors=True)
    done = wine.wine([wine.windows_python(), "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
                      "--distpath", wine.windows_path(dist), "--workpath", wine.windows_path(work),
                      wine.windows_path(REPO / "packaging" / "blindchess.spec")],
                     env=wine.environment(SOURCE_DATE_EPOCH="315532800", PYTHONHASHSEED="0"),
                     cwd=REPO / "packaging", timeout=1800)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return dist / "blindchess"


def test_the_build_has_both_programs_and_the_console_one_plays_a_game(build: Path, home: Path, tmp_path: Path):
    assert (build / "blindchess.exe").is_file() and (build / "blindchess-window.exe").is_file()
    version = _windows([build / "blindchess.exe", "--version"])
    assert version.returncode == 0 and version.stdout.startswith("blindchess "), version.stderr
    journal = tmp_path / "game.jsonl"
    game = _windows([build / "blindchess.exe", "scenario", "run", "--journal", wine.windows_path(journal),
                     wine.windows_path(SCENARIOS / "game_whole.scn")], BLINDCHESS_HOME=wine.windows_path(home))
    assert game.returncode == 0, game.stderr
    assert "end: result" in game.stdout and "Thxf8" in game.stdout
    from blindchess.storage.journal import read_journal

    assert read_journal(journal).checked


@pytest.mark.parametrize("program", ["blindchess.exe", "blindchess-window.exe"])
def test_both_programs_open_the_window(build: Path, program: str, display: str, home: Path):
    env = wine.environment(DISPLAY=display, BLINDCHESS_EXIT_WHEN_READY="1", BLINDCHESS_LANG="en",
                           BLINDCHESS_HOME=wine.windows_path(home))
    env.pop("QT_QPA_PLATFORM", None)
    # the window program as the Start menu starts it (`start`: no standard handles, sys.stdout is None)
    done = wine.wine(_as_from_the_start_menu(build / program) if program == "blindchess-window.exe" else [build / program],
                     env=env, timeout=300)
    # the window quits with 0 only from its "ready" step; the console program also says so
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    if program == "blindchess.exe":
        assert done.stdout.startswith("ready ")


def _as_from_the_start_menu(program: Path, *args: str) -> list[str | Path]:
    """``start /wait``: Windows starts the program without standard handles, as Explorer and the Start menu do
    (``sys.stdout`` and ``sys.stderr`` are None in a program without a console); its exit code comes back."""
    return ["start", "/wait", "/unix", program, *args]


def test_a_start_up_error_of_the_window_program_is_logged_and_shown_in_a_message_box(build: Path, display: str,
                                                                                  home: Path, tmp_path: Path):
    if shutil.which("xdotool") is None:
        pytest.fail("xdotool is missing (make test-windows installs it)")
    missing = tmp_path / "no such game.jsonl"
    env = wine.environment(DISPLAY=display, BLINDCHESS_LANG="en", BLINDCHESS_HOME=wine.windows_path(home))
    env.pop("QT_QPA_PLATFORM", None)
    proc = subprocess.Popen(["wine", *map(str, _as_from_the_start_menu(build / "blindchess-window.exe", "--journal",
                                                                      wine.windows_path(missing)))],
                            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        def box() -> str:
            found = subprocess.run(["xdotool", "search", "--name", "^blindchess$"], env={**os.environ, "DISPLAY": display},
                                   capture_output=True, text=True)
            return found.stdout.split()[0] if found.stdout.split() else ""

        assert wait_for(lambda: bool(box()), timeout=120), "no message box appeared"
        logs = list((home / "logs").glob("app-start-*.log"))
        assert len(logs) == 1
        text = logs[0].read_text(encoding="utf-8")
        assert "no such game.jsonl" in text
        subprocess.run(["xdotool", "key", "--window", box(), "Return"], env={**os.environ, "DISPLAY": display}, check=True)
        assert proc.wait(timeout=60) == 2
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_the_build_reaches_nvda_and_jaws_through_accessible_output2_from_its_own_folder(build: Path, display: str,
                                                                                      home: Path):
    """The window's speech channel "auto" asks which screen reader runs (accessible_output2): the library's
    controller DLLs must load from the program's folder. Wine's own answer ("NVDA runs") is not checked."""
    env = wine.environment(DISPLAY=display, BLINDCHESS_REPORT_READY="1", BLINDCHESS_LANG="en",
                           BLINDCHESS_HOME=wine.windows_path(home), WINEDEBUG="+loaddll")
    env.pop("QT_QPA_PLATFORM", None)
    proc = subprocess.Popen(["wine", str(build / "blindchess.exe")], env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace")
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(iter(proc.stderr.readline, "")), daemon=True)
    reader.start()
    try:
        def loaded() -> bool:
            return any("nvdaControllerClient64.dll" in line and "Loaded" in line for line in list(lines))

        assert wait_for(loaded, timeout=180), "".join(lines[-40:])
    finally:
        proc.kill()
        proc.wait()
        reader.join(30)
    folder = wine.windows_path(build / "_internal" / "accessible_output2" / "lib").lower()
    loaded = [line.replace("\\\\", "\\").lower() for line in lines if "Loaded" in line]   # Wine's log doubles "\"
    shipped = {p.name.lower() for p in (build / "_internal" / "accessible_output2" / "lib").iterdir()}
    assert "nvdacontrollerclient64.dll" in shipped
    readers = [line for line in loaded if any(name in line for name in shipped)]   # NVDA, ZDSR, PC-Talker …
    assert any("nvdacontrollerclient64.dll" in line for line in readers)
    assert readers and all(folder in line for line in readers), readers


def test_the_build_holds_every_licence_and_none_of_the_test_prefix_s_stand_ins(build: Path):
    names = {p.name.lower() for p in build.rglob("*")}
    assert "icuuc.dll" not in names and "cfgmgr32.dll" not in names      # Wine's gaps stay in the test prefix
    assert (build / "LICENSE.txt").read_text(encoding="utf-8").startswith("                    GNU GENERAL PUBLIC LICENSE")
    readme = (build / "licenses" / "README.txt").read_text(encoding="utf-8")
    listed = {re.sub(r"[-_.]+", "-", line.split(":")[0].rsplit(" ", 1)[0]).lower() for line in readme.splitlines()
              if line and not line.startswith(" ")}
    for component in ("python", "pyside6-essentials", "shiboken6", "chess", "vosk", "pyttsx3", "accessible-output2",
                      "pywin32", "sounddevice", "pyserial", "babel", "platformdirs", "cffi", "libloader", "platform-utils"):
        assert component in listed, component
    assert "PortAudio (in sounddevice): MIT" in readme and "Kaldi, OpenFST" in readme
    assert (build / "licenses" / "PySide6_Essentials" / "LGPL-3.0.txt").is_file()
    assert (build / "licenses" / "vosk" / "Apache-2.0.txt").is_file()
    sys.path.insert(0, str(REPO / "packaging"))
    try:
        import build_dist
    finally:
        sys.path.remove(str(REPO / "packaging"))
    zipped = build_dist.archive_folder(build, build.parent / "blindchess-windows-test.zip", 315532800)
    members = zipfile.ZipFile(zipped).namelist()
    assert "blindchess/licenses/README.txt" in members and "blindchess/blindchess-window.exe" in members
    assert "blindchess/_internal/accessible_output2/lib/nvdaControllerClient64.dll" in members
