"""Per-user folders: journals, speech models, logs.

``BLINDCHESS_HOME`` overrides everything (tests and portable installs use it).
Otherwise the system's folder for an application's user data, as
``platformdirs`` finds it: ``%LOCALAPPDATA%\\blindchess`` on Windows (the local,
not the roaming profile: speech models are large), ``~/Library/Application
Support/blindchess`` on macOS, ``$XDG_DATA_HOME/blindchess`` (default
``~/.local/share/blindchess``) on Linux and other Unix systems.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "blindchess"


def data_dir() -> Path:
    """The user data directory (created on first use by the callers that write)."""
    override = os.environ.get("BLINDCHESS_HOME")
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir(APP, appauthor=False, roaming=False))


def journal_dir() -> Path:
    """Where game journals (JSON lines) are kept."""
    return data_dir() / "journals"


def models_dir() -> Path:
    """Where downloaded vosk speech models are installed."""
    return data_dir() / "models"


def log_dir() -> Path:
    """Where internal error details are written (never shown as a traceback)."""
    return data_dir() / "logs"
