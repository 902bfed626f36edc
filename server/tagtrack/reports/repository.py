"""The SQL of report configurations, report runs, the Activity report and the daily jobs."""

from collections.abc import AsyncIterator, Callable, Sequence
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import (
    BigInteger,
    ColumnElement,
    Select,
    Subquery,
    cast,
    func,
    literal,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import distinct_on
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import aliased

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import DailyRun, Event, ReportConfig, Site, Thing, TrackingException, Zone
from tagtrack.models.ids import UNKNOWN_THING_ID, new_id
from tagtrack.things.repository import SHOWN_TAG

CHUNK = 2000
# What a report row shows of a thing.
THING_COLUMNS = (
    Thing.id,
    Thing.name,
    Thing.serial,
    SHOWN_TAG.label("tag"),
    Thing.thing_class,
    Thing.categories,
)


class ReportRepository(Repository[ReportConfig]):
    model = ReportConfig

    async def list_page(
        self, org_id: str, site_ids: Sequence[str] | None, params: ListParams
    ) -> tuple[Sequence[ReportConfig], int]:
        stmt = select(ReportConfig).where(ReportConfig.org_id == org_id)
        if site_ids is not None:
            stmt = stmt.where(ReportConfig.site_id.in_(list(site_ids)))
        return await paginate(
            self.session,
            stmt,
            params,
            sortable={"name": ReportConfig.name, "type": ReportConfig.type},
            default_sort="name",
            searchable=[ReportConfig.name],
            tiebreak=ReportConfig.id,
        )

    async def get(self, org_id: str, config_id: str) -> ReportConfig | None:
        stmt = select(ReportConfig).where(
            ReportConfig.org_id == org_id, ReportConfig.id == config_id
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def name_taken(self, org_id: str, site_id: str, name: str, except_id: str | None) -> bool:
        stmt = select(ReportConfig.id).where(
            ReportConfig.org_id == org_id,
            ReportConfig.site_id == site_id,
            ReportConfig.name == name,
        )
        if except_id:
            stmt = stmt.where(ReportConfig.id != except_id)
        return await self.exists(stmt)

    async def emailed(self, site: Site) -> Sequence[ReportConfig]:
        stmt = (
            select(ReportConfig)
            .where(
                ReportConfig.org_id == site.org_id,
                ReportConfig.site_id == site.id,
                ReportConfig.email.is_(True),
            )
            .order_by(ReportConfig.name, ReportConfig.id)
        )
        return (await self.session.execute(stmt)).scalars().all()

    async def zones(
        self, org_id: str, site_id: str, zone_ids: Sequence[str] = ()
    ) -> list[tuple[str, str]]:
        """(id, name) of these zones of the site, or of all its zones; by name."""
        stmt = select(Zone.id, Zone.name).where(Zone.org_id == org_id, Zone.site_id == site_id)
        if zone_ids:
            stmt = stmt.where(Zone.id.in_(list(zone_ids)))
        rows = await self.session.execute(stmt.order_by(Zone.name, Zone.id))
        return [(zone_id, name) for zone_id, name in rows]

    async def zone_names(self, org_id: str, zone_ids: Sequence[str]) -> dict[str, str]:
        if not zone_ids:
            return {}
        stmt = select(Zone.id, Zone.name).where(Zone.org_id == org_id, Zone.id.in_(list(zone_ids)))
        return {zone_id: name for zone_id, name in await self.session.execute(stmt)}

    @staticmethod
    def _things_where(org_id: str, categories: Sequence[str]) -> list[ColumnElement[bool]]:
        where = [Thing.org_id == org_id, Thing.id != UNKNOWN_THING_ID]
        if categories:
            where.append(Thing.categories.overlap(list(categories)))
        return where

    @staticmethod
    def _zone_filter(site_id: str, zone_ids: Sequence[str]) -> list[ColumnElement[bool]]:
        where = [Event.site_id == site_id, Event.thing_id != UNKNOWN_THING_ID]
        if zone_ids:
            where.append(Event.zone_id.in_(list(zone_ids)))
        else:
            where.append(Event.zone_id.is_not(None))
        return where

    def seen(
        self,
        org_id: str,
        site_id: str,
        zone_ids: Sequence[str],
        categories: Sequence[str],
        after: datetime,
        before: datetime,
    ) -> AsyncIterator[Sequence[Any]]:
        """One row per thing and zone it was read in during the period, by name."""
        visits = (
            select(
                Event.thing_id,
                Event.zone_id,
                func.min(Event.first_time).label("first_seen"),
                func.max(Event.time).label("last_seen"),
                func.count().label("events"),
            )
            .where(
                Event.org_id == org_id,
                Event.time >= after,
                Event.time < before,
                *self._zone_filter(site_id, zone_ids),
            )
            .group_by(Event.thing_id, Event.zone_id)
            .subquery()
        )
        stmt = (
            select(
                *THING_COLUMNS,
                Zone.name.label("zone_name"),
                visits.c.first_seen,
                visits.c.last_seen,
                visits.c.events,
            )
            .join(visits, visits.c.thing_id == Thing.id)
            .join(Zone, (Zone.org_id == Thing.org_id) & (Zone.id == visits.c.zone_id))
            .where(*self._things_where(org_id, categories))
            .order_by(Thing.name, Thing.id, Zone.name)
        )
        return self.chunks(stmt, CHUNK)

    def not_seen(
        self,
        org_id: str,
        site_id: str,
        zone_ids: Sequence[str],
        categories: Sequence[str],
        after: datetime,
    ) -> AsyncIterator[Sequence[Any]]:
        """Things whose last read in the zones is before the period, by name."""
        last = (
            select(Event.thing_id, Event.zone_id, Event.time)
            .ext(distinct_on(Event.thing_id))
            .where(Event.org_id == org_id, *self._zone_filter(site_id, zone_ids))
            .order_by(Event.thing_id, Event.time.desc(), Event.id.desc())
            .subquery()
        )
        current = aliased(Zone)
        stmt = (
            select(
                *THING_COLUMNS,
                Zone.name.label("zone_name"),
                last.c.time.label("last_seen"),
                current.name.label("current_zone"),
            )
            .join(last, last.c.thing_id == Thing.id)
            .join(Zone, (Zone.org_id == Thing.org_id) & (Zone.id == last.c.zone_id))
            .outerjoin(current, (current.org_id == Thing.org_id) & (current.id == Thing.zone_id))
            .where(last.c.time < after, *self._things_where(org_id, categories))
            .order_by(Thing.name, Thing.id)
        )
        return self.chunks(stmt, CHUNK)

    async def category_counts(
        self, org_id: str, site_id: str, zone_ids: Sequence[str], categories: Sequence[str]
    ) -> list[tuple[str, str, int]]:
        """(zone, category, count) of the things now in these zones; non-zero counts only."""
        category = func.unnest(Thing.categories).label("category")
        carried = (
            select(Thing.zone_id, category)
            .where(
                Thing.site_id == site_id,
                Thing.zone_id.in_(list(zone_ids)),
                *self._things_where(org_id, categories),
            )
            .subquery()
        )
        stmt = select(carried.c.zone_id, carried.c.category, func.count()).group_by(
            carried.c.zone_id, carried.c.category
        )
        if categories:
            stmt = stmt.where(carried.c.category.in_(list(categories)))
        rows = await self.session.execute(stmt.order_by(carried.c.category))
        return [(zone_id, name, int(count)) for zone_id, name, count in rows]

    @staticmethod
    def _activity(
        org_id: str,
        site_ids: Sequence[str] | None,
        after: datetime,
        before: datetime,
        columns: Callable[[Subquery], Sequence[Any]],
    ) -> Select[Any]:
        """Rows per thing and day on its site's clock, by thing name, with these columns of
        the things, their sites and the day's first and last read, events and reads."""
        local = func.timezone(Site.timezone, Event.time)
        stmt = (
            select(
                Event.thing_id,
                func.date(local).label("day"),
                # A folded event that began before midnight counts from midnight.
                func.greatest(
                    Event.first_time, func.timezone(Site.timezone, func.date_trunc("day", local))
                ).label("first_time"),
                Event.time,
                Event.repeat_count,
            )
            .join(Site, (Site.org_id == Event.org_id) & (Site.id == Event.site_id))
            .where(
                Event.org_id == org_id,
                Event.time >= after,
                Event.time < before,
                Event.thing_id != UNKNOWN_THING_ID,
            )
        )
        if site_ids is not None:
            stmt = stmt.where(Event.site_id.in_(list(site_ids)))
        reads = stmt.subquery()
        per_day = (
            select(
                reads.c.thing_id,
                reads.c.day,
                func.min(reads.c.first_time).label("first_seen"),
                func.max(reads.c.time).label("last_seen"),
                func.count().label("events"),
                func.sum(reads.c.repeat_count).label("reads"),
            )
            .group_by(reads.c.thing_id, reads.c.day)
            .subquery()
        )
        return (
            select(*columns(per_day))
            .join(per_day, per_day.c.thing_id == Thing.id)
            .join(Site, (Site.org_id == Thing.org_id) & (Site.id == Thing.site_id))
            .where(Thing.org_id == org_id)
            .order_by(Thing.name, Thing.id, per_day.c.day)
        )

    def activity(
        self, org_id: str, site_ids: Sequence[str] | None, after: datetime, before: datetime
    ) -> AsyncIterator[Sequence[Any]]:
        """Per thing and day on its site's clock: first and last read, events and reads."""

        def columns(per_day: Subquery) -> list[Any]:
            return [
                Thing.id, Thing.name, SHOWN_TAG.label("tag"), Thing.thing_class,
                Thing.site_id, Site.timezone, per_day.c.day, per_day.c.first_seen,
                per_day.c.last_seen, per_day.c.events, per_day.c.reads,
            ]  # fmt: skip

        return self.chunks(self._activity(org_id, site_ids, after, before, columns), CHUNK)

    def zone_occupants(
        self, org_id: str, site_ids: Sequence[str] | None, hide_workers: bool
    ) -> AsyncIterator[Sequence[Any]]:
        """The things now in the sites' zones (the unknown one left out), by site, zone and
        longest there first, with the names and the site's time zone, a chunk at a time."""
        stmt: Any = (
            select(
                Site.name,
                Zone.name,
                Thing.name,
                Thing.thing_class,
                Thing.last_zone_time,
                Site.timezone,
            )
            .join(Zone, (Zone.org_id == Thing.org_id) & (Zone.id == Thing.zone_id))
            .join(Site, (Site.org_id == Zone.org_id) & (Site.id == Zone.site_id))
            .where(Thing.org_id == org_id, Thing.id != UNKNOWN_THING_ID)
            .order_by(Site.name, Site.id, Zone.name, Zone.id, Thing.last_zone_time, Thing.id)
        )
        if site_ids is not None:
            stmt = stmt.where(Zone.site_id.in_(list(site_ids)))
        if hide_workers:
            stmt = stmt.where(Thing.thing_class != "worker")
        return self.tuple_chunks(stmt, CHUNK)

    def activity_cells(
        self,
        org_id: str,
        site_ids: Sequence[str] | None,
        after: datetime,
        before: datetime,
        with_zone: bool = False,
    ) -> AsyncIterator[Sequence[Any]]:
        """The Activity export's rows as its cells: Name, Tag, Class, Day, First Seen and
        Last Seen on the thing's site's clock, Hours, Events, Reads, and with_zone the
        site's time zone. The database puts the times on the site clock: in Python that
        took longer than writing the cells."""

        def columns(per_day: Subquery) -> list[Any]:
            first, last = per_day.c.first_seen, per_day.c.last_seen
            return [
                Thing.name, SHOWN_TAG, Thing.thing_class, per_day.c.day,
                func.timezone(Site.timezone, first), func.timezone(Site.timezone, last),
                func.greatest(last - first, literal(timedelta(0))), per_day.c.events,
                cast(per_day.c.reads, BigInteger), *([Site.timezone] if with_zone else []),
            ]  # fmt: skip

        stmt = self._activity(org_id, site_ids, after, before, columns)
        return self.tuple_chunks(stmt, CHUNK)


class DailyRepository(Repository[DailyRun]):
    """The daily jobs: claims, zone contents, reads of a window, inventory exceptions."""

    model = DailyRun

    async def scheduled_sites(self, org_id: str | None) -> Sequence[Site]:
        stmt = select(Site).where(Site.report_daily_time != "").order_by(Site.id)
        if org_id is not None:
            stmt = stmt.where(Site.org_id == org_id)
        return (await self.session.execute(stmt)).scalars().all()

    async def claim(self, site: Site, kind: str, day: date, time: datetime) -> str | None:
        """Insert the day's row for this job; None when another process has it. A concurrent
        claim waits here until the holder commits (then gets None) or rolls back."""
        stmt = (
            pg_insert(DailyRun)
            .values(
                id=new_id(),
                org_id=site.org_id,
                site_id=site.id,
                kind=kind,
                day=day,
                time=time,
            )
            .on_conflict_do_nothing(index_elements=["org_id", "site_id", "kind", "day"])
            .returning(DailyRun.id)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def previous(self, site: Site, kind: str, day: date) -> DailyRun | None:
        stmt = (
            select(DailyRun)
            .where(
                DailyRun.org_id == site.org_id,
                DailyRun.site_id == site.id,
                DailyRun.kind == kind,
                DailyRun.day < day,
            )
            .order_by(DailyRun.day.desc())
            .limit(1)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def save_snapshot(self, site: Site, run_id: str, snapshot: dict[str, list[str]]) -> None:
        await self.session.execute(
            update(DailyRun)
            .where(DailyRun.org_id == site.org_id, DailyRun.id == run_id)
            .values(snapshot=snapshot)
        )

    async def zone_contents(self, site: Site) -> dict[str, list[str]]:
        """{zone id: thing ids} of the things now in each zone of the site."""
        stmt = (
            select(Thing.zone_id, Thing.id)
            .join(Zone, (Zone.org_id == Thing.org_id) & (Zone.id == Thing.zone_id))
            .where(
                Thing.org_id == site.org_id, Zone.site_id == site.id, Thing.id != UNKNOWN_THING_ID
            )
            .order_by(Thing.zone_id, Thing.id)
        )
        contents: dict[str, list[str]] = {}
        for zone_id, thing_id in await self.session.execute(stmt):
            contents.setdefault(str(zone_id), []).append(thing_id)
        return contents

    async def read_in_zones(
        self, site: Site, after: datetime, before: datetime
    ) -> set[tuple[str, str]]:
        """(zone, thing) pairs read in the site's zones during the window."""
        stmt = (
            select(Event.zone_id, Event.thing_id)
            .join(Zone, (Zone.org_id == Event.org_id) & (Zone.id == Event.zone_id))
            .where(
                Event.org_id == site.org_id,
                Zone.site_id == site.id,
                Event.time >= after,
                Event.time < before,
                Event.thing_id != UNKNOWN_THING_ID,
            )
            .distinct()
        )
        return {(str(zone_id), thing_id) for zone_id, thing_id in await self.session.execute(stmt)}

    async def exception_counts(
        self, site: Site, after: datetime, before: datetime
    ) -> list[tuple[str, int]]:
        """(type, count) of the site's exceptions in the window, by type."""
        stmt = (
            select(TrackingException.type, func.count())
            .where(
                TrackingException.org_id == site.org_id,
                TrackingException.site_id == site.id,
                TrackingException.time >= after,
                TrackingException.time < before,
            )
            .group_by(TrackingException.type)
            .order_by(TrackingException.type)
        )
        return [(kind, int(n)) for kind, n in await self.session.execute(stmt)]
