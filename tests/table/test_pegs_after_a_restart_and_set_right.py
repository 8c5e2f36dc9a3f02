"""The blind player's pegs across a restart and while they are set right (FIDE Laws D.2.2, D.2.3, D.2.9): a
peg out of place found after a restart is told to him as any mismatch (not as a board to set right after a
ruling); his next lift in his own move is a touch."""

from __future__ import annotations

import chess

from blindchess.base import tr
from blindchess.table.commands import Answers, ArbiterApply, BlindSays, ClockPress, PegLine, Resigns, SightedMove, Tick
from blindchess.table.events import DeviceRequest, Shown, Speak, Touched
from tests.support.table import Run, blind_move


def _two_moves_then_restart(tmp_path, *, extra_peg: chess.Square | None) -> tuple[Run, float]:
    run = Run(journal=tmp_path / "g.jsonl", time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(ClockPress(chess.WHITE), 3.0)
    run.handle(SightedMove("e7e5"), 5.0)
    run.peg_move("e7e5", 6.0)
    run.handle(ClockPress(chess.BLACK), 8.0)
    run.handle(Tick(), 10.0)
    if extra_peg is not None:
        run.pegs |= chess.BB_SQUARES[extra_peg]       # a peg put in a hole while the program was down
    run.crash_and_resume(20.0)
    return run, 20.0


def test_a_peg_out_of_place_after_a_restart_is_told_as_a_mismatch(tmp_path):
    run, since = _two_moves_then_restart(tmp_path, extra_peg=chess.H3)
    run.handle(Tick(), 25.0)
    run.handle(Tick(), 40.0)
    spoken = [s.text for s in run.of(Speak) if s.t >= since and s.to == "blind"]
    assert tr("table.tactile_mismatch", "de", squares="Hector drei") in spoken
    assert not [s for s in spoken if s.startswith(tr("table.set_right", "de", squares="").rstrip(" ."))]
    assert tr("table.tactile_mismatch_shown", "de", squares="h3") in [s.text for s in run.of(Shown)]
    assert run.table.tactile.mismatch == ("h3",)
    # taken out again: the boards agree, and his next lift is a touch (D.2.2)
    run.lift("h3", 41.0)
    run.handle(Tick(), 45.0)
    assert run.table.tactile.mismatch == ()
    touched = len(run.of(Touched))
    run.lift("g1", 50.0)
    assert [t.square for t in run.of(Touched)[touched:]] == ["g1"]


def test_pegs_adjusted_after_a_restart_are_neither_touches_nor_told(tmp_path):
    """Art. 4.2.1: "j'adoube", then pegs adjusted — after a restart as before it: nothing is a touch, and the pegs
    out of place on the way are shown only (he is adjusting them), never read to him as a board to set right."""
    run, since = _two_moves_then_restart(tmp_path, extra_peg=None)
    run.handle(Tick(), 25.0)
    run.handle(BlindSays("j'adoube"), 26.0)
    run.place("h3", 27.0)                      # a peg set into a hole on the way
    run.handle(Tick(), 30.0)
    run.lift("h3", 31.0)
    run.handle(Tick(), 40.0)
    spoken = [s.text for s in run.of(Speak) if s.t >= 26.0 and s.to == "blind"]
    assert not [s for s in spoken if s.startswith("Tastbrett") or s.startswith("Bitte das Tastbrett")]
    assert tr("table.tactile_mismatch_shown", "de", squares="h3") in [s.text for s in run.of(Shown)]
    assert not [t for t in run.of(Touched) if t.t >= since]


def test_j_adoube_while_the_pegs_are_out_of_place_is_no_board_to_set_right():
    """Pegs out of place before the first move are told as a mismatch; "j'adoube" (Art. 4.2.1) then makes his
    adjusting quiet — the squares on the way are shown, never read out as a board to set right after a ruling."""
    run = Run(time_control="90+30", blind="white")
    run.place("h3", 1.0)
    run.handle(Tick(), 3.0)
    assert run.table.tactile.mismatch == ("h3",)
    run.handle(BlindSays("j'adoube"), 4.0)
    run.place("a3", 5.0)
    run.handle(Tick(), 7.0)
    assert run.table.tactile.mismatch == ("a3", "h3")
    run.lift("a3", 8.0)
    run.lift("h3", 8.5)
    run.handle(Tick(), 12.0)
    spoken = [s.text for s in run.of(Speak) if s.to == "blind"]
    assert [s for s in spoken if "Tastbrett" in s] == [tr("table.tactile_mismatch", "de", squares="Hector drei")]
    assert run.table.tactile.mismatch == () and not run.of(Touched)


def test_the_table_is_idle_only_when_the_pegs_have_settled():
    """The front ticks the table until it is idle: a peg just set waits for its settle time before it is judged."""
    run = Run(time_control="90+30", blind="white", settle=0.5)
    run.handle(Tick(), 10.0)
    assert run.table.idle_at(10.0) == 10.0
    run.place("h3", 10.0)
    assert run.table.idle_at(10.0) == 10.5
    assert run.table.tactile.mismatch == ()
    run.handle(Tick(), run.table.idle_at(10.0))
    assert run.table.tactile.mismatch == ("h3",)


def test_after_a_restart_the_peg_board_is_told_the_position_it_should_show(tmp_path):
    run, since = _two_moves_then_restart(tmp_path, extra_peg=None)
    requests = [(r.what, r.fen) for r in run.of(DeviceRequest) if r.t >= since and r.device == "pegboard"]
    fen = run.table.session.game_board().fen()
    assert ("snapshot", None) in requests and ("expect", fen) in requests


# ---------------------------------------------------------------- a D.2.9 ruling across a restart
def _ruled_on_the_pegs(tmp_path) -> Run:
    """1.e4 e5 mirrored wrongly on the pegs (e7–e6): the arbiter rules the tactile board corrected (D.2.9)."""
    run = Run(journal=tmp_path / "g.jsonl", time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(ClockPress(chess.WHITE), 3.0)
    run.handle(SightedMove("e7e5"), 5.0)
    run.peg_move("e7e6", 6.0)                  # the wrong mirror
    run.handle(Tick(), 8.0)
    run.handle(ArbiterApply(), 10.0)
    run.handle(Tick(), 40.0)
    return run


def _spoken_to_blind(run: Run, since: float) -> list[str]:
    return [s.text for s in run.of(Speak) if s.t >= since and s.to == "blind"]


def test_a_restart_while_the_pegs_are_set_right_after_a_ruling_goes_on_setting_them_right(tmp_path):
    run = _ruled_on_the_pegs(tmp_path)
    run.crash_and_resume(50.0)
    run.handle(Tick(), 52.0)
    run.handle(Tick(), 70.0)
    squares = "Eva fünf schwarzer Bauer, Eva sechs leer"
    assert tr("table.set_right", "de", squares=squares) in _spoken_to_blind(run, 50.0)
    run.lift("e6", 71.0)                       # setting them right: no touch
    run.place("e5", 71.3)
    run.handle(Tick(), 80.0)
    assert tr("table.tactile_in_sync", "de") in _spoken_to_blind(run, 71.0)
    assert not [t for t in run.of(Touched) if t.t >= 50.0]
    run.lift("g1", 81.0)                       # then his lift in his move is a touch again (D.2.2)
    assert [t.square for t in run.of(Touched) if t.t >= 50.0] == ["g1"]


def _set_right_then(run: Run) -> None:
    run.lift("e6", 41.0)
    run.place("e5", 41.3)
    run.handle(Tick(), 45.0)
    assert run.table.tactile.mismatch == ()


def test_a_restart_after_a_move_made_since_the_ruling_sets_nothing_right(tmp_path):
    run = _ruled_on_the_pegs(tmp_path)
    _set_right_then(run)
    blind_move(run, "g1f3", "Springer Felix drei", 50.0)
    run.pegs |= chess.BB_SQUARES[chess.H3]     # a peg put in a hole while the program was down
    run.crash_and_resume(60.0)
    run.handle(Tick(), 62.0)
    run.handle(Tick(), 80.0)
    spoken = _spoken_to_blind(run, 60.0)
    assert tr("table.tactile_mismatch", "de", squares="Hector drei") in spoken
    assert not [s for s in spoken if s.startswith("Bitte das Tastbrett")]


def test_a_restart_after_a_touch_since_the_ruling_sets_nothing_right(tmp_path):
    run = _ruled_on_the_pegs(tmp_path)
    _set_right_then(run)
    run.lift("g1", 50.0)                       # his touch (D.2.2): the ruling is done with
    run.place("g1", 50.5)
    assert [t.square for t in run.of(Touched) if t.t >= 50.0] == ["g1"]
    run.pegs |= chess.BB_SQUARES[chess.H3]
    run.crash_and_resume(60.0)
    run.handle(Tick(), 62.0)
    run.handle(Tick(), 80.0)
    spoken = _spoken_to_blind(run, 60.0)
    assert tr("table.tactile_mismatch", "de", squares="Hector drei") in spoken
    assert not [s for s in spoken if s.startswith("Bitte das Tastbrett")]


def test_the_peg_board_is_told_each_position_it_should_show_once():
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(ClockPress(chess.WHITE), 3.0)
    run.handle(SightedMove("e7e5"), 5.0)
    run.peg_move("e7e5", 6.0)
    run.handle(ClockPress(chess.BLACK), 8.0)
    run.handle(Tick(), 10.0)
    told = [r.fen for r in run.of(DeviceRequest) if r.device == "pegboard" and r.what == "expect"]
    board = chess.Board()
    wanted = [board.fen()]
    for uci in ("e2e4", "e7e5"):
        board.push_uci(uci)
        wanted.append(board.fen())
    assert told == wanted


def test_a_slip_of_the_tongue_corrected_at_once_leaves_the_pegs_alone():
    """D.2.3: the pegs show e2–e4, he says "David vier": told that announcement and pegs differ; he says "Eva vier"
    at once — the move is made, and the pegs, which were right all along, are never said to be wrong."""
    run = Run(time_control="90+30", blind="white")
    run.peg_move("e2e4", 1.0)
    run.handle(Tick(), 2.0)                    # the pegs have settled: they clearly show e2–e4
    run.handle(BlindSays("Bauer David vier"), 2.5)
    run.handle(Tick(), 3.5)
    assert run.table.game.plies == 0
    run.handle(BlindSays("Bauer Eva vier"), 4.0)
    run.handle(Tick(), 10.0)
    assert run.table.game.game_moves == (chess.Move.from_uci("e2e4"),)
    assert run.table.tactile.mismatch == ()
    assert not [s for s in _spoken_to_blind(run, 0.0) if s.startswith("Tastbrett")]
    assert not [s for s in run.of(Shown) if s.text.startswith("Das Tastbrett zeigt eine andere Stellung")]


def test_a_placement_taken_back_before_the_announcement_is_no_move():
    """D.2.3: the move is made when the pegs show it and it is announced. Set up and put back before he announces:
    the tactile board is back at the start, so the announcement alone makes nothing — until the pegs show it again."""
    run = Run(time_control="90+30", blind="white")
    run.peg_move("e2e4", 1.0)
    run.handle(Tick(), 2.0)
    assert run.table.session.board("tactile").move_stack == [chess.Move.from_uci("e2e4")]
    run.peg_move("e4e2", 3.0)                  # put back
    run.handle(Tick(), 4.0)
    assert run.table.session.board("tactile").move_stack == []
    run.handle(BlindSays("Bauer Eva vier"), 5.0)
    run.handle(Tick(), 10.0)
    assert run.table.game.plies == 0
    run.peg_move("e2e4", 11.0)                 # set up again: now the announced move is made
    run.handle(Tick(), 12.0)
    assert run.table.game.game_moves == (chess.Move.from_uci("e2e4"),)


def test_a_mirror_set_up_too_early_and_put_back_undoes_nothing():
    """His reply mirrored before the opponent made it is refused (D.2.3); put back, nothing of the game is undone."""
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(ClockPress(chess.WHITE), 3.0)
    run.peg_move("e7e5", 4.0)                  # too early: Black has not moved
    run.handle(Tick(), 5.0)
    run.peg_move("e5e7", 6.0)                  # put back
    run.handle(Tick(), 7.0)
    assert run.table.session.board("tactile").move_stack == [chess.Move.from_uci("e2e4")]
    assert run.table.game.game_moves == (chess.Move.from_uci("e2e4"),)
    run.handle(SightedMove("e7e5"), 8.0)
    run.peg_move("e7e5", 9.0)
    run.handle(Tick(), 10.0)
    assert run.table.session.board("tactile").move_stack == [chess.Move.from_uci(u) for u in ("e2e4", "e7e5")]
    assert run.table.game.divergence is None


def test_after_the_game_a_lifted_peg_is_no_touch():
    run = Run(time_control="90+30", blind="white")
    run.handle(Resigns("blind"), 1.0)
    run.handle(Answers("blind", "yes"), 1.5)
    assert run.table.game.result == "0-1"
    run.lift("g1", 3.0)
    run.place("g1", 3.3)
    run.handle(Tick(), 5.0)
    assert run.of(Touched) == []


def test_a_peg_line_that_cannot_be_so_asks_the_board_what_it_shows():
    """A peg lifted from an empty hole or set into a full one: events were lost — the peg-board is asked for a
    snapshot, and nothing is read into the line."""
    for line in ("P e1", "L e4"):
        run = Run(time_control="90+30", blind="white")
        since = len(run.events)
        run.table.handle(PegLine(line), 1.0)
        asked = [e for e in run.events[since:] if isinstance(e, DeviceRequest)]
        assert [(e.device, e.what) for e in asked] == [("pegboard", "snapshot")]
        assert not run.of(Touched) and run.table.game.plies == 0


def test_a_peg_lifted_while_the_opponent_is_to_move_is_no_touch():
    """D.2.2: a touch counts in his own move only; between his move and the opponent's reply a lift is nothing."""
    run = Run(time_control="90+30", blind="white")
    blind_move(run, "e2e4", "Bauer Eva vier", 1.0)
    run.handle(SightedMove("e2e4"), 2.5)
    run.handle(ClockPress(chess.WHITE), 3.0)
    touched = len(run.of(Touched))
    run.lift("g1", 5.0)
    run.place("g1", 5.3)
    run.handle(Tick(), 7.0)
    assert run.of(Touched)[touched:] == []
