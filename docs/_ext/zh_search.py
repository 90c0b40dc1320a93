"""Search for both languages in one index: Sphinx's Chinese splitter (jieba) with the English
stemmer named so that the page can find it.

Sphinx 9's Chinese search language ships the English stemmer's code (for the English words in
Chinese text) but exports it as ``ChineseStemmer``, which the code never defines, so the
search page stops with "ChineseStemmer is not defined". Naming the language "English" for the
JavaScript makes the export match the code; indexing is unchanged.
"""

from __future__ import annotations

from sphinx import search
from sphinx.search.zh import SearchChinese


class SearchChineseAndEnglish(SearchChinese):
    language_name = "English"


def setup(app):
    search.languages["zh"] = SearchChineseAndEnglish
    return {"parallel_read_safe": True, "parallel_write_safe": True}
