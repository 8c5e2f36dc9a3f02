"""The blind player's questions answered by voice, his corrections (FIDE Laws D.2.1, D.2.8), and the other
side's words: a move asked about is answered by naming it again; a correction asked about before the press and
confirmed after it is too late (D.2.8) and leaves the pegs alone; without a tactile board a correction makes the
corrected move on his board; a standing draw offer (Art. 9.1.2) is answered by "ja"/"nein" also after its question
was closed; the sighted side's words that answer nothing decline nothing."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.game import Announce, AnnounceUnclear
from blindchess.language import announce
from blindchess.table.commands import Answers, BlindSays, ClockPress, OffersDraw, SightedMove, SightedSays, Tick
from blindchess.table.events import Asked, Moved, Refused, Said, Shown
from tests.support.table import Run, blind_move


def _announcements(run: Run) -> list[Announce]:
    return [e for e in run.table.session.events if isinstance(e, Announce)]


def _said_to_blind(run: Run, since: float) -> list[str]:
    return [s.text for s in run.of(Said) if s.to == "blind" and s.t >= since]


# ---------------------------------------------------------------- a move asked about (D.2.1)
def test_a_move_asked_about_is_answered_by_naming_it_again_even_unsure():
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(BlindSays("Springer Felix drei", 0.3), 1.0)        # heard unsure: asked
    assert [a.candidates for a in run.of(Asked)] == [("g1f3",)]
    run.handle(BlindSays("Springer Felix drei", 0.3), 2.0)        # the same words, still unsure: that is the answer
    run.handle(Tick(), 20.0)
    assert [(m.uci, m.san) for m in run.of(Moved)] == [("g1f3", "Nf3")]
    assert len(run.of(Asked)) == 1
    assert [a.text for a in _announcements(run)] == ["Springer Felix drei"]


def test_a_move_asked_about_is_answered_by_the_piece_alone_when_it_names_one_candidate():
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(BlindSays("Springer Felix drei", 0.3), 1.0)
    run.handle(BlindSays("Springer", 0.9), 2.0)       # four knight moves, one of them asked about
    run.handle(Tick(), 20.0)
    assert [m.uci for m in run.of(Moved)] == ["g1f3"]
    assert len(run.of(Asked)) == 1
    # the journal keeps the words he confirmed, as they were asked
    assert [a.text for a in _announcements(run)] == ["Springer Felix drei"]


def test_yes_and_no_to_a_question_are_answers_and_nothing_more():
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(BlindSays("Springer Felix drei", 0.3), 1.0)
    run.handle(BlindSays("ja", 0.9), 2.0)
    run.handle(SightedMove("g1f3"), 11.0)
    run.handle(ClockPress(chess.WHITE), 11.5)
    run.handle(SightedMove("g8f6"), 12.0)
    run.handle(ClockPress(chess.BLACK), 12.5)
    run.handle(BlindSays("Springer Cäsar drei", 0.3), 13.0)
    run.handle(BlindSays("nein", 0.9), 14.0)
    run.handle(Tick(), 40.0)
    assert [m.uci for m in run.of(Moved)] == ["g1f3", "g8f6"]
    said = _said_to_blind(run, 1.0)
    assert tr("table.no_question", "de") not in said
    assert tr("table.cancelled", "de") in said


# ---------------------------------------------------------------- corrections (D.2.8)
def test_a_correction_confirmed_after_the_press_is_too_late_and_leaves_the_pegs_alone():
    """D.2.8: asked about before he pressed his clock, confirmed after it: refused, his move stands; the pegs,
    which show his move, are not told to expect the refused one (no mismatch said)."""
    run = Run(time_control="90+30", blind="white", black="Sabine Sehend")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(BlindSays("Bauer David vier", 0.3), 13.0)           # about his unpressed move: asked
    assert [a.candidates for a in run.of(Asked)] == [("d2d4",)]
    run.handle(ClockPress(chess.WHITE), 14.0)
    run.handle(BlindSays("ja", 0.9), 15.0)
    run.handle(Tick(), 30.0)
    assert [(r.what, r.text) for r in run.of(Refused)] == [("correction", tr("table.correction_refused", "de"))]
    assert [a.refused for a in _announcements(run)] == [False, True]
    assert run.table.game.game_moves == (chess.Move.from_uci("e2e4"),)
    assert run.table.tactile.mismatch == ()
    assert not [s for s in _said_to_blind(run, 15.0) if s.startswith("Tastbrett")]
    # and play goes on: the reply mirrored on the pegs is a mirror
    run.handle(SightedMove("e2e4"), 31.0)
    run.handle(SightedMove("e7e5"), 32.0)
    run.peg_move("e7e5", 33.0)
    run.handle(Tick(), 40.0)
    assert run.table.game.plies == 2 and not [r for r in run.of(Refused) if r.t >= 31.0]


def test_without_a_tactile_board_a_correction_before_the_press_makes_the_corrected_move():
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(BlindSays("Bauer Eva vier"), 1.0)
    run.handle(BlindSays("Korrektur Bauer David vier"), 2.0)      # before the press (D.2.8)
    run.handle(Tick(), 20.0)
    assert [m.uci for m in run.of(Moved)] == ["e2e4", "d2d4"]
    assert run.table.game.game_moves == (chess.Move.from_uci("d2d4"),)
    assert run.table.session.board("tactile").move_stack == [chess.Move.from_uci("d2d4")]


# ---------------------------------------------------------------- a standing draw offer (Art. 9.1.2)
def _offer_to_the_blind_player() -> Run:
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(BlindSays("Bauer Eva vier"), 1.0)
    run.handle(ClockPress(chess.WHITE), 2.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(SightedMove("e7e5"), 3.0)
    run.handle(OffersDraw("sighted"), 3.5)
    run.handle(ClockPress(chess.BLACK), 4.0)
    run.handle(BlindSays("Zeit", 0.9), 11.0)      # a request: the question about the offer is closed
    run.handle(Tick(), 20.0)
    return run


def test_yes_to_a_standing_offer_after_its_question_was_closed_asks_to_confirm():
    run = _offer_to_the_blind_player()
    asked = len(run.of(Asked))
    run.handle(BlindSays("ja", 0.9), 21.0)
    run.handle(Tick(), 30.0)
    assert [a.text for a in run.of(Asked)[asked:]] == [tr("table.ask_draw_accept", "de")]
    assert run.table.game.draw_offer is not None and run.table.game.result is None


def test_no_to_a_standing_offer_after_its_question_was_closed_declines_it():
    run = _offer_to_the_blind_player()
    asked = len(run.of(Asked))
    run.handle(BlindSays("nein", 0.9), 21.0)
    run.handle(Tick(), 30.0)
    assert run.of(Asked)[asked:] == []
    assert run.table.game.draw_offer is None and run.table.game.result is None


def test_the_sighted_sides_words_that_answer_nothing_leave_the_offer_standing():
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(BlindSays("Remis"), 1.0)
    run.handle(SightedSays("Quatsch"), 2.0)
    assert tr("table.not_understood", "de", text="Quatsch") in [s.text for s in run.of(Shown)]
    assert run.table.game.draw_offer == chess.WHITE
    run.handle(SightedSays("nein"), 3.0)
    assert run.table.game.draw_offer is None


# ---------------------------------------------------------------- nothing understood
def test_what_the_recogniser_could_not_place_is_told_as_not_understood():
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(BlindSays("[unk]", 0.9), 3.0)       # the recogniser's word for speech outside its grammar
    run.handle(Tick(), 30.0)
    assert _said_to_blind(run, 3.0) == [tr("table.not_understood", "de", text="[unk]")]
    assert run.table.game.plies == 0


def test_an_announcement_the_engine_could_not_make_is_shown_with_its_reason_in_words():
    run = Run(time_control="90+30", blind="white", tactile="none")
    for problem in ("illegal", "unreadable", None):
        run.table.hearing.unclear(AnnounceUnclear(t=5.0, text="Eva drei", problem=problem))
    run.handle(Tick(), 30.0)
    assert [s.text for s in run.of(Shown) if s.t == 5.0] == [
        tr("session.announce_unclear", "de", text="Eva drei", why=why) for why in ("Unmöglich.", "Nicht lesbar.", "")]
    assert _said_to_blind(run, 5.0) == [tr("table.not_understood", "de", text="Eva drei")] * 3


def test_a_move_asked_about_among_several_is_announced_in_the_words_asked():
    run = Run(time_control="90+30", blind="white", tactile="none")
    run.handle(BlindSays("Springer", 0.9), 1.0)               # four knight moves: asked which
    [asked] = run.of(Asked)
    assert len(asked.candidates) > 1
    run.handle(Answers("blind", 1), 2.0)
    run.handle(Tick(), 20.0)
    assert [m.uci for m in run.of(Moved)] == [asked.candidates[0]]
    [said] = _announcements(run)
    assert (said.uci, said.text) == (asked.candidates[0], announce(chess.Board(), chess.Move.from_uci(asked.candidates[0]), "de"))
