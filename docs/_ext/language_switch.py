"""The English / 中文 switch: each page links to its twin in the other language.

English pages live at the top of docs/ (``running``), Chinese ones under zh/ (``zh/running``);
lessons and teacher pages keep the language as a folder (``lessons/en/01_x`` <->
``lessons/zh/01_x``, ``teachers/en/setup`` <-> ``teachers/zh/setup``). A page without a twin
links to the other language's home page.

A Chinese page is Chinese around its text too: the top navigation lists the Chinese pages (the
toctree of ``zh/index``, as the English one lists ``index``'s), and the theme's own words
(Search, Color mode, Previous, Next, On this page ...) come from Sphinx's and the theme's
Chinese catalogues.
"""

from __future__ import annotations

import gettext
from pathlib import Path

HOME = {"en": "index", "zh": "zh/index"}
# words the theme's Chinese catalogue lacks
THEME_WORDS = {"zh": {"More": "更多", "Color mode": "颜色模式", "Light": "浅色", "Dark": "深色",
                      "System Settings": "跟随系统", "Search the docs ...": "搜索文档……",
                      "Breadcrumb": "当前位置", "Back to top": "回到顶部",
                      "Site navigation": "网站导航", "Section Navigation": "章节导航",
                      "On this page": "本页内容", "previous": "上一页", "next": "下一页"}}


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
        _speak_chinese(context)


def _translations(lang: str) -> gettext.NullTranslations:
    """Sphinx's and the theme's catalogues for ``lang``, the theme's first."""
    import pydata_sphinx_theme
    import sphinx

    found = gettext.NullTranslations()
    for package in (sphinx, pydata_sphinx_theme):  # the last added is asked first
        folder = Path(package.__file__).parent / "locale"
        for code in ("zh_CN", "zh"):
            if (folder / code / "LC_MESSAGES" / "sphinx.mo").is_file():
                table = gettext.translation("sphinx", folder, languages=[code])
                table.add_fallback(found)
                found = table
                break
    return found


_CATALOGUES: dict[str, gettext.NullTranslations] = {}


def _say(lang: str):
    table = _CATALOGUES.setdefault(lang, _translations(lang))
    words = THEME_WORDS[lang]

    def say(message, *args, **kwargs):
        text = words.get(message) or table.gettext(message)
        return text % kwargs if kwargs else text
    return say


def _speak_chinese(context) -> None:
    """The theme's words on a Chinese page in Chinese (its templates' ``_`` and ``{% trans %}``
    look ``gettext`` up in the page's context)."""
    table = _CATALOGUES.setdefault("zh", _translations("zh"))
    say = _say("zh")

    def say_n(singular, plural, n, *args, **kwargs):
        text = table.ngettext(singular, plural, n)
        return text % kwargs if kwargs else text

    context["gettext"], context["ngettext"] = say, say_n
    if "theme_search_bar_text" in context:  # a theme option, not a translated string
        context["theme_search_bar_text"] = say(context["theme_search_bar_text"])


def _chinese_navigation(app, pagename, templatename, context, doctree):
    """The top navigation of a Chinese page lists the Chinese pages (runs after the theme
    has put its ``generate_header_nav_html`` into the context)."""
    header = context.get("generate_header_nav_html")
    if header is None or pagename not in app.env.found_docs or language_of(pagename) != "zh" \
            or HOME["zh"] not in app.env.found_docs:  # (a partial build without the zh home)
        return
    say = _say("zh")

    def chinese_header(n_links_before_dropdown=5, dropdown_text="More"):
        root = app.config.root_doc
        app.config.root_doc = HOME["zh"]  # the pages the Chinese home page lists
        try:
            return header(n_links_before_dropdown, say(dropdown_text))
        finally:
            app.config.root_doc = root

    context["generate_header_nav_html"] = chinese_header


def setup(app):
    app.connect("html-page-context", _page_context)  # before the theme's own handlers
    app.connect("html-page-context", _chinese_navigation, priority=900)  # after them
    return {"parallel_read_safe": True, "parallel_write_safe": True}
