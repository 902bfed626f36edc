"""A reader catching up after an outage: time until its whole backlog is processed.

One reader posts its backlog in batches (one request after another, as a reader drains its
buffer) while the worker runs; the figure is seconds from the first post until the last
read is processed. The baseline is raw COPY of the same reads in the same run.
"""

import argparse
import asyncio
from collections.abc import Sequence

from bench.common import Figure, reader_traffic, report, seed_floor
from bench.ingest import run_through_app
from tagtrack.core.migrate import upgrade
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
        run = await run_through_app(url, batches)
    done = run.done
    assert done["folded"] == args.reads
    report(
        "backlog",
        f"one reader posts {args.reads} reads in batches of {args.batch} "
        f"-> {done['events']} events, {done['visits']} visits",
        [
            Figure("all posted (202s)", run.accepted, "s", "raw COPY", run.copy),
            Figure("all processed", run.processed, "s", "raw COPY", run.copy, target="< 5 s"),
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
