"""The table's state in words and figures for the front ends: the next step, the final state (pure)."""

from __future__ import annotations

import chess

from ..base import tr
from ..game import BoardName
from ..language import write
from .events import Final
from .setup import Question, color_name
from .state import TableState

__all__ = ["next_step", "final"]


def next_step(state: TableState, question: Question | None) -> str:
    """One line: what the players, the assistant or the arbiter do now (the game over, an adjournment, a
    question, a quickplay claim before the arbiter, a divergence, a mirror to make, an announcement to
    make, whose move)."""
    game = state.game
    lang = state.lang
    if game.finished:
        return tr("table.next_game_over", lang, result=game.result)
    if game.sealing and game.sealer is not None:
        return tr("table.next_sealing", lang, name=state.name(game.sealer))
    if game.envelope_sealed:
        return tr("table.next_sealed", lang)
    if question is not None:
        return tr("table.next_question", lang, question=question.text)
    if (claim := game.quickplay_claim) is not None:
        return tr("table.next_quickplay", lang, name=state.name(claim.claimant))
    if game.divergence:
        return tr("table.next_diverged", lang)
    moves = game.game_moves
    boards: tuple[BoardName, ...] = ("sighted", "tactile")
    for name in boards:
        made = game.moves(name)
        if len(made) < len(moves) and made == moves[: len(made)]:
            written = state.written(len(made))
            if name == "sighted":
                return tr("table.next_mirror_on_sighted", lang, move=written)
            return tr("table.next_mirror_on_tactile", lang, name=state.name(game.blind_color), move=written)
    side = game.to_move
    tactile = game.moves("tactile")
    if game.is_blind(side) and len(tactile) == len(moves) + 1:
        board = state.session.game_board()
        placed = tactile[-1]
        written = write(board, placed, lang) if board.is_legal(placed) else placed.uci()
        return tr("table.next_announce", lang, name=state.name(side), move=written)
    if not game.is_blind(side):
        key = "table.next_sighted_to_move"
    else:   # without a tactile board his board is the game: he announces his move, there is nothing to place
        key = "table.next_blind_to_announce" if state.setup.tactile == "none" else "table.next_blind_to_move"
    return tr(key, lang, name=state.name(side), side=tr(f"table.{color_name(side)}", lang))


def final(state: TableState, now: float) -> Final:
    """The state at ``now``: both boards and the game (FEN), plies, both scores, clocks, result."""
    s, game = state.session, state.game
    clocks: dict[str, float | None] = {"white": None, "black": None}
    if game.time_control is not None:
        clocks = {color_name(c): round(max(0.0, s.clock.remaining(c, now)), 3) for c in (chess.WHITE, chess.BLACK)}
    return Final(now, {"sighted": s.board("sighted").fen(), "tactile": s.board("tactile").fen()},
                 s.game_board().fen(), game.plies, {"blind": list(game.score("blind")),
                                                    "sighted": list(game.score("sighted"))},
                 clocks, game.result)
