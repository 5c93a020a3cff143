# The two commands a fresh clone needs: `make run` starts the program, `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
LOCK := requirements-lock.txt
# make says nothing of its own (no "Entering directory"): `make run ARGS="... --json"` can be piped.
MAKEFLAGS += --no-print-directory

.PHONY: run test test-compiled c-compiler lint typecheck lock bench bench-compiled clean chromium hosting web-check services

# Installs use the pinned versions of requirements-lock.txt (refreshed by `make lock`) and write nothing
# to stdout: `make run` installs the runtime dependencies only, everything that tests use adds [dev].
# PyTorch's CPU build (the [train] extra, in [dev]) comes from /opt/wheels where a machine keeps it.
PIP_INSTALL := $(BIN)/python -m pip install --quiet --quiet --disable-pip-version-check -c $(LOCK) \
	$(if $(wildcard /opt/wheels/torch-*.whl),--find-links /opt/wheels)

$(BIN)/python:
	@$(PYTHON) -m venv $(VENV) >&2
	@$(BIN)/python -m pip install --quiet --quiet --upgrade pip >&2

$(VENV)/.run-installed: $(BIN)/python pyproject.toml $(LOCK)
	@$(BIN)/python tools/lock.py --check >&2
	@HANDFOOT_PURE=1 $(PIP_INSTALL) -e . >&2
	@touch $@

$(VENV)/.dev-installed: $(VENV)/.run-installed
	@HANDFOOT_PURE=1 $(PIP_INSTALL) -e '.[dev]' >&2
	@touch $@

# Resolve pyproject.toml's dependencies (all extras) again and rewrite requirements-lock.txt.
lock: $(BIN)/python
	$(BIN)/python tools/lock.py

# With no ARGS, `make run` starts the server: open http://127.0.0.1:8000 for the lobby, tables and score pad.
# The command runs in the directory make was started from (also with make -C), so relative paths in ARGS
# mean what they meant where they were typed.
ARGS ?= serve
HERE := $(if $(wildcard $(PWD)/.),$(PWD),$(CURDIR))
run: $(VENV)/.run-installed
	@cd "$(HERE)" && "$(abspath $(BIN))/handfoot" $(ARGS)

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests tools examples hatch_build.py $(wildcard benchmarks)
	$(BIN)/ruff format --check src tests tools examples hatch_build.py $(wildcard benchmarks)

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy

test: lint typecheck services chromium hosting web-check
	$(BIN)/python benchmarks/bench_engine.py --quick
	$(BIN)/python benchmarks/bench_rl.py --quick
	$(BIN)/pytest -n 2
	$(MAKE) test-compiled

# PostgreSQL and Redis for the server tests, started when they are not answering. In CI (CI=true) one that
# cannot be started fails the build; elsewhere the tests that need it skip and say why.
PG_PORT ?= 5432
REDIS_PORT ?= 6379
services:
	@pg_isready -q -h 127.0.0.1 -p $(PG_PORT) 2>/dev/null \
	  || { pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start \
	       ; for i in $$(seq 50); do pg_isready -q -h 127.0.0.1 -p $(PG_PORT) && break; sleep 0.2; done \
	       ; pg_isready -h 127.0.0.1 -p $(PG_PORT); } \
	  || { echo "PostgreSQL is not answering on port $(PG_PORT) and could not be started"; [ "$$CI" != true ]; }
	@redis-cli -h 127.0.0.1 -p $(REDIS_PORT) ping 2>/dev/null | grep -q PONG \
	  || { mkdir -p /var/lib/redis /var/log/redis \
	       ; redis-server --daemonize yes --bind 127.0.0.1 -::1 --port $(REDIS_PORT) --save "" --appendonly no \
	           --dir /var/lib/redis --logfile /var/log/redis/ci.log \
	       ; for i in $$(seq 50); do redis-cli -p $(REDIS_PORT) ping 2>/dev/null | grep -q PONG && break; sleep 0.2; done \
	       ; redis-cli -p $(REDIS_PORT) ping | grep -q PONG; } \
	  || { echo "Redis is not answering on port $(REDIS_PORT) and could not be started"; [ "$$CI" != true ]; }

# The browser tests drive Debian's Chromium; install it when it is missing and we may (root with apt-get).
chromium:
	@if [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else echo "Chromium is not at /usr/bin/chromium and cannot be installed here: the browser tests will skip"; \
	  [ "$$CI" != true ]; fi

# The hosting tests run docs/hosting.md's set-ups (deploy/) with Debian's nginx, Caddy, sqlite3, openssl,
# systemd-analyze and pg_dump; install the missing ones when we may (root with apt-get), without starting
# their services (a policy-rc.d says no while apt runs, unless the machine has one already).
HOSTING_TOOLS := nginx:nginx caddy:caddy sqlite3:sqlite3 openssl:openssl systemd-analyze:systemd \
	pg_dump:postgresql-client
hosting:
	@missing=$$(for t in $(HOSTING_TOOLS); do \
	  PATH="$$PATH:/usr/sbin:/sbin" command -v $${t%%:*} >/dev/null 2>&1 || echo $${t#*:}; done); \
	if [ -z "$$missing" ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  made=; if [ ! -e /usr/sbin/policy-rc.d ]; then \
	    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && made=1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  status=$$?; [ -z "$$made" ] || rm -f /usr/sbin/policy-rc.d; [ $$status = 0 ]; \
	else echo "Not installed: $$missing (apt-get install $$missing): the hosting tests that need them will skip"; \
	  [ "$$CI" != true ]; fi

# Rebuild the browser client from web-client/ and fail when the committed bundle in src/handfoot/web differs.
web-check:
	cd web-client && npm ci --no-audit --no-fund --loglevel=error && npm run check

bench: $(VENV)/.dev-installed
	$(BIN)/python benchmarks/bench_engine.py $(BENCH_ARGS)

# The engine and the bots' hot path compiled with mypyc, as `pip install .` builds it (hatch_build.py), installed
# on its own in build/compiled; `make test-compiled` runs the engine and bot tests against it (the editable
# install of `make test` is pure Python), `make bench-compiled` the engine benchmark.
COMPILED := build/compiled
COMPILED_TESTS := tests/test_compiled.py tests/test_heuristic_replay.py tests/test_seat_info.py tests/test_views.py \
	tests/test_bots.py tests/test_bots_fast.py tests/test_scenarios.py tests/test_engine_regressions.py \
	tests/test_random_play.py tests/test_facts.py tests/test_house_options.py tests/test_score_hand.py tests/test_record.py \
	tests/test_pickup_refusals.py tests/test_meld_properties.py tests/test_score_properties.py
# mypyc needs a C compiler: installed when missing and we may (root with apt-get), as for chromium.
c-compiler:
	@if command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc >/dev/null; \
	else echo "No C compiler and none can be installed here: the compiled build cannot be made"; fi

$(COMPILED)/.built: $(VENV)/.dev-installed hatch_build.py $(wildcard src/handfoot/*.py src/handfoot/*/*.py) | c-compiler
	rm -rf $(COMPILED)
	HANDFOOT_COMPILE=required $(PIP_INSTALL) --no-deps --target $(COMPILED) . >&2
	touch $@

test-compiled: $(COMPILED)/.built
	HANDFOOT_EXPECT_COMPILED=1 PYTHONPATH=$(COMPILED) $(BIN)/pytest -n 2 -p no:cacheprovider \
		-k "not 5p and not 6p" $(COMPILED_TESTS)

bench-compiled: $(COMPILED)/.built
	PYTHONPATH=$(COMPILED) $(BIN)/python benchmarks/bench_engine.py $(BENCH_ARGS)

clean:
	rm -rf $(VENV)
