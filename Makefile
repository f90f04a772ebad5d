# Two commands do everything on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check

.PHONY: demo test test-all chromium print-tools bench bench-quick bench-batch bench-drafts bench-explain bench-startup bench-sets device-wheels install clean clean-cache

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[test,dist,cli,print]'
	touch $@

install: $(VENV)/.installed

$(VENV)/.bench-installed: pyproject.toml | $(BIN)/python
	$(PIP) -e '.[test,bench,dist,cli,print]'
	touch $@

demo: install
	$(BIN)/kakuro-np solve puzzles/k2.txt
	$(BIN)/kakuro-np solve --count puzzles/*.txt

test: install chromium print-tools
	$(BIN)/python -m pytest -q -n 2 --dist loadgroup -m "not slow" --durations=15

# The play page's tests drive Debian's Chromium (no browser download); installed when missing.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get install -y -qq chromium >/dev/null 2>&1 || \
	    { apt-get update -qq && apt-get install -y -qq chromium >/dev/null; } || \
	    echo "apt-get could not install chromium: the browser tests will be skipped"; \
	  else echo "no chromium: the play page's browser tests will be skipped (apt-get install chromium)"; fi; }

# `kakuro-np book` embeds DejaVu Sans (fonts-dejavu-core); its tests render pages with
# pdftoppm (poppler-utils). Both from Debian, installed when missing.
print-tools:
	@{ command -v pdftoppm >/dev/null 2>&1 && [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; } || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get install -y -qq poppler-utils fonts-dejavu-core >/dev/null 2>&1 || \
	    { apt-get update -qq && apt-get install -y -qq poppler-utils fonts-dejavu-core >/dev/null; } || \
	    echo "apt-get could not install poppler-utils and fonts-dejavu-core: the book's picture tests will be skipped"; \
	  else echo "no pdftoppm or DejaVu Sans: the book's picture tests will be skipped (apt-get install poppler-utils fonts-dejavu-core)"; fi; }

test-all: install chromium print-tools
	HYPOTHESIS_PROFILE=thorough $(BIN)/python -m pytest -q -n 2 --dist loadgroup

# The benchmark: rewrites bench/RESULTS.md and bench/scaling.png (about 15 minutes).
bench: $(VENV)/.bench-installed
	$(BIN)/python bench/run.py
	$(BIN)/python bench/count_many.py
	$(BIN)/python bench/open_block.py
	$(BIN)/python bench/explain.py

# Scale: batch throughput on 1 and 2 cores, and a count split over a 2-worker Dask LocalCluster.
bench-batch: $(VENV)/.bench-installed
	$(BIN)/python bench/batch.py --results

# Writers' drafts (many solutions): count(limit=2) and kakuro(limit=2) against CP-SAT.
bench-drafts: $(VENV)/.bench-installed
	$(BIN)/python bench/drafts.py

# Explanations and grades: explain/grade/hint times and the spread of grades (a section of RESULTS.md).
bench-explain: $(VENV)/.bench-installed
	$(BIN)/python bench/explain.py

# Start-up: first run on an empty cache, warm solve, --help, kc, and make test in a fresh clone.
bench-startup: $(VENV)/.bench-installed
	$(BIN)/python bench/startup.py --make-test

bench-quick: $(VENV)/.bench-installed
	$(BIN)/python bench/run.py --quick

# Remake the committed puzzle sets in bench/sets/ (slow; fixed seed).
bench-sets: $(VENV)/.bench-installed
	$(BIN)/python bench/make_sets.py

# Dask's wheels, the versions installed here, for the lent 16-core machine's Python 3.12
# (no network there; bench/scale_device.sh installs them): into bench/out/wheels (ignored).
DEVICE_WHEELS := dask distributed tornado tblib zict partd locket
device-wheels: $(VENV)/.installed
	rm -rf bench/out/wheels
	$(BIN)/python -m pip download --quiet --disable-pip-version-check --no-deps \
	  --only-binary=:all: --python-version 3.12 --implementation cp \
	  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
	  --platform manylinux2014_x86_64 -d bench/out/wheels \
	  $$($(BIN)/python -m pip freeze | grep -iE '^($(shell echo $(DEVICE_WHEELS) | tr ' ' '|'))==')

# Clear the compiled kernels by hand (kakuro_np/engine/core/jit.py's guard clears them when any source changes).
clean-cache:
	find kakuro_np -name '*.nbi' -delete -o -name '*.nbc' -delete
	if [ -x $(BIN)/python ]; then $(BIN)/python -c "from kakuro_np.engine.core import jit; jit.clear_caches()"; fi

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis *.egg-info
	find . -name __pycache__ -prune -exec rm -rf {} +
