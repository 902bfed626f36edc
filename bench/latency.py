"""Ingest latency at a steady rate: POST -> 202, and POST -> visible in GET /api/events.

Readers post batches on a fixed schedule (the target rate) with the worker running; a
console polls the newest event all along. A batch is visible when the newest event's
Last Seen reaches the batch's newest read. The baseline is the round trip of a raw COPY
of the same batch into a plain table, in the same run.
"""

import argparse
import asyncio
import contextlib
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import httpx

from bench.common import (
    ADMIN,
    PASSWORD,
    Figure,
    median,
    percentile,
    quiet,
    reader_traffic,
    report,
    seed_floor,
    served,
)
from bench.ingest import copy_baseline
from tagtrack.core.config import Settings
from tagtrack.core.migrate import upgrade
from tagtrack.main import create_app
from tests.database import fresh_database


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rate", type=int, default=10_000, help="reads per second")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--batch", type=int, default=500, help="reads per request")
    parser.add_argument("--readers", type=int, default=20)
    parser.add_argument("--things", type=int, default=5_000)
    return parser.parse_args(argv)


async def main(args: argparse.Namespace) -> None:
    reads = int(args.rate * args.seconds)
    interval = args.batch / args.rate
    with fresh_database() as url:
        upgrade(url)
        floor = await seed_floor(url, args.readers, args.things)
        batches = reader_traffic(floor, reads, batch=args.batch)
        copy_ms = [s * 1000 for s in await copy_baseline(url, batches[:200])]
        app = create_app(Settings(log_json=True, ingest_max_pending=10**9), database_url=url)
        quiet()
        accepted: list[float] = []
        refused: list[int] = []  # status codes other than 202 (429 when overloaded)
        sent: list[tuple[float, datetime]] = []  # (monotonic post start, newest read time)
        seen: list[tuple[float, datetime]] = []  # (monotonic, newest event time)
        async with served(app):
            transport = httpx.ASGITransport(app=app)
            async with (
                httpx.AsyncClient(transport=transport, base_url="http://bench") as readers,
                httpx.AsyncClient(transport=transport, base_url="http://bench") as console,
            ):
                login = {"username": ADMIN, "password": PASSWORD}
                (await console.post("/api/auth/login", json=login)).raise_for_status()
                last: list[datetime] = []  # the newest read of all, once every batch is sent

                async def watch() -> None:
                    """Poll the newest event until the newest read of all shows."""
                    while True:
                        response = await console.get("/api/events", params={"limit": 1})
                        response.raise_for_status()
                        if newest := response.json():
                            when = datetime.fromisoformat(newest[0]["time"])
                            seen.append((time.perf_counter(), when))
                            if last and when >= last[0]:
                                return
                        await asyncio.sleep(0.02)

                async def post(key: str, body: list[dict[str, object]]) -> None:
                    now = datetime.now(UTC)
                    for n, read in enumerate(body):
                        read["time"] = (now - timedelta(microseconds=len(body) - n)).isoformat()
                    started = time.perf_counter()
                    response = await readers.post(
                        "/api/ingest/reads",
                        json={"reads": body},
                        headers={"Authorization": f"Bearer {key}"},
                    )
                    if response.status_code != 202:
                        # A refused batch is reported, not waited for: readers retry later.
                        refused.append(response.status_code)
                        return
                    sent.append((started, now - timedelta(microseconds=1)))
                    accepted.append((time.perf_counter() - started) * 1000)

                watcher = asyncio.create_task(watch())
                start = time.perf_counter()
                posts = []
                for n, (key, body) in enumerate(batches):
                    delay = start + n * interval - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
                    posts.append(asyncio.create_task(post(key, body)))
                await asyncio.gather(*posts)
                last.append(max((t for _, t in sent), default=datetime.now(UTC)))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(watcher, 30)
    visible = []
    for posted, newest in sent:
        first = next((at for at, when in seen if at >= posted and when >= newest), None)
        if first is not None:
            visible.append((first - posted) * 1000)
    achieved = (
        len(sent) * args.batch / (max(p for p, _ in sent) - min(p for p, _ in sent) + interval)
    )
    report(
        "latency",
        f"{args.rate} reads/s asked ({achieved:.0f} accepted) for {args.seconds:.0f} s, "
        f"batches of {args.batch} from {args.readers} readers; {len(refused)} of "
        f"{len(batches)} batches refused {sorted(set(refused))}; "
        f"{len(visible)} of {len(sent)} accepted batches seen visible",
        [
            Figure("POST -> 202 p50", median(accepted), "ms", "COPY p50", median(copy_ms)),
            Figure(
                "POST -> 202 p99", percentile(accepted, 0.99), "ms", "COPY p99",
                percentile(copy_ms, 0.99), target="< 250 ms at 10,000 reads/s",
            ),
            Figure("POST -> visible p50", median(visible), "ms", "COPY p50", median(copy_ms)),
            Figure(
                "POST -> visible p99", percentile(visible, 0.99), "ms", "COPY p99",
                percentile(copy_ms, 0.99), target="< 2000 ms",
            ),
        ],
    )  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
