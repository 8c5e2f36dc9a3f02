"""While a move is sealed (Guidelines I.1): a written move up to 120 characters (the envelope's one size) is read (and
told, to the sealer alone, when it reads as no move), a longer one is told too long; and the mirror of the
move made before the adjournment is still set up on the board that lacks it — only the sealer's own move on
his own board is taken as his sealed move or refused."""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.base import tr
from blindchess.storage import read_journal
from blindchess.storage.journal import envelope_path
from blindchess.table.commands import (
    ArbiterAdjourn,
    ArbiterResume,
    ArbiterResumeSealerAbsent,
    BlindSays,
    ClockPress,
    Finish,
    SightedMove,
    SightedSays,
    TactileMove,
)
from blindchess.table.events import MirrorDone, Refused, Said, Sealed, Shown
from tests.support.table import Run


def _adjourned() -> Run:
    """1.e4, announced and pressed; the game adjourned before the sighted player mirrored it: Black seals."""
    run = Run(blind="white", tactile="none", time_control="90+30", white="Bernd", black="Sabine")
    run.handle(BlindSays("Bauer Eva vier"), 1.0)
    run.handle(ClockPress(chess.WHITE), 1.5)
    run.handle(ArbiterAdjourn(), 2.0)
    assert run.table.game.sealing and run.table.game.sealer == chess.BLACK
    return run


def _told(run: Run, t: float) -> list[str]:
    return [e.text for e in run.of(Shown) if e.t == t and e.private]


def test_a_sealed_move_of_the_longest_length_is_read_one_character_more_is_too_long() -> None:
    run = _adjourned()
    longest = "x" * 120
    run.handle(SightedSays(longest), 3.0)
    assert _told(run, 3.0) == [tr("table.seal_unreadable", "de")]
    run.handle(SightedSays(longest + "x"), 4.0)
    assert _told(run, 4.0) == [tr("table.seal_too_long", "de")]
    assert run.table.game.sealing and not run.of(Sealed)


def test_the_mirror_of_the_move_before_the_adjournment_is_made_while_the_move_is_sealed() -> None:
    run = _adjourned()
    run.handle(SightedMove("e2e4"), 3.0)     # the sighted player sets up 1.e4 on his board
    assert [(m.board, m.ply) for m in run.of(MirrorDone) if m.t == 3.0] == [("sighted", 1)]
    assert not run.of(Refused) and not run.of(Sealed)
    assert run.table.game.board_length("sighted") == 1 and run.table.game.sealing
    run.handle(SightedMove("e7e5"), 4.0)     # his own move on his own board now: his sealed move
    assert [s.by for s in run.of(Sealed)] == ["sighted"]


def _blind_sealed(tmp_path: Path) -> Run:
    """1.e4 e5, then adjourned with White (the blind player) to move: he seals 2.Nf3 by voice."""
    run = Run(journal=tmp_path / "game.journal", blind="white", tactile="none", time_control="90+30",
              white="Bernd", black="Sabine")
    for t, command in ((1.0, BlindSays("Bauer Eva vier")), (1.5, ClockPress(chess.WHITE)), (2.0, SightedMove("e2e4")),
                       (3.0, SightedMove("e7e5")), (3.5, ClockPress(chess.BLACK)), (5.0, ArbiterAdjourn()),
                       (6.0, BlindSays("Springer Felix drei"))):
        run.handle(command, t)
    assert [s.by for s in run.of(Sealed)] == ["blind"] and run.table.game.envelope_sealed
    return run


def test_a_move_on_the_blind_player_s_board_after_he_sealed_is_refused_to_him(tmp_path: Path) -> None:
    run = _blind_sealed(tmp_path)
    run.handle(TactileMove("g1f3"), 7.0)          # his sealed move tried on his board: refused, said to him
    run.handle(Finish(), 8.0)
    text = tr("table.adjourned_no_move", "de")
    assert [(r.what, r.text) for r in run.of(Refused)] == [("move", text)]
    assert [s.text for s in run.of(Said) if s.t >= 7.0 and s.to == "blind"] == [text]
    assert run.table.game.plies == 2


def test_a_move_on_the_board_that_cannot_be_sealed_is_refused_and_never_journaled(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    run = Run(journal=journal, blind="white", tactile="none", time_control="90+30", white="Bernd", black="Sabine")
    run.handle(BlindSays("Bauer Eva vier"), 1.0)
    run.handle(ClockPress(chess.WHITE), 1.5)
    run.handle(SightedMove("e2e4"), 2.0)
    run.handle(ArbiterAdjourn(), 3.0)              # Black seals
    (envelope_path(journal) / "in-the-way").mkdir(parents=True)    # the envelope cannot be kept
    run.handle(SightedMove("e7e5"), 4.0)
    assert [r.what for r in run.of(Refused)] == ["seal"] and not run.of(Sealed)
    assert tr("table.sealed_on_the_board", "de", name="Sabine") not in [e.text for e in run.of(Shown)]
    assert run.table.game.sealing and not run.table.game.envelope_sealed
    assert "e7e5" not in journal.read_text(encoding="utf-8")


def test_a_move_sealed_on_the_board_is_kept_as_written_in_notation(tmp_path: Path) -> None:
    journal = tmp_path / "game.journal"
    run = Run(journal=journal, blind="white", tactile="none", time_control="90+30", white="Bernd", black="Sabine")
    run.handle(BlindSays("Bauer Eva vier"), 1.0)
    run.handle(ClockPress(chess.WHITE), 1.5)
    run.handle(SightedMove("e2e4"), 2.0)
    run.handle(ArbiterAdjourn(), 3.0)
    run.handle(SightedMove("g8f6"), 4.0)           # her move on her board after the call to seal: sealed (I.1 a)
    run.handle(ArbiterResume(), 90000.0)
    opened = [e["hidden"] for e in read_journal(journal).events if e.get("type") == "envelope-opened"]
    assert [(h["written"], h["spoken"]) for h in opened] == [("Sf6", False)]
    assert run.table.game.game_moves[-1] == chess.Move.from_uci("g8f6")


def test_the_sealer_absent_with_the_envelope_lost_is_refused_and_the_game_stays_adjourned(tmp_path: Path) -> None:
    run = _blind_sealed(tmp_path)
    envelope_path(tmp_path / "game.journal").unlink()      # the envelope is gone (Guidelines I.12)
    run.handle(ArbiterResumeSealerAbsent(), 90000.0)       # no envelope to open for the absent sealer (I.9 c)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("resume", tr("table.envelope_lost", "de"))]
    assert run.table.game.envelope_sealed and run.table.game.adjourned and run.table.game.plies == 2
