"""Scenario scripts: whole games at the table without the hardware (a front end, like the window and the command line).

One job per module:

* :mod:`.parser` — script text -> :class:`Script` (the table's setup and the actions), or a
  :class:`ScriptError` naming the line;
* :mod:`.devices` — the simulated peg-board and DGT e-board;
* :mod:`.runner` — the :class:`Front` protocol, :class:`HeadlessFront` (the table without a window),
  :func:`run` / :func:`play` on the script's clock, and the engine of a practice game;
* :mod:`.report` — the events as JSON lines and as a readable log.

This package re-exports their public names, so ``from blindchess import scenario`` gives all of them.
"""

from __future__ import annotations

from .devices import DEVICE_IDENT, EBoardDevice, PegBoardDevice, peg_change
from .parser import (
    ACTORS,
    GAME_HEADERS,
    HEADER_READERS,
    HEADERS,
    SCRIPT_SUFFIX,
    Action,
    ActionLine,
    Actor,
    AppCrash,
    AppEnvelopeLost,
    EBoardCable,
    EBoardLift,
    EBoardPlace,
    HeaderLine,
    Script,
    ScriptError,
    TableAction,
    parse,
    read_script,
)
from .report import QUIET_TYPES, event_json, format_event, in_time_order, json_lines
from .runner import Front, HeadlessFront, perform, play, run, start_engine

__all__ = [
    "Action", "ActionLine", "Actor", "ACTORS", "AppCrash", "AppEnvelopeLost", "DEVICE_IDENT", "EBoardCable",
    "EBoardDevice", "EBoardLift", "EBoardPlace", "event_json", "format_event", "Front", "GAME_HEADERS",
    "HEADER_READERS", "HeaderLine", "HEADERS", "HeadlessFront", "in_time_order", "json_lines", "parse", "peg_change",
    "PegBoardDevice", "perform", "play", "QUIET_TYPES", "read_script", "run", "Script", "SCRIPT_SUFFIX", "ScriptError",
    "start_engine", "TableAction",
]
