"""The app on a real X server (Xvfb), not only offscreen.

Offscreen tests cannot see a missing X11 library: Qt's xcb plugin then refuses to
load and the app cannot open a window on a real desktop. `make` installs those
libraries; this test proves the window really opens on an X display.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.support.paths import REPO

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


# ------------------------------------------------------------------------------------------------ low vision (12.11)
ROOT = REPO
SHOTS = ROOT / "test-artifacts" / "screenshots"


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory):
    """Run tests/support/look_screenshots.py on a private Xvfb (1920x1080): the window and the new-game dialog in the light
    and the high-contrast look at 100 % and 200 %, captured from the X screen into test-artifacts/screenshots/."""
    home = tmp_path_factory.mktemp("home")
    for number in range(110, 130):
        if not os.path.exists(f"/tmp/.X11-unix/X{number}") and not os.path.exists(f"/tmp/.X{number}-lock"):
            break
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1920x1080x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while not os.path.exists(f"/tmp/.X11-unix/X{number}") and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
        env.update(DISPLAY=f":{number}", BLINDCHESS_HOME=str(home))
        out = subprocess.run([sys.executable, str(ROOT / "tests" / "support" / "look_screenshots.py"), str(SHOTS)], env=env,
                             capture_output=True, text=True, timeout=300)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert out.returncode == 0, out.stderr[-2000:]
    return {row["file"]: row for row in map(json.loads, out.stdout.splitlines())}


def _dominant(path: Path) -> str:
    from PySide6.QtGui import QColor, QImage

    image = QImage(str(path))
    counts: Counter[str] = Counter()
    for y in range(0, image.height(), 4):
        for x in range(0, image.width(), 4):
            counts[QColor(image.pixel(x, y)).name()] += 1
    return counts.most_common(1)[0][0]


@pytest.mark.slow
def test_screenshots_in_every_look_and_size_are_taken_from_the_x_screen(screenshots):
    expected = {f"{kind}-{look}-{pct}.png" for kind in ("main", "new-game")
                for look in ("light", "high-contrast") for pct in (100, 200)}
    assert set(screenshots) == expected
    for name, row in screenshots.items():
        assert (SHOTS / name).stat().st_size > 10_000, name
        assert row["image"] == row["window"], name          # the whole window was captured
    assert {row["platform"] for row in screenshots.values() if "platform" in row} == {"xcb"}
    assert _dominant(SHOTS / "main-high-contrast-100.png") == "#000000"
    assert _dominant(SHOTS / "new-game-high-contrast-200.png") == "#000000"
    assert _dominant(SHOTS / "main-light-100.png") in ("#efefef", "#ffffff")   # the light look's window or fields


def test_fonts_and_the_next_step_line_double_at_200_percent(screenshots):
    for look in ("light", "high-contrast"):
        small, large = screenshots[f"main-{look}-100.png"], screenshots[f"main-{look}-200.png"]
        assert large["app_font"] == pytest.approx(2 * small["app_font"])
        for row in (small, large):
            assert row["next_step_font"] == pytest.approx(1.25 * row["app_font"])
            assert row["next_step_fits"]


def test_the_board_is_not_smaller_at_200_percent_and_seen_whole(screenshots):
    for look in ("light", "high-contrast"):
        assert screenshots[f"main-{look}-200.png"]["board_side"] >= screenshots[f"main-{look}-100.png"]["board_side"]
        for pct in (100, 200):
            assert screenshots[f"main-{look}-{pct}.png"]["board_visible"], (look, pct)   # not scrolled off, not cut


@pytest.fixture(scope="module")
def large_text(tmp_path_factory):
    """tests/support/look_screenshots.py at 200 % and 300 % on a 1280 × 1024 screen (the light look)."""
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("shots")
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                              pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as display:
        number = display.readline().strip()
    try:
        env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
        env.update(DISPLAY=f":{number}", BLINDCHESS_HOME=str(home))
        out = subprocess.run([sys.executable, str(ROOT / "tests" / "support" / "look_screenshots.py"), str(folder), "--scales",
                              "2.0,3.0", "--looks", "light"], env=env, capture_output=True, text=True, timeout=300)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert out.returncode == 0, out.stderr[-2000:]
    return {row["file"]: row for row in map(json.loads, out.stdout.splitlines())}


@pytest.mark.slow
def test_at_200_and_300_percent_on_1280_by_1024_nothing_is_cut(large_text):
    """The board seen whole, the window and every dialog within the screen; from 250 % one column (the scores
    as wide as the screen, nothing cut); the new-game dialog scrolls down, never sideways, its buttons seen."""
    for pct in (200, 300):
        main, dialog = large_text[f"main-light-{pct}.png"], large_text[f"new-game-light-{pct}.png"]
        assert main["board_visible"] and main["window"][0] <= 1280 and main["window"][1] <= 1024
        assert main["one_column"] == (pct == 300)
        assert dialog["window"][0] <= dialog["screen"][0] and dialog["window"][1] <= dialog["screen"][1]
        assert not dialog["sideways"] and dialog["buttons_seen"], dialog
    below = large_text["main-light-300-below.png"]
    assert below["scores_needed"] <= below["scores_width"]          # the scoresheet's five columns fit
