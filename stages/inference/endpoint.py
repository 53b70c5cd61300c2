"""Where requests go: the embedded server or remote URLs, their API key, and what they show
about themselves (chat template, engine, fingerprint; see :mod:`stages.inference.provenance`).

The API key is read from the environment variable named by ``model.api_key_env`` and only ever
placed in the ``Authorization`` header; manifests describe endpoints without credentials. A
remote (non-loopback) endpoint whose key variable is missing, an unreachable endpoint, an
endpoint that rejects the key, redirects or shows an untrusted certificate are one-sentence
errors before any request is sent. Every request here is a control request under the network
policy (:mod:`stages.network.policy`: httpx, proxies from the environment, no redirect).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from stages.errors import AtlasError
from stages.inference.provenance import Observed, sha256_text
from stages.inference.server_facts import ServerFacts, read_facts
from stages.network.policy import ControlError, control_get, control_request, origin
from stages.network.scrubber import scrub
from stages.params import ModelParams
from stages.protocol.engines import EMBEDDED
from stages.protocol.responses_api import CHAT_PATH, path_for

if TYPE_CHECKING:
    from stages.inference.replicas import Replicas

_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@dataclass(frozen=True)
class Endpoint:
    urls: list[str]
    """OpenAI base URLs (``.../v1``); requests are spread over them by weight."""
    headers: dict[str, str]
    """Request headers, including ``Authorization`` when a key is set (never written)."""
    labels: list[str]
    """Each URL as records name it: public URL, or ``embedded:<gguf>`` for the packaged model."""
    templates: list[str | None]
    """Each URL's chat template as served (the GGUF's; llama.cpp's ``/props``), None if unseen."""
    secret: str | None = None
    """The API key, kept only to scrub it from what the servers send."""
    engine: dict[str, Any] | None = None
    """Build facts of the embedded engine (:mod:`stages.engine.build`); None for remote."""
    starter: Callable[[], str] | None = None
    """The embedded model: starts its server and returns its URL, the first time a request is
    to be sent (a rerun with nothing to send never starts it)."""
    weights: list[float] = field(default_factory=list)
    """Each URL's share of the requests (issue 23); empty: equal shares."""
    down: frozenset[int] = frozenset()
    """URLs unreachable at the start: taken out, and tried again later."""
    pids: list[int] = field(default_factory=list)
    """The embedded servers' process ids once started (what their CPU share is read from)."""
    path: str = CHAT_PATH
    """Where eval and load requests go under each URL: ``/chat/completions``, or
    ``/responses`` for ``model.api: responses`` (:mod:`stages.protocol.responses_api`)."""
    facts: list[ServerFacts] = field(default_factory=list)
    """What each URL showed about itself (:mod:`stages.inference.server_facts`): engine kind,
    template and sampling defaults; the embedded server's once it has started."""
    kind: str | None = None
    """The engine kind the endpoint showed (the embedded one's is known beforehand); None:
    unidentified (:mod:`stages.protocol.engines`)."""
    template_hashes: list[str | None] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "template_hashes", [sha256_text(t) for t in self.templates])

    def replicas(self) -> Replicas:
        """This process's view of the replicas (:mod:`stages.inference.replicas`)."""
        from stages.inference.replicas import Replicas

        chat = [u.rstrip("/") + self.path for u in self.urls]
        health = [u.rstrip("/") + "/models" for u in self.urls]
        replicas = Replicas(chat, list(self.weights), health)
        for index in self.down:
            replicas.take_out(index)
        return replicas

    @property
    def embedded(self) -> bool:
        """The packaged model's server (one slot: sent to by one process)."""
        return self.starter is not None

    @property
    def description(self) -> str:
        return ", ".join(self.labels)

    def ensure_started(self) -> None:
        """Start the embedded server if it is not running yet (no-op for remote endpoints)."""
        if not self.urls and self.starter is not None:
            self.urls.append(self.starter())

    def control_headers(self, url: str) -> dict[str, str]:
        """The headers (the API key) for a control request to ``url`` (``/metrics``, ``/props``):
        the chat requests' own when ``url`` has the origin of one of the endpoint's URLs, none
        otherwise, so the key never goes to another origin (the network policy's rule)."""
        mine = {origin(u) for u in self.urls}
        return dict(self.headers) if origin(url) in mine else {}

    def observed(self, fingerprints: frozenset[str | None] | None = None) -> Observed:
        engine = self.engine["id"] if self.engine else None
        known = frozenset(f.defaults_sha256 for f in self.facts if f.defaults_sha256)
        return Observed(frozenset(self.template_hashes), engine, fingerprints, known or None)

    def defaults_sha256(self, index: int) -> str | None:
        """The hash of the sampling defaults URL number ``index`` reported (None: unknown)."""
        return self.facts[index].defaults_sha256 if index < len(self.facts) else None

    def provenance(self, index: int, fingerprint: str | None) -> dict[str, Any]:
        """The ``provenance`` of a record answered (or failed) by URL number ``index``."""
        return {
            "endpoint": self.labels[index],
            "chat_template_sha256": self.template_hashes[index],
            "system_fingerprint": fingerprint,
            "engine": self.engine["id"] if self.engine else None,
            "server_defaults_sha256": self.defaults_sha256(index),
        }


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


def _stop_error(url: str, exc: ControlError) -> AtlasError:
    """A failure no other URL can mend: a redirect (the key is not sent on) or a TLS one."""
    return AtlasError(f"endpoint {public_url(url)}: {exc}")


def preflight(
    urls: list[str], headers: dict[str, str], timeout: float = 10.0, key_note: str = ""
) -> frozenset[int]:
    """GET ``/models`` on each URL before the run (:mod:`stages.network.policy`'s policy): a
    rejected key (the refusal rule of :mod:`stages.inference.credentials`, the message ending in
    ``key_note``), a redirect or an untrusted certificate stops it, and so does every URL being
    unreachable; the numbers of the unreachable ones (taken out, tried again later)."""
    from stages.inference.credentials import is_refusal

    unreachable: dict[int, str] = {}
    for index, url in enumerate(urls):
        try:
            response = control_get(f"{url.rstrip('/')}/models", headers, timeout)
        except ControlError as exc:
            if exc.kind in ("redirect", "tls"):
                raise _stop_error(url, exc) from None
            unreachable[index] = str(exc)
            continue
        status = response.status_code
        if status >= 400 and is_refusal(status, response.text):
            note = f"; {key_note}" if key_note else ""
            raise AtlasError(
                f"endpoint {public_url(url)} rejected the credentials (HTTP {status}){note}"
            )
        # Some servers have no /models (any other status); the chat requests will tell.
    if len(unreachable) == len(urls):
        first = min(unreachable)
        raise AtlasError(f"endpoint {public_url(urls[first])} is unreachable: {unreachable[first]}")
    for index, reason in sorted(unreachable.items()):
        sys.stderr.write(
            f"note: endpoint {public_url(urls[index])} is unreachable ({reason}); sending to the "
            "other endpoints; it is tried again later\n"
        )
    return frozenset(unreachable)


def served_template(url: str, headers: dict[str, str], secrets: Sequence[str] = ()) -> str | None:
    """llama.cpp's server reports its template at ``/props``; elsewhere it cannot be seen. The
    document is scrubbed of ``secrets`` before anything in it is kept (the template is written to
    the manifest)."""
    return read_facts(url, headers, secrets).template


def probe_fingerprints(
    endpoint: Endpoint, body: bytes, timeout: float = 60.0
) -> frozenset[str | None] | None:
    """One non-streamed one-token request per URL: the ``system_fingerprint`` each answers with
    now (None in the set: it sends none). None when a probe fails: nothing was observed. The probe
    keeps the run's model and sampling fields but asks a tiny question of its own: cheap, and
    never a prompt the run is about to send (a server reusing its KV cache would then compute
    that prompt differently)."""
    probe = json.loads(body)
    probe.update(stream=False, max_tokens=1, messages=[{"role": "user", "content": "Say OK."}])
    for field_name in ("stream_options", "tools", "tool_choice"):
        probe.pop(field_name, None)
    data = json.dumps(probe).encode()
    headers = {**endpoint.headers, "Content-Type": "application/json"}
    endpoint.ensure_started()
    seen: set[str | None] = set()
    for index, url in enumerate(endpoint.urls):
        if index in endpoint.down:  # unreachable at the start: nothing to observe
            continue
        chat = f"{url.rstrip('/')}/chat/completions"
        try:
            response = control_request("POST", chat, headers, timeout, data, endpoint.embedded)
            if response.status_code != 200:
                return None
            answer = json.loads(response.content)
        except (ControlError, ValueError):
            return None
        fingerprint = answer.get("system_fingerprint") if isinstance(answer, dict) else None
        secrets = (endpoint.secret,) if endpoint.secret else ()  # it is printed if it drifted
        seen.add(scrub(str(fingerprint), secrets) if fingerprint else None)
    return frozenset(seen)


@contextlib.contextmanager
def open_endpoint(model: ModelParams, slots: int | None = None) -> Iterator[Endpoint]:
    """The endpoint for ``model``; the embedded server (with ``slots`` parallel slots, default
    ``model.slots``) starts when the first request is to be sent
    (:meth:`Endpoint.ensure_started`) and is always stopped on the way out."""
    if model.is_embedded:
        from stages.engine.build import engine_facts
        from stages.engine.embedded import EngineSettings, embedded_server
        from stages.engine.embedded import served_template as template_of
        from stages.engine.packaged import verified_gguf

        gguf, facts = verified_gguf(model)  # what the server will show, known before it starts
        settings = EngineSettings.of(model, slots)
        template = template_of(model, facts.chat_template)
        with contextlib.ExitStack() as stack:
            servers: list[Any] = []
            pids: list[int] = []
            shown: list[ServerFacts] = []

            def start() -> str:
                servers.append(stack.enter_context(embedded_server(model, settings)))
                pids.append(servers[-1].process.pid)
                shown.append(read_facts(str(servers[0].url), {}, direct=True))
                return str(servers[0].url)

            engine = engine_facts(settings)
            label = f"embedded:{gguf.name}"
            path = path_for(model.api)
            yield Endpoint(
                [], {}, [label], [template], engine=engine, starter=start, pids=pids,
                facts=shown, kind=EMBEDDED, path=path,
            )  # fmt: skip
        return
    urls = [url for url, _ in model.replicas]
    key = api_key(model, urls)
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    from stages.inference.credentials import key_note

    down = preflight(urls, headers, key_note=key_note(model.api_key_env, key is not None))
    labels = [public_url(u) for u in urls]
    secrets = (key,) if key else ()
    shown = [
        ServerFacts() if i in down else read_facts(u, headers, secrets) for i, u in enumerate(urls)
    ]
    templates = [f.template for f in shown]
    weights = [weight for _, weight in model.replicas]
    path = path_for(model.api)
    kind = next((f.kind for f in shown if f.kind is not None), None)
    yield Endpoint(
        urls, headers, labels, templates, key, weights=weights, down=down, facts=shown, kind=kind,
        path=path,
    )  # fmt: skip
