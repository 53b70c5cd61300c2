"""Every command the docs show must exist (issue 22): the checker behind ``test_docs.py``.

README.md and docs/*.md show shell commands in fenced ``sh`` blocks and name commands inline
(`` `atlas infer --dry-run` ``). :func:`shown_commands` finds both; :func:`problems` checks each
against the real tools, never against a list kept by hand:

* ``atlas …`` against the Typer app itself: the subcommand path must exist; a command in a code
  block must parse as a whole with the CLI's own parser (options, choices, types, required
  arguments), and an inline one must name only options its subcommand has (inline mentions may
  use placeholders such as ``<w>`` or ``ID`` and may stop at ``…``);
* ``dvc …`` with DVC's own argument parser (the installed version);
* ``make T``: T is a target of the Makefile;
* ``python SCRIPT`` (also ``.venv/bin/python``): the script exists;
* a few shell built-ins and tools the project does not own (``export``, ``source``, ``git``,
  ``pip``, ``apt-get``) pass as they are. Any other program in a code block is a problem, so a
  new kind of command cannot slip into the docs unchecked.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
SHELL_LANGUAGES = {"sh", "bash", "shell", "console"}
INLINE_PROGRAMS = {"atlas", "dvc", "make"}
NOT_OURS = {"export", "source", "git", "pip", "apt-get"}
PYTHONS = {"python", "python3", ".venv/bin/python"}
ELLIPSES = {"…", "..."}
SEPARATORS = {"&&", "||", ";", "|", "&"}
FENCE = re.compile(r"^(`{3,}|~{3,})\s*([\w+-]*)")
INLINE = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
BARE_OPTION = re.compile(r"^(--[a-z][a-z0-9-]*)(?:[ =].*)?$")


@dataclass(frozen=True)
class Shown:
    """One command as a page shows it."""

    where: str
    """``file:line`` of the command."""
    argv: tuple[str, ...]
    """The command split as the shell would split it (comments and separators removed)."""
    block: bool
    """True for a command in a code block (checked whole), False for an inline mention."""

    @property
    def text(self) -> str:
        return shlex.join(self.argv)


def fenced_blocks(text: str) -> Iterator[tuple[int, str, list[str]]]:
    """(first line number, language, lines) of every fenced code block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        fence, language, start = opening.group(1), opening.group(2), i + 1
        i += 1
        body: list[str] = []
        while i < len(lines) and not lines[i].startswith(fence):
            body.append(lines[i])
            i += 1
        yield start + 1, language, body
        i += 1


def split_commands(line: str) -> list[list[str]]:
    """A shell line as commands: comments dropped, split on ``&&``, ``;``, ``|`` ..."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    commands: list[list[str]] = [[]]
    for token in lexer:
        if token in SEPARATORS:
            commands.append([])
        else:
            commands[-1].append(token)
    return [c for c in commands if c]


def shown_commands(path: Path) -> list[Shown]:
    """Every command of a Markdown page: code-block lines of a shell block, and inline code that
    starts with ``atlas``, ``dvc`` or ``make`` and names more than the program."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else path.name
    found: list[Shown] = []
    in_block: set[int] = set()
    for first, language, body in fenced_blocks(text):
        in_block.update(range(first - 1, first + len(body) + 1))
        if language not in SHELL_LANGUAGES:
            continue
        logical, start = "", first
        for offset, raw in enumerate(body):
            if not logical:
                start = first + offset
            logical += raw[:-1] + " " if raw.endswith("\\") else raw
            if raw.endswith("\\"):
                continue
            for argv in split_commands(logical):
                found.append(Shown(f"{name}:{start}", tuple(argv), True))
            logical = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if number in in_block:
            continue
        for span in INLINE.findall(line):
            words = span.split()
            if len(words) > 1 and words[0] in INLINE_PROGRAMS:
                with contextlib.suppress(ValueError):  # an unbalanced quote is prose, not a command
                    found.append(Shown(f"{name}:{number}", tuple(shlex.split(span)), False))
    return found


@cache
def _atlas_root() -> Any:
    import typer.main

    from stages.cli import app

    return typer.main.get_command(app)


def _resolve(args: list[str]) -> tuple[Any, Any, list[str], list[str], str | None]:
    """Walk ``atlas`` subcommands: (command, its context, path, remaining args, problem)."""
    import typer

    command, path = _atlas_root(), ["atlas"]
    context = typer.Context(command, info_name="atlas")
    while hasattr(command, "get_command"):  # a group: the next word names a subcommand
        if not args or args[0].startswith("-") or args[0] in ELLIPSES:
            break
        sub = command.get_command(context, args[0])
        if sub is None:
            known = ", ".join(command.list_commands(context))
            return command, context, path, args, f"has no command {args[0]!r} (it has: {known})"
        path.append(args[0])
        args = args[1:]
        command, context = sub, typer.Context(sub, info_name=path[-1], parent=context)
    return command, context, path, args, None


def atlas_options(args: list[str]) -> set[str]:
    """The options of the ``atlas`` (sub)command that ``args`` name (none if it has no such)."""
    command, _, _, _, problem = _resolve(list(args))
    if problem:
        return set()
    return {o for p in command.params for o in (*p.opts, *p.secondary_opts)} | {"--help"}


def _atlas(args: list[str], block: bool) -> list[str]:
    command, context, path, rest, problem = _resolve(args)
    name = " ".join(path)
    if problem:
        return [f"`{name}` {problem}"]
    group = hasattr(command, "get_command")
    if group or not block or "--help" in rest:
        words = rest[: next((i for i, a in enumerate(rest) if a in ELLIPSES), len(rest))]
        options = atlas_options(args)
        named = [w.split("=", 1)[0] for w in words if w.startswith("-")]
        bad = [o for o in named if o not in options and not re.fullmatch(r"-\d.*", o)]
        return [f"`{name}` has no option {bad[0]}"] if bad else []
    try:
        command.make_context(path[-1], list(rest), parent=context.parent)
    except Exception as exc:  # the CLI library's UsageError family: unknown option, bad value...
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        return [f"`{name}`: {message}"]
    return []


class _Said(logging.Handler):
    """Collects what DVC's parser logs instead of printing it."""

    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _dvc(args: list[str]) -> list[str]:
    from dvc.cli import DvcParserError, parse_args

    logger, said = logging.getLogger("dvc.cli.parser"), _Said()
    logger.addHandler(said)
    propagate, logger.propagate = logger.propagate, False
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            parse_args(args)
    except (DvcParserError, SystemExit) as exc:
        if isinstance(exc, SystemExit) and not exc.code:
            return []  # --help
        return [f"dvc rejects it: {said.messages[-1] if said.messages else type(exc).__name__}"]
    finally:
        logger.removeHandler(said)
        logger.propagate = propagate
    return []


@cache
def make_targets() -> frozenset[str]:
    text = (REPO / "Makefile").read_text(encoding="utf-8")
    return frozenset(re.findall(r"^([A-Za-z0-9][\w.-]*)\s*:(?!=)", text, flags=re.M))


def problems(shown: Shown) -> list[str]:
    """What is wrong with one shown command (empty when it exists as shown)."""
    program, args = shown.argv[0], list(shown.argv[1:])
    if program == "atlas":
        found = _atlas(args, shown.block)
    elif program == "dvc":
        found = _dvc(args)
    elif program == "make":
        found = [f"the Makefile has no target {t!r}" for t in args if t not in make_targets()]
    elif program in PYTHONS:
        scripts = [a for a in args if not a.startswith("-")][:1]
        found = [f"no script {s}" for s in scripts if not (REPO / s).is_file()]
    elif program in NOT_OURS:
        found = []
    else:
        found = [f"unknown program {program!r}: teach tests/docs/doc_commands.py to check it"]
    return [f"{shown.where}: {shown.text}: {p}" for p in found]


def bare_options(path: Path) -> list[tuple[str, str]]:
    """(``file:line``, option) of every inline mention of an option on its own (`` `--limit` ``)."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(REPO).as_posix() if path.is_relative_to(REPO) else path.name
    in_block = {
        n for first, _, body in fenced_blocks(text) for n in range(first - 1, first + len(body) + 1)
    }
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if number not in in_block:
            for span in INLINE.findall(line):
                if match := BARE_OPTION.match(span):
                    found.append((f"{name}:{number}", match.group(1)))
    return found


def option_problems(path: Path) -> list[str]:
    """An option named on its own must belong to a command the same page shows: an ``atlas``
    (sub)command it names, or a command of one of its code blocks (checked whole above)."""
    known = {"--help"}
    for shown in shown_commands(path):
        if shown.argv[0] == "atlas":
            known |= atlas_options(list(shown.argv[1:]))
        elif shown.block:
            known |= {word.split("=", 1)[0] for word in shown.argv if word.startswith("--")}
    return [
        f"{where}: {option}: no command this page shows has that option"
        for where, option in bare_options(path)
        if option not in known
    ]
