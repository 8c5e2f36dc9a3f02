"""Shared test set-up: an isolated user data directory, German by default."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Every test gets its own BLINDCHESS_HOME so nothing touches the real user data."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("BLINDCHESS_HOME", str(home))
    monkeypatch.delenv("BLINDCHESS_LANG", raising=False)
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):   # the system's language: none, so German
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    return home
