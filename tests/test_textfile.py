"""Reading users' text files: plain messages in the user's language, sensible decoding (QA)."""

from __future__ import annotations

import os

import pytest

from blindchess import textfile
from blindchess.errors import UserError


@pytest.fixture(autouse=True)
def german(monkeypatch):
    monkeypatch.setenv("BLINDCHESS_LANG", "de")


def test_encodings_a_user_brings(tmp_path):
    text = "1. e4 e5 2. Sf3 Sc6 3. Lb5 a6 4. La4 Sf6 5. 0-0 Lä7"
    for encoding in ("utf-8", "utf-8-sig", "utf-16", "cp1252"):
        path = tmp_path / f"{encoding}.txt"
        path.write_text(text, encoding=encoding)
        assert textfile.read_text(path) == text


@pytest.mark.parametrize("make, needle", [
    (lambda p: p, "Ordner"),                                   # a folder: not the OS's "Is a directory"
    (lambda p: p / "fehlt.txt", "gibt es nicht"),
    (lambda p: (p / "bin").write_bytes(bytes(range(256))) and p / "bin", "keine Textdatei"),
])
def test_every_failure_is_a_german_user_error(tmp_path, make, needle):
    with pytest.raises(UserError, match=needle) as info:
        textfile.read_text(make(tmp_path))
    assert info.value.exit_code == 2


@pytest.mark.skipif(os.geteuid() == 0 if hasattr(os, "geteuid") else True, reason="root may read anything")
def test_no_permission(tmp_path):
    path = tmp_path / "geheim.txt"
    path.write_text("1. e4")
    path.chmod(0)
    with pytest.raises(UserError, match="keine Berechtigung"):
        textfile.read_text(path)


def test_too_big(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("e4 " * 1000)
    with pytest.raises(UserError, match="zu groß"):
        textfile.read_text(path, max_bytes=100)
