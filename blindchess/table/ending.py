"""How a game ends at the table: resignation, draw offers and claims, flags, the result (pure).

Nothing ends before it is confirmed (D.2.1): a resignation and accepting the
opponent's standing draw offer are asked about first (a yes/no
:class:`~blindchess.table.questions.Question`). A player cannot accept his own
offer. A draw offer to the blind player is said to him — again when the game comes
back after a crash while it stands.

Claims (the engine judges them): a player to move claims a draw by threefold
repetition (Art. 9.2) or fifty moves (Art. 9.3); the blind player also with his move
announced and not yet pressed (his announcement declares it, Art. 9.2.1.1). "Remis"
said by a player who could claim is his claim, not an offer: the table takes the
correct claim the player means rather than an offer he could only lose by. A claim on
time (Art. 6.8; for the blind player his assistant, D.2.10 e) needs the opponent's
flag down. A draw claimed with under two minutes left (Guidelines III) stops the clocks
and goes to the arbiter. Every end — by the board, a claim, a flag, an agreement, a resignation —
is said to everybody and shown (``ended``), stops the clock and stands in both scores
and the PGN (the engine's result).

Rapid and blitz (Appendices A, B, in the edition of the project's FIDE texts):

* A wrong set-up of the pieces, the board's orientation or the clock is claimed
  (:meth:`Endings.claim_setup`); without adequate supervision no longer once each player
  has made three moves (A a) — a king standing where the queen should, and the queen where
  the king should, may then not castle (the start position says so). In time, the arbiter
  decides: a wrong initial position annuls the game (Art. 7.2.1), the position goes to a
  board set up the right way round (Art. 7.2.2), the clock is set right.
* Touch-move (Art. 4.3) is ruled on a player's claim (:meth:`Endings.claim_touch`: what the
  opponent touched in his last move and what he played instead; without adequate
  supervision the arbiter rules on Art. 4 only so, A b).
* In blitz an illegal move that stands once the opponent has moved is corrected only by
  both players' agreement, without the arbiter (:meth:`Endings.agree_correction`, B).
"""

from __future__ import annotations

import chess

from ..base import tr
from ..game import (
    ClaimJudged,
    ClaimKind,
    CorrectionAgreed,
    DrawDeclined,
    DrawOffer,
    FlagFallen,
    GameEnd,
    IllegalCorrected,
    QuickplayFiled,
    QuickplayGround,
    QuickplayVerdict,
    TimeAdded,
)
from ..language import write
from ..laws import QuickplayCase, decide_quickplay, king_queen_swapped
from .events import ClaimDecided, Ended, GameEnded, IllegalMoveCorrected
from .notes import ClaimNoted
from .questions import Questions
from .setup import Answer, Question, SetupFault, Who, color_name, to_color
from .state import TableState

__all__ = ["Endings", "QuickplayGround", "QuickplayVerdict"]


class Endings:
    """Resignation, draw offers, claims and the game's end (see the module docstring)."""

    def __init__(self, state: TableState, questions: Questions) -> None:
        self.state = state
        self.questions = questions
        questions.resolver("resign", self._resolve)
        questions.resolver("draw-accept", self._resolve)
        #: Who made the claim the engine is judging (it knows colours; the table knows the actor): set when
        #: the claim is made, taken when its judgment is dispatched.
        self._claimant: Who | None = None

    # ---------------------------------------------------------------- inputs
    def ask_resign(self, who: Who, now: float) -> None:
        """``who`` wants to resign: asked first (refused when the game is over or he does not play)."""
        state = self.state
        color = self.state.color_of(who)
        if color is None or state.game.finished:
            self.state.refuse(now, "resign", tr("table.game_over", self.state.lang), to=who)
            return
        self.questions.ask(Question("resign", who, tr("table.ask_resign", self.state.lang), ("yes", "no"),
                                    color=color_name(color)), now)

    def ask_draw_accept(self, who: Who, now: float) -> None:
        """``who`` would accept the opponent's standing offer: asked first. Only asked while that offer stands
        (:meth:`offer_to`), so while the game goes on and ``who`` plays (the game's end withdraws an offer)."""
        color = self.state.color_of(who)
        self.questions.ask(Question("draw-accept", who, tr("table.ask_draw_accept", self.state.lang), ("yes", "no"),
                                    color=None if color is None else color_name(color)), now)

    def offer_draw(self, who: Who, now: float) -> None:
        """``who`` offers a draw, or — when the opponent's offer stands — is asked to confirm accepting it."""
        state = self.state
        s = state.session
        color = state.color_of(who)
        if color is None:
            state.refuse(now, "draw", tr("table.no_blind_player", state.lang), to=who)
        elif state.game.finished:
            state.refuse(now, "draw", tr("table.game_over", state.lang), to=who)
        elif self.offer_to(color):
            self.ask_draw_accept(who, now)
        else:
            state.react(s.offer_draw(color, now))

    def claim_instead(self, who: Who, now: float) -> bool:
        """"Remis" said by ``who``: when he can claim a draw (Art. 9.2, 9.3) it is his claim; False otherwise."""
        s = self.state.session
        color = self.state.color_of(who)
        kinds: tuple[ClaimKind, ...] = ("threefold", "fifty")
        # (no claim holds once the game is over: "Remis" is then an offer, refused as such)
        kind = next((k for k in kinds if color is not None and s.draw_claim_holds(color, k)), None)
        if kind is None:
            return False
        self.claim(who, kind, now)
        return True

    def claim(self, who: Who, kind: ClaimKind, now: float, move: chess.Move | None = None) -> None:
        """``who`` claims ``kind``: judged by the engine, said and shown either way."""
        state = self.state
        s = state.session
        color = self._claimant_color(who, kind)
        if color is None:
            state.refuse(now, "claim", tr("table.no_blind_player", state.lang), to=who)
            return
        if state.game.finished:
            state.refuse(now, "claim", tr("table.game_over", state.lang), to=who)
            return
        self._claimant = who        # the engine judges it in the batch it returns (ClaimJudged)
        state.react(s.claim(color, kind, now, move))

    def _claimant_color(self, who: Who, kind: ClaimKind) -> chess.Color | None:
        """The colour a claim by ``who`` is for. The blind player's assistant sits on the sighted side of
        the script's actors (he mirrors there): "sighted" claiming the sighted player's own flag can only
        be the assistant's claim for the blind player (D.2.10 e)."""
        game = self.state.game
        state = self.state
        s = state.session
        color = state.color_of(who)
        if kind == "time" and who == "sighted" and game.blind_color is not None:
            sighted = state.sighted_color()
            if s.clock.flag_fallen(sighted, state.now) and not s.clock.flag_fallen(game.blind_color, state.now):
                return game.blind_color
        return color

    def claim_quickplay(self, who: Who, ground: QuickplayGround, now: float) -> None:
        """``who`` claims a draw with under two minutes left (Guidelines III.4): the rules engine checks it
        (no increment, not blitz, his move, his flag up, the position — the one on the board —, his score
        for "no effort"); filed, the clocks stop and the arbiter decides (:meth:`arbiter_quickplay`)."""
        state = self.state
        color = self._claim_color(who, now)
        if color is None:
            return
        if state.game.time_control is None:
            state.refuse(now, "claim", tr("table.no_clock", state.lang), to=who)
            return
        state.react(state.session.claim_quickplay(color, ground, now))

    def claim_setup(self, who: Who, fault: SetupFault, now: float) -> None:
        """``who`` claims that the pieces, the board's orientation or the clock were set up wrongly (Appendix A
        a): refused once each player has made three moves (rapid and blitz without adequate supervision), else
        said to everybody for the arbiter to decide (Art. 7.2: the game annulled, the position moved to a board
        the right way round; the clock set right)."""
        state = self.state
        game = state.game
        color = self._claim_color(who, now)
        if color is None:
            return
        limit = game.rules.setup_claims_until_moves
        # the moves each player has completed — made and (with a clock) pressed: the one behind has half of all
        done = (game.plies_pressed if game.time_control is not None else game.plies) // 2
        if limit is not None and done >= limit:
            state.emit(ClaimDecided(now, who, "setup", False))
            text = tr("table.setup_claim_too_late", state.lang, name=state.name(color), moves=limit)
            state.react(state.session.note(text, now, ClaimNoted("setup", who, False)))
            state.refuse(now, "claim", text, to=who)
            if who != "blind" and game.blind_color is not None:
                state.say(now, text, "blind", "answer")
            for swapped in (c for c in (chess.WHITE, chess.BLACK) if king_queen_swapped(game.start, c)):
                if fault == "pieces":       # A a: the king that stands where the queen should may not castle
                    note = tr("table.setup_king_queen_swapped", state.lang, color=state.color_words(swapped))
                    state.show(now, note)
                    state.say(now, note, "all", "answer")
            return
        state.emit(ClaimDecided(now, who, "setup", True))
        text = tr(f"table.setup_claim_{fault}", state.lang, name=state.name(color))
        state.react(state.session.note(text, now, ClaimNoted("setup", who, True)))
        state.show(now, text)
        state.say(now, text, "all", "answer")

    def _claim_color(self, who: Who, now: float) -> chess.Color | None:
        """The colour of ``who``, who makes a claim; None, the claim refused to him, when the game is over or
        nobody plays that part."""
        state = self.state
        color = state.color_of(who)
        if color is None or state.game.finished:
            state.refuse(now, "claim", tr("table.game_over" if state.game.finished else "table.no_blind_player",
                                          state.lang), to=who)
            return None
        return color

    def claim_touch(self, who: Who, now: float) -> None:
        """``who`` claims touch-move (Art. 4.3) against his opponent's last move, before his own: what the
        opponent touched in it and played instead is said to everybody for the arbiter (who rules on Art. 4,
        without adequate supervision, only so, Appendix A b); refused when the touches recorded show no
        breach."""
        state = self.state
        game = state.game
        color = self._claim_color(who, now)
        if color is None:
            return
        index = game.plies - 1
        breach = self._touch_breach(not color, index) if index >= 0 else None     # (None after his own move)
        state.emit(ClaimDecided(now, who, "touch", breach is not None))
        if breach is None:
            text = said = tr("table.touch_claim_rejected", state.lang, name=state.name(color))
        else:
            square, piece, capture = breach
            before = state.board_at(index)
            text = tr("table.touch_claim_capture" if capture else "table.touch_claim", state.lang,
                      name=state.name(not color), piece=state.piece_words(piece), square=chess.square_name(square),
                      move=write(before, game.game_moves[index], state.lang))
            said = tr("table.touch_claim_upheld", state.lang)
        state.react(state.session.note(text, now, ClaimNoted("touch", who, breach is not None)))
        state.show(now, text)
        state.say(now, said, "all", "answer")

    def _touch_breach(self, offender: chess.Color, index: int) -> tuple[chess.Square, chess.Piece | None, bool] | None:
        """The first piece ``offender`` touched before half-move ``index`` that he had to move (his own) or
        capture (his opponent's) and did not: (square, piece, capture), or None (Art. 4.3)."""
        state = self.state
        game = state.game
        if state.board_at(index).turn != offender:
            return None
        before = state.board_at(index)
        made = game.game_moves[index]
        who = color_name(offender)
        for touch in game.touches:
            if touch.ply != index or touch.by != who:
                continue
            square = chess.parse_square(touch.square)
            piece = chess.Piece.from_symbol(touch.piece) if touch.piece else before.piece_at(square)
            if touch.own:
                if made.from_square != square and any(m.from_square == square for m in before.legal_moves):
                    return square, piece, False
            elif made.to_square != square and any(m.to_square == square for m in before.legal_moves
                                                   if before.is_capture(m)):
                return square, piece, True
            return None     # the first piece touched decides (Art. 4.3)
        return None

    def agree_correction(self, who: Who, now: float) -> None:
        """``who`` agrees to correct the illegal move that stands (blitz without adequate supervision, Appendix
        B): corrected once both have agreed; refused when there is none or it is not such a game."""
        state = self.state
        game = state.game
        color = state.color_of(who)
        if color is None or game.finished or not game.illegal_plies or game.rules.kind != "blitz" \
                or game.rules.arbiter_acts_on_illegal_move:
            state.refuse(now, "correction", tr("table.no_illegal_to_correct", state.lang), to=who)
            return
        if game.correction_agreed == color:
            return      # he agreed already: the other's agreement is awaited
        state.react(state.session.correct_illegal(color, now))

    def correction_agreed(self, ev: CorrectionAgreed) -> None:
        """One player agrees to correct the illegal move: the other is asked to agree too (Appendix B)."""
        state = self.state
        color = to_color(ev.color)
        if state.game.correction_agreed != color:
            return      # both agreed: corrected (IllegalCorrected)
        text = tr("table.correction_proposed", state.lang, name=state.name(color))
        state.show(ev.t, text)
        state.say(ev.t, text, "all", "answer")

    def illegal_corrected(self, ev: IllegalCorrected) -> None:
        """The illegal move is corrected — by agreement (B) or by the arbiter without a claim (A c)."""
        state = self.state
        state.emit(IllegalMoveCorrected(ev.t, ev.ply, ev.by))
        if ev.by == "claim":
            return      # the claim upheld says it (A.4.2)
        if ev.by == "agreement":
            text = tr("table.illegal_corrected_agreed", state.lang, ply=ev.ply)
        else:
            text = tr(f"table.illegal_corrected_{ev.reason or 'both_kings_in_check'}", state.lang,
                      name=state.name(to_color(ev.color)))
        state.show(ev.t, text)
        state.say(ev.t, text, "all", "answer")

    def arbiter_result(self, result: str, now: float) -> None:
        """The arbiter decides the game's result, "1-0", "0-1" or "1/2-1/2" (Art. 12.9: a game declared lost,
        a player too late for the session or its resumption, Guidelines I.10). Refused when the game is over."""
        state = self.state
        s = state.session
        if state.game.finished:
            state.refuse(now, "result", tr("table.game_over", state.lang), to="sighted")
            return
        if result not in ("1-0", "0-1", "1/2-1/2"):
            raise ValueError(f"no result {result!r}")
        state.react(s.set_result(result, now, reason="arbiter"))

    def arbiter_quickplay(self, verdict: QuickplayVerdict, now: float) -> None:
        """The arbiter decides the filed quickplay-finish claim (Guidelines III.5): "draw", "reject" (two
        minutes to the opponent) or "postpone"; the clocks run again unless the game is drawn."""
        state = self.state
        s = state.session
        claim = state.game.quickplay_claim
        if claim is None:
            state.refuse(now, "ruling", tr("table.nothing_to_rule", state.lang), to="sighted")
            return
        state.show(now, decide_quickplay(claim, verdict).message(state.lang))
        if verdict != "postpone":
            state.emit(ClaimDecided(now, state.who(claim.claimant), "quickplay", verdict == "draw"))
        state.react(s.decide_quickplay(verdict, now))

    def quickplay_filed(self, ev: QuickplayFiled) -> None:
        """The quickplay-finish claim checked: filed (said to everybody, the arbiter decides) or refused
        to the claimant with the reasons."""
        state = self.state
        color = to_color(ev.color)
        claim = QuickplayCase(claimant=color, ground=ev.ground, final_position="", problems=ev.problems)
        text = claim.message(state.lang)
        who = state.who(color)
        if not ev.filed:
            state.emit(ClaimDecided(ev.t, who, "quickplay", False))
            state.refuse(ev.t, "claim", text, to=who)
            return
        state.show(ev.t, text)
        state.say(ev.t, text, "all", "answer")

    def offer_to(self, color: chess.Color | None) -> bool:
        """The opponent of ``color`` has offered a draw that stands."""
        offer = self.state.game.draw_offer
        return color is not None and offer is not None and offer != color

    def decline(self, color: chess.Color, now: float) -> None:
        """``color`` declines the opponent's standing offer."""
        self.state.react(self.state.session.answer_draw(color, False, now))

    def resumed(self, now: float) -> None:
        """The game came back: a quickplay-finish claim that waits for the arbiter is told again, and a draw
        offer that still stands to the one it was made to."""
        state = self.state
        claim = state.game.quickplay_claim
        if claim is not None and not state.game.finished:     # it still waits for the arbiter (Guidelines III.4)
            text = tr("table.quickplay_waiting", self.state.lang, name=self.state.name(claim.claimant))
            self.state.show(now, text)
            self.state.say(now, text, "all", "answer")
        offer = state.game.draw_offer
        if offer is None or state.game.finished:
            return
        self.state.show(now, tr("table.draw_offered", self.state.lang, name=self.state.name(offer)))
        if state.game.blind_color is not None and offer != state.game.blind_color:
            self._ask_blind_to_accept(state.game.blind_color, now)

    # ---------------------------------------------------------------- answers
    def _resolve(self, q: Question, answer: Answer, now: float) -> None:
        state = self.state
        s = state.session
        if answer not in ("yes", "no"):
            if isinstance(answer, int) and 1 <= answer <= 2:
                answer = "yes" if answer == 1 else "no"
            else:
                self.questions.refuse_answer(q, now)
                return
        self.questions.close(now)
        color = to_color(q.color or "white")
        if answer == "no":
            if q.kind == "draw-accept":
                state.react(s.answer_draw(color, False, now))
            else:
                state.say(now, tr("table.cancelled", state.lang), q.to, "answer")
                state.show(now, tr("table.cancelled", state.lang))
            return
        if q.kind == "resign":
            state.react(s.resign(color, now))
        elif q.kind == "draw-accept":
            if self.offer_to(color):
                state.react(s.answer_draw(color, True, now))
            else:
                state.refuse(now, "answer", tr("table.no_draw_offer", state.lang), to=q.to)

    # ---------------------------------------------------------------- what the engine decided
    def game_end(self, ev: GameEnd) -> None:
        """The game is over: said to everybody, shown; no question stays open, no refusal is said late."""
        state = self.state
        t = ev.t
        self.questions.close(t)
        state.settled()
        state.emit(GameEnded(t, ev.result, ev.reason))
        state.emit(Ended(t, ev.result, ev.reason))
        text = tr("table.game_end", state.lang, result=self.result_words(ev.result),
                  reason=tr(f"session.reason_{ev.reason}", state.lang))
        state.show(t, text)
        state.say(t, text, "all", "move")

    def draw_offered(self, ev: DrawOffer) -> None:
        """A draw offered: shown; made to the blind player, he is asked whether he accepts (Art. 9.1.2: he may
        answer, or decline by making his move — a move said closes the question)."""
        game = self.state.game
        state = self.state
        color = to_color(ev.color)
        state.show(ev.t, tr("table.draw_offered", state.lang, name=state.name(color)))
        if game.blind_color is not None and color != game.blind_color:
            self._ask_blind_to_accept(game.blind_color, now=ev.t)

    def _ask_blind_to_accept(self, blind: chess.Color, now: float) -> None:
        """The blind player (``blind``) is asked whether he accepts the offer made to him (an offer is made only
        while the game goes on, and the game's end withdraws it)."""
        text = f"{tr('table.draw_offered_to_blind', self.state.lang)} {tr('table.ask_draw_accept', self.state.lang)}"
        self.questions.ask(Question("draw-accept", "blind", text, ("yes", "no"), color=color_name(blind)), now)

    def draw_declined(self, ev: DrawDeclined) -> None:
        text = tr("table.draw_declined", self.state.lang)
        self.state.show(ev.t, text)
        self.state.say(ev.t, text, "all", "answer")

    def claim_judged(self, ev: ClaimJudged) -> None:
        """The claim judged: the ``claim`` event; an incorrect one said (the game goes on, Art. 9.5.3)."""
        state = self.state
        color = to_color(ev.color)
        who: Who = self._claimant or state.who(color)
        self._claimant = None
        state.emit(ClaimDecided(ev.t, who, ev.kind, ev.upheld))
        if not ev.upheld:
            key = f"table.claim_rejected_{ev.kind}"
            if ev.kind == "illegal" and any(state.game.game_moves and state.board_at(i).turn != color
                                            for i in state.game.illegal_plies):
                key = "table.claim_rejected_illegal_stands"     # he has moved since: it stands (A c, B)
            text = tr(key, state.lang, name=state.name(color))
            state.show(ev.t, text)
            state.say(ev.t, text, "all", "answer")

    def flag_fallen(self, ev: FlagFallen) -> None:
        """A flag is seen to have fallen (Art. 6.8): shown and said to everybody; the end follows."""
        state = self.state
        color = to_color(ev.color)
        text = tr("session.flag", state.lang, color=state.color_words(color))
        state.show(ev.t, text)
        state.say(ev.t, text, "all", "answer")

    def time_added(self, ev: TimeAdded) -> None:
        state = self.state
        color = to_color(ev.color)
        state.show(ev.t, tr("table.time_added", state.lang, name=state.name(color), seconds=round(ev.seconds)))

    def result_words(self, result: str) -> str:
        """The result in words ("Weiß gewinnt", "Remis", "annulliert")."""
        return tr({"1-0": "table.result_white", "0-1": "table.result_black",
                   "*": "table.result_annulled"}.get(result, "table.result_draw"), self.state.lang)

