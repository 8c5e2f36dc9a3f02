"""Adjournment: the sealed move (FIDE Laws, Guidelines I.1-2), the envelope kept (I.3), resumption (I.5-13).

Guidelines I are numbered as in the Laws in force (the Dutch and Russian texts); the older
German edition numbers the lost envelope I.11 and the wrongly set clock I.12.

* :meth:`Adjournment.adjourn` (I.1 a): the session's time is up; the player to move is to
  seal his move and his clock keeps running while he does. No move is made on the boards.
  Adjourned before the session's scheduled end (I.1 b): the sealing counts as made at that
  end — the sealer's clock runs until then.
* :meth:`Adjournment.seal` (I.1, I.2): the sealed move is journaled only as the envelope
  shows it (``public``: fields a–g and a SHA-256 commitment to the move); the move as
  written (``hidden``) is kept apart — in the envelope file beside the journal
  (:func:`blindchess.storage.journal.write_envelope`), the arbiter's envelope — so it is never
  journaled in clear, nor whether it reads as a legal move. The clocks stop.
* :meth:`Adjournment.open_envelope` (I.7, I.8, I.9 a): the move as written is checked
  against the commitment and read again in the position before it; a sealed move that is
  ambiguous, unreadable or illegal loses (I.8), unless the game had already ended
  otherwise; else it is made on both boards, counts as pressed, and the responder's clock
  starts — the gap between the sessions is not play time.
* :meth:`Adjournment.open_envelope` with ``sealer_absent`` (I.9 c): the sealer is absent; the
  envelope is opened (the responder is there, I.7), the sealed move made, and the responder seals
  his reply in a new envelope instead of making it: then his clock stops and the absent player's
  starts; the new envelope is opened when he arrives.
* :meth:`Adjournment.start_responder_clock` (I.9 b): the player who must reply is absent at
  resumption; his clock is started, and the envelope is opened when he arrives (his time runs
  until then).
* :meth:`Adjournment.sealed_move_ends_game` (I.10): whether the sealed move ends the game by
  itself (mate, stalemate, a dead position), read from the envelope without opening it.
* :meth:`Adjournment.clocks_due` (I.13): the times the clocks should show after the resumption —
  those recorded at the sealing, less the time run since for the player to move.
* :meth:`Adjournment.resume_without_envelope` (I.12): the envelope is missing, or its move is not
  the one committed to: play goes on from the adjourned position with the clock times recorded at
  the adjournment, the sealer to move (he makes the move he states he sealed), his clock running.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import chess

from ..laws import check_sealed_move, commitment, game_already_over
from ..storage import read_envelope, write_envelope
from .boards import Boards
from .clock import Timing
from .ending import Ending, win
from .events import (
    BOARDS,
    Adjourned,
    EnvelopeLost,
    EnvelopeOpened,
    Mirrored,
    MoveMade,
    ResponderClockStarted,
    SealedMove,
    color_name,
    parse_color,
)
from .scores import Scores
from .state import GameState

__all__ = ["Adjournment"]


class Adjournment:
    """The adjournment of one game; see the module docstring."""

    def __init__(self, state: GameState, boards: Boards, timing: Timing, ending: Ending, scores: Scores) -> None:
        self.state = state
        self.boards = boards
        self.timing = timing
        self.ending = ending
        self.scores = scores
        #: "sealing" (the sealer writes his move), "sealed" (the envelope is kept), None (play goes on).
        self.phase: str | None = None
        self.sealer: chess.Color | None = None
        #: The sealed envelope's line (set exactly while the phase is "sealed").
        self.sealed_seq: int | None = None
        #: The absent responder's clock runs while the envelope waits for him (I.9 b), since this moment.
        self.responder_clock = False
        self.responder_since: float | None = None
        #: The session's scheduled end when adjourned before it (I.1 b): the sealing counts as made then.
        self.session_end: float | None = None
        #: The sealer is absent: his opponent seals his reply in a new envelope (I.9 c). Reset when that
        #: envelope is opened or lost, so it is False whenever the game is adjourned.
        self.reply = False
        #: The last resumption: (half-moves then, when the clock of the player to move started, the times
        #: recorded at the sealing) — for a clock pointed out as wrongly set before the first move (I.13).
        self.resumed: tuple[int, float, tuple[float | None, float | None]] | None = None

    # -- commands
    def adjourn(self, now: float, *, session_end: float | None = None) -> None:
        """The arbiter adjourns: the player to move seals his move (I.1 a); ``session_end`` later than
        ``now``: adjourned before the session's scheduled end, the sealing counts as made then (I.1 b).
        ValueError when the game is over or already adjourned."""
        if self.state.result is not None or self.phase is not None:
            raise ValueError("no game to adjourn")
        end = session_end if session_end is not None and session_end > now else None
        self.state.log.record(Adjourned(t=now, color=color_name(self.state.to_move),
                                        ply=len(self.state.moves) + 1, session_end=end))

    def sealed_at(self, now: float) -> float:
        """When a sealing at ``now`` counts as made: the session's scheduled end when adjourned before it
        (I.1 b), else ``now``."""
        return max(now, self.session_end) if self.session_end is not None and not self.reply else now

    def seal(self, public: Mapping[str, Any], hidden: Mapping[str, Any], now: float) -> None:
        """The sealer seals the envelope with his move (I.1): ``public`` what the envelope shows (with the
        commitment), ``hidden`` the move as written. The envelope is kept before the journal notes the
        sealing. ValueError unless a move is to be sealed; OSError when the envelope cannot be kept."""
        if self.phase != "sealing" or self.sealer is None:
            raise ValueError("nothing to seal")
        log = self.state.log
        if log.journal_path is not None:
            write_envelope(log.journal_path, {"seq": log.seq + 1, "commitment": public.get("commitment"),
                                              "hidden": dict(hidden)})
        log.record(SealedMove(t=now, public=dict(public), hidden=dict(hidden), by=color_name(self.sealer)))

    def envelope(self) -> Mapping[str, Any] | None:
        """The hidden part of the envelope sealed and not yet opened: the envelope file beside the journal
        (kept in memory only for a game without a journal); None when it is lost (Guidelines I.12).
        Never show it before the envelope is opened."""
        if self.sealed_seq is None:
            return None
        path = self.state.log.journal_path
        if path is None:
            ev = self.state.log.sealed.get(self.sealed_seq)
            return None if ev is None else ev.hidden     # as the envelope file would hold it, even empty
        data = read_envelope(path)
        if not data or data.get("seq") != self.sealed_seq or not isinstance(data.get("hidden"), Mapping):
            return None
        return dict(data["hidden"])

    def envelope_problem(self) -> Literal["missing", "mismatch"] | None:
        """Why the sealed envelope cannot be opened (I.12): "missing", "mismatch" (its move is not the one
        committed to when it was sealed), or None (it can be opened, or none is sealed — the sealer may still be
        writing his move)."""
        if self.sealed_seq is None:
            return None
        hidden = self.envelope()
        sealed = self.state.log.sealed.get(self.sealed_seq)
        if hidden is None or sealed is None:
            return "missing"
        position = str(sealed.public.get("position", ""))
        if commitment(position, str(hidden.get("written", "")), str(hidden.get("nonce", ""))) \
                != sealed.public.get("commitment"):
            return "mismatch"
        return None

    def open_envelope(self, now: float, *, sealer_absent: bool) -> None:
        """The arbiter opens the envelope (I.7): the move as written becomes public and is played (I.9 a)
        or loses (I.8); ``sealer_absent``: the sealer is not there, his opponent seals his reply (I.9 c).
        ValueError when no envelope is closed, or it is lost or does not match its commitment (then
        :meth:`resume_without_envelope`, I.12)."""
        problem = self.envelope_problem()
        hidden = self.envelope()
        if self.sealed_seq is None or problem is not None or hidden is None:
            raise ValueError(f"no envelope to open ({problem or 'none sealed'})")
        self.state.log.record(EnvelopeOpened(t=now, sealed_seq=self.sealed_seq, hidden=dict(hidden),
                                             sealer_absent=sealer_absent))

    def sealed_move_ends_game(self) -> bool:
        """Whether the sealed move, still in the closed envelope, is one legal move that ends the game by
        itself — checkmate, stalemate, a dead position, Art. 9.6 (Guidelines I.10). Read for the arbiter's
        decision only; nothing of it is recorded."""
        hidden = self.envelope()
        if hidden is None or self.envelope_problem() is not None:
            return False
        board = self.state.game_board()
        check = check_sealed_move(board, str(hidden.get("written", "")), str(hidden.get("lang", self.state.lang)),
                                  spoken=bool(hidden.get("spoken")))
        move = check.move if check.ok else None
        if move is None:
            return False
        board.push(move)
        return game_already_over(board) is not None

    def clocks_due(self, now: float) -> tuple[float, float] | None:
        """The remaining times (White, Black) the clocks should show at ``now`` after the last resumption:
        those recorded at the sealing, less the time run since for the player to move (I.13); None without
        a resumption, a clock, or the recorded times."""
        if self.resumed is None or self.timing.time_control is None:
            return None
        plies, since, (white, black) = self.resumed
        if white is None or black is None:
            return None
        due = [white, black]
        mover = self.state.mover(plies)
        index = 0 if mover == chess.WHITE else 1
        due[index] -= max(0.0, now - since)
        return due[0], due[1]

    @property
    def resumption_ply(self) -> int | None:
        """How many half-moves the game had when it was last resumed (None: never adjourned and resumed)."""
        return None if self.resumed is None else self.resumed[0]

    def start_responder_clock(self, now: float) -> None:
        """The player who must reply to the sealed move is absent at resumption: his clock is started
        (I.9 b). ValueError unless an envelope is sealed and his clock is not running yet."""
        if self.phase != "sealed" or self.responder_clock or self.state.result is not None:
            raise ValueError("no envelope waiting for an absent player")
        self.state.log.record(ResponderClockStarted(t=now, color=color_name(not self.sealer)))

    def resume_without_envelope(self, now: float) -> None:
        """The arbiter resumes a game whose envelope is lost or does not match (I.12). ValueError when no
        envelope is sealed or it can be opened."""
        problem = self.envelope_problem()
        if problem is None or self.sealed_seq is None or self.sealer is None:
            raise ValueError("no lost envelope")
        self.state.log.record(EnvelopeLost(t=now, sealed_seq=self.sealed_seq, color=color_name(self.sealer),
                                           reason=problem))

    # -- handlers
    def on_adjourned(self, ev: Adjourned) -> None:
        self.phase = "sealing"
        self.sealer = parse_color(ev.color)
        self.session_end = ev.session_end
        self.resumed = None
        self.state.adjourned = True

    def on_sealed(self, ev: SealedMove) -> None:
        if self.phase != "sealing":
            return      # an earlier version's note-like record (journals before the procedure at the table)
        self.phase = "sealed"
        self.sealed_seq = ev.seq
        clock = self.timing.clock
        if self.reply:      # the sealer is set whenever a move is being sealed
            # I.9 c: he stops his clock and starts the absent player's
            if clock.running is not None:       # also while the arbiter has the clock stopped
                clock.align(len(self.state.moves), self.state.start.turn, ev.t, running=not self.sealer)
            return
        if clock.ticking:
            clock.pause(self.sealed_at(ev.t))     # I.1: he stops his clock without starting the opponent's

    def on_envelope_opened(self, ev: EnvelopeOpened) -> None:
        self.state.log.reveal(ev.sealed_seq, ev.hidden)
        sealed = self.state.log.sealed.get(ev.sealed_seq)
        public = sealed.public if sealed is not None else {}
        recorded = (_seconds(public.get("white_remaining")), _seconds(public.get("black_remaining")))
        responder_since = self.responder_since
        self.responder_clock = False
        self.responder_since = None
        self.phase = None
        self.state.adjourned = False
        self.session_end = None
        reply, self.reply = self.reply, False
        sealer = self.state.to_move         # he sealed the move of the adjourned position
        self.sealer = None
        self.sealed_seq = None
        board = self.state.game_board()
        over = game_already_over(board)
        if over is not None or self.state.result is not None:
            return      # the game had already ended otherwise (I.8)
        hidden = ev.hidden
        check = check_sealed_move(board, str(hidden.get("written", "")), str(hidden.get("lang", self.state.lang)),
                                  spoken=bool(hidden.get("spoken")))
        move = check.move if check.ok else None
        if move is None:
            self.ending.end(win(not sealer), "sealed_move", ev.t)   # I.8 a-c: ambiguous, unreadable, illegal
            return
        self._play(move, sealer, ev.t)
        if reply:
            # the reply sealed in the new envelope (I.9 c): the absent player's clock has run since its sealing
            self.resumed = None
        else:
            self.resumed = (len(self.state.moves), responder_since if responder_since is not None else ev.t, recorded)
        if ev.sealer_absent and self.state.result is None:
            # I.9 c: the sealer is absent; his opponent seals his reply in a new envelope
            self.phase = "sealing"
            self.sealer = self.state.to_move
            self.reply = True
            self.state.adjourned = True

    def on_responder_clock_started(self, ev: ResponderClockStarted) -> None:
        """His clock runs from the resumption, before the sealed move is made (I.9 b)."""
        self.responder_clock = True
        self.responder_since = ev.t
        clock = self.timing.clock
        if clock.running is None:
            return
        clock.resume(ev.t)
        clock.align(len(self.state.moves), self.state.start.turn, ev.t, running=parse_color(ev.color))

    def on_envelope_lost(self, ev: EnvelopeLost) -> None:
        """Play goes on from the adjourned position, the sealer to move, his clock running with the time
        recorded at the adjournment (I.12); the envelope stays closed."""
        sealed = self.state.log.sealed.get(ev.sealed_seq)
        public = sealed.public if sealed is not None else {}
        self.responder_clock = False
        self.responder_since = None
        self.phase = None
        self.state.adjourned = False
        self.session_end = None
        self.reply = False
        self.sealer = None
        self.sealed_seq = None
        if self.state.result is not None:
            return
        self.timing.clock.resume(ev.t)
        self.timing.align(len(self.state.moves), ev.t)      # the sealer's clock, also after I.9 b
        self.resumed = (len(self.state.moves), ev.t, (_seconds(public.get("white_remaining")),
                                                      _seconds(public.get("black_remaining"))))

    def _play(self, move: chess.Move, sealer: chess.Color, now: float) -> None:
        """The sealed move on both boards (I.9 a): made, counted as pressed; the responder's clock starts (a
        reply sealed while the sealer was absent, I.9 c: his clock runs on, as it has since that sealing)."""
        state = self.state
        index = len(state.moves)
        san = state.board.san(move)
        state.push(move)
        for board in BOARDS:
            if len(self.boards.boards[board].move_stack) == index:
                self.boards.boards[board].push(move)
                self.boards.keys[board].append(state.keys[-1])
        self.scores.made(index, move)
        state.log.record(MoveMade(t=now, ply=index + 1, color=color_name(sealer), uci=move.uci(), san=san,
                                  blind=state.is_blind(sealer)))
        for board in BOARDS:
            if self.boards.shows(board, index, move):
                state.log.record(Mirrored(t=now, board=board, ply=index + 1))
        clock = self.timing.clock
        if clock.paused:
            clock.resume(now)
        self.timing.align(index + 1, now)
        self.ending.after_move(now)


def _seconds(value: object) -> float | None:
    """A recorded time from the envelope's public fields (None when it was not recorded)."""
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

