"""Soak: a real `tagtrack serve` on loopback under steady ingest plus polling consoles.

For --minutes (default 30) readers post --rate reads/s (default 5,000) to
POST /api/ingest/reads while --consoles signed-in consoles (default 100) poll the events list
and the endpoint status every 5 seconds, as the console does. Every --every seconds it prints
reads accepted, ingest latency, console requests, errors and the server's resident memory.
It stops by itself and stops the server; it never talks to anything but 127.0.0.1.
"""

import argparse
import asyncio
import itertools
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from tempfile import TemporaryDirectory

import httpx

from tests.database import fresh_database
from tests.serve import reader_key, serve

ADMIN = "soak.admin@example.com"
ADMIN_PASSWORD = "Soak-Test-Steady-2026"
POLL_SECONDS = 5.0
READERS = 8


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--rate", type=int, default=5_000, help="reads per second")
    parser.add_argument("--batch", type=int, default=250, help="reads per request")
    parser.add_argument("--consoles", type=int, default=100)
    parser.add_argument("--every", type=float, default=15, help="seconds between reports")
    return parser.parse_args(argv)


@dataclass
class Tally:
    reads: int = 0
    ingest_ms: list[float] = field(default_factory=list)
    console_requests: int = 0
    console_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def reader(
    url: str, key: str, batches_per_second: float, batch: int, end: float, tally: Tally, n: int
) -> None:
    tags = itertools.count()
    interval = 1 / batches_per_second
    async with httpx.AsyncClient(
        base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=30
    ) as client:
        next_at = time.monotonic()
        for sent in itertools.count():
            # Behind schedule or not, the soak ends on time.
            if next_at >= end or time.monotonic() >= end:
                return
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            reads = [
                {"tag": f"SOAK{n:02d}{next(tags) % 20_000:08d}", "antenna": 1} for _ in range(batch)
            ]
            started = time.perf_counter()
            try:
                response = await client.post(
                    "/api/ingest/reads", json={"batchId": f"soak-{n}-{sent}", "reads": reads}
                )
                if response.status_code == 202:
                    tally.reads += batch
                    tally.ingest_ms.append((time.perf_counter() - started) * 1000)
                else:
                    tally.error(f"ingest {response.status_code}")
            except httpx.HTTPError as error:
                tally.error(f"ingest {type(error).__name__}")
            next_at += interval


async def sign_in(url: str, tally: Tally) -> str | None:
    """A console's session token (sign-in is timed apart from the soak)."""
    async with httpx.AsyncClient(base_url=url, timeout=120) as client:
        try:
            signed_in = await client.post(
                "/api/auth/login", json={"username": ADMIN, "password": ADMIN_PASSWORD}
            )
        except httpx.HTTPError as error:
            tally.error(f"login {type(error).__name__}")
            return None
        if signed_in.status_code != 200:
            tally.error(f"login {signed_in.status_code}")
            return None
        return signed_in.cookies.get("tagtrack_session")


async def console(url: str, token: str, end: float, tally: Tally, offset: float) -> None:
    cookies = {"tagtrack_session": token}
    async with httpx.AsyncClient(base_url=url, timeout=30, cookies=cookies) as client:
        await asyncio.sleep(offset)
        while time.monotonic() < end:
            for path in ("/api/events?limit=25", "/api/endpoints/status"):
                started = time.perf_counter()
                try:
                    response = await client.get(path)
                    tally.console_requests += 1
                    tally.console_ms.append((time.perf_counter() - started) * 1000)
                    if response.status_code != 200:
                        tally.error(f"console {response.status_code}")
                except httpx.HTTPError as error:
                    tally.error(f"console {type(error).__name__}")
            await asyncio.sleep(POLL_SECONDS)


async def report(pid: int, end: float, every: float, tally: Tally, started: float) -> list[str]:
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
            f"errors {sum(tally.errors.values()):>4}  rss {rss_mib(pid):6.0f} MiB"
        )
        print(line, flush=True)
        lines.append(line)
        tally.ingest_ms.clear()
        tally.console_ms.clear()
        last_reads, last_at = tally.reads, now
        if now >= end:
            return lines


async def soak(url: str, pid: int, args: argparse.Namespace, key: str) -> Tally:
    tally = Tally()
    signing_in = time.monotonic()
    tokens = [
        t for t in await asyncio.gather(*(sign_in(url, tally) for _ in range(args.consoles))) if t
    ]
    print(f"{len(tokens)} consoles signed in in {time.monotonic() - signing_in:.0f} s", flush=True)
    started = time.monotonic()
    end = started + args.minutes * 60
    per_reader = args.rate / args.batch / READERS
    tasks = [
        *(reader(url, key, per_reader, args.batch, end, tally, n) for n in range(READERS)),
        *(
            console(url, token, end, tally, POLL_SECONDS * i / len(tokens))
            for i, token in enumerate(tokens)
        ),
    ]
    reporter = asyncio.create_task(report(pid, end, args.every, tally, started))
    await asyncio.gather(*tasks)
    await reporter
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    print(
        f"soak: {args.minutes} min, {args.rate} reads/s in batches of {args.batch}, "
        f"{args.consoles} consoles polling every {POLL_SECONDS:.0f} s",
        flush=True,
    )
    with TemporaryDirectory(prefix="tagtrack-soak-") as data_dir, fresh_database() as url:
        env = {
            "TAGTRACK_DATABASE_URL": url,
            "TAGTRACK_DATA_DIR": data_dir,
            "TAGTRACK_HOST": "127.0.0.1",
            "TAGTRACK_ADMIN_EMAIL": ADMIN,
            "TAGTRACK_ADMIN_PASSWORD": ADMIN_PASSWORD,
            "TAGTRACK_LOG_JSON": "true",
        }
        with serve(env) as served:
            key = reader_key(served.url, ADMIN, ADMIN_PASSWORD, "Soak Dock")
            tally = asyncio.run(soak(served.url, served.process.pid, args, key))
    errors = ", ".join(f"{k}: {v}" for k, v in sorted(tally.errors.items())) or "none"
    print(
        f"done: {tally.reads} reads accepted, {tally.console_requests} console requests, "
        f"errors: {errors}"
    )
    if tally.ingest_ms:
        print(f"last interval ingest median {statistics.median(tally.ingest_ms):.1f} ms")


if __name__ == "__main__":
    main()
