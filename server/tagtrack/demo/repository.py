"""What the reader simulator needs to know about a floor: readers, gates, location tags, tags."""

from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import select

from tagtrack.kit.repository import Repository
from tagtrack.models import Endpoint, LocationTag, Site, Thing, ZoneGate


class DemoRepository(Repository[Endpoint]):
    model = Endpoint

    async def endpoints(self) -> Sequence[Endpoint]:
        return (await self.session.scalars(select(Endpoint).order_by(Endpoint.name))).all()

    async def gates(self) -> Sequence[ZoneGate]:
        stmt = select(ZoneGate).order_by(ZoneGate.zone_id, ZoneGate.position)
        return (await self.session.scalars(stmt)).all()

    async def location_tags(self) -> Sequence[LocationTag]:
        return (await self.session.scalars(select(LocationTag))).all()

    async def thing_tags(self) -> Sequence[Any]:
        stmt = select(Thing.site_id, Thing.tag1, Thing.thing_class).where(Thing.tag1 != "")
        return (await self.session.execute(stmt)).all()

    async def site_ids_named(self, names: Collection[str]) -> Sequence[str]:
        stmt = select(Site.id).where(Site.name.in_(list(names)))
        return (await self.session.scalars(stmt)).all()
