"""``blindchess pegboard replay`` and ``simulate``: in-process and as real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import chess
import pytest

from blindchess.adapters.devices.link import SerialLink
from blindchess.cli import main
from blindchess.pegboard.tracker import Tracker

PROMOTION_LOG = """\
# White promotes on e8; the announcement names the piece
1000 L e7
1300 P e8
2500 > e8=N
"""


def run_json(capsys, *args) -> list[dict]:
    assert main(["pegboard", "replay", *args, "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_replay_json_promotion_unknown_then_announced(tmp_path, capsys):
    log = tmp_path / "promo.log"
    log.write_text(PROMOTION_LOG)
    items = run_json(capsys, str(log), "--fen", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1")
    moves = [i for i in items if i["type"] == "move"]
    assert moves[0]["uci"] == "e7e8" and moves[0]["promotion"] is None
    assert moves[1] == {**moves[1], "uci": "e7e8n", "promotion": "n", "replaces": "e7e8"}
    assert [i["type"] for i in items][:2] == ["comment", "touched"]
    announcement = [i for i in items if i["type"] == "announcement"][0]
    assert announcement["announced"] == "e7e8n"


def test_replay_without_time_stamps_and_in_german(tmp_path, capsys):
    log = tmp_path / "game.log"
    log.write_text("L e2\nP e4\nL e7\nP e5\nL g1\nP f3\nL b8\nP c6\nL f1\nP b5\nL a7\nP a6\nL b5\nL a6\nP a6\n")
    assert main(["pegboard", "replay", str(log)]) == 0
    out = capsys.readouterr().out
    assert "berührt: weißer Bauer e2" in out and "Zug auf dem Tastbrett: Lxa6 (b5a6)" in out  # German letters (was English SAN)
    items = run_json(capsys, str(log))
    assert [i["uci"] for i in items if i["type"] == "move"] == ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a6"]


def test_replay_chess960_castling(tmp_path, capsys):
    log = tmp_path / "960.log"
    log.write_text("100 L g1\n300 L h1\n500 P f1\n700 P g1\n")
    items = run_json(capsys, str(log), "--fen", "4k3/8/8/8/8/8/8/R5KR w HA - 0 1", "--chess960")
    assert [i["uci"] for i in items if i["type"] == "move"] == ["g1h1"]


def test_replay_reports_mismatch_and_bad_lines(tmp_path, capsys):
    log = tmp_path / "bad.log"
    log.write_text("L a2\nP a5\nL e2*00\nnonsense\nL a5\nP a2\n")
    items = run_json(capsys, str(log))
    assert [i["type"] for i in items] == ["touched", "mismatch", "protocol-error", "protocol-error", "in-sync"]
    assert items[1]["squares"] == ["a2", "a5"]


@pytest.mark.parametrize("content, args, message", [
    (None, [], "nicht gefunden"),
    (b"\x00\x01\x02binary", [], "Binärdaten"),
    (b"\n\n", [], "keine einzige"),
    (b"L e2\n", ["--fen", "not a fen"], "Ungültige Stellung"),
])
def test_bad_files_give_a_clear_message_and_exit_2(tmp_path, capsys, content, args, message):
    path = tmp_path / "x.log"
    if content is not None:
        path.write_bytes(content)
    assert main(["pegboard", "replay", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_replay_as_a_subprocess(tmp_path):
    log = tmp_path / "promo.log"
    log.write_text(PROMOTION_LOG)
    env = {**os.environ, "BLINDCHESS_LANG": "en"}
    out = subprocess.run([sys.executable, "-m", "blindchess", "pegboard", "replay", str(log), "--fen",
                          "8/4P3/8/8/8/8/k7/4K3 w - - 0 1"], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "promotion e7e8: waiting for the announced piece" in out.stdout
    assert "move corrected: e8=N (e7e8n) instead of e7e8" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "blindchess", "pegboard", "replay", str(tmp_path / "missing")],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 2 and bad.stderr.strip() == f"File not found: {tmp_path / 'missing'}"


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")
@pytest.mark.slow
def test_simulate_waits_for_the_app_plays_and_stays_open_until_ctrl_c(tmp_path):
    # the simulator played the whole game at once and closed the port,
    # so an app connecting a few seconds later missed every move
    import signal

    import serial

    pgn = tmp_path / "game.pgn"
    pgn.write_text('[Event "t"]\n\n1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. Nf3 Bg4 5. Be2 Nc6 6. O-O O-O-O *\n')
    port = tmp_path / "board"
    proc = subprocess.Popen([sys.executable, "-m", "blindchess", "pegboard", "simulate", "--pgn", str(pgn),
                             "--delay", "0.25", "--settle", "0.12", "--seed", "3", "--link", str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "BLINDCHESS_LANG": "en"})
    try:
        assert proc.stdout.readline().startswith("Virtual peg-board ready. Port: /dev/")
        assert proc.stdout.readline().startswith("Link: ")
        assert proc.stdout.readline().startswith("Waiting for a program to open the port")
        time.sleep(1.5)                      # the app connects late: nothing may have been played yet
        expected = ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "g1f3", "c8g4", "f1e2", "b8c6", "e1g1", "e8c8"]
        events = []
        link = SerialLink(Tracker(chess.Board(), settle=0.2), events.append, port=str(port), retry=0.02)
        link.start()
        lines = []
        while "Game played to the end." not in lines:
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            lines.append(line.strip())
        assert lines[0] == "A program has opened the port: the game starts."
        time.sleep(0.5)
        link.stop()
        # after the game the port stays open and still answers ? and V (a plain pyserial client)
        assert proc.stdout.readline().startswith("The port stays open")
        assert proc.poll() is None and port.exists()
        with serial.Serial(str(port), 115200, timeout=2) as ser:
            ser.reset_input_buffer()
            ser.write(b"?")
            final = chess.Board()
            for uci in expected:
                final.push_uci(uci)
            assert ser.readline().startswith(f"S {final.occupied:016X}".encode())
            ser.write(b"V")
            answer = b""
            while not answer.startswith(b"I "):
                answer = ser.readline()
                assert answer, "no identification"
        proc.send_signal(signal.SIGINT)      # Ctrl-C: clean exit, no traceback
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "Simulator ended, port closed." in out
    assert [e.move.uci() for e in events if e.type == "move"] == expected
    assert not port.exists()       # the simulator cleans up its link


def test_simulate_rejects_a_missing_pgn(tmp_path, capsys):
    assert main(["pegboard", "simulate", "--pgn", str(tmp_path / "none.pgn")]) == 2
    assert "PGN-Datei nicht gefunden" in capsys.readouterr().err


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")
def test_simulate_from_the_keyboard(tmp_path):
    port = tmp_path / "board"
    out = subprocess.run([sys.executable, "-m", "blindchess", "pegboard", "simulate", "--link", str(port)],
                         input="e2 e4\nNf3\nL a7\nP a6\nzz top\ne2 e5\nq\n", capture_output=True, text=True,
                         env={**os.environ, "BLINDCHESS_LANG": "en"}, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("Virtual peg-board ready. Port: /dev/")
    assert "Playing e4" in lines and "Not understood: zz top" in lines
    assert "Not a legal move here: e2 e5" in lines
    assert not port.exists()


def test_replay_log_whose_stamps_start_at_zero_after_a_header(tmp_path, capsys):
    # a log with an untimed comment and ident and then stamps from 0 ms ran all
    # its first lifts into one instant and reported a mismatch instead of e4
    log = tmp_path / "game.log"
    log.write_text("# my board\nI DIY 1.0\n0 L e2\n200 P e4\n1000 L e7\n1200 P e5\n2000 L g1\n2300 P f3\n")
    items = run_json(capsys, str(log))
    assert [i["uci"] for i in items if i["type"] == "move"] == ["e2e4", "e7e5", "g1f3"]
    assert [i["time"] for i in items if i["type"] == "move"] == [0.2, 1.2, 2.3]   # the log's own times
    assert not [i for i in items if i["type"] == "mismatch"]


def test_replay_stamps_starting_again_are_a_new_segment(tmp_path, capsys):
    # two logs joined (or a device reset): the second's stamps begin at 0 again
    log = tmp_path / "joined.log"
    log.write_text("5000 L e2\n5200 P e4\n0 L e7\n200 P e5\n")
    items = run_json(capsys, str(log))
    assert [i["uci"] for i in items if i["type"] == "move"] == ["e2e4", "e7e5"]
    times = [i["time"] for i in items]
    assert times == sorted(times)


def test_replay_text_speaks_the_users_language(tmp_path, capsys, monkeypatch):
    # "weißer Dame", English SAN and English error kinds in the German output
    log = tmp_path / "q.log"
    log.write_text("L d1\nP h5\nL e2*00\n")
    fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    assert main(["pegboard", "replay", str(log), "--fen", fen]) == 0
    out = capsys.readouterr().out
    assert "weiße Dame d1" in out and "Dh5 (d1h5)" in out and "Prüfsumme falsch" in out
    monkeypatch.setenv("BLINDCHESS_LANG", "en")
    assert main(["pegboard", "replay", str(log), "--fen", fen]) == 0
    out = capsys.readouterr().out
    assert "white queen d1" in out and "Qh5 (d1h5)" in out and "bad checksum" in out


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")
@pytest.mark.slow
def test_simulate_in_german_reads_and_writes_german_letters(tmp_path):
    # the simulator answered "Spiele Nf3" in German and understood only English SAN
    sheet = tmp_path / "partie.txt"
    sheet.write_text("1. e4 e5 2. Sf3 Sc6\n", encoding="utf-8")
    env = {**os.environ, "BLINDCHESS_LANG": "de"}
    out = subprocess.run([sys.executable, "-m", "blindchess", "pegboard", "simulate", "--pgn", str(sheet),
                          "--delay", "0", "--no-wait", "--exit-at-end", "--link", str(tmp_path / "a")], capture_output=True, text=True,
                         env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert [line for line in out.stdout.splitlines() if line.startswith("Spiele")] == \
        ["Spiele e4", "Spiele e5", "Spiele Sf3", "Spiele Sc6"]
    out = subprocess.run([sys.executable, "-m", "blindchess", "pegboard", "simulate", "--link", str(tmp_path / "b")],
                         input="e4\ne5\nSf3\nq\n", capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "Spiele Sf3" in out.stdout.splitlines()


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")
def test_simulate_never_replaces_a_file_with_its_link(tmp_path, capsys):
    # "--link notes.txt" replaced the user's file with the port link and deleted it on exit
    precious = tmp_path / "notes.txt"
    precious.write_text("my notes", encoding="utf-8")
    assert main(["pegboard", "simulate", "--link", str(precious)]) == 2
    assert "keine Verknüpfung" in capsys.readouterr().err
    assert precious.read_text(encoding="utf-8") == "my notes"
    from blindchess.adapters.devices.simulator import VirtualPegboard
    sim = VirtualPegboard(link=precious)
    with pytest.raises(FileExistsError):
        sim.open()
    sim.remove_link()
    assert precious.read_text(encoding="utf-8") == "my notes"


def test_replay_clock_time_stamps_and_a_hint_for_unknown_formats(tmp_path, capsys):
    # a logger's "12:00:01.250 L e2" or "[00:01,5] P e4" gave "contains no protocol line at all"
    log = tmp_path / "clock.log"
    log.write_text("[00:01,5] L e2\n[00:01,8] P e4\n00:00:03.000 L e7\n00:00:03.250 P e5\n", encoding="utf-8")
    items = run_json(capsys, str(log))
    assert [(i["uci"], i["time"]) for i in items if i["type"] == "move"] == [("e2e4", 1.8), ("e7e5", 3.25)]
    bad = tmp_path / "bad.log"
    bad.write_text("hello\nworld\n", encoding="utf-8")
    assert main(["pegboard", "replay", str(bad)]) == 2
    assert "L e2" in capsys.readouterr().err     # the message says what a line should look like


@pytest.mark.parametrize("args", [
    ["replay", "LOG", "--settle", "-1"],
    ["replay", "LOG", "--settle", "1e9"],
    ["replay", "LOG", "--settle", "nan"],
    ["simulate", "--delay", "-0.5"],
    ["simulate", "--delay", "inf"],
    ["simulate", "--settle", "-2"],
])
def test_negative_or_absurd_seconds_are_refused(tmp_path, capsys, monkeypatch, args):
    # "--settle -1" and "--delay -5" were accepted silently
    monkeypatch.setenv("BLINDCHESS_LANG", "en")
    log = tmp_path / "game.log"
    log.write_text("L e2\nP e4\n")
    link = tmp_path / "board"
    argv = ["pegboard", *[str(log) if a == "LOG" else a for a in args]]
    if args[0] == "simulate":
        argv += ["--link", str(link)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    option = next(a for a in args if a.startswith("--"))
    assert f"{option} " in err and "give seconds from 0 to" in err
    assert not link.exists()


def test_replay_prints_events_in_time_order(tmp_path, capsys):
    # a mismatch judged after the settle time was printed after a later
    # announcement, with its earlier time
    log = tmp_path / "order.log"
    log.write_text("1000 L e2\n1200 P e4\n1300 > e4\n1400 L e7\n1500 P e5\n1550 > d5\n")
    items = run_json(capsys, str(log))
    times = [i["time"] for i in items]
    assert times == sorted(times)
    assert [i["type"] for i in items].count("mismatch") >= 1
    log.write_text("1000 L e2\n1200 P e5\n3000 > e4\n")
    items = run_json(capsys, str(log))
    assert [i["time"] for i in items] == sorted(i["time"] for i in items)
    # the mismatch the announcement explains ("expected e2e4") is known only from then on
    assert [(i["type"], i["time"]) for i in items[-2:]] == [("announcement", 3.0), ("mismatch", 3.0)]
    assert items[-1]["expected"] == "e2e4"


@pytest.mark.skipif(os.name != "posix", reason="pseudo-terminals are POSIX")
def test_simulate_on_a_terminal_starts_when_enter_is_pressed(tmp_path):
    # the simulator's own stdin is a pseudo-terminal here, as when a user runs it in a shell
    import signal

    pgn = tmp_path / "game.pgn"
    pgn.write_text("1. e4 e5 *\n")
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "blindchess", "pegboard", "simulate", "--pgn", str(pgn),
                             "--delay", "0", "--settle", "0.1", "--link", str(tmp_path / "board")],
                            stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "BLINDCHESS_LANG": "en"})
    os.close(slave)
    try:
        lines = [proc.stdout.readline() for _ in range(3)]
        assert "or press Enter to start now" in lines[2]
        os.write(master, b"\n")
        assert proc.stdout.readline().strip() == "Playing e4"
        assert proc.stdout.readline().strip() == "Playing e5"
        assert proc.stdout.readline().strip() == "Game played to the end."
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=20)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err
