"""What every collaborator of the game shares: the players, the start, the moves made, the words.

:class:`GameState` holds the facts of the game that several groups of articles read:
the players and who is visually impaired (Appendix D), the start position, the
moves *made* (D.2.3/D.2.5), the pending draw offer, the result, and the pending
question (D.2.1). :class:`Words` is how the game speaks about moves and squares
(``phonetic``: the announcement of FIDE Laws D.2.1).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import chess

from .. import phonetic
from ..i18n import tr
from ..ruling import read_entry
from .events import BoardName, Event, color_name
from .log import EventLog

__all__ = ["Player", "Words", "GameState", "Heard"]


@dataclass(frozen=True)
class Player:
    """A player: name, whether visually impaired (uses the tactile board), assistant's name."""

    name: str
    visually_impaired: bool = False
    assistant: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Player:
        assistant = d.get("assistant")
        return cls(str(d.get("name", "")), bool(d.get("visually_impaired", False)),
                   None if assistant is None else str(assistant))


@dataclass(frozen=True)
class Heard:
    """An utterance or typed text understood in a position (D.2.1)."""

    kind: str                     # phonetic's kinds: "move", "correction", "request", ... "unknown"
    move: chess.Move | None
    message: str
    request: str | None = None


class Words:
    """How the game says moves, squares and colours in ``lang`` (D.2.1 announcement)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def announce(self, board: chess.Board, move: chess.Move) -> str:
        """The spoken announcement of the legal ``move`` in ``board``."""
        return phonetic.announce(board, move, self.lang)

    def square(self, square: chess.Square) -> str:
        return phonetic.square_name(square, self.lang)

    def color(self, color: chess.Color) -> str:
        return tr(f"session.{color_name(color)}", self.lang)

    def understand(self, board: chess.Board, text: str) -> Heard:
        """What ``text`` means in ``board``: phonetic first, then the one notation reader."""
        u = phonetic.understand(board, text, self.lang)
        if u.kind != "unknown" or u.move is not None:
            return Heard(u.kind, u.move, u.message or "", u.request)
        move, _, msg = read_entry(board, text, self.lang)
        if move is not None:
            return Heard("move", move, "")
        return Heard("unknown", None, u.message or msg)


@dataclass
class GameState:
    """The shared facts of one game; see the module docstring."""

    white: Player
    black: Player
    start: chess.Board
    lang: str
    log: EventLog
    auto_press: bool = False
    tactile_senses_pieces: bool = False
    chess960_number: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    moves: list[chess.Move] = field(default_factory=list)   # the moves made (D.2.3 / D.2.5)
    result: str | None = None
    result_reason: str | None = None
    draw_offer: chess.Color | None = None
    question: dict[str, Any] | None = None                   # the pending question (D.2.1)
    rulings: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.start = self.start.copy(stack=False)
        self.words = Words(self.lang)
        if self.white.visually_impaired and not self.black.visually_impaired:
            self.blind_color: chess.Color | None = chess.WHITE
        elif self.black.visually_impaired:
            self.blind_color = chess.BLACK
        else:
            self.blind_color = None

    def mover(self, index: int) -> chess.Color:
        """The side that makes half-move ``index`` (0-based) from the start."""
        return self.start.turn if index % 2 == 0 else not self.start.turn

    @property
    def to_move(self) -> chess.Color:
        return self.mover(len(self.moves))

    def board_after(self, plies: int) -> chess.Board:
        """The game's position after its first ``plies`` moves (with the move stack)."""
        board = self.start.copy(stack=False)
        for m in self.moves[:plies]:
            board.push(m)
        return board

    def game_board(self) -> chess.Board:
        return self.board_after(len(self.moves))

    def is_blind(self, color: chess.Color) -> bool:
        return self.blind_color is not None and color == self.blind_color

    def owner_board(self, color: chess.Color) -> BoardName:
        """The board on which ``color`` makes his own moves."""
        return "tactile" if self.is_blind(color) else "sighted"

    def player(self, color: chess.Color) -> Player:
        return self.white if color == chess.WHITE else self.black
