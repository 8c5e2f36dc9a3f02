"""What a player hears (the blind player) or reads (the sighted one) when he asks about the game: each request
answered by its own answer, "step", "position at" and "move pair" at the half-move asked or by default the
last one (the first move pair), a square-bound request without its square asked back, the time asked without a
clock, an unknown request refused, "repeat" with nothing to repeat."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table import lookups
from blindchess.table.commands import Repeat, Request, SightedMove, Tick
from blindchess.table.events import Refused, Said, Shown
from tests.support.table import Run, blind_move


def _game(**setup: object) -> Run:
    """1.e4 d5 2.Sc3 dxe4: the blind player (White) on the pegs, the sighted player's capture mirrored."""
    run = Run(blind="white", white="Bernd Blind", black="Sabine Sehend", **setup)
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(SightedMove("d7d5"), 4.0)
    run.peg_move("d7d5", 4.5)
    run.handle(Tick(), 6.0)
    blind_move(run, "b1c3", "Springer Cäsar drei", 7.0)
    run.handle(SightedMove("b1c3"), 8.5)
    run.handle(SightedMove("d5e4"), 10.0)
    run.peg_move("d5e4", 10.5, capture=True)
    run.handle(Tick(), 12.0)
    assert run.table.game.plies == 4
    return run


def _heard(run: Run, t: float) -> list[str]:
    """What the blind player heard of what was said from ``t`` on (the answers are spaced far apart)."""
    run.handle(Tick(), t + 500.0)
    return [s.text for s in run.of(Said) if t <= s.t < t + 500.0 and s.to == "blind"]


def test_each_lookup_is_answered_to_the_blind_player_by_its_own_answer():
    run = _game()
    board = run.table.session.game_board()
    d4 = chess.D4
    expected = {
        "opponent": lookups.opponent("Sabine Sehend", chess.BLACK, "de", run.table.state.setup.headers),
        "last_capture": lookups.last_capture(board, "de"),
        "move_list": lookups.move_list(board, "de"),
        "step": lookups.step(board, 4, "de"),
        "position_at": lookups.position_at(board, 4, "de"),
        "move_pair": lookups.move_pair(board, 1, "de"),
    }
    assert len(set(expected.values())) == len(expected)       # six different answers
    t = 1000.0
    for what, answer in expected.items():
        run.handle(Request(what, "blind"), t)
        assert _heard(run, t) == [answer], what
        t += 1000.0
    for what, ply, answer in (("step", 2, lookups.step(board, 2, "de")),
                              ("position_at", 1, lookups.position_at(board, 1, "de")),
                              ("move_pair", 2, lookups.move_pair(board, 2, "de"))):
        assert answer != expected[what]
        run.handle(Request(what, "blind", ply=ply), t)
        assert _heard(run, t) == [answer], what
        t += 1000.0
    for what, answer in (("captures", lookups.captures(board, d4, "de")),
                         ("around", lookups.around(board, d4, "de"))):
        run.handle(Request(what, "blind", square=d4), t)
        assert _heard(run, t) == [answer], what
        t += 1000.0
        run.handle(Request(what, "blind"), t)                  # which square?
        assert _heard(run, t) == [tr("board_words.which_square", "de")], what
        t += 1000.0


def test_the_sighted_player_reads_the_answers_from_his_side_of_the_board():
    run = _game()
    board = run.table.session.game_board()
    run.handle(Request("opponent", "sighted"), 100.0)
    run.handle(Request("around", "sighted", square=chess.D4), 101.0)
    shown = [e.text for e in run.of(Shown) if e.t >= 100.0]
    assert shown == [lookups.opponent("Bernd Blind", chess.WHITE, "de", run.table.state.setup.headers),
                     lookups.around(board, chess.D4, "de", white_view=False)]
    assert lookups.around(board, chess.D4, "de", white_view=False) != lookups.around(board, chess.D4, "de")
    assert not [s for s in run.of(Said) if s.t >= 100.0]


def test_the_time_asked_without_a_clock_tells_the_moves_made_and_an_unknown_request_is_refused():
    run = _game()
    run.handle(Request("time", "blind"), 100.0)
    assert _heard(run, 100.0) == [tr("table.time_without_clock", "de", moves=4)]
    run.handle(Request("weather", "sighted"), 200.0)
    assert [(r.what, r.text) for r in run.of(Refused) if r.t == 200.0] == [
        ("request", tr("table.unknown_request", "de"))]


def test_repeat_with_nothing_said_yet_says_so_and_after_a_move_says_it_again():
    run = Run(blind="white")
    run.handle(Repeat(), 1.0)
    assert _heard(run, 1.0) == [tr("table.nothing_to_repeat", "de")]
    blind_move(run, "e2e4", "Bauer Eva vier", 50.0)
    run.handle(SightedMove("e2e4"), 52.0)
    run.handle(SightedMove("e7e5"), 54.0)
    run.handle(Tick(), 80.0)
    run.handle(Repeat(), 100.0)
    again = _heard(run, 100.0)
    assert len(again) == 1 and "Eva fünf" in again[0]


def test_the_answers_as_the_blind_player_hears_them_after_1_e4_d5_2_sc3_dxe4():
    run = _game()
    asked = [(Request("last_capture", "blind"),
              "Zuletzt geschlagen: weißer Bauer auf Eva vier, mit Zug 2, Schwarz: David schlägt Eva vier."),
             (Request("move_list", "blind"),
              "Die Züge: 1. Eva vier, David fünf. 2. Springer Cäsar drei, David schlägt Eva vier."),
             (Request("step", "blind", ply=2),
              "Zug 1, Schwarz: David fünf. David sieben, leer; David fünf, schwarzer Bauer."),
             (Request("move_pair", "blind", ply=1), "Zug 1 von 2: Eva vier, David fünf."),
             (Request("move_pair", "blind", ply=9), "Zug 2 von 2: Springer Cäsar drei, David schlägt Eva vier."),
             (Request("around", "blind", square=chess.D4),
              "Um David vier: Eva vier, schwarzer Bauer; Cäsar drei, weißer Springer. 6 Felder leer."),
             (Request("opponent", "blind"), "Ihr Gegner: Sabine Sehend, Schwarz.")]
    t = 1000.0
    for request, answer in asked:
        run.handle(request, t)
        assert _heard(run, t) == [answer], request
        t += 1000.0
    for ply, begins, ends in ((1, "Stellung nach Zug 1, Weiß: Weiß: König Eva eins,", "Schwarz am Zug."),
                              (4, "Stellung nach Zug 2, Schwarz: Weiß: König Eva eins,", "Weiß am Zug.")):
        run.handle(Request("position_at", "blind", ply=ply), t)
        [heard] = _heard(run, t)
        assert heard.startswith(begins) and heard.endswith(ends), heard
        t += 1000.0


def test_the_opponent_is_told_with_his_own_rating_from_the_event_s_headers():
    run = Run(blind="white", white="Bernd Blind", black="Sabine Sehend",
              headers={"WhiteElo": "2100", "BlackElo": "1850"})
    run.handle(Request("opponent", "blind"), 1.0)
    run.handle(Request("opponent", "sighted"), 2.0)
    assert _heard(run, 1.0) == ["Ihr Gegner: Sabine Sehend, Schwarz, Elo 1850."]
    assert [e.text for e in run.of(Shown) if e.t == 2.0] == ["Ihr Gegner: Bernd Blind, Weiß, Elo 2100."]
