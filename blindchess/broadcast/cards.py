"""Each game as data: ``/games.json``, ``/game/N.json`` and what the pages' script keeps ticking.

A game's card has exactly these fields: ``number``, ``round`` (the ``Round`` tag, null when unknown),
``board`` (the ``Board`` tag as a number, null when unknown), ``white`` and ``black`` (each ``name``,
``rating`` — ``WhiteElo``/``BlackElo`` —, ``title`` — ``WhiteTitle``/``BlackTitle`` —, ``fide_id`` —
``WhiteFideId``/``BlackFideId`` —, null where unknown), ``result`` (PGN's: ``1-0``, ``0-1``, ``1/2-1/2``,
``*``), ``status`` (``live``, ``finished``, ``adjourned`` — Guidelines I —, or ``stale``: a game going on
whose journal has not changed for ``stale_after`` seconds, its table gone silent), ``plies`` (half-moves
made), ``last_move`` (the last one in standard algebraic notation, null before the first), ``clocks``
(``white`` and ``black``: seconds left, null without a time control; ``running``: ``white``, ``black`` or
null; ``at``: the moment they are as of, seconds since 1970 — a clock that runs has gone down since) and
``pgn`` (the address of the game's PGN).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import chess

from .reading import LiveGame

__all__ = ["game_card", "status_of", "player_details", "clock_state", "STATUSES", "DEFAULT_STALE_AFTER"]

#: What a game can be: going on, over, adjourned (Guidelines I), or going on with its table silent.
STATUSES = ("live", "finished", "adjourned", "stale")
#: Seconds without a change after which a running game counts as stale.
DEFAULT_STALE_AFTER = 600.0

_NUMBER = re.compile(r"\s*(\d{1,12})\s*")


def status_of(game: LiveGame, now: float, stale_after: float) -> str:
    """``live``, ``finished``, ``adjourned`` or ``stale`` (module docstring)."""
    if game.result != "*" or game.state.result is not None:
        return "finished"
    if game.state.adjourned:
        return "adjourned"
    if stale_after > 0 and now - game.changed >= stale_after:
        return "stale"
    return "live"


def _number(text: str | None) -> int | None:
    found = _NUMBER.fullmatch(text or "")
    return int(found.group(1)) if found else None


def _known(text: str | None) -> str | None:
    text = (text or "").strip()
    return text if text and text not in ("?", "-") else None


def player_details(headers: Mapping[str, str], side: str) -> dict[str, Any]:
    """``name``, ``rating``, ``title`` and ``fide_id`` of the player of ``side`` ("White" or "Black")."""
    return {"name": headers.get(side, "?") or "?", "rating": _number(headers.get(f"{side}Elo")),
            "title": _known(headers.get(f"{side}Title")), "fide_id": _number(headers.get(f"{side}FideId"))}


def clock_state(game: LiveGame) -> dict[str, Any]:
    """The clocks as the card has them (module docstring)."""
    white, black = game.state.clocks
    running = game.state.running if status_of(game, game.changed, 0) == "live" else None
    return {"white": None if white is None else round(white, 1), "black": None if black is None else round(black, 1),
            "running": None if running is None else ("white" if running == chess.WHITE else "black"),
            "at": round(game.clock_at, 3)}


def game_card(number: int, game: LiveGame, now: float, stale_after: float) -> dict[str, Any]:
    """The game's card (module docstring)."""
    h = game.headers
    return {"number": number, "round": _known(h.get("Round")), "board": _number(h.get("Board")),
            "white": player_details(h, "White"), "black": player_details(h, "Black"), "result": game.result,
            "status": status_of(game, now, stale_after), "plies": game.plies,
            "last_move": game.sans[-1] if game.sans else None, "clocks": clock_state(game),
            "pgn": f"/game/{number}.pgn"}
