"""The two boards (FIDE Laws D.1) and their divergence from the game (D.2.9); touches (D.2.2, D.2.10 e).

Each board is the sequence of moves actually made on it: the sighted player's board
and the visually impaired player's tactile board. A move on a board is the owner's
own move or the *mirror* of the opponent's move; a mirror of a move not made yet is
refused (:class:`BoardMoveRejected` "not-made"), the board unchanged.

Divergence (D.2.9) is judged for each board against the game (the moves made):
the sighted board by its pieces, the tactile board by occupancy unless it senses
pieces. :attr:`Boards.divergence` is the first position (0-based: after that many
half-moves) where a board parts from the game, the board that parts there (None
when both do) and the squares where it differs. Moves a board holds beyond the game
(the blind player's placement waiting for its announcement, D.2.3) are not judged.
Placements are compared by keys kept per half-move, so judging costs the same at
every point of the game.
"""

from __future__ import annotations

import chess

from ..laws import diff_squares, placement_key
from .events import (
    BOARDS,
    BoardMove,
    BoardMoveRejected,
    BoardName,
    BoardsAgree,
    Divergence,
    Role,
    TakeBack,
    Touch,
    color_name,
)
from .state import GameState, Parting

__all__ = ["Boards", "board_at"]

Key = tuple[int, ...]


def board_at(board: chess.Board, plies: int) -> chess.Board:
    """``board`` as it stood after its first ``plies`` moves (popping back from its end)."""
    back = len(board.move_stack) - plies
    b = board.copy(stack=back) if back > 0 else board.copy(stack=False)
    for _ in range(back):
        b.pop()
    return b


class Boards:
    """The sighted and the tactile board; see the module docstring."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.boards: dict[BoardName, chess.Board] = {name: state.start.copy() for name in BOARDS}
        self.keys: dict[BoardName, list[Key]] = {name: [placement_key(state.start)] for name in BOARDS}
        self.divergence: Parting | None = None
        self.touches: list[Touch] = []

    @staticmethod
    def other(name: BoardName) -> BoardName:
        return "tactile" if name == "sighted" else "sighted"

    # -- commands --------------------------------------------------------------------------
    def board_move(self, name: BoardName, move: chess.Move, now: float) -> None:
        """A move made on board ``name``: records :class:`BoardMove` (own move or mirror) or
        :class:`BoardMoveRejected` ("illegal", "not-made", "game-over").

        In rapid and blitz without adequate supervision an illegal own move is made as it
        was played (Appendix A.4.2): recorded with ``legal=False``.
        """
        state = self.state
        board = self.boards[name]
        index = len(board.move_stack)
        replaces = False
        pending = self._pending_own_tactile() if name == "tactile" else None
        if not board.is_legal(move) and pending is not None:
            # The blind player's placement of this ply is not made yet (D.2.3): a new placement
            # replaces it — the piece moved on, or another move placed (a corrected announcement, D.2.8).
            before = board_at(board, pending)
            last = board.move_stack[-1]
            for candidate in (move, chess.Move(last.from_square, move.to_square, move.promotion)):
                if before.is_legal(candidate):
                    move, replaces, index = candidate, True, pending
                    break
        mover = state.mover(index)
        role: Role = "own" if state.owner_board(mover) == name else "mirror"
        if state.result is not None and role == "own" and index >= len(state.moves):
            state.log.record(BoardMoveRejected(t=now, board=name, uci=move.uci(), reason="game-over"))
            return
        if state.adjourned and role == "own" and index >= len(state.moves):
            state.log.record(BoardMoveRejected(t=now, board=name, uci=move.uci(), reason="adjourned"))
            return
        legal = replaces or board.is_legal(move)
        if not legal and not (role == "own" and self._illegal_stands(board, move, index)) \
                and not (role == "mirror" and self._mirrors_illegal(board, move, index)):
            state.log.record(BoardMoveRejected(t=now, board=name, uci=move.uci(), reason="illegal"))
            return
        if role == "mirror" and index >= len(state.moves):
            state.log.record(BoardMoveRejected(t=now, board=name, uci=move.uci(), reason="not-made"))
            return
        san = board_at(board, index).san(move) if legal else move.uci()
        state.log.record(BoardMove(t=now, board=name, uci=move.uci(), san=san, ply=index + 1, role=role,
                                   replaces=replaces, legal=legal))

    def _illegal_stands(self, board: chess.Board, move: chess.Move, index: int) -> bool:
        """An illegal own move is made as played: rapid or blitz without adequate supervision (A.4.2),
        a piece that is there and a board that is at the game's end."""
        rules = self.state.rules
        return (not rules.arbiter_acts_on_illegal_move and index == len(self.state.moves)
                and index == len(board.move_stack) and board.piece_at(move.from_square) is not None
                and move.from_square != move.to_square)

    def _mirrors_illegal(self, board: chess.Board, move: chess.Move, index: int) -> bool:
        """The mirror of an illegal move that stands in the game as it was played (rapid or blitz without
        adequate supervision, A.4.2): the other board shows the game, that move included."""
        state = self.state
        return (index < len(state.moves) and index in state.illegal and state.moves[index] == move
                and index == len(board.move_stack) and board.piece_at(move.from_square) is not None)

    def _pending_own_tactile(self) -> int | None:
        """Index of the blind player's own placement on the tactile board that is not yet made."""
        board = self.boards["tactile"]
        index = len(board.move_stack) - 1
        if index < 0 or self.state.blind_color is None:
            return None
        if self.state.mover(index) != self.state.blind_color or index != len(self.state.moves):
            return None
        return index

    def take_back(self, name: BoardName, now: float) -> None:
        """The last move on board ``name`` was taken back (e.g. a wrong mirror undone); None: nothing to take back."""
        if not self.boards[name].move_stack:
            return None
        self.state.log.record(TakeBack(t=now, board=name, ply=len(self.boards[name].move_stack)))

    def touch(self, sq: chess.Square, now: float, *, board: BoardName = "tactile", piece: str | None = None) -> None:
        """A touched piece: a lifted peg on the tactile board (D.2.2) or a touch by the sighted player
        (D.2.5, D.2.10 e)."""
        if piece is None:
            p = self.boards[board].piece_at(sq)
            piece = p.symbol() if p else None
        blind = self.state.blind_color
        if board == "tactile" and blind is not None:
            toucher = blind
        else:
            toucher = (not blind) if blind is not None else self.boards[board].turn
        own = piece is not None and (piece.isupper() == (toucher == chess.WHITE))
        self.state.log.record(Touch(t=now, board=board, square=chess.square_name(sq), piece=piece,
                                    by=color_name(toucher), own=own, ply=len(self.state.moves)))

    # -- handlers ----------------------------------------------------------------------------
    def on_board_move(self, ev: BoardMove) -> tuple[int, chess.Move]:
        """Apply a :class:`BoardMove`; returns (0-based index of the move, move). ValueError if it does not fit."""
        name = ev.board
        board = self.boards[name]
        move = chess.Move.from_uci(ev.uci)
        if ev.replaces:
            index = ev.ply - 1
            if not 0 <= index < len(board.move_stack) or not board_at(board, index).is_legal(move):
                raise ValueError(f"illegal replacement {move.uci()}")
            while len(board.move_stack) > index:
                board.pop()
                self.keys[name].pop()
        elif not board.is_legal(move) and (ev.legal or board.piece_at(move.from_square) is None):
            raise ValueError(f"illegal move {move.uci()}")
        board.push(move)
        self.keys[name].append(placement_key(board))
        return len(board.move_stack) - 1, move

    def on_take_back(self, ev: TakeBack) -> None:
        board = self.boards[ev.board]
        if board.move_stack:
            board.pop()
            self.keys[ev.board].pop()

    def on_touch(self, ev: Touch) -> None:
        self.touches.append(ev)

    # -- for the other collaborators -----------------------------------------------------------
    def set_all(self, moves: list[chess.Move]) -> None:
        """Both boards set to the game ``moves`` (a ruling, an import); the game already holds them."""
        for name in BOARDS:
            self.boards[name] = self.state.game_board()
            self.keys[name] = list(self.state.keys)

    def set_board(self, name: BoardName) -> None:
        """Board ``name`` set to the game (D.2.9: the player who mirrored wrongly corrects his board)."""
        self.boards[name] = self.state.game_board()
        self.keys[name] = list(self.state.keys)

    def shows(self, name: BoardName, index: int, move: chess.Move) -> bool:
        """Whether board ``name`` holds ``move`` as its move ``index``."""
        stack = self.boards[name].move_stack
        return len(stack) > index and stack[index] == move

    def _by_pieces(self, name: BoardName) -> bool:
        return name == "sighted" or self.state.tactile_senses_pieces

    def _parts_at(self, name: BoardName) -> int | None:
        """The first position where board ``name`` parts from the game (None: it does not)."""
        mine, game = self.keys[name], self.state.keys
        common = min(len(mine), len(game))
        if mine[:common] == game[:common]:
            return None     # the same positions (compared at once): a board that agrees costs no loop
        full = self._by_pieces(name)
        for i in range(common):
            a, b = mine[i], game[i]
            if (a != b) if full else (a[6] | a[7]) != (b[6] | b[7]):
                return i
        return None

    def check_divergence(self, now: float) -> None:
        """Judge both boards against the game; record :class:`Divergence` / :class:`BoardsAgree` when it changes."""
        parts = {name: self._parts_at(name) for name in BOARDS}
        found = [(i, name) for name, i in parts.items() if i is not None]
        old = self.divergence
        if not found:
            self.divergence = None
            if old is not None:
                self.state.log.record(BoardsAgree(t=now))
            return
        first = min(i for i, _ in found)
        wrong = [name for i, name in found if i == first]
        target = self.state.position(first)
        squares_set: set[int] = set()
        for name in wrong:
            squares_set.update(diff_squares(board_at(self.boards[name], first), target, not self._by_pieces(name)))
        squares = tuple(chess.square_name(s) for s in sorted(squares_set))
        board: BoardName | None = wrong[0] if len(wrong) == 1 else None
        self.divergence = Parting(first, squares, board)
        if old is not None and old.ply == first:
            return
        self.state.log.record(Divergence(t=now, ply=first, squares=squares, board=board))
