"""The licence texts of everything the stand-alone program bundles, for its ``licenses/`` folder.

The PyInstaller spec hands over the top-level modules it bundled; each is traced to its installed
distribution (``importlib.metadata``) and that distribution's licence files are copied: the files its
metadata names (``License-File``, PEP 639's ``.dist-info/licenses/``) and the usual names in its
``.dist-info`` (LICENSE, COPYING, NOTICE, AUTHORS). A distribution that ships no text of its own gets the
standard text of its licence from ``packaging/licenses/`` (vosk: Apache-2.0; PySide6 and shiboken6 ship
only Qt's commercial terms, so the LGPL-3.0 under which blindchess uses them is added). Besides the
Python packages: Python itself, the Microsoft C runtime that Python and Qt bring, and the libraries
inside vosk's and sounddevice's binaries (:data:`BINARIES`).

``licenses/README.txt`` lists every component, its version, its licence and its files. Raises
:class:`MissingLicence` when a bundled distribution has no licence text at all — the build stops.
"""

from __future__ import annotations

import importlib.metadata as md
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEXTS = HERE / "licenses"
ROOT = HERE.parent

#: Texts for distributions that ship none in their wheel, or not the one blindchess uses them under
#: (files in packaging/licenses/; pyserial's is the LICENSE.txt of its source release).
ADDED = {
    "vosk": ["Apache-2.0.txt"],
    "pyside6-essentials": ["LGPL-3.0.txt"],
    "shiboken6": ["LGPL-3.0.txt"],
    "pyserial": ["pyserial-3.5-LICENSE.txt"],
}
#: blindchess's own licence where the installed metadata has none (an editable install).
OWN = ROOT / "LICENSE"
#: Distributions whose modules PyInstaller may pull in but that are build tools, not part of the program.
BUILD_ONLY = {"pyinstaller", "pyinstaller-hooks-contrib", "altgraph", "pefile", "macholib", "pip", "setuptools",
              "wheel", "pywin32-ctypes"}
#: Libraries inside the bundled binaries, with where their terms are: (name, licence, files — each relative
#: to ``packaging/licenses``, or "distribution:path" in an installed distribution, or an absolute path; "a|b":
#: the first that exists —, a glob that tells whether the build holds them). The Linux build (make dist; not
#: released) also takes system libraries from the build machine: their terms are in its /usr/share/doc.
BINARIES = [
    ("Kaldi, OpenFST and the GCC runtime in libvosk", "Apache-2.0 AND GPL-3.0-or-later WITH GCC-exception-3.1",
     ["Apache-2.0.txt", "GCC-exception-3.1.txt", "../../LICENSE"], "*vosk*"),   # ../../LICENSE: the GPL-3.0 text
    ("PortAudio (in sounddevice)", "MIT", ["sounddevice:_sounddevice_data/portaudio-binaries/README.md"
                                            "|/usr/share/doc/libportaudio2/copyright"], "*portaudio*"),
]
_NAMES = re.compile(r"^(licen[cs]e|copying|notice|authors|copyright)", re.IGNORECASE)


class MissingLicence(Exception):
    """A bundled component whose licence text could not be found."""


@dataclass
class Component:
    name: str
    version: str
    licence: str
    files: list[str] = field(default_factory=list)


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def distributions(modules: set[str]) -> list[md.Distribution]:
    """The installed distributions that provide the top-level ``modules`` (build tools left out)."""
    providers = md.packages_distributions()
    names = {_normal(d) for module in modules for d in providers.get(module, [])}
    found = {}
    for dist in md.distributions():
        name = _normal(dist.metadata["Name"] or "")
        if name in names and name not in BUILD_ONLY and name not in found:
            found[name] = dist
    return [found[n] for n in sorted(found)]


def licence_of(dist: md.Distribution) -> str:
    meta = dist.metadata
    if meta.get("License-Expression"):
        return str(meta["License-Expression"])
    text = str(meta.get("License") or "").strip()
    if text and text.upper() != "UNKNOWN" and "\n" not in text and len(text) < 80:
        return text
    classifiers = [c.split("::")[-1].strip() for c in meta.get_all("Classifier") or [] if c.startswith("License ::")]
    return " / ".join(classifiers) or "see the files"


def licence_files(dist: md.Distribution) -> list[tuple[str, Path]]:
    """(name in the folder, file) of each licence file the distribution installed."""
    named = {str(f) for f in dist.metadata.get_all("License-File") or []}
    found: dict[str, Path] = {}
    for entry in dist.files or []:
        parts = entry.parts
        if not parts or not parts[0].endswith(".dist-info"):
            continue
        inside = "/".join(parts[1:])
        if inside.startswith("licenses/") or _NAMES.match(parts[-1]) or inside in named:
            path = Path(str(entry.locate()))
            if path.is_file():
                found[inside.removeprefix("licenses/")] = path
    return sorted(found.items())


def _python() -> Component:
    base = Path(sys.base_prefix)
    for candidate in (base / "LICENSE.txt", base / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "LICENSE.txt",
                      base / "Lib" / "LICENSE.txt"):
        if candidate.is_file():
            return Component("Python", sys.version.split()[0], "PSF-2.0", [str(candidate)])
    raise MissingLicence("Python's LICENSE.txt")


def _text_path(text: str) -> Path:
    """A licence file named in :data:`BINARIES`: absolute (a system library's, on Linux), "distribution:path",
    or relative to packaging/licenses."""
    if text.startswith("/"):
        return Path(text)
    owner, _, inside = text.rpartition(":")
    if owner:
        try:
            return Path(str(md.distribution(owner).locate_file(inside)))
        except md.PackageNotFoundError:
            return Path("/nonexistent")
    return (TEXTS / text).resolve()


def collect(modules: set[str], bundled: list[str]) -> list[tuple[Component, list[tuple[str, Path]]]]:
    """Each bundled component and its licence files; ``bundled`` are the build's file names (for BINARIES)."""
    out: list[tuple[Component, list[tuple[str, Path]]]] = []
    python = _python()
    out.append((python, [("LICENSE.txt", Path(python.files[0]))]))
    if sys.platform == "win32":
        out.append((Component("Microsoft Visual C++ runtime (vcruntime140, msvcp140)", "",
                              "Microsoft Visual C++ Redistributable licence terms (redistributable with applications)"),
                    []))
    for dist in distributions(modules):
        name = _normal(dist.metadata["Name"])
        files = licence_files(dist)
        files += [(text, TEXTS / text) for text in ADDED.get(name, [])]
        if not files and name == "blindchess" and OWN.is_file():
            files = [("LICENSE", OWN)]
        if not files:
            raise MissingLicence(f"{dist.metadata['Name']} {dist.version}")
        out.append((Component(dist.metadata["Name"], dist.version, licence_of(dist)), files))
    import fnmatch

    for label, licence, texts, pattern in BINARIES:
        if not any(fnmatch.fnmatch(Path(b).name.lower(), pattern) for b in bundled):
            continue
        files = []
        for text in texts:
            path = next((p for p in map(_text_path, text.split("|")) if p.is_file()), None)
            if path is None:
                raise MissingLicence(f"{label}: {text}")
            files.append((path.name, path))
        out.append((Component(label, "", licence), files))
    return out


def write(modules: set[str], bundled: list[str], target: Path) -> list[Component]:
    """Write every licence into ``target`` (one folder per component) and ``target/README.txt``."""
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    components = []
    lines = ["Components of the blindchess program and their licences.",
             "blindchess itself: GPL-3.0-or-later (blindchess/LICENSE).", ""]
    for component, files in collect(modules, bundled):
        folder = target / re.sub(r"[^A-Za-z0-9._-]+", "_", component.name).strip("_")
        folder.mkdir(exist_ok=True)
        for name, path in files:
            dest = folder / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, dest)
            component.files.append(str(dest.relative_to(target)).replace("\\", "/"))
        components.append(component)
        version = f" {component.version}" if component.version else ""
        lines.append(f"{component.name}{version}: {component.licence}")
        lines += [f"    {f}" for f in component.files]
    (target / "README.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return components
