"""The run's HTTP client on aiohttp's connection pool (``ATLAS_HTTP_CLIENT=aiohttp``; issues 3, 23).

Before issue 23 this was every run's client; :mod:`stages.inference.http11` replaced it as the
default (aiohttp's import and its per-request cost were the largest parts of a short run's client
side). It stays selectable, with the same outcomes, to compare the two or to rule the lean client
out. Why not httpx: httpcore's pool gets slower as connections are added (encode/httpcore#1035).

The pool is sized to the run's concurrency; timeouts are applied by the caller around the whole
request, so aiohttp runs without its own. Certificates are verified against the system's store
(aiohttp's default). A failure on a *reused* connection before the response head (the server
had closed it) is sent again on another connection, at most once per pooled connection, and
never counts as an attempt; a failure on a fresh connection is a real connection error.
"""

from __future__ import annotations

import asyncio

import aiohttp

from stages.inference.http11 import WireError

READ_ERRORS = (aiohttp.ClientPayloadError, aiohttp.ClientConnectionError, OSError)
"""What a broken connection raises while a body is read."""
_STALE = (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError)
"""What a request on a pooled connection the server already closed fails with."""


class _Reuse:
    """Per-request trace context: set when the pool handed out an idle connection."""

    __slots__ = ("reused",)

    def __init__(self) -> None:
        self.reused = False


async def _on_reuse(session: object, context: object, params: object) -> None:
    context.trace_request_ctx.reused = True  # type: ignore[attr-defined]


class Wire:
    """One aiohttp session: a keep-alive pool of ``max_connections``."""

    READ_ERRORS = READ_ERRORS

    def __init__(self, max_connections: int, connect_timeout_s: float | None = None) -> None:
        self._max_connections = max_connections
        self._connect_timeout_s = connect_timeout_s
        self._session: aiohttp.ClientSession | None = None
        self.stale_retries = 0
        """Requests sent again because their pooled connection had been closed by the server."""

    def _open(self) -> aiohttp.ClientSession:
        connector = aiohttp.TCPConnector(
            limit=self._max_connections, limit_per_host=0, ttl_dns_cache=300, ssl=True
        )
        reuse = aiohttp.TraceConfig()
        reuse.on_connection_reuseconn.append(_on_reuse)
        self._session = aiohttp.ClientSession(
            connector=connector,
            trace_configs=[reuse],
            timeout=aiohttp.ClientTimeout(total=None, sock_connect=self._connect_timeout_s),
            skip_auto_headers=("User-Agent", "Accept-Encoding", "Accept", "Content-Type"),
        )
        return self._session

    async def post(self, url: str, headers: dict[str, str], body: bytes) -> aiohttp.ClientResponse:
        """Send one request; aiohttp's response once its head has arrived."""
        session = self._session or self._open()
        # each dead pooled connection is dropped once tried: at most the pool's size of them
        for spare in range(self._max_connections, -1, -1):
            reuse = _Reuse()
            try:
                return await session.post(
                    url, headers=headers, data=body, allow_redirects=False, trace_request_ctx=reuse
                )
            except aiohttp.ConnectionTimeoutError as exc:
                limit = self._connect_timeout_s
                raise WireError(
                    "connect", f"ConnectTimeout: no connection within {limit} s"
                ) from exc
            except aiohttp.ClientConnectorError as exc:
                raise WireError("connect", f"ConnectError: cannot connect: {exc}") from exc
            except _STALE as exc:
                if not (reuse.reused and spare):
                    raise WireError("read", f"ReadError: no response: {exc!r}") from exc
                self.stale_retries += 1
            except READ_ERRORS as exc:
                raise WireError("read", f"ReadError: no response: {exc!r}") from exc
        raise AssertionError("unreachable: the last try raises or returns")

    async def healthy(self, url: str, headers: dict[str, str], timeout_s: float) -> bool:
        """Whether ``GET url`` answers at all within ``timeout_s`` (any status: it is up)."""
        session = self._session or self._open()
        try:
            async with asyncio.timeout(timeout_s):
                async with session.get(url, headers=headers, allow_redirects=False) as response:
                    await response.read()
        except (TimeoutError, *READ_ERRORS):
            return False
        return True

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
