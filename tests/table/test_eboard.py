"""The sighted player's DGT e-board read by itself (blindchess/table/eboard.py).

The scenarios ``tests/scenarios/eboard_*.scn`` run through ``blindchess scenario
run`` (the CLI's own code) and the events that matter are asserted; the table
tests below drive a :class:`~blindchess.table.table.Table` with DGT events made
by the real decoder (``dgt.eboard_events``) for what no scenario shows: a mirror
set up before the move is made, the touches on request, a wrong mirror undone by
the assistant, a move taken back that stands, the window's board beside the
e-board, a retrace, a resumed journal.

Without an e-board every move on the sighted board is typed or clicked; with
``@sighted-board dgt`` scripts drive the e-board by ``eboard`` lines.
"""

from __future__ import annotations

from pathlib import Path

import chess
import pytest

from blindchess import scenario
from blindchess.pegboard import dgt
from blindchess.pegboard.tracker import Lift, Place, Snapshot
from blindchess.table.commands import ArbiterRetrace, BlindSays, EBoardInput, Finish, Request, SightedMove, TactileMove, Tick
from blindchess.table.eboard import describe_difference, touch_report
from blindchess.table.events import DeviceRequest, TableEvent
from blindchess.table.table import Table, TableSetup
from tests.support.scenario_report import SCENARIOS, run

SETTLE = 0.5


def script_lines(name: str) -> list[str]:
    return (SCENARIOS / name).read_text(encoding="utf-8").splitlines()


# ---------------------------------------------------------------------------
# The scenarios

def test_a_whole_game_with_the_sighted_side_on_the_eboard_and_no_move_typed(capsys):
    lines = script_lines("eboard_game.scn")
    assert not [line for line in lines if " sighted " in f" {line} " and not line.startswith("#")]  # nothing typed
    report = run("eboard_game.scn", capsys)
    san = "e4 Nf6 e5 d5 exd6 Nc6 dxc7 e6 Nf3 Be7 Bb5 O-O O-O a6 cxd8=Q Rxd8"
    board = chess.Board()
    expected = []
    for token in san.split():
        move = board.parse_san(token)
        expected.append(move.uci())
        board.push(move)
    assert report.moves() == expected
    white = report.of("move", color="white")
    assert [m["san"] for m in white] == ["e4", "e5", "exd6", "dxc7", "Nf3", "Bb5", "O-O", "cxd8=Q"]  # en passant,
    # capture, castling and a promotion with capture: all the sighted player's, all read from the e-board
    for move in white:
        # announced to the blind player at once (D.2.1, D.2.10 b): the move is made when it settles
        said = [e for e in report.of("said", to="blind") if e["t"] == move["t"]]
        assert said, move
    assert {e["by"] for e in report.of("touched", by="sighted")} == {"sighted"}
    assert len(report.of("touched", by="sighted")) == len(white)   # the first own piece lifted in each move
    assert [e["ply"] for e in report.of("mirrored", board="sighted")] == list(range(2, 17, 2))   # every mirror read
    assert not report.of("divergence") and not report.of("refused") and not report.shown("weicht")
    final = report.final
    assert final["boards"]["sighted"] == final["game"] == final["boards"]["tactile"]
    assert final["scores"]["blind"] == final["scores"]["sighted"]
    assert final["scores"]["sighted"][14] == "cxd8D"
    assert report.of("shown", t=0.5) and "zeigt die Stellung der Partie" in report.of("shown", t=0.5)[0]["text"]


def test_a_wrong_mirror_on_the_eboard_is_a_divergence_the_moment_the_piece_is_set_down(capsys):
    report = run("eboard_wrong_mirror.scn", capsys)
    # 15.6: the knight set down on h6 instead of f6 — judged when it has stood for the settle time
    assert report.of("divergence") == [{"t": 15.6 + SETTLE, "type": "divergence", "ply": 2}]
    assert report.of("ruling", kind="correct-board", plies=2)
    differs = report.shown("Das E-Brett weicht von der Partie ab")
    assert "f6: leer statt schwarzer Springer" in differs[0]["text"]
    assert "h6: schwarzer Springer statt leer" in differs[0]["text"]
    assert report.shown("stimmt wieder")[0]["t"] == 23.4 + SETTLE
    # a piece of the wrong kind: no legal move explains it, so no divergence, the square is shown
    wrong_piece = [e for e in differs if "c6" in e["text"]]
    assert len(wrong_piece) == 1 and "c6: schwarzer Läufer statt schwarzer Springer" in wrong_piece[0]["text"]
    assert wrong_piece[0]["t"] == 39.6 + SETTLE
    # the right mirror counts the moment its piece is set down: the pieces show the expected move (the settle
    # time is for positions no expected move explains)
    assert report.of("mirrored", board="sighted", ply=4)[0]["t"] == 42.0
    assert len(report.of("divergence")) == 1
    assert report.moves() == ["e2e4", "g8f6", "b1c3", "b8c6", "d2d4"]
    assert report.final["boards"]["sighted"] == report.final["game"]
    assert report.final["scores"]["blind"] == report.final["scores"]["sighted"] == ["e4", "Sf6", "Sc3", "Sc6", "d4"]


def test_a_wrong_promotion_piece_on_the_eboard_is_caught_at_once(capsys):
    report = run("eboard_promotion.scn", capsys)
    assert report.of("divergence") == [{"t": 6.4 + SETTLE, "type": "divergence", "ply": 1}]
    assert "e8: weiße Dame statt weißer Springer" in report.shown("Das E-Brett weicht")[0]["text"]
    assert report.of("ruling", kind="correct-board")
    assert report.moves() == ["e7e8n", "h7h6"]
    assert report.final["boards"]["sighted"] == report.final["game"]
    assert report.final["scores"]["blind"] == report.final["scores"]["sighted"] == ["e8S", "h6"]


def test_a_touch_by_the_sighted_player_is_recorded_and_told_to_the_arbiter(capsys):
    report = run("eboard_touch.scn", capsys)
    touches = report.of("touched", by="sighted")
    assert touches == [{"t": 2.0, "type": "touched", "square": "g1", "by": "sighted"}]   # not f1: not his move
    told = report.shown("Zuerst berührt")
    assert len(told) == 1 and "g1" in told[0]["text"] and "Sc3" in told[0]["text"] and "Art. 4.3" in told[0]["text"]
    assert report.moves()[0] == "b1c3"        # nothing enforced: the move stands


def test_unplugging_the_eboard_or_a_crash_neither_loses_nor_invents_a_move(capsys):
    report = run("eboard_unplug.scn", capsys)
    assert report.moves() == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4"]
    move = {e["uci"]: e["t"] for e in report.of("move")}
    assert move["g1f3"] == 22.0 + SETTLE            # read from the dump after plugging in
    assert move["f1b5"] == 40.0 + SETTLE            # the mirror and the reply, both made while unplugged
    assert report.of("mirrored", board="sighted", ply=4)[0]["t"] == 40.0 + SETTLE
    assert move["b5a4"] == 56.0 + SETTLE            # after the crash, the piece set down
    assert not report.of("refused") and not report.of("divergence") and not report.shown("weicht")
    assert report.final["scores"]["blind"] == ["e4", "e5", "Sf3", "Sc6", "Lb5", "a6", "La4"]


def test_eboard_lines_need_the_header_and_the_format_stays(capsys):
    with pytest.raises(scenario.ScriptError) as bad:
        scenario.parse("1.0 eboard L e2\n", "en")
    assert "no e-board" in str(bad.value)
    with pytest.raises(scenario.ScriptError):
        scenario.parse("@sighted-board dgt\n1.0 eboard unplug now\n", "en")
    with pytest.raises(scenario.ScriptError):
        scenario.parse("@sighted-board dgt\n1.0 eboard P e4 X\n", "en")
    script = scenario.parse("@sighted-board dgt\n1.0 eboard l E2\n1.2 eboard p e4 P\n2 eboard unplug\n3 eboard plug\n",
                            "en")
    assert [type(a).__name__ for a in script.actions] == ["EBoardLift", "EBoardPlace", "EBoardCable", "EBoardCable"]
    assert script.setup.sighted_board == "dgt"


def test_the_runner_s_eboard_speaks_dgt_through_the_real_decoder():
    device = scenario.EBoardDevice(chess.Board())
    assert device.act("L e2", 1.0) == dgt.eboard_events(["L e2"], 1.0)
    assert device.act("L e3", 1.1) == []                     # an empty square: a board reports nothing
    device.cable(False)
    assert device.act("P e4 P", 1.2) == [] and device.dump(1.3) == []
    device.cable(True)
    [snapshot] = device.dump(2.0)
    after = chess.Board()
    after.push_uci("e2e4")
    assert snapshot.pieces == after.piece_map() and snapshot.t == 2.0


# ---------------------------------------------------------------------------
# The table with an e-board

class EBoardTable:
    """A table whose sighted side plays on an e-board: DGT bytes through one real decoder."""

    def __init__(self, *, blind: str = "black", start: str | None = None, journal: Path | None = None,
                 table: Table | None = None) -> None:
        self.events: list[TableEvent] = []
        self.table = table if table is not None else Table.new(
            TableSetup(white="Sabine Sehend" if blind == "black" else "Bernd Blind",
                       black="Bernd Blind" if blind == "black" else "Sabine Sehend", blind=blind,
                       tactile="none", start_fen=start, sighted_board="dgt", settle=SETTLE), 0.0, journal)
        self.table.subscribe(self.events.append)
        self.decoder = dgt.DgtDecoder()
        self.pieces = dict(self.table.session.board("sighted").piece_map())
        self.now = 0.0

    def dump(self, t: float) -> None:
        [snapshot] = [m for m in self.decoder.feed(dgt.board_dump(self.pieces), t) if isinstance(m, Snapshot)]
        self.table.handle(EBoardInput(snapshot), t)

    def act(self, t: float, *actions: str) -> None:
        """Actions 0.1 s apart from ``t``, then time passes until they settled."""
        for i, action in enumerate(actions):
            square, piece = dgt.parse_action(action)
            if piece is None:
                self.pieces.pop(square, None)
            else:
                self.pieces[square] = piece
            for update in dgt.eboard_events([action], t + 0.1 * i, self.decoder):
                self.table.handle(EBoardInput(update), t + 0.1 * i)
        self.now = t + 0.1 * (len(actions) - 1) + SETTLE
        self.table.handle(Tick(), self.now)

    def of(self, type_: str) -> list[dict]:
        return [e.to_json() for e in self.events if e.to_json()["type"] == type_]


def test_a_mirror_set_up_before_the_move_is_made_counts_when_it_is_made():
    # The blind player (White) has not announced yet; the assistant sets 1.e4 up on the e-board
    # already. The session refuses a mirror of a move not made (D.2.3): refused, held — and it
    # counts the moment the blind player's move is made, without anybody touching the board again.
    t = EBoardTable(blind="white")
    t.dump(0.0)
    t.act(1.0, "L e2", "P e4 P")
    assert t.of("refused") and t.of("refused")[0]["what"] == "mirror"
    assert t.table.eboard is not None and t.table.eboard.held == chess.Move.from_uci("e2e4")
    assert not t.of("divergence") and not t.table.eboard.mismatch
    t.table.handle(TactileMove("e2e4"), 3.0)
    t.table.handle(BlindSays("Bauer Eva vier", 1.0), 3.5)
    assert [e["uci"] for e in t.of("move")] == ["e2e4"]
    assert [(e["board"], e["ply"]) for e in t.of("mirrored")] == [("sighted", 1)]
    assert t.table.eboard.held is None and not t.of("divergence")
    assert t.table.session.snapshot.moves("sighted") == t.table.session.snapshot.game_moves


def test_the_blind_player_hears_the_sighted_players_touches_on_request():
    t = EBoardTable()
    t.dump(0.0)
    assert touch_report(t.table.session, "de") == "Sabine Sehend hat in diesem Zug keine Figur berührt."
    t.act(1.0, "L g1", "P g1 N")              # touched, put back
    t.act(3.0, "L b1", "P c3 N")              # another piece moved
    t.table.handle(Request("touched", "blind"), 6.0)
    t.table.handle(Finish(), 6.0)
    said = [e["text"] for e in t.of("said") if e["to"] == "blind"]
    assert "Sabine Sehend hat berührt: weißer Springer auf Gustav eins." in said
    assert [ev.square for ev in t.table.session.snapshot.touches if ev.board == "sighted"] == ["g1"]   # journaled


def test_a_wrong_mirror_undone_by_the_assistant_and_made_right():
    # 1.e4 (sighted White) e5 (blind Black, announced); the assistant mirrors e7e6, sees it, slides back.
    t = EBoardTable()
    t.dump(0.0)
    t.act(1.0, "L e2", "P e4 P")
    t.table.handle(TactileMove("e2e4"), 2.5)          # the blind player mirrors 1.e4 on his board
    t.table.handle(TactileMove("e7e5"), 3.0)
    t.table.handle(BlindSays("Eva fünf", 1.0), 3.2)
    t.act(5.0, "L e7", "P e6 p")
    assert [e["ply"] for e in t.of("divergence")] == [2]
    t.act(8.0, "L e6", "P e7 p")              # undone by the one who set it
    assert t.table.session.snapshot.divergence is None
    t.act(10.0, "L e7", "P e5 p")
    assert [e["ply"] for e in t.of("mirrored") if e["board"] == "sighted"] == [2]
    assert t.table.session.snapshot.moves("sighted") == t.table.session.snapshot.game_moves


def test_a_move_made_and_taken_back_on_the_eboard_stands():
    t = EBoardTable()
    t.dump(0.0)
    t.act(1.0, "L g1", "P f3 N")
    t.act(3.0, "L f3", "P g1 N")              # D.2.5, Art. 4.6: released on f3, the move is made
    assert [e["uci"] for e in t.of("move")] == ["g1f3"]
    assert [e for e in t.of("shown") if "ist gemacht und gilt" in e["text"]]
    t.act(5.0, "L g1", "P f3 N")              # set up again: nothing new happens
    assert [e["uci"] for e in t.of("move")] == ["g1f3"] and not t.of("refused")


def test_the_windows_board_still_works_beside_the_eboard():
    t = EBoardTable()
    t.dump(0.0)
    t.table.handle(SightedMove("e2e4"), 1.0)         # typed in the window (e.g. the e-board was not ready)
    assert [e["uci"] for e in t.of("move")] == ["e2e4"]
    t.table.handle(Tick(), 2.0)
    eboard = t.table.eboard
    assert eboard is not None and eboard.target().fen() == t.table.session.game_board().fen()
    t.act(3.0, "L e2", "P e4 P")              # the pieces follow: no second move, nothing refused
    assert [e["uci"] for e in t.of("move")] == ["e2e4"] and not t.of("refused")
    assert eboard.in_sync and not eboard.mismatch
    t.act(5.0, "L d2", "P d3 P")              # anything else the e-board shows is named square by square
    assert set(eboard.mismatch) == {"d2", "d3"} and not t.of("refused")
    assert [e for e in t.of("shown") if "d3: weißer Bauer statt leer" in e["text"]]
    t.act(7.0, "L d3", "P d2 P")
    assert not eboard.mismatch and [e for e in t.of("shown") if "stimmt wieder" in e["text"]]


def test_after_a_retrace_the_old_position_on_the_eboard_is_no_move():
    t = EBoardTable()
    t.dump(0.0)
    t.act(1.0, "L e2", "P e4 P")
    t.table.handle(TactileMove("e2e4"), 2.5)          # the blind player mirrors 1.e4 on his board
    t.table.handle(TactileMove("e7e5"), 3.0)
    t.table.handle(BlindSays("Eva fünf", 1.0), 3.2)
    t.act(5.0, "L e7", "P e5 p")
    t.table.handle(ArbiterRetrace(1), 8.0)            # the arbiter's own decision: back to 1.e4
    t.table.handle(Tick(), 9.0)
    assert t.table.eboard is not None and t.table.eboard.adjusting
    assert set(t.table.eboard.mismatch) == {"e5", "e7"}
    assert [e["uci"] for e in t.of("move")] == ["e2e4", "e7e5"]        # e5 on the e-board is not made again
    t.act(10.0, "L e5", "P e7 p")
    assert not t.table.eboard.adjusting and not t.table.eboard.mismatch
    assert t.table.game.moves("sighted") == t.table.game.game_moves == (chess.Move.from_uci("e2e4"),)


def test_a_resumed_game_keeps_its_eboard_and_asks_it_for_a_dump(tmp_path):
    journal = tmp_path / "game.jsonl"
    t = EBoardTable(journal=journal)
    t.dump(0.0)
    t.act(1.0, "L e2", "P e4 P")
    t.table.abandon()                          # the program dies
    resumed = Table.resume(journal, 5.0)       # the setup from the journal's note
    events: list[TableEvent] = []
    resumed.subscribe(events.append)
    assert resumed.setup.sighted_board == "dgt" and resumed.eboard is not None
    assert DeviceRequest(5.0, "eboard", "snapshot") in events
    resumed.close()


def test_a_place_without_a_piece_asks_for_a_dump_and_a_lift_is_a_lift():
    t = EBoardTable()
    t.table.handle(EBoardInput(Place(1.0, chess.E4)), 1.0)
    assert DeviceRequest(1.0, "eboard", "snapshot") in t.events
    t.table.handle(EBoardInput(Lift(2.0, chess.E2)), 2.0)
    assert [e["square"] for e in t.of("touched")] == ["e2"]


def test_without_an_eboard_its_events_are_ignored_and_a_bad_choice_is_refused():
    table = Table.new(TableSetup(blind="white", tactile="none"), 0.0)
    assert table.eboard is None
    table.handle(EBoardInput(Lift(1.0, chess.E2)), 1.0)
    assert not table.session.snapshot.touches
    with pytest.raises(ValueError):
        TableSetup(sighted_board="usb")


def test_differences_are_named_square_by_square():
    board = chess.Board()
    shown = dict(board.piece_map())
    del shown[chess.E7]
    shown[chess.E5] = chess.Piece(chess.BISHOP, chess.BLACK)
    assert describe_difference(shown, board, "en") == ("e7: empty instead of black pawn",
                                                       "e5: black bishop instead of empty")


def test_a_crash_before_the_eboard_was_set_right_after_a_retrace_brings_no_move_back(tmp_path):
    journal = tmp_path / "game.jsonl"
    t = EBoardTable(journal=journal)
    t.dump(0.0)
    t.act(1.0, "L e2", "P e4 P")
    t.table.handle(TactileMove("e2e4"), 2.5)
    t.table.handle(TactileMove("e7e5"), 3.0)
    t.table.handle(BlindSays("Eva fünf", 1.0), 3.2)
    t.act(5.0, "L e7", "P e5 p")
    t.table.handle(ArbiterRetrace(1), 8.0)
    t.table.abandon()                                           # the program dies before e5 is taken back
    resumed = EBoardTable(table=Table.resume(journal, 9.0))
    resumed.pieces = dict(t.pieces)
    resumed.dump(9.0)
    resumed.table.handle(Tick(), 9.5)
    eboard = resumed.table.eboard
    assert eboard is not None and eboard.adjusting and set(eboard.mismatch) == {"e5", "e7"}
    assert list(resumed.table.session.snapshot.game_moves) == [chess.Move.from_uci("e2e4")] and not resumed.of("move")
    resumed.act(10.0, "L e5", "P e7 p")
    assert not eboard.adjusting and not eboard.mismatch and not resumed.of("move")
    t.table.close()
    resumed.table.close()


def test_on_connect_a_board_not_set_up_right_is_shown_square_by_square_until_it_is():
    t = EBoardTable()
    del t.pieces[chess.D1]                                  # the white queen is still in the box
    t.pieces[chess.E4] = chess.Piece(chess.PAWN, chess.WHITE)   # and a pawn stands on e4 besides e2's
    t.dump(0.0)
    t.table.handle(Tick(), 0.5)
    eboard = t.table.eboard
    assert eboard is not None and eboard.in_sync is False and eboard.mismatch == ("e4", "d1")
    assert eboard.differences == ("e4: weißer Bauer statt leer", "d1: leer statt weiße Dame")
    assert not t.of("move") and not t.of("touched")
    t.act(2.0, "L e4")
    t.act(3.0, "P d1 Q")
    assert eboard.in_sync and not eboard.mismatch
    assert [e["text"] for e in t.of("shown")][-1] == "Das E-Brett stimmt wieder mit der Partie überein."
    t.act(5.0, "L e2", "P e4 P")                            # and play begins
    assert [e["uci"] for e in t.of("move")] == ["e2e4"]
