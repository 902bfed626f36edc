"""The SQL of events, with the names the console shows."""

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from sqlalchemy import BindParameter, Select, and_, bindparam, case, func, select
from sqlalchemy.dialects.postgresql import JSONB

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


# Every open console polls the Events page: its statements are built once for each shape of
# filters, their values bound when they run. Building one took longer than running it.
# An id no organization has.
NO_ORGANIZATION = "0" * 24
ORG: BindParameter[str] = bindparam("org_id")
SITES: BindParameter[list[str]] = bindparam("site_ids", expanding=True)
ENDPOINTS: BindParameter[list[str]] = bindparam("endpoints", expanding=True)


def _event_columns() -> tuple[Any, ...]:
    """An event as the API shows it, each column named as its field of EventRead."""
    return (
        Event.id.label("id"),
        Event.tag.label("tag"),
        Event.time.label("time"),
        Event.first_time.label("firstTime"),
        Event.repeat_count.label("repeatCount"),
        Event.direction.label("direction"),
        func.coalesce(Event.endpoint_id, "").label("endpoint"),
        func.coalesce(Endpoint.name, "").label("endpointName"),
        Event.thing_id.label("thing"),
        case((Event.thing_id == UNKNOWN_THING_ID, ""), else_=func.coalesce(Thing.name, "")).label(
            "thingName"
        ),
        (Event.thing_id != UNKNOWN_THING_ID).label("matched"),
        func.coalesce(Event.location_tag_id, "").label("locationTag"),
        func.coalesce(LocationTag.name, "").label("locationTagName"),
        Event.antenna.label("antenna"),
        func.coalesce(Event.zone_id, "").label("zone"),
        func.coalesce(Zone.name, "").label("zoneName"),
        Event.alarm_tamper.label("alarmTamper"),
        func.jsonb_build_object("cFloat0", Event.data["cFloat0"], type_=JSONB).label("data"),
        Event.site_id.label("site"),
    )


def _with_names() -> Select[*tuple[Any, ...]]:
    """Events with the names the console shows beside the ids."""
    return (
        select(*_event_columns())
        .outerjoin(Endpoint, (Endpoint.org_id == Event.org_id) & (Endpoint.id == Event.endpoint_id))
        .outerjoin(Thing, (Thing.org_id == Event.org_id) & (Thing.id == Event.thing_id))
        .outerjoin(Zone, (Zone.org_id == Event.org_id) & (Zone.id == Event.zone_id))
        .outerjoin(
            LocationTag,
            (LocationTag.org_id == Event.org_id) & (LocationTag.id == Event.location_tag_id),
        )
    )


@dataclass(frozen=True)
class Filters:
    """Which filters a statement has; each one's value is bound under its own name."""

    scoped: bool
    after: str | None
    before: str | None
    endpoints: bool
    thing: bool


def _filtered(stmt: Select[*tuple[Any, ...]], filters: Filters) -> Select[*tuple[Any, ...]]:
    stmt = stmt.where(Event.org_id == ORG)
    if filters.scoped:
        stmt = stmt.where(Event.site_id.in_(SITES))
    if filters.after is not None:
        stmt = stmt.where(Event.time >= bindparam(filters.after))
    if filters.before is not None:
        stmt = stmt.where(Event.time < bindparam(filters.before))
    if filters.endpoints:
        stmt = stmt.where(Event.endpoint_id.in_(ENDPOINTS))
    if filters.thing:
        stmt = stmt.where(Event.thing_id == bindparam("thing"))
    return stmt


@cache
def _counted_one_by_one(filters: Filters) -> Select[Any]:
    return select(func.count()).select_from(_filtered(select(Event.id), filters).subquery())


@cache
def _page_statement(filters: Filters) -> Select[*tuple[Any, ...]]:
    ids = (
        _filtered(select(Event.id, Event.time), filters)
        .order_by(Event.time.desc(), Event.id.desc())
        .limit(bindparam("limit"))
        .offset(bindparam("offset"))
        .subquery()
    )
    # By the whole primary key: each row is looked up in its own month's partition.
    return (
        _with_names()
        .join(ids, and_(Event.org_id == ORG, Event.id == ids.c.id, Event.time == ids.c.time))
        .order_by(Event.time.desc(), Event.id.desc())
    )


@cache
def _count_statement(
    filters: Filters, first_hour: bool, last_hour: bool, lead: bool, tail: bool
) -> Select[Any]:
    """The hour counts of the whole hours, plus the events of the partial hour before the
    first (`lead`) and after the last (`tail`), counted one by one."""
    summed = select(func.coalesce(func.sum(EventCount.events), 0)).where(EventCount.org_id == ORG)
    if filters.scoped:
        summed = summed.where(EventCount.site_id.in_(SITES))
    if first_hour:
        summed = summed.where(EventCount.hour >= bindparam("first_hour"))
    if last_hour:
        summed = summed.where(EventCount.hour < bindparam("last_hour"))
    total: Any = summed.scalar_subquery()
    if lead:
        edge = replace(filters, before="first_hour")
        total = total + _counted_one_by_one(edge).scalar_subquery()
    if tail:
        edge = replace(filters, after="last_hour")
        total = total + _counted_one_by_one(edge).scalar_subquery()
    return select(total)


EXPORT_CHUNK = 2000


class EventRepository(Repository[Event]):
    model = Event

    @staticmethod
    def _bound(
        org_id: str,
        site_ids: list[str] | None,
        *,
        after: datetime | None,
        before: datetime | None,
        endpoints: list[str],
        thing: str,
    ) -> tuple[Filters, dict[str, Any]]:
        filters = Filters(
            scoped=site_ids is not None,
            after=None if after is None else "after",
            before=None if before is None else "before",
            endpoints=bool(endpoints),
            thing=bool(thing),
        )
        values = {
            "org_id": org_id,
            "site_ids": site_ids,
            "after": after,
            "before": before,
            "endpoints": endpoints,
            "thing": thing,
        }
        return filters, values

    @staticmethod
    def counts_each_event(endpoints: list[str], thing: str) -> bool:
        """Whether a total is counted event by event: the hour counts hold no endpoint or
        thing."""
        return bool(endpoints or thing)

    async def count(self, org_id: str, site_ids: list[str] | None, **filters: Any) -> int:
        """The exact number of events the filters select (see `count_statement`)."""
        stmt, values = self.count_statement(org_id, site_ids, **filters)
        return int(await self.session.scalar(stmt, values) or 0)

    def count_statement(
        self, org_id: str, site_ids: list[str] | None, **filters: Any
    ) -> tuple[Select[Any], dict[str, Any]]:
        """The exact number of events the filters select, as one statement and its values
        (one snapshot; the hour counts are written in the same transactions as the events).

        Without an endpoint or thing filter, the whole hours of the period are summed from
        event_counts and only the partial hours at its edges are counted event by event (at
        most an hour each): a busy site's day is 24 rows, not hundreds of thousands of
        index entries.
        """
        shape, values = self._bound(org_id, site_ids, **filters)
        after, before = filters["after"], filters["before"]
        counted = self.counts_each_event(filters["endpoints"], filters["thing"])
        hours = None if counted else _whole_hours(after, before)
        if hours is None:
            return _counted_one_by_one(shape), values
        first, last = hours
        stmt = _count_statement(
            shape,
            first_hour=first is not None,
            last_hour=last is not None,
            lead=after is not None and first is not None and after < first,
            tail=before is not None and last is not None and last < before,
        )
        return stmt, values | {"first_hour": first, "last_hour": last}

    async def page(
        self,
        org_id: str,
        site_ids: list[str] | None,
        *,
        limit: int,
        page: int,
        **filters: Any,
    ) -> list[dict[str, Any]]:
        """One page of events, newest first, each by EventRead's field names."""
        shape, values = self._bound(org_id, site_ids, **filters)
        values |= {"limit": limit, "offset": page * limit}
        return await self.plain_rows(_page_statement(shape), values)

    async def prepare(self) -> None:
        """Run the Events page's statements as the console sends them (a site, today), for
        no organization: this connection then has them prepared."""
        day = datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
        for start in (day, day + timedelta(minutes=30)):
            period: dict[str, Any] = {
                "after": start, "before": start + timedelta(days=1), "endpoints": [], "thing": "",
            }  # fmt: skip
            await self.count(NO_ORGANIZATION, [NO_ORGANIZATION], **period)
            await self.page(NO_ORGANIZATION, [NO_ORGANIZATION], limit=25, page=0, **period)

    async def latest_for_tag(self, org_id: str, tag: str) -> dict[str, Any]:
        stmt = (
            _with_names()
            .where(Event.org_id == org_id, Event.tag == tag)
            .order_by(Event.time.desc(), Event.id.desc())
            .limit(1)
        )
        (latest,) = await self.plain_rows(stmt)
        return latest

    async def zone(self, org_id: str, zone_id: str) -> Zone | None:
        return await self.session.scalar(
            select(Zone).where(Zone.org_id == org_id, Zone.id == zone_id)
        )
