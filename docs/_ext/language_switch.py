"""The English / 中文 switch: each page links to its twin in the other language.

English pages live at the top of docs/ (``running``), Chinese ones under zh/ (``zh/running``);
lessons and teacher pages keep the language as a folder (``lessons/en/01_x`` <->
``lessons/zh/01_x``, ``teachers/en/setup`` <-> ``teachers/zh/setup``). A page without a twin
links to the other language's home page.
"""

from __future__ import annotations

HOME = {"en": "index", "zh": "zh/index"}


def language_of(docname: str) -> str:
    parts = docname.split("/")
    return "zh" if parts[0] == "zh" or "zh" in parts[:-1] else "en"


def twin(docname: str) -> str:
    """The name the same page has in the other language (it may not exist)."""
    parts = docname.split("/")
    if parts[0] == "zh":
        return "/".join(parts[1:])
    for index, part in enumerate(parts[:-1]):
        if part in ("en", "zh"):
            parts[index] = "zh" if part == "en" else "en"
            return "/".join(parts)
    return "zh/" + docname


def _page_context(app, pagename, templatename, context, doctree):
    if pagename not in app.env.found_docs:
        return
    language = language_of(pagename)
    other = "en" if language == "zh" else "zh"
    target = twin(pagename)
    if target not in app.env.found_docs:
        target = HOME[other]
    context["page_language"] = language
    context["switch_label"] = "English" if other == "en" else "中文"
    context["switch_language"] = other
    context["switch_url"] = context["pathto"](target)
    if language == "zh":
        context["language"] = "zh-CN"


def setup(app):
    app.connect("html-page-context", _page_context)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
