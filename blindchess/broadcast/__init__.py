"""Live broadcast: the games at the tables served over HTTP as they are journaled — PGN, JSON, live pages.

A front end beside the window: it reads the journals (never writes them), follows each game with the
rules engine (read-only) and serves ``/games.pgn`` (what broadcast sites poll), ``/game/N.pgn``,
``/games.json`` and ``/game/N.json``, ``/`` (spectators and screen-reader users, kept up to date from
``/events``) and ``/arbiter`` (each table's state: whose move, the boards, the D.2.9 proposal, flags,
claims). One job a module: :mod:`.reading` (one journal followed), :mod:`.movetext` (its PGN text),
:mod:`.report` (the table's state), :mod:`.watch` (which journals changed; the public delay),
:mod:`.cards` (each game as data), :mod:`.pages` (the pages), :mod:`.answers` (every answer of one
state), :mod:`.hall` (the routes, live streams, the arbiter's token), :mod:`.server` (HTTP),
:mod:`.lichess` (the push to a Lichess broadcast), :mod:`.folder` (the LiveChess folder),
:mod:`.service` (all of it running). Only the command line imports this package (``blindchess
broadcast``, and the window's broadcast it hands to the window).
"""

from .lichess import MAX_GAMES as LICHESS_MAX_GAMES
from .lichess import TOKEN_VARIABLE, LichessTarget, round_id_ok
from .service import DEFAULT_HOST, DEFAULT_PORT, Broadcast, WindowBroadcast, is_loopback

__all__ = ["Broadcast", "WindowBroadcast", "DEFAULT_HOST", "DEFAULT_PORT", "LichessTarget", "LICHESS_MAX_GAMES",
           "TOKEN_VARIABLE", "is_loopback", "round_id_ok"]
