"""Nothing is played on a guess (D.2.1): the table asks when an utterance fits several moves,
or one only after a guess, and the answer completes it. The decision is dialogue's; the
rules engine only hears the move the table announces (``Session.announce``)."""

from __future__ import annotations

import chess

from blindchess.game.events import Announce, MoveMade
from blindchess.language import phonetic
from blindchess.table.commands import Answers, BlindSays, Tick
from blindchess.table.events import Asked, Heard, Moved, Refused, Said, Shown
from blindchess.table.notes import QuestionOpen
from tests.support.table import Run

M = chess.Move.from_uci
# White (visually impaired) to move with knights on b1 and f1: "Springer David zwei" fits both.
TWO_KNIGHTS = "4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1"


def new() -> Run:
    """White (Anna) visually impaired with a peg-board, Black (Bert) sighted, 90 min + 30 s."""
    return Run(white="Anna", black="Bert", blind="white", time_control="90+30", start_fen=TWO_KNIGHTS)


def announced(run: Run) -> list[Announce]:
    """The announcements the table gave the rules engine."""
    return [e for e in run.table.session.events if isinstance(e, Announce)]


def test_several_fitting_moves_are_asked_about_never_played():
    run = new()
    s = run.table.session
    board = s.game_board()
    u = phonetic.understand(board, "Springer David zwei", "de")
    assert u.move is None and len(u.candidates) >= 2  # the precondition: phonetic finds several
    run.table.handle(BlindSays("Springer David zwei", 1.0), 10.0)
    [asked] = run.of(Asked)
    q = run.table.question
    assert q is not None and q.kind == "move" and q.to == "blind"        # the D.2.1 question, to him
    assert asked.text == q.text == u.message and list(asked.candidates) == [m.uci() for m in u.candidates]
    assert set(asked.candidates[:2]) == {"b1d2", "f1d2"}
    assert q.phrases[0] == phonetic.announce(board, u.candidates[0], "de")
    assert q.candidates == asked.candidates
    # noted in the journal's record (it survives a crash)
    assert [n.kind for n in s.snapshot.notes] == [QuestionOpen.KIND]
    # nothing played, nothing announced
    assert list(s.snapshot.game_moves) == [] and announced(run) == [] and not any(isinstance(e, MoveMade) for e in s.events)
    assert not run.of(Moved)
    after = run.events[run.events.index(asked):]
    assert all(isinstance(e, (Asked, Said, Shown)) or type(e).__name__ == "Speak" for e in after)


def test_the_answer_by_phrase_completes_the_move():
    run = new()
    s = run.table.session
    run.table.handle(BlindSays("Springer David zwei", 1.0), 10.0)
    q = run.table.question
    choice = q.candidates.index("f1d2")
    run.table.handle(BlindSays(q.phrases[choice], 1.0), 12.0)  # he repeats the move he means
    assert [a.uci for a in announced(run)] == ["f1d2"] and run.table.question is None
    run.peg_move("f1d2", 13.0)  # D.2.3: placed and announced: made
    run.table.handle(Tick(), 14.0)
    assert list(s.snapshot.game_moves) == [M("f1d2")]


def test_the_answer_by_index_completes_the_move():
    run = new()
    s = run.table.session
    run.table.handle(BlindSays("Springer David zwei", 1.0), 10.0)
    q = run.table.question
    run.peg_move("b1d2", 11.0)  # placed first: waits for the announcement (D.2.3)
    run.table.handle(Tick(), 11.5)
    assert list(s.snapshot.game_moves) == []
    run.table.handle(Answers("blind", q.candidates.index("b1d2") + 1), 12.0)     # the keys 1…n
    assert [a.uci for a in announced(run)] == ["b1d2"]
    assert list(s.snapshot.game_moves) == [M("b1d2")] and run.table.question is None


def test_a_guess_is_confirmed_first():
    run = new()
    s = run.table.session
    u = phonetic.understand(s.game_board(), "Springa Cäsar drei", "de")
    assert u.move is None and [m.uci() for m in u.candidates] == ["b1c3"]  # fits only after a guess
    run.table.handle(BlindSays("Springa Cäsar drei", 1.0), 10.0)
    [asked] = run.of(Asked)
    # The question names the one move that fits (the dialogue's words: a yes/no question, so "ja" answers it).
    assert asked.candidates == ("b1c3",)
    assert asked.text == f"Meinten Sie {phonetic.announce(s.game_board(), M('b1c3'), 'de')}?"
    assert list(s.snapshot.game_moves) == [] and announced(run) == []
    run.table.handle(BlindSays("ja", 1.0), 11.0)
    assert [a.uci for a in announced(run)] == ["b1c3"]


def test_no_withdraws_the_question_and_bad_answers_change_nothing():
    run = new()
    s = run.table.session
    run.table.handle(Answers("blind", 1), 5.0)  # nothing asked yet
    assert [r.what for r in run.of(Refused)] == ["answer"] and announced(run) == []
    run.table.handle(BlindSays("Springer David zwei", 1.0), 10.0)
    run.table.handle(Answers("blind", 8), 11.0)  # no such answer
    assert [r.what for r in run.of(Refused)] == ["answer", "answer"] and run.table.question is not None
    run.table.handle(BlindSays("nein", 1.0), 12.0)
    assert run.of(Heard)[-1].text == "nein" and run.table.question is None and list(s.snapshot.game_moves) == []
    assert announced(run) == []


def test_a_certain_move_is_still_announced_at_once():
    run = new()
    run.table.handle(BlindSays("Springer Cäsar drei", 1.0), 10.0)
    assert [a.uci for a in announced(run)] == ["b1c3"] and run.table.question is None and not run.of(Asked)


def test_the_table_accepts_the_dialogues_decision():
    from blindchess.language.dialogue import Dialogue

    run = new()
    s = run.table.session
    dialogue = Dialogue("de")
    decision = dialogue.hear(s.game_board(), ["Springer David zwei"])
    assert decision.action == "ask"
    run.table.handle(BlindSays("Springer David zwei", 1.0), 10.0)
    q = run.table.question
    assert q is not None and list(q.candidates) == [m.uci() for m in decision.candidates]
    assert list(s.snapshot.game_moves) == []
    played = dialogue.key(str(q.candidates.index("f1d2") + 1))
    assert played.action == "play" and played.move == M("f1d2")
    run.table.handle(Answers("blind", q.candidates.index("f1d2") + 1), 11.0)
    assert [a.uci for a in announced(run)] == ["f1d2"]
