"""The background worker: drains acknowledged reads and runs the periodic sweeps.

Every process runs one; organization advisory locks keep them out of each other's way.
Ingest sends one NOTIFY in the transaction that queues reads; PostgreSQL delivers it at
commit to every process's listener, which wakes its worker.
"""

import asyncio
import contextlib
import gc
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from datetime import datetime

from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.core.logging import get_logger
from tagtrack.core.metrics import BATCH_READS, BATCH_SECONDS
from tagtrack.core.partitions import (
    analyze_grown_partitions,
    ensure_partitions_logged,
    vacuum_bloated_partitions,
)
from tagtrack.core.retention import RetentionOutcome, apply_retention
from tagtrack.core.tasks import running
from tagtrack.core.wakeups import READS_CHANNEL, Wakeups
from tagtrack.models.base import utcnow
from tagtrack.processing.repository import ProcessingRepository, StaleRows
from tagtrack.processing.service import (
    BATCH_READS as READS_PER_BATCH,
)
from tagtrack.processing.service import (
    AppliedBatch,
    Outcome,
    ProcessingService,
    is_data_error,
)
from tagtrack.processing.state import KeptStates, WorkingState

log = get_logger("tagtrack.processing")

# Without a notice (one missed while the listener reconnected), reads wait this long at most.
SAFETY_SECONDS = 60.0
# After a failure (the database away), processing is tried again this soon.
RETRY_SECONDS = 1.0
# History partitions ahead of time, and retention, from the sweep now and then.
PARTITIONS_INTERVAL_SECONDS = 600
# Statistics and vacuums of history partitions, looked for this often while reads come in:
# a month's partition analyzed while empty fills by thousands of rows a second, and until
# its statistics say so every Events page poll reads the whole day.
UPKEEP_INTERVAL_SECONDS = 1.0
RETENTION_INTERVAL_SECONDS = 6 * 3600
# After a failed batch, this many reads are retried one by one to find the bad one.
ISOLATE_READS = 200
# A batch whose rows someone else changes meanwhile runs again, from the database, this often.
STALE_RETRIES = 3
# Batches of one organization in a row, each applied while the one before is written: at most
# this many while other organizations have reads waiting, and for this long in any case (the
# worker then sees to partitions, and to the other organizations).
BATCHES_IN_A_ROW = 4
ROW_SECONDS = 5.0


@contextmanager
def cycle_collection_paused() -> Iterator[None]:
    """No cycle collection while a batch runs.

    A batch allocates tens of thousands of rows that live until it ends. Collections in
    the middle of it find no garbage among them, yet promote them to older generations,
    and that triggers full collections of the whole heap: they took over half the time of
    a batch. Paused, the rows are freed by reference counting when the batch ends; the few
    cycles it made are collected afterwards as usual.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


class ProcessingWorker:
    def __init__(
        self,
        sessionmaker: async_sessionmaker[AsyncSession],
        settings: Settings,
        wake: asyncio.Event | None = None,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.settings = settings
        self.wake = wake or asyncio.Event()
        self.next_partitions = 0.0
        self.next_upkeep = 0.0
        self.vacuum: asyncio.Task[None] | None = None
        self.looping = False
        self.next_retention = 0.0
        self.task: asyncio.Task[None] | None = None
        self.kept = KeptStates()
        self.batch_reads = READS_PER_BATCH

    def failure(self) -> str | None:
        """Why processing is not running in this process, or None (readiness)."""
        if self.task is None:
            return "the processing loop was not started"
        if self.task.done():
            return "the processing loop stopped"
        return None

    async def drain(self) -> int:
        """Process every pending read this worker can lock; the count processed."""
        total = 0
        while True:
            async with self.sessionmaker() as session:
                orgs = await ProcessingRepository(session).orgs_with_pending()
            progressed = 0
            for org_id in orgs:
                try:
                    with cycle_collection_paused():
                        outcome = await self.process(org_id)
                except DBAPIError as exc:
                    if not is_data_error(exc):
                        raise  # the database is away: retry the whole batch later
                    log.exception("a batch of reads failed; processing them one by one")
                    outcome = await self.isolate(org_id)
                progressed += outcome.processed
            total += progressed
            # Between passes too: a backlog can keep this loop busy for minutes.
            await self.partition_upkeep()
            if progressed == 0:
                return total

    async def process(self, org_id: str) -> Outcome:
        """Batches of the organization's reads, from the rows its last batch here left where
        they still serve, else (and when one of them changed meanwhile) from the database."""
        kept = self.kept.take(org_id)
        for _ in range(STALE_RETRIES):
            try:
                return await self.batches_in_a_row(org_id, kept)
            except StaleRows as exc:
                log.info("rows changed during a batch; processing it again", why=str(exc))
                kept = None
        raise StaleRows(f"rows kept changing during {STALE_RETRIES} tries of a batch")

    async def batches_in_a_row(self, org_id: str, kept: WorkingState | None) -> Outcome:
        """Batches in a row, one transaction each (see BATCHES_IN_A_ROW). While a batch is
        written (PostgreSQL, its connection), the next one is loaded in a transaction of its
        own and applied (Python): they use both cores instead of taking turns.

        StaleRows from the first batch, which committed nothing, reaches the caller; from a
        later one it ends the row, and the worker comes back to those reads from the database.
        """
        total = Outcome()
        session, following_session = self.sessionmaker(), None
        started = time.perf_counter()
        try:
            service = ProcessingService(session, self.settings)
            batch = await service.apply_pending(org_id, self.batch_reads, kept, whole=True)
            if not isinstance(batch, AppliedBatch):
                await session.commit()
                self.keep(org_id, batch.state)
                return batch
            row_ends, written = time.monotonic() + ROW_SECONDS, 0
            while True:
                written += 1
                goes_on = time.monotonic() < row_ends and (
                    written < BATCHES_IN_A_ROW or not await service.others_waiting(org_id)
                )
                writing = asyncio.create_task(self.write(session, service, batch))
                following_started = time.perf_counter()
                following = None
                try:
                    if goes_on:
                        following_session = self.sessionmaker()
                        service = ProcessingService(following_session, self.settings)
                        following = await service.load_following(batch, self.batch_reads)
                    if following is not None:
                        await following.processor.apply_beside()
                except BaseException:
                    # Stopped (or a fault in the rules): the batch being written is rolled
                    # back too.
                    writing.cancel()
                    with contextlib.suppress(BaseException):
                        await writing
                    raise
                try:
                    outcome = await writing
                except StaleRows:
                    if not total.processed:
                        raise
                    log.info("rows changed during a batch; processing it again")
                    return total
                BATCH_READS.observe(outcome.processed)
                BATCH_SECONDS.observe(time.perf_counter() - started)
                started = following_started
                total.add(outcome)
                await session.close()
                # A new month's partition needs its statistics within a second of filling
                # (see UPKEEP_INTERVAL_SECONDS), however long the row.
                await self.partition_upkeep()
                if following is None or following_session is None:
                    self.keep(org_id, outcome.state)
                    return total
                session, following_session = following_session, None
                if not await service.adopt(following):
                    # Processed elsewhere in between: those reads wait on the queue.
                    return total
                batch = following
        finally:
            await session.close()
            if following_session is not None:
                await following_session.close()

    @staticmethod
    async def write(
        session: AsyncSession, service: ProcessingService, batch: AppliedBatch
    ) -> Outcome:
        outcome = await service.write(batch)
        await session.commit()
        return outcome

    def keep(self, org_id: str, state: WorkingState | None) -> None:
        if state is not None:
            self.kept.keep(org_id, state)

    async def isolate(self, org_id: str) -> Outcome:
        """Process the oldest reads one at a time, setting aside each one that fails."""
        total = Outcome()
        for _ in range(ISOLATE_READS):
            try:
                async with self.sessionmaker() as session, session.begin():
                    outcome = await ProcessingService(session, self.settings).process_pending(
                        org_id, limit=1
                    )
            except DBAPIError as exc:
                if not is_data_error(exc):
                    raise
                async with self.sessionmaker() as session, session.begin():
                    await ProcessingService(session, self.settings).set_aside_oldest(
                        org_id, str(exc.orig)
                    )
                outcome = Outcome(processed=1, exceptions=1)
            if outcome.processed == 0:
                break
            total.processed += outcome.processed
            total.exceptions += outcome.exceptions
        return total

    async def sweep(self) -> None:
        now = utcnow()
        async with self.sessionmaker() as session, session.begin():
            service = ProcessingService(session, self.settings)
            swept = await service.sweep(now)
            await service.purge(now)
        if swept.processed:
            # The things taken out changed under the rows kept (the next batch would find
            # out, and run again): load them again instead.
            self.kept.clear()
        await self.history(now)

    async def history(self, now: datetime) -> None:
        """Partitions for the coming months, and each organization's history retention."""
        if time.monotonic() >= self.next_partitions:
            await ensure_partitions_logged(self.sessionmaker, now)
            self.next_partitions = time.monotonic() + PARTITIONS_INTERVAL_SECONDS
        if time.monotonic() >= self.next_retention:
            try:
                retention = await apply_retention(self.sessionmaker, now)
            except Exception:  # the history stays a little longer; try again later
                log.exception("history retention failed")
                retention = RetentionOutcome()
            # Work left (a backlog, or another process at it): the next sweep goes on.
            wait = RETENTION_INTERVAL_SECONDS if retention.finished else 0
            self.next_retention = time.monotonic() + wait

    async def partition_upkeep(self) -> None:
        """Fresh statistics of the history partitions that grew, and their dead row
        versions vacuumed, looked for every second while reads come in: a new month's
        partition fills fast, and repeats update its events."""
        if time.monotonic() < self.next_upkeep:
            return
        self.next_upkeep = time.monotonic() + UPKEEP_INTERVAL_SECONDS
        try:
            await analyze_grown_partitions(self.sessionmaker)
        except Exception:  # the planner works from older statistics until the next look
            log.exception("analyzing history partitions failed")
        # Beside the batches, not between them: a vacuum takes a large partition's time. Only
        # from the worker's loop, which ends it when it stops (a drain alone leaves no task).
        if self.looping and (self.vacuum is None or self.vacuum.done()):
            self.vacuum = asyncio.create_task(self.vacuum_partitions())

    async def stop_vacuum(self) -> None:
        """A vacuum still running ends with the process: the next one takes it up."""
        if self.vacuum is not None:
            self.vacuum.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.vacuum

    async def vacuum_partitions(self) -> None:
        try:
            await vacuum_bloated_partitions(self.sessionmaker)
        except Exception:  # dead versions wait for the next look
            log.exception("vacuuming history partitions failed")

    async def run(self) -> None:
        self.looping = True
        try:
            await self._loop()
        finally:
            self.looping = False
            await self.stop_vacuum()

    async def _loop(self) -> None:
        last_sweep = 0.0
        while True:
            self.wake.clear()
            try:
                await self.drain()
                if time.monotonic() - last_sweep >= self.settings.sweep_interval_seconds:
                    await self.sweep()
                    last_sweep = time.monotonic()
            except Exception:  # keep processing after a bad batch or a database restart
                log.exception("processing failed; retrying")
                # Not sooner, however many reads arrive or however late the sweep is: a
                # failure that lasts would otherwise be retried in a busy loop.
                await asyncio.sleep(RETRY_SECONDS)
                continue
            next_sweep = last_sweep + self.settings.sweep_interval_seconds - time.monotonic()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), max(0, min(SAFETY_SECONDS, next_sweep)))


@asynccontextmanager
async def processing_worker(
    sessionmaker: async_sessionmaker[AsyncSession], settings: Settings, wakeups: Wakeups
) -> AsyncIterator[ProcessingWorker]:
    """The worker in this process's event loop, woken through the process's listener."""
    worker = ProcessingWorker(sessionmaker, settings, wakeups.event(READS_CHANNEL))
    async with running(worker.run() if settings.processing else None, "processing") as task:
        worker.task = task
        yield worker
