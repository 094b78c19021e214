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

# Tests marked `real`, against MRSMITH_REAL_BASE_URL, or else ../shared/tools/real-llm.sh started here
# on REAL_PORT (and stopped afterwards) unless something already answers there. LLAMA_ARG_REPACK=0:
# llama.cpp's AMX kernels crash on machines that report AMX but do not let a process use it.
REAL_PORT ?= 18080
test-real: $(TEST_STAMP)
	@set -e; url="$${MRSMITH_REAL_BASE_URL:-}"; pid=""; \
	if [ -z "$$url" ]; then url=http://127.0.0.1:$(REAL_PORT)/v1; \
	  if ! curl -sf http://127.0.0.1:$(REAL_PORT)/health >/dev/null; then \
	    pid=$$(LLAMA_ARG_REPACK=0 ../shared/tools/real-llm.sh $(REAL_PORT) | tail -n 1); fi; fi; \
	trap 'if [ -n "$$pid" ]; then kill $$pid; fi' EXIT; \
	MRSMITH_REAL_BASE_URL=$$url $(BIN)/python -m pytest -m real -p no:cacheprovider

bench: $(TEST_STAMP)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) build *.egg-info
