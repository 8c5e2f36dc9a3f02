"""Moves on the boards: made, announced to the other player, mirrored, refused (pure).

* A move on the sighted board is the sighted player's own (made, D.2.5) or a
  mirror of the blind player's; without a peg-board the tactile board's moves
  are entered by hand. A move is given as a ``chess.Move``, UCI, any notation
  or a spoken phrase; an unreadable one is refused.
* A touch reported on the sighted board (D.2.5; the assistant, D.2.10 e) is shown.
* When a move is made (the engine decides, D.2.3/D.2.5) it is shown, the blind
  player hears it in his wording — his own confirmed, the opponent's announced
  to him (D.2.1) — refusals still waiting are stale, and the tactile board is
  told what to show. Both scores are the engine's (it writes them as announced).
* A mirror of a move not made, or a move illegal on its board, or any move once the
  game is over, is refused (said to the blind player when it was his board).
"""

from __future__ import annotations

import chess

from ..base import tr
from ..game import BoardMoveRejected, BoardName, Mirrored, MirrorNeeded, MoveMade, MoveWithdrawn
from ..language import move_words, square_name, understand, write
from ..language import read as read_move
from .events import MirrorDone, Moved, Touched
from .setup import to_color
from .state import TableState
from .tactile import TactileBoard

__all__ = ["Moves"]


class Moves:
    """Moves on both boards (see the module docstring)."""

    def __init__(self, state: TableState, tactile: TactileBoard) -> None:
        self.state = state
        self.tactile = tactile

    # ---------------------------------------------------------------- inputs
    def board_move(self, board: BoardName, move: chess.Move | str, now: float) -> None:
        """A move on ``board``: the sighted one, or the tactile one entered by hand (refused when unreadable)."""
        read = self.read(board, move, now)
        if read is not None and not self.state.seal_board_move(board, read, now):
            self.state.react(self.state.session.board_move(board, read, now))

    def read(self, board_name: BoardName, move: chess.Move | str, now: float, *,
             position: chess.Board | None = None) -> chess.Move | None:
        """``move`` read on ``board_name`` (or in ``position``, e.g. the game's for a move declared with a
        claim): UCI, notation or a phrase; None (and Refused) when unreadable."""
        if isinstance(move, chess.Move):
            return move
        state = self.state
        text = move.strip()
        try:
            uci = chess.Move.from_uci(text.lower())
        except ValueError:
            uci = None
        if uci is not None and uci != chess.Move.null():
            return uci
        board = position if position is not None else state.session.board(board_name)
        reading = read_move(board, text, state.lang)
        if reading.ok and reading.move is not None:
            return reading.move
        u = understand(board, text, state.lang)
        if u.kind == "move" and u.move is not None:
            return u.move
        why = u.message if reading.problem == "unreadable" and u.message else reading.message(state.lang)
        state.refuse(now, "move", why or tr("table.not_understood", state.lang, text=text),
                     to="blind" if board_name == "tactile" else "sighted")
        return None

    def sighted_touch(self, sq: chess.Square, now: float) -> None:
        """The sighted player touched a piece (D.2.5; the assistant reports it, D.2.10 e). Not while the game
        is adjourned: nothing on the board may tell anyone the sealed move (Guidelines I.1)."""
        state = self.state
        if state.game.adjourned:
            state.refuse(now, "touch", tr("table.no_touch_while_sealing", state.lang))
            return
        piece = state.session.board("sighted").piece_at(sq)
        state.react(state.session.touch(sq, now, board="sighted"))
        state.emit(Touched(now, chess.square_name(sq), "sighted"))
        state.show(now, tr("table.sighted_touched", state.lang, piece=state.piece_words(piece),
                           square=chess.square_name(sq)))

    # ---------------------------------------------------------------- what the engine decided
    def made(self, ev: MoveMade) -> None:
        """A move was made: shown, said to the blind player in his wording, the pegs told what to show."""
        state = self.state
        t = ev.t
        ply = ev.ply
        color = to_color(ev.color)
        move = chess.Move.from_uci(ev.uci)
        state.adjusting = False
        state.settled()
        self.tactile.move_made()
        state.emit(Moved(t, ply, ev.color, ev.uci, ev.san))
        before = state.board_at(ply - 1)
        if ev.legal:
            written = write(before, move, state.lang)
            phrase = move_words(before, move, state.lang, state.wording)
        else:       # an illegal move made as played (rapid, blitz without adequate supervision): from, to
            written = ev.uci
            piece = before.piece_at(move.from_square)
            phrase = tr("table.illegal_move_words", state.lang, piece=state.piece_words(piece),
                        start=square_name(move.from_square, state.lang),
                        target=square_name(move.to_square, state.lang))
        state.show(t, tr("table.move_shown", state.lang, color=tr(f"table.{ev.color}", state.lang), move=written))
        if state.game.is_blind(color):
            state.say(t, tr("table.move_confirmed", state.lang, move=phrase), "blind", "move")
        elif state.game.blind_color is not None:
            state.say(t, phrase, "blind", "move")        # the sighted player's move announced to him (D.2.1)
        self.tactile.expect(t)
        self.tactile.follow_game(t)       # without a tactile board his board is the game itself

    def withdrawn(self, ev: MoveWithdrawn) -> None:
        self.state.withdrawn = True
        self.state.show(ev.t, tr("table.move_withdrawn_shown", self.state.lang, ply=ev.ply))

    def mirror_needed(self, ev: MirrorNeeded) -> None:
        state = self.state
        t = ev.t
        written = state.written(ev.ply - 1) if ev.ply <= state.game.plies else ev.uci
        if ev.board == "sighted":
            state.show(t, tr("table.next_mirror_on_sighted", state.lang, move=written))
        else:
            state.show(t, tr("table.next_mirror_on_tactile", state.lang, name=state.name(state.game.blind_color),
                             move=written))
        self.tactile.expect(t)

    def mirrored(self, ev: Mirrored) -> None:
        self.state.emit(MirrorDone(ev.t, ev.board, ev.ply))

    def rejected(self, ev: BoardMoveRejected) -> None:
        state = self.state
        name = ev.board
        if ev.reason == "not-made":
            text = tr("table.refused_not_made", state.lang, move=state.uci_words(name, ev.uci),
                      name=state.name(state.session.board(name).turn))
            what = "mirror"
        elif ev.reason == "game-over":
            text = tr("table.game_over", state.lang)
            what = "move"
        elif ev.reason == "adjourned":
            text = tr("table.adjourned_no_move", state.lang)
            what = "move"
        else:
            text = tr("table.refused_illegal", state.lang, move=state.uci_words(name, ev.uci),
                      board=tr(f"table.board_{name}", state.lang))
            what = "move"
        state.refuse(ev.t, what, text, to="blind" if name == "tactile" else "sighted")
