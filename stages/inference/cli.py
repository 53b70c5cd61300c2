"""``atlas infer`` and ``atlas serve`` (issue 3).

Only typer is imported here; the inference modules (httpx, aiohttp, pydantic models) load inside
the commands so that ``atlas --help`` and ``atlas infer --help`` start fast.
"""

from __future__ import annotations

import atexit
import gc
import sys
import time
from typing import Annotated

import typer

from stages.errors import AtlasError


def infer(workload: Annotated[str, typer.Argument(help="Workload name from params.yaml.")]) -> None:
    """Send a workload's requests to the model and journal every response."""
    from stages.inference.run import infer_workload

    # At exit, the interpreter's last garbage collections walk every object left (modules,
    # dataset, journal records): ~100 ms of a 2,000-request run. Freezing them skips that work;
    # memory is returned to the OS with the process anyway.
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
    try:
        infer_workload(workload)
        from stages.datasets.fresh_run import infer_fresh  # workloads.<w>.fresh_seeds (#13)

        infer_fresh(workload)
    except KeyboardInterrupt:
        sys.stderr.write(
            f"atlas: interrupted; finished responses are kept in results/{workload}/ "
            "and a rerun sends only the rest\n"
        )
        raise typer.Exit(130) from None


def serve() -> None:
    """Run the embedded model's OpenAI-compatible server in the foreground until Ctrl-C."""
    from stages.inference.embedded import embedded_server
    from stages.params import ModelParams, section

    model = section(ModelParams, "model")
    if not model.is_embedded:
        sys.stderr.write(f"note: params.yaml points model.base_url at {model.base_url}; ")
        sys.stderr.write("serving the embedded model anyway\n")
    try:
        with embedded_server(model) as server:
            sys.stdout.write(
                f"serving {model.name} (GGUF {server.gguf.name}) at {server.url}\n"
                f"try: curl {server.url}/chat/completions -H 'Content-Type: application/json' "
                """-d '{"messages": [{"role": "user", "content": "Hello"}]}'\n"""
                "press Ctrl-C to stop\n"
            )
            sys.stdout.flush()
            while server.process.poll() is None:
                time.sleep(0.5)
    except KeyboardInterrupt:
        sys.stderr.write("stopped\n")
        return
    raise AtlasError(f"the embedded server exited with code {server.process.returncode}")
