"""A game under FIDE Laws Appendix D: two boards, two game scores, the clock — the rules engine's façade.

Pure core: time is passed in (``now``, seconds); the only file touched is the journal.
The work is done by the collaborators of :mod:`blindchess.game.core`, one per group
of articles. The engine words nothing and asks nothing: commands go in, typed events
(:mod:`blindchess.game.events`) come out — **every command returns the events it
recorded**, its input first, then what it caused. Refusals (a press before the move
is made, a mirror of a move not made, an announcement with nothing to announce) are
events too and change nothing else.

Journal: the events of one command are one unit of the journal (written and
fsynced before the command returns), or — inside :meth:`Session.unit`, which the
table opens around everything one input at the table causes — the events of the
whole block are one unit. When the journal cannot be written the game is restored
from the file (nothing of the unit counts) and :class:`~blindchess.base.errors.UserError`
is raised.

What the game is now is read through one frozen record, :attr:`Session.snapshot` (the
players, the moves made on each board, both scores, the result, the adjournment …), built
once after each command; the positions themselves and the clock are queries
(:meth:`Session.board`, :meth:`Session.game_board`, :meth:`Session.position`,
:attr:`Session.clock`). The façade takes ``chess.Color`` and ``chess.Move`` and the typed
names of the boards and scores only; what a person typed is read at the edge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from ..base import Fact, UserError, encode_fields, os_error_text, tr
from ..language import ScoreReading
from ..laws import Clock, ClockSetting, Proposal, TimeControl
from ..records import read_pgn, session_to_game
from ..storage import InputId, JournalInUse, JournalRead, new_path
from .core import Rules, load, replay, start_board
from .events import (
    BOARDS,
    SCORES,
    BoardName,
    ClaimKind,
    GameEvent,
    JournalDamaged,
    Note,
    Player,
    QuickplayGround,
    QuickplayVerdict,
    Reopened,
    ScoreName,
    SealedMove,
    TimeRequest,
    color_name,
)
from .log import JournalError
from .state import GameSnapshot

__all__ = ["Player", "Session", "BOARDS", "SCORES", "color_name"]

Events = list[GameEvent]


class Session:
    """One game under Appendix D; see the module docstring. Build with :meth:`new`, :meth:`open`,
    :meth:`load` or :meth:`from_pgn`."""

    def __init__(self, rules: Rules) -> None:
        self._g = rules
        self._snapshot: GameSnapshot | None = None

    # ================================================================ construction
    @classmethod
    def new(cls, white: Player, black: Player, time_control: TimeControl | str | None = None, *,
            chess960: int | None = None, start_fen: str | None = None, lang: str = "de",
            journal: Path | str | bool | None = None, now: float, auto_press: bool = False,
            tactile_senses_pieces: bool = False, headers: Mapping[str, str] | None = None,
            rules: str | None = None, supervised: bool = True, table: Mapping[str, Any] | None = None) -> Session:
        """Start a game (journaled from its first line when ``journal`` is given).

        ``time_control``: a TimeControl, its text ("90+30", "40/5400+30:1800+30") or None.
        ``journal``: a path, True (a new file in the journals folder) or None. ``rules``:
        "standard", "rapid", "blitz" (None: from the time control, Appendices A and B);
        ``supervised``: adequate supervision (A.3). ``table``: the table's own set-up, kept in
        the first line. Raises UserError for a bad time control or start, FileExistsError for
        a journal that already holds a game.
        """
        if isinstance(time_control, str):
            try:
                time_control = TimeControl.parse(time_control)
            except ValueError as exc:
                raise UserError(tr("session.bad_time_control", lang, text=time_control)) from exc
        try:
            start = start_board(chess960, start_fen)
        except ValueError as exc:
            raise UserError(tr("session.bad_start", lang, value=chess960 if chess960 is not None else start_fen)) from exc
        game = Rules.new(white, black, time_control, start=start, lang=lang, now=now, auto_press=auto_press,
                         tactile_senses_pieces=tactile_senses_pieces, chess960_number=chess960,
                         headers=dict(headers or {}), rules=rules, supervised=supervised,
                         table=dict(table) if table is not None else None)
        if journal:
            path = new_path(white.name, black.name) if journal is True else Path(journal)
            if path.exists() and path.stat().st_size > 0:
                raise FileExistsError(f"journal {path} already holds a game; use Session.open")
            try:
                game.log.open_journal(path)
            except JournalInUse as exc:
                raise UserError(tr("session.journal_in_use", lang, path=path)) from exc
            except OSError as exc:
                raise UserError(tr("session.journal_write_failed", lang, path=path, error=os_error_text(exc, lang))) from exc
        session = cls(game)
        session._run(game.begin)
        return session

    @classmethod
    def open(cls, path: Path | str, now: float | None = None, *, count_closed_time: bool = False,
             read: JournalRead | None = None) -> Session:
        """Reopen a journaled game exactly (damaged lines in ``journal_problems``); appends from then on.

        A clock running when the journal ends is stopped at the last recorded moment; with
        ``now`` it runs on from ``now`` (the closed time counted only with ``count_closed_time``).
        The inputs the journal holds stay held (:meth:`holds`): given again, they are not applied twice.
        ``read``: the journal as already read from ``path``. Raises UserError when the file is no journal
        or cannot be written.
        """
        session = cls(load(Path(path), read))
        session._reopen(Path(path), now, count_closed_time)
        return session

    @classmethod
    def load(cls, path: Path | str, *, read: JournalRead | None = None) -> Session:
        """The game rebuilt from its journal, read-only (``read``: the journal as already read from ``path``).
        Raises UserError for a file that is no journal."""
        return cls(load(Path(path), read))

    def follow(self, lines: Iterable[tuple[int, Mapping[str, Any]]]) -> list[tuple[int, str]]:
        """Replay journal lines appended since this game was loaded (:meth:`load`), read-only as :meth:`load`
        replays: ``lines`` are (line number in the file, event) of whole units, in order. Returns the lines
        that did not fit the game (also added to :attr:`journal_problems`)."""
        problems = replay(self._g, ((n, dict(ev)) for n, ev in lines))
        self._snapshot = None           # the game has gone on: the next reader gets it as it stands now
        if problems:
            self._g.log.problems = sorted(self._g.log.problems + problems)
        return problems

    @classmethod
    def from_pgn(cls, text: str, *, now: float, visually_impaired: str | None = "black", lang: str = "de",
                 journal: Path | str | bool | None = None) -> Session:
        """Continue a game from PGN text (read by :func:`blindchess.records.pgn.read_pgn`). UserError for no game."""
        g = read_pgn(text, visually_impaired=visually_impaired, lang=lang)
        s = cls.new(Player(g.white, g.visually_impaired == chess.WHITE), Player(g.black, g.visually_impaired == chess.BLACK),
                    g.time_control, start_fen=g.start_fen, lang=lang, journal=journal, now=now, headers=g.headers)
        s.import_moves(g.moves, now, clocks=g.clocks)
        if g.result in ("1-0", "0-1", "1/2-1/2"):      # (importing moves ends no game by itself)
            s.set_result(g.result, now, reason="arbiter")
        return s

    def _reopen(self, path: Path, now: float | None, count_closed_time: bool) -> None:
        """Append to ``path`` from now on; note damaged lines; stop or restart a running clock."""
        g = self._g
        log = g.log
        problems = log.problems
        try:
            log.open_journal(path)
        except JournalInUse as exc:
            raise UserError(tr("session.journal_in_use", g.state.lang, path=path)) from exc
        except OSError as exc:
            raise UserError(tr("session.journal_write_failed", g.state.lang, path=path,
                               error=os_error_text(exc, g.state.lang))) from exc
        with self.unit():
            if problems:
                lines = tuple(n for n, _ in problems)
                log.record(Note(t=log.last_t, text="journal-damaged", data={"lines": list(lines)}))
                log.record(JournalDamaged(t=log.last_t, lines=lines))
            if g.timing.clock.ticking and g.state.result is None:
                last = log.last_t
                if now is None:
                    log.record(Reopened(t=last, closed_at=last))        # stopped; restarted by the arbiter
                else:
                    log.record(Reopened(t=now, closed_at=last, reopened_at=now, counted=bool(count_closed_time)))
            elif now is not None:
                log.last_t = max(log.last_t, now)
        self._snapshot = None

    def close(self) -> None:
        """Close the journal (the game can be reopened with :meth:`open`)."""
        self._g.log.close()

    def abandon(self) -> None:
        """The program dies here: the journal is left exactly as written, only its file is let go (as the
        system does for a killed process), so the game can be reopened with :meth:`open` as after a crash."""
        self._g.log.abandon()

    # ================================================================ units of the journal
    @contextmanager
    def unit(self, ident: InputId | None = None) -> Iterator[None]:
        """Everything recorded inside is one unit of the journal, committed at the end; ``ident``: the input
        the unit is for, kept on its first line (:meth:`holds`).

        Raises UserError when the journal cannot be written: the game is then restored from
        the file, so nothing of the unit counts (nor is its input held).
        """
        try:
            with self._g.log.unit(ident):
                yield
        except JournalError as exc:
            self._restore()
            raise UserError(tr("session.journal_write_failed", self._g.state.lang, path=exc.filename,
                               error=os_error_text(exc, self._g.state.lang))) from exc

    def _restore(self) -> None:
        """The game as the journal holds it (after a unit that could not be written)."""
        path = self._g.log.journal_path
        self._g.log.close()
        if path is None:
            return
        restored = load(path)
        try:
            restored.log.open_journal(path)
        except OSError:
            pass     # the journal stays closed: the next command fails again and says so
        self._g = restored
        self._snapshot = None

    def _run(self, command: Callable[[], object]) -> Events:
        """Run ``command``; the events it recorded (committed unless a unit is open)."""
        log = self._g.log
        mark = log.seq
        try:
            with self.unit():
                command()
        finally:
            self._snapshot = None
        return self._since(mark)

    def _since(self, mark: int) -> Events:
        out: Events = []
        for ev in reversed(self._g.log.events):
            if ev.seq <= mark:
                break
            out.append(ev)
        out.reverse()
        return out

    def holds(self, ident: InputId) -> bool:
        """Whether input ``ident`` has been applied to this game: the journal holds it, or a later input of
        its origin, or it has been applied since the game was opened (every input once, across a crash)."""
        return self._g.log.holds(ident)

    def held(self, origin: str) -> InputId | None:
        """The highest input of ``origin`` applied to this game (None: none)."""
        return self._g.log.held.get(origin)

    # ================================================================ what the game is now
    @property
    def snapshot(self) -> GameSnapshot:
        """The game as it stands after the last command (one frozen record, built once per change)."""
        if self._snapshot is None:
            self._snapshot = self._g.snapshot()
        return self._snapshot

    @property
    def clock(self) -> Clock:
        """The clock, which answers for any moment (read it; it is changed only by the commands)."""
        return self._g.timing.clock

    @property
    def events(self) -> list[GameEvent]:
        """Every event of the game so far (the sealed move without its hidden part until opened)."""
        return self._g.log.events

    def board(self, name: BoardName) -> chess.Board:
        """The position on board ``name``, with its move stack (a copy)."""
        return self._g.boards.boards[name].copy()

    def game_board(self) -> chess.Board:
        """The game's position with its move stack (a copy)."""
        return self._g.state.game_board()

    def position(self, plies: int) -> chess.Board:
        """The game's position after ``plies`` half-moves, without the move stack (IndexError past the game)."""
        return self._g.state.position(plies)

    def score_read(self, who: ScoreName) -> ScoreReading:
        """The score as understood (moves up to the first entry that cannot be read)."""
        return self._g.scores.read(who)

    def flags_fallen(self, now: float) -> list[chess.Color]:
        """The sides whose time is up at ``now`` and whose flag has not been seen yet."""
        return self._g.timing.fallen(now)

    def draw_claim_holds(self, color: chess.Color, kind: ClaimKind, move: chess.Move | None = None) -> bool:
        """Whether ``color`` may claim a draw of ``kind`` now (Art. 9.2, 9.3), with ``move`` declared."""
        return self._g.ending.draw_claim_holds(color, kind, move)

    def envelope_problem(self) -> str | None:
        """Why the sealed envelope cannot be opened: "missing", "mismatch" (Guidelines I.12), else None
        (the envelope kept beside the journal is read)."""
        return self._g.adjournment.envelope_problem()

    # ================================================================ commands (each returns its events)
    def start_clock(self, now: float) -> Events:
        return self._run(lambda: self._g.timing.start_clock(now))

    def board_move(self, name: BoardName, move: chess.Move, now: float) -> Events:
        """A move actually made on board ``name`` (own move or mirror of a move made)."""
        return self._run(lambda: self._g.boards.board_move(name, move, now))

    def take_back(self, name: BoardName, now: float) -> Events:
        """The last move on board ``name`` taken back; [] when it holds none."""
        return self._run(lambda: self._g.boards.take_back(name, now))

    def announce(self, move: chess.Move | None, text: str, now: float, *, correction: bool = False,
                 problem: str | None = None) -> Events:
        """The blind player announces ``move`` in the words ``text`` (D.2.1; None: the words named no
        legal move, ``problem`` says why); ``correction``: a slip corrected (D.2.8)."""
        return self._run(lambda: self._g.completion.announce(move, text, now, correction=correction,
                                                              problem=problem))

    def press_clock(self, color: chess.Color, now: float) -> Events:
        """``color`` presses the clock (D.2.4; refused before his move is made)."""
        return self._run(lambda: self._g.timing.press_clock(color, now))

    def write(self, who: ScoreName, text: str, now: float, *, index: int | None = None) -> Events:
        """An entry of score ``who`` written or amended by hand (ValueError for an index past the end)."""
        return self._run(lambda: self._g.scores.write(who, text, now, index=index))

    def touch(self, square: chess.Square, now: float, *, board: BoardName = "tactile",
              piece: str | None = None) -> Events:
        """A piece touched on ``board`` (D.2.2, D.2.5; ``piece`` its symbol, when the board knows it)."""
        return self._run(lambda: self._g.boards.touch(square, now, board=board, piece=piece))

    def offer_draw(self, color: chess.Color, now: float) -> Events:
        return self._run(lambda: self._g.ending.offer_draw(color, now))

    def answer_draw(self, color: chess.Color, accept: bool, now: float) -> Events:
        return self._run(lambda: self._g.ending.answer_draw(color, accept, now))

    def resign(self, color: chess.Color, now: float) -> Events:
        return self._run(lambda: self._g.ending.resign(color, now))

    def claim(self, color: chess.Color, kind: ClaimKind, now: float, move: chess.Move | None = None) -> Events:
        """``color`` claims a draw (Art. 9.2, 9.3), his opponent's flag (Art. 6.8) or an illegal move."""
        return self._run(lambda: self._g.ending.claim(color, kind, now, move))

    def claim_quickplay(self, color: chess.Color, ground: QuickplayGround, now: float) -> Events:
        """``color`` claims a draw with under two minutes left (Guidelines III.4): checked at once
        (:class:`QuickplayFiled`); filed, the clocks stop until the arbiter decides. ValueError when the
        game is over."""
        return self._run(lambda: self._g.quickplay.claim(color, ground, now))

    def decide_quickplay(self, verdict: QuickplayVerdict, now: float) -> Events:
        """The arbiter decides the filed quickplay-finish claim (Guidelines III.5): "draw", "reject" (two
        minutes to the opponent) or "postpone". ValueError when no claim waits for him."""
        return self._run(lambda: self._g.quickplay.decide(verdict, now))

    def set_result(self, result: str, now: float, *, reason: str = "arbiter") -> Events:
        return self._run(lambda: self._g.ending.set_result(result, now, reason=reason))

    def request_time(self, now: float, *, by: str = "blind") -> TimeRequest:
        """Moves completed, time used and left by both players (D.2.10 d), recorded."""
        events = self._run(lambda: self._g.timing.request_time(now, by=by))
        request = events[0]
        assert isinstance(request, TimeRequest)
        return request

    def pause(self, now: float) -> Events:
        return self._run(lambda: self._g.timing.pause(now))

    def resume(self, now: float, *, charge: bool = False) -> Events:
        return self._run(lambda: self._g.timing.resume(now, charge=charge))

    def set_remaining(self, color: chess.Color, seconds: float, now: float) -> Events:
        """The arbiter sets ``color``'s remaining time (D.2.9: he readjusts the clocks)."""
        return self._run(lambda: self._g.timing.set_remaining(color, seconds, now))

    def tick(self, now: float) -> Events:
        """The arbiter looks at the clock: a fallen flag is seen (with adequate supervision)."""
        return self._run(lambda: self._g.timing.tick(now))

    def propose_ruling(self, lang: str | None = None, *, force: bool = False) -> Proposal | None:
        """The D.2.9 ruling for the boards and scores as they are now (None while the boards agree)."""
        return self._g.rulings.propose(lang, force=force)

    def apply_ruling(self, r: Proposal, now: float) -> Events:
        return self._run(lambda: self._g.rulings.apply(r, now))

    def override(self, moves: Iterable[chess.Move], now: float, *, clocks: ClockSetting | None = None,
                 note: str = "") -> Events:
        """Both boards to ``moves`` from the start, the clocks as given (ValueError for no legal game)."""
        return self._run(lambda: self._g.rulings.override(moves, now, clocks=clocks, note=note))

    def import_moves(self, moves: Iterable[chess.Move], now: float, *,
                     clocks: list[tuple[int, float, float]] | None = None, source: str = "pgn") -> Events:
        return self._run(lambda: self._g.rulings.import_moves(moves, now, clocks=clocks, source=source))

    def note(self, text: str, now: float, fact: Fact | None = None) -> Events:
        """A note for the record (the arbiter's, the app's); with ``fact`` the table's own state, typed: its
        ``KIND`` is the note's kind, its fields (those not None) the note's keys."""
        data = {} if fact is None else {k: v for k, v in encode_fields(fact).items() if v is not None}
        return self._run(lambda: self._g.log.record(Note(t=now, text=str(text), kind=fact.KIND if fact else None,
                                                         data=data)))

    def adjourn(self, now: float, *, session_end: float | None = None) -> Events:
        """The arbiter adjourns (Guidelines I.1 a): the player to move is to seal his move; ``session_end``
        (later than ``now``): adjourned before the session's scheduled end, the sealing counts as made then
        (I.1 b). ValueError when the game is over or already adjourned."""
        return self._run(lambda: self._g.adjournment.adjourn(now, session_end=session_end))

    def sealed_at(self, now: float) -> float:
        """When a sealing at ``now`` counts as made (the session's scheduled end, Guidelines I.1 b)."""
        return self._g.adjournment.sealed_at(now)

    def seal(self, public: Mapping[str, Any], hidden: Mapping[str, Any], now: float) -> Events:
        """The sealer seals the envelope (Guidelines I.1): ``public`` the envelope's fields and the
        commitment, ``hidden`` the move as written (kept in the envelope, never journaled). The sealed
        move comes back without ``hidden``. ValueError when nothing is to be sealed, UserError when the
        envelope cannot be kept."""
        try:
            return self._run(lambda: self._g.adjournment.seal(public, hidden, now))
        except OSError as exc:
            raise UserError(tr("session.journal_write_failed", self._g.state.lang, path=self._g.log.journal_path,
                               error=os_error_text(exc, self._g.state.lang))) from exc

    def sealed_move(self, *, reveal: bool = False) -> SealedMove | None:
        """The latest sealed move as everyone may see it (``hidden`` only once opened); ``reveal``: whole —
        for the arbiter's own checks, never on the responder's side before the opening."""
        log = self._g.log
        if not log.sealed:
            return None
        seq = max(log.sealed)
        ev = log.sealed[seq]
        if reveal and seq not in log.opened:
            hidden = self._g.adjournment.envelope() if seq == self._g.adjournment.sealed_seq else ev.hidden
            return dataclasses.replace(ev, hidden=hidden)
        return ev if seq in log.opened else dataclasses.replace(ev, hidden=None, sealed=True)

    def open_envelope(self, now: float, *, sealer_absent: bool = False) -> Events:
        """The arbiter opens the envelope (Guidelines I.7): the sealed move is made (I.9 a) or loses (I.8);
        ``sealer_absent``: the sealer is not there — his opponent seals his reply in a new envelope (I.9 c).
        ValueError when no envelope is closed, it is lost, or it does not match its commitment."""
        return self._run(lambda: self._g.adjournment.open_envelope(now, sealer_absent=sealer_absent))

    def sealed_move_ends_game(self) -> bool:
        """Whether the sealed move in the closed envelope ends the game by itself (mate, stalemate, a dead
        position; Guidelines I.10). Nothing is recorded and nothing of the move is told."""
        return self._g.adjournment.sealed_move_ends_game()

    def clocks_due(self, now: float) -> tuple[float, float] | None:
        """The times (White, Black) the clocks should show at ``now`` after the last resumption (those recorded
        at the sealing, less the time run since; Guidelines I.13), None without a resumption."""
        return self._g.adjournment.clocks_due(now)

    def correct_illegal(self, color: chess.Color, now: float) -> Events:
        """``color`` agrees to correct the illegal move that stands (blitz, Appendix B); corrected once both
        have agreed. ValueError when there is none to correct."""
        return self._run(lambda: self._g.ending.agree_correction(color, now))

    def start_responder_clock(self, now: float) -> Events:
        """The player who must reply to the sealed move is absent at resumption: his clock is started, the
        envelope opened when he arrives (Guidelines I.9 b). ValueError unless an envelope is sealed and his
        clock is not running yet."""
        return self._run(lambda: self._g.adjournment.start_responder_clock(now))

    def resume_without_envelope(self, now: float) -> Events:
        """The arbiter resumes without the envelope, lost or not matching (Guidelines I.12): play goes on from
        the adjourned position, the sealer to move, his clock running. ValueError when the envelope can be
        opened or none is sealed."""
        return self._run(lambda: self._g.adjournment.resume_without_envelope(now))

    def to_pgn_game(self) -> chess.pgn.Game:
        """The game as a ``chess.pgn.Game`` (see :func:`blindchess.records.pgn.session_to_game`)."""
        return session_to_game(self)
