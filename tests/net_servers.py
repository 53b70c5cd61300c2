"""Loopback servers for the network policy's tests (issue 31): a forward proxy, a listener that
records what reaches it, misbehaving peers, and a test CA with certificates it signs."""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import ssl
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stub_server import StubConfig, StubServer, ThreadedServer

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
HIDDEN = "endpoint.invalid"
"""A name no resolver knows: an endpoint named so is reachable only through the test proxy."""


class Background(ThreadedServer):
    """An asyncio server for ``handler`` on 127.0.0.1, run from a thread (``with`` block)."""

    def __init__(self, handler: Handler, tls: ssl.SSLContext | None = None) -> None:
        super().__init__()
        self.handler, self.tls = handler, tls
        self.connections = 0
        self.received = bytearray()
        """Every byte any client sent (a listener that must never hear the key)."""

    async def serve(self) -> asyncio.Server:
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", 0, ssl=self.tls)
        self.port = self._server.sockets[0].getsockname()[1]
        return self._server

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            await self.handler(_Recording(reader, self.received), writer)  # type: ignore[arg-type]
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            pass
        finally:
            writer.close()


class _Recording:
    """A stream reader that keeps a copy of what it reads."""

    def __init__(self, reader: asyncio.StreamReader, sink: bytearray) -> None:
        self._reader, self._sink = reader, sink

    async def read(self, n: int = -1) -> bytes:
        data = await self._reader.read(n)
        self._sink += data
        return data

    async def readuntil(self, separator: bytes = b"\n") -> bytes:
        data = await self._reader.readuntil(separator)
        self._sink += data
        return data

    async def readexactly(self, n: int) -> bytes:
        data = await self._reader.readexactly(n)
        self._sink += data
        return data


async def read_request(reader: Any) -> tuple[str, str, dict[str, str], bytes]:
    """Method, target, headers (lower-case names) and body of one request."""
    head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
    lines = head.split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    body = await reader.readexactly(length) if length else b""
    return method, target, headers, body


@dataclass
class Proxy:
    """A forward proxy: absolute-form requests forwarded in origin form, ``CONNECT`` tunnelled.
    :data:`HIDDEN` resolves to 127.0.0.1 here only. ``seen``: (method, target) of each request."""

    seen: list[tuple[str, str]] = field(default_factory=list)
    credentials: set[str] = field(default_factory=set)
    """``Proxy-Authorization`` values received (never forwarded)."""

    async def handle(self, reader: Any, writer: asyncio.StreamWriter) -> None:
        method, target, headers, body = await read_request(reader)
        self.seen.append((method, target))
        self.credentials.add(headers.get("proxy-authorization", ""))
        if method == "CONNECT":
            host, _, port = target.rpartition(":")
            up_reader, up_writer = await asyncio.open_connection(_resolve(host), int(port))
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            await _pipe_both(reader, writer, up_reader, up_writer)
            return
        scheme, _, rest = target.partition("://")
        assert scheme == "http", target  # absolute form, or this is no proxy request
        authority, _, path = rest.partition("/")
        host, _, port = authority.rpartition(":")
        up_reader, up_writer = await asyncio.open_connection(_resolve(host), int(port))
        up_writer.write(_head(method, "/" + path, headers) + body)

        async def requests() -> None:  # later requests on this connection: same origin
            while True:
                method, target, headers, body = await read_request(reader)
                self.seen.append((method, target))
                self.credentials.add(headers.get("proxy-authorization", ""))
                path = "/" + target.partition("://")[2].partition("/")[2]
                up_writer.write(_head(method, path, headers) + body)

        await _first_done(requests(), _copy(up_reader, writer))
        up_writer.close()


def _resolve(host: str) -> str:
    return "127.0.0.1" if host in (HIDDEN, "127.0.0.1") else host


def _head(method: str, path: str, headers: dict[str, str]) -> bytes:
    lines = [f"{method} {path} HTTP/1.1"]
    lines += [f"{k}: {v}" for k, v in headers.items() if k != "proxy-authorization"]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def _copy(reader: Any, writer: asyncio.StreamWriter) -> None:
    while data := await reader.read(65536):
        writer.write(data)
        await writer.drain()


async def _first_done(*jobs: Awaitable[None]) -> None:
    tasks = [asyncio.ensure_future(job) for job in jobs]
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.exception()  # a side that ended by its peer closing: retrieved, not raised
    finally:
        for task in tasks:
            task.cancel()


async def _pipe_both(reader: Any, writer: Any, up_reader: Any, up_writer: Any) -> None:
    await _first_done(_copy(reader, up_writer), _copy(up_reader, writer))
    up_writer.close()


class TLSStub(StubServer):
    """The project's stub behind TLS (``context``: the server's certificate)."""

    def __init__(self, context: ssl.SSLContext, config: StubConfig | None = None) -> None:
        super().__init__(config)
        self.context = context

    async def serve(self) -> asyncio.Server:
        self._server = await asyncio.start_server(
            self._connection, "127.0.0.1", self.port, ssl=self.context
        )
        self.port = self._server.sockets[0].getsockname()[1]
        return self._server


def make_ca(folder: Path) -> tuple[Path, ssl.SSLContext]:
    """A test CA (its certificate as ``ca.pem`` in ``folder``) and a server context whose
    certificate it signed, for 127.0.0.1 and :data:`HIDDEN`."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)

    def build(subject: str, issuer: x509.Name, public: Any) -> x509.CertificateBuilder:
        return (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, subject)]))
            .issuer_name(issuer)
            .public_key(public)
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
        )

    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "atlas test CA")])
    ca = (
        build("atlas test CA", ca_name, ca_key.public_key())
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(False, False, False, False, False, True, True, False, False), True
        )
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    names = [x509.DNSName(HIDDEN), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    leaf = (
        build("atlas test endpoint", ca_name, key.public_key())
        .add_extension(x509.SubjectAlternativeName(names), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    pem = serialization.Encoding.PEM
    ca_path, cert_path, key_path = folder / "ca.pem", folder / "leaf.pem", folder / "leaf.key"
    ca_path.write_bytes(ca.public_bytes(pem))
    cert_path.write_bytes(leaf.public_bytes(pem))
    key_path.write_bytes(
        key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert_path, key_path)
    return ca_path, context
