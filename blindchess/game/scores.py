"""The two game scores as written: FIDE Laws D.2.7 (the visually impaired player's recording) and
D.2.10 c (kept by his assistant); the sighted player's score (Art. 8.1).

``"blind"`` is the visually impaired player's score, ``"sighted"`` the sighted
player's. An entry is kept exactly as written (notation in any language, braille
transliteration, a spoken phrase) and read with the one notation reader
(:func:`blindchess.ruling.read_score`), so a written error stays visible; an entry
that differs from the move made, or cannot be read, is told (``score-deviation``).
"""

from __future__ import annotations

import chess

from ..i18n import tr
from ..ruling import ScoreProblem, ScoreRead, guess_hint, move_ref, read_entry, read_score
from .events import SCORES, Event, ScoreName
from .state import GameState

__all__ = ["Scores", "score_name"]


def score_name(who: str) -> ScoreName:
    """"blind" (also "b", "tactile") or "sighted" (also "a"); ValueError otherwise."""
    if who in ("blind", "b", "tactile"):
        return "blind"
    if who in ("sighted", "a"):
        return "sighted"
    raise ValueError(f"no score {who!r}")


class Scores:
    """Both game scores; see the module docstring."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.entries: dict[ScoreName, list[str]] = {w: [] for w in SCORES}
        self._reads: dict[ScoreName, ScoreRead | None] = {w: None for w in SCORES}

    def read(self, who: ScoreName) -> ScoreRead:
        """The score as understood (moves up to the first entry that cannot be read)."""
        sr = self._reads[who]
        if sr is None:
            sr = self._reads[who] = read_score(self.entries[who], self.state.start, self.state.lang)
        return sr

    def write(self, who: ScoreName, text: str, now: float, *, index: int | None = None) -> Event:
        """Add (or, with ``index``, amend) an entry of score ``who``; ValueError for an index past the end."""
        entries = self.entries[who]
        if index is None:
            index = len(entries)
        if not 0 <= index <= len(entries):
            raise ValueError(f"no entry {index}")
        current = self.read(who)
        uci: str | None = None
        problem: str | None
        if len(current.moves) >= index:
            board = self.state.start.copy(stack=False)
            for m in current.moves[:index]:
                board.push(m)
            hint = guess_hint(entries + [str(text)])
            move, problem, _ = read_entry(board, str(text), self.state.lang, hint=hint)
            uci = move.uci() if move else None
        else:
            problem = "after-problem"
        return self.state.log.do("score", now, who=who, index=index, text=str(text), uci=uci, problem=problem)

    def on_score(self, ev: Event) -> None:
        who = score_name(str(ev["who"]))
        index = int(ev["index"])
        text = ev["text"]
        if not isinstance(text, str):   # a damaged or edited journal line (a score entry is text)
            raise TypeError(f"score text {text!r}")
        lang = self.state.lang
        entries = self.entries[who]
        if index == len(entries):
            entries.append(text)
            sr = self._reads[who]
            if sr is not None and sr.problem is None and len(sr.moves) == index:
                sr.written.append(text)
                if ev.get("uci"):
                    sr.moves.append(chess.Move.from_uci(str(ev["uci"])))
                else:
                    problem = str(ev.get("problem") or "unreadable")
                    sr.problem = ScoreProblem(index, text, problem, tr(f"session.entry_{problem}", lang, written=text))
            else:
                self._reads[who] = None
        elif index < len(entries):
            entries[index] = text
            self._reads[who] = None
        else:
            raise IndexError(f"no entry {index}")
        moves = self.state.moves
        game_move = moves[index].uci() if index < len(moves) else None
        if ev.get("uci") is None or (game_move is not None and game_move != ev.get("uci")):
            self.state.log.derive("score-deviation", ev["t"], who=who, index=index, text=text, uci=ev.get("uci"),
                                  game=game_move, problem=ev.get("problem"),
                                  message=tr("session.score_deviation", lang, score=tr(f"session.score_{who}", lang),
                                             ref=move_ref(self.state.start, index, lang), written=text))

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
