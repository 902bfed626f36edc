"""Soak: a real `tagtrack serve` on loopback under steady ingest plus polling consoles.

For --minutes (default 30) readers post --rate reads/s (default 5,000) to
POST /api/ingest/reads while --consoles signed-in consoles (default 100) poll today's events
(as the Events page asks) and the endpoint status every 5 seconds. Every --every seconds it
prints reads accepted, ingest latency, console requests, errors, the server's resident memory
and the reads still waiting to be processed.
It stops by itself and stops the server; it never talks to anything but 127.0.0.1.
"""

import argparse
import asyncio
import statistics
import time
from collections.abc import Sequence
from tempfile import TemporaryDirectory

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from bench.common import (
    POLL_SECONDS,
    Tally,
    http_worker,
    poll_console,
    post_reads,
    rss_mib,
    server_env,
    sign_in,
)
from tests.database import fresh_database
from tests.serve import reader_key, serve

ADMIN = "soak.admin@example.com"
ADMIN_PASSWORD = "Soak-Test-Steady-2026"
READERS = 8


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--rate", type=int, default=5_000, help="reads per second")
    parser.add_argument("--batch", type=int, default=250, help="reads per request")
    parser.add_argument("--consoles", type=int, default=100)
    parser.add_argument("--every", type=float, default=15, help="seconds between reports")
    return parser.parse_args(argv)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def pending(engine: AsyncEngine) -> int:
    """Reads acknowledged but not processed yet: processing keeps up when this stays small."""
    async with engine.connect() as connection:
        waiting = text("SELECT coalesce(sum(reads), 0) FROM pending_read_batches")
        return int(await connection.scalar(waiting) or 0)


async def report(
    pid: int, engine: AsyncEngine, end: float, every: float, tally: Tally, started: float
) -> list[str]:
    lines = []
    last_reads, last_at = 0, started
    while True:
        await asyncio.sleep(min(every, max(0.0, end - time.monotonic())))
        now = time.monotonic()
        rate = (tally.reads - last_reads) / max(now - last_at, 1e-9)
        line = (
            f"{now - started:7.0f}s  reads {tally.reads:>9}  {rate:7.0f}/s  "
            f"ingest p50 {percentile(tally.ingest_ms, 0.5):6.1f} ms  "
            f"p99 {percentile(tally.ingest_ms, 0.99):7.1f} ms  "
            f"console {tally.console_requests:>6} req "
            f"p99 {percentile(tally.console_ms, 0.99):7.1f} ms  "
            f"errors {sum(tally.errors.values()):>4}  rss {rss_mib(pid):6.0f} MiB  "
            f"pending {await pending(engine):>7}"
        )
        print(line, flush=True)
        lines.append(line)
        tally.ingest_ms.clear()
        tally.console_ms.clear()
        last_reads, last_at = tally.reads, now
        if now >= end:
            return lines


async def soak(url: str, pid: int, args: argparse.Namespace, key: str, database: str) -> Tally:
    tally = Tally()
    engine = create_async_engine(database, pool_size=1)
    signing_in = time.monotonic()
    tokens = [
        t
        for t in await asyncio.gather(
            *(sign_in(url, ADMIN, ADMIN_PASSWORD, tally) for _ in range(args.consoles))
        )
        if t
    ]
    print(f"{len(tokens)} consoles signed in in {time.monotonic() - signing_in:.0f} s", flush=True)
    started = time.monotonic()
    end = started + args.minutes * 60
    per_reader = args.rate / args.batch / READERS
    tasks = [
        *(
            post_reads(url, key, per_reader, args.batch, end, tally, n, READERS)
            for n in range(READERS)
        ),
        *(
            poll_console(url, token, end, tally, started + POLL_SECONDS * i / len(tokens))
            for i, token in enumerate(tokens)
        ),
    ]
    reporter = asyncio.create_task(report(pid, engine, end, args.every, tally, started))
    await asyncio.gather(*tasks)
    await reporter
    stopped = time.monotonic()
    left = await pending(engine)
    for _ in range(600):
        if not left:
            break
        await asyncio.sleep(1)
        left = await pending(engine)
    print(
        f"processing caught up {time.monotonic() - stopped:.0f} s after ingest stopped "
        f"({left} reads still pending)",
        flush=True,
    )
    await engine.dispose()
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    print(
        f"soak: {args.minutes} min, {args.rate} reads/s in batches of {args.batch}, "
        f"{args.consoles} consoles polling every {POLL_SECONDS:.0f} s",
        flush=True,
    )
    with TemporaryDirectory(prefix="tagtrack-soak-") as data_dir, fresh_database() as url:
        # One HTTP worker: the process whose memory must stay flat is the one that answers.
        env = server_env(
            url, data_dir, admin_email=ADMIN, admin_password=ADMIN_PASSWORD, workers="1"
        )
        with serve(env) as served:
            key = reader_key(served.url, ADMIN, ADMIN_PASSWORD, "Soak Dock")
            worker = http_worker(served.process.pid)
            tally = asyncio.run(soak(served.url, worker, args, key, url))
    errors = ", ".join(f"{k}: {v}" for k, v in sorted(tally.errors.items())) or "none"
    print(
        f"done: {tally.reads} reads accepted, {tally.console_requests} console requests, "
        f"errors: {errors}"
    )
    if tally.ingest_ms:
        print(f"last interval ingest median {statistics.median(tally.ingest_ms):.1f} ms")


if __name__ == "__main__":
    main()
