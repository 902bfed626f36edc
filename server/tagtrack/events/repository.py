"""The SQL of events and zone durations, with the names the console shows."""

from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, func, select
from sqlalchemy.orm import aliased

from tagtrack.kit.repository import Repository
from tagtrack.models import (
    Endpoint,
    Event,
    EventCount,
    LocationTag,
    Site,
    Thing,
    Zone,
    ZoneDuration,
)
from tagtrack.models.event import HOUR, hour_of
from tagtrack.models.ids import UNKNOWN_THING_ID


def _whole_hours(
    after: datetime | None, before: datetime | None
) -> tuple[datetime | None, datetime | None] | None:
    """The start of the first and the end of the last whole UTC hour inside [after, before)
    (None where the period is open), or None when it has none."""
    try:
        first = None if after is None else hour_of(after)
        if first is not None and after is not None and first < after:
            first += HOUR
        last = None if before is None else hour_of(before)
    except OverflowError:  # a bound at the very ends of the calendar
        return None
    if first is not None and last is not None and first >= last:
        return None
    return first, last


def _with_names() -> Select[Event, str, str, str, str]:
    """Events with the names the console shows beside the ids."""
    return (
        select(
            Event,
            Endpoint.name.label("endpoint_name"),
            Thing.name.label("thing_name"),
            Zone.name.label("zone_name"),
            LocationTag.name.label("location_name"),
        )
        .outerjoin(Endpoint, (Endpoint.org_id == Event.org_id) & (Endpoint.id == Event.endpoint_id))
        .outerjoin(Thing, (Thing.org_id == Event.org_id) & (Thing.id == Event.thing_id))
        .outerjoin(Zone, (Zone.org_id == Event.org_id) & (Zone.id == Event.zone_id))
        .outerjoin(
            LocationTag,
            (LocationTag.org_id == Event.org_id) & (LocationTag.id == Event.location_tag_id),
        )
    )


EXPORT_CHUNK = 2000


class EventRepository(Repository[Event]):
    model = Event

    @staticmethod
    def _scoped(
        stmt: Select[*tuple[Any, ...]],
        model: type[Event] | type[ZoneDuration],
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

    def _events(
        self,
        org_id: str,
        site_ids: list[str] | None,
        *,
        after: datetime | None,
        before: datetime | None,
        endpoints: list[str],
        thing: str,
    ) -> Select[Any]:
        filtered = self._scoped(select(Event.id, Event.time), Event, org_id, site_ids)
        if after is not None:
            filtered = filtered.where(Event.time >= after)
        if before is not None:
            filtered = filtered.where(Event.time < before)
        if endpoints:
            filtered = filtered.where(Event.endpoint_id.in_(endpoints))
        if thing:
            filtered = filtered.where(Event.thing_id == thing)
        return filtered

    @staticmethod
    def counts_each_event(endpoints: list[str], thing: str) -> bool:
        """Whether a total is counted event by event: the hour counts hold no endpoint or
        thing."""
        return bool(endpoints or thing)

    async def count(self, org_id: str, site_ids: list[str] | None, **filters: Any) -> int:
        """The exact number of events the filters select (see `count_statement`)."""
        return int(
            await self.session.scalar(self.count_statement(org_id, site_ids, **filters)) or 0
        )

    def count_statement(
        self,
        org_id: str,
        site_ids: list[str] | None,
        *,
        after: datetime | None,
        before: datetime | None,
        endpoints: list[str],
        thing: str,
    ) -> Select[Any]:
        """The exact number of events the filters select, as one statement (one snapshot;
        the hour counts are written in the same transactions as the events).

        Without an endpoint or thing filter, the whole hours of the period are summed from
        event_counts and only the partial hours at its edges are counted event by event (at
        most an hour each): a busy site's day is 24 rows, not hundreds of thousands of
        index entries.
        """
        filters: dict[str, Any] = {"endpoints": endpoints, "thing": thing}
        hours = None if self.counts_each_event(endpoints, thing) else _whole_hours(after, before)
        if hours is None:
            events = self._events(org_id, site_ids, after=after, before=before, **filters)
            return select(func.count()).select_from(events.subquery())
        first, last = hours
        summed = select(func.coalesce(func.sum(EventCount.events), 0)).where(
            EventCount.org_id == org_id
        )
        if site_ids is not None:
            summed = summed.where(EventCount.site_id.in_(site_ids))
        if first is not None:
            summed = summed.where(EventCount.hour >= first)
        if last is not None:
            summed = summed.where(EventCount.hour < last)
        total: Any = summed.scalar_subquery()
        for start, end in ((after, first), (last, before)):
            if start is not None and end is not None and start < end:
                edge = self._events(org_id, site_ids, after=start, before=end, **filters)
                total = total + select(func.count()).select_from(edge.subquery()).scalar_subquery()
        return select(total)

    async def page(
        self,
        org_id: str,
        site_ids: list[str] | None,
        *,
        limit: int,
        page: int,
        **filters: Any,
    ) -> Sequence[Any]:
        ids = (
            self._events(org_id, site_ids, **filters)
            .order_by(Event.time.desc(), Event.id.desc())
            .limit(limit)
            .offset(page * limit)
            .subquery()
        )
        # By the whole primary key: each row is looked up in its own month's partition.
        stmt = (
            _with_names()
            .join(ids, and_(Event.org_id == org_id, Event.id == ids.c.id, Event.time == ids.c.time))
            .order_by(Event.time.desc(), Event.id.desc())
        )
        return (await self.session.execute(stmt)).all()

    async def latest_for_tag(self, org_id: str, tag: str) -> Any:
        stmt = (
            _with_names()
            .where(Event.org_id == org_id, Event.tag == tag)
            .order_by(Event.time.desc(), Event.id.desc())
            .limit(1)
        )
        return (await self.session.execute(stmt)).first()

    async def zone(self, org_id: str, zone_id: str) -> Zone | None:
        return await self.session.scalar(
            select(Zone).where(Zone.org_id == org_id, Zone.id == zone_id)
        )

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
