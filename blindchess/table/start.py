"""A game begins at the table, or comes back after a crash or a restart (pure).

:func:`new_session` builds the :class:`~blindchess.session.Session` a
:class:`~blindchess.table.setup.TableSetup` describes. :func:`read_notes` finds
what the table noted in a journal (its setup, the open question);
:func:`setup_from_journal` rebuilds the setup of a resumed game.
:func:`start_text` / :func:`start_shown` are what is said to the blind player and
shown when the game starts (a Chess960 start position described), :func:`resumed_text`
when it comes back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import chess

from .. import chess960, notation
from ..board_words import WORDINGS
from ..i18n import tr
from ..pegboard.tracker import DEFAULT_SETTLE
from ..session import Player, Session
from .questions import Question
from .setup import NOTE_QUESTION, NOTE_QUESTION_CLOSED, NOTE_SETUP, NOTE_WORDING, TableSetup, color_name

__all__ = ["new_session", "read_notes", "setup_from_journal", "start_text", "start_shown", "resumed_text"]


def new_session(setup: TableSetup, now: float, journal: Path | None) -> Session:
    """The session of a new game as set up; raises what ``Session.new`` raises (ValueError for a bad
    time control or start position, FileExistsError for a journal that already holds a game)."""
    white = Player(setup.white, setup.blind in ("white", "both"),
                   setup.assistant if setup.blind in ("white", "both") else None)
    black = Player(setup.black, setup.blind in ("black", "both"),
                   setup.assistant if setup.blind == "black" else None)
    return Session.new(white, black, setup.time_control, chess960=setup.chess960, start_fen=setup.start_fen,
                       lang=setup.lang, journal=journal, now=now, auto_press=setup.auto_press,
                       tactile_senses_pieces=setup.senses_pieces,
                       headers=dict(setup.headers) if setup.headers else None)


def read_notes(session: Session) -> tuple[dict[str, Any], Question | None]:
    """What the table noted in the session's journal: (its setup note — with the wording as last
    changed —, the question still open)."""
    noted: dict[str, Any] = {}
    question: Question | None = None
    for ev in session.events:
        if ev.get("type") != "note":
            continue
        if ev.get("kind") == NOTE_SETUP and isinstance(ev.get("setup"), dict):
            noted = dict(ev["setup"])
        elif ev.get("kind") == NOTE_QUESTION and isinstance(ev.get("question"), dict):
            question = Question.from_dict(ev["question"])
        elif ev.get("kind") == NOTE_QUESTION_CLOSED:
            question = None
        elif ev.get("kind") == NOTE_WORDING and ev.get("wording") in WORDINGS:
            noted["wording"] = ev["wording"]      # changed during the game (Table.set_wording)
    return noted, question


def setup_from_journal(session: Session, noted: dict[str, Any]) -> TableSetup:
    """The setup of a resumed game: the session's players and options, the table's note for the rest."""
    blind = "none" if session.blind_color is None else color_name(session.blind_color)
    if session.white.visually_impaired and session.black.visually_impaired:
        blind = "both"
    warnings = tuple(float(w) for w in noted.get("warnings", ()))
    blind_player = session.player(session.blind_color) if session.blind_color is not None else None
    return TableSetup(white=session.white.name, black=session.black.name, blind=blind,
                      lang=session.lang, tactile=str(noted.get("tactile", "pegboard")),
                      settle=float(noted.get("settle", DEFAULT_SETTLE)),
                      assistant=blind_player.assistant if blind_player else None,
                      auto_press=session.auto_press, senses_pieces=session.tactile_senses_pieces,
                      min_confidence=float(noted.get("min_confidence", 0.6)), warnings=warnings,
                      wpm=noted.get("wpm"), sighted_board=str(noted.get("sighted_board", "window")),
                      opponent=str(noted.get("opponent", "human")), engine_level=int(noted.get("engine_level", 2)),
                      engine_path=noted.get("engine_path"), coaching=bool(noted.get("coaching", False)),
                      wording=str(noted.get("wording", "phonetic")))


def start_text(setup: TableSetup, lang: str) -> str:
    """What is said when the game starts: the players, and for a Chess960 game the start position
    (its number and the pieces square by square, so the blind player can set up his board)."""
    if setup.chess960 is not None:
        return tr("table.started_chess960", lang, white=setup.white, black=setup.black,
                  position=chess960.describe(setup.chess960, lang))
    return tr("table.started", lang, white=setup.white, black=setup.black)


def start_shown(setup: TableSetup, lang: str) -> str:
    """What is shown when the game starts: the players, and for a Chess960 game the start position's
    number and White's back rank in the game's piece letters (e.g. "DLSSTKLT")."""
    if setup.chess960 is not None:
        board = chess960.start_board(setup.chess960)
        rank = "".join(notation.piece_letter(board.piece_type_at(chess.square(f, 0)) or chess.PAWN, lang)
                       for f in range(8))
        return tr("table.started_chess960_shown", lang, white=setup.white, black=setup.black,
                  number=setup.chess960, rank=rank)
    return start_text(setup, lang)


def resumed_text(session: Session, lang: str) -> str:
    """What is shown and said when the game comes back (how many half-moves were played)."""
    plies = len(session.game_moves)
    key = "table.resumed_start" if plies == 0 else "table.resumed_one" if plies == 1 else "table.resumed"
    return tr(key, lang, plies=plies)
