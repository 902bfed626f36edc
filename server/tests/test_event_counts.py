"""Per-site, per-hour event counts (event_counts) stay exact through every writer and
deleter of events, and the Events page total read from them equals counting the events.

Events are made the way they are in production: reads posted to the ingest API and
processed (new events, repeats folded into stored ones, a fold whose Last Seen crosses
into the next hour, a reader with a wrong clock whose events land in DEFAULT); then
retention deletes and month drops, partition maintenance and a site's deletion.
"""

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select, text

from tagtrack.core import retention
from tagtrack.core.config import Settings
from tagtrack.core.db import create_engine, create_sessionmaker
from tagtrack.core.migrate import upgrade
from tagtrack.core.partitions import ensure_partitions, month_start, partition_name
from tagtrack.core.retention import apply_retention
from tagtrack.models import Endpoint, Event, Site
from tagtrack.models.base import utcnow
from tagtrack.models.ids import new_id
from tagtrack.processing.service import ProcessingService
from tests.conftest import Org
from tests.database import fresh_database
from tests.history import Maker, new_floor, read_at, set_retention
from tests.tracking import T0, Floor, epc, iso

HOUR = timedelta(hours=1)


async def exact(
    maker: Maker,
    org_id: str,
    *,
    sites: Sequence[str] | None = None,
    after: datetime | None = None,
    before: datetime | None = None,
    endpoints: Sequence[str] = (),
    thing: str = "",
) -> int:
    """count(*) of the events, row by row."""
    stmt = select(func.count()).select_from(Event).where(Event.org_id == org_id)
    if sites is not None:
        stmt = stmt.where(Event.site_id.in_(sites))
    if after is not None:
        stmt = stmt.where(Event.time >= after)
    if before is not None:
        stmt = stmt.where(Event.time < before)
    if endpoints:
        stmt = stmt.where(Event.endpoint_id.in_(endpoints))
    if thing:
        stmt = stmt.where(Event.thing_id == thing)
    async with maker() as session:
        return int(await session.scalar(stmt) or 0)


async def listed_total(client: httpx.AsyncClient, **params: Any) -> int:
    """x-total-count of the Events page for these filters."""
    query = {"limit": 1} | {
        name: value.isoformat() if isinstance(value, datetime) else value
        for name, value in params.items()
        if value is not None
    }
    response = await client.get("/api/events", params=query)
    assert response.status_code == 200, response.text
    return int(response.headers["x-total-count"])


async def assert_counts_exact(maker: Maker, org_id: str) -> dict[tuple[str, datetime], int]:
    """event_counts holds, for every site and UTC hour, the number of its events there
    (hours emptied by a move or a delete may stay at zero, never below)."""
    async with maker() as session:
        kept = (
            await session.execute(
                text("SELECT site_id, hour, events FROM event_counts WHERE org_id = :org"),
                {"org": org_id},
            )
        ).all()
        actual = (
            await session.execute(
                text(
                    "SELECT site_id, date_trunc('hour', time, 'UTC'), count(*) FROM events "
                    "WHERE org_id = :org GROUP BY 1, 2"
                ),
                {"org": org_id},
            )
        ).all()
    assert all(n >= 0 for _, _, n in kept), kept
    counted = {(site, hour): n for site, hour, n in kept if n}
    assert counted == {(site, hour): n for site, hour, n in actual}
    return counted


def reads(tag: str, *moments: datetime, antenna: int = 0) -> list[dict[str, Any]]:
    return [
        {"tag": tag, "time": iso((moment - T0).total_seconds()), "antenna": antenna}
        for moment in moments
    ]


async def post(floor: Floor, endpoint: Endpoint, body: list[dict[str, Any]]) -> None:
    """Reads through the ingest API, then processed."""
    response = await floor.post(endpoint, {"reads": body})
    assert response.status_code == 202, response.text
    await floor.drain()


async def test_counts_follow_processing_and_page_totals_equal_counting(
    org_factory: Any, sessionmaker: Maker, settings: Settings, anonymous: httpx.AsyncClient
) -> None:
    org: Org = await org_factory()
    site_a, site_b = org.site_ids
    floor = Floor(org.id, site_a, sessionmaker, settings, anonymous)
    door, dock = await floor.endpoint("Door"), await floor.endpoint("Dock")
    yard = await floor.endpoint("Yard", site_id=site_b)
    skewed = await floor.endpoint("Skewed")
    crate, pallet = await floor.thing("Crate", epc()), await floor.thing("Pallet", epc())
    stranger = epc()  # no thing carries it
    day = datetime(2026, 3, 1, tzinfo=UTC)
    midnight = day + timedelta(days=1)

    # New events in several hours and both sites, with repeats folded in the same batch.
    await post(
        floor,
        door,
        reads(crate.tag1, day + 9 * HOUR, day + 9 * HOUR + timedelta(seconds=30))
        + reads(pallet.tag1, day + 10 * HOUR + timedelta(minutes=15))
        + reads(stranger, day + 23 * HOUR + timedelta(minutes=40), antenna=2),
    )
    await post(floor, dock, reads(crate.tag1, day + 11 * HOUR + timedelta(minutes=45)))
    await post(
        floor,
        yard,
        reads(pallet.tag1, day + 9 * HOUR + timedelta(minutes=5), midnight + timedelta(minutes=5)),
    )
    # A stored event folds a later batch's repeat: Last Seen moves within its hour...
    await post(floor, door, reads(crate.tag1, day + 9 * HOUR + timedelta(seconds=80)))
    # ...and across into the next hour, and across midnight into the next day.
    edge = day + 10 * HOUR - timedelta(seconds=20)
    await post(floor, dock, reads(pallet.tag1, edge))
    await post(floor, dock, reads(pallet.tag1, edge + timedelta(seconds=40)))
    late = midnight - timedelta(seconds=10)
    await post(floor, yard, reads(crate.tag1, late))
    await post(floor, yard, reads(crate.tag1, late + timedelta(seconds=25)))
    # A reader whose clock is years ahead: its events go to DEFAULT.
    future = datetime(2099, 7, 1, 12, 30, tzinfo=UTC)
    await post(floor, skewed, reads(crate.tag1, future, future + timedelta(seconds=5)))

    counted = await assert_counts_exact(sessionmaker, org.id)
    folded = [e for e in await floor.events(pallet.tag1) if e.first_time == edge]
    assert [(e.repeat_count, e.time) for e in folded] == [(2, edge + timedelta(seconds=40))]
    assert counted[(site_a, day + 10 * HOUR)] == 2  # the moved fold and the pallet at 10:15
    assert counted[(site_a, day + 9 * HOUR)] == 1  # the crate's event, folded twice
    assert counted[(site_b, midnight)] == 2  # the pallet at 00:05 and the moved fold
    assert counted[(site_a, future.replace(minute=0))] == 1
    async with sessionmaker() as session:
        placed = await session.scalar(
            text("SELECT tableoid::regclass::text FROM events WHERE org_id = :org AND time = :t"),
            {"org": org.id, "t": future + timedelta(seconds=5)},
        )
    assert placed == "events_default"

    client = org.client("Manager")
    kolkata = ZoneInfo("Asia/Kolkata")
    kolkata_day = datetime(2026, 3, 1, tzinfo=kolkata)
    ranges: list[tuple[datetime | None, datetime | None]] = [
        (day, midnight),  # whole hours
        (day + 9 * HOUR + timedelta(minutes=1), day + 11 * HOUR + timedelta(minutes=50)),
        (day + 9 * HOUR + timedelta(seconds=90), day + 10 * HOUR + timedelta(seconds=10)),
        (day + 9 * HOUR, day + 10 * HOUR),  # one whole hour
        (day + 20 * HOUR, midnight + 2 * HOUR),  # across midnight
        (late, midnight + timedelta(seconds=20)),
        (kolkata_day, kolkata_day + timedelta(days=1)),  # edges on the half hour
        (kolkata_day + timedelta(hours=12), kolkata_day + timedelta(days=1, hours=12)),
        (None, midnight + timedelta(minutes=1)),
        (day + 10 * HOUR + timedelta(minutes=10), None),
        (None, None),
        (day + 11 * HOUR, day + 9 * HOUR),  # backwards: nothing
        (datetime(1, 1, 1, tzinfo=UTC), datetime(9999, 12, 31, 23, 59, tzinfo=UTC)),
    ]
    for after, before in ranges:
        for site, sites in ((site_a, [site_a]), (site_b, [site_b]), (None, None)):
            expected = await exact(sessionmaker, org.id, sites=sites, after=after, before=before)
            got = await listed_total(client, site=site, after=after, before=before)
            assert got == expected, (after, before, site)
    assert await listed_total(client, after=day, before=midnight + HOUR) == 8

    # With an endpoint or thing filter the total is counted event by event.
    whole_day = {"after": day, "before": midnight + HOUR}
    for endpoints, thing in (([door.id], ""), ([door.id, dock.id], ""), ([], crate.id)):
        for site, sites in ((site_a, [site_a]), (None, None)):
            expected = await exact(
                sessionmaker, org.id, sites=sites, endpoints=endpoints, thing=thing, **whole_day
            )
            got = await listed_total(
                client, site=site, endpoint=",".join(endpoints) or None, thing=thing or None,
                **whole_day,
            )  # fmt: skip
            assert got == expected and got > 0, (endpoints, thing, site)


async def test_a_deleted_site_takes_its_counts_with_it(
    org_factory: Any, sessionmaker: Maker, settings: Settings, anonymous: httpx.AsyncClient
) -> None:
    org: Org = await org_factory()
    site_a, site_b = org.site_ids
    floor = Floor(org.id, site_a, sessionmaker, settings, anonymous)
    here, there = await floor.endpoint("Here"), await floor.endpoint("There", site_id=site_b)
    await post(floor, here, reads(epc(), T0, T0 + HOUR))
    await post(floor, there, reads(epc(), T0, T0 + 2 * HOUR))
    assert {site for site, _ in await assert_counts_exact(sessionmaker, org.id)} == {
        site_a,
        site_b,
    }

    response = await org.client("Administrator").delete(f"/api/sites/{site_b}")
    assert response.status_code == 204, response.text
    assert {site for site, _ in await assert_counts_exact(sessionmaker, org.id)} == {site_a}
    async with sessionmaker() as session:
        left = await session.scalar(
            text("SELECT count(*) FROM event_counts WHERE org_id = :org AND site_id = :site"),
            {"org": org.id, "site": site_b},
        )
    assert left == 0
    assert await listed_total(org.client("Manager"), after=T0 - HOUR, before=T0 + 3 * HOUR) == 2


async def test_counts_follow_retention_partition_maintenance_and_organization_deletion(
    history_db: Maker, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small batches, so retention deletes an organization's old events over several.
    monkeypatch.setattr(retention, "BATCH", 3)
    brief = await new_floor(history_db, settings, "Brief")
    keeper = await new_floor(history_db, settings, "Keeper")
    now = utcnow()
    old = month_start(now - 200 * timedelta(days=1)) + timedelta(days=10, minutes=59.5)
    # Mid-hour, so that its repeat stays in its hour whatever the time of day.
    recent = (now - timedelta(days=10)).replace(minute=20, second=0, microsecond=0)
    for floor in (brief, keeper):
        reader = await floor.endpoint("Door")
        moments = [old + n * timedelta(minutes=30) for n in range(8)] + [recent]
        for moment in moments:
            async with history_db() as session, session.begin():
                # Each a new event (its own tag), then a repeat 50 s later: every other
                # fold moves Last Seen into the next hour.
                tag = epc()
                await ProcessingService(session, settings).process_now(
                    floor.org_id, [read_at(floor, reader.id, tag, moment)]
                )
            async with history_db() as session, session.begin():
                await ProcessingService(session, settings).process_now(
                    floor.org_id, [read_at(floor, reader.id, tag, moment + timedelta(seconds=50))]
                )
        await assert_counts_exact(history_db, floor.org_id)

    # The old month gets its partition: DEFAULT's rows move in with the hours they had.
    old_month = partition_name("events", month_start(old))
    assert old_month in await ensure_partitions(history_db, now)
    for floor in (brief, keeper):
        counted = await assert_counts_exact(history_db, floor.org_id)
        assert sum(counted.values()) == 9

    # Brief keeps 60 days: its old events are deleted in batches, their hours emptied.
    await set_retention(history_db, brief.org_id, 60)
    outcome = await apply_retention(history_db, now)
    assert outcome.deleted == {("events", brief.org_id): 8} and outcome.dropped == []
    assert list((await assert_counts_exact(history_db, brief.org_id)).values()) == [1]
    async with history_db() as session:
        hours = await session.scalar(
            text("SELECT count(*) FROM event_counts WHERE org_id = :org"), {"org": brief.org_id}
        )
    assert hours == 1  # no emptied hour is left behind
    assert sum((await assert_counts_exact(history_db, keeper.org_id)).values()) == 9

    # Keeper keeps 90 days: the month is dropped whole, and its hours with it.
    await set_retention(history_db, keeper.org_id, 90)
    outcome = await apply_retention(history_db, now)
    assert old_month in outcome.dropped
    assert list((await assert_counts_exact(history_db, keeper.org_id)).values()) == [1]
    async with history_db() as session:
        hours = await session.scalar(
            text("SELECT count(*) FROM event_counts WHERE org_id = :org"), {"org": keeper.org_id}
        )
    assert hours == 1

    # An organization's deletion takes its sites' counts.
    async with history_db() as session, session.begin():
        await session.execute(
            text("DELETE FROM organizations WHERE id = :org"), {"org": keeper.org_id}
        )
    async with history_db() as session:
        left = await session.scalar(
            text("SELECT count(*) FROM event_counts WHERE org_id = :org"), {"org": keeper.org_id}
        )
    assert left == 0


async def test_the_migration_counts_existing_events(settings: Settings) -> None:
    with fresh_database() as url:
        upgrade(url, "0012_drop_single_id_keys")
        engine = create_engine(url)
        maker = create_sessionmaker(engine)
        try:
            floor = await new_floor(maker, settings, "Before")
            async with maker() as session, session.begin():
                other = Site(org_id=floor.org_id, name="Other", start_date=T0, timezone="UTC")
                session.add(other)
            moments = [T0, T0 + timedelta(minutes=59), T0 + HOUR, datetime(2099, 1, 1, tzinfo=UTC)]
            async with maker() as session, session.begin():
                for n, moment in enumerate(moments):
                    await session.execute(
                        text(
                            "INSERT INTO events (id, org_id, site_id, thing_id, tag, antenna, "
                            "time, first_time, repeat_count, direction, alarm_tamper) VALUES "
                            "(:id, :org, :site, :thing, 'T', 0, :time, :time, 1, '', false)"
                        ),
                        {"id": new_id(), "org": floor.org_id, "thing": new_id(), "time": moment,
                         "site": other.id if n == 1 else floor.site_id},
                    )  # fmt: skip
            upgrade(url)
            counted = await assert_counts_exact(maker, floor.org_id)
            assert counted == {
                (floor.site_id, T0): 1,
                (other.id, T0): 1,
                (floor.site_id, T0 + HOUR): 1,
                (floor.site_id, datetime(2099, 1, 1, tzinfo=UTC)): 1,
            }
        finally:
            await engine.dispose()


# Random reads (four readers on two sites, a few tags, times around hour boundaries and a
# midnight, now and then a wrong clock) posted in a few batches, then random periods:
# every total the Events page gives equals counting the events. Examples add up in one
# organization, so later ones fold into and move the events of earlier ones.
BASE = datetime(2026, 3, 1, 21, 0, tzinfo=UTC)
SPAN = 5 * 3600
moment_strategy = st.one_of(
    st.integers(0, SPAN),
    st.tuples(st.integers(0, 5), st.integers(-90, 90)).map(lambda h: h[0] * 3600 + h[1]),
    st.just(10**9),  # a clock about 31 years ahead
)
read_strategy = st.tuples(st.integers(0, 3), st.integers(0, 1), st.integers(0, 3), moment_strategy)
bound_strategy = st.one_of(
    st.none(),
    st.integers(-600, SPAN + 600),
    st.integers(-2, 12).map(lambda n: n * 1800),  # whole and half hours
)
period_strategy = st.tuples(bound_strategy, bound_strategy, st.integers(0, 2))


@pytest.fixture
async def random_floor(
    org_factory: Any, sessionmaker: Maker, settings: Settings, anonymous: httpx.AsyncClient
) -> tuple[Org, Floor, list[Endpoint], list[str]]:
    org: Org = await org_factory()
    floor = Floor(org.id, org.site_ids[0], sessionmaker, settings, anonymous)
    readers = [await floor.endpoint(f"Reader {n}", site_id=org.site_ids[n % 2]) for n in range(4)]
    tags = [(await floor.thing("Known", epc())).tag1, epc(), epc(), epc()]
    return org, floor, readers, tags


@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    batches=st.lists(st.lists(read_strategy, min_size=1, max_size=12), min_size=1, max_size=3),
    periods=st.lists(period_strategy, min_size=1, max_size=4),
)
async def test_random_reads_and_periods_total_as_counting_does(
    random_floor: tuple[Org, Floor, list[Endpoint], list[str]],
    batches: list[list[tuple[int, int, int, int]]],
    periods: list[tuple[int | None, int | None, int]],
) -> None:
    org, floor, readers, tags = random_floor
    for batch in batches:
        by_reader: dict[int, list[dict[str, Any]]] = {}
        for reader, antenna, tag, second in batch:
            moment = BASE + timedelta(seconds=second)
            by_reader.setdefault(reader, []).extend(reads(tags[tag], moment, antenna=antenna))
        for reader, body in by_reader.items():
            response = await floor.post(readers[reader], {"reads": body})
            assert response.status_code == 202, response.text
        await floor.drain()
    await assert_counts_exact(floor.sessionmaker, org.id)

    client = org.client("Manager")
    for low, high, scope in periods:
        after = None if low is None else BASE + timedelta(seconds=low)
        before = None if high is None else BASE + timedelta(seconds=high)
        site = [org.site_ids[0], org.site_ids[1], None][scope]
        expected = await exact(
            floor.sessionmaker, org.id, sites=None if site is None else [site], after=after,
            before=before,
        )  # fmt: skip
        assert await listed_total(client, site=site, after=after, before=before) == expected
