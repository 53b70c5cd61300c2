"""Facts about a GGUF file: its sha256 and the chat template in its metadata (issue 3).

The GGUF header is a little-endian key/value table (magic ``GGUF``, version, tensor count,
key/value count, then typed values), so reading ``tokenizer.chat_template`` needs no llama.cpp.
Hashing 98 MB takes a noticeable fraction of a second, so both facts are cached in
``~/.cache/inference-atlas/gguf.json`` keyed by path, size and modification time.
"""

from __future__ import annotations

import contextlib
import json
import mmap
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.io import atomic_write_text, sha256_file

CACHE_FILE = Path.home() / ".cache" / "inference-atlas" / "gguf.json"
_SCALARS = {
    0: "<B",
    1: "<b",
    2: "<H",
    3: "<h",
    4: "<I",
    5: "<i",
    6: "<f",
    7: "<?",
    10: "<Q",
    11: "<q",
    12: "<d",
}
_STRING, _ARRAY = 8, 9


@dataclass(frozen=True)
class GgufFacts:
    sha256: str
    chat_template: str | None


def _value(buf: Any, pos: int, vtype: int) -> tuple[Any, int]:
    if vtype == _STRING:
        (length,) = struct.unpack_from("<Q", buf, pos)
        start = pos + 8
        return bytes(buf[start : start + length]).decode("utf-8", "replace"), start + length
    if vtype == _ARRAY:
        etype, count = struct.unpack_from("<IQ", buf, pos)
        pos += 12
        if etype in _SCALARS:  # skip fixed-size arrays in one step
            return None, pos + count * struct.calcsize(_SCALARS[etype])
        for _ in range(count):
            _, pos = _value(buf, pos, etype)
        return None, pos
    fmt = _SCALARS[vtype]
    return struct.unpack_from(fmt, buf, pos)[0], pos + struct.calcsize(fmt)


def read_metadata_string(path: Path, wanted: str) -> str | None:
    """The string value of metadata key ``wanted``, or None when the file does not have it."""
    with path.open("rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        try:
            magic, version = struct.unpack_from("<4sI", buf, 0)
            if magic != b"GGUF" or version < 2:
                raise AtlasError(f"{path}: not a GGUF v2+ file")
            _, kv_count = struct.unpack_from("<QQ", buf, 8)
            pos = 24
            for _ in range(kv_count):
                key, pos = _value(buf, pos, _STRING)
                (vtype,) = struct.unpack_from("<I", buf, pos)
                value, pos = _value(buf, pos + 4, vtype)
                if key == wanted:
                    return value if isinstance(value, str) else None
        except (struct.error, KeyError) as exc:
            raise AtlasError(f"{path}: corrupt GGUF metadata ({exc})") from exc
    return None


def gguf_facts(path: Path, cache_file: Path = CACHE_FILE) -> GgufFacts:
    """sha256 and chat template of ``path``, from the cache when the file has not changed."""
    stat = path.stat()
    entry_key = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    try:
        cache = json.loads(cache_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cache = {}
    if not isinstance(cache, dict):
        cache = {}
    hit = cache.get(entry_key)
    if isinstance(hit, dict) and isinstance(hit.get("sha256"), str):
        return GgufFacts(hit["sha256"], hit.get("chat_template"))
    facts = GgufFacts(sha256_file(path), read_metadata_string(path, "tokenizer.chat_template"))
    cache = {k: v for k, v in cache.items() if not k.startswith(f"{path.resolve()}|")}
    cache[entry_key] = {"sha256": facts.sha256, "chat_template": facts.chat_template}
    with contextlib.suppress(OSError):  # a read-only home only costs a rehash next time
        atomic_write_text(cache_file, json.dumps(cache, indent=1, sort_keys=True))
    return facts
