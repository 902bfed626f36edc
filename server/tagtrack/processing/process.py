"""Processing in an OS process of its own.

The rules are CPU work in Python; run in the serving process's event loop they hold up
every request while a batch is applied. `tagtrack serve` therefore starts one processing
child (`python -m tagtrack.processing`) and keeps its own core for HTTP. The child gets
the settings and database URL as the first line on its stdin, and end of file on that pipe,
which the kernel gives when the parent dies however it dies, stops it. It is woken like
every worker, by the NOTIFY of the ingest transaction. Several processes stay safe as they
always were: each organization's batches run under its advisory lock.
"""

import asyncio
import contextlib
import gc
import os
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import orjson

from tagtrack.core.config import Settings
from tagtrack.core.db import create_engine, create_sessionmaker
from tagtrack.core.logging import configure_logging, get_logger
from tagtrack.core.metrics import process_gone
from tagtrack.core.tasks import running
from tagtrack.core.wakeups import READS_CHANNEL, Wakeups, listening
from tagtrack.processing.worker import ProcessingWorker

log = get_logger("tagtrack.processing")

STOP_SECONDS = 10.0
READY_SECONDS = 120.0
READY = b"ready"
WATCH_SECONDS = 1.0


class ProcessingProcess:
    """The serving process's handle on its processing child."""

    def __init__(self, database_url: str, settings: Settings) -> None:
        self.database_url = database_url
        self.settings = settings
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tagtrack.processing"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,  # one line, once it is ready to work
        )
        assert self.process.stdin is not None
        first = {
            "database_url": self.database_url,
            "settings": self.settings.model_dump(mode="json"),
        }
        self.process.stdin.write(orjson.dumps(first) + b"\n")
        self.process.stdin.flush()

    async def ready(self) -> None:
        """Wait until the child has started (imports take seconds on a busy machine), so
        that a server that answers requests also processes them."""
        process = self.process
        assert process is not None and process.stdout is not None
        try:
            line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), READY_SECONDS)
        except TimeoutError:
            line = b""
        process.stdout.close()
        if line.strip() != READY:
            log.warning("processing process did not report ready", pid=process.pid)

    def failure(self) -> str | None:
        """Why the child is not processing, or None while it runs (readiness)."""
        process = self.process
        if process is None:
            return "the processing process is not running"
        if process.poll() is not None:
            return f"the processing process exited with {process.returncode}"
        return None

    async def stop(self) -> None:
        process = self.process
        if process is None:
            return
        self.process = None
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()  # end of file: the child finishes and exits
        try:
            await asyncio.to_thread(process.wait, STOP_SECONDS)
        except subprocess.TimeoutExpired:
            log.warning("processing process did not stop; killing it", pid=process.pid)
            process.kill()
            await asyncio.to_thread(process.wait)
        process_gone(process.pid)

    def restart_if_gone(self) -> None:
        """Start a new child if this one died (killed, out of memory): reads keep flowing.

        A child that was asked to stop (SIGINT from a terminal's Ctrl-C, SIGTERM) exits
        with 0 and is left stopped; its parent is on its way out too."""
        process = self.process
        if process is None or process.poll() is None or process.returncode == 0:
            return
        log.warning(
            "processing process exited; starting another",
            pid=process.pid,
            returncode=process.returncode,
        )
        process_gone(process.pid)
        if process.stdin is not None:
            with contextlib.suppress(OSError):
                process.stdin.close()
        self.start()  # its readiness is not awaited: requests go on meanwhile
        assert self.process is not None and self.process.stdout is not None
        self.process.stdout.close()


@asynccontextmanager
async def processing_process(
    database_url: str, settings: Settings
) -> AsyncIterator[ProcessingProcess]:
    child = ProcessingProcess(database_url, settings)
    child.start()
    await child.ready()

    async def watch() -> None:
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            child.restart_if_gone()

    try:
        async with running(watch(), "processing-watch"):
            yield child
    finally:
        await child.stop()


async def run_worker(
    database_url: str,
    settings: Settings,
    lifeline: asyncio.StreamReader | None,
) -> None:
    """The worker loop until stdin ends (the parent is gone) or SIGTERM/SIGINT arrives."""
    engine = create_engine(database_url, settings.database_pool_size)
    try:
        wakeups = Wakeups()
        worker = ProcessingWorker(
            create_sessionmaker(engine), settings, wakeups.event(READS_CHANNEL)
        )
        # What the process holds from now on (modules, mappers) is never garbage: out of the
        # cycle collector's way, its collections stay short.
        gc.collect()
        gc.freeze()
        async with listening(wakeups, database_url):
            await _run_until_stopped(worker, lifeline)
    finally:
        await engine.dispose()


async def _run_until_stopped(
    worker: ProcessingWorker, lifeline: asyncio.StreamReader | None
) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)

    async def parent_gone() -> None:
        assert lifeline is not None
        while await lifeline.read(4096):
            pass
        stop.set()

    tasks = [asyncio.create_task(worker.run(), name="processing")]
    if lifeline is not None:
        tasks.append(asyncio.create_task(parent_gone(), name="lifeline"))
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait([stopping, tasks[0]], return_when=asyncio.FIRST_COMPLETED)
    for task in [*tasks, stopping]:
        task.cancel()
    for task in [*tasks, stopping]:
        try:
            await task
        except asyncio.CancelledError:
            pass
        except Exception:  # a batch cut short may fail on its way out; it is rolled back
            log.exception("processing stopped with an error")


async def child_main() -> None:
    """Entry of `python -m tagtrack.processing`: settings from stdin, then the worker."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    first = await reader.readline()
    if not first:
        return
    given = orjson.loads(first)
    settings = Settings.model_validate(given["settings"])
    configure_logging(settings.log_json)
    # Ready: say so once on stdout, which is then left to /dev/null.
    # A child started again after a crash is not waited for: its parent closed the pipe.
    with contextlib.suppress(BrokenPipeError):
        os.write(1, READY + b"\n")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    await run_worker(given["database_url"], settings, reader)


async def foreground(database_url: str, settings: Settings) -> None:
    """`tagtrack process`: a worker of its own, with no HTTP, until SIGTERM or SIGINT."""
    await run_worker(database_url, settings, None)
