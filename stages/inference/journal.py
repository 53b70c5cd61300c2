"""The response journal ``results/<workload>/responses.jsonl`` (issue 3, "Never lose, never
repeat").

One JSON line per finished request (fields in docs/formats.md#response-journal). The key of a
request is the sha256 of the canonical JSON of (model name, revision, decoding, request body,
repeat index), so a different model or setting never reuses an answer; ``run_key`` hashes
(model name, revision, decoding) and tells runs apart inside one file. "decoding" is the dict in
the manifest: temperature, top_p, max_tokens after the workload's override, seed, effective
repeats and stream — everything in a body that does not come from the row. The body carries the
repeat's own seed (``seed + repeat``), which the record repeats as ``seed``; ``provenance`` is
what the endpoint showed about itself (:mod:`stages.inference.provenance`).

A key may have several lines: the last one is the request's current state. A request whose last
line is a failure is sent again by the next run (unless ``--keep-failed``), and so is an answer
whose provenance no longer matches the endpoint; the new line is appended after the old one.

On open, a torn last line (a crash mid-write) is cut off and the keys present are the finished
requests, which are not sent again. Lines are written by one thread that flushes and fsyncs after
each batch it takes from the queue (group commit): at low rates that is every line, at a thousand
requests a second it keeps fsync off the event loop.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from stages.errors import AtlasError
from stages.inference.definitions import summary
from stages.io import atomic_write_bytes, disk_error, iter_jsonl

if TYPE_CHECKING:  # the HTTP client (httpx) is imported only when something is to be sent
    from stages.inference.client import Outcome

# Encoders built once: ``json.dumps`` with non-default options builds a new encoder per call,
# a measurable share of the cost for the small objects encoded per request.
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
_LINE = json.JSONEncoder(ensure_ascii=False).encode


def encode_line(record: dict[str, Any]) -> bytes:
    """One journal line: the record's JSON and a newline."""
    return _LINE(record).encode() + b"\n"


def canonical(obj: Any) -> bytes:
    """Sorted keys, no whitespace, UTF-8: equal values give equal bytes."""
    return _CANONICAL(obj).encode()


def run_key(model: str, revision: str, decoding: dict[str, Any]) -> str:
    return hashlib.sha256(canonical([model, revision, decoding])).hexdigest()


def key_prefix(model: str, revision: str, decoding: dict[str, Any]) -> bytes:
    """The part of every request key that is the same for the whole run."""
    return canonical([model, revision, decoding])[:-1]  # without the closing bracket


def request_key(prefix: bytes, body: bytes, repeat: int) -> str:
    """Key of one request: ``body`` is ``canonical(body_object)``, spliced in rather than
    re-serialised, which gives exactly the bytes of ``canonical([model, revision, decoding,
    body_object, repeat])``."""
    return hashlib.sha256(prefix + b"," + body + b"," + str(repeat).encode() + b"]").hexdigest()


def make_record(
    key: str,
    run: str,
    row_id: str,
    repeat: int,
    outcome: Outcome,
    seed: int | None,
    provenance: dict[str, Any],
) -> dict[str, Any]:
    """The journal line for one finished request."""
    answer = outcome.answer
    record: dict[str, Any] = {
        "key": key,
        "run_key": run,
        "id": row_id,
        "repeat": repeat,
        "output": answer.output if answer else "",
        "tool_calls": answer.tool_calls if answer else None,
        "finish_reason": answer.finish_reason if answer else None,
        "model": answer.model if answer else None,
        "stream_end": answer.stream_end if answer else None,
        "usage": answer.usage if answer else None,
        "timings": answer.timings if answer else None,
        "ttft_s": None,
        "latency_s": round(outcome.ended - outcome.started, 6) if answer else None,
        "itl_s": None,
        "error": outcome.error,
        "attempts": outcome.attempts,
        "seed": seed,
        "provenance": provenance,
    }
    if outcome.tries:  # only when a try failed: old journals, and most records, have none
        record["tries"] = outcome.tries
    if answer is not None and answer.first_token_at is not None:
        record["ttft_s"] = round(answer.first_token_at - outcome.started, 6)
        times = answer.token_times
        record["itl_s"] = summary([b - a for a, b in zip(times, times[1:], strict=False)])
        record["token_s"] = [round(t - outcome.started, 6) for t in times]  # issue 14: pooled ITL
        answered = answer.first_answer_at  # issue 33: the clock of the answer channel
        record["ttfa_s"] = None if answered is None else round(answered - outcome.started, 6)
    if answer is not None and answer.reasoning_channel is not None:
        record["reasoning_channel"] = answer.reasoning_channel
        if answer.reasoning:
            record["reasoning"] = answer.reasoning
        if answer.reasoning_times:
            record["reasoning_token_s"] = [
                round(t - outcome.started, 6) for t in answer.reasoning_times
            ]
    return record


def read_records(path: Path) -> list[dict[str, Any]]:
    """The journal's complete lines, read only (``--dry-run``): a torn last line is skipped, not
    cut off, and a journal DVC linked into its cache is left as it is."""
    if not path.is_file():
        return []
    data = path.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    return [json.loads(line) for line in complete.splitlines() if line.strip()]


def latest(records: list[dict[str, Any]], keys: set[str]) -> dict[str, dict[str, Any]]:
    """The last record of each key in ``keys`` (the state a rerun and scoring go by)."""
    out: dict[str, dict[str, Any]] = {}
    for record in records:
        if record["key"] in keys:
            out[record["key"]] = record
    return out


class Journal:
    """Finished records of one journal file, and an appender for new ones."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.records: list[dict[str, Any]] = []
        self._queue: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._failure: BaseException | None = None
        if path.exists():
            self._make_private()
            self._drop_torn_tail()
            for number, record in iter_jsonl(path):
                if not isinstance(record.get("key"), str):
                    raise AtlasError(f"{path}:{number}: key: missing (not a response journal?)")
                self.records.append(record)
        self.keys = {record["key"] for record in self.records}

    def _make_private(self) -> None:
        """DVC may leave a cached output as a read-only link into its cache; appending to that
        would corrupt the cache, so such a journal is first replaced by a private copy."""
        stat = self.path.lstat()
        if self.path.is_symlink() or stat.st_nlink > 1 or not os.access(self.path, os.W_OK):
            atomic_write_bytes(self.path, self.path.read_bytes())

    def _drop_torn_tail(self) -> None:
        with self.path.open("rb+") as handle:
            data = handle.read()
            if data and not data.endswith(b"\n"):
                handle.truncate(data.rfind(b"\n") + 1)

    def __enter__(self) -> Journal:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            handle = self.path.open("ab")
        except OSError as exc:
            raise disk_error(self.path, exc, "no request was sent") from exc
        self._thread = threading.Thread(target=self._write, args=(handle,), name="journal")
        self._thread.start()
        return self

    def _failed(self) -> AtlasError:
        assert isinstance(self._failure, OSError)
        kept = "the lines written before it are kept, and a rerun sends the rest"
        return disk_error(self.path, self._failure, kept)

    def append(self, record: dict[str, Any], line: bytes | None = None) -> None:
        """Journal ``record``; ``line`` is its encoded line when a sending process made it
        already (:mod:`stages.inference.senders`)."""
        if self._failure is not None:
            raise self._failed()
        self.records.append(record)
        self.keys.add(record["key"])
        self._queue.put(line if line is not None else encode_line(record))

    def _write(self, handle: Any) -> None:
        try:
            while True:
                item = self._queue.get()
                batch = [item]
                while item is not None and not self._queue.empty():
                    item = self._queue.get()
                    batch.append(item)
                try:
                    handle.write(b"".join(line for line in batch if line is not None))
                    handle.flush()
                    os.fsync(handle.fileno())
                except OSError as exc:
                    self._failure = self._failure or exc
                if batch[-1] is None:
                    return
        finally:
            try:  # a full disk fails the close too (the buffer is flushed once more)
                handle.close()
            except OSError as exc:
                self._failure = self._failure or exc

    def __exit__(self, *exc: object) -> None:
        """Drain the queue: every record appended so far is on disk when this returns."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join()
            self._thread = None
        if self._failure is not None:
            raise self._failed()
