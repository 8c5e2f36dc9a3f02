"""Every answer of the broadcast for one state of the games, made when first asked for.

The journals' reader hands over a :class:`State` at each change (the games as they stand — the
arbiter's —, the games as the public sees them, held back by the delay, the files that hold no game, what
the arbiter must be told). :class:`Answers` makes from it, when a request first asks: the PGN files
(``/games.pgn``, ``/roundN/games.pgn``, ``/game/N.pgn``), the cards (``/games.json``, ``/game/N.json``,
:mod:`.cards`), each game's board diagram (``/game/N.svg``, python-chess's :mod:`chess.svg`), the
spectators' page and the arbiter's (:mod:`.pages`), and the messages of the live streams that tell what
changed since the state before. A game's pieces (its row, its section, its card, its diagram) are kept
from one state to the next while the game and its status stay the same (a :class:`Pieces` shared by the
states), so a move costs what its own game costs, not what the hall does.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from typing import Any

import chess
import chess.svg

from .cards import clock_state, game_card, status_of
from .pages import (
    HTML_TYPE,
    JSON_TYPE,
    PGN_TYPE,
    SVG_TYPE,
    Page,
    announcement,
    arbiter_page,
    attention_section,
    attention_text,
    collection,
    game_row,
    game_section,
    needs_arbiter,
    round_folder,
    spectators_page,
    table_row,
)
from .reading import LiveGame

__all__ = ["State", "Answers", "Pieces", "Config"]

_GAME = re.compile(r"/game/([1-9][0-9]{0,5})\.(pgn|json|svg)")
_ROUND = re.compile(r"/(round[1-9][0-9]{0,3})/games\.pgn")

Games = tuple[tuple[int, LiveGame], ...]


@dataclass(frozen=True)
class Config:
    """How the broadcast shows the games: its language, when a running game counts as stale, the public delay."""

    lang: str
    stale_after: float
    delay: float = 0.0


@dataclass(frozen=True)
class State:
    """The games at one moment: ``games`` as they stand (the arbiter's), ``public`` as the public sees them,
    ``problems`` (file name, why) of the files that hold no game, ``notices`` for the arbiter, ``now`` the
    moment (seconds since 1970)."""

    games: Games
    public: Games
    problems: tuple[tuple[str, str], ...]
    notices: tuple[str, ...]
    now: float


@dataclass
class Pieces:
    """A game's pieces kept from state to state: (audience, number, kind) → (the game, its status, the piece)."""

    kept: dict[tuple[str, int, str], tuple[LiveGame, str, Any]] = field(default_factory=dict)

    def get(self, audience: str, number: int, kind: str, game: LiveGame, status: str, make: Any) -> Any:
        key = (audience, number, kind)
        found = self.kept.get(key)
        if found is not None and found[0] is game and found[1] == status:
            return found[2]
        piece = make()
        self.kept[key] = (game, status, piece)
        return piece


class Answers:
    """The answers for ``state`` (module docstring); ``pieces``: what the states before made of each game."""

    def __init__(self, state: State, config: Config, pieces: Pieces, version: int = 0) -> None:
        self.state = state
        self.version = version
        self.config = config
        self.pieces = pieces
        self.stamp = time.strftime("%H:%M:%S", time.localtime(state.now))
        self._made: dict[str, Page | None] = {}
        self._public = dict(state.public)
        self._arbiter = dict(state.games)

    # -- the answers ---------------------------------------------------------------------------------
    def public(self, path: str) -> Page | None:
        """The public answer for ``path``; None: no such address."""
        if path in self._made:
            return self._made[path]
        page = self._public_page(path)
        self._made[path] = page
        return page

    def arbiter(self, path: str) -> Page | None:
        """The arbiter's answer for ``path`` (``/arbiter``, ``/arbiter/still``); None: no such address."""
        key = "arbiter:" + path
        if key in self._made:
            return self._made[key]
        page = None
        if path in ("/arbiter", "/arbiter/still"):
            page = Page.of(self._arbiter_page(live=path == "/arbiter"), HTML_TYPE)
        self._made[key] = page
        return page

    def _public_page(self, path: str) -> Page | None:
        c = self.config
        games = self.state.public
        if path == "/games.pgn":
            return Page.of(collection(games), PGN_TYPE)
        if path in ("/", "/index.html"):
            rows = {n: self._piece("public", n, g, "row", lambda n=n, g=g: game_row(n, g, c.lang, self.state.now,
                                                                                      c.stale_after))
                    for n, g in games}
            sections = {n: self._piece("public", n, g, "section",
                                       lambda n=n, g=g: game_section(n, g, c.lang, self.state.now, c.stale_after))
                        for n, g in games}
            return Page.of(spectators_page(games, c.lang, self.stamp, now=self.state.now, stale_after=c.stale_after,
                                           delay=c.delay, rows=rows, sections=sections, version=self.version),
                           HTML_TYPE)
        if path == "/games.json":
            cards = [self._card(n, g) for n, g in games]
            return Page.of(json.dumps(cards, ensure_ascii=False, indent=1) + "\n", JSON_TYPE)
        found = _ROUND.fullmatch(path)
        if found:
            members = [(n, g) for n, g in games if round_folder(g) == found.group(1)]
            return Page.of(collection(members), PGN_TYPE) if members else None
        found = _GAME.fullmatch(path)
        if found:
            number, kind = int(found.group(1)), found.group(2)
            game = self._public.get(number)
            if game is None:
                return None
            if kind == "pgn":
                return Page.of(game.pgn, PGN_TYPE)
            if kind == "json":
                return Page.of(json.dumps(self._card(number, game), ensure_ascii=False, indent=1) + "\n", JSON_TYPE)
            return self._piece("public", number, game, "svg", lambda: Page.of(_diagram(game), SVG_TYPE))
        return None

    def _arbiter_page(self, *, live: bool) -> str:
        c = self.config
        rows = {n: self._piece("arbiter", n, g, "row", lambda n=n, g=g: table_row(n, g, c.lang, self.state.now,
                                                                                    c.stale_after))
                for n, g in self.state.games}
        return arbiter_page(self.state.games, self.state.problems, c.lang, self.stamp, now=self.state.now,
                            stale_after=c.stale_after, live=live, notices=self.state.notices, rows=rows,
                            version=self.version)

    def _status(self, game: LiveGame) -> str:
        return status_of(game, self.state.now, self.config.stale_after)

    def _piece(self, audience: str, number: int, game: LiveGame, kind: str, make: Any) -> Any:
        return self.pieces.get(audience, number, kind, game, self._status(game), make)

    def _card(self, number: int, game: LiveGame) -> dict[str, Any]:
        return self._piece("public", number, game, "card",
                           lambda: game_card(number, game, self.state.now, self.config.stale_after))

    # -- what changed, for the live streams ----------------------------------------------------------
    def messages(self, before: Answers | None, audience: str) -> list[bytes]:
        """The live stream's messages that bring a page showing ``before`` (None: nothing yet) up to this state:
        one ``game`` message per game that changed (or is new), one ``page`` message."""
        c = self.config
        now = self.state.now
        arbiter = audience == "arbiter"
        games = self.state.games if arbiter else self.state.public
        old = {} if before is None else dict(before.state.games if arbiter else before.state.public)
        old_now = 0.0 if before is None else before.state.now
        out: list[bytes] = []
        for number, game in games:
            was = old.get(number)
            status = self._status(game)
            if was is game and before is not None and status_of(was, old_now, c.stale_after) == status:
                continue
            data: dict[str, Any] = {"number": number, "plies": game.plies,
                                    "announce": announcement(number, game, c.lang, arbiter=arbiter),
                                    "clock": clock_state(game), "now": round(now, 3)}
            if arbiter:
                data["row"] = self._piece("arbiter", number, game, "row",
                                          lambda n=number, g=game: table_row(n, g, c.lang, now, c.stale_after))
                needed = needs_arbiter(game, now, c.stale_after)
                data["attention"] = attention_section(number, game, c.lang, now, c.stale_after) if needed else None
                before_needed = was is not None and needs_arbiter(was, old_now, c.stale_after)
                data["alert"] = attention_text(game, c.lang, now, c.stale_after) if needed and not before_needed \
                    and before is not None else None
            else:
                data["row"] = self._piece("public", number, game, "row",
                                          lambda n=number, g=game: game_row(n, g, c.lang, now, c.stale_after))
                data["section"] = self._piece("public", number, game, "section",
                                              lambda n=number, g=game: game_section(n, g, c.lang, now, c.stale_after))
            out.append(_event("game", data))
        page: dict[str, Any] = {"updated": self.stamp, "games": len(games), "now": round(now, 3)}
        if arbiter:
            page["notices"] = list(self.state.notices)
        out.append(_event("page", page))
        return out


def _event(kind: str, data: dict[str, Any]) -> bytes:
    """One Server-Sent Event: its type and its data, one JSON line."""
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


def _diagram(game: LiveGame) -> str:
    """The board diagram (python-chess's SVG) after the moves kept, the last move marked."""
    board = chess.Board(game.fen, chess960=game.start.chess960)
    return chess.svg.board(board, lastmove=game.last, size=360, coordinates=True)
