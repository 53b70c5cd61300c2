"""The embedded model: llama.cpp's own ``llama-server`` on a packaged GGUF (issues 3, 20).

The binary is the one ``make install`` built from the pinned llama.cpp source and linked into the
venv as ``bin/llama-server`` (``ATLAS_LLAMA_SERVER`` names another); docs/engine.md says how it is
built. The GGUF must hash to ``model.revision`` (:mod:`stages.engine.packaged`). The server runs
as a child process on a free loopback port with the fixed settings of :class:`EngineSettings`
(every one of them is in the manifest) and is stopped on success, failure, Ctrl-C and SIGTERM
(terminate, then kill). On Linux the child also gets SIGTERM if this process dies abruptly.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from stages.engine.packaged import verified_gguf
from stages.errors import AtlasError
from stages.network.policy import ControlError, control_get
from stages.params import ModelParams

READY_TIMEOUT_S = 120.0
SERVER_ENV = "ATLAS_LLAMA_SERVER"


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity; the CPU count where none is set)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@dataclass(frozen=True)
class EngineSettings:
    """The settings the embedded server is started with: fixed, never machine-derived."""

    n_ctx: int = 8192
    """Context of each slot (tokens of prompt plus answer one request may use)."""
    slots: int = 4
    """Parallel slots (``--parallel``): requests decoded together in one batch."""
    kv_unified: bool = False
    """One KV buffer shared by all slots (``--kv-unified``, each slot capped at ``n_ctx``)
    instead of one buffer per slot: where a sequence's cells lie in the shared buffer then
    depends on the other requests, and so does the rounding of its attention sums
    (docs/engine.md, "What changes an output")."""
    cont_batching: bool = True
    """Continuous batching: a request joins the running batch as soon as a slot is free."""
    n_threads: int = 2
    """Threads for generating tokens (at most the usable cores: :meth:`of`)."""
    n_threads_batch: int = 2
    """Threads for evaluating prompts (as many as ``n_threads``)."""
    n_batch: int = 512
    """Logical batch: tokens handed to llama.cpp per decode call."""
    n_ubatch: int = 512
    """Physical batch: tokens computed per graph evaluation."""
    flash_attn: bool = False
    """Off: llama.cpp's CPU flash attention splits the keys of a lone query across threads and
    tiles many queries together, so its sums depend on the batch."""
    repack: bool = False
    """Repack quantized weights into interleaved rows (``--repack``): its kernels compute
    columns four at a time and a remainder one at a time with another kernel, so a token's
    result would depend on the batch around it. Off (``--no-repack``); SmolLM2 has no such
    tensors, Gemma's Q4_K ones are 5 % of its weights."""
    cache_prompt: bool = True
    """A slot keeps the KV of its last prompt and reuses the common prefix of the next one."""
    cache_ram_mib: int = 0
    """Host-memory prompt cache across slots (0: off): a bound on memory, one KV per slot."""
    wait_policy: str | None = None
    """How the engine's OpenMP threads wait for each other at a barrier (``OMP_WAIT_POLICY``:
    ``passive`` sleeps at once, ``active`` spins; None leaves it to ``spin_count``). Timing
    only: no output depends on it."""
    spin_count: int | None = 300
    """How many times a waiting thread polls before it sleeps (``GOMP_SPINCOUNT``, GCC's OpenMP
    runtime, which the build links), when ``wait_policy`` is None. 300 (issue 32, measured in
    docs/engine.md): as fast as the runtime's default of 300,000 on a quiet machine, and beside
    other work a thread whose partner lost its core soon sleeps instead of spinning through
    that partner's turn (the default collapsed to a tenth of the quiet rate beside two busy
    loops; this keeps 0.4 or more). None: the runtime's default."""

    def environment(self) -> dict[str, str]:
        """The variables the server process gets on top of this process's own."""
        env = {}
        if self.wait_policy is not None:
            env["OMP_WAIT_POLICY"] = self.wait_policy.upper()
        if self.spin_count is not None:
            env["GOMP_SPINCOUNT"] = str(self.spin_count)
        return env

    @classmethod
    def of(cls, model: ModelParams, slots: int | None = None) -> EngineSettings:
        """The settings for ``model``; two threads, or one where this process may use only one
        core (``os.sched_getaffinity``: a container or ``taskset`` limit), never more threads
        than cores."""
        threads = max(1, min(cls.n_threads, usable_cores()))
        return cls(
            n_ctx=model.context_length, slots=slots or model.slots,
            n_threads=threads, n_threads_batch=threads,
        )  # fmt: skip

    def arguments(self) -> list[str]:
        unified = (
            ["--kv-unified", "--kv-unified-per-slot", str(self.n_ctx)]
            if self.kv_unified
            else ["--no-kv-unified"]
        )
        return [
            "--ctx-size", str(self.n_ctx * self.slots), "--parallel", str(self.slots), *unified,
            "--cont-batching" if self.cont_batching else "--no-cont-batching",
            "--threads", str(self.n_threads), "--threads-batch", str(self.n_threads_batch),
            "--batch-size", str(self.n_batch), "--ubatch-size", str(self.n_ubatch),
            "--flash-attn", "on" if self.flash_attn else "off",
            "--repack" if self.repack else "--no-repack",
            "--cache-prompt" if self.cache_prompt else "--no-cache-prompt",
            "--cache-ram", str(self.cache_ram_mib),
        ]  # fmt: skip


@dataclass(frozen=True)
class EmbeddedServer:
    url: str
    """The OpenAI base URL, ``http://127.0.0.1:<port>/v1``."""
    gguf: Path
    chat_template: str | None
    process: subprocess.Popen[bytes]


def server_binary() -> Path:
    """``$ATLAS_LLAMA_SERVER``, else the venv's ``bin/llama-server`` (made by ``make install``),
    else one on ``PATH``."""
    named = os.environ.get(SERVER_ENV)
    if named:
        path = Path(named)
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise AtlasError(f"{SERVER_ENV}={named}: not an executable file")
        return path.resolve()
    beside = Path(sys.prefix) / "bin" / "llama-server"
    if beside.is_file():
        return beside.resolve()
    found = shutil.which("llama-server")
    if found is None:
        raise AtlasError(
            "model.base_url is 'embedded' but no llama-server is installed: `make install` "
            f"builds it (docs/engine.md), or set {SERVER_ENV} to one"
        )
    return Path(found).resolve()


def served_template(model: ModelParams, gguf_template: str | None) -> str | None:
    """The template the server applies: ``model.chat_template``'s file, else the GGUF's."""
    if model.chat_template is None:
        return gguf_template
    path = Path(model.chat_template)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise AtlasError(f"params.yaml: model.chat_template: cannot read {path}: {exc}") from exc


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _die_with_parent() -> None:  # runs in the child between fork and exec (Linux only)
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _tail(log: IO[bytes], lines: int = 15) -> str:
    log.flush()
    log.seek(0)
    text = log.read().decode("utf-8", "replace").strip().splitlines()
    return "\n".join(text[-lines:])


def _wait_ready(process: subprocess.Popen[bytes], root: str, log: IO[bytes]) -> None:
    """``/health`` answers 200 once the model is loaded (503 while loading)."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AtlasError(
                f"the embedded server exited with code {process.returncode} while starting:\n"
                f"{_tail(log)}"
            )
        with contextlib.suppress(ControlError):  # its own child on loopback: no proxy between
            if control_get(f"{root}/health", {}, 2.0, direct=True).status_code == 200:
                return
        time.sleep(0.1)
    raise AtlasError(
        f"the embedded server did not answer {root}/health within {READY_TIMEOUT_S:g} s:\n"
        f"{_tail(log)}"
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(10)


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """SIGTERM (DVC, kill) unwinds like Ctrl-C so ``finally`` blocks stop the server."""
    if sys.platform == "win32" or signal.getsignal(signal.SIGTERM) is None:
        yield
        return

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def server_command(
    binary: Path, gguf: Path, model: ModelParams, engine: EngineSettings, port: int
) -> list[str]:
    """The full command line: the engine's settings plus model, template, address and the
    offline, metrics-on, no-UI switches."""
    template = ["--chat-template-file", model.chat_template] if model.chat_template else []
    return [
        str(binary), "--model", str(gguf), "--alias", model.name, "--host", "127.0.0.1",
        "--port", str(port), *engine.arguments(), "--jinja", *template, "--metrics",
        "--no-webui", "--offline", "--log-verbosity", "2",
    ]  # fmt: skip


@contextlib.contextmanager
def embedded_server(
    model: ModelParams, engine: EngineSettings | None = None
) -> Iterator[EmbeddedServer]:
    """Verify the GGUF, start the server, yield it once ready, and always stop it."""
    engine = engine or EngineSettings.of(model)
    gguf, facts = verified_gguf(model)
    template = served_template(model, facts.chat_template)
    port = _free_port()
    command = server_command(server_binary(), gguf, model, engine, port)
    root = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryFile() as log, sigterm_as_interrupt():
        preexec = _die_with_parent if sys.platform.startswith("linux") else None
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            preexec_fn=preexec, env={**os.environ, **engine.environment()},
        )  # fmt: skip
        try:
            _wait_ready(process, root, log)
            yield EmbeddedServer(f"{root}/v1", gguf, template, process)
        finally:
            _stop(process)
