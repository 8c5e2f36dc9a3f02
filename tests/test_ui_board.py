"""The sighted board widget: mouse, drag, keyboard, promotion, castling, screen-reader names."""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import QPoint, Qt

from blindchess.ui.board import BoardView

pytest.importorskip("pytestqt")


@pytest.fixture
def view(qtbot):
    widget = BoardView(lang="de")
    widget.resize(480, 480)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _centre(view: BoardView, square: int) -> QPoint:
    return view.square_rect(square).center().toPoint()


def test_click_click_enters_a_legal_move(qtbot, view):
    with qtbot.waitSignal(view.moveEntered, timeout=1000) as blocker:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.G1))
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.F3))
    assert blocker.args == [chess.Move.from_uci("g1f3")]


def test_drag_enters_a_move(qtbot, view):
    with qtbot.waitSignal(view.moveEntered, timeout=1000) as blocker:
        qtbot.mousePress(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.E2))
        qtbot.mouseMove(view, _centre(view, chess.E3))
        qtbot.mouseMove(view, _centre(view, chess.E4))
        qtbot.mouseRelease(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.E4))
    assert blocker.args == [chess.Move.from_uci("e2e4")]


def test_illegal_click_is_refused_with_a_reason(qtbot, view):
    moves = []
    view.moveEntered.connect(moves.append)
    with qtbot.waitSignal(view.rejected, timeout=1000) as blocker:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.E2))
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.E5))
    assert moves == []
    assert "e2" in blocker.args[0] and "e5" in blocker.args[0]


def test_flipped_board_maps_clicks_to_the_right_squares(qtbot, view):
    view.set_flipped(True)
    assert view.square_at(view.square_rect(chess.H8).center()) == chess.H8
    assert view.square_rect(chess.H8).top() > view.square_rect(chess.H1).top()


def test_arrow_keys_walk_the_board_and_name_each_square(qtbot, view):
    view.setFocus()
    view.move_cursor(chess.E2)
    spoken = []
    view.squareDescribed.connect(spoken.append)
    qtbot.keyClick(view, Qt.Key.Key_Up)
    qtbot.keyClick(view, Qt.Key.Key_Up)
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert view.cursor == chess.D4
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Down)
    qtbot.keyClick(view, Qt.Key.Key_Down)  # stops at the edge
    assert view.cursor == chess.D1
    assert len(spoken) == 7
    assert view.accessibleName() == spoken[-1]
    assert "David" in spoken[-1] or "d1" in spoken[-1]


def test_keyboard_move_with_space_and_jump_keys(qtbot, view):
    view.setFocus()
    with qtbot.waitSignal(view.moveEntered, timeout=1000) as blocker:
        for key in "b1":
            qtbot.keyClicks(view, key)
        qtbot.keyClick(view, Qt.Key.Key_Space)
        qtbot.keyClicks(view, "c3")
        qtbot.keyClick(view, Qt.Key.Key_Return)
    assert blocker.args == [chess.Move.from_uci("b1c3")]


def test_promotion_asks_for_the_piece(qtbot, view):
    view.set_position(chess.Board("8/P6k/8/8/8/8/8/K7 w - - 0 1"))
    view.choose_promotion = lambda moves: chess.KNIGHT
    with qtbot.waitSignal(view.moveEntered, timeout=1000) as blocker:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.A7))
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.A8))
    assert blocker.args == [chess.Move.from_uci("a7a8n")]


def test_castling_by_moving_the_king_two_squares_and_onto_the_rook_in_chess960(qtbot, view):
    view.set_position(chess.Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"))
    with qtbot.waitSignal(view.moveEntered, timeout=1000) as blocker:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.E1))
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.G1))
    assert blocker.args == [chess.Move.from_uci("e1g1")]
    board960 = chess.Board("1k6/8/8/8/8/8/8/1K5R w H - 0 1", chess960=True)
    view.set_position(board960)
    with qtbot.waitSignal(view.moveEntered, timeout=1000) as blocker:
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.B1))
        qtbot.mouseClick(view, Qt.MouseButton.LeftButton, pos=_centre(view, chess.G1))
    assert board960.is_castling(blocker.args[0]) and board960.is_kingside_castling(blocker.args[0])


def test_marks_are_painted_at_any_size(qtbot, view):
    view.set_position(chess.Board(), last_move=chess.Move.from_uci("e2e4"))
    view.set_marks(lifted=chess.G1, differing={chess.E4, chess.E2})
    for size in (240, 900):
        view.resize(size, size)
        image = view.grab().toImage()
        assert image.width() >= size - 1
        centre = view.square_rect(chess.E4).topLeft().toPoint() + QPoint(3, 3)
        colour = image.pixelColor(centre)
        assert colour.red() > 150 and colour.green() < 80  # the red frame of a differing square
