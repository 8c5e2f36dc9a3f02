"""Where the tests' shared files are, whichever folder a test lives in."""

from __future__ import annotations

from pathlib import Path

#: The ``tests`` folder.
TESTS = Path(__file__).resolve().parents[1]
#: The repository.
REPO = TESTS.parent
#: Whole games as scripts (``blindchess scenario run``).
SCENARIOS = TESTS / "scenarios"
#: Journals, score sheets, games and screenshots the tests read.
DATA = TESTS / "data"
#: What the tests leave to be looked at (screenshots, PDFs, WAVs).
ARTIFACTS = REPO / "test-artifacts"
