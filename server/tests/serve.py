"""Run `tagtrack serve` as a real process for tests that need the whole program."""

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
TAGTRACK = Path(sys.executable).parent / "tagtrack"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Served:
    url: str
    process: subprocess.Popen[str]
    output: list[str] = field(default_factory=list)

    def text(self) -> str:
        return "".join(self.output)

    def listening(self, port: int) -> bool:
        """Whether this server said it serves on `port` (its supervisor's start-up line)."""
        plain = re.sub(r"\x1b\[[0-9;]*m", "", self.text())
        return any(
            re.search(r"\bserving\b", line) and re.search(rf"\bport\W+{port}\b", line)
            for line in plain.splitlines()
        )

    def printed(self, label: str) -> str | None:
        found = re.findall(rf"{label}: (\S+)", self.text())
        return found[-1] if found else None


@contextmanager
def serve(
    env: dict[str, str],
    *args: str,
    timeout: float = 180.0,  # a first start with demo data, on a busy two-core machine
    stop_signal: int = signal.SIGINT,
    port: int | None = None,
    program: Path = TAGTRACK,
    cwd: Path = ROOT,
) -> Iterator[Served]:
    """Start the server (`program serve`, by default this environment's), wait for /healthz,
    stop it with the given signal on exit."""
    port = port or free_port()
    full_env = {
        **os.environ,
        "PYTHONUNBUFFERED": "1",
        "TAGTRACK_PORT": str(port),
        "TAGTRACK_LOG_JSON": "false",
        # One HTTP worker, unless a test asks for more (test_serve_workers does): each worker
        # is a process that imports the whole server, seconds of CPU at every start.
        "TAGTRACK_WORKERS": "1",
        # Test servers run side by side on one database server (its 100 connections): each
        # keeps a few open, not a production worker's twenty.
        "TAGTRACK_DATABASE_POOL_SIZE": "4",
        **env,
    }
    process = subprocess.Popen(
        [str(program), "serve", *args],
        cwd=cwd,
        env=full_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    served = Served(f"http://127.0.0.1:{port}", process)

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            served.output.append(line)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + timeout
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"server exited early:\n{served.text()}")
            try:
                # Another server may answer on the port: a parallel run picked the same free
                # one and listened first (this one then fails to). Only this one's start counts.
                if (
                    served.listening(port)
                    and httpx.get(f"{served.url}/healthz", timeout=1).status_code == 200
                ):
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"server did not become healthy:\n{served.text()}")
            time.sleep(0.2)
        yield served
    finally:
        if process.poll() is None:
            process.send_signal(stop_signal)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        reader.join(timeout=5)


def children(pid: int) -> dict[int, str]:
    """The child processes of pid: their command lines by pid."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if re.search(rf"^PPid:\s+{pid}$", status, re.MULTILINE):
            found[int(entry.name)] = command
    return found


def processing_children(pid: int) -> list[int]:
    return [
        child for child, command in children(pid).items() if "-m tagtrack.processing" in command
    ]


def http_workers(pid: int) -> list[int]:
    return [child for child, command in children(pid).items() if "spawn_main" in command]


def reader_key(url: str, username: str, password: str, site_name: str = "Dock") -> str:
    """Sign in, add a site and an endpoint on it; return the endpoint's key."""
    with httpx.Client(base_url=url, timeout=10) as admin:
        signed_in = admin.post("/api/auth/login", json={"username": username, "password": password})
        assert signed_in.status_code == 200, signed_in.text
        site = admin.post(
            "/api/sites",
            json={
                "name": site_name,
                "description": "",
                "startDate": "2024-03-01T08:00:00Z",
                "timezone": {"id": "Europe/London"},
            },
        )
        assert site.status_code == 201, site.text
        endpoint = admin.post("/api/endpoints", json={"name": "Gate", "site": site.json()["_id"]})
        assert endpoint.status_code == 201, endpoint.text
        return str(endpoint.json()["key"])
