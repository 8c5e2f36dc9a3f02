"""The sighted player's board read by itself: a DGT e-board at the table (pure core).

With ``TableSetup.sighted_board == "dgt"`` the :class:`~blindchess.table.table.Table`
owns one :class:`EBoard`. It reads the e-board's raw events
(:class:`~blindchess.pegboard.tracker.PieceUpdate` and
:class:`~blindchess.pegboard.tracker.Snapshot`, as the serial link in input
mode or the scenario runner delivers them) with a piece-sensing
:class:`~blindchess.pegboard.tracker.Tracker` and the table's settle time, and
turns what the hands do into the game:

* **The sighted player's own move** (FIDE Laws D.2.5) is a move on the sighted
  board (``Session.board_move``): the table announces it to the blind player
  at once (D.2.1, D.2.10 b). Nobody types it.
* **The assistant's mirror of the blind player's move** is compared at once.
  A legal move other than the one made — a wrong square, a wrong piece, a
  wrong promotion piece — goes to the session as what the board shows, so it is
  a divergence (D.2.9) the moment the piece is set down. A position no legal
  move explains (a piece of the wrong kind set down) is shown square by square
  (:attr:`EBoard.mismatch`) until the board is right again. A mirror set up
  before the blind player's move is made (D.2.3) is refused by the session and
  *held*: it counts the moment that move is made.
* **A touch** (D.2.5, Art. 4.3): the first of his own pieces the sighted player
  lifts while he is to move (the e-board showing the game) is recorded
  (``Session.touch`` on the sighted board, a :class:`Touched` event with
  ``by="sighted"``). When he then moves another piece although the touched one
  could move, the arbiter's view is told (D.2.10 e); the blind player hears the
  touches on request (:func:`touch_report`). Nothing is enforced.
* **Sync and faults**: the first board dump (on connect, after a reconnect, after
  a restart) is compared with the game: a move the board shows beyond the game
  (made while the cable was out or the program down) is read once, even two
  (the mirror and the reply); anything else is shown square by square. Nothing
  half-received is ever a move, so unplugging neither loses nor invents one.
  After a D.2.9 ruling the board is *being set right* (:attr:`EBoard.adjusting`):
  nothing it shows is a move or a touch until it shows the game again.
* A lifted piece is reported as a lift; a ``Place`` without a piece (a board
  that does not sense pieces) is not trusted: the board is asked for a dump.

What the table must carry out goes out through the table's
:class:`~blindchess.table.state.TableState`: :class:`Touched`, :class:`Shown`, and
``DeviceRequest(device="eboard", what="snapshot")`` (answered with a board dump).
The e-board gives the engine its commands and hands what they return to
``state.react`` (the rest of the table acts on the engine's events: announcements,
divergence, mirrored …); the table tells it of moves made (:meth:`EBoard.made`)
and rulings (:meth:`EBoard.ruled`). It never reads a clock and never sleeps; every
input takes ``now``.

The window's board keeps working beside it (corrections, games without an
e-board): a move entered there changes what the e-board should show, and a
difference is shown until the pieces follow.
"""

from __future__ import annotations

from dataclasses import dataclass

import chess

from ..base import tr
from ..game import BoardMove, BoardMoveRejected, MoveMade, Ruling, RulingOverride, Session, Touch
from ..language import square_name, voice, write
from ..pegboard import InputEvent, Lift, PieceUpdate, Place, Snapshot, Tracker, TrackerEvent, same_position
from .events import Device, DeviceRequest, Touched
from .physical import Settling, expected_position
from .state import TableState

__all__ = ["DEVICE", "SIGHTED_BOARDS", "EBoard", "EBoardTouch", "touch_report", "differing_squares",
           "describe_difference"]

#: The ``device`` of the e-board's :class:`DeviceRequest` events.
DEVICE: Device = "eboard"
#: What ``TableSetup.sighted_board`` may be: the window's board only, or a DGT e-board.
SIGHTED_BOARDS = ("window", "dgt")


@dataclass(frozen=True)
class EBoardTouch:
    """A piece the sighted player lifted while he was to move: square, piece, when, at which half-move index."""

    t: float
    square: int
    piece: chess.Piece
    ply: int


def _piece_words(piece: chess.Piece | None, lang: str) -> str:
    """"weißer Springer" / "leer": the voice's words (the same on the screen and in speech)."""
    v = voice(lang)
    if piece is None:
        return v.spoken.get("empty") or tr("eboard.empty", lang)
    words = v.pieces[piece.piece_type]
    return words.white if piece.color == chess.WHITE else words.black


def differing_squares(shown: dict[int, chess.Piece], target: chess.BaseBoard) -> list[int]:
    """The squares where ``shown`` (square -> piece on the e-board) differs from ``target``, a8 … h1
    (the order a player reads a board in)."""
    return [chess.square(file, rank) for rank in range(7, -1, -1) for file in range(8)
            if shown.get(chess.square(file, rank)) != target.piece_at(chess.square(file, rank))]


def describe_difference(shown: dict[int, chess.Piece], target: chess.BaseBoard, lang: str) -> tuple[str, ...]:
    """Square by square where ``shown`` differs from ``target`` (:func:`differing_squares`), in words:
    e.g. "e5: schwarzer Läufer statt schwarzer Bauer" (in ``lang``)."""
    return tuple(tr("eboard.square_differs", lang, square=chess.square_name(square),
                    shown=_piece_words(shown.get(square), lang), wanted=_piece_words(target.piece_at(square), lang))
                 for square in differing_squares(shown, target))


def touch_report(session: Session, lang: str) -> str:
    """What the assistant tells the blind player on request (D.2.10 e): the sighted player's touches.

    The touches on the sighted board in the sighted player's current turn (or his
    last one, when the blind player is to move), spoken words only (no article
    numbers, no notation ids).
    """
    blind = session.snapshot.blind_color
    sighted = chess.WHITE if blind is None else not blind
    made = session.snapshot.plies
    first_mover = session.snapshot.start.turn
    ply = made if (first_mover if made % 2 == 0 else not first_mover) == sighted else made - 1
    touches = [ev for ev in session.snapshot.touches if ev.board == "sighted" and ev.ply == ply]
    name = session.snapshot.player(sighted).name
    if not touches:
        return tr("eboard.no_touches_said", lang, name=name)
    words = []
    for ev in touches:
        symbol = ev.piece
        piece = chess.Piece.from_symbol(str(symbol)) if symbol else None
        words.append(tr("eboard.touch_said", lang, piece=_piece_words(piece, lang),
                        square=square_name(chess.parse_square(ev.square), lang)))
    return tr("eboard.touches_said", lang, name=name, touches=", ".join(words))


class EBoard:
    """The sighted player's e-board at one table; see the module docstring.

    ``state``: the table's shared state (the session, events out, the
    session-event registry); the settle time is the table's
    (``TableSetup.settle_time``).
    """

    def __init__(self, state: TableState) -> None:
        self.state = state
        session = state.session
        self.session = session
        self.lang = state.lang
        self.settle = state.setup.settle_time
        board = session.board("sighted")
        self.tracker = Tracker(board, settle=self.settle, senses_pieces=True)
        self.pieces: dict[int, chess.Piece] = dict(board.piece_map())   # what the e-board shows (as believed)
        self.mismatch: tuple[str, ...] = ()        # square names where the e-board differs (none: it agrees)
        self.differences: tuple[str, ...] = ()     # the same, with the pieces, in words (shown)
        self.adjusting = False                     # after a ruling: being set right, nothing counts
        self._quiet = False                        # ... a sealed move taken back: silently
        self.held: chess.Move | None = None        # a mirror set up before its move was made (D.2.3)
        self.touches: list[EBoardTouch] = []             # the sighted player's touches in his current turn
        self.snapshots = 0                         # board dumps seen (before the first one ``pieces`` is assumed)
        self.settling = Settling(self.settle)      # the last change the board reported
        self._target_key: str | None = None
        self._refused: tuple[str, str] | None = None   # (position, move) refused once: not offered again
        self._confirm = False

    # ------------------------------------------------------------------ inputs
    def feed(self, event: InputEvent, now: float) -> None:
        """One raw event of the e-board at ``now``: ``PieceUpdate`` / ``Snapshot`` (``Lift`` reads as a lift).

        A ``Place`` without a piece cannot be judged on a board read by its pieces:
        the board is asked for a dump instead.
        """
        if isinstance(event, Place):
            self._request(now)
            return
        if isinstance(event, Lift):
            event = PieceUpdate(event.t, event.square, None)
        if isinstance(event, Snapshot):
            self.snapshots += 1
            self._confirm = True
            if event.pieces is not None:
                self.pieces = dict(event.pieces)
        elif isinstance(event, PieceUpdate):
            if event.piece is None:
                self.pieces.pop(event.square, None)
            else:
                self.pieces[event.square] = event.piece
        self.settling.changed(now)
        self._handle(self.tracker.feed(event), now)
        if self.settle <= 0:
            self.tick(now)

    def tick(self, now: float) -> None:
        """Time passes: a state that stood for the settle time is judged."""
        self._handle(self.tracker.tick(now), now)
        if self.adjusting and self._settled(now):
            self._check_adjusted(now)

    def align(self, now: float) -> None:
        """After the game changed (a move made, a ruling, a move in the window): what the e-board should show.

        Called by the table at the end of every input. A held mirror is offered
        once its move is made; after a ruling the board is being set right.
        """
        state = self.state
        if self.held is not None and state.game.plies > state.game.board_length("sighted") and not self.adjusting:
            held, self.held = self.held, None
            self._refused = None         # the game changed: offered afresh
            self._offer(held, now)
        target = self._target()
        key = target.fen() + (" adjusting" if self.adjusting else "")
        if key == self._target_key:
            return
        self._target_key = key
        if self.adjusting:
            if self._settled(now):
                self._check_adjusted(now)
            return
        if self.held is not None:
            return       # the board shows one move more than the game: it waits for that move
        self._handle(self.tracker.expect(target) + self.tracker.tick(now), now)

    def resumed(self, now: float) -> None:
        """The program started again (a crash, a restart): ask the board what it shows.

        When a ruling is the last thing that happened (no move made since), the board
        may still be being set right: it is judged against the game, nothing it shows
        is a move until it shows the game (a position retraced must not come back as a move).
        A piece the sighted player touched in the move under way is his first touch still, as
        it was before the crash.
        """
        for ev in reversed(self.session.events):
            if isinstance(ev, Touch) and ev.board == "sighted" and ev.piece is not None \
                    and ev.ply == self.state.game.plies and not self.touches:
                # his move under way: the piece he touched first stays the one he touched (Art. 4.3)
                self.touches.append(EBoardTouch(ev.t, chess.parse_square(ev.square), chess.Piece.from_symbol(ev.piece),
                                                ev.ply))
            if isinstance(ev, MoveMade) or (isinstance(ev, Touch) and ev.board == "sighted"):
                break       # a move made, or a touch (counted only when the board showed the game)
            if isinstance(ev, (Ruling, RulingOverride)):
                self.adjusting = True
                break
        self._target_key = None
        self._request(now)

    # ------------------------------------------------------------------ state
    @property
    def in_sync(self) -> bool | None:
        """The e-board shows what it should (None: not known yet, before the first board dump)."""
        if self.mismatch:
            return False
        return self.tracker.in_sync

    def idle_at(self, now: float) -> float:
        """When the last reported change has stood for the settle time (``now`` when nothing waits)."""
        return self.settling.idle_at(now)

    def settle_due(self) -> float | None:
        """When the last reported change settles, if the table has not let that time pass yet (else None)."""
        return self.settling.due(self.state.now)

    def target(self) -> chess.Board:
        """The position the e-board should show now (a copy)."""
        return self._target()

    # ------------------------------------------------------------------ internals
    def _target(self) -> chess.Board:
        return expected_position(self.session, "sighted")

    def _sighted_color(self) -> chess.Color:
        blind = self.state.game.blind_color
        return chess.WHITE if blind is None else not blind

    def _settled(self, now: float) -> bool:
        return self.settling.settled(now)

    def _request(self, now: float) -> None:
        self.state.emit(DeviceRequest(now, DEVICE, "snapshot"))

    def _show(self, now: float, text: str) -> None:
        self.state.show(now, text)

    # ------------------------------------------------------------------ what the engine decided
    def ruled(self, now: float) -> None:
        """D.2.9 ruling: the e-board is set right to the game; nothing it shows counts until then."""
        self.adjusting = True
        self.held = None
        self.touches.clear()
        self._request(now)

    def made(self, ev: MoveMade) -> None:
        """The sighted player's move made: touch-move information for the arbiter; his touches are done."""
        sighted = self._sighted_color()
        if ev.color == ("white" if sighted else "black") and not self.state.game.is_blind(sighted):
            self._touch_move(ev, ev.t)
            self.touches.clear()

    def _handle(self, events: list[TrackerEvent], now: float) -> None:
        self.state.each(events, lambda e: self._tracker_event(e, now))

    def _tracker_event(self, e: TrackerEvent, now: float) -> None:
        if e.type == "inconsistent":
            self._request(now)
            return
        if self.adjusting:
            return       # judged against the game by _check_adjusted, not as moves
        if e.type == "touched" and e.square is not None and e.piece is not None:
            self._touched(e.square, e.piece, now)
        elif e.type == "move" and e.move is not None and not e.promotion_pending:
            self._moved(e.move, now)
        elif e.type == "takeback" and e.move is not None:
            self._taken_back(e.move, now)
        elif e.type == "mismatch":
            self._mismatched(e, now)
        elif e.type == "in-sync":
            self._agrees(now)

    def _touched(self, square: int, piece: chess.Piece, now: float) -> None:
        """D.2.5 / Art. 4.3: the first own piece the sighted player lifts while he is to move."""
        s = self.session
        state = self.state
        sighted = self._sighted_color()
        if state.game.finished or state.game.divergence is not None or self.mismatch or self.held is not None or self.touches \
                or state.game.adjourned:
            return
        if state.game.is_blind(sighted) or piece.color != sighted or state.game.to_move != sighted:
            return
        if state.game.board_length("sighted") != state.game.plies or s.board("sighted").piece_at(square) != piece:
            return
        self.touches.append(EBoardTouch(now, square, piece, state.game.plies))
        self.state.react(s.touch(square, now, board="sighted", piece=piece.symbol()))
        self.state.emit(Touched(now, chess.square_name(square), "sighted"))

    def _touch_move(self, ev: MoveMade, now: float) -> None:
        """The sighted player moved another piece than the one he touched first, which could move: tell the arbiter
        (with adequate supervision; without, the arbiter rules on Art. 4 only when a player claims, Appendix A b)."""
        if not self.touches or self.state.game.rules.touch_move_only_on_request:
            return
        first = self.touches[0]
        move = chess.Move.from_uci(ev.uci)
        ply = ev.ply
        s = self.session
        state = self.state
        if first.ply != ply - 1 or move.from_square == first.square:
            return
        before = s.position(ply - 1)
        if not any(m.from_square == first.square for m in before.legal_moves):
            return       # the touched piece could not move: Art. 4.3 asks nothing
        name = state.game.player(self._sighted_color()).name
        self._show(now, tr("eboard.touch_move_shown", self.lang, name=name, piece=_piece_words(first.piece, self.lang),
                           square=chess.square_name(first.square), move=write(before, move, self.lang)))

    def _known(self, after: chess.Board) -> bool:
        """The session's sighted board already shows ``after`` (a ruling, a window move, a mirror fed before)."""
        return same_position(after, self.session.board("sighted"))

    def _moved(self, move: chess.Move, now: float) -> None:
        if self._known(self.tracker.board):
            return
        if not self._offer(move, now) and self.held is None:
            self._show_difference(now)

    def _offer(self, move: chess.Move, now: float) -> bool:
        """The board shows ``move`` beyond the session's sighted board: a move on the sighted board.

        True when the session took it. A mirror of a move not made yet is held
        (it counts when that move is made); any other refusal is shown by the
        table and realigns the board's reading.
        """
        s = self.session
        key = (s.board("sighted").fen(), move.uci())
        if key == self._refused:
            return False
        if self.state.seal_board_move("sighted", move, now):
            # his sealed move made on the board (Guidelines I.1 a): the position before it is set up again,
            # judged silently (no square of it shown)
            self.adjusting = True
            self._quiet = True
            self._request(now)
            return True
        events = s.board_move("sighted", move, now)
        self.state.react(events)
        first = events[0] if events else None
        if isinstance(first, BoardMove):
            self._refused = None
            return True
        self._refused = key
        if isinstance(first, BoardMoveRejected) and first.reason == "not-made":
            self.held = move
        else:
            self._target_key = None      # read the board against what it should show
        return False

    def _taken_back(self, move: chess.Move, now: float) -> None:
        """The board is back before ``move``: a held mirror dropped, a wrong mirror undone; a made move stands."""
        s = self.session
        state = self.state
        if self.held is not None:
            self.held = None
            self._refused = None
            return
        sighted = s.board("sighted")
        if not sighted.move_stack or sighted.peek() != move:
            return
        index = len(sighted.move_stack) - 1
        mover = not sighted.turn
        if state.game.is_blind(mover) and (index >= state.game.plies or state.game.game_moves[index] != move):
            self.state.react(s.take_back("sighted", now))        # the wrong mirror undone by the one who set it
            return
        # a move made (D.2.5) or a right mirror: it stands; the board should show it again
        before = sighted.copy()
        before.pop()
        self._show(now, tr("eboard.move_stands_shown", self.lang, move=write(before, move, self.lang)))
        self._target_key = None

    def _mismatched(self, e: TrackerEvent, now: float) -> None:
        s = self.session
        state = self.state
        made = e.move
        sighted = s.board("sighted")
        # a mirror that is another legal move than the one made: what the board shows goes to the
        # session (the wrong square, piece or promotion piece is a divergence at once, D.2.9)
        if made is not None and e.expected is not None and len(sighted.move_stack) < state.game.plies \
                and self._offer(made, now):
            self._realign(now)
            return
        if self._explain_two(now):
            return
        self._show_difference(now)

    def _explain_two(self, now: float) -> bool:
        """The board shows two moves beyond the session's sighted board (a mirror and the reply, or both
        made while the cable was out): read them in order when exactly one pair explains the pieces."""
        s = self.session
        state = self.state
        start = s.board("sighted")
        if state.game.finished or state.game.plies - len(start.move_stack) not in (0, 1):
            return False
        shown = self.pieces
        found: list[tuple[chess.Move, chess.Move]] = []
        for first in start.legal_moves:
            start.push(first)
            for second in start.legal_moves:
                start.push(second)
                if start.piece_map() == shown:
                    found.append((first, second))
                start.pop()
            start.pop()
        if len(found) != 1:
            return False        # none, or more than one pair explains the pieces: shown square by square
        first, second = found[0]
        if not self._offer(first, now):
            return False
        self._offer(second, now)
        self._realign(now)
        return True

    def _realign(self, now: float) -> None:
        """Once the table has acted on the moves the board showed: read it afresh against what it should show."""
        def realign() -> None:
            self._target_key = None
            self.align(now)
        self.state.then(realign)

    def _show_difference(self, now: float) -> None:
        if self._quiet:
            return       # a sealed move taken back: none of its squares is shown
        target = self._target()
        if self.held is not None:
            target.push(self.held)
        differences = describe_difference(self.pieces, target, self.lang)
        if not differences or differences == self.differences:
            return
        self.differences = differences
        self.mismatch = tuple(chess.square_name(sq) for sq in differing_squares(self.pieces, target))
        self._show(now, tr("eboard.differs_shown", self.lang, squares="; ".join(differences)))

    def _agrees(self, now: float) -> None:
        confirm, self._confirm = self._confirm, False
        if self.mismatch:
            self.mismatch = ()
            self.differences = ()
            self._show(now, tr("eboard.agrees_again_shown", self.lang))
        elif confirm:
            self._show(now, tr("eboard.agrees_shown", self.lang))

    def _check_adjusted(self, now: float) -> None:
        """While the board is set right after a ruling: done when it shows the game, else the squares that differ.

        Judged only once the board has told what it shows (a dump since the program started).
        """
        if not self.snapshots:
            return
        target = self._target()
        if self.pieces == target.piece_map():
            self.adjusting = False
            self._quiet = False
            self._target_key = None
            self.touches.clear()
            self._handle(self.tracker.expect(target) + self.tracker.tick(now), now)
            self._target_key = target.fen()
            if self.mismatch:
                self.mismatch = ()
                self.differences = ()
                self._show(now, tr("eboard.agrees_again_shown", self.lang))
            return
        self._show_difference(now)
