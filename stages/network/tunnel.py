"""How the sending wire reaches an origin through the proxy the policy names (issue 31).

:func:`route` asks :func:`stages.network.policy.proxy_for` (httpx's reading of
``HTTP_PROXY``/``HTTPS_PROXY``/``ALL_PROXY``/``NO_PROXY``) which proxy a URL goes through. An
``http`` URL behind a proxy is sent to the proxy in absolute form (``POST http://host:port/path``,
as curl does); an ``https`` one goes through a ``CONNECT host:port`` tunnel, and TLS with the
endpoint is set up inside it, verified against the endpoint's name (:func:`open_tunnel`). User
info in the proxy URL becomes a ``Proxy-Authorization: Basic`` header. Proxies spoken to over TLS
or SOCKS are not the wire's: a run behind one sends through httpx
(:func:`stages.network.transport.wire_name`).
"""

from __future__ import annotations

import asyncio
import base64
import socket
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from stages.network.policy import WIRE_PROXY_SCHEMES, origin, proxy_for

MAX_PROXY_HEAD = 1 << 14
"""A proxy's answer to ``CONNECT`` longer than this is not one."""


@dataclass(frozen=True)
class Route:
    """How requests to one origin travel."""

    proxy: tuple[str, int] | None = None
    """The proxy's host and port; None: straight to the origin."""
    tunnel: bool = False
    """``CONNECT`` through the proxy (https), else absolute-form requests to it (http)."""
    authorization: str | None = None
    """The ``Proxy-Authorization`` value, from the proxy URL's user info."""
    proxy_origin: str = ""
    """The proxy as messages name it (no user info)."""


def route(url: str, direct: bool = False) -> Route:
    """The route of ``url`` under the policy (``direct``: never a proxy). A proxy the wire does
    not speak to raises ``ValueError``."""
    proxy = proxy_for(url, direct)
    if proxy is None:
        return Route()
    parts = urlsplit(proxy)
    if parts.scheme.lower() not in WIRE_PROXY_SCHEMES or not parts.hostname:
        raise ValueError(f"the proxy {origin(proxy)} is not an http:// proxy")
    authorization = None
    if parts.username is not None:
        pair = f"{unquote(parts.username)}:{unquote(parts.password or '')}".encode()
        authorization = "Basic " + base64.b64encode(pair).decode("ascii")
    tunnel = urlsplit(url).scheme.lower() == "https"
    return Route((parts.hostname, parts.port or 80), tunnel, authorization, origin(proxy))


def wire_speaks(url: str, direct: bool = False) -> bool:
    """Whether the sending wire can reach ``url`` (no proxy, or an http:// one)."""
    try:
        route(url, direct)
    except ValueError:
        return False
    return True


async def _open_socket(host: str, port: int) -> socket.socket:
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    error: OSError = OSError(f"cannot resolve {host}")
    for family, kind, proto, _, address in infos:
        sock = socket.socket(family, kind, proto)
        sock.setblocking(False)
        try:
            await loop.sock_connect(sock, address)
        except OSError as exc:
            sock.close()
            error = exc
            continue
        return sock
    raise error


async def open_tunnel(via: Route, host: str, port: int) -> socket.socket:
    """A socket to the proxy of ``via`` on which ``CONNECT host:port`` succeeded: bytes written
    to it reach the origin (TLS is set up by the caller). Failures raise ``OSError``, naming the
    proxy and the status it answered, never its bytes."""
    assert via.proxy is not None
    loop = asyncio.get_running_loop()
    sock = await _open_socket(*via.proxy)
    try:
        target = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        lines = [f"CONNECT {target} HTTP/1.1", f"Host: {target}"]
        if via.authorization:
            lines.append(f"Proxy-Authorization: {via.authorization}")
        await loop.sock_sendall(sock, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        answer = bytearray()
        while b"\r\n\r\n" not in answer:  # the origin says nothing before the client's hello
            data = await loop.sock_recv(sock, 4096)
            if not data:
                raise ConnectionError(f"the proxy {via.proxy_origin} closed the CONNECT")
            answer += data
            if len(answer) > MAX_PROXY_HEAD:
                raise ConnectionError(f"the proxy {via.proxy_origin} does not speak HTTP/1.x")
        status = answer.split(b"\r\n", 1)[0].split(b" ")
        code = status[1][:3] if len(status) > 1 and status[0].startswith(b"HTTP/1.") else b""
        if not (code.isdigit() and code.startswith(b"2")):
            shown = f"HTTP {code.decode()}" if code.isdigit() else "no HTTP status"
            raise ConnectionError(f"the proxy {via.proxy_origin} refused CONNECT ({shown})")
    except BaseException:
        sock.close()
        raise
    return sock
