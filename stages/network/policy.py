"""The one network policy of every request the project makes (issue 31).

- **Proxies** come from ``HTTP_PROXY``/``HTTPS_PROXY``/``ALL_PROXY``/``NO_PROXY`` (and their
  lower-case forms) read exactly as httpx reads them: httpx's own reading of the environment
  decides, for control requests (httpx itself sends them) and for the sending wire
  (:func:`proxy_for` asks httpx's mapping which proxy a URL goes through). The wire sends
  absolute-form requests to an ``http`` proxy for ``http`` URLs and tunnels ``https`` ones with
  ``CONNECT`` (:mod:`stages.network.tunnel`); behind a proxy reached over TLS or SOCKS a run
  sends through httpx (:func:`async_control_client`). A proxy reached over TLS is verified like
  an endpoint. The embedded server, a process the project started on loopback, is reached
  directly (``direct``): a proxy would only stand between the project and its own child.
- **TLS** is verified, always, against ``SSL_CERT_FILE`` and ``SSL_CERT_DIR`` when set (as curl,
  httpx and OpenSSL read them), else the system's store (:func:`tls_context`).
- **No redirect is followed**: requests carry the API key, and a ``3xx`` could send it to
  another origin, in clear text. A ``3xx`` is its own failure (``redirect``), whose message names
  the target's origin only (scheme, host, port), never its path, query or user info.

Control requests (the preflight's ``GET /models``, ``/props``, ``/metrics``, replicas' health
checks, the fingerprint probe) go through :func:`control_client` / :func:`async_control_client`;
their failures become a :class:`ControlError` with a kind and a one-line message built by the
project, never from the server's bytes (:func:`control_error`).
"""

from __future__ import annotations

import os
import ssl
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

if TYPE_CHECKING:
    import httpx

WIRE_PROXY_SCHEMES = ("http",)
"""Proxies the sending wire speaks to (plain HTTP proxies, as curl's default)."""
_TLS: dict[tuple[str | None, str | None], ssl.SSLContext] = {}


class ControlError(Exception):
    """A control request failed: ``redirect``, ``tls``, ``protocol`` (the peer does not speak
    HTTP/1.1) or ``unreachable``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


def tls_context() -> ssl.SSLContext:
    """Verified TLS: the CAs of ``SSL_CERT_FILE``/``SSL_CERT_DIR`` when either is set, else the
    system's store (one context per setting, shared by both stacks)."""
    cafile = os.environ.get("SSL_CERT_FILE") or None
    capath = os.environ.get("SSL_CERT_DIR") or None
    context = _TLS.get((cafile, capath))
    if context is None:
        from stages.errors import AtlasError

        try:
            context = ssl.create_default_context(cafile=cafile, capath=capath)
        except (OSError, ssl.SSLError) as exc:
            raise AtlasError(
                f"SSL_CERT_FILE={cafile!r} / SSL_CERT_DIR={capath!r}: no CA certificates could "
                f"be read ({exc})"
            ) from exc
        context.set_alpn_protocols(["http/1.1"])
        _TLS[(cafile, capath)] = context
    return context


def proxy_for(url: str, direct: bool = False) -> str | None:
    """The proxy URL a request to ``url`` goes through, or None (``direct``: never a proxy).

    httpx has no public call for this; it is answered with httpx's own mapping of the
    environment to URL patterns (the one ``httpx.Client(trust_env=True)`` mounts, and
    :func:`_proxy_mounts` too), matched in httpx's order, read-only."""
    if direct:
        return None
    import httpx
    from httpx._utils import URLPattern, get_environment_proxies

    target = httpx.URL(url)
    patterns = sorted((URLPattern(key), proxy) for key, proxy in get_environment_proxies().items())
    for pattern, proxy in patterns:
        if pattern.matches(target):
            return proxy
    return None


def origin(url: str) -> str:
    """``scheme://host[:port]`` of ``url``: no user info, path, query or fragment."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    try:
        port = parts.port
    except ValueError:
        port = None
    netloc = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{netloc}" + (f":{port}" if port else "")


def redirect_message(status: int, location: str | None, url: str) -> str:
    """The ``redirect`` failure of ``url`` answering ``status`` with ``location``."""
    target = origin(urljoin(url, location)) if location else "nowhere (no Location)"
    return (
        f"HTTP {status} redirect from {origin(url)} to {target}: not followed, requests carry "
        "the API key; set model.base_url to the URL that answers"
    )


def _tls_failure(exc: BaseException) -> ssl.SSLError | None:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ssl.SSLError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def control_error(exc: Exception, url: str, direct: bool = False) -> ControlError:
    """A control request's exception as a :class:`ControlError`; the message quotes no server
    bytes (an exception's text may hold a status or header line the server sent)."""
    import httpx

    where = origin(url)
    tls = _tls_failure(exc)
    if isinstance(tls, ssl.SSLCertVerificationError):
        reason = tls.verify_message or tls.reason or "verification failed"
        return ControlError(
            "tls",
            f"TLS: the certificate of {where} is not trusted ({reason}); set SSL_CERT_FILE or "
            "SSL_CERT_DIR to its CA",
        )
    if tls is not None:
        return ControlError("tls", f"TLS: the handshake with {where} failed ({tls.reason})")
    if isinstance(exc, httpx.ProxyError):
        return ControlError("unreachable", f"the proxy refused the request to {where}")
    if isinstance(exc, httpx.ProtocolError | httpx.DecodingError):
        return ControlError(
            "protocol", f"{where} does not speak HTTP/1.1 ({type(exc).__name__} in its response)"
        )
    if isinstance(exc, httpx.TimeoutException):
        return ControlError("unreachable", f"no answer from {where} in time")
    proxy = proxy_for(url, direct)
    through = f" (through the proxy {origin(proxy)})" if proxy else ""
    return ControlError("unreachable", f"{str(exc) or type(exc).__name__}{through}")


def _proxy_mounts(transport: Any, direct: bool, limits: httpx.Limits) -> dict[str, Any]:
    """httpx's own mounts for the environment's proxies (what ``trust_env=True`` builds), with
    the policy's TLS for the proxy too: httpx would verify a proxy reached over TLS against
    certifi's CAs alone, ignoring ``SSL_CERT_FILE``."""
    import httpx
    from httpx._utils import get_environment_proxies

    if direct:
        return {}
    context = tls_context()
    mounts: dict[str, Any] = {}
    for pattern, url in get_environment_proxies().items():
        if url is None:
            mounts[pattern] = None
            continue
        over_tls = url.lower().startswith("https://")  # httpx refuses a context for http://
        proxy = httpx.Proxy(url, ssl_context=context if over_tls else None)
        try:
            mounts[pattern] = transport(proxy=proxy, verify=context, limits=limits)
        except ImportError as exc:  # socks5 without httpx's optional socksio
            from stages.errors import AtlasError

            raise AtlasError(f"the proxy {origin(url)} needs httpx[socks]: {exc}") from exc
    return mounts


def control_client(timeout: float, direct: bool = False) -> httpx.Client:
    """A client for control requests under the policy (``direct``: the embedded server)."""
    import httpx

    limits = httpx.Limits()
    return httpx.Client(
        trust_env=False,  # the environment is read once, by :func:`_proxy_mounts`
        mounts=_proxy_mounts(httpx.HTTPTransport, direct, limits),
        verify=tls_context(),
        follow_redirects=False,
        timeout=timeout,
    )


def async_control_client(
    timeout: float | None,
    direct: bool = False,
    max_connections: int | None = None,
    headers: dict[str, str] | None = None,
    connect_timeout: float | None = None,
) -> httpx.AsyncClient:
    """An asyncio client under the policy: a health check's, or (``max_connections``,
    ``headers``, ``connect_timeout``) a run's when the wire cannot take its proxy."""
    import httpx

    limits = httpx.Limits(
        max_connections=max_connections, max_keepalive_connections=max_connections
    )
    return httpx.AsyncClient(
        trust_env=False,
        mounts=_proxy_mounts(httpx.AsyncHTTPTransport, direct, limits),
        verify=tls_context(),
        follow_redirects=False,
        headers=headers,
        timeout=httpx.Timeout(timeout, connect=connect_timeout or timeout),
        limits=limits,
    )


def control_get(
    url: str, headers: dict[str, str], timeout: float, direct: bool = False
) -> httpx.Response:
    """``GET url`` under the policy; the response read whole (any status but a redirect)."""
    return control_request("GET", url, headers, timeout, direct=direct)


def control_request(
    method: str,
    url: str,
    headers: dict[str, str],
    timeout: float,
    body: bytes | None = None,
    direct: bool = False,
) -> httpx.Response:
    """One control request; a ``3xx`` or a transport failure raises :class:`ControlError`."""
    import httpx

    try:
        with control_client(timeout, direct) as client:
            response = client.request(method, url, headers=headers, content=body)
    except httpx.HTTPError as exc:
        raise control_error(exc, url, direct) from None
    if response.is_redirect or 300 <= response.status_code < 400:
        location = response.headers.get("location")
        raise ControlError("redirect", redirect_message(response.status_code, location, url))
    return response
