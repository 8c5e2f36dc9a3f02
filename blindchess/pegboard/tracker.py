"""The occupancy tracker: what the hands on the tactile board are doing (pure, no I/O).

A tactile peg-board usually senses only *whether* a hole holds a peg, not which
piece.  The tracker turns the board's time-stamped events — a peg lifted
(:class:`Lift`), a peg placed (:class:`Place`), a full occupancy
:class:`Snapshot`, or for a piece-sensing DGT board a :class:`PieceUpdate` —
into what an arbiter cares about (:class:`TrackerEvent`):

``touched``
    a peg left its hole (FIDE Appendix D.2.2): the square, the piece, and
    whether it belongs to the side to move (``own``: touch-move, Art. 4.3) or
    to the opponent (capture intent).
``move``
    the board shows the position after exactly one legal move and no peg is
    left in the air, and nothing changed for ``settle`` seconds (a placement
    continued within the settle time is a slide, not a move).  This is the
    tactile-board half of D.2.3; the announcement is the other half.
    Captures in either lift order (the *lift history* tells which piece was
    taken: every capture by the same piece leaves the same occupancy),
    castling king-first or rook-first, every Chess960 castling (king-only,
    rook-only, king-rook swap), en passant.  A promotion is reported with
    ``promotion_pending=True`` and a four-character move until
    :meth:`Tracker.announce` names the piece; the completing event carries
    ``replaces``.
``takeback``
    the board is back in the position before the last move.
``mismatch``
    the board shows something no legal move explains and has stayed so for
    the settle time: ``squares`` are exactly the squares that differ from the
    position the board should show (``wrong_pieces``: squares holding the
    wrong piece, DGT only).  After :meth:`Tracker.expect` (mirroring the
    opponent's announced move), making any other move is a mismatch too —
    the first sign of a D.2.9 divergence.  Nothing is applied that did not
    happen.
``in-sync``
    the board shows the expected position again (also the first time a
    snapshot confirms it).
``inconsistent``
    an event that cannot be true (a lift from an empty hole, a peg placed
    into an occupied one): events were lost; the link requests a snapshot,
    which resynchronises everything.

**Setting the pegs right** (:meth:`Tracker.set_right`: after the arbiter's
D.2.9 ruling, or the position before a sealed move set up again, Guidelines
I.5): the pegs are moved to a given position in any order, and nothing on
the way counts — no lift is a touch, no position is a move, a take-back or a
mismatch, however much it looks like one.  The tracker reports once which
squares differ (``mismatch``, the first time it judges the pegs, so the
player can be told what to set right), then nothing until the pegs show the
position: then ``in-sync`` (always), and from then on every lift is a touch
again.  A move announced or expected meanwhile (the opponent moved, the
player announced his own) counts once the pegs show the position and that
move.

Time is passed in (float seconds, any origin): :meth:`Tracker.feed` takes an
event with its time stamp, :meth:`Tracker.tick` lets time pass.  The tracker
never reads a clock, never sleeps, and imports python-chess only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias

import chess

__all__ = [
    "Lift", "Place", "Snapshot", "PieceUpdate", "InputEvent", "TrackerEvent", "TrackerEventType", "Tracker",
    "DEFAULT_SETTLE", "occupancy", "same_position",
]

#: Seconds a placement must stay unchanged before it counts (slides are faster).
DEFAULT_SETTLE = 0.5


# ---------------------------------------------------------------------------
# Input events (what the board reports)

@dataclass(frozen=True)
class Lift:
    """A peg left the hole of ``square`` (python-chess numbering, a1 = 0)."""
    t: float
    square: int


@dataclass(frozen=True)
class Place:
    """A peg went into the hole of ``square``."""
    t: float
    square: int


@dataclass(frozen=True)
class Snapshot:
    """The whole board: bit i of ``occupied`` set = square i holds a peg.

    ``pieces`` (square -> piece) is given by boards that know the pieces (DGT).
    """
    t: float
    occupied: int
    pieces: dict[int, chess.Piece] | None = field(default=None, compare=True, hash=False)


@dataclass(frozen=True)
class PieceUpdate:
    """A piece-sensing board saw ``piece`` (None: empty, or no chess piece) on ``square``.

    A state, not a change: "empty" for a square already empty changes nothing.
    """
    t: float
    square: int
    piece: chess.Piece | None


InputEvent: TypeAlias = Lift | Place | Snapshot | PieceUpdate


# ---------------------------------------------------------------------------
# Output events

#: What the tracker saw: a piece touched, a move, a move taken back, a position that differs from the
#: expected one, the expected position reached, a report that contradicts what the board showed.
TrackerEventType = Literal["touched", "move", "takeback", "mismatch", "in-sync", "inconsistent"]


@dataclass(frozen=True)
class TrackerEvent:
    """Something the arbiter or the session should know about the tactile board.

    ``type`` is one of :data:`TrackerEventType`.  Fields that do not apply to a type stay at their default.
    """
    type: TrackerEventType
    time: float
    square: int | None = None               # touched / inconsistent
    piece: chess.Piece | None = None        # touched
    own: bool | None = None                 # touched: piece of the side to move
    move: chess.Move | None = None          # move / takeback; mismatch: the move made instead
    promotion_pending: bool = False         # move: a promotion whose piece is not known yet
    squares: tuple[int, ...] = ()           # mismatch: squares that differ from the expected position
    san: str | None = None                  # move / takeback: English SAN (None while a promotion is pending)
    expected: chess.Move | None = None      # mismatch: the move the board should have shown;
                                            # touched: the announced move being mirrored (not a touch-move case)
    replaces: chess.Move | None = None      # move: the earlier report of this move it supersedes
    candidates: tuple[chess.Move, ...] = ()  # move: other moves the board alone cannot exclude
    certain: bool = True                    # move: False when only the announcement can confirm it
    wrong_pieces: tuple[int, ...] = ()      # mismatch: occupied squares holding the wrong piece

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict: square names, UCI moves, piece symbols."""
        d: dict[str, object] = {"type": self.type, "time": round(self.time, 3)}
        if self.square is not None:
            d["square"] = chess.square_name(self.square)
        if self.piece is not None:
            d["piece"] = self.piece.symbol()
        if self.own is not None:
            d["own"] = self.own
        if self.move is not None:
            d["uci"] = self.move.uci()
            if self.promotion_pending:
                d["promotion"] = None
            elif self.move.promotion:
                d["promotion"] = chess.piece_symbol(self.move.promotion)
        if self.san is not None:
            d["san"] = self.san
        if self.squares:
            d["squares"] = [chess.square_name(s) for s in self.squares]
        if self.wrong_pieces:
            d["wrong_pieces"] = [chess.square_name(s) for s in self.wrong_pieces]
        if self.expected is not None:
            d["expected"] = self.expected.uci()
        if self.replaces is not None:
            d["replaces"] = self.replaces.uci()
        if self.candidates:
            d["candidates"] = [m.uci() for m in self.candidates]
        if not self.certain:
            d["certain"] = False
        return d


# ---------------------------------------------------------------------------
# Helpers

def occupancy(board: chess.BaseBoard) -> int:
    """The occupancy bitmask of a position (bit i = square i, a1 = 0)."""
    return int(board.occupied)


def _placement(board: chess.BaseBoard) -> tuple[int, ...]:
    """The piece placement as bitboards (cheaper to compare than a FEN)."""
    return (board.occupied_co[chess.WHITE], board.pawns, board.knights, board.bishops,
            board.rooks, board.queens, board.kings)


def _ep(board: chess.Board) -> int | None:
    return board.ep_square if board.has_legal_en_passant() else None


def same_position(a: chess.Board, b: chess.Board) -> bool:
    """Same pieces, side to move, castling rights and en-passant chance."""
    return (a.board_fen() == b.board_fen() and a.turn == b.turn
            and a.clean_castling_rights() == b.clean_castling_rights() and _ep(a) == _ep(b))


def one_move_between(before: chess.Board, after: chess.Board) -> chess.Move | None:
    """The legal move leading from ``before`` to ``after``, if there is exactly such a move."""
    if after.move_stack and len(after.move_stack) == len(before.move_stack) + 1:
        last = after.move_stack[-1]
        if before.is_legal(last):
            probe = before.copy(stack=False)
            probe.push(last)
            if same_position(probe, after):
                return last
    for move in before.legal_moves:
        probe = before.copy(stack=False)
        probe.push(move)
        if same_position(probe, after):
            return move
    return None


@dataclass(frozen=True)
class _Outcome:
    move: chess.Move
    occupied: int        # occupancy after the move
    fen: tuple[int, ...]  # placement after the move (piece-aware matching)
    involved: int        # squares a hand touches to make the move
    capture: bool        # a capture whose target square stays occupied (not en passant)
    partners: int        # castling: king and rook start squares (lift history of a swap)


@dataclass
class _Table:
    board: chess.Board
    base_occ: int
    base_fen: tuple[int, ...]
    outcomes: list[_Outcome]
    by_occ: dict[int, list[_Outcome]]


def _table(board: chess.Board) -> _Table:
    base_occ = occupancy(board)
    outcomes: list[_Outcome] = []
    by_occ: dict[int, list[_Outcome]] = {}
    base = list(_placement(board))
    white = board.turn == chess.WHITE
    for move in board.legal_moves:
        castling = board.is_castling(move)
        en_passant = board.is_en_passant(move)
        capture = board.is_capture(move) and not castling and not en_passant
        partners = 0
        if castling:  # rare: let python-chess do it
            after = board.copy(stack=False)
            after.push(move)
            occ, placement = occupancy(after), _placement(after)
        else:
            frm, to = chess.BB_SQUARES[move.from_square], chess.BB_SQUARES[move.to_square]
            bbs = base.copy()
            mover = board.piece_type_at(move.from_square)
            assert mover is not None   # a legal move moves a piece
            victim = board.piece_type_at(move.to_square)
            if victim:
                bbs[victim] &= ~to
                if not white:
                    bbs[0] &= ~to
            if en_passant:
                captured = chess.BB_SQUARES[move.to_square + (-8 if white else 8)]
                bbs[chess.PAWN] &= ~captured
                if not white:
                    bbs[0] &= ~captured
            bbs[mover] &= ~frm
            bbs[move.promotion or mover] |= to
            if white:
                bbs[0] = (bbs[0] & ~frm) | to
            placement = tuple(bbs)
            occ = bbs[1] | bbs[2] | bbs[3] | bbs[4] | bbs[5] | bbs[6]
        involved = (base_occ ^ occ) | chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[move.to_square]
        if castling:
            rank = chess.BB_RANK_1 if white else chess.BB_RANK_8
            for sq in chess.scan_forward(rank):
                if board.piece_at(sq) != after.piece_at(sq):
                    involved |= chess.BB_SQUARES[sq]
            rook = move.to_square if board.piece_type_at(move.to_square) == chess.ROOK else None
            if rook is None:  # standard encoding e1g1: the rook stands in the corner
                rook = chess.square(7 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else 0,
                                    chess.square_rank(move.from_square))
            partners = chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[rook]
        outcome = _Outcome(move, occ, placement, involved, capture, partners)
        outcomes.append(outcome)
        by_occ.setdefault(occ, []).append(outcome)
    return _Table(board.copy(stack=False), base_occ, _placement(board), outcomes, by_occ)


@dataclass
class _Made:
    """The last move the board showed: revisable until the next one."""
    before: chess.Board
    move: chess.Move            # as applied (queen placeholder while a promotion is pending)
    reported: chess.Move        # as reported
    promotion_pending: bool
    candidates: tuple[chess.Move, ...]
    was_expected: bool


# ---------------------------------------------------------------------------

class Tracker:
    """Follows the tactile board against the position it should show.

    ``board`` is the position the board shows now (copied).  ``settle`` is the
    time a state must stay unchanged to count.  ``senses_pieces`` is True for a
    board that reports pieces (DGT): then wrong pieces are reported and pieces,
    not the lift history, decide captures and promotions.  ``owner``: the colour
    of the player whose board it is (None: not known) — a mirror of the
    opponent's move set up after the owner's next move is recognised as both.
    """

    def __init__(self, board: chess.Board, *, settle: float = DEFAULT_SETTLE, senses_pieces: bool = False,
                 owner: chess.Color | None = None) -> None:
        self.settle = float(settle)
        self.senses_pieces = senses_pieces
        self.owner = owner
        self._board = board.copy()
        self._pending: chess.Move | None = None
        self._last: _Made | None = None
        # a promotion still waiting for its piece while later moves were made: (before, 4-char move, later moves)
        self._open_promotion: tuple[chess.Board, chess.Move, list[chess.Move]] | None = None
        self._occ = occupancy(board)
        self._pieces: dict[int, chess.Piece] = dict(board.piece_map()) if senses_pieces else {}
        self._seq = 0
        self._lifted: dict[int, int] = {}      # square -> order of its last lift in this move
        self._touched: set[int] = set()        # squares whose touch has been reported in this move
        self._changed_at: float | None = None
        self._dirty = False
        self._now = float("-inf")
        self._sync: bool | None = None
        self._confirm = False                  # a snapshot arrived: confirm the first agreement aloud
        self._mismatch_key: tuple[object, ...] | None = None
        self._cache: dict[tuple[object, ...], _Table] = {}
        self._from_snapshot = False            # the pegs as a snapshot showed them, no lift or place since
        self._restoring = False                # the pegs are being set right to ``_board`` (set_right)
        self._restoring_told = False           # ... and the squares to set right have been reported

    # -- state ------------------------------------------------------------
    @property
    def board(self) -> chess.Board:
        """The position the tactile board is believed to show (a copy; its move stack may be cut)."""
        return self._board.copy()

    @property
    def previous(self) -> chess.Board | None:
        """The position before the last move seen on the board, while it may be revised."""
        return self._last.before.copy() if self._last else None

    @property
    def last_move(self) -> chess.Move | None:
        """The last move seen on the board (four characters while its promotion is pending)."""
        return self._last.reported if self._last else None

    @property
    def awaiting_promotions(self) -> list[tuple[chess.Board, chess.Move]]:
        """Promotions still waiting for their announced piece: (position before, four-character move)."""
        found = []
        if self._open_promotion is not None:
            found.append((self._open_promotion[0].copy(), self._open_promotion[1]))
        if self._last is not None and self._last.promotion_pending:
            found.append((self._last.before.copy(), self._last.reported))
        return found

    @property
    def pending(self) -> chess.Move | None:
        """The announced move the board should show next (mirroring), if any."""
        return self._pending

    @property
    def occupied(self) -> int:
        """The occupancy the board reports now."""
        return self._occ

    @property
    def in_sync(self) -> bool | None:
        """True/False after the last evaluation; None before the first."""
        return self._sync

    @property
    def setting_right(self) -> bool:
        """The pegs are being set right to a given position (:meth:`set_right`) and do not show it yet."""
        return self._restoring

    # -- input -------------------------------------------------------------
    def feed(self, event: InputEvent) -> list[TrackerEvent]:
        """Take one board event; returns what it (and the time before it) caused."""
        out = self.tick(event.t)
        t = event.t
        if isinstance(event, Lift):
            out += self._lift(t, event.square)
        elif isinstance(event, Place):
            out += self._place(t, event.square, None)
            out += self._expected_shown(t)
        elif isinstance(event, PieceUpdate):
            if event.piece is None:
                # a piece-sensing board reports states: "empty" for a square believed
                # empty (a DGT magic piece set down or taken away) changes nothing
                if self._occ & chess.BB_SQUARES[event.square]:
                    out += self._lift(t, event.square)
            else:
                if self._occ & chess.BB_SQUARES[event.square] and self._pieces.get(event.square) != event.piece:
                    out += self._lift(t, event.square)
                out += self._place(t, event.square, event.piece)
                out += self._expected_shown(t)
        elif isinstance(event, Snapshot):
            self._snapshot(event)
        else:  # pragma: no cover - programming error
            raise TypeError(f"not a board event: {event!r}")
        if self.settle <= 0:
            out += self.tick(t)
        return out

    def tick(self, now: float) -> list[TrackerEvent]:
        """Let time pass until ``now``: a state unchanged for ``settle`` seconds is judged."""
        self._now = max(self._now, now)
        if self._dirty and self._changed_at is not None and now - self._changed_at >= self.settle - 1e-9:
            self._dirty = False
            return self._evaluate(self._changed_at)
        return []

    def expect(self, board: chess.Board) -> list[TrackerEvent]:
        """The position the tactile board should show now.

        One legal move ahead of the board: that move was announced and is to
        be mirrored; anything else the board then shows is a mismatch.  Any
        other position resynchronises the tracker to it.
        """
        out: list[TrackerEvent] = []
        last = self._last
        if self._restoring:
            # still being set right: the position to set right stays, a move after it is expected once it shows
            if same_position(board, self._board):
                self._pending = None
            elif (move := one_move_between(self._board, board)) is not None:
                self._pending = move
            else:
                self._board = board.copy()
                self._pending = None
                self._restoring_told = False
            self._mark_dirty()
            return out
        if same_position(board, self._board):
            self._pending = None
        elif (move := one_move_between(self._board, board)) is not None:
            self._pending = move
        elif last is not None and (move := one_move_between(last.before, board)) is not None:
            if last.promotion_pending and move.from_square == last.move.from_square \
                    and move.to_square == last.move.to_square:
                out += self._replace_last(move)
            else:
                self._rebase(last.before)
                self._pending = move
        else:
            self._rebase(board)
            self._lifted.clear()
            self._touched.clear()
        self._mark_dirty()
        return out

    def set_right(self, board: chess.Board) -> list[TrackerEvent]:
        """The pegs are to be set right to ``board`` (see the module docstring): nothing on the way counts;
        the squares that differ are reported once, ``in-sync`` when the pegs show it."""
        self._rebase(board)
        self._lifted.clear()
        self._touched.clear()
        self._restoring = True
        self._restoring_told = False
        self._mismatch_key = None
        self._mark_dirty()
        return []

    def announce(self, move: chess.Move) -> list[TrackerEvent]:
        """A move was announced: complete a promotion, settle what occupancy cannot.

        The announcement of the move the board just showed confirms it; of a
        promotion piece completes it; of one of its ``candidates`` corrects it.
        A legal move in the present position is expected next (mirroring).  A
        different move from the position before the last one contradicts the
        board: the board should show the announced move (mismatch until it does).
        While the pegs are being set right, a legal move in the position to set
        right is expected once they show it.
        """
        if self._restoring:
            if self._board.is_legal(move):
                self._pending = move
                self._mark_dirty()
            return []
        last = self._last
        if last is not None:
            if move == last.move and not last.promotion_pending:
                return []
            if last.promotion_pending and move.promotion and move.from_square == last.move.from_square \
                    and move.to_square == last.move.to_square and last.before.is_legal(move):
                return self._replace_last(move)
            if move in last.candidates and last.before.is_legal(move):
                return self._replace_last(move)
        if self._open_promotion is not None and move.promotion:
            done = self._complete_open_promotion(move)
            if done is not None:
                return done
        if self._board.is_legal(move):
            self._pending = move
            self._mark_dirty()
        elif last is not None and last.before.is_legal(move):
            self._rebase(last.before)
            self._pending = move
            self._mark_dirty()
        return []

    # -- internals -----------------------------------------------------------
    def _mark_dirty(self) -> None:
        self._dirty = True
        if self._changed_at is None:
            self._changed_at = self._now if self._now != float("-inf") else 0.0

    def _changed(self, t: float) -> None:
        self._changed_at = t
        self._dirty = True
        self._now = max(self._now, t)

    def _rebase(self, board: chess.Board) -> None:
        self._board = board.copy()
        self._pending = None
        self._last = None
        self._open_promotion = None

    def _table_for(self, board: chess.Board) -> _Table:
        key = (_placement(board), board.turn, board.clean_castling_rights(), _ep(board), board.chess960)
        table = self._cache.get(key)
        if table is None:
            if len(self._cache) > 16:
                self._cache.clear()
            table = self._cache[key] = _table(board)
        return table

    def _expected_shown(self, t: float) -> list[TrackerEvent]:
        """The pegs show exactly the announced move being mirrored, no peg in the hand: it counts at once
        (the settle time is for positions no expected move explains)."""
        pending = self._pending
        if pending is None or self._restoring:
            return []
        table = self._table_for(self._board)
        fen = self._sensed_fen() if self.senses_pieces else None
        if any(o.move == pending for o in self._matching(table, fen)):
            self._dirty = False
            return self._apply(t, pending, ())
        return []

    def _lift(self, t: float, square: int) -> list[TrackerEvent]:
        bit = chess.BB_SQUARES[square]
        if not self._occ & bit:
            return [TrackerEvent("inconsistent", t, square=square)]
        self._from_snapshot = False
        self._occ &= ~bit
        sensed = self._pieces.pop(square, None)
        self._seq += 1
        self._lifted[square] = self._seq
        self._changed(t)
        out: list[TrackerEvent] = []
        standing = self._board.piece_at(square)
        if square not in self._touched and standing is not None and not self._restoring:
            self._touched.add(square)
            piece = sensed if self.senses_pieces and sensed is not None else standing
            out.append(TrackerEvent("touched", t, square=square, piece=piece, own=piece.color == self._board.turn,
                                    expected=self._pending))
        return out

    def _place(self, t: float, square: int, piece: chess.Piece | None) -> list[TrackerEvent]:
        bit = chess.BB_SQUARES[square]
        if self._occ & bit and not self.senses_pieces:
            return [TrackerEvent("inconsistent", t, square=square)]
        self._from_snapshot = False
        self._occ |= bit
        if piece is not None:
            self._pieces[square] = piece
        self._seq += 1
        self._changed(t)
        return []

    def _snapshot(self, snap: Snapshot) -> None:
        self._confirm = True
        self._from_snapshot = True
        changed = snap.occupied != self._occ
        self._occ = snap.occupied & chess.BB_ALL
        # Pegs out of holes the position fills are in the hands (a snapshot after a restart): they count as
        # lifted, so a capture finished after it is seen as one (D.2.3 a).
        for square in chess.scan_forward(occupancy(self._board) & ~self._occ):
            if square not in self._lifted:
                self._seq += 1
                self._lifted[square] = self._seq
        if snap.pieces is not None:
            changed = changed or snap.pieces != self._pieces
            self._pieces = dict(snap.pieces)
        if changed:
            self._changed(snap.t)
        else:
            self._mark_dirty()  # confirm (or report) the state at the next evaluation
            self._now = max(self._now, snap.t)

    def _sensed_fen(self) -> tuple[int, ...]:
        probe = chess.BaseBoard.empty()
        for square, piece in self._pieces.items():
            probe.set_piece_at(square, piece)
        return _placement(probe)

    def _matching(self, table: _Table, fen: tuple[int, ...] | None, pending: chess.Move | None | bool = True) -> list[_Outcome]:
        """Legal moves whose result the board shows.

        Occupancy alone: a capture counts only when its target square was
        lifted (the captured piece removed, D.2.3 a) — otherwise the capturing
        piece is merely in the hand, however long it stays there. The announced
        move is taken without that only as a snapshot shows it (no lift history).
        """
        if pending is True:
            pending = self._pending
        found = table.by_occ.get(self._occ, [])
        if fen is not None:
            return [o for o in found if o.fen == fen]
        return [o for o in found if o.capture is False or o.move.to_square in self._lifted
                or (o.move == pending and self._from_snapshot)]

    def _swap_castle(self, table: _Table) -> _Outcome | None:
        """A king-rook swap leaves the occupancy unchanged: only the lift history shows it."""
        if self.senses_pieces:
            return None
        for o in table.by_occ.get(table.base_occ, []):
            if o.partners and all(sq in self._lifted for sq in chess.scan_forward(o.partners)):
                return o
        return None

    def _evaluate(self, t: float) -> list[TrackerEvent]:
        table = self._table_for(self._board)
        fen = self._sensed_fen() if self.senses_pieces else None
        at_base = self._occ == table.base_occ and (fen is None or fen == table.base_fen)
        if self._restoring:
            return self._restore(t, table, fen, at_base)

        if at_base:
            swap = self._swap_castle(table)
            if swap is not None and (self._pending is None or self._pending == swap.move):
                return self._apply(t, swap.move, (), certain=False)
            self._lifted.clear()
            return self._report_sync()

        found = self._matching(table, fen)
        if found:
            if self._pending is not None and all(o.move != self._pending for o in found):
                return self._mismatch(t, made=found[0].move)
            return self._decide(t, found)

        if self._last is not None:
            prev = self._table_for(self._last.before)
            if self._occ == prev.base_occ and (fen is None or fen == prev.base_fen):
                return self._takeback(t)
            if self._matching(prev, fen, pending=None):
                out = self._takeback(t, keep_history=True)
                return out + self._evaluate(t)

        if self._infer_promotion(fen):
            return self._evaluate(t)

        late = self._late_mirror(fen)
        if late is not None:
            mirror, found = late
            return self._apply(t, mirror, ()) + self._decide(t, found)

        if self._in_progress(table) or (
                self._last is not None and self._in_progress(self._table_for(self._last.before))):
            return []
        return self._mismatch(t)

    def _restore(self, t: float, table: _Table, fen: tuple[int, ...] | None, at_base: bool) -> list[TrackerEvent]:
        """Judging the pegs while they are being set right: done when they show the position (and a move
        expected after it, when they show that too); before, the squares to set right once, else nothing."""
        pending = self._pending
        shown = pending is not None and not at_base and any(o.move == pending for o in self._matching(table, fen))
        if at_base or shown:
            self._restoring = False
            self._restoring_told = False
            self._last = None
            self._lifted.clear()
            self._touched.clear()
            self._sync = True
            self._confirm = False
            self._mismatch_key = None
            out = [TrackerEvent("in-sync", t)]
            if shown and pending is not None:
                out += self._apply(t, pending, ())
            return out
        if self._restoring_told:
            return []
        self._restoring_told = True
        self._sync = False
        squares = self._occ ^ table.base_occ
        wrong = [sq for sq in chess.scan_forward(self._occ & table.base_occ)
                 if self.senses_pieces and self._pieces.get(sq) != self._board.piece_at(sq)]
        diff = tuple(sorted(set(chess.scan_forward(squares)) | set(wrong)))
        return [TrackerEvent("mismatch", t, squares=diff, wrong_pieces=tuple(wrong))]

    def _late_mirror(self, fen: tuple[int, ...] | None) -> tuple[chess.Move, list[_Outcome]] | None:
        """The pegs show the opponent's move being mirrored *and* the owner's next move (the mirror was
        set up late, after his own move): both, in order."""
        pending = self._pending
        if pending is None or self.owner is None or self._board.turn == self.owner \
                or not self._board.is_legal(pending):
            return None
        after = self._board.copy(stack=False)
        after.push(pending)
        found = self._matching(self._table_for(after), fen, pending=None)
        if not found:
            return None
        target = pending.to_square
        if self._board.is_capture(pending) and not self.senses_pieces and target not in self._lifted:
            return None    # the captured piece of the mirror was never taken off (D.2.3 a)
        return pending, found

    def _infer_promotion(self, fen: tuple[int, ...] | None) -> bool:
        """The reply is legal only if the unannounced promotion was not a queen.

        The placeholder piece is exchanged for one that fits, silently: the
        promotion stays pending until the piece is announced (D.2.1).
        """
        last = self._last
        if last is None or not last.promotion_pending or last.move.promotion != chess.QUEEN:
            return False
        for piece in (chess.KNIGHT, chess.ROOK, chess.BISHOP):
            promotion = chess.Move(last.move.from_square, last.move.to_square, piece)
            board = last.before.copy(stack=False)
            board.push(promotion)
            if self._matching(self._table_for(board), fen, pending=None):
                self._board = board
                self._last = _Made(last.before, promotion, last.reported, True, last.candidates, last.was_expected)
                return True
        return False

    def _in_progress(self, table: _Table) -> bool:
        """Pegs in the hand, or a state on the way of some legal move: not (yet) a mismatch."""
        occ, base = self._occ, table.base_occ
        if occ == base:
            return False  # the same squares with other pieces (a piece-sensing board): nothing is in the hand
        if occ & ~base == 0:
            if not self.senses_pieces:
                return True
            return all(self._pieces.get(sq) == table.board.piece_at(sq) for sq in chess.scan_forward(occ))
        if occ in table.by_occ:
            return not self.senses_pieces  # occupancy: a capture not finished; pieces: the wrong piece
        if not self.senses_pieces and chess.popcount(occ) > chess.popcount(base):
            # more pegs than the position has: every move lifts a peg before it puts
            # one down, so an extra peg (a captured piece put back) is no move under way
            return False
        diff = occ ^ base
        return any(diff & ~o.involved == 0 for o in table.outcomes)

    def _decide(self, t: float, found: list[_Outcome]) -> list[TrackerEvent]:
        if self._pending is not None:
            for o in found:
                if o.move == self._pending:
                    return self._apply(t, o.move, ())
        castles = [o for o in found if o.partners]
        if castles and len(castles) < len(found):
            # Chess960: a castling and a plain rook move can leave the same occupancy;
            # the castling lifts both king and rook.
            both = [o for o in castles if all(sq in self._lifted for sq in chess.scan_forward(o.partners))]
            found = both if both else [o for o in found if not o.partners]
        groups: dict[tuple[int, int], list[chess.Move]] = {}
        for o in found:
            groups.setdefault((o.move.from_square, o.move.to_square), []).append(o.move)
        keys = list(groups)
        certain = True
        if len(keys) > 1:
            lifted = [k for k in keys if k[1] in self._lifted]
            if lifted:
                keys = sorted(lifted, key=lambda k: self._lifted[k[1]], reverse=True)
                certain = len(lifted) == 1 or self._lifted[keys[0][1]] != self._lifted[keys[1][1]]
            else:
                certain = False
        moves = groups[keys[0]]
        others = tuple(m for k in keys[1:] for m in groups[k]) if not certain else ()
        if len(moves) > 1:  # promotion: occupancy cannot tell the piece
            return self._apply(t, chess.Move(moves[0].from_square, moves[0].to_square, chess.QUEEN), others,
                               promotion_pending=True, certain=certain)
        return self._apply(t, moves[0], others, certain=certain)

    def _apply(self, t: float, move: chess.Move, others: tuple[chess.Move, ...], *,
               promotion_pending: bool = False, certain: bool = True) -> list[TrackerEvent]:
        before = self._board.copy(stack=False)
        reported = chess.Move(move.from_square, move.to_square) if promotion_pending else move
        san = None if promotion_pending else before.san(move)
        was_expected = self._pending is not None and self._pending == move
        previous = self._last
        if previous is not None and previous.promotion_pending:
            self._open_promotion = (previous.before, previous.reported, [move])
        elif self._open_promotion is not None:
            self._open_promotion[2].append(move)
        self._board.push(move)
        self._last = _Made(before, move, reported, promotion_pending, others, was_expected)
        self._pending = None
        self._lifted.clear()
        self._touched.clear()
        out = [TrackerEvent("move", t, move=reported, promotion_pending=promotion_pending, san=san,
                            candidates=others, certain=certain and not others)]
        return out + self._report_sync()

    def _replace_last(self, move: chess.Move) -> list[TrackerEvent]:
        last = self._last
        assert last is not None
        board = last.before.copy()
        san = board.san(move)
        board.push(move)
        self._board = board
        self._last = _Made(last.before, move, move, False, (), last.was_expected)
        self._mark_dirty()
        return [TrackerEvent("move", self._now, move=move, san=san, replaces=last.reported)]

    def _complete_open_promotion(self, move: chess.Move) -> list[TrackerEvent] | None:
        """The piece of a promotion announced after later moves: rebuild the position."""
        assert self._open_promotion is not None
        before, reported, later = self._open_promotion
        if (move.from_square, move.to_square) != (reported.from_square, reported.to_square) \
                or not before.is_legal(move):
            return None
        board = before.copy(stack=False)
        san = board.san(move)
        board.push(move)
        for played in later:
            if not board.is_legal(played):
                return None   # the later moves do not fit this piece: leave it to the arbiter
            previous = board.copy(stack=False)
            board.push(played)
        assert self._last is not None
        self._last = _Made(previous, self._last.move, self._last.reported, self._last.promotion_pending,
                           self._last.candidates, self._last.was_expected)
        self._board = board
        self._open_promotion = None
        self._mark_dirty()
        return [TrackerEvent("move", self._now, move=move, san=san, replaces=reported)]

    def _takeback(self, t: float, *, keep_history: bool = False) -> list[TrackerEvent]:
        last = self._last
        assert last is not None
        self._board = last.before.copy()
        self._pending = last.move if last.was_expected else None
        self._last = None
        if self._open_promotion is not None:
            if self._open_promotion[2]:
                self._open_promotion[2].pop()
            if not self._open_promotion[2]:
                self._open_promotion = None
        if not keep_history:
            self._lifted.clear()
            self._touched.clear()
        out = [TrackerEvent("takeback", t, move=last.reported,
                            san=None if last.promotion_pending else last.before.san(last.move))]
        if not keep_history:
            out += self._report_sync()
        return out

    def _report_sync(self) -> list[TrackerEvent]:
        """"in-sync" after a mismatch, or when a snapshot first confirms the board."""
        was, confirm = self._sync, self._confirm
        self._sync = True
        self._confirm = False
        self._mismatch_key = None
        if was is True or (was is None and not confirm):
            return []
        return [TrackerEvent("in-sync", self._changed_at if self._changed_at is not None else self._now)]

    def _mismatch(self, t: float, made: chess.Move | None = None) -> list[TrackerEvent]:
        expected = self._board.copy(stack=False)
        if self._pending is not None:
            expected.push(self._pending)
        squares = self._occ ^ occupancy(expected)
        wrong: list[int] = []
        if self.senses_pieces:
            for square in chess.scan_forward(self._occ & occupancy(expected)):
                if self._pieces.get(square) != expected.piece_at(square):
                    wrong.append(square)
        diff = tuple(sorted(set(chess.scan_forward(squares)) | set(wrong)))
        key = (diff, tuple(wrong), made, self._pending)
        if self._sync is False and key == self._mismatch_key:
            return []
        self._sync = False
        self._mismatch_key = key
        return [TrackerEvent("mismatch", t, squares=diff, wrong_pieces=tuple(wrong), expected=self._pending,
                             move=made)]

