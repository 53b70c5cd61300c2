"""The expression operators of eval-code-v4's generic mutants (``ast_mutants``): comparisons,
arithmetic, boolean operators, constants, ``min``/``max`` and ``any``/``all``, slice bounds,
conditional expressions and comprehension conditions. Each operator says what it does, how it
changes a copy of the node, and how it rewrites the reference's text (only the tokens it
changes); the statement operators (``ast_statements``) share its helpers.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from families.code.source_text import Source

COMPARE = {  # op -> (boundary shift, negation)
    ast.Lt: (ast.LtE, ast.GtE), ast.LtE: (ast.Lt, ast.Gt), ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt), ast.Eq: (None, ast.NotEq), ast.NotEq: (None, ast.Eq),
    ast.In: (None, ast.NotIn), ast.NotIn: (None, ast.In), ast.Is: (None, ast.IsNot),
    ast.IsNot: (None, ast.Is),
}  # fmt: skip
ARITHMETIC = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult, ast.Mod: ast.FloorDiv, ast.LShift: ast.RShift, ast.RShift: ast.LShift,
    ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd, ast.BitXor: ast.BitOr, ast.Pow: ast.Mult,
}  # fmt: skip
SYMBOL = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not", ast.Add: "+",
    ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%",
    ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.Pow: "**", ast.And: "and", ast.Or: "or",
}  # fmt: skip
BUILTINS = {"min": "max", "max": "min", "any": "all", "all": "any"}

#: How a mutation rewrites the copied node (returning the node that takes its place).
Apply = Callable[[Any], ast.AST]
#: How it rewrites the reference's text, given the original node.
Rewrite = Callable[[Source, Any], str]


@dataclass(frozen=True)
class Operator:
    """One operator at one node: what it does, to the tree and to the text."""

    what: str
    apply: Apply
    rewrite: Rewrite


def short(node: ast.AST) -> str:
    text = ast.unparse(node)
    return text if len(text) <= 30 else text[:27] + "..."


def number(value: int) -> ast.expr:
    """``value`` as the parser reads it back: a negative number is ``-`` applied to a constant."""
    return ast.Constant(value) if value >= 0 else ast.UnaryOp(ast.USub(), ast.Constant(-value))


#: The two operands around an operator symbol, from the node.
Around = Callable[[Any], tuple[ast.AST, ast.AST]]


def _token(old: type[ast.AST], new: type[ast.AST], around: Around, eq: str = "") -> Rewrite:
    """Swap the operator symbol ``old`` for ``new`` (``eq``: ``=`` in an augmented assignment)
    in the text between the two operands."""

    def rewrite(src: Source, node: ast.AST) -> str:
        start, end = src.gap(*around(node))
        text = src.text(start, end)
        pattern = rf"(?<![\w<>=!*/]){re.escape(SYMBOL[old] + eq)}(?![\w<>=*/])"
        changed, count = re.subn(pattern, SYMBOL[new] + eq, text, count=1)
        assert count == 1, (text, SYMBOL[old])
        return src.replace(start, end, changed)

    return rewrite


def _compare(node: ast.Compare) -> Iterator[Operator]:
    for i, op in enumerate(node.ops):
        for new in COMPARE[type(op)]:
            if new is not None:
                ops = [*node.ops[:i], new(), *node.ops[i + 1 :]]
                around: Around = lambda n, j=i: (  # noqa: E731
                    ([n.left, *n.comparators][j], n.comparators[j])
                )
                yield Operator(
                    f"`{SYMBOL[new]}` for `{SYMBOL[type(op)]}`",
                    lambda n, o=ops: set_field(n, "ops", o),
                    _token(type(op), new, around),
                )


def arithmetic(node: ast.BinOp | ast.AugAssign) -> Iterator[Operator]:
    new = ARITHMETIC.get(type(node.op))
    if new is not None:
        eq = "=" if isinstance(node, ast.AugAssign) else ""
        around: Around = (
            (lambda n: (n.target, n.value))
            if isinstance(node, ast.AugAssign)
            else (lambda n: (n.left, n.right))
        )
        yield Operator(
            f"`{SYMBOL[new]}{eq}` for `{SYMBOL[type(node.op)]}{eq}`",
            lambda n: set_field(n, "op", new()),
            _token(type(node.op), new, around, eq),
        )


def set_field(node: ast.AST, attr: str, value: object) -> ast.AST:
    setattr(node, attr, value)
    return node


def spliced(text: Callable[[Source, Any], str]) -> Rewrite:
    """Replace the node's own text by ``text(src, node)``."""
    return lambda src, node: src.replace(*src.span(node), text(src, node))


def expression_operators(node: ast.AST) -> Iterator[Operator]:
    """Operators on one expression node."""
    if isinstance(node, ast.Compare):
        yield from _compare(node)
    elif isinstance(node, ast.BinOp):
        yield from arithmetic(node)
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        flip = not node.value
        yield Operator(f"`{flip}` for `{node.value}`", lambda n: set_field(n, "value", flip),
                       spliced(lambda s, n: str(flip)))  # fmt: skip
    elif isinstance(node, ast.Constant) and isinstance(node.value, int):
        for new in (node.value + 1, node.value - 1):
            yield Operator(f"{new} for {node.value}", lambda n, v=new: number(v),
                           spliced(lambda s, n, v=new: str(v)))  # fmt: skip
    elif isinstance(node, ast.BoolOp):
        new_op = ast.Or if isinstance(node.op, ast.And) else ast.And
        gaps = [
            _token(type(node.op), new_op, lambda n, j=j: (n.values[j], n.values[j + 1]))
            for j in range(len(node.values) - 1)
        ]

        def every_gap(src: Source, n: ast.AST, gaps: list[Rewrite] = gaps) -> str:
            for rewrite in reversed(gaps):  # right to left: earlier offsets stay valid
                src = Source(rewrite(src, n))
            return src.source

        yield Operator(f"`{SYMBOL[new_op]}` for `{SYMBOL[type(node.op)]}`",
                       lambda n: set_field(n, "op", new_op()), every_gap)  # fmt: skip
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not | ast.USub):
        if not isinstance(node.operand, ast.Constant):
            keep = spliced(lambda s, n: _kept(s, n.operand))
            yield Operator(
                f"`{short(node.operand)}` for `{short(node)}`", lambda n: n.operand, keep
            )
    elif isinstance(node, ast.Name) and node.id in BUILTINS:
        other = BUILTINS[node.id]
        yield Operator(f"`{other}` for `{node.id}`", lambda n: set_field(n, "id", other),
                       spliced(lambda s, n: other))  # fmt: skip
    elif isinstance(node, ast.Slice):
        for bound in ("lower", "upper"):
            value = getattr(node, bound)
            if value is not None and not isinstance(value, ast.Constant | ast.UnaryOp):
                for sign in ("+", "-"):
                    yield Operator(
                        f"`{short(value)} {sign} 1` as the slice's {bound}",
                        lambda n, b=bound, g=sign: set_field(n, b, _shifted(getattr(n, b), g)),
                        _bound(bound, sign),
                    )
    elif isinstance(node, ast.IfExp):
        yield Operator("the two results of `... if ... else ...` swapped", _swap_results,
                       spliced(lambda s, n: f"{_branch(s, n.orelse)} if {_branch(s, n.test)} "
                                             f"else {_branch(s, n.body)}"))  # fmt: skip
    elif isinstance(node, ast.comprehension) and node.ifs:
        yield Operator("the comprehension's condition dropped", lambda n: set_field(n, "ifs", []),
                       _no_conditions)  # fmt: skip


ATOMS = (ast.Name, ast.Constant, ast.Call, ast.Attribute, ast.Subscript, ast.List, ast.Tuple)


def _kept(src: Source, part: ast.AST) -> str:
    """The text of ``part`` standing alone where a larger expression stood: in parentheses
    unless it is an atom."""
    text = src.segment(part)
    return text if isinstance(part, ATOMS) else f"({text})"


def _branch(src: Source, part: ast.AST) -> str:
    """One result of a conditional expression, in parentheses when it is one itself."""
    text = src.segment(part)
    return f"({text})" if isinstance(part, ast.IfExp | ast.Lambda) else text


def _shifted(expr: ast.expr, sign: str) -> ast.expr:
    return ast.BinOp(expr, ast.Add() if sign == "+" else ast.Sub(), ast.Constant(1))


def _bound(bound: str, sign: str) -> Rewrite:
    def rewrite(src: Source, node: ast.AST) -> str:
        value = getattr(node, bound)
        return src.replace(*src.span(value), f"{src.segment(value)} {sign} 1")

    return rewrite


def _swap_results(node: ast.AST) -> ast.AST:
    assert isinstance(node, ast.IfExp)
    node.body, node.orelse = node.orelse, node.body
    return node


def _no_conditions(src: Source, node: ast.AST) -> str:
    assert isinstance(node, ast.comprehension)
    start, end = src.span(node.iter)[1], src.span(node.ifs[-1])[1]
    return src.replace(start, end, "")
