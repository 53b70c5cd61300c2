"""eval-security-v3: every row's family proof re-run on the committed bytes, cipher answers
re-derived here with plain code-point arithmetic, and the issue-13 shortcuts of eval-security-v2
asserted directly: gold letters balanced exactly, a compromised account that varies, Vigenere
keys unrelated to the plaintext, snippets that no keyword rule solves (every offered class has
its sink in the code, every flawed handler's template also appears safe), and "must NOT be taken
yet" options that are real response actions, right in one state and wrong in another.

Byte-identical regeneration is tests/gen/test_determinism.py's job (it covers every generator).
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from typing import Any

import pytest

from tests.gen._checks import assert_letters_balanced, committed_rows, gold_text, load_generator

ROWS = committed_rows("eval-security-v3")
MC = [r for r in ROWS if r["scorer"] == "mc"]
SINKS = {  # a keyword rule: the calls that name each class
    "SQL injection": ("db.execute(",),
    "OS command injection": ("os.popen(", "os.system(", "subprocess."),
    "Path traversal": ("send_file(", "open("),
    "Cross-site scripting (XSS)": ("Response(",),
    "Open redirect": ("redirect(",),
    "Hard-coded credential": ("connect(",),
}


GEN = load_generator("eval-security-v3")


@pytest.mark.parametrize("row", ROWS, ids=[r["id"] for r in ROWS])
def test_family_proof_holds_on_committed_row(row: dict[str, Any]) -> None:
    GEN.prove(row)


def _rot(text: str, k: int) -> str:
    return "".join(chr((ord(c) - 65 + k) % 26 + 65) if c.isupper() else c for c in text)


def _vig(text: str, key: str, sign: int) -> str:
    out, i = [], 0
    for c in text:
        if c == " ":
            out.append(c)
            continue
        out.append(_rot(c, sign * (ord(key[i % len(key)]) - 65)))
        i += 1
    return "".join(out)


def _unxor(m: dict[str, Any]) -> str:
    key = bytes.fromhex(m["key"])
    return "".join(chr(int(h, 16) ^ key[i % len(key)]) for i, h in enumerate(m["cipher"].split()))


REDERIVE = {
    "caesar_decrypt": lambda m: _rot(m["cipher"], -m["shift"]),
    "caesar_encrypt": lambda m: _rot(m["plain"], m["shift"]),
    "vigenere_decrypt": lambda m: _vig(m["cipher"], m["key"], -1),
    "vigenere_encrypt": lambda m: _vig(m["plain"], m["key"], 1),
    "xor_decrypt": _unxor,
    "caesar_key": lambda m: str(next(k for k in range(26) if _rot(m["plain"], k) == m["cipher"])),
    "xor_value": lambda m: format(m["a"] ^ m["b"], f"0{2 * m['width']}x"),
}


@pytest.mark.parametrize("row", [r for r in ROWS if r["meta"]["kind"] in REDERIVE])
def test_cipher_answers_rederived(row: dict[str, Any]) -> None:
    assert gold_text(row) == REDERIVE[row["meta"]["kind"]](row["meta"])


def test_gold_letters_balanced_exactly_in_every_category() -> None:
    assert_letters_balanced(ROWS, overall=15, per_category=3)


def test_compromised_account_varies() -> None:
    golds = [gold_text(r) for r in ROWS if r["meta"].get("question") == "breached_user"]
    assert len(golds) >= 5
    assert len(set(golds)) >= 4 and max(Counter(golds).values()) <= 2, golds


def test_vigenere_keys_are_not_part_of_the_plaintext() -> None:
    checked = 0
    for row in ROWS:
        m = row["meta"]
        if not m["kind"].startswith("vigenere") or m["kind"] == "vigenere_length":
            continue
        key = m["key"] if "key" in m else gold_text(row)
        plain = m.get("plain") or row["answer"]
        assert not any(w.startswith(key[:3]) or key[:3] in w for w in plain.split()), row["id"]
        checked += 1
    assert checked >= 6


VULN = [r for r in ROWS if r["category"] == "vuln_classification"]


def test_every_offered_vulnerability_class_has_its_sink_in_the_code() -> None:
    """A rule that maps the calls present to a class cannot tell the options apart."""
    for row in (r for r in VULN if r["scorer"] == "mc" and r["choices"][0] in SINKS):
        code = row["meta"]["code"]
        for option in row["choices"]:
            assert any(call in code for call in SINKS[option]), (row["id"], option)


def _template(name: str) -> str:
    """Handler name without its filled-in noun (find_order -> find_*)."""
    head, _, tail = name.partition("_")
    fills = {*GEN.vulns.FILLS["thing"], *GEN.vulns.FILLS["table"]}
    fills |= set(GEN.vulns.FILLS["folder"])
    return f"{head}_*" if tail in fills else name


def test_every_flawed_handler_template_also_appears_safe() -> None:
    safe_seen: Counter[str] = Counter()
    for row in VULN:
        for name in re.findall(r"^def (\w+)\(", row["meta"]["code"], re.M):
            if name != row["meta"]["function"]:
                safe_seen[_template(name)] += 1
    for row in VULN:
        assert safe_seen[_template(row["meta"]["function"])] >= 1, row["id"]


def test_flaw_line_is_a_sink_call_inside_the_flawed_function() -> None:
    for row in (r for r in VULN if r["scorer"] == "numeric"):
        tree = ast.parse(row["meta"]["code"])
        (fn,) = [n for n in tree.body if getattr(n, "name", None) == row["meta"]["function"]]
        assert fn.lineno <= int(row["answer"]) <= (fn.end_lineno or 0), row["id"]
        line = row["meta"]["code"].split("\n")[int(row["answer"]) - 1]
        assert any(call in line for calls in SINKS.values() for call in calls), (row["id"], line)


def test_incident_options_are_real_actions_that_are_right_elsewhere() -> None:
    rows = [r for r in ROWS if r["meta"]["kind"] == "ir_state" and r["scorer"] == "mc"]
    gold, offered = Counter(), Counter()
    for row in rows:
        actions = {
            text for text, _, _ in GEN.incident.SCENARIOS[row["meta"]["scenario"]][1].values()
        }
        assert set(row["choices"]) <= actions, row["id"]
        gold[gold_text(row)] += 1
        offered.update(c for c in row["choices"] if c != gold_text(row))
    assert len(gold) >= 6
    assert sum(1 for g in gold if offered[g]) >= 3  # the same action is a fine step elsewhere


def test_no_near_duplicate_prompts() -> None:
    def key(row: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
        text = row["prompt"].split("\n\nA. ")[0] if row["scorer"] == "mc" else row["prompt"]
        return " ".join(re.findall(r"\w+", text.casefold())), tuple(sorted(row.get("choices", [])))

    assert len({key(r) for r in ROWS}) == len(ROWS)


def test_option_length_and_overlap_rules_stay_near_chance() -> None:
    def pick(row: dict[str, Any], score: Any) -> float:
        """Expected accuracy of the rule, ties broken uniformly."""
        values = [score(row, i) for i in range(4)]
        best = [i for i, v in enumerate(values) if v == max(values)]
        return sum("ABCD"[i] == row["answer"] for i in best) / len(best)

    def shared(row: dict[str, Any], i: int) -> int:
        mine = set(re.findall(r"\w+", row["choices"][i].casefold()))
        return sum(len(mine & set(re.findall(r"\w+", c.casefold()))) for c in row["choices"])

    rules = {
        "longest": lambda r, i: len(r["choices"][i]),
        "shortest": lambda r, i: -len(r["choices"][i]),
        "shares most words": shared,
    }
    for name, rule in rules.items():
        accuracy = sum(pick(r, rule) for r in MC) / len(MC)
        assert accuracy <= 0.35, (name, accuracy)
