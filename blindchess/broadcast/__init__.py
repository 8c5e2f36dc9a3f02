"""Live broadcast: the games at the tables served over HTTP as PGN and plain pages, as they are journaled.

A front end beside the window: it reads the journals (never writes them), rebuilds each game with
the rules engine (read-only) and serves ``/games.pgn`` (what broadcast sites poll), ``/game/N.pgn``,
``/`` (spectators and screen-reader users) and ``/arbiter`` (each table's state: whose move, the
boards, the D.2.9 proposal, flags, claims). One job a module: :mod:`.reading` (one journal),
:mod:`.watch` (which journals changed), :mod:`.pages` (the answers), :mod:`.server` (HTTP),
:mod:`.folder` (the LiveChess folder), :mod:`.service` (all of it running). Only the command line
imports this package (``blindchess broadcast``, and the window's broadcast it hands to the window).
"""

from .service import DEFAULT_HOST, DEFAULT_PORT, Broadcast, WindowBroadcast

__all__ = ["Broadcast", "WindowBroadcast", "DEFAULT_HOST", "DEFAULT_PORT"]
