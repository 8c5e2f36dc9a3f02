"""The printable scoresheet: a PDF in the usual FIDE layout (Qt adapter).

An A4 page like the scoresheets used at FIDE-rated events: event, site, date,
round and board at the top, the players' names, then two blocks of 30 moves side
by side (1–30, 31–60) with the columns move number, White, Black; the result and
both players' signatures at the bottom. Longer games continue on further pages
(61–120, …). Moves are written in the chosen language's letters (FIDE Laws,
Appendix C) with :func:`blindchess.language.notation.write`.

Drawing is done with QPainter on any paint device, so the same page can be
written through QPdfWriter (:func:`write_scoresheet_pdf`) or into an image (:func:`render_png`,
used for previews and tests). Works offscreen (``QT_QPA_PLATFORM=offscreen``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import chess
import chess.pgn

from ...base import tr, write_with
from ...language import write
from ...laws import Period, TimeControl
from ...records import start_text
from ..qtapp import ensure_app

#: Moves per block and blocks per page, as on FIDE scoresheets.
ROWS_PER_BLOCK = 30
BLOCKS_PER_PAGE = 2
MOVES_PER_PAGE = ROWS_PER_BLOCK * BLOCKS_PER_PAGE
#: A4 in millimetres.
PAGE_W, PAGE_H = 210.0, 297.0
MARGIN = 15.0


@dataclass
class Sheet:
    """What a scoresheet shows, independent of Qt."""

    fields: dict[str, str]
    rows: list[tuple[int, str, str]] = field(default_factory=list)  # (number, white, black)
    result: str = ""
    lang: str = "de"

    @property
    def pages(self) -> int:
        last = self.rows[-1][0] if self.rows else 1
        first = self.rows[0][0] if self.rows else 1
        return max(1, (last - _page_base(first) - 1) // MOVES_PER_PAGE + 1)


def _page_base(first_number: int) -> int:
    """The move number before the first row of page 1 (0 for a game from move 1)."""
    return ((first_number - 1) // MOVES_PER_PAGE) * MOVES_PER_PAGE


def _known(game: chess.pgn.Game, tag: str) -> str:
    value = game.headers.get(tag, "").strip()
    return "" if value in ("", "?", "-", "????.??.??") else value


def _amount(seconds: float, lang: str) -> str:
    """A duration as a person writes it on a scoresheet: "90 min", "2 h", "1 h 30 min", "30 s", "2 min 30 s"."""
    total = round(seconds)
    if total != seconds or total < 60:
        return tr("records.tc_seconds", lang, n=f"{seconds:g}")
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours and not minutes and not secs:
        return tr("records.tc_hours", lang, n=hours)
    if hours and hours * 60 + minutes >= 180:
        parts = [tr("records.tc_hours", lang, n=hours)] + ([tr("records.tc_minutes", lang, n=minutes)] if minutes else [])
    else:
        parts = [tr("records.tc_minutes", lang, n=hours * 60 + minutes)]
    if secs:
        parts.append(tr("records.tc_seconds", lang, n=secs))
    return " ".join(parts)


def _period_text(period: Period, lang: str) -> str:
    text = _amount(period.seconds, lang)
    if period.increment:
        text = tr("records.tc_increment", lang, base=text, inc=_amount(period.increment, lang))
    if period.delay:
        text = tr("records.tc_delay", lang, base=text, delay=_amount(period.delay, lang))
    return text


def time_control_text(tag: str, lang: str = "de") -> str:
    """The PGN ``TimeControl`` tag as a person reads it.

    ``"5400+30"`` -> "90 min + 30 s pro Zug"; ``"40/5400+30:1800+30"`` -> "40 Züge in
    90 min + 30 s pro Zug, danach 30 min + 30 s pro Zug für den Rest der Partie".
    A tag that is no time control (``"?"``, ``"-"``, ``""``) gives ""; one that cannot be read is
    returned as it is (never dropped: the scoresheet is a record).
    """
    tag = (tag or "").strip()
    if tag in ("", "?", "-"):
        return ""
    try:
        control = TimeControl.parse(tag)
    except ValueError:
        return tag
    if control is None:
        return ""
    parts = []
    many = len(control.periods) > 1
    for period in control.periods:
        text = _period_text(period, lang)
        if period.moves:
            text = tr("records.tc_moves", lang, moves=period.moves, time=text)
        elif many:
            text = tr("records.tc_rest", lang, time=text)
        parts.append(text)
    return f", {tr('records.tc_then', lang)} ".join(parts)


_FULL_DATE = re.compile(r"^(\d{4})\.(\d{2})\.(\d{2})$")


def date_text(tag: str, lang: str = "de") -> str:
    """The PGN ``Date`` tag as a person writes it in ``lang`` ("01.12.2026" de/ru, "2026-12-01" en,
    "01-12-2026" nl: ``records.date_written``); unknown parts dropped."""
    full = _FULL_DATE.match(tag)
    if full:
        year, month, day = full.groups()
        return tr("records.date_written", lang, day=day, month=month, year=year)
    return tag.replace(".??", "")


def sheet_from_game(game: chess.pgn.Game, lang: str = "de") -> Sheet:
    """The scoresheet's content: header fields (Event, Site, Date, Round, Board, the players, the time
    control as a person reads it), move rows in ``lang`` letters, result."""
    board = game.board()
    fields = {
        "event": _known(game, "Event"), "site": _known(game, "Site"), "date": date_text(_known(game, "Date"), lang),
        "round": _known(game, "Round"), "board": _known(game, "Board"),
        "white": _known(game, "White"), "black": _known(game, "Black"),
        "time_control": time_control_text(_known(game, "TimeControl"), lang),
    }
    if board.chess960:
        number = board.chess960_pos()
        fields["variant"] = f"{tr('records.variant', lang)} {number}" if number is not None else "Chess960"
    start = start_text(board, lang)
    if start:
        fields["start"] = start
    rows: list[tuple[int, str, str]] = []
    for move in game.mainline_moves():
        text = write(board, move, lang, style="fide")
        if board.turn == chess.WHITE:
            rows.append((board.fullmove_number, text, ""))
        elif rows and rows[-1][0] == board.fullmove_number:
            rows[-1] = (rows[-1][0], rows[-1][1], text)
        else:
            rows.append((board.fullmove_number, "…", text))
        board.push(move)
    result = game.headers.get("Result", "*")
    return Sheet(fields, rows, "" if result == "*" else result.replace("1/2", "½"), lang)


# --------------------------------------------------------------------------- drawing

class _Pen:
    """Millimetre drawing helpers on one QPainter."""

    def __init__(self, painter, dots_per_mm: float) -> None:
        from PySide6.QtGui import QFont

        self.p = painter
        self.k = dots_per_mm
        self.QFont = QFont

    def rect(self, x: float, y: float, w: float, h: float):
        from PySide6.QtCore import QRectF

        return QRectF(x * self.k, y * self.k, w * self.k, h * self.k)

    def font(self, size_mm: float, bold: bool = False) -> None:
        font = self.QFont("DejaVu Sans")
        font.setPixelSize(max(1, round(size_mm * self.k)))
        font.setBold(bold)
        self.p.setFont(font)

    def line_width(self, mm: float) -> None:
        from PySide6.QtCore import Qt
        from PySide6.QtGui import QPen

        pen = QPen(Qt.GlobalColor.black)
        pen.setWidthF(mm * self.k)
        self.p.setPen(pen)

    def box(self, x: float, y: float, w: float, h: float) -> None:
        self.p.drawRect(self.rect(x, y, w, h))

    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        from PySide6.QtCore import QPointF

        self.p.drawLine(QPointF(x1 * self.k, y1 * self.k), QPointF(x2 * self.k, y2 * self.k))

    def text(self, x: float, y: float, w: float, h: float, text: str, align=None) -> None:
        from PySide6.QtCore import Qt

        flags = align if align is not None else (Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.p.drawText(self.rect(x, y, w, h), int(flags), text)


def _field(pen: _Pen, x: float, y: float, w: float, label: str, value: str) -> None:
    """A labelled box: small label at the top left, the value below it."""
    pen.line_width(0.3)
    pen.box(x, y, w, 11)
    pen.font(2.4)
    pen.text(x + 1.2, y + 0.4, w - 2.4, 3.6, label)
    pen.font(4.0, bold=True)
    pen.text(x + 1.2, y + 4.0, w - 2.4, 6.6, value)


def paint_page(painter, dots_per_mm: float, sheet: Sheet, page: int = 0) -> None:
    """Draw page ``page`` (0-based) of ``sheet`` on ``painter`` (device units: ``dots_per_mm``)."""
    from PySide6.QtCore import Qt

    lang = sheet.lang
    pen = _Pen(painter, dots_per_mm)
    left, width = MARGIN, PAGE_W - 2 * MARGIN
    center = Qt.AlignmentFlag.AlignCenter

    pen.font(6.0, bold=True)
    pen.text(left, 12, width, 9, tr("records.sheet_title", lang), center)

    f = sheet.fields
    y = 24.0
    _field(pen, left, y, width * 0.62, tr("records.event", lang), f.get("event", ""))
    _field(pen, left + width * 0.62, y, width * 0.38, tr("records.site", lang), f.get("site", ""))
    y += 11
    third = width / 3
    _field(pen, left, y, third, tr("records.date", lang), f.get("date", ""))
    _field(pen, left + third, y, third, tr("records.round", lang), f.get("round", ""))
    _field(pen, left + 2 * third, y, third, tr("records.board", lang), f.get("board", ""))
    y += 11
    _field(pen, left, y, width / 2, tr("records.white", lang), f.get("white", ""))
    _field(pen, left + width / 2, y, width / 2, tr("records.black", lang), f.get("black", ""))
    y += 11
    extra = "   ".join(v for v in (
        f"{tr('records.time_control', lang)}: {f['time_control']}" if f.get("time_control") else "",
        f.get("variant", "")) if v)
    pen.font(3.0 if len(extra) <= 90 else 2.4)   # a multi-period control stays on one line
    pen.text(left, y + 0.5, width, 5, extra)
    y += 6.5
    if f.get("start"):   # a set-up position: the pieces, on at most two lines
        pen.font(2.6 if len(f["start"]) <= 120 else 2.2)
        pen.text(left, y - 1.0, width, 6.5, f["start"],
                 (Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop).value | Qt.TextFlag.TextWordWrap.value)
        y += 6.0

    # Two blocks of 30 moves: No. | White | Black.
    row_h = 6.3
    gap = 6.0
    block_w = (width - gap) / BLOCKS_PER_PAGE
    no_w = block_w * 0.16
    col_w = (block_w - no_w) / 2
    header_h = 6.0
    first_number = sheet.rows[0][0] if sheet.rows else 1
    base = _page_base(first_number) + page * MOVES_PER_PAGE
    by_number = {number: (white, black) for number, white, black in sheet.rows}
    for block in range(BLOCKS_PER_PAGE):
        x = left + block * (block_w + gap)
        pen.line_width(0.25)
        pen.font(3.0, bold=True)
        pen.box(x, y, block_w, header_h)
        pen.text(x, y, no_w, header_h, tr("records.move", lang), center)
        pen.text(x + no_w, y, col_w, header_h, tr("records.white", lang), center)
        pen.text(x + no_w + col_w, y, col_w, header_h, tr("records.black", lang), center)
        top = y + header_h
        for row in range(ROWS_PER_BLOCK):
            number = base + block * ROWS_PER_BLOCK + row + 1
            ry = top + row * row_h
            pen.line_width(0.15)
            pen.box(x, ry, block_w, row_h)
            pen.line(x + no_w, ry, x + no_w, ry + row_h)
            pen.line(x + no_w + col_w, ry, x + no_w + col_w, ry + row_h)
            pen.font(3.0)
            pen.text(x, ry, no_w, row_h, str(number), center)
            white, black = by_number.get(number, ("", ""))
            pen.font(3.4)
            pen.text(x + no_w + 1.5, ry, col_w - 2, row_h, white)
            pen.text(x + no_w + col_w + 1.5, ry, col_w - 2, row_h, black)
        pen.line_width(0.5)
        pen.box(x, y, block_w, header_h + ROWS_PER_BLOCK * row_h)
    y += header_h + ROWS_PER_BLOCK * row_h + 5

    # Result and signatures.
    last_page = page == sheet.pages - 1
    _field(pen, left, y, width * 0.25, tr("records.result", lang), sheet.result if last_page else "")
    sig_x = left + width * 0.25 + 4
    sig_w = (width - width * 0.25 - 4) / 2
    for i, side in enumerate(("white", "black")):
        x = sig_x + i * sig_w
        pen.font(2.4)
        pen.text(x + 2, y + 0.4, sig_w - 4, 3.6, f"{tr('records.signature', lang)} {tr('records.' + side, lang)}")
        pen.line_width(0.3)
        pen.line(x + 2, y + 10, x + sig_w - 2, y + 10)
    if sheet.pages > 1:
        pen.font(2.6)
        pen.text(left, PAGE_H - MARGIN + 2, width, 4,
                 tr("records.page", lang, page=page + 1, pages=sheet.pages),
                 Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


# --------------------------------------------------------------------------- devices

def _write_pdf_file(sheet: Sheet, path: Path, resolution: int = 300) -> None:
    from PySide6.QtCore import QMarginsF
    from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    ensure_app()
    writer = QPdfWriter(str(path))
    writer.setResolution(resolution)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(0, 0, 0, 0), QPageLayout.Unit.Millimeter))
    writer.setTitle(tr("records.sheet_title", sheet.lang))
    writer.setCreator("blindchess")
    painter = QPainter()
    if not painter.begin(writer):
        raise OSError(tr("records.pdf_failed", sheet.lang))
    try:
        for page in range(sheet.pages):
            if page:
                writer.newPage()
            paint_page(painter, resolution / 25.4, sheet, page)
    finally:
        painter.end()


def write_scoresheet_pdf(game: chess.pgn.Game, target: str | Path, lang: str = "de") -> Path:
    """The game's scoresheet as a PDF at ``target`` (A4; written whole or not at all)."""
    sheet = sheet_from_game(game, lang)
    return write_with(target, lambda tmp: _write_pdf_file(sheet, tmp), lang)


def render_png(game: chess.pgn.Game, target: str | Path, lang: str = "de", *, page: int = 0,
               dpi: int = 100) -> Path:
    """One page of the scoresheet as a PNG image (preview; the same drawing as the PDF)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter

    ensure_app()
    sheet = sheet_from_game(game, lang)
    k = dpi / 25.4
    image = QImage(round(PAGE_W * k), round(PAGE_H * k), QImage.Format.Format_RGB32)
    image.fill(Qt.GlobalColor.white)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    paint_page(painter, k, sheet, page)
    painter.end()

    def save(tmp: Path) -> None:
        if not image.save(str(tmp), "PNG"):  # type: ignore[call-overload]  # the stub says bytes; the binding takes str
            raise OSError(str(tmp))

    return write_with(target, save, lang)
