"""Render the project's Markdown as a CommonMark renderer would and find anything live in it
(issue 31): markdown-it-py (CommonMark with raw HTML on, as GitHub's renderer parses it before
sanitising, plus GFM tables and strikethrough), then an HTML parser listing every element.

``hostile_text`` generates what a model could answer: HTML tags with event handlers, links and
images to ``javascript:``, autolinks, entities, backtick runs that break naive fencing, pipes
that break table rows, emphasis, backslashes and line breaks, mixed with ordinary text."""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import strategies as st
from markdown_it import MarkdownIt

SAFE_TAGS = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead", "tbody", "tr", "th", "td",
    "strong", "em", "code", "pre", "ul", "ol", "li", "blockquote", "hr", "br", "s",
}  # fmt: skip
"""Elements the project's own Markdown produces; model text must add none but text."""

FRAGMENTS = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<svg onload=alert(1)>",
    "<a href='javascript:alert(1)'>x</a>", "[click](javascript:alert(1))",
    "![i](javascript:alert(1))", "<javascript:alert(1)>", "<http://evil.example>",
    "&lt;script&gt;", "&#60;img&#62;", "`", "``", "```", "````", "~~~", "|", "\\", "\\<b>",
    "*", "_", "**b**", "[r]: javascript:alert(1)", "<!-- c -->", "<div>", "</td>", "\n", "\r\n",
    "\n\n", "    ", "# h", "> q", "- l", "1. n", "---", "===", "<", ">", "&", "!",
]  # fmt: skip

hostile_text = st.lists(
    st.sampled_from(FRAGMENTS)
    | st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF, exclude_characters="\x7f"),
              max_size=6),
    max_size=4,
).map("".join)  # fmt: skip
"""Short hostile strings (short enough that no excerpt or clip shortens them)."""


def render(markdown: str) -> str:
    md = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return str(md.render(markdown))


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.cells: list[str] = []
        self._cell: list[str] | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((tag, attrs))
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.cells.append("".join(self._cell))
            self._cell = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def parse(html: str) -> _Elements:
    parser = _Elements()
    parser.feed(html)
    parser.close()
    return parser


def live(markdown: str) -> list[str]:
    """Every element or attribute in the rendered ``markdown`` that can run or navigate:
    unknown elements (script, img, svg, a, div, raw HTML of any kind), event handlers, links."""
    out = []
    for tag, attrs in parse(render(markdown)).found:
        if tag not in SAFE_TAGS:
            out.append(f"<{tag}>")
        out += [f"{tag}[{name}]" for name, _ in attrs if name.startswith("on") or name == "href"]
    return out


def cells(markdown: str) -> list[str]:
    """The text of every rendered table cell, as a browser shows it."""
    return parse(render(markdown)).cells


def folded(text: str) -> str:
    return " ".join(text.split())
