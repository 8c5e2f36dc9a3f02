"""While a move is sealed (Guidelines I.1): a written move up to 120 characters (the envelope's one size) is read (and
told, to the sealer alone, when it reads as no move), a longer one is told too long; and the mirror of the
move made before the adjournment is still set up on the board that lacks it — only the sealer's own move on
his own board is taken as his sealed move or refused."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table.commands import ArbiterAdjourn, BlindSays, ClockPress, SightedMove, SightedSays
from blindchess.table.events import MirrorDone, Refused, Sealed, Shown
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
