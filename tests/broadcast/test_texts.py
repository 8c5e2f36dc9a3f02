"""Every message the broadcast's pages, its script and its command line use exists in German, English, Dutch
and Russian — named in the code or made from a name (the columns, the statuses, the claims, the boards) —, and
no page shows a message's key: every page rendered in each language, with every state a table can be in."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import chess
import pytest

from blindchess.base.i18n import UI_LANGS, tr
from blindchess.broadcast import Broadcast
from blindchess.broadcast.cards import STATUSES
from blindchess.broadcast.pages import PAGE_TEXTS
from blindchess.game import Player, Session
from tests.support.broadcast import diverged, fetch, play
from tests.support.paths import REPO

PACKAGE = REPO / "blindchess" / "broadcast"
LOCALE = REPO / "blindchess" / "base" / "locale"
NAMED = re.compile(r"""(?:\btr\(|\b_t\()\s*f?["'](?:broadcast\.)?([a-z_]+)(\{)?""")


def catalogue(lang: str) -> dict[str, object]:
    with (LOCALE / f"broadcast.{lang}.toml").open("rb") as f:
        return tomllib.load(f)


def keys_named() -> set[str]:
    """The broadcast keys the code names, and those it makes from a name (each name it can take)."""
    keys: set[str] = set()
    for source in [*PACKAGE.glob("*.py"), REPO / "blindchess" / "cli" / "broadcast.py"]:
        for name, made in NAMED.findall(source.read_text(encoding="utf-8")):
            if made:
                continue
            if source.name == "broadcast.py" or "broadcast." in source.read_text(encoding="utf-8"):
                keys.add(name)
    keys.discard("broadcast")
    made = {f"status_{s}" for s in STATUSES} | {f"col_{c}" for c in (
        "number", "board", "round", "white", "black", "result", "status", "moves", "last", "time", "pgn", "table",
        "players", "state", "boards", "proposal", "flag", "claim", "clocks", "journal")} \
        | {f"label_{k}" for k in ("event", "site", "date", "round", "board")} \
        | {f"board_{b}" for b in ("sighted", "tactile", "both")} \
        | {f"claim_{c}" for c in ("threefold", "fifty", "time", "illegal")}
    return {k for k in keys | made | set(PAGE_TEXTS) if not k.startswith(("session", "records", "files"))}


@pytest.mark.parametrize("lang", UI_LANGS)
def test_every_key_the_broadcast_uses_exists_in_every_language(lang: str) -> None:
    have = catalogue(lang)
    named = keys_named()
    assert len(named) > 100
    assert sorted(k for k in named if k not in have) == []
    script = (PACKAGE / "live.js").read_text(encoding="utf-8")
    assert set(re.findall(r"texts\.([a-z_]+)", script)) <= set(PAGE_TEXTS)    # the script's words come from the page


@pytest.mark.parametrize("lang", UI_LANGS)
def test_no_page_shows_a_key_whatever_the_tables_state(lang: str, tmp_path: Path) -> None:
    play("game_whole.scn", tmp_path / "1.jsonl")
    play("claim_threefold.scn", tmp_path / "2.jsonl")
    diverged(tmp_path / "3.jsonl")
    flagged = Session.new(Player("Clara", True), Player("Dora"), "1+0", journal=tmp_path / "4.jsonl", now=0.0)
    flagged.start_clock(0.0)
    flagged.tick(61.0)
    flagged.close()
    adjourned = Session.new(Player("Emil", True), Player("Frida"), "90+30", journal=tmp_path / "5.jsonl", now=0.0,
                            headers={"Board": "5", "WhiteElo": "2010", "WhiteTitle": "CM"})
    adjourned.board_move("tactile", chess.Move.from_uci("e2e4"), 1.0)
    adjourned.adjourn(2.0)
    adjourned.close()
    (tmp_path / "6.jsonl").write_bytes(b"\x00junk, no journal\n")      # a junk file in the folder
    broadcast = Broadcast([tmp_path], lang=lang, port=0, stale_after=1.0)
    broadcast.start()
    try:
        assert broadcast.ready(60)
        pages = {path: fetch(broadcast.url + path)[1].decode() for path in
                 ("", "arbiter", "arbiter/still", "games.pgn", "games.json", "nowhere", "arbiter/nowhere")}
        for path, text in pages.items():
            assert not re.search(r"\bbroadcast\.[a-z_]+", text), (path, re.search(r"\bbroadcast\.[a-z_]+", text))
        assert tr("broadcast.files_heading", lang) in pages["arbiter"].replace("&#x27;", "'")
        assert tr("broadcast.status_adjourned", lang) in pages[""]
    finally:
        broadcast.stop()
