"""``atlas serve``: the embedded model's server in the foreground (issue 15).

Only typer is imported here; the engine's modules load inside the command.
"""

from __future__ import annotations

import sys
import time

from stages.errors import AtlasError


def serve() -> None:
    """Run the embedded model's OpenAI-compatible server in the foreground until Ctrl-C.

    Example: atlas serve   (then point another tool at the URL it prints)
    """
    from stages.engine.embedded import embedded_server
    from stages.params import model_params

    model = model_params()
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
