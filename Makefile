# Inference Atlas. Quick start: `make run` then `make test` (Python 3.11+).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: install run test lint bench clean-venv

# Reinstall only when the project's dependency files change (a second `make test` is a no-op).
$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt 'pip==25.3'
	CMAKE_BUILD_PARALLEL_LEVEL=2 $(BIN)/python -m pip install --quiet --disable-pip-version-check \
		-c constraints.txt -e '.[embedded,dev]'
	@touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/dvc repro

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q

bench: install
	$(BIN)/python tests/bench/run_all.py

clean-venv:
	rm -rf $(VENV)
