"""The board widget: mouse, drag, keyboard, promotion, castling; a grid of named cells to a screen reader; its commands."""

from __future__ import annotations

import chess
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAccessible
from PySide6.QtWidgets import QApplication

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


def _focused_cell(view: BoardView):
    """The accessible interface of the square a screen reader is on: the focused square, a list item."""
    cell = QAccessible.queryAccessibleInterface(view).focusChild()
    assert cell is not None and cell.role() == QAccessible.Role.ListItem
    return cell


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
    assert "Eva zwei" in blocker.args[0] and "Eva fünf" in blocker.args[0]  # named as the board is read (12.8)


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
    assert _focused_cell(view).text(QAccessible.Text.Name) == spoken[-1] == "David eins, weiße Dame"


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


def _pixels(view: BoardView, square: int, wanted) -> int:
    """How many pixels of ``square`` (as painted now) satisfy ``wanted(QColor)``."""
    image = view.grab().toImage()
    rect = view.square_rect(square).toRect()
    return sum(1 for x in range(rect.left(), rect.right()) for y in range(rect.top(), rect.bottom())
               if wanted(image.pixelColor(x, y)))


def test_marks_are_painted_at_any_size(qtbot, view):
    from blindchess.ui import theme

    view.set_position(chess.Board(), last_move=chess.Move.from_uci("e2e4"))
    view.set_marks(lifted=chess.G1, differing={chess.E4, chess.E2})
    diff = theme.board_colours()["diff"]
    red = int(diff[1:3], 16)
    for size in (240, 900):
        view.resize(size, size)
        assert view.grab().toImage().width() >= size - 1
        marked = _pixels(view, chess.E4, lambda c: abs(c.red() - red) < 40 and c.green() < 60 and c.blue() < 60)
        assert marked > view.square_rect(chess.E4).width()  # the frame of a differing square
        halo = _pixels(view, chess.E4, lambda c: min(c.red(), c.green(), c.blue()) > 240)
        assert halo > view.square_rect(chess.E4).width()             # … over its halo
        assert _pixels(view, chess.D4, lambda c: abs(c.red() - red) < 40 and c.green() < 60 and c.blue() < 60) == 0


def test_the_board_is_a_group_of_64_named_squares_in_reading_order(qtbot, view):
    """Each square a list item named like the square (nothing else), in reading order as shown; the focused
    square is the cursor's, the picked-up piece's square is selected; marks only on request (I)."""
    view.set_position(chess.Board(), last_move=chess.Move.from_uci("g1f3"))
    board = QAccessible.queryAccessibleInterface(view)
    assert board.role() == QAccessible.Role.Grouping
    assert board.text(QAccessible.Text.Name) == "Brett"
    assert len(board.text(QAccessible.Text.Description)) < 80          # one short sentence
    squares = [board.child(i) for i in range(board.childCount())]
    assert len(squares) == 64 and all(c.role() == QAccessible.Role.ListItem for c in squares)
    assert squares[0].text(QAccessible.Text.Name) == "Anna acht, schwarzer Turm"
    assert squares[63].text(QAccessible.Text.Name) == "Hector eins, weißer Turm"
    f3 = squares[5 * 8 + 5]
    assert f3.text(QAccessible.Text.Name) == "Felix drei, leer"
    assert all(c.text(QAccessible.Text.Description) == "" for c in squares)   # the name is all that is read
    said = []
    view.boardSaid.connect(said.append)
    view.setFocus()
    view.move_cursor(chess.F3)
    qtbot.keyClick(view, Qt.Key.Key_I)
    assert said == ["Felix drei, leer. letzter Zug: Zielfeld."]
    view.move_cursor(chess.E2)
    qtbot.keyClick(view, Qt.Key.Key_Space)
    cell = _focused_cell(view)
    assert cell.text(QAccessible.Text.Name) == "Eva zwei, weißer Bauer"
    state = cell.state()
    assert state.focused and state.selected
    assert QApplication.focusWidget() is view.square_widget(chess.E2)
    assert not squares[5 * 8 + 5].state().selected


def test_arrows_follow_the_orientation_shown(qtbot, view):
    """↑ goes up the board as it is shown; from Black's side ↑ from e2 is e1."""
    view.setFocus()
    view.move_cursor(chess.E2)
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert view.cursor == chess.E3
    view.set_flipped(True)
    view.move_cursor(chess.E2)
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert view.cursor == chess.E1
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert view.cursor == chess.D1
    top_left = QAccessible.queryAccessibleInterface(view).child(0)  # reading order as shown
    assert top_left.text(QAccessible.Text.Name).startswith("Hector eins")


def test_jump_keys_scans_and_requests(qtbot, view):
    """a–h a file, 1–8 a rank, Home/End, Shift + piece letter; Shift+arrows, M, L, X … ask the table."""
    board = chess.Board()
    board.push_uci("e2e4")
    view.set_position(board)
    view.setFocus()
    view.move_cursor(chess.A1)
    spoken, said, asked = [], [], []
    view.squareDescribed.connect(spoken.append)
    view.boardSaid.connect(said.append)
    view.commandRequested.connect(lambda kind, square: asked.append((kind, chess.square_name(square))))
    qtbot.keyClicks(view, "e")
    assert view.cursor == chess.E1
    qtbot.keyClicks(view, "4")
    assert view.cursor == chess.E4 and spoken[-1] == "Eva vier, weißer Bauer"
    qtbot.keyClick(view, Qt.Key.Key_End)
    assert view.cursor == chess.H4
    qtbot.keyClick(view, Qt.Key.Key_PageUp)
    assert view.cursor == chess.H8
    knights = []
    for _ in range(5):   # Shift+S (Springer): the next knight in reading order from h8, wrapping
        qtbot.keyClick(view, Qt.Key.Key_S, Qt.KeyboardModifier.ShiftModifier)
        knights.append(chess.square_name(view.cursor))
    assert knights == ["b1", "g1", "b8", "g8", "b1"]
    assert spoken[-1] == "Bella eins, weißer Springer"
    view.move_cursor(chess.E4)
    qtbot.keyClick(view, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(view, Qt.Key.Key_Up, Qt.KeyboardModifier.ShiftModifier)
    for key in (Qt.Key.Key_M, Qt.Key.Key_X, Qt.Key.Key_P, Qt.Key.Key_L, Qt.Key.Key_T, Qt.Key.Key_O):
        qtbot.keyClick(view, key)
    assert asked == [("rank", "e4"), ("file", "e4"), ("legal_moves", "e4"), ("captured", "e4"), ("pieces", "e4"),
                     ("last_move", "e4"), ("time", "e4"), ("position", "e4")]
    qtbot.keyClick(view, Qt.Key.Key_I)
    assert said[-1] == "Eva vier, weißer Bauer. letzter Zug: Zielfeld."


def test_pick_up_and_escape_are_spoken(qtbot, view):
    """Picking up and letting go are said (the window sends both through the table's policy)."""
    view.setFocus()
    view.move_cursor(chess.G1)
    spoken = []
    view.boardSaid.connect(spoken.append)
    qtbot.keyClick(view, Qt.Key.Key_Space)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert spoken == ["Aufgenommen: Gustav eins, weißer Springer", "Losgelassen: Gustav eins, weißer Springer"]
    assert view.selected is None


def test_wording_names_the_cells(qtbot, view):
    view.set_wording("nato")
    assert view.cell_name(chess.E2) == "Echo zwei, weißer Bauer"
    view.set_wording("san")
    assert view.cell_name(chess.G1) == "g1, weißer Springer"
    with pytest.raises(ValueError):
        view.set_wording("klingon")
