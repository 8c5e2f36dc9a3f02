"""The layers of blindchess: no import cycle in the core, no core module importing Qt, serial or audio.

The import graph is read from the source (``ast``): every ``import`` / ``from … import``
at module level *and inside functions* (a lazy import is still a dependency) — only
``if TYPE_CHECKING:`` blocks are left out. The core is everything except the Qt app
(``ui``), the command line (``cli``), the audio adapters and the serial link.
"""

from __future__ import annotations

import ast
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1] / "blindchess"
PACKAGE = "blindchess"

#: Not the core: adapters to the outside world.
OUTSIDE = (
    "blindchess.ui", "blindchess.cli",
    "blindchess.speech.tts", "blindchess.speech.asr", "blindchess.speech.microphone",
    "blindchess.speech.audio", "blindchess.speech.voice_input",
    "blindchess.speech.earcons", "blindchess.speech.screenreader",   # the sound card; the user's screen reader
    "blindchess.pegboard.link", "blindchess.pegboard.simulator",
    "blindchess.records.audio",      # renders recordings through speech.tts
    "blindchess.__main__",           # the entry point: starts the command line
    "blindchess.qtapp",              # the Qt application object (PDF writers, the window)
)
#: Third-party packages the core must never import.
FORBIDDEN = ("PySide6", "serial", "vosk", "sounddevice", "pyttsx3")
#: Cycles other engineers are removing right now (issue 11); strict for everything else.
#: (phonetic <-> grammar is gone; cli <-> ui is tolerated below until it is, since cli is no core.)
KNOWN_CYCLES: dict[frozenset[str], str] = {}


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_core(name: str) -> bool:
    if any(name == o or name.startswith(o + ".") for o in OUTSIDE):
        return False
    last = name.rsplit(".", 1)[-1]
    return not (name.startswith("blindchess.records.") and last.endswith("_pdf"))


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imports_of(path: Path, modules: set[str], name: str | None = None) -> tuple[set[str], set[str]]:
    """(blindchess modules, top-level third-party names) imported anywhere in ``path`` (module ``name``)."""
    name = name or module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _type_checking(node):
            skip.update(id(n) for b in node.body for n in ast.walk(b))
    ours: set[str] = set()
    theirs: set[str] = set()

    def add(target: str) -> None:
        if target == PACKAGE or target.startswith(PACKAGE + "."):
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in modules and target != name:
                ours.add(target)
        else:
            theirs.add(target.split(".")[0])

    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base)
            else:
                prefix = ""
            mod = ".".join(p for p in (prefix, node.module or "") if p)
            if node.module is None or node.level:
                for alias in node.names:   # "from . import x": x may be a module
                    sub = f"{mod}.{alias.name}"
                    add(sub if sub in modules else mod)
            else:
                add(mod)
                for alias in node.names:
                    sub = f"{mod}.{alias.name}"
                    if sub in modules:
                        add(sub)
    return ours, theirs


def graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    files = {module_name(p): p for p in ROOT.rglob("*.py")}
    modules = set(files)
    edges: dict[str, set[str]] = {}
    third: dict[str, set[str]] = {}
    for name, path in files.items():
        edges[name], third[name] = imports_of(path, modules)
    return edges, third


def cycles(edges: dict[str, set[str]], nodes: set[str]) -> list[set[str]]:
    """Strongly connected components with more than one module (Tarjan), within ``nodes``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in nodes:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


EDGES, THIRD = graph()
CORE = {m for m in EDGES if is_core(m) and m != PACKAGE}


def test_the_walker_sees_lazy_imports_and_the_game_package(tmp_path):
    assert "blindchess.game.core" in CORE and "blindchess.ui.controller" not in CORE
    assert "blindchess.game.log" in EDGES["blindchess.game.core"]
    source = tmp_path / "lazy.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from . import pgn\n"
        "if TYPE_CHECKING:\n    from .ui import app\n"
        "def f():\n    from .game import core\n    import PySide6.QtCore\n    from .errors import UserError\n",
        encoding="utf-8")
    ours, theirs = imports_of(source, set(EDGES), "blindchess.lazy")
    assert ours == {"blindchess.pgn", "blindchess.game.core", "blindchess.errors"}
    assert "blindchess.ui.app" not in ours and "PySide6" in theirs


def test_no_import_cycle_in_the_core_except_known_ones():
    found = [frozenset(c) for c in cycles(EDGES, CORE)]
    unexpected = [sorted(c) for c in found if c not in KNOWN_CYCLES]
    assert unexpected == []


def test_session_and_pgn_do_not_import_each_other_both_ways():
    both = "blindchess.pgn" in EDGES["blindchess.session"] and "blindchess.session" in EDGES["blindchess.pgn"]
    assert not both


def test_cli_and_ui_cycle():
    found = {frozenset(c) for c in cycles(EDGES, set(EDGES))}
    cli_ui = [c for c in found if any(m.startswith("blindchess.cli") for m in c)
              and any(m.startswith("blindchess.ui") for m in c)]
    assert cli_ui == []   # the ui never imports the cli (issue 11)


def test_no_core_module_imports_qt_serial_or_audio():
    bad = {m: sorted(THIRD[m] & set(FORBIDDEN)) for m in CORE if THIRD[m] & set(FORBIDDEN)}
    assert bad == {}


def test_no_core_module_imports_an_adapter():
    bad = {m: sorted(e for e in EDGES[m] if not is_core(e)) for m in CORE if any(not is_core(e) for e in EDGES[m])}
    assert bad == {}
