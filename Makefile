# blindchess — two commands on a fresh Debian/Ubuntu machine:
#   make run    set up everything and start the app
#   make test   set up everything plus the test tools, run the whole suite headless
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# Debian packages: espeak-ng (speech on Linux), libportaudio2 (microphone),
# the libraries Qt needs to start (also offscreen), stockfish (practice against
# the computer), speech-dispatcher and its Python binding (the screen-reader
# speech channel), python3-venv (Debian's Python makes no virtual environment without it); for tests: sox (audio measurements), poppler-utils (text of
# generated PDFs), xvfb (the app on a real X server), the AT-SPI stack
# (at-spi2-core, python3-pyatspi, dbus-x11) to walk the accessibility tree, orca (the
# screen reader itself, run by the tests to hear what a blind player hears), and chromium
# (the live broadcast's pages looked at in a real browser, headless).
RUN_DEBS  := espeak-ng libportaudio2 libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3 \
             libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 \
             libxcb-render-util0 libxcb-shape0 libxcb-xkb1 libxcb-randr0 \
             stockfish speech-dispatcher python3-speechd python3-venv
TEST_DEBS := $(RUN_DEBS) sox poppler-utils xvfb at-spi2-core python3-pyatspi dbus-x11 orca chromium
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test test-fast test-windows lint lock docs setup setup-test system-deps system-test-deps bench clean dist

run: setup
	$(BIN)/blindchess

# The whole suite on three worker processes (pytest-xdist) on two cores: the screen-reader tests, run first,
# mostly wait for Orca while the other two workers use the cores; TEST_JOBS=1 runs it in one.
TEST_JOBS ?= 3
test: setup-test lint
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_JOBS)

# The fast subset: everything but the tests marked slow (whole games in the window, Xvfb, Stockfish, subprocesses).
test-fast: setup-test
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_JOBS) -m "not slow"

# ruff on the code and the tests; mypy on the package (strict on the core: pyproject [tool.mypy]);
# import-linter on the layers of the package (pyproject [tool.importlinter]: an import against them fails);
# the guides in docs/ built by Sphinx, a warning is an error.
lint: setup-test
	$(BIN)/ruff check blindchess tests
	$(BIN)/mypy blindchess
	$(BIN)/lint-imports --no-cache --no-logo
	$(MAKE) --no-print-directory docs

# The user and developer guides as HTML in build/docs (Sphinx with myst-parser; warnings are errors).
docs: setup-test
	$(BIN)/sphinx-build -W --keep-going -q -b html docs build/docs

bench: setup-test
	@for f in tests/benchmarks/bench_*.py; do echo "== $$f"; QT_QPA_PLATFORM=offscreen $(BIN)/python $$f || exit 1; done

setup: system-deps $(VENV)/.installed
setup-test: system-test-deps $(VENV)/.installed-test

# Install only what is missing; apt-get update only when something is.
define install_debs
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null; then \
	    echo "Installing system packages:$$missing"; \
	    $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	  else echo "Please install:$$missing (see docs/user/en/getting-started.md)"; fi; \
	fi
endef

system-deps:
	$(call install_debs,$(RUN_DEBS))

system-test-deps:
	$(call install_debs,$(TEST_DEBS))

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip "setuptools>=68" wheel

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(VENV)/bin/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $(VENV)/.installed $@

# The stand-alone program (PyInstaller, one folder with Python and every library), built in a fresh
# environment from the package as users install it, every version pinned by the lock
# (packaging/constraints.txt), started (--version, a scenario game, the window offscreen) and zipped
# into dist/ with the licence texts of everything in it. Not part of `make test`.
dist: system-deps
	$(PYTHON) packaging/build_dist.py

# The lock: every package of every extra, pinned, one file for Windows, macOS and Linux (uv's universal
# resolution). Run by hand when a dependency should move; commit the result.
lock: setup-test
	$(BIN)/python -m pip install -q "uv>=0.5"
	$(BIN)/uv pip compile pyproject.toml --extra windows --extra dist --extra test --universal \
	  --python-version 3.11 --no-header --no-annotate --quiet -o packaging/constraints.body
	{ sed -n '1,2p' packaging/constraints.txt; cat packaging/constraints.body; } > packaging/constraints.new
	mv packaging/constraints.new packaging/constraints.txt; rm -f packaging/constraints.body

# Windows, here: the official embeddable Windows CPython under Wine (tests/platform/wine.py sets it up in
# build/wine/): the program, whole games with journals, the window on Qt's Windows platform under Xvfb,
# the PyInstaller build with both programs and the NVDA route, then the suite's Windows subset inside
# Wine (tests/platform/windows_skips.py says what is left out and why). Not part of `make test`.
WINE_DEBS := wine wine64 gcc-mingw-w64-x86-64-win32 xvfb xauth xdotool
WINE_SUITE := tests/base tests/storage tests/language tests/laws tests/pegboard tests/records tests/game \
              tests/scenario tests/adapters/test_screenreader.py tests/adapters/test_tts.py tests/project/test_portability.py \
              tests/platform/test_sapi.py tests/platform/test_macos.py tests/platform/test_packaging.py
test-windows: setup-test
	$(call install_debs,$(WINE_DEBS))
	$(BIN)/python -m tests.platform.wine prepare
	trap '$(BIN)/python -m tests.platform.wine stop' EXIT; \
	BLINDCHESS_WINE_TESTS=1 $(BIN)/python -m pytest -q -p no:cacheprovider -m wine tests/platform && \
	$(BIN)/python -m tests.platform.wine run -m pytest -q -p no:cacheprovider -p tests.platform.windows_skips \
	  -m "not slow" $(WINE_SUITE)

clean:
	rm -rf $(VENV) build dist *.egg-info

# Mutation sample (by hand only, not part of `make test`): the rules engine, the table, the journal and the
# broadcast by default, the seed drawn at run time and printed; kill rate per module and the surviving mutants.
# SAMPLE=n mutants per module (0 = all), MODULES="clock journal" for others, SEED=n to repeat a run.
.PHONY: mutation
SAMPLE ?= 12
mutation: setup-test
	QT_QPA_PLATFORM=offscreen $(BIN)/python tests/mutation/run_mutations.py --sample $(SAMPLE) $(if $(SEED),--seed $(SEED)) $(MODULES)

# The crash test's whole sweep (by hand, not part of `make test`, which runs a seeded sample of it): the real
# program killed with SIGKILL right after each of its fsyncs in every scenario of tests/scenarios/, resumed
# with the same script, compared with the uninterrupted game. About seven minutes on two cores (77 scenarios).
.PHONY: crash-sweep
crash-sweep: setup-test
	BLINDCHESS_CRASH_KILLS=all QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_JOBS) tests/scenario/test_crash_resume.py
