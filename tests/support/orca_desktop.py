"""A desktop with a real screen reader for tests: Xvfb, a D-Bus session, the AT-SPI registry, a private
speech-dispatcher, Debian's Orca and the app — and what Orca spoke.

:class:`OrcaDesktop` starts, in this order: Xvfb (1280×1024), a D-Bus session
(``dbus-launch``), a private speech-dispatcher (``speechd_server.py``: the dummy
output module, every text logged), the AT-SPI walker (``atspi_walker.py``; touching
the registry starts the accessibility bus and the registry before anything
else), Orca (``orca_logged.py``: Debian's Orca, its debug log written line by
line, its speech going to our speech-dispatcher) and then the app with
``QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1``. Keys are typed through AT-SPI (XTest),
so they pass Orca as a user's keys do.

What the user heard is read from Orca's debug log: :meth:`OrcaDesktop.orca_said` —
Orca's own "SPEECH OUTPUT" lines (its key echo told apart) — and
:meth:`OrcaDesktop.app_said` — what the app presented through Orca (its screen-reader
channel: each text a notification in the status bar, which Orca speaks and flashes on
the braille display; :meth:`OrcaDesktop.notices` gives both, with the time Orca logged).
:meth:`OrcaDesktop.braille` is every "BRAILLE LINE" Orca showed; :meth:`OrcaDesktop.app_sent`
what the app itself sent to speech-dispatcher (the channel without Orca). Nothing sleeps a
fixed time: :meth:`settle` waits until Orca has been silent (its log unchanged) for a
moment, bounded.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.speechd_server import BINARY as SPEECHD
from tests.support.speechd_server import SpeechDispatcherServer
from tests.support.waiting import wait_for

SYSTEM_PYTHON = "/usr/bin/python3"
HERE = Path(__file__).parent
WALKER = HERE / "atspi_walker.py"
ORCA_WRAPPER = HERE / "orca_logged.py"
ORCA = "/usr/bin/orca"
_SPOKE = re.compile(r"SPEECH OUTPUT: '(.*?)'(?: voice=\w+)?(\s?)(\{.*\})?\s*$")
_BRAILLE = re.compile(r"^(\d\d:\d\d:\d\d\.\d+) - BRAILLE LINE:  '(.*)'\s*$")
_NOTICE = re.compile(r"^(\d\d:\d\d:\d\d\.\d+) - OBJECT EVENT: object:state-changed:showing \(1, 0, \[notification")


def missing() -> str | None:
    """Why Orca cannot run here (with the Debian package to install), or None."""
    for tool, package in (("Xvfb", "xvfb"), ("dbus-launch", "dbus-x11")):
        if shutil.which(tool) is None:
            return f"{tool} is missing (Debian package {package})"
    if not Path(ORCA).is_file():
        return "Orca is not installed (Debian package orca)"
    if SPEECHD is None:
        return "speech-dispatcher is not installed (Debian package speech-dispatcher)"
    if not Path(SYSTEM_PYTHON).is_file():
        return f"{SYSTEM_PYTHON} is missing (Orca and the AT-SPI walker run under the system's Python)"
    probe = subprocess.run([SYSTEM_PYTHON, "-c", "import pyatspi, speechd, orca"], capture_output=True, check=False)
    if probe.returncode != 0:
        return "python3-pyatspi, python3-speechd or Orca's Python package is missing (Debian: orca)"
    return None


class Walker:
    """The AT-SPI walker process: one JSON command in, one JSON answer out (see atspi_walker.py)."""

    def __init__(self, env: dict[str, str], app_name: str = "blindchess") -> None:
        self.proc = subprocess.Popen([SYSTEM_PYTHON, str(WALKER), app_name], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
                                     bufsize=1)
        assert json.loads(self.proc.stdout.readline())["result"] == "started"

    def ask(self, cmd: str, **fields):
        self.proc.stdin.write(json.dumps({"cmd": cmd, **fields}) + "\n")
        reply = json.loads(self.proc.stdout.readline())
        if not reply["ok"]:
            raise AssertionError(f"walker: {reply['error']}")
        return reply["result"]

    def keys(self, *specs: str) -> None:
        self.ask("keys", keys=list(specs))

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()


class OrcaDesktop:
    """See the module docstring. ``app_args``: the app's command line after ``blindchess app``."""

    def __init__(self, app_args: tuple[str, ...] = ("--lang", "de"), *, env: dict[str, str] | None = None,
                 keep: bool = False, settings: dict[str, str] | None = None) -> None:
        # a short folder: speech-dispatcher's Unix socket path must stay under 108 bytes
        self.folder = Path(tempfile.mkdtemp(prefix="bc-orca-"))
        self.keep = keep             # leave the logs (Orca's, speech-dispatcher's) for a person to read
        self._procs: list[subprocess.Popen] = []
        self.settings = settings or {}     # the app's settings.ini before it starts (QSettings' [General])
        self.bus_pid: int | None = None
        self.server: SpeechDispatcherServer | None = None
        self.walker: Walker | None = None
        try:
            self._start(app_args, env or {})
        except BaseException:
            self.close()
            raise

    def _start(self, app_args: tuple[str, ...], extra: dict[str, str]) -> None:
        read, write = os.pipe()
        xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                                pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._procs.append(xvfb)
        os.close(write)
        with os.fdopen(read) as display_pipe:
            display = display_pipe.readline().strip()     # written once the server accepts clients
        assert display, "Xvfb did not start"
        home = self.folder / "home"
        runtime = self.folder / "run"
        for folder in (home, runtime):
            folder.mkdir(mode=0o700)
        env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "NO_AT_BRIDGE", "SPEECHD_ADDRESS")}
        env.update(DISPLAY=f":{display}", HOME=str(home), XDG_RUNTIME_DIR=str(runtime),
                   XDG_CONFIG_HOME=str(home / ".config"), XDG_DATA_HOME=str(home / ".local" / "share"),
                   XDG_CACHE_HOME=str(home / ".cache"), LANG="de_DE.UTF-8")
        launched = subprocess.run(["dbus-launch", "--sh-syntax"], capture_output=True, text=True, env=env,
                                  check=True).stdout
        self.bus_pid = int(re.search(r"DBUS_SESSION_BUS_PID=(\d+)", launched).group(1))
        env["DBUS_SESSION_BUS_ADDRESS"] = re.search(r"DBUS_SESSION_BUS_ADDRESS='([^']+)'", launched).group(1)
        self.server = SpeechDispatcherServer(self.folder / "sd")
        env["SPEECHD_ADDRESS"] = self.server.address          # Orca and the app speak to our speech-dispatcher
        env.update(QT_LINUX_ACCESSIBILITY_ALWAYS_ON="1", QT_ACCESSIBILITY="1", QT_QPA_PLATFORM="xcb",
                   BLINDCHESS_HOME=str(self.folder / "blindchess"), BLINDCHESS_REPORT_READY="1")
        env.update(extra)
        self.env = env
        self.walker = Walker(env)                 # the registry runs before Orca and the app
        self.log = self.folder / "orca-debug.out"
        orca = subprocess.Popen([SYSTEM_PYTHON, str(ORCA_WRAPPER), "-u", str(self.folder / "orca-prefs"),
                                 "--debug-file", str(self.log)], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._procs.append(orca)
        assert wait_for(lambda: self.log.exists() and "SPEECH OUTPUT" in self._log_text(), 60), \
            f"Orca did not start (exit code {orca.poll()})"
        if self.settings:
            home = Path(env["BLINDCHESS_HOME"])
            home.mkdir(parents=True, exist_ok=True)
            lines = ["[General]", *(f"{key}={value}" for key, value in self.settings.items())]
            (home / "settings.ini").write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.app_log = self.folder / "app.out"
        with self.app_log.open("w") as out:
            self.app = subprocess.Popen([sys.executable, "-m", "blindchess", "app", *app_args], env=env,
                                        stdout=out, stderr=subprocess.STDOUT, text=True)
        self._procs.append(self.app)
        self._seen = 0

    # ------------------------------------------------------------------ what was spoken
    def _log_text(self) -> str:
        try:
            return self.log.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def spoken(self) -> list[tuple[str, bool]]:
        """Everything Orca spoke so far, in order: (text, True for its echo of a key typed)."""
        out = []
        for line in self._log_text().splitlines():
            match = _SPOKE.search(line)
            if match:     # Orca logs its echo of keys and typed characters with a space before the voice
                text, space, _voice = match.groups()
                out.append((text.strip(), bool(space)))
        return out

    def orca_said(self, since: int = 0) -> list[str]:
        """What Orca said (its key echo left out), from the ``since``-th utterance on."""
        return [text for text, echo in self.spoken()[since:] if not echo and text]

    def mark(self) -> int:
        """A position in Orca's speech: :meth:`orca_said` (``since``) reads on from here."""
        return len(self.spoken())

    def notices(self) -> list[tuple[str, str, str]]:
        """Every text the app presented through Orca, in order: (the time Orca logged it, what Orca spoke for it,
        what it flashed on the braille display)."""
        out: list[tuple[str, str, str]] = []
        pending: list | None = None
        for line in self._log_text().splitlines():
            started = _NOTICE.search(line)
            if started:
                pending = [started.group(1), []]
                continue
            if pending is None:
                continue
            spoke = _SPOKE.search(line)
            if spoke and not spoke.group(2):
                pending[1].append(spoke.group(1).strip())
                continue
            shown = _BRAILLE.search(line)
            if shown:
                out.append((pending[0], " ".join(pending[1]), shown.group(2)))
                pending = None
        return out

    def app_said(self) -> list[str]:
        """What the app said through Orca (its screen-reader channel), in order — as Orca shows it in braille."""
        return [braille for _t, _speech, braille in self.notices()]

    def braille(self, since: int = 0) -> list[str]:
        """Every line Orca showed on the braille display, from the ``since``-th on."""
        return [m.group(2) for m in map(_BRAILLE.search, self._log_text().splitlines()) if m][since:]

    def app_sent(self, component: str | None = None) -> list[str]:
        """What the app itself sent to speech-dispatcher (its channel when Orca does not present it), in order."""
        assert self.server is not None
        return self.server.spoken_by("blindchess" if component is None else f"blindchess:{component}")

    def settle(self, idle: float = 1.0, timeout: float = 30.0) -> bool:
        """Wait until Orca has said nothing new for ``idle`` seconds (it said what it had to say). Its log as
        a whole never rests while a clock runs (a clock's name changes every second), its speech does."""
        state = {"count": -1, "since": time.monotonic()}

        def quiet() -> bool:
            count = self._log_text().count("SPEECH OUTPUT")
            now = time.monotonic()
            if count != state["count"]:
                state["count"], state["since"] = count, now
                return False
            return now - state["since"] >= idle

        return wait_for(quiet, timeout)

    def keys(self, *specs: str, idle: float = 0.8) -> list[str]:
        """Type ``specs`` (as the walker takes them) and return what Orca said meanwhile (its echo left out)."""
        assert self.walker is not None
        start = self.mark()
        self.walker.keys(*specs)
        self.settle(idle)
        return self.orca_said(start)

    def hear(self, *specs: str, least: int = 1, idle: float = 0.8, timeout: float = 180.0) -> list[str]:
        """Type ``specs`` and return what Orca said in answer: waits for its first ``least`` utterances however
        slow the machine (``timeout`` only ends a wait for what never comes), then until it rests for ``idle``
        seconds (:meth:`keys` is for keys that should stay silent)."""
        assert self.walker is not None
        start = self.mark()
        self.walker.keys(*specs)
        wait_for(lambda: len(self.orca_said(start)) >= least, timeout)
        self.settle(idle)
        return self.orca_said(start)

    # ------------------------------------------------------------------ end
    def close(self) -> None:
        """Stop the app, Orca, the walker, speech-dispatcher, the D-Bus session and Xvfb (what was started here)."""
        for proc in reversed(self._procs[1:]):      # the app, Orca
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        if self.walker is not None:
            self.walker.close()
        if self.server is not None:
            self.server.stop()
        if self.bus_pid is not None:
            try:
                os.kill(self.bus_pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        if self._procs:
            self._procs[0].terminate()
            self._procs[0].wait()
        if not self.keep:
            shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def german_desktop(settings: dict[str, str] | None = None) -> Iterator[OrcaDesktop]:
    """A German desktop for one test module, closed afterwards; skipped with the reason when a part is missing.
    ``settings``: the app's settings before it starts. ``BLINDCHESS_KEEP_ORCA=1`` keeps Orca's and
    speech-dispatcher's logs (the folder is printed)."""
    reason = missing()
    if reason:
        pytest.skip(reason)
    desktop = OrcaDesktop(("--lang", "de"), keep=bool(os.environ.get("BLINDCHESS_KEEP_ORCA")), settings=settings)
    try:
        yield desktop
    finally:
        desktop.close()
        if desktop.keep:
            print(f"Orca's and speech-dispatcher's logs: {desktop.folder}")
