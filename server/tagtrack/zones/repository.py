from collections.abc import Sequence

from sqlalchemy import delete, func, insert, select

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Thing, Zone, ZoneGate


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
