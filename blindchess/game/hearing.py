"""What the visually impaired player says: FIDE Laws D.2.1 (announcing), never a guess.

Any recognised utterance goes through :meth:`Hearing.hear`: a move or a correction
(announced, D.2.3 / D.2.8), a request for the time (D.2.10 d), a draw offer, a
resignation. The decision is :class:`blindchess.speech.dialogue.Dialogue`'s: when an
utterance fits several moves, or one only after a guess, nothing is played — a
``question`` event asks (``message``, ``candidates`` as UCI ranked, ``phrases``),
and the answer completes it: a candidate's phrase or "ja" through :meth:`hear`,
a key through :meth:`answer_question`; "nein" withdraws it. A move made answers
every question about it.
"""

from __future__ import annotations

from typing import Any

import chess

from .. import phonetic
from ..i18n import tr
from ..dialogue import Decision, Dialogue
from .completion import Completion
from .ending import Ending
from .events import Event
from .state import GameState
from .timing import Timing

__all__ = ["Hearing"]


class Hearing:
    """The blind player's words and the pending question; see the module docstring."""

    def __init__(self, state: GameState, completion: Completion, timing: Timing, ending: Ending) -> None:
        self.state = state
        self.completion = completion
        self.timing = timing
        self.ending = ending
        self.dialogue = Dialogue(state.lang, max_options=9)
        completion.on_made.append(self.clear_question)

    @property
    def question(self) -> dict[str, Any] | None:
        q = self.state.question
        return None if q is None else dict(q)

    def clear_question(self) -> None:
        self.state.question = None
        self.dialogue.cancel()

    def hear(self, text: str, now: float) -> Event:
        """Any utterance of the blind player; see the module docstring."""
        if self.state.blind_color is not None:
            asking = self.dialogue.asking
            decision = self.dialogue.hear(self.hearing_board(), [text])
            if decision.action in ("play", "ask"):
                return self.accept(decision, now, text=text, answer=asking)
            if asking and not self.dialogue.asking:  # "nein": the question is withdrawn
                return self.accept(decision, now, text=text, answer=True)
        return self._plain(text, now)

    def answer_question(self, index: int, now: float) -> Event:
        """The player chose candidate ``index`` (0-based); ``announce-ignored`` when there is no such answer."""
        q = self.state.question
        if q is None or not 0 <= int(index) < len(q["candidates"]):
            key = "session.no_question" if q is None else "session.no_such_answer"
            return self.completion.ignored(now, key)
        move = chess.Move.from_uci(str(q["candidates"][int(index)]))
        self.clear_question()
        return self.completion.announce(move, now, correction=bool(q.get("correction")))

    def hearing_board(self) -> chess.Board:
        """The position an announcement refers to (before the blind player's unpressed move: D.2.8)."""
        state = self.state
        made = len(state.moves)
        if state.blind_color is not None and made > 0 and state.mover(made) != state.blind_color \
                and state.mover(made - 1) == state.blind_color and self.timing.pressed < made:
            return state.board_after(made - 1)
        return state.game_board()

    def accept(self, decision: Decision, now: float, *, text: str | None, answer: bool) -> Event:
        """Act on a dialogue decision: "play" announces, "ask" asks, "command" as :meth:`hear`, else ``heard``."""
        u = decision.understanding if isinstance(decision.understanding, phonetic.Understanding) else None
        kind = u.kind if u is not None else None
        said = text if text is not None else (u.text if u is not None else "")
        if decision.action == "play" and decision.move is not None:
            pending = self.state.question
            correction = kind == "correction" or bool(answer and pending and pending.get("correction"))
            self.clear_question()
            if self.state.blind_color is None:
                return self._plain(said, now)
            if text is not None and u is not None and u.move == decision.move:
                return self.completion.announce(text, now, correction=correction)  # as he said it (D.2.1)
            return self.completion.announce(decision.move, now, correction=correction)  # "ja" / a key
        if decision.action == "ask":
            return self._ask(decision, u, now, said)
        if decision.action == "command" and said:
            return self._plain(said, now)
        if answer and self.state.question is not None and not self.dialogue.asking:
            self.state.question = None  # "nein": withdrawn
        message = decision.speech or tr("session.heard_unknown", self.state.lang, text=said)
        return self.state.log.told("heard", now, text=said, kind=kind or "unknown",
                                   request=u.request if u is not None else None, message=message)

    def _ask(self, decision: Decision, u: phonetic.Understanding | None, now: float, text: str) -> Event:
        """D.2.1: ask instead of playing — a ``question`` event with the ranked candidates."""
        board = self.hearing_board()
        moves = [m for m in decision.candidates if board.is_legal(m)]
        if not moves:
            return self._plain(text, now)
        kind = u.kind if u is not None else None
        correction = kind == "correction"
        blind = self.state.blind_color
        if blind is not None and self.state.mover(len(self.state.moves)) != blind:
            correction = True  # about his own move not yet pressed (D.2.8)
        # the question: what phonetic says about the move, else the dialogue's own words
        message = (u.message if u is not None and kind in ("move", "correction") else "") or decision.speech
        question: dict[str, Any] = {
            "message": message, "question": decision.speech, "text": text,
            "candidates": [m.uci() for m in moves], "sans": [board.san(m) for m in moves],
            "phrases": [self.state.words.announce(board, m) for m in moves],
            "ply": len(board.move_stack) + 1, "correction": correction,
        }
        self.state.question = question
        return self.state.log.told("question", now, article="D.2.1", **question)

    def _plain(self, text: str, now: float) -> Event:
        """An utterance the dialogue leaves to the game: a move, a request, a draw offer, resignation."""
        state = self.state
        heard = state.words.understand(state.game_board(), text)
        blind = state.blind_color
        if blind is not None and heard.kind in ("move", "correction"):
            return self.completion.announce(text, now, correction=heard.kind == "correction")
        if heard.kind == "request" and heard.request in ("time", "moves"):
            return self.timing.request_time(now)
        if heard.kind == "draw_offer" and blind is not None:
            return self.ending.offer_draw(blind, now)
        if heard.kind == "resign" and blind is not None:
            return self.ending.resign(blind, now)
        if heard.kind == "castle_intent":
            return state.log.do("note", now, text=text, kind="castle-intent")
        return state.log.told("heard", now, text=text, kind=heard.kind, request=heard.request,
                              message=heard.message or tr("session.heard_unknown", state.lang, text=text))
