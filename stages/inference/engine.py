"""Build facts of the embedded engine, for the manifest's ``engine`` key (issue 11).

A greedy token depends on the floating-point kernels that computed it, so the facts name them:
the llama-cpp-python and ggml versions, the sha256 of the ggml CPU kernels library it loads and
the compiler that built it, the instruction sets it was compiled for (llama.cpp's system-info
string, and the CMake flags the Makefile built the wheel with), the instruction sets this CPU
has, and the fixed server settings (threads, batch sizes, context). ``id`` hashes everything
that can change an output (all but this CPU's instruction sets and the CMake flags, which the
library hash covers); records carry it as ``provenance.engine``, so answers of another build
are never passed off as this one's.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
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


_COMPILER = re.compile(rb"(GCC: \([^\x00]{1,80}\) [^\x00]{1,40}|clang version [^\x00]{1,80})")


def compiler_of(library: Path) -> str | None:
    """The compiler recorded in a shared library's ``.comment`` section (GCC and clang write one):
    the same flags under another compiler version may contract or order float operations
    differently."""
    found = _COMPILER.findall(library.read_bytes())
    return found[0].decode("utf-8", "replace") if found else None


def _lib_dir() -> Path | None:
    spec = importlib.util.find_spec("llama_cpp")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "lib"


def _library(name: str) -> Path | None:
    lib = _lib_dir()
    return (lib / name).resolve() if lib is not None and (lib / name).exists() else None


def ggml_version() -> str | None:
    """ggml's library version, from the versioned file name (``libggml-base.so.0.25.3``)."""
    lib = _lib_dir()
    names = sorted(p.name for p in lib.glob("libggml-base.so.*.*.*")) if lib else []
    return names[-1].removeprefix("libggml-base.so.") if names else None


def engine_facts(settings: EngineSettings, n_ctx: int) -> dict[str, Any]:
    """The manifest's ``engine`` block for the embedded server started with ``settings``."""
    import llama_cpp  # loads the same shared libraries the server child loads

    system_info = llama_cpp.llama_print_system_info().decode("utf-8", "replace").strip()
    kernels, llama = _library("libggml-cpu.so"), _library("libllama.so")
    cmake_args = CMAKE_ARGS_FILE.read_text().strip() if CMAKE_ARGS_FILE.is_file() else None
    facts: dict[str, Any] = {
        "llama_cpp_python": metadata.version("llama_cpp_python"),
        "ggml_version": ggml_version(),
        "kernels_sha256": sha256_file(kernels) if kernels else None,
        "compiler": compiler_of(kernels) if kernels else None,
        "libllama_sha256": sha256_file(llama) if llama else None,
        "system_info": system_info,
        "isa_built": built_isa(system_info),
        "cmake_args": cmake_args,
        **asdict(settings),
        "n_ctx": n_ctx,
    }
    outputs_depend_on = {k: v for k, v in facts.items() if k not in ("cmake_args",)}
    canonical = json.dumps(outputs_depend_on, sort_keys=True, separators=(",", ":"))
    facts["id"] = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    facts["isa_cpu"] = cpu_isa()
    return facts
