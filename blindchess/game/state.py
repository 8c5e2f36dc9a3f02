"""What every collaborator of the rules engine shares: the players, the start, the moves made.

:class:`GameState` holds the facts several groups of articles read: the players
and who is visually impaired (Appendix D), the start position, the moves *made*
(D.2.3 / D.2.5) with the position after each of them kept (never replayed from
the start: a position is looked up, so an event costs the same at move 5 and at
move 200), the draw offer standing, the result, the rule set.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess

from ..laws import RuleSet, placement_key
from .events import BoardName, Player
from .log import EventLog

__all__ = ["GameState", "Player"]


@dataclass
class GameState:
    """The shared facts of one game; see the module docstring."""

    white: Player
    black: Player
    start: chess.Board
    lang: str
    log: EventLog
    rules: RuleSet
    auto_press: bool = False
    tactile_senses_pieces: bool = False
    chess960_number: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    result: str | None = None
    result_reason: str | None = None
    draw_offer: chess.Color | None = None
    #: Adjourned (Guidelines I): the move is to be sealed, not made, until the envelope is opened.
    adjourned: bool = False
    #: Half-moves (0-based) made illegally, as played (rapid and blitz without adequate supervision).
    illegal: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.start = self.start.copy(stack=False)
        #: The game's position with every move made on its stack (repetitions, Art. 9.2, 9.6).
        self.board = self.start.copy(stack=False)
        self._positions: list[chess.Board] = [self.start.copy(stack=False)]
        #: The placement after each half-move of the game (D.2.9 compares the boards with them).
        self.keys: list[tuple[int, ...]] = [placement_key(self.start)]
        if self.white.visually_impaired and not self.black.visually_impaired:
            self.blind_color: chess.Color | None = chess.WHITE
        elif self.black.visually_impaired:
            self.blind_color = chess.BLACK
        else:
            self.blind_color = None

    # -- the moves made
    @property
    def moves(self) -> list[chess.Move]:
        """The moves made (D.2.3 / D.2.5), in order (the list of the game board's stack: do not change it)."""
        return self.board.move_stack

    def push(self, move: chess.Move) -> None:
        """``move`` is made (legal or, in rapid/blitz without supervision, as it was played)."""
        self.board.push(move)
        self._positions.append(self.board.copy(stack=False))
        self.keys.append(placement_key(self.board))

    def pop(self) -> chess.Move:
        """The last move made is un-made (D.2.8) and returned."""
        self._positions.pop()
        self.keys.pop()
        self.illegal.discard(len(self.board.move_stack) - 1)
        return self.board.pop()

    def set_moves(self, moves: list[chess.Move]) -> None:
        """The game is ``moves`` from the start (a ruling, an import)."""
        same = 0
        current = self.board.move_stack
        while same < min(len(current), len(moves)) and current[same] == moves[same]:
            same += 1
        while len(self.board.move_stack) > same:
            self.pop()
        for m in moves[same:]:
            self.push(m)

    def mover(self, index: int) -> chess.Color:
        """The side that makes half-move ``index`` (0-based) from the start."""
        return self.start.turn if index % 2 == 0 else not self.start.turn

    @property
    def to_move(self) -> chess.Color:
        return self.mover(len(self.board.move_stack))

    def position(self, plies: int) -> chess.Board:
        """The game's position after its first ``plies`` moves, without the move stack (a copy).
        IndexError for a half-move not made."""
        if not 0 <= plies < len(self._positions):
            raise IndexError(f"no position after {plies} half-moves")
        return self._positions[plies].copy(stack=False)

    def game_board(self) -> chess.Board:
        """The game's position now, with its move stack (a copy)."""
        return self.board.copy()

    # -- the players
    def is_blind(self, color: chess.Color) -> bool:
        return self.blind_color is not None and color == self.blind_color

    def owner_board(self, color: chess.Color) -> BoardName:
        """The board on which ``color`` makes his own moves."""
        return "tactile" if self.is_blind(color) else "sighted"

    def player(self, color: chess.Color) -> Player:
        return self.white if color == chess.WHITE else self.black
