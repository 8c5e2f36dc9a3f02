"""Rules-engine behaviours the mutation sample found unpinned: which draw claim holds, also with the move declared
(FIDE Laws Art. 9.2, 9.3), a player as every version's journal wrote him, a quickplay-finish claim filed or not
(Guidelines III.4), an envelope changed or lost named so (Guidelines I.12), and lines followed that do not fit the game."""

from __future__ import annotations

import json

import chess
import pytest

from blindchess.game import Player, QuickplayFiled, Session
from blindchess.laws.adjournment import commitment


def test_a_threefold_claim_holds_on_the_third_repetition_and_a_fifty_move_claim_does_not():
    # Art. 9.2: the start position stands for the third time after 2...Ng8; no fifty moves have passed
    s = Session.new(Player("Anna"), Player("Bert"), None, now=0.0)
    s.import_moves([chess.Move.from_uci(m) for m in ("g1f3", "g8f6", "f3g1", "f6g8") * 2], 1.0)
    assert s.draw_claim_holds(chess.WHITE, "threefold") is True
    assert s.draw_claim_holds(chess.WHITE, "fifty") is False


def test_a_fifty_move_claim_holds_after_fifty_moves_and_a_threefold_claim_does_not():
    # Art. 9.3: fifty moves by each player without a capture or a pawn move; the position stood only once
    s = Session.new(Player("Anna"), Player("Bert"), None, now=0.0, start_fen="4k3/8/8/8/8/8/4P3/4K2R w K - 100 80")
    assert s.draw_claim_holds(chess.WHITE, "fifty") is True
    assert s.draw_claim_holds(chess.WHITE, "threefold") is False


def test_a_player_reads_back_with_his_assistant_or_none():
    assert Player.from_dict({"name": "Bert", "visually_impaired": True, "assistant": "Anna Hilfe"}) == \
        Player("Bert", True, "Anna Hilfe")
    assert Player.from_dict({"name": "Carla"}) == Player("Carla", False, None)      # an earlier version's line


def test_a_quickplay_claim_is_filed_only_when_nothing_stands_against_it():
    s = Session.new(Player("Anna"), Player("Bert"), "16+0", now=0.0)
    s.start_clock(0.0)
    early = [e for e in s.claim_quickplay(chess.WHITE, "cannot_win", 10.0) if isinstance(e, QuickplayFiled)]
    assert len(early) == 1 and early[0].problems and not early[0].filed          # far from the last two minutes
    assert not s.clock.paused


def test_a_threefold_claim_with_the_repeating_move_declared_holds_before_it_is_made():
    # Art. 9.2.1.1: the player declares the move that repeats the position a third time, then claims
    s = Session.new(Player("Anna"), Player("Bert"), None, now=0.0)
    s.import_moves([chess.Move.from_uci(m) for m in ("g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1")], 1.0)
    assert s.draw_claim_holds(chess.BLACK, "threefold", chess.Move.from_uci("f6g8")) is True
    assert s.draw_claim_holds(chess.BLACK, "threefold", chess.Move.from_uci("b8c6")) is False
    assert s.draw_claim_holds(chess.BLACK, "threefold", chess.Move.from_uci("f6f3")) is False     # no legal move


def test_an_envelope_changed_or_gone_is_named_so_when_the_arbiter_would_open_it(tmp_path):
    s = Session.new(Player("Anna", True), Player("Bert"), "90+30", journal=tmp_path / "g.jsonl", now=0.0)
    s.start_clock(0.0)
    s.adjourn(4.0)
    fen = s.game_board().fen()
    s.seal({"position": fen, "commitment": commitment(fen, "e4", "n")}, {"written": "e4", "nonce": "n"}, 5.0)
    envelope = tmp_path / "g.jsonl.envelope.json"
    kept = json.loads(envelope.read_text(encoding="utf-8"))
    kept["hidden"]["written"] = "d4"                        # changed after the sealing (Guidelines I.12)
    envelope.write_text(json.dumps(kept), encoding="utf-8")
    assert s.envelope_problem() == "mismatch"
    with pytest.raises(ValueError, match="mismatch"):
        s.open_envelope(100.0)
    envelope.unlink()
    assert s.envelope_problem() == "missing"
    with pytest.raises(ValueError, match="missing"):
        s.open_envelope(100.0)
    s.close()


def test_lines_followed_that_do_not_fit_the_game_are_named_beside_the_damage_read_before(tmp_path):
    path = tmp_path / "g.jsonl"
    s = Session.new(Player("Anna"), Player("Bert"), None, journal=path, now=0.0)
    s.note("the arbiter's note", 1.0)
    s.close()
    lines = path.read_bytes().split(b"\n")
    damaged = next(i for i, line in enumerate(lines) if b"the arbiter's note" in line)
    lines[damaged] = lines[damaged].replace(b"arbiter's", b"arbiter.s")            # one byte: its CRC fails
    path.write_bytes(b"\n".join(lines))
    follower = Session.load(path)
    assert list(follower.snapshot.journal_problems) == [(damaged + 1, "corrupt")]
    problems = follower.follow([(7, {"seq": 9, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e5"}),
                                (8, {"seq": 10, "type": "no-such-input", "t": 1.0})])
    assert problems == [(7, "inapplicable"), (8, "inapplicable")]
    assert list(follower.snapshot.journal_problems) == [(damaged + 1, "corrupt"), (7, "inapplicable"),
                                                        (8, "inapplicable")]


def test_an_announced_move_that_is_illegal_in_the_position_is_no_move():
    # D.2.1: the blind player's words are his move only when they name a legal move where he is to move; a
    # move the words name that is illegal there (Art. 3) is unclear, and nothing is made or waited for
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), None, now=0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    events = s.announce(chess.Move.from_uci("e7e4"), "Bauer Eva vier", 2.0)
    said = [e for e in events if e.TYPE == "announce"]
    assert said and said[0].uci is None and said[0].problem == "illegal"
    assert [e.TYPE for e in events if e.TYPE == "announce-unclear"] == ["announce-unclear"]
    assert s.snapshot.plies == 1


def test_a_touch_is_the_toucher_s_own_piece_only_when_it_is_his_colour():
    # Art. 4.3: touching one's own piece and touching the opponent's piece are different obligations (to move it,
    # to capture it); an empty square touched is neither
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), None, now=0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 1.5)
    touches = [e for when, (square, board) in enumerate([(chess.E7, "tactile"), (chess.E4, "tactile"),
                                                         (chess.E5, "tactile"), (chess.D2, "sighted")])
               for e in s.touch(square, 2.0 + when, board=board) if e.TYPE == "touch"]
    assert [(t.square, t.by, t.piece, t.own) for t in touches] == [
        ("e7", "black", "p", True), ("e4", "black", "P", False), ("e5", "black", None, False),
        ("d2", "white", "P", True)]


def test_a_board_move_line_of_an_earlier_version_is_an_own_legal_move_that_replaces_nothing():
    # journals written before a board move said its role, whether it replaced a placement (D.2.3) and whether it
    # was legal are read as what those moves were: the player's own legal move on that board
    from blindchess.game.events import BoardMove, from_json

    ev = from_json({"seq": 3, "type": "board-move", "t": 1.0, "board": "sighted", "uci": "e2e4", "san": "e4",
                    "ply": 1})
    assert isinstance(ev, BoardMove)
    assert (ev.role, ev.replaces, ev.legal) == ("own", False, True)


def test_the_sighted_player_s_board_ahead_of_the_blind_player_makes_no_move_for_him():
    # D.2.3: the blind player's move is made when he has placed it on his board and announced it; his opponent
    # moving Black's piece on her own board first (a mirror of a move not made) makes nothing
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), None, now=0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 1.5)
    refused = s.board_move("sighted", chess.Move.from_uci("e7e5"), 2.0)
    assert [(e.TYPE, getattr(e, "reason", None)) for e in refused] == [("board-move-rejected", "not-made")]
    assert [m.uci() for m in s.snapshot.game_moves] == ["e2e4"]


def test_a_flag_claimed_before_it_fell_is_not_upheld_and_after_it_fell_is():
    # Art. 6.8: a flag is fallen when the arbiter observes it or a valid claim is made — not before the time ran out
    s = Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "1+0", now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    s.press_clock(chess.WHITE, 2.0)
    early = [e for e in s.claim(chess.WHITE, "time", 30.0) if e.TYPE == "claim-judged"]
    assert [e.upheld for e in early] == [False] and s.snapshot.result is None
    late = [e for e in s.claim(chess.WHITE, "time", 63.0) if e.TYPE == "claim-judged"]
    assert [e.upheld for e in late] == [True] and s.snapshot.result is not None
