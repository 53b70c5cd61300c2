"""Where an answer came from, per journal record, and when a journaled answer may be reused.

Every record carries ``provenance``: what the endpoint showed about itself when it answered.

- ``endpoint``: the public URL the request went to (no credentials); ``embedded:<gguf file>``
  for the packaged model, whose loopback port changes from run to run.
- ``chat_template_sha256``: sha256 of the chat template the endpoint serves, where it can be
  seen: the template the embedded server applies (the preset's ``model.chat_template`` file,
  else the GGUF's ``tokenizer.chat_template``), llama.cpp's ``/props``; else null.
- ``system_fingerprint``: the OpenAI-style backend fingerprint the answer carried, or null.
- ``engine``: for the embedded model, the id of its engine build and settings
  (:mod:`stages.engine.build`); null for a remote endpoint.
- ``server_defaults_sha256``: sha256 of the sampling defaults the server reported
  (:mod:`stages.inference.server_facts`: llama.cpp's ``/props``, vLLM's ``/server_info``), or
  null where it reports none.

A successful record is reused by a rerun only while the endpoint still shows the same template
and engine, and (when the record carries a fingerprint and one probe request could observe the
current one) the same fingerprint, and (when the record carries a defaults hash and the endpoint
reports its defaults now) the same sampling defaults. The URL alone is not part of the rule:
the same pinned model behind another URL is the same model, and the manifest counts the records
of each endpoint.
A record written before provenance existed has none: it counts as "unknown" everywhere.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Any

FIELDS = (
    "endpoint",
    "chat_template_sha256",
    "system_fingerprint",
    "engine",
    "server_defaults_sha256",
)


@dataclass(frozen=True)
class Observed:
    """What the endpoint shows about itself now."""

    templates: frozenset[str | None]
    """Template hash of each URL (null where none can be seen)."""
    engine: str | None
    """Engine id of the embedded server; null for remote endpoints."""
    fingerprints: frozenset[str | None] | None = None
    """Fingerprints one probe request per URL saw; None when not observed."""
    defaults: frozenset[str] | None = None
    """Hashes of the sampling defaults the URLs report; None when none reports any (or, for the
    embedded server, before it starts: its engine id already pins its build and settings)."""


def sha256_text(text: str | None) -> str | None:
    return hashlib.sha256(text.encode("utf-8")).hexdigest() if text else None


def of(record: dict[str, Any]) -> dict[str, Any]:
    """A record's provenance with every field present (all null for a record that has none)."""
    given = record.get("provenance") or {}
    return {name: given.get(name) for name in FIELDS}


def _short(value: str | None) -> str:
    return "none" if value is None else value[:12]


def drift(record: dict[str, Any], now: Observed) -> str | None:
    """Why ``record`` may no longer stand for what the endpoint answers now; None if it may."""
    made = of(record)
    template = made["chat_template_sha256"]
    if template not in now.templates:
        served = ", ".join(sorted(_short(t) for t in now.templates))
        return f"chat template {_short(template)} (the endpoint now serves {served})"
    if made["engine"] != now.engine:
        return f"engine {_short(made['engine'])} (now {_short(now.engine)})"
    fingerprint = made["system_fingerprint"]
    seen = now.fingerprints
    if fingerprint is not None and seen is not None and fingerprint not in seen:
        return f"system_fingerprint {fingerprint} (now {', '.join(sorted(map(str, seen)))})"
    defaults = made["server_defaults_sha256"]  # a record older than the field has none
    if defaults is not None and now.defaults is not None and defaults not in now.defaults:
        reported = ", ".join(sorted(_short(d) for d in now.defaults))
        return f"server defaults {_short(defaults)} (the endpoint now reports {reported})"
    return None


def manifest_entries(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One entry per distinct provenance with its number of records, largest first."""
    counts = Counter(tuple(of(r).values()) for r in records)
    ordered = sorted(counts.items(), key=lambda item: (-item[1], [str(v) for v in item[0]]))
    return [{**dict(zip(FIELDS, values, strict=True)), "records": n} for values, n in ordered]
