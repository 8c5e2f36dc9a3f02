"""Per-user folders: journals, speech models, logs.

``BLINDCHESS_HOME`` overrides everything (tests and portable installs use it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "blindchess"


def data_dir() -> Path:
    """The user data directory (created on first use by the callers that write)."""
    override = os.environ.get("BLINDCHESS_HOME")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / APP


def journal_dir() -> Path:
    """Where game journals (JSON lines) are kept."""
    return data_dir() / "journals"


def models_dir() -> Path:
    """Where downloaded vosk speech models are installed."""
    return data_dir() / "models"


def log_dir() -> Path:
    """Where internal error details are written (never shown as a traceback)."""
    return data_dir() / "logs"
