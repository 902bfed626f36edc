"""The console's heavy reads at scale, each next to the same query as raw SQL.

Events are generated in the database (generate_series) over 30 days ending now, with zone
visits (one per ten events) and tagged things. Timed through the whole app:
the Events page call (today, 25 rows, x-total-count), a things search (25 rows and count)
and the zone durations of 30 days (the report's call, up to 10,000 rows).
"""

import argparse
import asyncio
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import asyncpg
import httpx

from bench.common import (
    ADMIN,
    PASSWORD,
    Figure,
    Floor,
    driver_url,
    median,
    percentile,
    quiet,
    report,
    seed_floor,
    timed,
)
from tagtrack.core.config import Settings
from tagtrack.core.migrate import upgrade
from tagtrack.main import create_app
from tests.database import fresh_database

DAYS = 30
GENERATE_EVENTS = """
INSERT INTO events (id, org_id, site_id, endpoint_id, thing_id, tag, antenna, time, first_time,
                    repeat_count, direction, zone_id, alarm_tamper, data)
SELECT lpad(to_hex(g), 24, '0'), $1, $2, ($3::text[])[1 + g % 50], p.id, p.tag,
       g % 4, at, at - interval '20 seconds', 1 + g % 50, 'IN', ($4::text[])[1 + g % 50],
       false, '{}'::jsonb
FROM generate_series($5::bigint, $6::bigint) AS g
JOIN picked p ON p.n = g % $7::bigint,
     LATERAL (SELECT $8::timestamptz - (g * $9::float8) * interval '1 second' AS at) AS t
"""
# Things to pick from by number: subscripting a 20,000-element array parameter per row is slow.
PICKED = """
CREATE TEMP TABLE picked AS
SELECT n - 1 AS n, id, tag FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS u(id, tag, n)
"""
GENERATE_VISITS = """
INSERT INTO zone_durations (id, org_id, site_id, thing_id, zone_id, time_start, time_end,
                            time_duration)
SELECT lpad(to_hex(g), 24, '0'), $1, $2, p.id, ($3::text[])[1 + g % 50], at,
       at + interval '5 minutes', 300000000000
FROM generate_series(1, $4::bigint) AS g
JOIN picked p ON p.n = g % $5::bigint,
     LATERAL (SELECT $6::timestamptz - (g * $7::float8) * interval '1 second' AS at) AS t
"""
RAW_EVENTS_COUNT = """
SELECT count(*) FROM events
WHERE org_id = $1 AND site_id = $2 AND time >= $3 AND time < $4
"""
RAW_EVENTS_PAGE = """
SELECT e.*, ep.name, th.name, z.name, lt.name
FROM (SELECT id FROM events
      WHERE org_id = $1 AND site_id = $2 AND time >= $3 AND time < $4
      ORDER BY time DESC, id DESC LIMIT 25) AS ids
JOIN events e ON e.id = ids.id
LEFT JOIN endpoints ep ON ep.id = e.endpoint_id
LEFT JOIN things th ON th.id = e.thing_id
LEFT JOIN zones z ON z.id = e.zone_id
LEFT JOIN location_tags lt ON lt.id = e.location_tag_id
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
FROM (SELECT id FROM zone_durations
      WHERE org_id = $1 AND site_id = $2 AND (time_end IS NULL OR time_end >= $3)
        AND time_start < $4
      ORDER BY time_start DESC, id DESC LIMIT 10000) AS ids
JOIN zone_durations v ON v.id = ids.id
LEFT JOIN things th ON th.id = v.thing_id
LEFT JOIN zones z ON z.id = v.zone_id
ORDER BY v.time_start DESC, v.id DESC
"""


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--things", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=50, help="timed calls per query")
    return parser.parse_args(argv)


async def generate(url: str, floor: Floor, events: int, now: datetime) -> float:
    """Events and visits spread evenly over DAYS days up to now; seconds it took."""
    started = time.perf_counter()
    spacing = DAYS * 86400 / events
    connection = await asyncpg.connect(driver_url(url))
    try:
        await connection.execute(PICKED, floor.thing_ids, floor.tags)
        await connection.execute("CREATE INDEX ON picked (n)")
        things = len(floor.thing_ids)
        chunk = 250_000
        for first in range(1, events + 1, chunk):
            await connection.execute(
                GENERATE_EVENTS, floor.org_id, floor.site_id, floor.endpoint_ids,
                floor.zone_ids, first, min(events, first + chunk - 1), things, now, spacing,
            )  # fmt: skip
        await connection.execute(
            GENERATE_VISITS, floor.org_id, floor.site_id, floor.zone_ids, events // 10, things,
            now, spacing * 10,
        )  # fmt: skip
        await connection.execute("VACUUM ANALYZE events")
        await connection.execute("VACUUM ANALYZE zone_durations")
    finally:
        await connection.close()
    return time.perf_counter() - started


async def main(args: argparse.Namespace) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    today = now.replace(hour=0, minute=0, second=0)
    month = now - timedelta(days=DAYS)
    with fresh_database() as url:
        upgrade(url)
        floor = await seed_floor(url, 50, args.things)
        generated = await generate(url, floor, args.events, now)
        app = create_app(Settings(log_json=True, processing=False), database_url=url)
        quiet()
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
                login = {"username": ADMIN, "password": PASSWORD}
                (await client.post("/api/auth/login", json=login)).raise_for_status()
                raw = await asyncpg.connect(driver_url(url))
                # The app sends one site as `site_id IN ($2)`, which PostgreSQL plans as `= $2`.
                sites = floor.site_id
                try:
                    calls: dict[str, tuple[dict[str, object], str, Sequence[object], str]] = {
                        "events page (today, 25 + count)": (
                            {"site": floor.site_id, "after": today.isoformat(),
                             "before": (today + timedelta(days=1)).isoformat(), "limit": 25},
                            "/api/events", (floor.org_id, sites, today, today + timedelta(days=1)),
                            "events",
                        ),
                        "things search (25 + count)": (
                            {"site": floor.site_id, "search": "asset 0001", "limit": 25},
                            "/api/things", (floor.org_id, sites, "%asset 0001%"), "things",
                        ),
                        "zone durations 30 days": (
                            {"site": floor.site_id, "after": month.isoformat(),
                             "before": now.isoformat()},
                            "/api/zonedurations", (floor.org_id, sites, month, now), "visits",
                        ),
                    }  # fmt: skip
                    raw_sql = {
                        "events": (RAW_EVENTS_PAGE, RAW_EVENTS_COUNT),
                        "things": (RAW_THINGS_PAGE, RAW_THINGS_COUNT),
                        "visits": (RAW_VISITS_PAGE, RAW_VISITS_COUNT),
                    }
                    figures, rows = [], {}
                    for name, (params, path, raw_args, kind) in calls.items():
                        page_sql, count_sql = raw_sql[kind]

                        async def via_api(path: str = path, params: dict = params) -> None:  # type: ignore[type-arg]
                            response = await client.get(path, params=params)
                            response.raise_for_status()
                            rows[path] = (len(response.json()), response.headers["x-total-count"])

                        async def via_sql(
                            page_sql: str = page_sql,
                            count_sql: str = count_sql,
                            raw_args: Sequence[object] = raw_args,
                        ) -> None:
                            await raw.fetch(page_sql, *raw_args)
                            await raw.fetchval(count_sql, *raw_args)

                        api = await timed(args.requests, via_api)
                        sql = await timed(args.requests, via_sql)
                        figures += [
                            Figure(f"{name} p50", median(api), "ms", "raw SQL p50", median(sql)),
                            Figure(
                                f"{name} p95", percentile(api, 0.95), "ms", "raw SQL p95",
                                percentile(sql, 0.95),
                                target="< 50 ms at 10M" if kind == "events" else "",
                            ),
                        ]  # fmt: skip
                finally:
                    await raw.close()
    shown = ", ".join(f"{path} {n} rows of {total}" for path, (n, total) in rows.items())
    setup = (
        f"{args.events:,} events over {DAYS} days, {args.events // 10:,} visits, "
        f"{args.things:,} things (generated in {generated:.0f} s); {shown}"
    )
    report("queries", setup, figures)


if __name__ == "__main__":
    asyncio.run(main(parse_args()))
