"""The sighted board: painted, crisp at any size, usable by mouse, keyboard and screen reader.

Squares, coordinates and marks are painted with QPainter; the pieces are
python-chess's SVG pieces rendered through QtSvg, so the board stays sharp at
every size and under font scaling. Marks:

* last move — both squares tinted;
* lifted — the square whose peg is out of its hole on the tactile board (D.2.2);
* differing — squares where the tactile board disagrees (D.2.9), a thick red frame;
* selection — the first square of a click-click or keyboard move;
* cursor — the keyboard focus square, a thick dashed frame.

Keyboard: the arrow keys move the cursor square by square; each square is
described as "Eva vier, weißer Bauer" (``phonetic.describe_square``), set as the
widget's accessible name and announced to the screen reader, and offered to the
speaker through :attr:`BoardView.squareDescribed`. Space or Enter picks up the
piece on the cursor square and puts it down on the next; Escape drops the
selection. A letter a–h followed by a digit 1–8 jumps to that square.
"""

from __future__ import annotations

import functools

import chess
import chess.svg
from PySide6.QtCore import QByteArray, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QSizePolicy, QWidget

from . import a11y
from .text import t

#: Colours of the normal and the high-contrast theme.
PALETTES: dict[str, dict[str, str]] = {
    "normal": {
        "light": "#f0d9b5", "dark": "#b58863", "coord": "#333333", "background": "#ffffff",
        "last": "#cdd26a", "lifted": "#1e6fd9", "diff": "#d01010", "select": "#2a9d3a", "cursor": "#0a0a0a",
    },
    "high-contrast": {
        "light": "#ffffff", "dark": "#6e6e6e", "coord": "#ffff00", "background": "#000000",
        "last": "#ffd700", "lifted": "#00c0ff", "diff": "#ff2020", "select": "#00ff00", "cursor": "#ff00ff",
    },
}


@functools.cache
def _renderer(symbol: str) -> QSvgRenderer:
    """One SVG renderer per piece, built on first use (python-chess's piece set)."""
    svg = chess.svg.piece(chess.Piece.from_symbol(symbol))
    return QSvgRenderer(QByteArray(svg.encode()))


def describe_square(board: chess.Board, square: int, lang: str) -> str:
    """"Eva vier, weißer Bauer" — worded by the move language (``phonetic.describe_square``)."""
    from .. import phonetic  # imported on first use: keeps the window's start-up short

    return phonetic.describe_square(board, square, lang)


class BoardView(QWidget):
    """A chess board widget; emits :attr:`moveEntered` for each move made on it."""

    moveEntered = Signal(object)        # chess.Move (legal on .board)
    squareDescribed = Signal(str)       # the cursor square in words, for the speaker
    rejected = Signal(str)              # why a click did not make a move

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de", interactive: bool = True) -> None:
        super().__init__(parent)
        self.lang = lang
        self.interactive = interactive
        self.board = chess.Board()
        self.flipped = False
        self.theme = "normal"
        self.last_move: chess.Move | None = None
        self.lifted: int | None = None
        self.differing: set[int] = set()
        self.selected: int | None = None
        self.cursor: int = chess.E2
        self._drag_from: int | None = None
        self._drag_pos: QPointF | None = None
        self._pending_file: int | None = None
        #: Chooses the promotion piece for a pawn reaching the last rank; default queen.
        self.choose_promotion = lambda moves: chess.QUEEN
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus if interactive else Qt.FocusPolicy.TabFocus)
        self.setMinimumSize(240, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(False)
        self._update_accessible(announce=False)

    # ------------------------------------------------------------------ state
    def set_position(self, board: chess.Board, *, last_move: chess.Move | None = None) -> None:
        """Show ``board`` (a copy is kept); the last move defaults to the board's own."""
        self.board = board.copy(stack=False)
        self.last_move = last_move if last_move is not None else (board.peek() if board.move_stack else None)
        self.selected = None
        self.update()
        self._update_accessible(announce=False)

    def set_marks(self, *, lifted: int | None = None, differing: set[int] | frozenset[int] = frozenset()) -> None:
        """Mark the lifted square (tactile board) and the squares that differ between the boards."""
        self.lifted = lifted
        self.differing = set(differing)
        self.update()

    def set_flipped(self, flipped: bool) -> None:
        self.flipped = flipped
        self.update()

    def set_theme(self, theme: str) -> None:
        self.theme = theme if theme in PALETTES else "normal"
        self.update()

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self._update_accessible(announce=False)

    def describe_cursor(self) -> str:
        return describe_square(self.board, self.cursor, self.lang)

    # --------------------------------------------------------------- geometry
    def _layout(self) -> tuple[float, float, float]:
        """(left, top, square size): the board square, with a margin for coordinates."""
        side = min(self.width(), self.height())
        margin = max(14.0, side * 0.05)
        size = (side - 2 * margin) / 8
        left = (self.width() - 8 * size) / 2
        top = (self.height() - 8 * size) / 2
        return left, top, size

    def square_rect(self, square: int) -> QRectF:
        left, top, size = self._layout()
        file, rank = chess.square_file(square), chess.square_rank(square)
        col, row = (7 - file, rank) if self.flipped else (file, 7 - rank)
        return QRectF(left + col * size, top + row * size, size, size)

    def square_at(self, pos: QPointF) -> int | None:
        left, top, size = self._layout()
        col, row = int((pos.x() - left) // size), int((pos.y() - top) // size)
        if not (0 <= col < 8 and 0 <= row < 8) or pos.x() < left or pos.y() < top:
            return None
        file, rank = (7 - col, row) if self.flipped else (col, 7 - row)
        return chess.square(file, rank)

    # ---------------------------------------------------------------- painting
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        colours = {k: QColor(v) for k, v in PALETTES[self.theme].items()}
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), colours["background"])
        left, top, size = self._layout()
        for square in chess.SQUARES:
            rect = self.square_rect(square)
            light = (chess.square_file(square) + chess.square_rank(square)) % 2 == 1
            painter.fillRect(rect, colours["light" if light else "dark"])
            if self.last_move and square in (self.last_move.from_square, self.last_move.to_square):
                tint = QColor(colours["last"])
                tint.setAlpha(170)
                painter.fillRect(rect, tint)
        self._paint_coordinates(painter, colours["coord"], left, top, size)
        for square, piece in self.board.piece_map().items():
            if square == self._drag_from and self._drag_pos is not None:
                continue
            _renderer(piece.symbol()).render(painter, self.square_rect(square))
        frame = max(2.0, size * 0.06)
        if self.lifted is not None:
            self._frame(painter, self.lifted, colours["lifted"], frame, Qt.PenStyle.DashLine)
        for square in self.differing:
            self._frame(painter, square, colours["diff"], frame * 1.3, Qt.PenStyle.SolidLine)
            rect = self.square_rect(square)
            painter.setPen(QPen(colours["diff"], frame * 0.6))
            painter.drawLine(rect.topLeft() + QPointF(frame, frame), rect.bottomRight() - QPointF(frame, frame))
        if self.selected is not None:
            self._frame(painter, self.selected, colours["select"], frame, Qt.PenStyle.SolidLine)
        if self.hasFocus():
            self._frame(painter, self.cursor, colours["cursor"], frame * 0.8, Qt.PenStyle.DashLine)
        if self._drag_from is not None and self._drag_pos is not None:
            piece = self.board.piece_at(self._drag_from)
            if piece:
                rect = QRectF(0, 0, size, size)
                rect.moveCenter(self._drag_pos)
                _renderer(piece.symbol()).render(painter, rect)
        painter.end()

    def _frame(self, painter: QPainter, square: int, colour: QColor, width: float, style: Qt.PenStyle) -> None:
        pen = QPen(colour, width, style)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(self.square_rect(square).adjusted(width / 2, width / 2, -width / 2, -width / 2))

    def _paint_coordinates(self, painter: QPainter, colour: QColor, left: float, top: float, size: float) -> None:
        font = QFont(self.font())
        font.setPixelSize(max(9, int(min(size * 0.28, left * 0.8 if left > 0 else size))))
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(colour)
        margin = max(14.0, min(self.width(), self.height()) * 0.05)
        for i in range(8):
            file = 7 - i if self.flipped else i
            rank = i if self.flipped else 7 - i
            x = left + i * size
            painter.drawText(QRectF(x, top + 8 * size, size, margin), Qt.AlignmentFlag.AlignCenter, "abcdefgh"[file])
            painter.drawText(QRectF(x, top - margin, size, margin), Qt.AlignmentFlag.AlignCenter, "abcdefgh"[file])
            y = top + i * size
            painter.drawText(QRectF(left - margin, y, margin, size), Qt.AlignmentFlag.AlignCenter, str(rank + 1))
            painter.drawText(QRectF(left + 8 * size, y, margin, size), Qt.AlignmentFlag.AlignCenter, str(rank + 1))

    # ------------------------------------------------------------------ mouse
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        square = self.square_at(event.position())
        if not self.interactive or square is None or event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self.cursor = square
        if self.selected is not None and self.selected != square:
            self._try_move(self.selected, square)
            return
        piece = self.board.piece_at(square)
        if piece and piece.color == self.board.turn:
            self.selected = square
            self._drag_from = square
        else:
            self.selected = None
        self._update_accessible(announce=False)  # a click is seen; only keyboard moves are read aloud
        self.update()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if self._drag_from is not None:
            self._drag_pos = event.position()
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        origin, dragged = self._drag_from, self._drag_pos is not None
        self._drag_from, self._drag_pos = None, None
        target = self.square_at(event.position())
        if origin is not None and dragged and target is not None and target != origin:
            self._try_move(origin, target)
        self.update()

    # --------------------------------------------------------------- keyboard
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        key = event.key()
        steps = {
            Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0),
            Qt.Key.Key_Up: (0, 1), Qt.Key.Key_Down: (0, -1),
        }
        if key in steps and not event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            dx, dy = steps[key]
            if self.flipped:
                dx, dy = -dx, -dy
            file = min(7, max(0, chess.square_file(self.cursor) + dx))
            rank = min(7, max(0, chess.square_rank(self.cursor) + dy))
            self.move_cursor(chess.square(file, rank))
            return
        if key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.interactive:
            self.activate_cursor()
            return
        if key == Qt.Key.Key_Escape and self.selected is not None:
            self.selected = None
            self.update()
            return
        text = event.text().lower()
        if text and text in "abcdefgh" and not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self._pending_file = "abcdefgh".index(text)
            return
        if text and text in "12345678" and self._pending_file is not None:
            self.move_cursor(chess.square(self._pending_file, int(text) - 1))
            self._pending_file = None
            return
        super().keyPressEvent(event)

    def move_cursor(self, square: int) -> None:
        """Put the keyboard cursor on ``square`` and describe it (screen reader + speaker)."""
        self.cursor = square
        self.update()
        self._update_accessible(announce=True)

    def activate_cursor(self) -> None:
        """Space/Enter: pick up the piece on the cursor square, or put the picked one down there."""
        if self.selected is None:
            piece = self.board.piece_at(self.cursor)
            if piece and piece.color == self.board.turn:
                self.selected = self.cursor
                self.update()
                self.squareDescribed.emit(t("board.picked", self.lang, square=self.describe_cursor()))
            else:
                self.rejected.emit(t("board.nothing_to_pick", self.lang, square=self.describe_cursor()))
            return
        if self.selected == self.cursor:
            self.selected = None
            self.update()
            return
        self._try_move(self.selected, self.cursor)

    def focusInEvent(self, event) -> None:  # noqa: N802
        super().focusInEvent(event)
        self._update_accessible(announce=True)
        self.update()

    def focusOutEvent(self, event) -> None:  # noqa: N802
        super().focusOutEvent(event)
        self.update()

    # ------------------------------------------------------------------ moves
    def _try_move(self, origin: int, target: int) -> None:
        self.selected = None
        moves = [m for m in self.board.legal_moves if m.from_square == origin and m.to_square == target]
        if not moves:  # castling by putting the king on its destination (Chess960: also on the rook)
            for move in self.board.legal_moves:
                if move.from_square == origin and self.board.is_castling(move):
                    king_file = 6 if self.board.is_kingside_castling(move) else 2
                    if chess.square_file(target) == king_file and chess.square_rank(target) == chess.square_rank(origin):
                        moves = [move]
        if not moves:
            self.update()
            self.rejected.emit(t("board.illegal", self.lang,
                                 origin=chess.square_name(origin), target=chess.square_name(target)))
            return
        if len(moves) > 1:  # promotion: ask which piece (D.2.1 — the piece must be announced)
            kind = self.choose_promotion(moves)
            moves = [m for m in moves if m.promotion == kind] or moves[:1]
        self.update()
        self.moveEntered.emit(moves[0])

    # ---------------------------------------------------------- accessibility
    def _update_accessible(self, *, announce: bool) -> None:
        square = self.describe_cursor()
        a11y.name_changed(self, square, t("board.description", self.lang))
        if announce:
            self.squareDescribed.emit(square)
