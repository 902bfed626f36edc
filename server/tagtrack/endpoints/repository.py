from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import distinct_on

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Endpoint, EndpointStatus, ZoneGate


class EndpointRepository(Repository[Endpoint]):
    model = Endpoint

    async def list_page(
        self, org_id: str, site_ids: Sequence[str] | None, params: ListParams
    ) -> tuple[Sequence[Endpoint], int]:
        stmt = select(Endpoint).where(Endpoint.org_id == org_id)
        if site_ids is not None:
            stmt = stmt.where(Endpoint.site_id.in_(list(site_ids)))
        return await paginate(
            self.session,
            stmt,
            params,
            sortable={"name": Endpoint.name, "uuid": Endpoint.uuid, "site": Endpoint.site_id},
            default_sort="name",
            searchable=[Endpoint.name, Endpoint.uuid, Endpoint.description],
            tiebreak=Endpoint.id,
        )

    async def get(self, org_id: str, endpoint_id: str) -> Endpoint | None:
        stmt = select(Endpoint).where(Endpoint.org_id == org_id, Endpoint.id == endpoint_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def name_taken(self, org_id: str, name: str, except_id: str | None) -> bool:
        stmt = select(Endpoint.id).where(Endpoint.org_id == org_id, Endpoint.name == name)
        if except_id:
            stmt = stmt.where(Endpoint.id != except_id)
        return await self.exists(stmt)

    async def is_gate(self, endpoint: Endpoint) -> bool:
        """Some zone uses this endpoint as a gate."""
        return await self.exists(
            select(ZoneGate.id).where(
                ZoneGate.org_id == endpoint.org_id, ZoneGate.endpoint_id == endpoint.id
            )
        )

    async def ids_in_site(self, org_id: str, site_id: str, ids: Sequence[str]) -> set[str]:
        """Those of `ids` that are endpoints of this site."""
        if not ids:
            return set()
        stmt = select(Endpoint.id).where(
            Endpoint.org_id == org_id, Endpoint.site_id == site_id, Endpoint.id.in_(list(ids))
        )
        return set((await self.session.execute(stmt)).scalars().all())

    async def sources(self, org_id: str, site_ids: Sequence[str] | None) -> list[tuple[str, str]]:
        """(id, name) of the endpoints of these sites, by name."""
        stmt = select(Endpoint.id, Endpoint.name).where(Endpoint.org_id == org_id)
        if site_ids is not None:
            stmt = stmt.where(Endpoint.site_id.in_(list(site_ids)))
        rows = await self.session.execute(stmt.order_by(Endpoint.name, Endpoint.id))
        return [(row.id, row.name) for row in rows]

    # Heartbeats.

    async def add_status(
        self,
        org_id: str,
        endpoint_id: str,
        *,
        time: datetime,
        uptime: int | None = None,
        reader_temp: float | None = None,
        ip: str = "",
        version: str = "",
    ) -> EndpointStatus:
        """Record one heartbeat (ingest writes these; the caller checked the endpoint)."""
        status = EndpointStatus(
            org_id=org_id,
            endpoint_id=endpoint_id,
            time=time,
            uptime=uptime,
            reader_temp=reader_temp,
            ip=ip,
            version=version,
        )
        self.session.add(status)
        await self.session.flush()
        return status

    async def latest_statuses(
        self, org_id: str, endpoint_ids: Sequence[str]
    ) -> dict[str, EndpointStatus]:
        """The latest heartbeat of each of these endpoints that ever reported."""
        if not endpoint_ids:
            return {}
        stmt = (
            select(EndpointStatus)
            .where(
                EndpointStatus.org_id == org_id,
                EndpointStatus.endpoint_id.in_(list(endpoint_ids)),
            )
            .ext(distinct_on(EndpointStatus.endpoint_id))
            .order_by(
                EndpointStatus.endpoint_id, EndpointStatus.time.desc(), EndpointStatus.id.desc()
            )
        )
        rows = (await self.session.execute(stmt)).scalars().all()
        return {row.endpoint_id: row for row in rows}

    async def status_page(
        self, endpoint: Endpoint, params: ListParams
    ) -> tuple[Sequence[EndpointStatus], int]:
        stmt = select(EndpointStatus).where(
            EndpointStatus.org_id == endpoint.org_id, EndpointStatus.endpoint_id == endpoint.id
        )
        return await paginate(
            self.session,
            stmt,
            params,
            sortable={"time": EndpointStatus.time},
            default_sort="-time",
            searchable=[],
            tiebreak=EndpointStatus.id.desc(),
        )

    async def latest_of(self, endpoint: Endpoint, limit: int) -> Sequence[EndpointStatus]:
        stmt = (
            select(EndpointStatus)
            .where(
                EndpointStatus.org_id == endpoint.org_id, EndpointStatus.endpoint_id == endpoint.id
            )
            .order_by(EndpointStatus.time.desc(), EndpointStatus.id.desc())
            .limit(limit)
        )
        return (await self.session.execute(stmt)).scalars().all()

    async def latest_per_endpoint(
        self, org_id: str, site_ids: Sequence[str] | None
    ) -> list[tuple[EndpointStatus, str]]:
        """The latest heartbeat of every endpoint of these sites, latest first, with names."""
        stmt = (
            select(EndpointStatus, Endpoint.name)
            .join(
                Endpoint,
                (Endpoint.org_id == EndpointStatus.org_id)
                & (Endpoint.id == EndpointStatus.endpoint_id),
            )
            .where(EndpointStatus.org_id == org_id)
        )
        if site_ids is not None:
            stmt = stmt.where(Endpoint.site_id.in_(list(site_ids)))
        stmt = stmt.ext(distinct_on(EndpointStatus.endpoint_id)).order_by(
            EndpointStatus.endpoint_id, EndpointStatus.time.desc(), EndpointStatus.id.desc()
        )
        rows = [(row[0], row[1]) for row in await self.session.execute(stmt)]
        # One row per endpoint: ordering the few of them here beats a second subquery.
        rows.sort(key=lambda row: (row[0].time, row[0].id), reverse=True)
        return rows
