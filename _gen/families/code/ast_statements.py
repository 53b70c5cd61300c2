"""The statement operators of eval-code-v4's generic mutants (``ast_mutants``): a loop that
stops after its first pass or skips its first or last item, ``break`` and ``continue`` swapped,
an ``if`` condition negated, an ``elif`` or ``else`` branch removed, a ``return`` that gives one
operand of its expression, and the arithmetic of ``+=`` and the like.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from families.code.ast_operators import (
    Operator,
    arithmetic,
    number,
    set_field,
    short,
    spliced,
)


def _operands(value: ast.expr) -> list[ast.expr]:
    """The parts a ``return`` may give instead of its whole expression."""
    if isinstance(value, ast.BinOp):
        return [value.left, value.right]
    if isinstance(value, ast.BoolOp):
        return list(value.values)
    if isinstance(value, ast.IfExp):
        return [value.body, value.orelse]
    if isinstance(value, ast.Call) and value.args and not isinstance(value.args[0], ast.Starred):
        return [value.args[0]]
    if isinstance(value, ast.Subscript):
        return [value.value]
    return []


def _loop_items(node: ast.AST, which: str) -> ast.AST:
    assert isinstance(node, ast.For)
    piece = ast.Slice(ast.Constant(1), None) if which == "first" else ast.Slice(None, number(-1))
    items = ast.Call(ast.Name("list", ast.Load()), [node.iter], [])
    node.iter = ast.Subscript(items, piece, ast.Load())
    return node


def statement_operators(node: ast.AST) -> Iterator[Operator]:
    """Operators on one statement."""
    if isinstance(node, ast.AugAssign):
        yield from arithmetic(node)
    elif isinstance(node, ast.For | ast.While):
        yield Operator("stops after the loop's first pass",
                       lambda n: set_field(n, "body", [*n.body, ast.Break()]),
                       lambda s, n: s.insert_after(n.body[-1], n.body[0], "break"))  # fmt: skip
        if isinstance(node, ast.For):
            for which, cut in (("first", "[1:]"), ("last", "[:-1]")):
                yield Operator(
                    f"the loop skips its {which} item",
                    lambda n, w=which: _loop_items(n, w),
                    lambda s, n, c=cut: s.replace(*s.span(n.iter), f"list({s.segment(n.iter)}){c}"),
                )
    elif isinstance(node, ast.Break | ast.Continue):
        other = "continue" if isinstance(node, ast.Break) else "break"
        kind = ast.Continue if isinstance(node, ast.Break) else ast.Break
        yield Operator(f"`{other}` for `{'break' if other == 'continue' else 'continue'}`",
                       lambda n: kind(), spliced(lambda s, n: other))  # fmt: skip
    elif isinstance(node, ast.Return) and node.value is not None:
        for i, part in enumerate(_operands(node.value)):
            yield Operator(
                f"returns `{short(part)}` for `{short(node.value)}`",
                lambda n, i=i: set_field(n, "value", _operands(n.value)[i]),
                lambda s, n, i=i: s.replace(*s.span(n.value), s.segment(_operands(n.value)[i])),
            )
    elif isinstance(node, ast.If):
        yield Operator(
            f"`if not ({short(node.test)})`",
            lambda n: set_field(n, "test", ast.UnaryOp(ast.Not(), n.test)),
            lambda s, n: s.replace(*s.span(n.test), f"not ({s.segment(n.test)})"),
        )
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            yield Operator("the `elif` branch removed",
                           lambda n: set_field(n, "orelse", n.orelse[0].orelse),
                           lambda s, n: s.drop_lines(n.orelse[0].lineno,
                                                     n.orelse[0].body[-1].end_lineno))  # fmt: skip
        elif node.orelse:
            yield Operator("the `else` branch removed", lambda n: set_field(n, "orelse", []),
                           lambda s, n: s.drop_lines(n.body[-1].end_lineno + 1,
                                                     n.orelse[-1].end_lineno))  # fmt: skip
