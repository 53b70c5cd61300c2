"""Generic mutants of a reference solution (eval-code-v4, issue 30): the operators of
mutation-testing tools (mutmut, Cosmic Ray, PIT) applied at every place of the reference's
syntax tree where they fit, so test strength no longer rests on the wrong solutions someone
thought of (``mutation``'s hand-written mutants stay beside them).

Operators, one place per mutant (``operators``):

* comparisons: ``<`` and ``<=`` (``>`` and ``>=``) swapped, every comparison negated (``==`` and
  ``!=``, ``<`` and ``>=``, ``in`` and ``not in``, ``is`` and ``is not``);
* arithmetic: ``+`` and ``-``, ``*`` and ``//``, ``*`` for ``/`` and ``**``, ``//`` for ``%``,
  ``<<`` and ``>>``, ``&`` and ``|``, ``|`` for ``^`` (in ``+=`` and the like too); ``x`` for
  ``-x`` and ``not x``; ``and`` and ``or``; ``min`` and ``max``, ``any`` and ``all``;
* constants: every integer one more and one less, ``True`` and ``False`` swapped; a slice bound
  that is not a constant one more and one less;
* control flow: a loop that stops after its first pass, one that skips its first or last item,
  ``break`` and ``continue`` swapped, an ``if`` condition negated, an ``elif`` or ``else`` branch
  removed, a comprehension's condition dropped, the two results of ``a if c else b`` swapped, a
  ``return`` that gives one operand of its expression (``a`` for ``a + b``, the first argument
  of a call, the container of a subscript).

Each mutant is the reference's own text with only the mutated tokens rewritten; parsing it back
must give the mutated tree (else the tree is unparsed whole). Which mutants are equivalent is
decided by running them (``differential``).
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from dataclasses import dataclass

from families.code.ast_operators import Operator, expression_operators
from families.code.ast_statements import statement_operators
from families.code.source_text import Source


@dataclass(frozen=True)
class GenericMutant:
    """One operator applied at one place of the reference."""

    name: str
    code: str


def operators(node: ast.AST) -> Iterator[Operator]:
    """Every operator that applies to ``node``."""
    yield from (
        statement_operators(node) if isinstance(node, ast.stmt) else expression_operators(node)
    )


def _replace(parent: ast.AST, old: ast.AST, new: ast.AST) -> None:
    for field, value in ast.iter_fields(parent):
        if value is old:
            setattr(parent, field, new)
            return
        if isinstance(value, list) and any(item is old for item in value):
            value[next(i for i, item in enumerate(value) if item is old)] = new
            return
    raise AssertionError(f"{ast.dump(old)} is not a child of {ast.dump(parent)}")


def _line(nodes: list[ast.AST], parents: dict[int, ast.AST], k: int) -> int:
    node = nodes[k]
    while not hasattr(node, "lineno"):  # a comprehension or an operator has no position
        node = parents[id(node)]
    return int(node.lineno)


def _text(reference: str, node: ast.AST, op: Operator, mutated: ast.Module) -> str:
    """The mutant's source: the operator's rewrite of the reference's text when it parses back to
    the mutated tree, else the whole tree unparsed."""
    want = ast.dump(mutated)
    try:
        spliced = op.rewrite(Source(reference), node)
        if ast.dump(ast.parse(spliced)) == want:
            return spliced
    except (SyntaxError, AssertionError):
        pass
    whole = ast.unparse(mutated) + "\n"
    assert ast.dump(ast.parse(whole)) == want, op.what
    return whole


def _annotations(tree: ast.AST) -> set[int]:
    """Ids of the nodes inside type annotations: a mutant there changes nothing a caller sees,
    or only whether defining the function raises, which depends on how it is compiled (the
    sandbox's child compiles with ``from __future__ import annotations`` in force)."""
    roots: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            roots.append(node.annotation)
        if isinstance(node, ast.FunctionDef) and node.returns is not None:
            roots.append(node.returns)
    return {id(inner) for root in roots for inner in ast.walk(root)}


def generic_mutants(reference: str, skip: frozenset[str] = frozenset()) -> list[GenericMutant]:
    """Every operator at every place of ``reference`` outside its annotations, once per distinct
    program (by syntax tree); the reference and the trees in ``skip`` (the hand-written
    mutants) left out."""
    tree = ast.parse(reference)
    nodes = list(ast.walk(tree))
    annotated = _annotations(tree)
    parents = {id(c): p for p in nodes for c in ast.iter_child_nodes(p)}
    seen = {ast.dump(tree), *skip}
    out: list[GenericMutant] = []
    for k, node in enumerate(nodes):
        if id(node) in annotated:
            continue
        for op in list(operators(node)):
            mutated = copy.deepcopy(tree)
            copied = list(ast.walk(mutated))
            target = copied[k]
            new = op.apply(target)
            if new is not target:
                copied_parents = {id(c): p for p in copied for c in ast.iter_child_nodes(p)}
                _replace(copied_parents[id(target)], target, new)
            ast.fix_missing_locations(mutated)
            key = ast.dump(mutated)
            if key in seen:
                continue
            seen.add(key)
            name = f"generic {len(out) + 1}, line {_line(nodes, parents, k)}: {op.what}"
            out.append(GenericMutant(name, _text(reference, node, op, mutated)))
    return out
