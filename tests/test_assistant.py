"""Assistant mode (D.2.10, D.2.11) over real session events."""

from __future__ import annotations

import chess
import pytest

from blindchess.assistant import Assistant, Instruction
from blindchess.envelope import Adjournment
from blindchess.game import Player, Session


def _game(**kw):
    s = Session.new(Player("Anna", visually_impaired=True), Player("Bert"), "15+0", now=0.0, **kw)
    assistant = Assistant.for_session(s)
    told: list[Instruction] = []
    assistant.attach(s, told.append)
    s.start_clock(0.0)
    return s, assistant, told


def _blind_plays_nf3(s):
    s.tactile_move("g1f3", 5.0)
    s.announce("Springer Felix drei", 6.0)


def test_blind_players_move_announce_score_mirror_and_clock():
    s, assistant, told = _game()
    _blind_plays_nf3(s)
    kinds = [(i.to, i.kind) for i in told]
    assert ("players", "announce") in kinds and ("assistant", "score") in kinds
    carry = next(i for i in told if i.kind == "carry-out")
    # (a) the blind player's move goes on the sighted player's board
    assert carry.board == "sighted" and carry.text == "Führen Sie Sf3 auf dem Brett des sehenden Spielers aus."
    # (c) the assistant starts the opponent's clock once the move is made (D.2.3)
    press = next(i for i in told if i.kind == "press-clock")
    assert "Schwarz" in press.text and "D.2.3" in press.article
    assert assistant.score == ["Sf3"]
    assert next(i for i in told if i.kind == "score").text == "Notiert: 1. Sf3"


def test_sighted_players_move_goes_on_the_tactile_board():
    s, assistant, told = _game()
    _blind_plays_nf3(s)
    s.press_clock(chess.WHITE, 7.0)
    s.sighted_move("g1f3", 8.0)      # mirrored on the sighted board
    told.clear()
    s.sighted_move("g8f6", 10.0)     # Black's own move
    carry = next(i for i in told if i.kind == "carry-out")
    assert carry.board == "tactile" and carry.text == "Führen Sie Sf6 auf dem Tastbrett aus."
    assert not any(i.kind == "press-clock" for i in told)  # the sighted player presses his own clock
    assert assistant.score == ["Sf3", "Sf6"]
    assert next(i for i in told if i.kind == "announce").text.startswith("Schwarz: ")


def test_information_only_on_request():
    s, assistant, told = _game()
    _blind_plays_nf3(s)
    s.press_clock(chess.WHITE, 7.0)
    assert not any(i.to == "blind" for i in told)  # clock events say nothing unasked (D.2.10 d)
    s.request_time(20.0)
    time = [i for i in told if i.to == "blind"]
    assert len(time) == 1 and time[0].article == "D.2.10 d"
    assert time[0].text == "Sie: 14 Minuten 53, Gegner: 14 Minuten 47, 1 Zug"


def test_claim_reminder_for_the_sighted_players_flag_only():
    s, assistant, told = _game()
    _blind_plays_nf3(s)
    s.press_clock(chess.WHITE, 7.0)
    s.tick(7.0 + 15 * 60 + 1)  # Black (sighted) runs out of time
    claims = [i for i in told if i.kind == "claim"]
    assert len(claims) == 1 and "Schwarz" in claims[0].text and claims[0].article == "D.2.10 e"
    # the blind player's own flag is not the assistant's claim
    assert assistant.feed({"type": "flag-fallen", "color": "white"}) == []


def test_touches_of_the_sighted_player_are_recorded_for_the_arbiter():
    s, assistant, told = _game()
    _blind_plays_nf3(s)
    s.touch("g8", 9.0, board="sighted")
    s.touch("g1", 9.5, board="tactile")  # the blind player's own touch (D.2.2) is not reported
    assert len(assistant.touches) == 1
    assert next(i for i in told if i.kind == "touch").article == "D.2.10 e"
    assert assistant.touch_report() == "Berührungen durch Schwarz: Springer auf g8 (eigene Figur)."


def test_adjournment_formalities():
    s, assistant, told = _game()
    adj = Adjournment.begin(s.game_board(), white="Anna", black="Bert", white_used=10, black_used=0, now=30.0)
    steps = assistant.adjournment_steps(adj)
    assert len(steps) == 3 and all(i.article.startswith("D.2.10 f") for i in steps)
    adj.seal("Sf3")
    adj.stop_clock(40.0)
    assert "Punkt 2" in assistant.adjournment_steps(adj)[0].text


def test_a_sealed_move_in_the_session_leads_the_assistant_through_the_adjournment():
    s, assistant, told = _game()
    s.seal_move({"sealer": "Bert"}, {"move": "Sf6"}, 30.0)
    step = next(i for i in told if i.kind == "adjournment")
    assert step.article == "D.2.10 f" and step.to == "assistant"
    assert all("Sf6" not in i.text for i in told)  # the sealed move stays hidden (Guidelines I)


def test_d_2_11_the_sighted_players_assistant_only_carries_out_and_announces():
    s = Session.new(Player("Anna", visually_impaired=True), Player("Bert"), "15+0", now=0.0)
    helper = Assistant.for_session(s, serves="sighted")
    told: list[Instruction] = []
    helper.attach(s, told.append)
    s.start_clock(0.0)
    _blind_plays_nf3(s)
    s.touch("g8", 9.0, board="sighted")
    assert {i.kind for i in told} == {"announce", "carry-out"}
    assert helper.score == [] and helper.touches == []
    assert helper.adjournment_steps(Adjournment.begin(chess.Board(), white="A", black="B", white_used=0,
                                                      black_used=0, now=0)) == []


def test_english_and_no_visually_impaired_player():
    s = Session.new(Player("Anna", visually_impaired=True), Player("Bert"), "15+0", now=0.0, lang="en")
    a = Assistant.for_session(s)
    assert a.feed({"type": "draw-offer", "color": "black"})[0].text == "Black offers a draw."
    with pytest.raises(ValueError):
        Assistant.for_session(Session.new(Player("A"), Player("B"), None, now=0.0))
