"""An httpx transport over aiohttp's connection pool (issue 3, "The client").

Why not httpx's own transport: httpcore's pool gets slower as connections are added
(encode/httpcore#1035). Against a stub answering after 100 ms, 2,000 streamed requests at
concurrency 128 ran at 0.23 of the ideal rate even spread over eight clients with small pools,
against 0.66-0.77 for httpx on aiohttp (bare aiohttp: 0.81-0.89). So the client keeps httpx's
API (requests, responses, streaming) and hands the wire work to aiohttp's pool.

Why not ``httpx_aiohttp.AiohttpTransport``: it maps a server disconnect to ``ConnectTimeout`` and
caps the pool at 100 connections; here a read failure after the response started must surface
as a read error (a torn stream), and the pool is sized to the run's concurrency. It also costs
less per request. Timeouts are applied by the caller around the whole request, so aiohttp runs
without its own.

A server may close a keep-alive connection after answering on it (some do after every answer,
without saying ``Connection: close``); the pool only notices when the next request on that
connection fails before any response. Such a failure — on a *reused* connection, before the
response head — is not the request's: it is sent again on another connection, at most once per
pooled connection, and never counts as an attempt. A failure on a fresh connection is a real
connection error.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import httpx

_READ_ERRORS = (aiohttp.ClientPayloadError, aiohttp.ClientConnectionError, OSError)
_STALE = (aiohttp.ServerDisconnectedError, aiohttp.ClientOSError)
"""What a request on a pooled connection the server already closed fails with."""


class _Reuse:
    """Per-request trace context: set when the pool handed out an idle connection."""

    __slots__ = ("reused",)

    def __init__(self) -> None:
        self.reused = False


async def _on_reuse(session: object, context: object, params: object) -> None:
    context.trace_request_ctx.reused = True  # type: ignore[attr-defined]


class _AiohttpStream(httpx.AsyncByteStream):
    """The response body as aiohttp delivers it; a broken connection becomes ``httpx.ReadError``."""

    def __init__(self, response: aiohttp.ClientResponse, request: httpx.Request) -> None:
        self._response = response
        self._request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for chunk in self._response.content.iter_any():
                yield chunk
        except _READ_ERRORS as exc:
            message = f"connection broke mid-response: {exc!r}"
            raise httpx.ReadError(message, request=self._request) from exc

    async def aclose(self) -> None:
        # An unfinished body closes the connection instead of returning it to the pool.
        self._response.release()


class AiohttpTransport(httpx.AsyncBaseTransport):
    """One aiohttp session (keep-alive pool of ``max_connections``) behind httpx's API."""

    READ_ERRORS = _READ_ERRORS
    """What a broken connection raises while a body is read."""

    def __init__(self, max_connections: int) -> None:
        self._max_connections = max_connections
        self._session: aiohttp.ClientSession | None = None
        self.stale_retries = 0
        """Requests sent again because their pooled connection had been closed by the server."""
        self._headers: dict[tuple[tuple[bytes, bytes], ...], list[tuple[str, str]]] = {}

    def _aiohttp_headers(self, headers: httpx.Headers) -> list[tuple[str, str]]:
        """Request headers as aiohttp takes them, minus Host and Content-Length (aiohttp sets
        both from the URL and the body); converted once per distinct header set, since every
        request of a run carries the same ones."""
        raw = tuple(
            (name, value)
            for name, value in headers.raw
            if name.lower() not in (b"host", b"content-length")
        )
        converted = self._headers.get(raw)
        if converted is None:
            converted = [(n.decode("latin-1"), v.decode("latin-1")) for n, v in raw]
            self._headers[raw] = converted
        return converted

    def _open(self) -> aiohttp.ClientSession:
        connector = aiohttp.TCPConnector(
            limit=self._max_connections,
            limit_per_host=0,
            ttl_dns_cache=300,
            ssl=True,  # aiohttp's default: certificates verified against the system CA store
        )
        reuse = aiohttp.TraceConfig()
        reuse.on_connection_reuseconn.append(_on_reuse)
        self._session = aiohttp.ClientSession(
            connector=connector,
            trace_configs=[reuse],
            auto_decompress=False,  # httpx decodes Content-Encoding itself
            timeout=aiohttp.ClientTimeout(total=None),
            skip_auto_headers=("User-Agent", "Accept-Encoding", "Accept", "Content-Type"),
        )
        return self._session

    async def post(self, url: str, headers: httpx.Headers, body: bytes) -> aiohttp.ClientResponse:
        """Send one request and return aiohttp's response once its head has arrived (the fast
        path of :mod:`stages.inference.client`: no httpx request or response objects)."""
        return await self._request("POST", url, headers, body, None)

    async def _request(
        self,
        method: str,
        url: str,
        headers: httpx.Headers,
        body: bytes,
        request: httpx.Request | None,
    ) -> aiohttp.ClientResponse:
        session = self._session or self._open()
        # each dead pooled connection is dropped once tried: at most the pool's size of them
        for spare in range(self._max_connections, -1, -1):
            reuse = _Reuse()
            try:
                return await session.request(
                    method,
                    url,
                    headers=self._aiohttp_headers(headers),
                    data=body or None,
                    allow_redirects=False,
                    trace_request_ctx=reuse,
                )
            except aiohttp.ClientConnectorError as exc:
                raise httpx.ConnectError(f"cannot connect: {exc}", request=request) from exc
            except _STALE as exc:
                if not (reuse.reused and spare):
                    raise httpx.ReadError(f"no response: {exc!r}", request=request) from exc
                self.stale_retries += 1
            except _READ_ERRORS as exc:
                raise httpx.ReadError(f"no response: {exc!r}", request=request) from exc
        raise AssertionError("unreachable: the last try raises or returns")

    @staticmethod
    def to_httpx(response: aiohttp.ClientResponse, request: httpx.Request) -> httpx.Response:
        """aiohttp's response as an httpx response streaming the same body."""
        return httpx.Response(
            status_code=response.status,
            headers=response.raw_headers,
            stream=_AiohttpStream(response, request),
            request=request,
            extensions={"http_version": b"HTTP/1.1"},
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        url, body = str(request.url), request.content
        response = await self._request(request.method, url, request.headers, body, request)
        return self.to_httpx(response, request)

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None


class AiohttpClient(httpx.AsyncClient):
    """httpx's client on the aiohttp transport, which it exposes as ``wire``: the client module
    sends streamed requests straight through it, skipping httpx's per-request layers (request
    and response models, cookie extraction, byte-stream wrappers)."""

    def __init__(self, max_connections: int, headers: dict[str, str]) -> None:
        self.wire = AiohttpTransport(max_connections)
        super().__init__(transport=self.wire, headers=headers, timeout=None, follow_redirects=False)


def make_client(max_connections: int, headers: dict[str, str]) -> httpx.AsyncClient:
    """An ``httpx.AsyncClient`` on the aiohttp transport; no httpx timeout (the caller sets one)."""
    return AiohttpClient(max_connections, headers)
