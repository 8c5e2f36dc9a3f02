"""PGN export and import of a session ."""

from __future__ import annotations

import io

import chess
import chess.pgn
import pytest

from blindchess.base.errors import UserError
from blindchess.game import Player, Session
from blindchess.game.events import Press
from blindchess.records.pgn import session_to_pgn

M = chess.Move.from_uci


def played() -> Session:
    s = Session.new(Player("Anna"), Player("Bert", True), "90+30", now=0.0,
                    headers={"Event": "IBCA Open", "Round": "3"})
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 65.0)
    s.press_clock(chess.WHITE, 65.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 70.0)
    s.touch(chess.G8, 80.0)
    s.board_move("tactile", chess.Move.from_uci("g8f6"), 100.0)
    s.announce(M("g8f6"), "Springer Felix sechs", 101.0)
    s.press_clock(chess.BLACK, 102.0)
    s.board_move("sighted", chess.Move.from_uci("g8f6"), 103.0)
    s.write("sighted", "e4", 110.0, index=0)     # the keepers amend what was written as announced
    s.write("sighted", "Nf6", 110.0, index=1)
    s.write("blind", "e4", 111.0, index=0)
    s.write("blind", "Sh6", 111.0, index=1)  # the blind player's score deviates
    return s


def test_export_standard_pgn_with_clock_and_comments():
    s = played()
    game = s.to_pgn_game()
    assert game.headers["White"] == "Anna" and game.headers["Event"] == "IBCA Open"
    assert game.headers["TimeControl"] == "5400+30"
    assert game.headers["VisuallyImpaired"] == "Black"
    nodes = list(game.mainline())
    assert [n.move for n in nodes] == [M("e2e4"), M("g8f6")]
    assert nodes[0].clock() == pytest.approx(5400 - 65 + 30)
    assert nodes[0].emt() == pytest.approx(65.0)
    assert nodes[1].clock() == pytest.approx(5400 - 37 + 30)
    assert "Sh6" in nodes[1].comment  # the other score's deviation
    assert "D.2.2" in nodes[0].comment  # the touch of g8 before Black's first move
    text = session_to_pgn(s)
    assert "[%clk 1:29:25]" in text and "1. e4" in text and "Nf6" in text
    # Standard PGN: python-chess reads it back.
    again = chess.pgn.read_game(io.StringIO(text))
    assert not again.errors and again.end().board().fen() == s.board("sighted").fen()


def test_import_continues_the_game_with_clock_history():
    s = played()
    text = session_to_pgn(s)
    cont = Session.from_pgn(text, now=1000.0)
    assert cont.snapshot.game_moves == s.snapshot.game_moves
    assert cont.board("tactile").fen() == cont.board("sighted").fen() == s.board("sighted").fen()
    assert cont.snapshot.blind_color == chess.BLACK and cont.snapshot.white.name == "Anna"
    assert cont.clock.remaining(chess.WHITE, 1000.0) == pytest.approx(5400 - 65 + 30)
    assert cont.clock.remaining(chess.BLACK, 1000.0) == pytest.approx(5400 - 37 + 30)
    assert cont.clock.times_at(1).remaining[0] == pytest.approx(5365)
    # Play goes on: White to move.
    cont.start_clock(1000.0)
    cont.board_move("sighted", chess.Move.from_uci("d2d4"), 1010.0)
    assert isinstance(cont.press_clock(chess.WHITE, 1010.0)[0], Press)


def test_chess960_round_trip():
    s = Session.new(Player("A"), Player("B", True), None, chess960=99, now=0.0)
    s.board_move("sighted", s.board("sighted").parse_san("g3"), 1.0)
    game = s.to_pgn_game()
    assert game.headers["Variant"] == "Chess960" and game.headers["FEN"] == chess.Board.from_chess960_pos(99).fen()
    cont = Session.from_pgn(session_to_pgn(s), now=5.0)
    assert cont.snapshot.start.chess960 and cont.snapshot.game_moves == s.snapshot.game_moves


def test_garbage_is_a_user_error():
    with pytest.raises(UserError):
        Session.from_pgn("this is no game 1. Zz9", now=0.0)


def test_retracted_moves_kept_as_a_variation():
    s = Session.new(Player("A"), Player("B", True), "90+30", now=0.0)
    s.start_clock(0.0)
    for i, uci in enumerate(["e2e4", "e7e5", "g1f3"]):
        t = float(i + 1)
        if i % 2 == 0:
            s.board_move("sighted", chess.Move.from_uci(uci), t)
            s.press_clock(chess.WHITE, t)
            s.board_move("tactile", chess.Move.from_uci(uci if uci != "g1f3" else "g1h3"), t)
        else:
            s.board_move("tactile", chess.Move.from_uci(uci), t)
            s.announce(M(uci), uci, t)
            s.press_clock(chess.BLACK, t)
            s.board_move("sighted", chess.Move.from_uci(uci), t)
    for i, w in enumerate(("e4", "e5", "Nf3")):
        s.write("sighted", w, 5.0, index=i)
    for i, w in enumerate(("e4", "e5", "Sh3")):
        s.write("blind", w, 5.0, index=i)
    s.apply_ruling(s.propose_ruling(), 6.0)
    s.board_move("sighted", chess.Move.from_uci("d2d4"), 7.0)
    game = s.to_pgn_game()
    assert [n.move for n in game.mainline()] == [M("e2e4"), M("e7e5"), M("d2d4")]
    side = list(game.mainline())[1].variations
    assert [v.move for v in side] == [M("d2d4"), M("g1f3")]
    assert "D.2.9" in side[1].comment


@pytest.mark.parametrize(("script", "termination", "result"), [
    ("adjournment_position_cannot_be_re_established.scn", "emergency", "*"),     # annulled (Guidelines I.12 b)
    ("adjournment_responder_late.scn", "abandoned", "0-1"),                      # too late (Guidelines I.10)
])
def test_an_annulled_game_and_a_player_too_late_are_named_in_the_termination_tag(tmp_path, script, termination, result):
    from blindchess import scenario
    from tests.support.paths import SCENARIOS

    journal = tmp_path / "game.jsonl"
    scenario.play(scenario.read_script(SCENARIOS / script, "de"), scenario.HeadlessFront(), journal)
    game = chess.pgn.read_game(io.StringIO(session_to_pgn(Session.load(journal))))
    assert game is not None and game.headers["Termination"] == termination
    if result is not None:
        assert game.headers["Result"] == result
