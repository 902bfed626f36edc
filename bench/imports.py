"""Spreadsheet import: rows/s through POST /api/import/rows as the Import Assets screen sends
them (batches of 500 rows, two in flight), through the single-row POST /api/import/row (six
requests in flight, as the screen sent them before), and raw COPY of the same number of items
into the things table, all in one run.
"""

import argparse
import asyncio
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import httpx

from bench.common import ADMIN, PASSWORD, Figure, copy_things, quiet, report, seed_floor, served
from tagtrack.core.config import Settings
from tagtrack.core.migrate import upgrade
from tagtrack.imports.schemas import MAX_BATCH_ROWS
from tagtrack.main import create_app
from tests.database import fresh_database

# What the console keeps in flight (BATCH_ROWS and BATCHES_IN_FLIGHT in
# web/src/features/imports/importLogic.ts); the single-row call as it was sent before.
BATCH = MAX_BATCH_ROWS
BATCHES_IN_FLIGHT = 2
ROWS_IN_FLIGHT = 6
MAPPING = [
    {"header": "Asset", "assetField": "name"},
    {"header": "Serial", "assetField": "serial"},
    {"header": "EPC", "assetField": "tags"},
    {"header": "Group", "assetField": "categories"},
]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--rows",
        type=int,
        nargs="+",
        default=[2_000, 50_000],
        help="workbook sizes sent through the batch call, one import each",
    )
    parser.add_argument(
        "--single-rows", type=int, default=2_000, help="rows sent through the single-row call"
    )
    return parser.parse_args(argv)


def sheet(count: int, start: int) -> list[dict[str, str]]:
    return [
        {
            "Asset": f"Asset {n:06d}",
            "Serial": f"SN-{n:06d}",
            "EPC": secrets.token_hex(12).upper(),
            "Group": f"Group {n % 20}",
        }
        for n in range(start, start + count)
    ]


async def in_flight(jobs: list[Any], workers: int, send: Callable[[Any], Awaitable[None]]) -> float:
    """Seconds to send every job, `workers` at a time."""
    queue: asyncio.Queue[Any] = asyncio.Queue()
    for job in jobs:
        queue.put_nowait(job)

    async def worker() -> None:
        while not queue.empty():
            await send(queue.get_nowait())

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(workers)))
    return time.perf_counter() - started


async def post_batch(
    client: httpx.AsyncClient,
    target: dict[str, Any],
    rows: list[dict[str, str]],
    failures: list[str],
) -> None:
    """One batch call as the screen sends it; a refused call or row adds its reason."""
    body = {**target, "rows": [{"cells": cells} for cells in rows]}
    response = await client.post("/api/import/rows", json=body)
    if not response.is_success:
        failures.append(response.text)
        return
    failures.extend(r["reason"] for r in response.json()["results"] if r["reason"])


async def main(args: argparse.Namespace) -> None:
    failures: list[str] = []
    batch_seconds: dict[int, float] = {}
    with fresh_database() as url:
        upgrade(url)
        floor = await seed_floor(url, readers=1, things=0)
        target = {"site": floor.site_id, "zone": floor.zone_ids[0], "headerAssetFields": MAPPING}
        app = create_app(Settings(log_json=True, processing=False), database_url=url)
        async with served(app):
            quiet()
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://bench", timeout=120
            ) as client:
                login = {"username": ADMIN, "password": PASSWORD}
                (await client.post("/api/auth/login", json=login)).raise_for_status()

                async def one_row(cells: dict[str, str]) -> None:
                    response = await client.post("/api/import/row", json={**target, "cells": cells})
                    if not response.is_success:
                        failures.append(response.text)

                async def one_batch(rows: list[dict[str, str]]) -> None:
                    await post_batch(client, target, rows, failures)

                start = 0
                single = await in_flight(sheet(args.single_rows, start), ROWS_IN_FLIGHT, one_row)
                start += args.single_rows
                for count in args.rows:
                    rows = sheet(count, start)
                    start += count
                    batches = [rows[i : i + BATCH] for i in range(0, count, BATCH)]
                    batch_seconds[count] = await in_flight(batches, BATCHES_IN_FLIGHT, one_batch)
        largest = max([args.single_rows, *args.rows])
        started = time.perf_counter()
        await copy_things(url, floor, largest)
        copied = time.perf_counter() - started
    copy_rate = largest / copied
    figures = [
        Figure(
            f"single-row call, {args.single_rows:,} rows: rows/s",
            args.single_rows / single,
            "rows/s",
            "COPY",
            copy_rate,
        ),
        Figure(
            f"single-row call, {args.single_rows:,} rows: seconds",
            single,
            "s",
            "COPY",
            args.single_rows / copy_rate,
        ),
    ]
    targets = {2_000: "< 5 s", 50_000: "< 60 s"}
    for count, seconds in batch_seconds.items():
        figures += [
            Figure(f"batch call, {count:,} rows: rows/s", count / seconds, "rows/s", "COPY",
                   copy_rate),
            Figure(f"batch call, {count:,} rows: seconds", seconds, "s", "COPY",
                   count / copy_rate, targets.get(count, "")),
        ]  # fmt: skip
    report(
        "imports",
        f"each row into a zone; batch call: {BATCH} rows a request, {BATCHES_IN_FLIGHT} in "
        f"flight; single-row call: {ROWS_IN_FLIGHT} in flight; COPY of {largest:,} items; "
        f"{len(failures)} failed{': ' + failures[0][:200] if failures else ''}",
        figures,
    )


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
