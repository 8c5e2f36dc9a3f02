"""The board: painted, crisp at any size, usable by mouse, keyboard and screen reader — 64 named squares.

To assistive technology the board is a group (its name: "Brett", or the
arbiter's "Tastbrett von Anna") of 64 squares, each a focusable list item
named like "Eva vier, weißer Bauer" (:mod:`blindchess.language.board_words`, in the
wording the listener chose). The keyboard cursor *is* the focused square:
moving the cursor moves the keyboard focus to that square's own widget, so a
screen reader reads exactly one square per key, and when the focus comes back
to the board (Ctrl+1, Tab, a dialog closing) the square is the first and only
thing it reads. A square's state says whether its piece is picked up
(*selected*); what else is marked there (the last move, differing boards, a
lifted peg) is said on request (the I key), never on every move.

Why not a table: Qt's ``QTableView`` is a table with row and column headers
to AT-SPI; Orca 43 then reads the whole rank (and "not selected") on every
vertical move — its default for tables — the column header before the square
("Linie Felix column header …"), and the table's name, size and description
whenever the focus enters it. A group whose first child is a list item is
layout only to Orca (nothing of it is read); NVDA reads the focused item by
its name. The squares' widgets draw nothing and take no mouse events: the
board paints everything and handles the mouse itself.

Orientation: squares are laid out as the board is shown
(:attr:`BoardView.flipped`), and the arrow keys move in that orientation — the
window shows the blind player's view by default, the sighted player's on
request. The squares are kept in reading order (top left first) for
assistive technology that walks the group.

Painting: squares, coordinates (file letters above, rank numbers to the
left), marks and python-chess's SVG pieces (through QtSvg) — sharp at every
size, in the colours of the current look (:func:`blindchess.ui.theme.board_colours`).
Marks: the last move (tinted and a corner triangle, so not by colour alone),
the lifted peg (dashed), the differing squares (frame and a diagonal), the
selection (frame) and the cursor (dashed frame); each mark is drawn over a
wider line in the look's "halo" colour, so it stands out on light, dark and
tinted squares alike.

Keys on the board (listed on the help screen from :data:`BOARD_COMMANDS`): arrows;
Home/End and Page Up/Down to the edges; a–h a file, 1–8 a rank (so "e4" is a
square); Shift + a piece letter of the notation the next piece of that kind;
Shift+←/→ and Shift+↑/↓ read the rank or the file; M the legal moves from the
square (Shift+M its captures only); U the pieces around the square; X the captured
pieces (Shift+X the last capture); P where the pieces of this kind stand; L the last
move; T the time (only when asked, D.2.10 d); O the whole position; I the square
with its marks; Ctrl+←/→ (Ctrl+Home/End) through the game half-move by half-move,
each read with the squares it changed (Ctrl+↑ the whole position there); Ctrl+Shift+←/→
the move list, one move number at a time; Space/Enter pick up and put down; Esc drops. The cursor square's
name goes out through :attr:`BoardView.squareDescribed` (for the program's voice;
a screen reader reads the focused square itself), what else the board says (picked
up, let go, the square's marks) through :attr:`BoardView.boardSaid` (for every
channel), a refused move through :attr:`BoardView.rejected`, and the requests
about the game through :attr:`BoardView.commandRequested` (kind, square).
"""

from __future__ import annotations

import functools

import chess
import chess.svg
from PySide6.QtCore import QByteArray, QEvent, QObject, QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QAccessible,
    QAccessibleInterface,
    QColor,
    QFocusEvent,
    QFont,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QResizeEvent,
)
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QAccessibleWidget, QSizePolicy, QWidget

from ..base import tr
from ..language import LETTERS, WORDINGS, next_piece, piece_name, piece_type_for_letter, square_words
from ..language import describe_square as describe_board_square
from . import theme as looks

#: Board commands: (id, kind of the request or reading). Keys and texts: ``grid.key_<id>``/``grid.cmd_<id>``.
#: "reading": the board says it itself (squareDescribed); any other kind goes to the table (commandRequested).
BOARD_COMMANDS: tuple[tuple[str, str], ...] = (
    ("arrows", "reading"), ("edges", "reading"), ("file_rank", "reading"), ("next_piece", "reading"),
    ("scan_rank", "rank"), ("scan_file", "file"), ("legal_moves", "legal_moves"), ("captured", "captured"),
    ("pieces", "pieces"), ("last_move", "last_move"), ("time", "time"), ("position", "position"),
    ("info", "reading"), ("pick", "reading"), ("drop", "reading"),
    ("captures", "captures"), ("around", "around"), ("last_capture", "last_capture"), ("step", "step"),
    ("step_position", "position_at"), ("pairs", "move_pair"),
)

#: Single letter keys (no modifier) and the request they send to the table.
_LETTER_REQUESTS: dict[int, str] = {
    int(Qt.Key.Key_M): "legal_moves", int(Qt.Key.Key_X): "captured", int(Qt.Key.Key_P): "pieces",
    int(Qt.Key.Key_L): "last_move", int(Qt.Key.Key_T): "time", int(Qt.Key.Key_O): "position",
}
#: Shift + letter: the request it sends (Shift+M the captures only, Shift+X the last capture).
_SHIFT_REQUESTS: dict[int, str] = {int(Qt.Key.Key_M): "captures", int(Qt.Key.Key_X): "last_capture"}
#: Ctrl + key: going through the game half-move by half-move (the window keeps the place); Ctrl+↑ the whole
#: position there.
_STEP_KEYS: dict[int, str] = {int(Qt.Key.Key_Left): "step_back", int(Qt.Key.Key_Right): "step_forward",
                              int(Qt.Key.Key_Home): "step_first", int(Qt.Key.Key_End): "step_last",
                              int(Qt.Key.Key_Up): "step_position"}
#: Ctrl+Shift + ←/→: the move list, one move number at a time.
_PAIR_KEYS: dict[int, str] = {int(Qt.Key.Key_Left): "pair_back", int(Qt.Key.Key_Right): "pair_forward"}
_FILE_KEYS: dict[int, int] = {int(Qt.Key.Key_A) + i: i for i in range(8)}
_RANK_KEYS: dict[int, int] = {int(Qt.Key.Key_1) + i: i for i in range(8)}
_ARROWS: dict[int, tuple[int, int]] = {int(Qt.Key.Key_Left): (0, -1), int(Qt.Key.Key_Right): (0, 1),
                                       int(Qt.Key.Key_Up): (-1, 0), int(Qt.Key.Key_Down): (1, 0)}
_MOUSE_EVENTS = (QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonRelease, QEvent.Type.MouseMove,
                 QEvent.Type.MouseButtonDblClick)


def g(key: str, lang: str, /, **params: object) -> str:
    """A text of this area (``locale/grid.<lang>.toml``)."""
    return tr(f"grid.{key}", lang, **params)


@functools.cache
def _renderer(symbol: str) -> QSvgRenderer:
    """One SVG renderer per piece, built on first use (python-chess's piece set)."""
    svg = chess.svg.piece(chess.Piece.from_symbol(symbol))
    return QSvgRenderer(QByteArray(svg.encode()))


def describe_square(board: chess.Board, square: int, lang: str, wording: str = "phonetic") -> str:
    """"Eva vier, weißer Bauer" — in the chosen wording (``board_words.describe_square``)."""
    return describe_board_square(board, square, lang, wording)


def piece_letters(lang: str) -> str:
    """The piece letters the board jumps by (Shift + letter): "KDTLSB" in German, "KQRBNP" in English."""
    letters = LETTERS.get(lang, LETTERS["en"])
    order = (chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)
    return "".join(letters[k] for k in order) + tr("board_words.pawn_letter", lang)




class _Square(QWidget):
    """One square as assistive technology meets it: a focusable list item named like the square.

    It draws nothing and takes no mouse events (the board does both); keys it gets go on to the board.
    """

    NAME_ONLY = True        # no description: the square's name is all a screen reader reads here

    def __init__(self, board: BoardView, square: int) -> None:
        super().__init__(board)
        self.square = square
        self.setObjectName(f"square_{chess.square_name(square)}")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def focusInEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt API
        super().focusInEvent(event)
        board = self.parentWidget()
        if isinstance(board, BoardView):
            board._focus_came(self, event)

    def focusOutEvent(self, event: QFocusEvent) -> None:  # noqa: N802 - Qt API
        super().focusOutEvent(event)
        board = self.parentWidget()
        if board is not None:
            board.update()


class _SquareAccessible(QAccessibleWidget):
    """A square to assistive technology: a list item; *selected* while its piece is picked up."""

    def __init__(self, widget: _Square) -> None:
        super().__init__(widget, QAccessible.Role.ListItem)
        self._square = widget

    def state(self) -> QAccessible.State:
        state = super().state()
        state.focusable = True
        state.selectable = True
        board = self._square.parentWidget()
        if isinstance(board, BoardView) and board.selected == self._square.square:
            state.selected = True
        return state


class _BoardAccessible(QAccessibleWidget):
    """The board to assistive technology: a group of 64 squares (no table: see the module docstring)."""

    def __init__(self, widget: BoardView) -> None:
        super().__init__(widget, QAccessible.Role.Grouping)
        self._board = widget

    def focusChild(self) -> QAccessibleInterface:  # noqa: N802 - Qt API
        """The cursor's square (the one that has the keyboard whenever the board has it)."""
        return QAccessible.queryAccessibleInterface(self._board.square_widget(self._board.cursor))


def _accessible(_key: str, obj: QObject) -> QAccessibleInterface | None:
    """Qt's accessibility factory for the board and its squares (None: Qt's own interface)."""
    if isinstance(obj, _Square):
        return _SquareAccessible(obj)
    if isinstance(obj, BoardView):
        return _BoardAccessible(obj)
    return None


@functools.cache
def _install_accessibility() -> None:
    """Register :func:`_accessible` with Qt, once per process."""
    QAccessible.installFactory(_accessible)


class BoardView(QWidget):
    """A chess board widget; emits :attr:`moveEntered` for each move made on it.

    ``interactive=False`` (the arbiter's boards): readable and navigable, no moves.
    """

    moveEntered = Signal(object)        # chess.Move (legal on .board)
    squareDescribed = Signal(str)       # the cursor square's name (a screen reader reads the focused square itself)
    boardSaid = Signal(str)             # what the board says besides square names: pick-up, let go, info …
    rejected = Signal(str)              # why a move on the board was refused (worded as the board is read)
    commandRequested = Signal(str, int)  # a request about the game: kind ("last_move", "time" …), cursor square

    def __init__(self, parent: QWidget | None = None, *, lang: str = "de", interactive: bool = True) -> None:
        _install_accessibility()
        super().__init__(parent)
        self.lang = lang
        self.interactive = interactive
        self.wording = "phonetic"
        self.tag = ""
        self.board = chess.Board()
        self.flipped = False
        self.theme = "normal"
        self.last_move: chess.Move | None = None
        self.lifted: int | None = None
        self.differing: set[int] = set()
        self._selected: int | None = None
        self._cursor: int = chess.E2
        self._names: dict[int, str] = {}
        self._drag_from: int | None = None
        self._drag_pos: QPointF | None = None
        self._room: int | None = None
        self._moving = False           # the cursor is handing the focus from one square to the next
        #: Chooses the promotion piece for a pawn reaching the last rank; default queen.
        self.choose_promotion = lambda moves: chess.QUEEN
        self._squares: dict[int, _Square] = {square: _Square(self, square) for square in chess.SQUARES}
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(False)
        self.setAccessibleName(g("board_name", lang))
        self.setAccessibleDescription(g("board_description_short", lang))
        self._apply_palette()
        self._order_squares()
        self._refresh_names()
        self._hand_focus(self._squares[self._cursor], self._squares[self._cursor])

    # ------------------------------------------------------------------ state
    @property
    def cursor(self) -> int:  # type: ignore[override]  # the square; the mouse pointer is not used by the board
        """The keyboard cursor's square (the focused square)."""
        return self._cursor

    @property
    def selected(self) -> int | None:
        """The square of the picked-up piece (that square is *selected* to assistive technology), or None."""
        return self._selected

    @selected.setter
    def selected(self, square: int | None) -> None:
        self._selected = square
        self.update()

    def square_widget(self, square: int) -> QWidget:
        """The widget that stands for ``square`` to assistive technology (it has the focus when the cursor is there)."""
        return self._squares[square]

    def set_identity(self, name: str, description: str) -> None:
        """The board's accessible name and description ("Tastbrett von Anna", what it shows)."""
        self.setAccessibleName(name)
        self.setAccessibleDescription(description)

    def set_position(self, board: chess.Board, *, last_move: chess.Move | None = None) -> None:
        """Show ``board`` (a copy is kept, with its moves); the last move defaults to the board's own."""
        if board.fen() == self.board.fen() and board.move_stack == self.board.move_stack and (
                last_move or (board.peek() if board.move_stack else None)) == self.last_move:
            return  # nothing changed: keep the selection and the screen reader's place
        self.board = board.copy()
        self.last_move = last_move if last_move is not None else (board.peek() if board.move_stack else None)
        self._selected = None
        self._names.clear()
        self._refresh_names()
        self.update()

    def set_marks(self, *, lifted: int | None = None, differing: set[int] | frozenset[int] = frozenset()) -> None:
        """Mark the lifted square (tactile board) and the squares that differ between the boards."""
        if lifted == self.lifted and set(differing) == self.differing:
            return
        self.lifted = lifted
        self.differing = set(differing)
        if self.tag:              # the differing squares say so in their names
            self._names.clear()
            self._refresh_names()
        self.update()

    def set_flipped(self, flipped: bool) -> None:
        """Show the board from Black's side (True) or White's; squares and arrow keys follow."""
        if flipped == self.flipped:
            return
        self.flipped = flipped
        self._order_squares()
        self._place_squares()
        self.update()

    def set_theme(self, theme: str) -> None:
        """Paint in the colours of look ``theme`` (a choice or look name of ``theme.py``; "normal": the current look)."""
        self.theme = theme
        self._apply_palette()
        self.update()

    def set_lang(self, lang: str) -> None:
        self.lang = lang
        self._names.clear()
        self._refresh_names()

    def set_wording(self, wording: str) -> None:
        """Name the squares "Eva vier", "Echo vier" or "e4" (``board_words.WORDINGS``); ValueError otherwise."""
        if wording not in WORDINGS:
            raise ValueError(f"unknown wording {wording!r}")
        self.wording = wording
        self._names.clear()
        self._refresh_names()

    def describe_cursor(self) -> str:
        return self.cell_name(self._cursor)

    def set_tag(self, tag: str) -> None:
        """Begin every square's name with ``tag`` ("Tastbrett: Eva zwei, leer") and end a square that differs from
        the other board with its mark — two boards side by side (the arbiter's) never sound the same."""
        self.tag = tag
        self._names.clear()
        self._refresh_names()

    def cell_name(self, square: int) -> str:
        """The accessible name of a square: "Eva vier, weißer Bauer" (with the board's tag, :meth:`set_tag`)."""
        name = self._names.get(square)
        if name is None:
            name = describe_square(self.board, square, self.lang, self.wording)
            if self.tag:
                name = f"{self.tag}: {name}"
                if square in self.differing:
                    name = f"{name}, {g('mark_differs', self.lang)}"
            self._names[square] = name
        return name

    def cell_description(self, square: int) -> str:
        """What is marked on a square, in words (empty when nothing is); said on request (the I key)."""
        marks = []
        if self.last_move is not None and square == self.last_move.from_square:
            marks.append(g("mark_last_from", self.lang))
        if self.last_move is not None and square == self.last_move.to_square:
            marks.append(g("mark_last_to", self.lang))
        if square in self.differing:
            marks.append(g("mark_differs", self.lang))
        if square == self.lifted:
            marks.append(g("mark_lifted", self.lang))
        if square == self._selected:
            marks.append(g("mark_selected", self.lang))
        return "; ".join(marks)

    def _refresh_names(self) -> None:
        """Every square's accessible name as it reads now (position, language, wording)."""
        for square, widget in self._squares.items():
            name = self.cell_name(square)
            if widget.accessibleName() != name:
                widget.setAccessibleName(name)

    def _order_squares(self) -> None:
        """The squares' widgets in reading order as shown (top left first), for tools that walk the group."""
        for row in range(8):
            for column in range(8):
                self._squares[self.square_of_cell(row, column)].raise_()

    # --------------------------------------------------------------- geometry
    def square_of_cell(self, row: int, column: int) -> int:
        """The square shown in ``row``/``column`` (0 = top/left on screen)."""
        return chess.square(7 - column, row) if self.flipped else chess.square(column, 7 - row)

    def cell_of_square(self, square: int) -> tuple[int, int]:
        """(row, column) of ``square`` as shown."""
        file, rank = chess.square_file(square), chess.square_rank(square)
        return (rank, 7 - file) if self.flipped else (7 - rank, file)

    def _fit(self) -> tuple[int, int, int, int]:
        """(coordinate strip, square size, left, top): square squares as large as fit, the board centred."""
        header = max(14, int(self.fontMetrics().height() * 1.3))
        size = max(8, (min(self.width(), self.height()) - header) // 8)
        left = max(0, (self.width() - header - 8 * size) // 2)
        top = max(0, (self.height() - header - 8 * size) // 2)
        return header, size, left, top

    def _size(self) -> float:
        return float(self._fit()[1])

    def _cell_rect(self, square: int) -> QRectF:
        """The square's rectangle in the widget's coordinates."""
        header, size, left, top = self._fit()
        row, column = self.cell_of_square(square)
        return QRectF(left + header + column * size, top + header + row * size, size, size)

    def square_rect(self, square: int) -> QRectF:
        """The square's rectangle in the widget's coordinates (where a click on the widget lands)."""
        return self._cell_rect(square)

    def square_at(self, pos: QPointF) -> int | None:
        """The square under ``pos`` (widget coordinates), None outside the squares."""
        header, size, left, top = self._fit()
        x, y = pos.x() - left - header, pos.y() - top - header
        if x < 0 or y < 0:
            return None
        column, row = int(x // size), int(y // size)
        if not (0 <= column < 8 and 0 <= row < 8):
            return None
        return self.square_of_cell(row, column)

    def _place_squares(self) -> None:
        for square, widget in self._squares.items():
            widget.setGeometry(self._cell_rect(square).toRect())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._place_squares()

    def set_room(self, width: int | None) -> None:
        """The side the board may take at most (its column's visible width and height), None: no limit."""
        if width != self._room:
            self._room = width
            self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """Squares of 4 lines of text: the board grows with the fonts (Ctrl++) and never shrinks — but never
        wider than its column shows (:meth:`set_room`); when the window is too low for it at large fonts,
        the window's column scrolls (nothing is squeezed)."""
        side = max(240, 32 * self.fontMetrics().height())
        if self._room is not None:
            side = max(240, min(side, self._room))
        return QSize(side, side)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return self.minimumSizeHint()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.updateGeometry()
            self._place_squares()
    # ---------------------------------------------------------------- painting
    def _apply_palette(self) -> None:
        """Nothing to set beforehand: every colour is read from the look when painting."""

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt API
        """The coordinates, squares, marks and pieces."""
        colours = {k: QColor(v) for k, v in self._colours().items()}
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), colours["background"])
        self._coordinates(painter, colours["coord"])
        size = self._size()
        for square in chess.SQUARES:
            rect = self._cell_rect(square)
            light = (chess.square_file(square) + chess.square_rank(square)) % 2 == 1
            painter.fillRect(rect, colours["light" if light else "dark"])
            if self.last_move and square in (self.last_move.from_square, self.last_move.to_square):
                tint = QColor(colours["last"])
                tint.setAlpha(looks.LAST_TINT_ALPHA)
                painter.fillRect(rect, tint)
        for square, piece in self.board.piece_map().items():
            if square == self._drag_from and self._drag_pos is not None:
                continue
            _renderer(piece.symbol()).render(painter, self._cell_rect(square))
        frame = max(2.0, size * 0.06)
        if self.last_move is not None:   # a shape as well as a tint (WCAG 1.4.1): a corner on both squares
            for square in (self.last_move.from_square, self.last_move.to_square):
                self._corner(painter, square, colours, size * (0.34 if square == self.last_move.to_square else 0.22))
        if self.lifted is not None:
            self._frame(painter, self.lifted, colours["lifted"], frame, Qt.PenStyle.DashLine)
        for square in self.differing:
            self._frame(painter, square, colours["diff"], frame * 1.3, Qt.PenStyle.SolidLine)
            rect = self._cell_rect(square)
            start, end = rect.topLeft() + QPointF(frame, frame), rect.bottomRight() - QPointF(frame, frame)
            painter.setPen(QPen(colours["halo"], frame * 0.6 + looks.HALO_EXTRA))
            painter.drawLine(start, end)
            painter.setPen(QPen(colours["diff"], frame * 0.6))
            painter.drawLine(start, end)
        if self._selected is not None:
            self._frame(painter, self._selected, colours["select"], frame, Qt.PenStyle.SolidLine)
        if self.hasFocus():
            self._frame(painter, self._cursor, colours["cursor"], frame * 0.8, Qt.PenStyle.DashLine)
        if self._drag_from is not None and self._drag_pos is not None:
            dragged = self.board.piece_at(self._drag_from)
            if dragged is not None:
                rect = QRectF(0, 0, size, size)
                rect.moveCenter(self._drag_pos)
                _renderer(dragged.symbol()).render(painter, rect)
        painter.end()

    def _coordinates(self, painter: QPainter, colour: QColor) -> None:
        """File letters above the board and rank numbers to its left, in the look's coordinate colour, bold."""
        header, size, left, top = self._fit()
        bold = QFont(self.font())
        bold.setBold(True)
        painter.setFont(bold)
        painter.setPen(colour)
        centre = Qt.AlignmentFlag.AlignCenter
        for column in range(8):
            file = chess.square_file(self.square_of_cell(0, column))
            painter.drawText(QRectF(left + header + column * size, top, size, header), centre, chess.FILE_NAMES[file])
        for row in range(8):
            rank = chess.square_rank(self.square_of_cell(row, 0))
            painter.drawText(QRectF(left, top + header + row * size, header, size), centre, str(rank + 1))

    def _colours(self) -> dict[str, str]:
        return looks.board_colours(self.theme)

    def _frame(self, painter: QPainter, square: int, colour: QColor, width: float, style: Qt.PenStyle) -> None:
        """A frame inside ``square``, over a wider line in the halo colour."""
        inset = width / 2 + looks.HALO_EXTRA / 2
        rect = self._cell_rect(square).adjusted(inset, inset, -inset, -inset)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(self._colours()["halo"]), width + looks.HALO_EXTRA, Qt.PenStyle.SolidLine))
        painter.drawRect(rect)
        painter.setPen(QPen(colour, width, style))
        painter.drawRect(rect)

    def _corner(self, painter: QPainter, square: int, colours: dict[str, QColor], length: float) -> None:
        """The last move's mark: a triangle in the square's top-left corner, with its halo."""
        rect = self._cell_rect(square)
        corner = QPainterPath(rect.topLeft())
        corner.lineTo(rect.topLeft() + QPointF(length, 0))
        corner.lineTo(rect.topLeft() + QPointF(0, length))
        corner.closeSubpath()
        painter.setPen(QPen(colours["halo"], looks.HALO_EXTRA))
        painter.setBrush(colours["last_frame"])
        painter.drawPath(corner)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawPath(corner)

    # ------------------------------------------------------------------ mouse
    def event(self, event: QEvent) -> bool:
        """Mouse events on the board (the squares' widgets let them through) land on the squares."""
        if event.type() in _MOUSE_EVENTS and isinstance(event, QMouseEvent):
            self._mouse(event, event.position())
            return True
        return super().event(event)

    def _mouse(self, event: QMouseEvent, pos: QPointF) -> None:
        """Click-click or drag, in widget coordinates."""
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress:
            self._press(pos, event.button())
        elif kind == QEvent.Type.MouseMove and self._drag_from is not None:
            self._drag_pos = pos
            self.update()
        elif kind == QEvent.Type.MouseButtonRelease:
            self._release(pos)
        event.accept()

    def _press(self, pos: QPointF, button: Qt.MouseButton) -> None:
        square = self.square_at(pos)
        if square is None or button != Qt.MouseButton.LeftButton:
            return
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        self._set_current(square)  # the clicked square has the focus (a screen reader names it)
        if not self.interactive:
            return
        if self._selected is not None and self._selected != square:
            self._try_move(self._selected, square)
            return
        piece = self.board.piece_at(square)
        if piece and piece.color == self.board.turn:
            self.selected = square
            self._drag_from = square
        else:
            self.selected = None

    def _release(self, pos: QPointF) -> None:
        origin, dragged = self._drag_from, self._drag_pos is not None
        self._drag_from, self._drag_pos = None, None
        target = self.square_at(pos)
        if origin is not None and dragged and target is not None and target != origin:
            self._try_move(origin, target)
        self.update()

    # --------------------------------------------------------------- keyboard
    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        key = int(event.key())
        mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        shift = mods == Qt.KeyboardModifier.ShiftModifier
        plain = mods == Qt.KeyboardModifier.NoModifier
        ctrl = mods == Qt.KeyboardModifier.ControlModifier
        row, column = self.cell_of_square(self._cursor)
        ctrl_shift = mods == (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        if ctrl and key in _STEP_KEYS:
            self.commandRequested.emit(_STEP_KEYS[key], self._cursor)
        elif ctrl_shift and key in _PAIR_KEYS:
            self.commandRequested.emit(_PAIR_KEYS[key], self._cursor)
        elif shift and key in _SHIFT_REQUESTS:
            self.commandRequested.emit(_SHIFT_REQUESTS[key], self._cursor)
        elif plain and key == Qt.Key.Key_U:
            self.commandRequested.emit("around", self._cursor)
        elif key in _ARROWS and (plain or shift):
            if shift:  # read the whole rank (←/→) or file (↑/↓)
                kind = "rank" if key in (Qt.Key.Key_Left, Qt.Key.Key_Right) else "file"
                self.commandRequested.emit(kind, self._cursor)
            else:
                dr, dc = _ARROWS[key]
                self.move_cursor(self.square_of_cell(min(7, max(0, row + dr)), min(7, max(0, column + dc))))
        elif plain and key in (Qt.Key.Key_Home, Qt.Key.Key_End):
            self.move_cursor(self.square_of_cell(row, 0 if key == Qt.Key.Key_Home else 7))
        elif plain and key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            self.move_cursor(self.square_of_cell(0 if key == Qt.Key.Key_PageUp else 7, column))
        elif plain and key in _FILE_KEYS:
            self.move_cursor(chess.square(_FILE_KEYS[key], chess.square_rank(self._cursor)))
        elif plain and key in _RANK_KEYS:
            self.move_cursor(chess.square(chess.square_file(self._cursor), _RANK_KEYS[key]))
        elif shift and self._piece_jump(event.text()):
            pass
        elif plain and key in _LETTER_REQUESTS:
            self.commandRequested.emit(_LETTER_REQUESTS[key], self._cursor)
        elif plain and key == Qt.Key.Key_I:
            self.boardSaid.emit(self.square_info(self._cursor))
        elif plain and key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.interactive:
            self.activate_cursor()
        elif plain and key == Qt.Key.Key_Escape and self._selected is not None:
            self.drop()
        else:
            event.ignore()  # the window's shortcuts and Tab get it
            return
        event.accept()

    def _piece_jump(self, text: str) -> bool:
        """Shift + a piece letter: the cursor to the next piece of that kind (reading order as shown)."""
        kind = piece_type_for_letter(text, self.lang) if len(text) == 1 else None
        if kind is None:
            return False
        order = [self.square_of_cell(r, c) for r in range(8) for c in range(8)]
        found = next_piece(self.board, self._cursor, kind, order)
        if found is None:
            self.boardSaid.emit(g("no_piece_of_kind", self.lang, piece=piece_name(kind, self.lang)))
        else:
            self.move_cursor(found)
        return True

    def square_info(self, square: int) -> str:
        """The square with its marks: "Eva vier, weißer Bauer. Letzter Zug: Zielfeld."."""
        marks = self.cell_description(square)
        return f"{self.cell_name(square)}. {marks}." if marks else self.cell_name(square)

    def set_cursor(self, square: int) -> None:
        """Put the keyboard cursor on ``square`` without a word (a rebuilt window keeps the place)."""
        self._set_current(square)

    def move_cursor(self, square: int) -> None:
        """Put the keyboard cursor on ``square`` and describe it (screen reader focus + speaker)."""
        self._set_current(square)
        self.squareDescribed.emit(self.describe_cursor())

    def _set_current(self, square: int) -> None:
        """The cursor on ``square``: its widget takes the focus when the board has it (a screen reader reads it)."""
        old, new = self._squares[self._cursor], self._squares[square]
        self._cursor = square
        self._hand_focus(old, new)
        self.update()

    def _hand_focus(self, old: _Square, new: _Square) -> None:
        """``new`` is the cursor's square from now on: the one square in the Tab chain, the board's focus proxy,
        and the focused widget when ``old`` had the focus."""
        new.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setFocusProxy(new)
        if new is not old:
            if old.hasFocus():
                self._moving = True
                try:
                    new.setFocus(Qt.FocusReason.OtherFocusReason)
                finally:
                    self._moving = False
            old.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def activate_cursor(self) -> None:
        """Space/Enter: pick up the piece on the cursor square, or put the picked one down there."""
        if self._selected is None:
            piece = self.board.piece_at(self._cursor)
            if piece and piece.color == self.board.turn:
                self.selected = self._cursor
                self.boardSaid.emit(g("picked", self.lang, square=self.describe_cursor()))
            else:
                self.rejected.emit(g("nothing_to_pick", self.lang, square=self.describe_cursor()))
            return
        if self._selected == self._cursor:
            self.drop()
            return
        self._try_move(self._selected, self._cursor)

    def drop(self) -> None:
        """Esc (or Space on the same square): put the picked-up piece back, and say so."""
        if self._selected is None:
            return
        square = self._selected
        self.selected = None
        self.boardSaid.emit(g("dropped", self.lang, square=self.cell_name(square)))

    def _focus_came(self, square: _Square, event: QFocusEvent) -> None:
        """A square's widget got the focus: the cursor is drawn; coming from elsewhere (not a cursor move, not a
        click), its name goes to the program's voice (a screen reader reads the focused square itself)."""
        self.update()
        if square.square != self._cursor:      # a tool gave focus to another square: the cursor follows
            self._set_current(square.square)
            return
        if not self._moving and event.reason() != Qt.FocusReason.MouseFocusReason:
            self.squareDescribed.emit(self.describe_cursor())

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
            self.rejected.emit(g("illegal", self.lang,
                                 origin=square_words(origin, self.lang, self.wording),
                                 target=square_words(target, self.lang, self.wording)))
            return
        if len(moves) > 1:  # promotion: ask which piece (D.2.1 — the piece must be announced)
            kind = self.choose_promotion(moves)
            moves = [m for m in moves if m.promotion == kind] or moves[:1]
        self.update()
        self.moveEntered.emit(moves[0])

    def point_of(self, square: int) -> QPoint:
        """The centre of ``square`` in widget coordinates, as an integer point (for clicks)."""
        return self.square_rect(square).center().toPoint()
