"""The blind player's assistant (FIDE Laws D.2.10 e) notes for the arbiter what the sighted player touches:
the toucher named by his colour, the piece and its square; nothing when nobody plays blind."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.language import piece_name
from blindchess.table.commands import ClockPress, SightedTouch
from blindchess.table.events import Shown
from tests.support.table import Run, blind_move


def _noted(run: Run) -> list[str]:
    return [e.text for e in run.of(Shown) if e.text.startswith("Anna Hilfe: ")]


def test_a_touch_by_the_sighted_player_is_noted_with_his_colour_the_piece_and_the_square():
    run = Run(time_control="90+30", assistant="Anna Hilfe", blind="white", tactile="none")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(ClockPress(chess.WHITE), 3.0)
    run.handle(SightedTouch(chess.G8), 5.0)                # Black (Sabine) touches her knight
    knight = piece_name(chess.KNIGHT, "de")
    expected = tr("tournament.asst_touch", "de", color=tr("tournament.black", "de"), piece=knight, square="g8")
    assert f"Anna Hilfe: {expected}" in _noted(run)


def test_the_blind_player_playing_black_has_white_s_touches_noted():
    run = Run(time_control="90+30", assistant="Anna Hilfe", blind="black", tactile="none")
    run.handle(SightedTouch(chess.G1), 1.0)               # White (the sighted player) touches his knight
    knight = piece_name(chess.KNIGHT, "de")
    expected = tr("tournament.asst_touch", "de", color=tr("tournament.white", "de"), piece=knight, square="g1")
    assert f"Anna Hilfe: {expected}" in _noted(run)


def test_without_a_blind_player_no_touch_is_noted():
    run = Run(time_control="90+30", assistant="Anna Hilfe", blind="none", tactile="none")
    run.handle(SightedTouch(chess.G1), 1.0)
    assert not [t for t in _noted(run) if tr("tournament.asst_touch", "de", color="§", piece="§", square="§")
                .split("§")[1] in t]
