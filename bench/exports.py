"""Exports from a real `tagtrack serve`: time to stream them and the server's peak memory.

The heaviest spreadsheet export, the Activity report (GET eventsbything/export: events
grouped by thing and day, --rows rows), next to the same rows written by the XLSX writer
alone and the same query as a raw COPY to CSV; and the images zip (GET images//zip, every
image, --zip-mb MiB of originals stored as files), next to Python's zipfile and the `zip`
program writing the same files. Peak memory is the server process's VmHWM, started over
just before each export.
"""

import argparse
import asyncio
import os
import shutil
import subprocess
import tempfile
import time
import zipfile
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import httpx

from bench.common import (
    ADMIN,
    PASSWORD,
    Figure,
    Floor,
    counted,
    driver_url,
    http_worker,
    peak_rss_mib,
    report,
    reset_peak_rss,
    rss_mib,
    seed_floor,
    server_env,
)
from tagtrack.core.migrate import upgrade
from tagtrack.kit.xlsx import TableFile, duration
from tagtrack.reports.service import ACTIVITY_HEADERS
from tests.database import fresh_database
from tests.serve import serve

DAYS = 5
START = datetime(2026, 3, 2, tzinfo=UTC)
# Two events per thing and day: each thing shows on each day, a row of the export each.
GENERATE_EVENTS = counted("""
INSERT INTO events (id, org_id, site_id, endpoint_id, thing_id, tag, antenna, time, first_time,
                    repeat_count, direction, zone_id, alarm_tamper, data)
SELECT lpad(to_hex(g), 24, '0'), $1, $2, $3, t.id, t.tag1, 1, at, at - interval '20 minutes',
       1 + g % 50, 'IN', $4, false, '{}'::jsonb
FROM generate_series(0, $5::bigint - 1) AS g
JOIN (SELECT id, tag1, row_number() OVER (ORDER BY id) - 1 AS n FROM things WHERE org_id = $1)
     AS t ON t.n = g % $6::bigint,
     LATERAL (SELECT $7::timestamptz + (g / $6::bigint % $8::bigint) * interval '1 day'
                     + interval '8 hours' + (g / ($6::bigint * $8::bigint)) * interval '4 hours'
              AS at) AS a
""")
# The Activity report's rows (reports/repository.py activity) as plain SQL, site clock UTC.
ACTIVITY_SQL = """
SELECT t.name, t.tag1, t.class, d.day, d.first_seen, d.last_seen, d.events, d.reads
FROM (SELECT thing_id, date(timezone('UTC', time)) AS day,
             min(greatest(first_time, date_trunc('day', time))) AS first_seen,
             max(time) AS last_seen, count(*) AS events, sum(repeat_count) AS reads
      FROM events WHERE org_id = '{org}' AND time >= '{after}' AND time < '{before}'
      GROUP BY 1, 2) AS d
JOIN things t ON t.id = d.thing_id
WHERE t.org_id = '{org}'
ORDER BY t.name, t.id, d.day
"""
IMAGE_ROWS = """
INSERT INTO images (id, org_id, uploader_id, timestamp, longitude, latitude, annotation, tags,
                    category_ids, storage_key, content_type, format, byte_size, width, height,
                    orientation, device, taken_at, original_name, time_created, time_modified)
SELECT id, $1::text, NULL, $2, 0, 0, '', '{}', '{}', $1::text || '/' || id || '/original',
       'image/jpeg', 'jpg', $3, 4000, 3000, 1, '', NULL, id || '.jpg', $2, $2
FROM unnest($4::text[]) AS id
"""
FILE_MB = 4


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=100_000, help="rows of the XLSX export")
    parser.add_argument("--zip-mb", type=int, default=1024, help="MiB of images in the zip")
    parser.add_argument("--quick", action="store_true", help="a quarter of each size")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.zip_mb = args.rows // 4, args.zip_mb // 4
    return args


async def seed_events(url: str, floor: Floor, rows: int) -> None:
    """Things times DAYS days = rows of the export, two events for each."""
    things = len(floor.thing_ids)
    connection = await asyncpg.connect(driver_url(url))
    try:
        await connection.execute(
            GENERATE_EVENTS, floor.org_id, floor.site_id, floor.endpoint_ids[0],
            floor.zone_ids[0], rows * 2, things, START, DAYS,
        )  # fmt: skip
        await connection.execute("VACUUM ANALYZE events")
    finally:
        await connection.close()


async def seed_images(url: str, floor: Floor, root: Path, megabytes: int) -> list[Path]:
    """Image rows and their original files (random bytes: a zip stores photos as they are)."""
    ids = [f"{n + 1:024x}" for n in range(megabytes // FILE_MB)]
    paths = []
    for image_id in ids:
        path = root / floor.org_id / image_id / "original"
        path.parent.mkdir(parents=True)
        path.write_bytes(os.urandom(FILE_MB * 1024 * 1024))
        paths.append(path)
    connection = await asyncpg.connect(driver_url(url))
    try:
        await connection.execute(IMAGE_ROWS, floor.org_id, START, FILE_MB * 1024 * 1024, ids)
    finally:
        await connection.close()
    return paths


async def copy_csv(url: str, sql: str) -> tuple[float, int]:
    """Seconds and bytes of the query as a raw COPY to CSV."""
    connection = await asyncpg.connect(driver_url(url))
    written = 0

    async def sink(chunk: bytes) -> None:
        nonlocal written
        written += len(chunk)

    try:
        started = time.perf_counter()
        await connection.copy_from_query(sql, output=sink, format="csv")
        return time.perf_counter() - started, written
    finally:
        await connection.close()


async def writer_alone(url: str, sql: str) -> tuple[float, int]:
    """Seconds for the XLSX writer alone to write the query's rows (fetched beforehand)."""
    connection = await asyncpg.connect(driver_url(url))
    try:
        rows = await connection.fetch(sql)
    finally:
        await connection.close()
    cells = [
        [r[0], r[1], r[2], r[3], r[4].replace(tzinfo=None), r[5].replace(tzinfo=None),
         duration(int((r[5] - r[4]).total_seconds() * 10**9)), int(r[6]), int(r[7])]
        for r in rows
    ]  # fmt: skip
    started = time.perf_counter()
    async with TableFile("tagtrack-bench-", "Activity", ACTIVITY_HEADERS) as sheet:
        for first in range(0, len(cells), 1000):
            await sheet.append(cells[first : first + 1000])
        size = 0
        async for chunk in await sheet.finish():
            size += len(chunk)
    return time.perf_counter() - started, len(cells)


def zip_baselines(paths: Sequence[Path], root: Path) -> tuple[float, float]:
    """Seconds for Python's zipfile (stored) and the `zip` program (-0) on the same files."""
    started = time.perf_counter()
    with (
        open(os.devnull, "wb") as null,
        zipfile.ZipFile(null, "w", zipfile.ZIP_STORED, allowZip64=True) as archive,
    ):
        for path in paths:
            archive.write(path, f"{path.parent.name}.jpg")
    python_zip = time.perf_counter() - started
    program = float("nan")
    if zip_program := shutil.which("zip"):
        listed = "\n".join(str(p.relative_to(root)) for p in paths)
        started = time.perf_counter()
        subprocess.run(
            [zip_program, "-0", "-q", "-", "-@"], input=listed.encode(), cwd=root,
            stdout=subprocess.DEVNULL, check=True,
        )  # fmt: skip
        program = time.perf_counter() - started
    return python_zip, program


Download = tuple[float, int, float, float]


async def download(
    client: httpx.AsyncClient, pid: int, path: str, params: dict[str, str]
) -> Download:
    """Seconds, bytes, server RSS before and its peak while streaming the answer."""
    before = rss_mib(pid)
    reset_peak_rss(pid)
    size = 0
    started = time.perf_counter()
    async with client.stream("GET", path, params=params) as response:
        response.raise_for_status()
        async for chunk in response.aiter_raw():
            size += len(chunk)
    return time.perf_counter() - started, size, before, peak_rss_mib(pid)


async def run(url: str, pid: int, floor: Floor) -> tuple[Download, Download]:
    after, before = START, START + timedelta(days=DAYS)
    async with httpx.AsyncClient(base_url=url, timeout=600) as client:
        login = {"username": ADMIN, "password": PASSWORD}
        (await client.post("/api/auth/login", json=login)).raise_for_status()
        params = {"site": floor.site_id, "after": after.isoformat(), "before": before.isoformat()}
        xlsx = await download(client, pid, "/api/eventsbything/export", params)
        zipped = await download(client, pid, "/api/images//zip", {})
    return xlsx, zipped


def main(args: argparse.Namespace) -> None:
    things = args.rows // DAYS
    with (
        tempfile.TemporaryDirectory(prefix="tagtrack-bench-exports-") as data_dir,
        fresh_database() as url,
    ):
        upgrade(url)
        floor = asyncio.run(seed_floor(url, 1, things))
        asyncio.run(seed_events(url, floor, args.rows))
        root = Path(data_dir) / "images"
        paths = asyncio.run(seed_images(url, floor, root, args.zip_mb))
        env = server_env(url, data_dir, processing="false", workers="1")
        with serve(env) as served:
            pid = http_worker(served.process.pid)
            xlsx, zipped = asyncio.run(run(served.url, pid, floor))
        sql = ACTIVITY_SQL.format(
            org=floor.org_id,
            after=START.isoformat(),
            before=(START + timedelta(days=DAYS)).isoformat(),
        )
        copied, csv_bytes = asyncio.run(copy_csv(url, sql))
        written, rows = asyncio.run(writer_alone(url, sql))
        python_zip, program_zip = zip_baselines(paths, root)
    xlsx_s, xlsx_bytes, xlsx_rss, xlsx_peak = xlsx
    zip_s, zip_bytes, zip_rss, zip_peak = zipped
    report(
        "exports",
        f"activity.xlsx: {rows:,} rows ({things:,} things x {DAYS} days, {rows * 2:,} events), "
        f"{xlsx_bytes / 2**20:.1f} MiB (CSV {csv_bytes / 2**20:.1f} MiB); images.zip: "
        f"{len(paths)} files of {FILE_MB} MiB, {zip_bytes / 2**20:,.0f} MiB",
        [
            Figure("activity.xlsx", xlsx_s, "s", "XLSX writer alone, same rows", written, "< 5 s"),
            Figure("activity.xlsx", xlsx_s, "s", "same query, COPY to CSV", copied, "< 5 s"),
            Figure(
                "activity.xlsx server peak RSS", xlsx_peak, "MiB", "server RSS before",
                xlsx_rss, "< 250 MB",
            ),
            Figure("images.zip", zip_s, "s", "Python zipfile, same files", python_zip),
            Figure("images.zip", zip_s, "s", "zip -0, same files", program_zip),
            Figure(
                "images.zip MiB/s", zip_bytes / 2**20 / zip_s, "MiB/s", "zip -0",
                zip_bytes / 2**20 / program_zip,
            ),
            Figure(
                "images.zip server peak RSS", zip_peak, "MiB", "server RSS before", zip_rss,
                "< 200 MB",
            ),
        ],
    )  # fmt: skip


if __name__ == "__main__":
    main(parse_args())
