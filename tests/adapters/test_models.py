"""Model installation against a real HTTP server on 127.0.0.1 with small zip files.

The zips hold the layout of a vosk model (am/, conf/, graph/) with tiny files:
installation never loads the model, it only checks the layout, so this tests
exactly the download, checksum, extraction and atomic move of the real thing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import http.server
import io
import os
import stat
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import pytest

from blindchess.adapters.speech import models
from blindchess.base import paths
from blindchess.base.errors import UserError
from blindchess.cli import main

NAME = "vosk-model-small-de-0.15"
#: The catalogue as shipped, with the published SHA-256 sums.
PUBLISHED = models.catalogue


@pytest.fixture(autouse=True)
def unpublished(monkeypatch):
    """The download and unpacking are tested with small stand-in zips under the real names; the published
    sums (tested on their own, :func:`published`) would refuse every one of them before it is unpacked,
    so these tests see the catalogue without sums, as an entry nobody published a sum for."""
    monkeypatch.setattr(models, "catalogue", lambda: {k: dataclasses.replace(v, sha256="", bytes=0)
                                                      for k, v in PUBLISHED().items()})


@pytest.fixture
def published(monkeypatch):
    """The catalogue as shipped."""
    monkeypatch.setattr(models, "catalogue", PUBLISHED)


def model_zip(extra: list[tuple[str, bytes]] = (), *, symlink: tuple[str, str] | None = None,
              root: str = NAME, layout: bool = True) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        if layout:
            zf.writestr(f"{root}/am/final.mdl", b"acoustic model " * 100)
            zf.writestr(f"{root}/conf/model.conf", b"--sample-frequency=16000\n")
            zf.writestr(f"{root}/graph/words.txt", b"springer 1\nfelix 2\ndrei 3\n")
        for name, data in extra:
            zf.writestr(name, data)
        if symlink:
            info = zipfile.ZipInfo(symlink[0])
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            zf.writestr(info, symlink[1])
    return buf.getvalue()


class Server:
    """A local HTTP server; ``files`` maps paths to bytes; ``lie_length`` announces more bytes than sent."""

    def __init__(self):
        self.files: dict[str, bytes] = {}
        self.lie_length: dict[str, int] = {}
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                body = owner.files.get(self.path)
                if body is None:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(owner.lie_length.get(self.path, len(body))))
                self.end_headers()
                self.wfile.write(body)
                self.wfile.flush()
                self.close_connection = True

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/models/"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(monkeypatch):
    srv = Server()
    monkeypatch.setenv(models.ENV_URL, srv.url)
    yield srv
    srv.close()


def leftovers() -> list[str]:
    root = paths.models_dir()
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


def test_install_with_progress_and_checksum(server):
    data = model_zip()
    server.files[f"/models/{NAME}.zip"] = data
    seen = []
    result = models.install("de", progress=lambda done, total: seen.append((done, total)),
                            expected_sha256=hashlib.sha256(data).hexdigest())
    assert result.verified and result.sha256 == hashlib.sha256(data).hexdigest()
    assert seen[0] == (0, len(data)) and seen[-1] == (len(data), len(data))
    path = models.find_model("de")
    assert path == paths.models_dir() / "de" and (path / "am" / "final.mdl").is_file()
    assert models.manifest("de")["name"] == NAME
    assert leftovers() == ["de"]                 # no staging folder left behind


def test_checksum_mismatch_installs_nothing_and_keeps_the_old_model(server):
    server.files[f"/models/{NAME}.zip"] = model_zip()
    models.install("de")
    before = (paths.models_dir() / "de" / "blindchess-model.json").read_text()
    server.files[f"/models/{NAME}.zip"] = model_zip([(f"{NAME}/am/extra", b"tampered")])
    with pytest.raises(UserError, match="Prüfsumme"):
        models.install("de", expected_sha256="0" * 64)
    assert (paths.models_dir() / "de" / "blindchess-model.json").read_text() == before
    assert not (paths.models_dir() / "de" / "am" / "extra").exists()
    assert leftovers() == ["de"]


def test_truncated_download_is_rejected(server):
    data = model_zip()
    server.files[f"/models/{NAME}.zip"] = data[: len(data) // 2]
    server.lie_length[f"/models/{NAME}.zip"] = len(data)
    with pytest.raises(UserError, match="unvollständig"):
        models.install("de")
    assert models.find_model("de") is None and leftovers() == []


@pytest.mark.parametrize("entries, symlink, reason", [
    ([("../evil.txt", b"x")], None, "'..'"),
    ([(f"{NAME}/../../evil.txt", b"x")], None, "'..'"),
    ([("/etc/evil.txt", b"x")], None, "absolute"),
    ([("C:\\evil.txt", b"x")], None, "absolute"),
    ([], (f"{NAME}/am/link", "/etc/passwd"), "symlink"),
])
def test_unsafe_entries_reject_the_whole_archive(server, tmp_path, entries, symlink, reason):
    server.files[f"/models/{NAME}.zip"] = model_zip(entries, symlink=symlink)
    with pytest.raises(UserError, match=reason):
        models.install("de")
    assert models.find_model("de") is None and leftovers() == []
    assert not (paths.models_dir().parent / "evil.txt").exists()
    assert not (tmp_path.parent / "evil.txt").exists()


def test_not_a_model_and_not_a_zip(server):
    server.files[f"/models/{NAME}.zip"] = model_zip([("README", b"hello")], layout=False)
    with pytest.raises(UserError, match="kein Vosk-Modell"):
        models.install("de")
    server.files[f"/models/{NAME}.zip"] = b"<html>captive portal</html>"
    with pytest.raises(UserError, match="ZIP"):
        models.install("de")
    assert leftovers() == []


def test_offline_and_missing_file_are_plain_messages(server, monkeypatch):
    with pytest.raises(UserError, match="404"):
        models.install("en")
    monkeypatch.setenv(models.ENV_URL, "http://127.0.0.1:9/")   # nothing listens on the discard port
    with pytest.raises(UserError, match="Keine Verbindung zu 127.0.0.1:9"):
        models.install("de")
    assert leftovers() == []


def test_install_from_a_local_zip_and_remove(tmp_path):
    archive = tmp_path / f"{NAME}.zip"
    archive.write_bytes(model_zip())
    result = models.install("de", source=archive)
    assert not result.verified and models.find_model("de") == result.path
    assert models.remove("de") and models.find_model("de") is None and leftovers() == []
    assert not models.remove("de")


def test_lookup_order_setting_env_then_user_folder(tmp_path, monkeypatch):
    def make(folder: Path) -> Path:
        (folder / "conf").mkdir(parents=True)
        return folder

    user = make(paths.models_dir() / "de")
    env = make(tmp_path / "env-model")
    setting = make(tmp_path / "setting-model")
    assert models.find_model("de") == user
    monkeypatch.setenv(models.ENV_MODEL, str(env))
    assert models.find_model("de") == env
    assert models.find_model("de", setting) == setting
    assert models.find_model("de", tmp_path / "missing") == env
    monkeypatch.setenv(models.ENV_MODEL, str(tmp_path))          # a folder of models by language
    make(tmp_path / "en")
    assert models.find_model("en") == tmp_path / "en"


def test_catalogue_is_data(published):
    known = models.catalogue()
    assert known["de"].name == NAME and known["en"].name == "vosk-model-small-en-us-0.15"
    assert all(len(i.sha256) in (0, 64) for i in known.values())


def test_models_cli(server, capsys):
    server.files[f"/models/{NAME}.zip"] = model_zip()
    assert main(["models", "install", "de"]) == 0
    captured = capsys.readouterr()
    assert "100%" in captured.err and "installiert" in captured.out
    assert main(["models", "list"]) == 0
    assert str(paths.models_dir() / "de") in capsys.readouterr().out
    assert main(["models", "install", "xx"]) == 2
    assert "xx" in capsys.readouterr().err
    assert main(["models", "remove", "de"]) == 0
    assert main(["models", "remove", "de"]) == 1


def test_models_cli_subprocess(server):
    data = model_zip([("../escape.txt", b"x")])
    server.files[f"/models/{NAME}.zip"] = data
    env = dict(os.environ)
    # The archive's own sum (as for a mirror's archive), so the check reaches the unsafe entry.
    done = subprocess.run([sys.executable, "-m", "blindchess", "models", "install", "de",
                           "--sha256", hashlib.sha256(data).hexdigest()], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "unsicheren Eintrag" in done.stderr


def test_model_url_may_name_the_archive_itself(server, monkeypatch):
    # BLINDCHESS_MODEL_URL=http://host/mirror.zip was taken as a folder (".../mirror.zip/vosk-model-....zip")
    server.files["/mirror/any-name.zip"] = model_zip()
    monkeypatch.setenv(models.ENV_URL, server.url.replace("/models/", "/mirror/any-name.zip"))
    result = models.install("de")
    assert models.find_model("de") == result.path


@pytest.mark.parametrize("url", ["not a url", "http://[::1", "ftp//missing-colon"])
def test_an_invalid_model_url_is_a_plain_message(url, monkeypatch, capsys):
    # these ended in "Interner Fehler: ValueError"
    monkeypatch.setenv(models.ENV_URL, url)
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    with pytest.raises(UserError, match="BLINDCHESS_MODEL_URL"):
        models.install("de")
    assert main(["models", "install", "de"]) == 2
    assert "BLINDCHESS_MODEL_URL" in capsys.readouterr().err
    assert leftovers() == []


def test_install_from_a_missing_file_or_a_folder_says_so(tmp_path, monkeypatch):
    # both said "Die Audiodatei ... gibt es nicht" (the message of a missing WAV)
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    with pytest.raises(UserError, match="ZIP-Datei .*gibt es nicht"):
        models.install("de", source=tmp_path / "fehlt.zip")
    with pytest.raises(UserError, match="Ordner"):
        models.install("de", source=tmp_path)
    assert leftovers() == []


def test_a_configured_model_folder_that_does_not_exist_is_reported(tmp_path, monkeypatch, capsys, caplog):
    # BLINDCHESS_VOSK_MODEL pointing to a missing folder was ignored silently
    import logging

    (paths.models_dir() / "de" / "conf").mkdir(parents=True)      # an installed model to fall back on
    missing = tmp_path / "no-such-model"
    monkeypatch.setenv(models.ENV_MODEL, str(missing))
    monkeypatch.setenv("BLINDCHESS_LANG", "en")
    assert models.configured_problem(None, "en") == (
        f"The model folder set in BLINDCHESS_VOSK_MODEL does not exist: {missing}. Correct or remove "
        "BLINDCHESS_VOSK_MODEL; until then no other model is used for listening.")
    assert "existiert nicht" in models.configured_problem(None, "de")
    with pytest.raises(UserError, match="does not exist"):
        models.find_model("de", strict=True, ui_lang="en")
    with caplog.at_level(logging.WARNING, logger="blindchess.adapters.speech"):
        assert models.find_model("de") == paths.models_dir() / "de"      # the app keeps going ...
    assert any("does not exist" in r.getMessage() for r in caplog.records)  # ... but says so
    assert "configured model folder does not exist" in models.configured_problem(tmp_path / "gone", "en")
    assert main(["models", "list"]) == 0
    assert f"does not exist: {missing}" in capsys.readouterr().out
    from blindchess.adapters.speech import asr
    with pytest.raises(UserError, match="does not exist"):
        asr.model_for("de", None, "en")
    with pytest.raises(UserError, match="configured model folder does not exist"):
        asr.model_for("de", tmp_path / "gone", "en")
    monkeypatch.setenv(models.ENV_MODEL, str(paths.models_dir()))    # an existing folder: no complaint
    assert models.configured_problem(None, "en") is None


@pytest.mark.skipif(__import__("shutil").which("espeak-ng") is None, reason="espeak-ng is not installed")
def test_listen_says_the_configured_model_folder_is_missing(tmp_path):
    wav = tmp_path / "move.wav"
    subprocess.run(["espeak-ng", "-v", "de", "-w", str(wav), "Springer Felix drei"], check=True)
    done = subprocess.run([sys.executable, "-m", "blindchess", "listen", "--wav", str(wav)], capture_output=True,
                          text=True, timeout=60,
                          env={**os.environ, "BLINDCHESS_LANG": "de", models.ENV_MODEL: str(tmp_path / "weg")})
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert f"existiert nicht: {tmp_path / 'weg'}" in done.stderr


# --------------------------------------------------------------------------- bounds

class BoundedServer(Server):
    """Also serves without a length (``no_length``) and in many small pieces, as a slow server would."""

    def __init__(self):
        super().__init__()
        self.no_length: set[str] = set()
        owner = self
        handler = self.httpd.RequestHandlerClass

        def do_GET(req):
            body = owner.files.get(req.path)
            if body is None or req.path not in owner.no_length:
                return handler.do_GET_default(req)
            req.send_response(200)
            req.end_headers()
            for i in range(0, len(body), 16 * 1024):   # a drip: many small pieces
                req.wfile.write(body[i:i + 16 * 1024])
                req.wfile.flush()
            req.close_connection = True

        handler.do_GET_default = handler.do_GET
        handler.do_GET = do_GET


@pytest.fixture
def bounded(monkeypatch):
    srv = BoundedServer()
    monkeypatch.setenv(models.ENV_URL, srv.url)
    yield srv
    srv.close()


@pytest.fixture
def tiny_catalogue(monkeypatch):
    """The German model as a 1 MB download (limits: 1.5 MB download, 4 MB unpacked) so tests stay small."""
    import dataclasses
    real = models.catalogue
    monkeypatch.setattr(models, "catalogue", lambda: {k: dataclasses.replace(v, size_mb=1) for k, v in real().items()})
    monkeypatch.setattr(models, "DOWNLOAD_SLACK_MB", 0)


def test_limits_follow_the_catalogue():
    info = models.catalogue()["de"]
    assert info.max_download == int((info.size_mb * 1.5 + 5) * 1_000_000)
    assert info.max_unpacked == int((info.size_mb * 4 + 5) * 1_000_000) < models.MAX_UNPACKED


def test_a_server_claiming_100_gb_is_refused_before_reading(bounded):
    bounded.files[f"/models/{NAME}.zip"] = model_zip()
    bounded.lie_length[f"/models/{NAME}.zip"] = 100 * 10**9
    with pytest.raises(UserError, match="100000 MB"):
        models.install("de")
    assert leftovers() == []


def test_a_server_sending_no_length_is_cut_off_at_the_bound(bounded, tiny_catalogue):
    bounded.files[f"/models/{NAME}.zip"] = os.urandom(2_000_000)       # more than 1.5 MB, no length said
    bounded.no_length.add(f"/models/{NAME}.zip")
    with pytest.raises(UserError, match="größer, als das Modell sein kann"):
        models.install("de")
    assert leftovers() == []
    # Within the bound and without a length a model still installs.
    bounded.files[f"/models/{NAME}.zip"] = model_zip()
    assert models.install("de").path == paths.models_dir() / "de"


def test_the_overall_deadline_stops_a_slow_download(bounded):
    bounded.files[f"/models/{NAME}.zip"] = model_zip([(f"{NAME}/graph/HCLr.fst", os.urandom(1_000_000))])
    bounded.no_length.add(f"/models/{NAME}.zip")
    now = [0.0]

    def clock() -> float:          # every look at the clock: 100 s later (a drip, without waiting)
        now[0] += 100.0
        return now[0]

    with pytest.raises(UserError, match="länger als 5 Minuten"):
        models.install("de", time_limit=300.0, clock=clock)
    assert leftovers() == []
    assert models.install("de", time_limit=1e9, clock=clock).path.is_dir()   # the same download in time


def _zeros_zip(size: int) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(f"{NAME}/conf/model.conf", b"x\n")
        with zf.open(f"{NAME}/am/final.mdl", "w", force_zip64=True) as out:
            block = bytes(1 << 20)
            for _ in range(size >> 20):
                out.write(block)
    return buf.getvalue()


def test_a_zip_bomb_is_refused(bounded):
    bomb = _zeros_zip(200 << 20)           # 200 MB of zeros in a zip of well under 1 MB
    assert len(bomb) < 1_000_000
    bounded.files[f"/models/{NAME}.zip"] = bomb
    with pytest.raises(UserError, match="würde 209 MB entpacken"):
        models.install("de")
    assert leftovers() == []


def test_an_encrypted_zip_is_refused_with_a_message(tmp_path, capsys):
    data = bytearray(model_zip())
    for sig, offset in ((b"PK\x03\x04", 6), (b"PK\x01\x02", 8)):   # the encryption flag, local and central
        at = data.find(sig)
        data[at + offset] |= 0x01
    archive = tmp_path / "enc.zip"
    archive.write_bytes(bytes(data))
    assert main(["models", "install", "de", "--from", str(archive)]) == 2
    err = capsys.readouterr().err
    assert "verschlüsselten" in err and "Interner Fehler" not in err
    assert leftovers() == []


@pytest.mark.parametrize("name", ["/dev/zero", "fifo"])
def test_a_source_that_is_no_regular_file_is_refused_unread(tmp_path, capsys, name):
    source = Path(name)
    if name == "fifo":
        source = tmp_path / "model.zip"
        os.mkfifo(source)
    assert main(["models", "install", "de", "--from", str(source)]) == 2
    assert "keine gewöhnliche Datei" in capsys.readouterr().err
    assert leftovers() == []


def test_a_local_archive_larger_than_the_model_is_refused(tmp_path, tiny_catalogue):
    archive = tmp_path / "big.zip"
    archive.write_bytes(os.urandom(1_600_000))
    with pytest.raises(UserError, match="größer, als das Modell sein kann"):
        models.install("de", source=archive)
    assert leftovers() == []


def test_stale_staging_folders_are_removed_by_the_next_models_command(tmp_path, capsys):
    root = paths.models_dir()
    root.mkdir(parents=True, exist_ok=True)
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(gone.stdout)
    stale = [root / f".install-de-{dead}-abc123", root / ".install-de-k2j3h4", root / f".remove-de-{dead}"]
    for folder in stale:
        (folder / "unpacked").mkdir(parents=True)
        (folder / "unpacked" / "final.mdl").write_bytes(b"x" * 1000)
    running = root / f".install-de-{os.getpid()}-live"   # an installation still under way is left alone
    running.mkdir()
    assert main(["models", "list"]) == 0
    assert not any(folder.exists() for folder in stale)
    assert running.exists()


@pytest.mark.parametrize("name", [".", "..", "../models", "/tmp", "de/..", "de/../en", "", "xx"])
def test_models_remove_accepts_only_model_names(tmp_path, capsys, name):
    archive = tmp_path / f"{NAME}.zip"
    archive.write_bytes(model_zip())
    models.install("de", source=archive)
    keep = paths.models_dir().parent / "keep.txt"
    keep.write_text("x")
    assert main(["models", "remove", name]) == 2
    err = capsys.readouterr().err
    assert "kein Modellname" in err and "Interner Fehler" not in err
    assert models.find_model("de") is not None and keep.exists()
    assert main(["models", "remove", "de"]) == 0 and models.find_model("de") is None


# --------------------------------------------------------------------------- the published sums

def test_every_model_has_its_published_sum_and_size(published):
    for info in models.catalogue().values():
        assert len(info.sha256) == 64 and int(info.sha256, 16) >= 0, info.lang
        assert info.size_mb * 1_000_000 <= info.bytes < (info.size_mb + 5) * 1_000_000 * 1.1, info.lang


def test_a_download_that_is_not_the_published_file_is_refused_over_http(server, published, capsys):
    # A local server stands in for the model site: it serves another zip under the model's name.
    data = model_zip()
    server.files[f"/models/{NAME}.zip"] = data
    with pytest.raises(UserError, match="Prüfsumme") as info:
        models.install("de")
    assert models.catalogue()["de"].sha256 in str(info.value) and hashlib.sha256(data).hexdigest() in str(info.value)
    assert models.find_model("de") is None and leftovers() == []
    assert main(["models", "install", "de"]) == 2
    err = capsys.readouterr().err
    assert "Prüfsumme" in err.strip().splitlines()[-1] and "Traceback" not in err


def test_a_local_zip_that_is_not_the_published_file_is_refused(tmp_path, published, capsys):
    archive = tmp_path / f"{NAME}.zip"
    archive.write_bytes(model_zip())
    assert main(["models", "install", "de", "--from", str(archive)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Prüfsumme" in err[0] and models.find_model("de") is None and leftovers() == []


def test_the_published_file_is_installed_verified(server, monkeypatch):
    # The same check with a sum on record that the served file has (the real 45 MB zip is not downloaded here).
    data = model_zip()
    server.files[f"/models/{NAME}.zip"] = data
    monkeypatch.setattr(models, "catalogue", lambda: {k: dataclasses.replace(v, sha256=hashlib.sha256(data).hexdigest())
                                                      for k, v in PUBLISHED().items()})
    result = models.install("de")
    assert result.verified and models.manifest("de")["verified"] is True


def test_a_model_without_a_published_sum_is_installed_and_said_unverified(server, capsys):
    server.files[f"/models/{NAME}.zip"] = model_zip()
    assert main(["models", "install", "de"]) == 0
    captured = capsys.readouterr()
    notes = [line for line in captured.err.splitlines() if "SHA-256" in line]
    assert len(notes) == 1 and NAME in notes[0]
    assert models.manifest("de")["verified"] is False


def test_a_download_that_stops_part_way_ends_the_progress_bar_before_the_message(server, capsys, monkeypatch):
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    data = model_zip()
    server.files[f"/models/{NAME}.zip"] = data[: len(data) // 2]
    server.lie_length[f"/models/{NAME}.zip"] = len(data)
    assert main(["models", "install", "de"]) == 2
    err = capsys.readouterr().err
    last = err.rstrip("\n").split("\n")[-1]
    assert "unvollständig" in last and "\r" not in last and "%" not in last    # a line of its own, not after the bar
