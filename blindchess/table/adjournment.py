"""An adjourned game at the table: the sealed move, the envelope, resumption (FIDE Laws, Guidelines I; pure).

Guidelines I are numbered as in the Laws in force (the Dutch and Russian texts); the older
German edition in the project's FIDE texts numbers the lost envelope I.11 and the wrongly
set clock I.12.

* **Adjourning (I.1 a).** The arbiter adjourns; everybody hears who seals. The player to
  move writes his move: the blind player says or types it (the recogniser hears it on
  his own headset; it is never said back), the sighted player types it. It is read as
  ``blindchess envelope check`` reads it (:func:`blindchess.laws.adjournment.check_sealed_move`):
  ambiguous, illegal or unreadable — the sealer alone is told that he must write again
  (never the move, on his own voice or his own screen, never logged); the same text written
  again although it would lose is sealed as written (he insists; Guidelines I.8 decides at
  resumption). A move that reads as one legal move is sealed at once: the envelope (fields
  a–g, :class:`blindchess.laws.adjournment.Envelope`) is journaled, the move as written kept in
  the envelope, the clocks stop. Adjourned before the session's scheduled end (I.1 b), the
  sealing counts as made at that end: the envelope records the times then.
* **Secret on every path (I.1).** What the sealer says or types while he seals is no
  ``heard`` event, no log row, no text anyone else sees; no event, journal line or file says
  what he wrote, how long it is or whether it reads as a legal move.
* **A move made on the board after the call to seal (I.1 a)** is the sealed move: sealed at
  once, nobody told which; the position before it is set up again (the pegs silently), as it
  must stand at resumption (I.5). Anything written afterwards is refused.
* **Resumption (I.5, I.7, I.9 a).** The arbiter opens the envelope: the sealed move
  becomes public, is made on both boards and announced to both players, and the
  responder's clock starts; a sealed move that loses (I.8) ends the game. The responder
  absent: his clock is started, the envelope waits for him (I.9 b). The sealer absent: the
  envelope is opened, the sealed move made, and the responder seals his reply in a new
  envelope — his clock stops, the absent player's starts (I.9 c). The envelope lost: play
  goes on from the adjourned position (I.12 a).
* **A player too late (I.10)** loses by the arbiter's decision — unless the sealed move ends
  the game by itself (mate, stalemate, a dead position): then the envelope is opened and the
  sealed move decides. **A position that cannot be re-established (I.12 b)**: the arbiter
  annuls the game. **A clock wrongly set or not started at resumption (I.13)**, pointed out
  before the first move: corrected to the times recorded at the sealing, less the time run
  since; later it stands (the arbiter may still set the clocks).
* **The assistant (D.2.10 f)** is told the formalities when one is set.
"""

from __future__ import annotations

import secrets

import chess

from ..base import UserError, tr
from ..game import Adjourned, BoardName, EnvelopeLost, EnvelopeOpened, ResponderClockStarted, SealedMove
from ..language import move_words, write
from ..laws import Envelope, SealCheck, check_sealed_move, commitment
from .events import EnvelopeMissing, GameAdjourned, ResponderAbsent, Resumed, Sealed, SealerAbsent
from .setup import Who, to_color
from .state import TableState
from .tactile import TactileBoard

__all__ = ["Adjournments", "MAX_SEALED_CHARS"]

#: The longest sealed move the envelope takes, in characters (a move in any notation is far shorter); the
#: envelope file has one size whatever it holds.
MAX_SEALED_CHARS = 120


class Adjournments:
    """Adjourning, sealing, resuming at one table (see the module docstring)."""

    def __init__(self, state: TableState, tactile: TactileBoard) -> None:
        self.state = state
        self.tactile = tactile
        self._refused_text: str | None = None     # the last sealed move that would lose (written again: sealed)
        state.seal_board_move = self.board_move

    # ---------------------------------------------------------------- inputs
    def adjourn(self, now: float, session_end: float | None = None) -> None:
        """The arbiter adjourns (refused when the game is over or already adjourned); ``session_end``: the
        session's scheduled end when it is adjourned before it (I.1 b)."""
        state = self.state
        s = state.session
        if state.game.finished or state.game.adjourned:
            state.refuse(now, "adjourn", tr("table.no_adjournment", state.lang), to="sighted")
            return
        state.react(s.adjourn(now, session_end=session_end))

    def seal(self, who: Who, text: str, now: float) -> None:
        """``who`` writes (or says) his sealed move: checked, sealed when it reads as one legal move."""
        state = self.state
        lang = state.lang
        sealer = state.game.sealer
        if not state.game.sealing or sealer is None:
            state.refuse(now, "seal", tr("table.nothing_to_seal", lang), to=who)
            return
        if state.who(sealer) != who:
            state.refuse(now, "seal", tr("table.not_your_seal", lang, name=state.name(sealer)), to=who)
            return
        written = text.strip()
        if len(written) > MAX_SEALED_CHARS:
            state.tell(now, who, tr("table.seal_too_long", lang))       # to the sealer alone, never the move
            return
        check = self._read(state.session.game_board(), written, who)
        if not check.ok and written != self._refused_text:
            self._refused_text = written
            state.tell(now, who, tr(f"table.seal_{check.problem or 'unreadable'}", lang))
            return
        self._seal(sealer, check, now)

    def board_move(self, board: BoardName, move: chess.Move, now: float) -> bool:
        """A move on ``board`` while the game is adjourned. The sealer's own legal move on his own board while he
        seals is his sealed move (Guidelines I.1 a) — sealed at once, nobody told which —, and the position
        before it is to be set up again (I.5). Any other move of the player to move on his own board while the
        game is adjourned is refused here, before the engine, so that nothing of it is journaled (it may be the
        sealed move). True when the move was taken so; False: anything else (a mirror, no adjournment), which
        the board hands on as usual."""
        state = self.state
        game = state.game
        if not game.adjourned or game.finished:
            return False
        position = state.session.game_board()
        mover = position.turn
        if board != ("tactile" if game.is_blind(mover) else "sighted") or game.board_length(board) != game.plies:
            return False
        if game.sealing and mover == game.sealer and position.is_legal(move):
            check = SealCheck(write(position, move, state.lang), state.lang, False, move, None, (move,))
            if not self._seal(mover, check, now):
                return True
            text = tr("table.sealed_on_the_board", state.lang, name=state.name(mover))
            state.show(now, text)
            state.say(now, text, "all", "move")
        else:
            state.refuse(now, "move", tr("table.adjourned_no_move", state.lang),
                         to="blind" if board == "tactile" else "sighted")
        if board == "tactile":
            self.tactile.set_right(now, tell=False)      # the pegs back to the position before it, silently
        return True

    def resume(self, now: float, *, sealer_absent: bool = False) -> None:
        """The arbiter resumes the game: the envelope is opened (Guidelines I.7, I.9 a; ``sealer_absent``: the
        sealer is not there, his opponent seals his reply, I.9 c); when it is missing or does not match what
        was sealed, play goes on without it (I.12). Refused when none is sealed."""
        state = self.state
        s = state.session
        if not state.game.envelope_sealed:
            state.refuse(now, "resume", tr("table.no_envelope", state.lang), to="sighted")
            return
        if sealer_absent and (s.envelope_problem() or state.game.reply_sealing):
            state.refuse(now, "resume", tr("table.envelope_lost" if s.envelope_problem() else "table.no_envelope",
                                           state.lang), to="sighted")
            return
        try:
            events = s.resume_without_envelope(now) if s.envelope_problem() \
                else s.open_envelope(now, sealer_absent=sealer_absent)
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

    def late(self, color: chess.Color, now: float) -> None:
        """The player of ``color`` has not come by the default time (Guidelines I.10): he loses — unless the
        sealed move in the closed envelope ends the game by itself, which is then opened and decides."""
        state = self.state
        s = state.session
        if state.game.finished:
            state.refuse(now, "result", tr("table.game_over", state.lang), to="sighted")
            return
        if state.game.envelope_sealed and s.sealed_move_ends_game():
            state.show(now, tr("table.late_sealed_move_decides", state.lang, name=state.name(color)))
            state.react(s.open_envelope(now))
            return
        text = tr("table.late", state.lang, name=state.name(color))
        state.show(now, text)
        state.react(s.set_result("1-0" if color == chess.BLACK else "0-1", now, reason="late"))

    def annul(self, now: float) -> None:
        """The arbiter annuls the game: a new game is to be played (Guidelines I.12 b, Art. 7.2.1)."""
        state = self.state
        if state.game.finished:
            state.refuse(now, "result", tr("table.game_over", state.lang), to="sighted")
            return
        state.react(state.session.set_result("*", now, reason="annulled"))

    def clock_pointed_out(self, who: Who, now: float) -> None:
        """``who`` points out, before the first move at the resumption, that a clock is wrongly set or not
        started (Guidelines I.13): both are set to the times recorded at the sealing, less the time run since
        for the player to move, and run. Refused without a resumption, once a move has been made since (play
        goes on without correction; the arbiter may still set a clock), or when the clocks are right."""
        state = self.state
        s = state.session
        game = state.game
        color = state.color_of(who)
        due = s.clocks_due(now)
        start = game.resumption_ply
        if color is None or due is None or start is None or game.finished:
            state.refuse(now, "clock", tr("table.no_clock_to_correct", state.lang), to=who)
            return
        if game.plies > start:
            # a move made since: the clocks are corrected only before the first one (the time since is then
            # the player to move's alone); later the arbiter sets them in his view if he finds it too serious
            state.refuse(now, "clock", tr("table.clock_correction_too_late", state.lang), to=who)
            return
        clock = s.clock
        setting = ((chess.WHITE, due[0]), (chess.BLACK, due[1]))
        if all(abs(clock.remaining(side, now) - seconds) < 1.0 for side, seconds in setting) \
                and clock.running == game.to_move and not clock.paused:
            state.refuse(now, "clock", tr("table.clock_is_right", state.lang), to=who)
            return
        for side, seconds in setting:
            state.react(s.set_remaining(side, round(max(0.0, seconds), 3), now))
        if clock.paused:
            state.react(s.resume(now))
        text = tr("table.clock_corrected", state.lang, name=state.name(color))
        state.show(now, text)
        state.say(now, text, "all", "answer")

    def _read(self, board: chess.Board, text: str, who: Who) -> SealCheck:
        """The sealed move as the arbiter reads it: notation first; the blind player's words as spoken."""
        lang = self.state.lang
        check = check_sealed_move(board, text, lang)
        if check.ok or who != "blind" or check.problem != "unreadable":
            return check
        return check_sealed_move(board, text, lang, spoken=True)

    def _seal(self, sealer: chess.Color, check: SealCheck, now: float) -> bool:
        """The envelope sealed with ``check``'s move as written (fields a–g, the commitment); False when it
        cannot be kept (the sealer is told)."""
        state = self.state
        s = state.session
        self._refused_text = None
        board = s.game_board()
        nonce = secrets.token_hex(16)
        clock = s.clock
        at = s.sealed_at(now)       # adjourned before the session's end: the times at its end (I.1 b)
        envelope = Envelope(
            white=state.game.white.name, black=state.game.black.name, position=board.fen(),
            white_used=round(clock.used(chess.WHITE, at), 3), black_used=round(clock.used(chess.BLACK, at), 3),
            sealer=sealer, move_number=board.fullmove_number,
            draw_offer=sealer if check.draw_offer else state.game.draw_offer,     # (f): an offer written with the move
            white_remaining=_finite(clock.remaining(chess.WHITE, at)),
            black_remaining=_finite(clock.remaining(chess.BLACK, at)),
            event=state.game.headers.get("Event", ""), round=state.game.headers.get("Round", ""),
            commitment=commitment(board.fen(), check.written, nonce))
        hidden = {"written": check.written, "lang": check.lang, "spoken": check.spoken, "nonce": nonce}
        try:
            state.react(s.seal(envelope.to_dict(), hidden, now))
        except UserError as exc:
            state.refuse(now, "seal", exc.message, to=state.who(sealer))
            return False
        return True

    # ---------------------------------------------------------------- what the engine decided
    def adjourned(self, ev: Adjourned) -> None:
        state = self.state
        color = to_color(ev.color)
        who = state.who(to_color(ev.color))
        state.emit(GameAdjourned(ev.t, who, ev.ply))
        text = tr("table.adjourned", state.lang, name=state.name(color))
        state.show(ev.t, text)
        state.say(ev.t, text, "all", "move")
        if ev.session_end is not None:
            state.show(ev.t, tr("table.adjourned_early", state.lang, name=state.name(color)))
        self._assistant(ev.t, "table.assistant_adjourned")

    def sealed(self, ev: SealedMove) -> None:
        state = self.state
        sealer = to_color(ev.by or "white")         # (the engine always names the sealer)
        state.emit(Sealed(ev.t, state.who(sealer)))
        key = "table.sealed_reply" if state.game.envelope_sealed and state.game.reply_sealing else "table.sealed"
        text = tr(key, state.lang, name=state.name(sealer))
        state.show(ev.t, text)
        state.say(ev.t, text, "all", "move")
        self._assistant(ev.t, "table.assistant_sealed")

    def opened(self, ev: EnvelopeOpened, made: chess.Move | None) -> None:
        """The envelope is opened: the sealed move said to both players (now public), or why it loses; the
        sealer absent: his opponent is to seal his reply (I.9 c)."""
        state = self.state
        state.emit(Resumed(ev.t, made.uci() if made is not None else None))
        written = str(ev.hidden.get("written", ""))
        if made is not None:
            board = state.board_at(state.game.plies - 1)
            words = move_words(board, made, state.lang, state.wording)
            state.show(ev.t, tr("table.envelope_opened_shown", state.lang, move=write(board, made, state.lang)))
            state.say(ev.t, tr("table.envelope_opened", state.lang, move=words), "all", "move")
            state.opened_ply = state.game.plies           # the move is said once: here, to everyone
        else:
            state.show(ev.t, tr("table.envelope_opened_loses", state.lang, written=written))
        if self._reply(ev.sealed_seq):
            # the reply sealed while he was absent (I.9 c): his pegs lack the sealed move and the reply
            state.then(lambda: self.tactile.set_right(ev.t))
        state.then(lambda: self._sealer_absent(ev.t))      # once the sealed move is made and said (only I.9 c)

    def _reply(self, sealed_seq: int) -> bool:
        """Whether the sealed move ``sealed_seq`` is a reply sealed while the sealer was absent (I.9 c): the
        envelope opened before it was opened with the sealer absent."""
        before = next((ev for ev in reversed(self.state.session.events)
                       if ev.seq < sealed_seq and isinstance(ev, (Adjourned, EnvelopeOpened))), None)
        return isinstance(before, EnvelopeOpened) and before.sealer_absent

    def _sealer_absent(self, now: float) -> None:
        """The sealer is absent (I.9 c): his opponent is told that he may seal his reply in a new envelope."""
        state = self.state
        sealer = state.game.sealer if state.game.reply_sealing else None     # the one who seals his reply now
        if sealer is None:
            return
        state.emit(SealerAbsent(now, state.who(not sealer)))
        text = tr("table.sealer_absent", state.lang, name=state.name(sealer), absent=state.name(not sealer))
        state.show(now, text)
        state.say(now, text, "all", "move")

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
