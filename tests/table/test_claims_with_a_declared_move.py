"""A draw claimed with the move the claimant declares he will make (FIDE Laws Art. 9.2.1.1): the move is read in
the game's position — for the blind player whose own move is made and not yet pressed, before it (his
announcement declared it); for the sighted player in the position he has to move in. A declared move that
cannot be read is refused to the one who claimed (said to the blind player, not to him for the sighted one).

The blind player (White) has no peg-board: his announcement makes his move; both press their clocks."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table.commands import BlindSays, Claims, ClockPress, Finish, SightedMove
from blindchess.table.events import ClaimDecided, Refused, Said
from tests.support.table import Run

#: The knights out and back: White's Nf3 / Ng1 said, mirrored; Black's reply.
OUT_AND_BACK = (("Springer Felix drei", "g1f3", "g8f6"), ("Springer Gustav eins", "f3g1", "f6g8"))


def _shuffled(run: Run, half_moves: int) -> float:
    """The knights out and back, ``half_moves`` long, every move pressed but the last; the next moment."""
    t, made = 1.0, 0
    while made < half_moves:
        for said, mirror, reply in OUT_AND_BACK:
            if made == half_moves:
                break
            run.handle(BlindSays(said), t)
            made += 1
            if made == half_moves:
                break
            run.handle(ClockPress(chess.WHITE), t + 0.5)
            run.handle(SightedMove(mirror), t + 1.0)
            run.handle(SightedMove(reply), t + 1.5)
            made += 1
            if made < half_moves:
                run.handle(ClockPress(chess.BLACK), t + 2.0)
            t += 3.0
    assert run.table.game.plies == half_moves
    return t


def _run() -> Run:
    return Run(blind="white", tactile="none", time_control="90+30", white="Bernd", black="Sabine")


def test_the_blind_player_declares_the_move_he_made_and_has_not_pressed() -> None:
    run = _run()
    t = _shuffled(run, 9)           # 5.Nf3 made, not pressed: the position after it stands for the third time
    run.handle(Claims("blind", "threefold", "Sf3"), t)     # read before his move, where it is his move
    assert [(c.by, c.kind, c.upheld) for c in run.of(ClaimDecided)] == [("blind", "threefold", True)]
    assert run.table.game.result == "1/2-1/2" and not run.of(Refused)


def test_the_sighted_player_declares_his_move_while_the_blind_player_s_is_not_yet_pressed() -> None:
    run = _run()
    t = _shuffled(run, 7)           # 4.Ng1 made, not pressed: Black is to move; ...Ng8 repeats the start a third time
    run.handle(SightedMove("f3g1"), t)                     # the mirror
    run.handle(Claims("sighted", "threefold", "Sg8"), t + 0.5)
    assert [(c.by, c.kind, c.upheld) for c in run.of(ClaimDecided)] == [("sighted", "threefold", True)]
    assert run.table.game.result == "1/2-1/2" and not run.of(Refused)


def test_a_declared_move_that_cannot_be_read_is_refused_to_the_claimant() -> None:
    run = _run()
    run.handle(Claims("sighted", "threefold", "Quatsch"), 1.0)
    run.handle(Finish(), 2.0)
    assert [r.what for r in run.of(Refused)] == ["move"]
    assert not [s for s in run.of(Said) if s.t >= 1.0 and s.to == "blind"]     # not said to the blind player
    run.handle(Claims("blind", "threefold", "Quatsch"), 3.0)
    run.handle(Finish(), 4.0)
    refused = run.of(Refused)[1:]
    assert [r.what for r in refused] == ["move"] and not run.of(ClaimDecided)
    assert [s.text for s in run.of(Said) if s.t >= 3.0 and s.to == "blind"] == [refused[0].text]
    assert tr("table.game_over", "de") not in [r.text for r in refused]
