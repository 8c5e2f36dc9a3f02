"""A game's PGN text kept up to date half-move by half-move, as python-chess writes it.

python-chess's :class:`chess.pgn.StringExporter` writes a game's move text token by token into lines
of 80 columns. :class:`MoveText` drives the same exporter with the same calls (``visit_comment`` for the
comment before the first move, then ``visit_move`` and ``visit_comment`` for each half-move) on one
board pushed move by move, and notes the exporter's state after each half-move: when the last
half-moves change — a new move, the last move's clock after the press, a comment added to it — only
they are written again, from the state noted before them. The text is the one
``game.accept(StringExporter(headers=True, variations=True, comments=True))`` gives for the same game
(a game without side lines: a ruling's retracted moves are written by the whole export).

Beside the PGN it keeps each half-move in standard algebraic notation (English, as the PGN has it) and as
a score in the broadcast's language writes it (FIDE Laws, Appendix C).
"""

from __future__ import annotations

from collections.abc import Sequence

import chess
import chess.pgn

from ..language import write

__all__ = ["MoveText"]

_COLUMNS = 80


class MoveText:
    """The move text of one game from ``start`` (module docstring); ``lang``: the language of :attr:`written`."""

    def __init__(self, start: chess.Board, lang: str) -> None:
        self.lang = lang
        self._board = start.copy(stack=False)
        self._exporter = chess.pgn.StringExporter(columns=_COLUMNS)     # its moves and comments (headers apart)
        #: After each half-move (index 0: after the comment before the first one): the exporter's lines written,
        #: its line begun, whether the next move needs its number.
        self._marks: list[tuple[int, str, bool]] = [(len(self._exporter.lines), self._exporter.current_line,
                                                     self._exporter.force_movenumber)]
        #: Every half-move in standard algebraic notation, as the PGN has it.
        self.sans: list[str] = []
        #: Every half-move as a score in the broadcast's language writes it, with "+" and "#" (:func:`~blindchess.language.write`).
        self.written: list[str] = []

    @property
    def plies(self) -> int:
        return len(self.sans)

    @property
    def board(self) -> chess.Board:
        """The position after the last half-move (the board the text is built on; not to be changed)."""
        return self._board

    def update(self, first: int, opening: str, plies: Sequence[tuple[chess.Move, str]]) -> None:
        """Write the text again from half-move ``first`` on (0: the comment before the first move, ``opening``,
        too): ``plies`` are the half-moves ``max(first, 1)`` to the last, each as (move, comment)."""
        keep = max(first, 1) - 1
        if keep > len(self.sans):
            raise ValueError(f"half-move {first} follows no written half-move")
        while len(self.sans) > keep:
            self._board.pop()
            self.sans.pop()
            self.written.pop()
        exporter = self._exporter
        del self._marks[keep + 1:]
        if first == 0:
            exporter.lines, exporter.current_line, exporter.force_movenumber = [], "", True
            if opening:
                exporter.visit_comment(opening)
            self._marks[0] = (len(exporter.lines), exporter.current_line, exporter.force_movenumber)
        else:
            lines, current, force = self._marks[keep]
            del exporter.lines[lines:]
            exporter.current_line, exporter.force_movenumber = current, force
        board = self._board
        for move, comment in plies:
            legal = board.is_legal(move)
            written = write(board, move, self.lang) if legal else move.uci()
            exporter.visit_move(board, move)
            self.sans.append(exporter.current_line.split()[-1])      # the token just written
            board.push(move)
            self.written.append(written)
            if comment:
                exporter.visit_comment(comment)
            self._marks.append((len(exporter.lines), exporter.current_line, exporter.force_movenumber))

    def text(self, headers: chess.pgn.Headers, result: str) -> str:
        """The whole PGN: ``headers``, the move text, ``result``; one blank line after it (as the broadcast serves
        each game)."""
        head = chess.pgn.StringExporter(columns=_COLUMNS)
        head.begin_headers()
        for name, value in headers.items():
            head.visit_header(name, value)
        head.end_headers()
        return "\n".join(head.lines + self.moves(result)).rstrip() + "\n\n"

    def moves(self, result: str, plies: int | None = None) -> list[str]:
        """The move text's lines with ``result`` at the end; ``plies``: only the first ones."""
        lines, current, _ = self._marks[len(self.sans) if plies is None else plies]
        exporter = self._exporter
        out = exporter.lines[:lines]
        token = result + " "
        if _COLUMNS - len(current) < len(token):
            if current:
                out.append(current.rstrip())
            current = ""
        out.append((current + token).rstrip())
        return out
