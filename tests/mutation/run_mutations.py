"""Mutation testing of the core modules: would the tests notice if a deciding line changed?

Run by hand (``make mutation`` or ``.venv/bin/python tests/mutation/run_mutations.py``), never by
``make test``. By default it samples the rules engine, the table, the journal and the broadcast
(:data:`DEFAULT_MODULES`) with a seed drawn at run time and printed (``--seed`` repeats a run): the kill
rate published in ``docs/developer/journal-format.md`` is the range over several seeds, so it holds for
a sample someone else draws. For each core module it makes one-line mutations at lines that decide something —

* comparisons: ``<`` <-> ``<=``, ``>`` <-> ``>=``, ``==`` <-> ``!=``, ``in`` <-> ``not in``, ``is`` <-> ``is not``
* boolean operators: ``and`` <-> ``or``; ``not x`` -> ``x``; ``if x:`` / ``while x:`` / ``elif x:`` -> ``not (x)``
* constants: an integer ``n`` -> ``n + 1`` (``0`` -> ``1``), ``True`` <-> ``False``
* arithmetic: ``+`` <-> ``-``
* returns: ``return <boolean expression>`` -> ``return not (...)``, ``return x`` -> ``return None`` (not for
  ``return True``/``False``: the constant operator flips those)

— applies each to a private copy of the repository (one copy per worker), runs the module's own tests
against it (``pytest -x``), and counts the mutant killed when they fail. It prints the kill rate per
module and every surviving mutant (file, line, original, mutant), which a person then judges:
*equivalent* (no behaviour can tell it apart) or *missing test*.

Each mutant runs only the tests that execute its line (``--all-tests`` runs the module's whole set instead):
before the mutants, the module's tests run once under coverage.py with one context per test
(``coverage_map.py``, a pytest plugin), which gives every line its tests and every test its duration. A
mutant's tests run fastest first; a line run at import time gets the whole set, and the tests that start a
subprocess (whose lines no in-process measurement sees) are always added. A test that does not execute
the changed line cannot fail because of it, so the verdict is the whole set's, found in seconds.

Bounded: ``--sample N`` mutants per module (seeded, spread over the file), ``--jobs`` workers (default 2),
and a per-mutant time limit of ``--timeout-factor`` x its tests' unmutated time (+30 s); a mutant
that runs into it (an endless loop) counts as killed and is listed as such. A module whose tests fail
without any mutation is reported and skipped (someone may be half-way through a change).

The standard library, pytest and coverage.py (test dependencies) are used.
"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import dataclasses
import fnmatch
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

import coverage

ROOT = Path(__file__).resolve().parents[2]

#: module name -> (source files, test files or folders) — each module against its own tests: every module of
#: the pure core (the table, the rules engine, move language and records, storage, the bounds). The
#: suggestion benchmark test (test_notation_suggestions) tests notation's ranking of slips; the
#: *_mutants files pin the behaviours the mutation runs found unpinned.
_TABLE_AND_GAME = ("tests/game", "tests/table", "tests/scenario/test_scenarios.py",
                   "--ignore=tests/table/test_practice_game.py")
MODULES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # the table and the rules engine: every test of both packages and every scenario (whole games are how the
    # table is tested; the practice games against the real Stockfish are left out for their time)
    "table": (("blindchess/table/*.py",), _TABLE_AND_GAME),
    "game": (("blindchess/game/*.py",), _TABLE_AND_GAME),
    "notation": (("blindchess/language/notation.py",), ("tests/language/test_notation.py", "tests/language/test_notation_score.py",
                                                 "tests/language/test_notation_games.py", "tests/language/test_notation_suggestions.py",
                                                 "tests/language/test_notation_written_score.py")),
    "tracker": (("blindchess/pegboard/tracker.py",), ("tests/pegboard/test_tracker.py", "tests/pegboard/test_tracker_announced_moves.py",
                                                       "tests/pegboard/test_tracker_games.py", "tests/pegboard/test_tracker_reports.py")),
    "pegboard": (("blindchess/pegboard/protocol.py", "blindchess/pegboard/dgt.py", "blindchess/pegboard/profiles.py",
                  "blindchess/pegboard/choreography.py"),
                 ("tests/pegboard/test_protocol.py", "tests/pegboard/test_dgt.py", "tests/table/test_eboard.py")),
    "ruling": (("blindchess/laws/ruling.py",), ("tests/laws/test_ruling.py", "tests/laws/test_ruling_first_problem.py")),
    "phonetic": (("blindchess/language/phonetic.py", "blindchess/language/spoken.py", "blindchess/language/recognition.py"),
                 ("tests/language/test_phonetic.py", "tests/language/test_phonetic_never_guess.py", "tests/language/test_phonetic_bad_input.py",
                  "tests/language/test_phonetic_understood_as_said.py", "tests/language/test_recognition.py")),
    "dialogue": (("blindchess/language/dialogue.py",), ("tests/language/test_dialogue.py",)),
    "clock": (("blindchess/laws/clock.py", "blindchess/table/clock.py"),
              ("tests/laws/test_clock.py", "tests/laws/test_clock_arbiter.py", "tests/table/test_talking_clock.py", "tests/base/test_bounds.py")),
    "records": (("blindchess/records/pgn.py", "blindchess/records/braille.py", "blindchess/language/board_words.py", "blindchess/records/start_position.py"),
                ("tests/records/test_pgn.py", "tests/records/test_braille.py", "tests/language/test_board_words.py", "tests/records/test_records.py")),
    "tournament": (("blindchess/laws/adjournment.py", "blindchess/laws/rulesets.py", "blindchess/laws/chess960.py"),
                   ("tests/laws/test_adjournment.py", "tests/laws/test_rulesets.py", "tests/laws/test_chess960.py")),
    "journal": (("blindchess/storage/journal.py",), ("tests/storage",)),
    "bounds": (("blindchess/base/bounds.py", "blindchess/base/textfile.py"), ("tests/base/test_bounds.py", "tests/base/test_textfile.py")),
    # the broadcast: every test of it but the live pages in a real browser (their time)
    "broadcast": (("blindchess/broadcast/*.py",), ("tests/broadcast", "--ignore=tests/broadcast/test_broadcast_live.py")),
}
#: The sample `make mutation` runs: the rules engine, the table, the journal and the broadcast.
DEFAULT_MODULES = ("game", "table", "journal", "broadcast")

_COMPARE_SWAP = {ast.Lt: "<=", ast.LtE: "<", ast.Gt: ">=", ast.GtE: ">", ast.Eq: "!=", ast.NotEq: "==",
                 ast.In: "not in", ast.NotIn: "in", ast.Is: "is not", ast.IsNot: "is"}
_COMPARE_TEXT = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
                 ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}


@dataclasses.dataclass(frozen=True)
class Mutant:
    module: str
    path: str          # relative to the repository
    line: int          # 1-based
    kind: str
    original: str      # the whole line
    mutated: str       # the whole line, changed

    def label(self) -> str:
        return f"{self.path}:{self.line} [{self.kind}]  {self.original.strip()}  ->  {self.mutated.strip()}"


def _replace(line: str, start: int, end: int, new: str) -> str:
    return line[:start] + new + line[end:]


def _between(line: str, start: int, end: int, token: str) -> tuple[int, int] | None:
    """Where ``token`` (a keyword or operator) stands between columns start and end, as whole words."""
    segment = line[start:end]
    index = segment.find(token)
    while index >= 0:
        before = segment[index - 1] if index > 0 else " "
        after = segment[index + len(token)] if index + len(token) < len(segment) else " "
        word = token[0].isalpha()
        if not word or (not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_")):
            if token in ("<", ">") and after == "=":
                index = segment.find(token, index + 1)
                continue
            if token == "in" and segment[max(0, index - 4):index] == "not ":
                index = segment.find(token, index + 1)
                continue
            if token == "is" and segment[index:index + 6] == "is not":
                index = segment.find(token, index + 1)
                continue
            return start + index, start + index + len(token)
        index = segment.find(token, index + 1)
    return None


def _docstring_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                lines.update(range(body[0].lineno, (body[0].end_lineno or body[0].lineno) + 1))
    return lines


def _skipped_lines(tree: ast.AST) -> set[int]:
    """Lines that decide nothing at run time: docstrings, annotations, TYPE_CHECKING blocks, __all__."""
    lines = _docstring_lines(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        if isinstance(node, ast.AnnAssign) and node.value is None:
            lines.add(node.lineno)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def _calling_conventions(tree: ast.AST) -> set[int]:
    """The values of ``kw_only=``: whether fields may be given by position. Flipped, the class either no longer
    defines (killed at import) or behaves the same for every caller, who must already name each field — an
    equivalent mutant by construction, not sampled."""
    return {id(k.value) for node in ast.walk(tree) if isinstance(node, ast.Call)
            for k in node.keywords if k.arg == "kw_only"}


def _annotation_nodes(tree: ast.AST) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        annotations = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            annotations = [a.annotation for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs]
            annotations.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            annotations = [node.annotation]
        for ann in annotations:
            if ann is not None:
                ids.update(id(sub) for sub in ast.walk(ann))
    return ids


def mutants_of(module: str, path: str, source: str) -> list[Mutant]:
    """Every one-line mutant of ``source`` (see the module docstring for the operators)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    skipped = _skipped_lines(tree)
    in_annotation = _annotation_nodes(tree) | _calling_conventions(tree)
    out: list[Mutant] = []

    def add(lineno: int, kind: str, new_line: str) -> None:
        original = lines[lineno - 1]
        if new_line != original:
            out.append(Mutant(module, path, lineno, kind, original, new_line))

    for node in ast.walk(tree):
        lineno = getattr(node, "lineno", None)
        if lineno is None or lineno in skipped or id(node) in in_annotation:
            continue
        one_line = getattr(node, "end_lineno", lineno) == lineno
        line = lines[lineno - 1]
        if isinstance(node, ast.Compare) and len(node.ops) == 1 and one_line \
                and node.comparators[0].lineno == lineno:
            op = type(node.ops[0])
            where = _between(line, node.left.end_col_offset or 0, node.comparators[0].col_offset, _COMPARE_TEXT[op])
            if where:
                add(lineno, "compare", _replace(line, *where, _COMPARE_SWAP[op]))
        elif isinstance(node, ast.BoolOp) and len(node.values) >= 2 and node.values[1].lineno == lineno \
                and node.values[0].end_lineno == lineno:
            token, new = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
            where = _between(line, node.values[0].end_col_offset or 0, node.values[1].col_offset, token)
            if where:
                add(lineno, "boolean", _replace(line, *where, new))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) and one_line:
            start = node.col_offset
            if line[start:start + 4] == "not ":
                add(lineno, "not", _replace(line, start, start + 4, ""))
        elif isinstance(node, (ast.If, ast.While)) and node.test.lineno == node.test.end_lineno == lineno:
            test = node.test
            if not (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"):
                start, end = test.col_offset, test.end_col_offset or test.col_offset
                add(lineno, "condition", _replace(line, start, end, f"not ({line[start:end]})"))
        elif isinstance(node, ast.Constant) and one_line and not isinstance(node.value, str):
            start, end = node.col_offset, node.end_col_offset or node.col_offset
            if line[start:end] != repr(node.value) and not isinstance(node.value, bool):
                continue   # written differently (1_000, 0x0d): leave it
            if node.value is True:
                add(lineno, "constant", _replace(line, start, end, "False"))
            elif node.value is False:
                add(lineno, "constant", _replace(line, start, end, "True"))
            elif isinstance(node.value, int):
                add(lineno, "constant", _replace(line, start, end, str(node.value + 1)))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) and one_line \
                and node.right.lineno == lineno:
            token, new = ("+", "-") if isinstance(node.op, ast.Add) else ("-", "+")
            where = _between(line, node.left.end_col_offset or 0, node.right.col_offset, token)
            texts = [side for side in (node.left, node.right) if isinstance(side, ast.JoinedStr)
                     or (isinstance(side, ast.Constant) and isinstance(side.value, str))]
            if where and not texts:   # "a" + "b" joins text: nothing is decided there
                add(lineno, "arithmetic", _replace(line, *where, new))
        elif isinstance(node, ast.Return) and node.value is not None and one_line:
            value = node.value
            start, end = value.col_offset, value.end_col_offset or value.col_offset
            if isinstance(value, (ast.Compare, ast.BoolOp)) or (
                    isinstance(value, ast.UnaryOp) and isinstance(value.op, ast.Not)):
                add(lineno, "return", _replace(line, start, end, f"not ({line[start:end]})"))
            elif not (isinstance(value, ast.Constant) and (value.value is None or isinstance(value.value, bool))):
                # (``return True``/``False`` is flipped by the constant operator; None would only repeat it, weaker)
                add(lineno, "return", _replace(line, start, end, "None"))
    # one mutant per (line, kind, text): two nodes can give the same change
    unique = {(m.line, m.mutated): m for m in out}
    return sorted(unique.values(), key=lambda m: (m.line, m.kind, m.mutated))


#: Mutants judged equivalent (no behaviour can tell them apart), each with its reason: left out of the sample.
EQUIVALENT = Path(__file__).with_name("equivalent.toml")


def judged_equivalent(path: Path = EQUIVALENT) -> dict[tuple[str, str, str], str]:
    """(source path, original line, mutated line — both stripped) -> why no behaviour can tell them apart."""
    if not path.exists():
        return {}
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("equivalent", [])
    return {(e["path"], e["original"].strip(), e["mutated"].strip()): e["why"] for e in entries}


def sources(module: str) -> list[str]:
    files: list[str] = []
    for pattern in MODULES[module][0]:
        files += sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(pattern) if p.name != "__init__.py")
    return files


def sample(mutants: list[Mutant], n: int | None, seed: int) -> list[Mutant]:
    """``n`` mutants spread over the file(s): at most one per line first, in random order, seeded."""
    if n is None or len(mutants) <= n:
        return mutants
    rng = random.Random(seed)
    by_line: dict[tuple[str, int], list[Mutant]] = {}
    for m in mutants:
        by_line.setdefault((m.path, m.line), []).append(m)
    lines = list(by_line)
    rng.shuffle(lines)
    picked = [rng.choice(by_line[key]) for key in lines[:n]]
    return sorted(picked, key=lambda m: (m.path, m.line))


# --------------------------------------------------------------------------- running


#: Not needed to run tests (or rebuilt by them): left out of the workers' copies.
_NOT_COPIED = (".git", ".venv", "build", "dist", "test-artifacts", "*.egg-info", "__pycache__", "*.pyc",
               ".mypy_cache", ".ruff_cache", ".pytest_cache")


def make_copy(into: Path) -> Path:
    """A copy of the working tree (package, tests, data folders such as voices/ and boards/), outside it."""
    copy = into / "repo"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*_NOT_COPIED), symlinks=True)
    return copy


def run_tests(copy: Path, tests: tuple[str, ...], limit: float | None,
              extra_env: dict[str, str] | None = None, options: tuple[str, ...] = ("-x",)) -> tuple[str, float]:
    """("pass" | "fail" | "timeout", seconds) for the tests run in ``copy`` (its package first on the path).

    ``tests`` are pytest arguments (files, folders, node ids, ``--ignore=``); many are handed over in a file
    (pytest's ``@file``), so any number of node ids fits."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join((str(copy), str(copy / "tests" / "mutation"))),
               QT_QPA_PLATFORM="offscreen", PYTHONDONTWRITEBYTECODE="1", **(extra_env or {}))
    home = tempfile.mkdtemp(prefix="blindchess-mutation-home-")
    env["BLINDCHESS_HOME"] = home
    arguments = Path(home) / "tests.txt"
    arguments.write_text("\n".join(tests) + "\n", encoding="utf-8")
    start = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", *options, "-q", "-p", "no:cacheprovider",
                               "-o", "addopts=", f"@{arguments}"], cwd=copy, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, timeout=limit)
        verdict = "pass" if proc.returncode == 0 else "fail"
    except subprocess.TimeoutExpired:
        verdict = "timeout"
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return verdict, time.monotonic() - start


@dataclasses.dataclass
class CoverageMap:
    """Which tests execute which line of a module's sources, and how long each test takes."""

    lines: dict[str, dict[int, set[str]]]   # source path (relative) -> line -> node ids ("" = at import)
    durations: dict[str, float]
    spawning: list[str]                      # tests that start a subprocess
    whole: tuple[str, ...]                   # the module's whole test set

    def tests_for(self, mutant: Mutant, statements: dict[str, dict[int, int]]) -> tuple[str, ...]:
        """The tests that execute ``mutant``'s line, fastest first, then those starting a subprocess; the
        whole set when the line runs at import time. A line the tracer does not report (a continuation
        line) counts as its statement's first line."""
        measured = self.lines.get(mutant.path, {})
        ids = measured.get(mutant.line)
        if ids is None:
            ids = measured.get(statements.get(mutant.path, {}).get(mutant.line, mutant.line), set())
        if "" in ids:
            return self.whole
        ordered = sorted(ids, key=lambda nodeid: (self.durations.get(nodeid, 0.0), nodeid))
        return tuple(ordered + [t for t in self.spawning if t not in ids])

    def save(self, path: Path) -> None:
        path.write_text(json.dumps({"lines": {p: {str(n): sorted(ids) for n, ids in by.items()}
                                              for p, by in self.lines.items()},
                                    "durations": self.durations, "spawning": self.spawning,
                                    "whole": list(self.whole)}), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> CoverageMap:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls({p: {int(n): set(ids) for n, ids in by.items()} for p, by in data["lines"].items()},
                   data["durations"], data["spawning"], tuple(data["whole"]))

    def seconds(self, tests: tuple[str, ...]) -> float:
        return sum(self.durations.get(t, 0.0) for t in tests) if tests != self.whole \
            else sum(self.durations.values())


def coverage_map(copy: Path, module: str, jobs: int) -> tuple[str, CoverageMap]:
    """Run ``module``'s tests once under coverage.py, one context per test (see ``coverage_map.py``)."""
    tests = MODULES[module][1]
    with tempfile.TemporaryDirectory(prefix="blindchess-coverage-") as tmp:
        data = Path(tmp) / "coverage"
        include = os.pathsep.join(str(copy / pattern) for pattern in MODULES[module][0])
        verdict, _ = run_tests(copy, tests, None, {"BLINDCHESS_MUTATION_COVERAGE": str(data),
                                                   "BLINDCHESS_MUTATION_INCLUDE": include},
                               ("-p", "coverage_map", "-n", str(max(1, jobs))))
        coverage.Coverage(data_file=str(data), config_file=False).combine([tmp], keep=True)
        combined = coverage.CoverageData(basename=str(data))
        combined.read()
        lines: dict[str, dict[int, set[str]]] = {}
        for measured in combined.measured_files():
            relative = str(Path(measured).relative_to(copy))
            by_line: dict[int, set[str]] = {}
            for line, contexts in combined.contexts_by_lineno(measured).items():
                by_line[line] = {c.split("|")[0] for c in contexts}
            lines[relative] = by_line
        durations: dict[str, float] = {}
        spawning: set[str] = set()
        for report in Path(tmp).glob("coverage-tests.*.json"):
            noted = json.loads(report.read_text(encoding="utf-8"))
            durations.update(noted["durations"])
            spawning.update(noted["spawning"])
    return verdict, CoverageMap(lines, durations, sorted(spawning), tests)


def statement_starts(path: Path) -> dict[int, int]:
    """line -> the first line of the innermost statement holding it (for lines the tracer does not report)."""
    starts: dict[int, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.stmt):
            for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
                if line not in starts or node.lineno > starts[line]:
                    starts[line] = node.lineno
    return starts


class Worker:
    """One private copy of the repository; mutates one file at a time and restores it."""

    def __init__(self, base: Path, index: int) -> None:
        folder = base / f"worker{index}"
        folder.mkdir()
        self.copy = make_copy(folder)

    def check(self, mutant: Mutant, tests: tuple[str, ...], limit: float) -> str:
        target = self.copy / mutant.path
        original = target.read_text(encoding="utf-8")
        lines = original.split("\n")
        assert lines[mutant.line - 1] == mutant.original, mutant
        lines[mutant.line - 1] = mutant.mutated
        target.write_text("\n".join(lines), encoding="utf-8")
        try:
            try:
                compile("\n".join(lines), str(target), "exec")
            except SyntaxError:
                return "invalid"
            verdict, _ = run_tests(self.copy, tests, limit)
            return verdict
        finally:
            target.write_text(original, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", default=list(DEFAULT_MODULES),
                        help=f"modules to mutate (default: {' '.join(DEFAULT_MODULES)}; known: {' '.join(MODULES)})")
    parser.add_argument("--sample", type=int, default=12, help="mutants per module (0 = all)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the sample (default: drawn now and printed, so a run can be repeated)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel workers (each a copy of the repository)")
    parser.add_argument("--timeout-factor", type=float, default=5.0,
                        help="a mutant may take this many times the unmutated test time (+30 s)")
    parser.add_argument("--all-tests", action="store_true",
                        help="run each mutant against the module's whole test set, not only the tests of its line")
    parser.add_argument("--only", metavar="PATTERN", action="append", default=[],
                        help="only mutants in files matching this pattern (fnmatch, e.g. '*/tactile.py'); repeatable")
    parser.add_argument("--map", metavar="FILE",
                        help="keep the line -> tests map in FILE and reuse it while it exists (delete it after "
                             "adding tests: a test the map does not know is not run)")
    parser.add_argument("--list", action="store_true", help="only list the mutants that would be run")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args(argv)
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        parser.error(f"unknown module(s): {', '.join(unknown)}; known: {', '.join(MODULES)}")
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 1_000_000)
    print(f"seed {args.seed} (run again with --seed {args.seed})", flush=True)

    plan: dict[str, list[Mutant]] = {}
    equivalent = judged_equivalent()
    for module in args.modules:
        every: list[Mutant] = []
        for path in sources(module):
            if args.only and not any(fnmatch.fnmatch(path, pattern) for pattern in args.only):
                continue
            every += mutants_of(module, path, (ROOT / path).read_text(encoding="utf-8"))
        kept = [m for m in every if (m.path, m.original.strip(), m.mutated.strip()) not in equivalent]
        plan[module] = sample(kept, args.sample or None, args.seed)
        print(f"{module}: {len(kept)} possible mutants ({len(every) - len(kept)} more judged equivalent in "
              f"{EQUIVALENT.relative_to(ROOT)}), {len(plan[module])} chosen", flush=True)
    if args.list:
        for module, chosen in plan.items():
            for m in chosen:
                print(f"  {module}  {m.label()}")
        return 0

    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="blindchess-mutation-") as tmp:
        base = Path(tmp)
        workers = [Worker(base, i) for i in range(max(1, args.jobs))]
        free = list(workers)
        for module, chosen in plan.items():
            tests = MODULES[module][1]
            if args.all_tests:
                verdict, seconds = run_tests(workers[0].copy, tests, None)
                covered = None
            else:
                cached = Path(f"{args.map}.{module}.json") if args.map else None
                if cached and cached.exists():
                    verdict, covered = "pass", CoverageMap.load(cached)
                else:
                    verdict, covered = coverage_map(workers[0].copy, module, args.jobs)
                    if cached and verdict == "pass":
                        covered.save(cached)
                seconds = covered.seconds(tests)
            if verdict != "pass":
                print(f"{module}: its tests fail WITHOUT a mutation — skipped", flush=True)
                results[module] = {"skipped": "tests fail unmutated"}
                continue
            statements = {path: statement_starts(ROOT / path) for path in sources(module)}
            outcome: dict[Mutant, str] = {}
            with concurrent.futures.ThreadPoolExecutor(len(workers)) as pool:
                def job(m: Mutant, covered: CoverageMap | None = covered,
                        statements: dict[str, dict[int, int]] = statements,
                        seconds: float = seconds) -> tuple[Mutant, str]:
                    chosen_tests = covered.tests_for(m, statements) if covered else MODULES[m.module][1]
                    limit = args.timeout_factor * (covered.seconds(chosen_tests) if covered else seconds) + 30
                    worker = free.pop()
                    try:
                        return m, worker.check(m, chosen_tests, limit)
                    finally:
                        free.append(worker)
                for m, verdict in pool.map(job, chosen):
                    outcome[m] = verdict
                    mark = {"fail": "killed", "timeout": "killed (time)", "pass": "SURVIVED",
                            "invalid": "invalid"}[verdict]
                    print(f"  {mark:14} {m.label()}", flush=True)
            valid = [m for m in chosen if outcome[m] != "invalid"]
            killed = [m for m in valid if outcome[m] in ("fail", "timeout")]
            survivors = [m for m in valid if outcome[m] == "pass"]
            rate = len(killed) / len(valid) if valid else 1.0
            results[module] = {"killed": len(killed), "total": len(valid), "rate": rate,
                               "test_seconds": round(seconds, 1),
                               "survivors": [dataclasses.asdict(m) for m in survivors],
                               "timeouts": [dataclasses.asdict(m) for m in valid if outcome[m] == "timeout"]}
            print(f"{module}: {len(killed)}/{len(valid)} killed ({rate:.0%}), its tests unmutated {seconds:.1f} s",
                  flush=True)

    print("\n== kill rate per module")
    total_k = total_n = 0
    for module, r in results.items():
        if "skipped" in r:
            print(f"{module:10} skipped ({r['skipped']})")
            continue
        total_k += r["killed"]
        total_n += r["total"]
        print(f"{module:10} {r['killed']:3}/{r['total']:<3} {r['rate']:.0%}")
    if total_n:
        print(f"{'all':10} {total_k:3}/{total_n:<3} {total_k / total_n:.0%}   (seed {args.seed})")
    print("\n== surviving mutants (judge each: equivalent, or a missing test)")
    for module, r in results.items():
        for m in r.get("survivors", []):
            print(f"{module:10} {Mutant(**m).label()}")
    if args.json:
        Path(args.json).write_text(json.dumps({"seed": args.seed, "modules": results}, ensure_ascii=False, indent=2),
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
