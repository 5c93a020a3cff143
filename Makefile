# The two commands a fresh clone needs: `make run` starts the program, `make test` runs every test.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
LOCK := requirements-lock.txt
# make says nothing of its own (no "Entering directory"): `make run ARGS="... --json"` can be piped.
MAKEFLAGS += --no-print-directory

.PHONY: run test test-compiled c-compiler lint typecheck lock bench bench-compiled bench-anchors wheel clean chromium \
	hosting terminal web-check services valgrind

# Installs use the pinned versions of requirements-lock.txt (refreshed by `make lock`) and write nothing
# to stdout: `make run` installs the runtime dependencies only, everything that tests use adds [dev].
# PyTorch's CPU build (the [train] extra, in [dev]) comes from /opt/wheels where a machine keeps it.
# --no-compile: Python compiles a module when it is first imported, so the install does not compile the
# many modules (most of torch's) that nothing here imports (torch alone: a third of the CPU time).
PIP_INSTALL := $(BIN)/python -m pip install --quiet --quiet --no-compile --disable-pip-version-check -c $(LOCK) \
	$(if $(wildcard /opt/wheels/torch-*.whl),--find-links /opt/wheels)

# What the first run does is said on stderr (stdout stays the command's own output).
$(BIN)/python:
	@echo "handfoot: making the virtual environment $(VENV) (first run only)" >&2
	@$(PYTHON) -m venv $(VENV) >&2
	@$(BIN)/python -m pip install --quiet --quiet --upgrade pip >&2

$(VENV)/.run-installed: $(BIN)/python pyproject.toml $(LOCK)
	@$(BIN)/python tools/lock.py --check >&2
	@echo "handfoot: installing the runtime dependencies into $(VENV) (pinned in $(LOCK); about a minute)" >&2
	@$(PIP_INSTALL) -e . >&2
	@touch $@

$(VENV)/.dev-installed: $(VENV)/.run-installed
	@echo "handfoot: installing the test tools and every extra into $(VENV) (a few minutes the first time)" >&2
	@$(PIP_INSTALL) -e '.[dev]' >&2
	@touch $@

# Resolve pyproject.toml's dependencies (all extras) again and rewrite requirements-lock.txt.
lock: $(BIN)/python
	$(BIN)/python tools/lock.py

# With no ARGS, `make run` starts the server: open http://127.0.0.1:8000 for the lobby, tables and score pad.
# The command runs in the directory make was started from (also with make -C), so relative paths in ARGS
# mean what they meant where they were typed. Its server keeps its data in this folder's handfoot-data/
# (HANDFOOT_DATA or --data chooses another), where an installed `handfoot serve` uses the platform's.
ARGS ?= serve
HERE := $(if $(wildcard $(PWD)/.),$(PWD),$(CURDIR))
# Ctrl+C stops the program quietly: the recipe's shell waits for it (a no-op trap, which the program does
# not inherit) and counts its exit by Ctrl+C (130) as a success, so make prints no "Error 130".
run: $(VENV)/.run-installed
	@trap : INT; cd "$(HERE)" && HANDFOOT_DATA="$${HANDFOOT_DATA:-$(CURDIR)/handfoot-data}" "$(abspath $(BIN))/handfoot" $(ARGS); \
	status=$$?; [ $$status -ne 130 ] || status=0; exit $$status

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check src tests tools examples hatch_build.py $(wildcard benchmarks)
	$(BIN)/ruff format --check src tests tools examples hatch_build.py $(wildcard benchmarks)
	$(BIN)/python tools/state_fields.py --check

# What stays between runs lives outside the checkout, under ~/.cache/handfoot (CI keeps it between fresh
# clones; a fresh machine starts without it): mypy's cache (checked against each file's hash, so a fresh
# clone re-checks only what changed) and the compiled builds (below).
CACHE_HOME ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/handfoot

typecheck: $(VENV)/.dev-installed
	$(BIN)/mypy --cache-dir "$(CACHE_HOME)/mypy"

test: lint typecheck services chromium hosting terminal valgrind web-check
	$(BIN)/python benchmarks/bench_engine.py --quick
	$(BIN)/python benchmarks/bench_rl.py --quick
	$(BIN)/python benchmarks/bench_protocol.py --quick
	$(BIN)/python benchmarks/bench_bots.py planner --quick
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

# The terminal game's test runs `handfoot play` in tmux at 80x24 and reads the screen; install tmux when it
# is missing and we may (root with apt-get), as for chromium.
terminal:
	@if command -v tmux >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tmux >/dev/null; \
	else echo "tmux is not installed and cannot be installed here: the terminal test in tmux will skip"; \
	  [ "$$CI" != true ]; fi

# The instruction-count benchmark's test (tests/benchmarks/test_bench_instructions.py) runs it under
# valgrind's callgrind; install valgrind when it is missing and we may (root with apt-get), as for chromium.
valgrind:
	@if command -v valgrind >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; \
	else echo "valgrind is not installed and cannot be installed here: the instruction-count test will skip"; \
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
web-check: $(VENV)/.dev-installed
	$(BIN)/python tools/client_types.py --check
	cd web-client && npm ci --no-audit --no-fund --loglevel=error && npm run check

bench: $(VENV)/.dev-installed
	$(BIN)/python benchmarks/bench_engine.py $(BENCH_ARGS)

# The engine and the bots' hot path compiled with mypyc, as `pip install .` builds it (hatch_build.py), installed
# on its own in build/compiled; `make test-compiled` runs the engine and bot tests against it (the editable
# install of `make test` is pure Python), `make bench-compiled` the engine benchmark.
COMPILED := build/compiled
COMPILED_TESTS := tests/engine/test_compiled.py tests/bots/test_heuristic_replay.py tests/engine/test_seat_info.py \
	tests/engine/test_views.py tests/bots/test_bots.py tests/bots/test_bots_fast.py \
	tests/engine/test_scenarios.py tests/engine/test_engine_regressions.py \
	tests/engine/test_random_play.py tests/engine/test_facts.py tests/engine/test_house_options.py \
	tests/engine/test_score_hand.py tests/records/test_record.py tests/engine/test_pickup_refusals.py \
	tests/engine/test_meld_properties.py tests/engine/test_score_properties.py tests/engine/test_shuffle.py \
	tests/rules/test_ruleset_copies.py tests/rules/test_rules_load.py tests/rules/test_rules_presets.py \
	tests/engine/test_game_copy.py tests/rl/test_rl_conventions.py tests/rl/test_rl_masks.py \
	tests/rl/test_rl_encode_kept.py tests/engine/test_values_pickle.py
# mypyc needs a C compiler: installed when missing and we may (root with apt-get), as for chromium.
c-compiler:
	@if command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc >/dev/null; \
	else echo "No C compiler and none can be installed here: the compiled build cannot be made"; fi

# A build is kept in $(CACHE_HOME)/compiled/KEY, KEY a digest of everything it is made from (the Python
# that builds it, hatch_build.py, pyproject.toml, README.md, the lock, which pins the mypyc that compiles,
# and every file of src/handfoot), and copied into $(COMPILED): a change to any of them builds it again,
# a run with none (a fresh clone of the same tree, a change to tests or docs only) takes the copy. The
# five newest builds are kept.
COMPILED_CACHE := $(CACHE_HOME)/compiled
$(COMPILED)/.built: $(VENV)/.dev-installed hatch_build.py README.md \
		$(shell find src/handfoot -type f ! -path '*/__pycache__/*' 2>/dev/null) | c-compiler
	@key=$$( { $(BIN)/python -VV; $(BIN)/python -c 'import sysconfig; print(sysconfig.get_platform())'; \
	    find hatch_build.py pyproject.toml README.md $(LOCK) src/handfoot -type f ! -path '*/__pycache__/*' \
	      -print0 | LC_ALL=C sort -z | xargs -0 sha256sum; } | sha256sum | cut -c1-20 ); \
	  cached="$(COMPILED_CACHE)/$$key"; \
	  if [ -f "$$cached/.built" ]; then echo "handfoot: the compiled build $$key, kept in $(COMPILED_CACHE)" >&2; \
	  else echo "handfoot: compiling the engine with mypyc (build $$key; a few minutes)" >&2; \
	    mkdir -p "$(COMPILED_CACHE)" && work="$$cached.tmp.$$$$" && rm -rf "$$work" \
	    && PIP_CONSTRAINT="$(abspath $(LOCK))" HANDFOOT_COMPILE=required $(PIP_INSTALL) --no-deps --target "$$work" . >&2 \
	    && touch "$$work/.built" && { mv -T "$$work" "$$cached" 2>/dev/null || rm -rf "$$work"; } \
	    && ls -1dt "$(COMPILED_CACHE)"/*/ | grep -v "\.tmp\." | tail -n +6 | xargs -r rm -rf; fi \
	  && [ -f "$$cached/.built" ] && rm -rf $(COMPILED) && mkdir -p $(dir $(COMPILED)) && cp -a "$$cached" $(COMPILED)
	touch $@

# The compiled run plays the presets' random games at 2 to 4 seats (the pure run of `make test` plays every
# seat count up to 8: the same compiled code with more seats); the house-rule bundles at every count.
test-compiled: $(COMPILED)/.built
	HANDFOOT_EXPECT_COMPILED=1 PYTHONPATH=$(COMPILED) $(BIN)/pytest -n 2 -p no:cacheprovider \
		-k "not 5p and not 6p and not (invariant and (7p or 8p))" $(COMPILED_TESTS)

bench-compiled: $(COMPILED)/.built
	PYTHONPATH=$(COMPILED) $(BIN)/python benchmarks/bench_engine.py $(BENCH_ARGS)

# handfoot's speed as ratios to OpenSpiel and RLCard measured on the same core in the same run
# (benchmarks/bench_anchors.py). The anchors live in their own environment, never in handfoot's.
ANCHORS_VENV := .venv-anchors
$(ANCHORS_VENV)/.installed: benchmarks/anchors/requirements.txt
	@echo "handfoot: making $(ANCHORS_VENV) with the anchors (OpenSpiel, RLCard, PettingZoo 1.24)" >&2
	@$(PYTHON) -m venv $(ANCHORS_VENV) >&2
	@$(ANCHORS_VENV)/bin/python -m pip install --quiet --quiet --disable-pip-version-check \
		-r benchmarks/anchors/requirements.txt >&2
	@touch $@

bench-anchors: $(COMPILED)/.built $(ANCHORS_VENV)/.installed
	$(BIN)/python benchmarks/bench_anchors.py --anchor-python $(ANCHORS_VENV)/bin/python $(BENCH_ARGS)

# A wheel with the compiled engine in dist/ (the release build; pyproject.toml's [tool.cibuildwheel] makes
# the same for every platform).
wheel: $(VENV)/.dev-installed | c-compiler
	HANDFOOT_COMPILE=required $(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir dist . >&2
	@ls dist/*.whl

clean:
	rm -rf $(VENV)
