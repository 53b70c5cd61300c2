"""Where requests go: the embedded server or remote URLs, their API key and chat template.

The API key is read from the environment variable named by ``model.api_key_env`` and only ever
placed in the ``Authorization`` header; manifests describe endpoints without credentials. A
remote (non-loopback) endpoint whose key variable is missing, an unreachable endpoint and an
endpoint that rejects the key are one-sentence errors before any request is sent.
"""

from __future__ import annotations

import contextlib
import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from stages.errors import AtlasError
from stages.params import ModelParams

_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@dataclass(frozen=True)
class Endpoint:
    urls: list[str]
    """OpenAI base URLs (``.../v1``); requests are spread over them round-robin."""
    headers: dict[str, str]
    """Request headers, including ``Authorization`` when a key is set (never written)."""
    chat_template: str
    """The template as served: the GGUF's for the embedded model, else what the server reports."""
    description: str
    """Endpoint for the manifest, without credentials."""
    secret: str | None = None
    """The API key, kept only to scrub it from error messages."""


def public_url(url: str) -> str:
    """``url`` without user info, query or fragment."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = f"[{host}]" if ":" in host else host
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def api_key(model: ModelParams, urls: list[str]) -> str | None:
    if not model.api_key_env:
        return None
    key = os.environ.get(model.api_key_env)
    remote = [u for u in urls if urlsplit(u).hostname not in _LOOPBACK]
    if not key and remote:
        raise AtlasError(
            f"params.yaml: model.api_key_env: the environment variable {model.api_key_env} is "
            f"not set, and {public_url(remote[0])} needs an API key"
        )
    return key or None


def _get(url: str, headers: dict[str, str], timeout: float) -> bytes:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return bytes(response.read())


def preflight(urls: list[str], headers: dict[str, str], timeout: float = 10.0) -> None:
    """GET ``/models`` on each URL: unreachable or key rejected stops the run before it starts."""
    for url in urls:
        try:
            _get(f"{url.rstrip('/')}/models", headers, timeout)
        except urllib.error.HTTPError as exc:
            if exc.code in (401, 403):
                raise AtlasError(
                    f"endpoint {public_url(url)} rejected the credentials (HTTP {exc.code})"
                ) from exc
            # Some servers have no /models; the chat requests will tell.
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise AtlasError(f"endpoint {public_url(url)} is unreachable: {reason}") from exc


def served_template(url: str, headers: dict[str, str]) -> str:
    """llama.cpp's server reports its template at ``/props``; anything else is "unknown"."""
    root = url.rstrip("/").removesuffix("/v1")
    with contextlib.suppress(Exception):
        props = json.loads(_get(f"{root}/props", headers, 3.0))
        template = props.get("chat_template") if isinstance(props, dict) else None
        if isinstance(template, str) and template:
            return template
    return "unknown"


@contextlib.contextmanager
def open_endpoint(model: ModelParams) -> Iterator[Endpoint]:
    """The endpoint for ``model``, starting (and finally stopping) the embedded server if asked."""
    if model.is_embedded:
        from stages.inference.embedded import embedded_server

        with embedded_server(model) as server:
            description = f"embedded: llama_cpp.server on {server.gguf.name}"
            yield Endpoint([server.url], {}, server.chat_template, description)
        return
    urls = [model.base_url] if isinstance(model.base_url, str) else list(model.base_url)
    key = api_key(model, urls)
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    preflight(urls, headers)
    description = ", ".join(public_url(u) for u in urls)
    yield Endpoint(urls, headers, served_template(urls[0], headers), description, key)
