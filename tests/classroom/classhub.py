"""A real JupyterHub on 127.0.0.1 and students who use it (the course's git server:
coursegit.py).

Shared by tests/classroom/ and bench/bench_hub.py.

* :func:`start_hub`: JupyterHub with its built-in ``dummy`` authenticator (one shared
  password) and ``simple`` spawner (each student's server a local process, home folders
  under a temporary folder), configurable-http-proxy in front, on free loopback ports.
  :meth:`Hub.stop` stops the hub, which stops the students' servers and the proxy, then
  kills whatever of its process tree is left, and reports it.
* :class:`Student`: a browser-less student (HTTP requests with cookies): logs in through
  the login form, opens the nbgitpuller link (which starts their server and pulls the
  course), and runs notebooks in a kernel of their own server over the kernel websocket.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, quote, urlencode, urlparse

import requests
import websocket
from hubenv import HubEnv, clean_env

PASSWORD = "classroom"  # the dummy authenticator's one password for every student
TARGET = "minigrad-course"
LAB_ARGS = ["--ServerApp.allow_root=True", "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class="
            "jupyterlab.handlers.announcements.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly", "--LanguageServerManager.autodetect=False",
            "--LabApp.expose_app_in_browser=True"]
LANGUAGE_SETTING = "@jupyterlab/translation-extension/plugin.jupyterlab-settings"
# In every student's home before the first start: no news, every cell kept in the page.
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# ---------------------------------------------------------------- the hub


def _descendants(pid: int) -> set[int]:
    """Every living process below ``pid`` (from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, stack = set(), [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@dataclass
class Hub:
    url: str  # the proxy's public address, e.g. http://127.0.0.1:PORT
    token: str  # an admin service's API token
    env: HubEnv
    process: subprocess.Popen
    folder: Path
    _tmp: tempfile.TemporaryDirectory = field(repr=False)
    _known: set[int] = field(default_factory=set, repr=False)

    @property
    def log(self) -> Path:
        return self.folder / "hub.log"

    def log_tail(self, lines: int = 60) -> str:
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def api(self, method: str, path: str, **kwargs) -> requests.Response:
        return requests.request(method, f"{self.url}/hub/api{path}", timeout=60,
                                headers={"Authorization": f"token {self.token}"}, **kwargs)

    def server_pids(self) -> dict[str, int]:
        """The process id of each running student server (the spawner's state)."""
        users = self.api("GET", "/users", params={"state": "active"}).json()
        pids = {}
        for user in users:
            full = self.api("GET", f"/users/{user['name']}").json()
            server = full.get("servers", {}).get("", {})
            if server.get("state", {}).get("pid"):
                pids[user["name"]] = server["state"]["pid"]
        return pids

    def processes(self) -> set[int]:
        """The hub's process tree now (remembered, so stop() can check every one ended)."""
        if self.process.poll() is None:
            self._known |= _descendants(self.process.pid) | {self.process.pid}
        return {pid for pid in self._known if _alive(pid)}

    def stop(self) -> list[int]:
        """Stops the hub (it stops the students' servers and the proxy); kills what is left
        of every process it started. Returns the pids that had to be killed."""
        self.processes()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and any(_alive(p) for p in self._known):
            time.sleep(0.2)
        killed = [pid for pid in self._known if _alive(pid)]
        for pid in killed:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        self._tmp.cleanup()
        return killed


def _config(env: HubEnv, folder: Path, port: int, token: str) -> str:
    return f"""
c = get_config()  # noqa
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {free_port()}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{free_port()}"
c.ConfigurableHTTPProxy.command = [{str(env.proxy)!r}]
c.JupyterHub.db_url = "sqlite:///{folder}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{folder}/jupyterhub_cookie_secret"
c.JupyterHub.authenticator_class = "dummy"
c.DummyAuthenticator.password = {PASSWORD!r}
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{folder}/home/{{username}}"
c.Spawner.cmd = [{str(env.bin / "jupyterhub-singleuser")!r}]
c.Spawner.args = {LAB_ARGS!r}
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 300
c.Spawner.http_timeout = 300
c.Spawner.environment = {{"PYTHONUNBUFFERED": "1"}}
c.JupyterHub.services = [{{"name": "classroom-test", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [{{"name": "classroom-test", "services": ["classroom-test"],
    "scopes": ["admin:users", "admin:servers", "tokens", "list:users", "read:users"]}}]
"""


def start_hub(env: HubEnv, *, timeout: float = 120.0) -> Hub:
    """Starts JupyterHub from ``env`` on a free loopback port, in a temporary folder."""
    tmp = tempfile.TemporaryDirectory(prefix="minigrad-hub-")
    folder = Path(tmp.name)
    (folder / "home").mkdir()
    port, token = free_port(), secrets.token_hex(16)
    (folder / "jupyterhub_config.py").write_text(_config(env, folder, port, token))
    with open(folder / "hub.log", "wb") as out:
        process = subprocess.Popen([str(env.bin / "jupyterhub"), "-f",
                                    str(folder / "jupyterhub_config.py")],
                                   stdout=out, stderr=subprocess.STDOUT, cwd=folder,
                                   env=clean_env(env), start_new_session=True)
    hub = Hub(f"http://127.0.0.1:{port}", token, env, process, folder, tmp)
    try:
        _wait_until_up(hub, timeout)
    except BaseException:
        hub.stop()
        raise
    return hub


def _wait_until_up(hub: Hub, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if hub.process.poll() is not None:
            raise RuntimeError(f"JupyterHub exited with {hub.process.returncode}:\n"
                               + hub.log_tail())
        try:
            if requests.get(f"{hub.url}/hub/api/", timeout=2).status_code == 200:
                hub.processes()
                return
        except requests.RequestException:
            pass
        time.sleep(0.3)
    raise TimeoutError(f"JupyterHub did not answer within {timeout:.0f} s:\n{hub.log_tail()}")


def prepare_home(hub: Hub, name: str, *, locale: str | None = None) -> Path:
    """A student's home folder as the spawner will use it, with quiet JupyterLab settings;
    with ``locale``, JupyterLab's language as Settings > Language would store it."""
    home = hub.folder / "home" / name
    settings = home / ".jupyter" / "lab" / "user-settings"
    chosen = dict(LAB_SETTINGS)
    if locale:
        chosen[LANGUAGE_SETTING] = {"locale": locale}
    for path, values in chosen.items():
        (settings / path).parent.mkdir(parents=True, exist_ok=True)
        (settings / path).write_text(json.dumps(values))
    return home


def hub_link(page_link: str, hub: Hub, repository: str) -> str:
    """The page's nbgitpuller link with HUB and the course repository filled in."""
    parsed = urlparse(page_link.replace("https://HUB", hub.url))
    query = {k: v[0] for k, v in parse_qs(parsed.query).items()}
    query["repo"] = repository
    return parsed._replace(query=urlencode(query, quote_via=quote, safe="")).geturl()


# ---------------------------------------------------------------- a student


class Student:
    """A student without a browser: a requests session holding the hub's cookies."""

    def __init__(self, hub: Hub, name: str):
        self.hub, self.name = hub, name
        self.session = requests.Session()
        self.base = f"{hub.url}/user/{name}"

    def login(self) -> None:
        """Fills in the hub's login form (with its _xsrf field) and submits it."""
        form = self.session.get(f"{self.hub.url}/hub/login", timeout=60)
        form.raise_for_status()
        xsrf = re.search(r'name="_xsrf"\s+value="([^"]+)"', form.text)
        assert 'name="username"' in form.text and 'name="password"' in form.text, form.text
        data = {"username": self.name, "password": PASSWORD}
        if xsrf:
            data["_xsrf"] = xsrf.group(1)
        answer = self.session.post(f"{self.hub.url}/hub/login", data=data,
                                   allow_redirects=False, timeout=60)
        assert answer.status_code == 302, (answer.status_code, answer.text[-2000:])
        assert any(c.name.startswith("jupyterhub-") for c in self.session.cookies), \
            f"no hub cookie after logging in {self.name}"

    def open_link(self, link: str, *, timeout: float = 300) -> requests.Response:
        """Opens the nbgitpuller link: the hub starts the student's server (waiting as the
        spawn-pending page does), then the server's git-pull page."""
        answer = self.session.get(link, timeout=60)
        deadline = time.monotonic() + timeout
        while "/spawn-pending/" in answer.url or "/hub/spawn" in answer.url:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name}'s server did not start:\n{self.hub.log_tail()}")
            status = self.hub.api("GET", f"/users/{self.name}").json()
            server = status.get("servers", {}).get("")
            if server and server.get("ready"):
                answer = self.session.get(link, timeout=60)
            elif status.get("pending") is None and not server:
                raise RuntimeError(f"{self.name}'s server failed to start:\n"
                                   f"{self.hub.log_tail()}")
            else:
                time.sleep(0.5)
        answer.raise_for_status()
        return answer

    def pull(self, link: str) -> list[dict]:
        """What nbgitpuller's page does in a browser: streams its pull API until it is done.
        Returns the events; fails on an error event."""
        query = parse_qs(urlparse(link).query)
        params = {k: query[k][0] for k in ("repo", "branch", "targetpath")}
        events = []
        with self.session.get(f"{self.base}/git-pull/api", params=params, stream=True,
                              timeout=300) as answer:
            answer.raise_for_status()
            for line in answer.iter_lines(decode_unicode=True):
                if line and line.startswith("data:"):
                    event = json.loads(line[5:])
                    events.append(event)
                    if event.get("phase") in ("finished", "error"):
                        break
        assert events and events[-1].get("phase") == "finished", events[-5:]
        return events

    def xsrf(self) -> str:
        """The student's server's _xsrf cookie (the hub has one of its own, on /hub/)."""
        for _ in range(2):
            for cookie in self.session.cookies:
                if cookie.name == "_xsrf" and cookie.path.startswith(f"/user/{self.name}"):
                    return cookie.value
            self.session.get(f"{self.base}/lab", timeout=60).raise_for_status()
        raise AssertionError(f"{self.name}'s server set no _xsrf cookie")

    def api(self, method: str, path: str, **kwargs) -> requests.Response:
        headers = {"X-XSRFToken": self.xsrf()} if method != "GET" else {}
        answer = self.session.request(method, f"{self.base}/api{path}", headers=headers,
                                      timeout=120, **kwargs)
        answer.raise_for_status()
        return answer

    def notebook(self, path: str) -> dict:
        return self.api("GET", f"/contents/{quote(path)}", params={"content": 1}).json()["content"]

    def kernel(self, path: str) -> Kernel:
        """A kernel of this student's server for the notebook at ``path`` (its folder is
        the kernel's working folder, as when the student opens it in JupyterLab)."""
        session = self.api("POST", "/sessions", json={
            "path": path, "name": Path(path).name, "type": "notebook",
            "kernel": {"name": "python3"}}).json()
        return Kernel(self, session["id"], session["kernel"]["id"])

    def run_notebook(self, path: str) -> list[Cell]:
        """Runs every code cell of the notebook at ``path`` in a fresh kernel, in order."""
        nb = self.notebook(path)
        kernel = self.kernel(path)
        try:
            return [kernel.execute("".join(cell["source"]) if isinstance(cell["source"], list)
                                   else cell["source"],
                                   tags=cell.get("metadata", {}).get("tags", []))
                    for cell in nb["cells"] if cell["cell_type"] == "code"]
        finally:
            kernel.close()


@dataclass
class Cell:
    code: str
    tags: list[str]
    outputs: list[dict]
    errors: list[str]
    seconds: float

    @property
    def text(self) -> str:
        parts = []
        for o in self.outputs:
            parts.append(o.get("text") or o.get("data", {}).get("text/plain") or "")
        return "".join(parts)


class Kernel:
    """A kernel reached through its server's websocket, as JupyterLab reaches it."""

    def __init__(self, student: Student, session_id: str, kernel_id: str):
        self.student, self.session_id, self.kernel_id = student, session_id, kernel_id
        self.client_session = uuid.uuid4().hex
        self.ws = self._connect()

    def _request(self, msg_type: str, content: dict) -> str:
        msg_id = uuid.uuid4().hex
        self.ws.send(json.dumps({
            "header": {"msg_id": msg_id, "username": self.student.name,
                       "session": self.client_session, "msg_type": msg_type,
                       "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": content}))
        return msg_id

    def _connect(self, attempts: int = 5):
        """The kernel's websocket, once the kernel answered a kernel_info request on it. As
        JupyterLab does, a connection the server closes (a kernel still starting on a loaded
        machine) is opened again, a few times."""
        url = self.student.base.replace("http://", "ws://") + \
            f"/api/kernels/{self.kernel_id}/channels"
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.student.session.cookies)
        for attempt in range(attempts):
            self.ws = websocket.create_connection(url, cookie=cookies, timeout=120)
            try:
                msg_id = self._request("kernel_info_request", {})
                while True:
                    message = json.loads(self.ws.recv())
                    if (message.get("parent_header", {}).get("msg_id") == msg_id
                            and message["msg_type"] == "kernel_info_reply"):
                        return self.ws
            except (websocket.WebSocketConnectionClosedException,
                    websocket.WebSocketTimeoutException):
                self.ws.close()
                if attempt == attempts - 1:
                    raise
                time.sleep(2)
        raise AssertionError("unreachable")

    def execute(self, code: str, *, tags=(), timeout: float = 240) -> Cell:
        msg_id = self._request("execute_request", {
            "code": code, "silent": False, "store_history": True, "user_expressions": {},
            "allow_stdin": False, "stop_on_error": True})
        start, outputs, errors = time.monotonic(), [], []
        idle = replied = False
        while not (idle and replied):
            if time.monotonic() - start > timeout:
                raise TimeoutError(f"a cell ran over {timeout:.0f} s:\n{code}")
            message = json.loads(self.ws.recv())
            if message.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = message["msg_type"], message["content"]
            if kind in ("stream", "execute_result", "display_data"):
                outputs.append(content)
            elif kind == "error":
                errors.append(f"{content['ename']}: {content['evalue']}")
            elif kind == "status" and content["execution_state"] == "idle":
                idle = True
            elif kind == "execute_reply":
                replied = True
                if content["status"] == "error" and not errors:
                    errors.append(f"{content.get('ename')}: {content.get('evalue')}")
        return Cell(code, list(tags), outputs, errors, time.monotonic() - start)

    def close(self) -> None:
        try:
            self.ws.close()
        finally:
            self.student.api("DELETE", f"/sessions/{self.session_id}")
