"""Benchmark: latency from a byte written to the pty to the tracker event delivered; events per second.

Plain script (not a pytest test). A virtual peg-board on a real pseudo-terminal
plays random legal games; a SerialLink (pyserial reader thread) feeds a
Tracker. Latency = time from writing the "L <square>" line into the pty master
to the "touched" event reaching the callback, and from writing the final
"P <square>" to the "move" event (settle time 0 here, so the move is judged at
once — with the default 0.5 s settle the move comes 0.5 s later by design).
Throughput = lines written back to back until the last event arrives.
Target: p99 < 10 ms.

Junk figures: the line assembler and the DGT decoder on 1 MB
without a line feed, 2 MB, 30 MB of 0xFF and 1 MB of random bytes, fed in
4 KB reads as the serial link does — seconds, bytes per second, the most bytes
held between reads, and the length of the longest report text.
``--junk`` prints only these.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from blindchess.adapters.devices.link import SerialLink  # noqa: E402
from blindchess.adapters.devices.simulator import VirtualPegboard  # noqa: E402
from blindchess.pegboard import dgt  # noqa: E402
from blindchess.pegboard.protocol import Decoder, ProtocolError, lift_line, place_line  # noqa: E402
from blindchess.pegboard.tracker import Tracker  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def junk_figures(read: int = 4096) -> None:
    rng = random.Random(5)
    cases = [("1 MB printable, no line feed", b"x" * (1 << 20)),
             ("2 MB printable, no line feed", b"x" * (2 << 20)),
             ("'L' + 2 MB of 0xFF, no LF", b"L" + b"\xff" * (2 << 20)),
             ("30 MB of 0xFF", b"\xff" * (30 << 20)),
             ("1 MB random bytes", bytes(rng.getrandbits(8) for _ in range(1 << 20)))]
    print(f"bench_pegboard junk (reads of {read} bytes; shared machine: figures vary with load)")
    for name, data in cases:
        for label, decoder in (("line protocol", Decoder()), ("DGT", dgt.DgtDecoder())):
            held = longest = reports = 0
            start = time.perf_counter()
            for i in range(0, len(data), read):
                for item in decoder.feed(data[i:i + read], 0.0):
                    if isinstance(item, ProtocolError):
                        reports += 1
                        longest = max(longest, len(item.text))
                pending = decoder.assembler.pending if isinstance(decoder, Decoder) else decoder.pending
                held = max(held, pending)
            elapsed = time.perf_counter() - start
            print(f"  {label:13s} {name:30s} {elapsed:7.3f} s  {len(data) / elapsed / 1e6:7.1f} MB/s"
                  f"  held <= {held:5d} B  reports {reports:6d}  longest text {longest:3d} chars")


def main(samples: int = 300) -> None:
    rng = random.Random(1)
    arrived = threading.Event()
    box: dict = {}

    def on_event(event) -> None:
        box.setdefault(event.type, time.perf_counter())
        if event.type in box.get("want", ()):
            arrived.set()

    with tempfile.TemporaryDirectory() as folder:
        sim = VirtualPegboard(link=Path(folder) / "board")
        sim.open()
        tracker = Tracker(chess.Board(), settle=0.0)
        link = SerialLink(tracker, on_event, port=sim.port, poll=0.05, retry=0.05)
        link.start()
        time.sleep(0.5)
        touched, moved = [], []
        board = chess.Board()
        while len(touched) < samples:
            quiet = [m for m in board.legal_moves
                     if not board.is_castling(m) and not board.is_en_passant(m) and not board.is_capture(m)]
            if not quiet or len(board.move_stack) > 120:
                board = chess.Board()
                link.expect(board)       # resynchronise: the simulator is reset too
                sim.occupied = int(board.occupied)
                sim.snapshot()
                time.sleep(0.05)
                continue
            move = rng.choice(quiet)
            for kind, square, want, sink in (("L", move.from_square, "touched", touched),
                                             ("P", move.to_square, "move", moved)):
                box.clear()
                box["want"] = (want,)
                arrived.clear()
                bit = chess.BB_SQUARES[square]
                sim.occupied = sim.occupied & ~bit if kind == "L" else sim.occupied | bit
                line = lift_line(square) if kind == "L" else place_line(square)
                start = time.perf_counter()
                sim.send(line)
                if not arrived.wait(2.0):
                    raise SystemExit(f"no {want} event for {line!r}")
                sink.append((box[want] - start) * 1000)
            board.push(move)
            if move.promotion:
                link.announce(move)

        # throughput: a burst of lines, lift and place back on the same square
        received = []
        done = threading.Event()
        burst = 2000

        def count(event) -> None:
            received.append(event)
            if sum(1 for e in received[-1:] if e.type == "move") and \
                    sum(1 for e in received if e.type == "move") >= burst:
                done.set()

        board = chess.Board()
        link.expect(board)
        sim.occupied = int(board.occupied)
        sim.snapshot()
        time.sleep(0.2)
        link.on_event = count
        lines = []
        for i in range(burst):
            move = [chess.Move.from_uci(u) for u in ("g1f3", "b8c6", "f3g1", "c6b8")][i % 4]
            lines.append(lift_line(move.from_square) + place_line(move.to_square))
        start = time.perf_counter()
        for chunk in lines:
            sim.send(chunk)
        if not done.wait(30):
            raise SystemExit("burst not processed in 30 s")
        elapsed = time.perf_counter() - start
        link.stop()
        sim.close()

    print("bench_pegboard (shared machine: figures vary with load)")
    for name, values in (("byte -> touched event", touched), ("byte -> move event (settle 0)", moved)):
        print(f"  {name:32s} n={len(values):4d}  median {statistics.median(values):6.2f} ms"
              f"  p99 {percentile(values, 99):6.2f} ms  max {max(values):6.2f} ms")
    print(f"  throughput: {len(received)} events (touched + move per pair) from {burst * 2} lines in {elapsed:.3f} s"
          f" = {len(received) / elapsed:,.0f} events/s ({burst * 2 / elapsed:,.0f} lines/s)")
    p99 = max(percentile(touched, 99), percentile(moved, 99))
    print(f"  target p99 < 10 ms: {'met' if p99 < 10 else 'NOT met'} (p99 {p99:.2f} ms)")


if __name__ == "__main__":
    junk_figures()
    if "--junk" not in sys.argv[1:]:
        main()
