# The two commands a fresh clone needs: `make run` starts the program, `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck bench clean chromium web-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/handfoot $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests $(wildcard benchmarks)
	$(BIN)/ruff format --check src tests $(wildcard benchmarks)

typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck chromium web-check
	$(BIN)/pytest -n 2

# The browser tests drive Debian's Chromium; install it when it is missing and we may (root with apt-get).
chromium:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "Chromium is not at /usr/bin/chromium and cannot be installed here: the browser tests will skip"; fi

# Rebuild the browser client from web-client/ and fail when the committed bundle in src/handfoot/web differs.
web-check:
	cd web-client && npm ci --no-audit --no-fund --loglevel=error && npm run check

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_engine.py

clean:
	rm -rf $(VENV)
