"""The tests that cannot run on Windows, or not under Wine, each with its reason — in one place.

A pytest plugin, loaded with ``-p tests.platform.windows_skips`` (``make test-windows`` and the workflow's
Windows job load it). On Windows it skips :data:`POSIX_ONLY`; under Wine (``BLINDCHESS_UNDER_WINE=1``,
set by ``tests/platform/wine.py``) also :data:`WINE_GAPS`. Elsewhere it does nothing. A test id here
that no longer names a test is found by ``tests/platform/test_windows_skips.py``, so the list cannot go stale.
"""

from __future__ import annotations

import os
import sys

import pytest

_FIFO = "makes a FIFO (os.mkfifo): Windows has none"
_SYNC = "syncs the folder of a new journal: Windows cannot open a folder for syncing (base.system.sync_folder does nothing there)"
_PERMISSIONS = "POSIX file permissions, symlink loops and dangling symlinks: Windows reports these differently"

#: Tests of POSIX behaviour (node id, or a prefix of one ending in "::" or "[") -> why it is not run on Windows.
POSIX_ONLY: dict[str, str] = {
    "tests/base/test_textfile.py::test_every_failure_is_a_german_user_error[": _PERMISSIONS,
    "tests/base/test_textfile.py::test_a_fifo_nobody_writes_to_is_refused_at_once": _FIFO,
    "tests/base/test_textfile.py::test_names_the_system_refuses": _PERMISSIONS,
    "tests/base/test_textfile.py::test_missing_means_nothing_is_there": _PERMISSIONS,
    "tests/base/test_textfile.py::test_output_targets_are_checked_before_anything_is_written": _PERMISSIONS,
    "tests/storage/test_journal.py::test_crash_with_sigkill_loses_nothing_acknowledged":
        "ends the writer with SIGKILL: Windows has no such signal",
    "tests/storage/test_journal_durability.py::test_a_folder_that_cannot_be_synced_does_not_stop_a_new_journal": _SYNC,
    "tests/storage/test_journal_durability.py::test_a_real_error_syncing_the_folder_is_raised": _SYNC,
    "tests/storage/test_journal_durability.py::test_the_journal_list_of_a_missing_folder_is_empty_and_a_junk_file_is_unchecked":
        _FIFO,
    "tests/storage/test_journal_integrity.py::test_journal_list_and_the_app_skip_and_name_bad_files": _FIFO,
    "tests/storage/test_journal_files.py::test_a_file_that_holds_no_game_is_listed_as_nothing_played_nothing_damaged": _FIFO,
    "tests/storage/test_journal_integrity.py::test_reading_a_fifo_refuses_it_without_waiting": _FIFO,
    "tests/pegboard/test_dgt.py::test_a_magic_piece_on_the_board_does_not_make_the_link_ask_for_dumps_forever":
        "the e-board's serial link on a pseudo-terminal (pty): POSIX only",
    "tests/pegboard/test_dgt.py::test_a_whole_game_on_the_sighted_eboard_reaches_the_table_as_field_updates":
        "the e-board's serial link on a pseudo-terminal (pty): POSIX only",
    "tests/pegboard/test_dgt.py::test_unplugging_the_eboard_mid_game_neither_loses_nor_invents_a_move":
        "the e-board's serial link on a pseudo-terminal (pty): POSIX only",
    "tests/base/test_foundation.py::test_built_wheel_ships_voices_boards_and_the_guide":
        "builds the wheel with pip inside the test: a build step, checked on Linux",
    "tests/adapters/test_screenreader.py::test_no_server_means_no_screen_reader_with_the_reason":
        "speech-dispatcher's Unix socket (socket.AF_UNIX): Linux's screen-reader route",
}

#: Tests that would run on Windows but meet a gap of Wine 8.0 (or of the Wine test prefix) -> why.
WINE_GAPS: dict[str, str] = {
    "tests/storage/test_journal_lock.py::":
        "Wine's msvcrt.locking sets no errno when the byte is locked, so a second writer gets OSError(0) "
        "instead of the refusal Windows reports (EACCES)",
    "tests/game/test_session_new_refusals.py::"
    "test_a_journal_holding_a_game_is_not_overwritten_and_one_open_elsewhere_is_not_reopened":
        "a journal open elsewhere is told by the lock's refusal, which Wine's msvcrt.locking gives without an errno "
        "(as for tests/storage/test_journal_lock.py)",
    "tests/adapters/test_screenreader.py::test_each_platform_has_its_adapter_and_says_what_is_missing":
        "under Wine accessible_output2's NVDA check answers \"running\" when nothing runs, so the Windows route "
        "connects (the build's test checks that its DLLs load instead)",
    "tests/project/test_portability.py::test_the_licence_is_gpl_3_or_later_in_the_metadata_and_the_licence_file":
        "asks pip, which the embeddable Windows python does not have",
    "tests/scenario/test_scenarios.py::test_no_internal_ids_or_article_numbers_are_spoken[practice_":
        "practice against Stockfish: the Wine prefix has no Windows Stockfish, so the computer's replies differ "
        "from the script's",
}


def under_wine() -> bool:
    return os.environ.get("BLINDCHESS_UNDER_WINE") == "1"


def _reasons() -> dict[str, str]:
    if sys.platform != "win32":
        return {}
    return {**POSIX_ONLY, **(WINE_GAPS if under_wine() else {})}


def _matches(nodeid: str, key: str) -> bool:
    return nodeid == key or (key.endswith(("::", "[", "_")) and nodeid.startswith(key))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reasons = _reasons()
    for item in items:
        nodeid = item.nodeid.replace("\\", "/")
        for key, reason in reasons.items():
            if _matches(nodeid, key):
                item.add_marker(pytest.mark.skip(reason=reason))
                break


def stale(nodeids: list[str], collected_files: set[str]) -> list[str]:
    """Keys of the lists that match no collected test of a collected file (a renamed or removed test)."""
    keys = [*POSIX_ONLY, *WINE_GAPS]
    return [key for key in keys if key.split("::")[0] in collected_files
            and not any(_matches(n, key) for n in nodeids)]
