"""Shared test set-up: the PyTorch oracle and Hypothesis profiles.

Differential tests take the ``torch`` fixture (real PyTorch 2.13). Where PyTorch cannot be
installed (no local wheel on a user's machine) they skip with a message saying so; CI always
has it, and `make test` installs it where a wheel is available.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("thorough", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

TORCH_VERSION = "2.13.0"


def _load_torch():
    try:
        import torch as real_torch
    except ImportError:
        return None, ("PyTorch is not installed here; differential tests need torch=="
                      f"{TORCH_VERSION} (run `make torch`, or pip install torch=={TORCH_VERSION})")
    if real_torch.__version__.split("+")[0] != TORCH_VERSION:
        return None, (f"differential tests need PyTorch {TORCH_VERSION}, found "
                      f"{real_torch.__version__}")
    return real_torch, None


_TORCH, _TORCH_MISSING = _load_torch()


@pytest.fixture(scope="session")
def torch():
    """Real PyTorch 2.13, the oracle; skips the test (saying why) where it can't be had."""
    if _TORCH is None:
        if os.environ.get("CI"):
            pytest.fail(_TORCH_MISSING + " -- CI must have it")
        pytest.skip(_TORCH_MISSING)
    return _TORCH


@pytest.fixture
def mg():
    import minigrad

    return minigrad


@pytest.fixture(autouse=True)
def _widgets_speak_english_again():
    """The widgets' default language is process-wide; a test that sets it (the course checker's
    doctest ends in Chinese) must not change what the next test reads."""
    yield
    i18n = sys.modules.get("minigrad_widgets.i18n")
    if i18n is not None:
        i18n.set_language("en")


# Debian's headless chromium, one instance for the whole session: Playwright's sync API allows
# one running instance per thread, and tests/browser, tests/docs and tests/packaging all use it.
sys.path.insert(0, str(Path(__file__).parent / "browser"))
# The op table (tests/ops/op_table.py) is read by tests outside tests/ops too
# (test_derivatives.py), also when they run on their own.
sys.path.insert(0, str(Path(__file__).parent / "ops"))


@pytest.fixture(scope="session")
def chromium():
    """Debian's chromium; skips only where it is missing and cannot be installed (not root)."""
    from labserver import chromium_path

    path = chromium_path()
    if path:
        return path
    if os.geteuid() == 0 and shutil.which("apt-get"):
        pytest.fail("chromium is not installed, but could be: run `make browser-deps` "
                    "(apt-get install chromium); `make test` does it for you")
    pytest.skip("browser tests need Debian's chromium (/usr/bin/chromium), which only root "
                "can install: ask an administrator to `apt-get install chromium`")


@pytest.fixture(scope="session")
def browser(chromium):
    from labserver import launch_chromium
    from playwright.sync_api import sync_playwright

    playwright = sync_playwright().start()
    instance = launch_chromium(playwright, chromium)
    yield instance
    instance.close()
    playwright.stop()
