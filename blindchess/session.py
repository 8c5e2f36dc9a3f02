"""A game under Appendix D: two boards, two game scores, the clock (RULES.md §1).

Pure core (python-chess and the stdlib; notation/phonetic imported lazily).
Time is always passed in (``now``, float seconds); the session never reads a clock.
The only file it touches is its journal, through :mod:`blindchess.journal`.

Model
-----
* Two **boards**, each the sequence of moves actually made on it:
  ``"sighted"`` (the sighted player's board) and ``"tactile"`` (the visually
  impaired player's peg board). A move on a board is either the owner's own move
  or the mirror of the opponent's move. ``board(name)`` gives a ``chess.Board``
  (with its move stack), ``moves(name)`` the list.
* The **game**: ``game_moves`` — the moves *made* (D.2.3/D.2.5), in order.
* Two **game scores** as written: ``score("blind")`` and ``score("sighted")``
  (text as entered — notation in any language, braille transliteration or a
  spoken phrase), read with ``blindchess.notation`` so a written error stays
  visible (``score_read(who)``).
* The **clock** (:class:`blindchess.clock.Clock`), touches, announcements, draw
  offers, results, rulings — all as **events**.

Events
------
Every event is a plain ``dict`` with ``seq``, ``type`` and ``t``; events the
session derives from an input carry ``"derived": True``. An event the user
should hear or see carries ``message`` (in the session's language) and
``article`` (the RULES.md article, e.g. "D.2.3"). Events go to the journal
(fsynced) *before* subscribers (``subscribe(callback)``) are told.

Input events (journaled, replayed on reopen): ``session-start``,
``clock-start``, ``board-move``, ``board-move-rejected``, ``take-back``,
``announce``, ``press``, ``clock-pause``, ``clock-resume``, ``clock-set``,
``score``, ``touch``, ``draw-offer``, ``draw-answer``, ``resign``, ``result``,
``time-request``, ``flag``, ``ruling``, ``ruling-override``, ``pgn-import``,
``note``, ``reopened``, ``sealed-move``, ``envelope-opened``.

The sealed move of an adjournment (Guidelines I) is the one event with a secret:
``sealed-move`` carries ``public`` (the envelope) and ``hidden`` (the move as
written). The journal holds it whole; :attr:`events` and subscribers get it
without ``hidden`` (and with ``"sealed": True``) — also after :meth:`open` —
until ``open_envelope`` journals ``envelope-opened`` (which carries ``hidden``);
from then on the sealed-move event in :attr:`events` shows it too.

Derived events: ``move-made`` (ply, color, uci, san, text, message),
``move-withdrawn`` (a made move un-made by a correction before the press, D.2.8),
``mirror-needed`` (board, uci, san, text, message), ``mirrored``,
``placed`` (the blind player's placement waits for the announcement, D.2.3),
``announce-mismatch`` (announcement and tactile board disagree, D.2.3 —
message at once), ``announce-unclear``, ``announce-ignored``,
``correction-refused`` (D.2.8), ``clock-refused`` (D.2.4), ``clock`` (times after
a press), ``divergence`` (first ply where the boards part, squares, D.2.9),
``boards-agree``, ``score-deviation``, ``game-end``, ``journal-damaged``,
``question`` (D.2.1: an utterance that fits several moves, or one only after a
guess — nothing is played; ``message`` is the question to ask, ``candidates``
the moves as UCI, ranked, ``phrases`` how each is announced; see ``hear``).

API
---
Methods that change the game take ``now`` and return the input event (a dict);
refusals (``clock-refused``, ``announce-ignored``) are returned as derived
events and change nothing. Colours may be ``chess.WHITE``/``chess.BLACK`` or
"white"/"black"; squares an int or "e4"; moves a ``chess.Move`` or UCI text.
::

    Player(name, visually_impaired=False, assistant=None)
    Session.new(white, black, time_control=None, *, chess960=None, start_fen=None, lang="de",
                journal=None, now, auto_press=False, tactile_senses_pieces=False, headers=None)
        # time_control: TimeControl, its text ("90+30", "40/5400+30:1800+30") or None
        # journal: a path, True (a new file in paths.journal_dir()), or None (no journal);
        #          an existing non-empty file is refused (FileExistsError): use open()
        # auto_press: the app's clock is pressed as soon as a move is made (no D.2.8 window left)
        # tactile_senses_pieces: False = boards compared by occupancy only (peg boards)
    Session.open(path, now=None, *, count_closed_time=False)   # exact recovery, appends from then on
    Session.load(path)                                         # read-only replay (arbiter tools)
    Session.from_pgn(text, *, now, visually_impaired="black", lang="de", journal=None)

    s.board("sighted" | "tactile") -> chess.Board      s.moves(name) -> list[chess.Move]
    s.game_moves -> list[chess.Move]   s.game_board() -> chess.Board   s.to_move -> chess.Color
    s.score("blind" | "sighted") -> list[str]           s.score_read(who) -> ruling.ScoreRead
    s.events -> list[dict]   s.subscribe(cb) -> unsubscribe()
    s.divergence -> {"ply", "squares", "board"} | None   # board: the one that differs from the game, if known
    s.white, s.black, s.player(color), s.blind_color, s.is_blind(color), s.clock, s.time_control,
    s.start, s.lang, s.headers, s.result, s.result_reason, s.finished, s.draw_offer, s.touches,
    s.rulings, s.plies_pressed, s.last_time, s.journal_path, s.journal_problems

    s.start_clock(now)
    s.board_move(name, move, now)  (= s.sighted_move(move, now) / s.tactile_move(move, now))
    s.take_back(name, now)
    s.announce(text_or_move, now, *, correction=False)   s.correct(text_or_move, now)
    s.hear(text, now)          # any recognised utterance: move, correction, time request, draw, resign;
                               # a move that is not certain is asked about ("question"), never played (D.2.1)
    s.question -> dict | None  # the pending question: {"message", "candidates", "phrases", "correction"}
    s.answer_question(index, now)   # the player chose candidate ``index`` (0-based); hear() of a
                               # candidate's phrase or "ja"/"nein" answers too
    s.accept_decision(decision, now, *, text=None)  # a speech.dialogue.Decision made elsewhere
    s.press_clock(color, now)  # refused (D.2.4) unless that side's move has been made
    s.write(who, text, now, *, index=None)   # index: amend an existing entry
    s.touch(square, now, *, board="tactile", piece=None)
    s.offer_draw(color, now)   s.answer_draw(color, accept, now)   s.resign(color, now)
    s.set_result(result, now, *, reason="arbiter")
    s.request_time(now, *, by="blind") -> {"white": {"moves", "used", "remaining"}, "black": ..., "message"}
    s.pause(now)  s.resume(now, *, charge=False)  s.set_remaining(color, seconds, now)
    s.tick(now) -> list[dict]                       # flag fall detection
    s.propose_ruling(lang=None, *, force=False) -> Ruling | None   # None while the boards agree
    s.apply_ruling(ruling, now)                     # the arbiter accepts: boards, scores, clocks set
    s.override(moves, now, *, clocks=None, note="") # the arbiter decides otherwise
    s.import_moves(moves, now, *, clocks=None)      # continue a game (used by from_pgn)
    s.note(text, now, **fields)   s.close()   s.to_pgn_game() -> chess.pgn.Game
    s.seal_move(public, hidden, now, **fields) -> dict   # the public event (Guidelines I 1-2)
    s.open_envelope(now, **fields) -> dict               # Guidelines I 7: the sealed move made public
    s.envelope_sealed -> bool   s.sealed_move(*, reveal=False) -> dict | None   # reveal: the arbiter's check

Move completion: the sighted player's own move is made when it is on his board
(D.2.5); the blind player's when the tactile board shows it *and* it has been
announced (D.2.3), in either order. A move on a board that is not the owner's
own move is a mirror; after every board move both boards are compared ply by
ply (piece placement, or occupancy only when ``tactile_senses_pieces`` is
False) and the first ply where they part is reported (``divergence``).

Board/score names in rulings: board "a" = the sighted board with the sighted
player's score, board "b" = the tactile board with the blind player's score.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

import chess

from . import ruling as _ruling
from .clock import Clock, ClockError, TimeControl, format_time
from .i18n import tr

__all__ = ["Player", "Session", "BOARDS", "SCORES", "color_name"]

BOARDS = ("sighted", "tactile")
SCORES = ("blind", "sighted")

INPUT_TYPES = frozenset({
    "session-start", "clock-start", "board-move", "board-move-rejected", "take-back", "announce", "press",
    "clock-pause", "clock-resume", "clock-set", "score", "touch", "draw-offer", "draw-answer", "resign",
    "result", "time-request", "flag", "ruling", "ruling-override", "pgn-import", "note", "reopened",
    "sealed-move", "envelope-opened",
})


@dataclass(frozen=True)
class Player:
    """A player: name, whether visually impaired (uses the tactile board), assistant's name."""

    name: str
    visually_impaired: bool = False
    assistant: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> Player:
        return cls(str(d.get("name", "")), bool(d.get("visually_impaired", False)), d.get("assistant"))


def color_name(color: chess.Color) -> str:
    return "white" if color == chess.WHITE else "black"


def _color(value) -> chess.Color:
    if isinstance(value, bool):
        return value
    if value in ("white", "w", "White", "WHITE"):
        return chess.WHITE
    if value in ("black", "b", "Black", "BLACK"):
        return chess.BLACK
    raise ValueError(f"not a colour: {value!r}")


def _num(x: float) -> float | None:
    return None if x is None or math.isinf(x) else round(x, 3)


def _square(value) -> int:
    if isinstance(value, int):
        return value
    return chess.parse_square(str(value).strip().lower())


def _move(value) -> chess.Move:
    return value if isinstance(value, chess.Move) else chess.Move.from_uci(str(value))


class Session:
    """One game under Appendix D; see the module docstring."""

    # -- construction -----------------------------------------------------------

    def __init__(self, white: Player, black: Player, time_control: TimeControl | None, *, start: chess.Board,
                 lang: str = "de", now: float = 0.0, auto_press: bool = False,
                 tactile_senses_pieces: bool = False, chess960_number: int | None = None,
                 headers: dict | None = None) -> None:
        self.white = white
        self.black = black
        self.time_control = time_control
        self.start = start.copy(stack=False)
        self.lang = lang
        self.auto_press = auto_press
        self.tactile_senses_pieces = tactile_senses_pieces
        self.chess960_number = chess960_number
        self.headers = dict(headers or {})
        if white.visually_impaired and not black.visually_impaired:
            self.blind_color: chess.Color | None = chess.WHITE
        elif black.visually_impaired:
            self.blind_color = chess.BLACK
        else:
            self.blind_color = None
        self.clock = Clock(time_control, now, start_ply=0)
        self.created = now
        self._boards = {name: self.start.copy(stack=False) for name in BOARDS}
        self._keys = {name: [_ruling.placement_key(self.start)] for name in BOARDS}
        self._game: list[chess.Move] = []
        self._pressed = 0
        self._announced: dict | None = None
        self._scores: dict[str, list[str]] = {w: [] for w in SCORES}
        self._score_reads: dict[str, _ruling.ScoreRead | None] = {w: None for w in SCORES}
        self._divergence: dict | None = None
        self._flags_reported: set[bool] = set()
        self._draw_offer: chess.Color | None = None
        self.result: str | None = None
        self.result_reason: str | None = None
        self.events: list[dict] = []
        self.rulings: list[dict] = []
        self.touches: list[dict] = []
        self.callback_errors: list[str] = []
        self._subscribers: list[Callable[[dict], None]] = []
        self._seq = 0
        self._journal = None
        self.journal_path: Path | None = None
        self.journal_problems: list[tuple[int, str]] = []
        self._replaying = False
        self._outbox: list[dict] = []
        self._last_t = now
        self._sealed: dict[int, dict] = {}  # seq -> the whole sealed-move event, hidden part included
        self._opened: set[int] = set()      # seqs of sealed moves whose envelope has been opened
        self._dialogue = None               # speech.dialogue.Dialogue: the pending question (D.2.1)
        self._question: dict | None = None

    @classmethod
    def new(cls, white: Player, black: Player, time_control: TimeControl | str | None = None, *,
            chess960: int | None = None, start_fen: str | None = None, lang: str = "de",
            journal: Path | str | bool | None = None, now: float, auto_press: bool = False,
            tactile_senses_pieces: bool = False, headers: dict | None = None) -> Session:
        """Start a game (journaled from its first line when ``journal`` is given)."""
        from .errors import UserError
        if isinstance(time_control, str):
            try:
                time_control = TimeControl.parse(time_control)
            except ValueError as exc:
                raise UserError(tr("session.bad_time_control", lang, text=time_control)) from exc
        try:
            start = _start_board(chess960, start_fen)
        except ValueError as exc:
            raise UserError(tr("session.bad_start", lang, value=chess960 if chess960 is not None else start_fen)) from exc
        s = cls(white, black, time_control, start=start, lang=lang, now=now, auto_press=auto_press,
                tactile_senses_pieces=tactile_senses_pieces, chess960_number=chess960, headers=headers)
        if journal:
            from . import journal as _journal
            path = _journal.new_path(white.name, black.name) if journal is True else Path(journal)
            if path.exists() and path.stat().st_size > 0:
                raise FileExistsError(f"journal {path} already holds a game; use Session.open")
            s._open_journal(path)
        s._do("session-start", now, **s._start_fields())
        return s

    def _start_fields(self) -> dict:
        from . import __version__
        return {
            "white": self.white.to_dict(), "black": self.black.to_dict(),
            "time_control": str(self.time_control) if self.time_control else None,
            "start_fen": self.start.fen(), "chess960": self.start.chess960,
            "chess960_number": self.chess960_number, "lang": self.lang,
            "blind": None if self.blind_color is None else color_name(self.blind_color),
            "auto_press": self.auto_press, "tactile_senses_pieces": self.tactile_senses_pieces,
            "headers": self.headers, "version": __version__,
        }

    @classmethod
    def open(cls, path: Path | str, now: float | None = None, *, count_closed_time: bool = False) -> Session:
        """Reopen a journaled game exactly; damaged lines are reported in ``journal_problems``.

        A clock that was running when the journal ends is stopped at the last
        recorded moment; with ``now`` it runs on from ``now`` — the time the game
        was closed is not counted unless ``count_closed_time`` (the arbiter's
        choice). Without ``now`` it stays paused until ``resume(now)``.
        Raises :class:`blindchess.errors.UserError` when the file is no journal.
        """
        path = Path(path)
        s = cls.load(path)
        read_problems = s.journal_problems
        s._open_journal(path)
        if read_problems:
            lines = [n for n, _ in read_problems]
            s._do("note", s._last_t, text="journal-damaged", lines=lines)
            from .plural import plural

            s._derive("journal-damaged", s._last_t, lines=lines, message=plural(
                len(lines), "session.journal_damaged_one", "session.journal_damaged", s.lang,
                lines=", ".join(map(str, lines)), path=path))
            s._flush()
        if s.clock.ticking and s.result is None:
            last = s._last_t
            if now is None:
                s._do("reopened", last, closed_at=last, reopened_at=None, counted=False)
            else:
                s._do("reopened", now, closed_at=last, reopened_at=now, counted=bool(count_closed_time))
        elif now is not None:
            s._last_t = now
        return s

    @classmethod
    def load(cls, path: Path | str) -> Session:
        """The game rebuilt from its journal, read-only (nothing is written; ``close`` not needed).

        Damaged lines are listed in ``journal_problems``. Raises UserError for a file that is no journal.
        """
        from . import journal as _journal
        from .errors import UserError
        path = Path(path)
        try:
            read = _journal.read_journal(path)
        except OSError as exc:
            raise UserError(tr("session.journal_unreadable", None, path=path, error=exc.strerror or exc)) from exc
        start = next((e for e in read.events if e.get("type") == "session-start"), None)
        if start is None:
            raise UserError(tr("session.journal_no_start", None, path=path))
        problems = list(read.problems)
        try:
            s = cls._from_start_event(start)
            s._replaying = True
            s._record_input(start)
            for line, ev in zip(read.lines, read.events):
                if ev is start or ev.get("derived") or ev.get("type") not in INPUT_TYPES:
                    continue
                if ev.get("type") == "session-start":
                    continue
                s._seq = max(s._seq, int(ev.get("seq", s._seq + 1)))
                ev = dict(ev, seq=s._seq)
                try:
                    s._record_input(ev)
                except (ValueError, KeyError, TypeError, IndexError, AssertionError, AttributeError):
                    # A line that does not fit the game (edited by hand?): reported, skipped.
                    if s.events and s.events[-1] is ev:
                        s.events.pop()
                    problems.append((line, "inapplicable"))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:   # e.g. a start_fen that is no text
            raise UserError(tr("session.journal_no_start", None, path=path)) from exc
        finally:
            if "s" in locals():
                s._replaying = False
        s.journal_problems = sorted(problems)
        s.journal_path = path
        return s

    @property
    def last_time(self) -> float:
        """The time of the latest event (where a reopened game's clock was stopped)."""
        return self._last_t

    @classmethod
    def _from_start_event(cls, ev: dict) -> Session:
        tc = TimeControl.parse(ev["time_control"]) if ev.get("time_control") else None
        start = chess.Board(ev["start_fen"], chess960=bool(ev.get("chess960")))
        return cls(Player.from_dict(ev["white"]), Player.from_dict(ev["black"]), tc, start=start,
                   lang=ev.get("lang", "de"), now=float(ev.get("t", 0.0)), auto_press=bool(ev.get("auto_press")),
                   tactile_senses_pieces=bool(ev.get("tactile_senses_pieces")),
                   chess960_number=ev.get("chess960_number"), headers=ev.get("headers") or {})

    @classmethod
    def from_pgn(cls, text: str, *, now: float, visually_impaired: str | None = "black", lang: str = "de",
                 journal: Path | str | bool | None = None) -> Session:
        """Continue a game from PGN text (see :func:`blindchess.pgn.session_from_pgn`)."""
        from .pgn import session_from_pgn
        return session_from_pgn(text, now=now, visually_impaired=visually_impaired, lang=lang, journal=journal)

    def _open_journal(self, path: Path) -> None:
        from . import journal as _journal
        self._journal = _journal.JournalWriter(path)
        self.journal_path = Path(path)

    def close(self) -> None:
        """Close the journal (the game can be reopened with :meth:`open`)."""
        if self._journal is not None:
            self._journal.close()

    # -- events ---------------------------------------------------------------

    def subscribe(self, callback: Callable[[dict], None]) -> Callable[[], None]:
        """Call ``callback(event)`` for every new event; returns a function that unsubscribes."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            if callback in self._subscribers:
                self._subscribers.remove(callback)
        return unsubscribe

    def _event(self, type_: str, now: float, fields: dict, derived: bool) -> dict:
        self._seq += 1
        ev = {"seq": self._seq, "type": type_, "t": now}
        if derived:
            ev["derived"] = True
        ev.update(fields)
        return ev

    def _do(self, type_: str, now: float, **fields) -> dict:
        """Record an input event (journal + fsync first), apply it, then deliver everything."""
        ev = self._event(type_, now, fields, False)
        if self._journal is not None and not self._replaying:
            try:
                self._journal.append(ev)
            except OSError as exc:  # nothing is applied that the journal does not hold
                self._seq -= 1
                from .errors import UserError
                raise UserError(tr("session.journal_write_failed", self.lang, path=self.journal_path,
                                   error=exc.strerror or exc)) from exc
        self._record_input(ev)
        self._flush()
        return ev

    def _record_input(self, ev: dict) -> None:
        if ev["type"] == "sealed-move":
            # Guidelines I: the sealed move stays in the journal and here, never in the public list.
            self._sealed[int(ev["seq"])] = ev
            ev = _without_hidden(ev)
        self.events.append(ev)
        self._outbox.append(ev)
        self._last_t = max(self._last_t, float(ev.get("t", self._last_t)))
        apply = getattr(self, "_apply_" + ev["type"].replace("-", "_"), None)
        if apply is not None:
            apply(ev)
        if self._replaying:
            self._outbox.clear()

    def _derive(self, type_: str, now: float, **fields) -> dict:
        ev = self._event(type_, now, fields, True)
        self.events.append(ev)
        if not self._replaying:
            self._outbox.append(ev)
        return ev

    def _flush(self) -> None:
        out, self._outbox = self._outbox, []
        if self._replaying:
            return
        if self._journal is not None:
            derived = [e for e in out if e.get("derived")]
            for e in derived:
                self._journal.append(e, sync=False)
            if derived:
                self._journal.sync()
        for ev in out:
            for cb in list(self._subscribers):
                try:
                    cb(ev)
                except Exception as exc:  # noqa: BLE001 - a failing listener must not break the game
                    self.callback_errors.append(f"{type(exc).__name__}: {exc}")

    # -- state ----------------------------------------------------------------

    def board(self, name: str) -> chess.Board:
        """The position on board ``name`` ("sighted" | "tactile"), with its move stack (a copy)."""
        return self._boards[self._board_name(name)].copy()

    def moves(self, name: str) -> list[chess.Move]:
        return list(self._boards[self._board_name(name)].move_stack)

    @property
    def game_moves(self) -> list[chess.Move]:
        """The moves made (D.2.3 / D.2.5), in order."""
        return list(self._game)

    def game_board(self) -> chess.Board:
        board = self.start.copy(stack=False)
        for m in self._game:
            board.push(m)
        return board

    @property
    def to_move(self) -> chess.Color:
        return self.start.turn if len(self._game) % 2 == 0 else not self.start.turn

    @property
    def plies_pressed(self) -> int:
        return self._pressed

    def score(self, who: str) -> list[str]:
        """The game score ``who`` ("blind" | "sighted") as written."""
        return list(self._scores[self._score_name(who)])

    def score_read(self, who: str) -> _ruling.ScoreRead:
        """The score as understood (moves up to the first entry that cannot be read)."""
        who = self._score_name(who)
        if self._score_reads[who] is None:
            self._score_reads[who] = _ruling.read_score(self._scores[who], self.start, self.lang)
        return self._score_reads[who]

    @property
    def divergence(self) -> dict | None:
        """``{"ply", "squares", "board"}`` — the first ply where the boards part — or None.

        ``board`` names the board whose move at that ply differs from the move
        made in the game ("sighted" / "tactile"), None when that cannot be told.
        """
        return dict(self._divergence) if self._divergence else None

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def draw_offer(self) -> chess.Color | None:
        return self._draw_offer

    def player(self, color: chess.Color) -> Player:
        return self.white if color == chess.WHITE else self.black

    def is_blind(self, color: chess.Color) -> bool:
        return self.blind_color is not None and color == self.blind_color

    @staticmethod
    def _board_name(name: str) -> str:
        if name in ("a", "sighted"):
            return "sighted"
        if name in ("b", "tactile"):
            return "tactile"
        raise ValueError(f"no board {name!r}")

    @staticmethod
    def _score_name(who: str) -> str:
        if who in ("blind", "b", "tactile"):
            return "blind"
        if who in ("sighted", "a"):
            return "sighted"
        raise ValueError(f"no score {who!r}")

    def _owner_board(self, color: chess.Color) -> str:
        """The board on which ``color`` makes his own moves."""
        return "tactile" if self.is_blind(color) else "sighted"

    def _other(self, name: str) -> str:
        return "tactile" if name == "sighted" else "sighted"

    # -- words ------------------------------------------------------------------

    def _announce_text(self, board: chess.Board, move: chess.Move) -> str:
        """What the app says for a move (D.2.1): phonetic, else the language's notation, else SAN."""
        try:
            from . import phonetic
            return phonetic.announce(board, move, self.lang)
        except Exception:  # noqa: BLE001 - parallel module not there yet
            pass
        try:
            from . import notation
            return notation.write(board, move, self.lang)
        except Exception:  # noqa: BLE001
            return board.san(move)

    def _square_words(self, square: int) -> str:
        try:
            from . import phonetic
            return phonetic.square_name(square, self.lang)
        except Exception:  # noqa: BLE001
            return chess.square_name(square)

    def _color_words(self, color: chess.Color) -> str:
        return tr(f"session.{color_name(color)}", self.lang)

    def _understand(self, board: chess.Board, text: str) -> tuple[str, chess.Move | None, str, str | None]:
        """(kind, move, message, request) for an utterance or typed move in ``board``."""
        message = ""
        try:
            from . import phonetic
        except ImportError:
            phonetic = None
        if phonetic is not None:
            try:
                u = phonetic.understand(board, text, self.lang)
                if u.kind != "unknown" or u.move is not None:
                    return u.kind, u.move, u.message or "", getattr(u, "request", None)
                message = u.message or ""
            except Exception:  # noqa: BLE001 - fall back to notation
                pass
        move, problem, msg = _ruling.read_entry(board, text, self.lang)
        if move is not None:
            return "move", move, "", None
        return "unknown", None, message or msg, None

    # -- clock --------------------------------------------------------------------

    def start_clock(self, now: float) -> dict:
        """Start the clock of the side to move."""
        return self._do("clock-start", now, color=color_name(self.to_move))

    def _apply_clock_start(self, ev: dict) -> None:
        if self.clock.running is None:
            self.clock.start(_color(ev["color"]), ev["t"])

    def press_clock(self, color, now: float) -> dict:
        """``color`` presses his clock; refused (D.2.4) unless his move has been made."""
        color = _color(color)
        made = len(self._game)
        if self.clock.paused:
            return self._refuse_press(color, now, "session.clock_paused")
        if made != self._pressed + 1 or self._mover(made - 1) != color:
            return self._refuse_press(color, now, "session.clock_refused")
        return self._do("press", now, color=color_name(color), ply=made)

    def _refuse_press(self, color: chess.Color, now: float, key: str) -> dict:
        ev = self._derive("clock-refused", now, color=color_name(color), article="D.2.4",
                          message=tr(key, self.lang, color=self._color_words(color)))
        self._flush()
        return ev

    def _apply_press(self, ev: dict) -> None:
        color = _color(ev["color"])
        try:
            snap = self.clock.press(color, ev["t"])
        except ClockError:
            return
        self._pressed = int(ev.get("ply", self._pressed + 1))
        if self._draw_offer is not None and self._draw_offer != color:
            self._draw_offer = None  # an offer not answered before the reply lapses (Art. 9.1 b)
        self._derive("clock", ev["t"], ply=self._pressed, white=_num(snap.remaining[0]),
                     black=_num(snap.remaining[1]), move_time=round(snap.move_time, 3))
        self._check_flag(color, ev["t"], derived=True)

    def _mover(self, index: int) -> chess.Color:
        return self.start.turn if index % 2 == 0 else not self.start.turn

    def pause(self, now: float) -> dict:
        return self._do("clock-pause", now)

    def _apply_clock_pause(self, ev: dict) -> None:
        self.clock.pause(ev["t"])

    def resume(self, now: float, *, charge: bool = False) -> dict:
        """Restart the clock; ``charge`` books the paused time to the running side."""
        return self._do("clock-resume", now, charge=bool(charge))

    def _apply_clock_resume(self, ev: dict) -> None:
        self.clock.resume(ev["t"], charge=bool(ev.get("charge")))

    def set_remaining(self, color, seconds: float, now: float) -> dict:
        return self._do("clock-set", now, color=color_name(_color(color)), seconds=float(seconds))

    def _apply_clock_set(self, ev: dict) -> None:
        color = _color(ev["color"])
        self.clock.set_remaining(color, float(ev["seconds"]), ev["t"])
        self._flags_reported.discard(color)

    def _apply_reopened(self, ev: dict) -> None:
        closed = float(ev["closed_at"])
        if not self.clock.ticking:
            return
        self.clock.pause(closed)
        if ev.get("reopened_at") is not None:
            self.clock.resume(float(ev["reopened_at"]), charge=bool(ev.get("counted")))

    def tick(self, now: float) -> list[dict]:
        """Check for a fallen flag (Art. 6.9, D.2.10 e); returns the new events."""
        before = len(self.events)
        if self.clock.running is not None and self.result is None:
            for color in (chess.WHITE, chess.BLACK):
                if color not in self._flags_reported and self.clock.flag_fallen(color, now):
                    self._do("flag", now, color=color_name(color))
        return self.events[before:]

    def _apply_flag(self, ev: dict) -> None:
        self._check_flag(_color(ev["color"]), ev["t"], derived=False, force=True)

    def _check_flag(self, color: chess.Color, now: float, *, derived: bool, force: bool = False) -> None:
        if color in self._flags_reported:
            return
        if not force and self.clock.flag_time(color, now) is None:
            return
        self._flags_reported.add(color)
        key = "session.flag_sighted" if not self.is_blind(color) and self.blind_color is not None else "session.flag"
        self._derive("flag-fallen", now, color=color_name(color), article="D.2.10 e",
                     message=tr(key, self.lang, color=self._color_words(color)))

    def request_time(self, now: float, *, by: str = "blind") -> dict:
        """Moves completed and time used by both players — told only on request (D.2.10 d)."""
        info = {}
        for color in (chess.WHITE, chess.BLACK):
            info[color_name(color)] = {
                "moves": self.clock.moves_completed(color),
                "used": round(self.clock.used(color, now), 3),
                "remaining": _num(self.clock.remaining(color, now)),
            }
        words = []
        for color in (chess.WHITE, chess.BLACK):
            d = info[color_name(color)]
            moves = tr("session.moves_one" if d["moves"] == 1 else "session.moves_many", self.lang, n=d["moves"])
            words.append(tr("session.time_info", self.lang, color=self._color_words(color), moves=moves,
                            used=format_time(d["used"]), remaining=format_time(d["remaining"])))
        message = " ".join(words)
        self._do("time-request", now, by=by, article="D.2.10 d", message=message, **info)
        return {**info, "message": message}

    # -- moves on the boards --------------------------------------------------------

    def sighted_move(self, move, now: float) -> dict:
        return self.board_move("sighted", move, now)

    def tactile_move(self, move, now: float) -> dict:
        return self.board_move("tactile", move, now)

    def board_move(self, name: str, move, now: float) -> dict:
        """A move actually made on board ``name`` (own move or mirror)."""
        name = self._board_name(name)
        move = _move(move)
        board = self._boards[name]
        replaces = False
        if not board.is_legal(move) and name == "tactile" and self._pending_own_tactile() is not None:
            # The blind player moved the placed piece on again before the move was made (D.2.3).
            last = board.move_stack[-1]
            combined = chess.Move(last.from_square, move.to_square, move.promotion)
            before = board.copy()
            before.pop()
            if before.is_legal(combined):
                move, replaces = combined, True
        if not replaces and not board.is_legal(move):
            return self._do("board-move-rejected", now, board=name, uci=move.uci(), article="Art. 7",
                            message=tr("session.board_move_illegal", self.lang, board=tr(f"session.board_{name}", self.lang),
                                       move=move.uci()))
        if replaces:
            before = board.copy()
            before.pop()
            san = before.san(move)
            index = len(board.move_stack) - 1
        else:
            san = board.san(move)
            index = len(board.move_stack)
        mover = self._mover(index)
        role = "own" if self._owner_board(mover) == name else "mirror"
        return self._do("board-move", now, board=name, uci=move.uci(), san=san, ply=index + 1, role=role,
                        replaces=replaces)

    def _pending_own_tactile(self) -> int | None:
        """Index of the blind player's own placement on the tactile board that is not yet made."""
        board = self._boards["tactile"]
        index = len(board.move_stack) - 1
        if index < 0 or self.blind_color is None:
            return None
        if self._mover(index) != self.blind_color or index != len(self._game):
            return None
        return index

    def _apply_board_move_rejected(self, ev: dict) -> None:
        return None

    def _apply_board_move(self, ev: dict) -> None:
        name = ev["board"]
        board = self._boards[name]
        move = chess.Move.from_uci(ev["uci"])
        if ev.get("replaces"):
            before = board.copy()
            before.pop()
            if not before.is_legal(move):
                raise ValueError(f"illegal replacement {move.uci()}")
            board.pop()
            self._keys[name].pop()
        elif not board.is_legal(move):
            raise ValueError(f"illegal move {move.uci()}")
        board.push(move)
        self._keys[name].append(_ruling.placement_key(board))
        index = len(board.move_stack) - 1
        now = ev["t"]
        if ev.get("role") == "own" and index == len(self._game):
            if name == "sighted":
                self._make(index, move, now, "D.2.5", text=None)
            else:
                self._evaluate_blind(now)
        elif index < len(self._game):
            if self._game[index] == move:
                self._derive("mirrored", now, board=name, ply=index + 1)
        self._check_divergence(now)

    def take_back(self, name: str, now: float) -> dict | None:
        """The last move on board ``name`` was taken back (e.g. a wrong mirror undone)."""
        name = self._board_name(name)
        if not self._boards[name].move_stack:
            return None
        return self._do("take-back", now, board=name, ply=len(self._boards[name].move_stack))

    def _apply_take_back(self, ev: dict) -> None:
        name = ev["board"]
        if not self._boards[name].move_stack:
            return
        self._boards[name].pop()
        self._keys[name].pop()
        self._check_divergence(ev["t"])

    def _make(self, index: int, move: chess.Move, now: float, article: str, text: str | None) -> None:
        """The move of ply ``index`` is made: record it, ask for the mirror, check the game's end."""
        board = self.game_board()
        mover = board.turn
        san = board.san(move)
        spoken = self._announce_text(board, move)
        self._game.append(move)
        self._announced = None
        if self._question is not None:
            self._clear_question()  # a made move answers every question about it
        key = "session.move_made_blind" if article == "D.2.3" else "session.move_made"
        self._derive("move-made", now, ply=index + 1, color=color_name(mover), uci=move.uci(), san=san,
                     text=text or spoken, article=article,
                     message=tr(key, self.lang, color=self._color_words(mover), move=text or spoken))
        other = self._other(self._owner_board(mover))
        other_board = self._boards[other]
        if len(other_board.move_stack) > index:
            if other_board.move_stack[index] == move:
                self._derive("mirrored", now, board=other, ply=index + 1)
        else:
            self._derive("mirror-needed", now, board=other, ply=index + 1, uci=move.uci(), san=san, text=spoken,
                         message=tr(f"session.mirror_on_{other}", self.lang, move=spoken))
        board.push(move)
        outcome = board.outcome(claim_draw=False)
        if outcome is not None:
            reason = outcome.termination.name.lower()
            self._end(outcome.result(), reason, now, derived=True)
        if self.auto_press and self.result is None and self._pressed == index and not self.clock.paused:
            try:
                snap = self.clock.press(mover, now)
            except ClockError:
                return
            self._pressed = index + 1
            self._derive("clock", now, ply=self._pressed, white=_num(snap.remaining[0]),
                         black=_num(snap.remaining[1]), move_time=round(snap.move_time, 3))
            self._check_flag(mover, now, derived=True)

    # -- announcing (D.2.3, D.2.8) -------------------------------------------------

    def announce(self, what, now: float, *, correction: bool = False) -> dict:
        """The blind player announces his move (voice text, typed text or a ``chess.Move``)."""
        if self.blind_color is None:
            return self._ignored(now, "session.announce_no_blind")
        made = len(self._game)
        last_own_unpressed = (made > 0 and self._mover(made - 1) == self.blind_color and self._pressed < made)
        last_own_pressed = (made > 0 and self._mover(made - 1) == self.blind_color and self._pressed >= made)
        next_is_blind = self._mover(made) == self.blind_color
        if next_is_blind and not correction:
            index = made
        elif last_own_unpressed:
            index = made - 1  # D.2.8: a correction before the opponent's clock is started
            correction = True
        elif last_own_pressed and (correction or not next_is_blind):
            board = self.start.copy(stack=False)
            for m in self._game[: made - 1]:
                board.push(m)
            kind, move, _, _ = self._understand(board, what) if isinstance(what, str) else ("move", what, "", None)
            if move is not None and move == self._game[made - 1]:
                return self._ignored(now, "session.announce_repeat")
            if not correction and kind != "correction":
                return self._ignored(now, "session.announce_not_turn")
            # D.2.8: too late once the opponent's clock has been started.
            return self._do("announce", now, text=str(what), uci=move.uci() if move else None, ply=made,
                            correction=True, refused=True)
        elif next_is_blind:
            index = made
        else:
            return self._ignored(now, "session.announce_not_turn")
        board = self.start.copy(stack=False)
        for m in self._game[:index]:
            board.push(m)
        if isinstance(what, chess.Move):
            move, message, text = what, "", self._announce_text(board, what) if board.is_legal(what) else what.uci()
            if not board.is_legal(move):
                move, message = None, tr("session.entry_illegal", self.lang, written=what.uci())
        else:
            text = str(what)
            kind, move, message, _ = self._understand(board, text)
            if kind == "correction":
                correction = True
            if move is not None and not board.is_legal(move):
                move = None
        return self._do("announce", now, text=text, uci=move.uci() if move else None, ply=index + 1,
                        correction=correction, problem=None if move else (message or "unreadable"))

    def correct(self, what, now: float) -> dict:
        """A slip of the tongue corrected (D.2.8): allowed until the opponent's clock is started."""
        return self.announce(what, now, correction=True)

    def _ignored(self, now: float, key: str) -> dict:
        ev = self._derive("announce-ignored", now, message=tr(key, self.lang))
        self._flush()
        return ev

    def _apply_announce(self, ev: dict) -> None:
        now = ev["t"]
        if ev.get("refused"):
            self._derive("correction-refused", now, article="D.2.8",
                         message=tr("session.correction_refused", self.lang, text=ev.get("text", "")))
            return
        index = int(ev["ply"]) - 1
        if ev.get("uci") is None:
            self._derive("announce-unclear", now, text=ev.get("text", ""), article="D.2.1",
                         message=tr("session.announce_unclear", self.lang, text=ev.get("text", ""),
                                    why=ev.get("problem") or ""))
            return
        if index == len(self._game) - 1:
            # D.2.8: the move is un-made; the corrected announcement is checked again.
            if self._game[index].uci() == ev["uci"]:
                return
            withdrawn = self._game.pop()
            self._derive("move-withdrawn", now, ply=index + 1, uci=withdrawn.uci(), article="D.2.8",
                         message=tr("session.move_withdrawn", self.lang, text=ev.get("text", "")))
        self._announced = {"ply": index + 1, "uci": ev["uci"], "text": ev.get("text", "")}
        self._evaluate_blind(now)
        self._check_divergence(now)

    def _evaluate_blind(self, now: float) -> None:
        """D.2.3: made when the tactile board shows the move and it has been announced."""
        index = len(self._game)
        if self.blind_color is None or self._mover(index) != self.blind_color:
            return
        tactile = self._boards["tactile"]
        placed = tactile.move_stack[index] if len(tactile.move_stack) > index else None
        if len(tactile.move_stack) > index + 1:
            placed = None  # the tactile board is ahead: not a placement of this ply
        ann = self._announced if self._announced and self._announced["ply"] == index + 1 else None
        if placed is None:
            return
        if ann is None:
            self._derive("placed", now, ply=index + 1, uci=placed.uci(), article="D.2.3")
            return
        if ann["uci"] == placed.uci():
            self._make(index, placed, now, "D.2.3", text=ann["text"])
            return
        board = self.game_board()
        said = chess.Move.from_uci(ann["uci"])
        try:
            said_words = self._announce_text(board, said)
        except Exception:  # noqa: BLE001
            said_words = ann["text"]
        shown = self._announce_text(tactile_before(tactile, index), placed)
        self._derive("announce-mismatch", now, ply=index + 1, announced=ann["uci"], placed=placed.uci(),
                     article="D.2.3", message=tr("session.announce_mismatch", self.lang, said=said_words, shown=shown))

    def hear(self, text: str, now: float) -> dict:
        """Any utterance of the blind player: a move, a correction, a request, a draw offer, resignation.

        Nothing is played on a guess (D.2.1): the decision is
        :class:`blindchess.speech.dialogue.Dialogue`'s. When the utterance fits
        several moves, or one only after a guess (``phonetic.understand`` gives no
        move but candidates, or a move that is not certain), a derived ``question``
        event is emitted — ``message`` (the question, ``understanding.message``),
        ``candidates`` (UCI, ranked), ``phrases`` — and returned; nothing is played.
        The answer completes it: a candidate's phrase or "ja" (one candidate) through
        ``hear``, or :meth:`answer_question`; "nein" cancels.
        """
        dialogue = self._get_dialogue() if self.blind_color is not None else None
        if dialogue is not None:
            asking = dialogue.asking
            try:
                decision = dialogue.hear(self._hearing_board(), [text])
            except Exception:  # noqa: BLE001 - the move language failed: the plain path below decides
                decision = None
            if decision is not None:
                if decision.action in ("play", "ask"):
                    return self._accept(decision, now, text=text, answer=asking)
                if asking and not dialogue.asking:  # "nein": the question is withdrawn
                    return self._accept(decision, now, text=text, answer=True)
        return self._hear_plain(text, now)

    @property
    def question(self) -> dict | None:
        """The pending question (D.2.1): ``{"message", "candidates", "phrases", "ply", "correction"}`` or None."""
        return None if self._question is None else dict(self._question)

    def answer_question(self, index: int, now: float) -> dict:
        """The player chose candidate ``index`` (0-based, as in the question's ``candidates``).

        Announces that move (D.2.3; a correction if the question was about one, D.2.8).
        Without a pending question, or for an index out of range, nothing happens
        (an ``announce-ignored`` event says so).
        """
        q = self._question
        if q is None or not 0 <= int(index) < len(q["candidates"]):
            return self._ignored(now, "session.no_question" if q is None else "session.no_such_answer")
        move = chess.Move.from_uci(q["candidates"][int(index)])
        self._clear_question()
        return self.announce(move, now, correction=bool(q.get("correction")))

    def accept_decision(self, decision, now: float, *, text: str | None = None) -> dict:
        """Act on a :class:`blindchess.speech.dialogue.Decision` made elsewhere (the app's voice input).

        "play": the move is announced (D.2.3); "ask": a ``question`` event (nothing
        played, answer with :meth:`answer_question`); "command": as :meth:`hear`;
        "say"/"ignore": a ``heard`` event with the explanation.
        """
        return self._accept(decision, now, text=text, answer=text is None)

    def _get_dialogue(self):
        if self._dialogue is None:
            try:  # pure: python-chess and phonetic only
                from .speech.dialogue import Dialogue
            except ImportError:
                return None
            self._dialogue = Dialogue(self.lang, max_options=9)
        return self._dialogue

    def _hearing_board(self) -> chess.Board:
        """The position an announcement refers to (before the blind player's unpressed move: D.2.8)."""
        made = len(self._game)
        if self.blind_color is not None and self._mover(made) != self.blind_color and made > 0 \
                and self._mover(made - 1) == self.blind_color and self._pressed < made:
            board = self.start.copy(stack=False)
            for m in self._game[: made - 1]:
                board.push(m)
            return board
        return self.game_board()

    def _clear_question(self) -> None:
        self._question = None
        if self._dialogue is not None:
            self._dialogue.cancel()

    def _accept(self, decision, now: float, *, text: str | None, answer: bool) -> dict:
        u = getattr(decision, "understanding", None)
        kind = getattr(u, "kind", None)
        said = text if text is not None else getattr(u, "text", "") or ""
        if decision.action == "play" and decision.move is not None:
            pending = self._question
            correction = kind == "correction" or bool(answer and pending and pending.get("correction"))
            self._clear_question()
            if self.blind_color is None:
                return self._hear_plain(said, now)
            if text is not None and getattr(u, "move", None) == decision.move:
                return self.announce(text, now, correction=correction)  # the move as he said it (D.2.1)
            return self.announce(decision.move, now, correction=correction)  # "ja" / a key
        if decision.action == "ask":
            return self._ask(decision, now, said, kind)
        if decision.action == "command" and said:
            return self._hear_plain(said, now)
        if answer and self._question is not None and not (self._dialogue and self._dialogue.asking):
            self._question = None  # "nein": withdrawn
        message = decision.speech or tr("session.heard_unknown", self.lang, text=said)
        ev = self._derive("heard", now, text=said, kind=kind or "unknown", request=getattr(u, "request", None),
                          message=message)
        self._flush()
        return ev

    def _ask(self, decision, now: float, text: str, kind: str | None) -> dict:
        """D.2.1: ask instead of playing — a ``question`` event with the ranked candidates."""
        board = self._hearing_board()
        moves = [m for m in decision.candidates if board.is_legal(m)]
        if not moves:
            return self._hear_plain(text, now)
        u = decision.understanding
        correction = kind == "correction"
        if self.blind_color is not None and self._mover(len(self._game)) != self.blind_color:
            correction = True  # about his own move not yet pressed (D.2.8)
        # the question: what phonetic says (understanding.message), else the dialogue's own words
        message = (getattr(u, "message", "") if kind in ("move", "correction") else "") or decision.speech
        self._question = {"message": message, "question": decision.speech, "text": text,
                          "candidates": [m.uci() for m in moves],
                          "sans": [board.san(m) for m in moves],
                          "phrases": [self._announce_text(board, m) for m in moves],
                          "ply": len(board.move_stack) + 1, "correction": correction}
        ev = self._derive("question", now, article="D.2.1", **self._question)
        self._flush()
        return ev

    def _hear_plain(self, text: str, now: float) -> dict:
        board = self.game_board()
        kind, move, message, request = self._understand(board, text)
        if self.blind_color is not None and kind in ("move", "correction"):
            return self.announce(text, now, correction=kind == "correction")
        if kind == "request" and request in ("time", "moves"):
            return self.request_time(now)
        if kind == "draw_offer" and self.blind_color is not None:
            return self.offer_draw(self.blind_color, now)
        if kind == "resign" and self.blind_color is not None:
            return self.resign(self.blind_color, now)
        if kind == "castle_intent":
            return self.note(text, now, kind="castle-intent")
        ev = self._derive("heard", now, text=text, kind=kind, request=request,
                          message=message or tr("session.heard_unknown", self.lang, text=text))
        self._flush()
        return ev

    # -- divergence --------------------------------------------------------------------

    def _compare_key(self, key: tuple) -> tuple:
        return key if self.tactile_senses_pieces else (key[6] | key[7],)

    def _check_divergence(self, now: float) -> None:
        ks, kt = self._keys["sighted"], self._keys["tactile"]
        first = None
        for i in range(min(len(ks), len(kt))):
            if self._compare_key(ks[i]) != self._compare_key(kt[i]):
                first = i
                break
        old = self._divergence
        if first is None:
            self._divergence = None
            if old is not None:
                self._derive("boards-agree", now, article="D.2.9", message=tr("session.boards_agree", self.lang))
            return
        sa = _board_at(self._boards["sighted"], first)
        sb = _board_at(self._boards["tactile"], first)
        squares = [chess.square_name(s) for s in _ruling.diff_squares(sa, sb, not self.tactile_senses_pieces)]
        wrong = self._wrong_board(first - 1)
        if old is not None and old["ply"] == first:
            self._divergence.update(squares=squares, board=wrong)
            return
        self._divergence = {"ply": first, "squares": squares, "board": wrong}
        ref = _ruling.move_ref(self.start, first - 1, self.lang)
        message = tr("session.divergence", self.lang, ref=ref, squares=", ".join(squares))
        if wrong is not None:
            message += " " + tr("session.divergence_board", self.lang, board=tr(f"session.board_{wrong}", self.lang))
        self._derive("divergence", now, ply=first, squares=squares, board=wrong, article="D.2.9", message=message)

    def _wrong_board(self, index: int) -> str | None:
        """The board whose move ``index`` differs from the move made in the game (None: unknown/both)."""
        if not 0 <= index < len(self._game):
            return None
        made = self._game[index]
        differ = [name for name in BOARDS
                  if len(self._boards[name].move_stack) <= index or self._boards[name].move_stack[index] != made]
        return differ[0] if len(differ) == 1 else None

    # -- game scores ------------------------------------------------------------------

    def write(self, who: str, text: str, now: float, *, index: int | None = None) -> dict:
        """Add (or, with ``index``, amend) an entry of score ``who`` as written."""
        who = self._score_name(who)
        entries = self._scores[who]
        if index is None:
            index = len(entries)
        if not 0 <= index <= len(entries):
            raise ValueError(f"no entry {index}")
        current = self.score_read(who)
        board = self.start.copy(stack=False)
        readable_prefix = current.moves[:index] if len(current.moves) >= index else None
        uci = problem = None
        if readable_prefix is not None:
            for m in readable_prefix:
                board.push(m)
            hint = _ruling.guess_hint(entries + [str(text)])
            move, problem, _ = _ruling.read_entry(board, text, self.lang, hint=hint)
            uci = move.uci() if move else None
        else:
            problem = "after-problem"
        return self._do("score", now, who=who, index=index, text=str(text), uci=uci, problem=problem)

    def _apply_score(self, ev: dict) -> None:
        who, index = ev["who"], int(ev["index"])
        if not isinstance(ev["text"], str):   # a damaged or edited journal line (a score entry is text)
            raise TypeError(f"score text {ev['text']!r}")
        entries = self._scores[who]
        if index == len(entries):
            entries.append(ev["text"])
            sr = self._score_reads.get(who)
            if sr is not None and sr.problem is None and len(sr.moves) == index:
                if ev.get("uci"):
                    sr.written.append(ev["text"])
                    sr.moves.append(chess.Move.from_uci(ev["uci"]))
                else:
                    sr.written.append(ev["text"])
                    sr.problem = _ruling.ScoreProblem(index, ev["text"], ev.get("problem") or "unreadable",
                                                      tr(f"session.entry_{ev.get('problem') or 'unreadable'}",
                                                         self.lang, written=ev["text"]))
            else:
                self._score_reads[who] = None
        elif index < len(entries):
            entries[index] = ev["text"]
            self._score_reads[who] = None
        game_move = self._game[index].uci() if index < len(self._game) else None
        if ev.get("uci") is None or (game_move is not None and game_move != ev.get("uci")):
            self._derive("score-deviation", ev["t"], who=who, index=index, text=ev["text"], uci=ev.get("uci"),
                         game=game_move, problem=ev.get("problem"),
                         message=tr("session.score_deviation", self.lang, score=tr(f"session.score_{who}", self.lang),
                                    ref=_ruling.move_ref(self.start, index, self.lang), written=ev["text"]))

    # -- touches, draws, results --------------------------------------------------------

    def touch(self, square, now: float, *, board: str = "tactile", piece: str | None = None) -> dict:
        """A touched piece: a lifted peg on the tactile board (D.2.2) or a touch by the sighted player (D.2.10 e)."""
        name = self._board_name(board)
        sq = _square(square)
        if piece is None:
            p = self._boards[name].piece_at(sq)
            piece = p.symbol() if p else None
        toucher = self.blind_color if name == "tactile" and self.blind_color is not None else (
            not self.blind_color if self.blind_color is not None else self._boards[name].turn)
        own = piece is not None and (piece.isupper() == (toucher == chess.WHITE))
        words = tr(f"session.piece_{'w' if piece.isupper() else 'b'}{piece.lower()}", self.lang) if piece else \
            tr("session.piece_none", self.lang)
        key = "session.touch_tactile" if name == "tactile" else "session.touch_sighted"
        return self._do("touch", now, board=name, square=chess.square_name(sq), piece=piece,
                        by=color_name(toucher), own=own, ply=len(self._game),
                        article="D.2.2" if name == "tactile" else "D.2.10 e",
                        message=tr(key, self.lang, piece=words, square=self._square_words(sq)))

    def _apply_touch(self, ev: dict) -> None:
        self.touches.append(ev)

    def offer_draw(self, color, now: float) -> dict:
        color = _color(color)
        return self._do("draw-offer", now, color=color_name(color),
                        message=tr("session.draw_offered", self.lang, color=self._color_words(color)))

    def _apply_draw_offer(self, ev: dict) -> None:
        self._draw_offer = _color(ev["color"])

    def answer_draw(self, color, accept: bool, now: float) -> dict:
        return self._do("draw-answer", now, color=color_name(_color(color)), accept=bool(accept))

    def _apply_draw_answer(self, ev: dict) -> None:
        if self._draw_offer is None or self._draw_offer == _color(ev["color"]):
            return
        self._draw_offer = None
        if ev.get("accept"):
            self._end("1/2-1/2", "agreement", ev["t"], derived=True)
        else:
            self._derive("draw-declined", ev["t"], message=tr("session.draw_declined", self.lang))

    def resign(self, color, now: float) -> dict:
        return self._do("resign", now, color=color_name(_color(color)))

    def _apply_resign(self, ev: dict) -> None:
        color = _color(ev["color"])
        self._end("0-1" if color == chess.WHITE else "1-0", "resignation", ev["t"], derived=True)

    def set_result(self, result: str, now: float, *, reason: str = "arbiter") -> dict:
        if result not in ("1-0", "0-1", "1/2-1/2", "*"):
            raise ValueError(result)
        return self._do("result", now, result=result, reason=reason)

    def _apply_result(self, ev: dict) -> None:
        if ev["result"] == "*":
            self.result = None
            return
        self._end(ev["result"], ev.get("reason", "arbiter"), ev["t"], derived=True)

    def _end(self, result: str, reason: str, now: float, *, derived: bool) -> None:
        if self.result is not None:
            return
        self.result = result
        self.result_reason = reason
        if self.clock.running is not None:
            self.clock.stop(now)
        self._derive("game-end", now, result=result, reason=reason,
                     message=tr("session.game_end", self.lang, result=result,
                                reason=tr(f"session.reason_{reason}", self.lang)))

    def note(self, text: str, now: float, **fields) -> dict:
        """A free note of the arbiter or the app in the journal."""
        return self._do("note", now, text=str(text), **fields)

    # -- adjournment: the sealed move (Guidelines I) --------------------------------------

    def seal_move(self, public: dict, hidden: dict, now: float, **fields) -> dict:
        """Journal a sealed move (Guidelines I 1-2): ``public`` (the envelope) for everyone,
        ``hidden`` (the move as written) kept in the journal only.

        Subscribers and :attr:`events` get the event without ``hidden`` (with
        ``"sealed": True``) until :meth:`open_envelope`; this also holds after
        :meth:`open`. Returns that public event.
        """
        ev = self._do("sealed-move", now, text="adjourned", public=dict(public), hidden=dict(hidden),
                      article="Guidelines I", **fields)
        return _without_hidden(ev)

    def _apply_sealed_move(self, ev: dict) -> None:
        return None

    @property
    def envelope_sealed(self) -> bool:
        """Whether a sealed move is waiting for its envelope to be opened."""
        return any(seq not in self._opened for seq in self._sealed)

    def sealed_move(self, *, reveal: bool = False) -> dict | None:
        """The latest sealed-move event (None if nothing was sealed).

        Without ``reveal``: as a player may see it (``hidden`` only once the envelope
        is opened). ``reveal=True`` gives the whole event even before the opening —
        for the arbiter's own checks at resumption (point 7, 8: commitment, legality);
        never show that on the responder's side before :meth:`open_envelope`.
        """
        if not self._sealed:
            return None
        seq = max(self._sealed)
        ev = self._sealed[seq]
        return dict(ev) if reveal or seq in self._opened else _without_hidden(ev)

    def open_envelope(self, now: float, **fields) -> dict:
        """The envelope is opened (Guidelines I 7): the sealed move becomes public.

        Journals ``envelope-opened`` with the ``hidden`` part; from then on the
        sealed-move event in :attr:`events` carries it too. Raises ValueError when no
        envelope is closed.
        """
        waiting = [seq for seq in self._sealed if seq not in self._opened]
        if not waiting:
            raise ValueError("no sealed move to open")
        seq = max(waiting)
        return self._do("envelope-opened", now, text="envelope-opened", sealed_seq=seq,
                        hidden=dict(self._sealed[seq]["hidden"]), article="Guidelines I 7", **fields)

    def _apply_envelope_opened(self, ev: dict) -> None:
        seq = int(ev["sealed_seq"])
        if seq not in self._sealed:
            raise KeyError(seq)
        self._opened.add(seq)
        full = self._sealed[seq]
        for i, old in enumerate(self.events):
            if old.get("seq") == seq and old.get("type") == "sealed-move":
                self.events[i] = dict(full)
                break

    # -- the ruling (D.2.9) -------------------------------------------------------------

    def propose_ruling(self, lang: str | None = None, *, force: bool = False) -> _ruling.Ruling | None:
        """The D.2.9 ruling for the present boards and scores (None when the boards agree, unless ``force``)."""
        if self._divergence is None and not force:
            return None
        rows = [(s.ply, s.remaining[0], s.remaining[1]) for s in self.clock.history]
        return _ruling.rule(self.score_read("sighted"), self.score_read("blind"),
                            self._boards["sighted"], self._boards["tactile"], start=self.start,
                            clock_history=rows, lang=lang or self.lang,
                            occupancy_only=() if self.tactile_senses_pieces else ("b",),
                            labels=("sighted", "tactile"))

    def apply_ruling(self, r: _ruling.Ruling, now: float) -> dict:
        """The arbiter accepts the ruling: the session sets boards (and clocks) and journals it."""
        return self._do("ruling", now, kind=r.kind, moves=[m.uci() for m in r.moves], agreed_plies=r.agreed_plies,
                        before=[m.uci() for m in self._game],
                        fix_boards=["sighted" if b == "a" else "tactile" for b in r.fix_boards],
                        clocks=r.clocks, explanation=r.explain(self.lang), article="D.2.9",
                        message=r.explain(self.lang))

    def _legal_line(self, moves: Iterable) -> list[chess.Move]:
        """``moves`` as a game from the start position; ValueError at the first illegal one."""
        line = [_move(m) for m in moves]
        board = self.start.copy(stack=False)
        for m in line:
            if not board.is_legal(m):
                raise ValueError(f"illegal move {m.uci()}")
            board.push(m)
        return line

    def override(self, moves: Iterable, now: float, *, clocks: dict | None = None, note: str = "") -> dict:
        """The arbiter decides otherwise: both boards to ``moves`` from the start, clocks as given."""
        moves = self._legal_line(moves)
        return self._do("ruling-override", now, moves=[m.uci() for m in moves], clocks=clocks, note=note,
                        before=[m.uci() for m in self._game],
                        article="D.2.9", message=tr("session.override", self.lang, note=note))

    def _apply_ruling(self, ev: dict) -> None:
        kind = ev.get("kind")
        if kind == "none":  # the boards agree: nothing to set (the scores may still need a correction)
            self.rulings.append(ev)
            return
        self._set_game([chess.Move.from_uci(u) for u in ev["moves"]], ev["t"])
        n = len(ev["moves"])
        if kind == "retrace":
            for who in SCORES:
                del self._scores[who][n:]
                self._score_reads[who] = None
            clocks = ev.get("clocks")
            if clocks and clocks.get("restore"):
                try:
                    self.clock.restore(int(clocks["ply"]), ev["t"])
                except ClockError:
                    pass
            self._pressed = n
            self._sync_clock_side(ev["t"])
        else:
            # The clock was not touched: presses stay, but the last move made can still be pressed.
            self._pressed = max(min(self._pressed, n), n - 1)
        self.rulings.append(ev)
        self._announced = None

    def _apply_ruling_override(self, ev: dict) -> None:
        moves = [chess.Move.from_uci(u) for u in ev["moves"]]
        self._set_game(moves, ev["t"])
        n = len(moves)
        for who in SCORES:
            del self._scores[who][n:]
            self._score_reads[who] = None
        self._pressed = n
        clocks = ev.get("clocks") or {}
        for color in (chess.WHITE, chess.BLACK):
            value = clocks.get(color_name(color))
            if value is not None:
                self.clock.set_remaining(color, float(value), ev["t"])
        self._sync_clock_side(ev["t"])
        self.rulings.append(ev)
        self._announced = None

    def _sync_clock_side(self, now: float) -> None:
        """After a retrace the clock of the side to move runs."""
        side = self.to_move
        if self.clock.running is not None and self.clock.running != side and self.result is None:
            paused = self.clock.paused
            self.clock.stop(now)
            self.clock.start(side, now)
            if paused:
                self.clock.pause(now)

    def _set_game(self, moves: list[chess.Move], now: float) -> None:
        self._game = list(moves)
        for name in BOARDS:
            b = self.start.copy(stack=False)
            keys = [_ruling.placement_key(b)]
            for m in moves:
                b.push(m)
                keys.append(_ruling.placement_key(b))
            self._boards[name] = b
            self._keys[name] = keys
        self._check_divergence(now)

    # -- import ---------------------------------------------------------------------------

    def import_moves(self, moves: Iterable, now: float, *, clocks: list[tuple[int, float, float]] | None = None,
                     source: str = "pgn") -> dict:
        """Set the game to ``moves`` (both boards, both scores as English SAN), e.g. from a PGN."""
        moves = self._legal_line(moves)
        return self._do("pgn-import", now, moves=[m.uci() for m in moves],
                        clocks=[list(c) for c in clocks] if clocks else None, source=source)

    def _apply_pgn_import(self, ev: dict) -> None:
        moves = [chess.Move.from_uci(u) for u in ev["moves"]]
        self._set_game(moves, ev["t"])
        board = self.start.copy(stack=False)
        sans = []
        for m in moves:
            sans.append(board.san(m))
            board.push(m)
        for who in SCORES:
            self._scores[who] = list(sans)
            self._score_reads[who] = None
        self._pressed = len(moves)
        self.clock.load_history([tuple(r) for r in (ev.get("clocks") or [])], len(moves), self.start.turn,
                                ev["t"])

    # -- export -----------------------------------------------------------------------------

    def to_pgn_game(self):
        """The game as a ``chess.pgn.Game`` (English SAN, [%clk]/[%emt], deviations, touches, rulings)."""
        from .pgn import session_to_game
        return session_to_game(self)


def _without_hidden(ev: dict) -> dict:
    """A sealed-move event as anyone may see it before the envelope is opened."""
    public = {k: v for k, v in ev.items() if k != "hidden"}
    public["sealed"] = True
    return public


def _board_at(board: chess.Board, plies: int) -> chess.Board:
    b = board.copy()
    while len(b.move_stack) > plies:
        b.pop()
    return b


def tactile_before(board: chess.Board, index: int) -> chess.Board:
    """``board`` as it stood before its move ``index``."""
    return _board_at(board, index)


def _start_board(chess960: int | None, start_fen: str | None) -> chess.Board:
    if chess960 is not None:
        if not 0 <= int(chess960) <= 959:
            raise ValueError(f"Chess960 number {chess960} out of range 0-959")
        return chess.Board.from_chess960_pos(int(chess960))
    if start_fen:
        board = chess.Board(start_fen, chess960=True)
        if not board.has_chess960_castling_rights():
            board.chess960 = False
        return board
    return chess.Board()
