"""The mutation script's generator makes the one-line changes it promises (the runs themselves are by hand)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from run_mutations import MODULES, CoverageMap, Mutant, judged_equivalent, mutants_of, sample, sources, statement_starts  # noqa: E402

SOURCE = '''"""Doc 1 < 2."""
__all__ = ["f"]


def f(a: int = 3, b: list[int] | None = None) -> bool:
    """a < b"""
    if a < 2 and b is None:
        return a in (1, 2)
    x = a + 1
    while not b:
        return False
    return x
'''


def changes() -> set[tuple[int, str, str]]:
    return {(m.line, m.kind, m.mutated.strip()) for m in mutants_of("demo", "demo.py", SOURCE)}


def test_each_operator_gives_its_one_line_mutant():
    got = changes()
    assert (7, "compare", "if a <= 2 and b is None:") in got
    assert (7, "compare", "if a < 2 and b is not None:") in got
    assert (7, "boolean", "if a < 2 or b is None:") in got
    assert (7, "condition", "if not (a < 2 and b is None):") in got
    assert (7, "constant", "if a < 3 and b is None:") in got
    assert (8, "return", "return not (a in (1, 2))") in got
    assert (8, "compare", "return a not in (1, 2)") in got
    assert (9, "arithmetic", "x = a - 1") in got
    assert (10, "not", "while b:") in got
    assert (11, "constant", "return True") in got
    assert (12, "return", "return None") in got
    assert (11, "constant", "return True") in got and not any(line == 11 and kind == "return" for line, kind, _ in got)
    assert (5, "constant", "def f(a: int = 4, b: list[int] | None = None) -> bool:") in got


def test_docstrings_annotations_and_all_are_left_alone():
    got = changes()
    assert not any(line in (1, 2, 6) for line, _, _ in got)
    line5 = [text for line, _, text in got if line == 5]
    assert line5 and all("list[int] | None = None) -> bool:" in text for text in line5)   # annotations kept


def test_every_mutant_still_compiles_and_changes_one_line():
    for m in mutants_of("demo", "demo.py", SOURCE):
        lines = SOURCE.split("\n")
        assert lines[m.line - 1] == m.original and m.mutated != m.original
        lines[m.line - 1] = m.mutated
        compile("\n".join(lines), "demo.py", "exec")


def test_the_sample_is_seeded_and_spread_over_lines():
    every = mutants_of("demo", "demo.py", SOURCE)
    first, again = sample(every, 4, seed=1), sample(every, 4, seed=1)
    assert first == again and len({m.line for m in first}) == 4


def test_every_core_module_has_sources_and_tests():
    root = Path(__file__).resolve().parents[2]
    for module, (_, tests) in MODULES.items():
        assert sources(module), module
        paths = [t.partition("=")[2] if t.startswith("--ignore=") else t for t in tests]
        assert paths and all((root / t).exists() for t in paths), module


def test_every_module_of_the_table_and_the_rules_engine_is_sampled():
    root = Path(__file__).resolve().parents[2]
    sampled = {path for module in MODULES for path in sources(module)}
    for folder in ("blindchess/table", "blindchess/game"):
        files = {str(p.relative_to(root)) for p in (root / folder).glob("*.py") if p.name != "__init__.py"}
        assert files and files <= sampled, files - sampled
    for core in ("blindchess/storage/journal.py", "blindchess/language/notation.py", "blindchess/laws/clock.py", "blindchess/laws/ruling.py",
                 "blindchess/language/phonetic.py", "blindchess/pegboard/tracker.py", "blindchess/base/bounds.py", "blindchess/records/pgn.py",
                 "blindchess/laws/adjournment.py", "blindchess/language/dialogue.py", "blindchess/records/braille.py"):
        assert core in sampled, core


def test_kw_only_is_left_alone_and_frozen_flipped():
    # kw_only only says how the class may be called: flipped it is killed at import or equivalent
    source = "from dataclasses import dataclass\n\n\n@dataclass(frozen=True, kw_only=True)\nclass A:\n    x: int = 0\n"
    got = {m.mutated.strip() for m in mutants_of("demo", "demo.py", source)}
    assert "@dataclass(frozen=False, kw_only=True)" in got
    assert not any("kw_only=False" in text for text in got)


def test_every_mutant_judged_equivalent_exists_and_says_why():
    root = Path(__file__).resolve().parents[2]
    judged = judged_equivalent()
    existing = {(m.path, m.original.strip(), m.mutated.strip())
                for module in MODULES for path in sources(module)
                for m in mutants_of(module, path, (root / path).read_text(encoding="utf-8"))}
    stale = [key for key in judged if key not in existing]
    assert not stale, f"entries of equivalent.toml that match no mutant (the line changed): {stale}"
    assert all(len(why.split()) >= 4 for why in judged.values())


def test_a_mutant_runs_the_tests_of_its_line_fastest_first(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("def f(a):\n    if (a and\n            a > 1):\n        return 1\n    return 2\n", encoding="utf-8")
    covered = CoverageMap(lines={"m.py": {1: {""}, 2: {"t::slow", "t::fast"}, 4: {"t::slow"}}},
                          durations={"t::slow": 3.0, "t::fast": 0.5, "t::spawn": 1.0}, spawning=["t::spawn"],
                          whole=("tests",))
    statements = {"m.py": statement_starts(source)}

    def tests_of(line: int) -> tuple[str, ...]:
        return covered.tests_for(Mutant("demo", "m.py", line, "compare", "", ""), statements)

    assert tests_of(2) == ("t::fast", "t::slow", "t::spawn")
    assert tests_of(3) == ("t::fast", "t::slow", "t::spawn")     # a continuation line: its statement's tests
    assert tests_of(4) == ("t::slow", "t::spawn")
    assert tests_of(5) == ("t::spawn",)                          # run by no test in-process
    assert tests_of(1) == ("tests",)                             # run at import: the whole set
    assert covered.seconds(("t::fast", "t::spawn")) == 1.5
