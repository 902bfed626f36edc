"""The SQL of events, with the names the console shows."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Select, and_, func, select

from tagtrack.kit.repository import Repository
from tagtrack.models import (
    Endpoint,
    Event,
    EventCount,
    LocationTag,
    Thing,
    Zone,
)
from tagtrack.models.event import HOUR, hour_of


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
        model: type[Event],
        org_id: str,
        site_ids: list[str] | None,
    ) -> Select[*tuple[Any, ...]]:
        stmt = stmt.where(model.org_id == org_id)
        return stmt if site_ids is None else stmt.where(model.site_id.in_(site_ids))

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
