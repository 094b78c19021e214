PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test test-real bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[test]'
	touch $@ $(STAMP)

run: $(STAMP)
	$(BIN)/mrsmith $(ARGS)

test: $(TEST_STAMP)
	$(BIN)/python -m pytest

# Tests marked `real`, against ../shared/tools/real-llm.sh (started here on port 18080).
test-real: $(TEST_STAMP)
	MRSMITH_REAL_BASE_URL=$${MRSMITH_REAL_BASE_URL:-http://127.0.0.1:18080/v1} $(BIN)/python -m pytest -m real -p no:cacheprovider

bench: $(TEST_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info
