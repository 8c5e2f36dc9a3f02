"""The broadcast as a hall runs it: the cards (/games.json, /game/N.json), the live stream, the public delay,
a silent table, the arbiter's token, what other sites may read and embed, and the sealed move kept secret on
every answer. A real server on a free port, real journals written as at the table, a real HTTP client."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import chess
import chess.pgn
import pytest

from blindchess.base.i18n import tr
from blindchess.broadcast import Broadcast
from blindchess.game import Player, Session
from blindchess.laws import commitment
from tests.support.broadcast import EventReader, fetch, play
from tests.support.waiting import wait_for

#: The table's clock as the window keeps it: seconds since 1970.
T0 = 2_000_000_000.0
CARD = {"number", "round", "board", "white", "black", "result", "status", "plies", "last_move", "clocks", "pgn"}
PLAYER = {"name", "rating", "title", "fide_id"}


@pytest.fixture
def running():
    started: list[Broadcast] = []

    def start(*sources: Path, **options) -> Broadcast:
        b = Broadcast(list(sources), lang=options.pop("lang", "en"), port=0, **options)
        b.start()
        started.append(b)
        assert b.ready(60)
        return b

    yield start
    for b in started:
        b.stop()


def half_move(s: Session, move: str, now: float) -> None:
    """One half-move as at the table: the mover's board, (the blind player's announcement,) his press, the mirror."""
    m = chess.Move.from_uci(move)
    if s.snapshot.to_move == chess.WHITE:      # the blind player (White) moves on the peg-board and announces
        s.board_move("tactile", m, now)
        s.announce(m, m.uci(), now + 0.5)
        s.press_clock(chess.WHITE, now + 1)
        s.board_move("sighted", m, now + 1.5)
    else:
        s.board_move("sighted", m, now)
        s.press_clock(chess.BLACK, now + 0.5)
        s.board_move("tactile", m, now + 1)


def hall_game(path: Path, **headers: str) -> Session:
    s = Session.new(Player("Anna Adler", True), Player("Bert Berg"), "90+30", journal=path, now=T0,
                    headers={"Event": "Open", "Round": "2", **headers})
    s.start_clock(T0)
    return s


# -- the cards ---------------------------------------------------------------------------------------

def test_the_cards_have_exactly_the_fields_named_with_the_players_ratings_titles_and_fide_ids(tmp_path: Path,
                                                                                            running) -> None:
    s = hall_game(tmp_path / "a.jsonl", Board="7", WhiteElo="2104", WhiteTitle="FM", WhiteFideId="4611233",
                  BlackElo="1987")
    for i, move in enumerate(("e2e4", "e7e5", "g1f3")):
        half_move(s, move, T0 + 10 * (i + 1))
    play("claim_threefold.scn", tmp_path / "b.jsonl")
    broadcast = running(tmp_path)
    status, body, headers = fetch(broadcast.url + "games.json")
    assert status == 200 and headers["Content-Type"] == "application/json; charset=utf-8"
    assert headers["Access-Control-Allow-Origin"] == "*"           # a club's site may read it
    cards = json.loads(body)
    assert [set(card) for card in cards] == [CARD, CARD]
    first, second = cards
    assert first["white"] == {"name": "Anna Adler", "rating": 2104, "title": "FM", "fide_id": 4611233}
    assert first["black"] == {"name": "Bert Berg", "rating": 1987, "title": None, "fide_id": None}
    assert (first["number"], first["round"], first["board"], first["result"]) == (1, "2", 7, "*")
    assert (first["status"], first["plies"], first["last_move"], first["pgn"]) == ("live", 3, "Nf3", "/game/1.pgn")
    assert set(first["clocks"]) == {"white", "black", "running", "at"} and first["clocks"]["running"] == "black"
    assert first["clocks"]["at"] == pytest.approx(s.snapshot.last_time, abs=0.01)          # the table's clock: time of day
    for color, name in ((chess.WHITE, "white"), (chess.BLACK, "black")):
        assert first["clocks"][name] == pytest.approx(s.clock.remaining(color, s.snapshot.last_time), abs=0.1)
    assert (second["result"], second["status"], second["last_move"]) == ("1/2-1/2", "finished", second["last_move"])
    assert set(second["white"]) == PLAYER
    one = json.loads(fetch(broadcast.url + "game/1.json")[1])
    assert one == first
    assert fetch(broadcast.url + "game/3.json")[0] == 404
    _, pgn, pgn_headers = fetch(broadcast.url + "game/1.pgn")
    assert pgn_headers["Access-Control-Allow-Origin"] == "*"
    for tag in ('[Board "7"]', '[WhiteElo "2104"]', '[WhiteTitle "FM"]', '[WhiteFideId "4611233"]'):
        assert tag.encode() in pgn
    s.close()


def test_pages_may_be_embedded_the_arbiter_s_never_and_scripts_come_only_from_the_broadcast(tmp_path: Path,
                                                                                           running) -> None:
    play("game_whole.scn", tmp_path / "a.jsonl")
    broadcast = running(tmp_path)
    _, _, public = fetch(broadcast.url)
    policy = public["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors *" in policy and "default-src 'none'" in policy
    assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    _, _, arbiter = fetch(broadcast.url + "arbiter")
    assert "frame-ancestors 'none'" in arbiter["Content-Security-Policy"] and arbiter["X-Frame-Options"] == "DENY"
    assert "Access-Control-Allow-Origin" not in arbiter
    status, script, headers = fetch(broadcast.url + "live.js")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript") and b"EventSource" in script
    status, svg, headers = fetch(broadcast.url + "game/1.svg")
    assert status == 200 and headers["Content-Type"] == "image/svg+xml; charset=utf-8" and svg.startswith(b"<svg")


# -- the live stream ---------------------------------------------------------------------------------

def test_each_journaled_move_comes_down_the_stream_once_with_what_to_say(tmp_path: Path, running) -> None:
    s = hall_game(tmp_path / "a.jsonl")
    half_move(s, "e2e4", T0 + 10)
    broadcast = running(tmp_path)
    stream = EventReader(broadcast.url + "events")
    try:
        assert wait_for(lambda: stream.of("page"), 30) and stream.status == 200
        first = stream.of("game")
        assert [(g["number"], g["plies"]) for g in first] == [(1, 1)]
        assert b"text/event-stream" in stream.raw
        half_move(s, "e7e5", T0 + 20)
        assert wait_for(lambda: any(g["plies"] == 2 for g in stream.of("game")), 30)
        news = [g for g in stream.of("game") if g["plies"] == 2]
        assert news[0]["announce"] == tr("broadcast.announce_move", "en", number=1, white="Anna Adler",
                                         black="Bert Berg", move="1... e5")
        assert 'data-field="last">1... e5<' in news[0]["row"] and "1. e4 e5" in news[0]["section"]
        assert re.search(rb"\nid: \d+\n", stream.raw)                  # a reconnecting page catches up from there
    finally:
        stream.close()
        s.close()


# -- the public delay ----------------------------------------------------------------------------------

def test_the_public_sees_each_move_only_once_it_is_as_old_as_the_delay_the_arbiter_at_once(tmp_path: Path,
                                                                                          running) -> None:
    now = [T0 + 5]
    s = hall_game(tmp_path / "a.jsonl")
    for i, move in enumerate(("e2e4", "e7e5", "g1f3")):
        half_move(s, move, T0 + 100 * (i + 1))      # the half-moves at T0 + 100, 200, 300
    now[0] = T0 + 350
    broadcast = running(tmp_path, delay=120.0, clock=lambda: now[0])

    def public_plies() -> int:
        cards = json.loads(fetch(broadcast.url + "games.json")[1])
        return cards[0]["plies"] if cards else -1

    assert wait_for(lambda: public_plies() == 2, 30)        # made by T0 + 230: e4 and e5, not Nf3
    text = fetch(broadcast.url + "games.pgn")[1].decode()
    assert "Nf3" not in text and [m.uci() for m in chess.pgn.read_game(io.StringIO(text)).mainline_moves()] == \
        ["e2e4", "e7e5"]
    assert "Nf3" not in fetch(broadcast.url)[1].decode()
    arbiter = fetch(broadcast.url + "arbiter")[1].decode()
    assert tr("broadcast.to_move", "en", color=tr("session.black", "en"), name="Bert Berg") in arbiter   # after Nf3
    now[0] = T0 + 430
    assert wait_for(lambda: public_plies() == 3, 30)
    assert "2. Nf3" in fetch(broadcast.url + "games.pgn")[1].decode()
    s.close()


# -- a silent table -------------------------------------------------------------------------------------

def test_a_running_game_whose_journal_stays_silent_is_stale_and_the_arbiter_is_told(tmp_path: Path, running) -> None:
    s = hall_game(tmp_path / "a.jsonl")
    half_move(s, "e2e4", T0 + 10)
    s.abandon()                                   # the program at the table stops (a crash, a flat battery)
    mtime = (tmp_path / "a.jsonl").stat().st_mtime
    now = [mtime + 10]
    broadcast = running(tmp_path, stale_after=60.0, clock=lambda: now[0])
    assert json.loads(fetch(broadcast.url + "game/1.json")[1])["status"] == "live"
    now[0] = mtime + 61
    assert wait_for(lambda: json.loads(fetch(broadcast.url + "game/1.json")[1])["status"] == "stale", 30)
    page = fetch(broadcast.url)[1].decode()
    assert tr("broadcast.status_stale", "en") in page
    arbiter = fetch(broadcast.url + "arbiter")[1].decode()
    assert 'id="table-1"' in arbiter                # among the tables that need him


def test_an_adjourned_game_says_so_in_its_pgn_and_on_the_pages(tmp_path: Path, running) -> None:
    s = hall_game(tmp_path / "a.jsonl")
    half_move(s, "e2e4", T0 + 10)
    s.adjourn(T0 + 20)
    broadcast = running(tmp_path, lang="de")
    card = json.loads(fetch(broadcast.url + "game/1.json")[1])
    assert card["status"] == "adjourned" and card["result"] == "*" and card["clocks"]["running"] is None
    pgn = fetch(broadcast.url + "game/1.pgn")[1].decode()
    assert tr("broadcast.pgn_adjourned", "de") in pgn and pgn.rstrip().endswith("*")
    assert tr("broadcast.adjourned_line", "de") in fetch(broadcast.url)[1].decode()
    s.close()


# -- the sealed move ------------------------------------------------------------------------------------

def test_the_sealed_move_is_on_no_page_pgn_card_diagram_or_stream_before_the_envelope_is_opened(
        tmp_path: Path, running) -> None:
    """FIDE Guidelines I.1-2, I.7: the sealed move is secret until the arbiter opens the envelope."""
    s = hall_game(tmp_path / "a.jsonl")
    for i, move in enumerate(("e2e4", "e7e5", "g1f3", "b8c6")):
        half_move(s, move, T0 + 10 * (i + 1))
    s.adjourn(T0 + 60)
    fen = s.game_board().fen()
    written, nonce = "Läufer Bella fünf", "3f9a"
    s.seal({"position": fen, "commitment": commitment(fen, written, nonce)},
           {"written": written, "lang": "de", "spoken": True, "nonce": nonce}, T0 + 75)
    sealed = chess.Move.from_uci("f1b5")
    secrets = [b"f1b5", b"Bb5", b"Lb5", "Läufer".encode(), b"Bella", "fünf".encode(), nonce.encode()]
    broadcast = running(tmp_path, lang="de")
    stream = EventReader(broadcast.url + "events")
    arbiter_stream = EventReader(broadcast.url + "arbiter/events")
    try:
        assert wait_for(lambda: stream.of("page") and arbiter_stream.of("page"), 30)
        answers = [fetch(broadcast.url + path)[1] for path in
                   ("", "games.pgn", "game/1.pgn", "round2/games.pgn", "games.json", "game/1.json", "game/1.svg",
                    "arbiter", "arbiter/still")]
        for answer in [*answers, stream.raw, arbiter_stream.raw]:
            for secret in secrets:
                assert secret not in answer, secret
        s.open_envelope(T0 + 86_400)                 # the next day, the arbiter opens the envelope (I.7)
        assert wait_for(lambda: any(g["plies"] == 5 for g in stream.of("game")), 30)
        assert b"Bb5" in fetch(broadcast.url + "game/1.pgn")[1] and b"Lb5" in stream.raw
        assert json.loads(fetch(broadcast.url + "game/1.json")[1])["last_move"] == "Bb5"
        assert s.snapshot.game_moves[-1] == sealed
    finally:
        stream.close()
        arbiter_stream.close()
        s.close()


# -- the arbiter's token --------------------------------------------------------------------------------

def test_beyond_this_computer_the_arbiter_s_pages_need_the_token_printed_at_the_start(tmp_path: Path,
                                                                                     running) -> None:
    play("game_whole.scn", tmp_path / "a.jsonl")
    broadcast = running(tmp_path, host="0.0.0.0")
    token = broadcast.token
    assert token and len(token) >= 20 and broadcast.arbiter_url.endswith(f"/arbiter?token={token}")
    base = f"http://127.0.0.1:{broadcast.port}/"
    assert fetch(base)[0] == 200 and fetch(base + "games.pgn")[0] == 200      # the public's pages stay open
    for path in ("arbiter", "arbiter/still", "arbiter/events", "arbiter?token=wrong" + token[5:]):
        status, body, _ = fetch(base + path)
        assert status == 403 and tr("broadcast.locked_title", "en").encode() in body.replace(b"&#x27;", b"'")
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", broadcast.port, timeout=30)
    conn.request("GET", f"/arbiter?token={token}")
    answer = conn.getresponse()
    answer.read()
    cookie = answer.headers["Set-Cookie"]
    assert answer.status == 303 and answer.headers["Location"] == "/arbiter"       # the token leaves the address
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/arbiter" in cookie
    conn.close()
    kept = {"Cookie": cookie.split(";")[0]}
    for path in ("arbiter", "arbiter/still"):
        status, body, _ = fetch(base + path, kept)
        assert status == 200 and tr("broadcast.arbiter_title", "en").encode() in body.replace(b"&#x27;", b"'")
    stream = EventReader(base + "arbiter/events", kept)
    try:
        assert wait_for(lambda: stream.of("page"), 30) and stream.status == 200
    finally:
        stream.close()


def test_on_this_computer_the_arbiter_s_pages_are_open_unless_a_token_is_given(tmp_path: Path, running) -> None:
    play("game_whole.scn", tmp_path / "a.jsonl")
    broadcast = running(tmp_path)
    assert broadcast.token is None and fetch(broadcast.url + "arbiter")[0] == 200
    locked = running(tmp_path, arbiter_token="hall-7-arbiter")
    assert fetch(locked.url + "arbiter")[0] == 403
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", locked.port, timeout=30)
    conn.request("GET", "/arbiter/still?token=hall-7-arbiter")
    answer = conn.getresponse()
    assert answer.status == 303 and answer.headers["Location"] == "/arbiter/still"
    conn.close()


def test_the_new_game_dialog_s_and_a_script_s_headers_reach_the_cards(tmp_path: Path, running) -> None:
    """Board, ratings, titles and FIDE ids as the new-game dialog and a scenario script give them, UTCDate/UTCTime
    as the window sets them when the game starts."""
    from blindchess import scenario
    from blindchess.ui.new_game import GameSetup, start_headers

    setup = GameSetup(white="Anna Adler", black="Bert Berg", board="12",
                      players={"WhiteElo": "2210", "WhiteTitle": "IM", "BlackFideId": "24101234"})
    headers = {**setup.headers(), **start_headers(T0)}
    assert (headers["UTCDate"], headers["UTCTime"]) == ("2033.05.18", "03:33:20")
    Session.new(Player("Anna Adler", True), Player("Bert Berg"), "90+30", journal=tmp_path / "a.jsonl", now=T0,
                headers=headers).close()
    script = tmp_path / "board.scn"
    script.write_text((Path(__file__).parents[1] / "scenarios" / "game_whole.scn").read_text(encoding="utf-8")
                      .replace("@round 3", "@round 3\n@board 4\n@black-elo 1890\n@black-title WFM\n@white-fide-id 777"),
                      encoding="utf-8")
    scenario.play(scenario.read_script(script, "de"), scenario.HeadlessFront(), tmp_path / "b.jsonl")
    broadcast = running(tmp_path)
    first, second = json.loads(fetch(broadcast.url + "games.json")[1])
    assert first["board"] == 12 and first["white"]["rating"] == 2210 and first["white"]["title"] == "IM"
    assert first["black"]["fide_id"] == 24101234
    assert second["board"] == 4 and second["black"]["rating"] == 1890 and second["black"]["title"] == "WFM"
    assert second["white"]["fide_id"] == 777
    assert b'[UTCDate "2033.05.18"]' in fetch(broadcast.url + "game/1.pgn")[1]
