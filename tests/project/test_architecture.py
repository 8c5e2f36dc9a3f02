"""The layers of blindchess, as the import contract in ``pyproject.toml`` (``[tool.importlinter]``) states them.

``make lint`` runs ``lint-imports`` on that contract: the layers from the front ends down to the
base, each one package (a folder), adapters beside the core, Qt / serial ports / audio / speech
engines only in the modules that use them, no import cycle, and each package used through its face
(its ``__init__``) only. Here: the real tree keeps the contract, every module is in a layer, and
the contract bites — a copy of the package with one import added against it is refused, and the
refusal names that import. Every import counts, also one inside a function.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.support.paths import REPO

PACKAGE = REPO / "blindchess"
CONTRACTS = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def contract(contract_id: str) -> dict:
    return next(c for c in CONTRACTS if c.get("id") == contract_id)


def layer_tails() -> list[list[str]]:
    """The layers of the layers contract, top to bottom, each as its module names (relative to blindchess)."""
    return [[t.strip().strip("()") for t in re.split(r"[|:]", layer)] for layer in contract("layers")["layers"]]


def modules(root: Path = PACKAGE) -> list[str]:
    """Every module of the package, relative to it ("table.state", "pegboard", "__main__")."""
    names = []
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts:
            names.append(".".join(parts))
    return names


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` on the package and the contract under ``root`` (that copy, not the installed one)."""
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--no-logo"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_tree_keeps_the_contract():
    done = lint_imports(REPO)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    for c in CONTRACTS:
        assert re.search(re.escape(c["name"]).replace(r"\ ", r"\s+") + r"\s+KEPT", done.stdout), c["name"]


def test_every_module_is_in_exactly_one_layer_and_each_layer_is_whole_packages():
    tails = [t for layer in layer_tails() for t in layer]
    assert len(tails) == len(set(tails))
    assert all("." not in t for t in tails)                  # a layer names packages, never a module inside one
    assert "exhaustive_ignores" not in contract("layers")      # no package straddles two layers
    outside = [m for m in modules() if not any(m == t or m.startswith(t + ".") for t in tails)]
    assert outside == []


def test_the_layers_run_from_the_front_ends_down_to_the_base():
    order = [t for layer in layer_tails() for t in layer]

    def above(a: str, b: str) -> bool:
        return order.index(a) < order.index(b)

    assert above("cli", "ui") and above("ui", "scenario") and above("scenario", "adapters")
    assert above("adapters", "table") and above("table", "game") and above("game", "records")
    assert above("records", "laws") and above("laws", "language") and above("pegboard", "language")
    assert above("language", "storage") and above("storage", "base")


def test_every_layer_package_has_a_face_that_the_others_use():
    """Each layer package is imported through its __init__ (a protected contract per package), and
    every name the face lists is there."""
    layer_packages = [t for layer in layer_tails() for t in layer if (PACKAGE / t).is_dir()]
    faces = {c["protected_modules"][0] for c in CONTRACTS if c.get("type") == "protected"}
    assert faces == {f"blindchess.{p}.*" for p in layer_packages}
    for package in layer_packages:
        face = importlib.import_module(f"blindchess.{package}")
        assert face.__doc__, package
        missing = [name for name in getattr(face, "__all__", ()) if not hasattr(face, name)]
        assert missing == [], package


# --- the contract bites: one import against it, in a copy of the package

def _copy(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    shutil.copytree(PACKAGE, root / "blindchess", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    return root


def _inject(root: Path, module: str, line: str) -> None:
    path = root / "blindchess" / (module.replace(".", "/") + ".py")
    text = path.read_text(encoding="utf-8")
    head, sep, rest = text.partition("\nfrom __future__ import annotations\n")
    assert sep, module
    path.write_text(head + sep + line + "\n" + rest, encoding="utf-8")


@pytest.mark.parametrize(("module", "line", "named"), [
    # the move language importing the table: a back-running import
    ("language.notation", "from ..table import Table as _Table", "blindchess.language.notation -> blindchess.table"),
    # the same inside a function: still an import against the layers
    ("laws.clock", "def _late():\n    from ..ui import main  # noqa\n", "blindchess.laws.clock -> blindchess.ui"),
    # an adapter that knows the table's events
    ("adapters.speech.earcons", "from ...table import Moved as _Moved", "blindchess.adapters.speech.earcons -> blindchess.table"),
    # Qt in the core
    ("pegboard.tracker", "import PySide6.QtCore as _qt", "blindchess.pegboard.tracker -> PySide6"),
    # a cycle inside one layer (named relative to the package it is in)
    ("language.spoken", "from . import recognition as _recognition", "- .spoken -> .recognition"),
    # past a package's face, into one of its modules
    ("table.moves", "from ..language.notation import read as _read", "blindchess.table.moves -> blindchess.language.notation"),
])
def test_an_import_against_the_contract_fails_and_is_named(tmp_path, module, line, named):
    root = _copy(tmp_path)
    assert lint_imports(root).returncode == 0      # the copy keeps the contract as the tree does
    _inject(root, module, line)
    done = lint_imports(root)
    assert done.returncode != 0
    assert named in done.stdout, done.stdout[-3000:]
    assert "BROKEN" in done.stdout
