"""Nothing is played on a guess (D.2.1): Session.hear asks when an utterance fits several moves,
or one only after a guess, and the answer completes it. The decision is dialogue's."""

from __future__ import annotations

import chess

from blindchess import phonetic
from blindchess.game import Player, Session

M = chess.Move.from_uci
# White (visually impaired) to move with knights on b1 and f1: "Springer David zwei" fits both.
TWO_KNIGHTS = "4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1"


def new() -> tuple[Session, list[dict]]:
    s = Session.new(Player("Anna", visually_impaired=True), Player("Bert"), "90+30", start_fen=TWO_KNIGHTS,
                    now=0.0)
    seen: list[dict] = []
    s.subscribe(seen.append)
    s.start_clock(0.0)
    return s, seen


def test_several_fitting_moves_are_asked_about_never_played():
    s, seen = new()
    board = s.game_board()
    u = phonetic.understand(board, "Springer David zwei", "de")
    assert u.move is None and len(u.candidates) >= 2  # the precondition: phonetic finds several
    ev = s.hear("Springer David zwei", 10.0)
    assert ev["type"] == "question" and ev["derived"] and ev["article"] == "D.2.1"
    assert ev["message"] == u.message and ev["candidates"] == [m.uci() for m in u.candidates]
    assert set(ev["candidates"][:2]) == {"b1d2", "f1d2"}
    assert ev["phrases"][0] == phonetic.announce(board, u.candidates[0], "de")
    assert s.question["candidates"] == ev["candidates"]
    # nothing played, nothing announced
    assert s.game_moves == [] and not any(e["type"] in ("announce", "move-made") for e in seen)
    assert seen[-1]["type"] == "question"


def test_the_answer_by_phrase_completes_the_move():
    s, _ = new()
    q = s.hear("Springer David zwei", 10.0)
    choice = q["candidates"].index("f1d2")
    ev = s.hear(q["phrases"][choice], 12.0)  # he repeats the move he means
    assert ev["type"] == "announce" and ev["uci"] == "f1d2" and s.question is None
    s.tactile_move("f1d2", 13.0)  # D.2.3: placed and announced: made
    assert s.game_moves == [M("f1d2")]


def test_the_answer_by_index_completes_the_move():
    s, _ = new()
    q = s.hear("Springer David zwei", 10.0)
    s.tactile_move("b1d2", 11.0)  # placed first: waits for the announcement (D.2.3)
    assert s.game_moves == []
    ev = s.answer_question(q["candidates"].index("b1d2"), 12.0)
    assert ev["type"] == "announce" and ev["uci"] == "b1d2"
    assert s.game_moves == [M("b1d2")] and s.question is None


def test_a_guess_is_confirmed_first():
    s, _ = new()
    u = phonetic.understand(s.game_board(), "Springa Cäsar drei", "de")
    assert u.move is None and [m.uci() for m in u.candidates] == ["b1c3"]  # fits only after a guess
    q = s.hear("Springa Cäsar drei", 10.0)
    assert q["type"] == "question" and q["candidates"] == ["b1c3"] and q["message"] == u.message
    assert s.game_moves == []
    ev = s.hear("ja", 11.0)
    assert ev["type"] == "announce" and ev["uci"] == "b1c3"


def test_no_withdraws_the_question_and_bad_answers_change_nothing():
    s, _ = new()
    assert s.answer_question(0, 5.0)["type"] == "announce-ignored"  # nothing asked yet
    s.hear("Springer David zwei", 10.0)
    assert s.answer_question(7, 11.0)["type"] == "announce-ignored" and s.question is not None
    ev = s.hear("nein", 12.0)
    assert ev["type"] == "heard" and s.question is None and s.game_moves == []
    assert not any(e["type"] == "announce" for e in s.events)


def test_a_certain_move_is_still_announced_at_once():
    s, _ = new()
    ev = s.hear("Springer Cäsar drei", 10.0)
    assert ev["type"] == "announce" and ev["uci"] == "b1c3" and s.question is None


def test_the_session_accepts_the_dialogues_decision():
    from blindchess.dialogue import Dialogue

    s, _ = new()
    dialogue = Dialogue("de")
    decision = dialogue.hear(s.game_board(), ["Springer David zwei"])
    assert decision.action == "ask"
    q = s.accept_decision(decision, 10.0, text="Springer David zwei")
    assert q["type"] == "question" and q["candidates"] == [m.uci() for m in decision.candidates]
    assert s.game_moves == []
    played = dialogue.key(str(q["candidates"].index("f1d2") + 1))
    ev = s.accept_decision(played, 11.0)
    assert ev["type"] == "announce" and ev["uci"] == "f1d2"
