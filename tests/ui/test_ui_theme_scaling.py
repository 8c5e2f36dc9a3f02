"""Low vision: everything grows with Ctrl++ up to 200 % and nothing is cut off; the "next step"
line grows too; the board does not shrink as the fonts grow. Sizes are checked at 100, 150 and 200 %."""

from __future__ import annotations

import datetime

import pytest
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QAbstractScrollArea, QAbstractSpinBox, QApplication, QComboBox, QWidget

from blindchess.ui import theme
from blindchess.ui.new_game import NewGameDialog
from tests.support.ui_window import TestClock, open_window

SCALES = (1.0, 1.5, 2.0)


def _inside_control(widget: QWidget, root: QWidget) -> bool:
    """Parts Qt builds inside a control (a combo box's line edit, a table's viewport) are sized by the control."""
    parent = widget.parentWidget()
    while parent is not None and parent is not root:
        if isinstance(parent, (QComboBox, QAbstractSpinBox, QAbstractScrollArea)):
            return True
        parent = parent.parentWidget()
    return False


def clipped(root: QWidget) -> list[str]:
    """Visible widgets under ``root`` smaller than they need: narrower or lower than their minimum size hint, or
    lower than their text needs at their width (wrapped labels)."""
    found = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisible() or widget.objectName().startswith("qt_") or _inside_control(widget, root):
            continue
        hint = widget.minimumSizeHint()
        if isinstance(widget, QComboBox):   # a combo box shows its current entry whole; its list shows every entry
            text = widget.fontMetrics().horizontalAdvance(widget.currentText()) + 2 * widget.fontMetrics().height()
            hint = QSize(min(hint.width(), text), hint.height())
        needed = widget.heightForWidth(widget.width()) if widget.hasHeightForWidth() else -1
        too_narrow = hint.isValid() and widget.width() < hint.width()
        too_low = needed > widget.height() or (needed < 0 and hint.isValid() and widget.height() < hint.height())
        if too_narrow or too_low:
            found.append(f"{type(widget).__name__} {widget.accessibleName() or widget.objectName()!r} "
                         f"{widget.width()}x{widget.height()} < {hint.width()}x{max(hint.height(), needed)}")
    return found


def _scale(app: QApplication, window, scale: float) -> None:
    window.settings.font_scale = scale
    theme.apply(app, window.settings.theme, scale)
    for _ in range(3):
        app.processEvents()


def _board_side(window) -> int:
    return min(window.board.width(), window.board.height())


@pytest.fixture
def app_window(qtbot):
    with open_window(qtbot, "de", clock=TestClock()) as opened:
        yield opened
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    theme.apply(app, "light", 1.0)


def test_ctrl_plus_grows_every_font_to_200_percent_and_the_next_step_line_with_it(app_window):
    controller, window = app_window
    app = QApplication.instance()
    window.actions["font_reset"].trigger()
    base = app.font().pointSizeF()
    assert window.next_step.font().pointSizeF() == pytest.approx(base * theme.NEXT_STEP_FACTOR, rel=0.01)
    for _ in range(5):
        window.actions["font_bigger"].trigger()
    assert window.settings.font_scale == pytest.approx(2.0)
    assert app.font().pointSizeF() == pytest.approx(base * 2, rel=0.01)
    for widget in (window.next_step, window.input, window.message, window.scores.table, window.clocks.faces[True]):
        grown = 2 * base * (theme.NEXT_STEP_FACTOR if widget is window.next_step else 1)
        assert widget.font().pointSizeF() == pytest.approx(grown, rel=0.01), widget.objectName()
    window.actions["font_reset"].trigger()
    assert window.next_step.font().pointSizeF() == pytest.approx(base * theme.NEXT_STEP_FACTOR, rel=0.01)


@pytest.mark.parametrize("scale", SCALES)
def test_the_next_step_line_is_never_cut(app_window, scale):
    controller, window = app_window
    _scale(QApplication.instance(), window, scale)
    window.next_step.setText("Anna (Weiß, Tastbrett) kündigt ihren Zug an und drückt dann die Uhr; "
                             "Bernd führt den angesagten Zug auf seinem Brett aus.")
    QApplication.instance().processEvents()
    label = window.next_step
    assert label.height() >= label.heightForWidth(label.width())


@pytest.mark.parametrize("scale", SCALES)
def test_nothing_in_the_window_is_cut_off(app_window, scale):
    """Both columns scroll when the window is too small for the fonts; nothing in them is squeezed."""
    controller, window = app_window
    _scale(QApplication.instance(), window, scale)
    assert clipped(window) == []
    for area in (window.left_area, window.right_area):
        content = area.widget()
        assert content.width() >= content.minimumSizeHint().width()
        assert content.height() >= content.minimumSizeHint().height()
        assert clipped(content) == []


def test_the_board_does_not_shrink_as_the_fonts_grow(app_window):
    controller, window = app_window
    app = QApplication.instance()
    sides = []
    for scale in SCALES:
        _scale(app, window, scale)
        sides.append(_board_side(window))
    assert sides == sorted(sides), sides       # it may grow with the text; it is never cut (test_display.py)


@pytest.mark.parametrize("look", ["light", "high-contrast"])
@pytest.mark.parametrize("scale", SCALES)
def test_the_new_game_dialog_is_never_cut_off(qtbot, look, scale):
    """Shown whole when the screen is big enough, else its fields scroll — they are never squeezed or cut."""
    app = QApplication.instance()
    theme.apply(app, look, scale)
    try:
        dialog = NewGameDialog(None, lang="de", today=datetime.date(2025, 6, 1))
        qtbot.addWidget(dialog)
        dialog.show()
        qtbot.waitExposed(dialog)
        for _ in range(5):
            app.processEvents()
        content, area = dialog._content, dialog.fields_area
        screen = dialog.screen().availableGeometry()
        assert dialog.width() <= screen.width() and dialog.height() <= screen.height()
        assert clipped(dialog) == []
        assert content.width() >= content.minimumSizeHint().width()
        assert content.height() >= content.minimumSizeHint().height()
        assert clipped(content) == []
        need = content.sizeHint()
        if need.width() + 40 < screen.width() and need.height() + 120 < screen.height():
            assert not area.verticalScrollBar().isVisible() and not area.horizontalScrollBar().isVisible()
    finally:
        theme.apply(app, "light", 1.0)
