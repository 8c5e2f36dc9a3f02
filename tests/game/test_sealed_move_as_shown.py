"""The sealed move as the rules engine shows it (FIDE Guidelines I.1-2, I.7, I.12): before the envelope is opened
everyone sees only what the envelope shows — the move as written stays in the envelope; the arbiter's own check
reads the envelope kept beside the journal (also after the game is reopened); once opened, the move is public. An
envelope lost leaves the move unseen (I.12)."""

from __future__ import annotations

import chess

from blindchess.game import Player, Session
from blindchess.game.events import SealedMove
from blindchess.laws.adjournment import commitment
from blindchess.storage.journal import envelope_path

M = chess.Move.from_uci


def adjourned(journal) -> Session:
    """Bernd (White, blind) against Sabine after 1.e4 e5; adjourned, White to seal."""
    s = Session.new(Player("Bernd Blind", True), Player("Sabine Sehend"), "90+30", journal=journal, now=0.0)
    s.start_clock(0.0)
    s.board_move("tactile", M("e2e4"), 1.0)
    s.announce(M("e2e4"), "e4", 1.5)
    s.press_clock(chess.WHITE, 2.0)
    s.board_move("sighted", M("e2e4"), 2.5)
    s.board_move("sighted", M("e7e5"), 3.0)
    s.press_clock(chess.BLACK, 3.5)
    s.board_move("tactile", M("e7e5"), 4.0)
    s.adjourn(10.0)
    return s


def seal(s: Session, written: str) -> dict:
    fen = s.game_board().fen()
    hidden = {"written": written, "nonce": "n1"}
    events = s.seal({"position": fen, "commitment": commitment(fen, written, "n1")}, hidden, 11.0)
    shown = [e for e in events if isinstance(e, SealedMove)]          # what the sealing returns, as the record holds it
    assert [(e.sealed, e.hidden, e.by) for e in shown] == [(True, None, "white")]
    assert [(e.sealed, e.hidden) for e in s.events if isinstance(e, SealedMove)] == [(True, None)]
    return hidden


def test_the_sealed_move_is_shown_whole_only_to_the_arbiter_s_check_until_the_envelope_is_opened(tmp_path):
    journal = tmp_path / "g.jsonl"
    s = adjourned(journal)
    assert s.sealed_move() is None and s.sealed_move(reveal=True) is None
    hidden = seal(s, "Sf3")
    shown = s.sealed_move()
    assert shown is not None and shown.hidden is None and shown.sealed and shown.by == "white"
    whole = s.sealed_move(reveal=True)
    assert whole is not None and dict(whole.hidden or {}) == hidden
    s.close()
    again = Session.load(journal)                       # reopened: the journal holds no move, the envelope does
    assert again.sealed_move().hidden is None
    assert dict(again.sealed_move(reveal=True).hidden or {}) == hidden
    s = Session.open(journal, 50.0)
    s.open_envelope(100.0)
    opened = s.sealed_move()
    assert opened is not None and opened.hidden is not None and opened.hidden["written"] == "Sf3"
    assert s.sealed_move(reveal=True) == opened
    s.close()


def test_a_lost_envelope_leaves_the_sealed_move_unseen(tmp_path):
    journal = tmp_path / "g.jsonl"
    s = adjourned(journal)
    hidden = seal(s, "Sf3")
    envelope_path(journal).unlink()                     # the envelope is lost (I.12)
    assert s.envelope_problem() == "missing"
    assert s.sealed_move(reveal=True).hidden is None    # the arbiter cannot read it either
    s.resume_without_envelope(100.0)
    assert s.sealed_move().hidden is None and s.sealed_move().sealed
    assert dict(s.sealed_move(reveal=True).hidden or {}) == hidden    # what was sealed at this table stays known
    s.close()
