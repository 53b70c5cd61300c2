"""Secrets (the API key) removed from everything a server sends, in every form it may take
(issue 31, "Secrets at one boundary").

A server may echo the key anywhere: answer text, error bodies, ``system_fingerprint``, the
``model`` it names, tool calls, ``usage``, ``/props``. And not only as it was sent: a JSON
encoder may write any character as ``\\uXXXX`` (either case of hex digit, a surrogate pair past
U+FFFF), ``/`` as ``\\/`` and quotes, backslashes and control characters as short escapes; a URL
percent-encodes bytes (either case) and writes a space as ``+``; JSON text inside a JSON string
(a tool call's arguments) doubles each escape's backslash; base64 (standard or URL-safe
alphabet) turns it into other characters altogether, depending on where the key starts in the
encoded bytes.

Each key therefore becomes a set of *plain forms*: the key itself and its base64 *cores*. A core
is the run of characters that only the key's bits decide when the key starts at byte offset 0, 1
or 2 of a three-byte group: ``base64(pad + key)`` without the characters the ``pad`` bytes or the
bytes after the key touch. Any base64 text that holds the key holds one of the three cores of its
alphabet, whatever precedes or follows. Cores shorter than :data:`MIN_BASE64_CORE` characters
(keys of fewer than 6 bytes) are left out: they would match ordinary text. Each character of a
plain form then matches as itself, JSON-escaped in any way, or percent-encoded, so one regular
expression finds every form, and mixtures of them, in ``str`` and in ``bytes``.

Every match becomes ``***``; the scrub repeats until nothing matches (a replacement can join two
halves of a key that were apart), so the result contains no form of any key. :meth:`Scrubber.value`
does the same to every string of a JSON value, dict keys included, recursively.
"""

from __future__ import annotations

import base64
import functools
import re
from collections.abc import Iterable, Sequence
from typing import Any, overload

SCRUBBED = "***"
"""What a form of a secret is replaced with."""
MIN_BASE64_CORE = 6
"""Shortest base64 core looked for: shorter ones would match ordinary text."""
_SHORT_ESCAPES = {
    '"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
    "\t": "\\t",
}  # fmt: skip


def _hex(value: int, width: int) -> str:
    """A pattern for ``value`` in ``width`` hex digits, each letter in either case."""
    return "".join(f"[{d}{d.upper()}]" if d.isalpha() else d for d in f"{value:0{width}x}")


def _char(c: str) -> str:
    """A pattern for one character as text may carry it: itself, JSON-escaped, percent-encoded."""
    ways = [re.escape(c), "".join("%" + _hex(b, 2) for b in c.encode("utf-8", "surrogatepass"))]
    code = ord(c)
    # An escape's backslash may be escaped again (JSON text inside a JSON string: a tool call's
    # arguments), so one or more backslashes start it.
    if code > 0xFFFF:  # JSON writes it as a UTF-16 surrogate pair
        high, low = 0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)
        ways.append(r"\\+u" + _hex(high, 4) + r"\\+u" + _hex(low, 4))
    else:
        ways.append(r"\\+u" + _hex(code, 4))
    if c in _SHORT_ESCAPES:
        ways.append(r"\\+" + re.escape(_SHORT_ESCAPES[c][1]))
    if c == " ":
        ways.append(r"\+")
    return "(?:" + "|".join(ways) + ")"


def base64_cores(data: bytes) -> list[str]:
    """The characters of ``data``'s base64 encoding that do not depend on its neighbours, for
    each of the three offsets it may start at and both alphabets (duplicates removed)."""
    cores: list[str] = []
    for offset in range(3):
        start, end = -(-8 * offset // 6), 8 * (offset + len(data)) // 6
        encoded = base64.b64encode(bytes(offset) + data).decode()[start:end]
        for core in (encoded, encoded.replace("+", "-").replace("/", "_")):
            if len(core) >= MIN_BASE64_CORE and core not in cores:
                cores.append(core)
    return cores


def plain_forms(secret: str) -> list[str]:
    """The key and its base64 cores: the forms whose characters may each be escaped."""
    return [secret, *base64_cores(secret.encode("utf-8", "surrogatepass"))]


class Scrubber:
    """Removes every form of the given secrets from texts, bytes and JSON values."""

    def __init__(self, secrets: Iterable[str]) -> None:
        forms = sorted({f for s in secrets if s for f in plain_forms(s)}, key=len, reverse=True)
        pattern = "|".join("".join(_char(c) for c in form) for form in forms)
        # What a match can start with (a form's first character, or an escape's first one),
        # looked ahead for: the regex engine then skips along the text at the speed of a
        # character class instead of trying every form at every position (~4x faster).
        first = {form[0] for form in forms} | {"%", "\\", "+"}
        starts = "".join(re.escape(c) for c in sorted(first))
        starts_bytes = b"".join(
            re.escape(bytes([c.encode("utf-8", "surrogatepass")[0]])) for c in sorted(first)
        )
        encoded = pattern.encode("utf-8", "surrogatepass")
        self._text = re.compile(f"(?=[{starts}])(?:{pattern})") if forms else None
        self._bytes = (
            re.compile(b"(?=[" + starts_bytes + b"])(?:" + encoded + b")") if forms else None
        )

    def __bool__(self) -> bool:
        return self._text is not None

    @overload
    def __call__(self, data: str) -> str: ...
    @overload
    def __call__(self, data: bytes) -> bytes: ...
    def __call__(self, data: str | bytes) -> str | bytes:
        """``data`` with every form of every secret replaced by ``***``, until none is left."""
        if isinstance(data, str):
            pattern, mark = self._text, SCRUBBED
            if pattern is None:
                return data
            while True:
                done = pattern.sub(mark, data)
                if done == data or len(done) >= len(data):  # the length bound ends the loop
                    return done
                data = done
        if self._bytes is None:
            return data
        while True:
            scrubbed = self._bytes.sub(SCRUBBED.encode(), data)
            if scrubbed == data or len(scrubbed) >= len(data):
                return scrubbed
            data = scrubbed

    def found(self, data: str | bytes) -> bool:
        """Whether ``data`` holds any form of a secret."""
        if isinstance(data, str):
            return self._text is not None and self._text.search(data) is not None
        return self._bytes is not None and self._bytes.search(data) is not None

    def value(self, value: Any) -> Any:
        """A JSON value with every string in it scrubbed (dict keys too), recursively."""
        if not self or value is None or isinstance(value, bool | int | float):
            return value
        if isinstance(value, str):
            return self(value)
        if isinstance(value, dict):
            return {self(str(k)): self.value(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.value(v) for v in value]
        return self(str(value))


@functools.lru_cache(maxsize=16)
def _cached(secrets: tuple[str, ...]) -> Scrubber:
    return Scrubber(secrets)


def scrubber(secrets: Sequence[str]) -> Scrubber:
    """The scrubber of ``secrets`` (built once per set: compiling the pattern is the cost)."""
    return _cached(tuple(secrets))


def scrub(text: str, secrets: Sequence[str]) -> str:
    """``text`` with every form of every secret replaced by ``***``."""
    return scrubber(secrets)(text)


def scrub_value(value: Any, secrets: Sequence[str]) -> Any:
    """A JSON value with every form of every secret removed from each of its strings."""
    return scrubber(secrets).value(value)


def excerpt(data: bytes | str, limit: int, secrets: Sequence[str], as_repr: bool = False) -> str:
    """The first ``limit`` characters (bytes, for ``as_repr``) of ``data``, scrubbed first: a
    secret cut in two by the limit would otherwise leave a piece of itself in the excerpt."""
    clean = scrubber(secrets)
    if isinstance(data, bytes):
        cut = clean(data)[:limit]
        return repr(cut) if as_repr else cut.decode("utf-8", "replace")
    text = clean(data)[:limit]
    return repr(text) if as_repr else text
