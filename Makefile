PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run lint test test-real bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# pip's editable install prints setuptools' deprecation banner ("!!" and stars): it is about how the
# package is built, not a problem of yours. It goes to .venv/install.log, shown only if the install fails.
$(STAMP): pyproject.toml | $(BIN)/python
	@echo "installing mrsmith into $(VENV) (log: $(VENV)/install.log)"
	@$(BIN)/python -m pip install -q -e . >$(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	@echo "installing mrsmith and its test tools into $(VENV) (log: $(VENV)/install.log)"
	@$(BIN)/python -m pip install -q -e '.[test]' >$(VENV)/install.log 2>&1 || { cat $(VENV)/install.log; exit 1; }
	@touch $@ $(STAMP)

run: $(STAMP)
	$(BIN)/mrsmith $(ARGS)

# The linters, fastest first: style and import order (ruff), types (mypy; strict from the base
# modules up to the core, see pyproject.toml), the layer contracts of DESIGN.md (import-linter).
lint: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-logo

# The suite on one worker process per core (pytest-xdist): on CI's 2 cores it takes ~60 % of the
# serial time. Worksteal keeps both workers busy to the end although a few tests take 10-20 s. A
# test that fails only here shares something it should not (a file, a port, the environment).
# PYTEST_WORKERS=0 runs it in this one process.
PYTEST_WORKERS ?= auto
test: lint
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist worksteal

# Tests marked `real`: against MRSMITH_REAL_BASE_URL when set, else against a llama.cpp server that
# scripts/real-llm.sh builds once (cached in ~/.cache/mrsmith/real-llm), starts on a free port (or
# REAL_PORT) for this run and stops afterwards. Whatever stops it is one line.
REAL_LLM := scripts/real-llm.sh
REAL_PORT ?=
test-real: $(TEST_STAMP)
	@url="$${MRSMITH_REAL_BASE_URL:-}"; pid=""; \
	if [ -z "$$url" ]; then \
	  if [ ! -x "$(REAL_LLM)" ]; then \
	    echo "test-real: $(REAL_LLM) is missing: restore it from the repository, or set MRSMITH_REAL_BASE_URL=http://HOST:PORT/v1"; exit 1; fi; \
	  started=$$(MRSMITH_REAL_LLM_TEMPLATE=tools $(REAL_LLM) start $(REAL_PORT)) || exit 1; \
	  pid=$${started%% *}; url=http://127.0.0.1:$${started##* }/v1; fi; \
	trap 'if [ -n "$$pid" ]; then kill $$pid; fi' EXIT; \
	MRSMITH_REAL_BASE_URL=$$url $(BIN)/python -m pytest -m real -p no:cacheprovider tests/real

bench: $(TEST_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info
