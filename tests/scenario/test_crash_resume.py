"""A crash at any instant: the journal cut after every line (and inside lines) of whole games, each
resumed with ``blindchess scenario run FILE --journal J --resume``, gives the uninterrupted game's final
state and a whole journal.

A crash leaves the file as it was at that byte: everything appended before it, and the journal's
length line as the writer last rewrote it after an fsync. The test rebuilds exactly that: the game is
played once with the writer's fsyncs observed (the file's bytes after each), and the cut at byte
``pos`` is the last fsynced state before ``pos`` plus the bytes appended after it up to ``pos``.
Scenarios with questions, a promotion, D.2.9 rulings, the e-board and an adjournment are among them.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil

import chess
import pytest

from blindchess.cli import main
from blindchess.game import Session
from blindchess.storage import journal as journal_module
from blindchess.storage.journal import envelope_path, read_journal, verdict
from tests.support.paths import SCENARIOS

NAMES = [
    "d7_correction",                         # D.2.8 corrections
    "d2_unclear_announcement",               # questions answered by key and voice
    "crash_question",                        # a question open across a crash
    "d5_wrong_promotion",                    # a promotion, a wrong promotion piece (D.2.9)
    "crash_ruling",                          # a ruling proposed across a crash
    "d3_clock_after_correct_board",          # a correct-board ruling and the clocks
    "ruling_keeps_agreed_moves_tactile",     # a ruling after later moves
    "retrace_sets_pegs_right",               # a retrace and the pegs set right
    "late_mirror_then_own_move",             # a late mirror
    "eboard_wrong_mirror",                   # the e-board
    "eboard_promotion",
    "adjournment_sealed_by_the_blind_player",  # the sealed move kept in the envelope
    "quickplay_finish_claimed",              # a claim waiting for the arbiter (Guidelines III)
    "claim_threefold_said",                  # a claim said
    "crash_promotion_announced",             # a promotion announced before the pegs moved
    "adjournment_draw_agreed_before_resumption",  # a draw offer standing while the envelope is kept
]


def _run(args: list[str]) -> list[dict]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()) as err:
        code = main(args)
    assert code == 0, err.getvalue()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _at(final: dict, t: float, t_ref: float) -> dict:
    """The final state with the running clock read at ``t_ref`` (the end of a run depends on the speech
    still to be said, which a crash cuts off)."""
    state = {k: v for k, v in final.items() if k != "t"}
    clocks = dict(state["clocks"])
    if state["result"] is None and clocks["white"] is not None:
        side = "white" if chess.Board(state["game"]).turn == chess.WHITE else "black"
        clocks[side] = round(clocks[side] + (t - t_ref), 3)
    state["clocks"] = clocks
    return state


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_a_journal_cut_anywhere_resumes_to_the_uninterrupted_game(name, tmp_path, monkeypatch):
    script = str(SCENARIOS / f"{name}.scn")
    full = tmp_path / "full.jsonl"
    synced: list[bytes] = []
    original = journal_module.JournalWriter.sync

    def sync(self: journal_module.JournalWriter, *args: object, **kwargs: object) -> None:
        original(self, *args, **kwargs)
        if self.path == full:
            synced.append(full.read_bytes())

    monkeypatch.setattr(journal_module.JournalWriter, "sync", sync)
    uninterrupted = _run(["scenario", "run", script, "--json", "--journal", str(full)])[-1]
    monkeypatch.setattr(journal_module.JournalWriter, "sync", original)
    data = full.read_bytes()
    ends = [i + 1 for i, byte in enumerate(data) if byte == 0x0A]
    cuts = ends + [end - 9 for end in ends[::3]]          # after every line, and inside every third line
    assert len(ends) >= 10
    for pos in sorted(cuts):
        base = max((s for s in synced if len(s) <= pos), key=len, default=b"")
        cut = tmp_path / "cut.jsonl"
        cut.write_bytes(base + data[len(base):pos])
        if envelope_path(full).exists():
            shutil.copyfile(envelope_path(full), envelope_path(cut))   # the arbiter keeps the envelope
        resumed = _run(["scenario", "run", script, "--json", "--journal", str(cut), "--resume"])[-1]
        assert _at(resumed, resumed["t"], uninterrupted["t"]) == _at(uninterrupted, uninterrupted["t"],
                                                                        uninterrupted["t"]), pos
        read = read_journal(cut)
        session = Session.load(cut)
        judged = verdict(read, [m.uci() for m in session.snapshot.game_moves], session.snapshot.journal_problems)
        assert judged.whole, (pos, judged.problems)
        envelope_path(cut).unlink(missing_ok=True)
