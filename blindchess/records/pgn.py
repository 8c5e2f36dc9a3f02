"""A session as standard PGN, and a PGN as a session to continue (FIDE Laws D.2.7, D.2.9 in the comments).

Export (:func:`session_to_game`, also ``Session.to_pgn_game()``): English SAN,
the seven-tag roster plus ``TimeControl`` (PGN form, see :mod:`blindchess.laws.clock`),
``SetUp``/``FEN`` and ``Variant "Chess960"`` where needed, and the non-standard
tag ``VisuallyImpaired`` ("White" / "Black"). Each move carries ``[%clk h:mm:ss]``
(the mover's time after his press; for a move that ended the game, mate or
stalemate, no press follows: the time left when the clock stopped) and
``[%emt h:mm:ss]`` (the time the move took); comments, in the session's language
or the one asked for, record where a game score differs
from the game (entry as written), touches (D.2.2, D.2.10 e) and rulings (D.2.9);
moves a ruling took back appear as a side variation marked as retracted.

Import (:func:`read_pgn`, continued by ``Session.from_pgn``): players, time control, start position and the
moves; ``[%clk]`` comments become the clock history, so a retrace under D.2.9
can still restore earlier times. Both scores start as the PGN's moves.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

import chess
import chess.pgn

from ..base import UserError, tr
from ..language import ScoreReading, read_score
from ..laws import Clock, ClockSnapshot, TimeControl

__all__ = ["session_to_game", "session_to_pgn", "read_pgn", "PgnGame", "GameRecord"]


class Named(Protocol):
    """A player as the export reads him: his name."""

    @property
    def name(self) -> str: ...


class TouchRecord(Protocol):
    """A touch as the game records it (D.2.2, D.2.10 e)."""

    @property
    def board(self) -> str: ...
    @property
    def square(self) -> str: ...
    @property
    def piece(self) -> str | None: ...
    @property
    def ply(self) -> int: ...


class RulingRecord(Protocol):
    """A ruling or the arbiter's override as the game records it (D.2.9): the game from the start
    after it (``moves``) and before it (``before``), UCI."""

    @property
    def moves(self) -> Sequence[str]: ...
    @property
    def before(self) -> Sequence[str]: ...


class GameFacts(Protocol):
    """What the export reads of a game as it stands (the rules engine's :class:`blindchess.game.GameSnapshot`)."""

    @property
    def headers(self) -> Mapping[str, str]: ...
    @property
    def white(self) -> Named: ...
    @property
    def black(self) -> Named: ...
    @property
    def time_control(self) -> TimeControl | None: ...
    @property
    def blind_color(self) -> chess.Color | None: ...
    @property
    def start(self) -> chess.Board: ...
    @property
    def lang(self) -> str: ...
    @property
    def touches(self) -> Sequence[TouchRecord]: ...
    @property
    def rulings(self) -> Sequence[RulingRecord]: ...
    @property
    def result(self) -> str | None: ...
    @property
    def result_reason(self) -> str | None: ...
    @property
    def game_moves(self) -> Sequence[chess.Move]: ...


class GameRecord(Protocol):
    """What the export reads of a game (the rules engine's :class:`blindchess.game.Session` has it all): its
    facts, its clock, its two scores as understood."""

    @property
    def snapshot(self) -> GameFacts: ...
    @property
    def clock(self) -> Clock: ...

    def score_read(self, who: Literal["blind", "sighted"]) -> ScoreReading: ...


def _clock_by_ply(session: GameRecord) -> dict[int, ClockSnapshot]:
    return {snap.ply: snap for snap in session.clock.history if snap.ply > 0}


def _touch_text(ev: TouchRecord, lang: str) -> str:
    """A touch (D.2.2, D.2.10 e) in ``lang`` from the record's fields (square as in notation)."""
    piece = ev.piece
    words = tr(f"session.piece_{'w' if piece.isupper() else 'b'}{piece.lower()}", lang) \
        if isinstance(piece, str) and piece else tr("session.piece_none", lang)
    key = "session.touch_tactile" if ev.board == "tactile" else "session.touch_sighted"
    return tr(key, lang, piece=words, square=ev.square)


def _ruling_text(ev: RulingRecord, lang: str) -> str:
    """A ruling (D.2.9) in ``lang`` from the record's fields: what was set, from which move on. An override
    (no ``kind``) is the arbiter's own decision."""
    kind = getattr(ev, "kind", None)
    if kind is None:
        return tr("records.pgn_override", lang, plies=len(ev.moves), note=str(getattr(ev, "note", "") or ""))
    key = {"retrace": "records.pgn_ruling_retrace", "correct-board": "records.pgn_ruling_correct"}.get(
        str(kind), "records.pgn_ruling_none")
    return tr(key, lang, plies=len(ev.moves))


def _last_move_clock(session: GameRecord, mover: chess.Color) -> tuple[float, float] | None:
    """(time left, time used) for the move that ended the game without a press (mate, stalemate), from the
    stopped clock; None while the game goes on or when the clock has no time control."""
    clock = session.clock
    if session.snapshot.result is None or clock.running is not None or not clock.history:
        return None
    last = clock.history[-1]
    now = last.time
    remaining = clock.remaining(mover, now)
    if math.isinf(remaining):
        return None
    return remaining, max(0.0, clock.used(mover, now) - last.used[0 if mover == chess.WHITE else 1])


def session_to_game(session: GameRecord, lang: str | None = None) -> chess.pgn.Game:
    """The session as a ``chess.pgn.Game``; see the module docstring. Comments in ``lang`` (default: the
    session's language); touches and rulings recorded in another language are told again from their fields."""
    facts = session.snapshot
    game = chess.pgn.Game()
    h = game.headers
    extra = dict(facts.headers)
    h["Event"] = extra.pop("Event", "?")
    h["Site"] = extra.pop("Site", "?")
    h["Date"] = extra.pop("Date", "????.??.??")
    h["Round"] = extra.pop("Round", "?")
    h["White"] = facts.white.name or "?"
    h["Black"] = facts.black.name or "?"
    h["Result"] = facts.result or "*"
    h["TimeControl"] = str(facts.time_control) if facts.time_control else "-"
    if facts.blind_color is not None:
        h["VisuallyImpaired"] = "White" if facts.blind_color == chess.WHITE else "Black"
    for k, v in extra.items():
        h[str(k)] = str(v)
    if facts.start.fen() != chess.STARTING_FEN or facts.start.chess960:
        game.setup(facts.start)
        if facts.start.chess960:
            h["Variant"] = "Chess960"

    clocks = _clock_by_ply(session)
    lang = lang or facts.lang
    comments: dict[int, list[str]] = {}

    def add(ply: int, text: str) -> None:
        comments.setdefault(ply, []).append(text)

    game_moves = facts.game_moves
    whos: tuple[Literal["sighted", "blind"], ...] = ("sighted", "blind")
    for who in whos:
        read = session.score_read(who)
        name = tr(f"session.score_{who}", lang)
        for i, written in enumerate(read.written):
            if i < len(read.moves):
                if i < len(game_moves) and read.moves[i] != game_moves[i]:
                    add(i + 1, tr("session.pgn_deviation", lang, score=name, written=written))
            elif read.problem is not None and i == read.problem.index:
                add(i + 1, tr("session.pgn_problem", lang, score=name, written=written,
                              problem=tr(f"session.problem_{read.problem.problem}", lang)))
    for touch in facts.touches:
        add(touch.ply, _touch_text(touch, lang))
    for ruling in facts.rulings:
        add(len(ruling.moves), tr("session.pgn_ruling", lang, text=_ruling_text(ruling, lang)))
    if facts.result is not None and facts.result_reason:
        h["Termination"] = _termination(facts.result_reason)
        add(len(game_moves), tr("records.pgn_end", lang, reason=tr(f"session.reason_{facts.result_reason}", lang)))

    node: chess.pgn.GameNode = game
    for i, move in enumerate(game_moves):
        node = node.add_variation(move)
        snap = clocks.get(i + 1)
        if snap is not None:
            mover = node.parent.board().turn
            remaining = snap.remaining_of(mover)
            if not math.isinf(remaining):
                node.set_clock(max(0.0, remaining))
            if snap.move_time:
                node.set_emt(snap.move_time)
        elif i == len(game_moves) - 1:
            stopped = _last_move_clock(session, node.parent.board().turn)
            if stopped is not None:
                node.set_clock(stopped[0])
                node.set_emt(stopped[1])
        if comments.get(i + 1):
            node.comment = " ".join([node.comment] + comments[i + 1]).strip() if node.comment else \
                " ".join(comments[i + 1])
    if comments.get(0):
        game.comment = " ".join(comments[0])
    _add_retracted(game, facts, lang)
    return game


def _add_retracted(game: chess.pgn.Game, facts: GameFacts, lang: str) -> None:
    """Moves taken back by a ruling (D.2.9) as side variations where the game went on differently."""
    mainline = list(game.mainline())
    for ev in facts.rulings:
        before = [chess.Move.from_uci(u) for u in ev.before]
        kept = len(ev.moves)
        now_moves = [chess.Move.from_uci(u) for u in ev.moves]
        if len(before) <= kept or before[:kept] != now_moves[:kept]:
            continue
        parent = game if kept == 0 else (mainline[kept - 1] if kept - 1 < len(mainline) else None)
        if parent is None or any(v.move == before[kept] for v in parent.variations):
            continue
        node = parent.add_variation(before[kept])
        node.comment = tr("session.pgn_retracted", lang)
        for move in before[kept + 1:]:
            if not node.board().is_legal(move):
                break
            node = node.add_variation(move)


def _termination(reason: str) -> str:
    """The PGN ``Termination`` tag of an end (the standard's words: "normal", "time forfeit", …)."""
    if reason in ("time_forfeit", "time_no_mate", "both_flags"):
        return "time forfeit"
    if reason in ("arbiter", "illegal_move", "illegal_move_no_mate", "sealed_move"):
        return "rules infraction" if reason != "arbiter" else "adjudication"
    return "normal"


def session_to_pgn(session: GameRecord) -> str:
    """The session as PGN text."""
    exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
    return session_to_game(session).accept(exporter) + "\n"


@dataclass(frozen=True)
class PgnGame:
    """A PGN game as a session continues it: players, time control, start, moves, [%clk] history."""

    white: str                   # the players' names ("?" when the tag is missing)
    black: str
    visually_impaired: chess.Color | None   # the side that plays on the tactile board, if any
    time_control: TimeControl | None
    start_fen: str | None        # None: the standard start position
    headers: dict[str, str]      # Event, Site, Date, Round
    moves: list[chess.Move]
    clocks: list[tuple[int, float, float]]   # (ply, white remaining, black remaining)
    result: str


def read_pgn(text: str, *, visually_impaired: str | None = "black", lang: str = "de") -> PgnGame:
    """The first game of PGN ``text`` (``Session.from_pgn`` continues it). Raises UserError for text that is no game.

    ``visually_impaired`` ("white" / "black" / None) applies unless the tag ``VisuallyImpaired`` says otherwise.
    """
    try:
        game = chess.pgn.read_game(io.StringIO(text))
    except (ValueError, UnicodeError):
        game = None
    if game is None or game.errors:
        detail = str(game.errors[0]) if game is not None and game.errors else ""
        raise UserError(tr("session.pgn_unreadable", lang, detail=detail))
    h = game.headers
    # python-chess skips what it cannot read; a game must not lose moves silently.
    check = read_score(text, ui_lang=lang)
    if check.problems:
        raise UserError(tr("session.pgn_unreadable", lang, detail=check.problems[0].message))
    if not any(True for _ in game.mainline_moves()) and "[" not in text:
        raise UserError(tr("session.pgn_unreadable", lang, detail=""))
    vi = h.get("VisuallyImpaired", visually_impaired or "").lower()
    try:
        tc = TimeControl.parse(h.get("TimeControl", "-"))
    except ValueError:
        tc = None
    start = game.board()
    moves: list[chess.Move] = []
    rows: list[tuple[int, float, float]] = []
    base = tc.periods[0].seconds if tc else math.inf
    last = {chess.WHITE: base, chess.BLACK: base}
    for ply, node in enumerate(game.mainline(), start=1):
        moves.append(node.move)
        clk = node.clock()
        if clk is not None:
            last[node.parent.board().turn if node.parent else chess.WHITE] = clk
            if not math.isinf(last[chess.WHITE]) and not math.isinf(last[chess.BLACK]):
                rows.append((ply, last[chess.WHITE], last[chess.BLACK]))
    blind = chess.WHITE if vi == "white" else chess.BLACK if vi == "black" else None
    return PgnGame(h.get("White", "?"), h.get("Black", "?"), blind, tc,
                   start.fen() if start.fen() != chess.STARTING_FEN or start.chess960 else None,
                   {k: v for k, v in h.items() if k in ("Event", "Site", "Date", "Round")}, moves, rows,
                   h.get("Result", "*"))
