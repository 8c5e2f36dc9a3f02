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

In rulings board/score "a" is the sighted one, "b" the tactile board / the blind player's score.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import chess
import chess.pgn

from ..base import UserError, os_error_text, tr
from ..language import ScoreReading
from ..laws import Clock, Proposal, QuickplayCase, RuleSet, TimeControl
from ..records import read_pgn, session_to_game
from ..storage import JournalInUse, JournalRead, new_path
from .boards import Parting, board_name
from .core import Rules, load, replay, start_board
from .events import (
    BOARDS,
    SCORES,
    ClaimKind,
    GameEvent,
    JournalDamaged,
    Note,
    Player,
    QuickplayGround,
    QuickplayVerdict,
    Reopened,
    Ruling,
    RulingOverride,
    SealedMove,
    SessionStart,
    TimeRequest,
    Touch,
    color_name,
    parse_color,
    parse_move,
)
from .log import JournalError
from .scores import score_name

__all__ = ["Player", "Session", "BOARDS", "SCORES", "color_name"]

Events = list[GameEvent]


class Session:
    """One game under Appendix D; see the module docstring. Build with :meth:`new`, :meth:`open`,
    :meth:`load` or :meth:`from_pgn`."""

    def __init__(self, rules: Rules) -> None:
        self._g = rules

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
    def open(cls, path: Path | str, now: float | None = None, *, count_closed_time: bool = False) -> Session:
        """Reopen a journaled game exactly (damaged lines in ``journal_problems``); appends from then on.

        A clock running when the journal ends is stopped at the last recorded moment; with
        ``now`` it runs on from ``now`` (the closed time counted only with ``count_closed_time``).
        Raises UserError when the file is no journal or cannot be written.
        """
        session = cls(load(Path(path)))
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
        if g.result in ("1-0", "0-1", "1/2-1/2") and s.result is None:
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
                    log.record(Reopened(t=last, closed_at=last, reopened_at=None, counted=False))
                else:
                    log.record(Reopened(t=now, closed_at=last, reopened_at=now, counted=bool(count_closed_time)))
            elif now is not None:
                log.last_t = max(log.last_t, now)

    def close(self) -> None:
        """Close the journal (the game can be reopened with :meth:`open`)."""
        self._g.log.close()

    def abandon(self) -> None:
        """The program dies here: the journal is left exactly as written, only its file is let go (as the
        system does for a killed process), so the game can be reopened with :meth:`open` as after a crash."""
        self._g.log.abandon()

    # ================================================================ units of the journal
    @contextmanager
    def unit(self) -> Iterator[None]:
        """Everything recorded inside is one unit of the journal, committed at the end.

        Raises UserError when the journal cannot be written: the game is then restored from
        the file, so nothing of the unit counts.
        """
        try:
            with self._g.log.unit():
                yield
        except JournalError as exc:
            self._restore()
            raise UserError(tr("session.journal_write_failed", self.lang, path=exc.filename,
                               error=os_error_text(exc, self.lang))) from exc

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

    def _run(self, command: Callable[[], object]) -> Events:
        """Run ``command``; the events it recorded (committed unless a unit is open)."""
        log = self._g.log
        mark = log.seq
        with self.unit():
            command()
        return self._since(mark)

    def _since(self, mark: int) -> Events:
        out: Events = []
        for ev in reversed(self._g.log.events):
            if ev.seq <= mark:
                break
            out.append(ev)
        out.reverse()
        return out

    @property
    def pending(self) -> Events:
        """The events recorded in the unit still open (not yet journaled)."""
        return self._g.log.pending()

    # ================================================================ state
    @property
    def white(self) -> Player:
        return self._g.state.white

    @property
    def black(self) -> Player:
        return self._g.state.black

    @property
    def blind_color(self) -> chess.Color | None:
        """The colour of the visually impaired player (None: none, or both)."""
        return self._g.state.blind_color

    @property
    def start(self) -> chess.Board:
        """The start position (a copy)."""
        return self._g.state.start.copy(stack=False)

    @property
    def lang(self) -> str:
        return self._g.state.lang

    @property
    def headers(self) -> dict[str, str]:
        return dict(self._g.state.headers)

    @property
    def auto_press(self) -> bool:
        """The app presses the clock as soon as a move is made (no D.2.8 window)."""
        return self._g.state.auto_press

    @property
    def tactile_senses_pieces(self) -> bool:
        return self._g.state.tactile_senses_pieces

    @property
    def chess960_number(self) -> int | None:
        return self._g.state.chess960_number

    @property
    def created(self) -> float:
        return self._g.created

    @property
    def start_event(self) -> SessionStart:
        """The game's first line (with the table's set-up in ``table``)."""
        return self._g.start_event

    @property
    def clock(self) -> Clock:
        return self._g.timing.clock

    @property
    def time_control(self) -> TimeControl | None:
        return self._g.timing.time_control

    @property
    def rules(self) -> RuleSet:
        """Standard, rapid or blitz, with or without adequate supervision (Appendices A, B)."""
        return self._g.state.rules

    @property
    def events(self) -> list[GameEvent]:
        """Every event of the game so far (the sealed move without its hidden part until opened)."""
        return self._g.log.events

    @property
    def notes(self) -> list[Note]:
        """The notes of the record (the table's own state among them)."""
        return self._g.notes

    @property
    def touches(self) -> list[Touch]:
        return self._g.boards.touches

    @property
    def rulings(self) -> list[Ruling | RulingOverride]:
        """The D.2.9 rulings and overrides applied."""
        return self._g.rulings.applied

    def board(self, name: str) -> chess.Board:
        """The position on board ``name`` ("sighted" | "tactile"), with its move stack (a copy)."""
        return self._g.boards.boards[board_name(name)].copy()

    def moves(self, name: str) -> list[chess.Move]:
        """The moves made on board ``name``."""
        return list(self._g.boards.boards[board_name(name)].move_stack)

    def board_length(self, name: str) -> int:
        """How many moves board ``name`` holds."""
        return len(self._g.boards.boards[board_name(name)].move_stack)

    @property
    def game_moves(self) -> list[chess.Move]:
        """The moves made (D.2.3 / D.2.5), in order."""
        return list(self._g.state.moves)

    @property
    def plies(self) -> int:
        """How many half-moves have been made."""
        return len(self._g.state.moves)

    def game_board(self) -> chess.Board:
        """The game's position with its move stack (a copy)."""
        return self._g.state.game_board()

    def position(self, plies: int) -> chess.Board:
        """The game's position after ``plies`` half-moves, without the move stack (IndexError past the game)."""
        return self._g.state.position(plies)

    def score(self, who: str) -> list[str]:
        """The game score ``who`` ("blind" | "sighted") as written."""
        return list(self._g.scores.entries[score_name(who)])

    def score_read(self, who: str) -> ScoreReading:
        """The score as understood (moves up to the first entry that cannot be read)."""
        return self._g.scores.read(score_name(who))

    @property
    def divergence(self) -> Parting | None:
        """The first position where a board parts from the game (D.2.9), or None."""
        return self._g.boards.divergence

    def player(self, color: chess.Color) -> Player:
        return self._g.state.player(color)

    def is_blind(self, color: chess.Color) -> bool:
        return self._g.state.is_blind(color)

    @property
    def to_move(self) -> chess.Color:
        """The side to move in the game."""
        return self._g.state.to_move

    @property
    def plies_pressed(self) -> int:
        """Half-moves whose clock press has been made."""
        return self._g.timing.pressed

    @property
    def result(self) -> str | None:
        """The result, or None while the game goes on."""
        return self._g.state.result

    @property
    def result_reason(self) -> str | None:
        return self._g.state.result_reason

    @property
    def finished(self) -> bool:
        return self._g.state.result is not None

    @property
    def draw_offer(self) -> chess.Color | None:
        """The colour whose draw offer stands."""
        return self._g.state.draw_offer

    @property
    def last_time(self) -> float:
        """The time of the latest event."""
        return self._g.log.last_t

    @property
    def journal_path(self) -> Path | None:
        return self._g.log.journal_path

    @property
    def journal_problems(self) -> list[tuple[int, str]]:
        """Damaged journal lines: (line, problem)."""
        return self._g.log.problems

    @property
    def envelope_sealed(self) -> bool:
        """A sealed envelope waits to be opened (Guidelines I.3)."""
        return self._g.adjournment.phase == "sealed"

    def flags_fallen(self, now: float) -> list[chess.Color]:
        """The sides whose time is up at ``now`` and whose flag has not been seen yet."""
        return self._g.timing.fallen(now)

    def draw_claim_holds(self, color: chess.Color | str, kind: ClaimKind, move: chess.Move | None = None) -> bool:
        """Whether ``color`` may claim a draw of ``kind`` now (Art. 9.2, 9.3), with ``move`` declared."""
        return self._g.ending.draw_claim_holds(parse_color(color), kind, move)

    # ================================================================ commands (each returns its events)
    def start_clock(self, now: float) -> Events:
        return self._run(lambda: self._g.timing.start_clock(now))

    def board_move(self, name: str, move: chess.Move | str, now: float) -> Events:
        """A move actually made on board ``name`` (own move or mirror of a move made)."""
        return self._run(lambda: self._g.boards.board_move(board_name(name), parse_move(move), now))

    def sighted_move(self, move: chess.Move | str, now: float) -> Events:
        return self.board_move("sighted", move, now)

    def tactile_move(self, move: chess.Move | str, now: float) -> Events:
        return self.board_move("tactile", move, now)

    def take_back(self, name: str, now: float) -> Events:
        """The last move on board ``name`` taken back; [] when it holds none."""
        return self._run(lambda: self._g.boards.take_back(board_name(name), now))

    def announce(self, move: chess.Move | None, text: str, now: float, *, correction: bool = False,
                 problem: str | None = None) -> Events:
        """The blind player announces ``move`` in the words ``text`` (D.2.1; None: the words named no
        legal move, ``problem`` says why); ``correction``: a slip corrected (D.2.8)."""
        return self._run(lambda: self._g.completion.announce(move, text, now, correction=correction,
                                                              problem=problem))

    def press_clock(self, color: chess.Color | str, now: float) -> Events:
        return self._run(lambda: self._g.timing.press_clock(parse_color(color), now))

    def write(self, who: str, text: str, now: float, *, index: int | None = None) -> Events:
        """An entry of score ``who`` written or amended by hand (ValueError for an index past the end)."""
        return self._run(lambda: self._g.scores.write(score_name(who), text, now, index=index))

    def touch(self, square: int | str, now: float, *, board: str = "tactile", piece: str | None = None) -> Events:
        return self._run(lambda: self._g.boards.touch(square, now, board=board_name(board), piece=piece))

    def offer_draw(self, color: chess.Color | str, now: float) -> Events:
        return self._run(lambda: self._g.ending.offer_draw(parse_color(color), now))

    def answer_draw(self, color: chess.Color | str, accept: bool, now: float) -> Events:
        return self._run(lambda: self._g.ending.answer_draw(parse_color(color), accept, now))

    def resign(self, color: chess.Color | str, now: float) -> Events:
        return self._run(lambda: self._g.ending.resign(parse_color(color), now))

    def claim(self, color: chess.Color | str, kind: ClaimKind, now: float, move: chess.Move | None = None) -> Events:
        """``color`` claims a draw (Art. 9.2, 9.3), his opponent's flag (Art. 6.8) or an illegal move."""
        return self._run(lambda: self._g.ending.claim(parse_color(color), kind, now, move))

    def claim_quickplay(self, color: chess.Color | str, ground: QuickplayGround, now: float) -> Events:
        """``color`` claims a draw with under two minutes left (Guidelines III.4): checked at once
        (:class:`QuickplayFiled`); filed, the clocks stop until the arbiter decides. ValueError when the
        game is over."""
        return self._run(lambda: self._g.quickplay.claim(parse_color(color), ground, now))

    def decide_quickplay(self, verdict: QuickplayVerdict, now: float) -> Events:
        """The arbiter decides the filed quickplay-finish claim (Guidelines III.5): "draw", "reject" (two
        minutes to the opponent) or "postpone". ValueError when no claim waits for him."""
        return self._run(lambda: self._g.quickplay.decide(verdict, now))

    @property
    def quickplay_claim(self) -> QuickplayCase | None:
        """The filed quickplay-finish claim the arbiter has still to decide, None when there is none."""
        return self._g.quickplay.pending

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

    def set_remaining(self, color: chess.Color | str, seconds: float, now: float) -> Events:
        return self._run(lambda: self._g.timing.set_remaining(parse_color(color), seconds, now))

    def tick(self, now: float) -> Events:
        """The arbiter looks at the clock: a fallen flag is seen (with adequate supervision)."""
        return self._run(lambda: self._g.timing.tick(now))

    def propose_ruling(self, lang: str | None = None, *, force: bool = False) -> Proposal | None:
        """The D.2.9 ruling for the boards and scores as they are now (None while the boards agree)."""
        return self._g.rulings.propose(lang, force=force)

    def apply_ruling(self, r: Proposal, now: float) -> Events:
        return self._run(lambda: self._g.rulings.apply(r, now))

    def override(self, moves: Iterable[object], now: float, *, clocks: Mapping[str, Any] | None = None,
                 note: str = "") -> Events:
        """Both boards to ``moves`` from the start, the clocks as given (ValueError for no legal game)."""
        return self._run(lambda: self._g.rulings.override(moves, now, clocks=clocks, note=note))

    def import_moves(self, moves: Iterable[object], now: float, *,
                     clocks: list[tuple[int, float, float]] | None = None, source: str = "pgn") -> Events:
        return self._run(lambda: self._g.rulings.import_moves(moves, now, clocks=clocks, source=source))

    def note(self, text: str, now: float, *, kind: str | None = None, **data: Any) -> Events:
        """A note for the record (the arbiter's, the app's, the table's own state)."""
        return self._run(lambda: self._g.log.record(Note(t=now, text=str(text), kind=kind, data=data)))

    def adjourn(self, now: float) -> Events:
        """The arbiter adjourns (Guidelines I.1): the player to move is to seal his move. ValueError when
        the game is over or already adjourned."""
        return self._run(lambda: self._g.adjournment.adjourn(now))

    def seal(self, public: Mapping[str, Any], hidden: Mapping[str, Any], now: float, *, valid: bool = True) -> Events:
        """The sealer seals the envelope (Guidelines I.1): ``public`` the envelope's fields and the
        commitment, ``hidden`` the move as written (kept in the envelope, never journaled). The sealed
        move comes back without ``hidden``. ValueError when nothing is to be sealed, UserError when the
        envelope cannot be kept."""
        try:
            return self._run(lambda: self._g.adjournment.seal(public, hidden, now, valid=valid))
        except OSError as exc:
            raise UserError(tr("session.journal_write_failed", self.lang, path=self.journal_path,
                               error=os_error_text(exc, self.lang))) from exc

    @property
    def adjourned(self) -> bool:
        """The game is adjourned: a move is to be sealed, or sealed and not yet opened (Guidelines I)."""
        return self._g.state.adjourned

    @property
    def sealer(self) -> chess.Color | None:
        """Who seals (or sealed) the move of the adjournment, None when the game is not adjourned."""
        return self._g.adjournment.sealer

    @property
    def sealing(self) -> bool:
        """The sealer is writing his move (Guidelines I.1): the envelope is not yet sealed."""
        return self._g.adjournment.phase == "sealing"

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

    def open_envelope(self, now: float) -> Events:
        """The arbiter opens the envelope (Guidelines I.7): the sealed move is made (I.9 a) or loses (I.8).
        ValueError when no envelope is closed, it is lost, or it does not match its commitment."""
        return self._run(lambda: self._g.adjournment.open_envelope(now))

    @property
    def envelope_problem(self) -> str | None:
        """Why the sealed envelope cannot be opened: "missing", "mismatch" (Guidelines I.12), else None."""
        return self._g.adjournment.envelope_problem()

    def start_responder_clock(self, now: float) -> Events:
        """The player who must reply to the sealed move is absent at resumption: his clock is started, the
        envelope opened when he arrives (Guidelines I.9 b). ValueError unless an envelope is sealed and his
        clock is not running yet."""
        return self._run(lambda: self._g.adjournment.start_responder_clock(now))

    @property
    def responder_clock_started(self) -> bool:
        """The absent responder's clock runs while the envelope waits for him (Guidelines I.9 b)."""
        return self._g.adjournment.responder_clock

    def resume_without_envelope(self, now: float) -> Events:
        """The arbiter resumes without the envelope, lost or not matching (Guidelines I.12): play goes on from
        the adjourned position, the sealer to move, his clock running. ValueError when the envelope can be
        opened or none is sealed."""
        return self._run(lambda: self._g.adjournment.resume_without_envelope(now))

    def to_pgn_game(self) -> chess.pgn.Game:
        """The game as a ``chess.pgn.Game`` (see :func:`blindchess.records.pgn.session_to_game`)."""
        return session_to_game(self)
