"""The blindchess peg-board line protocol: lines, checksums, robust assembly from raw bytes."""

from __future__ import annotations

import chess
from hypothesis import given, settings
from hypothesis import strategies as st

from blindchess.pegboard.protocol import (
    MAX_LINE,
    SAMPLE,
    TEXT_LIMIT,
    Comment,
    Decoder,
    Ident,
    LineAssembler,
    ProtocolError,
    checksum,
    format_line,
    lift_line,
    parse_line,
    place_line,
    rotate_occupancy,
    rotate_square,
    snapshot_line,
)
from blindchess.pegboard.tracker import Lift, Place, Snapshot


def test_checksum_is_the_xor_of_the_bytes_before_the_star():
    line = format_line("L e2")
    body, _, tail = line.rstrip(b"\n").partition(b"*")
    expected = 0
    for byte in b"L e2":
        expected ^= byte
    assert body == b"L e2" and int(tail, 16) == expected == checksum(b"L e2")


def test_lines_parse_into_events():
    assert parse_line(b"L e2", 1.0) == Lift(1.0, chess.E2)
    assert parse_line(b"P h8\r", 1.0) == Place(1.0, chess.H8)
    assert parse_line(lift_line(chess.A1).rstrip(b"\n"), 2.0) == Lift(2.0, chess.A1)
    start = int(chess.Board().occupied)
    assert parse_line(b"S FFFF00000000FFFF", 0.0) == Snapshot(0.0, start)
    assert parse_line(snapshot_line(start).rstrip(b"\n"), 0.0) == Snapshot(0.0, start)
    assert parse_line(b"I blindchess-pegboard 1.0", 0.0) == Ident(0.0, "blindchess-pegboard 1.0")
    assert parse_line(b"# hello", 0.0) == Comment(0.0, "hello")
    assert parse_line(b"   ", 0.0) is None


def test_bad_lines_are_reported_not_guessed():
    for raw, kind in [(b"L e2*00", "checksum"), (b"L e2*5", "checksum"), (b"L z9", "square"), (b"L", "square"),
                      (b"S 12", "snapshot"), (b"S GGGG00000000FFFF", "snapshot"), (b"X e2", "unknown"),
                      (b"Le2", "unknown"), (b"hello", "unknown")]:
        result = parse_line(raw, 0.0)
        assert isinstance(result, ProtocolError) and result.kind == kind, raw


def test_a_turned_board_reports_turned_squares():
    assert parse_line(b"L a1", 0.0, rotated=True) == Lift(0.0, chess.H8)
    assert rotate_square(chess.E2) == chess.D7
    start = int(chess.Board().occupied)
    assert rotate_occupancy(start) == start
    assert rotate_occupancy(chess.BB_A1) == chess.BB_H8
    assert parse_line(snapshot_line(chess.BB_A1 | chess.BB_B2).rstrip(b"\n"), 0.0, rotated=True) == \
        Snapshot(0.0, chess.BB_H8 | chess.BB_G7)


def test_partial_reads_noise_overlong_lines_and_invalid_utf8():
    decoder = Decoder()
    stream = b"\x00\xffL e2\nP e" + b"4*" + b"%02X" % checksum(b"P e4") + b"\r\n" + b"L e\xc3\xa97\n" \
        + b"#" * 500 + b"\nL d7\n"
    out = []
    for i in range(0, len(stream), 3):            # arbitrary pieces
        out += decoder.feed(stream[i:i + 3], 0.0)
    events = [m for m in out if not isinstance(m, ProtocolError)]
    errors = [m.kind for m in out if isinstance(m, ProtocolError)]
    assert events == [Lift(0.0, chess.E2), Place(0.0, chess.E4), Lift(0.0, chess.D7)]
    assert errors == ["noise", "noise", "overlong"]


def test_a_reset_forgets_a_truncated_line():
    assembler = LineAssembler()
    assert assembler.feed(b"L e") == []
    assembler.reset()                       # the device vanished in the middle of a line
    assert assembler.feed(b"2\nP e4\n") == [("line", b"2", 1), ("line", b"P e4", 4)]
    assert isinstance(parse_line(b"2", 0.0), ProtocolError)


@settings(deadline=None, max_examples=200)
@given(st.binary(max_size=400))
def test_random_bytes_never_crash_and_never_invent_events(data):
    decoder = Decoder()
    for message in decoder.feed(data, 0.0):
        if isinstance(message, (Lift, Place)):
            # an accepted event must be literally in the data
            line = (b"L " if isinstance(message, Lift) else b"P ") + chess.square_name(message.square).encode()
            assert line in data or line.upper() in data.upper()


@settings(deadline=None, max_examples=100)
@given(st.lists(st.tuples(st.sampled_from("LP"), st.integers(0, 63), st.booleans()), max_size=30),
       st.lists(st.integers(1, 20), max_size=10))
def test_valid_lines_survive_any_split(lines, cuts):
    stream = b"".join((lift_line if kind == "L" else place_line)(sq, with_checksum=cs) for kind, sq, cs in lines)
    decoder = Decoder()
    out, pos = [], 0
    for cut in cuts:
        out += decoder.feed(stream[pos:pos + cut], 0.0)
        pos += cut
    out += decoder.feed(stream[pos:], 0.0)
    assert out == [(Lift if kind == "L" else Place)(0.0, sq) for kind, sq, _ in lines]


def test_the_examples_in_protocol_md_are_right():
    import re

    from blindchess.base.resources import boards_dir

    text = (boards_dir() / "PROTOCOL.md").read_text(encoding="utf-8")
    examples = re.findall(r"`([LPSI] [^`*]+\*[0-9A-F]{2})`", text)
    assert len(examples) >= 4
    for example in examples:
        assert not isinstance(parse_line(example.encode(), 0.0), ProtocolError), example


@settings(deadline=None, max_examples=300)
@given(st.binary(max_size=40), st.sampled_from([b"L ", b"P ", b"I ", b"# ", b"S ", b""]))
def test_any_line_parses_or_is_reported_never_raises(tail, head):
    # "L é4" or "I café" in a hand-edited log ended "pegboard replay" in "Interner Fehler: UnicodeDecodeError"
    line = (head + tail).replace(b"\n", b"")
    result = parse_line(line, 1.0)
    assert result is None or isinstance(result, ProtocolError) or getattr(result, "t", None) == 1.0


@settings(deadline=None, max_examples=100)
@given(st.lists(st.binary(max_size=20), max_size=12))
def test_replay_of_any_bytes_gives_events_or_a_log_error(lines):
    from blindchess.adapters.devices.replay import LogError, replay
    try:
        events = replay(b"\n".join(lines))
    except LogError as exc:
        assert str(exc)  # says what is wrong with the log
    else:
        # random bytes never make a legal move out of nothing: nothing was placed after a lift
        assert all(getattr(e, "type", None) != "move" for e in events)


def test_lower_case_line_types_are_accepted_by_the_host():
    # "p e5" and "l e2" (a hand-typed log) were rejected as unknown lines;
    # PROTOCOL.md: devices MUST send upper case, hosts SHOULD accept lower case
    assert parse_line(b"l e2", 1.0) == Lift(1.0, chess.E2)
    assert parse_line(b"p E5", 1.0) == Place(1.0, chess.E5)
    assert parse_line(b"s ffff00000000ffff", 0.0) == Snapshot(0.0, int(chess.Board().occupied))
    assert parse_line(b"i my board", 0.0) == Ident(0.0, "my board")
    assert parse_line(b"l e2*" + b"%02X" % checksum(b"l e2"), 1.0) == Lift(1.0, chess.E2)
    assert isinstance(parse_line(b"x e2", 0.0), ProtocolError)
    decoder = Decoder()
    assert decoder.feed(b"l e2\np e4\n", 3.0) == [Lift(3.0, chess.E2), Place(3.0, chess.E4)]


def test_replay_accepts_fractional_millisecond_stamps_and_lower_case():
    from blindchess.adapters.devices.replay import replay

    items = replay(b"1000.5 l e2\n1200.25 p e4\n", chess.Board())
    moves = [i for i in items if getattr(i, "type", None) == "move"]
    assert [m.move for m in moves] == [chess.Move.from_uci("e2e4")]
    assert abs(moves[0].time - 1.20025) < 1e-9
    assert not [i for i in items if getattr(i, "type", None) == "protocol-error"]


# ---------------------------------------------------------------------------
# linear, bounded assembly; short reports (no timing here: see tests/benchmarks/bench_pegboard.py)

def _bounded_run(data: bytes, chunk: int) -> tuple[list, int]:
    assembler = LineAssembler()
    out, most = [], 0
    for i in range(0, len(data), chunk):
        out += assembler.feed(data[i:i + chunk])
        most = max(most, assembler.pending)
    out += assembler.feed(b"L e2\n")
    return out, most


def test_thirty_megabytes_of_0xff_stay_bounded_and_give_one_short_report():
    junk = b"\xff" * (30 * 1024 * 1024)
    out, most = _bounded_run(junk, 1 << 20)
    assert most <= MAX_LINE + 1 + SAMPLE
    drops = [item for item in out if item.kind != "line"]
    # one run of noise: reported as soon as it is long, the rest when it ends — never per byte
    assert [item.kind for item in drops] == ["noise", "noise"]
    assert sum(item.size for item in drops) == len(junk) and all(len(item.data) <= SAMPLE for item in drops)
    assert out[-1] == ("line", b"L e2", 4)                      # the next line is read
    # through the decoder: one ProtocolError whose text is short, then the event
    decoder = Decoder()
    messages = decoder.feed(junk, 1.0) + decoder.feed(b"L e2\n", 2.0)
    errors = [m for m in messages if isinstance(m, ProtocolError)]
    assert len(errors) == 1 and errors[0].dropped == len(junk) and len(errors[0].text) <= TEXT_LIMIT + 2
    assert messages[-1] == Lift(2.0, chess.E2)


def test_a_megabyte_without_a_line_feed_is_one_overlong_line_held_in_bounded_memory():
    for junk in (b"x" * (1 << 20), b"L e2 " * (1 << 18), bytes(range(32, 127)) * 11000):
        out, most = _bounded_run(junk + b"\n", 4096)
        assert most <= MAX_LINE + 1 + SAMPLE
        assert [item.kind for item in out] == ["overlong", "line"]
        assert len(out[0].data) <= SAMPLE
        assert out[-1] == ("line", b"L e2", 4)


def test_noise_inside_lines_spoils_each_line_and_stays_bounded():
    junk = b"L e\xff2 " * 200_000 + b"\n" + b"P e4\xfe\n" * 100_000
    out, most = _bounded_run(junk, 65536)
    assert most <= MAX_LINE + 1 + SAMPLE
    kinds = [item.kind for item in out]
    assert kinds[0] == "overlong" and kinds.count("noise") == 100_000 and kinds[-1] == "line"
    assert all(len(item.data) <= MAX_LINE + 1 for item in out)
    assert not [item for item in out[:-1] if item.kind == "line"]   # nothing half-understood is a line
