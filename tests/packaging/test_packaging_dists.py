"""The sdist and the wheel carry the front end, and a build that cannot make it fails loudly."""

from __future__ import annotations

import re
import subprocess
import tarfile
import zipfile
from email.parser import Parser

import pytest
from pkgenv import BUNDLE_IN_WHEEL, DIST_NAME, REPO, clone, make_env, offline_pip_env

pytestmark = pytest.mark.slow


def _sdist_members(sdist) -> dict[str, int]:
    with tarfile.open(sdist) as archive:
        return {m.name.split("/", 1)[1]: m.size for m in archive.getmembers() if "/" in m.name}


def test_the_wheel_and_the_sdist_carry_the_same_built_bundle(built):
    with zipfile.ZipFile(built.wheel) as wheel:
        bundle = wheel.read(BUNDLE_IN_WHEEL)
        names = wheel.namelist()
    assert len(bundle) > 300_000 and b"export" in bundle  # Graphviz in WebAssembly is inlined
    members = _sdist_members(built.sdist)
    assert members["widgets/static/widget.js"] == len(bundle)
    # the sdist can rebuild the bundle (sources, lock file) but carries no node_modules
    assert {"widgets/js/package.json", "widgets/js/package-lock.json",
            "widgets/js/src/index.js", "hatch_build.py", "LICENSE"} <= set(members)
    assert not [m for m in members if "node_modules" in m]
    assert {"minigrad_widgets/static/widget.css", "minigrad_widgets/static/views.css"} <= set(names)
    assert not [n for n in names if n.startswith(("widgets/", "minigrad_widgets/js/"))]


def test_the_wheel_is_named_and_described_for_pypi(built):
    assert built.wheel.name.startswith("minigrad_autograd-")
    with zipfile.ZipFile(built.wheel) as wheel:
        metadata_name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = Parser().parsestr(wheel.read(metadata_name).decode())
    assert metadata["Name"] == DIST_NAME
    assert {"widgets", "lab", "test", "docs"} <= set(metadata.get_all("Provides-Extra"))
    requires = metadata.get_all("Requires-Dist")
    assert any(r.startswith("numpy") and "extra" not in r for r in requires)
    assert any(r.startswith("anywidget") and "extra == 'widgets'" in r for r in requires)
    assert any(r.startswith("jupyterlab") and "extra == 'lab'" in r for r in requires)


def test_the_build_prints_no_warning(built):
    warnings = [line for line in built.log.splitlines() if re.search(r"warn", line, re.I)
                and "Location 'file:" not in line]  # pip's note on this machine's local index
    assert warnings == []
    assert "Successfully built minigrad_autograd-0.1.0.tar.gz and " in built.log


def test_a_wheel_built_from_the_sdist_without_node_has_the_bundle(built, tmp_path):
    out = tmp_path / "wheels"
    env = offline_pip_env("/nonexistent")
    env.pop("PIP_CONFIG_FILE")  # the build backend comes from the index
    result = subprocess.run([_venv_python(), "-m", "pip", "wheel", "-q", "--no-deps",
                             "-w", str(out), str(built.sdist)], capture_output=True, text=True,
                            env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    (wheel,) = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert len(archive.read(BUNDLE_IN_WHEEL)) > 300_000


def test_a_clone_without_node_fails_to_build_and_says_why(tmp_path):
    source = clone(tmp_path / "minigrad")
    env = offline_pip_env("/nonexistent")
    env.pop("PIP_CONFIG_FILE")
    result = subprocess.run([_venv_python(), "-m", "pip", "wheel", "--no-deps", "-w",
                             str(tmp_path / "out"), str(source)], capture_output=True, text=True,
                            env=env)
    assert result.returncode != 0
    assert "Could not find cmd (npm)" in result.stdout + result.stderr
    assert not list((tmp_path / "out").glob("*.whl"))


def test_importing_the_widgets_without_their_extra_names_the_extra(built, tmp_path):
    env = make_env(tmp_path / "bare", built.wheelhouse, DIST_NAME)  # NumPy only
    env.run("-c", "import minigrad; print(minigrad.tensor([1.]) * 2)")
    result = subprocess.run([env.python, "-c", "import minigrad_widgets"], capture_output=True,
                            text=True, env=offline_pip_env(env.path))
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last == ("ImportError: minigrad_widgets needs graphviz, anywidget, traitlets, "
                    "IPython; install the widgets extra: pip install "
                    "'minigrad-autograd[widgets]'")


def _venv_python() -> str:
    return str(REPO / ".venv" / "bin" / "python")
