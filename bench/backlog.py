"""A reader catching up after an outage: time until its whole backlog is processed.

One reader posts its backlog in batches (one request after another, as a reader drains its
buffer) while the worker runs; the figure is seconds from the first post until the last
read is processed. The baseline is raw COPY of the same reads in the same run.
"""

import argparse
import asyncio
import time
from collections.abc import Sequence

import httpx

from bench.common import Figure, quiet, reader_traffic, report, seed_floor
from bench.ingest import copy_baseline, outcome, post_all, wait_processed
from tagtrack.core.config import Settings
from tagtrack.core.migrate import upgrade
from tagtrack.main import create_app
from tests.database import fresh_database


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--reads", type=int, default=66_000)
    parser.add_argument("--batch", type=int, default=500, help="reads per request")
    parser.add_argument("--things", type=int, default=5_000)
    return parser.parse_args(argv)


async def main(args: argparse.Namespace) -> None:
    with fresh_database() as url:
        upgrade(url)
        floor = await seed_floor(url, 1, args.things)
        batches = reader_traffic(floor, args.reads, batch=args.batch)
        app = create_app(Settings(log_json=True, ingest_max_pending=10**9), database_url=url)
        quiet()
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                started = time.perf_counter()
                await post_all(client, batches, 1)
                posted = time.perf_counter() - started
                await wait_processed(url)
                processed = time.perf_counter() - started
        done = await outcome(url)
        copy = await copy_baseline(url, batches)
    assert done["folded"] == args.reads
    report(
        "backlog",
        f"one reader posts {args.reads} reads in batches of {args.batch} "
        f"-> {done['events']} events, {done['visits']} visits",
        [
            Figure("all posted (202s)", posted, "s", "raw COPY", copy),
            Figure("all processed", processed, "s", "raw COPY", copy, target="< 5 s"),
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
