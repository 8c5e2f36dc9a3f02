"""The one line that tells the players, the assistant and the arbiter what happens now (the window's "next
step" and the arbiter's view), through a game: whose move and on which board, the pegs placed but the move not
yet announced (D.2.3), the mirror to make on either board, the boards parted (D.2.9), an open question, the
sealing and the sealed envelope (Guidelines I.1, I.7), the game over."""

from __future__ import annotations

import chess

from blindchess.table.commands import (
    ArbiterAdjourn,
    ArbiterApply,
    BlindSays,
    ClockPress,
    Seals,
    SightedMove,
    Tick,
)
from blindchess.table.table import Table, TableSetup
from tests.support.table import Run, blind_move


def test_the_next_step_follows_a_game_with_the_tactile_board_move_by_move():
    run = Run(time_control="90+30", blind="white", white="Anna", black="Bert")

    def step() -> str:
        return run.table.next_step()

    assert step() == "Anna (Weiß) ist am Zug: Zug auf dem Tastbrett setzen und ansagen."
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    assert step() == "Auf dem Brett des sehenden Spielers nachziehen: e4."
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(ClockPress(chess.WHITE), 3.0)
    assert step() == "Bert (Schwarz) ist am Zug: Zug auf dem Brett des sehenden Spielers ausführen."
    run.handle(SightedMove("e7e5"), 10.0)
    assert step() == "Anna zieht e5 auf dem Tastbrett nach."
    run.peg_move("e7e5", 10.5)
    run.handle(Tick(), 11.5)
    run.handle(ClockPress(chess.BLACK), 12.0)
    assert step() == "Anna (Weiß) ist am Zug: Zug auf dem Tastbrett setzen und ansagen."
    run.peg_move("d2d4", 13.0)
    run.handle(Tick(), 14.0)
    assert step() == "Anna hat d4 auf dem Tastbrett gesetzt: der Zug gilt, sobald er angesagt ist (FIDE D.2.3)."
    run.handle(BlindSays("Bauer David vier", 1.0), 15.0)
    run.handle(Tick(), 16.0)
    assert step() == "Auf dem Brett des sehenden Spielers nachziehen: d4."
    run.handle(SightedMove("d2d3"), 17.0)                  # the wrong mirror: the boards part
    run.handle(Tick(), 18.0)
    assert step() == "Die Bretter stimmen nicht überein: Schiedsrichter rufen (FIDE D.2.9)."
    run.handle(ArbiterApply(), 19.0)
    run.handle(Tick(), 20.0)
    assert step() == "Bert (Schwarz) ist am Zug: Zug auf dem Brett des sehenden Spielers ausführen."
    run.handle(BlindSays("Ich gebe auf", 1.0), 30.0)
    run.handle(Tick(), 31.0)
    assert step() == "Offene Frage: Wollen Sie wirklich aufgeben? Ja oder nein."
    run.handle(BlindSays("ja", 1.0), 35.0)
    run.handle(Tick(), 36.0)
    assert step() == "Partie beendet: 0-1."


def test_without_a_tactile_board_the_blind_player_is_told_to_announce_and_the_sealing_is_the_next_step(tmp_path):
    table = Table.new(TableSetup(white="Sabine", black="Bernd", blind="black", time_control="90+30",
                                 tactile="none", settle=0.5), 0.0, tmp_path / "game.jsonl")
    assert table.next_step() == "Sabine (Weiß) ist am Zug: Zug auf dem Brett des sehenden Spielers ausführen."
    table.handle(SightedMove("e2e4"), 1.0)
    table.handle(ClockPress(chess.WHITE), 2.0)
    table.handle(Tick(), 3.0)
    assert table.next_step() == "Bernd (Schwarz) ist am Zug: Zug ansagen."
    table.handle(ArbiterAdjourn(), 4.0)                    # Black to move seals his move (Guidelines I.1 a)
    assert table.next_step() == ("Die Partie ist abgebrochen: Bernd schreibt den Abgabezug auf "
                                 "(FIDE Richtlinien I.1).")
    table.handle(Seals("blind", "e5"), 5.0)
    assert table.game.envelope_sealed
    assert table.next_step() == ("Die Partie ist abgebrochen, der Umschlag verschlossen: der Schiedsrichter öffnet "
                                 "ihn bei der Wiederaufnahme (FIDE Richtlinien I.7).")
