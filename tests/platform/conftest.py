"""The Windows tests under Wine run only in ``make test-windows`` (``BLINDCHESS_WINE_TESTS=1`` and the prefix
of ``tests/platform/wine.py`` prepared); ``make test`` skips them, so the normal suite is not slower."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator

import pytest

from tests.platform import wine


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("BLINDCHESS_WINE_TESTS") == "1" and wine.ready():
        return
    skip = pytest.mark.skip(reason="Windows under Wine: run by make test-windows (BLINDCHESS_WINE_TESTS=1, prepared prefix)")
    for item in items:
        if item.get_closest_marker("wine") is not None:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def display() -> Iterator[str]:
    """An X display of its own (Xvfb) for the Windows window: Wine draws its windows on X."""
    if shutil.which("Xvfb") is None:
        pytest.fail("Xvfb is missing (make test-windows installs xvfb)")
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    try:
        yield f":{number}"
    finally:
        xvfb.terminate()
        xvfb.wait(30)
