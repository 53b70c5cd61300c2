"""Forms of an API key as a server may echo it, drawn with hypothesis, and an oracle that reads
a text in each form (JSON escapes undone up to three times, percent-decoded, every base64 run
decoded at every offset) to tell whether the key can be read back from it. The oracle does not
use :mod:`stages.network.scrubber`: it is what the scrubber is checked against."""

from __future__ import annotations

import base64
import json
import re
from urllib.parse import unquote, unquote_plus

from hypothesis import strategies as st

KEYS = st.text(st.characters(exclude_categories=("Cs",)), min_size=8, max_size=48)
ASCII_KEYS = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), min_size=8, max_size=48)
TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=60)
_SHORT = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n",
          "\r": "\\r", "\t": "\\t"}  # fmt: skip
_UNRESERVED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")


def _hex(value: int, width: int, upper: bool) -> str:
    text = f"{value:0{width}x}"
    return text.upper() if upper else text


@st.composite
def json_escaped(draw: st.DrawFn, key: str) -> str:
    """``key`` as a JSON encoder may write it: each character as itself where JSON allows it,
    a short escape where it has one, or ``\\uXXXX`` (a surrogate pair past U+FFFF)."""
    out = []
    for c in key:
        ways = [] if c in '"\\' or ord(c) < 0x20 else [c]
        if c in _SHORT:
            ways.append(_SHORT[c])
        upper = draw(st.booleans())
        units = c.encode("utf-16-be", "surrogatepass")
        ways.append("".join("\\u" + _hex(int.from_bytes(units[i : i + 2]), 4, upper)
                            for i in range(0, len(units), 2)))  # fmt: skip
        out.append(draw(st.sampled_from(ways)))
    return "".join(out)


@st.composite
def url_encoded(draw: st.DrawFn, key: str) -> str:
    """``key`` percent-encoded, hex digits in either case, a space as ``+`` or ``%20``, the
    unreserved characters as themselves or encoded."""
    out = []
    for c in key:
        upper = draw(st.booleans())
        ways = ["".join("%" + _hex(b, 2, upper) for b in c.encode("utf-8"))]
        if c in _UNRESERVED:
            ways.append(c)
        if c == " ":
            ways.append("+")
        out.append(draw(st.sampled_from(ways)))
    return "".join(out)


@st.composite
def base64_blob(draw: st.DrawFn, key: str) -> str:
    """A base64 blob (either alphabet, padded or not) of bytes holding ``key`` at any offset."""
    before, after = draw(st.binary(max_size=7)), draw(st.binary(max_size=7))
    blob = base64.b64encode(before + key.encode() + after).decode()
    if draw(st.booleans()):
        blob = blob.replace("+", "-").replace("/", "_")
    return blob.rstrip("=") if draw(st.booleans()) else blob


def forms(key: str) -> st.SearchStrategy[str]:
    return st.one_of(
        st.just(key), json_escaped(key), url_encoded(key), base64_blob(key),
        st.just(json.dumps(key)[1:-1]), st.just(json.dumps(key, ensure_ascii=False)[1:-1]),
    )  # fmt: skip


def _json_unescaped(text: str) -> str:
    def one(found: re.Match[str]) -> str:
        token = found.group(1)
        if token[0] == "u":
            return chr(int(token[1:], 16))
        return json.loads(f'"\\{token}"')  # type: ignore[no-any-return]

    joined = re.sub(r'\\(u[0-9a-fA-F]{4}|["\\/bfnrt])', one, text)
    return joined.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _base64_holds(text: str, key: bytes) -> bool:
    """Whether any run of base64 characters in ``text``, at any offset, decodes to the key."""
    for alphabet in (r"[A-Za-z0-9+/]+", r"[A-Za-z0-9\-_]+"):
        for run in re.findall(alphabet, text):
            run = run.replace("-", "+").replace("_", "/")
            for start in range(4):
                part = run[start:]
                part = part[: len(part) - (len(part) % 4 == 1)]  # a lone last character: no byte
                if key in base64.b64decode(part + "=" * (-len(part) % 4)):
                    return True
    return False


def holds(text: str, key: str) -> bool:
    """Whether ``text`` read in any of the forms gives the key back (JSON text inside JSON text,
    as a tool call's arguments are, is unescaped once per level)."""
    levels = [text]
    for _ in range(3):
        levels.append(_json_unescaped(levels[-1]))
    for level in dict.fromkeys(levels):
        if any(key in r for r in (level, unquote(level), unquote_plus(level))):
            return True
        if _base64_holds(level, key.encode()):
            return True
    return False
