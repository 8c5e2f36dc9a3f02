"""Polling helper for tests that wait on another thread or process (no fixed sleeps: the machine is shared)."""

from __future__ import annotations

import time


def wait_for(predicate, timeout: float = 5.0) -> bool:
    """True as soon as ``predicate()`` holds, else its value after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()
