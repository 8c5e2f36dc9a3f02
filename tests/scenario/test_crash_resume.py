"""A crash after any write: the real program killed, started again on its journal, gives the uninterrupted game.

``blindchess scenario run FILE --json --journal J`` runs in a process of its own and is killed with SIGKILL right
after its N-th fsync (:mod:`tests.support.killing`) — after every unit of the journal, every fsync of the
envelope and of the journals folder, and those of the length line's last rewrite when it closes. Then
``blindchess scenario run FILE --json --journal J --resume`` plays the same script on from the journal, and the
game it leaves is compared with the game of the uninterrupted run, read from both journals: the moves, both
boards, both scores, the clocks at every press, the result, every input the journal holds other than a touch
(each claim, ruling, arbiter's decision, sealing, press, move, announcement and answer once — not twice, not
lost) — and the final state the resumed run prints, its time and clocks included.

``make test`` kills at a sample of those fsyncs, drawn with a seed chosen at run time and printed in the report's
header (``BLINDCHESS_CRASH_SEED=n`` repeats a run, ``BLINDCHESS_CRASH_KILLS=n`` changes how many);
``make crash-sweep`` (``BLINDCHESS_CRASH_KILLS=all``) kills at every fsync of every scenario in
``tests/scenarios/`` (1,768 kills over 77 scenarios, about seven minutes on two cores).

The journal cut inside a line — a write torn by a power cut, which no kill can produce — is resumed too
(:func:`test_a_journal_torn_inside_its_last_unit_resumes_to_the_uninterrupted_game`).
"""

from __future__ import annotations

import os
import random
import signal
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from blindchess.game import ClockTimes, Session
from blindchess.storage import envelope_path, read_journal, verdict
from tests.support.paths import SCENARIOS

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the killed runs are forked (POSIX)")

ALL = sorted(p.stem for p in SCENARIOS.glob("*.scn"))
#: How many kills ``make test`` makes (``BLINDCHESS_CRASH_KILLS``; "all": every fsync of every scenario).
KILLS = os.environ.get("BLINDCHESS_CRASH_KILLS", "40")
#: The sample's seed, drawn once per run (tests/conftest.py) and printed in the report's header.
SEED = int(os.environ.get("BLINDCHESS_CRASH_SEED") or random.SystemRandom().randrange(1, 1_000_000))
#: Kills per part of the sample (the parts run side by side).
PER_PART = 5

#: What the program journals of itself across a restart, not of the game: it is not compared.
PROGRAM = {"note", "reopened", "journal-damaged"}


@dataclass(frozen=True)
class Game:
    """What the comparison looks at in a game read back from its journal."""

    moves: list[str]
    boards: dict[str, list[str]]
    scores: dict[str, list[str]]
    presses: list[tuple[int, float | None, float | None]]
    result: tuple[str | None, str | None]
    inputs: list[tuple[str, float, str]]
    touches: list[tuple[str, float, str]]


def game_of(journal: Path) -> Game:
    session = Session.load(journal)
    snap = session.snapshot
    events = session.events
    inputs = [(e.TYPE, e.t, str(getattr(e, "board", ""))) for e in events if e.INPUT and e.TYPE not in PROGRAM]
    return Game([m.uci() for m in snap.game_moves],
                {b: [m.uci() for m in snap.moves(b)] for b in ("sighted", "tactile")},
                {w: list(snap.score(w)) for w in ("blind", "sighted")},
                [(e.ply, e.white, e.black) for e in events if isinstance(e, ClockTimes)],
                (snap.result, snap.result_reason),
                [i for i in inputs if i[0] != "touch"], [i for i in inputs if i[0] == "touch"])


@pytest.fixture(scope="module")
def programs(tmp_path_factory):
    """The programs run as every test runs the program: on a German system, with a data folder of their own
    (set here: a fixture for the whole module is made before each test's own set-up)."""
    from tests.support.killing import Programs

    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "BLINDCHESS_LANG")}
    env.update(LANG="de_DE.UTF-8", BLINDCHESS_HOME=str(tmp_path_factory.mktemp("home")))
    with Programs(tmp_path_factory.mktemp("runs"), env) as running:
        yield running


class Reference:
    """The uninterrupted run of each scenario (once per worker): its final state, its game, its fsyncs."""

    def __init__(self, programs, folder: Path) -> None:
        self.programs, self.folder, self.runs = programs, folder, {}

    def __call__(self, name: str):
        if name not in self.runs:
            journal = self.folder / f"{name}.full.jsonl"
            ran = self.programs.run(["scenario", "run", str(SCENARIOS / f"{name}.scn"), "--json", "--journal",
                                     str(journal)])
            assert ran.code == 0 and ran.fsyncs, ran.stderr
            self.runs[name] = (ran.json()[-1], game_of(journal), ran.fsyncs)
        return self.runs[name]


@pytest.fixture(scope="module")
def reference(programs, tmp_path_factory):
    return Reference(programs, tmp_path_factory.mktemp("full"))


def kill_and_resume(programs, reference, name: str, kill_at: int, folder: Path) -> list[str]:
    """Kill the run of ``name`` after its ``kill_at``-th fsync, resume it; what differs from the uninterrupted run."""
    final, game, _ = reference(name)
    script = str(SCENARIOS / f"{name}.scn")
    journal = folder / f"{name}-{kill_at}.jsonl"
    killed = programs.run(["scenario", "run", script, "--json", "--journal", str(journal)], kill_at=kill_at)
    assert killed.signal == signal.SIGKILL, (name, kill_at, killed.code, killed.stderr)
    resumed = programs.run(["scenario", "run", script, "--json", "--journal", str(journal), "--resume"])
    assert resumed.code == 0, (name, kill_at, resumed.stderr)
    got = game_of(journal)
    differ = [_difference(what, getattr(game, what), getattr(got, what))
              for what in ("moves", "boards", "scores", "presses", "result", "inputs")
              if getattr(got, what) != getattr(game, what)]
    if resumed.json()[-1] != final:
        differ.append(f"final {resumed.json()[-1]} != {final}")
    read = read_journal(journal)
    whole = verdict(read, got.moves, Session.load(journal).snapshot.journal_problems)
    if not whole.whole:
        differ.append(f"journal {whole.problems}")
    journal.unlink()
    envelope_path(journal).unlink(missing_ok=True)
    return differ


def _difference(what: str, expected: object, got: object) -> str:
    """Where ``got`` parts from ``expected`` (for a list: from its first differing item on)."""
    if isinstance(expected, list) and isinstance(got, list):
        at = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
        return f"{what} from #{at}: {expected[at:at + 3]} != {got[at:at + 3]}"
    return f"{what}: {expected} != {got}"


def _parts() -> list[object]:
    if KILLS == "all":
        return ALL
    return list(range(max(1, -(-int(KILLS) // PER_PART))))


@pytest.mark.parametrize("part", _parts())
def test_the_program_killed_right_after_a_write_resumes_to_the_uninterrupted_game(part, programs, reference,
                                                                                 tmp_path):
    if isinstance(part, str):                    # the whole sweep: every fsync of this scenario
        points = [(part, n) for n in range(1, reference(part)[2] + 1)]
    else:                                        # the sample: scenarios and fsyncs drawn with the run's seed
        rng = random.Random(f"{SEED}-{part}")
        names = [rng.choice(ALL) for _ in range(PER_PART)]
        points = [(name, 1 + int(rng.random() * reference(name)[2])) for name in names]
    failed = {f"{name} after fsync {n}": differ for name, n in points
              if (differ := kill_and_resume(programs, reference, name, n, tmp_path))}
    assert not failed, f"seed {SEED} (BLINDCHESS_CRASH_SEED={SEED} repeats it): {failed}"


def test_a_claim_journaled_before_the_kill_is_not_made_again(programs, reference, tmp_path):
    # Art. 9.5.3: the incorrect claim gives White two minutes once. Killed right after the fsync of the unit that
    # holds the claim and its time-added line, the script played on from the journal: the claim is held, the
    # press after it shows 5601.5 s for White (not 5721.5 s), the final state is the uninterrupted one.
    name = "claim_threefold_wrong"
    final, game, fsyncs = reference(name)
    script = str(SCENARIOS / f"{name}.scn")
    journal = tmp_path / "claim.jsonl"
    for n in range(1, fsyncs + 1):
        journal.unlink(missing_ok=True)
        assert programs.run(["scenario", "run", script, "--json", "--journal", str(journal)],
                            kill_at=n).signal == signal.SIGKILL
        events = read_journal(journal).events
        if events and any(e["type"] == "time-added" for e in events):
            break
    units = [e for e in events if "unit_lines" in e]
    assert units[-1]["type"] == "claim" and events[-1]["type"] == "time-added"   # killed right after that unit
    resumed = programs.run(["scenario", "run", script, "--json", "--journal", str(journal), "--resume"])
    assert resumed.code == 0, resumed.stderr
    presses = [e for e in resumed.json() if e["type"] == "clock"]
    assert [(e["t"], e["white"]) for e in presses] == [(19.0, 5601.5)]
    got = game_of(journal)
    assert [i for i in got.inputs if i[0] == "claim"] == [("claim", 17.5, "")]
    assert got == game and resumed.json()[-1] == final
    assert sum(e["type"] == "time-added" for e in read_journal(journal).events) == 1


def test_a_journal_torn_inside_its_last_unit_resumes_to_the_uninterrupted_game(programs, reference, tmp_path):
    # a power cut in the middle of a write leaves part of a unit (no kill can: the kill comes after the write):
    # the unit was never acted on, so it is played again — once
    for name in ("d7_correction", "claim_threefold_wrong", "adjournment_sealed_by_the_blind_player"):
        final, game, _ = reference(name)
        full = tmp_path / f"{name}.full.jsonl"
        ran = programs.run(["scenario", "run", str(SCENARIOS / f"{name}.scn"), "--json", "--journal", str(full)])
        assert ran.code == 0
        data = full.read_bytes()
        starts = [i for i in range(len(data)) if data.startswith(b'"unit_lines"', i)]
        for at in starts[len(starts) // 3::max(1, len(starts) // 4)]:
            end = data.index(b"\n", at)
            torn = tmp_path / f"{name}-{at}.jsonl"
            torn.write_bytes(data[:end - 5])           # the unit's first line cut before its end
            if envelope_path(full).exists():
                envelope_path(torn).write_bytes(envelope_path(full).read_bytes())   # the arbiter keeps it
            resumed = programs.run(["scenario", "run", str(SCENARIOS / f"{name}.scn"), "--json", "--journal",
                                    str(torn), "--resume"])
            assert resumed.code == 0, resumed.stderr
            assert game_of(torn) == game and resumed.json()[-1] == final, (name, at)


def test_the_runs_are_real_processes_killed_by_sigkill(programs, tmp_path):
    # the killed run is no simulation: the process ends by the signal, with nothing written after the fsync
    journal = tmp_path / "k.jsonl"
    ran = programs.run(["scenario", "run", str(SCENARIOS / "claim_threefold.scn"), "--json", "--journal",
                        str(journal)], kill_at=6)
    assert ran.signal == signal.SIGKILL and ran.code is None and ran.stdout == ""
    assert journal.exists() and sys.platform != "win32"
