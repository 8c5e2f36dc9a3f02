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
from dataclasses import dataclass

import chess
import chess.pgn

from ..base import UserError, tr
from ..language import read_score
from ..laws import TimeControl
from .book import GameFacts, GameRecord, RecordBook

__all__ = ["session_to_game", "session_to_pgn", "read_pgn", "PgnGame", "GameRecord"]


def session_to_game(session: GameRecord, lang: str | None = None) -> chess.pgn.Game:
    """The session as a ``chess.pgn.Game``; see the module docstring. Comments in ``lang`` (default: the
    session's language); touches and rulings recorded in another language are told again from their fields.
    Each half-move as :class:`~blindchess.records.book.RecordBook` records it."""
    book = RecordBook(lang)
    book.update(session)
    game = book.headers
    node: chess.pgn.GameNode = game
    for ply in book.plies:
        node = node.add_variation(ply.move)
        node.comment = ply.comment()
    if book.opening:
        game.comment = " ".join(book.opening)
    _add_retracted(game, session.snapshot, lang or session.snapshot.lang)
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
