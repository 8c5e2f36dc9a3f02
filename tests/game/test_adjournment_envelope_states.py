"""What the rules engine says of the envelope at each step of an adjournment (FIDE Guidelines I.1, I.7, I.9 c, I.12).

While the sealer is still writing his move nothing is lost: the envelope is neither missing nor mismatched (I.12
applies only to an envelope sealed); once sealed and kept it can be opened; once opened, none is waiting. An
adjournment at the very moment the session ends is no adjournment before its scheduled end (I.1 b).
"""

from __future__ import annotations

import chess
import pytest

from blindchess.game import Session
from blindchess.game.events import Adjourned, EnvelopeOpened, MoveMade, SealedMove
from blindchess.laws.adjournment import commitment
from blindchess.storage.journal import envelope_path
from tests.support.sessions import played as played_game


def played(moves: tuple[str, ...], journal=None) -> Session:
    """Bernd (White, blind) against Sabine, ``moves`` made on both boards, the clock pressed after each."""
    return played_game(moves, journal)


def seal(s: Session, written: str, now: float) -> list:
    fen = s.game_board().fen()
    return s.seal({"position": fen, "commitment": commitment(fen, written, "n")}, {"written": written, "nonce": "n"},
                  now)


@pytest.mark.parametrize("journaled", [False, True])
def test_nothing_is_missing_while_the_sealer_writes_his_move_nor_after_the_opening(tmp_path, journaled):
    s = played(("e2e4", "e7e5"), journal=tmp_path / "g.jsonl" if journaled else None)
    assert s.envelope_problem() is None
    s.adjourn(10.0)
    assert s.envelope_problem() is None                 # White is sealing (I.1): no envelope yet, none lost
    with pytest.raises(ValueError):
        s.open_envelope(11.0)
    sealed = seal(s, "Nf3", 12.0)
    assert [type(e) for e in sealed] == [SealedMove]
    assert s.envelope_problem() is None                 # sealed and kept: it can be opened (I.7)
    opened = s.open_envelope(100.0)
    assert [type(e) for e in opened][:2] == [EnvelopeOpened, MoveMade]
    assert s.envelope_problem() is None
    with pytest.raises(ValueError):
        s.open_envelope(101.0)                          # opened already: none waits


def test_while_the_present_player_seals_his_reply_no_envelope_is_lost_or_opened(tmp_path):
    # I.9 c: the sealer is absent; his opponent, present, seals his reply in a new envelope instead of making it
    s = played(("e2e4", "e7e5"), journal=tmp_path / "g.jsonl")
    s.adjourn(10.0)
    seal(s, "Nf3", 12.0)
    s.open_envelope(100.0, sealer_absent=True)
    assert s.snapshot.plies == 3
    assert s.envelope_problem() is None                 # Black writes his reply: nothing lost
    with pytest.raises(ValueError):
        s.open_envelope(101.0)
    with pytest.raises(ValueError):
        s.resume_without_envelope(101.0)
    seal(s, "Nc6", 110.0)
    assert s.envelope_problem() is None
    s.open_envelope(200.0)
    assert [m.uci() for m in s.snapshot.game_moves][-2:] == ["g1f3", "b8c6"]


def test_an_adjournment_when_the_session_ends_is_none_before_its_end():
    # I.1 b applies to an adjournment before the scheduled end; at the end itself the sealing counts when made
    s = played(("e2e4",))
    adjourned = [e for e in s.adjourn(50.0, session_end=50.0) if isinstance(e, Adjourned)]
    assert [(e.color, e.ply, e.session_end) for e in adjourned] == [("black", 2, None)]
    assert s.sealed_at(60.0) == 60.0
    early = played(("e2e4",))
    adjourned = [e for e in early.adjourn(49.5, session_end=50.0) if isinstance(e, Adjourned)]
    assert [(e.color, e.ply, e.session_end) for e in adjourned] == [("black", 2, 50.0)]
    assert early.sealed_at(49.9) == 50.0


def test_a_mating_move_in_an_envelope_that_does_not_match_its_sealing_decides_nothing(tmp_path):
    # I.10 reads the sealed move only from an envelope that can be opened; one whose move is not the one committed
    # to (I.12) decides nothing, even when the move written in it would mate
    journal = tmp_path / "g.jsonl"
    s = played(("f2f3", "e7e5", "g2g4"), journal=journal)
    s.adjourn(10.0)
    fen = s.game_board().fen()
    s.seal({"position": fen, "commitment": commitment(fen, "Qg5", "n")}, {"written": "Qh4", "nonce": "n"}, 11.0)
    assert s.envelope_problem() == "mismatch"
    assert not s.sealed_move_ends_game()
    with pytest.raises(ValueError):
        s.open_envelope(100.0)
    honest = played(("f2f3", "e7e5", "g2g4"), journal=tmp_path / "h.jsonl")
    honest.adjourn(10.0)
    seal(honest, "Qh4", 11.0)
    assert honest.envelope_problem() is None and honest.sealed_move_ends_game()


@pytest.mark.parametrize("journaled", [False, True])
def test_an_envelope_with_nothing_written_in_it_does_not_match_its_sealing(tmp_path, journaled):
    # I.12: the envelope holds no move, not the one committed to — alike whether the game is journaled or not
    s = played(("e2e4", "e7e5"), journal=tmp_path / "g.jsonl" if journaled else None)
    s.adjourn(10.0)
    fen = s.game_board().fen()
    s.seal({"position": fen, "commitment": commitment(fen, "Nf3", "n")}, {}, 12.0)
    assert s.envelope_problem() == "mismatch"
    assert not s.sealed_move_ends_game()
    with pytest.raises(ValueError):
        s.open_envelope(100.0)
    s.resume_without_envelope(100.0)
    assert s.snapshot.to_move == chess.WHITE and s.snapshot.plies == 2


def test_no_responder_s_clock_is_started_while_the_move_is_being_sealed():
    # I.9 b applies to an envelope sealed and kept: while the sealer still writes his move there is none
    s = played(("e2e4", "e7e5"))
    s.adjourn(10.0)
    with pytest.raises(ValueError):
        s.start_responder_clock(11.0)
    seal(s, "Nf3", 12.0)
    s.start_responder_clock(13.0)
    with pytest.raises(ValueError):
        s.start_responder_clock(14.0)


def test_a_reply_sealed_while_the_clock_is_stopped_leaves_the_absent_player_s_clock_to_run(tmp_path):
    # I.9 c: the present player seals his reply — his clock stops and the absent player's starts; when the arbiter
    # had the clock stopped meanwhile, the absent player's clock is the one that runs when it is started again
    s = played(("e2e4", "e7e5"), journal=tmp_path / "g.jsonl")
    s.adjourn(10.0)
    seal(s, "Nf3", 12.0)
    s.open_envelope(100.0, sealer_absent=True)              # Black, present, is to seal his reply
    black_at_pause = s.clock.remaining(chess.BLACK, 110.0)
    s.pause(110.0)
    seal(s, "Nc6", 120.0)
    s.resume(130.0, charge=False)
    white = s.clock.remaining(chess.WHITE, 130.0)
    assert s.clock.remaining(chess.WHITE, 200.0) == pytest.approx(white - 70.0)
    assert s.clock.remaining(chess.BLACK, 200.0) == pytest.approx(black_at_pause)


def test_after_the_opening_a_later_adjournment_starts_afresh():
    # the responder's clock started at the first resumption (I.9 b) is no longer "started" after the opening: at the
    # next adjournment his clock may be started again
    s = played(("e2e4", "e7e5"))
    s.adjourn(10.0)
    seal(s, "Nf3", 12.0)
    s.start_responder_clock(100.0)
    assert s.snapshot.responder_clock_started
    s.open_envelope(130.0)
    assert not s.snapshot.responder_clock_started and not s.snapshot.adjourned
    s.board_move("sighted", chess.Move.from_uci("b8c6"), 140.0)
    s.press_clock(chess.BLACK, 141.0)
    s.board_move("tactile", chess.Move.from_uci("b8c6"), 142.0)
    s.adjourn(200.0)
    seal(s, "Bc4", 201.0)
    s.start_responder_clock(300.0)
    assert s.snapshot.responder_clock_started


def test_while_the_present_player_seals_his_reply_he_makes_no_move_on_the_board(tmp_path):
    # I.9 c: the sealer is absent, the envelope opened; Black seals his reply instead of making it
    s = played(("e2e4", "e7e5"), journal=tmp_path / "g.jsonl")
    s.adjourn(10.0)
    seal(s, "Nf3", 12.0)
    s.open_envelope(100.0, sealer_absent=True)
    assert s.snapshot.adjourned and s.snapshot.reply_sealing and s.snapshot.sealing
    s.board_move("tactile", chess.Move.from_uci("g1f3"), 101.0)          # the sealed move mirrored on the pegs
    refused = s.board_move("sighted", chess.Move.from_uci("b8c6"), 102.0)
    assert [(type(e).__name__, getattr(e, "reason", None)) for e in refused] == [("BoardMoveRejected", "adjourned")]
    assert s.snapshot.plies == 3


def test_resumed_without_the_envelope_the_clocks_are_due_as_recorded_at_the_sealing(tmp_path):
    # I.12, I.13: play goes on from the adjourned position with the times recorded then, the sealer's clock running
    journal = tmp_path / "g.jsonl"
    s = played(("e2e4", "e7e5"), journal=journal)
    s.adjourn(10.0)
    fen = s.game_board().fen()
    s.seal({"position": fen, "commitment": commitment(fen, "Nf3", "n"), "white_remaining": 5000.0,
            "black_remaining": 4000.0}, {"written": "Nf3", "nonce": "n"}, 12.0)
    s.start_responder_clock(900.0)                          # Black, to reply, was absent (I.9 b)
    envelope_path(journal).unlink()
    s.resume_without_envelope(1000.0)
    assert s.clocks_due(1030.0) == (4970.0, 4000.0)
    assert s.snapshot.resumption_ply == 2 and s.snapshot.to_move == chess.WHITE
    assert not s.snapshot.responder_clock_started and not s.snapshot.adjourned
    s.board_move("tactile", chess.Move.from_uci("g1f3"), 1040.0)        # the move he states he sealed
    s.announce(chess.Move.from_uci("g1f3"), "Sf3", 1041.0)
    s.press_clock(chess.WHITE, 1042.0)
    s.adjourn(1100.0, session_end=1200.0)                  # adjourned again, before the session's end (I.1 b)
    assert s.sealed_at(1110.0) == 1200.0 and not s.snapshot.reply_sealing
