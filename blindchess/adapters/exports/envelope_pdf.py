"""The adjournment envelope as a printable PDF (Guidelines I point 2), via Qt's PDF writer.

:func:`write_envelope_pdf` lays out :meth:`blindchess.laws.adjournment.Envelope.fields` — (a) to (g) —
and a diagram of the position before the sealed move as one A4 page with
:class:`QTextDocument` and prints it with :class:`QPdfWriter`. The writer's unit
is the typographic point (72 per inch) and the document is laid out for the
writer itself, so the sizes in the style sheet are the sizes on paper: text in
11 pt (the FEN in 9 pt, on one line), the diagram's squares 26 pt (9 mm) wide, over the width of the page
inside 18 mm margins. Qt needs an application for fonts:
:func:`blindchess.adapters.qtapp.ensure_app` (the CLI runs it offscreen when there is no
display).
"""

from __future__ import annotations

import errno
import html
from pathlib import Path

import chess

from ...base import tr, write_with
from ...laws import Envelope
from ..qtapp import ensure_app

#: Device units per inch: one unit is one point, the unit of every size in the style sheet.
POINTS_PER_INCH = 72

_PIECES = {"K": "♔", "Q": "♕", "R": "♖", "B": "♗", "N": "♘", "P": "♙",
           "k": "♚", "q": "♛", "r": "♜", "b": "♝", "n": "♞", "p": "♟"}


def _diagram_html(envelope: Envelope) -> str:
    """An 8 × 8 table with figurine pieces, from White's side as diagrams are, with coordinates."""
    board = envelope.board()
    ranks = range(7, -1, -1)
    files = list(range(8))
    rows = []
    for rank in ranks:
        cells = [f"<td class='c'>{rank + 1}</td>"]
        for file in files:
            piece = board.piece_at(chess.square(file, rank))
            shade = "#b0b0b0" if (file + rank) % 2 == 0 else "#ffffff"
            cells.append(f"<td class='sq' width='26' height='26' bgcolor='{shade}'>{_PIECES[piece.symbol()] if piece else '&nbsp;'}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    rows.append("<tr><td></td>" + "".join(f"<td class='c'>{chess.FILE_NAMES[f]}</td>" for f in files) + "</tr>")
    return "<table class='board' cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>"


def envelope_html(envelope: Envelope, lang: str = "de") -> str:
    """The envelope as HTML for QTextDocument."""
    # the FEN in 9 pt, so its piece placement stays on one line (a string to copy, not to read)
    rows = "".join(f"<tr><td class='l' width='32%'><b>{html.escape(label)}</b></td>"
                   f"<td width='68%'{' class=fen' if value == envelope.position else ''}>{html.escape(value)}</td></tr>"
                   for label, value in envelope.fields(lang))
    return (
        "<html><head><style>"
        "body{font-family:'DejaVu Sans',sans-serif;font-size:11pt} td{padding:3px;vertical-align:top}"
        "h2{font-size:15pt} td.sq{width:26px;height:26px;font-size:18pt;text-align:center}"
        "td.c{font-size:9pt;text-align:center} td.fen{font-size:9pt}"
        "</style></head><body>"
        f"<h2>{html.escape(tr('tournament.env_title', lang))}</h2>"
        f"<table width='100%' border='1' cellspacing='0'>{rows}</table><br/>"
        f"{_diagram_html(envelope)}"
        f"<p>{html.escape(tr('tournament.env_sealed_inside', lang))}</p>"
        "</body></html>"
    )


def _print(envelope: Envelope, path: Path, lang: str) -> None:
    """Lay the envelope out on one A4 page of a new PDF at ``path``; OSError when Qt cannot write it."""
    from PySide6.QtCore import QMarginsF, QSizeF
    from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter, QTextDocument

    ensure_app()
    writer = QPdfWriter(str(path))
    writer.setTitle(tr("tournament.env_title", lang))
    writer.setCreator("blindchess")
    writer.setResolution(POINTS_PER_INCH)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(18, 18, 18, 18), QPageLayout.Unit.Millimeter))
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(writer)   # points measured at the writer's resolution, not the screen's
    doc.setHtml(envelope_html(envelope, lang))
    rect = writer.pageLayout().paintRectPixels(writer.resolution())
    doc.setPageSize(QSizeF(rect.width(), rect.height()))
    painter = QPainter()
    if not painter.begin(writer):   # Qt could not open the file: say so, never "written"
        raise OSError(errno.EIO, tr("tournament.pdf_not_made", lang), str(path))
    try:
        doc.drawContents(painter)
    finally:
        painter.end()
    if path.stat().st_size == 0:
        raise OSError(errno.EIO, tr("tournament.pdf_not_made", lang), str(path))


def write_envelope_pdf(envelope: Envelope, path: str | Path, lang: str = "de") -> Path:
    """Write the envelope as a one-page A4 PDF to ``path``, whole or not at all, and return the path.

    The PDF is made beside the target and renamed onto it only when complete
    (:func:`blindchess.base.files.write_with`); UserError when the target cannot be
    written or replaced (a folder, a missing folder, a refused name, no permission) —
    the old file is then left as it was.
    """
    return write_with(path, lambda tmp: _print(envelope, tmp, lang), lang)
