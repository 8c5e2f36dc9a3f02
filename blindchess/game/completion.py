"""When a move is made: FIDE Laws D.2.3 (the visually impaired player), D.2.5 (the sighted player),
D.2.8 (a slip of the tongue corrected before the opponent's clock is started).

* D.2.5: the sighted player's own move is made when it is on his board.
* D.2.3: the blind player's move is made when the tactile board shows it (placed in
  a different hole, a capture removed) *and* it has been announced — in either order.
  A placement without announcement is ``placed``; an announcement the board does
  not show is ``announce-mismatch`` (nothing made).
* D.2.8: until he presses, the blind player may correct his announcement: the made
  move is withdrawn (``move-withdrawn``) and the corrected announcement is judged
  against the tactile board again. Repeating the same announcement changes nothing.
  After the press a correction is refused (``correction-refused``).
* A made move asks for its mirror on the other board (``mirror-needed``) or
  confirms it (``mirrored``) — only when that board shows exactly that move.
"""

from __future__ import annotations

from collections.abc import Callable

import chess

from ..i18n import tr
from .boards import Boards, board_at
from .ending import Ending
from .events import BoardName, Event, color_name
from .state import GameState
from .timing import Timing

__all__ = ["Completion"]


class Completion:
    """Move completion; see the module docstring."""

    def __init__(self, state: GameState, boards: Boards, timing: Timing, ending: Ending) -> None:
        self.state = state
        self.boards = boards
        self.timing = timing
        self.ending = ending
        self.announced: dict[str, object] | None = None
        self.on_made: list[Callable[[], None]] = []   # told when a move is made (a question is answered)

    # -- announcing ----------------------------------------------------------------------

    def announce(self, what: str | chess.Move, now: float, *, correction: bool = False) -> Event:
        """The blind player announces his move (voice text, typed text or a ``chess.Move``).

        Returns the ``announce`` event, or an ``announce-ignored`` event when there is
        nothing to announce (no blind player, not his turn, a repetition after the press).
        """
        state = self.state
        blind = state.blind_color
        if blind is None:
            return self.ignored(now, "session.announce_no_blind")
        made = len(state.moves)
        last_own = made > 0 and state.mover(made - 1) == blind
        last_own_unpressed = last_own and self.timing.pressed < made
        last_own_pressed = last_own and self.timing.pressed >= made
        next_is_blind = state.mover(made) == blind
        if next_is_blind and not correction:
            index = made
        elif last_own_unpressed:
            index = made - 1  # D.2.8: a correction before the opponent's clock is started
            correction = True
        elif last_own_pressed and (correction or not next_is_blind):
            board = state.board_after(made - 1)
            said: chess.Move | None
            if isinstance(what, chess.Move):
                kind, said = "move", what
            else:
                heard = state.words.understand(board, what)
                kind, said = heard.kind, heard.move
            if said is not None and said == state.moves[made - 1]:
                return self.ignored(now, "session.announce_repeat")
            if not correction and kind != "correction":
                return self.ignored(now, "session.announce_not_turn")
            # D.2.8: too late once the opponent's clock has been started.
            return state.log.do("announce", now, text=str(what), uci=said.uci() if said else None,
                                ply=made, correction=True, refused=True)
        elif next_is_blind:
            index = made
        else:
            return self.ignored(now, "session.announce_not_turn")
        board = state.board_after(index)
        message = ""
        if isinstance(what, chess.Move):
            legal = board.is_legal(what)
            move: chess.Move | None = what if legal else None
            text = state.words.announce(board, what) if legal else what.uci()
            if not legal:
                message = tr("session.entry_illegal", state.lang, written=what.uci())
        else:
            text = str(what)
            heard = state.words.understand(board, text)
            move, message = heard.move, heard.message
            if heard.kind == "correction":
                correction = True
            if move is not None and not board.is_legal(move):
                move = None
        return state.log.do("announce", now, text=text, uci=move.uci() if move else None, ply=index + 1,
                            correction=correction, problem=None if move else (message or "unreadable"))

    def ignored(self, now: float, key: str) -> Event:
        return self.state.log.told("announce-ignored", now, message=tr(key, self.state.lang))

    # -- handlers ------------------------------------------------------------------------------

    def on_announce(self, ev: Event) -> None:
        state = self.state
        now = float(ev["t"])
        text = str(ev.get("text", ""))
        if ev.get("refused"):
            state.log.derive("correction-refused", now, article="D.2.8",
                             message=tr("session.correction_refused", state.lang, text=text))
            return
        index = int(ev["ply"]) - 1
        if ev.get("uci") is None:
            state.log.derive("announce-unclear", now, text=text, article="D.2.1",
                             message=tr("session.announce_unclear", state.lang, text=text, why=ev.get("problem") or ""))
            return
        if index == len(state.moves) - 1:
            if state.moves[index].uci() == ev["uci"]:
                return  # the same announcement repeated: the move stands as made
            # D.2.8: the move is un-made; the corrected announcement is judged again.
            withdrawn = state.moves.pop()
            state.log.derive("move-withdrawn", now, ply=index + 1, uci=withdrawn.uci(), article="D.2.8",
                             message=tr("session.move_withdrawn", state.lang, text=text))
        self.announced = {"ply": index + 1, "uci": str(ev["uci"]), "text": text}
        self.evaluate_blind(now)

    def on_board_move(self, name: BoardName, index: int, move: chess.Move, role: str, now: float) -> None:
        """After a move on a board: the owner's move may now be made; a mirror may be confirmed."""
        state = self.state
        if role == "own" and index == len(state.moves):
            if name == "sighted":
                self.make(index, move, now, "D.2.5", text=None)
            else:
                self.evaluate_blind(now)
        elif index < len(state.moves) and state.moves[index] == move:
            state.log.derive("mirrored", now, board=name, ply=index + 1)

    # -- the move made ---------------------------------------------------------------------------

    def evaluate_blind(self, now: float) -> None:
        """D.2.3: made when the tactile board shows the move and it has been announced."""
        state = self.state
        index = len(state.moves)
        if state.blind_color is None or state.mover(index) != state.blind_color:
            return
        tactile = self.boards.boards["tactile"]
        if len(tactile.move_stack) != index + 1:
            return  # nothing placed for this ply (or the board is ahead: not a placement of this ply)
        placed = tactile.move_stack[index]
        ann = self.announced if self.announced and self.announced["ply"] == index + 1 else None
        if ann is None:
            state.log.derive("placed", now, ply=index + 1, uci=placed.uci(), article="D.2.3")
            return
        if ann["uci"] == placed.uci():
            self.make(index, placed, now, "D.2.3", text=str(ann["text"]))
            return
        board = state.game_board()
        said = chess.Move.from_uci(str(ann["uci"]))
        said_words = state.words.announce(board, said) if board.is_legal(said) else str(ann["text"])
        shown = state.words.announce(board_at(tactile, index), placed)
        state.log.derive("announce-mismatch", now, ply=index + 1, announced=ann["uci"], placed=placed.uci(),
                         article="D.2.3", message=tr("session.announce_mismatch", state.lang, said=said_words, shown=shown))

    def make(self, index: int, move: chess.Move, now: float, article: str, text: str | None) -> None:
        """The move of ply ``index`` is made: record it, ask for the mirror, check the game's end."""
        state = self.state
        board = state.game_board()
        mover = board.turn
        san = board.san(move)
        spoken = state.words.announce(board, move)
        state.moves.append(move)
        self.announced = None
        for hook in self.on_made:
            hook()
        key = "session.move_made_blind" if article == "D.2.3" else "session.move_made"
        said = text or spoken
        state.log.derive("move-made", now, ply=index + 1, color=color_name(mover), uci=move.uci(), san=san,
                         text=said, article=article,
                         message=tr(key, state.lang, color=state.words.color(mover), move=said))
        other = self.boards.other(state.owner_board(mover))
        if self.boards.shows(other, index, move):
            state.log.derive("mirrored", now, board=other, ply=index + 1)
        else:
            state.log.derive("mirror-needed", now, board=other, ply=index + 1, uci=move.uci(), san=san, text=spoken,
                             message=tr(f"session.mirror_on_{other}", state.lang, move=spoken))
        board.push(move)
        outcome = board.outcome(claim_draw=False)
        if outcome is not None:
            self.ending.end(outcome.result(), outcome.termination.name.lower(), now)
        self.timing.auto_press(index, mover, now)
