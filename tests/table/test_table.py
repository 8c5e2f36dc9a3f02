"""The table: the nine defects made impossible, scores, questions, time, resume.

Every test drives a real Table — python-chess positions, peg-board protocol
lines through the tracker, a real session and journal — with explicit times.
"""

from __future__ import annotations

import re
from pathlib import Path

import chess
import pytest

from blindchess.game.events import TimeRequest, Touch
from blindchess.table.commands import (
    Answers,
    ArbiterApply,
    ArbiterRetrace,
    BlindSays,
    ClockPress,
    Finish,
    Reading,
    Repeat,
    Request,
    SetWording,
    SightedMove,
    SightedSays,
    Tick,
)
from blindchess.table.events import (
    EVENT_TYPES,
    Asked,
    DeviceRequest,
    Diverged,
    GameEnded,
    Moved,
    Refused,
    Ruled,
    Shown,
    Speak,
    Touched,
    from_json,
)
from blindchess.table.speech import internal_ids
from blindchess.table.table import Table, TableSetup
from tests.support.table import Run, blind_move

ARTICLE = re.compile(r"\bD\.\d|\bArt\.\s*\d|FIDE|\bGuidelines\b")


def opening(run: Run) -> None:
    """1. e4 (blind, White) e5 (sighted), mirrored and pressed; White to move at t = 6."""
    blind_move(run, "e2e4", "Bauer Eva vier", 0.0)
    run.table.handle(SightedMove("e2e4"), 1.2)
    run.table.handle(ClockPress(chess.WHITE), 1.4)
    run.table.handle(SightedMove("e7e5"), 2.0)
    run.table.handle(ClockPress(chess.BLACK), 2.2)
    run.peg_move("e7e5", 3.0)
    run.table.handle(Tick(), 6.0)


# ------------------------------------------------------------------ the basic flow

def test_a_move_by_pegs_and_voice_is_made_once_and_written_in_both_scores() -> None:
    run = Run(time_control="90+30")
    opening(run)
    moves = run.of(Moved)
    assert [(m.ply, m.color, m.uci, m.san) for m in moves] == [(1, "white", "e2e4", "e4"), (2, "black", "e7e5", "e5")]
    s = run.table.session
    assert list(s.snapshot.score("blind")) == ["e4", "e5"] and list(s.snapshot.score("sighted")) == ["e4", "e5"]
    assert s.board("tactile").fen() == s.game_board().fen() == s.board("sighted").fen()
    assert [t.square for t in run.of(Touched)] == ["e2"]     # the mirror e7e5 is no touch
    confirmation = [x for x in run.said() if x.text == "Zug ausgeführt: Eva vier."]
    assert confirmation and confirmation[0].to == "blind" and not confirmation[0].cut
    assert any(x.text == "Eva fünf" and x.to == "blind" for x in run.said())   # the sighted move announced


def test_scores_are_written_in_the_session_language() -> None:
    run = Run(lang="en", white="Bea", black="Sam")
    blind_move(run, "g1f3", "Knight Felix three", 0.0)
    run.table.handle(Finish(), 5.0)
    assert list(run.table.session.snapshot.score("blind")) == ["Nf3"]
    assert [x.text for x in run.said() if x.text.startswith("Move made")] == ["Move made: Knight Felix three."]


# ------------------------------------------------------------------ defect 1: confirmations are never cut

def test_1_a_move_confirmation_is_never_cut_by_a_square_name_or_a_status() -> None:
    run = Run()
    run.peg_move("e2e4", 0.0)
    run.table.handle(Tick(), 1.0)
    run.table.handle(BlindSays("Bauer Eva vier", 1.0), 1.1)
    for i in range(5):                                     # the board cursor reads squares with interrupt
        run.table.handle(Reading(f"Eva {i + 1}"), 1.15 + 0.05 * i)
    run.table.handle(Tick(), 10.0)
    confirmation = [x for x in run.said() if x.text.startswith("Zug ausgeführt")]
    assert len(confirmation) == 1 and confirmation[0].cut is False
    readings = [x for x in run.said() if x.text.startswith("Eva ") and x.text[4:].isdigit()]
    assert [x.text for x in readings] == ["Eva 5"]         # only the latest reading waited, then was said
    assert readings[0].t >= confirmation[0].t + run.table.speech.duration(confirmation[0].text) - 1e-9


# ------------------------------------------------------------------ defect 2: unclear announcements are asked

def test_2_low_confidence_is_asked_and_answered_by_voice() -> None:
    run = Run()
    run.peg_move("g1f3", 0.0)
    run.table.handle(BlindSays("Springer Felix drei", 0.42), 1.0)
    assert not run.of(Moved)
    asked = run.of(Asked)
    assert len(asked) == 1 and asked[0].candidates == ("g1f3",) and asked[0].to == "blind"
    run.table.handle(BlindSays("ja", 0.9), 3.0)
    assert [m.uci for m in run.of(Moved)] == ["g1f3"]
    assert run.table.question is None


def test_2_several_fitting_moves_are_asked_and_answered_by_key_or_phrase() -> None:
    run = Run(start_fen="4k3/8/8/8/8/8/4K3/R6R w - - 0 1")   # two rooks can reach d1
    run.table.handle(BlindSays("Turm David eins", 1.0), 0.5)
    asked = run.of(Asked)
    assert len(asked) == 1 and set(asked[0].candidates) == {"a1d1", "h1d1"}
    assert not run.of(Moved)
    run.table.handle(Answers("blind", 7), 1.0)                       # no such key
    assert run.of(Refused)[-1].what == "answer" and run.table.question is not None
    run.table.handle(Answers("blind", asked[0].candidates.index("h1d1") + 1), 1.5)
    run.peg_move("h1d1", 2.0)
    run.table.handle(Tick(), 3.0)
    assert [m.uci for m in run.of(Moved)] == ["h1d1"]


def test_2_the_candidate_phrase_answers_and_no_cancels() -> None:
    run = Run(start_fen="4k3/8/8/8/8/8/4K3/R6R w - - 0 1")
    run.table.handle(BlindSays("Turm David eins", 1.0), 0.5)
    run.table.handle(BlindSays("nein", 1.0), 1.0)
    assert run.table.question is None and not run.of(Moved)
    run.table.handle(BlindSays("Turm David eins", 1.0), 2.0)
    phrase = run.table.question.phrases[run.table.question.candidates.index("a1d1")]
    run.table.handle(BlindSays(phrase, 1.0), 3.0)
    run.peg_move("a1d1", 3.5)
    run.table.handle(Tick(), 5.0)
    assert [m.uci for m in run.of(Moved)] == ["a1d1"]


# ------------------------------------------------------------------ defect 3: scores go on after a ruling

def test_3_a_wrong_mirror_gives_correct_board_and_the_scores_go_on() -> None:
    run = Run(time_control="90+30")
    blind_move(run, "e2e4", "Bauer Eva vier", 0.0)
    run.table.handle(SightedMove("e2e4"), 1.2)
    run.table.handle(ClockPress(chess.WHITE), 1.4)
    run.table.handle(SightedMove("e7e5"), 2.0)
    run.table.handle(ClockPress(chess.BLACK), 2.2)
    run.peg_move("e7e6", 3.0)                               # the blind player mirrors wrongly
    run.table.handle(Tick(), 4.0)
    assert [d.ply for d in run.of(Diverged)] == [2]
    assert not run.of(Touched)[1:]                          # mirroring is no touch
    assert run.table.proposal is not None and run.table.proposal.kind == "correct-board"
    run.handle(ArbiterApply(), 5.0)
    ruled = run.of(Ruled)
    assert [(r.kind, r.plies) for r in ruled] == [("correct-board", 2)]
    assert any(isinstance(e, DeviceRequest) and e.what == "snapshot" and e.t == 5.0 for e in run.events)
    run.lift("e6", 6.0)                                     # he sets his board right: no touch
    run.place("e5", 6.2)
    run.table.handle(Tick(), 7.0)
    assert len(run.of(Touched)) == 1
    blind_move(run, "g1f3", "Springer Felix drei", 8.0)
    run.table.handle(SightedMove("g1f3"), 9.5)
    run.table.handle(ClockPress(chess.WHITE), 9.8)
    s = run.table.session
    assert [m.uci for m in run.of(Moved)] == ["e2e4", "e7e5", "g1f3"]
    assert s.snapshot.score("blind") == ("e4", "e5", "Sf3") == s.snapshot.score("sighted")
    assert s.board("tactile").fen() == s.game_board().fen()
    assert not [r for r in run.of(Refused) if r.what == "press"]


# ------------------------------------------------------------------ defect 4: mirrors of moves not made

def test_4_a_mirror_of_a_move_not_made_is_refused_in_words() -> None:
    run = Run()
    run.table.handle(SightedMove("e2e4"), 0.5)                     # the blind player has not moved yet
    refused = run.of(Refused)
    assert refused and refused[-1].what == "mirror"
    assert "e4" in refused[-1].text and not internal_ids(refused[-1].text)
    assert list(run.table.session.snapshot.moves("sighted")) == []
    assert not run.of(Moved)


# ------------------------------------------------------------------ defect 5: wrong promotion piece

def test_5_a_wrong_promotion_piece_on_the_sighted_board_is_a_divergence() -> None:
    run = Run(start_fen="4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    run.peg_move("b7b8", 0.0)
    run.table.handle(BlindSays("Bella acht wird Springer", 1.0), 1.0)
    run.table.handle(Tick(), 2.0)
    assert [m.uci for m in run.of(Moved)] == ["b7b8n"]
    run.table.handle(SightedMove("b7b8q"), 3.0)                     # the assistant puts a queen
    assert [d.ply for d in run.of(Diverged)] == [1]
    assert list(run.table.session.snapshot.score("sighted")) == ["b8S"]    # the score holds the move as announced


# ------------------------------------------------------------------ defect 6: mirroring is no touch

def test_6_removing_the_captured_peg_with_a_long_pause_is_no_touch() -> None:
    run = Run()
    blind_move(run, "e2e4", "Bauer Eva vier", 0.0)
    run.table.handle(SightedMove("e2e4"), 1.2)
    run.table.handle(SightedMove("d7d5"), 2.0)
    run.peg_move("d7d5", 3.0)
    run.table.handle(Tick(), 4.0)
    blind_move(run, "b1c3", "Springer Cäsar drei", 5.0)
    run.table.handle(SightedMove("b1c3"), 6.2)
    run.table.handle(SightedMove("d5e4"), 7.0)                     # the sighted player takes on e4
    run.lift("e4", 8.0)                                     # the blind player removes his captured pawn ...
    run.table.handle(Tick(), 11.0)                                    # ... and pauses far longer than the settle time
    run.lift("d5", 11.5)
    run.place("e4", 11.8)
    run.table.handle(Tick(), 13.0)
    touched = [t.square for t in run.of(Touched)]
    assert touched == ["e2", "b1"]
    s = run.table.session
    assert s.board("tactile").fen() == s.game_board().fen()
    assert all(not isinstance(e, Touch) or e.square in ("e2", "b1") for e in s.events)


def test_6_a_mirror_finished_just_before_the_own_lift_is_recognised() -> None:
    run = Run()
    blind_move(run, "e2e4", "Bauer Eva vier", 0.0)
    run.table.handle(SightedMove("e2e4"), 1.2)
    run.table.handle(SightedMove("e7e5"), 2.0)
    run.lift("e7", 3.0)
    run.place("e5", 3.2)
    run.lift("g1", 3.4)                                     # 0.2 s later: less than the settle time
    run.place("f3", 3.6)
    run.table.handle(BlindSays("Springer Felix drei", 1.0), 3.8)
    run.table.handle(Tick(), 5.0)
    assert [m.uci for m in run.of(Moved)] == ["e2e4", "e7e5", "g1f3"]
    assert [t.square for t in run.of(Touched)] == ["e2", "g1"]
    assert not [x for x in run.said() if "stimmt nicht" in x.text]


# ------------------------------------------------------------------ defect 7: D.2.8 and stale touches

def test_7_after_a_correction_nothing_calls_the_corrected_move_illegal() -> None:
    run = Run(time_control="90+30")
    blind_move(run, "e2e4", "Bauer Eva vier", 0.0)
    run.table.handle(BlindSays("Korrektur Bauer Eva drei", 1.0), 1.5)   # before he presses (D.2.8)
    run.lift("e4", 2.0)
    run.place("e3", 2.2)
    run.table.handle(Tick(), 4.0)
    texts = [x.text for x in run.said()] + [x.text for x in run.of(Shown)] + [r.text for r in run.of(Refused)]
    assert not [t for t in texts if "regelgemäß" in t or "illegal" in t]
    s = run.table.session
    assert list(s.snapshot.game_moves) == [chess.Move.from_uci("e2e3")]
    assert s.snapshot.score("blind") == ("e3",) == s.snapshot.score("sighted")


def test_7_a_touch_is_said_at_once_or_not_at_all() -> None:
    run = Run()
    blind_move(run, "e2e4", "Bauer Eva vier", 0.0)
    run.table.handle(SightedMove("e2e4"), 1.2)
    run.table.handle(SightedMove("e7e5"), 1.3)                     # "Eva fünf" is being said ...
    run.peg_move("e7e5", 1.4)
    run.lift("g1", 2.1)                                     # ... a touch meanwhile is not queued for later
    run.table.handle(Tick(), 30.0)
    assert [t.square for t in run.of(Touched)] == ["e2", "g1"]
    late = [x for x in run.said() if x.text.startswith("Berührt") and "Gustav" in x.text]
    assert late == [] or late[0].t == 2.1


# ------------------------------------------------------------------ defect 8: what a person hears and reads

def test_8_no_article_numbers_spoken_no_internal_ids_anywhere_a_short_ruling_sentence() -> None:
    run = Run(time_control="90+30")
    opening(run)
    run.table.handle(SightedMove("g1f3"), 7.0)                     # not his move: refused
    run.table.handle(ClockPress(chess.BLACK), 7.5)                           # not his turn: refused
    run.peg_move("d2d3", 8.0)
    run.table.handle(BlindSays("Turm Hector acht", 1.0), 8.5)      # nonsense
    run.table.handle(ArbiterRetrace(1), 9.0)
    run.table.handle(Tick(), 60.0)
    said = run.said()
    assert said
    assert not [x.text for x in said if ARTICLE.search(x.text)]
    person = [x.text for x in said] + [x.text for x in run.of(Shown)] + [x.text for x in run.of(Refused)]
    assert not [t for t in person if internal_ids(t)]
    ruling = [x for x in said if x.text.startswith("Entscheid")]
    assert len(ruling) == 1 and run.table.speech.duration(ruling[0].text) < 6.0
    assert [(r.kind, r.plies) for r in run.of(Ruled)] == [("retrace", 1)]


# ------------------------------------------------------------------ defect 9: nothing ends without a question

def test_9_resignation_is_asked_before_the_game_ends() -> None:
    run = Run()
    run.table.handle(BlindSays("Ich gebe auf", 1.0), 1.0)
    asked = run.of(Asked)
    assert asked and asked[-1].candidates == ("yes", "no") and not run.of(GameEnded)
    assert run.table.session.snapshot.result is None
    run.table.handle(BlindSays("nein", 1.0), 3.0)
    assert run.table.session.snapshot.result is None and run.table.question is None
    run.table.handle(BlindSays("Ich gebe auf", 1.0), 5.0)
    run.table.handle(Answers("blind", "yes"), 8.0)
    assert [(g.result, g.reason) for g in run.of(GameEnded)] == [("0-1", "resignation")]


def test_9_accepting_a_draw_is_asked_and_a_stray_yes_does_not_end_the_game() -> None:
    run = Run()
    run.table.handle(BlindSays("ja", 1.0), 0.5)                    # no question, no offer: nothing happens
    assert run.table.session.snapshot.result is None
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.table.handle(SightedMove("e2e4"), 2.2)
    run.table.handle(SightedSays("Remis"), 2.5)                    # the sighted player offers a draw: he is asked
    asked = run.of(Asked)[-1]
    assert asked.candidates == ("yes", "no") and asked.to == "blind" and asked.text.startswith("Ihr Gegner bietet Remis")
    assert run.table.session.snapshot.result is None
    run.table.handle(BlindSays("ja", 1.0), 7.0)
    assert [g.result for g in run.of(GameEnded)] == ["1/2-1/2"]


def test_a_draw_offered_to_the_blind_player_is_declined_by_his_move() -> None:
    """Art. 9.1.2: he may decline by making his move; the question asked at the offer closes."""
    run = Run()
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.table.handle(SightedMove("e2e4"), 2.2)
    run.table.handle(SightedMove("e7e5"), 3.0)
    run.table.handle(SightedSays("Remis"), 3.5)
    assert run.table.question is not None and run.table.question.kind == "draw-accept"
    run.peg_move("e7e5", 4.0)                                # his mirror of 1… e5
    blind_move(run, "g1f3", "Springer Felix drei", 6.0)
    assert run.table.question is None and run.table.session.snapshot.result is None
    assert run.table.session.snapshot.game_moves[-1].uci() == "g1f3"      # (the offer lapses with his press, Art. 9.1.2.3)


# ------------------------------------------------------------------ time: only when asked (D.2.10 d)

def test_time_is_said_only_when_asked() -> None:
    run = Run(time_control="5+0")
    opening(run)
    run.table.handle(Tick(), 200.0)
    assert not [x for x in run.said() if "Minute" in x.text or "Sekunde" in x.text]
    assert not [x for x in run.of(Shown) if "Minute" in x.text]
    run.table.handle(BlindSays("Zeit", 1.0), 201.0)
    run.table.handle(Tick(), 220.0)
    answer = [x for x in run.said() if x.text.startswith("Sie:")]
    assert len(answer) == 1 and answer[0].to == "blind"
    assert any(isinstance(e, TimeRequest) for e in run.table.session.events)


def test_low_time_warnings_only_for_a_player_who_chose_them() -> None:
    quiet = Run(time_control="5+0")
    quiet.table.handle(Tick(), 1.0)
    quiet.table.handle(Tick(), 120.0)
    quiet.table.handle(Finish(), 130.0)
    assert not [x for x in quiet.said() if "Noch" in x.text]
    chosen = Run(time_control="5+0", warnings=(240.0,))
    chosen.table.handle(Tick(), 1.0)
    chosen.table.handle(Tick(), 120.0)
    chosen.table.handle(Finish(), 130.0)
    assert [x.text for x in chosen.said() if x.text.startswith("Noch")] == ["Noch 4 Minuten"]
    assert not [x for x in chosen.of(Shown) if "Noch" in x.text]


# ------------------------------------------------------------------ crash and resume

def test_resume_with_a_placement_not_yet_announced(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.jsonl")
    run.peg_move("e2e4", 0.0)
    run.table.handle(Tick(), 1.0)
    run.crash_and_resume(2.0)
    run.table.handle(BlindSays("Bauer Eva vier", 1.0), 3.0)
    run.table.handle(Tick(), 4.0)
    assert [m.uci for m in run.of(Moved)] == ["e2e4"]
    assert list(run.table.session.snapshot.score("blind")) == ["e4"]


def test_resume_with_an_announcement_not_yet_placed(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.jsonl")
    run.table.handle(BlindSays("Bauer Eva vier", 1.0), 0.5)
    run.crash_and_resume(1.0)
    run.peg_move("e2e4", 2.0)
    run.table.handle(Tick(), 3.0)
    assert [m.uci for m in run.of(Moved)] == ["e2e4"]


def test_resume_with_a_question_open(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.jsonl")
    run.peg_move("g1f3", 0.0)
    run.table.handle(BlindSays("Springer Felix drei", 0.3), 1.0)
    run.crash_and_resume(2.0)
    assert run.table.question is not None and run.table.question.candidates == ("g1f3",)
    assert [a.candidates for a in run.of(Asked)] == [("g1f3",), ("g1f3",)]   # asked again after the restart
    run.table.handle(Answers("blind", 1), 5.0)
    run.table.handle(Tick(), 6.0)
    assert [m.uci for m in run.of(Moved)] == ["g1f3"]


def test_resume_with_a_ruling_proposed(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.jsonl")
    blind_move(run, "e2e4", "Bauer Eva vier", 0.0)
    run.table.handle(SightedMove("e2e4"), 1.2)
    run.table.handle(SightedMove("e7e5"), 2.0)
    run.peg_move("e7e6", 3.0)
    run.table.handle(Tick(), 4.0)
    run.crash_and_resume(5.0)
    assert run.table.proposal is not None and run.table.proposal.kind == "correct-board"
    run.handle(ArbiterApply(), 6.0)
    assert [(r.kind, r.plies) for r in run.of(Ruled)] == [("correct-board", 2)]


# ------------------------------------------------------------------ events

def test_every_event_has_the_scenario_json_shape_and_reads_back() -> None:
    run = Run(time_control="90+30")
    opening(run)
    run.table.handle(BlindSays("Springer Felix drei", 0.3), 7.0)
    run.table.handle(Finish(), 20.0)
    final = run.table.final(20.0)
    assert final.to_json()["type"] == "final" and set(final.to_json()) == {
        "t", "type", "boards", "game", "plies", "scores", "clocks", "result"}
    shapes = {"said": {"to", "text", "cut"}, "shown": {"text"}, "touched": {"square", "by"},
              "move": {"ply", "color", "uci", "san"}, "question": {"text", "candidates", "to"},
              "refused": {"what", "text"}, "divergence": {"ply"}, "ruling": {"kind", "plies"}}
    seen = set()
    for event in [*run.events, final]:
        data = event.to_json()
        seen.add(data["type"])
        if data["type"] in shapes:
            assert set(data) == {"t", "type"} | shapes[data["type"]]
        assert EVENT_TYPES[data["type"]] is type(event)
        assert from_json(data).to_json() == data
    assert {"said", "shown", "touched", "move", "question"} <= seen
    assert isinstance(final.to_json()["clocks"]["white"], float)


def test_said_events_are_over_when_given_and_cover_every_speak() -> None:
    run = Run()
    opening(run)
    run.table.handle(Finish(), 60.0)
    speaks = [(e.t, e.text) for e in run.events if e.to_json()["type"] == "speak"]
    said = [(e.t, e.text) for e in run.said()]
    assert sorted(speaks) == sorted(said)


# ------------------------------------------------------------------ when the front ticks: next_due, idle_at

def _tick_through(run: Run, until: float) -> list[float]:
    """Tick the table only at the moments it names (as the app's timer and the runner do)."""
    ticks = []
    now = 0.0
    while (due := run.table.next_due(now)) is not None and due <= until:
        assert due > now, "nothing is overdue after a tick"
        now = due
        ticks.append(now)
        run.table.handle(Tick(), now)
    return ticks


def test_next_due_names_the_end_of_speech_the_settle_time_a_warning_and_the_flag() -> None:
    run = Run(time_control="5+0", warnings=(240.0,))      # blind White to move; his clock runs from 0
    start = run.table.speech.duration("Neue Partie: Weiß gegen Schwarz.")
    assert run.table.next_due(0.0) == pytest.approx(start), "the start text ends"
    run.table.handle(Tick(), start)
    assert run.table.next_due(start) == pytest.approx(60.0, abs=1e-5), "the chosen warning at 4 minutes left"
    run.lift("e2", 10.0)
    run.place("e4", 10.2)
    assert run.table.next_due(10.2) == pytest.approx(10.7), "the pegs settle"
    ticks = _tick_through(run, 400.0)
    warning = [s for s in run.said() if s.text == "Noch 4 Minuten"]
    assert len(warning) == 1 and warning[0].t == pytest.approx(60.0, abs=1e-5), "said when it falls due"
    flag = [e for e in run.of(Shown) if "abgelaufen" in e.text]
    assert len(flag) == 1 and flag[0].t == pytest.approx(300.0, abs=1e-5), "the flag falls on time"
    assert ticks[-1] < 310.0 and run.table.next_due(ticks[-1]) is None, "a flag reported falls due no more"


def test_next_due_without_clock_and_without_speech_is_none() -> None:
    run = Run(blind="none", tactile="none")
    assert run.table.next_due(0.0) is None
    assert run.table.idle_at(3.0) == 3.0


def test_a_reading_holds_up_neither_idle_at_nor_next_due() -> None:
    # A reading is cut by anything and nothing waits behind it: the end of a game (the final's time
    # and clocks) must not depend on whether a board square was being read.
    run = Run(time_control="5+0")
    run.table.handle(Tick(), 5.0)
    run.table.handle(Reading("Bella zwei, weißer Bauer"), 5.0)
    assert [e for e in run.events if getattr(e, "priority", None) == "reading"], "the reading is spoken"
    assert run.table.idle_at(5.0) == 5.0
    assert run.table.next_due(5.0) == pytest.approx(300.0 + 1e-6), "only the flag"
    blind_move(run, "e2e4", "Bauer Eva vier", 6.0)           # confirmed at 7.0, the reading is over
    spoken = [e for e in run.events if isinstance(e, Speak) and e.text.startswith("Zug ausgeführt")]
    assert len(spoken) == 1 and spoken[0].t == pytest.approx(7.0)
    confirmation = 7.0 + run.table.speech.duration(spoken[0].text)
    assert run.table.idle_at(7.0) == pytest.approx(confirmation)
    run.table.handle(Reading("Cäsar drei, leer"), 7.0)                 # waits behind the confirmation
    assert run.table.idle_at(7.0) == pytest.approx(confirmation)
    assert run.table.next_due(7.0) == pytest.approx(confirmation), "then the reading begins"
    run.table.handle(Tick(), confirmation)
    assert run.table.idle_at(confirmation) == pytest.approx(confirmation), "the reading holds nothing up"


# ------------------------------------------------------------------ heard or typed

def _ready_to_castle(run: Run) -> None:
    """1. e4 e5 2. Sf3 Sc6 3. Lc4 Sf6, all mirrored; the pegs show White castled short at t = 40."""
    t = 0.0
    for white, phrase, black in (("e2e4", "Bauer Eva vier", "e7e5"), ("g1f3", "Springer Felix drei", "b8c6"),
                                 ("f1c4", "Läufer Cäsar vier", "g8f6")):
        blind_move(run, white, phrase, t)
        run.table.handle(SightedMove(white), t + 1.2)
        run.table.handle(SightedMove(black), t + 2.0)
        run.peg_move(black, t + 3.0)
        run.table.handle(Tick(), t + 4.0)
        t += 6.0
    run.lift("e1", 40.0)
    run.lift("h1", 40.1)
    run.place("g1", 40.2)
    run.place("f1", 40.3)
    run.table.handle(Tick(), 41.0)
    assert len(run.table.session.snapshot.game_moves) == 6


def test_a_heard_king_move_of_two_squares_is_asked_a_typed_one_castles() -> None:
    heard = Run()
    _ready_to_castle(heard)
    heard.table.handle(BlindSays("König Gustav eins", 1.0), 42.0)
    asked = heard.of(Asked)
    assert asked and asked[-1].candidates == ("e1g1",) and "Rochade" in asked[-1].text
    assert len(heard.table.session.snapshot.game_moves) == 6, "nothing castled on a guess"
    heard.table.handle(BlindSays("ja", 1.0), 44.0)
    assert heard.table.session.snapshot.game_moves[-1] == chess.Move.from_uci("e1g1")

    typed = Run()
    _ready_to_castle(typed)
    typed.table.handle(BlindSays("König Gustav eins", None), 42.0)   # typed for him: read as written
    assert not typed.of(Asked)
    assert typed.table.session.snapshot.game_moves[-1] == chess.Move.from_uci("e1g1")


# ------------------------------------------------------------------ repeat = the last announcement

def test_repeat_says_the_last_announcement_not_the_last_answer() -> None:
    run = Run(time_control="5+0")
    opening(run)                                   # Black's 1... e5 announced to the blind player at 2.0
    run.table.handle(Request("time"), 10.0)                # an answer comes after it
    run.table.handle(Finish(), 20.0)
    run.table.handle(BlindSays("wiederholen", 1.0), 30.0)
    run.table.handle(Finish(), 40.0)
    again = [s for s in run.said() if s.t >= 30.0]
    assert [s.text for s in again] == ["Eva fünf"] and again[0].to == "blind"
    run.table.handle(Repeat(), 50.0)                         # the key does the same
    run.table.handle(Finish(), 60.0)
    assert [s.text for s in run.said() if s.t >= 50.0] == ["Eva fünf"]


# ------------------------------------------------------------------ wording (Anna / NATO / SAN)

def test_the_blind_player_hears_moves_and_squares_in_his_wording(tmp_path: Path) -> None:
    run = Run(journal=tmp_path / "game.jsonl", wording="nato")
    blind_move(run, "e2e4", "Bauer Eva vier", 0.0)              # he still announces in the D.2.1 words
    run.table.handle(SightedMove("e2e4"), 1.2)
    run.table.handle(SightedMove("e7e5"), 2.0)
    run.table.handle(Finish(), 5.0)
    texts = [s.text for s in run.said()]
    assert "Zug ausgeführt: Echo vier." in texts and "Echo fünf" in texts
    run.table.handle(Request("square", square=chess.E4), 6.0)
    run.table.handle(SetWording("san"), 8.0)
    run.table.handle(Request("last_move"), 9.0)
    run.table.handle(Finish(), 20.0)
    texts = [s.text for s in run.said() if s.t >= 6.0]
    assert texts == ["Echo vier, weißer Bauer", "Zug 1, Schwarz: e5"]
    run.crash_and_resume(30.0)                                    # the wording chosen last survives
    assert run.table.state.wording == "san"
    with pytest.raises(ValueError):
        run.table.handle(SetWording("morse"), 31.0)
    with pytest.raises(ValueError):
        TableSetup(wording="morse")


def test_an_unknown_request_is_refused_not_answered_with_the_position() -> None:
    run = Run()
    run.table.handle(Request("weather"), 3.0)
    refused = run.of(Refused)
    assert len(refused) == 1 and refused[0].what == "request"
    run.table.handle(Finish(), 10.0)
    assert [s.text for s in run.said() if s.t >= 3.0] == [refused[0].text]


def test_a_game_closed_on_purpose_is_not_charged_for_the_night_but_a_crash_is(tmp_path: Path) -> None:
    # The app quit at 10 s (Table.close) and the game was reopened an hour later: White's clock
    # runs on from the reopening, the hour is nobody's time. After a crash (no close) the player
    # to move kept thinking, so the time until the restart is his (a crash gives nobody time).
    closed = Run(journal=tmp_path / "closed.jsonl", time_control="90+30")
    closed.table.handle(Tick(), 10.0)
    closed.table.close()
    reopened = Table.resume(tmp_path / "closed.jsonl", 3600.0)
    assert reopened.session.clock.remaining(chess.WHITE, 3610.0) == pytest.approx(5400.0 - 20.0)
    reopened.close()
    crashed = Run(journal=tmp_path / "crashed.jsonl", time_control="90+30")
    crashed.table.abandon()                                   # killed: never closed
    after = Table.resume(tmp_path / "crashed.jsonl", 60.0)
    assert after.session.clock.remaining(chess.WHITE, 70.0) == pytest.approx(5400.0 - 70.0)
    after.close()
