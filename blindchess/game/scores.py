"""The two game scores: FIDE Laws D.2.7 (the visually impaired player's recording, D.2.10 c when his
assistant keeps it) and the sighted player's score (Art. 8.1).

``"blind"`` is the visually impaired player's score, ``"sighted"`` the sighted
player's. When a move is made both keepers write it as it was announced, in the
game's notation (:meth:`Scores.made`): the blind player's recording holds his own
moves as he announced them and the opponent's as they were announced to him, the
sighted score likewise. Boards never write scores, so a wrong mirror leaves them
agreeing and D.2.9's first case applies. An entry written or amended by hand
(:class:`~blindchess.game.events.Score`) is kept exactly as written (any language,
a spoken phrase) and read with the one notation reader
(:func:`blindchess.language.notation.read_entries`), so a written error stays visible; an entry
that differs from the move made, or cannot be read, is recorded as
:class:`~blindchess.game.events.ScoreDeviation`.
"""

from __future__ import annotations

import chess

from ..language import ScoreReading, guess_lang, read_entries, read_entry, read_phrase
from ..language import write as write_move
from .events import SCORES, Score, ScoreDeviation, ScoreName
from .state import GameState

__all__ = ["Scores"]


class Scores:
    """Both game scores; see the module docstring."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.entries: dict[ScoreName, list[str]] = {w: [] for w in SCORES}
        self._reads: dict[ScoreName, ScoreReading | None] = {w: None for w in SCORES}

    def read(self, who: ScoreName) -> ScoreReading:
        """The score as understood (moves up to the first entry that cannot be read); kept and extended
        entry by entry while the keepers write on."""
        sr = self._reads[who]
        if sr is None:
            sr = self._reads[who] = read_entries(self.entries[who], board=self.state.start,
                                                          ui_lang=self.state.lang, spoken=read_phrase)
        return sr

    # -- commands
    def write(self, who: ScoreName, text: str, now: float, *, index: int | None = None) -> None:
        """Add (or, with ``index``, amend) an entry of score ``who`` by hand; ValueError for an index
        past the end."""
        entries = self.entries[who]
        if index is None:
            index = len(entries)
        if not 0 <= index <= len(entries):
            raise ValueError(f"no entry {index}")
        current = self.read(who)
        uci: str | None = None
        problem: str | None
        if len(current.moves) >= index:
            board = current.board(stack=False) if len(current.moves) == index else self._board(current, index)
            hint = guess_lang(" ".join(entries + [str(text)]))
            move, problem, _ = read_entry(board, str(text), self.state.lang, hint=hint,
                                                   spoken=read_phrase)
            uci = move.uci() if move else None
        else:
            problem = "after-problem"
        self.state.log.record(Score(t=now, who=who, index=index, text=str(text), uci=uci, problem=problem))

    def _board(self, read: ScoreReading, index: int) -> chess.Board:
        if index <= len(self.state.moves) and read.moves[:index] == self.state.moves[:index]:
            return self.state.position(index)
        board = self.state.start.copy()
        for m in read.moves[:index]:
            board.push(m)
        return board

    # -- handlers
    def on_score(self, ev: Score) -> None:
        who = ev.who
        index = ev.index
        entries = self.entries[who]
        if index == len(entries):
            self._append(who, ev.text, None if ev.uci is None else chess.Move.from_uci(ev.uci), ev.problem)
        elif index < len(entries):
            entries[index] = ev.text
            self._reads[who] = None
        else:
            raise IndexError(f"no entry {index}")
        moves = self.state.moves
        game_move = moves[index].uci() if index < len(moves) else None
        if ev.uci is None or (game_move is not None and game_move != ev.uci):
            self.state.log.record(ScoreDeviation(t=ev.t, who=who, index=index, text=ev.text, uci=ev.uci,
                                                 game=game_move, problem=ev.problem))

    def made(self, index: int, move: chess.Move) -> None:
        """Both keepers write the move of half-move ``index`` as announced (D.2.7, D.2.10 c)."""
        text = self._written(index, move)
        for who in SCORES:
            entries = self.entries[who]
            for i in range(len(entries), index):      # entries a keeper lacks (after a ruling)
                self._append(who, self._written(i), self.state.moves[i], None)
            if index < len(entries):
                if entries[index] != text:
                    entries[index] = text
                    self._reads[who] = None
            else:
                self._append(who, text, move, None)

    def _written(self, index: int, move: chess.Move | None = None) -> str:
        """Half-move ``index`` as the keepers write it; an illegal move as played (rapid, blitz without
        adequate supervision) in the long form, which no reader mistakes for a legal move."""
        move = self.state.moves[index] if move is None else move
        board = self.state.position(index)
        if not board.is_legal(move):
            return move.uci()
        return write_move(board, move, self.state.lang)

    def _append(self, who: ScoreName, text: str, move: chess.Move | None, problem: str | None) -> None:
        entries = self.entries[who]
        index = len(entries)
        entries.append(text)
        sr = self._reads[who]
        if sr is not None and sr.problem is None and len(sr.moves) == index and index not in self.state.illegal:
            sr.append(text, move, problem or "unreadable")
        else:
            self._reads[who] = None     # read afresh (an illegal move as played is a problem of the score)

    def complete(self) -> None:
        """After a ruling: entries the game has and a score lacks are written (the game goes on from there)."""
        for who in SCORES:
            for i in range(len(self.entries[who]), len(self.state.moves)):
                self._append(who, self._written(i), self.state.moves[i], None)

    def truncate(self, plies: int) -> None:
        """Both scores cut to ``plies`` entries (a retrace, D.2.9)."""
        for who in SCORES:
            del self.entries[who][plies:]
            self._reads[who] = None

    def set_all(self, entries: list[str]) -> None:
        """Both scores set to ``entries`` (an imported game)."""
        for who in SCORES:
            self.entries[who] = list(entries)
            self._reads[who] = None
