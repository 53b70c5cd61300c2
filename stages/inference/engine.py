"""Build facts of the embedded engine, for the manifest's ``engine`` key (issue 11).

A greedy token depends on the floating-point kernels that computed it, so the facts name them:
the llama-cpp-python version, the sha256 of the ggml CPU kernels library it loads, the
instruction sets it was compiled for (llama.cpp's own system-info string, and the CMake flags the
Makefile built the wheel with), the instruction sets this CPU has, and the fixed server settings
(threads, batch sizes, context). ``id`` hashes everything that can change an output (all but the
CPU's own instruction sets and the CMake flags, which the library hash already covers); records
carry it as ``provenance.engine`` so that answers of another build are never passed off as this
one's.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from dataclasses import asdict
from importlib import metadata
from pathlib import Path
from typing import Any

from stages.inference.embedded import EngineSettings
from stages.io import sha256_file

CMAKE_ARGS_FILE = Path(sys.prefix) / "llama-cmake-args.txt"
"""Written by ``make install`` next to the venv: the flags the installed wheel was built with."""
CPU_FLAGS = (
    "sse3", "ssse3", "avx", "avx2", "f16c", "fma", "bmi2", "avx_vnni", "avx512f", "avx512bw",
    "avx512vl", "avx512dq", "avx512_vnni", "avx512_bf16", "amx_tile", "amx_int8", "amx_bf16",
)  # fmt: skip
_CPUINFO_NAMES = {"pni": "sse3"}


def cpu_isa(cpuinfo: Path = Path("/proc/cpuinfo")) -> list[str]:
    """The instruction sets of :data:`CPU_FLAGS` this CPU reports (Linux; else empty)."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    for line in text.splitlines():
        if line.startswith("flags"):
            flags = {_CPUINFO_NAMES.get(f, f) for f in line.split(":", 1)[1].split()}
            return [f.upper() for f in CPU_FLAGS if f in flags]
    return []


def built_isa(system_info: str) -> list[str]:
    """``AVX2 = 1 | FMA = 1 | ...`` -> the features llama.cpp reports as compiled in."""
    features = []
    for part in system_info.replace("CPU :", "").split("|"):
        name, _, value = part.partition("=")
        if value.strip() == "1":
            features.append(name.strip())
    return sorted(features)


def _library(name: str) -> Path | None:
    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "lib" / name
    return path.resolve() if path.exists() else None


def engine_facts(settings: EngineSettings, n_ctx: int) -> dict[str, Any]:
    """The manifest's ``engine`` block for the embedded server started with ``settings``."""
    import llama_cpp  # loads the same shared libraries the server child loads

    system_info = llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()
    kernels, llama = _library("libggml-cpu.so"), _library("libllama.so")
    cmake_args = CMAKE_ARGS_FILE.read_text().strip() if CMAKE_ARGS_FILE.is_file() else None
    facts: dict[str, Any] = {
        "llama_cpp_python": metadata.version("llama_cpp_python"),
        "ggml_library": kernels.name if kernels else None,
        "kernels_sha256": sha256_file(kernels) if kernels else None,
        "libllama_sha256": sha256_file(llama) if llama else None,
        "system_info": system_info,
        "isa_built": built_isa(system_info),
        "cmake_args": cmake_args,
        **asdict(settings),
        "n_ctx": n_ctx,
        "prompt_cache": "prefix reuse between consecutive requests (llama-cpp-python default)",
    }
    outputs_depend_on = {k: v for k, v in facts.items() if k not in ("cmake_args",)}
    canonical = json.dumps(outputs_depend_on, sort_keys=True, separators=(",", ":"))
    facts["id"] = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    facts["isa_cpu"] = cpu_isa()
    return facts
