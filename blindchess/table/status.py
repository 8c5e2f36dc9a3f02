"""The table's state in words and figures for the front ends: the next step, the final state (pure)."""

from __future__ import annotations

import chess

from ..base import tr
from ..language import write
from .events import Final
from .questions import Question
from .setup import color_name
from .state import TableState

__all__ = ["next_step", "final"]


def next_step(state: TableState, question: Question | None) -> str:
    """One line: what the players, the assistant or the arbiter do now (the game over, an adjournment, a
    question, a quickplay claim before the arbiter, a divergence, a mirror to make, an announcement to
    make, whose move). Without an electronic tactile board the program does not see the pegs: the mirror
    of the opponent's last move is the next step until the game moves on (his next move, a sealed move
    made at the opening of the envelope), never after."""
    s = state.session
    lang = state.lang
    if s.finished:
        return tr("table.next_game_over", lang, result=s.result)
    if s.sealing and s.sealer is not None:
        return tr("table.next_sealing", lang, name=state.name(s.sealer))
    if s.envelope_sealed:
        return tr("table.next_sealed", lang)
    if question is not None:
        return tr("table.next_question", lang, question=question.text)
    if (claim := s.quickplay_claim) is not None:
        return tr("table.next_quickplay", lang, name=state.name(claim.claimant))
    if s.divergence:
        return tr("table.next_diverged", lang)
    game = s.game_moves
    for name in ("sighted", "tactile"):
        made = s.moves(name)
        if name == "tactile" and state.setup.tactile == "none":
            # no electronic tactile board: only the opponent's last move is still to mirror; one the game has
            # moved past was mirrored (he moved since, or his sealed move was made at the opening)
            if len(made) < len(game) and not s.is_blind(not s.to_move):
                return tr("table.next_mirror_on_tactile", lang, name=state.name(s.blind_color),
                          move=state.written(len(game) - 1))
            continue
        if len(made) < len(game) and made == game[: len(made)]:
            written = state.written(len(made))
            if name == "sighted":
                return tr("table.next_mirror_on_sighted", lang, move=written)
            return tr("table.next_mirror_on_tactile", lang, name=state.name(s.blind_color), move=written)
    side = s.to_move
    tactile = s.moves("tactile")
    if s.is_blind(side) and len(tactile) == len(game) + 1:
        board = s.game_board()
        placed = tactile[-1]
        written = write(board, placed, lang) if board.is_legal(placed) else placed.uci()
        return tr("table.next_announce", lang, name=state.name(side), move=written)
    key = "table.next_blind_to_move" if s.is_blind(side) else "table.next_sighted_to_move"
    return tr(key, lang, name=state.name(side), side=tr(f"table.{color_name(side)}", lang))


def final(state: TableState, now: float) -> Final:
    """The state at ``now``: both boards and the game (FEN), plies, both scores, clocks, result."""
    s = state.session
    clocks: dict[str, float | None] = {"white": None, "black": None}
    if s.time_control is not None:
        clocks = {color_name(c): round(max(0.0, s.clock.remaining(c, now)), 3) for c in (chess.WHITE, chess.BLACK)}
    return Final(now, {"sighted": s.board("sighted").fen(), "tactile": s.board("tactile").fen()},
                 s.game_board().fen(), len(s.game_moves), {"blind": list(s.score("blind")),
                                                            "sighted": list(s.score("sighted"))},
                 clocks, s.result)
