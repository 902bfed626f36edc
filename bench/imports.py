"""Spreadsheet import: rows/s through POST /api/import/row as the Import Assets screen sends
them (six requests in flight), next to raw COPY of the same items into the things table.
"""

import argparse
import asyncio
import secrets
import time
from collections.abc import Sequence

import httpx

from bench.common import ADMIN, PASSWORD, Figure, copy_things, quiet, report, seed_floor
from tagtrack.core.config import Settings
from tagtrack.core.migrate import upgrade
from tagtrack.main import create_app
from tests.database import fresh_database

# What the console keeps in flight (IMPORT_CONCURRENCY in web/src/features/imports/importLogic.ts).
IN_FLIGHT = 6
MAPPING = [
    {"header": "Asset", "assetField": "name"},
    {"header": "Serial", "assetField": "serial"},
    {"header": "EPC", "assetField": "tags"},
    {"header": "Group", "assetField": "categories"},
]


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=10_000)
    return parser.parse_args(argv)


async def main(args: argparse.Namespace) -> None:
    with fresh_database() as url:
        upgrade(url)
        floor = await seed_floor(url, readers=1, things=0)
        app = create_app(Settings(log_json=True, processing=False), database_url=url)
        async with app.router.lifespan_context(app):
            quiet()
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                login = {"username": ADMIN, "password": PASSWORD}
                (await client.post("/api/auth/login", json=login)).raise_for_status()
                rows = [
                    {
                        "Asset": f"Asset {n:06d}",
                        "Serial": f"SN-{n:06d}",
                        "EPC": secrets.token_hex(12).upper(),
                        "Group": f"Group {n % 20}",
                    }
                    for n in range(args.rows)
                ]
                queue: asyncio.Queue[dict[str, str]] = asyncio.Queue()
                for row in rows:
                    queue.put_nowait(row)
                failures: list[str] = []

                async def sender() -> None:
                    nonlocal failures
                    while not queue.empty():
                        cells = queue.get_nowait()
                        body = {
                            "site": floor.site_id,
                            "zone": floor.zone_ids[0],
                            "headerAssetFields": MAPPING,
                            "cells": cells,
                        }
                        response = await client.post("/api/import/row", json=body)
                        if not response.is_success:
                            failures.append(response.text)

                started = time.perf_counter()
                await asyncio.gather(*(sender() for _ in range(IN_FLIGHT)))
                imported = time.perf_counter() - started
        started = time.perf_counter()
        await copy_things(url, floor, args.rows)
        copied = time.perf_counter() - started
    report(
        "imports",
        f"{args.rows:,} rows, {IN_FLIGHT} requests in flight, each row into a zone; "
        f"{len(failures)} failed{': ' + failures[0][:200] if failures else ''}",
        [
            Figure("rows/s imported", args.rows / imported, "rows/s", "COPY", args.rows / copied),
            Figure("seconds for all rows", imported, "s", "COPY", copied, "minutes, not hours"),
        ],
    )


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
