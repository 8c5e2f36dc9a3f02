"""A game under FIDE Laws Appendix D: two boards, two game scores, the clock — the façade.

Pure core: time is passed in (``now``, seconds); the only file touched is the journal.
The work is done in :mod:`blindchess.game`, one collaborator per group of articles (the
map is in :mod:`blindchess.game.core`; D.2.8, for one, is all in ``game/completion.py``).
Events are dicts with ``seq``, ``type``, ``t`` (shapes: :mod:`blindchess.game.events`);
derived ones carry ``"derived": True``; ``message`` and ``article`` ("D.2.3") where a
person should hear or see them. The journal holds them (fsynced) before subscribers hear.

API
---
Methods that change the game take ``now`` and return the input event (a dict);
refusals (``clock-refused``, ``announce-ignored``, ``board-move-rejected``) change
nothing. Colours may be ``chess.WHITE``/``chess.BLACK`` or "white"/"black"; squares
an int or "e4"; moves a ``chess.Move`` or UCI text.
::

    Player(name, visually_impaired=False, assistant=None)
    Session.new(white, black, time_control=None, *, chess960=None, start_fen=None, lang="de",
                journal=None, now, auto_press=False, tactile_senses_pieces=False, headers=None)
        # time_control: TimeControl, its text ("90+30", "40/5400+30:1800+30") or None
        # journal: a path, True (a new file in paths.journal_dir()), or None (no journal);
        #          an existing non-empty file is refused (FileExistsError): use open()
        # auto_press: the app's clock is pressed as soon as a move is made (no D.2.8 window left)
        # tactile_senses_pieces: False = the tactile board is judged by occupancy only (peg boards)
    Session.open(path, now=None, *, count_closed_time=False)   # exact recovery, appends from then on
    Session.load(path)                                         # read-only replay (arbiter tools)
    Session.from_pgn(text, *, now, visually_impaired="black", lang="de", journal=None)

    state: board(name), moves(name), game_moves, game_board(), to_move, score(who), score_read(who),
           events, subscribe(cb), divergence ({"ply", "squares", "board"}: each board judged against
           the game, D.2.9), question, players and clock fields, result, journal_path/_problems
    moves: board_move(name, move, now) (a mirror of a move not made: board-move-rejected,
           reason "not-made"), take_back, announce/correct (D.2.3, D.2.8), hear (D.2.1: a move
           not certain is asked about), answer_question, accept_decision
    clock: start_clock, press_clock (refused unless that side's move was just made, D.2.4),
           request_time (D.2.10 d), pause, resume, set_remaining, tick (flags)
    record: write(who, text, now, *, index=None), touch, offer_draw, answer_draw, resign,
           set_result, note, import_moves, to_pgn_game, close
    D.2.9: propose_ruling, apply_ruling (the clock runs for the side to move), override
    Guidelines I: seal_move, open_envelope, envelope_sealed, sealed_move
In rulings board/score "a" is the sighted one, "b" the tactile board / the blind player's score.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from . import journal as _journal
from . import pgn
from .clock import Clock, TimeControl
from .errors import UserError
from .game.boards import board_name
from .game.core import Game, start_board
from .game.events import BOARDS, SCORES, Event, color_name, parse_color, parse_move
from .game.scores import score_name
from .game.state import Player
from .i18n import tr
from .ruling import Ruling, ScoreRead
from .dialogue import Decision

__all__ = ["Player", "Session", "BOARDS", "SCORES", "color_name"]


class Session:
    """One game under Appendix D; see the module docstring."""

    def __init__(self, game: Game) -> None:
        self._g = game
        s = game.state
        self.white, self.black, self.blind_color, self.start, self.lang = s.white, s.black, s.blind_color, s.start, s.lang
        self.headers, self.auto_press, self.tactile_senses_pieces = s.headers, s.auto_press, s.tactile_senses_pieces
        self.chess960_number, self.created = s.chess960_number, game.created
        self.clock: Clock = game.timing.clock
        self.time_control: TimeControl | None = game.timing.time_control
        self.events: list[Event] = game.log.events
        self.touches: list[Event] = game.boards.touches
        self.rulings: list[Event] = s.rulings
        self.callback_errors: list[str] = game.log.callback_errors

    # -- construction -------------------------------------------------------------------

    @classmethod
    def new(cls, white: Player, black: Player, time_control: TimeControl | str | None = None, *,
            chess960: int | None = None, start_fen: str | None = None, lang: str = "de",
            journal: Path | str | bool | None = None, now: float, auto_press: bool = False,
            tactile_senses_pieces: bool = False, headers: dict[str, str] | None = None) -> Session:
        """Start a game (journaled from its first line when ``journal`` is given). UserError for bad input."""
        if isinstance(time_control, str):
            try:
                time_control = TimeControl.parse(time_control)
            except ValueError as exc:
                raise UserError(tr("session.bad_time_control", lang, text=time_control)) from exc
        try:
            start = start_board(chess960, start_fen)
        except ValueError as exc:
            raise UserError(tr("session.bad_start", lang, value=chess960 if chess960 is not None else start_fen)) from exc
        game = Game(white, black, time_control, start=start, lang=lang, now=now, auto_press=auto_press,
                    tactile_senses_pieces=tactile_senses_pieces, chess960_number=chess960, headers=headers)
        if journal:
            path = _journal.new_path(white.name, black.name) if journal is True else Path(journal)
            if path.exists() and path.stat().st_size > 0:
                raise FileExistsError(f"journal {path} already holds a game; use Session.open")
            game.log.open_journal(path)
        game.log.do("session-start", now, **game.start_fields())
        return cls(game)

    @classmethod
    def open(cls, path: Path | str, now: float | None = None, *, count_closed_time: bool = False) -> Session:
        """Reopen a journaled game exactly (damaged lines in ``journal_problems``); appends from then on.

        A clock running when the journal ends is stopped at the last recorded moment; with
        ``now`` it runs on from ``now`` (the closed time counted only with ``count_closed_time``).
        Raises UserError when the file is no journal.
        """
        game = Game.load(Path(path))
        game.reopen(Path(path), now, count_closed_time)
        return cls(game)

    @classmethod
    def load(cls, path: Path | str) -> Session:
        """The game rebuilt from its journal, read-only. Raises UserError for a file that is no journal."""
        return cls(Game.load(Path(path)))

    @classmethod
    def from_pgn(cls, text: str, *, now: float, visually_impaired: str | None = "black", lang: str = "de",
                 journal: Path | str | bool | None = None) -> Session:
        """Continue a game from PGN text (read by :func:`blindchess.pgn.read_pgn`). UserError for no game."""
        g = pgn.read_pgn(text, visually_impaired=visually_impaired, lang=lang)
        s = cls.new(Player(g.white, g.visually_impaired == chess.WHITE), Player(g.black, g.visually_impaired == chess.BLACK),
                    g.time_control, start_fen=g.start_fen, lang=lang, journal=journal, now=now, headers=g.headers)
        s.import_moves(g.moves, now, clocks=g.clocks)
        if g.result in ("1-0", "0-1", "1/2-1/2") and s.result is None:
            s.set_result(g.result, now, reason="arbiter")
        return s

    def close(self) -> None:
        """Close the journal (the game can be reopened with :meth:`open`)."""
        self._g.log.close()

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Call ``callback(event)`` for every new event; returns a function that unsubscribes."""
        return self._g.log.subscribe(callback)

    # -- state --------------------------------------------------------------------------

    def board(self, name: str) -> chess.Board:
        """The position on board ``name`` ("sighted" | "tactile"), with its move stack (a copy)."""
        return self._g.boards.boards[board_name(name)].copy()

    def moves(self, name: str) -> list[chess.Move]:
        return list(self._g.boards.boards[board_name(name)].move_stack)

    @property
    def game_moves(self) -> list[chess.Move]:
        """The moves made (D.2.3 / D.2.5), in order."""
        return list(self._g.state.moves)

    def game_board(self) -> chess.Board:
        return self._g.state.game_board()

    def score(self, who: str) -> list[str]:
        """The game score ``who`` ("blind" | "sighted") as written."""
        return list(self._g.scores.entries[score_name(who)])

    def score_read(self, who: str) -> ScoreRead:
        """The score as understood (moves up to the first entry that cannot be read)."""
        return self._g.scores.read(score_name(who))

    @property
    def divergence(self) -> dict[str, Any] | None:
        """``{"ply", "squares", "board"}``: the first position where a board parts from the game, or None."""
        d = self._g.boards.divergence
        return dict(d) if d else None

    def player(self, color: chess.Color) -> Player:
        return self._g.state.player(color)

    def is_blind(self, color: chess.Color) -> bool:
        return self._g.state.is_blind(color)

    to_move = property(lambda self: self._g.state.to_move, doc="The side to move in the game.")
    plies_pressed = property(lambda self: self._g.timing.pressed, doc="Plies whose clock press has been made.")
    result = property(lambda self: self._g.state.result, doc="The result, or None while the game goes on.")
    result_reason = property(lambda self: self._g.state.result_reason)
    finished = property(lambda self: self._g.state.result is not None)
    draw_offer = property(lambda self: self._g.state.draw_offer, doc="The colour whose draw offer stands.")
    last_time = property(lambda self: self._g.log.last_t, doc="The time of the latest event.")
    journal_path = property(lambda self: self._g.log.journal_path)
    journal_problems = property(lambda self: self._g.log.problems, doc="Damaged journal lines: (line, problem).")
    question = property(lambda self: self._g.hearing.question, doc="The pending question (D.2.1) or None.")
    envelope_sealed = property(lambda self: self._g.adjournment.envelope_sealed)

    # -- the game ------------------------------------------------------------------------------

    def start_clock(self, now: float) -> Event:
        return self._g.timing.start_clock(now)

    def board_move(self, name: str, move: chess.Move | str, now: float) -> Event:
        """A move actually made on board ``name`` (own move or mirror of a move made)."""
        return self._g.boards.board_move(board_name(name), parse_move(move), now)

    def sighted_move(self, move: chess.Move | str, now: float) -> Event:
        return self.board_move("sighted", move, now)

    def tactile_move(self, move: chess.Move | str, now: float) -> Event:
        return self.board_move("tactile", move, now)

    def take_back(self, name: str, now: float) -> Event | None:
        return self._g.boards.take_back(board_name(name), now)

    def announce(self, what: str | chess.Move, now: float, *, correction: bool = False) -> Event:
        return self._g.completion.announce(what, now, correction=correction)

    def correct(self, what: str | chess.Move, now: float) -> Event:
        """A slip of the tongue corrected (D.2.8): allowed until the opponent's clock is started."""
        return self._g.completion.announce(what, now, correction=True)

    def hear(self, text: str, now: float) -> Event:
        return self._g.hearing.hear(text, now)

    def answer_question(self, index: int, now: float) -> Event:
        return self._g.hearing.answer_question(index, now)

    def accept_decision(self, decision: Decision, now: float, *, text: str | None = None) -> Event:
        return self._g.hearing.accept(decision, now, text=text, answer=text is None)

    def press_clock(self, color: chess.Color | str, now: float) -> Event:
        return self._g.timing.press_clock(parse_color(color), now)

    def write(self, who: str, text: str, now: float, *, index: int | None = None) -> Event:
        return self._g.scores.write(score_name(who), text, now, index=index)

    def touch(self, square: int | str, now: float, *, board: str = "tactile", piece: str | None = None) -> Event:
        return self._g.boards.touch(square, now, board=board, piece=piece)

    def offer_draw(self, color: chess.Color | str, now: float) -> Event:
        return self._g.ending.offer_draw(parse_color(color), now)

    def answer_draw(self, color: chess.Color | str, accept: bool, now: float) -> Event:
        return self._g.ending.answer_draw(parse_color(color), accept, now)

    def resign(self, color: chess.Color | str, now: float) -> Event:
        return self._g.ending.resign(parse_color(color), now)

    def set_result(self, result: str, now: float, *, reason: str = "arbiter") -> Event:
        return self._g.ending.set_result(result, now, reason=reason)

    def request_time(self, now: float, *, by: str = "blind") -> dict[str, Any]:
        return self._g.timing.request_time(now, by=by)

    def pause(self, now: float) -> Event:
        return self._g.timing.pause(now)

    def resume(self, now: float, *, charge: bool = False) -> Event:
        return self._g.timing.resume(now, charge=charge)

    def set_remaining(self, color: chess.Color | str, seconds: float, now: float) -> Event:
        return self._g.timing.set_remaining(parse_color(color), seconds, now)

    def tick(self, now: float) -> list[Event]:
        return self._g.timing.tick(now)

    def propose_ruling(self, lang: str | None = None, *, force: bool = False) -> Ruling | None:
        return self._g.rulings.propose(lang, force=force)

    def apply_ruling(self, r: Ruling, now: float) -> Event:
        return self._g.rulings.apply(r, now)

    def override(self, moves: Iterable[object], now: float, *, clocks: dict[str, Any] | None = None,
                 note: str = "") -> Event:
        return self._g.rulings.override(moves, now, clocks=clocks, note=note)

    def import_moves(self, moves: Iterable[object], now: float, *,
                     clocks: list[tuple[int, float, float]] | None = None, source: str = "pgn") -> Event:
        return self._g.rulings.import_moves(moves, now, clocks=clocks, source=source)

    def note(self, text: str, now: float, **fields: Any) -> Event:
        """A free note of the arbiter or the app in the journal."""
        return self._g.log.do("note", now, text=str(text), **fields)

    def seal_move(self, public: dict[str, Any], hidden: dict[str, Any], now: float, **fields: Any) -> Event:
        return self._g.adjournment.seal_move(public, hidden, now, **fields)

    def sealed_move(self, *, reveal: bool = False) -> Event | None:
        return self._g.adjournment.sealed_move(reveal=reveal)

    def open_envelope(self, now: float, **fields: Any) -> Event:
        return self._g.adjournment.open_envelope(now, **fields)

    def to_pgn_game(self) -> chess.pgn.Game:
        """The game as a ``chess.pgn.Game`` (see :func:`blindchess.pgn.session_to_game`)."""
        return pgn.session_to_game(self)
