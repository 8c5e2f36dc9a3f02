"""The rules engine's parts, wired, and the one dispatch that applies an input event.

Each collaborator owns one group of articles:

=========================  =====================================================
module                     articles
=========================  =====================================================
:mod:`.log`                the game's record, journal units, sealed-move privacy
:mod:`.boards`             D.1 two boards, D.2.9 divergence, D.2.2 / D.2.10 e touches
:mod:`.completion`         D.2.3, D.2.5 move made; D.2.8 slip of the tongue
:mod:`.scores`             D.2.7, D.2.10 c the game scores
:mod:`.timing`             D.2.4 press, D.2.6 clock, D.2.10 d time on request, Art. 6.8 flags
:mod:`.ending`             Art. 5, 6.9, 9 resignation, draws, claims, results
:mod:`.rulings`            D.2.9 ruling, arbiter's override, imported games
:mod:`.adjournment`        Guidelines I sealed move
=========================  =====================================================

:meth:`Rules.apply` dispatches an input event to its one handler with ``match``.
:func:`load` rebuilds a game from its journal (inputs replayed, outcomes recomputed).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import chess

from .. import __version__
from ..base import UserError, os_error_text, tr
from ..laws import RuleSet, TimeControl, for_time_control, king_queen_swapped
from ..storage import JournalRead, NotAJournal, read_journal
from .adjournment import Adjournment
from .boards import Boards
from .clock import Timing
from .completion import Completion
from .ending import Ending
from .events import (
    Adjourned,
    Announce,
    BoardMove,
    BoardMoveRejected,
    Claim,
    ClockPause,
    ClockResume,
    ClockSet,
    ClockStart,
    CorrectionAgreed,
    DrawAnswer,
    DrawOffer,
    EnvelopeLost,
    EnvelopeOpened,
    Flag,
    GameEvent,
    Note,
    PgnImport,
    Player,
    Press,
    QuickplayClaim,
    QuickplayDecision,
    Reopened,
    Resign,
    ResponderClockStarted,
    Result,
    Ruling,
    RulingOverride,
    Score,
    SealedMove,
    SessionStart,
    TakeBack,
    TimeRequest,
    Touch,
    from_json,
)
from .log import EventLog
from .quickplay import Quickplay
from .ruling import GameRulings
from .scores import Scores
from .state import GameSnapshot, GameState

__all__ = ["Rules", "start_board", "load", "replay", "JOURNAL_PROBLEM"]

#: Errors a journal line that does not fit the game raises while it is read or replayed.
JOURNAL_PROBLEM = (ValueError, KeyError, TypeError, IndexError, AssertionError, AttributeError)


def start_board(chess960: int | None, start_fen: str | None) -> chess.Board:
    """The start position: Chess960 number, FEN, or the standard one. ValueError for a bad one."""
    if chess960 is not None:
        if not 0 <= int(chess960) <= 959:
            raise ValueError(f"Chess960 number {chess960} out of range 0-959")
        return chess.Board.from_chess960_pos(int(chess960))
    if start_fen:
        board = chess.Board(start_fen, chess960=True)
        for color in (chess.WHITE, chess.BLACK):
            if king_queen_swapped(board, color):
                # the standard set-up with king and queen swapped (no Chess960 game): that king may not castle
                # (Appendix A a; the Laws in force: a king set up wrongly may not castle)
                board.castling_rights &= ~(chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8)
        if not board.has_chess960_castling_rights():
            board.chess960 = False
        return board
    return chess.Board()



class Rules:
    """One game's collaborators and the dispatch that applies its input events."""

    def __init__(self, start_event: SessionStart) -> None:
        ev = start_event
        self.start_event = ev
        self.created = ev.t
        tc = TimeControl.parse(ev.time_control) if ev.time_control else None
        start = chess.Board(ev.start_fen, chess960=ev.chess960)
        rules = _rule_set(tc, ev.rules, ev.supervised)
        self.log = EventLog(ev.t)
        self.state = GameState(ev.white, ev.black, start, ev.lang, self.log, rules, auto_press=ev.auto_press,
                               tactile_senses_pieces=ev.tactile_senses_pieces, chess960_number=ev.chess960_number,
                               headers=dict(ev.headers))
        self.timing = Timing(self.state, tc, ev.t)
        self.ending = Ending(self.state, self.timing)
        self.boards = Boards(self.state)
        self.scores = Scores(self.state)
        self.completion = Completion(self.state, self.boards, self.timing, self.ending, self.scores)
        self.rulings = GameRulings(self.state, self.boards, self.scores, self.timing, self.completion)
        self.ending.restore_before_illegal = self.rulings.restore_before
        self.adjournment = Adjournment(self.state, self.boards, self.timing, self.ending, self.scores)
        self.quickplay = Quickplay(self.state, self.timing, self.ending, self.scores)
        self.notes: list[Note] = []
        self.log.bind(self.apply)

    @classmethod
    def new(cls, white: Player, black: Player, time_control: TimeControl | None, *, start: chess.Board, lang: str,
            now: float, auto_press: bool, tactile_senses_pieces: bool, chess960_number: int | None,
            headers: dict[str, str] | None, rules: str | None, supervised: bool,
            table: dict[str, object] | None) -> Rules:
        """A new game (its :class:`SessionStart` not yet recorded: :meth:`begin`)."""
        blind = None
        if white.visually_impaired and not black.visually_impaired:
            blind = "white"
        elif black.visually_impaired:
            blind = "black"
        ev = SessionStart(t=now, white=white, black=black, time_control=_control_text(time_control),
                          start_fen=start.fen(), chess960=start.chess960, chess960_number=chess960_number,
                          lang=lang, blind=blind, auto_press=auto_press,  # type: ignore[arg-type]
                          tactile_senses_pieces=tactile_senses_pieces, headers=dict(headers or {}),
                          version=__version__, rules=rules, supervised=supervised, table=table)
        return cls(ev)

    def begin(self) -> None:
        """Record the game's first line."""
        self.log.record(self.start_event)

    def snapshot(self) -> GameSnapshot:
        """Every part's facts as they stand now, in one frozen record."""
        state, log, adjournment = self.state, self.log, self.adjournment
        return GameSnapshot(
            white=state.white, black=state.black, blind_color=state.blind_color, lang=state.lang,
            headers=dict(state.headers), auto_press=state.auto_press,
            tactile_senses_pieces=state.tactile_senses_pieces, chess960_number=state.chess960_number,
            created=self.created, start_event=self.start_event, time_control=self.timing.time_control,
            rules=state.rules, game_moves=tuple(state.moves), to_move=state.to_move, plies_pressed=self.timing.pressed,
            board_moves={name: tuple(board.move_stack) for name, board in self.boards.boards.items()},
            divergence=self.boards.divergence,
            scores={who: tuple(entries) for who, entries in self.scores.entries.items()},
            touches=tuple(self.boards.touches), rulings=tuple(self.rulings.applied), notes=tuple(self.notes),
            result=state.result, result_reason=state.result_reason, draw_offer=state.draw_offer,
            quickplay_claim=self.quickplay.pending, adjourned=state.adjourned, sealer=adjournment.sealer,
            sealing=adjournment.phase == "sealing", envelope_sealed=adjournment.phase == "sealed",
            responder_clock_started=adjournment.responder_clock, last_time=log.last_t,
            journal_path=log.journal_path, journal_problems=tuple(log.problems),
            illegal_plies=frozenset(state.illegal), reply_sealing=adjournment.reply,
            resumption_ply=adjournment.resumption_ply, correction_agreed=self.ending.correction_agreed)

    def apply(self, ev: GameEvent) -> None:
        """Apply an input event: its one handler (ValueError etc. when it does not fit the game)."""
        now = ev.t
        match ev:
            case SessionStart() | TimeRequest():
                pass
            case Adjourned():
                self.adjournment.on_adjourned(ev)
            case SealedMove():
                self.adjournment.on_sealed(ev)
            case Note():
                self.notes.append(ev)
            case ClockStart():
                self.timing.on_clock_start(ev)
            case BoardMove():
                index, move = self.boards.on_board_move(ev)
                self.completion.on_board_move(ev.board, index, move, ev.role, now)
                self.boards.check_divergence(now)
            case TakeBack():
                self.boards.on_take_back(ev)
                self.boards.check_divergence(now)
            case Announce():
                self.completion.on_announce(ev)
                self.boards.check_divergence(now)
            case Press():
                self.timing.on_press(ev)
                self.ending.after_press(ev)
            case ClockPause():
                self.timing.on_clock_pause(ev)
            case ClockResume():
                self.timing.on_clock_resume(ev)
            case ClockSet():
                self.timing.on_clock_set(ev)
            case Score():
                self.scores.on_score(ev)
            case Touch():
                self.boards.on_touch(ev)
            case DrawOffer():
                self.ending.on_draw_offer(ev)
            case DrawAnswer():
                self.ending.on_draw_answer(ev)
            case Resign():
                self.ending.on_resign(ev)
            case Result():
                self.ending.on_result(ev)
            case Flag():
                self.ending.on_flag(ev)
            case Claim():
                self.ending.on_claim(ev)
            case CorrectionAgreed():
                self.ending.on_correction_agreed(ev)
            case QuickplayClaim():
                self.quickplay.on_claim(ev)
            case QuickplayDecision():
                self.quickplay.on_decision(ev)
            case Ruling():
                self.rulings.on_ruling(ev)
            case RulingOverride():
                self.rulings.on_ruling_override(ev)
            case PgnImport():
                self.rulings.on_pgn_import(ev)
            case Reopened():
                self.timing.on_reopened(ev)
            case EnvelopeOpened():
                self.adjournment.on_envelope_opened(ev)
            case EnvelopeLost():
                self.adjournment.on_envelope_lost(ev)
            case ResponderClockStarted():
                self.adjournment.on_responder_clock_started(ev)
            case BoardMoveRejected():
                pass    # journaled as an input by earlier versions: changes nothing
            case _:
                raise ValueError(f"no handler for {ev.TYPE}")


def _control_text(tc: TimeControl | None) -> str | None:
    """The time control as the journal keeps it: text that reads back as the same control (a base under
    three minutes carries its unit, "60s", since "60" alone is read as minutes)."""
    if tc is None:
        return None
    text = str(tc)
    back = TimeControl.parse(text)
    if back is not None and back.periods == tc.periods:
        return text
    p = tc.periods[0]

    def num(x: float) -> str:
        return str(int(x)) if float(x).is_integer() else f"{x:g}"
    return f"{num(p.seconds)}s" + (f"+{num(p.increment)}" if p.increment else "") + (f"d{num(p.delay)}" if p.delay else "")


def _rule_set(tc: TimeControl | None, kind: str | None, supervised: bool) -> RuleSet:
    """The rule set named (``kind``), else the one the time control gives (Appendices A, B)."""
    derived = for_time_control(tc, supervised=supervised)
    if kind in ("standard", "rapid", "blitz"):
        return RuleSet(kind=kind, base_seconds=derived.base_seconds, increment=derived.increment,  # type: ignore[arg-type]
                       supervised=supervised)
    return derived


def load(path: Path, read: JournalRead | None = None) -> Rules:
    """The game rebuilt from its journal; damaged lines in ``log.problems``, journal not reopened.

    Inputs are replayed in order, outcomes recomputed (the journal's own outcome lines are
    the record the replay is checked against, :func:`blindchess.storage.journal.verdict`). A line that
    does not fit the game is reported ("inapplicable") and skipped. Raises UserError for a
    file that cannot be read or holds no game.
    """
    try:
        read = read_journal(path) if read is None else read
    except NotAJournal as exc:
        raise UserError(tr("session.journal_no_start", None, path=path)) from exc
    except OSError as exc:
        raise UserError(tr("session.journal_unreadable", None, path=path, error=os_error_text(exc, None))) from exc
    start: SessionStart | None = None
    problems = list(read.problems)
    for data in read.events:
        if data.get("type") == "session-start":
            try:
                ev = from_json(data)
            except JOURNAL_PROBLEM:
                continue
            if isinstance(ev, SessionStart):
                start = ev
                break
    if start is None:
        raise UserError(tr("session.journal_no_start", None, path=path))
    try:
        game = Rules(start)
    except JOURNAL_PROBLEM as exc:   # e.g. a start_fen that is no position
        raise UserError(tr("session.journal_no_start", None, path=path)) from exc
    log = game.log
    log.replaying = True
    try:
        log.seq = start.seq - 1 if start.seq > 0 else 0
        log.record(start)
    finally:
        log.replaying = False
    problems += replay(game, zip(read.lines, read.events, strict=False))
    log.problems = sorted(problems)
    log.journal_path = path
    log.held = dict(read.inputs)
    return game


def replay(game: Rules, lines: Iterable[tuple[int, dict[str, Any]]]) -> list[tuple[int, str]]:
    """Replay journal ``lines`` (line number, event) on ``game``, writing nothing: inputs applied in order,
    outcomes recomputed, the set-up and derived lines skipped. Returns the (line, "inapplicable") of the
    lines that do not fit the game (skipped)."""
    problems: list[tuple[int, str]] = []
    log = game.log
    log.replaying = True
    try:
        for line, data in lines:
            kind = data.get("type")
            if kind == "session-start" or data.get("derived"):
                continue
            try:
                ev = from_json(data)
            except JOURNAL_PROBLEM:
                problems.append((line, "inapplicable"))
                continue
            if ev is None or not ev.INPUT:
                continue
            log.seq = max(log.seq, ev.seq - 1)
            first = log.seq + 1
            try:
                log.record(ev)
            except JOURNAL_PROBLEM:
                # A line that does not fit the game (edited by hand?): reported, skipped.
                log.drop_since(first)
                problems.append((line, "inapplicable"))
        log.commit()
    finally:
        log.replaying = False
    return problems

