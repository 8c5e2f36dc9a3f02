"""The blind player's tactile board: pegs read, touches, mirrors, the board set right (pure).

:class:`TactileBoard` owns the peg-board :class:`~blindchess.pegboard.tracker.Tracker`
(none without a peg-board) and turns what it sees into the engine's commands:

* **Touches** (D.2.2): a peg lifted counts as a touch only when the blind
  player is to move, his board shows the game, and no mirror, board correction
  or ruling is under way: carrying out the opponent's move (also removing the
  captured peg, however long the pause) is no touch. A mirror finished less
  than the settle time before his next lift is settled first, so it is seen.
  A touch is spoken at once or not at all.
* **Moves and mirrors**: a move the pegs show goes to the engine as a move on
  the tactile board (his own move, D.2.3, or a mirror of the opponent's); a
  wrong mirror too, so the engine sees the divergence (D.2.9).
* **Mismatches**: squares where the pegs differ from what they should show
  are said once (not while the board is being set right) and shown.
* **The expected position** is given to the tracker and to the device
  (:class:`~blindchess.table.events.DeviceRequest` "expect"); a snapshot is
  asked for after a ruling, on resume and when the tracker lost track.
* **Setting the pegs right** (after a D.2.9 ruling; the position before a sealed
  move set up again, Guidelines I.5): the tracker is told the position
  (:meth:`~blindchess.pegboard.tracker.Tracker.set_right`); the squares to set
  right are said once, square by square (not for a sealed move, which nobody
  may hear), nothing the pegs show on the way counts — no touch, no move, no
  refusal —, and once they show the position the blind player hears that the
  boards agree again; from then on a lift in his own move is a touch (D.2.2).
* **Without an electronic tactile board** (``@tactile none``) the blind
  player's board is the game itself: every move made in the game is on it at
  once (:meth:`TactileBoard.follow_game`), an illegal move standing in rapid or
  blitz without adequate supervision too.
* **Announcements** (D.2.1, D.2.8) complete a promotion or settle what the pegs
  cannot tell — only where they do not contradict a clear placement.
"""

from __future__ import annotations

import dataclasses

import chess

from ..base import tr
from ..game import Announce, IllegalCorrected, MoveMade, Ruling, RulingOverride, TakeBack, Touch
from ..language import square_name
from ..pegboard import (
    Comment,
    Ident,
    InputEvent,
    Lift,
    ProtocolError,
    Snapshot,
    Tracker,
    TrackerEvent,
    occupancy,
    parse_line,
    same_position,
)
from .events import DeviceRequest, Touched
from .physical import Settling, expected_position
from .state import TableState

__all__ = ["TactileBoard"]


class TactileBoard:
    """The peg-board side of the table (see the module docstring)."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        game = state.game
        s = state.session
        self.tracker: Tracker | None = None
        if state.setup.tactile == "pegboard" and game.blind_color is not None:
            self.tracker = Tracker(s.board("tactile"), settle=state.setup.settle_time,
                                   senses_pieces=state.setup.senses_pieces, owner=game.blind_color)
        #: Squares (names) where the pegs differ from what they should show.
        self.mismatch: tuple[str, ...] = ()
        #: The square of a peg in the hand (the last lifted), None when none.
        self.lifted: int | None = None
        self.settling = Settling(state.setup.settle_time)   # the pegs' last change and its settle time
        self._candidates: tuple[chess.Move, ...] = ()   # what the pegs alone could not exclude (last move)
        self._set_right_due = False                        # after a ruling: say once what to set right
        self._quiet_set_right = False                      # ... but not for a sealed move taken back
        self._set_right_told = False                       # what to set right was said (or kept quiet)
        self._expected_fen: str | None = None
        self._still_since: float | None = None             # after a restart: since when the pegs stand still

    # ---------------------------------------------------------------- input
    @staticmethod
    def parse(line: str, now: float) -> InputEvent | ProtocolError | None:
        """One protocol line read: a board event, a ProtocolError (unreadable), None (nothing to do)."""
        message = parse_line(line.encode("utf-8", "replace"), now)
        if message is None or isinstance(message, (Ident, Comment)):
            return None
        return message

    def unreadable(self, now: float) -> None:
        """A line the protocol could not read: events may be lost, the board is asked for a snapshot."""
        self.state.emit(DeviceRequest(now, "pegboard", "snapshot"))

    def feed(self, event: InputEvent, now: float) -> None:
        """A parsed peg-board event (Lift, Place, Snapshot, PieceUpdate) at ``now``."""
        tracker = self.tracker
        if tracker is None:
            return
        if isinstance(event, Lift):
            self._settle_mirror(now)
            # the peg in his hand is shown on the screen — not while the game is adjourned (nothing may tell
            # the sealed move, Guidelines I.1)
            self.lifted = None if self.state.game.adjourned else event.square
        else:
            self.lifted = None
        changed = now
        if isinstance(event, Snapshot) and self._still_since is not None:
            # the first snapshot after a restart: the pegs have stood as it shows since the hands left them
            changed, self._still_since = self._still_since, None
            event = dataclasses.replace(event, t=changed)
        self._tracker_events(tracker.feed(event), now)
        self.settling.changed(changed)

    def tick(self, now: float) -> None:
        """Time has passed until ``now``: the pegs settle."""
        if self.tracker is not None:
            self._tracker_events(self.tracker.tick(now), now)

    def settled_at(self) -> float | None:
        """When the pegs last moved are settled (None: no peg-board or no peg moved yet)."""
        return self.settling.settled_at()

    def settle_due(self) -> float | None:
        """When the pegs last moved settle, if the table has not let that time pass yet (else None)."""
        return self.settling.due(self.state.now)

    # ---------------------------------------------------------------- from the rest of the table
    def move_made(self) -> None:
        """A move was made: the pegs' earlier mismatch is void (the expected position changes)."""
        self.mismatch = ()

    def set_right(self, now: float, *, tell: bool = True) -> None:
        """After a ruling (or a sealed move taken back from the pegs, ``tell`` False: nobody hears its squares):
        the pegs are set right to the position the tactile board should show; a snapshot is asked for. The
        squares to set right are said once, nothing on the way counts, the boards agreeing again is said."""
        tracker = self.tracker
        if tracker is None:
            self.follow_game(now)
            return
        state = self.state
        state.adjusting = True
        self._set_right_due = True
        self._quiet_set_right = not tell
        self.mismatch = ()
        state.emit(DeviceRequest(now, "pegboard", "snapshot"))
        target = expected_position(state.session, "tactile")
        self._expected_fen = target.fen()
        self._tracker_events(tracker.set_right(target), now)
        state.emit(DeviceRequest(now, "pegboard", "expect", self._expected_fen))

    def resync(self, now: float) -> None:
        """The game came back (a restart): the pegs are where the hands left them — a placement made before
        counts as made — so the tracker is resynchronised to the expected position and a snapshot is asked for;
        nothing is being set right (a mismatch is said as any mismatch, his next lift in his move is a touch)."""
        if self.tracker is not None:
            self.state.emit(DeviceRequest(now, "pegboard", "snapshot"))
        self.expect(now)       # (a new tactile board: it has told no position yet)
        self.follow_game(now)

    def follow_game(self, now: float) -> None:
        """Without an electronic tactile board the blind player's board is the game itself: the game's moves
        it lacks are put on it (the opponent's, an illegal one standing included). Nothing with a peg-board."""
        state = self.state
        game = state.game
        if state.setup.tactile != "none" or game.blind_color is None:
            return      # a peg-board (its tracker follows the pegs), or nobody plays blind
        moves = game.game_moves
        if game.moves("tactile") != moves[:game.board_length("tactile")]:
            return      # it parts from the game (a mirror entered by hand wrongly): the arbiter rules (D.2.9)
        for move in moves[game.board_length("tactile"):]:
            state.react(state.session.board_move("tactile", move, now))

    def resumed(self, now: float, still_since: float | None = None) -> None:
        """On resume: the pegs are where the hands left them; a snapshot is asked for and judged against the
        game. When a ruling (or an illegal move corrected) is the last thing that happened to the board (no
        move made, no peg touched since), the pegs are being set right as after it (:meth:`set_right`);
        otherwise the table goes on as it was — the blind player's move under way, his next lift a touch
        (D.2.2) as it would have been without the crash, a mismatch said as any mismatch. ``still_since``:
        when the pegs were last moved, if the front knows it (their settle time counts from then; else from
        the snapshot)."""
        self._still_since = still_since if still_since is not None and still_since < now else None
        for ev in reversed(self.state.session.events):
            if isinstance(ev, (Ruling, RulingOverride, IllegalCorrected)):
                self.set_right(now)
                return
            if isinstance(ev, (MoveMade, TakeBack)) or (isinstance(ev, Touch) and ev.board == "tactile"):
                break
        self.resync(now)

    def expect(self, now: float, *, force: bool = False) -> None:
        """Tell the tracker (and the device) which position the tactile board should show."""
        tracker = self.tracker
        if tracker is None:
            return
        target = expected_position(self.state.session, "tactile")
        fen = target.fen()
        if fen == self._expected_fen and not force:
            return
        self._expected_fen = fen
        self._tracker_events(tracker.expect(target), now)
        self.state.emit(DeviceRequest(now, "pegboard", "expect", fen))

    def announced(self, move: chess.Move, index: int) -> None:
        """The announced move (of half-move ``index``, 0-based) completes a promotion or settles
        what occupancy cannot tell.

        An announcement that contradicts a clear placement is not passed on: the
        pegs stand as they stand, and the session tells the player (D.2.3); a slip
        of the tongue corrected at once leaves no false mismatch behind. A
        correction that withdrew the made move (D.2.8) is passed on: the pegs are
        to follow it.
        """
        tracker = self.tracker
        if tracker is None:
            return
        tactile = self.state.game.moves("tactile")
        if len(tactile) < index:
            return      # the pegs are behind the game (a mirror not yet made): nothing of them to complete
        placed = tactile[index] if len(tactile) > index else None     # on the pegs for the announced half-move
        if placed is not None and placed != move and move not in self._candidates and not self.state.withdrawn \
                and (placed.from_square, placed.to_square) != (move.from_square, move.to_square):
            return
        self._tracker_events(tracker.announce(move), self.state.now)

    def restore_announcement(self) -> None:
        """On resume: an announcement not yet placed tells the tracker what the pegs should show (promotion piece)."""
        s = self.state.session
        state = self.state
        if self.tracker is None:        # (no peg-board, or nobody plays blind)
            return
        plies = state.game.plies
        for ev in reversed(s.events):
            if isinstance(ev, (MoveMade, Ruling, RulingOverride, TakeBack)):
                return
            if isinstance(ev, Announce) and ev.uci and ev.ply == plies + 1:
                self.tracker.announce(chess.Move.from_uci(ev.uci))
                return

    # ---------------------------------------------------------------- what the tracker saw
    def _settle_mirror(self, now: float) -> None:
        """A new lift while a finished mirror waits for its settle time: the mirror is judged first."""
        tracker = self.tracker
        settled = self.settling.settled_at()
        if tracker is None or tracker.pending is None or settled is None:
            return
        expected = tracker.board
        expected.push(tracker.pending)
        if occupancy(expected) != tracker.occupied:
            return
        self._tracker_events(tracker.tick(max(now, settled)), now)

    def _tracker_events(self, events: list[TrackerEvent], now: float) -> None:
        self.state.each(events, lambda e: self._tracker_event(e, now))

    def _tracker_event(self, e: TrackerEvent, now: float) -> None:
        state = self.state
        s = state.session
        if e.type == "touched" and e.square is not None:
            if not self._touch_counts(e):
                return
            piece = e.piece
            state.react(s.touch(e.square, now, board="tactile", piece=piece.symbol() if piece else None))
            state.emit(Touched(now, chess.square_name(e.square), "blind"))
            words = tr("table.touched", state.lang, piece=state.piece_words(piece),
                       square=square_name(e.square, state.lang))
            state.say(now, words, "blind", "status")      # at once or not at all
            state.show(now, tr("table.touched_shown", state.lang, piece=state.piece_words(piece),
                               square=chess.square_name(e.square)))
        elif e.type == "move" and e.move is not None:
            if e.promotion_pending:
                return       # complete when the piece is announced (D.2.1)
            self._candidates = tuple(e.candidates)
            tactile = s.board("tactile")
            if tactile.move_stack and tactile.peek() == e.move and self.tracker is not None \
                    and same_position(self.tracker.board, tactile):
                return       # the engine knows it already (a wrong mirror fed before, a ruling, a resume)
            if state.seal_board_move("tactile", e.move, now):
                return       # his move on the pegs while he is to seal it: his sealed move (Guidelines I.1 a)
            state.react(s.board_move("tactile", e.move, now))
        elif e.type == "takeback":
            if state.adjusting:
                return
            tactile = s.board("tactile")
            if not tactile.move_stack or (e.move is not None and tactile.peek() != e.move):
                return       # the pegs undid a move the game never took (a refused mirror): nothing to undo
            state.react(s.take_back("tactile", now))
        elif e.type == "mismatch":
            self._mismatch(e, now)
        elif e.type == "in-sync":
            self._catch_up(now)
            if self.mismatch or self._set_right_told:
                self.mismatch = ()
                state.show(now, tr("table.tactile_in_sync", state.lang))
                if self._set_right_told:     # he was told what to set right: he hears that he is done
                    state.say(now, tr("table.tactile_in_sync", state.lang), "blind", "answer")
            self._set_right_due = False
            self._set_right_told = False
            self._quiet_set_right = False
            state.adjusting = False
        elif e.type == "inconsistent":
            state.emit(DeviceRequest(now, "pegboard", "snapshot"))

    def _catch_up(self, now: float) -> None:
        """The pegs show the game (in sync): the tactile board follows the game whatever the pegs showed on the
        way — a move the tracker could not read as one (an illegal move standing as played, rapid or blitz
        without adequate supervision, mirrored by hand) is on it too, as mirrors of the game's moves."""
        state = self.state
        game = state.game
        tracker = self.tracker
        if tracker is None or game.divergence is not None \
                or game.moves("tactile") != game.game_moves[:game.board_length("tactile")] \
                or not same_position(tracker.board, state.session.game_board()):
            return
        for move in game.game_moves[game.board_length("tactile"):]:
            state.react(state.session.board_move("tactile", move, now))

    def _touch_counts(self, e: TrackerEvent) -> bool:
        """D.2.2: a lift counts as a touch only in the blind player's own move, nothing else under way."""
        game = self.state.game
        if game.blind_color is None or game.finished or self.state.adjusting or self.mismatch or game.adjourned:
            return False     # (while the game is adjourned no touch may tell the sealed move, Guidelines I.1)
        if e.expected is not None:      # (the tracker's pending move when the peg was lifted)
            return False     # mirroring the opponent's move (also removing the captured peg), or placing his announced one
        if game.to_move != game.blind_color or game.board_length("tactile") != game.plies:
            return False
        return game.divergence is None

    def _mismatch(self, e: TrackerEvent, now: float) -> None:
        state = self.state
        s = state.session
        made = e.move
        game = state.game
        if made is not None and e.expected is not None and not state.adjusting \
                and game.board_length("tactile") < game.plies:
            # a wrong mirror: it is on the tactile board, so the engine must know (D.2.9 follows)
            state.react(s.board_move("tactile", made, now))
            state.then(lambda: self.expect(now, force=True))     # once the table has acted on the divergence
            return
        squares = tuple(chess.square_name(sq) for sq in e.squares)
        if state.adjusting and self._set_right_due:
            # Being set right: what to set right, square by square — once, not at every peg he moves; nothing
            # at all for a sealed move taken back (nobody may hear its squares).
            self._set_right_due = False
            self._set_right_told = True
            if self._quiet_set_right:
                return
            self.mismatch = squares
            state.say(now, self._set_right_words(e.squares), "blind", "answer")
            state.show(now, tr("table.tactile_mismatch_shown", state.lang, squares=", ".join(squares)))
            return
        if squares != self.mismatch and not (state.adjusting and self._quiet_set_right):
            self.mismatch = squares
            if not state.adjusting:
                state.say(now, tr("table.tactile_mismatch", state.lang,
                                  squares=", ".join(square_name(sq, state.lang) for sq in e.squares)),
                          "blind", "status")
            state.show(now, tr("table.tactile_mismatch_shown", state.lang, squares=", ".join(squares)))

    def _set_right_words(self, squares: tuple[int, ...]) -> str:
        """"Bitte das Tastbrett richtigstellen: Felix drei leer, Gustav eins weißer Springer, …"."""
        state = self.state
        target = self.tracker.board if self.tracker is not None else state.session.game_board()
        parts = []
        for sq in squares:
            piece = target.piece_at(sq)
            name = square_name(sq, state.lang)
            parts.append(tr("table.square_holds", state.lang, square=name, piece=state.piece_words(piece))
                         if piece is not None else tr("table.square_empty", state.lang, square=name))
        return tr("table.set_right", state.lang, squares=", ".join(parts))
