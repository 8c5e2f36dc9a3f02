"""The one event base and the one JSON codec: every event of the engine and of the table written and read
by its fields' types, journals of every version read the same, damaged values refused."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal

import pytest

from blindchess.base import Event, decode_fields, encode_fields
from blindchess.game import GameEvent, Player, from_json
from blindchess.game.events import EVENTS, ClaimJudged, Note, Ruling, RulingOverride, SessionStart, to_json
from blindchess.laws import ClockAt, ClockSetting
from blindchess.scenario import HeadlessFront, play, read_script
from blindchess.storage import read_journal
from blindchess.table import TableEvent
from blindchess.table.events import EVENT_TYPES, DeviceRequest, Final, Moved
from blindchess.table.events import from_json as table_from_json
from tests.support.paths import DATA, SCENARIOS


@dataclass(frozen=True)
class Reading:
    """A record with every kind of field the codec reads."""

    text: str
    count: int
    seconds: float
    flag: bool
    side: Literal["white", "black"]
    maybe: str | None
    moves: tuple[str, ...]
    clocks: tuple[tuple[float, ...], ...] | None
    table: dict[str, list[str]]
    player: Player
    at: ClockAt | None


SAMPLE = Reading("e4", 3, 1.5, True, "black", None, ("e2e4", "e7e5"), ((1.0, 2.0),), {"blind": ["e4"]},
                 Player("Anna", True, "Bert"), ClockAt(ply=2, white=10.0, black=None))


def test_every_event_is_an_event_of_the_one_base():
    assert all(issubclass(cls, GameEvent) and issubclass(cls, Event) for cls in EVENTS.values())
    assert all(issubclass(cls, Event) for cls in EVENT_TYPES.values())
    assert not set(EVENTS) & {"move-made"} - set(EVENTS) and len({cls.TYPE for cls in EVENT_TYPES.values()}) == \
        len(EVENT_TYPES)


def test_fields_are_written_as_json_in_declaration_order_and_read_back_by_their_types():
    written = encode_fields(SAMPLE)
    assert list(written) == ["text", "count", "seconds", "flag", "side", "maybe", "moves", "clocks", "table",
                             "player", "at"]
    assert written["moves"] == ["e2e4", "e7e5"] and written["clocks"] == [[1.0, 2.0]]
    assert written["player"] == {"name": "Anna", "visually_impaired": True, "assistant": "Bert"}
    assert written["at"] == {"ply": 2, "white": 10.0, "black": None, "restore": False, "exact": True}
    assert Reading(**decode_fields(Reading, json.loads(json.dumps(written)))) == SAMPLE


@pytest.mark.parametrize(("field", "value", "error"), [
    ("count", "3", TypeError), ("count", True, TypeError), ("seconds", "1.5", TypeError),
    ("seconds", float("nan"), TypeError), ("text", 4, TypeError), ("side", "blue", ValueError),
    ("side", 1, TypeError), ("moves", "e2e4", TypeError), ("moves", [1], TypeError), ("table", [], TypeError),
    ("at", [2, 10.0], TypeError),
])
def test_a_value_of_the_wrong_kind_is_refused(field, value, error):
    data = {**encode_fields(SAMPLE), field: value}
    with pytest.raises(error):
        decode_fields(Reading, data)


def test_older_forms_are_read_as_every_version_read_them():
    data = {**encode_fields(SAMPLE), "maybe": 12, "flag": 0, "player": {"name": "Anna"}, "message": "old"}
    read = Reading(**decode_fields(Reading, data))
    assert read.maybe == "12" and read.flag is False and read.player == Player("Anna")   # "message": left out


def test_every_line_of_every_stored_journal_reads_back_to_the_same_line():
    lines = 0
    for path in sorted((DATA / "journals").glob("*.jsonl")):
        for data in read_journal(path).events:
            ev = from_json(data)
            if ev is None:
                continue
            again = from_json(json.loads(json.dumps(to_json(ev))))
            assert again == ev, (path.name, data)
            lines += 1
    assert lines > 200


def test_a_note_keeps_its_keys_and_a_ruling_its_typed_clocks():
    note = from_json({"seq": 3, "type": "note", "t": 1.0, "text": "x", "kind": "table-wording", "wording": "nato",
                      "game_id": "ab", "crc": "00"})
    assert isinstance(note, Note) and note.data == {"wording": "nato"}
    assert to_json(note) == {"seq": 3, "type": "note", "t": 1.0, "text": "x", "kind": "table-wording",
                             "wording": "nato"}
    ruling = from_json({"seq": 4, "type": "ruling", "t": 2.0, "kind": "retrace", "moves": ["e2e4"],
                        "clocks": {"ply": 1, "white": 5.0, "black": 6.0, "restore": True, "exact": True}})
    assert isinstance(ruling, Ruling) and ruling.clocks == ClockAt(ply=1, white=5.0, black=6.0, restore=True)
    override = RulingOverride(t=3.0, moves=("e2e4",), clocks=ClockSetting(white=5.0, black=6.0))
    assert to_json(override)["clocks"] == {"white": 5.0, "black": 6.0} and from_json(to_json(override)) == override
    start = SessionStart(t=0.0, white=Player("A"), black=Player("B", True), blind="black")
    assert from_json(to_json(start)) == start
    with pytest.raises(ValueError):
        from_json({"type": "claim-judged", "t": 1.0, "derived": True, "color": "white", "kind": "stalemate",
                   "upheld": False})
    assert from_json({"type": "claim-judged", "t": 1.0, "color": "white", "kind": "fifty", "upheld": 1}) == \
        ClaimJudged(t=1.0, color="white", kind="fifty", upheld=True)


def test_every_table_event_of_a_whole_game_reads_back_from_its_scenario_json(tmp_path):
    events: list[TableEvent] = []
    front = HeadlessFront()
    front.subscribe(events.append)
    lines = play(read_script(SCENARIOS / "game_whole.scn", "de"), front, tmp_path / "game.jsonl")
    assert {type(ev) for ev in events} >= {Moved, DeviceRequest}
    for ev in events:
        assert table_from_json(json.loads(json.dumps(ev.to_json()))) == ev
    final = table_from_json(lines[-1])
    assert isinstance(final, Final) and final.to_json() == lines[-1]
    with pytest.raises(ValueError):
        table_from_json({**lines[-1], "type": "device", "device": "printer", "what": "snapshot"})
