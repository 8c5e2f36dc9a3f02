"""The two boards (FIDE Laws D.1) and their divergence from the game (D.2.9); touches (D.2.2, D.2.10 e).

Each board is the sequence of moves actually made on it: the sighted player's board
and the visually impaired player's tactile board. A move on a board is the owner's
own move or the *mirror* of the opponent's move; a mirror of a move not made yet is
refused (``board-move-rejected``, ``reason: "not-made"``), the board unchanged.

Divergence (D.2.9) is judged for each board against the game (the moves made):
the sighted board by its pieces, the tactile board by occupancy unless it senses
pieces. ``divergence`` = ``{"ply", "squares", "board"}``: ``ply`` the first position
(0-based, after that many half-moves) where a board parts from the game, ``board``
the board that parts there (None when both do), ``squares`` where it differs.
Moves a board holds beyond the game (the blind player's placement waiting for its
announcement, D.2.3) are not judged.
"""

from __future__ import annotations

from typing import Any

import chess

from ..i18n import tr
from ..ruling import diff_squares, move_ref, placement_key
from .events import BOARDS, BoardName, Event, color_name, parse_square
from .state import GameState

__all__ = ["Boards", "board_name", "board_at"]

Key = tuple[int, ...]


def board_name(name: str) -> BoardName:
    """"sighted" (also "a") or "tactile" (also "b"); ValueError otherwise."""
    if name in ("a", "sighted"):
        return "sighted"
    if name in ("b", "tactile"):
        return "tactile"
    raise ValueError(f"no board {name!r}")


def board_at(board: chess.Board, plies: int) -> chess.Board:
    """``board`` as it stood after its first ``plies`` moves."""
    b = board.copy()
    while len(b.move_stack) > plies:
        b.pop()
    return b


class Boards:
    """The sighted and the tactile board; see the module docstring."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.boards: dict[BoardName, chess.Board] = {name: state.start.copy(stack=False) for name in BOARDS}
        self.keys: dict[BoardName, list[Key]] = {name: [placement_key(state.start)] for name in BOARDS}
        self.divergence: dict[str, Any] | None = None
        self.touches: list[Event] = []
        self._game_moves: list[chess.Move] = []
        self._game_keys: list[Key] = [placement_key(state.start)]

    def other(self, name: BoardName) -> BoardName:
        return "tactile" if name == "sighted" else "sighted"

    # -- inputs ------------------------------------------------------------------------

    def board_move(self, name: BoardName, move: chess.Move, now: float) -> Event:
        """A move made on board ``name``: ``board-move`` (own move or mirror) or ``board-move-rejected``."""
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
        if not replaces and not board.is_legal(move):
            return self._reject(name, move, now, "illegal", "session.board_move_illegal")
        mover = self.state.mover(index)
        role = "own" if self.state.owner_board(mover) == name else "mirror"
        if role == "mirror" and index >= len(self.state.moves):
            return self._reject(name, move, now, "not-made", "session.board_move_not_made")
        san = board_at(board, index).san(move)
        return self.state.log.do("board-move", now, board=name, uci=move.uci(), san=san, ply=index + 1, role=role,
                                 replaces=replaces)

    def _reject(self, name: BoardName, move: chess.Move, now: float, reason: str, key: str) -> Event:
        article = "Art. 7" if reason == "illegal" else "D.2.1"
        return self.state.log.do("board-move-rejected", now, board=name, uci=move.uci(), reason=reason, article=article,
                                 message=tr(key, self.state.lang, board=tr(f"session.board_{name}", self.state.lang),
                                            move=move.uci()))

    def _pending_own_tactile(self) -> int | None:
        """Index of the blind player's own placement on the tactile board that is not yet made."""
        board = self.boards["tactile"]
        index = len(board.move_stack) - 1
        if index < 0 or self.state.blind_color is None:
            return None
        if self.state.mover(index) != self.state.blind_color or index != len(self.state.moves):
            return None
        return index

    def take_back(self, name: BoardName, now: float) -> Event | None:
        """The last move on board ``name`` was taken back (e.g. a wrong mirror undone)."""
        if not self.boards[name].move_stack:
            return None
        return self.state.log.do("take-back", now, board=name, ply=len(self.boards[name].move_stack))

    def touch(self, square: object, now: float, *, board: str = "tactile", piece: str | None = None) -> Event:
        """A touched piece: a lifted peg on the tactile board (D.2.2) or a touch by the sighted player (D.2.10 e)."""
        name = board_name(board)
        sq = parse_square(square)
        if piece is None:
            p = self.boards[name].piece_at(sq)
            piece = p.symbol() if p else None
        blind = self.state.blind_color
        if name == "tactile" and blind is not None:
            toucher = blind
        else:
            toucher = (not blind) if blind is not None else self.boards[name].turn
        own = piece is not None and (piece.isupper() == (toucher == chess.WHITE))
        lang = self.state.lang
        words = tr(f"session.piece_{'w' if piece.isupper() else 'b'}{piece.lower()}", lang) if piece else \
            tr("session.piece_none", lang)
        key = "session.touch_tactile" if name == "tactile" else "session.touch_sighted"
        return self.state.log.do("touch", now, board=name, square=chess.square_name(sq), piece=piece,
                                 by=color_name(toucher), own=own, ply=len(self.state.moves),
                                 article="D.2.2" if name == "tactile" else "D.2.10 e",
                                 message=tr(key, lang, piece=words, square=self.state.words.square(sq)))

    # -- handlers ----------------------------------------------------------------------------

    def on_board_move(self, ev: Event) -> tuple[BoardName, int, chess.Move]:
        """Apply a ``board-move``; returns (board, 0-based index of the move, move). ValueError if illegal."""
        name = board_name(str(ev["board"]))
        board = self.boards[name]
        move = chess.Move.from_uci(str(ev["uci"]))
        if ev.get("replaces"):
            index = int(ev.get("ply", len(board.move_stack))) - 1
            if not 0 <= index < len(board.move_stack) or not board_at(board, index).is_legal(move):
                raise ValueError(f"illegal replacement {move.uci()}")
            while len(board.move_stack) > index:
                board.pop()
                self.keys[name].pop()
        elif not board.is_legal(move):
            raise ValueError(f"illegal move {move.uci()}")
        board.push(move)
        self.keys[name].append(placement_key(board))
        return name, len(board.move_stack) - 1, move

    def on_take_back(self, ev: Event) -> None:
        name = board_name(str(ev["board"]))
        if self.boards[name].move_stack:
            self.boards[name].pop()
            self.keys[name].pop()

    def on_touch(self, ev: Event) -> None:
        self.touches.append(ev)

    # -- for the other collaborators -----------------------------------------------------------

    def set_all(self, moves: list[chess.Move]) -> None:
        """Both boards set to the game ``moves`` from the start (a ruling, an import)."""
        for name in BOARDS:
            b = self.state.start.copy(stack=False)
            keys = [placement_key(b)]
            for m in moves:
                b.push(m)
                keys.append(placement_key(b))
            self.boards[name] = b
            self.keys[name] = keys

    def shows(self, name: BoardName, index: int, move: chess.Move) -> bool:
        """Whether board ``name`` holds ``move`` as its move ``index``."""
        stack = self.boards[name].move_stack
        return len(stack) > index and stack[index] == move

    def _keys_of_game(self) -> list[Key]:
        moves = self.state.moves
        same = 0
        while same < min(len(moves), len(self._game_moves)) and moves[same] == self._game_moves[same]:
            same += 1
        del self._game_moves[same:]
        del self._game_keys[same + 1:]
        if same < len(moves):
            board = self.state.board_after(same)
            for m in moves[same:]:
                board.push(m)
                self._game_moves.append(m)
                self._game_keys.append(placement_key(board))
        return self._game_keys

    def _by_pieces(self, name: BoardName) -> bool:
        return name == "sighted" or self.state.tactile_senses_pieces

    def _parts_at(self, name: BoardName, game: list[Key]) -> int | None:
        """The first position where board ``name`` parts from the game (None: it does not)."""
        mine = self.keys[name]
        full = self._by_pieces(name)
        for i in range(min(len(mine), len(game))):
            a, b = mine[i], game[i]
            if (a != b) if full else (a[6] | a[7]) != (b[6] | b[7]):
                return i
        return None

    def check_divergence(self, now: float) -> None:
        """Judge both boards against the game; tell ``divergence`` / ``boards-agree`` when it changes."""
        game = self._keys_of_game()
        parts = {name: self._parts_at(name, game) for name in BOARDS}
        found = [(i, name) for name, i in parts.items() if i is not None]
        old = self.divergence
        lang = self.state.lang
        if not found:
            self.divergence = None
            if old is not None:
                self.state.log.derive("boards-agree", now, article="D.2.9", message=tr("session.boards_agree", lang))
            return
        first = min(i for i, _ in found)
        wrong = [name for i, name in found if i == first]
        target = self.state.board_after(first)
        squares_set: set[int] = set()
        for name in wrong:
            squares_set.update(diff_squares(board_at(self.boards[name], first), target, not self._by_pieces(name)))
        squares = [chess.square_name(s) for s in sorted(squares_set)]
        board: BoardName | None = wrong[0] if len(wrong) == 1 else None
        if old is not None and old["ply"] == first:
            self.divergence = {"ply": first, "squares": squares, "board": board}
            return
        self.divergence = {"ply": first, "squares": squares, "board": board}
        message = tr("session.divergence", lang, ref=move_ref(self.state.start, first - 1, lang),
                     squares=", ".join(squares))
        if board is not None:
            message += " " + tr("session.divergence_board", lang, board=tr(f"session.board_{board}", lang))
        self.state.log.derive("divergence", now, ply=first, squares=squares, board=board, article="D.2.9",
                              message=message)
