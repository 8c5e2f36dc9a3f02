"""The computer as the sighted side of a practice game (pure core).

A practice game is played exactly as at the tournament (FIDE Laws Appendix D):
the blind player makes his moves on the peg-board and announces them (D.2.3),
presses his clock (D.2.4) and mirrors the computer's moves, which the table
announces to him (D.2.1). The computer is the sighted player; :class:`Opponent`
is the table part that plays its side. It imports no engine, reads no clock and
never sleeps: the time is passed in, the engine is reached through a small
protocol (:class:`MoveChooser`) or a device request the front end answers.

**When the computer moves.** Its turn begins when it is to move in the game,
the blind player's move is final — with a clock his press started the
computer's clock (D.2.4; the app presses for him when ``auto_press``), without
one the move is made — no question is open, the boards agree (no divergence,
no ruling proposed), the clock is not paused and the game is not over. From
that moment it waits at least :func:`min_delay` (by level, shorter when its
own time runs low) so the player can follow, then it mirrors the blind
player's move on its board, plays its own move on the sighted board (made,
D.2.5, and announced to the blind player by the table) and presses its clock
(unless the app presses for everybody).

**Where the move comes from.** With a :class:`MoveChooser` connected
(:meth:`Opponent.connect`; the headless scenario front, the app on a script's
clock) the chooser is asked when the turn begins, synchronously. Without one
the table emits ``DeviceRequest(device="engine", what="move", fen=...)`` and
the front end answers with :meth:`Opponent.chosen` or :meth:`Opponent.failed`
whenever the answer comes (the app: a worker thread). A move that arrives
after the due time is played at once; one for a position that has changed
meanwhile (a take-back, a ruling) is dropped.

**When the engine fails** (missing, crashed, hung — the chooser raises a
:class:`~blindchess.base.errors.UserError` such as ``blindchess.adapters.engine.EngineError``)
the blind player hears its one sentence, the sighted side sees it, the journal
notes it; nothing else changes, so the game is kept and can be resumed
(``Table.resume`` and a new engine, or :meth:`Opponent.connect` again).

**A wrong mirror** on the pegs is caught as in a real game: the table reports
the divergence and proposes the D.2.9 ruling. There is no arbiter at home: the
computer applies the proposed ruling :data:`RULING_DELAY` seconds later (the
player may set his pegs right himself meanwhile).

**Draw offers** of the blind player are answered when the computer's move is
due: accepted in a dead or claimable drawn position, declined otherwise.

**Coaching** (``TableSetup.coaching``; the tournament forbids it, practice only):
an announcement not understood is explained and the likely move (the one on
the pegs, else the nearest that fits) is said as it should be announced; an
announcement that does not fit the pegs gets advice; a move left unpressed is
reminded after :data:`PRESS_REMINDER` seconds; "take back"
(:meth:`Opponent.take_back`, or the phrases ``engine.take_back_phrases``) takes
back the blind player's last move and the computer's reply on both boards and
in the journal (a retrace to that half-move, the clocks as they stood then);
after the game a spoken summary of slips (:class:`Slips`), counted from the
journal's notes so it survives a crash.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, get_args

import chess

from ..base import UserError, tr
from ..game import (
    Announce,
    AnnounceIgnored,
    AnnounceMismatch,
    AnnounceUnclear,
    ClockRefused,
    Divergence,
    GameEvent,
    MoveMade,
    Note,
)
from ..language import announce, fold, understand
from .clock import ClockKeeper
from .ending import Endings
from .events import DeviceRequest, Heard
from .moves import Moves
from .notes import EngineFailure, SlipKind, SlipNoted, read_note
from .questions import Questions
from .ruling import TableRulings
from .setup import color_name
from .state import TableState
from .tactile import TactileBoard

__all__ = ["MoveChooser", "Opponent", "Slips", "MIN_DELAY", "RULING_DELAY", "PRESS_REMINDER", "min_delay"]

#: The least time (seconds) between the beginning of the computer's turn and its move, for levels 1…6
#: (``blindchess.adapters.engine.LEVELS``): a beginner needs longer to follow than a strong player.
MIN_DELAY: tuple[float, ...] = (8.0, 7.0, 6.0, 5.0, 4.0, 3.0)
#: Seconds between a divergence and the computer applying the proposed ruling (D.2.9).
RULING_DELAY = 6.0
#: Seconds after the blind player's move is made before coaching reminds him to press his clock.
PRESS_REMINDER = 12.0

#: The engine's events that are slips of the blind player: event type -> slip kind (see :class:`Slips`).
_SLIPS: dict[str, SlipKind] = {"move-withdrawn": "corrected", "announce-unclear": "unclear", "announce-mismatch": "unclear",
          "divergence": "mirror", "clock-refused": "press"}


class MoveChooser(Protocol):
    """What the core needs from an engine: a legal move in ``board`` (with its move stack).

    Raises :class:`~blindchess.base.errors.UserError` (one sentence in ``message``) when it cannot.
    """

    def choose(self, board: chess.Board) -> chess.Move: ...


def min_delay(level: int, remaining: float | None = None) -> float:
    """Seconds the computer waits at least before moving, at ``level`` (1…6; clamped).

    With ``remaining`` (its time left on the clock) never more than a fortieth of
    it, and never less than one second.
    """
    base = MIN_DELAY[max(1, min(len(MIN_DELAY), level)) - 1]
    if remaining is not None:
        base = min(base, max(1.0, remaining / 40.0))
    return base


@dataclass(frozen=True)
class Slips:
    """The blind player's slips in one game, counted from the journal's practice notes.

    ``corrected``: made moves withdrawn by a corrected announcement (D.2.8);
    ``unclear``: announcements not understood or not fitting the pegs (D.2.1, D.2.3);
    ``mirror``: wrong mirrors of the computer's moves on the pegs (a divergence, D.2.9, or pegs
    that did not show the move until he set them right);
    ``press``: clock presses refused (D.2.4); ``takeback``: moves taken back.
    """

    corrected: int = 0
    unclear: int = 0
    mirror: int = 0
    press: int = 0
    takeback: int = 0

    @classmethod
    def count(cls, notes: Sequence[Note]) -> Slips:
        """The slips noted in ``notes`` (the game's notes, also of a resumed game)."""
        counts = dict.fromkeys(get_args(SlipKind), 0)
        for note in notes:
            fact = read_note(note)
            if isinstance(fact, SlipNoted):
                counts[fact.slip] += 1
        return cls(**counts)

    def text(self, lang: str) -> str:
        """The spoken summary ("Ansagen berichtigt: 1. …")."""
        if not any((self.corrected, self.unclear, self.mirror, self.press, self.takeback)):
            return tr("engine.summary_clean", lang)
        parts = [tr("engine.summary_corrected", lang, n=self.corrected),
                 tr("engine.summary_unclear", lang, n=self.unclear),
                 tr("engine.summary_mirror", lang, n=self.mirror),
                 tr("engine.summary_press", lang, n=self.press)]
        if self.takeback:
            parts.append(tr("engine.summary_takeback", lang, n=self.takeback))
        return tr("engine.summary", lang, items=" ".join(parts))


@dataclass
class _Heard:
    """What the blind player said in the current input, where the game stood then, and what the
    engine made of it (for coaching)."""

    text: str
    board: chess.Board
    outcome: list[GameEvent]


class Opponent:
    """The computer's side of a practice game at one table (see the module docstring).

    Built by the table (``Table.opponent``) for ``TableSetup.opponent == "engine"``, with
    ``TableSetup.engine_level`` and ``TableSetup.coaching``; raises ValueError unless exactly one
    player is blind;
    the façade calls :meth:`step` at the end of every input, :meth:`due_at` from
    ``idle_at``, and passes on :meth:`connect`, :meth:`chosen`, :meth:`failed`,
    :meth:`take_back` and :meth:`hears`. All methods run inside a table input.
    """

    def __init__(self, state: TableState, moves: Moves, clock: ClockKeeper, rulings: TableRulings,
                 questions: Questions, endings: Endings, tactile: TactileBoard | None = None, *, level: int = 2,
                 coaching: bool = False) -> None:
        self.state = state
        self.tactile = tactile
        self.moves = moves
        self.clock = clock
        self.rulings = rulings
        self.questions = questions
        self.endings = endings
        session = state.session
        if session.snapshot.blind_color is None or state.setup.blind not in ("white", "black"):
            raise ValueError("a practice game needs exactly one blind player")
        #: The computer's colour.
        self.color: chess.Color = not session.snapshot.blind_color
        #: The engine's level 1…6 (the delay before its moves, :func:`min_delay`).
        self.level = level
        #: Tips, take-backs and the summary of slips (practice only).
        self.coaching = coaching
        #: The engine's one sentence after it failed (None while it works).
        self.failure: str | None = None
        self._chooser: MoveChooser | None = None
        self._connected = False         # a chooser, or the front answers device requests
        self._turn: str | None = None   # the position of the computer's turn under way
        self._due = 0.0
        self._asked = False
        self._move: chess.Move | None = None
        self._diverged_at: float | None = None
        self._unpressed: tuple[int, float] | None = None   # (ply, since) of the blind player's unpressed move
        self._reminded: set[int] = set()
        self._mirror_slips: set[int] = set()      # plies whose mirror on the pegs went wrong (noted once)
        self._heard: _Heard | None = None
        self._take_back = False
        self._new: list[GameEvent] = []           # the engine's events since the last step
        self._summarized = session.snapshot.finished
        self._busy = False

    # ---------------------------------------------------------------- inputs (through the façade)
    def connect(self, chooser: MoveChooser | None, now: float) -> None:
        """An engine is there: ``chooser`` is asked synchronously; None: the front answers the table's
        ``DeviceRequest(device="engine")`` with :meth:`chosen` / :meth:`failed`. Clears an earlier failure."""
        self._chooser = chooser
        self._connected = True
        self.failure = None
        self._asked = False

    def chosen(self, move: chess.Move, fen: str, now: float) -> None:
        """The engine's move for the position ``fen`` (the request's); dropped when the game has moved on."""
        board = self.state.session.game_board()
        if self._turn is None or board.fen() != fen:
            return                  # the game has moved on: a new request is (or will be) under way
        if not board.is_legal(move):
            self._asked = False     # asked again
            return
        self._move = move

    def failed(self, message: str, now: float) -> None:
        """The engine failed (``message``: its one sentence): said, shown, noted; the game stands as it is."""
        self.failure = message
        self._move = None
        state = self.state
        state.say(now, message, "blind", "move")
        state.show(now, message)
        state.react(state.session.note(message, now, EngineFailure()))

    def hears(self, text: str, confidence: float | None, now: float) -> bool:
        """The blind player said ``text``: True when the opponent takes it (a take-back, coaching on).

        Otherwise the table hears it as usual and, with coaching, :meth:`step` explains
        afterwards what was not understood.
        """
        state = self.state
        if state.game.sealing and state.game.sealer == state.game.blind_color:
            return False    # his sealed move (Guidelines I.1): nobody coaches, nothing of it is kept
        if self.coaching and _is_take_back(text, state.lang) and (
                confidence is None or confidence >= state.setup.min_confidence):
            state.emit(Heard(now, "blind", text, confidence))
            self.take_back(now)
            return True
        self._heard = _Heard(text, state.hearing_board(), [])
        return False

    def saw(self, ev: GameEvent) -> None:
        """An event of the engine at this table (the table hands every one on)."""
        self._new.append(ev)
        if self._heard is not None:
            self._heard.outcome.append(ev)

    def take_back(self, now: float) -> None:
        """Take back the blind player's last move and the computer's reply (coaching on; refused otherwise).

        Both boards, both scores and the clocks go back to the position before his
        move (a retrace, journaled as the arbiter's); the pegs are to be set back.
        """
        state = self.state
        s = state.session
        lang = state.lang
        blind = state.game.blind_color
        if not self.coaching:
            state.refuse(now, "take-back", tr("engine.take_back_not_coaching", lang), to="blind")
            return
        game = state.game.game_moves
        own = [i for i in range(len(game)) if state.board_at(i).turn == blind]
        if state.game.finished or not own:
            state.refuse(now, "take-back", tr("engine.take_back_nothing", lang), to="blind")
            return
        plies = own[-1]
        phrases = [announce(state.board_at(i), game[i], lang) for i in range(plies, len(game))]
        text = tr("engine.taken_back", lang, moves=", ".join(phrases))
        state.react(s.note(text, now, SlipNoted("takeback", plies)))
        self.rulings.retrace(plies, now)
        self._turn = None
        self._move = None

        def told() -> None:     # after the retrace is said: what was taken back
            state.say(now, text, "blind", "answer")
            state.show(now, text)
        state.then(told)

    # ---------------------------------------------------------------- after every input
    def step(self, now: float) -> None:
        """Whatever falls due at ``now``: coaching on what just happened, a ruling, the computer's move."""
        if self._busy:
            return
        self._busy = True
        try:
            self._slips(now)
            self._coach_heard(now)
            if self.state.game.finished:
                self._mirror(now)        # the computer's board shows the final position too
                self.state.then(lambda: self._summary(now))     # once it does
                self._turn = None
                return
            self._rule(now)
            self._remind(now)
            self._play_turn(now)
        finally:
            self._busy = False

    def due_at(self, now: float) -> float | None:
        """The next moment after ``now`` something of the opponent falls due (its move, a ruling, a
        reminder), or None."""
        dues: list[float] = []
        if self._turn is not None and self._move is not None and self.failure is None:
            dues.append(self._due)
        if self._diverged_at is not None:
            dues.append(self._diverged_at + RULING_DELAY)
        if self.coaching and self._unpressed is not None and self._unpressed[0] not in self._reminded:
            dues.append(self._unpressed[1] + PRESS_REMINDER)
        later = [d for d in dues if d > now]
        return min(later) if later else None

    def phrases(self) -> list[str]:
        """What the recogniser should listen for besides the moves: "take back" (coaching on), lower case."""
        if not self.coaching:
            return []
        return [p.strip().lower() for p in tr("engine.take_back_phrases", self.state.lang).split("|") if p.strip()]

    @property
    def slips(self) -> Slips:
        """The slips noted so far in this game."""
        return Slips.count(self.state.game.notes)

    # ---------------------------------------------------------------- the computer's turn
    def _turn_key(self) -> str | None:
        """The position of the computer's turn, or None when it is not to move now."""
        game = self.state.game       # (not over: step() ends a finished game's turn before)
        s = self.state.session
        board = s.game_board()
        if board.turn != self.color or self.questions.question is not None:
            return None
        if game.divergence is not None or self.rulings.proposal is not None:
            return None
        if game.time_control is not None:
            if s.clock.paused:
                return None
            if game.plies_pressed < game.plies:
                return None     # the blind player has not started the computer's clock (D.2.4)
        return f"{game.plies} {len(game.rulings)} {board.fen()}"

    def _play_turn(self, now: float) -> None:
        key = self._turn_key()
        if key is None:
            self._turn = None
            self._move = None
            return
        s = self.state.session
        state = self.state
        if self._turn != key:
            self._turn = key
            self._move = None
            self._asked = False
            remaining = s.clock.remaining(self.color, now) if state.game.time_control is not None else None
            self._due = now + min_delay(self.level, remaining)
            if state.game.time_control is not None:
                self._mirror(now)     # pressed: the blind player's move is final
        if self.failure is not None or not self._connected:
            return
        if self._move is None and not self._asked:
            self._asked = True
            self._ask(now)
        if self._move is not None and now >= self._due:
            move, self._move = self._move, None
            self._play(move, now)

    def _ask(self, now: float) -> None:
        board = self.state.session.game_board()
        if self._chooser is None:
            self.state.emit(DeviceRequest(now, "engine", "move", board.fen()))
            return
        try:
            move = self._chooser.choose(board)
        except UserError as exc:
            self.failed(exc.message, now)
            return
        self.chosen(move, board.fen(), now)

    def _play(self, move: chess.Move, now: float) -> None:
        """The engine's ``move``, legal in this turn's position (:meth:`chosen` checked it; a new position is a new
        turn, whose move is asked afresh)."""
        state = self.state
        self._mirror(now)
        if self.endings.offer_to(self.color) and self._answer_draw(now):
            return
        made = state.game.plies
        self.moves.board_move("sighted", move, now)
        game = state.game       # after the move
        if game.plies == made + 1 and not game.finished and game.time_control is not None and not game.auto_press:
            self.clock.press(self.color, now)
        self._turn = None

    def _mirror(self, now: float) -> None:
        """The blind player's moves made and not yet on the computer's board are mirrored on it."""
        state = self.state
        game = state.game.game_moves
        for index in range(state.game.board_length("sighted"), len(game)):
            if state.game.moves("sighted") != game[:index]:
                return
            self.moves.board_move("sighted", game[index], now)

    def _answer_draw(self, now: float) -> bool:
        """The blind player's standing draw offer: True when accepted (the game is over)."""
        state = self.state
        board = state.session.game_board()
        if board.is_insufficient_material() or board.can_claim_draw():
            self.endings.ask_draw_accept("sighted", now)
            question = self.questions.question
            if question is not None and question.kind == "draw-accept":
                self.questions.resolve(question, "yes", now)
                return bool(state.game.finished)
        self.endings.decline(self.color, now)
        return False

    def _rule(self, now: float) -> None:
        """A divergence stands: the computer applies the proposed ruling after :data:`RULING_DELAY`."""
        state = self.state
        if state.game.divergence is None or self.rulings.proposal is None:
            self._diverged_at = None
            return
        if self._diverged_at is None:
            self._diverged_at = now
            return
        if now < self._diverged_at + RULING_DELAY:
            return
        self._diverged_at = None
        self.rulings.apply(now)
        if self.coaching:
            self.state.then(lambda: self._tell_last_move(now))    # after the ruling is said

    def _tell_last_move(self, now: float) -> None:
        """After a ruling or a wrong mirror: how the pegs should stand — the last move of the game, in words."""
        state = self.state
        game = state.game.game_moves
        if not game:
            return
        last = len(game) - 1
        text = tr("engine.coach_after_ruling", state.lang,
                  move=announce(state.board_at(last), game[last], state.lang))
        state.say(now, text, "blind", "answer")

    # ---------------------------------------------------------------- coaching
    def _slips(self, now: float) -> None:
        """Note the blind player's slips among the session's new events; advise on a mismatch."""
        s = self.state.session
        new, self._new = self._new, []
        if not self.coaching:
            return
        blind = color_name(not self.color)
        for ev in new:
            kind = _SLIPS.get(ev.TYPE)
            if kind is None:
                continue
            if kind == "mirror" and (not isinstance(ev, Divergence) or ev.board != "tactile" or not self._mirror_slip()):
                continue
            if kind == "press" and (not isinstance(ev, ClockRefused) or ev.color != blind):
                continue
            s.note(tr(f"engine.slip_{kind}", self.state.lang), now, SlipNoted(kind))
            if isinstance(ev, AnnounceMismatch):
                self._coach_mismatch(ev, now)
        if self.tactile is not None and self.tactile.mismatch and self._mirroring() and self._mirror_slip():
            s.note(tr("engine.slip_mirror", self.state.lang), now, SlipNoted("mirror"))
            self._tell_last_move(now)
        self._new = []

    def _mirroring(self) -> bool:
        """The blind player is to mirror the computer's last move on his pegs."""
        state = self.state
        game = state.game.game_moves
        return bool(game) and state.game.board_length("tactile") < len(game) and \
            self.state.board_at(len(game) - 1).turn == self.color

    def _mirror_slip(self) -> bool:
        """True the first time a mirror of the game's last half-move goes wrong (one slip per half-move)."""
        ply = self.state.game.plies
        if ply in self._mirror_slips:
            return False
        self._mirror_slips.add(ply)
        return True

    def _coach_mismatch(self, ev: AnnounceMismatch, now: float) -> None:
        state = self.state
        board = state.board_at(ev.ply - 1)
        placed = chess.Move.from_uci(ev.placed)
        if not board.is_legal(placed):
            return
        text = tr("engine.coach_mismatch", state.lang, placed=announce(board, placed, state.lang))
        state.say(now, text, "blind", "answer")

    def _coach_heard(self, now: float) -> None:
        """An announcement the table did not understand: why, and how the likely move is said."""
        heard, self._heard = self._heard, None
        if heard is None or not self.coaching:
            return
        state = self.state
        s = state.session
        if self.questions.question is not None:
            return      # the table asks: the question is the help
        since = heard.outcome
        if any(isinstance(ev, MoveMade) or (isinstance(ev, Announce) and ev.uci) for ev in since):
            return      # understood (an announcement not fitting the pegs is coached from its own event)
        noted = any(isinstance(ev, AnnounceUnclear) for ev in since)
        board = heard.board
        if board.turn == self.color or any(isinstance(ev, AnnounceIgnored) for ev in since):
            return      # not his move to announce: the table has said so
        u = understand(board, heard.text, state.lang, heard=True)
        if u.kind not in ("move", "correction", "unknown") or u.move is not None:
            return
        placed = self._placed(board)
        likely = placed or next((m for m in u.candidates if board.is_legal(m)), None)
        why = tr("engine.coach_no_words" if u.kind == "unknown" and not u.candidates else "engine.coach_no_fit",
                 state.lang)
        if likely is None:
            how = tr("engine.coach_form", state.lang, example=announce(board, _example(board), state.lang)) \
                if any(board.legal_moves) else ""
        else:
            key = "engine.coach_say_placed" if placed is not None else "engine.coach_say_candidate"
            how = tr(key, state.lang, move=announce(board, likely, state.lang))
        text = f"{why} {how}".strip()
        if not noted:
            s.note(text, now, SlipNoted("unclear"))
        state.say(now, text, "blind", "answer")
        state.show(now, text)

    def _placed(self, board: chess.Board) -> chess.Move | None:
        """The move on the pegs for the position ``board`` (placed, not yet made), if it is legal there."""
        tactile = self.state.game.moves("tactile")
        index = len(board.move_stack)
        if len(tactile) == index + 1 and list(tactile[:index]) == board.move_stack and board.is_legal(tactile[index]):
            return tactile[index]
        return None

    def _remind(self, now: float) -> None:
        """Coaching: the blind player's move is made but his clock not pressed for a while."""
        state = self.state
        if not self.coaching or state.game.time_control is None or not state.unpressed_own():
            self._unpressed = None
            return
        ply = state.game.plies
        if self._unpressed is None or self._unpressed[0] != ply:
            self._unpressed = (ply, now)
            return
        if ply not in self._reminded and now >= self._unpressed[1] + PRESS_REMINDER:
            self._reminded.add(ply)
            state.say(now, tr("engine.coach_press", state.lang), "blind", "answer")

    def _summary(self, now: float) -> None:
        """Coaching: after the game, the slips in one spoken summary (once)."""
        if self._summarized:
            return
        self._summarized = True
        if not self.coaching:
            return
        text = self.slips.text(self.state.lang)
        self.state.say(now, text, "blind", "answer")
        self.state.show(now, text)


def _is_take_back(text: str, lang: str) -> bool:
    """``text`` asks to take back a move (``engine.take_back_phrases``: phrases separated by "|")."""
    folded = " ".join(fold(text).split())
    phrases = [" ".join(fold(p).split()) for p in tr("engine.take_back_phrases", lang).split("|")]
    return any(p and p in folded for p in phrases)


def _example(board: chess.Board) -> chess.Move:
    """A legal move to show how moves are said: a piece move if there is one (caller ensures a legal move)."""
    moves = sorted(board.legal_moves, key=lambda m: m.uci())
    pieces = [m for m in moves if board.piece_type_at(m.from_square) not in (chess.PAWN, chess.KING)]
    return (pieces or moves)[0]
