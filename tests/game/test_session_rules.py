"""The session's rules as they are pinned: divergence of each board against the game
(FIDE Laws D.2.9), mirrors of moves not made (D.2.1, D.2.3), corrections (D.2.8), the clock after
a ruling (D.2.9), presses (D.2.4), draw offers (Art. 9.1)."""

from __future__ import annotations

import shutil

import chess

from blindchess.game import Player, Session
from blindchess.game.boards import Parting
from blindchess.game.events import (
    Announce,
    AnnounceMismatch,
    BoardMove,
    BoardMoveRejected,
    ClockRefused,
    Mirrored,
    MoveMade,
    MoveWithdrawn,
    Press,
)
from blindchess.laws import ClockSetting
from blindchess.table.commands import BlindSays, ClockPress, SightedMove, TactileMove
from blindchess.table.events import Refused
from tests.support.paths import DATA
from tests.support.table import Run

M = chess.Move.from_uci
PROMOTION = "8/4P3/8/8/8/8/k7/7K w - - 0 1"


def black_blind(**kw) -> Session:
    """White sighted (Anna), Black visually impaired (Bert), 90 min + 30 s."""
    kw.setdefault("now", 0.0)
    return Session.new(Player("Anna"), Player("Bert", visually_impaired=True), "90+30", **kw)


def types(events) -> list[type]:
    return [type(e) for e in events]


def write_score(s: Session, who: str, entries: list[str], t: float) -> None:
    """Score ``who`` holds ``entries`` as written by hand, entry by entry."""
    for i, text in enumerate(entries):
        s.write(who, text, t, index=i)


def white_e4(s: Session, t: float = 10.0) -> None:
    s.board_move("sighted", chess.Move.from_uci("e2e4"), t)
    s.press_clock(chess.WHITE, t + 1)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), t + 2)


# -- divergence: each board against the game (D.2.9) -------------------------------------


def test_wrong_promotion_piece_on_the_sighted_board_is_a_divergence():
    # The blind player (White) promotes to a knight; the sighted board gets a queen.
    s = Session.new(Player("A", True), Player("B"), None, start_fen=PROMOTION, now=0.0)
    s.board_move("tactile", chess.Move.from_uci("e7e8n"), 1.0)
    s.announce(M("e7e8n"), "Bauer Eva acht Springer", 2.0)
    assert list(s.snapshot.game_moves) == [M("e7e8n")]
    s.board_move("sighted", chess.Move.from_uci("e7e8q"), 3.0)
    assert s.snapshot.divergence == Parting(1, ("e8",), "sighted")
    assert Mirrored not in types(s.events[-3:])
    # Both scores say knight: D.2.9 first case, the sighted board is corrected.
    write_score(s, "blind", ["e8S"], 4.0)
    write_score(s, "sighted", ["e8=N"], 4.0)
    r = s.propose_ruling()
    assert r is not None and r.kind == "correct-board" and r.fix_boards == ["a"]
    s.apply_ruling(r, 5.0)
    assert s.board("sighted").piece_at(chess.E8) == chess.Piece(chess.KNIGHT, chess.WHITE)
    assert s.snapshot.divergence is None


def test_divergence_names_the_board_that_parts_from_the_game():
    s = black_blind()
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0)
    s.board_move("tactile", chess.Move.from_uci("e2e3"), 2.0)       # wrong mirror
    assert s.snapshot.divergence == Parting(1, ("e3", "e4"), "tactile")


# -- mirrors of moves not made (D.2.1, D.2.3) ------------------------------------------------


def test_mirror_of_a_move_not_made_is_refused():
    s = black_blind()
    [ev] = s.board_move("tactile", chess.Move.from_uci("e2e4"), 1.0)   # White has not moved yet
    assert isinstance(ev, BoardMoveRejected) and ev.reason == "not-made"
    assert list(s.snapshot.moves("tactile")) == []
    white_e4(s)
    [ev] = s.board_move("sighted", chess.Move.from_uci("e7e5"), 20.0)  # the blind player has neither placed nor announced it
    assert isinstance(ev, BoardMoveRejected) and ev.reason == "not-made"
    assert list(s.snapshot.moves("sighted")) == [M("e2e4")]
    s.board_move("tactile", chess.Move.from_uci("e7e5"), 21.0)
    s.announce(M("e7e5"), "Bauer Eva fünf", 22.0)
    assert isinstance(s.board_move("sighted", chess.Move.from_uci("e7e5"), 23.0)[0], BoardMove)
    # The table says why in words, never the engine's reason code.
    run = Run(white="Anna", black="Bert", blind="black", time_control="90+30", tactile="none")
    run.table.handle(TactileMove("e2e4"), 1.0)
    [refused] = run.of(Refused)
    assert refused.what == "mirror" and "not-made" not in refused.text and "D.2.3" in refused.text


def test_wrong_mirror_is_never_reported_as_mirrored():
    s = black_blind()
    got = s.board_move("sighted", chess.Move.from_uci("e2e4"), 1.0) + s.board_move("tactile", chess.Move.from_uci("e2e3"), 2.0)
    assert Mirrored not in types(got)
    got += s.take_back("tactile", 3.0) + s.board_move("tactile", chess.Move.from_uci("e2e4"), 4.0)
    assert types(got).count(Mirrored) == 1


def test_rejected_mirror_survives_a_reopen(tmp_path):
    s = black_blind(journal=tmp_path / "g.jsonl")
    s.board_move("tactile", chess.Move.from_uci("d2d4"), 1.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 2.0)
    s.close()
    again = Session.open(tmp_path / "g.jsonl")
    assert list(again.snapshot.moves("tactile")) == [] and list(again.snapshot.game_moves) == [M("e2e4")]
    assert list(again.snapshot.journal_problems) == []


# -- D.2.8: corrections -------------------------------------------------------------------------


def test_corrected_move_is_judged_against_the_tactile_board():
    s = black_blind()
    white_e4(s)
    s.board_move("tactile", chess.Move.from_uci("e7e5"), 20.0)
    s.announce(M("e7e5"), "Bauer Eva fünf", 21.0)
    assert s.snapshot.game_moves[-1] == M("e7e5")
    s.announce(M("d7d5"), "Korrektur Bauer David fünf", 22.0, correction=True)   # D.2.8, before his press
    assert list(s.snapshot.game_moves) == [M("e2e4")]
    assert MoveWithdrawn in types(s.events[-4:]) and isinstance(s.events[-1], AnnounceMismatch)
    # The peg-board reports the corrected placement (relative to the position before his move).
    [ev, *_] = s.board_move("tactile", chess.Move.from_uci("d7d5"), 23.0)
    assert isinstance(ev, BoardMove) and ev.replaces is True
    assert list(s.snapshot.game_moves) == [M("e2e4"), M("d7d5")]
    assert list(s.snapshot.moves("tactile")) == [M("e2e4"), M("d7d5")]
    assert BoardMoveRejected not in types(s.events)


def test_repeating_the_same_announcement_is_no_withdrawal():
    # The blind player says his move again before the press: heard at the table, announced to the engine again.
    run = Run(white="Anna", black="Bert", blind="black", time_control="90+30")
    s = run.table.session
    run.table.handle(SightedMove("e2e4"), 10.0)
    run.table.handle(ClockPress(chess.WHITE), 11.0)
    run.peg_move("e2e4", 12.0)
    run.peg_move("e7e5", 20.0)
    run.table.handle(BlindSays("Bauer Eva fünf", 1.0), 21.0)
    before = len(s.events)
    run.table.handle(BlindSays("Bauer Eva fünf", 1.0), 22.0)   # said again before the press
    later = types(s.events[before:])
    assert later[0] is Announce
    assert MoveWithdrawn not in later and MoveMade not in later
    assert list(s.snapshot.game_moves) == [M("e2e4"), M("e7e5")]


# -- the clock (D.2.4) ------------------------------------------------------------------------------


def test_second_press_for_the_same_move_is_refused():
    s = black_blind()
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 5.0)
    assert isinstance(s.press_clock(chess.WHITE, 6.0)[0], Press)
    [again] = s.press_clock(chess.WHITE, 7.0)
    assert isinstance(again, ClockRefused) and again.ARTICLE == "D.2.4"
    assert s.clock.running == chess.BLACK and s.snapshot.plies_pressed == 1


def test_no_press_after_checkmate_with_auto_press():
    s = Session.new(Player("A"), Player("B", True), "5+3", now=0.0, auto_press=True)
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("f2f3"), 1.0)
    s.board_move("tactile", chess.Move.from_uci("f2f3"), 2.0)
    s.board_move("tactile", chess.Move.from_uci("e7e5"), 3.0)
    s.announce(M("e7e5"), "e5", 4.0)
    s.board_move("sighted", chess.Move.from_uci("e7e5"), 5.0)
    s.board_move("sighted", chess.Move.from_uci("g2g4"), 6.0)
    s.board_move("tactile", chess.Move.from_uci("g2g4"), 7.0)
    t = 8.0
    s.board_move("tactile", chess.Move.from_uci("d8h4"), t)
    s.announce(M("d8h4"), "Dame Hector vier", t)
    assert s.snapshot.result == "0-1"
    assert s.snapshot.plies_pressed == 3 and s.clock.running is None
    [refused] = s.press_clock(chess.BLACK, t + 1)
    assert isinstance(refused, ClockRefused) and refused.reason == "game-over" and s.clock.running is None


# -- draw offers (Art. 9.1) ---------------------------------------------------------------------------


def test_own_draw_offer_cannot_be_accepted_and_own_press_keeps_it():
    s = black_blind()
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 5.0)
    s.offer_draw(chess.WHITE, 6.0)
    s.answer_draw(chess.WHITE, True, 7.0)            # his own offer
    assert s.snapshot.result is None and s.snapshot.draw_offer == chess.WHITE
    s.press_clock(chess.WHITE, 8.0)                  # his own press: the offer stands
    assert s.snapshot.draw_offer == chess.WHITE
    s.answer_draw(chess.BLACK, True, 9.0)
    assert s.snapshot.result == "1/2-1/2"


# -- the clock after a ruling (D.2.9) -------------------------------------------------------------------


def _placed_not_made(s: Session) -> None:
    """1. e4 made and pressed, mirrored wrongly (d4); 1... e5 placed and written, never announced."""
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 10.0)
    s.press_clock(chess.WHITE, 11.0)
    s.board_move("tactile", chess.Move.from_uci("d2d4"), 12.0)
    s.board_move("tactile", chess.Move.from_uci("e7e5"), 20.0)
    write_score(s, "sighted", ["e4", "e5"], 21.0)
    write_score(s, "blind", ["e4", "e5"], 21.0)


def test_correct_board_that_moves_the_game_on_keeps_times_and_runs_the_side_to_move():
    s = black_blind()
    _placed_not_made(s)
    r = s.propose_ruling()
    assert r is not None and r.kind == "correct-board" and [m.uci() for m in r.moves] == ["e2e4", "e7e5"]
    times = (s.clock.remaining(chess.WHITE, 30.0), s.clock.remaining(chess.BLACK, 30.0))
    s.apply_ruling(r, 30.0)
    assert list(s.snapshot.game_moves) == [M("e2e4"), M("e7e5")]
    assert (s.clock.remaining(chess.WHITE, 30.0), s.clock.remaining(chess.BLACK, 30.0)) == times
    assert s.clock.running == chess.WHITE and s.snapshot.to_move == chess.WHITE
    assert isinstance(s.press_clock(chess.BLACK, 31.0)[0], ClockRefused)
    s.board_move("sighted", chess.Move.from_uci("g1f3"), 40.0)
    assert isinstance(s.press_clock(chess.WHITE, 41.0)[0], Press)
    assert s.clock.history[-1].ply == 3 and s.clock.moves_completed(chess.WHITE) == 2
    game = s.to_pgn_game()
    nodes = list(game.mainline())
    assert nodes[2].clock() == s.clock.history[-1].remaining[0]


def test_retrace_restores_the_clock_and_runs_the_side_to_move():
    s = black_blind()
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 10.0)
    s.press_clock(chess.WHITE, 11.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 12.0)
    s.board_move("tactile", chess.Move.from_uci("e7e5"), 20.0)
    s.announce(M("e7e5"), "Bauer Eva fünf", 21.0)
    s.press_clock(chess.BLACK, 22.0)
    s.board_move("sighted", chess.Move.from_uci("e7e6"), 23.0)                 # wrong mirror
    s.board_move("sighted", chess.Move.from_uci("g1f3"), 30.0)
    s.press_clock(chess.WHITE, 31.0)
    write_score(s, "sighted", ["e4", "e6"], 32.0)
    write_score(s, "blind", ["e4", "e5"], 32.0)
    r = s.propose_ruling()
    assert r is not None and r.kind == "retrace" and r.agreed_plies == 1
    at_ply_1 = s.clock.times_at(1)
    s.apply_ruling(r, 50.0)
    assert list(s.snapshot.game_moves) == [M("e2e4")] and s.snapshot.to_move == chess.BLACK
    assert s.clock.running == chess.BLACK
    assert s.clock.remaining(chess.WHITE, 50.0) == at_ply_1.remaining[0]
    assert s.clock.remaining(chess.BLACK, 50.0) == at_ply_1.remaining[1]


def test_override_runs_the_clock_for_the_side_to_move():
    s = black_blind()
    s.start_clock(0.0)
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 10.0)
    s.override([chess.Move.from_uci("e2e4"), chess.Move.from_uci("e7e5")], 20.0, clocks=ClockSetting(white=100.0, black=200.0))
    assert s.clock.running == chess.WHITE and s.snapshot.plies_pressed == 2
    assert s.clock.remaining(chess.WHITE, 20.0) == 100.0 and s.clock.remaining(chess.BLACK, 20.0) == 200.0
    s.board_move("sighted", chess.Move.from_uci("g1f3"), 25.0)
    assert isinstance(s.press_clock(chess.WHITE, 26.0)[0], Press)


# -- journals written before the split still open -------------------------------------------------


def test_a_journal_written_before_the_split_opens_exactly(tmp_path):
    path = tmp_path / "old.jsonl"
    shutil.copy(DATA / "session_before_split.jsonl", path)
    s = Session.open(path)
    assert list(s.snapshot.journal_problems) == []
    assert [m.uci() for m in s.snapshot.game_moves] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert s.board("tactile").fen() == "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert s.snapshot.divergence is None and s.snapshot.rulings[0].kind == "correct-board"
    assert list(s.snapshot.score("blind")) == ["e4", "e5", "Sf3", "Sc6"] and len(s.snapshot.touches) == 1
    # Reopened without ``now``: White's clock stands where the journal ends (the sealed move at 70 s).
    assert (s.clock.remaining(chess.WHITE, 99.0), s.clock.remaining(chess.BLACK, 99.0)) == (5412.0, 5438.0)
    assert s.clock.running == chess.WHITE and s.clock.paused and s.snapshot.draw_offer is None
    assert s.sealed_move().hidden is None and s.sealed_move(reveal=True).hidden == {"move": "d2d4"}
    # Earlier versions had no sealing procedure at the table: their sealed move is kept as a record and
    # the game goes on as it did in them (the players made the move from the envelope on the boards).
    assert not s.snapshot.envelope_sealed
    s.resume(75.0)
    s.board_move("sighted", chess.Move.from_uci("d2d4"), 80.0)
    assert isinstance(s.press_clock(chess.WHITE, 81.0)[0], Press) and s.clock.history[-1].ply == 5
    s.close()
