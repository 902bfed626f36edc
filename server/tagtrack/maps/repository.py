from collections.abc import Sequence

from sqlalchemy import and_, func, or_, select, update

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Endpoint, LocationTag, Map, Thing


class MapRepository(Repository[Map]):
    model = Map

    async def list_page(
        self, org_id: str, site_ids: Sequence[str] | None, params: ListParams
    ) -> tuple[Sequence[Map], int]:
        stmt = select(Map).where(Map.org_id == org_id)
        if site_ids is not None:
            stmt = stmt.where(Map.site_id.in_(list(site_ids)))
        return await paginate(
            self.session,
            stmt,
            params,
            sortable={"name": Map.name, "site": Map.site_id},
            default_sort="name",
            searchable=[Map.name],
            tiebreak=Map.id,
        )

    async def get(self, org_id: str, map_id: str) -> Map | None:
        stmt = select(Map).where(Map.org_id == org_id, Map.id == map_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def name_taken(self, org_id: str, site_id: str, name: str, except_id: str | None) -> bool:
        stmt = select(Map.id).where(Map.org_id == org_id, Map.site_id == site_id, Map.name == name)
        if except_id:
            stmt = stmt.where(Map.id != except_id)
        return await self.exists(stmt)

    async def ids_in_site(self, org_id: str, site_id: str, map_ids: Sequence[str]) -> set[str]:
        if not map_ids:
            return set()
        stmt = select(Map.id).where(
            Map.org_id == org_id, Map.site_id == site_id, Map.id.in_(list(map_ids))
        )
        return set((await self.session.execute(stmt)).scalars())

    async def things_on(self, org_id: str, map_id: str, search: str, limit: int) -> Sequence[Thing]:
        """Things placed on the map (coordinates other than [0, 0]), by name."""
        stmt = select(Thing).where(
            Thing.org_id == org_id,
            Thing.map_id == map_id,
            func.cardinality(Thing.xy) == 2,
            or_(Thing.xy[1] != 0, Thing.xy[2] != 0),
        )
        if search:
            pattern = f"%{search}%"
            stmt = stmt.where(
                or_(
                    Thing.name.ilike(pattern),
                    Thing.serial.ilike(pattern),
                    Thing.tag1.ilike(pattern),
                    Thing.tag2.ilike(pattern),
                )
            )
        stmt = stmt.order_by(Thing.name, Thing.id).limit(limit)
        return (await self.session.execute(stmt)).scalars().all()

    async def endpoints_with_antennas(self, org_id: str, site_id: str) -> Sequence[Endpoint]:
        stmt = select(Endpoint).where(
            Endpoint.org_id == org_id,
            Endpoint.site_id == site_id,
            func.jsonb_array_length(Endpoint.antennas) > 0,
        )
        return (await self.session.execute(stmt)).scalars().all()

    async def detach(self, org_id: str, map_id: str) -> None:
        """Take readers, location tags and things off a map that is going away."""
        for model in (Endpoint, LocationTag, Thing):
            await self.session.execute(
                update(model)
                .where(and_(model.org_id == org_id, model.map_id == map_id))
                .values(map_id="")
            )
