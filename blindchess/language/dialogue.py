"""What to do with what the recogniser heard — pure decision logic, never a guess.

The rule — nothing is played on a guess: a move is played only when
the best hypothesis is understood as exactly one legal move
(``phonetic.understand``), its word confidence (when the recogniser gives one)
reaches ``min_confidence``, and no close alternative hypothesis names a
different legal move. Otherwise the player is asked — "Meinten Sie Springer
Felix drei oder Springer Hector drei?" — and answers by voice (yes, no, or one
of the offered moves) or by key (1..n, Escape). While a question is pending
:meth:`Dialogue.expected_phrases` lists the answers, so the recogniser's
grammar can be narrowed to them.

Everything the dialogue hears is a recogniser's text, so it is understood with
``phonetic.understand(..., heard=True)``: a two-square king move heard as
"König Gustav eins" is asked ("Meinten Sie Kurze Rochade?"), never castled on a
guess (recognisers turn "Springer" into "König").

Pure: python-chess and ``blindchess.language.phonetic`` only; no audio, no clock, no Qt.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import chess

from ..base import tr
from . import phonetic
from .phonetic import Understanding, UtteranceKind
from .recognition import move_forms

#: The utterances that name a move.
MOVE_KINDS: tuple[UtteranceKind, ...] = ("move", "correction")
#: The utterances the dialogue hands on as they are (a request, a claim, an answer …).
COMMAND_KINDS: tuple[UtteranceKind, ...] = (
    "request", "claim", "draw_offer", "resign", "adjust", "castle_intent", "repeat", "yes", "no")
#: What the dialogue decides (:class:`Decision`).
Action = Literal["play", "ask", "say", "command", "ignore"]


@dataclass(frozen=True)
class Hypothesis:
    """One recognised text; ``score`` is the recogniser's (higher is better), None if unknown."""

    text: str
    score: float | None = None


@dataclass(frozen=True)
class Decision:
    """``action``: "play" (``move``), "ask" (``speech`` is the question, ``candidates`` the options),
    "say" (``speech`` explains; nothing happens), "command" (``understanding`` is a request,
    draw offer, ... for the session), or "ignore" (silence)."""

    action: Action
    speech: str = ""
    move: chess.Move | None = None
    candidates: list[chess.Move] = field(default_factory=list)
    understanding: Understanding | None = None


def hypotheses_from_result(result: dict[str, Any]) -> list[Hypothesis]:
    """The hypotheses of a normalised :mod:`asr` result, best first."""
    out = [Hypothesis(a["text"], a.get("confidence")) for a in result.get("alternatives", []) if a.get("text")]
    if not out and result.get("text"):
        out = [Hypothesis(result["text"], None)]
    return out


class Dialogue:
    """Turns hypotheses into decisions and keeps the pending question.

    ``understand``/``announce``/``grammar`` default to ``blindchess.language.phonetic``
    (``understand`` with ``heard=True``: the texts come from a recogniser);
    they are parameters only so the dialogue can be driven by another move
    language. An ``understand`` given here is called as ``understand(board,
    text, lang)``.
    """

    def __init__(self, lang: str = "de", *, min_confidence: float = 0.6, score_margin: float = 5.0,
                 max_options: int = 3,
                 understand: Callable[[chess.Board, str, str], Understanding] | None = None,
                 announce: Callable[[chess.Board, chess.Move, str], str] | None = None,
                 grammar: Callable[[chess.Board, str], Iterable[str]] | None = None) -> None:
        self.lang = lang
        self.min_confidence = min_confidence
        self.score_margin = score_margin
        self.max_options = max_options
        self._understand = understand
        self._announce = announce
        self._grammar = grammar
        self.pending: list[chess.Move] = []
        self._question = ""
        self._answer_words: dict[str, list[str]] = {}

    # -- move language
    def understand(self, board: chess.Board, text: str) -> Understanding:
        if self._understand is None:
            return phonetic.understand(board, text, self.lang, heard=True)
        return self._understand(board, text, self.lang)

    def announce(self, board: chess.Board, move: chess.Move) -> str:
        if self._announce is None:
            return phonetic.announce(board, move, self.lang)
        return str(self._announce(board, move, self.lang))

    def grammar(self, board: chess.Board) -> list[str]:
        if self._grammar is None:
            return phonetic.grammar(board, self.lang)
        return list(self._grammar(board, self.lang))

    # -- questions
    @property
    def asking(self) -> bool:
        return bool(self.pending)

    @property
    def question(self) -> str:
        return self._question

    def cancel(self) -> None:
        self.pending = []
        self._question = ""

    def _ask(self, board: chess.Board, moves: Sequence[chess.Move], understanding: Understanding | None = None) -> Decision:
        moves = list(dict.fromkeys(moves))[: self.max_options]
        names = [self.announce(board, m) for m in moves]
        if len(names) == 1:
            text = tr("speech.ask_confirm", self.lang, option=names[0])
        else:
            options = f"{', '.join(names[:-1])} {tr('speech.or', self.lang)} {names[-1]}"
            text = tr("speech.ask_which", self.lang, options=options)
        self.pending = moves
        self._question = text
        return Decision("ask", text, None, moves, understanding)

    def _play(self, move: chess.Move, understanding: Understanding | None = None) -> Decision:
        self.cancel()
        return Decision("play", "", move, [move], understanding)

    def _answer_phrases(self, board: chess.Board) -> list[str]:
        """The phrases of the position's grammar that mean yes, no or repeat."""
        key = self.lang
        if key not in self._answer_words:
            words = []
            for phrase in self.grammar(chess.Board()):
                if phrase == "[unk]":
                    continue
                if self.understand(chess.Board(), phrase).kind in ("yes", "no", "repeat"):
                    words.append(phrase)
            self._answer_words[key] = words
        return self._answer_words[key]

    def expected_phrases(self, board: chess.Board) -> list[str]:
        """What the recogniser should listen for now: the answers while asking, else the position's grammar."""
        if not self.pending:
            return self.grammar(board)
        legal = [m for m in self.pending if m in board.legal_moves]
        forms = [self.announce(board, m) for m in legal]
        if self._grammar is None:  # the phonetic grammar knows every spoken form of a move
            forms += [phrase for phrase, move in move_forms(board, self.lang) if move in legal]
        return list(dict.fromkeys([*self._answer_phrases(board), *forms, "[unk]"]))

    # -- decisions
    def hear(self, board: chess.Board, hypotheses: Sequence[Hypothesis | str],
             *, confidence: float | None = None) -> Decision:
        """Decide on what was heard. ``confidence``: the word confidence (0..1) of the best hypothesis."""
        hyps = [h if isinstance(h, Hypothesis) else Hypothesis(str(h)) for h in hypotheses]
        hyps = [h for h in hyps if h.text.strip() and h.text.strip() != "[unk]"]
        if not hyps:
            return Decision("ignore")
        top = self.understand(board, hyps[0].text)
        kind = top.kind
        if self.pending:
            answered = self._answer(board, top, kind)
            if answered is not None:
                return answered
        if kind in MOVE_KINDS:
            return self._decide_move(board, hyps, top, confidence)
        if kind in COMMAND_KINDS:
            return Decision("command", "", None, [], top)
        # not understood: an alternative naming a move is only offered, never played
        for alt in hyps[1:]:
            if self._close(hyps[0], alt):
                u = self.understand(board, alt.text)
                if u.kind in MOVE_KINDS and u.move is not None:
                    return self._ask(board, [u.move], u)
        message = top.message or tr("speech.not_understood", self.lang)
        return Decision("say", message, None, [], top)

    def _close(self, best: Hypothesis, other: Hypothesis) -> bool:
        if best.score is None or other.score is None:
            return True
        return best.score - other.score <= self.score_margin

    def _decide_move(self, board: chess.Board, hyps: list[Hypothesis], top: Understanding,
                     confidence: float | None) -> Decision:
        move = top.move
        candidates = [m for m in top.candidates if m in board.legal_moves]
        if move is None:
            if candidates:
                return self._ask(board, candidates, top)
            message = top.message or tr("speech.not_understood", self.lang)
            return Decision("say", message, None, [], top)
        rivals: list[chess.Move] = []
        for alt in hyps[1:]:
            if not self._close(hyps[0], alt):
                continue
            u = self.understand(board, alt.text)
            if u.kind in MOVE_KINDS and u.move is not None and u.move != move:
                rivals.append(u.move)
        if rivals:
            return self._ask(board, [move, *rivals], top)
        unsure = not top.certain or (confidence is not None and confidence < self.min_confidence)
        if unsure:
            return self._ask(board, [move], top)
        return self._play(move, top)

    def _answer(self, board: chess.Board, top: Understanding, kind: UtteranceKind) -> Decision | None:
        """Handle an answer to the pending question; None: treat it as a fresh utterance."""
        if kind == "yes":
            if len(self.pending) == 1:
                return self._play(self.pending[0], top)
            return Decision("ask", self._question, None, list(self.pending), top)
        if kind == "no":
            self.cancel()
            return Decision("say", tr("speech.cancelled", self.lang), None, [], top)
        if kind == "repeat":
            return Decision("ask", self._question, None, list(self.pending), top)
        move = top.move
        if kind in MOVE_KINDS and move is not None and move in self.pending:
            return self._play(move, top)
        if kind in MOVE_KINDS:
            named = [m for m in top.candidates if m in self.pending]
            if len(named) == 1:
                return self._play(named[0], top)
        return None

    def key(self, key: str) -> Decision:
        """Answer the pending question by key: "1".."9" picks an option, "y"/"Return" confirms
        a single option, "n"/"Escape" cancels."""
        if not self.pending:
            return Decision("ignore")
        k = key.strip().lower()
        if k.isdigit() and 1 <= int(k) <= len(self.pending):
            return self._play(self.pending[int(k) - 1])
        if k in ("y", "j", "return", "enter") and len(self.pending) == 1:
            return self._play(self.pending[0])
        if k in ("n", "escape", "esc"):
            self.cancel()
            return Decision("say", tr("speech.cancelled", self.lang))
        text = f"{self._question} {tr('speech.answer_keys', self.lang, n=len(self.pending))}"
        return Decision("ask", text, None, list(self.pending))
