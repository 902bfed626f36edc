"""Mixed load on a real `tagtrack serve`: many consoles polling while readers ingest.

--consoles signed-in consoles (default 1,000) each call the Events page (its site, today,
25 rows with x-total-count) every 5 seconds, as the console polls it, while readers post
--rate reads/s (default 20,000) with the worker processing them, for --seconds (default
60; longer with --seconds). Figures: p95 of the poll next to the same call on the idle
server in the same run, reads/s accepted next to the rate asked, and the server's resident
memory (now and peak) next to its memory before the load. One console signs in through
the API; the others' sessions are written into the database as sign-in writes them.
"""

import argparse
import asyncio
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from tempfile import TemporaryDirectory
from urllib.parse import urlencode

import httpx

from bench.common import (
    POLL_SECONDS,
    Figure,
    Tally,
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
from tests.database import fresh_database
from tests.serve import reader_key, serve

ADMIN = "mixed.admin@example.com"
ADMIN_PASSWORD = "Mixed-Load-Steady-2026"
READERS = 8


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--rate", type=int, default=20_000, help="reads per second")
    parser.add_argument("--batch", type=int, default=500, help="reads per request")
    parser.add_argument("--consoles", type=int, default=1_000)
    return parser.parse_args(argv)


async def events_page(url: str, token: str) -> str:
    """The Events page call of the reader's site for today, as the console sends it."""
    async with httpx.AsyncClient(base_url=url, cookies={"tagtrack_session": token}) as client:
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
    async with httpx.AsyncClient(base_url=url, cookies={"tagtrack_session": token}) as client:
        for _ in range(count):
            started = time.perf_counter()
            (await client.get(path)).raise_for_status()
            samples.append((time.perf_counter() - started) * 1000)
    return samples


async def load(url: str, database: str, pid: int, key: str, args: argparse.Namespace) -> None:
    tally = Tally()
    signed_in = await sign_in(url, ADMIN, ADMIN_PASSWORD, tally)
    if signed_in is None:
        raise RuntimeError(f"sign-in failed: {tally.errors}")
    tokens = [signed_in, *await open_sessions(database, ADMIN, args.consoles - 1)]
    path = await events_page(url, tokens[0])
    idle = await idle_poll(url, tokens[0], path)
    before = rss_mib(pid)
    reset_peak_rss(pid)
    started = time.monotonic()
    end = started + args.seconds
    per_reader = args.rate / args.batch / READERS
    await asyncio.gather(
        *(post_reads(url, key, per_reader, args.batch, end, tally, n) for n in range(READERS)),
        *(
            poll_console(url, token, end, tally, POLL_SECONDS * i / len(tokens), (path,))
            for i, token in enumerate(tokens)
        ),
    )
    elapsed = time.monotonic() - started
    now, peak = rss_mib(pid), peak_rss_mib(pid)
    errors = ", ".join(f"{k}: {v}" for k, v in sorted(tally.errors.items())) or "none"
    report(
        "mixed",
        f"{len(tokens)} consoles polling the Events page "
        f"every {POLL_SECONDS:.0f} s while {READERS} readers post {args.rate:,} reads/s in "
        f"batches of {args.batch}, {elapsed:.0f} s; {tally.console_requests:,} polls, "
        f"{tally.reads:,} reads accepted; errors: {errors}",
        [
            Figure("poll p50", median(tally.console_ms), "ms", "idle server p50", median(idle)),
            Figure(
                "poll p95", percentile(tally.console_ms, 0.95), "ms", "idle server p95",
                percentile(idle, 0.95), "< 100 ms",
            ),
            Figure("reads/s accepted", tally.reads / elapsed, "/s", "asked", args.rate),
            Figure("server RSS at the end", now, "MiB", "before the load", before, "< 500 MB"),
            Figure("server peak RSS", peak, "MiB", "before the load", before, "< 500 MB"),
        ],
    )  # fmt: skip


def main(args: argparse.Namespace) -> None:
    with TemporaryDirectory(prefix="tagtrack-bench-mixed-") as data_dir, fresh_database() as url:
        env = server_env(url, data_dir, admin_email=ADMIN, admin_password=ADMIN_PASSWORD)
        with serve(env) as served:
            key = reader_key(served.url, ADMIN, ADMIN_PASSWORD, "Mixed Dock")
            asyncio.run(load(served.url, url, served.process.pid, key, args))


if __name__ == "__main__":
    main(parse_args())
