"""What the players say: announcements, answers, offers, requests (D.2.1, D.2.8; pure).

What the blind player says is decided by
:class:`~blindchess.adapters.speech.dialogue.Dialogue` (a recogniser's text understood with
``heard=True``, typed text as written): a move heard with confidence
below ``min_confidence``, or fitting several moves, is asked about
(:mod:`~blindchess.table.questions`); the answer is "ja"/"nein", a candidate's
phrase, or keys 1…n. A move is understood in the position before his own
unpressed move, so "Korrektur …" corrects it (D.2.8). Resignation and
accepting a draw are asked about too before anything ends
(:mod:`~blindchess.table.ending`); requests are answered
(:mod:`~blindchess.table.requests`).

What the sighted side says or types: answers ("ja", "nein"), a draw offer,
resignation.

An announcement that does not fit the pegs is said and shown (D.2.3) — not
after a correction, when the pegs are to follow the corrected move.
"""

from __future__ import annotations

import chess

from ..base import tr
from ..game import Announce, AnnounceIgnored, AnnounceMismatch, AnnounceUnclear, ClaimKind, CorrectionRefused
from ..language import ClaimWord, Decision, Understanding, announce, understand
from .adjournment import Adjournments
from .ending import Endings
from .events import Heard
from .notes import CastleIntent
from .questions import Questions
from .requests import Requests
from .setup import BOARDS, Answer, Question
from .state import TableState
from .tactile import TactileBoard

__all__ = ["Hearing"]


#: A claim as the phrase book names it (:data:`blindchess.language.CLAIMS`) and as the rules engine judges it.
_CLAIM_KINDS: dict[ClaimWord, ClaimKind] = {"time": "time", "threefold": "threefold", "fifty": "fifty",
                                           "illegal": "illegal"}


#: Why the engine could not make an announced move, as the catalogue words it (``session.problem_…``).
_PROBLEMS = ("illegal", "ambiguous", "unreadable")


class Hearing:
    """Speech and typed phrases of both players (see the module docstring)."""

    def __init__(self, state: TableState, questions: Questions, tactile: TactileBoard, endings: Endings,
                 requests: Requests, adjournments: Adjournments) -> None:
        self.state = state
        self.adjournments = adjournments
        self.questions = questions
        self.tactile = tactile
        self.endings = endings
        self.requests = requests
        questions.resolver("move", self._resolve_move)

    # ---------------------------------------------------------------- the blind player
    def blind_says(self, text: str, confidence: float | None, now: float) -> None:
        """What the recogniser heard from the blind player (``confidence`` 0..1), or what was typed for
        him (``confidence`` None). Heard text is understood as a recogniser's (``heard=True``: "König
        Gustav eins" asks "Kurze Rochade?"); typed text as written."""
        state = self.state
        s = state.session
        lang = state.lang
        me = state.game.blind_color
        if me is not None and state.game.sealing and state.game.sealer == me:
            # his sealed move, said on his own headset or typed (I.1): written secretly — no "heard", no log
            self.adjournments.seal("blind", text, now)
            return
        state.emit(Heard(now, "blind", text, confidence))
        if me is None:
            state.refuse(now, "speech", tr("table.no_blind_player", lang))
            return
        board = state.hearing_board()
        heard = confidence is not None
        u = understand(board, text, lang, heard=heard)
        q = self.questions.question
        if q is not None and q.to == "blind" and self._answer_by_voice(q, u, now):
            return
        if u.kind == "repeat":
            self.requests.repeat(now)
        elif u.kind in ("yes", "no"):
            if self.endings.offer_to(me) and u.kind == "yes":
                self.endings.ask_draw_accept("blind", now)
            elif self.endings.offer_to(me):
                self.endings.decline(me, now)
            else:
                state.say(now, tr("table.no_question", lang), "blind", "answer")
        elif u.kind == "resign":
            self.endings.ask_resign("blind", now)
        elif u.claim is not None:       # a claim (Art. 6.8, 9.2, 9.3; A.4.4, B.3): only a claim names one
            self.endings.claim("blind", _CLAIM_KINDS[u.claim], now, u.move)
        elif u.kind == "draw_offer":
            if self.endings.offer_to(me):
                self.endings.ask_draw_accept("blind", now)
            elif not self.endings.claim_instead("blind", now):
                self.endings.offer_draw("blind", now)
        elif u.kind == "request":
            self.requests.answer(u.request or "position", "blind", now, square=u.square, piece_type=u.piece_type,
                                 color=u.color)
        elif u.kind == "castle_intent":
            state.react(s.note(text, now, CastleIntent()))
            state.show(now, tr("table.castle_intent", lang, name=state.name(me)))
        elif u.kind == "adjust":
            state.adjusting = True
            state.show(now, tr("table.adjust", lang, name=state.name(me)))
        elif u.kind == "correction" and state.game.plies and state.game.to_move != me and not state.unpressed_own():
            # D.2.8: his move stands once the opponent's clock runs (also when the app pressed it)
            state.react(s.announce(None, text, now, correction=True))
        else:
            gate = self.questions.dialogue if heard else self.questions.typed_dialogue
            gate.cancel()
            decision = gate.hear(board, [text], confidence=confidence)
            self._decide(decision, text, u.kind == "correction", now)

    def _decide(self, decision: Decision, text: str, correction: bool, now: float) -> None:
        state = self.state
        if decision.move is not None:        # "play": the words name this move (the dialogue asks nothing here)
            self.questions.close(now)
            self._announce(text, decision.move, correction, now)
        elif decision.action == "ask":
            board = state.hearing_board()
            moves = [m for m in decision.candidates if board.is_legal(m)]
            phrases = tuple(announce(board, m, state.lang) for m in moves)
            self.questions.ask(Question("move", "blind", decision.speech, tuple(m.uci() for m in moves), phrases,
                                        correction or state.unpressed_own()), now)
        else:
            message = decision.speech or tr("table.not_understood", state.lang, text=text)
            state.say(now, message, "blind", "answer")
            state.show(now, tr("table.heard", state.lang, text=text, message=message))

    def _announce(self, said: str, move: chess.Move, correction: bool, now: float) -> None:
        """The blind player announced ``move`` (in the words ``said``): to the engine, then to the pegs.

        Without an electronic tactile board his hands carry the move out unseen: the announcement
        is also his placement on the tactile board (D.2.3)."""
        state = self.state
        s = state.session
        index = state.game.plies - 1 if state.unpressed_own() else state.game.plies
        correcting = correction or state.unpressed_own()
        events = s.announce(move, said, now, correction=correcting)
        state.react(events)
        heard = [ev for ev in events if isinstance(ev, Announce) and not ev.refused]   # (D.2.8: a correction too late is not)
        accepted = any(ev.uci is not None for ev in heard)
        if accepted and self.tactile.tracker is None and state.setup.tactile == "none" and state.game.blind_color is not None \
                and state.game.plies == index and state.game.to_move == state.game.blind_color:
            # Nobody sees his board: the opponent's moves announced to him are on it (unless entered by
            # hand already), and so is the move he announces.
            game = state.game.game_moves
            for i in range(state.game.board_length("tactile"), index):
                state.react(s.board_move("tactile", game[i], now))
            state.react(s.board_move("tactile", move, now))
        if heard:       # once the table has acted on the move; a refused correction leaves the pegs as they are
            state.then(lambda: self.tactile.announced(move, index))

    def _answer_by_voice(self, q: Question, u: Understanding, now: float) -> bool:
        """An utterance while a question is open; False: not an answer (then it is heard afresh)."""
        if u.kind == "yes":
            self.questions.resolve(q, "yes", now)
            return True
        if u.kind == "no":
            self.questions.resolve(q, "no", now)
            return True
        if u.kind == "repeat":
            self.state.say(now, q.text, "blind", "question")
            return True
        if u.kind in ("move", "correction"):       # (a yes/no question's candidates name no move)
            named = [u.move] if u.move is not None else list(u.candidates)
            picked = [m.uci() for m in named if m.uci() in q.candidates]
            if len(picked) == 1:
                self.questions.resolve(q, q.candidates.index(picked[0]) + 1, now)
                return True
        self.questions.close(now)
        return False

    def _resolve_move(self, q: Question, answer: Answer, now: float) -> None:
        """Which move was announced: "no" cancels, "yes" takes the only candidate, n the n-th."""
        state = self.state
        if answer == "no":
            self.questions.close(now)
            state.say(now, tr("table.cancelled", state.lang), q.to, "answer")
            return
        if answer == "yes":
            if len(q.candidates) != 1:
                state.refuse(now, "answer", tr("table.say_which", state.lang, choices=self.questions.choices(q)),
                             to=q.to)
                return
            answer = 1
        if not isinstance(answer, int) or not 1 <= answer <= len(q.candidates):
            self.questions.refuse_answer(q, now)
            return
        move = chess.Move.from_uci(q.candidates[answer - 1])
        # the words he confirmed, as asked (the position may have changed since: the clock pressed, D.2.8);
        # a question noted by an older version without its phrases: the move's UCI
        said = q.phrases[answer - 1] if len(q.phrases) == len(q.candidates) else move.uci()
        self.questions.close(now)
        self._announce(said, move, q.correction, now)

    # ---------------------------------------------------------------- the sighted side
    def sighted_says(self, text: str, now: float) -> None:
        """What the sighted side said or typed: answers ("ja", "nein"), a draw offer, a claim ("Zeitüberschreitung",
        "Stellungswiederholung": his own, or the assistant's for the blind player, D.2.10 e), resignation; while he
        seals (Guidelines I.1), his sealed move."""
        state = self.state
        s = state.session
        me = state.sighted_color()
        if state.game.sealing and state.game.sealer == me and not state.game.is_blind(me):
            self.adjournments.seal("sighted", text, now)   # his sealed move, typed (I.1): written secretly
            return
        state.emit(Heard(now, "sighted", text, None))
        u = understand(s.game_board(), text, state.lang)
        q = self.questions.question
        if q is not None and q.to == "sighted" and u.kind in ("yes", "no"):
            self.questions.resolve(q, "yes" if u.kind == "yes" else "no", now)
        elif u.kind == "resign":
            self.endings.ask_resign("sighted", now)
        elif u.claim is not None:       # a claim: only a claim names one
            self.endings.claim("sighted", _CLAIM_KINDS[u.claim], now, u.move)
        elif u.kind in ("draw_offer", "yes") and self.endings.offer_to(me):
            self.endings.ask_draw_accept("sighted", now)
        elif u.kind == "no" and self.endings.offer_to(me):
            self.endings.decline(me, now)
        elif u.kind == "draw_offer":
            if not self.endings.claim_instead("sighted", now):
                self.endings.offer_draw("sighted", now)
        else:
            state.show(now, tr("table.not_understood", state.lang, text=text))

    # ---------------------------------------------------------------- what the engine decided
    def mismatch(self, ev: AnnounceMismatch) -> None:
        """The announcement and the pegs differ (D.2.3): shown in full; the blind player hears the two
        moves only — not after a correction, when the pegs are to follow it."""
        state = self.state
        board = state.board_at(ev.ply - 1)
        said, shown = chess.Move.from_uci(ev.announced), chess.Move.from_uci(ev.placed)
        said_words = announce(board, said, state.lang) if board.is_legal(said) else ev.announced
        shown_words = announce(board, shown, state.lang) if board.is_legal(shown) else ev.placed
        state.show(ev.t, tr("session.announce_mismatch", state.lang, said=said_words, shown=shown_words))
        if not state.withdrawn:
            state.say(ev.t, tr("table.announce_mismatch_said", state.lang, said=said_words, shown=shown_words),
                      "blind", "answer", about=BOARDS)

    def unclear(self, ev: AnnounceUnclear) -> None:
        """An announcement the engine could not make (D.2.1): he hears it was not understood; the screen says why,
        in words ("unmöglich": no legal move then; never the engine's own id)."""
        lang = self.state.lang
        text = tr("table.not_understood", lang, text=ev.text)
        self.state.say(ev.t, text, "blind", "answer")
        why = tr(f"session.problem_{ev.problem}", lang).capitalize() + "." if ev.problem in _PROBLEMS else ""
        self.state.show(ev.t, tr("session.announce_unclear", lang, text=ev.text, why=why))

    def ignored(self, ev: AnnounceIgnored) -> None:
        key = {"no-blind": "session.announce_no_blind", "repeat": "session.announce_repeat",
               "game-over": "table.game_over"}.get(ev.reason, "session.announce_not_turn")
        self.state.say(ev.t, tr(key, self.state.lang), "blind", "answer")

    def correction_refused(self, ev: CorrectionRefused) -> None:
        self.state.refuse(ev.t, "correction", tr("table.correction_refused", self.state.lang), to="blind")
