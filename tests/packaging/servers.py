"""JupyterLab or Notebook 7 started from another environment (the fresh one, without Node.js).

The same set-up as tests/browser/labserver.py (127.0.0.1, a fresh token, a temporary root and
settings, news and update checks off), but with that environment's Python and ``PATH``.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass

from labserver import _SETTINGS, Lab, _free_port, _fresh_folders, _serve


@dataclass
class NotebookServer(Lab):
    """A Notebook 7 server: notebooks open at /notebooks/<name>."""

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/notebooks/{name}?token={self.token}"


def start(python: str, path: str, *, app: str = "lab", timeout: float = 90.0) -> Lab:
    """Starts ``python -m jupyterlab`` (app="lab") or ``python -m notebook`` (app="notebook")."""
    # Notebook 7 lacks some of JupyterLab's plugins: settings for them would fail to load
    tmp, base, root, settings = _fresh_folders(f"minigrad-{app}-",
                                               _SETTINGS if app == "lab" else {})
    port, token = _free_port(), secrets.token_hex(16)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "PYTHON"))}
    env.update(PATH=path, JUPYTER_CONFIG_DIR=str(base / "config"),
               JUPYTER_RUNTIME_DIR=str(base / "runtime"), IPYTHONDIR=str(base / "ipython"),
               JUPYTER_PLATFORM_DIRS="1", PYTHONUNBUFFERED="1")
    cls = "LabApp" if app == "lab" else "JupyterNotebookApp"
    command = [python, "-m", "jupyterlab" if app == "lab" else "notebook", "--no-browser",
               "--allow-root", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
               "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
               f"--ServerApp.root_dir={root}", f"--{cls}.user_settings_dir={settings}",
               f"--{cls}.workspaces_dir={base / 'ws'}", f"--{cls}.expose_app_in_browser=True",
               "--LanguageServerManager.autodetect=False"]
    if app == "lab":
        command += ["--LabApp.news_url=None", "--LabApp.extension_manager=readonly",
                    "--LabApp.check_for_updates_class="
                    "jupyterlab.handlers.announcements.NeverCheckForUpdate"]
    return _serve(Lab if app == "lab" else NotebookServer, command, env, tmp, port, token,
                  timeout)
