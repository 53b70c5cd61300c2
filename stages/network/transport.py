"""The HTTP client of a run: which wire it sends on (issues 3, 23, 31).

The lean HTTP/1.1 pool of :mod:`stages.network.wire`, under the project's network policy
(:mod:`stages.network.policy`: proxies as httpx reads them, TLS verified, no redirect
followed). When the policy names a proxy the wire does not speak to (one reached over TLS or
SOCKS), the run sends through httpx instead, under the same policy, and the manifest's
``http_client`` says ``httpx`` (:func:`wire_name`). The aiohttp wire (``ATLAS_HTTP_CLIENT=aiohttp``)
is gone: a third stack with its own proxy, redirect and error rules (issue 31).
:mod:`stages.inference.client` speaks to an ``httpx.AsyncClient`` as well as to :class:`WireClient`.

The wire's rules the client relies on: the pool is sized to the run's concurrency; a new
connection may take ``connect_timeout_s`` (a ``connect`` failure after that), the other timeouts
are the caller's, around the whole request; a failure on a *reused* connection before the response
head (the server had closed it) is sent again on another connection, at most once per pooled
connection, and never counts as an attempt, while a failure on a fresh connection is a real
connection error. Health checks of replicas are control requests: httpx, any status answers.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from stages.errors import AtlasError
from stages.network.policy import async_control_client
from stages.network.wire import READ_ERRORS, Pool, Response, WireError

ENV = "ATLAS_HTTP_CLIENT"
__all__ = [
    "READ_ERRORS",
    "WireClient",
    "WireError",
    "client_name",
    "make_client",
    "preload",
    "wire_name",
]


CLIENTS = ("http11",)


def client_name() -> str:
    """The wire a run sends on: ``http11`` (also when the variable is unset or empty); any other
    value is refused, not silently replaced."""
    value = os.environ.get(ENV, "").strip().lower() or "http11"
    if value == "aiohttp":
        raise AtlasError(
            f"{ENV}=aiohttp: the aiohttp client was removed (issue 31: one network policy, on "
            f"the project's own wire and httpx); unset {ENV}"
        )
    if value not in CLIENTS:
        raise AtlasError(
            f"{ENV}={os.environ[ENV]!r} is not an HTTP client: use {' or '.join(CLIENTS)} "
            "(or leave it unset)"
        )
    return value


def wire_name(urls: Sequence[str], direct: bool = False) -> str:
    """What a run to ``urls`` sends on, as the manifest names it: :func:`client_name`, or
    ``httpx`` when a URL's proxy is one the wire does not speak to."""
    from stages.network.tunnel import wire_speaks

    name = client_name()
    return name if all(wire_speaks(url, direct) for url in urls) else "httpx"


def preload() -> None:
    """Import the wire now: before senders fork, so that each does not import it again."""
    client_name()


class Wire:
    """The lean pool (:mod:`stages.network.wire`) behind the interface the client uses."""

    READ_ERRORS = READ_ERRORS

    def __init__(
        self, max_connections: int, connect_timeout_s: float | None = None, direct: bool = False
    ) -> None:
        self._pool = Pool(max_connections, connect_timeout_s, direct)
        self.direct = direct

    @property
    def stale_retries(self) -> int:
        """Requests sent again because their pooled connection had been closed by the server."""
        return self._pool.stale_retries

    async def post(self, url: str, headers: dict[str, str], body: bytes) -> Response:
        """Send one request; the response once its head has arrived."""
        return await self._pool.request("POST", url, headers, body)

    async def healthy(self, url: str, headers: dict[str, str], timeout_s: float) -> bool:
        """Whether ``GET url`` answers at all within ``timeout_s`` (any status but a redirect:
        it is up), a control request under the network policy."""
        import httpx

        try:
            async with async_control_client(timeout_s, self.direct) as client:
                response = await client.get(url, headers=headers)
        except httpx.HTTPError:
            return False
        return not response.is_redirect

    async def aclose(self) -> None:
        self._pool.close()


class WireClient:
    """What the sending code holds: the request headers and the wire."""

    def __init__(
        self,
        max_connections: int,
        headers: dict[str, str],
        connect_timeout_s: float | None = None,
        direct: bool = False,
    ) -> None:
        client_name()
        self.wire: Any = Wire(max_connections, connect_timeout_s, direct)
        self.headers = headers

    async def aclose(self) -> None:
        await self.wire.aclose()


def make_client(
    max_connections: int,
    headers: dict[str, str],
    connect_timeout_s: float | None = None,
    urls: Sequence[str] = (),
    direct: bool = False,
) -> Any:
    """A run's client: a pool of ``max_connections``; a new connection may take
    ``connect_timeout_s``, the rest of a request's limits are the caller's. ``direct``: the
    embedded server (no proxy). An ``httpx.AsyncClient`` under the same policy when
    :func:`wire_name` of ``urls`` says so."""
    if wire_name(urls, direct) == "httpx":
        return async_control_client(None, direct, max_connections, headers, connect_timeout_s)
    return WireClient(max_connections, headers, connect_timeout_s, direct)
