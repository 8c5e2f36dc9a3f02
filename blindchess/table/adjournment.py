"""An adjourned game at the table: the sealed move, the envelope, resumption (FIDE Laws, Guidelines I; pure).

* **Adjourning (I.1).** The arbiter adjourns; everybody hears who seals. The player to
  move writes his move: the blind player says or types it (the recogniser hears it on
  his own headset; it is never said back), the sighted player types it. It is read as
  ``blindchess envelope check`` reads it (:func:`blindchess.laws.adjournment.check_sealed_move`):
  ambiguous, illegal or unreadable — the sealer alone is told why (never the move) and
  writes again; the same text written again although it would lose is sealed as written
  (he insists; Guidelines I.8 decides at resumption). A move that reads as one legal move
  is sealed at once: the envelope (fields a–g, :class:`blindchess.laws.adjournment.Envelope`)
  is journaled, the move as written kept in the envelope, the clocks stop.
* **Resumption (I.5, I.7, I.9 a).** The arbiter opens the envelope: the sealed move
  becomes public, is made on both boards and announced to both players, and the
  responder's clock starts; a sealed move that loses (I.8) ends the game.
* **The assistant (D.2.10 f)** is told the formalities when one is set.
"""

from __future__ import annotations

import secrets

import chess

from ..base import UserError, tr
from ..game import Adjourned, EnvelopeLost, EnvelopeOpened, ResponderClockStarted, SealedMove
from ..language import move_words, write
from ..laws import Envelope, SealCheck, check_sealed_move, commitment
from .events import EnvelopeMissing, GameAdjourned, ResponderAbsent, Resumed, Sealed
from .setup import Who, to_color
from .state import TableState

__all__ = ["Adjournments"]


class Adjournments:
    """Adjourning, sealing, resuming at one table (see the module docstring)."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self._refused_text: str | None = None     # the last sealed move that would lose (written again: sealed)

    # ---------------------------------------------------------------- inputs
    def adjourn(self, now: float) -> None:
        """The arbiter adjourns (refused when the game is over or already adjourned)."""
        state = self.state
        s = state.session
        if state.game.finished or state.game.adjourned:
            state.refuse(now, "adjourn", tr("table.no_adjournment", state.lang), to="sighted")
            return
        state.react(s.adjourn(now))

    def seal(self, who: Who, text: str, now: float) -> None:
        """``who`` writes (or says) his sealed move: checked, sealed when it reads as one legal move."""
        state = self.state
        s = state.session
        lang = state.lang
        sealer = state.game.sealer
        if not state.game.sealing or sealer is None:
            state.refuse(now, "seal", tr("table.nothing_to_seal", lang), to=who)
            return
        if state.who(sealer) != who:
            state.refuse(now, "seal", tr("table.not_your_seal", lang, name=state.name(sealer)), to=who)
            return
        board = s.game_board()
        check = self._read(board, text, who)
        if not check.ok and text.strip() != self._refused_text:
            self._refused_text = text.strip()
            state.emit(Sealed(now, who, False))
            why = tr(f"table.seal_{check.problem or 'unreadable'}", lang)     # to the sealer alone, never the move
            if who == "blind":
                state.say(now, why, "blind", "answer")
            else:
                state.show(now, why)
            return
        self._refused_text = None
        nonce = secrets.token_hex(16)
        clock = s.clock
        envelope = Envelope(
            white=state.game.white.name, black=state.game.black.name, position=board.fen(),
            white_used=round(clock.used(chess.WHITE, now), 3), black_used=round(clock.used(chess.BLACK, now), 3),
            sealer=sealer, move_number=board.fullmove_number,
            draw_offer=sealer if check.draw_offer else state.game.draw_offer,     # (f): an offer written with the move
            white_remaining=_finite(clock.remaining(chess.WHITE, now)),
            black_remaining=_finite(clock.remaining(chess.BLACK, now)),
            event=state.game.headers.get("Event", ""), round=state.game.headers.get("Round", ""),
            commitment=commitment(board.fen(), check.written, nonce))
        hidden = {"written": check.written, "lang": check.lang, "spoken": check.spoken, "nonce": nonce}
        try:
            state.react(s.seal(envelope.to_dict(), hidden, now, valid=check.ok))
        except UserError as exc:
            state.refuse(now, "seal", exc.message, to=who)

    def resume(self, now: float) -> None:
        """The arbiter resumes the game: the envelope is opened (Guidelines I.7, I.9 a); when it is missing or
        does not match what was sealed, play goes on without it (I.12). Refused when none is sealed."""
        state = self.state
        s = state.session
        if not state.game.envelope_sealed:
            state.refuse(now, "resume", tr("table.no_envelope", state.lang), to="sighted")
            return
        try:
            events = s.resume_without_envelope(now) if s.envelope_problem() else s.open_envelope(now)
        except ValueError:
            state.refuse(now, "resume", tr("table.envelope_lost", state.lang), to="sighted")
            return
        state.react(events)

    def resume_absent(self, now: float) -> None:
        """The player who must reply is absent at resumption: his clock is started (Guidelines I.9 b).
        Refused when no envelope is sealed or his clock runs already."""
        state = self.state
        s = state.session
        if not state.game.envelope_sealed or state.game.responder_clock_started:
            state.refuse(now, "resume", tr("table.no_envelope", state.lang), to="sighted")
            return
        state.react(s.start_responder_clock(now))

    def _read(self, board: chess.Board, text: str, who: Who) -> SealCheck:
        """The sealed move as the arbiter reads it: notation first; the blind player's words as spoken."""
        lang = self.state.lang
        check = check_sealed_move(board, text, lang)
        if check.ok or who != "blind" or check.problem != "unreadable":
            return check
        return check_sealed_move(board, text, lang, spoken=True)

    # ---------------------------------------------------------------- what the engine decided
    def adjourned(self, ev: Adjourned) -> None:
        state = self.state
        color = to_color(ev.color)
        who = state.who(to_color(ev.color))
        state.emit(GameAdjourned(ev.t, who, ev.ply))
        text = tr("table.adjourned", state.lang, name=state.name(color))
        state.show(ev.t, text)
        state.say(ev.t, text, "all", "move")
        self._assistant(ev.t, "table.assistant_adjourned")

    def sealed(self, ev: SealedMove) -> None:
        state = self.state
        who = state.who(to_color(ev.by or "white"))
        state.emit(Sealed(ev.t, who, ev.valid))
        text = tr("table.sealed", state.lang, name=state.name(to_color(ev.by or "white")))
        state.show(ev.t, text)
        state.say(ev.t, text, "all", "move")
        self._assistant(ev.t, "table.assistant_sealed")

    def opened(self, ev: EnvelopeOpened, made: chess.Move | None) -> None:
        """The envelope is opened: the sealed move said to both players (now public), or why it loses."""
        state = self.state
        state.emit(Resumed(ev.t, made.uci() if made is not None else None))
        written = str(ev.hidden.get("written", ""))
        if made is not None:
            board = state.board_at(state.game.plies - 1)
            words = move_words(board, made, state.lang, state.wording)
            state.show(ev.t, tr("table.envelope_opened_shown", state.lang, move=write(board, made, state.lang)))
            state.say(ev.t, tr("table.envelope_opened", state.lang, move=words), "all", "move")
        else:
            state.show(ev.t, tr("table.envelope_opened_loses", state.lang, written=written))

    def responder_absent(self, ev: ResponderClockStarted) -> None:
        """The absent responder's clock runs; the envelope waits for him (Guidelines I.9 b)."""
        state = self.state
        state.emit(ResponderAbsent(ev.t, state.who(to_color(ev.color))))
        text = tr("table.responder_absent", state.lang, name=state.name(to_color(ev.color)))
        state.show(ev.t, text)
        state.say(ev.t, text, "all", "move")

    def lost(self, ev: EnvelopeLost) -> None:
        """Resumed without the envelope (Guidelines I.12): said to both players, the sealer to move."""
        state = self.state
        who = state.who(to_color(ev.color))
        state.emit(EnvelopeMissing(ev.t, who, ev.reason))
        text = tr(f"table.envelope_{ev.reason}_resumed", state.lang, name=state.name(to_color(ev.color)))
        state.show(ev.t, text)
        state.say(ev.t, text, "all", "move")

    def _assistant(self, now: float, key: str) -> None:
        """The assistant's formalities at an adjournment (D.2.10 f), when the blind player has one."""
        game = self.state.game
        if game.blind_color is None:
            return
        assistant = game.player(game.blind_color).assistant
        if assistant:
            self.state.show(now, tr(key, self.state.lang, name=assistant))


def _finite(seconds: float) -> float | None:
    return None if seconds == float("inf") else round(seconds, 3)
