"""A reference solution's text addressed the way ``ast`` positions its nodes (lines from 1, UTF-8
byte columns), so a generic mutant (``ast_mutants``) rewrites only the tokens it changes."""

from __future__ import annotations

import ast


class Source:
    """One program's text; every edit returns the whole new text."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.raw = source.encode()
        self.starts = [0] + [i + 1 for i, byte in enumerate(self.raw) if byte == 0x0A]

    def offset(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col

    def span(self, node: ast.AST) -> tuple[int, int]:
        """Byte offsets of ``node``'s text (without any parentheses around it)."""
        start = self.offset(node.lineno, node.col_offset)  # type: ignore[attr-defined]
        return start, self.offset(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]

    def segment(self, node: ast.AST) -> str:
        return self.text(*self.span(node))

    def text(self, start: int, end: int) -> str:
        return self.raw[start:end].decode()

    def gap(self, left: ast.AST, right: ast.AST) -> tuple[int, int]:
        """The text between two operands, where their operator stands."""
        return self.span(left)[1], self.span(right)[0]

    def replace(self, start: int, end: int, text: str) -> str:
        return (self.raw[:start] + text.encode() + self.raw[end:]).decode()

    def insert_after(self, last: ast.stmt, like: ast.stmt, line: str) -> str:
        """A new line after statement ``last``, indented as ``like``."""
        where = self.offset(last.end_lineno or last.lineno, 0)
        end = self.raw.index(b"\n", where) if b"\n" in self.raw[where:] else len(self.raw)
        return self.replace(end, end, "\n" + " " * like.col_offset + line)

    def drop_lines(self, first: int, last: int) -> str:
        """Without lines ``first`` to ``last`` (from 1, both included)."""
        lines = self.source.split("\n")
        return "\n".join(lines[: first - 1] + lines[last:])
