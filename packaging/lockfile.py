"""The lock: ``packaging/constraints.txt`` pins every package blindchess installs on Windows, macOS and Linux.

Made by ``make lock`` (uv's universal resolution: one file, each platform's packages under its marker)
and used by ``make dist``, the workflows and ``make test-windows``: ``pip install -c constraints.txt``
gives the same versions wherever the index has moved on since.

pip evaluates a marker for the machine it runs on — also when it installs for another platform
(``--platform win_amd64``) — so a build for Windows made elsewhere would miss pywin32, comtypes and
accessible_output2. :func:`requirements_for` evaluates the lock for the *target* platform instead and
names every package it needs, pinned.
"""

from __future__ import annotations

from pathlib import Path

from packaging.requirements import Requirement

#: The marker variables of each target (CPython, 64-bit).
TARGETS = {
    "win32": {"sys_platform": "win32", "platform_system": "Windows", "os_name": "nt", "platform_machine": "AMD64",
              "platform_release": "10"},
    "darwin": {"sys_platform": "darwin", "platform_system": "Darwin", "os_name": "posix", "platform_machine": "arm64",
               "platform_release": "23.0.0"},
    "linux": {"sys_platform": "linux", "platform_system": "Linux", "os_name": "posix", "platform_machine": "x86_64",
              "platform_release": "6.1.0"},
}


def requirements_for(lock: Path, platform: str, python: str) -> list[str]:
    """``name==version`` of every package in ``lock`` that ``platform`` ("win32", "darwin", "linux") with
    CPython ``python`` ("3.13") installs, in the lock's order."""
    env = {**TARGETS[platform], "implementation_name": "cpython", "platform_python_implementation": "CPython",
           "python_version": python, "python_full_version": f"{python}.0", "extra": ""}
    wanted = []
    for line in lock.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(env):
            wanted.append(f"{requirement.name}{requirement.specifier}")
    return wanted
