"""One journal as the broadcast shows it, followed as it grows: the game's PGN and the table's state.

A journal is read whole the first time (:meth:`GameFollower.look`): from a *copy* of its bytes taken in
one pass, so the check of its lines (:func:`blindchess.storage.read_journal`, a stream: it keeps the game's
lines, not the file's junk) and the replay by the rules engine (:meth:`blindchess.game.Session.load`,
read-only) see the same bytes. A file that does not begin as a journal is refused from its first lines
(:func:`blindchess.storage.check_start`) and never read whole. A copy taken while the
program writes may end inside a unit: that unit was never acted on and is not applied (the journal's
guarantee), so the game read is the game as the table knew it at that moment.

From then on a change costs what its new lines cost: the units appended since the last look are
taken (:class:`blindchess.storage.JournalTail`, each line checked as the whole reading checks it),
replayed on the game as it stands (:meth:`blindchess.game.Session.follow`), the record brought up to
date for the half-moves they touch (:class:`blindchess.records.RecordBook`) and the PGN text written
again from the first of them on one board (:class:`.movetext.MoveText`). Whatever only a whole reading
can judge — a damaged line, a writer's ``cut-off`` line after a crash, a file that shrank or was
replaced, a line the replay cannot apply, a ruling that takes moves back — is read whole again.

A damaged journal (:func:`blindchess.storage.verdict`) is served up to the half-move before the first one
the damage may affect, with the reader's messages in a PGN comment; the result is then "*" (what came
after the damage is not known) — never an invented move.

Every move carries ``[%clk]``: the mover's time after his press (:mod:`blindchess.records`), and for the
newest move, made but not yet pressed, his time at the moment it was made. An adjourned game says so in a
comment on its last move (its result is "*"); the sealed move is in no journal and so on no page.

Each whole unit's time is kept (:meth:`GameFollower.offset_at`), so a follower of the same journal can be
held back by a delay: it reads the journal only up to the last unit old enough (``upto``).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tempfile
import time
from bisect import bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.pgn

from ..adapters import journal_messages
from ..base import UserError, os_error_text, tr
from ..game import MoveMade, Session
from ..records import RecordBook, session_to_game
from ..storage import MAX_BYTES, JournalTail, NotAJournal, TailUnit, as_of, check_start, read_journal, verdict
from .movetext import MoveText
from .report import ClaimRecord, TableReport, TableWatch

__all__ = ["ClaimRecord", "LiveGame", "TableReport", "GameFollower", "journal_bytes", "read_game", "pgn_text"]

#: What a replay may raise on a line that does not fit the game (the export's reader catches the same).
_REPLAY_ERRORS = (ValueError, KeyError, TypeError, IndexError)
#: Journal lines after which a whole reading judges the game again: moves taken back or set anew.
_REWRITES = frozenset({"move-withdrawn", "ruling", "ruling-override", "pgn-import"})
#: A table's clock reading at least this many seconds is the time of day (seconds since 1970), as the
#: window's clock is; smaller ones (scripts, tests) count from the game's own start.
_EPOCH = 1e9
_T = re.compile(rb'"t":(-?\d{1,16}(?:\.\d{1,16})?(?:[eE][-+]?\d{1,3})?)[,}]')
#: A whole line of a journal (a last line without its line end is not yet whole).
_LINE = re.compile(rb"[^\n]*\n")


@dataclass(frozen=True)
class LiveGame:
    """One game as served: its tag pairs and PGN text (cut before damage), the half-moves kept — in the
    broadcast's language (``moves``) and in standard algebraic notation (``sans``) from ``start`` —, the position
    after them (``fen``, ``last`` the last move), the table's state, what is wrong with the journal (``damage``:
    the reader's messages, empty for a whole journal; ``cut``: half-moves after the damage left out);
    ``changed``: when the journal last changed (seconds since 1970), ``clock_at``: the moment the clocks
    in ``state`` are as of."""

    path: Path
    headers: Mapping[str, str]
    pgn: str
    start: chess.Board
    moves: tuple[str, ...]
    sans: tuple[str, ...]
    fen: str
    last: chess.Move | None
    state: TableReport
    damage: tuple[str, ...]
    cut: bool
    changed: float
    clock_at: float

    @property
    def result(self) -> str:
        return self.headers.get("Result", "*")

    @property
    def round(self) -> str:
        return self.headers.get("Round", "?")

    @property
    def plies(self) -> int:
        return len(self.sans)


def pgn_text(game: chess.pgn.Game) -> str:
    """The game as PGN text: headers, moves with their ``[%clk]`` and comments, one blank line after."""
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return game.accept(exporter) + "\n\n"


def journal_bytes(path: Path, lang: str) -> bytes:
    """The journal's bytes in one pass: a regular file only (a pipe is never waited on), at most a journal's
    size. Raises :class:`~blindchess.base.errors.UserError`."""
    from ..base import read_bytes

    return read_bytes(path, lang, max_bytes=MAX_BYTES)


def read_game(path: Path, lang: str, workdir: Path, data: bytes | None = None) -> LiveGame:
    """The game in the journal ``path`` as it stands, its comments and the arbiter's texts in ``lang``
    (``data``: its bytes, else read now). Raises :class:`~blindchess.base.errors.UserError` when the file holds
    no game (yet) or is no regular file, unreadable or larger than a journal may be; OSError when the copy
    cannot be written."""
    follower = GameFollower(path, lang, workdir)
    if data is None:
        _journal_start(path, lang)
        data = journal_bytes(path, lang)
    follower.whole(data, os.stat(path))
    assert follower.game is not None
    return follower.game


class GameFollower:
    """One journal followed (module docstring): :attr:`game` as it stands, or :attr:`problem` while the file
    holds no game. ``workdir``: a private folder for the copies read; ``clock``: the wall clock."""

    def __init__(self, path: Path, lang: str, workdir: Path, *, clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self.lang = lang
        self.workdir = workdir
        self._clock = clock
        self.game: LiveGame | None = None
        self.problem: str | None = None
        #: How many times the journal was read whole, and how many looks took only new units (for the tests).
        self.whole_reads = 0
        self.tail_reads = 0
        self._session: Session | None = None
        self._tail: JournalTail | None = None
        self._ino: int | None = None
        self._digest = b""
        self._book = RecordBook(lang)
        self._text = MoveText(chess.Board(), lang)
        self._watch = TableWatch()
        # set by each whole reading, before the game is first published:
        self._damage: tuple[str, ...]
        self._keep: int
        self._cut: bool
        self._ends: list[int] = []             # the end of each whole line read, in the file
        self._walls: list[float] = []          # when it was written (seconds since 1970), never decreasing

    # -- looking ----------------------------------------------------------------------------------------
    def look(self, upto: int | None = None, *, settled: bool = False) -> bool:
        """Look at the journal (only its first ``upto`` bytes); True when the game changed. What goes wrong is
        kept in :attr:`problem` (the last game stays). ``settled``: the journal has been left alone for a while —
        a unit still not whole then was cut off by a crash, and is judged by a whole reading, as at a start."""
        try:
            if self._session is not None and self._tail is not None:
                # from the line end before the tail's offset: the tail goes on only where a line ended
                new, st = _read_from(self.path, self._tail.offset - 1, upto, self.lang)
                if st.st_ino == self._ino and st.st_size >= self._tail.offset and new[:1] == b"\n":
                    units = self._tail.take(new[1:])
                    followed = None if units is None else self._follow(units, st)
                    pending = units is not None and (st.st_size if upto is None else min(st.st_size, upto)) > \
                        self._tail.offset
                    if followed is not None and not (settled and pending):
                        return followed
            _journal_start(self.path, self.lang)      # no journal: refused from its first lines, never read whole
            data, st = _read_from(self.path, 0, upto, self.lang)
            if upto is not None and upto < st.st_size:
                data = as_of(data)          # the journal as it stood then, its length line too
            return self.whole(data, st)
        except UserError as exc:
            self.problem = exc.message.replace(str(self.path), self.path.name)
        except OSError as exc:
            self.problem = f"{self.path.name}: {os_error_text(exc, self.lang)}"
        return False

    def whole(self, data: bytes, st: os.stat_result) -> bool:
        """Read the journal's bytes ``data`` whole (``st``: the file as they were read); True when the game changed.
        Raises UserError when they hold no game, OSError when the copy cannot be written."""
        digest = hashlib.blake2b(data, digest_size=16).digest()
        self._ino = st.st_ino
        if digest == self._digest and self.game is not None:
            return False
        self.whole_reads += 1
        session, damage, keep, cut = _load(self.path, self.lang, self.workdir, data)
        self._digest = digest
        self._session, self._damage, self._keep, self._cut = session, damage, keep, cut
        # a last line still without its line end is read (when it checks) as the whole reading read it: the tail
        # goes on after its line end, which the next look finds there before it takes anything new
        self._tail = None if damage else JournalTail.after(data if data.endswith(b"\n") else data + b"\n")
        self._book, self._text, self._watch = RecordBook(self.lang), MoveText(session.snapshot.start, self.lang), TableWatch()
        self._times(data, st.st_mtime, session)
        self.problem = None
        return self._changed(st)

    def _changed(self, st: os.stat_result) -> bool:
        old = self.game
        self._publish(st)
        new = self.game
        assert new is not None
        return old is None or (old.pgn, old.state, old.moves) != (new.pgn, new.state, new.moves)

    def _follow(self, units: list[TailUnit], st: os.stat_result) -> bool | None:
        """Replay the whole units taken; True when the game changed, None when they need a whole reading."""
        session = self._session
        assert session is not None
        lines = [line for unit in units for line in unit.lines]
        if not lines:
            return False
        if any(ev.get("type") in _REWRITES for _, ev in lines):
            return None
        if session.follow(lines):
            return None                 # a line the replay cannot apply: damage, judged by a whole reading
        moves = session.snapshot.game_moves
        for _, ev in lines:
            if ev.get("type") == "move-made":
                ply, uci = ev.get("ply"), ev.get("uci")
                if not isinstance(ply, int) or not 0 < ply <= len(moves) or moves[ply - 1].uci() != uci:
                    return None         # the replay does not make the move the journal recorded
        self.tail_reads += 1
        self._digest = b""
        now = self._clock()
        for unit in units:
            self._time(unit.end, max(unit.t, now) if unit.t >= _EPOCH else now)
        return self._changed(st)

    # -- the journal's times (for a follower held back by a delay) --------------------------------------------
    def _times(self, data: bytes, mtime: float, session: Session) -> None:
        """The end of every whole line and when it was written: the table's own time where it is the time of day,
        else counted back from the file's last change."""
        self._ends, self._walls = [], []
        last_t = session.snapshot.last_time
        t = 0.0
        for line in _LINE.finditer(data):
            found = _T.search(data, line.start(), line.end())     # its "t" (the third field), never the next line's
            if found is not None:
                t = float(found.group(1))       # the pattern is a number float() reads (a huge one: inf)
            self._time(line.end(), t if t >= _EPOCH else mtime - max(0.0, last_t - t))

    def _time(self, end: int, wall: float) -> None:
        self._ends.append(end)
        self._walls.append(max(wall, self._walls[-1]) if self._walls else wall)     # never decreasing

    def offset_at(self, moment: float) -> int:
        """How many of the journal's bytes were written by ``moment`` (seconds since 1970), to a whole line."""
        i = bisect_right(self._walls, moment)
        return self._ends[i - 1] if i else 0

    # -- the game as served ---------------------------------------------------------------------------------
    def _publish(self, st: os.stat_result) -> None:
        session = self._session
        assert session is not None
        lang = self.lang
        book, text = self._book, self._text
        # from the first half-move whose record changed, and the last one written (its comment was the last move's)
        first = min(book.update(session), text.plies)
        if self._damage or session.snapshot.rulings:
            # The whole export: the half-moves before the damage, a ruling's retracted moves as side lines.
            game = session_to_game(session, lang)
            _clock_of_unpressed_move(game, session)
            if self._damage:
                _mark_damage(game, self._keep, self._damage, lang, self._cut)
            elif session.snapshot.adjourned and session.snapshot.result is None:
                node = game.end()
                node.comment = f"{node.comment} {tr('broadcast.pgn_adjourned', lang)}".strip()
            pgn = pgn_text(game)
            headers: Mapping[str, str] = dict(game.headers)
            keep = self._keep if self._damage else session.snapshot.plies
            text.update(0, "", [(ply.move, "") for ply in book.plies[:keep]])
        else:
            last = len(book.plies)
            entries = []
            for number in range(max(first, 1), last + 1):
                ply = book.plies[number - 1]
                comment = ply.comment() if number < last else _last_comment(ply, session, lang)
                entries.append((ply.move, comment))
            opening = " ".join(book.opening)
            if last == 0 and session.snapshot.adjourned and session.snapshot.result is None:
                opening = f"{opening} {tr('broadcast.pgn_adjourned', lang)}".strip()
            text.update(first, opening, entries)
            headers = dict(book.headers.headers)
            pgn = text.text(book.headers.headers, headers.get("Result", "*"))
        moves = text.board.move_stack
        clock_at = session.snapshot.last_time if session.snapshot.last_time >= _EPOCH else st.st_mtime
        self.game = LiveGame(self.path, headers, pgn, session.snapshot.start, tuple(text.written), tuple(text.sans),
                             text.board.fen(), moves[-1] if moves else None, self._watch.report(session, lang),
                             self._damage, self._cut, st.st_mtime, clock_at)


def _load(path: Path, lang: str, workdir: Path, data: bytes) -> tuple[Session, tuple[str, ...], int, bool]:
    """The game in ``data`` (a journal's bytes) replayed read-only, what is wrong with the journal, how many
    half-moves come before the damage and whether half-moves after them may be wrong or missing. Raises UserError when it holds no game, OSError when the copy cannot
    be written."""
    fd, name = tempfile.mkstemp(prefix="journal-", suffix=".jsonl", dir=workdir)
    os.close(fd)
    copy = Path(name)
    try:
        copy.write_bytes(data)
        try:
            read = read_journal(copy)
        except NotAJournal as exc:
            raise UserError(tr("session.journal_no_start", lang, path=path.name)) from exc
        try:
            session = Session.load(copy, read=read)
        except UserError as exc:   # no game in it (yet): named by the journal's own name, not the copy's
            raise UserError(str(exc).replace(str(copy), str(path)), exc.exit_code) from exc
        except _REPLAY_ERRORS as exc:
            raise UserError(tr("records.broken_journal", lang, path=path.name,
                               error=f"{type(exc).__name__}: {exc}")) from exc
    finally:
        copy.unlink()                      # made by mkstemp above: it is there
    replayed = [m.uci() for m in session.snapshot.game_moves]
    result = verdict(read, replayed, session.snapshot.journal_problems)
    damage = tuple(journal_messages(result, Path(path.name), lang))
    keep = min(min(result.plies) - 1, len(replayed)) if result.plies else len(replayed)
    return session, damage, keep, bool(result.plies)


def _journal_start(path: Path, lang: str) -> None:
    """UserError when the file does not begin as a journal (read only as far as that takes); OSError when it cannot
    be read (a pipe or a device is refused by the whole reading that follows)."""
    try:
        if stat.S_ISREG(os.stat(path).st_mode):
            check_start(path)
    except NotAJournal as exc:
        raise UserError(tr("session.journal_no_start", lang, path=path.name)) from exc


def _read_from(path: Path, offset: int, upto: int | None, lang: str) -> tuple[bytes, os.stat_result]:
    """The file's bytes from ``offset`` to its end (or to ``upto``), and the file as it was: a regular file only
    (a pipe is never waited on), at most a journal's size. Raises UserError or OSError."""
    # a flag the system does not have adds nothing (O_RDONLY is 0 everywhere)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", os.O_RDONLY) | getattr(os, "O_NOCTTY", os.O_RDONLY) | \
        getattr(os, "O_BINARY", os.O_RDONLY)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UserError(tr("broadcast.not_a_journal", lang, path=path.name))
        end = st.st_size if upto is None else min(st.st_size, upto)
        if end > MAX_BYTES:
            raise UserError(tr("files.too_big", lang, path=path.name, limit=MAX_BYTES // 1_000_000))
        if end <= offset:
            return b"", st
        os.lseek(fd, offset, os.SEEK_SET)
        with open(fd, "rb", closefd=False) as reader:     # a buffered read: as many bytes as asked, unless the file ended
            return reader.read(end - offset), st
    finally:
        os.close(fd)


def _unpressed_clock(session: Session) -> float | None:
    """The mover's time when he made the last move, while that move is made but not yet pressed (D.2.4) — as an
    e-board broadcast reports a move the moment it is seen on the board; the press replaces it."""
    clock = session.clock
    if session.snapshot.result is not None or clock.time_control is None or session.snapshot.plies == 0:
        return None
    mover = session.snapshot.start.turn if session.snapshot.plies % 2 == 1 else not session.snapshot.start.turn
    made = next((ev for ev in reversed(session.events) if isinstance(ev, MoveMade)), None)
    if made is None or made.ply != session.snapshot.plies or clock.running != mover or not clock.ticking:
        return None
    return clock.remaining(mover, made.t)


def _last_comment(ply: object, session: Session, lang: str) -> str:
    """The last half-move's comment: its record's, with the time of a move not yet pressed, and the adjournment."""
    from dataclasses import replace

    from ..records import PlyRecord

    assert isinstance(ply, PlyRecord)
    if ply.clock is None:
        unpressed = _unpressed_clock(session)
        if unpressed is not None:
            ply = replace(ply, clock=unpressed)
    if session.snapshot.adjourned and session.snapshot.result is None:
        ply = replace(ply, comments=(*ply.comments, tr("broadcast.pgn_adjourned", lang)))
    return ply.comment()


def _clock_of_unpressed_move(game: chess.pgn.Game, session: Session) -> None:
    """The whole export's last move with the mover's time when he made it, while it is not yet pressed."""
    unpressed = _unpressed_clock(session)     # None before the first move and once the move is pressed
    if unpressed is not None:
        game.end().set_clock(unpressed)


def _mark_damage(game: chess.pgn.Game, keep: int, damage: tuple[str, ...], lang: str, cut: bool) -> None:
    """Keep the first ``keep`` half-moves (everything after them dropped, side lines too) and say why."""
    node: chess.pgn.GameNode = game
    for _ in range(keep):
        node = node.variations[0]
    text = " ".join(damage)
    if cut:
        node.variations = []
        game.headers["Result"] = "*"
        game.headers.pop("Termination", None)
        text += " " + tr("broadcast.damage_kept", lang, plies=keep)
    node.comment = f"{node.comment} {text}".strip() if node.comment else text
