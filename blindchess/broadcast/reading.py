"""One journal as the broadcast shows it: the game's PGN as it stands and the table's state for the arbiter.

A journal being written is read from a *copy* taken in one pass (:func:`read_game`), so the check
of its lines (:func:`blindchess.storage.journal.read_journal`) and the replay by the rules engine
(:meth:`blindchess.game.Session.load`, read-only) see the same bytes. A copy taken while the
program writes may end inside a unit: that unit was never acted on and is not applied (the
journal's guarantee), so the game read is the game as the table knew it at that moment.

A damaged journal (:func:`blindchess.storage.journal.verdict`) is served up to the half-move before the
first one the damage may affect, with the reader's messages in a PGN comment; the result is then
"*" (what came after the damage is not known) — never an invented move.

Every move carries ``[%clk]``: the mover's time after his press (:func:`blindchess.records.pgn.session_to_game`), and
for the newest move, made but not yet pressed, his time at the moment it was made.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.pgn

from ..adapters import journal_messages
from ..base import UserError, read_bytes, tr
from ..game import Claim, ClaimJudged, FlagFallen, MoveMade, Parting, Session
from ..language import write
from ..records import session_to_game
from ..storage import MAX_BYTES, read_journal, verdict

__all__ = ["ClaimRecord", "LiveGame", "TableReport", "journal_bytes", "read_game", "pgn_text"]

#: What a replay may raise on a line that does not fit the game (the export's reader catches the same).
_REPLAY_ERRORS = (ValueError, KeyError, TypeError, IndexError)


@dataclass(frozen=True)
class ClaimRecord:
    """A claim at the table (Art. 6.8, 9.2, 9.3, A.4): who, what, and the arbiter's judgment
    (``upheld`` None while none is recorded)."""

    color: chess.Color
    kind: str
    upheld: bool | None


@dataclass(frozen=True)
class TableReport:
    """What the arbiter needs to know of one table, as the journal has it.

    ``parting``: where a board parts from the game (D.2.9), ``proposal``: the ruling the rules
    engine proposes for it in plain words, ``proposal_kind`` that ruling's kind ("correct-board", "retrace",
    "none") and ``proposal_plies`` the half-moves it keeps; ``flags``: the sides whose flag fell (Art. 6.9);
    ``claims``: the claims made, in order; ``clocks``: the times left (White, Black; None without a
    time control) as of the journal's last entry, ``running``: whose clock ran then."""

    to_move: chess.Color
    result: str | None
    reason: str | None
    parting: Parting | None
    proposal: str | None
    proposal_kind: str | None
    proposal_plies: int
    flags: tuple[chess.Color, ...]
    claims: tuple[ClaimRecord, ...]
    draw_offer: chess.Color | None
    adjourned: bool
    sealed: bool
    clocks: tuple[float | None, float | None]
    running: chess.Color | None

    @property
    def needs_arbiter(self) -> bool:
        """The boards part (D.2.9) or a flag fell in a game still going on."""
        return self.parting is not None or (bool(self.flags) and self.result is None)


@dataclass(frozen=True)
class LiveGame:
    """One game as served: its PGN (``game``, cut before damage, and ``pgn`` its text), the half-moves written in the
    broadcast's language (``moves``, from ``start``), the table's state, and what is wrong with its
    journal (``damage``: the reader's messages, empty for a whole journal)."""

    path: Path
    game: chess.pgn.Game
    pgn: str
    start: chess.Board
    moves: tuple[str, ...]
    state: TableReport
    damage: tuple[str, ...]
    cut: bool

    @property
    def headers(self) -> chess.pgn.Headers:
        return self.game.headers

    @property
    def result(self) -> str:
        return self.game.headers.get("Result", "*")

    @property
    def round(self) -> str:
        return self.game.headers.get("Round", "?")


def pgn_text(game: chess.pgn.Game) -> str:
    """The game as PGN text: headers, moves with their ``[%clk]`` and comments, one blank line after."""
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return game.accept(exporter) + "\n\n"


def journal_bytes(path: Path, lang: str) -> bytes:
    """The journal's bytes in one pass: a regular file only (a pipe is never waited on), at most a journal's
    size. Raises :class:`~blindchess.base.errors.UserError`."""
    return read_bytes(path, lang, max_bytes=MAX_BYTES)


def read_game(path: Path, lang: str, workdir: Path, data: bytes | None = None) -> LiveGame:
    """The game in the journal ``path`` as it stands, its comments and the arbiter's texts in ``lang``.

    The journal's bytes (``data``, else read now: :func:`journal_bytes`) are copied into ``workdir`` first
    (see the module docstring). Raises
    :class:`~blindchess.base.errors.UserError` when the file holds no game (yet) or is no regular file,
    unreadable or larger than a journal may be; OSError when the copy cannot be written.
    """
    fd, name = tempfile.mkstemp(prefix="journal-", suffix=".jsonl", dir=workdir)
    os.close(fd)
    copy = Path(name)
    try:
        copy.write_bytes(journal_bytes(path, lang) if data is None else data)
        read = read_journal(copy)
        try:
            session = Session.load(copy)
        except UserError as exc:   # no game in it (yet): named by the journal's own name, not the copy's
            raise UserError(str(exc).replace(str(copy), str(path)), exc.exit_code) from exc
        except _REPLAY_ERRORS as exc:
            raise UserError(tr("records.broken_journal", lang, path=path.name,
                               error=f"{type(exc).__name__}: {exc}")) from exc
    finally:
        copy.unlink(missing_ok=True)
    game = session_to_game(session, lang)
    _clock_of_unpressed_move(game, session)
    facts = session.snapshot
    replayed = [m.uci() for m in facts.game_moves]
    result = verdict(read, replayed, facts.journal_problems)
    damage = tuple(journal_messages(result, Path(path.name), lang))
    keep = min(min(result.plies) - 1, len(replayed)) if result.plies else len(replayed)
    cut = bool(result.plies)     # half-moves after ``keep`` may be wrong or missing
    if damage:
        _mark_damage(game, keep, damage, lang, cut)
    start = facts.start
    return LiveGame(path, game, pgn_text(game), start, tuple(_written(start, facts.game_moves[:keep], lang)),
                    _table_state(session, lang), damage, cut)


def _clock_of_unpressed_move(game: chess.pgn.Game, session: Session) -> None:
    """The last move made but not yet pressed (D.2.4) gets the mover's time as it stood when the move was made
    — as an e-board broadcast reports a move the moment it is seen on the board; the press replaces it."""
    node = game.end()
    clock = session.clock
    if node.parent is None or node.clock() is not None or session.snapshot.result is not None \
            or clock.time_control is None:
        return
    mover = node.parent.board().turn
    made = next((ev for ev in reversed(session.events) if isinstance(ev, MoveMade)), None)
    if made is None or made.ply != session.snapshot.plies or clock.running != mover or not clock.ticking:
        return
    node.set_clock(clock.remaining(mover, made.t))


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


def _written(start: chess.Board, moves: Sequence[chess.Move], lang: str) -> list[str]:
    """The half-moves as a score in ``lang`` writes them (FIDE Laws, Appendix C)."""
    board = start.copy(stack=False)
    out: list[str] = []
    for move in moves:
        text = write(board, move, lang)
        board.push(move)
        out.append(text + ("#" if board.is_checkmate() else "+" if board.is_check() else ""))
    return out


def _table_state(session: Session, lang: str) -> TableReport:
    flags: list[chess.Color] = []
    claims: list[ClaimRecord] = []
    for ev in session.events:
        if isinstance(ev, FlagFallen):
            color = ev.color == "white"
            if color not in flags:
                flags.append(color)
        elif isinstance(ev, Claim):
            claims.append(ClaimRecord(ev.color == "white", ev.kind, None))
        elif isinstance(ev, ClaimJudged):
            judged = ClaimRecord(ev.color == "white", ev.kind, ev.upheld)
            if claims and claims[-1].upheld is None and claims[-1].color == judged.color:
                claims[-1] = judged
            else:
                claims.append(judged)
    facts = session.snapshot
    parting = facts.divergence
    proposal = kind = None
    plies = 0
    if parting is not None and facts.result is None:
        ruling = session.propose_ruling(lang)
        if ruling is not None:
            proposal, kind, plies = ruling.explain(lang), ruling.kind, len(ruling.moves)
    clock = session.clock
    at = facts.last_time
    times = tuple(None if clock.time_control is None else clock.remaining(c, at) for c in (chess.WHITE, chess.BLACK))
    running = clock.running if clock.ticking else None
    return TableReport(facts.to_move, facts.result, facts.result_reason, parting, proposal, kind, plies, tuple(flags),
                      tuple(claims), facts.draw_offer, facts.adjourned, facts.envelope_sealed,
                      (times[0], times[1]), running)
