"""The package foundation: data found from anywhere, errors without tracebacks."""

from __future__ import annotations

import subprocess
import sys

from blindchess import i18n, resources
from blindchess.cli import main


def test_data_folders_are_found():
    assert (resources.voices_dir() / "README.md").is_file()
    assert (resources.boards_dir() / "README.md").is_file()


def test_installed_package_finds_data_from_any_directory(tmp_path):
    code = "from blindchess import resources; print(resources.voices_dir())"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "voices" in out.stdout or "_voices" in out.stdout


def test_messages_default_to_german_and_fall_back():
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
    core = ["blindchess.notation", "blindchess.phonetic", "blindchess.session", "blindchess.ruling",
            "blindchess.clock", "blindchess.pegboard.tracker", "blindchess.pegboard.protocol",
            "blindchess.pegboard.dgt", "blindchess.braille"]
    code = (
        "import importlib, importlib.util, sys\n"
        f"for m in {core!r}:\n"
        "    if importlib.util.find_spec(m) is not None: importlib.import_module(m)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyttsx3', 'vosk', 'serial')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
