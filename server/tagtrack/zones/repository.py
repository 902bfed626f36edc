from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, delete, func, insert, select
from sqlalchemy.orm import aliased

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Site, Thing, Zone, ZoneDuration, ZoneGate
from tagtrack.models.ids import UNKNOWN_THING_ID


class ZoneRepository(Repository[Zone]):
    model = Zone

    async def list_page(
        self, org_id: str, site_ids: Sequence[str] | None, params: ListParams
    ) -> tuple[Sequence[Zone], int]:
        stmt = select(Zone).where(Zone.org_id == org_id)
        if site_ids is not None:
            stmt = stmt.where(Zone.site_id.in_(list(site_ids)))
        return await paginate(
            self.session,
            stmt,
            params,
            sortable={"name": Zone.name, "duration": Zone.duration, "site": Zone.site_id},
            default_sort="name",
            searchable=[Zone.name, Zone.description],
            tiebreak=Zone.id,
        )

    async def get(self, org_id: str, zone_id: str) -> Zone | None:
        stmt = select(Zone).where(Zone.org_id == org_id, Zone.id == zone_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def name_taken(self, org_id: str, site_id: str, name: str, except_id: str | None) -> bool:
        stmt = select(Zone.id).where(
            Zone.org_id == org_id, Zone.site_id == site_id, Zone.name == name
        )
        if except_id:
            stmt = stmt.where(Zone.id != except_id)
        return await self.exists(stmt)

    async def in_site(self, org_id: str, site_id: str, zone_id: str) -> bool:
        stmt = select(Zone.id).where(
            Zone.org_id == org_id, Zone.site_id == site_id, Zone.id == zone_id
        )
        return await self.exists(stmt)

    async def gates_of(self, org_id: str, zone_ids: Sequence[str]) -> dict[str, list[ZoneGate]]:
        """The gates of these zones, in their saved order."""
        gates: dict[str, list[ZoneGate]] = {zone_id: [] for zone_id in zone_ids}
        if not zone_ids:
            return gates
        stmt = (
            select(ZoneGate)
            .where(ZoneGate.org_id == org_id, ZoneGate.zone_id.in_(list(zone_ids)))
            .order_by(ZoneGate.zone_id, ZoneGate.position, ZoneGate.id)
        )
        for gate in (await self.session.execute(stmt)).scalars():
            gates[gate.zone_id].append(gate)
        return gates

    async def replace_gates(self, zone: Zone, gates: Sequence[tuple[str, str, int]]) -> None:
        """Replace the zone's gates with these (endpoint, direction, antenna), in order."""
        await self.session.execute(
            delete(ZoneGate).where(ZoneGate.org_id == zone.org_id, ZoneGate.zone_id == zone.id)
        )
        if gates:
            await self.session.execute(
                insert(ZoneGate),
                [
                    {
                        "org_id": zone.org_id,
                        "zone_id": zone.id,
                        "endpoint_id": endpoint,
                        "direction": direction,
                        "antenna": antenna,
                        "position": position,
                    }
                    for position, (endpoint, direction, antenna) in enumerate(gates)
                ],
            )

    async def counts(self, org_id: str, zone_ids: Sequence[str]) -> dict[str, dict[str, int]]:
        """Things currently in each of these zones, by class: one GROUP BY."""
        counts: dict[str, dict[str, int]] = {zone_id: {} for zone_id in zone_ids}
        if not zone_ids:
            return counts
        stmt = (
            select(Thing.zone_id, Thing.thing_class, func.count())
            .where(Thing.org_id == org_id, Thing.zone_id.in_(list(zone_ids)))
            .group_by(Thing.zone_id, Thing.thing_class)
        )
        for zone_id, thing_class, count in await self.session.execute(stmt):
            if zone_id is not None:
                counts[zone_id][thing_class] = int(count)
        return counts


# Export rows read from the database at a time.
EXPORT_CHUNK = 2000


class ZoneDurationRepository(Repository[ZoneDuration]):
    """The SQL of zone durations (visits), with the names the console shows."""

    model = ZoneDuration

    @staticmethod
    def _scoped(
        stmt: Select[*tuple[Any, ...]],
        model: type[ZoneDuration],
        org_id: str,
        site_ids: list[str] | None,
    ) -> Select[*tuple[Any, ...]]:
        stmt = stmt.where(model.org_id == org_id)
        return stmt if site_ids is None else stmt.where(model.site_id.in_(site_ids))

    @staticmethod
    def _overlapping(
        stmt: Select[*tuple[Any, ...]], after: datetime | None, before: datetime | None
    ) -> Select[*tuple[Any, ...]]:
        """A visit belongs to a period when it overlaps it."""
        if after is not None:
            stmt = stmt.where((ZoneDuration.time_end.is_(None)) | (ZoneDuration.time_end >= after))
        if before is not None:
            stmt = stmt.where(ZoneDuration.time_start < before)
        return stmt

    async def durations(
        self,
        org_id: str,
        site_ids: list[str] | None,
        *,
        after: datetime | None,
        before: datetime | None,
        thing: str,
        limit: int,
        page: int,
    ) -> tuple[Sequence[Any], int]:
        visited = aliased(Thing)
        filtered = self._overlapping(
            self._scoped(
                select(ZoneDuration.id, ZoneDuration.time_start), ZoneDuration, org_id, site_ids
            ),
            after,
            before,
        )
        if thing:
            filtered = filtered.where(ZoneDuration.thing_id == thing)
        total = await self.session.scalar(select(func.count()).select_from(filtered.subquery()))
        ids = (
            filtered.order_by(ZoneDuration.time_start.desc(), ZoneDuration.id.desc())
            .limit(limit)
            .offset(page * limit)
            .subquery()
        )
        # Plain columns, not entities: a report asks for up to 10,000 visits at once.
        stmt = (
            select(
                ZoneDuration.id,
                ZoneDuration.site_id,
                ZoneDuration.thing_id,
                ZoneDuration.zone_id,
                ZoneDuration.time_start,
                ZoneDuration.time_end,
                ZoneDuration.time_duration,
                visited.name.label("thing_name"),
                Zone.name.label("zone_name"),
            )
            .join(
                ids,
                and_(
                    ZoneDuration.org_id == org_id,
                    ZoneDuration.id == ids.c.id,
                    ZoneDuration.time_start == ids.c.time_start,
                ),
            )
            .outerjoin(
                visited,
                (visited.org_id == ZoneDuration.org_id) & (visited.id == ZoneDuration.thing_id),
            )
            .outerjoin(
                Zone, (Zone.org_id == ZoneDuration.org_id) & (Zone.id == ZoneDuration.zone_id)
            )
            .order_by(ZoneDuration.time_start.desc(), ZoneDuration.id.desc())
        )
        return (await self.session.execute(stmt)).all(), int(total or 0)

    def visits_in_order(
        self,
        org_id: str,
        site_ids: list[str] | None,
        *,
        after: datetime | None,
        before: datetime | None,
    ) -> AsyncIterator[Sequence[Any]]:
        """Every visit overlapping the period (the unknown thing's left out), newest first,
        with the names and the site's time zone, a chunk at a time (the export)."""
        stmt = self._overlapping(
            self._scoped(
                select(
                    Thing.name,
                    Site.name,
                    Zone.name,
                    ZoneDuration.time_start,
                    ZoneDuration.time_end,
                    ZoneDuration.time_duration,
                    Site.timezone,
                ),
                ZoneDuration,
                org_id,
                site_ids,
            ),
            after,
            before,
        )
        stmt = (
            stmt.where(ZoneDuration.thing_id != UNKNOWN_THING_ID)
            .join(Site, (Site.org_id == ZoneDuration.org_id) & (Site.id == ZoneDuration.site_id))
            .outerjoin(
                Thing, (Thing.org_id == ZoneDuration.org_id) & (Thing.id == ZoneDuration.thing_id)
            )
            .outerjoin(
                Zone, (Zone.org_id == ZoneDuration.org_id) & (Zone.id == ZoneDuration.zone_id)
            )
            .order_by(ZoneDuration.time_start.desc(), ZoneDuration.id.desc())
        )
        return self.tuple_chunks(stmt, EXPORT_CHUNK)

    async def zone_totals(
        self,
        org_id: str,
        site_ids: list[str] | None,
        *,
        after: datetime | None,
        before: datetime | None,
        now: datetime,
    ) -> Sequence[Any]:
        """Per zone: visits overlapping the period, their things, their time inside it."""
        end: Any = func.coalesce(ZoneDuration.time_end, now)
        if before is not None:
            end = func.least(end, before)
        start: Any = ZoneDuration.time_start
        if after is not None:
            start = func.greatest(start, after)
        seconds = func.greatest(func.extract("epoch", end - start), 0)
        stmt = self._scoped(
            select(
                ZoneDuration.zone_id,
                Zone.name,
                func.count(),
                func.count(func.distinct(ZoneDuration.thing_id)),
                func.coalesce(func.sum(seconds), 0),
            ),
            ZoneDuration,
            org_id,
            site_ids,
        ).join(Zone, (Zone.org_id == ZoneDuration.org_id) & (Zone.id == ZoneDuration.zone_id))
        stmt = (
            self._overlapping(stmt, after, before)
            .group_by(ZoneDuration.zone_id, Zone.name)
            .order_by(Zone.name, ZoneDuration.zone_id)
        )
        rows: Sequence[Any] = (await self.session.execute(stmt)).all()
        return rows
