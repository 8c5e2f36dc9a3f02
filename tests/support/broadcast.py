"""Journals of whole games for the broadcast's tests, and the structure of a served page."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import chess

from blindchess import scenario
from blindchess.game import Player, Session

from .paths import SCENARIOS


def play(script: str, journal: Path) -> Path:
    """A whole game from a scenario script, journaled to ``journal`` (the table the app runs)."""
    scenario.play(scenario.read_script(SCENARIOS / script, "de"), scenario.HeadlessFront(), journal)
    return journal


def diverged(path: Path) -> Session:
    """White (blind) plays e2-e4; the assistant mirrors it wrongly as d2-d4 on the sighted board (D.2.9)."""
    s = Session.new(Player("Anna <b>", True), Player("Bert"), "90+30", journal=path, now=0.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 1.0)
    s.announce(chess.Move.from_uci("e2e4"), "Eva vier", 1.5)
    s.press_clock(chess.WHITE, 2.0)
    s.board_move("sighted", chess.Move.from_uci("d2d4"), 3.0)
    s.offer_draw(chess.BLACK, 4.0)
    s.close()
    return Session.load(path)


class Structure(HTMLParser):
    """What a screen reader navigates by: the language, headings, table headers and captions."""

    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None
        self.headings: list[str] = []
        self.th_scopes: list[str | None] = []
        self.captions = 0
        self.scripts = 0
        self.refresh: str | None = None
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "html":
            self.lang = a.get("lang")
        if tag in ("h1", "h2", "h3"):
            self._in = tag
            self.headings.append(tag + ":")
        if tag == "th":
            self.th_scopes.append(a.get("scope"))
        if tag == "caption":
            self.captions += 1
        if tag == "script":
            self.scripts += 1
        if tag == "meta" and a.get("http-equiv") == "refresh":
            self.refresh = a.get("content")

    def handle_endtag(self, tag: str) -> None:
        if tag == self._in:
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in:
            self.headings[-1] += data


def structure(html: bytes) -> Structure:
    parser = Structure()
    parser.feed(html.decode("utf-8"))
    return parser
