"""References checked per statement rather than by foreign keys: events and zone durations
keep to existing sites, endpoints, things and zones of their own organization (migration
0016), pending reads to an existing organization (0017), things to their own sites, zones,
endpoints and location tags (0018), and each leaves with what it refers to."""

import asyncio
from typing import Any

import asyncpg
import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.core.config import Settings
from tagtrack.ingest.formats import Read, pack_reads
from tagtrack.models import Site, Thing
from tagtrack.models.ids import new_id
from tests.history import Maker, new_floor
from tests.tracking import T0, Floor
from tests.waiting import until

# The columns a test writes; the first tells its rows apart (a pending read's id is the
# database's, so its tag).
COLUMNS = {
    "zone_durations": ("id", "org_id", "site_id", "thing_id", "zone_id", "time_start",
                       "time_duration"),
    "events": ("id", "org_id", "site_id", "endpoint_id", "thing_id", "tag", "antenna", "time",
               "first_time", "repeat_count", "direction", "alarm_tamper"),
    "pending_read_batches": ("endpoint_id", "org_id", "reads", "body", "received_at"),
}  # fmt: skip


def visit(floor: Floor, thing_id: str, zone_id: str, site_id: str = "") -> tuple[Any, ...]:
    return (new_id(), floor.org_id, site_id or floor.site_id, thing_id, zone_id, T0, 0)


def event(floor: Floor, endpoint_id: str | None, site_id: str = "") -> tuple[Any, ...]:
    site = site_id or floor.site_id
    return (new_id(), floor.org_id, site, endpoint_id, new_id(), "T", 0, T0, T0, 1, "", False)


async def copy(session: AsyncSession, table: str, rows: list[tuple[Any, ...]]) -> None:
    """Rows written as processing writes them: one COPY, in the session's transaction."""
    await session.execute(text("SELECT 1"))  # the driver's BEGIN comes with a first statement
    connection = await (await session.connection()).get_raw_connection()
    await connection.driver_connection.copy_records_to_table(  # type: ignore[union-attr]
        table, records=rows, columns=COLUMNS[table]
    )


async def refused(maker: Maker, table: str, rows: list[tuple[Any, ...]]) -> str:
    """The reason a COPY of `rows` is refused; nothing of it stays."""
    with pytest.raises(asyncpg.ForeignKeyViolationError) as caught:
        async with maker() as session, session.begin():
            await copy(session, table, rows)
    async with maker() as session:
        key = COLUMNS[table][0]
        left = await session.scalar(
            text(f"SELECT count(*) FROM {table} WHERE {key} = ANY(:keys)"),
            {"keys": [row[0] for row in rows]},
        )
    assert left == 0
    return str(caught.value)


async def count(maker: Maker, sql: str, **values: Any) -> int:
    async with maker() as session:
        return int(await session.scalar(text(sql), values) or 0)


async def other_site(floor: Floor) -> str:
    async with floor.sessionmaker() as session, session.begin():
        site = Site(org_id=floor.org_id, name="Dock", start_date=T0, timezone="UTC")
        session.add(site)
        await session.flush()
        return site.id


async def test_history_refers_only_to_rows_of_its_own_organization(
    sessionmaker: Maker, settings: Settings
) -> None:
    floor = await new_floor(sessionmaker, settings, "Refs")
    stranger = await new_floor(sessionmaker, settings, "Strangers")
    endpoint, zone = await floor.endpoint("Gate"), await floor.zone("Bay")
    thing = await floor.thing("Pallet", "E1")
    their_zone, their_thing = await stranger.zone("Theirs"), await stranger.thing("Crate", "E2")

    async with sessionmaker() as session, session.begin():
        await copy(session, "zone_durations", [visit(floor, thing.id, zone.id)])
        await copy(session, "events", [event(floor, endpoint.id), event(floor, None)])

    why = await refused(sessionmaker, "zone_durations", [visit(floor, their_thing.id, zone.id)])
    assert 'reference to "things"' in why
    # One bad row among good ones refuses the whole statement.
    rows = [visit(floor, thing.id, zone.id), visit(floor, thing.id, their_zone.id)]
    assert 'reference to "zones"' in await refused(sessionmaker, "zone_durations", rows)
    rows = [visit(floor, thing.id, zone.id, site_id=stranger.site_id)]
    assert 'reference to "sites"' in await refused(sessionmaker, "zone_durations", rows)
    assert 'reference to "endpoints"' in await refused(
        sessionmaker, "events", [event(floor, new_id())]
    )
    assert 'reference to "sites"' in await refused(
        sessionmaker, "events", [event(floor, None, site_id=stranger.site_id)]
    )

    # An update may not point a row elsewhere either; a row's other changes pass.
    async with sessionmaker() as session, session.begin():
        await session.execute(
            text("UPDATE zone_durations SET time_duration = 5 WHERE thing_id = :thing"),
            {"thing": thing.id},
        )
    with pytest.raises(IntegrityError):
        async with sessionmaker() as session, session.begin():
            await session.execute(
                text("UPDATE zone_durations SET zone_id = :zone WHERE thing_id = :thing"),
                {"zone": their_zone.id, "thing": thing.id},
            )
    assert await count(
        sessionmaker, "SELECT count(*) FROM zone_durations WHERE zone_id = :z", z=zone.id
    ) == 1  # fmt: skip


async def test_deleting_a_site_thing_zone_or_endpoint_takes_its_history_along(
    sessionmaker: Maker, settings: Settings
) -> None:
    floor = await new_floor(sessionmaker, settings, "Gone")
    dock = await other_site(floor)
    gate, kept_gate = await floor.endpoint("Gate"), await floor.endpoint("Door")
    zone, kept_zone = await floor.zone("Bay"), await floor.zone("Yard")
    thing, kept_thing = await floor.thing("Pallet", "G1"), await floor.thing("Crate", "G2")
    dock_zone = await floor.zone("Dock bay", site_id=dock)
    async with sessionmaker() as session, session.begin():
        await copy(
            session,
            "zone_durations",
            [
                visit(floor, thing.id, kept_zone.id),
                visit(floor, kept_thing.id, zone.id),
                visit(floor, kept_thing.id, kept_zone.id),
                visit(floor, kept_thing.id, dock_zone.id, site_id=dock),
            ],
        )
        await copy(session, "events", [event(floor, gate.id), event(floor, kept_gate.id),
                                       event(floor, None, site_id=dock)])  # fmt: skip

    async def delete(table: str, row_id: str) -> None:
        async with sessionmaker() as session, session.begin():
            await session.execute(text(f"DELETE FROM {table} WHERE id = :id"), {"id": row_id})

    visits = "SELECT count(*) FROM zone_durations WHERE org_id = :org"
    await delete("things", thing.id)
    assert await count(sessionmaker, visits, org=floor.org_id) == 3
    await delete("zones", zone.id)
    assert await count(sessionmaker, visits, org=floor.org_id) == 2
    await delete("endpoints", gate.id)
    endpoints = await count(
        sessionmaker,
        "SELECT count(*) FROM events WHERE org_id = :org AND endpoint_id IS NULL",
        org=floor.org_id,
    )
    assert endpoints == 2  # the deleted gate's event, kept without it, and the dock's
    await delete("sites", dock)
    assert await count(sessionmaker, visits, org=floor.org_id) == 1
    events = "SELECT count(*) FROM events WHERE org_id = :org"
    assert await count(sessionmaker, events, org=floor.org_id) == 2
    await delete("organizations", floor.org_id)
    assert await count(sessionmaker, visits, org=floor.org_id) == 0
    assert await count(sessionmaker, events, org=floor.org_id) == 0


async def blocking(maker: Maker, session: AsyncSession) -> bool:
    """Whether another connection waits on a lock `session` holds."""
    pid = await session.scalar(text("SELECT pg_backend_pid()"))
    sql = "SELECT count(*) FROM pg_stat_activity WHERE :pid = ANY(pg_blocking_pids(pid))"
    return await count(maker, sql, pid=pid) > 0


async def test_a_thing_deleted_while_its_visit_is_written_leaves_no_visit_behind(
    sessionmaker: Maker, settings: Settings
) -> None:
    floor = await new_floor(sessionmaker, settings, "Race")
    zone = await floor.zone("Bay")
    first, second = await floor.thing("Pallet", "R1"), await floor.thing("Crate", "R2")
    visits = "SELECT count(*) FROM zone_durations WHERE thing_id = :thing"

    # The visit's transaction holds the thing: the delete waits, then takes the visit too.
    async with sessionmaker() as writer, writer.begin():
        await copy(writer, "zone_durations", [visit(floor, first.id, zone.id)])

        async def delete_first() -> None:
            async with sessionmaker() as session, session.begin():
                await session.execute(text("DELETE FROM things WHERE id = :id"), {"id": first.id})

        deleting = asyncio.create_task(delete_first())
        await until(lambda: blocking(sessionmaker, writer))
        assert not deleting.done()
    await asyncio.wait_for(deleting, 30)
    assert await count(sessionmaker, visits, thing=first.id) == 0

    # The thing's delete goes first: the visit waits for it, then is refused.
    async with sessionmaker() as deleter, deleter.begin():
        await deleter.execute(text("DELETE FROM things WHERE id = :id"), {"id": second.id})
        writing = asyncio.create_task(refused(sessionmaker, "zone_durations", [
            visit(floor, second.id, zone.id)
        ]))  # fmt: skip
        await until(lambda: blocking(sessionmaker, deleter))
        assert not writing.done()
    assert 'reference to "things"' in await asyncio.wait_for(writing, 30)
    assert await count(sessionmaker, visits, thing=second.id) == 0


def pending_batch(org_id: str, endpoint_id: str) -> tuple[Any, ...]:
    return (endpoint_id, org_id, 1, pack_reads([Read("T", T0, 0, None, None, False, {})]), T0)


async def test_pending_reads_belong_to_an_existing_organization_and_leave_with_it(
    sessionmaker: Maker, settings: Settings
) -> None:
    floor = await new_floor(sessionmaker, settings, "Queue")
    endpoints = [new_id() for _ in range(3)]
    async with sessionmaker() as session, session.begin():
        batches = [pending_batch(floor.org_id, e) for e in endpoints[:2]]
        await copy(session, "pending_read_batches", batches)
    rows = [pending_batch(floor.org_id, endpoints[2]), pending_batch(new_id(), endpoints[2])]
    reason = await refused(sessionmaker, "pending_read_batches", rows)
    assert "foreign key" in reason and "organizations" in reason

    queued = "SELECT count(*) FROM pending_read_batches WHERE org_id = :org"
    assert await count(sessionmaker, queued, org=floor.org_id) == 2
    with pytest.raises(IntegrityError):
        async with sessionmaker() as session, session.begin():
            await session.execute(
                text("UPDATE pending_read_batches SET org_id = :other WHERE org_id = :org"),
                {"other": new_id(), "org": floor.org_id},
            )
    async with sessionmaker() as session, session.begin():
        await session.execute(
            text("DELETE FROM organizations WHERE id = :org"), {"org": floor.org_id}
        )
    assert await count(sessionmaker, queued, org=floor.org_id) == 0


async def test_things_refer_to_their_own_organization_and_lose_what_is_deleted(
    sessionmaker: Maker, settings: Settings
) -> None:
    floor = await new_floor(sessionmaker, settings, "Things")
    stranger = await new_floor(sessionmaker, settings, "Others")
    thing = await floor.thing("Pallet", f"T-{new_id()}")
    zone, endpoint = await floor.zone("Bay"), await floor.endpoint("Gate")
    marker = await floor.location_tag("Pillar", f"L-{new_id()}", zone, [1, 1])
    their_zone = await stranger.zone("Theirs")

    async def update(sql: str, **values: Any) -> None:
        async with sessionmaker() as session, session.begin():
            await session.execute(text(sql), {"id": thing.id, **values})

    with pytest.raises(IntegrityError, match='reference to "zones"'):
        await update("UPDATE things SET zone_id = :zone WHERE id = :id", zone=their_zone.id)
    crate = Thing(id=new_id(), org_id=floor.org_id, site_id=stranger.site_id,
                  thing_class="item", name="Crate", data={})  # fmt: skip
    with pytest.raises(IntegrityError, match='reference to "sites"'):
        async with sessionmaker() as session, session.begin():
            session.add(crate)
    await update(
        "UPDATE things SET zone_id = :zone, endpoint_id = :endpoint, location_tag_id = :marker "
        "WHERE id = :id",
        zone=zone.id, endpoint=endpoint.id, marker=marker.id,
    )  # fmt: skip

    references = "SELECT concat_ws(',', zone_id, endpoint_id, location_tag_id) FROM things"
    held = f"{references} WHERE id = :id"
    async with sessionmaker() as session:
        assert await session.scalar(text(held), {"id": thing.id}) == ",".join(
            [zone.id, endpoint.id, marker.id]
        )
    for table, row_id in [("location_tags", marker.id), ("endpoints", endpoint.id),
                          ("zones", zone.id)]:  # fmt: skip
        async with sessionmaker() as session, session.begin():
            await session.execute(text(f"DELETE FROM {table} WHERE id = :id"), {"id": row_id})
    async with sessionmaker() as session:
        assert await session.scalar(text(held), {"id": thing.id}) == ""

    async with sessionmaker() as session, session.begin():
        await session.execute(text("DELETE FROM sites WHERE id = :id"), {"id": floor.site_id})
    assert await count(sessionmaker, "SELECT count(*) FROM things WHERE id = :id", id=thing.id) == 0
