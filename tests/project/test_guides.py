"""The guides in docs/: every command they show runs, and the user guide is the same in four languages.

A ``sh`` block of a guide holds commands as a user types them; each line is run here, in a
folder where the source folder's ``tests/`` is at hand (the examples use its files), and must
end with exit code 0 — or the code its comment names (``# exit 1``). ``blindchess`` runs
through the program's own entry point, the window with ``BLINDCHESS_EXIT_WHEN_READY`` (it opens
and reports ready), ``make`` targets are looked up (``make -n``), and a command for another
system (``brew``, ``pipx``, ``py``, ``winget``) is listed below with the reason it cannot run
here. Synopses (``text`` blocks) are not commands. A ``blindchess …`` written inline in the
text is parsed by the real parser, so an option that does not exist fails.

The translations have the English guide's pages and headings, use the glossary's terms and
name every term of their language on the page of terms.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from blindchess.cli import build_parser, main
from tests.support.paths import REPO

DOCS = REPO / "docs"
USER = DOCS / "user"
LANGS = ("de", "en", "nl", "ru")
GLOSSARY = tomllib.loads((REPO / "blindchess" / "base" / "locale" / "glossary.toml").read_text(encoding="utf-8"))

#: Programs of another system: a command for them is shown on that system's install page and run
#: by the workflow there, not here.
FOREIGN = {"brew": "macOS", "pipx": "Windows and macOS", "py": "Windows", "winget": "Windows", "choco": "Windows",
           "open": "macOS", "xattr": "macOS", "codesign": "macOS"}

FENCE = re.compile(r"^```(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
INLINE = re.compile(r"(?<!`)`(blindchess(?: [^`]*)?)`(?!`)")
EXIT = re.compile(r"\s#\s*exit\s+(\d+)\s*$")


def pages() -> list[Path]:
    return sorted(DOCS.rglob("*.md"))


def shell_commands() -> dict[str, tuple[str, int]]:
    """Every command line of every ``sh`` block: command -> (the page it is on, its exit code)."""
    found: dict[str, tuple[str, int]] = {}
    for page in pages():
        for block in FENCE.finditer(page.read_text(encoding="utf-8")):
            if block.group("info").strip() not in ("sh", "shell", "console", "bash"):
                continue
            for line in block.group("body").splitlines():
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                code = EXIT.search(line)
                command = EXIT.sub("", line).strip()
                command = re.sub(r"\s+#\s.*$", "", command)
                found.setdefault(command, (str(page.relative_to(DOCS)), int(code.group(1)) if code else 0))
    return found


COMMANDS = shell_commands()


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A folder like the source folder for the examples (its ``tests/`` at hand); outputs land here."""
    (tmp_path / "tests").symlink_to(REPO / "tests")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    return tmp_path


def test_the_guides_show_commands():
    assert len(COMMANDS) >= 15 and any(c.startswith("make ") for c in COMMANDS)


def _opens_window(args: list[str]) -> bool:
    """``blindchess``, ``blindchess --lang nl``, ``blindchess app …``: the window (unless it asks for help)."""
    rest = [a for i, a in enumerate(args) if a != "--lang" and (i == 0 or args[i - 1] != "--lang")]
    return "--help" not in rest and (not rest or rest[0] == "app")


@pytest.mark.parametrize("command", sorted(COMMANDS), ids=lambda c: c[:60])
def test_every_command_in_the_guides_runs(command, workdir, capsys):
    page, wanted = COMMANDS[command]
    words = shlex.split(command)
    program, args = words[0], words[1:]
    if program == "blindchess" and _opens_window(args):
        window = subprocess.run([sys.executable, "-m", "blindchess", *args], capture_output=True, text=True, timeout=120,
                                env={**os.environ, "BLINDCHESS_EXIT_WHEN_READY": "1"}, stdin=subprocess.DEVNULL)
        assert window.returncode == wanted and window.stdout.startswith("ready "), (page, window.stdout, window.stderr)
    elif program == "blindchess":
        try:
            code = main(args)
        except SystemExit as stop:              # --help, --version: argparse ends the program
            code = int(stop.code or 0)
        out = capsys.readouterr()
        assert code == wanted, (page, out.out[-500:], out.err[-500:])
        assert out.out or out.err, (page, "the command said nothing")
    elif program == "make":
        looked_up = subprocess.run(["make", "-n", *args], cwd=REPO, capture_output=True, text=True, timeout=60)
        assert looked_up.returncode == 0, (page, looked_up.stderr)
    elif program in FOREIGN:
        assert "install" in page, (page, f"a command for {FOREIGN[program]} belongs on that system's install page")
    else:
        pytest.fail(f"{page}: no way to run {program!r} here — add it to the test, or show it as text")


def inline_commands() -> dict[str, str]:
    found: dict[str, str] = {}
    for page in pages():
        text = FENCE.sub("", page.read_text(encoding="utf-8"))
        for command in INLINE.findall(text):
            found.setdefault(command.split(" | ")[0].strip(), str(page.relative_to(DOCS)))
    return found


INLINE_COMMANDS = inline_commands()


@pytest.mark.parametrize("command", sorted(INLINE_COMMANDS), ids=lambda c: c[:60])
def test_every_command_written_in_the_text_is_one_the_program_knows(command):
    """Its subcommands and options are the real parser's (a command named in passing need not be complete)."""
    parser: argparse.ArgumentParser = build_parser("en")
    for word in shlex.split(command)[1:]:
        commands = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if commands and word in commands[0].choices:
            parser = commands[0].choices[word]
        elif word.startswith("-") and word != "-":
            assert word.split("=")[0] in parser._option_string_actions, (INLINE_COMMANDS[command], word)


# -- the user guide in four languages -------------------------------------------------------------------

def _index_entries(lang: str) -> list[str]:
    index = (USER / lang / "index.md").read_text(encoding="utf-8")
    block = re.search(r"```\{toctree\}\n(.*?)```", index, re.DOTALL)
    assert block, lang
    return [line.strip() for line in block.group(1).splitlines() if line.strip() and not line.strip().startswith(":")]


def _own_pages() -> list[str]:
    """The English guide's pages named in its contents (patterns name pages other parts of the project write)."""
    return ["index"] + [e for e in _index_entries("en") if not any(c in e for c in "*?[")]


def _headings(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [m.group(1) for m in re.finditer(r"^(#+) ", text, re.MULTILINE)]


@pytest.mark.parametrize("lang", ("de", "nl", "ru"))
def test_every_translation_has_the_english_pages_contents_and_headings(lang):
    assert _index_entries(lang) == _index_entries("en")
    for name in _own_pages():
        page = USER / lang / f"{name}.md"
        assert page.is_file(), page
        assert _headings(page) == _headings(USER / "en" / f"{name}.md"), page


def _prose(path: Path) -> str:
    """A page's text without code: blocks, inline code and link targets."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`]*`", " ", text)
    return re.sub(r"\]\([^)]*\)", "]", text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_user_guide_uses_the_glossarys_terms(lang):
    avoid = [(concept, re.compile(a, re.IGNORECASE)) for concept, entry in GLOSSARY.items()
             for a in entry[lang].get("avoid", [])]
    found = [(page.name, concept, a.pattern) for page in sorted((USER / lang).glob("*.md"))
             for concept, a in avoid if a.search(_prose(page))]
    assert found == []
    terms = _prose(USER / lang / "terms.md").lower()
    assert [e[lang]["term"] for e in GLOSSARY.values() if e[lang]["term"].lower() not in terms] == []


def test_the_guide_is_shipped_with_the_program():
    with (REPO / "pyproject.toml").open("rb") as f:
        project = tomllib.load(f)
    setuptools = project["tool"]["setuptools"]
    assert setuptools["package-dir"]["blindchess._guide"] == "docs/user"
    assert "*/*.md" in setuptools["package-data"]["blindchess._guide"]
