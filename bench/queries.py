"""The console's heavy reads at scale, each next to the same query as raw SQL.

One organization with --things things, --endpoints readers, --zones zones and --images
images; events are generated in the database (generate_series) over 30 days ending at
23:00 UTC of the day of the run, with a zone visit for every ten events, and grown scale by
scale (--events, default 1M then 10M) so each scale is measured on the same database. Timed
through the whole app: the Events page call (25 rows and x-total-count, of the UTC day,
whose edges are whole hours, and of a whole day at UTC+05:30, whose edges fall inside
hours), a things search (25 rows and count), the zone durations of 30 days (the report's
call, up to 10,000 rows), the gallery's first page and a gallery tag search (25 images and
count); last, how the Events page grows from the first scale to the last."""

import argparse
import asyncio
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import cast

import asyncpg
import httpx
from sqlalchemy.dialects import registry
from sqlalchemy.ext.asyncio import AsyncSession

from bench.common import (
    ADMIN,
    PASSWORD,
    Figure,
    Floor,
    counted,
    driver_url,
    median,
    percentile,
    quiet,
    report,
    seed_floor,
    served,
    timed,
)
from tagtrack.core.config import Settings
from tagtrack.core.migrate import upgrade
from tagtrack.events.repository import EventRepository
from tagtrack.main import create_app
from tests.database import fresh_database

DAYS = 30
WARM_CALLS = 20
GENERATE_EVENTS = counted("""
INSERT INTO events (id, org_id, site_id, endpoint_id, thing_id, tag, antenna, time, first_time,
                    repeat_count, direction, zone_id, alarm_tamper, data)
SELECT lpad(to_hex(g), 24, '0'), $1, $2, ep.id, p.id, p.tag, g % 4, at,
       at - interval '20 seconds', 1 + g % 50, 'IN', z.id, false, '{}'::jsonb
FROM generate_series($3::bigint, $4::bigint) AS g
JOIN picked p ON p.n = g % $5::bigint
JOIN picked_endpoint ep ON ep.n = g % $6::bigint
JOIN picked_zone z ON z.n = g % $7::bigint,
     LATERAL (SELECT $8::timestamptz - ((g - $9::bigint) * $10::float8) * interval '1 second'
              AS at) AS t
""")
GENERATE_VISITS = """
INSERT INTO zone_durations (id, org_id, site_id, thing_id, zone_id, time_start, time_end,
                            time_duration)
SELECT lpad(to_hex(g), 24, '0'), $1, $2, p.id, z.id, at, at + interval '5 minutes',
       300000000000
FROM generate_series($3::bigint, $4::bigint) AS g
JOIN picked p ON p.n = g % $5::bigint
JOIN picked_zone z ON z.n = g % $6::bigint,
     LATERAL (SELECT $7::timestamptz - ((g - $3::bigint) * $8::float8) * interval '1 second'
              AS at) AS t
"""
GENERATE_IMAGES = """
INSERT INTO images (id, org_id, uploader_id, timestamp, longitude, latitude, annotation, tags,
                    category_ids, storage_key, content_type, format, byte_size, width, height,
                    orientation, device, taken_at, original_name, time_created, time_modified)
SELECT lpad(to_hex(g), 24, '0'), $1::text, NULL, at, 0, 0,
       CASE WHEN g % 10 = 0 THEN 'pallet damaged in transit' ELSE '' END,
       ARRAY['dock-' || g % 500, 'shift-' || g % 3]::varchar[], '{}',
       $1::text || '/' || lpad(to_hex(g), 24, '0') || '/original', 'image/jpeg', 'jpg', 3000000,
       4000, 3000, 1, 'Bench camera', at, 'IMG_' || g || '.jpg', at, at
FROM generate_series(1, $2::bigint) AS g,
     LATERAL (SELECT $3::timestamptz - g * interval '1 minute' AS at) AS t
"""
# Things, readers and zones to pick from by number: a join, not an array subscript per row.
PICKED = """
CREATE TEMP TABLE {table} AS
SELECT n - 1 AS n, id, tag FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(id, tag, n)
"""
# Indexes other than the primary key are dropped while rows are generated and built again
# after: building an index once is many times faster than maintaining it row by row.
SECONDARY_INDEXES = """
SELECT indexname, indexdef FROM pg_indexes
WHERE tablename = $1 AND indexname NOT IN (SELECT conname FROM pg_constraint)
"""
RAW_EVENTS_COUNT = """
SELECT count(*) FROM events
WHERE org_id = $1 AND site_id = $2 AND time >= $3 AND time < $4
"""
# Names joined by (org_id, id), as the app does: the keys of these tables lead with org_id.
RAW_EVENTS_PAGE = """
SELECT e.*, ep.name, th.name, z.name, lt.name
FROM (SELECT id, time FROM events
      WHERE org_id = $1 AND site_id = $2 AND time >= $3 AND time < $4
      ORDER BY time DESC, id DESC LIMIT 25) AS ids
JOIN events e ON e.org_id = $1 AND e.id = ids.id AND e.time = ids.time
LEFT JOIN endpoints ep ON ep.org_id = $1 AND ep.id = e.endpoint_id
LEFT JOIN things th ON th.org_id = $1 AND th.id = e.thing_id
LEFT JOIN zones z ON z.org_id = $1 AND z.id = e.zone_id
LEFT JOIN location_tags lt ON lt.org_id = $1 AND lt.id = e.location_tag_id
ORDER BY e.time DESC, e.id DESC
"""
THING_SEARCH = """
FROM things WHERE org_id = $1 AND site_id = $2 AND (
  name ILIKE $3 OR serial ILIKE $3 OR description ILIKE $3
  OR concat_ws(' ', tag1, tag2, array_to_string(tags, ' '), array_to_string(tags1, ' '),
               array_to_string(tags2, ' ')) ILIKE $3)
"""
RAW_THINGS_PAGE = f"SELECT * {THING_SEARCH} ORDER BY name, id LIMIT 25"
RAW_THINGS_COUNT = f"SELECT count(*) {THING_SEARCH}"
RAW_VISITS_COUNT = """
SELECT count(*) FROM zone_durations
WHERE org_id = $1 AND site_id = $2 AND (time_end IS NULL OR time_end >= $3)
  AND time_start < $4
"""
RAW_VISITS_PAGE = """
SELECT v.*, th.name, z.name
FROM (SELECT id, time_start FROM zone_durations
      WHERE org_id = $1 AND site_id = $2 AND (time_end IS NULL OR time_end >= $3)
        AND time_start < $4
      ORDER BY time_start DESC, id DESC LIMIT 10000) AS ids
JOIN zone_durations v ON v.org_id = $1 AND v.id = ids.id AND v.time_start = ids.time_start
LEFT JOIN things th ON th.org_id = $1 AND th.id = v.thing_id
LEFT JOIN zones z ON z.org_id = $1 AND z.id = v.zone_id
ORDER BY v.time_start DESC, v.id DESC
"""
RAW_GALLERY_PAGE = """
SELECT * FROM images WHERE org_id = $1 ORDER BY time_created DESC, id DESC LIMIT 25
"""
RAW_GALLERY_COUNT = "SELECT count(*) FROM images WHERE org_id = $1"
RAW_TAGGED_PAGE = """
SELECT * FROM images WHERE org_id = $1 AND tags @> ARRAY[$2]::varchar[]
ORDER BY time_created DESC, id DESC LIMIT 25
"""
RAW_TAGGED_COUNT = "SELECT count(*) FROM images WHERE org_id = $1 AND tags @> ARRAY[$2]::varchar[]"
RAW_SQL = {
    "events": (RAW_EVENTS_PAGE, RAW_EVENTS_COUNT),
    "things": (RAW_THINGS_PAGE, RAW_THINGS_COUNT),
    "visits": (RAW_VISITS_PAGE, RAW_VISITS_COUNT),
    "gallery": (RAW_GALLERY_PAGE, RAW_GALLERY_COUNT),
    "tagged": (RAW_TAGGED_PAGE, RAW_TAGGED_COUNT),
}
EVENTS_PAGE = "events page (today, 25 + count)"
# A site whose clock is half an hour off UTC: its day's edges fall inside hours. Its last
# whole day (at 23:00 UTC it is 04:30 there), so both edges hold events.
HALF_HOUR_ZONE = timezone(timedelta(hours=5, minutes=30))
EVENTS_PAGE_OFFSET = "events page (a day at UTC+05:30, 25 + count)"


def today_at(now: datetime, zone: tzinfo) -> tuple[datetime, datetime]:
    """The day of `now` on a site's clock, as UTC bounds."""
    start = now.astimezone(zone).replace(hour=0, minute=0, second=0)
    return start.astimezone(UTC), (start + timedelta(days=1)).astimezone(UTC)


def offset_day(now: datetime) -> tuple[datetime, datetime]:
    return today_at(now - timedelta(days=1), HALF_HOUR_ZONE)


def app_count_sql(floor: Floor, after: datetime, before: datetime) -> str:
    """The Events page's total as the app counts it, with its values in the text."""
    stmt, values = EventRepository(cast(AsyncSession, None)).count_statement(
        floor.org_id, [floor.site_id], after=after, before=before, endpoints=[], thing=""
    )
    compiled = stmt.params(values).compile(
        dialect=registry.load("postgresql")(), compile_kwargs={"literal_binds": True}
    )
    return str(compiled)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--events", type=int, nargs="+", default=[1_000_000, 10_000_000],
        help="event counts to measure at, smallest first (visits are a tenth of each)",
    )  # fmt: skip
    parser.add_argument("--things", type=int, default=100_000)
    parser.add_argument("--endpoints", type=int, default=200)
    parser.add_argument("--zones", type=int, default=500)
    parser.add_argument("--images", type=int, default=50_000)
    parser.add_argument("--requests", type=int, default=50, help="timed calls per query")
    parser.add_argument(
        "--quick", action="store_true", help="a tenth of every size (100k and 1M events)"
    )
    parser.add_argument(
        "--explain", action="store_true", help="print the Events page's plans at each scale"
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.events = [n // 10 for n in args.events]
        args.things, args.images = args.things // 10, args.images // 10
    args.events = sorted(args.events)
    return args


class Generator:
    """Grows the organization's events and visits in the database, evenly over DAYS days."""

    def __init__(self, url: str, floor: Floor, now: datetime) -> None:
        self.url, self.floor, self.now = url, floor, now
        self.events = 0

    async def grow_to(self, events: int) -> float:
        """Add events (and a tenth as many visits) up to `events`; seconds it took."""
        started = time.perf_counter()
        added = events - self.events
        floor = self.floor
        connection = await asyncpg.connect(driver_url(self.url))
        try:
            await self._picked(connection)
            await connection.execute("SET maintenance_work_mem = '256MB'")
            # Generated rows point at rows that exist: skip the reference-check triggers.
            await connection.execute("SET session_replication_role = replica")
            dropped = []
            for table in ("events", "zone_durations"):
                for name, definition in await connection.fetch(SECONDARY_INDEXES, table):
                    await connection.execute(f'DROP INDEX "{name}"')
                    dropped.append(definition)
            spacing = DAYS * 86400 / added
            chunk = 1_000_000
            for first in range(self.events + 1, events + 1, chunk):
                await connection.execute(
                    GENERATE_EVENTS, floor.org_id, floor.site_id, first,
                    min(events, first + chunk - 1), len(floor.thing_ids),
                    len(floor.endpoint_ids), len(floor.zone_ids), self.now, self.events + 1,
                    spacing,
                )  # fmt: skip
            await connection.execute(
                GENERATE_VISITS, floor.org_id, floor.site_id, self.events // 10 + 1,
                events // 10, len(floor.thing_ids), len(floor.zone_ids), self.now, spacing * 10,
            )  # fmt: skip
            for definition in dropped:
                # pg_indexes shows a partitioned table's index as `ON ONLY`: run as it is,
                # that builds an invalid index of the parent alone, none of its partitions.
                await connection.execute(definition.replace(" ON ONLY ", " ON ", 1))
            await connection.execute("VACUUM ANALYZE events")
            await connection.execute("VACUUM ANALYZE event_counts")
            await connection.execute("VACUUM ANALYZE zone_durations")
        finally:
            await connection.close()
        self.events = events
        return time.perf_counter() - started

    async def _picked(self, connection: asyncpg.Connection) -> None:
        floor = self.floor
        await connection.execute(PICKED.format(table="picked"), floor.thing_ids, floor.tags)
        await connection.execute(
            PICKED.format(table="picked_endpoint"), floor.endpoint_ids, floor.endpoint_ids
        )
        await connection.execute(PICKED.format(table="picked_zone"), floor.zone_ids, floor.zone_ids)


async def add_images(url: str, floor: Floor, images: int, now: datetime) -> None:
    connection = await asyncpg.connect(driver_url(url))
    try:
        await connection.execute(GENERATE_IMAGES, floor.org_id, images, now)
        await connection.execute("VACUUM ANALYZE images")
    finally:
        await connection.close()


async def explain(url: str, floor: Floor, now: datetime) -> None:
    """EXPLAIN (ANALYZE, BUFFERS) of the Events page's count and page as raw SQL, and of the
    app's count (from the hour counts) of the UTC day and of the UTC+05:30 day."""
    today, tomorrow = today_at(now, UTC)
    connection = await asyncpg.connect(driver_url(url))
    try:
        for sql in (RAW_EVENTS_COUNT, RAW_EVENTS_PAGE):
            plan = await connection.fetch(
                f"EXPLAIN (ANALYZE, BUFFERS) {sql}", floor.org_id, floor.site_id, today, tomorrow
            )
            print("\n".join(row[0] for row in plan), end="\n\n", flush=True)
        for after, before in ((today, tomorrow), offset_day(now)):
            sql = app_count_sql(floor, after, before)
            print(f"app count {after:%Y-%m-%d %H:%M} to {before:%Y-%m-%d %H:%M} UTC:")
            plan = await connection.fetch(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
            print("\n".join(row[0] for row in plan), end="\n\n", flush=True)
    finally:
        await connection.close()


async def measure(
    client: httpx.AsyncClient, raw: asyncpg.Connection, floor: Floor, now: datetime, count: int
) -> tuple[list[Figure], dict[str, tuple[list[float], list[float]]], dict[str, str]]:
    """Every call through the app and as raw SQL: figures, the samples and what it answered."""
    today, tomorrow = today_at(now, UTC)
    offset_start, offset_end = offset_day(now)
    month = now - timedelta(days=DAYS)
    org, site = floor.org_id, floor.site_id
    # The app sends one site as `site_id IN ($2)`, which PostgreSQL plans as `= $2`.
    calls: dict[str, tuple[dict[str, object], str, Sequence[object], str]] = {
        EVENTS_PAGE: (
            {"site": site, "after": today.isoformat(), "before": tomorrow.isoformat(),
             "limit": 25},
            "/api/events", (org, site, today, tomorrow), "events",
        ),
        EVENTS_PAGE_OFFSET: (
            {"site": site, "after": offset_start.isoformat(),
             "before": offset_end.isoformat(), "limit": 25},
            "/api/events", (org, site, offset_start, offset_end), "events",
        ),
        "things search (25 + count)": (
            {"site": site, "search": "asset 0001", "limit": 25},
            "/api/things", (org, site, "%asset 0001%"), "things",
        ),
        "zone durations 30 days": (
            {"site": site, "after": month.isoformat(), "before": now.isoformat()},
            "/api/zonedurations", (org, site, month, now), "visits",
        ),
        "gallery first page (25 + count)": ({}, "/api/images", (org,), "gallery"),
        "gallery tag search (25 + count)": (
            {"tags": "dock-17"}, "/api/images", (org, "dock-17"), "tagged",
        ),
    }  # fmt: skip
    figures: list[Figure] = []
    samples: dict[str, tuple[list[float], list[float]]] = {}
    answered: dict[str, str] = {}
    for name, (params, path, raw_args, kind) in calls.items():
        page_sql, count_sql = RAW_SQL[kind]

        async def via_api(name: str = name, path: str = path, params: dict = params) -> None:  # type: ignore[type-arg]
            response = await client.get(path, params=params)
            response.raise_for_status()
            answered[name] = f"{len(response.json())} of {response.headers['x-total-count']}"

        async def via_sql(
            page_sql: str = page_sql,
            count_sql: str = count_sql,
            raw_args: Sequence[object] = raw_args,
        ) -> None:
            await raw.fetch(page_sql, *raw_args)
            await raw.fetchval(count_sql, *raw_args)

        # The first reads of freshly generated rows write their hint bits (this machine runs
        # no autovacuum): both sides start timing once the pages have been read, so neither
        # pays for the other's first pass.
        for _ in range(WARM_CALLS):
            await via_api()
            await via_sql()
        api = await timed(count, via_api)
        sql = await timed(count, via_sql)
        samples[name] = (api, sql)
        figures += [
            Figure(f"{name} p50", median(api), "ms", "raw SQL p50", median(sql)),
            Figure(
                f"{name} p95", percentile(api, 0.95), "ms", "raw SQL p95", percentile(sql, 0.95),
                target="< 50 ms at 10M" if name == EVENTS_PAGE else "",
            ),
        ]  # fmt: skip
    return figures, samples, answered


async def main(args: argparse.Namespace) -> None:
    # History ends at 23:00 UTC of the day of the run, whatever its hour, so "today" holds 23
    # hours of events at every run (at 00:30 it would hold half an hour's).
    now = datetime.now(UTC).replace(hour=23, minute=0, second=0, microsecond=0)
    with fresh_database() as url:
        upgrade(url)
        started = time.perf_counter()
        floor = await seed_floor(url, args.endpoints, args.things, zones=args.zones)
        generator = Generator(url, floor, now)
        await add_images(url, floor, args.images, now)
        seeded = time.perf_counter() - started
        app = create_app(Settings(log_json=True, processing=False), database_url=url)
        quiet()
        p95s: dict[int, tuple[float, float]] = {}
        async with served(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                login = {"username": ADMIN, "password": PASSWORD}
                (await client.post("/api/auth/login", json=login)).raise_for_status()
                for events in args.events:
                    generated = await generator.grow_to(events)
                    raw = await asyncpg.connect(driver_url(url))
                    try:
                        figures, samples, answered = await measure(
                            client, raw, floor, now, args.requests
                        )
                    finally:
                        await raw.close()
                    if args.explain:
                        await explain(url, floor, now)
                    api, sql = samples[EVENTS_PAGE]
                    p95s[events] = (percentile(api, 0.95), percentile(sql, 0.95))
                    shown = "; ".join(f"{name}: {rows}" for name, rows in answered.items())
                    report(
                        "queries",
                        f"{events:,} events over {DAYS} days (grown in {generated:.0f} s), "
                        f"{events // 10:,} visits, {args.things:,} things, {args.endpoints} "
                        f"readers, {args.zones} zones, {args.images:,} images (seeded in "
                        f"{seeded:.0f} s), history ends at {now:%H:%M} UTC today; {shown}",
                        figures,
                    )
    if len(p95s) > 1:
        small, large = min(p95s), max(p95s)
        report(
            "queries",
            f"growth of the Events page p95 from {small:,} to {large:,} events",
            [
                Figure(
                    f"events page p95 {large:,} / {small:,}", p95s[large][0] / p95s[small][0],
                    "x", "raw SQL", p95s[large][1] / p95s[small][1], target="<= 1.5",
                )
            ],
        )  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
