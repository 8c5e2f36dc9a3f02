"""What every collaborator of the rules engine shares: the players, the start, the moves made.

:class:`GameState` holds the facts several groups of articles read: the players
and who is visually impaired (Appendix D), the start position, the moves *made*
(D.2.3 / D.2.5) with the position after each of them kept (never replayed from
the start: a position is looked up, so an event costs the same at move 5 and at
move 200), the draw offer standing, the result, the rule set.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import chess

from ..laws import QuickplayCase, RuleSet, TimeControl, placement_key
from .events import BoardName, Note, Player, Ruling, RulingOverride, ScoreName, SessionStart, Touch
from .log import EventLog

__all__ = ["GameState", "GameSnapshot", "Parting", "Player"]


@dataclass(frozen=True)
class Parting:
    """Where the boards part from the game (D.2.9): the position ``ply``, the board (None: both), the squares."""

    ply: int
    squares: tuple[str, ...]
    board: BoardName | None


@dataclass
class GameState:
    """The shared facts of one game; see the module docstring."""

    white: Player
    black: Player
    start: chess.Board
    lang: str
    log: EventLog
    rules: RuleSet
    auto_press: bool
    tactile_senses_pieces: bool
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
        self.start = self.start.copy(stack=False)      # the start position, without moves: so are its copies
        #: The game's position with every move made on its stack (repetitions, Art. 9.2, 9.6).
        self.board = self.start.copy()
        self._positions: list[chess.Board] = [self.start.copy()]
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
        return self._positions[plies].copy()          # kept without a stack

    def game_board(self) -> chess.Board:
        """The game's position now, with its move stack (a copy)."""
        return self.board.copy()

    # -- the players
    def is_blind(self, color: chess.Color) -> bool:
        return self.blind_color is not None and color == self.blind_color

    def owner_board(self, color: chess.Color) -> BoardName:
        """The board on which ``color`` makes his own moves."""
        return "tactile" if self.is_blind(color) else "sighted"


@dataclass(frozen=True)
class GameSnapshot:
    """The game as it stands after the last command: every fact the people at the table, the window, the
    broadcast and the exports read, in one frozen record (:attr:`blindchess.game.Session.snapshot`).

    Built once after each command and shared by every reader until the next one; a reader keeps no
    snapshot across a command of his own (the next one is the game after it). The positions themselves
    (boards with their move stacks, the position after any half-move) and the clock, which answers for
    any moment, are the session's queries: ``Session.board``, ``Session.game_board``,
    ``Session.position``, ``Session.clock``.
    """

    # -- the set-up
    white: Player
    black: Player
    #: The colour of the visually impaired player (None: none, or both).
    blind_color: chess.Color | None
    lang: str
    headers: Mapping[str, str]
    #: The app presses the clock as soon as a move is made (no D.2.8 window).
    auto_press: bool
    tactile_senses_pieces: bool
    chess960_number: int | None
    #: When the game was created, and its first line (with the table's set-up in ``table``).
    created: float
    start_event: SessionStart
    time_control: TimeControl | None
    #: Standard, rapid or blitz, with or without adequate supervision (Appendices A, B).
    rules: RuleSet
    # -- the moves and the boards
    #: The moves made (D.2.3 / D.2.5), in order.
    game_moves: tuple[chess.Move, ...]
    #: The side to move in the game.
    to_move: chess.Color
    #: Half-moves whose clock press has been made.
    plies_pressed: int
    #: The moves carried out on each board.
    board_moves: Mapping[BoardName, tuple[chess.Move, ...]]
    #: The first position where a board parts from the game (D.2.9), or None.
    divergence: Parting | None
    #: Both game scores as written.
    scores: Mapping[ScoreName, tuple[str, ...]]
    touches: tuple[Touch, ...]
    #: The D.2.9 rulings and overrides applied.
    rulings: tuple[Ruling | RulingOverride, ...]
    #: The notes of the record (the table's own state among them).
    notes: tuple[Note, ...]
    # -- the end, the claims, the adjournment
    #: The result, or None while the game goes on.
    result: str | None
    result_reason: str | None
    #: The colour whose draw offer stands.
    draw_offer: chess.Color | None
    #: The filed quickplay-finish claim the arbiter has still to decide (Guidelines III.4).
    quickplay_claim: QuickplayCase | None
    #: Adjourned: a move is to be sealed, or sealed and not yet opened (Guidelines I).
    adjourned: bool
    #: Who seals (or sealed) the move of the adjournment, None when the game is not adjourned.
    sealer: chess.Color | None
    #: The sealer is writing his move (Guidelines I.1): the envelope is not yet sealed.
    sealing: bool
    #: A sealed envelope waits to be opened (Guidelines I.3).
    envelope_sealed: bool
    #: The absent responder's clock runs while the envelope waits for him (Guidelines I.9 b).
    responder_clock_started: bool
    # -- the record
    #: The time of the latest event.
    last_time: float
    journal_path: Path | None
    #: Damaged journal lines: (line, problem).
    journal_problems: tuple[tuple[int, str], ...]
    #: Half-moves (0-based) made illegally and standing as played (rapid, blitz without adequate supervision).
    illegal_plies: frozenset[int]
    #: The sealer was absent at resumption: his opponent seals his reply in a new envelope (Guidelines I.9 c).
    reply_sealing: bool
    #: How many half-moves the game had when it was last resumed from an envelope (Guidelines I.13), or None.
    resumption_ply: int | None
    #: Who agreed to correct the illegal move that stands (blitz, Appendix B), waiting for the other.
    correction_agreed: chess.Color | None

    @property
    def start(self) -> chess.Board:
        """The start position (a new board)."""
        return chess.Board(self.start_event.start_fen, chess960=self.start_event.chess960)

    @property
    def plies(self) -> int:
        """How many half-moves have been made."""
        return len(self.game_moves)

    @property
    def finished(self) -> bool:
        return self.result is not None

    def player(self, color: chess.Color) -> Player:
        return self.white if color == chess.WHITE else self.black

    def is_blind(self, color: chess.Color) -> bool:
        return self.blind_color is not None and color == self.blind_color

    def moves(self, board: BoardName) -> tuple[chess.Move, ...]:
        """The moves carried out on ``board``."""
        return self.board_moves[board]

    def board_length(self, board: BoardName) -> int:
        """How many moves ``board`` holds."""
        return len(self.board_moves[board])

    def score(self, who: ScoreName) -> tuple[str, ...]:
        """The game score ``who`` keeps, as written."""
        return self.scores[who]
