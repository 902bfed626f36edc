"""Mixed load on a real `tagtrack serve`: consoles polling and watching while readers ingest.

By default --consoles signed-in consoles (300) each call the Events page (its site, today, 25
rows with x-total-count) every 5 seconds, as the console polls it, while --streams more
(300) hold the live stream (GET /api/live) open and 8 readers post --rate reads/s (10,000)
with processing keeping up, for --seconds (300). The whole run is made once for each
worker count of --workers (default 1 and one per core), each on a fresh database, so that
the last counts are compared with one worker in the same run. --stress is the harder
figure: 1,000 polling consoles, no streams, 20,000 reads/s, 60 s.

The readers' batches are spread over their interval and each console polls on a fixed
schedule, as the console's query interval runs (a slow answer does not move its next poll).

Figures of each run: poll p50/p95/p99 next to the same call on the idle server, and p95/p99
after the first WARM_SECONDS (15) next to those of the first (when every console's first call
loads its session and the pool's new connections prepare their statements); reads/s
accepted next to the rate asked, and the 429 answers; the processing backlog at its worst
(reads waiting, as seconds of the input rate, and the age of the oldest); live streams held
to the end; and the resident memory of every process of the server (supervisor, HTTP
workers, processing) before the load, at its end and at its peak. One console signs in
through the API; the others' sessions are written into the database as sign-in writes them.
"""

import argparse
import asyncio
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from tempfile import TemporaryDirectory
from urllib.parse import urlencode

import asyncpg
import httpx

from bench.common import (
    _TLS,
    POLL_SECONDS,
    SESSION_COOKIE,
    Figure,
    Tally,
    cpu_seconds,
    driver_url,
    median,
    open_sessions,
    peak_rss_mib,
    percentile,
    poll_console,
    post_reads,
    report,
    reset_peak_rss,
    rss_mib,
    server_env,
    sign_in,
)
from tagtrack.meta.repository import BACKLOG
from tests.database import fresh_database
from tests.serve import children, reader_key, serve

ADMIN = "mixed.admin@example.com"
ADMIN_PASSWORD = "Mixed-Load-Steady-2026"
READERS = 8
SAMPLE_SECONDS = 1.0
WARM_SECONDS = 15


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=None, help="300 (stress: 60)")
    parser.add_argument("--rate", type=int, default=None, help="reads/s: 10,000 (stress: 20,000)")
    parser.add_argument("--batch", type=int, default=500, help="reads per request")
    parser.add_argument("--consoles", type=int, default=None, help="polling: 300 (stress: 1,000)")
    parser.add_argument("--streams", type=int, default=None, help="live streams: 300 (stress: 0)")
    parser.add_argument(
        "--workers",
        default=f"1,{os.cpu_count() or 1}",
        help="HTTP worker counts to run in turn, comma-separated; the first is the baseline",
    )
    parser.add_argument("--stress", action="store_true", help="the 1,000-console run")
    args = parser.parse_args(argv)
    stress = args.stress
    defaults = {
        "seconds": 60 if stress else 300,
        "rate": 20_000 if stress else 10_000,
        "consoles": 1_000 if stress else 300,
        "streams": 0 if stress else 300,
    }
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    args.worker_counts = [int(n) for n in str(args.workers).split(",") if n.strip()]
    return args


async def events_page(url: str, token: str) -> str:
    """The Events page call of the reader's site for today, as the console sends it."""
    async with httpx.AsyncClient(base_url=url, cookies={SESSION_COOKIE: token}) as client:
        sites = (await client.get("/api/sites")).json()
    site = next(s["_id"] for s in sites if s["name"] == "Mixed Dock")
    today = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    query = {
        "site": site,
        "after": today.isoformat(),
        "before": (today + timedelta(days=1)).isoformat(),
        "limit": 25,
    }
    return f"/api/events?{urlencode(query)}"


async def idle_poll(url: str, token: str, path: str, count: int = 50) -> list[float]:
    """Milliseconds of the poll on the idle server, one after another."""
    samples = []
    async with httpx.AsyncClient(base_url=url, cookies={SESSION_COOKIE: token}) as client:
        for _ in range(count):
            started = time.perf_counter()
            (await client.get(path)).raise_for_status()
            samples.append((time.perf_counter() - started) * 1000)
    return samples


@dataclass
class Streams:
    opened: int = 0
    held: int = 0
    notices: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def hold_stream(url: str, token: str, end: float, streams: Streams, open_at: float) -> None:
    """A console on a live page: its stream open from `open_at` until `end` (both monotonic),
    counting the notices."""
    timeout = httpx.Timeout(30, read=None)
    cookies = {SESSION_COOKIE: token}
    async with httpx.AsyncClient(
        base_url=url, timeout=timeout, cookies=cookies, verify=_TLS
    ) as client:
        await asyncio.sleep(max(0.0, open_at - time.monotonic()))
        try:
            async with client.stream("GET", "/api/live") as response:
                if response.status_code != 200:
                    streams.error(f"live {response.status_code}")
                    return
                streams.opened += 1
                try:
                    async with asyncio.timeout(max(0.0, end - time.monotonic())):
                        async for line in response.aiter_lines():
                            if line.startswith("data:"):
                                streams.notices += 1
                    streams.error("live ended by the server")
                except TimeoutError:
                    streams.held += 1
        except httpx.HTTPError as error:
            streams.error(f"live {type(error).__name__}")


@dataclass
class Backlog:
    reads: int = 0
    oldest_seconds: float = 0.0


async def watch_backlog(database: str, end: float, worst: Backlog) -> None:
    """The processing backlog once a second (the query /metrics answers it with)."""
    connection = await asyncpg.connect(driver_url(database))
    try:
        while time.monotonic() < end:
            reads, oldest = await connection.fetchrow(BACKLOG)
            worst.reads = max(worst.reads, int(reads))
            if oldest is not None:
                age = (datetime.now(UTC) - oldest).total_seconds()
                worst.oldest_seconds = max(worst.oldest_seconds, age)
            await asyncio.sleep(SAMPLE_SECONDS)
    finally:
        await connection.close()


def family(pid: int) -> dict[int, str]:
    """The server's processes by pid, named by role."""
    roles = {pid: "supervisor"}
    workers = 0
    for child, command in sorted(children(pid).items()):
        if "-m tagtrack.processing" in command:
            roles[child] = "processing"
        elif "spawn_main" in command:
            workers += 1
            roles[child] = f"http worker {workers}"
    return roles


@dataclass
class Run:
    workers: int
    poll_ms: list[float]
    reads_per_second: float
    refused: int
    backlog: Backlog
    streams: Streams
    rss_peak_total: float


async def load(
    url: str, database: str, pid: int, key: str, workers: int, args: argparse.Namespace
) -> Run:
    tally = Tally()
    signed_in = await sign_in(url, ADMIN, ADMIN_PASSWORD, tally)
    if signed_in is None:
        raise RuntimeError(f"sign-in failed: {tally.errors}")
    sessions = await open_sessions(database, ADMIN, args.consoles + args.streams - 1)
    tokens = [signed_in, *sessions]
    pollers, watchers = tokens[: args.consoles], tokens[args.consoles :]
    path = await events_page(url, tokens[0])
    idle = await idle_poll(url, tokens[0], path)
    processes = family(pid)
    before = {p: rss_mib(p) for p in processes}
    for p in processes:
        reset_peak_rss(p)
    load_before = os.getloadavg()
    cpu_before = {p: cpu_seconds(p) for p in processes}
    client_before = time.process_time()
    started = time.monotonic()
    end = started + args.seconds
    per_reader = args.rate / args.batch / READERS
    streams, worst = Streams(), Backlog()
    await asyncio.gather(
        *(
            post_reads(url, key, per_reader, args.batch, end, tally, n, READERS)
            for n in range(READERS)
        ),
        *(
            poll_console(url, token, end, tally, started + POLL_SECONDS * i / len(pollers), (path,))
            for i, token in enumerate(pollers)
        ),
        *(
            hold_stream(url, token, end, streams, started + POLL_SECONDS * i / len(watchers))
            for i, token in enumerate(watchers)
        ),
        watch_backlog(database, end, worst),
    )
    elapsed = time.monotonic() - started
    client_cpu = (time.process_time() - client_before) / elapsed
    cpu = {p: (cpu_seconds(p) - cpu_before[p]) / elapsed for p in processes}
    load_after = os.getloadavg()
    after = {p: rss_mib(p) for p in processes}
    peaks = {p: peak_rss_mib(p) for p in processes}
    warm = [at < started + WARM_SECONDS for at in tally.console_at]
    cold_ms = [ms for ms, cold in zip(tally.console_ms, warm, strict=True) if cold]
    warm_ms = [ms for ms, cold in zip(tally.console_ms, warm, strict=True) if not cold]
    errors = {**tally.errors, **streams.errors}
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(errors.items())) or "none"
    refused = tally.errors.get("ingest 429", 0)
    report(
        f"mixed, {workers} HTTP worker{'s' if workers > 1 else ''}",
        f"{len(pollers)} consoles polling the Events page every {POLL_SECONDS:.0f} s and "
        f"{len(watchers)} holding the live stream while {READERS} readers post "
        f"{args.rate:,} reads/s in batches of {args.batch}, {elapsed:.0f} s; "
        f"{tally.console_requests:,} polls, {tally.reads:,} reads accepted; errors: {shown}; "
        f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after",
        [
            Figure("poll p50", median(tally.console_ms), "ms", "idle server p50", median(idle)),
            Figure(
                "poll p95", percentile(tally.console_ms, 0.95), "ms", "idle server p95",
                percentile(idle, 0.95), "< 100 ms",
            ),
            Figure(
                "poll p99", percentile(tally.console_ms, 0.99), "ms", "idle server p99",
                percentile(idle, 0.99),
            ),
            *(
                Figure(
                    f"poll p{share * 100:.0f} after the first {WARM_SECONDS} s",
                    percentile(warm_ms, share), "ms", f"first {WARM_SECONDS} s",
                    percentile(cold_ms, share),
                )
                for share in (0.95, 0.99)
            ),
            Figure("reads/s accepted", tally.reads / elapsed, "/s", "asked", args.rate),
            Figure("ingest answered 429", refused, "", "accepted", len(tally.ingest_ms)),
            Figure(
                "backlog at its worst", worst.reads / args.rate, "s of input", "reads waiting",
                worst.reads,
            ),
            Figure("oldest waiting read, worst", worst.oldest_seconds, "s", "run", elapsed),
            Figure("live streams held to the end", streams.held, "", "opened", streams.opened),
            *(
                Figure(f"{role} RSS end / peak", after[p], "MiB", "peak", peaks[p])
                for p, role in processes.items()
            ),
            Figure(
                "all processes peak RSS", sum(peaks.values()), "MiB", "before the load",
                sum(before.values()),
            ),
            # Cores busy: a process near 1.0 is saturated; the load's own client too.
            *(Figure(f"{role} CPU", cpu[p], "cores", "run", 1.0) for p, role in processes.items()),
            Figure("load generator CPU", client_cpu, "cores", "run", 1.0),
        ],
    )  # fmt: skip
    return Run(
        workers,
        tally.console_ms,
        tally.reads / elapsed,
        refused,
        worst,
        streams,
        sum(peaks.values()),
    )


def compare(base: Run, run: Run) -> None:
    label = f"{base.workers} worker{'s' if base.workers > 1 else ''}"
    report(
        f"mixed, {run.workers} HTTP workers against {label} in the same run",
        "the figures above, side by side",
        [
            *(
                Figure(
                    f"poll p{share * 100:.0f}", percentile(run.poll_ms, share), "ms", label,
                    percentile(base.poll_ms, share),
                )
                for share in (0.95, 0.99)
            ),
            Figure("reads/s accepted", run.reads_per_second, "/s", label, base.reads_per_second),
            Figure("ingest answered 429", run.refused, "", label, base.refused),
            Figure("backlog at its worst", run.backlog.reads, "reads", label, base.backlog.reads),
            Figure("live streams held", run.streams.held, "", label, base.streams.held),
            Figure("all processes peak RSS", run.rss_peak_total, "MiB", label, base.rss_peak_total),
        ],
    )  # fmt: skip


def run_once(workers: int, args: argparse.Namespace) -> Run:
    with TemporaryDirectory(prefix="tagtrack-bench-mixed-") as data_dir, fresh_database() as url:
        env = server_env(
            url, data_dir, admin_email=ADMIN, admin_password=ADMIN_PASSWORD, workers=str(workers)
        )
        with serve(env) as served:
            key = reader_key(served.url, ADMIN, ADMIN_PASSWORD, "Mixed Dock")
            return asyncio.run(load(served.url, url, served.process.pid, key, workers, args))


def main(args: argparse.Namespace) -> None:
    runs = [run_once(workers, args) for workers in args.worker_counts]
    for run in runs[1:]:
        compare(runs[0], run)


if __name__ == "__main__":
    main(parse_args())
