"""The download's parts that can be checked on Linux: the lock for each system, the licence texts, the list
of tests Windows leaves out, the window program's start-up errors without a console."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.platform import windows_skips
from tests.support.paths import REPO

sys.path.insert(0, str(REPO / "packaging"))
import licences  # noqa: E402
from lockfile import requirements_for  # noqa: E402

LOCK = REPO / "packaging" / "constraints.txt"


def _names(requirements: list[str]) -> set[str]:
    return {r.split("==")[0].lower() for r in requirements}


def test_the_lock_names_the_windows_only_packages_for_windows_and_none_for_the_others():
    windows = _names(requirements_for(LOCK, "win32", "3.13"))
    macos = _names(requirements_for(LOCK, "darwin", "3.12"))
    linux = _names(requirements_for(LOCK, "linux", "3.11"))
    # the NVDA/JAWS route and SAPI (pywin32), pyttsx3's COM binding: named for a build made for Windows
    assert {"accessible-output2", "pywin32", "comtypes", "libloader", "platform-utils"} <= windows
    assert not {"accessible-output2", "pywin32", "comtypes"} & (macos | linux)
    assert "pyttsx3" in windows and "pyttsx3" in linux and "pyttsx3" not in macos      # macOS speaks with say
    assert not any(name.startswith("pyobjc") for name in macos)
    assert {"pyside6-essentials", "chess", "vosk", "pyinstaller"} <= windows & macos & linux
    assert all("==" in r for r in requirements_for(LOCK, "win32", "3.13"))         # every package pinned


def test_every_pin_of_the_lock_meets_the_packages_own_bounds():
    pins = {r.split("==")[0].lower(): r.split("==")[1] for r in requirements_for(LOCK, "win32", "3.13")}
    pins |= {r.split("==")[0].lower(): r.split("==")[1] for r in requirements_for(LOCK, "darwin", "3.13")}
    for line in importlib.metadata.requires("blindchess") or []:
        requirement = Requirement(line)
        name = requirement.name.lower()
        if name in pins:
            assert requirement.specifier.contains(pins[name], prereleases=True), (line, pins[name])
    chess = next(Requirement(r) for r in importlib.metadata.requires("blindchess") or [] if r.startswith("chess"))
    assert not chess.specifier.contains("1.10.0")      # attackers_mask(color, square, occupied) came with 1.11


@pytest.mark.parametrize(("platform", "version"), [("win32", "3.13"), ("darwin", "3.12"), ("linux", "3.11")])
def test_the_lock_pins_every_requirement_of_the_program_and_its_extras(platform: str, version: str):
    """A dependency added to pyproject.toml without `make lock` would be missing from the stand-alone program
    built from the lock (the broadcast's aiohttp was once): every requirement that applies is pinned."""
    pins = _names(requirements_for(LOCK, platform, version))
    environment = {"sys_platform": platform, "python_version": version, "python_full_version": f"{version}.0",
                   "platform_system": {"win32": "Windows", "darwin": "Darwin", "linux": "Linux"}[platform],
                   "os_name": "nt" if platform == "win32" else "posix"}
    missing = []
    for line in importlib.metadata.requires("blindchess") or []:
        requirement = Requirement(line)
        applies = requirement.marker is None or any(
            requirement.marker.evaluate({**environment, "extra": extra}) for extra in ("", "windows", "dist", "test"))
        if applies and requirement.name.lower().replace("_", "-") not in pins:
            missing.append(requirement.name)
    assert missing == [], f"not in packaging/constraints.txt (run make lock): {missing}"


def test_the_build_tools_read_the_lock():
    build = (REPO / "packaging" / "build_dist.py").read_text(encoding="utf-8")
    assert '"-c", LOCK' in build and '"dist,windows" if WINDOWS' in build
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert "--universal" in makefile and "packaging/constraints.txt" in makefile


def test_every_bundled_component_gets_its_licence_text(tmp_path: Path):
    modules = {"blindchess", "chess", "babel", "vosk", "PySide6", "shiboken6", "serial", "sounddevice",
               "platformdirs", "pyttsx3", "_cffi_backend", "PyInstaller"}
    bundled = ["vosk/libvosk.so"]      # PortAudio comes with sounddevice's wheel on Windows and macOS only (Wine test)
    components = licences.write(modules, bundled, tmp_path / "licenses")
    names = {c.name.lower(): c for c in components}
    assert "pyinstaller" not in names                                   # a build tool, not part of the program
    for name in ("python", "blindchess", "chess", "babel", "vosk", "pyside6_essentials", "shiboken6", "pyserial",
                 "sounddevice", "platformdirs", "pyttsx3", "cffi"):
        assert name in {n.replace("-", "_") for n in names}, name
    by = {c.name.lower().replace("-", "_"): c for c in components}
    assert "vosk/Apache-2.0.txt" in by["vosk"].files
    assert any(f.endswith("LGPL-3.0.txt") for f in by["pyside6_essentials"].files)
    for component in components:
        for file in component.files:
            assert (tmp_path / "licenses" / file).stat().st_size > 200, file
    readme = (tmp_path / "licenses" / "README.txt").read_text(encoding="utf-8")
    assert "Kaldi" in readme and "GPL-3.0-or-later" in readme
    gpl = (tmp_path / "licenses" / "Kaldi_OpenFST_and_the_GCC_runtime_in_libvosk" / "LICENSE").read_text()
    assert "GNU GENERAL PUBLIC LICENSE" in gpl


def test_a_distribution_without_any_licence_text_stops_the_build(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setattr(licences, "licence_files", lambda dist: [])
    monkeypatch.setattr(licences, "ADDED", {})
    with pytest.raises(licences.MissingLicence, match="chess"):
        licences.write({"chess"}, [], tmp_path / "licenses")


def test_the_skipped_tests_on_windows_still_name_tests():
    """Every id in tests/platform/windows_skips.py names a test that exists (renamed tests would run again)."""
    files = sorted({key.split("::")[0] for key in [*windows_skips.POSIX_ONLY, *windows_skips.WINE_GAPS]})
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *files],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    nodeids = [line.strip() for line in done.stdout.splitlines() if "::" in line]
    assert nodeids, done.stdout[-2000:] + done.stderr[-2000:]
    assert windows_skips.stale(nodeids, set(files)) == []


def test_the_window_programs_start_up_error_goes_to_a_log_and_a_message_box(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path):
    from blindchess.ui import app

    shown: list[str] = []
    monkeypatch.setattr(sys, "stderr", None)            # blindchess-window.exe: no console
    monkeypatch.setattr(app, "_message_box", shown.append)
    assert app.main(["--journal", str(tmp_path / "gone.jsonl"), "--lang", "en"]) == 2
    (log,) = (Path(app.log_dir())).glob("app-start-*.log")
    assert "gone.jsonl" in log.read_text(encoding="utf-8")
    assert len(shown) == 1 and "gone.jsonl" in shown[0] and str(log) in shown[0]
