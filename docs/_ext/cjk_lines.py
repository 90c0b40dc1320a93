"""Chinese prose without stray spaces: a line break in a Markdown paragraph between two Chinese
characters (or full-width punctuation) is dropped, as a Chinese reader expects.

Browsers show every line break in a paragraph as a space, which English needs and Chinese does
not: "一旦某个张量在\\n它的节点" would read "一旦某个张量在 它的节点". Code (inline and blocks)
is left as it is; a break next to a Latin word or inline code stays a space.
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx.transforms import SphinxTransform

_WIDE = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
_BREAK = re.compile(f"(?<=[{_WIDE}])\n(?=[{_WIDE}])")


class JoinChineseLines(SphinxTransform):
    default_priority = 900

    def apply(self, **kwargs) -> None:
        for element in list(self.document.findall(nodes.TextElement)):
            if isinstance(element, (nodes.literal, nodes.literal_block, nodes.raw)):
                continue
            _join(element)


def _join(element) -> None:
    """Merge the element's neighbouring text nodes (MyST makes one per line), then drop the
    breaks between wide characters."""
    i = 0
    while i < len(element.children):
        child = element.children[i]
        if not isinstance(child, nodes.Text):
            i += 1
            continue
        j = i
        while j + 1 < len(element.children) and isinstance(element.children[j + 1], nodes.Text):
            j += 1
        text = "".join(str(c) for c in element.children[i:j + 1])
        joined = _BREAK.sub("", text)
        if j > i or joined != text:
            element[i:j + 1] = [nodes.Text(joined)]
        i += 1


def setup(app):
    app.add_transform(JoinChineseLines)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
