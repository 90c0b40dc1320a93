"""Sphinx configuration of the minigrad site (``make docs``; docs/README.md says why Sphinx).

English pages sit at the top of docs/, Chinese ones under docs/zh/; the lessons are copied from
notebooks/ at build time and rendered from their stored outputs, never executed.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import jieba

DOCS = Path(__file__).resolve().parent
sys.path[:0] = [str(DOCS / "_ext"), str(DOCS.parent)]

import lessons  # noqa: E402  (docs/_ext/lessons.py)

lessons.collect(DOCS)

project = "minigrad"
author = "the minigrad authors"
copyright = "2026, the minigrad authors"
release = "0.1.0"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "language_switch",  # docs/_ext/language_switch.py
    "optional_glob",  # docs/_ext/optional_glob.py: {glob-toctree}
    "source_lines",  # docs/_ext/source_lines.py: links to lines of minigrad/*.py
    "zh_search",  # docs/_ext/zh_search.py: one search index for both languages
    "cjk_lines",  # docs/_ext/cjk_lines.py: no stray spaces in Chinese paragraphs
    "sphinx-mathjax-offline",  # MathJax from _static/mathjax, not from a CDN
]

# _build: make docs writes the site to _build/html and myst-nb its notebook copies beside it
exclude_patterns = ["_build", "jupyter_execute", "README.md", "**/.ipynb_checkpoints"]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["minigrad.css"]

# One search index for both languages: the Chinese splitter (jieba) also indexes English words.
html_search_language = "zh"
# the course's terms (叶子节点, 计算图, 梯度累加...) as whole words: a search for one finds it
html_search_options = {"dict": str(DOCS / "_ext" / "zh_terms.txt")}
jieba.setLogLevel(logging.WARNING)
language = "en"

html_theme = "pydata_sphinx_theme"
html_title = "minigrad"
html_theme_options = {
    "navbar_end": ["language-switch", "theme-switcher", "navbar-icon-links"],
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
}
# the colour scheme follows the reader's system (an empty mode logs an error in the console)
html_context = {"default_mode": "auto"}
html_sidebars = {"**": ["sidebar-nav-bs"]}
html_show_sourcelink = False
html_copy_source = False

# Lessons are rendered from the outputs stored in the notebooks (nbval checks those outputs).
nb_execution_mode = "off"
# The widgets' live view needs a kernel; pages show the static HTML or the text form instead,
# and no page loads the ipywidgets scripts from a CDN.
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None),
                              ("html", "application/vnd.jupyter.widget-state+json", None)]
nb_ipywidgets_js = {}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_typehints = "description"
