"""The HTTP client of a run: which wire it sends on (issues 3, 23).

By default the lean HTTP/1.1 pool of :mod:`stages.inference.http11`; ``ATLAS_HTTP_CLIENT=aiohttp``
sends on aiohttp's pool instead (:mod:`stages.inference.aiohttp_wire`), with the same outcomes
(the same test suite passes on both). Nothing of either is imported before a run has something
to send. :mod:`stages.inference.client` still speaks to an ``httpx.AsyncClient`` when it is given
one (the tests' ``MockTransport``); a run's own client is :class:`WireClient`.

Both wires share the rules the client relies on: the pool is sized to the run's concurrency;
a new connection may take ``connect_timeout_s`` (a ``connect`` failure after that), the other
timeouts are the caller's, around the whole request; a failure on a *reused* connection before
the response head (the server had closed it) is sent again on another connection, at most once
per pooled connection, and never counts as an attempt, while a failure on a fresh connection is
a real connection error; ``healthy`` is a GET that any status answers.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from stages.errors import AtlasError
from stages.inference.http11 import READ_ERRORS, Pool, Response, WireError

ENV = "ATLAS_HTTP_CLIENT"
__all__ = ["READ_ERRORS", "WireClient", "WireError", "client_name", "make_client", "preload"]


CLIENTS = ("http11", "aiohttp")


def client_name() -> str:
    """The wire a run sends on, as the manifest names it: ``http11`` (also when the variable is
    unset or empty) or ``aiohttp``; any other value is refused, not silently replaced."""
    value = os.environ.get(ENV, "").strip().lower() or "http11"
    if value not in CLIENTS:
        raise AtlasError(
            f"{ENV}={os.environ[ENV]!r} is not an HTTP client: use {' or '.join(CLIENTS)} "
            "(or leave it unset)"
        )
    return value


def preload() -> None:
    """Import the chosen wire now: before senders fork, so that each does not import it again."""
    if client_name() == "aiohttp":
        import stages.inference.aiohttp_wire  # noqa: F401


class Wire:
    """The lean pool (:mod:`stages.inference.http11`) behind the interface the client uses."""

    READ_ERRORS = READ_ERRORS

    def __init__(self, max_connections: int, connect_timeout_s: float | None = None) -> None:
        self._pool = Pool(max_connections, connect_timeout_s)

    @property
    def stale_retries(self) -> int:
        """Requests sent again because their pooled connection had been closed by the server."""
        return self._pool.stale_retries

    async def post(self, url: str, headers: dict[str, str], body: bytes) -> Response:
        """Send one request; the response once its head has arrived."""
        return await self._pool.request("POST", url, headers, body)

    async def healthy(self, url: str, headers: dict[str, str], timeout_s: float) -> bool:
        """Whether ``GET url`` answers at all within ``timeout_s`` (any status: it is up)."""
        try:
            async with asyncio.timeout(timeout_s):
                response = await self._pool.request("GET", url, headers)
                try:
                    await response.read()
                finally:
                    response.release()
        except (TimeoutError, WireError, *READ_ERRORS):
            return False
        return True

    async def aclose(self) -> None:
        self._pool.close()


class WireClient:
    """What the sending code holds: the request headers and the wire."""

    def __init__(
        self, max_connections: int, headers: dict[str, str], connect_timeout_s: float | None = None
    ) -> None:
        self.wire: Any
        if client_name() == "aiohttp":
            from stages.inference.aiohttp_wire import Wire as AiohttpWire

            self.wire = AiohttpWire(max_connections, connect_timeout_s)
        else:
            self.wire = Wire(max_connections, connect_timeout_s)
        self.headers = headers

    async def aclose(self) -> None:
        await self.wire.aclose()


def make_client(
    max_connections: int, headers: dict[str, str], connect_timeout_s: float | None = None
) -> WireClient:
    """A run's client: a pool of ``max_connections``; a new connection may take
    ``connect_timeout_s``, the rest of a request's limits are the caller's."""
    return WireClient(max_connections, headers, connect_timeout_s)
