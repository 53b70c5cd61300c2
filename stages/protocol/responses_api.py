"""The OpenAI Responses API as a second protocol (``model.api: responses``, issue 33): the chat
body the plan builds (:mod:`stages.inference.requests`) said in the Responses API's words.

The request fields follow OpenAI's reference for ``POST /v1/responses``
(https://developers.openai.com/api/reference/resources/responses/methods/create) and its
function-calling guide (https://developers.openai.com/api/docs/guides/function-calling):

- each chat message becomes one input item with the same role; text parts become
  ``input_text`` (``output_text`` in an assistant turn) and ``image_url`` parts ``input_image``
  with the same data URI; an assistant message's tool calls become ``function_call`` items and a
  ``tool`` message a ``function_call_output`` item, keyed by the same call id;
- ``max_tokens`` becomes ``max_output_tokens``; ``temperature``, ``top_p``, ``stream`` and
  ``model`` keep their names; ``tool_choice`` (``"auto"``) is the same word;
- a chat tool ``{"type": "function", "function": {name, description, parameters}}`` becomes the
  flat ``{"type": "function", name, description, parameters, strict}``, with ``strict: false``
  unless the chat tool asked for it: the Responses API enforces the schema by default, chat
  completions do not, and the same tools must mean the same thing in both protocols;
- ``seed`` and ``stream_options`` are not sent: the Responses API has neither (usage always
  comes with ``response.completed``), and a strict server refuses a parameter it does not know;
- ``store: false``: an evaluation leaves no stored response behind at the provider.
"""

from __future__ import annotations

from typing import Any

PATH = "/responses"
"""Where Responses requests go, under the endpoint's ``/v1`` base URL."""
CHAT_PATH = "/chat/completions"

_DROPPED = ("seed", "stream_options", "messages", "max_tokens", "tools")


def path_for(api: str) -> str:
    """The request path of protocol ``api`` (``model.api``)."""
    return PATH if api == "responses" else CHAT_PATH


def speaks_responses(url: str) -> bool:
    """Whether a request to ``url`` is a Responses-API request (its answer is read as one)."""
    return url.rstrip("/").endswith(PATH)


def _part(part: dict[str, Any], role: str) -> dict[str, Any]:
    """One content part in the Responses API's words."""
    kind = part.get("type")
    if kind == "text":
        kind = "output_text" if role == "assistant" else "input_text"
        return {"type": kind, "text": part["text"]}
    if kind == "image_url":
        image = part["image_url"]
        url = image["url"] if isinstance(image, dict) else image
        return {"type": "input_image", "image_url": url, "detail": "auto"}
    return dict(part)  # already a Responses part, or one this translation does not know


def input_items(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The ``input`` list that says what ``messages`` say."""
    items: list[dict[str, Any]] = []
    for message in messages:
        role = message["role"]
        if role == "tool":
            output = message.get("content") or ""
            items.append(
                {"type": "function_call_output", "call_id": message.get("tool_call_id"),
                 "output": output if isinstance(output, str) else str(output)}
            )  # fmt: skip
            continue
        content = message.get("content")
        if isinstance(content, list):
            content = [_part(part, role) for part in content]
        if content or not message.get("tool_calls"):  # a call-only turn has no message item
            items.append({"type": "message", "role": role, "content": content or ""})
        for call in message.get("tool_calls") or ():
            function = call.get("function") or {}
            items.append(
                {"type": "function_call", "call_id": call.get("id"),
                 "name": function.get("name"), "arguments": function.get("arguments") or ""}
            )  # fmt: skip
    return items


def function_tool(tool: dict[str, Any]) -> dict[str, Any]:
    """A chat-completions tool in the Responses API's flat shape."""
    if tool.get("type") != "function" or "function" not in tool:
        return dict(tool)
    function = tool["function"]
    flat: dict[str, Any] = {"type": "function", "name": function["name"]}
    for key in ("description", "parameters"):
        if key in function:
            flat[key] = function[key]
    flat["strict"] = bool(function.get("strict", False))
    return flat


def responses_body(chat: dict[str, Any]) -> dict[str, Any]:
    """The Responses-API request that asks what the chat body ``chat`` asks."""
    body = {key: value for key, value in chat.items() if key not in _DROPPED}
    body["input"] = input_items(chat.get("messages") or [])
    if "max_tokens" in chat:
        body["max_output_tokens"] = chat["max_tokens"]
    if chat.get("tools"):
        body["tools"] = [function_tool(tool) for tool in chat["tools"]]
    body["store"] = False
    return body


def output_limit_key(body: dict[str, Any]) -> str:
    """The field of ``body`` that limits the answer's tokens, whichever protocol it speaks."""
    return "max_output_tokens" if "input" in body and "messages" not in body else "max_tokens"


def conversation_key(body: dict[str, Any]) -> str:
    """The field of ``body`` that holds the conversation: ``input`` or ``messages``."""
    return "input" if "input" in body and "messages" not in body else "messages"
