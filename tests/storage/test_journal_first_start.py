"""The program's first game on a machine: the journals' folder does not exist yet, several levels deep
(``~/.local/share/blindchess/journals``). The journal creates every missing folder and makes each new name
durable (the folder holding it is fsynced), so a power cut right after the first move loses no folder and no
journal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from blindchess.storage import journal
from blindchess.storage.journal import InputId, JournalWriter, read_journal


def test_a_journal_in_folders_that_do_not_exist_yet_creates_them_and_syncs_each_new_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    synced: list[Path] = []
    real = journal._fsync_folder
    monkeypatch.setattr(journal, "_fsync_folder", lambda folder: (synced.append(Path(folder)), real(folder)))
    path = tmp_path / "share" / "blindchess" / "journals" / "g.jsonl"
    writer = JournalWriter(path)
    writer.append_unit([{"seq": 1, "type": "session-start", "t": 0.0}])
    writer.close()
    assert read_journal(path).problems == [] and read_journal(path).events[0]["type"] == "session-start"
    # each folder that gained a name: the three new folders' parents, then the journal's own folder
    assert synced == [tmp_path, tmp_path / "share", tmp_path / "share" / "blindchess", path.parent]


def test_an_input_s_identity_is_a_value_that_cannot_be_changed(tmp_path: Path):
    # The identity the journal holds names which inputs were applied: equal ones are one input (given twice,
    # it is one), and none can be changed after it was made.
    given = {InputId("script", 17), InputId("script", 17), InputId("script", 17, 1)}
    assert given == {InputId("script", 17, 1), InputId("script", 17)}
    ident = InputId("app", 4)
    with pytest.raises(AttributeError):
        ident.number = 5          # type: ignore[misc]
    assert str(ident) == "app:4"
