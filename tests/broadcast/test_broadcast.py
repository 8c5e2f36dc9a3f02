"""Live broadcast: journals read as the table left them, the PGN and pages served, the bounds of the server,
the LiveChess folder, bad input on the command line. Real journals from real games (scenario scripts through
the table, sessions of the rules engine), a real HTTP server on a free port, a real HTTP client."""

from __future__ import annotations

import http.client
import io
import os
import socket
import urllib.error
import urllib.request
from html import escape
from pathlib import Path

import chess
import chess.pgn
import pytest

from blindchess.adapters.exports.source import game_from_journal
from blindchess.base.i18n import tr
from blindchess.broadcast import Broadcast
from blindchess.broadcast.pages import moves_text
from blindchess.broadcast.reading import pgn_text, read_game
from blindchess.broadcast.watch import SETTLE, Watcher
from blindchess.cli import main
from blindchess.game import Player, Session
from blindchess.storage.journal import read_journal, verdict
from tests.support.broadcast import diverged, play, structure
from tests.support.waiting import wait_for


def mainline(pgn: str) -> list[chess.pgn.ChildNode]:
    game = chess.pgn.read_game(io.StringIO(pgn))
    assert game is not None and not game.errors
    return list(game.mainline())


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, http.client.HTTPMessage]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), exc.headers


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    return folder


@pytest.fixture
def running(tmp_path: Path):
    """Start a broadcast on a free port; stopped after the test."""
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


# -- one journal read --------------------------------------------------------------------------------

def test_a_whole_journal_is_served_exactly_as_the_export_writes_it(tmp_path: Path, workdir: Path) -> None:
    journal = play("game_whole.scn", tmp_path / "a.jsonl")
    live = read_game(journal, "en", workdir)
    assert live.pgn == pgn_text(game_from_journal(journal, "en"))
    nodes = mainline(live.pgn)
    session = Session.load(journal)
    assert [n.move for n in nodes] == list(session.snapshot.game_moves) and len(nodes) == 16
    assert all(n.clock() is not None for n in nodes)          # [%clk] on every move
    assert live.result == "*" and live.damage == () and not live.cut
    assert list(workdir.iterdir()) == []                      # the copy read is gone


def test_a_finished_game_carries_its_result_and_the_claim(tmp_path: Path, workdir: Path) -> None:
    journal = play("claim_threefold.scn", tmp_path / "b.jsonl")
    live = read_game(journal, "de", workdir)
    session = Session.load(journal)
    assert live.result == session.snapshot.result == "1/2-1/2"
    assert live.state.result == "1/2-1/2" and live.state.reason == "threefold_repetition"
    assert [(c.color, c.kind, c.upheld) for c in live.state.claims] == [(chess.WHITE, "threefold", True)]


def test_a_damaged_journal_serves_the_half_moves_before_the_damage_and_says_so(tmp_path: Path, workdir: Path) -> None:
    journal = play("game_whole.scn", tmp_path / "a.jsonl")
    lines = journal.read_bytes().split(b"\n")
    made = next(i for i, line in enumerate(lines) if b'"type":"move-made"' in line and b'"ply":7,' in line)
    source = next(i for i in range(made, 0, -1) if b'"derived":true' not in lines[i])   # the input that made it
    lines[source] = lines[source].replace(b'"t":', b'"t":9', 1)                          # one changed byte
    journal.write_bytes(b"\n".join(lines))

    read = read_journal(journal)
    session = Session.load(journal)
    judged = verdict(read, [m.uci() for m in session.snapshot.game_moves], session.snapshot.journal_problems)
    assert judged.plies, "the damage touches half-moves"
    keep = min(judged.plies) - 1

    live = read_game(journal, "en", workdir)
    nodes = mainline(live.pgn)
    assert [n.move for n in nodes] == list(session.snapshot.game_moves[:keep])        # never an invented move
    assert live.cut and live.result == "*" and len(live.moves) == keep
    assert live.damage and live.damage[0] in live.pgn                   # said in a comment
    assert tr("broadcast.damage_kept", "en", plies=keep) in live.pgn
    whole = mainline(pgn_text(game_from_journal(play("game_whole.scn", tmp_path / "again.jsonl"), "en")))
    assert [n.clock() for n in nodes] == [n.clock() for n in whole[:keep]]


def test_a_journal_cut_off_inside_a_unit_by_a_crash_is_whole(tmp_path: Path, workdir: Path) -> None:
    """A crash mid-write: the unit cut off was never acted on, nothing is lost and nothing is said."""
    path = tmp_path / "live.jsonl"
    s = Session.new(Player("Anna", True), Player("Bert"), "90+30", journal=path, now=0.0)
    s.board_move("tactile", chess.Move.from_uci("e2e4"), 1.0)
    s.announce(chess.Move.from_uci("e2e4"), "Eva vier", 1.5)
    s.press_clock(chess.WHITE, 2.0)
    before = path.read_bytes()            # the journal as the table left it after the press
    s.board_move("sighted", chess.Move.from_uci("e2e4"), 3.0)           # the next unit: the crash cuts it in the middle
    unit = path.read_bytes()[len(before):]
    assert unit
    for cut_at in (1, len(unit) // 2, len(unit) - 1):
        crashed = tmp_path / f"crashed{cut_at}.jsonl"
        crashed.write_bytes(before + unit[:cut_at])
        live = read_game(crashed, "en", workdir)
        assert live.damage == () and not live.cut
        assert [n.move for n in mainline(live.pgn)] == [chess.Move.from_uci("e2e4")]
    s.close()


def test_a_file_without_a_game_is_no_game_yet(tmp_path: Path, workdir: Path) -> None:
    from blindchess.base.errors import UserError

    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    with pytest.raises(UserError) as caught:
        read_game(empty, "en", workdir)
    assert str(workdir) not in caught.value.message


def test_the_moves_are_numbered_from_the_start_position() -> None:
    board = chess.Board("8/8/8/8/8/8/k7/K7 b - - 0 41")
    assert moves_text(board, ["Ka3", "Kb1", "Kb3"]) == "41... Ka3 42. Kb1 Kb3"
    assert moves_text(chess.Board(), ["e4", "e5", "Sf3"]) == "1. e4 e5 2. Sf3"


# -- the arbiter's facts -----------------------------------------------------------------------------



def test_the_arbiter_sees_where_the_boards_part_and_the_proposed_ruling(tmp_path: Path, workdir: Path) -> None:
    session = diverged(tmp_path / "d.jsonl")
    assert session.snapshot.divergence is not None
    live = read_game(tmp_path / "d.jsonl", "de", workdir)
    assert live.state.parting == session.snapshot.divergence
    ruling = session.propose_ruling("de")
    assert ruling is not None and live.state.proposal == ruling.explain("de")
    assert live.state.needs_arbiter and live.state.draw_offer == chess.BLACK and live.state.to_move == chess.BLACK


def test_a_fallen_flag_is_on_the_arbiter_s_page(tmp_path: Path, running) -> None:
    path = tmp_path / "f.jsonl"
    s = Session.new(Player("Anna", True), Player("Bert"), "1+0", journal=path, now=0.0)
    s.start_clock(0.0)
    s.tick(61.0)          # the arbiter looks at the clock: White's minute is over (Art. 6.9)
    s.close()
    broadcast = running(path, lang="de")
    status, body, _ = get(broadcast.url + "arbiter")
    page = body.decode()
    assert status == 200 and tr("broadcast.flag_fallen", "de", color="Weiß") in page
    assert Session.load(path).snapshot.result == "0-1"


# -- pages and the server ----------------------------------------------------------------------------





def test_the_pages_are_plain_accessible_html_in_the_broadcast_s_language(tmp_path: Path, running) -> None:
    play("game_whole.scn", tmp_path / "a.jsonl")
    diverged(tmp_path / "d.jsonl")
    broadcast = running(tmp_path, lang="nl")
    _, index, headers = get(broadcast.url)
    page = structure(index)
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    assert page.lang == "nl" and page.scripts == 0 and page.captions == 1 and page.refresh is None
    assert page.script_sources == ["/live.js"] and page.live_regions == [("polite", "latest")]
    assert all(alt for _, alt in page.images) and [src.split("?")[0] for src, _ in page.images] == \
        ["/game/1.svg", "/game/2.svg"]                                    # a diagram per game, in words too
    assert page.headings[0] == "h1:" + tr("broadcast.title", "nl")
    assert "h2:" + tr("broadcast.game_heading", "nl", number=1, white="Bernd Blind", black="Sabine Sehend") in page.headings
    assert set(page.th_scopes) == {"col", "row"}
    assert "1. e4 Pf6 2. e5 d5 3. exd6 e.p. Pc6" in index.decode()       # the moves as text, Dutch letters
    assert b"Anna &lt;b&gt;" in index and b"Anna <b>" not in index        # names from a journal are escaped

    _, arbiter, _ = get(broadcast.url + "arbiter")
    page = structure(arbiter)
    assert page.lang == "nl" and page.scripts == 0 and page.refresh is None     # live, never reloading
    assert page.script_sources == ["/live.js"] and page.live_regions == [("polite", "latest")]
    assert "h2:" + tr("broadcast.attention_heading", "nl") in page.headings
    assert set(page.th_scopes) == {"col", "row"}
    text = arbiter.decode()
    assert "h3:" + tr("broadcast.table_heading", "nl", number=2, players="Anna <b> – Bert") in page.headings
    assert escape(tr("broadcast.proposal", "nl", text=Session.load(tmp_path / "d.jsonl").propose_ruling("nl").explain("nl"))) \
        in text
    assert tr("broadcast.proposal_correct", "nl") in text
    _, still, _ = get(broadcast.url + "arbiter/still")     # to read it through: the same, not renewing itself
    page = structure(still)
    assert page.refresh is None and page.script_sources == [] and page.live_regions == []
    assert page.lang == "nl" and "h3:" + tr("broadcast.table_heading", "nl", number=2,
                                                                      players="Anna <b> – Bert") in page.headings
    assert tr("broadcast.draw_offer", "nl", color=tr("session.black", "nl")) in text


def test_games_pgn_one_game_and_the_round_are_served(tmp_path: Path, running) -> None:
    play("game_whole.scn", tmp_path / "a.jsonl")
    play("claim_threefold.scn", tmp_path / "b.jsonl")
    broadcast = running(tmp_path)
    status, body, headers = get(broadcast.url + "games.pgn")
    assert status == 200 and headers["Content-Type"] == "application/x-chess-pgn; charset=utf-8"
    text = body.decode()
    games = []
    stream = io.StringIO(text)
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(game)
    assert [g.headers["Result"] for g in games] == ["*", "1/2-1/2"]
    for number, name in ((1, "a"), (2, "b")):
        _, one, _ = get(f"{broadcast.url}game/{number}.pgn")
        assert one.decode() == pgn_text(game_from_journal(tmp_path / f"{name}.jsonl", "en"))
    _, round3, _ = get(broadcast.url + "round3/games.pgn")
    assert round3.decode() == pgn_text(game_from_journal(tmp_path / "a.jsonl", "en"))   # game_whole: @round 3


def test_an_unchanged_file_is_answered_not_modified(tmp_path: Path, running) -> None:
    play("game_whole.scn", tmp_path / "a.jsonl")
    broadcast = running(tmp_path)
    _, body, headers = get(broadcast.url + "games.pgn")
    status, again, _ = get(broadcast.url + "games.pgn", {"If-None-Match": headers["ETag"]})
    assert status == 304 and again == b""
    conn = http.client.HTTPConnection("127.0.0.1", broadcast.port, timeout=10)
    conn.request("HEAD", "/games.pgn")
    response = conn.getresponse()
    assert response.status == 200 and response.read() == b"" and int(response.headers["Content-Length"]) == len(body)
    conn.close()


def raw(port: int, data: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_requests_are_bounded_and_read_only_and_never_name_a_file(tmp_path: Path, running) -> None:
    play("game_whole.scn", tmp_path / "a.jsonl")
    (tmp_path / "secret.txt").write_text("secret")
    broadcast = running(tmp_path)
    port = broadcast.port
    for refused in (b"GET /" + b"a" * 5000 + b" HTTP/1.0\r\n\r\n",                  # the line too long
                    b"GET / HTTP/1.0\r\n" + b"X-Long: " + b"b" * 20000 + b"\r\n\r\n",    # a header too long
                    b"GET / HTTP/1.0\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(3000)) + b"\r\n",
                    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03junk\r\n\r\n"):                  # no HTTP at all
        answer = raw(port, refused)
        assert answer.startswith(b"HTTP/1.0 400") and escape(tr("broadcast.error_text", "en")).encode() in answer
        assert b"aaaa" not in answer and b"bbbb" not in answer and b"junk" not in answer   # never the request's words
    posted = raw(port, b"POST /games.pgn HTTP/1.0\r\nContent-Length: 5\r\n\r\nhello")
    assert posted.startswith(b"HTTP/1.0 405") and b"Allow: GET, HEAD" in posted
    assert raw(port, b"DELETE / HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 405")
    for path in ("/../secret.txt", "/secret.txt", "/a.jsonl", "/game/0.pgn", "/game/2.pgn", "/game/01.pgn",
                 "/game/1.pgn/..", "/%2e%2e/secret.txt", "/game/../a.jsonl", "//etc/passwd"):
        status, body, _ = get(f"http://127.0.0.1:{port}{path}" if not path.startswith("//") else f"http://127.0.0.1:{port}/x{path}")
        assert status == 404 and b"secret" not in body, path
    assert get(f"http://127.0.0.1:{port}/game/1.pgn?x=../../secret.txt")[0] == 200
    assert raw(port, b"GET /games.pgn HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 200")


def test_idle_connections_make_room_and_only_busy_ones_turn_a_newcomer_away(tmp_path: Path, running) -> None:
    """Past the limit the connection idle longest is closed for the new one; with every connection busy (live
    streams) a new one is answered 503, and served again as soon as one is free."""
    play("game_whole.scn", tmp_path / "a.jsonl")
    broadcast = running(tmp_path, max_connections=2, per_client=2)
    idle = [socket.create_connection(("127.0.0.1", broadcast.port), timeout=10) for _ in range(2)]
    try:
        assert raw(broadcast.port, b"GET / HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 200")
        assert idle[0].recv(100) == b""            # the oldest idle connection was closed to make room
    finally:
        for sock in idle:
            sock.close()
    streams = [socket.create_connection(("127.0.0.1", broadcast.port), timeout=10) for _ in range(2)]
    try:
        for sock in streams:
            sock.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            assert sock.recv(100).startswith(b"HTTP/1.1 200")
        assert wait_for(lambda: broadcast.hall.streams == 2, 15)
        assert raw(broadcast.port, b"GET / HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.1 503")
    finally:
        for sock in streams:
            sock.close()
    assert wait_for(lambda: raw(broadcast.port, b"GET / HTTP/1.0\r\n\r\n").startswith(b"HTTP/1.0 200"), 15)


# -- following the journals --------------------------------------------------------------------------

def test_games_are_numbered_as_their_journals_appear_and_keep_their_number(tmp_path: Path, workdir: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    watcher = Watcher([folder], "en", workdir)
    assert not watcher.poll() and watcher.games == []
    play("claim_threefold.scn", folder / "z.jsonl")
    (folder / "notes.txt").write_text("not a journal")
    (folder / ".blindchess-tmp.jsonl").write_text("a writer's temporary file")
    assert watcher.poll()
    play("game_whole.scn", folder / "a.jsonl")
    assert watcher.poll()
    assert [(n, g.path.name) for n, g in watcher.games] == [(1, "z.jsonl"), (2, "a.jsonl")]
    (folder / "a.jsonl").unlink()
    assert not watcher.poll()
    assert [n for n, _ in watcher.games] == [1, 2]           # a journal gone keeps its number and last state


def test_a_changed_journal_costs_its_new_lines_and_is_read_whole_only_when_it_must_be(tmp_path: Path,
                                                                                      workdir: Path) -> None:
    journal = play("game_whole.scn", tmp_path / "a.jsonl")
    now = [journal.stat().st_mtime]
    watcher = Watcher([journal], "en", workdir, clock=lambda: now[0])
    assert watcher.poll()
    follower = watcher._entries[journal].follower
    assert (follower.whole_reads, follower.tail_reads) == (1, 0)
    assert not watcher.poll()                          # unchanged: not looked at again
    now[0] += SETTLE + 0.01
    assert not watcher.poll()                          # quiet: one more look, nothing new, nothing read whole
    assert (follower.whole_reads, follower.tail_reads) == (1, 0)
    session = Session.open(journal, now[0])             # the game goes on: new units at the end
    session.board_move("tactile", chess.Move.from_uci("d2d4"), now[0] + 1)
    session.close()
    assert watcher.poll()
    assert (follower.whole_reads, follower.tail_reads) == (1, 1)
    assert watcher.games[0][1].pgn == read_game(journal, "en", workdir).pgn
    with journal.open("ab") as f:                      # a line no writer wrote: only a whole reading judges it
        f.write(b'{"seq":999,"type":"touch"}\n')
    assert watcher.poll()
    assert follower.whole_reads == 2 and watcher.games[0][1].damage


def test_the_folder_gets_every_game_and_each_round_written_whole(tmp_path: Path, running) -> None:
    sources = tmp_path / "journals"
    sources.mkdir()
    play("game_whole.scn", sources / "a.jsonl")
    play("claim_threefold.scn", sources / "b.jsonl")
    out = tmp_path / "live"
    out.mkdir()
    broadcast = running(sources, folder=out)
    assert (out / "games.pgn").read_bytes() == get(broadcast.url + "games.pgn")[1]
    assert (out / "round3" / "games.pgn").read_bytes() == get(broadcast.url + "round3/games.pgn")[1]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == ["games.pgn", "round3", "round3/games.pgn"]


def test_the_window_broadcasts_the_game_it_follows(tmp_path: Path) -> None:
    from blindchess.broadcast import WindowBroadcast

    first = play("game_whole.scn", tmp_path / "a.jsonl")
    second = play("claim_threefold.scn", tmp_path / "b.jsonl")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    window = WindowBroadcast(port, "en")
    try:
        told = window.follow(first)
        assert told == tr("broadcast.window_started", "en", url=f"http://127.0.0.1:{port}/")
        first_pgn = pgn_text(game_from_journal(first, "en"))
        assert wait_for(lambda: get(f"http://127.0.0.1:{port}/game/1.pgn")[1].decode() == first_pgn, 30)
        assert window.follow(second) is None
        assert get(f"http://127.0.0.1:{port}/game/1.pgn")[1].decode() == pgn_text(game_from_journal(second, "en"))
        assert get(f"http://127.0.0.1:{port}/game/2.pgn")[0] == 404       # only the window's game
        window.follow(None)
        with pytest.raises(urllib.error.URLError):
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
    finally:
        window.close()


# -- the command line: bad input ---------------------------------------------------------------------

def one_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err.strip()


def test_a_path_that_does_not_exist_is_one_line_exit_2(tmp_path: Path, capsys) -> None:
    assert main(["broadcast", str(tmp_path / "nowhere"), "--port", "0", "--lang", "en"]) == 2
    assert one_line(capsys) == tr("broadcast.path_missing", "en", path=tmp_path / "nowhere")


def test_a_file_that_is_no_journal_and_a_pipe_are_refused(tmp_path: Path, capsys) -> None:
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"\x00\xff junk")
    assert main(["broadcast", str(junk), "--port", "0"]) == 2
    assert one_line(capsys) == tr("broadcast.not_a_journal", "de", path=junk)
    if not hasattr(os, "mkfifo"):
        return
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    assert main(["broadcast", str(fifo), "--port", "0", "--lang", "ru"]) == 2
    assert "pipe.jsonl" in one_line(capsys)


def test_a_port_in_use_is_one_line_exit_2(tmp_path: Path, capsys) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["broadcast", str(tmp_path), "--port", str(port), "--lang", "nl"]) == 2
    assert one_line(capsys) == tr("broadcast.port_in_use", "nl", host="127.0.0.1", port=port)


def test_a_folder_that_cannot_be_written_is_one_line_exit_2(tmp_path: Path, capsys) -> None:
    play("game_whole.scn", tmp_path / "a.jsonl")
    blocked = tmp_path / "file"
    blocked.write_text("a file where the folder belongs")
    assert main(["broadcast", str(tmp_path), "--port", "0", "--folder", str(blocked), "--lang", "en"]) == 2
    assert one_line(capsys).startswith(tr("broadcast.folder_unwritable", "en", folder=blocked, error="")[:-1])
    assert main(["broadcast", str(tmp_path), "--port", "0", "--folder", str(tmp_path / "no" / "such"), "--lang", "en"]) == 2
    one_line(capsys)
    if hasattr(os, "geteuid") and os.geteuid() != 0:      # root writes anywhere (and Windows has no such mode)
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        assert main(["broadcast", str(tmp_path), "--port", "0", "--folder", str(locked)]) == 2
        one_line(capsys)


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_a_bad_port_is_a_usage_error_in_one_line(port: str, tmp_path: Path, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["broadcast", str(tmp_path), "--port", port, "--lang", "en"])
    assert stop.value.code == 2
    assert tr("broadcast.bad_port", "en", value=port) in one_line(capsys)


def test_help_is_in_the_user_s_language(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["broadcast", "--help", "--lang", "ru"])
    out = " ".join(capsys.readouterr().out.split())
    assert tr("broadcast.description", "ru") in out and tr("broadcast.help_folder", "ru") in out


def test_the_server_s_address_is_loopback_unless_told_otherwise(tmp_path: Path, running) -> None:
    broadcast = running(tmp_path)
    assert broadcast.host == "127.0.0.1" and broadcast.url.startswith("http://127.0.0.1:")


@pytest.mark.parametrize(("option", "value", "key"), [
    ("--delay", "soon", "broadcast.bad_seconds"), ("--delay", "-5", "broadcast.bad_seconds"),
    ("--delay", "nan", "broadcast.bad_seconds"), ("--stale-after", "999999", "broadcast.bad_seconds"),
    ("--arbiter-token", "short", "broadcast.bad_token"), ("--arbiter-token", "has spaces in it", "broadcast.bad_token"),
    ("--lichess-round", "AbCd12345", "broadcast.bad_round"), ("--lichess-round", "../x/yyy", "broadcast.bad_round")])
def test_a_bad_delay_token_or_round_is_a_usage_error_in_one_line(option: str, value: str, key: str, tmp_path: Path,
                                                                 capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["broadcast", str(tmp_path), "--port", "0", option, value, "--lang", "nl"])
    assert stop.value.code == 2
    err = one_line(capsys)
    assert tr(key, "nl", value=value, limit=86400).split(":")[-1].strip()[:20] in err
