"""The app on a real X server (Xvfb), not only offscreen.

Offscreen tests cannot see a missing X11 library: Qt's xcb plugin then refuses to
load and the app cannot open a window on a real desktop. `make` installs those
libraries; this test proves the window really opens on an X display.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="Xvfb is not installed (make test installs it)")


@pytest.fixture
def x_display(tmp_path):
    """A private Xvfb display, stopped after the test."""
    for number in range(90, 110):
        if not os.path.exists(f"/tmp/.X11-unix/X{number}") and not os.path.exists(f"/tmp/.X{number}-lock"):
            break
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not os.path.exists(f"/tmp/.X11-unix/X{number}") and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_main_window_opens_on_a_real_x_display(x_display, tmp_path):
    code = (
        "from blindchess.ui.app import build\n"
        "app, controller, window = build(lang='de')\n"
        "window.show(); app.processEvents()\n"
        "print(app.platformName(), window.isVisible(), window.windowTitle())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(DISPLAY=x_display, BLINDCHESS_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-1500:]
    platform, visible, title = out.stdout.split(" ", 2)
    assert platform == "xcb" and visible == "True" and "blindchess" in title
