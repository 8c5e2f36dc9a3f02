"""Live broadcast: what a move costs in a long game, the start with a hall of journals, slow clients, and a hall
under load.

1. **A move at ply 400 against ply 40.** One journal followed by the broadcast's reader
   (:class:`blindchess.broadcast.reading.GameFollower`) in this process; the table writes a half-move in its
   units (move, announcement, press, mirror) and the reader looks after each unit: the time of those looks
   per half-move, median over 40 half-moves, at ply 40 and at ply 400 (target: ply 400 within 1.5 times ply 40).
2. **The start with 100 journals** (games of 40 to 240 half-moves): ``blindchess broadcast FOLDER --port 0``
   started as a user starts it; seconds until it answers its first request, and until all 100 games are served.
3. **Slow clients.** The broadcast of 20 games while 200 connections send their request's head slowly (never
   finished), one says nothing at all, 20 live streams never read: 10 clients ask for ``/games.pgn``,
   ``/arbiter`` and ``/games.json`` (600 requests); latency median, p95, max, failures — and without the slow
   ones, for comparison.
4. **A hall under load.** Three real processes: a writer plays 50 games through the rules engine into journals
   in one folder (historical games from ``tests/data/games/classics.pgn``, the sighted player White, the blind
   player Black: board move, announcement, press and mirror — every unit written and fsynced as at a table);
   the server ``blindchess broadcast FOLDER --port 0``; this script's clients polling ``/games.pgn`` each
   second. Before the clock starts each game has its first ``--prefix`` half-moves; then every game makes a
   half-move every ``--interval`` seconds (staggered). Reported: the clients' latency and errors; how soon a
   half-move journaled is served (a monitor polls every 0.1 s — good to 0.1 s); the server's memory and CPU.

Run: ``python tests/benchmarks/bench_broadcast.py [--games 50] [--clients 20] [--seconds 30] [--interval 10]``
(``--only cost|start|slow|load`` for one part).
"""

from __future__ import annotations

import argparse
import heapq
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CLASSICS = ROOT / "tests" / "data" / "games" / "classics.pgn"
TARGET_FRESH = 1.0   # a half-move is served within a second of being journaled


# -- the writer (a process of its own) -------------------------------------------------------------------

def writer(folder: Path, games: int, prefix: int, interval: float, seconds: float) -> None:
    import chess
    import chess.pgn

    from blindchess.game import Player, Session
    from blindchess.game.events import MoveMade

    with CLASSICS.open(encoding="utf-8") as f:
        pool = []
        while (game := chess.pgn.read_game(f)) is not None:
            pool.append(list(game.mainline_moves()))
    pool = sorted(pool, key=len, reverse=True)[:games]
    real_fsync = os.fsync
    os.fsync = lambda fd: None      # setting up the games in progress: same bytes, no waiting for the disk
    sessions = []
    clock = 0.0
    live = [False]      # from GO on, each half-move made is told with the time its unit was fsynced
    for i in range(len(pool)):
        s = Session.new(Player(f"White {i + 1:02d}"), Player(f"Black {i + 1:02d}", True), "90+30",
                        journal=folder / f"board{i + 1:02d}.jsonl", now=0.0, headers={"Event": "Bench", "Round": "1"})
        s.start_clock(0.0)
        sessions.append(s)
    def half_move(s: Session, move: chess.Move, now: float) -> bool:
        """One half-move as at the table; True once it is made (D.2.3 / D.2.5)."""
        made = False
        if s.snapshot.to_move == chess.WHITE:      # the sighted player moves and presses; the blind player mirrors
            steps = [lambda: s.board_move("sighted", move, now), lambda: s.press_clock(chess.WHITE, now + 0.1),
                     lambda: s.board_move("tactile", move, now + 0.2)]
        else:                              # the blind player moves on his board, announces, presses; mirrored
            steps = [lambda: s.board_move("tactile", move, now), lambda: s.announce(move, move.uci(), now + 0.1),
                     lambda: s.press_clock(chess.BLACK, now + 0.2), lambda: s.board_move("sighted", move, now + 0.3)]
        for step in steps:
            events = step()
            if not made and any(isinstance(e, MoveMade) for e in events):
                made = True
                yield_made(s)
        return made

    def yield_made(s: Session) -> None:
        if live[0]:
            print(f"M {sessions.index(s) + 1} {s.snapshot.plies} {time.time():.6f}", flush=True)

    for s, moves in zip(sessions, pool):
        for move in moves[:prefix]:
            clock += 1.0
            half_move(s, move, clock)
    os.fsync = real_fsync
    print("READY", flush=True)
    sys.stdin.readline()               # GO
    live[0] = True
    start = time.monotonic()
    due = [(start + i * interval / games, i) for i in range(games)]
    heapq.heapify(due)
    while due:
        when, i = heapq.heappop(due)
        if when - start > seconds:
            break
        time.sleep(max(0.0, when - time.monotonic()))
        s, moves = sessions[i], pool[i]
        if s.snapshot.plies < len(moves):
            clock += 1.0
            half_move(s, moves[s.snapshot.plies], clock)
            heapq.heappush(due, (when + interval, i))
    print("DONE", flush=True)
    sys.stdin.readline()               # CLOSE: after the measurement (closing 50 journals at once is a burst of its own)
    for s in sessions:
        s.close()


# -- the clients ------------------------------------------------------------------------------------------

def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# -- 1. a move at ply 400 against ply 40 ---------------------------------------------------------------------

def half_move_steps(s, move, now: float) -> list:   # type: ignore[no-untyped-def]
    """The table's inputs of one half-move, each journaled as one unit (see tests.support.broadcast.half_move)."""
    import chess

    if s.snapshot.to_move == chess.WHITE:
        return [lambda: s.board_move("sighted", move, now), lambda: s.press_clock(chess.WHITE, now + 0.1),
                lambda: s.board_move("tactile", move, now + 0.2)]
    return [lambda: s.board_move("tactile", move, now), lambda: s.announce(move, move.uci(), now + 0.1),
            lambda: s.press_clock(chess.BLACK, now + 0.2), lambda: s.board_move("sighted", move, now + 0.3)]


def cost_of_a_move() -> bool:
    """Median seconds of the reader's looks per half-move at ply 40 and ply 400."""
    from blindchess.broadcast.reading import GameFollower
    from blindchess.game import Player, Session
    from tests.support.broadcast import half_move, long_game

    moves = long_game(460)
    out = {}
    real_fsync = os.fsync
    with tempfile.TemporaryDirectory(prefix="bench-broadcast-cost-") as tmp:
        for plies in (40, 400):
            path = Path(tmp) / f"{plies}.jsonl"
            os.fsync = lambda fd: None      # setting the game up fast: the same bytes
            s = Session.new(Player("White"), Player("Black", True), "90+30", journal=path, now=0.0)
            s.start_clock(0.0)
            for i, move in enumerate(moves[:plies]):
                half_move(s, move, i + 1.0)
            os.fsync = real_fsync
            follower = GameFollower(path, "en", Path(tmp))
            follower.look()
            costs = []
            for k in range(plies, plies + 40):
                spent = 0.0
                for step in half_move_steps(s, moves[k], k + 1.0):
                    step()
                    t = time.perf_counter()
                    follower.look()
                    spent += time.perf_counter() - t
                costs.append(spent)
            assert follower.game is not None and follower.game.plies == plies + 40 and follower.whole_reads == 1
            out[plies] = statistics.median(costs)
            s.close()
    ratio = out[400] / out[40]
    ok = ratio <= 1.5
    print(f"a new half-move read, replayed and written (median of 40): ply 40 {out[40] * 1000:.2f} ms, "
          f"ply 400 {out[400] * 1000:.2f} ms — {ratio:.2f}x ({'met' if ok else 'NOT met'}: within 1.5x)")
    return ok


# -- 2. the start with 100 journals ----------------------------------------------------------------------------

def make_hall(folder: Path, games: int, shortest: int, longest: int) -> None:
    """``games`` journals of games in progress, ``shortest`` to ``longest`` half-moves, written without fsync."""
    from blindchess.game import Player, Session
    from tests.support.broadcast import half_move, long_game

    real_fsync = os.fsync
    os.fsync = lambda fd: None
    try:
        pool = long_game(longest, seed=3)
        for i in range(games):
            s = Session.new(Player(f"White {i + 1:03d}"), Player(f"Black {i + 1:03d}", True), "90+30",
                            journal=folder / f"board{i + 1:03d}.jsonl", now=0.0,
                            headers={"Event": "Bench", "Round": "1", "Board": str(i + 1)})
            s.start_clock(0.0)
            for k, move in enumerate(pool[:shortest + (longest - shortest) * i // max(1, games - 1)]):
                half_move(s, move, k + 1.0)
            s.close()
    finally:
        os.fsync = real_fsync


def start_up(env: dict[str, str]) -> bool:
    with tempfile.TemporaryDirectory(prefix="bench-broadcast-start-") as tmp:
        folder = Path(tmp) / "hall"
        folder.mkdir()
        make_hall(folder, 100, 40, 240)
        t = time.perf_counter()
        server = subprocess.Popen([sys.executable, "-m", "blindchess", "broadcast", str(folder), "--port", "0",
                                   "--lang", "en"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            assert server.stdout is not None
            found = re.search(r"http://127\.0\.0\.1:\d+/", server.stdout.readline())
            if not found:
                raise SystemExit("the server did not start")
            url = found.group(0)
            urllib.request.urlopen(url + "games.json", timeout=30).read()
            first = time.perf_counter() - t
            counts = []
            while True:
                games = len(json.loads(urllib.request.urlopen(url + "games.json", timeout=30).read()))
                counts.append((time.perf_counter() - t, games))
                if games == 100 or time.perf_counter() - t > 300:
                    break
                time.sleep(0.05)
            whole = counts[-1][0]
        finally:
            server.send_signal(signal.SIGINT)
            server.communicate(timeout=30)
    print(f"start with 100 journals (40-240 half-moves): first answer after {first:.2f} s (games served then: "
          f"{counts[0][1]}), all 100 served after {whole:.2f} s")
    return counts[-1][1] == 100


# -- 3. slow clients -------------------------------------------------------------------------------------

def slow_clients(env: dict[str, str]) -> bool:
    import socket

    def measure(url: str) -> tuple[list[float], int]:
        latencies: list[float] = []
        failures = [0]
        lock = threading.Lock()

        def client(k: int) -> None:
            for i in range(60):
                path = ("games.pgn", "arbiter", "games.json")[(i + k) % 3]
                t0 = time.perf_counter()
                try:
                    urllib.request.urlopen(url + path, timeout=60).read()
                    with lock:
                        latencies.append(time.perf_counter() - t0)
                except OSError:
                    with lock:
                        failures[0] += 1

        threads = [threading.Thread(target=client, args=(k,)) for k in range(10)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return latencies, failures[0]

    with tempfile.TemporaryDirectory(prefix="bench-broadcast-slow-") as tmp:
        folder = Path(tmp) / "hall"
        folder.mkdir()
        make_hall(folder, 20, 60, 120)
        server = subprocess.Popen([sys.executable, "-m", "blindchess", "broadcast", str(folder), "--port", "0",
                                   "--lang", "en"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        held: list[socket.socket] = []
        try:
            assert server.stdout is not None
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", server.stdout.readline())
            if not found:
                raise SystemExit("the server did not start")
            url, port = found.group(0), int(found.group(1))
            while len(json.loads(urllib.request.urlopen(url + "games.json", timeout=30).read())) < 20:
                time.sleep(0.1)
            calm, calm_failed = measure(url)
            for i in range(221):
                sock = socket.create_connection(("127.0.0.1", port), timeout=30)
                if i < 200:
                    sock.sendall(b"GET /games.pgn HTTP/1.1\r\nHost: hall\r\nX-Slow: ")
                elif i < 220:
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                    sock.sendall(b"GET /events HTTP/1.1\r\nHost: hall\r\n\r\n")
                held.append(sock)
            slow, slow_failed = measure(url)
        finally:
            for sock in held:
                sock.close()
            server.send_signal(signal.SIGINT)
            server.communicate(timeout=30)

    def figures(values: list[float]) -> str:
        return (f"median {percentile(values, 50) * 1000:.1f} ms, p95 {percentile(values, 95) * 1000:.1f} ms, "
                f"max {max(values) * 1000:.1f} ms")

    print(f"slow clients: 600 requests (/games.pgn, /arbiter, /games.json; 20 games), 10 clients: without slow ones "
          f"{figures(calm)}, {calm_failed} failed; with 200 slow heads, 1 silent connection, 20 unread live streams "
          f"{figures(slow)}, {slow_failed} failed")
    return slow_failed == 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--only", choices=("cost", "start", "slow", "load"))
    ap.add_argument("--interval", type=float, default=10.0, help="seconds between two half-moves of one game")
    ap.add_argument("--prefix", type=int, default=30, help="half-moves each game has before the clock starts")
    ap.add_argument("--writer", metavar="FOLDER", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.writer:
        writer(Path(args.writer), args.games, args.prefix, args.interval, args.seconds)
        return 0

    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    ok = True
    if args.only in (None, "cost"):
        ok &= cost_of_a_move()
    if args.only in (None, "start"):
        ok &= start_up(env)
    if args.only in (None, "slow"):
        ok &= slow_clients(env)
    if args.only not in (None, "load"):
        return 0 if ok else 1
    return 0 if load(args, env) and ok else 1


def load(args: argparse.Namespace, env: dict[str, str]) -> bool:
    """4. A hall under load (module docstring)."""
    with tempfile.TemporaryDirectory(prefix="bench-broadcast-") as tmp:
        folder = Path(tmp) / "hall"
        folder.mkdir()
        env["BLINDCHESS_HOME"] = str(Path(tmp) / "home")
        t = time.perf_counter()
        write = subprocess.Popen([sys.executable, __file__, "--writer", str(folder), "--games", str(args.games),
                                  "--prefix", str(args.prefix), "--interval", str(args.interval),
                                  "--seconds", str(args.seconds)],
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        assert write.stdout is not None and write.stdin is not None
        if write.stdout.readline().strip() != "READY":
            raise SystemExit("the writer did not start")
        setup = time.perf_counter() - t
        server = subprocess.Popen([sys.executable, "-m", "blindchess", "broadcast", str(folder), "--port", "0",
                                   "--lang", "en"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        assert server.stdout is not None
        found = re.search(r"http://127\.0\.0\.1:\d+/", server.stdout.readline())
        if not found:
            raise SystemExit("the server did not start: " + (server.stderr.read() if server.stderr else ""))
        url = found.group(0) + "games.pgn"
        read_by = time.monotonic() + 300         # the games fill in as they are read (served at once)
        while (served := urllib.request.urlopen(url, timeout=30).read().decode().count("[Event ")) != args.games:
            if time.monotonic() > read_by:
                raise SystemExit(f"the server serves {served} games, not {args.games}")
            time.sleep(0.1)
        rss_start = rss_kib(server.pid)
        cpu_start = cpu_seconds(server.pid)

        journaled: dict[tuple[int, int], float] = {}
        seen: dict[tuple[int, int], float] = {}
        latencies: list[float] = []
        errors: list[str] = []
        sizes: list[int] = []
        rss: list[int] = [rss_start]
        stop = threading.Event()

        done = threading.Event()

        def read_writer() -> None:
            for line in write.stdout:
                if line.startswith("M "):
                    _, game, ply, when = line.split()
                    journaled[(int(game), int(ply))] = float(when)
                elif line.startswith("DONE"):
                    done.set()

        def client(k: int) -> None:
            next_at = time.monotonic() + k / args.clients
            while not stop.is_set():
                stop.wait(max(0.0, next_at - time.monotonic()))
                if stop.is_set():
                    break
                next_at += 1.0
                t0 = time.perf_counter()
                try:
                    with urllib.request.urlopen(url, timeout=30) as response:
                        body = response.read()
                    latencies.append(time.perf_counter() - t0)
                    sizes.append(len(body))
                except OSError as exc:
                    errors.append(f"{type(exc).__name__}: {exc}")

        white = re.compile(r'\[White "White (\d+)"\]')

        def monitor() -> None:
            while not stop.wait(0.1):
                try:
                    text = urllib.request.urlopen(url, timeout=30).read().decode()
                except OSError:
                    continue
                now = time.time()
                for chunk in text.split("\n\n[Event ")[0:]:
                    found = white.search(chunk)
                    if found:
                        game, plies = int(found.group(1)), chunk.count("[%clk")
                        for ply in range(1, plies + 1):
                            seen.setdefault((game, ply), now)

        def memory() -> None:
            while not stop.wait(1.0):
                rss.append(rss_kib(server.pid))

        threads = [threading.Thread(target=read_writer, daemon=True), threading.Thread(target=monitor, daemon=True),
                   threading.Thread(target=memory, daemon=True)]
        threads += [threading.Thread(target=client, args=(k,), daemon=True) for k in range(args.clients)]
        for thread in threads:
            thread.start()
        write.stdin.write("GO\n")
        write.stdin.flush()
        began = time.monotonic()
        time.sleep(args.seconds)
        wall = time.monotonic() - began
        while not done.is_set() and time.monotonic() < began + args.seconds + 30:   # the writer's last half-moves
            time.sleep(0.1)
        settle = time.monotonic() + 5      # the last half-moves reach the page (a bound, not a measurement)
        while time.monotonic() < settle and any(key not in seen for key in list(journaled)):
            time.sleep(0.1)
        stop.set()
        for thread in threads[1:]:
            thread.join(timeout=35)
        write.stdin.write("CLOSE\n")
        write.stdin.flush()
        write.wait(timeout=60)
        cpu = cpu_seconds(server.pid) - cpu_start
        peak = rss_kib(server.pid, "VmHWM")
        rss_end = rss_kib(server.pid)
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)

    fresh = [seen[key] - when for key, when in journaled.items() if key in seen]
    if os.environ.get("BENCH_VERBOSE"):
        start = min(journaled.values())
        worst = sorted(((seen[k] - w, k, w - start) for k, w in journaled.items() if k in seen), reverse=True)[:8]
        print("  slowest:", ", ".join(f"game {k[0]} ply {k[1]} at +{at:.1f} s: {d:.2f} s" for d, k, at in worst))
    missing = [key for key in journaled if key not in seen]
    print(f"broadcast: {args.games} games in progress ({args.prefix} half-moves each when the clock starts; set up in "
          f"{setup:.1f} s), a half-move per game every {args.interval:g} s, {args.clients} clients polling /games.pgn "
          f"each second, {wall:.0f} s")
    print(f"  requests: {len(latencies)} answered, {len(errors)} failed; answer {statistics.mean(sizes) / 1024:.0f} kB")
    print(f"  latency: median {percentile(latencies, 50) * 1000:.1f} ms, p90 {percentile(latencies, 90) * 1000:.1f} ms, "
          f"p99 {percentile(latencies, 99) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms")
    print(f"  journaled -> served: {len(journaled)} half-moves, median {percentile(fresh, 50):.2f} s, "
          f"p95 {percentile(fresh, 95):.2f} s, p99 {percentile(fresh, 99):.2f} s, max {max(fresh):.2f} s"
          f"{f', {len(missing)} never seen' if missing else ''} (target < {TARGET_FRESH:g} s)")
    print(f"  server memory: {rss_start / 1024:.0f} MB at the start, peak {peak / 1024:.0f} MB, {rss_end / 1024:.0f} MB "
          f"at the end; CPU {cpu:.1f} s in {wall:.0f} s ({cpu / wall * 100:.0f} % of one core)")
    if errors:
        print("  first error:", errors[0])
    ok = not errors and not missing and percentile(fresh, 99) < TARGET_FRESH
    print(f"  {'met' if ok else 'NOT met'}: every request answered, every half-move served, p99 under {TARGET_FRESH:g} s")
    return ok


if __name__ == "__main__":
    sys.exit(main())
