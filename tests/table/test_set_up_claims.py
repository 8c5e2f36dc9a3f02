"""A wrong set-up claimed in rapid without adequate supervision (FIDE Laws, Appendix A a; Art. 7.2): in time
(until each player has completed three moves — made and pressed) it goes to the arbiter, later it is refused;
either way it is said to everybody (the blind player hears the sighted player's claim refused) and noted in the
journal with its outcome.

The blind player (White) has no peg-board: his announcement makes his move."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.base import tr
from blindchess.storage import read_journal
from blindchess.table.commands import Answers, BlindSays, ClaimsSetup, ClockPress, Finish, Resigns, SightedMove
from blindchess.table.events import ClaimDecided, Refused, Said, Shown
from tests.support.table import Run

#: Three moves each: the blind player's announcements and the sighted player's replies.
MOVES = (("Springer Felix drei", "g1f3", "g8f6"), ("Bauer Gustav drei", "g2g3", "g7g6"),
         ("Läufer Gustav zwei", "f1g2", "f8g7"))


def _run(tmp_path: Path) -> Run:
    return Run(journal=tmp_path / "game.journal", white="Bernd", black="Sabine", time_control="25+0",
               rules="rapid", supervised=False, tactile="none")


def _moves(run: Run, count: int, *, last_pressed: bool = True) -> float:
    """``count`` moves each from t = 1; Black's last press left out unless ``last_pressed``."""
    t = 1.0
    for i, (said, mirror, reply) in enumerate(MOVES[:count]):
        run.handle(BlindSays(said), t)
        run.handle(ClockPress(chess.WHITE), t + 0.5)
        run.handle(SightedMove(mirror), t + 1.0)
        run.handle(SightedMove(reply), t + 2.0)
        if last_pressed or i + 1 < count:
            run.handle(ClockPress(chess.BLACK), t + 2.5)
        t += 4.0
    assert run.table.game.plies == 2 * count
    return t


def _notes(run: Run) -> list[tuple[str, str, bool, str]]:
    assert run.journal is not None
    return [(e["claim"], e["by"], e["upheld"], e["text"]) for e in read_journal(run.journal).events
            if e.get("type") == "note" and e.get("kind") == "table-claim"]


def test_a_claim_before_black_s_third_move_is_pressed_is_in_time(tmp_path: Path) -> None:
    run = _run(tmp_path)
    t = _moves(run, 3, last_pressed=False)       # his third move made, her clock not yet pressed
    run.handle(ClaimsSetup("sighted", "clock"), t)
    run.handle(Finish(), t + 1.0)
    text = tr("table.setup_claim_clock", "de", name="Sabine")
    assert [(c.by, c.kind, c.upheld) for c in run.of(ClaimDecided)] == [("sighted", "setup", True)]
    assert text in [e.text for e in run.of(Shown)]
    assert [s.text for s in run.of(Said) if s.to == "all"] == [text.replace(" (FIDE Anhang A a)", "")]
    assert not run.of(Refused)
    assert _notes(run) == [("setup", "sighted", True, text)]


def test_the_sighted_player_s_late_claim_is_refused_and_the_blind_player_hears_it(tmp_path: Path) -> None:
    run = _run(tmp_path)
    t = _moves(run, 3)
    run.handle(ClaimsSetup("sighted", "orientation"), t)
    run.handle(Finish(), t + 1.0)
    text = tr("table.setup_claim_too_late", "de", name="Sabine", moves=3)
    assert [(c.by, c.upheld) for c in run.of(ClaimDecided)] == [("sighted", False)]
    assert [(r.what, r.text) for r in run.of(Refused)] == [("claim", text)]
    assert [s.text for s in run.of(Said) if s.t >= t and s.to == "blind"] == [text.replace(" (FIDE Anhang A a)", "")]
    assert _notes(run) == [("setup", "sighted", False, text)]


def test_a_set_up_claim_is_refused_once_the_game_is_over(tmp_path: Path) -> None:
    run = _run(tmp_path)
    run.handle(Resigns("sighted"), 1.0)
    run.handle(Answers("sighted", "yes"), 2.0)
    assert run.table.game.result == "1-0"
    run.handle(ClaimsSetup("blind", "pieces"), 3.0)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("claim", tr("table.game_over", "de"))]
    assert not run.of(ClaimDecided) and not _notes(run)


def test_a_set_up_claim_by_the_blind_player_where_nobody_is_blind_is_refused(tmp_path: Path) -> None:
    run = Run(blind="none", time_control="25+0", rules="rapid", supervised=False, tactile="none")
    run.handle(ClaimsSetup("blind", "pieces"), 1.0)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("claim", tr("table.no_blind_player", "de"))]
    assert not run.of(ClaimDecided)
