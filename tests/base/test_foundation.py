"""The package foundation: data found from anywhere, errors without tracebacks."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

from blindchess.base import i18n, resources
from blindchess.cli import main
from tests.support.paths import REPO


def test_data_folders_are_found():
    assert (resources.voices_dir() / "README.md").is_file()
    assert (resources.boards_dir() / "README.md").is_file()
    assert (resources.guide_dir() / "en" / "index.md").is_file()


def test_built_wheel_ships_voices_boards_and_the_guide(tmp_path):
    """voices/, boards/ and the user guide ship inside the wheel and are found from any directory."""
    repo = REPO
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(tmp_path), str(repo)],
        check=True, capture_output=True,
    )
    wheel = next(tmp_path.glob("blindchess-*.whl"))
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        zf.extractall(site)
    shipped = {Path(n).name for n in names if n.startswith(("blindchess/_voices/", "blindchess/_boards/"))}
    expected = {p.name for d in ("voices", "boards") for p in (repo / d).iterdir() if p.suffix in (".toml", ".md")}
    assert expected <= shipped
    guide = {n.removeprefix("blindchess/_guide/") for n in names if n.startswith("blindchess/_guide/")}
    assert {f"{p.parent.name}/{p.name}" for p in (repo / "docs" / "user").glob("*/*.md")} <= guide
    code = ("from blindchess.base import resources; print(resources.voices_dir()); print(resources.boards_dir()); "
            "print(resources.guide_dir())")
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    voices, boards, guide_dir = (Path(line) for line in out.stdout.splitlines())
    assert voices.is_relative_to(site) and (voices / "README.md").is_file()
    assert boards.is_relative_to(site) and (boards / "README.md").is_file()
    assert guide_dir.is_relative_to(site) and (guide_dir / "ru" / "index.md").is_file()


def test_messages_speak_the_systems_language_and_fall_back_to_english():
    assert i18n.tr("cli.interrupted") == "Abgebrochen."
    assert i18n.tr("cli.interrupted", "en") == "Interrupted."
    assert i18n.tr("cli.interrupted", "fr") == "Interrupted."
    assert i18n.tr("nope.missing", "de") == "nope.missing"


def test_help_names_the_journal_folder(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("BLINDCHESS_HOME", str(tmp_path))
    try:
        main(["--help"])
    except SystemExit as exc:
        assert exc.code == 0
    out = capsys.readouterr().out
    assert str(tmp_path / "journals") in out


def test_core_does_not_import_adapters():
    """The pure core never imports Qt, pyttsx3, vosk or pyserial (ARCHITECTURE)."""
    core = ["blindchess.language.notation", "blindchess.language.phonetic", "blindchess.game", "blindchess.laws.ruling",
            "blindchess.laws.clock", "blindchess.pegboard.tracker", "blindchess.pegboard.protocol",
            "blindchess.pegboard.dgt", "blindchess.records.braille", "blindchess.laws.adjournment",
            "blindchess.laws.rulesets", "blindchess.laws.chess960", "blindchess.table.clock",
            "blindchess.language.recognition", "blindchess.storage.journal", "blindchess.records.pgn"]
    code = (
        "import importlib, importlib.util, sys\n"
        f"for m in {core!r}:\n"
        "    if importlib.util.find_spec(m) is not None: importlib.import_module(m)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyttsx3', 'vosk', 'serial')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_qt_binding_keeps_reference_counts_intact():
    """PySide6 6.12.0 drops a reference to None on every void call and aborts the
    interpreter after a few thousand (pinned out in pyproject.toml); guard the pin."""
    code = (
        "import sys\n"
        "from PySide6.QtCore import QObject\n"
        "o = QObject(); before = sys.getrefcount(None)\n"
        "for _ in range(5000): o.setObjectName('x')\n"
        "print(sys.getrefcount(None) - before)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-500:]
    assert abs(int(out.stdout.strip())) < 100
