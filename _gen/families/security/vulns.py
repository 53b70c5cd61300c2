"""Vulnerability family of eval-security-v3: find the one flawed handler in a Python module.

Every snippet holds four handlers of four different vulnerability classes (hard rows add a fifth,
a safe handler of the flawed class), built from ``snippets.TEMPLATES``: one handler gets an
unsafe filling (textbook on easy rows, textbook or subtle on medium, subtle on hard), the others
safe fillings. So every option of "which kind of vulnerability" names a sink the code really
uses, and only reading how the input reaches it tells them apart. The flawed class cycles with
the (level, form) cell, so each class is gold equally often. Forms: the class (mc), the line of
the abused call (numeric), the flawed function (mc, and exact).

Proof by execution: the module is run with every sink mocked (database, shell, files, HTML
response, redirect, credentials; the real ``html``, ``re``, ``shlex`` and ``urllib.parse``), each
handler is called with attack payloads and benign values, and a sink records an abuse when a
payload gets through: it is spliced into SQL, splits or adds options to a command, reaches a file
outside the folder, lands unescaped in HTML, sends the browser to another host, or a credential
is used while the environment holds none. Exactly one (function, class, line) must be abused.
"""

from __future__ import annotations

import ast
import builtins
import posixpath
import random
import re
import shlex
import sys
import urllib.parse
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from families.security.snippets import CLASSES, FILLS, IMPORTS, SECRET_WORDS, TEMPLATES

CATEGORY = "vuln_classification"
FORMS = ("mc", "numeric", "mc", "exact", "mc", "numeric", "mc", "exact")
ORDER = ("sqli", "cmdi", "path", "xss", "redirect", "secret")
Item = dict[str, Any]


def _fill(rng: random.Random) -> dict[str, str]:
    fill = {key: rng.choice(values) for key, values in FILLS.items()}
    fill["secret"] = f"{rng.choice(SECRET_WORDS)}{rng.randint(10, 99)}{rng.choice('!#%&')}"
    return fill


def _block(rng: random.Random, template: dict[str, Any], filling: str, fill: dict[str, str]) -> str:
    body = rng.choice(template[filling])
    return f"{template['head']}\n{body}".format(**fill)


def compose(rng: random.Random, flawed: str, level: int) -> tuple[str, list[str], list[str]]:
    """Module text, the classes of its handlers and their function names (the flawed one first;
    the code lists them in a drawn order)."""
    fill = _fill(rng)
    others = rng.sample([c for c in ORDER if c != flawed], 3)
    chosen = rng.sample(TEMPLATES[flawed], 2 if level == 2 else 1)
    filling = ("unsafe", rng.choice(("unsafe", "subtle")), "subtle")[level]
    blocks = [(flawed, _block(rng, chosen[0], filling, fill))]
    if level == 2:  # a safe twin of the flawed class
        blocks.append((flawed, _block(rng, chosen[1], "safe", fill)))
    for cls in others:
        blocks.append((cls, _block(rng, rng.choice(TEMPLATES[cls]), "safe", fill)))
    return assemble(rng, blocks)


def assemble(rng: random.Random, blocks: list[tuple[str, str]]) -> tuple[str, list[str], list[str]]:
    """The module of the (class, handler text) ``blocks`` in a drawn order, the blocks' classes
    and their function names (in the order given)."""
    names = [text.split("(")[0].removeprefix("def ") for _, text in blocks]
    assert len(set(names)) == len(names), names
    shown = rng.sample(blocks, len(blocks))
    code = IMPORTS + "\n\n\n" + "\n\n\n".join(text for _, text in shown)
    return code, [cls for cls, _ in blocks], names


def build(rng: random.Random, level: int, form: int) -> Item:
    flawed = ORDER[(level + 3 * (form // 2)) % len(ORDER)]
    code, classes, names = compose(rng, flawed, level)
    twins = names[1:2] if level == 2 else []
    return question(
        code,
        flawed,
        names[0],
        form,
        kinds=lambda: sorted({c for c in classes if c != flawed}, key=ORDER.index),
        functions=lambda: twins + rng.sample(names[1 + len(twins) :], 3 - len(twins)),
    )


def question(
    code: str,
    flawed: str,
    culprit: str,
    form: int,
    kinds: Callable[[], list[str]],
    functions: Callable[[], list[str]],
) -> Item:
    """The item asking for the flawed ``culprit`` of ``code`` in ``form``. ``kinds`` (the other
    classes offered) and ``functions`` (the other handlers offered) are drawn only by the mc form
    that offers them, so a row draws from its rng only what its form needs."""
    listing = "\n".join(f"{i:>2}  {line}" for i, line in enumerate(code.split("\n"), start=1))
    intro = (
        "This Python module (line numbers on the left) handles web requests. Every function "
        "argument comes straight from the request, so an attacker controls it; db, send_file, "
        "Response, redirect, connect and read_secret are the application's own helpers and do "
        f"no checking of their own. Exactly one function is vulnerable.\n\n{listing}\n\n"
    )
    meta = {"kind": "vuln", "code": code, "flawed_class": flawed, "function": culprit}
    scorer = FORMS[form]
    if scorer == "numeric":
        q = (
            "On which line is the call that an attacker can abuse (or that is given a "
            "hard-coded secret)? Give the line number."
        )
        line = _sink_line(code, culprit)
        return {"question": intro + q, "scorer": "numeric", "answer": str(line), "meta": meta}
    if scorer == "exact":
        q = "Which function is vulnerable? Give its name only."
        return {
            "question": intro + q,
            "scorer": "exact",
            "answer": [culprit, culprit + "()"],
            "meta": meta,
        }
    if form in (0, 4):
        return {
            "question": intro + "Which kind of vulnerability does it have?",
            "scorer": "mc",
            "correct": CLASSES[flawed],
            "distractors": [CLASSES[c] for c in kinds()],
            "meta": meta,
        }
    return {
        "question": intro + "Which function is vulnerable?",
        "scorer": "mc",
        "correct": culprit,
        "distractors": functions(),
        "meta": meta,
    }


SINK_CALLS = (
    "db.execute(",
    "popen(",
    "system(",
    "subprocess.",
    "send_file(",
    "open(",
    "Response(",
    "redirect(",
    "connect(",
)


def _sink_line(code: str, function: str) -> int:
    """The line of the flawed handler that calls a sink (each handler calls one, once)."""
    lines = code.split("\n")
    start = lines.index(next(x for x in lines if x.startswith(f"def {function}(")))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("def ")), len(lines))
    (line,) = [i + 1 for i in range(start, end) if any(c in lines[i] for c in SINK_CALLS)]
    return line


# ---- proof: run the module against mocked sinks ------------------------------------------------
ATTACKS = (
    "x' OR '1'='1",
    "1 OR 1=1",
    "x; touch /tmp/pwned",
    "x'; touch /tmp/pwned; echo '",
    "--upload-pack=touch /tmp/pwned",
    "../../../../etc/passwd",
    "/etc/passwd",
    "1/../../../../../etc/passwd",
    "<script>alert(1)</script>",
    '" onmouseover="alert(1)',
    "https://evil.example/",
    "//evil.example/",
    "https://shop.example.com.evil.example/",
    "@evil.example/",
    "evil.example",
)
BENIGN = ("42", "2024-03-14", "created_at", "newest", "/orders", "orders", "ada@example.com")


class _Probe:
    """The mocked application: every sink records who called it and whether it was abused."""

    def __init__(self) -> None:
        self.env: dict[str, str] = {}
        self.payload: str | None = None
        self.abused: set[tuple[str, str, int]] = set()
        self.reached: dict[str, set[str]] = {}

    def sink(self, cls: str, abused: bool) -> None:
        frame = sys._getframe(1)
        while frame.f_code.co_filename != "<snippet>":
            frame = frame.f_back
        self.reached.setdefault(frame.f_code.co_name, set()).add(cls)
        if abused and self.payload is not None:
            self.abused.add((frame.f_code.co_name, cls, frame.f_lineno))

    def sql(self, sql: str, params: Any = ()) -> list[Any]:
        self.sink("sqli", self.payload is not None and self.payload in sql)
        return []

    def shell(self, command: Any, shell: bool = False, **_: Any) -> SimpleNamespace:
        if isinstance(command, list) and command[:2] == ["sh", "-c"]:
            command, shell = command[2], True
        argv = command if isinstance(command, list) else None
        if shell or argv is None:
            try:
                argv = shlex.split(command)
            except ValueError:  # the input broke the quoting
                argv = []
        p = self.payload
        if p is None:
            self.sink("cmdi", False)
        elif p not in argv:
            self.sink("cmdi", any(part in command for part in p.split()))
        else:
            self.sink("cmdi", p.startswith("-") and "--" not in argv[: argv.index(p)])
        return SimpleNamespace(stdout="", read=lambda: "")

    def file(self, path: str, *_: Any, **__: Any) -> Any:
        where = posixpath.normpath(path)
        self.sink("path", where.startswith("/etc/") or "-old/" in where)
        return SimpleNamespace(read=lambda: "")

    def response(self, text: str) -> str:
        p = self.payload
        self.sink("xss", p is not None and any(c in p for c in '<>"') and p in text)
        return text

    def redirect(self, url: str) -> str:
        host = urllib.parse.urlsplit(url.replace("\\", "/")).hostname or ""
        self.sink("redirect", host.endswith("evil.example"))
        return url

    def connect(self, host: str, user: str, password: Any) -> None:
        self.sink("secret", isinstance(password, str) and bool(password))


class _Handle:
    def __init__(self, probe: _Probe, path: str) -> None:
        probe.file(path)

    def __enter__(self) -> _Handle:
        return self

    def __exit__(self, *_: Any) -> None:
        return None

    def read(self) -> str:
        return ""


def _namespace(probe: _Probe) -> dict[str, Any]:
    fake_os = SimpleNamespace(
        path=posixpath,
        environ=probe.env,
        getenv=probe.env.get,
        sep="/",
        popen=lambda cmd: probe.shell(cmd, shell=True),
        system=lambda cmd: probe.shell(cmd, True),
    )
    fake_subprocess = SimpleNamespace(run=probe.shell, check_output=probe.shell)
    modules = {"os": fake_os, "subprocess": fake_subprocess}

    def fake_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name in modules:
            return modules[name]
        assert name in ("html", "re", "shlex", "urllib.parse"), name
        return builtins.__import__(name, *args, **kwargs)

    scope = dict(vars(builtins))
    scope.update(__import__=fake_import, open=lambda path, *a: _Handle(probe, path))
    return {
        "__builtins__": scope,
        "__name__": "snippet",
        "db": SimpleNamespace(execute=probe.sql),
        "send_file": probe.file,
        "Response": probe.response,
        "redirect": probe.redirect,
        "connect": probe.connect,
        "read_secret": lambda name: object(),
    }


def run_handlers(code: str) -> _Probe:
    """Execute the module, then call every handler with every attack and benign value; a
    handler without arguments is called with its secrets in the environment, then without."""
    probe = _Probe()
    scope = _namespace(probe)
    exec(compile(code, "<snippet>", "exec"), scope)  # our own templates; every sink is mocked
    folders = re.findall(r'"/(?:srv|var/log)/(\w+)', code)
    attacks = (*ATTACKS, *(f"../{f}-old/secret.txt" for f in folders))
    for node in ast.parse(code).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        handler = scope[node.name]
        if node.args.args:
            calls = [(None, (v,)) for v in BENIGN] + [(a, (a,)) for a in attacks]
        else:
            calls = [(None, ()), ("", ())]
        for payload, args in calls:
            probe.payload = payload
            probe.env.clear()
            if not args and payload is None:
                probe.env.update(DB_PASSWORD="from-env", MAIL_TOKEN="from-env")
            try:
                handler(*args)
            except (ValueError, KeyError, RuntimeError):
                continue  # the handler refused the input
            finally:
                probe.payload = None
    return probe


def prove(row: dict[str, Any]) -> None:
    m = row["meta"]
    probe = run_handlers(m["code"])
    ((function, cls, line),) = probe.abused
    assert (function, cls) == (m["function"], m["flawed_class"]), (row["id"], probe.abused)
    if row["scorer"] == "numeric":
        assert row["answer"] == str(line), (row["id"], line)
    elif row["scorer"] == "exact":
        assert row["answer"][0] == function, row["id"]
    else:
        gold = row["choices"]["ABCD".index(row["answer"])]
        assert gold in (function, CLASSES[cls]), (row["id"], gold)
        used = {CLASSES[c] for c in set().union(*probe.reached.values())} | set(probe.reached)
        assert set(row["choices"]) <= used, (row["id"], row["choices"], used)
