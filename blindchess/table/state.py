"""What every part of the table shares: the game, the one voice, the events going out (pure).

:class:`TableState` holds the rules engine's :class:`~blindchess.game.Session`, the
:class:`~blindchess.table.speech.SpeechPolicy` and the few facts several parts read
(the time, whether the pegs are being set right). It is the table's only way out —
:meth:`~TableState.emit`, :meth:`~TableState.say`, :meth:`~TableState.show`,
:meth:`~TableState.refuse` — and its one way back from the engine: a part that gives
the engine a command hands the events the command returns to :meth:`~TableState.react`,
which puts them at the end of the one queue of the input; the
:class:`~blindchess.table.table.Table` takes them from the front, one batch after the
other, and dispatches each event to the parts that act on it (with ``match``). A part
that must go on once the table has acted on those events queues what it does next
behind them (:meth:`~TableState.then`). Nothing is dispatched while a part is still at
work: the order of the events and of what is said follows from the order of the queue.

The helpers at the end read the game as the people at the table see it (a half-move
in the game's notation, the position an announcement refers to, a player's name).
Positions are looked up in the engine, never replayed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import TypeVar

import chess

from ..base import tr
from ..game import BoardName, GameEvent, GameSnapshot, Session
from ..language import write
from .events import Refused, Shown, TableEvent
from .setup import TableSetup, Who
from .speech import SpeechPolicy

__all__ = ["TableState", "REFUSAL"]

T = TypeVar("T")

#: What a spoken refusal is ``about`` (:meth:`SpeechPolicy.withdraw`): a refusal still waiting when
#: the state it refused has changed (a move made, the game over) is stale and never said.
REFUSAL = "refusal"


class TableState:
    """The shared state of one table (see the module docstring)."""

    def __init__(self, session: Session, setup: TableSetup) -> None:
        self.session = session
        self.setup = setup
        self.lang = session.snapshot.lang
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
        #: The input's queue: batches of the engine's events to dispatch, and what a part does next.
        self.queue: deque[Sequence[GameEvent] | Callable[[], None]] = deque()
        #: A move on a board while a move is to be sealed: the part that seals (the table's adjournments)
        #: takes the sealer's own move as his sealed move (Guidelines I.1 a) and says True — before the
        #: engine, which would refuse it and journal it in clear; False: the board hands it on as usual.
        self.seal_board_move: Callable[[BoardName, chess.Move, float], bool] = _not_sealing
        self._subscribers: list[Callable[[TableEvent], None]] = []
        self._backlog: list[TableEvent] | None = []
        self._out: list[TableEvent] = []

    @property
    def game(self) -> GameSnapshot:
        """The game as it stands after the engine's last command (read it again after a command)."""
        return self.session.snapshot

    # ---------------------------------------------------------------- back from the engine
    def react(self, events: Sequence[GameEvent]) -> None:
        """The events an engine command returned: queued, to be dispatched after everything queued before."""
        if events:
            self.queue.append(events)

    def then(self, step: Callable[[], None]) -> None:
        """``step`` is done once everything queued before it has been dispatched."""
        self.queue.append(step)

    def each(self, items: Sequence[T], handle: Callable[[T], None]) -> None:
        """``handle`` the ``items`` (what a board reported) one at a time, each settled with the game before
        the next: when one gives the engine a command, the rest waits behind what it caused."""
        for i, item in enumerate(items):
            queued = len(self.queue)
            handle(item)
            if len(self.queue) > queued:       # (after the last item the rest is empty: nothing more is done)
                rest = items[i + 1:]
                self.then(lambda: self.each(rest, handle))  # noqa: B023 (the loop ends here)
                return

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
        """Forget the events not yet delivered and not yet dispatched (an input whose journal unit could not
        be written)."""
        self._out = []
        self.queue.clear()

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
            replace: bool = False, private: bool = False) -> None:
        """Ask the voice to say ``text`` to ``to`` (see :class:`SpeechPolicy`; ``about``: what
        :meth:`SpeechPolicy.withdraw` may drop it for; ``replace``: it replaces what is said about the same;
        ``private``: for ``to`` alone)."""
        for ev in self.speech.say(text, to, priority, now, about=about, replace=replace, private=private):
            self.emit(ev)

    def show(self, now: float, text: str, *, private: bool = False) -> None:
        """Show ``text`` to the sighted side (nothing for an empty text; ``private``: to the sighted player
        alone, on his screen's message line, never logged)."""
        if text:
            self.emit(Shown(now, text, private))

    def tell(self, now: float, who: Who, text: str) -> None:
        """``text`` for ``who`` alone (the sealer told that he must write again, Guidelines I.1): said on the
        blind player's own voice, shown on the sighted player's screen — private either way."""
        if who == "blind":
            self.say(now, text, "blind", "answer", private=True)
        else:
            self.show(now, text, private=True)

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
        board, move = self.board_at(index), self.game.game_moves[index]
        return write(board, move, self.lang) if board.is_legal(move) else move.uci()

    def uci_words(self, board_name: BoardName, uci: str) -> str:
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
            return self.board_at(self.game.plies - 1)
        return self.session.game_board()

    def unpressed_own(self) -> bool:
        """The last move made is the blind player's own and his clock is not pressed yet (D.2.8)."""
        game = self.game
        made = game.plies
        if game.blind_color is None or made == 0 or game.auto_press:
            return False
        return game.to_move != game.blind_color and game.plies_pressed < made

    def who(self, color: chess.Color) -> Who:
        """The player who plays ``color`` (the sighted one when nobody is blind)."""
        return "blind" if self.game.is_blind(color) else "sighted"

    def color_of(self, who: Who) -> chess.Color | None:
        """The colour ``who`` plays (None: no blind player)."""
        return self.game.blind_color if who == "blind" else self.sighted_color()

    def sighted_color(self) -> chess.Color:
        """The sighted player's colour (White when nobody is blind)."""
        blind = self.game.blind_color
        return chess.WHITE if blind is None else not blind

    def name(self, color: chess.Color | None) -> str:
        """The player's name ("" for None)."""
        if color is None:
            return ""
        return str(self.game.player(color).name)

    def piece_words(self, piece: chess.Piece | None) -> str:
        """A piece in words ("weißer Springer")."""
        if piece is None:
            return tr("session.piece_unknown", self.lang)
        return tr(f"session.piece_{'w' if piece.color else 'b'}{piece.symbol().lower()}", self.lang)

    def color_words(self, color: chess.Color) -> str:
        """"Weiß" / "Schwarz" in the game's language."""
        return tr(f"session.{'white' if color == chess.WHITE else 'black'}", self.lang)



def _not_sealing(board: BoardName, move: chess.Move, now: float) -> bool:
    return False
