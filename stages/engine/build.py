"""Build facts of the embedded engine, for the manifest's ``engine`` key (issues 11, 20).

A greedy token depends on the floating-point kernels that computed it, so the facts name them:
the sha256 of the ``llama-server`` binary (one static executable: kernels, llama and server in
one file, built reproducibly, so the same source, flags and compiler give the same hash), its
llama.cpp version and commit and the compiler it reports, the instruction sets compiled in
(llama.cpp's system-info string) and the CMake flags ``make`` built it with, and every setting
the server is started with (slots, KV cache layout, threads, batch sizes, context).

``id`` hashes everything that can change an output: the binary's hash and every setting. What
this CPU offers (``isa_cpu``) is recorded beside it but is *not* part of the id: the build uses
a fixed instruction set, so two machines that run the same binary with the same settings run
the same engine whatever else their CPUs have. Records carry ``id`` as ``provenance.engine``, so
answers of another build are never passed off as this one's.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import subprocess
from dataclasses import asdict
from pathlib import Path
from typing import Any

from stages.engine.embedded import EngineSettings, server_binary
from stages.io import sha256_file

CPU_FLAGS = (
    "sse3", "ssse3", "avx", "avx2", "f16c", "fma", "bmi2", "avx_vnni", "avx512f", "avx512bw",
    "avx512vl", "avx512dq", "avx512_vnni", "avx512_bf16", "amx_tile", "amx_int8", "amx_bf16",
)  # fmt: skip
_CPUINFO_NAMES = {"pni": "sse3"}
NOT_ID = ("isa_cpu", "cmake_args", "source", "binary", "wait_policy", "spin_count")
"""Facts recorded but left out of ``id``: they do not change what the binary computes (how its
threads wait for each other changes only how fast, issue 32)."""


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
    """``CPU : AVX2 = 1 | FMA = 1 | ...`` -> the features llama.cpp reports as compiled in."""
    features = []
    for part in system_info.replace("CPU :", "").split("|"):
        name, _, value = part.partition("=")
        if value.strip() == "1":
            features.append(name.strip())
    return sorted(features)


_COMPILER = re.compile(rb"(GCC: \([^\x00]{1,80}\) [^\x00]{1,40}|clang version [^\x00]{1,80})")
_VERSION = re.compile(r"version: (\S+) \(build (\d+), commit (\w+)\)")
_BUILT_WITH = re.compile(r"built with (.+?) for (.+)")


def compiler_of(binary: Path) -> str | None:
    """The compiler recorded in the executable's ``.comment`` section (GCC and clang write
    one): the same flags under another compiler version may contract or order float
    operations differently."""
    found = _COMPILER.findall(binary.read_bytes())
    return found[0].decode("utf-8", "replace") if found else None


def _run(command: list[str]) -> str:
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(command, capture_output=True, text=True, timeout=30, check=False)
        return done.stdout + done.stderr
    return ""


def system_info(binary: Path) -> str:
    """llama.cpp's ``system_info`` line (the CPU features ggml was compiled with): the binary
    prints it at trace verbosity before it loads a model, so it is asked to load none."""
    text = _run([str(binary), "--log-verbosity", "4", "--model", "/nonexistent.gguf"])
    for line in text.splitlines():
        if "system_info:" in line:
            return line.split("|", 1)[1].strip() if "|" in line else line.strip()
    return ""


def engine_facts(settings: EngineSettings, binary: Path | None = None) -> dict[str, Any]:
    """The manifest's ``engine`` block for the embedded server started with ``settings``."""
    binary = binary or server_binary()
    version_text = _run([str(binary), "--version"])
    version = _VERSION.search(version_text)
    built = _BUILT_WITH.search(version_text)
    info = system_info(binary)
    cmake_args, source = (binary.parent.parent / n for n in ("cmake-args.txt", "source.txt"))
    facts: dict[str, Any] = {
        "server": "llama-server",
        "binary": str(binary),
        "binary_sha256": sha256_file(binary),
        "llama_cpp_version": version.group(1) if version else None,
        "llama_cpp_commit": version.group(3) if version else None,
        "compiler": compiler_of(binary),
        "compiler_reported": built.group(1).strip() if built else None,
        "target": built.group(2).strip() if built else None,
        "system_info": info,
        "isa_built": built_isa(info),
        "cmake_args": cmake_args.read_text().strip() if cmake_args.is_file() else None,
        "source": source.read_text().strip() if source.is_file() else None,
        **asdict(settings),
    }
    canonical = json.dumps(
        {k: v for k, v in facts.items() if k not in NOT_ID}, sort_keys=True, separators=(",", ":")
    )
    facts["id"] = hashlib.sha256(canonical.encode()).hexdigest()[:16]
    facts["isa_cpu"] = cpu_isa()
    return facts
