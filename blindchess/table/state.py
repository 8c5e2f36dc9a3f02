"""What every part of the table shares: the game, the one voice, the events going out (pure).

:class:`TableState` holds the rules engine's :class:`~blindchess.game.Session`, the
:class:`~blindchess.table.speech.SpeechPolicy` and the few facts several parts read
(the time, whether the pegs are being set right). It is the table's only way out —
:meth:`~TableState.emit`, :meth:`~TableState.say`, :meth:`~TableState.show`,
:meth:`~TableState.refuse` — and its one way back from the engine: a part that gives
the engine a command hands the events the command returns to :meth:`~TableState.react`
(the :class:`~blindchess.table.table.Table` dispatches them to the parts that act on
them, with ``match``).

The helpers at the end read the game as the people at the table see it (a half-move
in the game's notation, the position an announcement refers to, a player's name).
Positions are looked up in the engine, never replayed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import chess

from ..base import tr
from ..game import GameEvent, Session
from ..language import write
from .events import Refused, Shown, TableEvent
from .setup import TableSetup, Who, to_color
from .speech import SpeechPolicy

__all__ = ["TableState", "REFUSAL"]

#: What a spoken refusal is ``about`` (:meth:`SpeechPolicy.withdraw`): a refusal still waiting when
#: the state it refused has changed (a move made, the game over) is stale and never said.
REFUSAL = "refusal"


class TableState:
    """The shared state of one table (see the module docstring)."""

    def __init__(self, session: Session, setup: TableSetup) -> None:
        self.session = session
        self.setup = setup
        self.lang = session.lang
        self.speech = SpeechPolicy(self.lang, wpm=setup.wpm)
        self.now = 0.0
        #: A ruling or a resume: the pegs are being set right (no touches, no moves).
        self.adjusting = False
        #: The blind player's made move was withdrawn by a correction in this input (D.2.8).
        self.withdrawn = False
        #: The half-move the opening of the envelope announced to everyone (not announced to him again).
        self.opened_ply: int | None = None
        #: How moves and squares are worded for the blind player (``board_words.WORDINGS``).
        self.wording = setup.wording
        #: Where the events the engine returns go (the table's dispatch).
        self.react: Callable[[Sequence[GameEvent]], None] = _nowhere
        self._subscribers: list[Callable[[TableEvent], None]] = []
        self._backlog: list[TableEvent] | None = []
        self._out: list[TableEvent] = []

    # ---------------------------------------------------------------- table events out
    def subscribe(self, callback: Callable[[TableEvent], None]) -> Callable[[], None]:
        """Call ``callback`` with every table event, in order; returns the unsubscribe function.

        The first subscriber also gets the events emitted before it subscribed.
        """
        self._subscribers.append(callback)
        backlog, self._backlog = self._backlog, None
        for ev in backlog or ():
            callback(ev)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)
        return unsubscribe

    def emit(self, ev: TableEvent) -> None:
        """Queue ``ev``; it goes out with :meth:`deliver` (after the input is journaled)."""
        self._out.append(ev)

    def drop_queued(self) -> None:
        """Forget the events not yet delivered (an input whose journal unit could not be written)."""
        self._out = []

    def deliver(self) -> None:
        """Give the queued events to the subscribers (to the backlog before the first one)."""
        out, self._out = self._out, []
        if self._backlog is not None:
            self._backlog.extend(out)
            return
        for ev in out:
            for cb in list(self._subscribers):
                cb(ev)

    def say(self, now: float, text: str, to: str, priority: str, *, about: str | None = None,
            replace: bool = False) -> None:
        """Ask the voice to say ``text`` to ``to`` (see :class:`SpeechPolicy`; ``about``: what
        :meth:`SpeechPolicy.withdraw` may drop it for; ``replace``: it replaces what is said about the same)."""
        for ev in self.speech.say(text, to, priority, now, about=about, replace=replace):
            self.emit(ev)

    def show(self, now: float, text: str) -> None:
        """Show ``text`` to the sighted side (nothing for an empty text)."""
        if text:
            self.emit(Shown(now, text))

    def refuse(self, now: float, what: str, text: str, *, to: str = "sighted") -> None:
        """An input is refused: a :class:`Refused` event, said too when it was the blind player's —
        at once, or not at all once it is stale (:data:`REFUSAL`)."""
        self.emit(Refused(now, what, text))
        if to == "blind":
            self.say(now, text, "blind", "answer", about=REFUSAL)

    def settled(self) -> None:
        """The game moved on (a move made, the game over): refusals still waiting are stale."""
        self.speech.withdraw(REFUSAL)

    # ---------------------------------------------------------------- the game as the table sees it
    def board_at(self, plies: int) -> chess.Board:
        """The game's position after ``plies`` half-moves (no move stack)."""
        return self.session.position(plies)

    def written(self, index: int) -> str:
        """Half-move ``index`` of the game in the session language's notation (an illegal move made as
        played — rapid or blitz without adequate supervision — from square to square)."""
        board, move = self.board_at(index), self.session.game_moves[index]
        return write(board, move, self.lang) if board.is_legal(move) else move.uci()

    def uci_words(self, board_name: str, uci: str) -> str:
        """A move given as UCI, in the game's notation where it is legal on ``board_name`` or in the game."""
        board = self.session.board(board_name)
        try:
            move = chess.Move.from_uci(uci)
        except ValueError:
            return uci
        if board.is_legal(move):
            return write(board, move, self.lang)
        game = self.session.game_board()
        return write(game, move, self.lang) if game.is_legal(move) else uci

    def hearing_board(self) -> chess.Board:
        """The position an announcement refers to: before the blind player's own unpressed move (D.2.8)."""
        if self.unpressed_own():
            return self.board_at(self.session.plies - 1)
        return self.session.game_board()

    def unpressed_own(self) -> bool:
        """The last move made is the blind player's own and his clock is not pressed yet (D.2.8)."""
        s = self.session
        made = s.plies
        if s.blind_color is None or made == 0 or s.auto_press:
            return False
        return s.to_move != s.blind_color and s.plies_pressed < made

    def who(self, who: str) -> Who:
        """"blind"/"sighted", also from a colour name (ValueError for anything else)."""
        if who in ("blind", "sighted"):
            return "blind" if who == "blind" else "sighted"
        color = to_color(who)
        return "blind" if self.session.blind_color is not None and color == self.session.blind_color else "sighted"

    def color_of(self, who: Who) -> chess.Color | None:
        """The colour ``who`` plays (None: no blind player)."""
        return self.session.blind_color if who == "blind" else self.sighted_color()

    def sighted_color(self) -> chess.Color:
        """The sighted player's colour (White when nobody is blind)."""
        blind = self.session.blind_color
        return chess.WHITE if blind is None else not blind

    def name(self, color: chess.Color | None) -> str:
        """The player's name ("" for None)."""
        if color is None:
            return ""
        return str(self.session.player(color).name)

    def piece_words(self, piece: chess.Piece | None) -> str:
        """A piece in words ("weißer Springer")."""
        if piece is None:
            return tr("session.piece_unknown", self.lang)
        return tr(f"session.piece_{'w' if piece.color else 'b'}{piece.symbol().lower()}", self.lang)

    def color_words(self, color: chess.Color) -> str:
        """"Weiß" / "Schwarz" in the game's language."""
        return tr(f"session.{'white' if color == chess.WHITE else 'black'}", self.lang)


def _nowhere(events: Sequence[GameEvent]) -> None:
    return None
