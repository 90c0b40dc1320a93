"""The classroom's software, installed the way a teacher installs it, and cached between runs.

A hub's user environment before the teacher touches it has JupyterHub, JupyterLab and a
Python kernel (``HUB_PACKAGES``, from PyPI). Into it goes exactly the install line of
docs/classroom/jupyterhub.md, with the name ``minigrad-autograd`` replaced by this
checkout's wheel (``python -m build --wheel``): so a page that forgets an extra the lessons
need makes a hub that fails them. The proxy, configurable-http-proxy, comes from npm.

Everything lives in ``.cache/classroom/`` (git-ignored; ``MINIGRAD_CLASSROOM_CACHE`` moves
it), in a folder named by a hash of what went in: the page's line, ``HUB_PACKAGES``, this
Python, and every file of the wheel (pyproject, minigrad/, widgets/ with the built front
end). A second run with nothing changed reuses it; a change builds a fresh one.
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("MINIGRAD_CLASSROOM_CACHE", REPO / ".cache" / "classroom"))
PAGES = [REPO / "docs" / "classroom" / "jupyterhub.md",
         REPO / "docs" / "zh" / "classroom" / "jupyterhub.md"]
DIST_NAME = "minigrad-autograd"
# What a hub has before the teacher installs anything (TLJH's user environment has these).
HUB_PACKAGES = ["jupyterhub==6.1.1", "jupyterlab>=4.4,<5", "ipykernel>=6"]
PROXY = "configurable-http-proxy@5.3.0"
GRADER_PACKAGES = ["nbgrader==0.9.6", "ipykernel>=6"]
WHEEL_INPUTS = ["pyproject.toml", "hatch_build.py", "README.md", "LICENSE", "minigrad", "widgets"]


class Unavailable(Exception):
    """The tools cannot be installed here (no npm, or no package registry reachable)."""


@dataclass
class HubEnv:
    """A built environment: ``venv`` (hub, Lab, kernel and the page's install), ``proxy``."""

    root: Path
    venv: Path
    proxy: Path
    wheel: Path
    requirements: list[str]

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    @property
    def python(self) -> str:
        return str(self.bin / "python")

    def has(self, module: str) -> bool:
        """Whether the hub's user environment can import ``module``."""
        probe = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({module!r}) is None)"
        return subprocess.run([self.python, "-c", probe], env=clean_env(self)).returncode == 0


def page_install_lines() -> list[list[str]]:
    """The arguments after ``pip install`` in every install line of the hub pages, both
    languages (the TLJH terminal line and the Dockerfile's RUN line), options left out."""
    lines = []
    text = "".join(page.read_text(encoding="utf-8") for page in PAGES)
    blocks = re.findall(r"^```\w*\n(.*?)^```", text, re.S | re.M)
    for line in "".join(blocks).splitlines():
        match = re.search(r"\bpip install (.+)$", line)
        if match and DIST_NAME in line:
            words = [w for w in shlex.split(match.group(1)) if not w.startswith("-")]
            lines.append(words)
    if not lines:
        raise AssertionError(f"the hub pages have no `pip install {DIST_NAME}...` line")
    return lines


def page_requirements() -> list[str]:
    """The one set of requirements the pages tell a hub's admin to install."""
    lines = page_install_lines()
    assert all(words == lines[0] for words in lines), f"the page's install lines differ: {lines}"
    return lines[0]


def page_language_packs() -> list[str]:
    """The JupyterLab language packs both hub pages install (``pip install jupyterlab-
    language-pack-...`` in a code block), in the same words."""
    found = []
    for page in PAGES:
        blocks = re.findall(r"^```\w*\n(.*?)^```", page.read_text(encoding="utf-8"),
                            re.S | re.M)
        found.append(re.findall(r"\bpip install (jupyterlab-language-pack-[\w-]+)$",
                                "".join(blocks), re.M))
    assert found[0] == found[1], found
    return found[0]


def _wheel_files() -> list[Path]:
    files = []
    for name in WHEEL_INPUTS:
        path = REPO / name
        if path.is_file():
            files.append(path)
            continue
        for file in sorted(path.rglob("*")):
            parts = set(file.relative_to(REPO).parts)
            if file.is_file() and not parts & {"node_modules", "__pycache__"}:
                files.append(file)
    return files


def cache_key(requirements: list[str], base: list[str] = HUB_PACKAGES) -> str:
    digest = hashlib.sha256()
    digest.update(repr((requirements, base, PROXY, sys.version)).encode())
    for file in _wheel_files():
        digest.update(str(file.relative_to(REPO)).encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()[:16]


def clean_env(env: HubEnv | None = None) -> dict[str, str]:
    """This process's environment without its venv, Jupyter or Python settings; with
    ``env``, that environment's bin first on PATH."""
    ours = str(Path(sys.executable).parent)
    path = [p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != ours]
    result = {k: v for k, v in os.environ.items()
              if not k.startswith(("JUPYTER", "PYTHON", "VIRTUAL_ENV", "IPYTHON"))}
    result["PATH"] = os.pathsep.join(([str(env.bin)] if env else []) + path)
    return result


def _run(command: list, log: Path, **kwargs) -> None:
    with open(log, "a") as out:
        out.write(f"$ {' '.join(map(str, command))}\n")
        out.flush()
        result = subprocess.run(list(map(str, command)), stdout=out, stderr=subprocess.STDOUT,
                                **kwargs)
    if result.returncode != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-40:])
        raise subprocess.CalledProcessError(result.returncode, command, tail)


def _registry_reachable(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=15):
            return True
    except OSError:
        return False


def _pip_index() -> str:
    index = os.environ.get("PIP_INDEX_URL") or subprocess.run(
        [sys.executable, "-m", "pip", "config", "get", "global.index-url"],
        capture_output=True, text=True).stdout.strip()
    return (index or "https://pypi.org/simple").rstrip("/") + "/jupyterhub/"


def _npm_registry() -> str:
    registry = subprocess.run(["npm", "config", "get", "registry"], capture_output=True,
                              text=True).stdout.strip()
    return (registry or "https://registry.npmjs.org/").rstrip("/") + "/configurable-http-proxy"


def build(requirements: list[str] | None = None, *, log=print) -> HubEnv:
    """The cached environment for ``requirements`` (default: the page's), built if missing.
    Raises :class:`Unavailable` where npm is missing or a registry cannot be reached."""
    requirements = requirements or page_requirements()
    if shutil.which("npm") is None:
        raise Unavailable("the hub test needs npm (Node.js) to install configurable-http-proxy")
    key = cache_key(requirements, HUB_PACKAGES + page_language_packs())
    root = CACHE / f"hub-{key}"
    proxy = CACHE / "proxy" / "node_modules" / ".bin" / "configurable-http-proxy"
    if not proxy.exists():
        _install_proxy(proxy.parents[2], log)
    _cached_venv(root, HUB_PACKAGES + page_language_packs(), requirements, log)
    wheel = next((root / "wheel").glob("*.whl"))
    return HubEnv(root, root / "venv", proxy, wheel, requirements)


def build_grader(*, log=print) -> HubEnv:
    """The cached environment of a teacher who grades: nbgrader (``GRADER_PACKAGES``) and the
    package with the ``course`` extra, as on the hub."""
    requirements = [f"{DIST_NAME}[course]"]
    root = CACHE / f"grader-{cache_key(requirements, GRADER_PACKAGES)}"
    _cached_venv(root, GRADER_PACKAGES, requirements, log)
    wheel = next((root / "wheel").glob("*.whl"))
    return HubEnv(root, root / "venv", root / "no-proxy", wheel, requirements)


def _cached_venv(root: Path, base: list[str], requirements: list[str], log) -> None:
    if (root / "complete").exists():
        return
    kind = root.name.split("-")[0]
    for old in CACHE.glob(f"{kind}-*"):  # one environment of a kind: ~400 MB each
        shutil.rmtree(old, ignore_errors=True)
    _install_venv(root, base, requirements, log)


def _install_proxy(folder: Path, log) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    log(f"classroom: npm install {PROXY} into {folder}")
    try:
        _run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix",
              folder, PROXY], folder / "npm.log")
    except subprocess.CalledProcessError as error:
        if not _registry_reachable(_npm_registry()):
            raise Unavailable(f"npm's registry ({_npm_registry()}) cannot be reached, so "
                              "configurable-http-proxy cannot be installed") from error
        raise


def _install_venv(root: Path, base: list[str], requirements: list[str], log) -> None:
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    journal = root / "install.log"
    log(f"classroom: building an environment in {root} (log: {journal})")
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", root / "wheel", REPO], journal)
    wheel = next((root / "wheel").glob("*.whl"))
    # the page's line, with the package's name replaced by the wheel just built
    args = [str(wheel) + r[len(DIST_NAME):] if r.startswith(DIST_NAME) else r
            for r in requirements]
    _run([sys.executable, "-m", "venv", root / "venv"], journal)
    pip = [root / "venv" / "bin" / "python", "-m", "pip", "install", "-q", "--no-compile"]
    try:
        _run(pip + base, journal, env=clean_env())
        _run(pip + args, journal, env=clean_env())
    except subprocess.CalledProcessError as error:
        if not _registry_reachable(_pip_index()):
            raise Unavailable(f"the package index ({_pip_index()}) cannot be reached, so "
                              "JupyterHub cannot be installed") from error
        raise
    (root / "complete").write_text(" ".join(args) + "\n")
