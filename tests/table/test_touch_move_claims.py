"""Touch-move claimed at the table (FIDE Laws Art. 4.3; Appendix A b): what the opponent touched in his last
move and did not move or capture is told to everybody for the arbiter, and noted in the journal; a claim the
recorded touches do not bear out is rejected.

The sighted player (White, the window's board) reports his touches (D.2.5, D.2.10 e); the blind player (Black,
no peg-board: his announcement makes his move) claims before his own move.
"""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.base import tr
from blindchess.storage import read_journal
from blindchess.table.commands import BlindSays, ClaimsTouch, Finish, SightedMove, SightedTouch
from blindchess.table.events import ClaimDecided, Refused, Said, Shown
from tests.support.table import Run

#: 1.e4 d5: White can take on d5.
AFTER_E4_D5 = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"


def _run(tmp_path: Path, start_fen: str | None = None) -> Run:
    return Run(journal=tmp_path / "game.journal", blind="black", tactile="none", white="Sabine", black="Bernd",
               start_fen=start_fen)


def _claim_notes(run: Run) -> list[tuple[str, str, bool, str]]:
    assert run.journal is not None
    return [(e["claim"], e["by"], e["upheld"], e["text"]) for e in read_journal(run.journal).events
            if e.get("type") == "note" and e.get("kind") == "table-claim"]


def _shown_after(run: Run, t: float) -> list[str]:
    return [e.text for e in run.of(Shown) if e.t >= t]


def _claimed(run: Run, t: float) -> None:
    run.handle(ClaimsTouch("blind"), t)
    run.handle(Finish(), t + 1.0)


def test_an_own_piece_touched_and_another_moved_is_told_with_the_offender_s_name(tmp_path: Path) -> None:
    run = _run(tmp_path)
    run.handle(SightedTouch(chess.G1), 1.0)        # the knight on g1 could move
    run.handle(SightedMove("b1c3"), 2.0)
    _claimed(run, 3.0)
    text = tr("table.touch_claim", "de", name="Sabine", piece=tr("session.piece_wn", "de"), square="g1", move="Sc3")
    assert [(c.by, c.kind, c.upheld) for c in run.of(ClaimDecided)] == [("blind", "touch", True)]
    assert _shown_after(run, 3.0) == [text]
    assert tr("table.touch_claim_upheld", "de") in [s.text for s in run.of(Said) if s.to == "all"]
    assert _claim_notes(run) == [("touch", "blind", True, text)]


def test_an_opponent_s_piece_touched_that_could_be_captured_and_was_not_is_a_capture_claim(tmp_path: Path) -> None:
    run = _run(tmp_path, AFTER_E4_D5)
    run.handle(SightedTouch(chess.D5), 1.0)        # exd5 was possible
    run.handle(SightedMove("g1f3"), 2.0)
    _claimed(run, 3.0)
    text = tr("table.touch_claim_capture", "de", name="Sabine", piece=tr("session.piece_bp", "de"), square="d5",
              move="Sf3")
    assert [c.upheld for c in run.of(ClaimDecided)] == [True]
    assert _shown_after(run, 3.0) == [text]
    assert _claim_notes(run) == [("touch", "blind", True, text)]


def _rejected(run: Run) -> None:
    text = tr("table.touch_claim_rejected", "de", name="Bernd")
    assert [(c.by, c.upheld) for c in run.of(ClaimDecided)] == [("blind", False)]
    assert _shown_after(run, 3.0) == [text]
    assert [s.text for s in run.of(Said) if s.to == "all"] == [text.replace(" (FIDE Art. 4.3)", "")]   # said unnumbered
    assert _claim_notes(run) == [("touch", "blind", False, text)]


def test_an_own_piece_touched_that_cannot_move_binds_nothing(tmp_path: Path) -> None:
    run = _run(tmp_path)
    run.handle(SightedTouch(chess.A1), 1.0)        # the rook on a1 has no move
    run.handle(SightedMove("e2e4"), 2.0)
    _claimed(run, 3.0)
    _rejected(run)


def test_an_opponent_s_piece_touched_and_captured_binds_nothing(tmp_path: Path) -> None:
    run = _run(tmp_path, AFTER_E4_D5)
    run.handle(SightedTouch(chess.D5), 1.0)
    run.handle(SightedMove("e4d5"), 2.0)
    _claimed(run, 3.0)
    _rejected(run)


def test_an_opponent_s_piece_touched_that_cannot_be_captured_binds_nothing(tmp_path: Path) -> None:
    run = _run(tmp_path, AFTER_E4_D5)
    run.handle(SightedTouch(chess.B8), 1.0)        # the knight on b8 cannot be taken; d5 could
    run.handle(SightedMove("g1f3"), 2.0)
    _claimed(run, 3.0)
    _rejected(run)


def test_a_touch_in_an_earlier_move_does_not_bind_the_last_one(tmp_path: Path) -> None:
    run = _run(tmp_path)
    run.handle(SightedTouch(chess.G1), 0.5)        # 1.e4 after touching g1: not claimed then
    run.handle(SightedMove("e2e4"), 0.6)
    run.handle(BlindSays("Bauer David fünf"), 0.8)
    run.handle(SightedMove("d7d5"), 0.9)           # the mirror
    run.handle(SightedMove("d2d4"), 1.0)           # nothing touched before 2.d4
    _claimed(run, 3.0)
    _rejected(run)


def test_a_claim_before_any_move_or_after_one_s_own_move_is_rejected(tmp_path: Path) -> None:
    run = _run(tmp_path)
    run.handle(ClaimsTouch("sighted"), 1.0)        # White, to move, claims before any move
    run.handle(SightedTouch(chess.G1), 1.5)
    run.handle(SightedMove("b1c3"), 2.0)
    run.handle(ClaimsTouch("sighted"), 2.5)        # after his own move: nothing of the opponent's to claim
    run.handle(Finish(), 3.0)
    assert [(c.by, c.upheld) for c in run.of(ClaimDecided)] == [("sighted", False), ("sighted", False)]
    assert [n[:3] for n in _claim_notes(run)] == [("touch", "sighted", False)] * 2
    assert not run.of(Refused)


def test_a_touch_claim_is_refused_once_the_game_is_over(tmp_path: Path) -> None:
    run = _run(tmp_path)
    run.handle(SightedTouch(chess.G1), 1.0)
    run.handle(SightedMove("f2f3"), 2.0)
    run.handle(BlindSays("Bauer Eva fünf"), 3.0)
    run.handle(SightedMove("e7e5"), 3.5)
    run.handle(SightedMove("g2g4"), 4.0)
    run.handle(BlindSays("Dame Hector vier"), 5.0)   # mate
    assert run.table.game.result == "0-1"
    run.handle(ClaimsTouch("sighted"), 6.0)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("claim", tr("table.game_over", "de"))]
    assert not run.of(ClaimDecided) and not _claim_notes(run)


def test_a_touch_claim_by_the_blind_player_where_nobody_is_blind_is_refused(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.journal", blind="none", white="Sabine", black="Bernd")
    run.handle(ClaimsTouch("blind"), 1.0)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("claim", tr("table.no_blind_player", "de"))]
    assert not run.of(ClaimDecided)
