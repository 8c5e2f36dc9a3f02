"""The table's one open question and its answer (D.2.1: nothing is played or ended before it; pure).

An answered or closed question stops being read at once.

The table asks when a move was heard with low confidence or fits several moves
(:mod:`~blindchess.table.hearing`), before a resignation and before accepting a
draw (:mod:`~blindchess.table.ending`). A question is spoken to the blind player
(or shown to the sighted side) and shown with its keys; it is answered by
"ja"/"nein", a candidate's phrase, or keys 1…n. An open question is noted in
the journal, so it survives a crash.

Each kind of question is resolved by the part that asked it: it registers a
resolver for its kind (:meth:`Questions.resolver`) — one explicit registry.
"""

from __future__ import annotations

from collections.abc import Callable

from ..base import tr
from ..language import Dialogue, understand
from .events import Asked
from .notes import QuestionClosed, QuestionOpen
from .setup import Answer, Question, Who
from .state import TableState

__all__ = ["Questions", "Resolver", "QUESTION"]

#: What a question's text is ``about`` for the voice: an answered question stops being read.
QUESTION = "question"


#: Resolves an answered question of one kind: (question, answer, now).
Resolver = Callable[[Question, Answer, float], None]


class Questions:
    """The open question (at most one), the confidence gate, the answers (see the module docstring)."""

    def __init__(self, state: TableState) -> None:
        self.state = state
        self.question: Question | None = None
        self.use_language(state.lang)
        self._resolvers: dict[str, Resolver] = {}

    def use_language(self, lang: str) -> None:
        """Understand what is said and typed in ``lang`` from now on."""
        #: The confidence gate and the candidates of an unclear announcement (D.2.1), for what a
        #: recogniser heard (``heard=True``: a heard two-square king move is asked, never castled).
        self.dialogue = Dialogue(lang, min_confidence=self.state.setup.min_confidence, max_options=9,
                                 understand=lambda b, t, lang: understand(b, t, lang, heard=True))
        #: The same for typed text (the assistant's keyboard): read as written.
        self.typed_dialogue = Dialogue(lang, min_confidence=self.state.setup.min_confidence, max_options=9,
                                       understand=lambda b, t, lang: understand(b, t, lang))

    def resolver(self, kind: str, resolve: Resolver) -> None:
        """Register how questions of ``kind`` are resolved (ValueError for a kind registered twice)."""
        if kind in self._resolvers:
            raise ValueError(f"questions of kind {kind!r} already have a resolver")
        self._resolvers[kind] = resolve

    def ask(self, q: Question, now: float) -> None:
        """Open ``q``: noted in the journal, said to the blind player when it is his, shown with its keys."""
        state = self.state
        self.question = q
        state.session.note(q.text, now, QuestionOpen(q))
        state.emit(Asked(now, q.text, q.candidates, q.to))
        if q.to == "blind":
            state.say(now, q.text, "blind", "question", about=QUESTION)
        state.show(now, tr("table.question_shown", state.lang, text=q.text, keys=self.choices(q)))

    def restore(self, q: Question, now: float) -> None:
        """On resume: the question noted in the journal is open again, asked again."""
        self.question = q
        self.state.emit(Asked(now, q.text, q.candidates, q.to))
        self.state.say(now, q.text, q.to, "question", about=QUESTION)

    def close(self, now: float) -> None:
        """The open question (if any) is closed without an answer, noted in the journal."""
        if self.question is None:
            return
        self.question = None
        self.dialogue.cancel()
        self.typed_dialogue.cancel()
        self.state.session.note(tr("table.question_closed", self.state.lang), now, QuestionClosed())
        for ev in self.state.speech.cancel(QUESTION, now):
            self.state.emit(ev)

    def choices(self, q: Question) -> str:
        """The keys and what they answer ("1: …, 2: …" or yes/no)."""
        if q.candidates == ("yes", "no"):
            return tr("table.choices_yes_no", self.state.lang)
        return ", ".join(f"{i + 1}: {p}" for i, p in enumerate(q.phrases or q.candidates))

    def answer(self, who: Who, answer: Answer, now: float) -> None:
        """An answer by keys or a button; refused when no question is open or it is someone else's."""
        q = self.question
        if q is None:
            self.state.refuse(now, "answer", tr("table.no_question", self.state.lang), to=who)
        elif q.to != who:
            self.state.refuse(now, "answer", tr("table.not_your_question", self.state.lang), to=who)
        else:
            self.resolve(q, answer, now)

    def resolve(self, q: Question, answer: Answer, now: float) -> None:
        """``q`` answered with ``answer``: its kind's resolver decides (KeyError for an unregistered kind)."""
        self._resolvers[q.kind](q, answer, now)

    def refuse_answer(self, q: Question, now: float) -> None:
        """An answer that is none of the choices: refused, the choices named."""
        self.state.refuse(now, "answer", tr("table.no_such_answer", self.state.lang, choices=self.choices(q)), to=q.to)
