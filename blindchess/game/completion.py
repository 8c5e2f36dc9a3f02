"""When a move is made: FIDE Laws D.2.3 (the visually impaired player), D.2.5 (the sighted player),
D.2.8 (a slip of the tongue corrected before the opponent's clock is started).

* D.2.5: the sighted player's own move is made when it is on his board.
* D.2.3: the blind player's move is made when the tactile board shows it (placed in
  a different hole, a capture removed) *and* it has been announced — in either order.
  A placement without announcement is :class:`Placed`; an announcement the board does
  not show is :class:`AnnounceMismatch` (nothing made).
* D.2.8: until he presses, the blind player may correct his announcement: the made
  move is withdrawn (:class:`MoveWithdrawn`) and the corrected announcement is judged
  against the tactile board again. Repeating the same announcement changes nothing.
  After the press a correction is refused (:class:`CorrectionRefused`).
* A made move asks for its mirror on the other board (:class:`MirrorNeeded`) or
  confirms it (:class:`Mirrored`) — only when that board shows exactly that move.
* Once the game is over no move is made (Art. 5, 6.9, 9.6).
"""

from __future__ import annotations

import chess

from .boards import Boards
from .clock import Timing
from .ending import Ending
from .events import (
    Announce,
    AnnounceIgnored,
    AnnounceMismatch,
    AnnounceUnclear,
    BoardName,
    CorrectionRefused,
    Mirrored,
    MirrorNeeded,
    MoveMade,
    MoveWithdrawn,
    Placed,
    color_name,
)
from .scores import Scores
from .state import GameState

__all__ = ["Completion"]


class Completion:
    """Move completion; see the module docstring."""

    def __init__(self, state: GameState, boards: Boards, timing: Timing, ending: Ending, scores: Scores) -> None:
        self.state = state
        self.boards = boards
        self.timing = timing
        self.ending = ending
        self.scores = scores
        #: The announcement waiting for its placement: (ply, uci, text).
        self.announced: tuple[int, str, str] | None = None

    # -- announcing ----------------------------------------------------------------------
    def announce(self, move: chess.Move | None, text: str, now: float, *, correction: bool,
                 problem: str | None) -> None:
        """The blind player announces ``move`` (None: the words named no legal move; ``problem`` says why).

        Records :class:`Announce`, or :class:`AnnounceIgnored` when there is nothing to announce
        (no blind player, the game over, not his turn, the same move again after the press).
        """
        state = self.state
        blind = state.blind_color
        if blind is None:
            state.log.record(AnnounceIgnored(t=now, reason="no-blind"))
            return
        made = len(state.moves)
        next_is_blind = state.mover(made) == blind
        last_own = made > 0 and not next_is_blind      # the players alternate: the last move was his
        if state.result is not None:
            state.log.record(AnnounceIgnored(t=now, reason="game-over"))
            return
        if last_own and self.timing.pressed < made and not state.auto_press:
            index = made - 1  # D.2.8: a correction before the opponent's clock is started
            correction = True
        elif last_own:
            if move is not None and move == state.moves[made - 1]:
                state.log.record(AnnounceIgnored(t=now, reason="repeat"))
                return
            if not correction:
                state.log.record(AnnounceIgnored(t=now, reason="not-turn"))
                return
            # D.2.8: too late once the opponent's clock has been started.
            state.log.record(Announce(t=now, text=text, uci=None if move is None else move.uci(), ply=made,
                                      correction=True, refused=True))
            return
        elif next_is_blind:
            index = made
        else:
            state.log.record(AnnounceIgnored(t=now, reason="not-turn"))
            return
        if move is not None and not state.position(index).is_legal(move):
            move, problem = None, problem or "illegal"
        state.log.record(Announce(t=now, text=text, uci=None if move is None else move.uci(), ply=index + 1,
                                  correction=correction, problem=None if move else (problem or "unreadable")))

    # -- handlers ------------------------------------------------------------------------------
    def on_announce(self, ev: Announce) -> None:
        state = self.state
        if ev.refused:
            state.log.record(CorrectionRefused(t=ev.t, text=ev.text))
            return
        index = ev.ply - 1
        if ev.uci is None:
            state.log.record(AnnounceUnclear(t=ev.t, text=ev.text, problem=ev.problem))
            return
        if index == len(state.moves) - 1:
            if state.moves[index].uci() == ev.uci:
                return  # the same announcement repeated: the move stands as made
            # D.2.8: the move is un-made; the corrected announcement is judged again.
            withdrawn = state.pop()
            state.log.record(MoveWithdrawn(t=ev.t, ply=index + 1, uci=withdrawn.uci()))
        self.announced = (index + 1, ev.uci, ev.text)
        self.evaluate_blind(ev.t)

    def on_board_move(self, name: BoardName, index: int, move: chess.Move, role: str, now: float) -> None:
        """After a move on a board: the owner's move may now be made; a mirror may be confirmed."""
        state = self.state
        if role == "own" and index == len(state.moves):
            if name == "sighted":
                self.make(index, move, now)
            else:
                self.evaluate_blind(now)
        elif index < len(state.moves) and state.moves[index] == move:
            state.log.record(Mirrored(t=now, board=name, ply=index + 1))

    # -- the move made ---------------------------------------------------------------------------
    def evaluate_blind(self, now: float) -> None:
        """D.2.3: made when the tactile board shows the move and it has been announced."""
        state = self.state
        index = len(state.moves)
        if state.blind_color is None or state.mover(index) != state.blind_color or state.result is not None:
            return
        tactile = self.boards.boards["tactile"]
        if len(tactile.move_stack) != index + 1:
            return  # nothing placed for this ply (or the board is ahead: not a placement of this ply)
        placed = tactile.move_stack[index]
        ann = self.announced if self.announced and self.announced[0] == index + 1 else None
        if ann is None:
            state.log.record(Placed(t=now, ply=index + 1, uci=placed.uci()))
            return
        if ann[1] == placed.uci():
            self.make(index, placed, now)
            return
        state.log.record(AnnounceMismatch(t=now, ply=index + 1, announced=ann[1], placed=placed.uci()))

    def make(self, index: int, move: chess.Move, now: float) -> None:
        """The move of ply ``index`` is made: recorded, written in both scores, the mirror asked for,
        the game's end checked, the app's press made (``auto_press``)."""
        state = self.state
        board = state.board
        mover = board.turn
        legal = board.is_legal(move)
        san = board.san(move) if legal else move.uci()
        if not legal:
            state.illegal.add(index)
        state.push(move)
        self.announced = None
        self.scores.made(index, move)
        state.log.record(MoveMade(t=now, ply=index + 1, color=color_name(mover), uci=move.uci(), san=san,
                                  blind=state.is_blind(mover), legal=legal))
        other = self.boards.other(state.owner_board(mover))
        if self.boards.shows(other, index, move):
            state.log.record(Mirrored(t=now, board=other, ply=index + 1))
        else:
            state.log.record(MirrorNeeded(t=now, board=other, ply=index + 1, uci=move.uci(), san=san))
        if legal:
            self.ending.after_move(now)
        self.timing.auto_press(index, mover, now)
