"""The envelope opened at the resumption (FIDE Guidelines I.7-I.9), in the rules engine and as reopened from its journal.

A game that ended while it was adjourned (a draw agreed before the resumption, Guidelines I.6) is not resumed by
the opening: the sealed move is not made (I.8). Otherwise the sealed move is made on both boards and recorded as
the next half-move on each (I.9 a) — the same half-move the game records, also when the game is reopened.
"""

from __future__ import annotations

from pathlib import Path

import chess

from blindchess.game import Session
from blindchess.game.events import EnvelopeOpened, Mirrored, MoveMade
from blindchess.laws.adjournment import commitment
from tests.support.sessions import played


def adjourned(journal: Path, *, moves: tuple[str, ...] = ()) -> Session:
    """Bernd (White, blind) against Sabine, ``moves`` played on both boards; adjourned, White seals 'Sf3'."""
    s = played(moves, journal)
    t = 1.0 + len(moves)
    s.adjourn(t)
    fen = s.game_board().fen()
    s.seal({"position": fen, "commitment": commitment(fen, "Sf3", "nonce")}, {"written": "Sf3", "nonce": "nonce"},
           t + 1.0)
    return s


def test_a_game_drawn_before_the_resumption_is_not_resumed_by_opening_the_envelope(tmp_path):
    # Guidelines I.6: the players agree a draw while the envelope is kept; opened afterwards, the sealed move
    # is not made — the game is over (I.8), the result stands
    journal = tmp_path / "g.jsonl"
    s = adjourned(journal, moves=("e2e4", "e7e5"))
    s.offer_draw(chess.BLACK, 20.0)
    s.answer_draw(chess.WHITE, True, 21.0)
    events = s.open_envelope(100.0)
    assert [type(e) for e in events] == [EnvelopeOpened]
    assert s.snapshot.plies == 2 and s.snapshot.result == "1/2-1/2"
    assert [len(s.snapshot.moves(b)) for b in ("sighted", "tactile")] == [2, 2]
    s.close()
    again = Session.load(journal)            # the replay of the opening comes to the same
    assert again.snapshot.plies == 2 and again.snapshot.result == "1/2-1/2"


def test_the_sealed_move_opened_is_the_next_half_move_on_both_boards(tmp_path):
    # Guidelines I.9 a: the sealed move is made; each board records it as the half-move that follows the
    # adjourned position (here the fifth), not the last one before it
    journal = tmp_path / "g.jsonl"
    s = adjourned(journal, moves=("e2e4", "e7e5", "b1c3", "b8c6"))
    events = s.open_envelope(100.0)
    made = [e for e in events if isinstance(e, MoveMade)]
    assert [(e.ply, e.uci) for e in made] == [(5, "g1f3")]
    assert sorted((e.board, e.ply) for e in events if isinstance(e, Mirrored)) == [("sighted", 5), ("tactile", 5)]
    assert s.snapshot.plies == 5 and s.snapshot.result is None
    s.close()
    again = Session.load(journal)
    replayed = [e for e in again.events if isinstance(e, Mirrored) and e.t == 100.0]
    assert sorted((e.board, e.ply) for e in replayed) == [("sighted", 5), ("tactile", 5)]
    assert [m.uci() for m in again.snapshot.game_moves] == ["e2e4", "e7e5", "b1c3", "b8c6", "g1f3"]


def test_after_the_opening_both_boards_go_on_with_the_game(tmp_path):
    # the sealed move stands on both boards as on the game's: the reply made on both leaves them agreeing (D.2.9)
    s = adjourned(tmp_path / "g.jsonl", moves=("e2e4", "e7e5"))
    s.open_envelope(100.0)
    reply = chess.Move.from_uci("b8c6")
    s.board_move("sighted", reply, 101.0)
    s.press_clock(chess.BLACK, 101.5)
    s.board_move("tactile", reply, 102.0)
    assert s.snapshot.divergence is None and s.snapshot.plies == 4
    assert [len(s.snapshot.moves(b)) for b in ("sighted", "tactile")] == [4, 4]
    s.close()
