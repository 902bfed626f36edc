from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, func, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert

from tagtrack.kit.repository import Repository
from tagtrack.models import Site, Thing, TrackingException, Zone
from tagtrack.things.repository import SHOWN_TAG

SORTABLE = {"time": TrackingException.time, "type": TrackingException.type}
EXPORT_CHUNK = 2000


class ExceptionRepository(Repository[TrackingException]):
    model = TrackingException

    @staticmethod
    def _with_names() -> Select[*tuple[Any, ...]]:
        return (
            select(
                TrackingException,
                Thing.name.label("thing_name"),
                SHOWN_TAG.label("thing_tag"),
                Zone.name.label("zone_name"),
                Site.name.label("site_name"),
                Site.timezone.label("timezone"),
            )
            .outerjoin(
                Thing,
                (Thing.org_id == TrackingException.org_id)
                & (Thing.id == TrackingException.thing_id),
            )
            .outerjoin(
                Zone,
                (Zone.org_id == TrackingException.org_id) & (Zone.id == TrackingException.zone_id),
            )
            .join(
                Site,
                (Site.org_id == TrackingException.org_id) & (Site.id == TrackingException.site_id),
            )
        )

    @staticmethod
    def _filtered(
        stmt: Select[*tuple[Any, ...]],
        org_id: str,
        site_ids: Sequence[str] | None,
        after: datetime | None,
        before: datetime | None,
    ) -> Select[*tuple[Any, ...]]:
        stmt = stmt.where(TrackingException.org_id == org_id)
        if site_ids is not None:
            stmt = stmt.where(TrackingException.site_id.in_(list(site_ids)))
        if after is not None:
            stmt = stmt.where(TrackingException.time >= after)
        if before is not None:
            stmt = stmt.where(TrackingException.time < before)
        return stmt

    async def add_once(self, row: TrackingException) -> bool:
        """Insert unless this visit already has one (another worker may have raced us)."""
        stmt = (
            pg_insert(TrackingException)
            .values(
                id=row.id,
                org_id=row.org_id,
                site_id=row.site_id,
                type=row.type,
                time=row.time,
                thing_id=row.thing_id,
                zone_id=row.zone_id,
                zone_duration_id=row.zone_duration_id,
                multiple_things=row.multiple_things,
                time_duration=row.time_duration,
                message=row.message,
            )
            .on_conflict_do_nothing(
                index_elements=["org_id", "zone_duration_id"],
                index_where=text("zone_duration_id IS NOT NULL"),
            )
            .returning(TrackingException.id)
        )
        return (await self.session.execute(stmt)).first() is not None

    async def page(
        self,
        org_id: str,
        site_ids: Sequence[str] | None,
        *,
        after: datetime | None,
        before: datetime | None,
        sort: str,
        limit: int,
        page: int,
    ) -> tuple[Sequence[Any], int]:
        counted = self._filtered(select(TrackingException.id), org_id, site_ids, after, before)
        total = await self.session.scalar(select(func.count()).select_from(counted.subquery()))
        column = SORTABLE[sort.lstrip("-")]
        order = column.desc() if sort.startswith("-") else column.asc()
        stmt = (
            self._filtered(self._with_names(), org_id, site_ids, after, before)
            .order_by(order, TrackingException.id.desc())
            .limit(limit)
            .offset(page * limit)
        )
        return (await self.session.execute(stmt)).all(), int(total or 0)

    def in_order(
        self,
        org_id: str,
        site_ids: Sequence[str] | None,
        after: datetime | None,
        before: datetime | None,
    ) -> AsyncIterator[Sequence[Any]]:
        """Every exception of the period, oldest first, a chunk at a time."""
        stmt = self._filtered(self._with_names(), org_id, site_ids, after, before).order_by(
            TrackingException.time, TrackingException.id
        )
        return self.chunks(stmt, EXPORT_CHUNK)

    async def one(self, org_id: str, exception_id: str) -> Any:
        stmt = self._with_names().where(
            TrackingException.org_id == org_id, TrackingException.id == exception_id
        )
        return (await self.session.execute(stmt)).first()

    async def things(self, org_id: str, ids: Sequence[str]) -> dict[str, Any]:
        """Name, shown tag, current zone and last event of these things."""
        if not ids:
            return {}
        stmt = (
            select(
                Thing.id,
                Thing.name,
                SHOWN_TAG.label("tag"),
                Thing.zone_id,
                Zone.name.label("zone_name"),
                Thing.last_event,
            )
            .outerjoin(Zone, (Zone.org_id == Thing.org_id) & (Zone.id == Thing.zone_id))
            .where(Thing.org_id == org_id, Thing.id.in_(list(ids)))
        )
        return {row.id: row for row in await self.session.execute(stmt)}
