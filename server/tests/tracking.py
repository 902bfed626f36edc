"""A small floor for processing tests: readers, zones with gates, things; reads at set times."""

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.models import (
    Endpoint,
    Event,
    LocationTag,
    Thing,
    ThingTag,
    TrackingException,
    Zone,
    ZoneDuration,
    ZoneGate,
)
from tagtrack.models.ids import new_id
from tagtrack.processing.service import Outcome, ProcessingService
from tagtrack.processing.worker import ProcessingWorker

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def iso(seconds: float) -> str:
    return at(seconds).isoformat().replace("+00:00", "Z")


@dataclass
class Floor:
    org_id: str
    site_id: str
    sessionmaker: async_sessionmaker[AsyncSession]
    settings: Settings
    client: httpx.AsyncClient
    # One worker for the floor's drains: it keeps its rows from one batch to the next.
    worker: ProcessingWorker | None = None

    async def endpoint(self, name: str, **fields: Any) -> Endpoint:
        row = Endpoint(
            id=new_id(),
            org_id=self.org_id,
            site_id=fields.pop("site_id", self.site_id),
            name=f"{name} {secrets.token_hex(3)}",
            key=secrets.token_urlsafe(32),
            xy=fields.pop("xy", [0, 0]),
            antennas=fields.pop("antennas", []),
            config={},
            **fields,
        )
        await self._add(row)
        return row

    async def zone(
        self, name: str, gates: Sequence[tuple[Endpoint, str, int]] = (), **fields: Any
    ) -> Zone:
        row = Zone(
            id=new_id(),
            org_id=self.org_id,
            site_id=fields.pop("site_id", self.site_id),
            name=f"{name} {secrets.token_hex(3)}",
            emails=fields.pop("emails", []),
            **fields,
        )
        await self._add(row)
        for position, (endpoint, direction, antenna) in enumerate(gates):
            await self._add(
                ZoneGate(
                    org_id=self.org_id,
                    zone_id=row.id,
                    endpoint_id=endpoint.id,
                    direction=direction,
                    antenna=antenna,
                    position=position,
                )
            )
        return row

    async def thing(self, name: str, tag: str, thing_class: str = "item") -> Thing:
        row = Thing(
            id=new_id(),
            org_id=self.org_id,
            site_id=self.site_id,
            thing_class=thing_class,
            name=name,
            tag1=tag,
            data={},
        )
        await self._add(row)
        await self._add(ThingTag(org_id=self.org_id, tag=tag, thing_id=row.id))
        return row

    async def location_tag(self, name: str, tag: str, zone: Zone, xy: list[float]) -> LocationTag:
        row = LocationTag(
            id=new_id(),
            org_id=self.org_id,
            site_id=self.site_id,
            name=name,
            tag=tag,
            zone_id=zone.id,
            xy=xy,
            map_id="",
        )
        await self._add(row)
        return row

    async def handheld_at_a_shelf(self) -> tuple[Endpoint, Zone, LocationTag]:
        """A handheld, an aisle, and a location tag on a shelf in it."""
        handheld = await self.endpoint("Handheld")
        aisle = await self.zone("Aisle 3")
        shelf = await self.location_tag("Shelf 3B", epc(), aisle, [12.5, 40])
        return handheld, aisle, shelf

    async def clear_alarm(self, thing: Thing) -> None:
        """Someone clears a thing's tamper alarm on its screen."""
        async with self.sessionmaker() as session, session.begin():
            await session.execute(
                update(Thing)
                .where(Thing.org_id == self.org_id, Thing.id == thing.id)
                .values(alarm_tamper=False, alarm_tamper_tag="")
            )

    async def _add(self, row: Any) -> None:
        async with self.sessionmaker() as session, session.begin():
            session.add(row)

    async def post(self, endpoint: Endpoint, body: Any, **kwargs: Any) -> httpx.Response:
        return await self.client.post(
            "/api/ingest/reads",
            json=body,
            headers={"Authorization": f"Bearer {endpoint.key}"},
            **kwargs,
        )

    async def queue(self, endpoint: Endpoint, reads: list[dict[str, Any]]) -> None:
        """Reads queued through the API, not yet processed."""
        response = await self.post(endpoint, {"reads": reads})
        assert response.status_code == 202, response.text

    async def read(self, endpoint: Endpoint, tag: str, seconds: float, **fields: Any) -> None:
        """One read at T0 + seconds, queued through the API, then processed."""
        await self.queue(endpoint, [{"tag": tag, "time": iso(seconds), **fields}])
        await self.drain()

    async def drain(self) -> int:
        if self.worker is None:
            self.worker = ProcessingWorker(self.sessionmaker, self.settings)
        return await self.worker.drain()

    async def sweep(self, seconds: float) -> Outcome:
        async with self.sessionmaker() as session, session.begin():
            return await ProcessingService(session, self.settings).sweep(at(seconds))

    async def state(self, thing: Thing) -> Thing:
        async with self.sessionmaker() as session:
            row = await session.get(Thing, {"org_id": thing.org_id, "id": thing.id})
            assert row is not None
            return row

    async def events(self, tag: str) -> list[Event]:
        async with self.sessionmaker() as session:
            stmt = (
                select(Event)
                .where(Event.org_id == self.org_id, Event.tag == tag)
                .order_by(Event.first_time)
            )
            return list(await session.scalars(stmt))

    async def visits(self, thing: Thing) -> list[ZoneDuration]:
        async with self.sessionmaker() as session:
            stmt = (
                select(ZoneDuration)
                .where(ZoneDuration.thing_id == thing.id)
                .order_by(ZoneDuration.time_start)
            )
            return list(await session.scalars(stmt))

    async def exceptions(self) -> list[TrackingException]:
        async with self.sessionmaker() as session:
            stmt = select(TrackingException).where(TrackingException.org_id == self.org_id)
            return list(await session.scalars(stmt.order_by(TrackingException.time)))


def epc() -> str:
    return secrets.token_hex(12).upper()
