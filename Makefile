# Inference Atlas. Quick start: `make run` then `make test` (Python 3.11+).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PATH := $(abspath $(BIN)):$(PATH)

# llama.cpp is built with one fixed, portable instruction set instead of -march=native, so that
# the embedded model's greedy tokens do not depend on the machine that built it (issue 11).
# x86-64: the x86-64-v3 level (AVX2, FMA, F16C, BMI2), no AVX-512, no AMX. Other CPUs: the
# compiler's generic baseline for the architecture. The wheel is built once per flag set into a
# wheelhouse outside the clone, keyed by a hash of the flags, and installed from there only.
LLAMA_VERSION := 0.3.36
ARCH := $(shell uname -m)
ifeq ($(ARCH),x86_64)
LLAMA_ISA := x86-64-v3
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON \
	-DGGML_BMI2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AVX_VNNI=OFF
else
LLAMA_ISA := $(ARCH)-generic
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF
endif
LLAMA_FLAGS_ID := $(shell printf '%s' '$(LLAMA_CMAKE_ARGS)' | sha256sum | cut -c1-12)
PY_TAG := $(shell $(PYTHON) -c 'import sys; print("cp%d%d" % sys.version_info[:2])')
WHEELHOUSE ?= $(HOME)/.cache/inference-atlas/wheels/llama-cpp-python-$(LLAMA_VERSION)-$(PY_TAG)-$(LLAMA_ISA)-$(LLAMA_FLAGS_ID)
LLAMA_WHEEL_STAMP := $(WHEELHOUSE)/.complete

.PHONY: install run test lint bench wheel clean-venv

# An editable install leaves the project's own modules uncompiled; where PYTHONDONTWRITEBYTECODE
# is set, every `atlas` start would compile them again (~60 modules, tens of ms). Byte-compile them
# once, as a wheel install does; a changed module is simply compiled in memory until the next time.
BYTECODE = $(BIN)/python -m compileall -q stages

$(LLAMA_WHEEL_STAMP):
	mkdir -p $(WHEELHOUSE)
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" CMAKE_BUILD_PARALLEL_LEVEL=2 $(PYTHON) -m pip wheel --quiet \
		--disable-pip-version-check --no-deps --no-cache-dir --no-binary llama-cpp-python \
		-w $(WHEELHOUSE) llama-cpp-python==$(LLAMA_VERSION)
	printf '%s\n' '$(LLAMA_CMAKE_ARGS)' > $(WHEELHOUSE)/cmake-args.txt
	@touch $@

wheel: $(LLAMA_WHEEL_STAMP)

# Reinstall only when the project's dependency files change (a second `make test` is a no-op).
$(STAMP): pyproject.toml constraints.txt Makefile $(LLAMA_WHEEL_STAMP)
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt 'pip==25.3'
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt \
		--find-links $(WHEELHOUSE) --only-binary llama-cpp-python -e '.[embedded,dev]'
	cp $(WHEELHOUSE)/cmake-args.txt $(VENV)/llama-cmake-args.txt
	$(BYTECODE)
	@touch $(STAMP)

install: $(STAMP)
	@command -v bwrap >/dev/null || echo "note: bubblewrap (bwrap) is not installed; code_exec uses" \
		"hand-built namespaces as root and otherwise refuses to run (atlas score --unsafe-sandbox opts" \
		"in to figures marked unsafe). Debian/Ubuntu: apt-get install -y bubblewrap"

run: install
	$(BIN)/dvc repro

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q

bench: install
	@$(BYTECODE)
	$(BIN)/python tests/bench/run_all.py

clean-venv:
	rm -rf $(VENV)
