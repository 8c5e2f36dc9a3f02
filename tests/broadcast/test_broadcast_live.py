"""Live broadcast end to end: real processes. ``blindchess broadcast`` on an empty folder while two scenario
games are played into it, read over HTTP until both are complete; a game killed with SIGKILL in the middle;
the pages in a real browser (headless Chromium: screenshots and the DOM it built); the window's setting."""

from __future__ import annotations

import io
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from html import escape
from pathlib import Path

import chess
import chess.pgn
import pytest

from blindchess.adapters.exports.source import game_from_journal
from blindchess.base.i18n import tr
from blindchess.broadcast import Broadcast, WindowBroadcast
from blindchess.broadcast.reading import pgn_text
from blindchess.game import Player, Session
from blindchess.game.events import MoveMade
from blindchess.table.commands import BlindSays, TactileMove
from tests.support.broadcast import diverged, play, structure
from tests.support.paths import REPO
from tests.support.waiting import wait_for

pytestmark = pytest.mark.slow

ROOT = REPO
SCENARIOS = ROOT / "tests" / "scenarios"
SHOTS = ROOT / "test-artifacts" / "screenshots"


def env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")


def fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, OSError):
        return None


def games_in(text: str) -> list[chess.pgn.Game]:
    stream, out = io.StringIO(text), []
    while (game := chess.pgn.read_game(stream)) is not None:
        assert not game.errors, game.errors
        out.append(game)
    return out


def start_server(folder: Path, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """``blindchess broadcast FOLDER --port 0`` as a user starts it; its address from its first line."""
    proc = subprocess.Popen([sys.executable, "-m", "blindchess", "broadcast", str(folder), "--port", "0", "--lang", "en",
                             *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env())
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"http://127\.0\.0\.1:\d+/", line)
    assert found, (line, proc.stderr.read() if proc.poll() is not None and proc.stderr else "")
    return proc, found.group(0)


def stop_server(proc: subprocess.Popen[str]) -> None:
    """Ctrl-C, as a user ends it: exit 130, one line."""
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert err.strip() == tr("cli.interrupted", "en")


def check_against_journal(served: chess.pgn.Game, journal: Path) -> None:
    """Moves, clocks and result as the rules engine rebuilds the game from its journal."""
    session = Session.load(journal)
    nodes = list(served.mainline())
    assert [n.move for n in nodes] == list(session.snapshot.game_moves)
    assert served.headers["Result"] == (session.snapshot.result or "*")
    presses = {snap.ply: snap for snap in session.clock.history if snap.ply > 0}
    made = {ev.ply: ev.t for ev in session.events if isinstance(ev, MoveMade)}
    for ply, node in enumerate(nodes, start=1):
        mover = chess.WHITE if ply % 2 == 1 else chess.BLACK
        snap = presses.get(ply)
        if snap is not None:          # the mover's time after his press (D.2.4)
            wanted = snap.remaining_of(mover)
        else:                         # made, not yet pressed: his time when he made it
            assert ply == len(nodes) and session.clock.running == mover
            wanted = session.clock.remaining(mover, made[ply])
        assert node.clock() is not None and math.isclose(node.clock(), wanted, abs_tol=0.05), ply


def test_two_games_played_into_an_empty_folder_are_served_live_until_complete(tmp_path: Path) -> None:
    folder = tmp_path / "hall"
    folder.mkdir()
    server, url = start_server(folder, "--folder", str(tmp_path / "live"))
    try:
        assert fetch(url + "games.pgn") == ""          # an empty folder: no game yet
        players = [subprocess.Popen([sys.executable, "-m", "blindchess", "scenario", "run", str(SCENARIOS / script),
                                     "--journal", str(folder / name)], stdout=subprocess.DEVNULL, env=env())
                   for script, name in (("game_whole.scn", "a.jsonl"), ("claim_threefold.scn", "b.jsonl"))]
        seen: list[list[list[chess.Move]]] = []

        def complete() -> bool:
            text = fetch(url + "games.pgn")
            if text is None:
                return False
            games = games_in(text)
            seen.append([list(g.mainline_moves()) for g in games])
            if any(p.poll() is None for p in players) or len(games) != 2:
                return False
            by_name = {g.headers["Result"]: g for g in games}
            return len(list(by_name.get("*", chess.pgn.Game()).mainline_moves())) == 16 and "1/2-1/2" in by_name

        assert wait_for(complete, 120)
        assert [p.returncode for p in players] == [0, 0]
        served = games_in(fetch(url + "games.pgn") or "")
        journals = {"*": folder / "a.jsonl", "1/2-1/2": folder / "b.jsonl"}
        for game in served:
            check_against_journal(game, journals[game.headers["Result"]])
        # every state served on the way was the start of the game as journaled — never an invented move
        finals = {len(list(g.mainline_moves())): list(g.mainline_moves()) for g in served}
        for state in seen:
            for moves in state:
                assert any(final[: len(moves)] == moves for final in finals.values())
        one = [fetch(f"{url}game/{n}.pgn") for n in (1, 2)]
        assert sorted(one) == sorted(pgn_text(game_from_journal(p, "en")) for p in journals.values())
        assert (tmp_path / "live" / "games.pgn").read_text(encoding="utf-8") == fetch(url + "games.pgn")
        assert (tmp_path / "live" / "round3" / "games.pgn").read_text(encoding="utf-8") == \
            pgn_text(game_from_journal(journals["*"], "en"))
    finally:
        stop_server(server)


#: A scenario run whose journal pauses after an fsync once it holds six half-moves: the kill then falls at a
#: known moment of the game, not by a race.
PAUSING_PLAYER = """
import os, sys
journal, script = sys.argv[1], sys.argv[2]
real = os.fsync
def fsync(fd):
    real(fd)
    try:
        made = open(journal, "rb").read().count(b'"type":"move-made"')
    except OSError:
        made = 0
    if made >= 6:
        print("PAUSED", flush=True)
        sys.stdin.readline()
os.fsync = fsync
from blindchess.cli import main
sys.exit(main(["scenario", "run", script, "--journal", journal]))
"""


def test_a_game_killed_mid_game_is_served_as_journaled(tmp_path: Path) -> None:
    folder = tmp_path / "hall"
    folder.mkdir()
    journal = folder / "k.jsonl"
    child = tmp_path / "pausing.py"
    child.write_text(PAUSING_PLAYER)
    server, url = start_server(folder)
    try:
        player = subprocess.Popen([sys.executable, str(child), str(journal), str(SCENARIOS / "game_whole.scn")],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env())
        assert player.stdout is not None and player.stdout.readline().strip() == "PAUSED"
        player.send_signal(signal.SIGKILL)
        assert player.wait(timeout=30) == -signal.SIGKILL
        session = Session.load(journal)
        assert 6 <= session.snapshot.plies < 16                              # killed in the middle of the game
        def caught_up() -> bool:
            text = fetch(url + "game/1.pgn")
            return text is not None and list(games_in(text)[0].mainline_moves()) == list(session.snapshot.game_moves)

        assert wait_for(caught_up, 30)
        served = games_in(fetch(url + "games.pgn") or "")
        assert len(served) == 1
        check_against_journal(served[0], journal)
        assert tr("broadcast.damage_heading", "en") not in (fetch(url) or "")   # a crash is no damage
    finally:
        stop_server(server)


# -- the pages in a real browser -----------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / f"chromium-{len(list(tmp_path.glob('chromium-*')))}"
    return subprocess.run([CHROMIUM or "chromium", *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=180)


@pytest.mark.skipif(CHROMIUM is None, reason="Debian package chromium not installed (make setup-test installs it)")
def test_the_pages_in_headless_chromium(tmp_path: Path) -> None:
    folder = tmp_path / "hall"
    folder.mkdir()
    play("game_whole.scn", folder / "1-whole.jsonl")
    play("claim_threefold.scn", folder / "2-claim.jsonl")
    diverged(folder / "3-diverged.jsonl")
    flagged = Session.new(Player("Clara", True), Player("Dora"), "1+0", journal=folder / "4-flag.jsonl", now=0.0)
    flagged.start_clock(0.0)
    flagged.tick(61.0)
    flagged.close()
    SHOTS.mkdir(parents=True, exist_ok=True)
    broadcast = Broadcast([folder], lang="de", port=0)
    broadcast.start()
    try:
        for name, path in (("broadcast-spectators", ""), ("broadcast-arbiter", "arbiter")):
            shot = SHOTS / f"{name}.png"
            shot.unlink(missing_ok=True)
            done = chromium(tmp_path, "--window-size=1280,1800", f"--screenshot={shot}", broadcast.url + path)
            assert shot.is_file() and shot.stat().st_size > 10_000, done.stderr[-2000:]
            assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            dom = chromium(tmp_path, "--dump-dom", broadcast.url + path).stdout
            page = structure(dom.encode("utf-8"))              # the document as the browser built it
            assert page.lang == "de" and page.scripts == 0 and page.captions == 1
            assert set(page.th_scopes) == {"col", "row"}
            assert page.headings[0].startswith("h1:") and any(h.startswith("h2:") for h in page.headings)
        arbiter = chromium(tmp_path, "--dump-dom", broadcast.url + "arbiter").stdout
        page = structure(arbiter.encode("utf-8"))
        assert "h3:" + tr("broadcast.table_heading", "de", number=3, players="Anna <b> – Bert") in page.headings
        assert tr("broadcast.flag_fallen", "de", color="Weiß") in arbiter
        ruling = Session.load(folder / "3-diverged.jsonl").propose_ruling("de")
        assert ruling is not None and escape(tr("broadcast.proposal", "de", text=ruling.explain("de"))) in arbiter
    finally:
        broadcast.stop()


# -- the window's setting ------------------------------------------------------------------------------

def test_the_window_broadcasts_its_game_when_the_setting_is_on(tmp_path: Path, qtbot) -> None:
    import socket

    from blindchess.adapters.speech.tts import Speaker
    from blindchess.table.table import TableSetup
    from blindchess.ui import broadcasting
    from blindchess.ui.controller import GameController
    from blindchess.ui.settings import Settings
    from blindchess.ui.settings_dialog import SettingsDialog

    settings = Settings(lang="de", earcons=False)
    assert settings.broadcast is False                              # off by default
    dialog = SettingsDialog(None, settings, lang="de")
    qtbot.addWidget(dialog)
    assert not dialog.broadcast.isChecked()
    assert dialog.broadcast.accessibleName() == tr("broadcast.setting", "de")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    dialog.broadcast.setChecked(True)
    dialog.broadcast_port.setValue(port)
    dialog.store()
    assert settings.broadcast and settings.broadcast_port == port

    broadcasting.use(WindowBroadcast)
    told: list[str] = []
    try:
        with Speaker("de", engine="text") as speaker:
            controller = GameController(Settings(lang="de", earcons=False), speaker=speaker, clock=lambda: 0.0,
                                        ticking=False)
            controller.info.connect(told.append)
            journal = tmp_path / "window.jsonl"
            assert controller.start(TableSetup(white="Anna", black="Bert", blind="white", tactile="none"), journal)
            assert fetch(f"http://127.0.0.1:{port}/") is None                   # the setting is off: nothing served
            controller.apply_settings(settings)
            address = f"http://127.0.0.1:{port}/"
            assert tr("broadcast.window_started", "de", url=address) in told
            controller.table.handle(TactileMove("e2e4"), 1.0)
            controller.table.handle(BlindSays("Eva vier", None), 1.2)
            assert Session.load(journal).snapshot.plies == 1

            def served() -> bool:
                text = fetch(address + "game/1.pgn")
                return text is not None and [m.uci() for m in games_in(text)[0].mainline_moves()] == ["e2e4"]

            assert wait_for(served, 10)
            settings.broadcast = False
            controller.apply_settings(settings)
            assert fetch(address) is None
            controller.shutdown()
    finally:
        broadcasting.use(None)


# -- the live pages in a real browser: a move appears without a reload and is said once ---------------------

#: Records every text the polite live region takes (what a screen reader says of it), and marks the page: a
#: reload would lose both.
LISTEN = """(() => {
  window.__heard = [];
  window.__same = 'never reloaded';
  const region = document.getElementById('latest');
  new MutationObserver(() => window.__heard.push(region.textContent))
      .observe(region, {childList: true, characterData: true, subtree: true});
  return region.getAttribute('aria-live');
})()"""


@pytest.mark.skipif(CHROMIUM is None, reason="Debian package chromium not installed (make setup-test installs it)")
def test_a_move_appears_on_both_pages_without_a_reload_and_is_said_once(tmp_path: Path) -> None:
    import asyncio
    import time

    import chess

    from tests.support.broadcast import Browser, Tab, half_move

    folder = tmp_path / "hall"
    folder.mkdir()
    start = time.time()
    session = Session.new(Player("Anna Adler"), Player("Bert Berg", True), "90+30", journal=folder / "a.jsonl",
                          now=start, headers={"Event": "Open", "Round": "1", "Board": "1"})
    session.start_clock(start)
    half_move(session, chess.Move.from_uci("e2e4"), start + 1)
    broadcast = Broadcast([folder], lang="de", port=0)
    broadcast.start()
    browser = Browser(CHROMIUM or "chromium", tmp_path / "profile")
    assert broadcast.ready(60)
    said = tr("broadcast.announce_move", "de", number=1, white="Anna Adler", black="Bert Berg", move="1... e5")
    said_arbiter = tr("broadcast.announce_table_move", "de", number=1, move="1... e5")

    async def watch() -> None:
        spectators = await Tab.open(browser, broadcast.url)
        arbiter = await Tab.open(browser, broadcast.url + "arbiter")
        try:
            for tab in (spectators, arbiter):
                await tab.call("Page.enable")
                assert await tab.until("document.readyState === 'complete' && !!document.getElementById('latest')")
                assert await tab.value(LISTEN) == "polite"
                tab.listening_from = len(tab.events)        # type: ignore[attr-defined]
                node = await tab.call("DOM.getDocument")
                found = await tab.call("DOM.querySelector", nodeId=node["root"]["nodeId"], selector="#latest")
                tree = await tab.call("Accessibility.getPartialAXTree", nodeId=found["nodeId"], fetchRelatives=False)
                properties = {p["name"]: p["value"].get("value") for p in tree["nodes"][0].get("properties", [])}
                assert properties.get("live") == "polite" and tree["nodes"][0]["role"]["value"] == "status"
                clock = "document.querySelector('[data-game=\"1\"] [data-clock=\"black\"]').textContent"
                first = await tab.value(clock)
                assert await tab.until(f"{clock} !== {first!r}", 30)        # Black's clock runs and ticks
            half_move(session, chess.Move.from_uci("e7e5"), time.time())       # the next half-move, journaled
            last = "document.querySelector('[data-list=\"rows\"] [data-game=\"1\"] [data-field=\"last\"]')"
            assert await spectators.until(f"{last}.textContent === '1... e5'")
            assert "1. e4 e5" in await spectators.value(
                "document.querySelector('section[data-game=\"1\"] [data-field=\"moves_text\"]').textContent")
            assert (await spectators.value("document.querySelector('img.board').getAttribute('src')")).endswith("?p=2")
            assert await arbiter.until("document.querySelector('[data-game=\"1\"] [data-field=\"state\"]')"
                                       f".textContent.includes({tr('session.white', 'de')!r})")
            half_move(session, chess.Move.from_uci("g1f3"), time.time())       # one more, so a repeat would show
            assert await spectators.until(f"{last}.textContent === '2. Sf3'")
            assert await arbiter.until("window.__heard.length >= 2")
            heard = await spectators.value("window.__heard")
            assert heard.count(said) == 1 and heard[-1].endswith("2. Sf3"), heard
            heard = await arbiter.value("window.__heard")
            assert heard.count(said_arbiter) == 1, heard
            for tab in (spectators, arbiter):
                assert await tab.value("window.__same") == "never reloaded"
                later = tab.events[tab.listening_from:]      # type: ignore[attr-defined]
                assert not [e for e in later if e.get("method") in ("Page.frameNavigated", "Page.loadEventFired")]
            await spectators.call("Emulation.setDeviceMetricsOverride", width=360, height=740, deviceScaleFactor=2,
                                  mobile=True)
            assert await spectators.until("document.documentElement.scrollWidth <= window.innerWidth + 1")
        finally:
            await spectators.close()
            await arbiter.close()

    try:
        asyncio.run(watch())
    finally:
        browser.close()
        broadcast.stop()
        session.close()
