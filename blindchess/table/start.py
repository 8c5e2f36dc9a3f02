"""A game begins at the table, or comes back after a crash or a restart (pure).

:func:`new_session` builds the rules engine's :class:`~blindchess.game.Session` a
:class:`~blindchess.table.setup.TableSetup` describes, with the table's own set-up kept
in the game's first line. :func:`setup_from_journal` rebuilds the set-up of a resumed
game (from that first line, or from the notes of journals written before it was kept
there); :func:`read_notes` finds what the table noted since (the wording as last
changed, the question still open). :func:`start_text` / :func:`start_shown` are what is
said to the blind player and shown when the game starts (a Chess960 start position
described), :func:`resumed_text` when it comes back.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import chess

from ..base import tr
from ..game import Player, Session
from ..language import WORDINGS, piece_letter
from ..laws import describe, start_board
from ..pegboard import DEFAULT_SETTLE
from .notes import QuestionClosed, QuestionOpen, SetupNoted, WordingChosen, read_note
from .setup import Question, TableSetup, color_name

__all__ = ["new_session", "read_notes", "setup_from_journal", "start_text", "start_shown", "resumed_text"]


def new_session(setup: TableSetup, now: float, journal: Path | None) -> Session:
    """The session of a new game as set up; raises what ``Session.new`` raises (UserError for a bad
    time control or start position, FileExistsError for a journal that already holds a game)."""
    white = Player(setup.white, setup.blind in ("white", "both"),
                   setup.assistant if setup.blind in ("white", "both") else None)
    black = Player(setup.black, setup.blind in ("black", "both"),
                   setup.assistant if setup.blind == "black" else None)
    return Session.new(white, black, setup.time_control, chess960=setup.chess960, start_fen=setup.start_fen,
                       lang=setup.lang, journal=journal, now=now, auto_press=setup.auto_press,
                       tactile_senses_pieces=setup.senses_pieces,
                       headers=dict(setup.headers) if setup.headers else None, rules=setup.rules,
                       supervised=setup.supervised, table=setup.to_note())


def read_notes(session: Session) -> tuple[dict[str, Any], Question | None]:
    """What the table noted in the journal: (its set-up as earlier versions noted it, with the wording
    as last changed; the question still open)."""
    noted: dict[str, Any] = {}
    question: Question | None = None
    for note in session.snapshot.notes:
        match read_note(note):
            case SetupNoted(setup=setup):
                noted = dict(setup)
            case QuestionOpen(question=asked):
                question = asked
            case QuestionClosed():
                question = None
            case WordingChosen(wording=wording):
                noted["wording"] = wording      # changed during the game (the table's SetWording)
            case None if note.kind == QuestionOpen.KIND:
                question = None     # a damaged note: the question is asked no more
            case _:
                pass
    return noted, question


def setup_from_journal(session: Session, noted: Mapping[str, Any]) -> TableSetup:
    """The set-up of a resumed game: the session's players and options, the table's own set-up from
    the first line (or the notes of older journals), the wording as last changed."""
    table = dict(session.snapshot.start_event.table or {})
    table.update({k: v for k, v in noted.items() if k not in table or k == "wording"})
    blind: str = "none" if session.snapshot.blind_color is None else color_name(session.snapshot.blind_color)
    if session.snapshot.white.visually_impaired and session.snapshot.black.visually_impaired:
        blind = "both"
    warnings = tuple(float(w) for w in table.get("warnings", ()))
    blind_player = session.snapshot.player(session.snapshot.blind_color) if session.snapshot.blind_color is not None else None
    start = session.snapshot.start_event
    wording = str(table.get("wording", "phonetic"))
    return TableSetup(white=session.snapshot.white.name, black=session.snapshot.black.name, blind=blind,
                      time_control=start.time_control, start_fen=start.start_fen, chess960=start.chess960_number,
                      lang=session.snapshot.lang, tactile=str(table.get("tactile", "pegboard")),
                      settle=float(table.get("settle", DEFAULT_SETTLE)),
                      assistant=blind_player.assistant if blind_player else None,
                      headers=dict(start.headers) or None,
                      auto_press=session.snapshot.auto_press, senses_pieces=session.snapshot.tactile_senses_pieces,
                      min_confidence=float(table.get("min_confidence", 0.6)), warnings=warnings,
                      wpm=table.get("wpm"), sighted_board=str(table.get("sighted_board", "window")),
                      opponent=str(table.get("opponent", "human")), engine_level=int(table.get("engine_level", 2)),
                      engine_path=table.get("engine_path"), coaching=bool(table.get("coaching", False)),
                      wording=wording if wording in WORDINGS else "phonetic", rules=start.rules,
                      supervised=start.supervised)


def start_text(setup: TableSetup, lang: str) -> str:
    """What is said when the game starts: the players, and for a Chess960 game the start position
    (its number and the pieces square by square, so the blind player can set up his board)."""
    if setup.chess960 is not None:
        return tr("table.started_chess960", lang, white=setup.white, black=setup.black,
                  position=describe(setup.chess960, lang))
    return tr("table.started", lang, white=setup.white, black=setup.black)


def start_shown(setup: TableSetup, lang: str) -> str:
    """What is shown when the game starts: the players, and for a Chess960 game the start position's
    number and White's back rank in the game's piece letters (e.g. "DLSSTKLT")."""
    if setup.chess960 is not None:
        board = start_board(setup.chess960)
        rank = "".join(piece_letter(board.piece_type_at(chess.square(f, 0)) or chess.PAWN, lang)
                       for f in range(8))
        return tr("table.started_chess960_shown", lang, white=setup.white, black=setup.black,
                  number=setup.chess960, rank=rank)
    return start_text(setup, lang)


def resumed_text(session: Session, lang: str) -> str:
    """What is shown and said when the game comes back (how many half-moves were played)."""
    plies = session.snapshot.plies
    key = "table.resumed_start" if plies == 0 else "table.resumed_one" if plies == 1 else "table.resumed"
    return tr(key, lang, plies=plies)
