"""The reader simulator feeds the ingest API: things move, handhelds read, readers report."""

from typing import Any

import httpx
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.demo.simulator import Simulator
from tagtrack.models import EndpointStatus, Event
from tests.tracking import Floor, epc


async def test_simulated_readers_move_things_through_the_api(
    app: Any,
    org_factory: Any,
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    anonymous: httpx.AsyncClient,
) -> None:
    org = await org_factory()
    floor = Floor(org.id, org.site_ids[0], sessionmaker, settings, anonymous)
    dock, yard = await floor.endpoint("Dock door"), await floor.endpoint("Yard gate")
    handheld = await floor.endpoint("Handheld")
    receiving = await floor.zone("Receiving", gates=[(dock, "IN", 1), (dock, "OUT", 2)])
    await floor.zone("Yard", gates=[(yard, "IN", -1)])
    await floor.location_tag("Shelf A1", epc(), receiving, [3, 4])
    things = [await floor.thing(f"Tote {n}", epc()) for n in range(8)]

    simulator = Simulator(sessionmaker, "http://tagtrack.test", seed=7)
    transport = httpx.ASGITransport(app=app)  # type: ignore[arg-type]
    await simulator.run(interval=0, ticks=16, transport=transport)
    await floor.drain()

    assert simulator.sent > 0
    async with sessionmaker() as session:
        endpoints = {dock.id, yard.id, handheld.id}
        used = await session.scalars(
            select(Event.endpoint_id).where(Event.org_id == org.id).distinct()
        )
        assert set(used) & endpoints
        mine = select(func.count()).where(Event.thing_id.in_([t.id for t in things]))
        assert int(await session.scalar(mine) or 0) > 0
        reporting = await session.scalars(
            select(EndpointStatus.endpoint_id).where(EndpointStatus.org_id == org.id).distinct()
        )
        # Every reader but the one playing unplugged sends heartbeats.
        assert len(set(reporting)) == 2
    in_zones = [t for t in things if (await floor.state(t)).zone_id is not None]
    assert in_zones


async def test_a_simulator_for_named_sites_leaves_the_others_alone(
    org_factory: Any,
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    anonymous: httpx.AsyncClient,
) -> None:
    org = await org_factory()
    floor = Floor(org.id, org.site_ids[0], sessionmaker, settings, anonymous)
    dock = await floor.endpoint("Dock door")
    await floor.zone("Receiving", gates=[(dock, "IN", 1)])
    await floor.thing("Tote", epc())
    site_name = (await org.client("Administrator").get(f"/api/sites/{floor.site_id}")).json()[
        "name"
    ]

    elsewhere = Simulator(sessionmaker, "http://tagtrack.test", site_names=["No such site"])
    await elsewhere.load()
    assert floor.site_id not in elsewhere.floors
    named = Simulator(sessionmaker, "http://tagtrack.test", site_names=[site_name])
    await named.load()
    assert list(named.floors) == [floor.site_id]
