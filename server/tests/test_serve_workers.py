"""`tagtrack serve` with two HTTP workers: both answer, the installation's single work
(processing, daily jobs) runs once, live notices reach every worker's streams, sign-in
lockout counts across workers, and SIGTERM stops every process."""

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import psycopg
import pytest
from prometheus_client.multiprocess import MultiProcessCollector

from tests.database import fresh_database
from tests.serve import TAGTRACK, Served, children, http_workers, processing_children, serve
from tests.tracking import epc
from tests.waiting import eventually

WORKERS = 2
LOCK_AFTER = 4
STARTUP_SECONDS = 240


@dataclass
class Server:
    served: Served
    database: str
    admin: dict[str, str]
    key: str
    site_id: str
    folder: Path

    @property
    def pid(self) -> int:
        return self.served.process.pid


def query(database: str, sql: str, *params: object) -> list[tuple[Any, ...]]:
    with psycopg.connect(database.replace("+asyncpg", "")) as connection:
        return connection.execute(sql, params).fetchall()


def metrics_folder(pid: int) -> Path:
    (processing,) = processing_children(pid)
    environ = dict(
        line.split("=", 1)
        for line in Path(f"/proc/{processing}/environ").read_text().split("\0")
        if "=" in line
    )
    return Path(environ["PROMETHEUS_MULTIPROC_DIR"])


def samples_of(folder: Path, pid: int, name: str, **labels: str) -> float:
    """The sum of one metric's samples written by one process (its own files)."""
    files = [str(path) for path in folder.glob(f"*_{pid}.db")]
    total = 0.0
    for metric in MultiProcessCollector.merge(files):  # type: ignore[no-untyped-call]
        for sample in metric.samples:
            if sample.name == name and labels.items() <= sample.labels.items():
                total += sample.value
    return total


def login(url: str, username: str, password: str = "wrong") -> httpx.Response:
    # A connection of its own each time: the kernel hands it to either worker.
    return httpx.post(
        f"{url}/api/auth/login", json={"username": username, "password": password}, timeout=30
    )


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with fresh_database() as database:
        env = {
            "TAGTRACK_DATABASE_URL": database,
            "TAGTRACK_WORKERS": str(WORKERS),
            "TAGTRACK_WEB_DIST": "/nonexistent",
            "TAGTRACK_LOGIN_LOCKOUT_FAILURES": str(LOCK_AFTER),
            "TAGTRACK_LOGIN_RATE_LIMIT_PER_MINUTE": "1000",
            "TAGTRACK_DAILY_TICK_SECONDS": "1",
        }
        with serve(env, stop_signal=signal.SIGTERM, timeout=STARTUP_SECONDS) as served:
            username, password = served.printed("Username"), served.printed("Password")
            assert username and password, served.text()
            admin = {"username": username, "password": password}
            with httpx.Client(base_url=served.url, timeout=30) as client:
                assert client.post("/api/auth/login", json=admin).status_code == 200
                site = client.post(
                    "/api/sites",
                    json={
                        "name": "Dock",
                        "description": "",
                        "startDate": "2024-03-01T08:00:00Z",
                        "timezone": {"id": "UTC"},
                        # Long past today: the daily jobs are due at once.
                        "reportSettings": {"dailyTime": "00:00", "emails": ["ops@example.com"]},
                    },
                )
                assert site.status_code == 201, site.text
                endpoint = client.post(
                    "/api/endpoints",
                    json={
                        "name": "Gate",
                        "site": site.json()["_id"],
                        "autoEnroll": {"enabled": True},
                    },
                )
                assert endpoint.status_code == 201, endpoint.text
            folder = metrics_folder(served.process.pid)
            yield Server(
                served,
                database,
                admin,
                endpoint.json()["key"],
                site.json()["_id"],
                folder,
            )


def test_two_http_workers_and_one_processing_process_answer(server: Server) -> None:
    workers = eventually(
        lambda: len(http_workers(server.pid)) == WORKERS and http_workers(server.pid)
    )
    assert len(processing_children(server.pid)) == 1, children(server.pid)

    def answered_by_both() -> bool:
        with ThreadPoolExecutor(16) as pool:
            answers = list(
                pool.map(lambda _: httpx.get(f"{server.served.url}/healthz", timeout=30), range(32))
            )
        assert all(answer.status_code == 200 for answer in answers)
        served = [
            samples_of(server.folder, pid, "tagtrack_http_requests_total", route="/healthz")
            for pid in workers
        ]
        return all(count > 0 for count in served)

    eventually(answered_by_both)
    # Every worker's requests add up in /metrics, whichever worker answers the scrape.
    text = httpx.get(f"{server.served.url}/metrics", timeout=30).text
    assert 'tagtrack_http_requests_total{method="GET",route="/healthz",status="200"}' in text


def test_reads_posted_to_both_workers_are_processed_once(server: Server) -> None:
    workers = http_workers(server.pid)
    tags: list[str] = []

    def post(tag: str) -> int:
        body = orjson.dumps({"reads": [{"tag": tag, "antenna": 1}]})
        return httpx.post(
            f"{server.served.url}/api/ingest/reads",
            content=body,
            headers={"Authorization": f"Bearer {server.key}", "Content-Type": "application/json"},
            timeout=30,
        ).status_code

    def accepted() -> list[float]:
        return [
            samples_of(server.folder, pid, "tagtrack_ingest_reads_accepted_total")
            for pid in workers
        ]

    # Each post on a connection of its own, until both workers have taken some.
    while not all(accepted()):
        assert len(tags) < 200, accepted()
        batch = [epc() for _ in range(20)]
        tags += batch
        with ThreadPoolExecutor(8) as pool:
            assert set(pool.map(post, batch)) == {202}
    assert sum(accepted()) == len(tags)

    def processed() -> bool:
        return bool(query(server.database, "SELECT count(*) FROM pending_read_batches")[0][0] == 0)

    eventually(processed)
    events = query(
        server.database,
        "SELECT tag, count(*) FROM events WHERE tag = ANY(%s) GROUP BY tag",
        tags,
    )
    assert sorted(tag for tag, _ in events) == sorted(tags)
    assert {count for _, count in events} == {1}


def _open_stream(stack: ExitStack, url: str, admin: dict[str, str]) -> Iterator[str]:
    console = stack.enter_context(httpx.Client(base_url=url, timeout=60))
    assert console.post("/api/auth/login", json=admin).status_code == 200
    stream = stack.enter_context(console.stream("GET", "/api/live"))
    assert stream.status_code == 200
    lines = stream.iter_lines()
    assert next(lines).startswith("retry:")
    return lines


def test_a_read_posted_through_one_worker_reaches_the_streams_of_both(server: Server) -> None:
    workers = http_workers(server.pid)
    with ExitStack() as stack:
        streams: list[Iterator[str]] = []

        def streaming() -> list[float]:
            return [samples_of(server.folder, pid, "tagtrack_live_streams") for pid in workers]

        # Consoles come in until each worker holds at least one stream.
        while not all(streaming()):
            assert len(streams) < 40, streaming()
            streams.append(_open_stream(stack, server.served.url, server.admin))
        body = orjson.dumps({"reads": [{"tag": epc(), "antenna": 1}]})
        posted = httpx.post(
            f"{server.served.url}/api/ingest/reads",
            content=body,
            headers={"Authorization": f"Bearer {server.key}", "Content-Type": "application/json"},
            timeout=30,
        )
        assert posted.status_code == 202
        for lines in streams:
            data = next(line for line in lines if line.startswith("data:"))
            assert server.site_id in data, data


def failures_by_worker(server: Server) -> dict[int, float]:
    return {
        pid: samples_of(
            server.folder,
            pid,
            "tagtrack_http_requests_total",
            route="/api/auth/login",
            status="401",
        )
        for pid in http_workers(server.pid)
    }


def test_sign_in_lockout_counts_attempts_on_every_worker(server: Server) -> None:
    url = server.served.url
    # As many failures as lock a name, at once on connections of their own, until both
    # workers have answered some of them: neither worker alone saw enough to lock.
    for _ in range(10):
        username = f"nobody-{epc().lower()}@example.com"
        before = failures_by_worker(server)
        with ThreadPoolExecutor(LOCK_AFTER) as pool:
            answers = list(pool.map(login, [url] * LOCK_AFTER, [username] * LOCK_AFTER))
        assert all(answer.status_code == 401 for answer in answers)
        after = failures_by_worker(server)
        if all(after[pid] > before[pid] for pid in before):
            break
    else:
        pytest.fail("the failed sign-ins never reached both workers")
    # Whichever worker answers now, the name is locked.
    for _ in range(6):
        locked = login(url, username, "wrong")
        assert locked.status_code == 401
        assert locked.json()["reason"] == "account locked", locked.text


def test_the_daily_jobs_run_once(server: Server) -> None:
    def ran() -> list[tuple[Any, ...]]:
        return query(
            server.database,
            "SELECT kind, count(*) FROM daily_runs WHERE site_id = %s GROUP BY kind ORDER BY kind",
            server.site_id,
        )

    eventually(lambda: len(ran()) == 2)
    time.sleep(3)  # several ticks of every process that could run them
    assert ran() == [("inventory", 1), ("mail", 1)]
    mails = query(
        server.database, "SELECT count(*) FROM mail_outbox WHERE subject LIKE %s", "%daily report%"
    )
    assert mails == [(1,)]


def test_a_server_that_cannot_listen_exits_with_the_startup_failure_code(server: Server) -> None:
    port = server.served.url.rsplit(":", 1)[1]  # taken: the running server listens there
    env = {
        **os.environ,
        "TAGTRACK_DATABASE_URL": server.database,
        "TAGTRACK_PORT": port,
        "TAGTRACK_WORKERS": str(WORKERS),
        "TAGTRACK_LOG_JSON": "false",
    }
    failed = subprocess.run(
        [str(TAGTRACK), "serve"], env=env, capture_output=True, text=True, timeout=300
    )
    assert failed.returncode == 3, failed.stdout + failed.stderr
    assert "cannot listen" in failed.stdout + failed.stderr


def test_sigterm_stops_every_process(server: Server) -> None:
    family = children(server.pid)
    assert len(family) >= WORKERS + 1
    with ExitStack() as stack:
        lines = _open_stream(stack, server.served.url, server.admin)
        server.served.process.send_signal(signal.SIGTERM)
        # The open stream is ended by the server, not left to the client.
        for _ in lines:
            pass
        assert server.served.process.wait(timeout=60) == 0, server.served.text()

    # Workers, the processing child and multiprocessing's resource tracker (which ends
    # when it sees its parent's pipe close): all gone with it.
    def left() -> dict[int, str]:
        return {pid: command for pid, command in family.items() if running(pid)}

    deadline = time.monotonic() + 10
    while left() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert left() == {}
    assert "Traceback" not in server.served.text(), server.served.text()
    assert not server.folder.exists()


def running(pid: int) -> bool:
    """Still running (an exited process its new parent has not reaped yet is not)."""
    try:
        return "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def test_a_killed_supervisor_leaves_no_worker_serving() -> None:
    with fresh_database() as database:
        env = {"TAGTRACK_DATABASE_URL": database, "TAGTRACK_WORKERS": str(WORKERS)}
        with serve(env, stop_signal=signal.SIGTERM, timeout=STARTUP_SECONDS) as served:
            pid = served.process.pid
            family = eventually(lambda: len(http_workers(pid)) == WORKERS and children(pid))
            served.process.kill()  # no chance to stop anything itself
            served.process.wait()
            # The workers see their parent gone, the processing child its pipe closed.
            deadline = time.monotonic() + 60
            while (left := [p for p in family if running(p)]) and (time.monotonic() < deadline):
                time.sleep(0.2)
            assert left == [], {p: family[p] for p in left}
            with pytest.raises(httpx.ConnectError):
                httpx.get(f"{served.url}/healthz", timeout=5)
