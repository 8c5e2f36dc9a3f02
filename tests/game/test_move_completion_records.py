"""What the rules engine records as a move is completed (FIDE Laws Appendix D.2.1, D.2.3, D.2.8).

The blind player's move is made when the tactile board shows it and it has been announced (D.2.3); a
correction before the opponent's clock is started un-makes it (D.2.8) and the corrected announcement is
judged again. A board that already shows the move when it is made is recorded as mirrored at once: the
assistant is not asked to mirror it twice.
"""

from __future__ import annotations

import chess

from blindchess.game import Player, Session
from blindchess.game.events import (
    Announce,
    AnnounceIgnored,
    AnnounceMismatch,
    CorrectionRefused,
    Mirrored,
    MirrorNeeded,
    MoveMade,
    MoveWithdrawn,
    Placed,
)

M = chess.Move.from_uci


def white_blind(time_control: str | None = "90+30") -> Session:
    """Bernd (White) is visually impaired: his board is the tactile one."""
    return Session.new(Player("Bernd Blind", True), Player("Sabine Sehend"), time_control, now=0.0)


def test_a_move_withdrawn_and_announced_again_stands_as_mirrored_on_the_sighted_board():
    # D.2.8: Bernd corrects "e4" to "d4" before pressing, then says "e4" again; the sighted board still shows
    # e2-e4 from the first mirror, so the move made again is recorded as mirrored there, half-move 1
    s = white_blind()
    s.start_clock(0.0)
    placed = s.board_move("tactile", M("e2e4"), 1.0)[1:]
    assert [(type(e), e.ply, e.uci) for e in placed] == [(Placed, 1, "e2e4")]
    made = s.announce(M("e2e4"), "e4", 2.0)
    assert [(type(e), getattr(e, "board", None), getattr(e, "ply", None)) for e in made][1:] == [
        (MoveMade, None, 1), (MirrorNeeded, "sighted", 1)]
    assert [(type(e), e.ply) for e in s.board_move("sighted", M("e2e4"), 3.0) if isinstance(e, Mirrored)] \
        == [(Mirrored, 1)]
    corrected = s.announce(M("d2d4"), "d4", 4.0, correction=True)
    assert [type(e) for e in corrected] == [Announce, MoveWithdrawn, AnnounceMismatch]
    withdrawn = corrected[1]
    assert isinstance(withdrawn, MoveWithdrawn) and (withdrawn.ply, withdrawn.uci) == (1, "e2e4")
    mismatch = corrected[2]
    assert isinstance(mismatch, AnnounceMismatch)
    assert (mismatch.ply, mismatch.announced, mismatch.placed) == (1, "d2d4", "e2e4")
    again = s.announce(M("e2e4"), "e4", 5.0, correction=True)
    made_again = [e for e in again if isinstance(e, MoveMade)]
    assert [(e.ply, e.uci, e.color, e.blind) for e in made_again] == [(1, "e2e4", "white", True)]
    assert [(e.board, e.ply) for e in again if isinstance(e, Mirrored)] == [("sighted", 1)]
    assert not [e for e in again if isinstance(e, MirrorNeeded)]
    assert s.snapshot.plies == 1


def test_an_announcement_after_the_press_is_no_correction():
    # D.2.8: once Bernd pressed his clock, announcing again his own move is a repetition; another move named
    # without a correction is out of turn; as a correction it is refused (the opponent's clock runs)
    s = white_blind()
    s.start_clock(0.0)
    s.board_move("tactile", M("e2e4"), 1.0)
    s.announce(M("e2e4"), "e4", 2.0)
    s.press_clock(chess.WHITE, 3.0)
    s.board_move("sighted", M("e2e4"), 3.5)
    s.board_move("sighted", M("e7e5"), 4.0)
    s.press_clock(chess.BLACK, 4.5)
    s.board_move("tactile", M("e7e5"), 5.0)
    s.board_move("tactile", M("g1f3"), 6.0)
    s.announce(M("g1f3"), "Sf3", 7.0)
    s.press_clock(chess.WHITE, 8.0)
    repeat = s.announce(M("g1f3"), "Sf3", 9.0)
    assert [(type(e), getattr(e, "reason", None)) for e in repeat] == [(AnnounceIgnored, "repeat")]
    other = s.announce(M("d2d4"), "d4", 10.0)
    assert [(type(e), getattr(e, "reason", None)) for e in other] == [(AnnounceIgnored, "not-turn")]
    late = s.announce(M("b1c3"), "Sc3", 11.0, correction=True)
    assert [type(e) for e in late] == [Announce, CorrectionRefused]
    refused = late[0]
    assert isinstance(refused, Announce)
    assert (refused.ply, refused.uci, refused.correction, refused.refused) == (3, "b1c3", True, True)
    assert [m.uci() for m in s.snapshot.game_moves] == ["e2e4", "e7e5", "g1f3"]


def test_the_blind_player_with_black_announces_nothing_before_white_has_moved():
    # D.2.1: Bernd (Black) announces his own moves; before White's first move there is none of his to announce
    s = Session.new(Player("Sabine Sehend"), Player("Bernd Blind", True), "90+30", now=0.0)
    s.start_clock(0.0)
    for correction in (False, True):
        early = s.announce(M("e7e5"), "e5", 1.0, correction=correction)
        assert [(type(e), getattr(e, "reason", None)) for e in early] == [(AnnounceIgnored, "not-turn")]
    s.board_move("sighted", M("e2e4"), 2.0)
    s.press_clock(chess.WHITE, 3.0)
    s.board_move("tactile", M("e2e4"), 4.0)
    placed = s.board_move("tactile", M("e7e5"), 5.0)
    assert [(type(e), e.ply, e.uci) for e in placed if isinstance(e, Placed)] == [(Placed, 2, "e7e5")]
    made = s.announce(M("e7e5"), "e5", 6.0)
    assert [(e.ply, e.uci, e.color, e.blind) for e in made if isinstance(e, MoveMade)] == [(2, "e7e5", "black", True)]
    assert [(e.board, e.ply) for e in made if isinstance(e, MirrorNeeded)] == [("sighted", 2)]


def test_no_announcement_is_taken_in_a_game_without_a_visually_impaired_player():
    s = Session.new(Player("Anna"), Player("Bert"), None, now=0.0)
    said = s.announce(M("e2e4"), "e4", 1.0)
    assert [(type(e), getattr(e, "reason", None)) for e in said] == [(AnnounceIgnored, "no-blind")]
    assert s.snapshot.plies == 0


def test_a_move_taken_back_on_its_own_board_and_made_again_there_is_no_second_move():
    # the board shows the game again: recorded as showing that half-move, nothing is made twice (D.2.3, D.2.5)
    s = Session.new(Player("Sabine Sehend"), Player("Bernd Blind", True), "90+30", now=0.0)
    s.start_clock(0.0)
    s.board_move("sighted", M("e2e4"), 1.0)
    s.take_back("sighted", 2.0)
    again = s.board_move("sighted", M("e2e4"), 3.0)
    assert [(type(e), getattr(e, "board", None), e.ply) for e in again[1:]] == [(Mirrored, "sighted", 1)]
    s.press_clock(chess.WHITE, 4.0)
    s.board_move("tactile", M("e2e4"), 5.0)
    s.board_move("tactile", M("e7e5"), 6.0)
    s.announce(M("e7e5"), "e5", 7.0)
    s.take_back("tactile", 8.0)
    placed = s.board_move("tactile", M("e7e5"), 9.0)
    assert [(type(e), getattr(e, "board", None), e.ply) for e in placed[1:]] == [(Mirrored, "tactile", 2)]
    assert [m.uci() for m in s.snapshot.game_moves] == ["e2e4", "e7e5"]
