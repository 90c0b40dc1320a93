"""``{glob-toctree}``: a glob toctree whose patterns may match nothing yet.

Lessons in a second language, solutions and the teacher's kit appear as they are written; a
plain glob toctree warns (and so fails the strict build) while a folder is still empty. This
one drops the patterns that match no page, and the whole toctree when none match.
"""

from __future__ import annotations

from sphinx.directives.other import TocTree
from sphinx.util import docname_join
from sphinx.util.matching import Matcher


class GlobTocTree(TocTree):
    def run(self):
        env = self.state.document.settings.env
        kept = []
        for line in self.content:
            entry = line.strip()
            if entry and not entry.startswith("#"):
                pattern = docname_join(env.docname, entry.lstrip("/")) if not entry.startswith(
                    "/") else entry[1:]
                if not any(Matcher([pattern])(name) for name in env.found_docs):
                    continue
            kept.append(line)
        if not any(line.strip() for line in kept):
            return []
        self.content = type(self.content)(kept, items=[("", 0)] * len(kept))
        self.options["glob"] = True
        return super().run()


def setup(app):
    app.add_directive("glob-toctree", GlobTocTree)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
