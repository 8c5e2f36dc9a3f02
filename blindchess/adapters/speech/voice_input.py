"""Voice input for one game: the recogniser's grammar kept in step with the position and the dialogue.

The grammar must change after every move (other legal moves) and whenever
the expected utterances change (a question is pending: yes, no, the offered
moves). :class:`VoiceInput` does that bookkeeping between a recogniser
(:class:`~blindchess.adapters.speech.asr.Recognizer`, or anything with
``update_grammar``) and a :class:`~blindchess.language.dialogue.Dialogue`.
"""

from __future__ import annotations

import chess

from ...language import Decision, Dialogue, hypotheses_from_result


class VoiceInput:
    """Feeds recogniser results to the dialogue and keeps the grammar current."""

    def __init__(self, recognizer, dialogue: Dialogue, board: chess.Board | None = None) -> None:
        self.recognizer = recognizer
        self.dialogue = dialogue
        self.board = (board or chess.Board()).copy()
        self.grammar_updates = 0
        self._sync()

    def _sync(self) -> None:
        if self.recognizer.update_grammar(self.dialogue.expected_phrases(self.board)):
            self.grammar_updates += 1

    def position(self, board: chess.Board) -> None:
        """A move was made (by anyone) or the position was set up: listen for the new position.

        A question about the old position is void.
        """
        self.board = board.copy()
        self.dialogue.cancel()
        self._sync()

    def heard(self, result: dict) -> Decision:
        """A final recogniser result (normalised, see :func:`asr.normalise_result`)."""
        decision = self.dialogue.hear(self.board, hypotheses_from_result(result), confidence=result.get("confidence"))
        self._sync()
        return decision

    def key(self, key: str) -> Decision:
        """A key pressed to answer the pending question."""
        decision = self.dialogue.key(key)
        self._sync()
        return decision
