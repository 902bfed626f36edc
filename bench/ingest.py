"""Sustained ingest end to end, next to raw PostgreSQL COPY of the same reads.

Readers post batches to POST /api/ingest/reads through the whole app (in process, no
network) while the background worker turns them into events, thing state and zone visits.
The figure is reads/s from the first post until the last read is processed, with the CPU
that the app's process, the processing child and PostgreSQL spent meanwhile. Then, on a
second database, the same batches are posted with the worker stopped: accepting alone (and
the CPU the process spent on it, its in-process clients included), then one worker drains
them: processing alone. The baseline copies the same reads into a plain table with
asyncpg's COPY, in the same run. The whole is run `--runs` times (3 by default), each on
fresh databases, and each figure is the median over the runs: on a shared machine one run's
COPY alone varies by a third from minute to minute.
"""

import argparse
import asyncio
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg
import httpx
import orjson

from bench.common import (
    COPY_TABLE,
    Batch,
    Figure,
    copy_records,
    cpu_seconds,
    driver_url,
    median,
    postgres_cpu_seconds,
    quiet,
    reader_traffic,
    report,
    seed_floor,
    served,
)
from tagtrack.core.config import Settings
from tagtrack.core.migrate import upgrade
from tagtrack.main import create_app
from tagtrack.processing.worker import ProcessingWorker
from tests.database import fresh_database
from tests.serve import processing_children


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reads", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=500, help="reads per request")
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--things", type=int, default=20_000)
    parser.add_argument("--repeats", type=float, default=0.9, help="share of repeat reads")
    parser.add_argument(
        "--runs", type=int, default=3, help="each figure is the median of this many runs"
    )
    return parser.parse_args(argv)


async def copy_baseline(url: str, batches: Sequence[Batch]) -> list[float]:
    """Seconds of each batch's COPY into a plain table, one COPY per batch."""
    connection = await asyncpg.connect(driver_url(url))
    try:
        await connection.execute(COPY_TABLE)
        samples = []
        for key, reads in batches:
            records = copy_records(key, reads)
            started = time.perf_counter()
            await connection.copy_records_to_table("copied", records=records)
            samples.append(time.perf_counter() - started)
        return samples
    finally:
        await connection.close()


Body = tuple[str, bytes]


def encoded(batches: Sequence[Batch]) -> list[Body]:
    """Each batch as the JSON body its reader sends, encoded before any clock starts (as the
    baseline's records are built before its COPY): a reader's encoding is not server work."""
    return [(key, orjson.dumps({"reads": reads})) for key, reads in batches]


async def post_all(client: httpx.AsyncClient, bodies: Sequence[Body]) -> None:
    """Every reader posts its own batches one after another; readers run side by side."""
    by_reader: dict[str, list[Body]] = {}
    for key, body in bodies:
        by_reader.setdefault(key, []).append((key, body))

    async def reader(own: list[Body]) -> None:
        for key, body in own:
            response = await client.post(
                "/api/ingest/reads",
                content=body,
                headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
            )
            response.raise_for_status()

    await asyncio.gather(*(reader(own) for own in by_reader.values()))


async def warm_up(client: httpx.AsyncClient, bodies: Sequence[Body]) -> None:
    """An empty batch from every reader at once, before any clock starts: the app builds its
    routes on the first request and the pool opens its connections on the first ones, once
    in the life of a process, which is not the sustained rate."""
    keys = sorted({key for key, _ in bodies})
    await post_all(client, [(key, b'{"reads": []}') for key in keys])


async def wait_processed(url: str, poll: float = 0.05) -> None:
    connection = await asyncpg.connect(driver_url(url))
    try:
        while await connection.fetchval("SELECT EXISTS (SELECT 1 FROM pending_read_batches)"):  # noqa: ASYNC110 - another process's table
            await asyncio.sleep(poll)
    finally:
        await connection.close()


async def outcome(url: str) -> dict[str, int]:
    connection = await asyncpg.connect(driver_url(url))
    try:
        return {
            "events": await connection.fetchval("SELECT count(*) FROM events"),
            "folded": await connection.fetchval("SELECT sum(repeat_count) FROM events"),
            "things_in_zones": await connection.fetchval(
                "SELECT count(*) FROM things WHERE zone_id IS NOT NULL"
            ),
            "visits": await connection.fetchval("SELECT count(*) FROM zone_durations"),
        }
    finally:
        await connection.close()


@dataclass
class Cpu:
    """CPU seconds of each part, read from /proc."""

    app: float  # this process: the HTTP server and its in-process clients
    processing: float  # the processing child
    postgres: float  # every PostgreSQL process on the machine

    @classmethod
    def now(cls, child: int) -> "Cpu":
        return cls(time.process_time(), cpu_seconds(child), postgres_cpu_seconds())

    def __sub__(self, other: "Cpu") -> "Cpu":
        return Cpu(
            self.app - other.app,
            self.processing - other.processing,
            self.postgres - other.postgres,
        )


@dataclass
class EndToEnd:
    accepted: float  # seconds until every batch was accepted
    processed: float  # seconds until every read was processed
    cpu: Cpu  # spent meanwhile
    done: dict[str, int]  # what processing produced
    copy: float  # seconds of the raw COPY baseline


async def run_through_app(url: str, batches: Sequence[Batch]) -> EndToEnd:
    """Post every batch with the worker running: seconds until all are accepted and until all
    are processed, the CPU of each part meanwhile, then the raw COPY baseline."""
    app = create_app(Settings(log_json=True, ingest_max_pending=10**9), database_url=url)
    quiet()
    async with served(app):
        transport = httpx.ASGITransport(app=app)
        bodies = encoded(batches)
        (child,) = processing_children(os.getpid())  # started by the app's lifespan
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            await warm_up(client, bodies)
            cpu = Cpu.now(child)
            started = time.perf_counter()
            await post_all(client, bodies)
            accepted = time.perf_counter() - started
            await wait_processed(url)
            processed = time.perf_counter() - started
            cpu = Cpu.now(child) - cpu
    copy = sum(await copy_baseline(url, batches))
    return EndToEnd(accepted, processed, cpu, await outcome(url), copy)


@dataclass
class Alone:
    """The phases with the worker stopped: accepting alone, then processing alone."""

    accepted: float  # seconds until every batch was accepted
    accepted_cpu: float  # CPU seconds of this process meanwhile (server and its clients)
    processed: float  # seconds for one worker to drain the queue


async def processing_alone(url: str, batches: Sequence[Batch]) -> Alone:
    """Queue every batch with the worker stopped (accepting's own rate, nothing else running
    in the process), then seconds for one worker to drain it: processing's own rate, without
    the HTTP stack sharing its process."""
    settings = Settings(log_json=True, ingest_max_pending=10**9, processing=False)
    app = create_app(settings, database_url=url)
    quiet()
    async with served(app):
        transport = httpx.ASGITransport(app=app)
        bodies = encoded(batches)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            await warm_up(client, bodies)
            started, cpu = time.perf_counter(), time.process_time()
            await post_all(client, bodies)
            accepted, accepted_cpu = time.perf_counter() - started, time.process_time() - cpu
        started = time.perf_counter()
        await ProcessingWorker(app.state.sessionmaker, settings).drain()
        return Alone(accepted, accepted_cpu, time.perf_counter() - started)


async def one_run(args: argparse.Namespace) -> tuple[list[Figure], dict[str, int]]:
    """Both phases once, each on a fresh database, with the COPY baseline of the first."""
    with fresh_database() as url:
        upgrade(url)
        floor = await seed_floor(url, args.readers, args.things)
        batches = reader_traffic(floor, args.reads, batch=args.batch, repeats=args.repeats)
        run = await run_through_app(url, batches)
    with fresh_database() as url:
        upgrade(url)
        floor = await seed_floor(url, args.readers, args.things)
        batches = reader_traffic(floor, args.reads, batch=args.batch, repeats=args.repeats)
        alone = await processing_alone(url, batches)
    n, copy, cpu = args.reads, run.copy, run.cpu
    copy_us = copy / n * 1e6
    assert run.done["folded"] == n, f"{run.done['folded']} of {n} reads in events"
    figures = [
        Figure("accepted (POST -> 202)", n / run.accepted, "reads/s", "raw COPY", n / copy),
        Figure(
            "end to end (processed)", n / run.processed, "reads/s", "raw COPY", n / copy,
            target=">= 50000 and >= 0.2 of COPY",
        ),
        Figure("end to end / COPY", copy / run.processed, "x", "COPY / COPY", 1.0),
        Figure("  CPU of the app process", cpu.app / n * 1e6, "µs/read", "raw COPY", copy_us),
        Figure("  CPU of the processing child", cpu.processing / n * 1e6, "µs/read",
               "raw COPY", copy_us),
        Figure("  CPU of PostgreSQL", cpu.postgres / n * 1e6, "µs/read", "raw COPY", copy_us),
        Figure("  cores busy (all three)", (cpu.app + cpu.processing + cpu.postgres)
               / run.processed, "cores", "cores of the machine", os.cpu_count() or 1),
        Figure("accepted, worker stopped", n / alone.accepted, "reads/s", "raw COPY", n / copy,
               target=">= 60000"),
        Figure("  CPU of the accepting process", alone.accepted_cpu / n * 1e6, "µs/read",
               "raw COPY", copy_us),
        Figure("processing alone (queued)", n / alone.processed, "reads/s", "raw COPY",
               n / copy),
    ]  # fmt: skip
    return figures, run.done


def medians(runs: Sequence[Sequence[Figure]]) -> list[Figure]:
    """Each figure and its baseline as the median over the runs (the machine is shared)."""
    return [
        Figure(
            first.name,
            median([run[i].value for run in runs]),
            first.unit,
            first.baseline_name,
            median([run[i].baseline for run in runs]),
            first.target,
        )
        for i, first in enumerate(runs[0])
    ]


async def main(args: argparse.Namespace) -> None:
    runs = []
    for _ in range(args.runs):
        figures, done = await one_run(args)
        runs.append(figures)
    end_to_end = []
    for run in runs:
        figure = {f.name: f for f in run}
        rate, ratio = figure["end to end (processed)"], figure["end to end / COPY"]
        end_to_end.append(f"{rate.value:,.0f} ({ratio.value:.3f}x COPY at {rate.baseline:,.0f})")
    setup = (
        f"{args.reads} reads, batches of {args.batch} from {args.readers} readers, "
        f"{args.repeats:.0%} repeats, {args.things} things -> {done['events']} events, "
        f"{done['visits']} visits, {done['things_in_zones']} things in zones; "
        f"median of {args.runs} runs, end to end in each: {' / '.join(end_to_end)} reads/s"
    )
    report("ingest", setup, medians(runs))


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
