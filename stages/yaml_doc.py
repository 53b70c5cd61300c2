"""Strict YAML documents: line numbers for every key path, duplicate keys refused, and pydantic
errors turned into ``file:line: key.path: problem`` sentences (issue 24, "Strict params").

PyYAML lets the second of two equal keys win silently and forgets where a key was written. Here
the document is composed into nodes first, so each key path (``("run", "concurrency")``, or
``("workloads", "math", "load", "rates", 2)`` for a list item) keeps the line it was written on,
a key given twice in one mapping is an error naming both lines, and only then is the document
constructed into plain data. Validation errors name the line of the deepest key path that exists
and suggest the nearest allowed key for an unknown one ("did you mean 'run'?").
"""

from __future__ import annotations

import difflib
import types
import typing
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from stages.errors import AtlasError

KeyPath = tuple[str | int, ...]


class YamlDoc:
    """A parsed document: its data and the 1-based line of each key path."""

    def __init__(self, path: Path, data: Any, lines: dict[KeyPath, int]) -> None:
        self.path = path
        self.data = data
        self.lines = lines

    def line_of(self, loc: KeyPath) -> int | None:
        """The line of ``loc``, or of its deepest ancestor written in the file."""
        for end in range(len(loc), -1, -1):
            if loc[:end] in self.lines:
                return self.lines[loc[:end]]
        return None

    def where(self, loc: KeyPath) -> str:
        line = self.line_of(loc)
        return f"{self.path}:{line}" if line else str(self.path)


def _scalar_key(node: yaml.Node) -> Any:
    return node.value if isinstance(node, yaml.ScalarNode) else repr(node)


def _walk(node: yaml.Node, path: KeyPath, lines: dict[KeyPath, int], file: Path) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key_node, value_node in node.value:
            key = _scalar_key(key_node)
            line = key_node.start_mark.line + 1
            if key in seen:
                where = f"{file}:{line}: {dotted((*path, key))}"
                raise AtlasError(
                    f"{where}: given twice (first at line {seen[key]}); "
                    "YAML would silently keep only the second: remove one"
                )
            seen[key] = line
            lines[(*path, key)] = line
            _walk(value_node, (*path, key), lines, file)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            lines[(*path, index)] = item.start_mark.line + 1
            _walk(item, (*path, index), lines, file)


def load_yaml(path: Path, text: str | None = None) -> YamlDoc:
    """Parse ``path`` (or ``text`` read from it); AtlasError naming the line on any defect."""
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise AtlasError(f"{path}: file not found") from exc
        except UnicodeDecodeError as exc:
            raise AtlasError(f"{path}: not UTF-8 (byte {exc.start})") from exc
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        lines: dict[KeyPath, int] = {}
        if node is not None:
            _walk(node, (), lines, path)
        data = loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise AtlasError(f"{path}{where}: invalid YAML: {problem}") from exc
    finally:
        loader.dispose()
    return YamlDoc(path, data, lines)


def _unwrap(annotation: Any) -> list[Any]:
    """The member types of ``X | None``, ``Optional[X]`` and plain ``X``."""
    if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
        return [a for a in typing.get_args(annotation) if a is not type(None)]
    return [annotation]


def _model_at(root: type[BaseModel], loc: KeyPath) -> type[BaseModel] | None:
    """The model class that validates the mapping at ``loc`` (for "did you mean")."""
    current: list[Any] = [root]
    for part in loc:
        following: list[Any] = []
        for kind in current:
            if isinstance(kind, type) and issubclass(kind, BaseModel):
                field = kind.model_fields.get(str(part))
                if field is not None:
                    following += _unwrap(field.annotation)
            elif typing.get_origin(kind) in (dict, list, tuple):
                args = typing.get_args(kind)
                if args:
                    following += _unwrap(args[-1] if typing.get_origin(kind) is dict else args[0])
        current = following
    models = [k for k in current if isinstance(k, type) and issubclass(k, BaseModel)]
    return models[0] if models else None


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if value is None:
        return "null"
    if isinstance(value, str):
        return repr(value) if value else "an empty string"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_TYPE_WORDS = {
    "int_type": "an integer",
    "int_parsing": "an integer",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "string_type": "a string (quote it)",
    "bool_type": "true or false",
    "list_type": "a list",
    "dict_type": "a mapping",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "tuple_type": "a list",
}


def dotted(loc: KeyPath) -> str:
    """``run.concurrency``, ``workloads.chat.load.rates[1]``."""
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def _clean_loc(loc: tuple[Any, ...], doc: YamlDoc) -> KeyPath:
    """``loc`` without pydantic's union tags (``str``, ``list[str]``, ``ModelCard``): parts that
    name a member type of a union rather than a key written in the file."""
    out: KeyPath = ()
    for part in loc:
        tag = isinstance(part, str) and (
            "[" in part or part in ("str", "int", "float", "bool", "none") or part[:1].isupper()
        )
        if tag and (*out, part) not in doc.lines:
            continue
        out = (*out, part)
    return out


def _problem(error: Any, loc: KeyPath, doc: YamlDoc, root: type[BaseModel], skip: int) -> str:
    kind = error["type"]
    if kind == "extra_forbidden":
        key = str(loc[-1])
        model = _model_at(root, loc[skip:-1])
        allowed = sorted(model.model_fields) if model is not None else []
        near = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        if not near and allowed:
            hint = f" (allowed: {', '.join(allowed)})"
        return f"unknown key{hint}"
    if kind == "missing":
        return "missing (required)"
    if kind == "string_too_short" and error.get("input") == "":
        return "must not be empty"
    if kind in _TYPE_WORDS:
        return f"expected {_TYPE_WORDS[kind]}, got {_shown(error.get('input'))}"
    return str(error["msg"]).removeprefix("Value error, ")


def describe(
    exc: ValidationError, doc: YamlDoc, root: type[BaseModel], prefix: KeyPath = ()
) -> list[str]:
    """One ``file:line: key.path: problem`` sentence per key path pydantic found a problem at,
    in file order; the members of a union are merged ("expected a string or a list")."""
    found: dict[KeyPath, list[str]] = {}
    for error in exc.errors():
        loc = _clean_loc((*prefix, *error["loc"]), doc)
        text = _problem(error, loc, doc, root, len(prefix))
        found.setdefault(loc, [])
        if text not in found[loc]:
            found[loc].append(text)
    for loc in list(found):  # a union member that failed deeper explains its own failure
        deeper = any(other[: len(loc)] == loc and other != loc for other in found)
        if deeper and all(t.startswith("expected ") for t in found[loc]):
            del found[loc]
    out = []
    for loc, texts in sorted(found.items(), key=lambda item: doc.line_of(item[0]) or 0):
        expected = [
            t.removeprefix("expected ").split(", got ") for t in texts if t.startswith("expected ")
        ]
        if len(expected) > 1:
            texts = [f"expected {' or '.join(e[0] for e in expected)}, got {expected[0][1]}"]
        out.append(f"{doc.where(loc)}: {dotted(loc)}: {'; '.join(texts)}")
    return out


def validate(model: type[BaseModel], doc: YamlDoc, data: Any = None, at: KeyPath = ()) -> Any:
    """``model`` validated from the document (or from ``data``, the node at key path ``at``);
    every problem in one AtlasError, one sentence per line."""
    try:
        return model.model_validate(doc.data if data is None else data)
    except ValidationError as exc:
        problems = describe(exc, doc, model, at)
        if len(problems) == 1:
            raise AtlasError(problems[0]) from exc
        head = f"{doc.path}: {len(problems)} problems (nothing was run):"
        raise AtlasError("\n  ".join([head, *problems])) from exc
