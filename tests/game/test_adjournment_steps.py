"""The adjournment procedure's steps in the rules engine (FIDE Guidelines I): each step refused out of its turn
and changing nothing, the sealing counting as made at the session's scheduled end (I.1 b), the sealed move that
ends the game by itself told to the arbiter only when the envelope holds it (I.10)."""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from blindchess.game import Session
from blindchess.laws.adjournment import commitment
from tests.support.sessions import played as played_game


def played(journal: Path | None, moves: tuple[str, ...], time_control: str | None = "90+30") -> Session:
    """Bernd (White, blind) against Sabine, ``moves`` made on both boards."""
    return played_game(moves, journal, time_control)


def seal(s: Session, written: str, now: float, **times: float) -> None:
    fen = s.game_board().fen()
    s.seal({"position": fen, "commitment": commitment(fen, written, "nonce"), **times},
           {"written": written, "nonce": "nonce", "lang": "en"}, now)


def test_each_step_of_the_adjournment_out_of_its_turn_is_refused(tmp_path):
    s = played(tmp_path / "g.jsonl", ("e2e4", "e7e5"))
    with pytest.raises(ValueError):
        seal(s, "Nf3", 10.0)                        # nothing to seal before the adjournment
    with pytest.raises(ValueError):
        s.open_envelope(10.0)                       # no envelope
    with pytest.raises(ValueError):
        s.start_responder_clock(10.0)
    with pytest.raises(ValueError):
        s.resume_without_envelope(10.0)
    assert s.clocks_due(10.0) is None and not s.sealed_move_ends_game()
    s.adjourn(10.0)
    with pytest.raises(ValueError):
        s.adjourn(11.0)                             # adjourned already
    with pytest.raises(ValueError):
        s.open_envelope(11.0)                       # not sealed yet
    seal(s, "Nf3", 12.0)
    with pytest.raises(ValueError):
        seal(s, "Nc3", 13.0)                        # sealed already
    with pytest.raises(ValueError):
        s.resume_without_envelope(14.0)             # the envelope is there and matches (I.12 does not apply)
    s.start_responder_clock(20.0)                   # Black, to reply, is absent (I.9 b)
    with pytest.raises(ValueError):
        s.start_responder_clock(21.0)               # his clock runs already
    s.open_envelope(30.0)
    assert s.snapshot.plies == 3 and s.snapshot.game_moves[-1] == chess.Move.from_uci("g1f3")


def test_a_finished_game_is_not_adjourned():
    s = played(None, ("f2f3", "e7e5", "g2g4", "d8h4"))
    assert s.snapshot.result == "0-1"
    with pytest.raises(ValueError):
        s.adjourn(10.0)


def test_the_sealing_counts_as_made_at_the_session_s_scheduled_end_only_when_that_is_later():
    s = played(None, ("e2e4",))
    s.adjourn(10.0, session_end=50.0)               # adjourned 40 s before the session's end (I.1 b)
    assert s.sealed_at(20.0) == 50.0
    assert s.sealed_at(60.0) == 60.0
    t = played(None, ("e2e4",))
    t.adjourn(10.0, session_end=5.0)                # an end already past: the sealing counts when made
    assert t.sealed_at(20.0) == 20.0


def test_a_sealed_move_that_mates_ends_the_game_by_itself_but_not_one_that_does_not(tmp_path):
    mate = played(tmp_path / "mate.jsonl", ("f2f3", "e7e5", "g2g4"))
    mate.adjourn(10.0)
    seal(mate, "Qh4", 11.0)                         # mate (Guidelines I.10)
    assert mate.sealed_move_ends_game()
    other = played(tmp_path / "other.jsonl", ("f2f3", "e7e5", "g2g4"))
    other.adjourn(10.0)
    seal(other, "Qg5", 11.0)
    assert not other.sealed_move_ends_game()
    illegal = played(tmp_path / "illegal.jsonl", ("f2f3", "e7e5", "g2g4"))
    illegal.adjourn(10.0)
    seal(illegal, "Qh3", 11.0)                      # not a legal move: it loses, it ends nothing by itself
    assert not illegal.sealed_move_ends_game()


def test_the_clocks_due_after_the_resumption_are_those_of_the_sealing_less_the_time_run_since(tmp_path):
    s = played(tmp_path / "g.jsonl", ("e2e4", "e7e5"))
    s.adjourn(10.0)
    seal(s, "Nf3", 12.0, white_remaining=5000.0, black_remaining=4000.0)    # the times the envelope records
    s.open_envelope(1000.0)                         # Black to reply to the sealed move, his clock started
    assert s.clocks_due(1030.0) == (5000.0, 3970.0)
    assert s.clocks_due(990.0) == (5000.0, 4000.0)  # (never more than recorded)
    unrecorded = played(tmp_path / "n.jsonl", ("e2e4", "e7e5"))
    unrecorded.adjourn(10.0)
    seal(unrecorded, "Nf3", 12.0, white_remaining=5000.0)
    unrecorded.open_envelope(1000.0)
    assert unrecorded.clocks_due(1030.0) is None
    untimed = played(tmp_path / "u.jsonl", ("e2e4", "e7e5"), time_control=None)
    untimed.adjourn(10.0)
    seal(untimed, "Nf3", 12.0, white_remaining=5000.0, black_remaining=4000.0)
    untimed.open_envelope(100.0)
    assert untimed.clocks_due(130.0) is None
