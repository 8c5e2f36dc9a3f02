"""The limits every reader keeps (blindchess.base.bounds): what each one allows and refuses."""

from __future__ import annotations

import json
import math

import pytest

from blindchess.base import bounds


def test_no_game_is_longer_than_the_half_moves_every_reader_takes():
    # FIDE Laws 9.6.2: 75 moves without a capture or a pawn move end the game, so the longest game
    # has 17,697 half-moves; every reader takes that many and refuses more than MAX_PLIES.
    assert 17_697 <= bounds.MAX_PLIES < 20_000
    assert bounds.MAX_FULLMOVE == bounds.MAX_PLIES // 2 + 1 and bounds.MAX_HALFMOVE_CLOCK == 150


@pytest.mark.parametrize(("text", "depth"), [("1", 0), ('"x"', 0), ("[]", 1), ("{}", 1), ('{"a": [1, {"b": 2}]}', 3),
                                             ("[" * 16 + "]" * 16, 16)])
def test_json_up_to_the_depth_is_read(text, depth):
    value = bounds.loads(text)
    assert value == json.loads(text) and bounds.json_depth(value) == depth


@pytest.mark.parametrize("text", ["[" * 17 + "]" * 17, "[" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000])
def test_json_deeper_than_the_bound_is_refused_never_recursed_into(text):
    with pytest.raises(bounds.TooDeep):
        bounds.loads(text)
    with pytest.raises(ValueError):       # TooDeep is a ValueError: callers catching bad JSON catch it too
        bounds.loads(text)


def test_the_depth_of_a_value_is_measured_without_recursion():
    value: list = []
    inner = value
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    assert bounds.json_depth(value) == 100_001


@pytest.mark.parametrize("value", [0.0, 1.5, 5400.0, bounds.MAX_SECONDS])
def test_a_time_within_bounds_is_taken(value):
    assert bounds.seconds(value) == value


@pytest.mark.parametrize("value", [-0.5, bounds.MAX_SECONDS + 1, 1e308, math.inf, -math.inf, math.nan])
def test_a_time_no_game_has_is_refused(value):
    with pytest.raises(ValueError):
        bounds.seconds(value)


def test_within_takes_whole_numbers_in_range_only():
    assert bounds.within(0, 0, 3) and bounds.within(3, 0, 3)
    assert not bounds.within(4, 0, 3) and not bounds.within(-1, 0, 3)
    assert not bounds.within(True, 0, 3) and not bounds.within(1.0, 0, 3) and not bounds.within("1", 0, 3)


@pytest.mark.parametrize(("clock", "move", "ok"), [(0, 1, True), (150, 9001, True), (151, 1, False), (0, 9002, False),
                                                   (0, 0, False), (-1, 1, False), (0, 10**20, False)])
def test_move_counters_a_game_can_reach(clock, move, ok):
    assert bounds.counters_ok(clock, move) is ok


def test_a_time_control_has_at_most_max_periods_periods():
    from blindchess.laws.clock import TimeControl

    assert len(TimeControl.parse(":".join(["40/5400+30"] * bounds.MAX_PERIODS)).periods) == bounds.MAX_PERIODS
    with pytest.raises(ValueError):
        TimeControl.parse(":".join(["40/5400+30"] * (bounds.MAX_PERIODS + 1)))


def test_a_duration_is_at_most_forty_characters():
    from blindchess.laws.clock import parse_duration

    assert parse_duration("5400." + "0" * 35) == 5400.0          # forty characters
    with pytest.raises(ValueError):
        parse_duration("5400." + "0" * 36)


def test_a_header_value_is_as_long_as_a_pgn_string():
    assert bounds.MAX_HEADER_CHARS == 255          # the PGN standard (7): a string token has at most 255 characters


def test_a_name_of_255_characters_is_a_name_and_one_more_is_not(tmp_path):
    from blindchess.storage import journal

    for length, ok in ((bounds.MAX_HEADER_CHARS, True), (bounds.MAX_HEADER_CHARS + 1, False)):
        path = tmp_path / f"{length}.jsonl"
        writer = journal.JournalWriter(path)
        writer.append({"seq": 1, "type": "session-start", "t": 0.0, "white": {"name": "W" * length},
                       "black": {"name": "B"}})
        writer.close()
        info = journal.describe(path)
        assert (info.error is None) is ok and (info.white == "W" * length) is ok


def test_a_file_of_exactly_the_size_limit_is_read_and_one_byte_more_is_not(tmp_path):
    from blindchess.base import textfile
    from blindchess.base.errors import UserError

    path = tmp_path / "score.txt"
    path.write_bytes(b"e4 " * 10)
    assert textfile.read_bytes(path, max_bytes=30) == b"e4 " * 10
    with pytest.raises(UserError) as info:
        textfile.read_bytes(path, max_bytes=29)
    assert info.value.exit_code == 2
    with pytest.raises(UserError) as info:
        textfile.regular_file(tmp_path)                          # a folder
    assert info.value.exit_code == 2


def test_a_path_is_shown_whole_up_to_its_limit():
    from blindchess.base import textfile

    exact = "p" * textfile.SHOWN_PATH_CHARS
    assert textfile.shown_path(exact) == exact
    longer = "q" + exact
    assert textfile.shown_path(longer) == "…" + longer[-(textfile.SHOWN_PATH_CHARS - 1):]


def test_text_is_binary_only_above_one_control_character_in_a_hundred(tmp_path):
    from blindchess.base import textfile
    from blindchess.base.errors import UserError

    text = b"\x01\x02" + b"a" * 197 + b"\xe9"           # cp1252 (the \xe9 is no UTF-8): 2 control chars in 200
    assert textfile.decode(text, "x.txt").startswith("\x01")
    with pytest.raises(UserError):
        textfile.decode(b"\x01\x02\x03" + b"a" * 196 + b"\xe9", "x.txt")   # 3 in 200: more than one in a hundred
