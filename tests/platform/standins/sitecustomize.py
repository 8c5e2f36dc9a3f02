"""A stand-in for the Wine test prefix's Windows python only (make test-windows), never shipped.

Wine 8.0 lacks kernel32's CopyFile2, which shutil.copy2 calls on Windows from Python 3.12 on; Wine aborts
the process on it (PyInstaller copies the build's files with copy2). Without the function shutil copies the
bytes and the times itself, as on a Windows without CopyFile2. blindchess itself never calls copy2.
"""

import _winapi

if hasattr(_winapi, "CopyFile2"):
    del _winapi.CopyFile2
