"""A private, real speech-dispatcher for tests: its own socket, config and log; the dummy output module.

:class:`SpeechDispatcherServer` starts Debian's ``speech-dispatcher`` in the
foreground ("single" mode) with a configuration written into a temporary
folder: the ``sd_dummy`` output module as the only synthesiser, audio through libao's
``null`` driver (no sound card is needed, nothing is heard), a Unix socket of
its own, log level 5. At that level
the server logs every text it hands to the output module::

    Command sent to output module: |<speak>Bauer Eva vier</speak>|

:meth:`SpeechDispatcherServer.delivered` reads these lines: the texts the
synthesiser received, in order — what a screen reader user would have heard.
:meth:`SpeechDispatcherServer.sent` reads what each client sent (``N:DATA:|…``
lines of connection N, named by its ``SET self CLIENT_NAME user:name:component``):
Orca's speech and the program's, told apart.
Nothing here sleeps: the callers poll with ``waiting.wait_for``.
"""

from __future__ import annotations

import codecs
import html
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

from tests.support.waiting import wait_for

BINARY = shutil.which("speech-dispatcher")
_DELIVERED = re.compile(r"Command sent to output module: \|<speak>(.*?)</speak>\|", re.S)
_MARK = re.compile(r'<mark name="[^"]*"/>')     # the index marks speech-dispatcher puts between sentences
_DATA = re.compile(r"speechd:\s+(\d+):DATA:\|(.*?)\r?\n\| \(\d+\)", re.S)  # what connection N sent
_SSML = re.compile(r"</?speak>")
_CONFIG = """\
LogLevel 5
LogDir "{logs}"
AudioOutputMethod "libao"
AddModule "dummy" "sd_dummy" "dummy.conf"
DefaultModule dummy
DefaultLanguage "de"
"""


class SpeechDispatcherServer:
    """One speech-dispatcher process (see the module docstring); a context manager. Raises RuntimeError
    when it does not come up within ``timeout`` seconds."""

    def __init__(self, folder: Path, timeout: float = 20.0) -> None:
        if BINARY is None:
            raise RuntimeError("speech-dispatcher is not installed")
        self.folder = Path(folder)
        self.socket = self.folder / "speechd.sock"
        self.logs = self.folder / "logs"
        self._offset, self._pending, self._texts = 0, "", []
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")   # a read may end inside a letter
        conf = self.folder / "conf"
        (conf / "modules").mkdir(parents=True, exist_ok=True)
        self.logs.mkdir(exist_ok=True)
        (conf / "speechd.conf").write_text(_CONFIG.format(logs=self.logs), encoding="utf-8")
        (conf / "modules" / "dummy.conf").write_text("", encoding="utf-8")
        (self.folder / ".libao").write_text("default_driver=null\n", encoding="utf-8")   # libao's silent output
        # LANG: speech-dispatcher stops when setlocale() fails, and the tests' German system locale
        # (tests/conftest.py) need not be installed; it speaks no words of its own here anyway.
        env = dict(os.environ, HOME=str(self.folder), XDG_RUNTIME_DIR=str(self.folder),
                   XDG_CONFIG_HOME=str(self.folder / "config"), LANG="C.UTF-8")
        self.process = subprocess.Popen(
            [BINARY, "-s", "-t", "0", "-C", str(conf), "-c", "unix_socket", "-S", str(self.socket),
             "-P", str(self.folder / "speechd.pid"), "-L", str(self.logs)],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_for(lambda: self.socket.exists() or self.process.poll() is not None, timeout) \
                or self.process.poll() is not None:
            self.stop()
            raise RuntimeError(f"speech-dispatcher did not start (exit code {self.process.poll()})")

    @property
    def address(self) -> str:
        """The address to pass to a client: ``unix_socket:<path>``."""
        return f"unix_socket:{self.socket}"

    def log(self) -> str:
        path = self.logs / "speech-dispatcher.log"
        return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""

    def delivered(self) -> list[str]:
        """Every text the server handed to the output module, in order (the log is read on from where the
        last call stopped)."""
        path = self.logs / "speech-dispatcher.log"
        if path.exists():
            with path.open("rb") as f:
                f.seek(self._offset)
                chunk = f.read()
            self._offset += len(chunk)
            self._pending += self._decoder.decode(chunk)
            end = 0
            for match in _DELIVERED.finditer(self._pending):
                self._texts.append(html.unescape(_MARK.sub("", match.group(1))).strip())
                end = match.end()
            self._pending = self._pending[end:]
        return list(self._texts)

    def received(self, command: str, client: str | None = None) -> int:
        """How often a client (``client``: only that one, "name" or "name:component") sent ``command``
        (e.g. "CANCEL SELF"; case does not count)."""
        if client is None:
            return len(re.findall(r"DATA:\|" + re.escape(command) + r"\r?\n", self.log(), re.I))
        return sum(1 for who, kind, _text in self.sent() if kind == "command" and _matches(who, client)
                   and _text.strip().lower() == command.strip().lower())

    def sent(self) -> list[tuple[str, str, str]]:
        """Everything the clients sent, in order: (client "name:component", "text" or "command", text) — the
        texts with their SSML marks taken out."""
        names: dict[str, str] = {}
        speaking: dict[str, list[str]] = {}
        out: list[tuple[str, str, str]] = []
        for fd, chunk in _DATA.findall(self.log()):
            chunk = chunk.replace("\r", "")
            if fd in speaking:
                end = chunk == "." or chunk.endswith("\n.")
                speaking[fd].append(chunk[:-2] if chunk.endswith("\n.") else ("" if chunk == "." else chunk))
                if end:
                    text = html.unescape(_SSML.sub("", _MARK.sub("", "\n".join(speaking.pop(fd))))).strip()
                    out.append((names.get(fd, fd), "text", text))
                continue
            if chunk.upper().startswith("SET SELF CLIENT_NAME "):
                _user, name, component = (chunk.split(" ", 3)[3].split(":") + ["", ""])[:3]
                names[fd] = f"{name}:{component}"
            if chunk.upper() == "SPEAK":
                speaking[fd] = []
            else:
                out.append((names.get(fd, fd), "command", chunk))
        return out

    def spoken_by(self, client: str) -> list[str]:
        """The texts ``client`` ("name" or "name:component") sent to be spoken, in order."""
        return [text for who, kind, text in self.sent() if kind == "text" and _matches(who, client)]

    def stop(self) -> None:
        """End the server (it was started here) and wait for it."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> SpeechDispatcherServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _matches(who: str, client: str) -> bool:
    return who == client or who.split(":")[0] == client
