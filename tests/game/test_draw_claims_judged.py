"""Whether a draw claim holds (FIDE Laws Art. 9.2, 9.3, 9.5): only the player having the move claims — or the
player who has made his move and not yet pressed his clock; the fiftieth move counts exactly at a hundred
half-moves; a finished game, or a claim of another kind, holds no draw; the move declared must be legal."""

from __future__ import annotations

import chess

from blindchess.game import Player, Session
from blindchess.game.events import ClaimJudged, ClockSet, GameEnd, TimeAdded

M = chess.Move.from_uci
#: Both knights out and back twice: the start position stands for the third time, White to move
REPEATS = ("g1f3", "g8f6", "f3g1", "f6g8") * 2


def test_a_draw_claim_holds_only_on_its_kind_and_only_while_the_game_goes_on():
    s = Session.new(Player("Anna"), Player("Bert"), None, now=0.0)
    s.import_moves([M(m) for m in REPEATS], 1.0)
    assert s.draw_claim_holds(chess.WHITE, "threefold")
    assert not s.draw_claim_holds(chess.WHITE, "time")          # not a draw claim (Art. 6.8)
    assert not s.draw_claim_holds(chess.WHITE, "illegal")
    s.resign(chess.BLACK, 2.0)
    assert s.snapshot.result == "1-0"
    assert not s.draw_claim_holds(chess.WHITE, "threefold")     # the game is over (Art. 5.1 b)


def test_the_fifty_move_rule_counts_exactly_a_hundred_half_moves():
    # Art. 9.3: the last 50 moves by each player without a pawn move or capture — 100 half-moves, not 99
    s = Session.new(Player("Anna"), Player("Bert"), None, now=0.0, start_fen="4k3/8/8/8/8/8/4P3/4K2R w K - 98 80")
    assert not s.draw_claim_holds(chess.WHITE, "fifty")
    assert not s.draw_claim_holds(chess.WHITE, "fifty", M("h1h2"))      # declared: 99 half-moves
    s.import_moves([M("h1h2")], 1.0)
    assert not s.draw_claim_holds(chess.BLACK, "fifty")
    assert s.draw_claim_holds(chess.BLACK, "fifty", M("e8d8"))          # declared: the hundredth
    assert not s.draw_claim_holds(chess.BLACK, "fifty", M("e8e6"))      # not a legal move


def test_the_player_who_made_the_repeating_move_claims_until_he_presses_his_clock():
    # Art. 9.2.1.2: the position has just appeared for the third time — the player who made it may claim before
    # pressing; once he pressed, his opponent has the move and he may not. A claim that does not hold gives the
    # opponent two minutes (Art. 9.5.3)
    s = Session.new(Player("Anna"), Player("Bert"), "90+30", now=0.0)
    s.start_clock(0.0)
    t = 1.0
    for uci in REPEATS[:-1]:
        mover = s.snapshot.to_move
        s.board_move("sighted", M(uci), t)
        s.press_clock(mover, t + 0.5)
        t += 1.0
    s.board_move("sighted", M("f6g8"), t)                      # Black repeats the start position a third time
    assert s.draw_claim_holds(chess.BLACK, "threefold")        # made, not pressed: he may claim
    assert not s.draw_claim_holds(chess.WHITE, "threefold", M("b1c3"))
    s.press_clock(chess.BLACK, t + 0.5)
    assert not s.draw_claim_holds(chess.BLACK, "threefold")    # pressed: White has the move
    assert s.draw_claim_holds(chess.WHITE, "threefold")
    wrong = s.claim(chess.BLACK, "threefold", t + 1.0)
    judged = [e for e in wrong if isinstance(e, ClaimJudged)]
    assert [(j.color, j.kind, j.upheld) for j in judged] == [("black", "threefold", False)]
    assert [(e.color, e.seconds) for e in wrong if isinstance(e, TimeAdded)] == [("white", 120.0)]
    assert not [e for e in wrong if isinstance(e, (GameEnd, ClockSet))]
    right = s.claim(chess.WHITE, "threefold", t + 2.0)
    assert [(e.result, e.reason) for e in right if isinstance(e, GameEnd)] == [("1/2-1/2", "threefold_repetition")]
