"""What a server says about itself before it answers: its engine, chat template and defaults.

Read once per URL when the endpoint opens (the embedded server: once it has started), as
control requests under the network policy (:mod:`stages.network.policy`) with the same headers,
API key included, as the chat requests: a server started with ``--api-key`` refuses ``/props``
without it. Every document is scrubbed of the key before anything in it is kept.

- ``GET /props`` (llama.cpp): the chat template and ``default_generation_settings``, whose
  ``params`` are the sampling defaults a request that leaves a field out gets.
- ``GET /v1/models``: ``owned_by`` names the engine (:func:`stages.protocol.engines.kind_of`).
- ``GET /server_info`` (vLLM, when started with ``VLLM_SERVER_DEV_MODE=1``; a plain vLLM server
  exposes its ``generation_config`` nowhere): ``vllm_config``, the engine's whole configuration,
  generation config included.
- ``GET /info`` (TGI's router), only when nothing else named the engine.

The defaults go into the manifest (``server_defaults``) and their hash into each record's
provenance (``server_defaults_sha256``): an answer made under other defaults is sent again
(:func:`stages.inference.provenance.drift`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from stages.network.policy import ControlError, control_get
from stages.network.scrubber import scrub_value
from stages.protocol.engines import kind_of


@dataclass(frozen=True)
class ServerFacts:
    """What one URL showed about itself."""

    kind: str | None = None
    """Engine kind (:mod:`stages.protocol.engines`); None: unidentified."""
    template: str | None = None
    """The chat template it serves (llama.cpp's ``/props``); None where it shows none."""
    defaults: dict[str, Any] | None = None
    """The sampling defaults it reports; None where it reports none."""
    source: str | None = None
    """Where ``defaults`` were read: ``/props`` or ``/server_info``."""

    @property
    def defaults_sha256(self) -> str | None:
        """sha256 of the canonical JSON of ``defaults`` (None when unknown)."""
        if self.defaults is None:
            return None
        text = json.dumps(self.defaults, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def manifest_entry(self, label: str) -> dict[str, Any]:
        """The manifest's ``server_defaults`` entry of the URL labelled ``label``."""
        return {
            "endpoint": label,
            "engine": self.kind,
            "source": self.source,
            "sha256": self.defaults_sha256,
            "defaults": self.defaults,
        }


def _document(url: str, headers: dict[str, str], secrets: Sequence[str], direct: bool) -> Any:
    """The JSON a ``GET`` returns with status 200, scrubbed; None on any failure."""
    with contextlib.suppress(ControlError, ValueError):
        response = control_get(url, headers, 3.0, direct)
        if response.status_code == 200:
            return scrub_value(json.loads(response.content), secrets)
    return None


def read_facts(
    url: str, headers: dict[str, str], secrets: Sequence[str] = (), direct: bool = False
) -> ServerFacts:
    """The facts of the OpenAI base URL ``url`` (``.../v1``); ``direct`` for the embedded
    server, reached without a proxy."""
    root = url.rstrip("/").removesuffix("/v1")
    props = _document(f"{root}/props", headers, secrets, direct)
    props = props if isinstance(props, dict) else {}
    models = _document(f"{url.rstrip('/')}/models", headers, secrets, direct)
    kind = kind_of(models, props)
    if kind is None:
        kind = kind_of(None, None, _document(f"{root}/info", headers, secrets, direct))
    template = props.get("chat_template")
    facts = ServerFacts(kind, template if isinstance(template, str) and template else None)
    settings = props.get("default_generation_settings")
    if isinstance(settings, dict):
        params = settings.get("params")  # older servers: the settings themselves
        defaults = params if isinstance(params, dict) else settings
        return ServerFacts(kind, facts.template, defaults, "/props")
    if kind == "vllm":
        info = _document(f"{root}/server_info", headers, secrets, direct)
        if isinstance(info, dict) and info.get("vllm_config") is not None:
            return ServerFacts(kind, None, {"vllm_config": info["vllm_config"]}, "/server_info")
    return facts
