"""History partitioned by month: partitions made ahead, DEFAULT for rows outside them,
retention per organization (whole partitions dropped, or an organization's older rows
deleted), queries across a month boundary, and the migration keeping existing rows."""

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

import pytest
from sqlalchemy import text

from tagtrack.core.config import Settings
from tagtrack.core.db import create_engine, create_sessionmaker
from tagtrack.core.migrate import upgrade
from tagtrack.core.partitions import (
    MONTHS_AHEAD,
    STATS_MIN_ROWS,
    VACUUM_MIN_ROWS,
    add_months,
    analyze_grown_partitions,
    create_partition,
    ensure_partitions,
    month_start,
    partition_name,
    vacuum_bloated_partitions,
)
from tagtrack.core.retention import apply_retention
from tagtrack.models import Site
from tagtrack.models.base import utcnow
from tagtrack.models.ids import new_id
from tagtrack.processing.service import ProcessingService
from tagtrack.processing.worker import ProcessingWorker
from tests.conftest import Org
from tests.database import fresh_database
from tests.history import Maker, new_floor, queued, read_at, set_retention
from tests.tracking import T0, Floor, epc
from tests.waiting import until

DAY = timedelta(days=1)


async def add_events(maker: Maker, floor: Floor, times: list[datetime]) -> list[str]:
    ids = [new_id() for _ in times]
    async with maker() as session, session.begin():
        await session.execute(
            text(
                "INSERT INTO events (id, org_id, site_id, thing_id, tag, antenna, time, "
                "first_time, repeat_count, direction, alarm_tamper) "
                "VALUES (:id, :org, :site, :thing, 'T', 0, :time, :time, 1, '', false)"
            ),
            [
                {"id": i, "org": floor.org_id, "site": floor.site_id, "thing": new_id(), "time": t}
                for i, t in zip(ids, times, strict=True)
            ],
        )
    return ids


async def add_visit(
    maker: Maker, floor: Floor, thing_id: str, zone_id: str, start: datetime, end: datetime | None
) -> str:
    visit_id = new_id()
    async with maker() as session, session.begin():
        await session.execute(
            text(
                "INSERT INTO zone_durations (id, org_id, site_id, thing_id, zone_id, time_start, "
                "time_end, time_duration) VALUES (:id, :org, :site, :thing, :zone, :start, :end, 0)"
            ),
            {"id": visit_id, "org": floor.org_id, "site": floor.site_id, "thing": thing_id,
             "zone": zone_id, "start": start, "end": end},
        )  # fmt: skip
    return visit_id


async def rows_where(maker: Maker, table: str, org_id: str) -> dict[str, str]:
    """id -> the partition holding it, of an organization's rows of a history table."""
    async with maker() as session:
        rows = await session.execute(
            text(f"SELECT id, tableoid::regclass::text FROM {table} WHERE org_id = :org"),
            {"org": org_id},
        )
        return dict(rows.all())


async def partition_names(maker: Maker, table: str) -> set[str]:
    async with maker() as session:
        rows = await session.execute(
            text(
                "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                "WHERE i.inhparent = CAST(:table AS regclass)"
            ),
            {"table": table},
        )
        return set(rows.scalars())


def coming_months(table: str, now: datetime) -> set[str]:
    first = month_start(now)
    return {partition_name(table, add_months(first, n)) for n in range(MONTHS_AHEAD + 1)}


async def test_partitions_are_made_ahead_at_start(app: Any, sessionmaker: Maker) -> None:
    now = utcnow()
    for table in ("events", "zone_durations"):
        made = await partition_names(sessionmaker, table)
        assert coming_months(table, now) | {f"{table}_default"} <= made


async def test_the_sweep_makes_a_missing_month_and_two_processes_make_it_once(
    history_db: Maker, settings: Settings
) -> None:
    now = utcnow()
    last = partition_name("events", add_months(month_start(now), MONTHS_AHEAD))
    async with history_db() as session, session.begin():
        await session.execute(text(f"DROP TABLE {last}"))
    await ProcessingWorker(history_db, settings).history(now)
    assert last in await partition_names(history_db, "events")

    further = add_months(now, 1)
    made = await asyncio.gather(
        ensure_partitions(history_db, further), ensure_partitions(history_db, further)
    )
    expected = partition_name("events", add_months(month_start(now), MONTHS_AHEAD + 1))
    assert sorted(name for names in made for name in names) == sorted(
        [expected, expected.replace("events", "zone_durations")]
    )


class PartitionState(NamedTuple):
    changed: int  # rows changed since the last ANALYZE, as PostgreSQL counts them
    analyzed_at: datetime | None
    dead: int  # dead row versions waiting for a vacuum
    updated: int  # rows updated, ever
    pages: int  # pages and rows as the last statistics told the planner
    rows: float


async def partition_state(maker: Maker, name: str) -> PartitionState:
    async with maker() as session:
        row = (
            await session.execute(
                text(
                    "SELECT s.n_mod_since_analyze, s.last_analyze, s.n_dead_tup, s.n_tup_upd, "
                    "c.relpages, c.reltuples FROM pg_stat_user_tables s "
                    "JOIN pg_class c ON c.oid = s.relid WHERE s.relname = :name"
                ),
                {"name": name},
            )
        ).one()
        return PartitionState(
            int(row[0]), row[1], int(row[2]), int(row[3]), int(row[4]), float(row[5])
        )


async def month_analyzed_empty(
    maker: Maker, settings: Settings, name: str
) -> tuple[Floor, datetime, str]:
    """A new organization's floor, now, and this month's events partition, analyzed while
    it holds none of its rows."""
    floor = await new_floor(maker, settings, name)
    now = utcnow()
    month = partition_name("events", month_start(now))
    async with maker() as session, session.begin():
        await session.execute(text(f"ANALYZE {month}"))
    return floor, now, month


async def repeat_every_event(maker: Maker, month: str, org_id: str, times: int) -> None:
    """Each event read again `times` times, as processing folds repeats: its count and last
    time move, and each update leaves the old version, in the table and in the indexes of
    time, until a vacuum."""
    for _ in range(times):
        async with maker() as session, session.begin():
            await session.execute(
                text(
                    f"UPDATE {month} SET repeat_count = repeat_count + 1, "
                    "time = time + interval '1 ms' WHERE org_id = :org"
                ),
                {"org": org_id},
            )


async def test_processing_analyzes_a_partition_that_grew_and_only_then(
    history_db: Maker, settings: Settings
) -> None:
    floor, now, month = await month_analyzed_empty(history_db, settings, "Statistics")
    grown = 3 * STATS_MIN_ROWS
    await add_events(history_db, floor, [now - timedelta(seconds=n) for n in range(grown)])

    async def counted() -> bool:  # the server reports its counters a little later
        return (await partition_state(history_db, month)).changed >= grown

    await until(counted)
    before = (await partition_state(history_db, month)).analyzed_at
    await ProcessingWorker(history_db, settings).partition_upkeep()
    after = await partition_state(history_db, month)
    changed, analyzed_at = after.changed, after.analyzed_at
    assert changed == 0
    assert analyzed_at is not None and before is not None and analyzed_at > before

    # A few more rows are not worth new statistics.
    await add_events(history_db, floor, [now] * 10)
    assert month not in await analyze_grown_partitions(history_db)

    # Nor are updates, however many: processing updates an event for nearly every repeat.
    await repeat_every_event(history_db, month, floor.org_id, times=2)

    async def updates_counted() -> bool:
        return (await partition_state(history_db, month)).changed >= 2 * grown

    await until(updates_counted)
    assert month not in await analyze_grown_partitions(history_db)


async def test_a_partition_analyzed_while_empty_is_analyzed_as_soon_as_rows_arrive(
    history_db: Maker, settings: Settings
) -> None:
    # A fresh install, or a month made ahead: statistics of an empty partition.
    floor, now, month = await month_analyzed_empty(history_db, settings, "First rows")
    await add_events(history_db, floor, [now - timedelta(seconds=n) for n in range(50)])

    # Far fewer rows than the rule of grown rows asks, and before PostgreSQL has counted
    # them: the file is no longer empty, so the partition is analyzed now, and once.
    assert month in await analyze_grown_partitions(history_db)
    analyzed = await partition_state(history_db, month)
    assert analyzed.pages > 0 and analyzed.rows == 50
    assert month not in await analyze_grown_partitions(history_db)


async def test_draining_a_backlog_refreshes_the_statistics_on_the_way(
    history_db: Maker, settings: Settings
) -> None:
    # Under a steady load the drain may not end for minutes: it looks between its passes.
    floor, now, month = await month_analyzed_empty(history_db, settings, "Backlog")
    reader = await floor.endpoint("Dock door")
    async with history_db() as session, session.begin():
        reads = [read_at(floor, reader.id, epc(), now - timedelta(seconds=n)) for n in range(200)]
        session.add(queued(floor, reader.id, reads))
    empty = await partition_state(history_db, month)
    assert (empty.pages, empty.rows) == (0, 0)
    assert await ProcessingWorker(history_db, settings).drain() == 200
    drained = await partition_state(history_db, month)
    assert drained.pages > 0 and drained.rows == 200


async def test_a_partition_full_of_dead_row_versions_is_vacuumed_and_only_then(
    history_db: Maker, settings: Settings
) -> None:
    floor = await new_floor(history_db, settings, "Repeats")
    month = partition_name("events", month_start(utcnow()))
    rows = 2_000
    await add_events(history_db, floor, [utcnow() - timedelta(seconds=n) for n in range(rows)])
    times = VACUUM_MIN_ROWS // rows * 2
    await repeat_every_event(history_db, month, floor.org_id, times=times)

    # Every update counted, not just enough of them: dead versions a backend reports after
    # the vacuum would be counted again on top of what the vacuum left.
    async def all_counted() -> bool:
        return (await partition_state(history_db, month)).updated == rows * times

    await until(all_counted)
    assert month in await vacuum_bloated_partitions(history_db)
    assert (await partition_state(history_db, month)).dead == 0
    assert month not in await vacuum_bloated_partitions(history_db)


async def test_reads_far_from_now_are_kept_and_get_their_month_later(
    history_db: Maker, settings: Settings
) -> None:
    floor = await new_floor(history_db, settings, "Clocks")
    reader = await floor.endpoint("Skewed reader")
    thing = await floor.thing("Crate", epc())
    now = utcnow()
    future, past = now + 730 * DAY, now - 730 * DAY
    async with history_db() as session, session.begin():
        reads = [read_at(floor, reader.id, thing.tag1, t) for t in (future, past, now)]
        await ProcessingService(session, settings).process_now(floor.org_id, reads)
    placed = await rows_where(history_db, "events", floor.org_id)
    assert sorted(placed.values()) == sorted(
        ["events_default", "events_default", partition_name("events", month_start(now))]
    )

    # Made later, the months of the rows in DEFAULT take them over.
    created = await ensure_partitions(history_db, now)
    months = {partition_name("events", month_start(t)) for t in (future, past)}
    assert months <= set(created)
    after = await rows_where(history_db, "events", floor.org_id)
    assert set(after) == set(placed)
    assert months | {partition_name("events", month_start(now))} == set(after.values())

    # A month DEFAULT holds rows of can also be made on its own.
    stray = now + 1000 * DAY
    [stray_id] = await add_events(history_db, floor, [stray])
    async with history_db() as session, session.begin():
        await create_partition(session, "events", month_start(stray))
    where = await rows_where(history_db, "events", floor.org_id)
    assert where[stray_id] == partition_name("events", month_start(stray))


async def test_retention_drops_a_month_only_when_every_organization_with_rows_lets_it_go(
    history_db: Maker, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="tagtrack.retention")
    brief = await new_floor(history_db, settings, "Brief")
    keeper = await new_floor(history_db, settings, "Keeper")
    now = utcnow()
    old = month_start(now - 200 * DAY) + 10 * DAY
    recent = now - 10 * DAY
    old_month = partition_name("events", month_start(old))
    await add_events(history_db, brief, [old, old + DAY])
    brief_recent = await add_events(history_db, brief, [recent])
    keeper_old = await add_events(history_db, keeper, [old])
    keeper_recent = await add_events(history_db, keeper, [recent])
    await ensure_partitions(history_db, now)  # the old month gets its partition
    assert old_month in await partition_names(history_db, "events")

    # Brief keeps 60 days, Keeper forever: the month stays; Brief's old rows go.
    await set_retention(history_db, brief.org_id, 60)
    outcome = await apply_retention(history_db, now)
    assert outcome.dropped == [] and outcome.finished
    assert outcome.deleted == {("events", brief.org_id): 2}
    assert set(await rows_where(history_db, "events", brief.org_id)) == set(brief_recent)
    assert set(await rows_where(history_db, "events", keeper.org_id)) == set(
        keeper_old + keeper_recent
    )
    assert old_month in await partition_names(history_db, "events")

    # Keeper keeps a year: its 200-day-old row stays, and so does the month.
    await set_retention(history_db, keeper.org_id, 365)
    outcome = await apply_retention(history_db, now)
    assert (outcome.dropped, outcome.deleted) == ([], {})
    assert old_month in await partition_names(history_db, "events")

    # Keeper keeps 90 days: every owner lets the month go, and it is dropped whole.
    await set_retention(history_db, keeper.org_id, 90)
    outcome = await apply_retention(history_db, now)
    assert old_month in outcome.dropped
    assert old_month not in await partition_names(history_db, "events")
    # Key-value log lines: each record's message is its fields.
    logged = [record.msg for record in caplog.records if isinstance(record.msg, dict)]
    dropped = {"event": "dropped partition", "partition": old_month}
    deleted = {
        "event": "deleted old rows",
        "table": "events",
        "rows": 2,
        "older_than_days": 60,
        "org": brief.org_id,
    }
    assert any(dropped.items() <= line.items() for line in logged)
    assert any(deleted.items() <= line.items() for line in logged)
    assert set(await rows_where(history_db, "events", keeper.org_id)) == set(keeper_recent)
    assert set(await rows_where(history_db, "events", brief.org_id)) == set(brief_recent)
    # The current month and the ones ahead are never candidates.
    assert coming_months("events", now) <= await partition_names(history_db, "events")


async def test_retention_keeps_open_visits(history_db: Maker, settings: Settings) -> None:
    floor = await new_floor(history_db, settings, "Visits")
    zone = await floor.zone("Cage")
    resident, passer = await floor.thing("Resident", epc()), await floor.thing("Passer", epc())
    now = utcnow()
    old = month_start(now - 200 * DAY) + 5 * DAY
    still_open = await add_visit(history_db, floor, resident.id, zone.id, old, None)
    closed = await add_visit(history_db, floor, passer.id, zone.id, old, old + DAY)
    recent = await add_visit(history_db, floor, passer.id, zone.id, now - DAY, now - DAY / 2)
    await ensure_partitions(history_db, now)
    old_month = partition_name("zone_durations", month_start(old))
    assert old_month in await partition_names(history_db, "zone_durations")

    await set_retention(history_db, floor.org_id, 30)
    outcome = await apply_retention(history_db, now)
    assert outcome.deleted == {("zone_durations", floor.org_id): 1}
    # The only owner lets the month go, but an open visit holds it.
    assert old_month not in outcome.dropped
    kept = await rows_where(history_db, "zone_durations", floor.org_id)
    assert set(kept) == {still_open, recent} and closed not in kept
    assert kept[still_open] == old_month


async def test_one_open_visit_per_thing_when_batches_race(
    history_db: Maker, settings: Settings
) -> None:
    floor = await new_floor(history_db, settings, "Race")
    dock, gate = await floor.endpoint("Dock"), await floor.endpoint("Gate")
    await floor.zone("Dock zone", gates=[(dock, "IN", -1)])
    await floor.zone("Gate zone", gates=[(gate, "IN", -1)])
    thing = await floor.thing("Trolley", epc())
    now = utcnow()

    async def batch(reader_id: str, second: int) -> None:
        read = read_at(floor, reader_id, thing.tag1, now + timedelta(seconds=second))
        async with history_db() as session, session.begin():
            await ProcessingService(session, settings).process_now(floor.org_id, [read])

    for round_ in range(5):
        await asyncio.gather(batch(dock.id, 2 * round_), batch(gate.id, 2 * round_ + 1))
    visits = await floor.visits(thing)
    # A batch older than the thing's last read leaves it where it is, so the count varies.
    assert len(visits) >= 2
    assert [v.time_end is None for v in visits] == [False] * (len(visits) - 1) + [True]


async def test_events_page_and_zone_durations_across_a_month_boundary(
    org_factory: Any, sessionmaker: Maker, settings: Settings, anonymous: Any
) -> None:
    org: Org = await org_factory()
    floor = Floor(org.id, org.site_ids[0], sessionmaker, settings, anonymous)
    door = await floor.endpoint("Door")
    store = await floor.zone("Store", gates=[(door, "IN", 1), (door, "OUT", 2)])
    thing = await floor.thing("Pump", epc())
    boundary = add_months(month_start(utcnow()), 1)  # both sides have their partition

    def seconds(moment: datetime) -> float:
        return (moment - T0).total_seconds()

    # A fold across the boundary moves its event into the next month's partition.
    await floor.read(door, thing.tag1, seconds(boundary - timedelta(minutes=121)), antenna=1)
    await floor.read(door, thing.tag1, seconds(boundary - timedelta(seconds=20)), antenna=3)
    await floor.read(door, thing.tag1, seconds(boundary + timedelta(seconds=20)), antenna=3)
    await floor.read(door, thing.tag1, seconds(boundary + timedelta(minutes=30)), antenna=2)
    await floor.read(door, thing.tag1, seconds(boundary + timedelta(minutes=90)), antenna=1)
    events = await floor.events(thing.tag1)
    folded = next(e for e in events if e.antenna == 3)
    assert (folded.repeat_count, folded.time) == (2, boundary + timedelta(seconds=20))
    placed = await rows_where(sessionmaker, "events", org.id)
    assert placed[folded.id] == partition_name("events", boundary)
    assert len(set(placed.values())) == 2

    client = org.client("Manager")
    newest_first = sorted(events, key=lambda e: (e.time, e.id), reverse=True)
    span = {
        "after": (boundary - timedelta(hours=3)).isoformat(),
        "before": (boundary + timedelta(hours=3)).isoformat(),
    }
    listed = []
    for page in range(3):
        response = await client.get("/api/events", params={**span, "limit": 2, "page": page})
        assert response.status_code == 200, response.text
        assert response.headers["x-total-count"] == str(len(events))
        listed += response.json()
    assert [e["_id"] for e in listed] == [e.id for e in newest_first]
    assert [e["repeatCount"] for e in listed] == [e.repeat_count for e in newest_first]

    visits = await floor.visits(thing)
    assert [(v.time_start, v.time_end) for v in visits] == [
        (boundary - timedelta(minutes=121), boundary + timedelta(minutes=30)),
        (boundary + timedelta(minutes=90), None),
    ]
    response = await client.get("/api/zonedurations", params=span)
    assert response.status_code == 200, response.text
    assert [(d["_id"], d["zone"]) for d in response.json()] == [
        (visits[1].id, store.id),
        (visits[0].id, store.id),
    ]
    assert response.json()[1]["timeDuration"] == 151 * 60 * 10**9


async def test_the_migration_keeps_existing_history(settings: Settings) -> None:
    with fresh_database() as url:
        # The revision before history was partitioned.
        upgrade(url, "0010_org_keys")
        engine = create_engine(url)
        maker = create_sessionmaker(engine)
        org_id, site_id, other_site = new_id(), new_id(), new_id()
        moments = [datetime(2025, 12, 31, 23, 59, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)]
        try:
            async with maker() as session, session.begin():
                await session.execute(
                    text(
                        "INSERT INTO organizations (id, name, subdomain, okta_enabled, "
                        "entra_enabled, time_created, time_modified) "
                        "VALUES (:id, 'Old', 'old', false, false, now(), now())"
                    ),
                    {"id": org_id},
                )
                for site in (site_id, other_site):
                    session.add(Site(id=site, org_id=org_id, name=site, start_date=T0,
                                     timezone="UTC"))  # fmt: skip
            floor = Floor(org_id, site_id, maker, settings, None)  # type: ignore[arg-type]
            reader = await floor.endpoint("Door")
            zone = await floor.zone("Bay")
            thing = await floor.thing("Forklift", epc())
            async with maker() as session, session.begin():
                for n, moment in enumerate(moments):
                    await session.execute(
                        text(
                            "INSERT INTO events (id, org_id, site_id, endpoint_id, thing_id, "
                            "tag, antenna, time, first_time, repeat_count, direction, "
                            "alarm_tamper, data) VALUES (:id, :org, :site, :endpoint, :thing, "
                            "'T', :n, :time, :time, 3, 'IN', false, '{\"cFloat0\": 1.5}')"
                        ),
                        {"id": new_id(), "org": org_id, "site": site_id, "endpoint": reader.id,
                         "thing": thing.id, "n": n, "time": moment},
                    )  # fmt: skip
                    await session.execute(
                        text(
                            "INSERT INTO zone_durations (id, org_id, site_id, thing_id, zone_id, "
                            "time_start, time_end, time_duration) "
                            "VALUES (:id, :org, :site, :thing, :zone, :start, :end, 60)"
                        ),
                        {"id": new_id(), "org": org_id, "site": site_id, "thing": thing.id,
                         "zone": zone.id, "start": moment, "end": None if n else moment},
                    )  # fmt: skip
                before = {
                    table: sorted(map(tuple, await session.execute(text(f"SELECT * FROM {table}"))))
                    for table in ("events", "zone_durations")
                }

            upgrade(url)
            async with maker() as session:
                for table in ("events", "zone_durations"):
                    after = await session.execute(text(f"SELECT * FROM {table}"))
                    assert sorted(map(tuple, after)) == before[table]
                placed = await session.execute(
                    text("SELECT tableoid::regclass::text FROM events ORDER BY time")
                )
                assert list(placed.scalars()) == ["events_p2025_12", "events_p2026_01"]
                key = await session.scalar(
                    text(
                        "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                        "WHERE conname = 'pk_events'"
                    )
                )
                assert key == 'PRIMARY KEY (org_id, id, "time")'

            # What deletes did before, they still do.
            async with maker() as session, session.begin():
                await session.execute(text("DELETE FROM endpoints WHERE id = :id"),
                                      {"id": reader.id})  # fmt: skip
                await session.execute(text("DELETE FROM things WHERE id = :id"), {"id": thing.id})
            async with maker() as session:
                kept = (await session.execute(text("SELECT org_id, endpoint_id FROM events"))).all()
                assert kept == [(org_id, None), (org_id, None)]
                visits = await session.scalar(text("SELECT count(*) FROM zone_durations"))
                assert visits == 0
            async with maker() as session, session.begin():
                await session.execute(text("DELETE FROM sites WHERE id = :id"), {"id": site_id})
            async with maker() as session:
                assert await session.scalar(text("SELECT count(*) FROM events")) == 0
        finally:
            await engine.dispose()
