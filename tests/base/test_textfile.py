"""Reading users' text files: plain messages in the user's language, sensible decoding."""

from __future__ import annotations

import os

import pytest

from blindchess.base import textfile
from blindchess.base.errors import UserError


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


# only regular files are read; names the system refuses are plain messages.

def test_a_fifo_nobody_writes_to_is_refused_at_once(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(UserError, match="keine gewöhnliche Datei") as info:
        textfile.read_bytes(fifo)   # an ordinary open() would block here for ever
    assert info.value.exit_code == 2


def test_an_endless_device_is_refused_without_reading_it():
    with pytest.raises(UserError, match="keine gewöhnliche Datei"):
        textfile.read_bytes("/dev/zero")
    with pytest.raises(UserError, match="keine gewöhnliche Datei"):
        textfile.regular_file("/dev/zero")


def test_names_the_system_refuses(tmp_path):
    os.symlink("loop", tmp_path / "loop")
    with pytest.raises(UserError, match="Schleife"):
        textfile.read_bytes(tmp_path / "loop")
    with pytest.raises(UserError, match="Schleife"):
        textfile.regular_file(tmp_path / "loop")
    long = tmp_path / ("x" * 300)
    with pytest.raises(UserError, match="Name ist zu lang") as info:
        textfile.read_text(long)
    assert "x" * 250 not in info.value.message   # the name is shortened in the message
    with pytest.raises(UserError, match="Name ist zu lang"):
        textfile.regular_file(long)


def test_missing_means_nothing_is_there(tmp_path):
    os.symlink("nowhere", tmp_path / "dangling")
    os.symlink("loop", tmp_path / "loop")
    assert textfile.is_missing(tmp_path / "fehlt")
    assert not textfile.is_missing(tmp_path / "dangling")   # a link is there, even if it leads nowhere
    assert not textfile.is_missing(tmp_path / "loop")
    assert not textfile.is_missing(tmp_path / ("x" * 300))   # refused, not missing: the reason is said


def test_shown_path_keeps_short_names_and_the_end_of_long_ones():
    assert textfile.shown_path("partie.pgn") == "partie.pgn"
    ordinary = "/home/anna/Dokumente/Schach/Turniere/2026/Stadtmeisterschaft Blinden- und Sehbehindertenschach/Runde 3/partie.pgn"
    assert textfile.shown_path(ordinary) == ordinary   # a real path is named whole
    long = "/tmp/" + "x" * 300 + ".pgn"
    shown = textfile.shown_path(long)
    assert len(shown) == textfile.SHOWN_PATH_CHARS and shown.endswith("x.pgn") and shown.startswith("…")
    assert textfile.shown_path(3) == "3"   # an OSError may name a file descriptor


def test_output_targets_are_checked_before_anything_is_written(tmp_path):
    from blindchess.base import files

    os.symlink("loop", tmp_path / "loop")
    for bad, needle in ((tmp_path / "loop", "Schleife"), (tmp_path / ("x" * 300), "Name ist zu lang"),
                        (tmp_path, "Ordner"), (tmp_path / "fehlt" / "a.pgn", "Ordner gibt es nicht")):
        with pytest.raises(UserError, match=needle):
            files.write_text(bad, "1. e4 *\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop"]   # nothing written, no temporary file
    real = tmp_path / "real.pgn"
    real.write_text("old", encoding="utf-8")
    os.symlink("real.pgn", tmp_path / "link.pgn")
    files.write_text(tmp_path / "link.pgn", "new")
    assert real.read_text(encoding="utf-8") == "new" and (tmp_path / "link.pgn").is_symlink()


def test_the_cli_turns_an_unhandled_path_error_into_one_line(capsys):
    import errno

    from blindchess.cli import os_error_message

    exc = OSError(errno.ENAMETOOLONG, "File name too long", "x" * 300)
    message = os_error_message(exc, "de")
    assert message is not None and message.endswith(": der Name ist zu lang.") and "\n" not in message
    assert os_error_message(OSError(errno.EIO, "I/O error"), "de") is None   # no path: a real fault, logged
