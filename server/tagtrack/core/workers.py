"""`tagtrack serve` on every core: a supervisor and its HTTP workers.

One Python event loop serves about one core. The supervisor binds the listening socket once
and starts as many HTTP worker processes as TAGTRACK_WORKERS says (default: one per core the
process may use); the kernel hands each new connection to one of them. The work that must
run once per installation stays in the supervisor: the processing child, housekeeping, the
outbox sender, the daily jobs, the MQTT subscription and the demo simulator. Each worker
listens for live notices itself, and keeps sign-in failures and everything else that must
hold across workers in PostgreSQL. A worker that dies is replaced; one that cannot start
stops the whole server with uvicorn's startup-failure code. SIGTERM or SIGINT stops the
workers first (their live streams end at once, running answers finish), then the rest.
"""

import asyncio
import contextlib
import gc
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from multiprocessing.context import SpawnProcess
from multiprocessing.sharedctypes import Synchronized
from types import FrameType
from typing import TYPE_CHECKING, Any, Protocol

import orjson
import uvicorn
from fastapi import FastAPI
from uvicorn.config import STARTUP_FAILURE

from tagtrack.core.config import Settings
from tagtrack.core.db import create_engine, create_sessionmaker
from tagtrack.core.logging import configure_logging, get_logger
from tagtrack.core.metrics import process_gone

if TYPE_CHECKING:
    from tagtrack.ingest.service import Admission

log = get_logger("tagtrack.serve")

# Longer than the idle timeout of clients and of load balancers in front (often 60 s), so
# the client closes an idle connection: a server closing it just as a request is sent
# resets that request.
KEEP_ALIVE_SECONDS = 75
WATCH_SECONDS = 0.5
# Running answers get this long to finish once a worker is asked to stop; then uvicorn ends
# them. A request whose client stops sending half way (the simulator, stopped beside the
# workers, or a reader cut off) would otherwise hold its worker's stop for ever. Readers
# get no 202 for a cut request, so they send it again.
GRACEFUL_STOP_SECONDS = 10
# After that, a worker that still has not exited is killed.
STOP_SECONDS = 20.0
STATUS_BYTES = 2048
REASON_CHARS = 300

_spawn = multiprocessing.get_context("spawn")


# A request keeps a few thousand objects alive while it awaits the database. Collected every
# 700 allocations (CPython's default), they outlive two young collections and pile into the
# oldest generation, whose collection (tens of ms, every few seconds under load) stops every
# request in the worker. Every 20,000, most of a request's objects die young.
WORKER_GC_THRESHOLDS = (20_000, 20, 20)


def settle_heap() -> None:
    """A worker ready to serve: what it holds now (modules, routes, mappers) out of the cycle
    collector's way for good, and young objects collected less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*WORKER_GC_THRESHOLDS)


def worker_count(settings: Settings) -> int:
    """TAGTRACK_WORKERS, or one per core this process may run on."""
    if settings.workers > 0:
        return settings.workers
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class _Failing(Protocol):
    def failure(self) -> str | None: ...


class _Check:
    """A worker's view of one check the supervisor runs (readiness asks for failure())."""

    def __init__(self, status: "SharedStatus", name: str) -> None:
        self.status = status
        self.name = name

    def failure(self) -> str | None:
        return self.status.read().get(self.name)


class SharedStatus:
    """The supervisor's processing and MQTT checks, in shared memory every worker reads."""

    def __init__(self) -> None:
        self.text: Synchronized[bytes] = _spawn.Array("c", STATUS_BYTES)  # type: ignore[assignment]
        self.processing = _Check(self, "processing")
        self.mqtt = _Check(self, "mqtt")

    def publish(self, processing: _Failing | None, mqtt: _Failing | None) -> None:
        checks = {
            "processing": processing.failure() if processing is not None else None,
            "mqtt": mqtt.failure() if mqtt is not None else None,
        }
        text = orjson.dumps(
            {name: reason[:REASON_CHARS] if reason else None for name, reason in checks.items()}
        )
        with self.text.get_lock():
            self.text.value = text

    def read(self) -> dict[str, str | None]:
        with self.text.get_lock():
            text = self.text.value
        if not text:
            return {"processing": "the supervisor has not reported yet"}
        found: dict[str, str | None] = orjson.loads(text)
        return found


class WorkerServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, app: FastAPI) -> None:
        super().__init__(config)
        self.app = app

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        # uvicorn lets running answers finish before it stops: end the live streams now.
        self.app.state.live.close_streams()


def server_config(app: FastAPI, settings: Settings) -> uvicorn.Config:
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        log_config=None,
        proxy_headers=False,
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=GRACEFUL_STOP_SECONDS,
    )


def _stop_when_orphaned(parent: int) -> None:
    """A worker whose supervisor died (killed) stops too instead of serving on alone."""
    while os.getppid() == parent:
        time.sleep(1)
    os.kill(os.getpid(), signal.SIGTERM)


def _worker_main(settings: Settings, url: str, sockets: list[socket.socket], shared: Any) -> None:
    """One HTTP worker process: the API and console, no background work of its own."""
    from tagtrack.main import create_app

    configure_logging(settings.log_json)
    threading.Thread(target=_stop_when_orphaned, args=(os.getppid(),), daemon=True).start()
    app = create_app(settings, database_url=url, shared=shared)
    server = WorkerServer(server_config(app, settings), app)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C reaches the whole group
        server.run(sockets)
    if not server.started:
        sys.exit(STARTUP_FAILURE)


class Workers:
    """The HTTP worker processes: started, replaced when one dies, stopped together."""

    def __init__(
        self,
        count: int,
        settings: Settings,
        url: str,
        sockets: list[socket.socket],
        shared: SharedStatus,
    ) -> None:
        self.count = count
        self.args = (settings, url, sockets, shared)
        self.processes: list[SpawnProcess] = []

    def _start(self) -> SpawnProcess:
        process = _spawn.Process(target=_worker_main, args=self.args, name="tagtrack-http")
        process.start()
        return process

    def start(self) -> None:
        self.processes = [self._start() for _ in range(self.count)]

    def replace_dead(self) -> bool:
        """Start a new worker for each that died; False when one could not start at all."""
        for index, process in enumerate(self.processes):
            if process.is_alive():
                continue
            process.join()
            assert process.pid is not None
            process_gone(process.pid)
            if process.exitcode == STARTUP_FAILURE:
                log.error("HTTP worker failed to start; stopping", pid=process.pid)
                return False
            log.warning(
                "HTTP worker exited; starting another", pid=process.pid, code=process.exitcode
            )
            self.processes[index] = self._start()
        return True

    def stop(self) -> None:
        for process in self.processes:
            if process.is_alive():
                process.terminate()  # SIGTERM: uvicorn's graceful stop
        deadline = time.monotonic() + STOP_SECONDS
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                log.warning("HTTP worker did not stop; killing it", pid=process.pid)
                process.kill()
                process.join()
            if process.pid is not None:
                process_gone(process.pid)


def bind(settings: Settings) -> socket.socket:
    family = socket.AF_INET6 if ":" in settings.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((settings.host, settings.port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


async def supervise(settings: Settings, url: str, count: int, admission: "Admission") -> int:
    """Run the installation's background work and `count` HTTP workers until SIGTERM or
    SIGINT; the exit code (STARTUP_FAILURE when the server could not start)."""
    from tagtrack.core.partitions import ensure_partitions_logged
    from tagtrack.main import singletons
    from tagtrack.models.base import utcnow

    try:
        sock = bind(settings)
    except OSError as exc:
        log.error("cannot listen", host=settings.host, port=settings.port, error=str(exc))
        return STARTUP_FAILURE
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    engine = create_engine(url, settings.database_pool_size)
    sessionmaker = create_sessionmaker(engine)
    shared = SharedStatus()
    code = 0
    stopping: asyncio.Future[None] | None = None
    try:
        await ensure_partitions_logged(sessionmaker, utcnow())
        async with singletons(sessionmaker, settings, url, admission) as (processing, mqtt, _):
            shared.publish(processing, mqtt)
            workers = Workers(count, settings, url, [sock], shared)
            workers.start()
            log.info("serving", workers=count, host=settings.host, port=settings.port)
            try:
                while not stop.is_set():
                    shared.publish(processing, mqtt)
                    if not workers.replace_dead():
                        code = STARTUP_FAILURE
                        break
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(stop.wait(), WATCH_SECONDS)
            finally:
                # The workers finish their answers while the background work stops.
                stopping = asyncio.ensure_future(asyncio.to_thread(workers.stop))
    finally:
        if stopping is not None:
            await stopping
        sock.close()
        await engine.dispose()
    return code
