"""Dataset rows to chat-completions request bodies (spec 001, "Row schemas"; issue 3).

- eval rows: ``prompt`` becomes one user message, ``messages`` are sent as they are;
  ``meta.tools`` goes out as ``tools`` with ``tool_choice: "auto"``; ``image`` (a path inside the
  dataset directory) is attached to the last user message as a data-URI image part.
- long-context rows (``meta.haystack`` holds a recipe): the last user message is
  ``build_prompt(recipe)`` from ``haystack-v1/build.py`` — the document plus the question, never
  the question alone (see :mod:`stages.inference.longctx`).
- prompts rows: ``shared_prefix``, when set, is sent as a leading system message.
- haystack rows: the built prompt as the one user message.
"""

from __future__ import annotations

import base64
import mimetypes
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from stages.errors import AtlasError
from stages.inference.longctx import longctx_prompt


@dataclass(frozen=True)
class Sampling:
    """Everything a body carries besides the row: the same for every request of a run."""

    model: str
    temperature: float
    top_p: float
    max_tokens: int
    seed: int | None
    stream: bool
    extra: dict[str, Any] = field(default_factory=dict)
    """Fields sent only when set (:func:`engine_fields`): the engine's neutral sampling knobs and
    the reasoning controls, under the names the engine reads. Empty: the body of a run before
    they existed, byte for byte."""

    def fields(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.model,
            "temperature": self.temperature,
            "top_p": self.top_p,
            "max_tokens": self.max_tokens,
            "stream": self.stream,
        }
        if self.seed is not None:
            body["seed"] = self.seed
        if self.stream:
            # usage on the last event: the engine's token counts (some servers still omit it,
            # then llama.cpp's ``timings`` or the counted deltas stand in: definitions.py)
            body["stream_options"] = {"include_usage": True}
        if "max_completion_tokens" in self.extra:  # OpenAI's reasoning models refuse both
            del body["max_tokens"]
        body.update(self.extra)
        return body


def engine_fields(
    neutral: dict[str, Any], controls: dict[str, Any], budget_name: str
) -> dict[str, Any]:
    """The extra body fields: ``neutral`` sampling knobs, then the reasoning ``controls`` that
    are set (params names; the thinking budget renamed ``budget_name``, the engine's own)."""
    out = dict(neutral)
    for name, value in controls.items():
        out[budget_name if name == "thinking_token_budget" else name] = value
    return out


def image_part(dataset_dir: Path, relpath: str, where: str) -> dict[str, Any]:
    """The image as an OpenAI ``image_url`` part; the path must stay inside the dataset dir."""
    root = dataset_dir.resolve()
    path = (root / relpath).resolve()
    if not path.is_relative_to(root):
        raise AtlasError(f"{where}: image: {relpath!r} leaves the dataset directory {root}")
    if not path.is_file():
        raise AtlasError(f"{where}: image: {path} does not exist")
    mime = mimetypes.guess_type(path.name)[0]
    if mime is None or not mime.startswith("image/"):
        raise AtlasError(f"{where}: image: {relpath!r} is not an image file")
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return {"type": "image_url", "image_url": {"url": f"data:{mime};base64,{data}"}}


def _last_user(messages: list[dict[str, Any]], where: str) -> dict[str, Any]:
    for message in reversed(messages):
        if message["role"] == "user":
            return message
    raise AtlasError(f"{where}: messages: no user message to carry the item")


def eval_messages(
    row: dict[str, Any], dataset_id: str, dataset_dir: Path, datasets_root: Path, where: str
) -> list[dict[str, Any]]:
    if row.get("prompt") is not None:
        messages = [{"role": "user", "content": row["prompt"]}]
    else:
        messages = [dict(m) for m in row["messages"]]
    meta = row.get("meta") or {}
    recipe = meta.get("haystack")
    if recipe is not None or dataset_id.startswith("eval-longctx-"):
        last = _last_user(messages, where)
        last["content"] = longctx_prompt(recipe, last["content"], datasets_root, where)
    if row.get("image") is not None:
        last = _last_user(messages, where)
        text = {"type": "text", "text": last["content"]}
        last["content"] = [text, image_part(dataset_dir, row["image"], where)]
    return messages


def build_body(
    row: dict[str, Any],
    kind: str,
    dataset_id: str,
    dataset_dir: Path,
    sampling: Sampling,
    where: str,
) -> dict[str, Any]:
    """The exact JSON body sent for ``row`` (``where`` names the row in error messages)."""
    datasets_root = dataset_dir.parent
    body = sampling.fields()
    if kind == "prompts":
        messages = [dict(m) for m in row["messages"]]
        if row.get("shared_prefix") is not None:
            messages.insert(0, {"role": "system", "content": row["shared_prefix"]})
    elif kind == "haystack":
        prompt = longctx_prompt(row, row["question"], datasets_root, where)
        messages = [{"role": "user", "content": prompt}]
    else:
        messages = eval_messages(row, dataset_id, dataset_dir, datasets_root, where)
        tools = (row.get("meta") or {}).get("tools")
        if tools:
            body["tools"] = tools
            body["tool_choice"] = "auto"
    body["messages"] = messages
    return body
