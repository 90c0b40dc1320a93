"""The course as a teacher publishes it, served as nbgitpuller needs it.

* :func:`publish_course`: the publishing commands of docs/classroom/index.md (the same block
  in both languages): ``make student``, then ``git init -b student``, commit, and a push
  that goes to a bare repository on this machine instead of GitHub;
* :func:`serve_git`: that repository by git's smart HTTP protocol (``git http-backend``
  behind a small WSGI server in a thread) on 127.0.0.1: nbgitpuller clones with
  ``--depth 1``, which a plain static server refuses;
* :func:`page_links`: the nbgitpuller link of each language's hub page.

Shared by tests/classroom/ and bench/bench_hub.py.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from hubenv import PAGES, REPO

# ---------------------------------------------------------------- git over smart HTTP


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, *args) -> None:
        pass


class _ThreadingWSGIServer(WSGIServer):
    daemon_threads = True

    def process_request(self, request, client_address):
        threading.Thread(target=self._handle, args=(request, client_address),
                         daemon=True).start()

    def _handle(self, request, client_address):
        try:
            self.finish_request(request, client_address)
        except Exception:
            self.handle_error(request, client_address)
        finally:
            self.shutdown_request(request)


def _git_backend(root: Path):
    """A WSGI application that hands each request to ``git http-backend`` (CGI)."""

    def app(environ, start_response):
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        cgi = {"GIT_PROJECT_ROOT": str(root), "GIT_HTTP_EXPORT_ALL": "1",
               "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PATH_INFO": environ["PATH_INFO"],
               "QUERY_STRING": environ.get("QUERY_STRING", ""),
               "REQUEST_METHOD": environ["REQUEST_METHOD"],
               "CONTENT_TYPE": environ.get("CONTENT_TYPE", ""), "CONTENT_LENGTH": str(len(body)),
               "REMOTE_ADDR": environ.get("REMOTE_ADDR", "127.0.0.1")}
        if environ.get("HTTP_GIT_PROTOCOL"):
            cgi["GIT_PROTOCOL"] = environ["HTTP_GIT_PROTOCOL"]
        out = subprocess.run(["git", "http-backend"], input=body, env=cgi, capture_output=True,
                             check=False).stdout
        head, _, payload = out.partition(b"\r\n\r\n")
        if not _:
            head, _, payload = out.partition(b"\n\n")
        status, headers = "200 OK", []
        for line in head.decode("latin-1").splitlines():
            name, _, value = line.partition(":")
            if name.lower() == "status":
                status = value.strip()
            elif name:
                headers.append((name.strip(), value.strip()))
        start_response(status, headers)
        return [payload]

    return app


@dataclass
class GitServer:
    url: str  # of the repository, e.g. http://127.0.0.1:PORT/course.git
    server: WSGIServer
    thread: threading.Thread

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def serve_git(bare_repository: Path) -> GitServer:
    """Serves ``bare_repository`` (a bare repository's folder) read-only on 127.0.0.1."""
    server = make_server("127.0.0.1", 0, _git_backend(bare_repository.parent),
                         server_class=_ThreadingWSGIServer, handler_class=_QuietHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return GitServer(f"http://127.0.0.1:{server.server_port}/{bare_repository.name}",
                     server, thread)


PUBLISH_PAGES = [REPO / "docs" / "classroom" / "index.md",
                 REPO / "docs" / "zh" / "classroom" / "index.md"]


def publish_commands() -> list[str]:
    """The teacher's commands that publish the student branch (the pages' bash block, the
    same in both languages but for its comment)."""
    found = []
    for page in PUBLISH_PAGES:
        block = re.search(r"```bash\n(make student\n.*?)```", page.read_text(encoding="utf-8"),
                          re.S)
        assert block, f"{page.relative_to(REPO)} has no bash block starting `make student`"
        found.append([line.split("#")[0].rstrip() for line in block.group(1).splitlines()
                      if line.strip()])
    assert found[0] == found[1], found
    return found[0]


def publish_course(folder: Path) -> Path:
    """Runs the pages' publishing commands in ``folder``, pushing to a bare repository there
    (instead of GitHub); returns that repository."""
    bare = folder / "course.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    make, cd, commit, push = publish_commands()
    assert make == "make student" and cd == "cd build/student", (make, cd)
    student = folder / "build" / "student"
    # `make student` is this command (Makefile), writing into the folder the page names
    subprocess.run([sys.executable, str(REPO / "notebooks" / "build.py"), "--student",
                    str(student)], check=True, capture_output=True)
    env = {"GIT_AUTHOR_NAME": "Teacher", "GIT_AUTHOR_EMAIL": "teacher@example.org",
           "GIT_COMMITTER_NAME": "Teacher", "GIT_COMMITTER_EMAIL": "teacher@example.org",
           "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(folder)}
    subprocess.run(["bash", "-c", commit], cwd=student, env=env, check=True)
    assert "https://github.com/OWNER/REPO.git" in push, push
    push = push.replace("https://github.com/OWNER/REPO.git", str(bare))
    subprocess.run(["bash", "-c", push + " -q"], cwd=student, env=env, check=True)
    return bare


def page_links() -> dict[str, str]:
    """The nbgitpuller link of each language's hub page (each opens its language's index)."""
    found = {}
    for page in PAGES:
        links = re.findall(r"https://HUB/hub/user-redirect/git-pull\?\S+",
                           page.read_text(encoding="utf-8"))
        assert len(links) == 1, (page, links)
        found["zh" if "/zh/" in page.as_posix() else "en"] = links[0]
    return found
