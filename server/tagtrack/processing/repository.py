"""The SQL of processing: load what a batch of reads touches, in a few queries."""

import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, select, text, tuple_, update
from sqlalchemy.dialects.postgresql import distinct_on
from sqlalchemy.dialects.postgresql import insert as pg_insert

from tagtrack.kit.repository import Repository
from tagtrack.models import (
    Endpoint,
    Event,
    IngestBatch,
    LocationTag,
    PendingRead,
    RawPayload,
    SiteSettings,
    Thing,
    ThingTag,
    TrackingException,
    Zone,
    ZoneDuration,
    ZoneGate,
)

FoldKey = tuple[str, int, str]

EVENT_COLUMNS = (
    "id", "org_id", "site_id", "endpoint_id", "thing_id", "tag", "antenna", "time",
    "first_time", "repeat_count", "direction", "zone_id", "location_tag_id", "alarm_tamper",
    "rssi", "data",
)  # fmt: skip
VISIT_COLUMNS = (
    "id", "org_id", "site_id", "thing_id", "zone_id", "time_start", "time_end", "time_duration",
)  # fmt: skip


@dataclass(slots=True)
class EventRow:
    """An event while a batch works on it: plain data, written back in bulk."""

    id: str
    org_id: str
    site_id: str
    endpoint_id: str | None
    thing_id: str
    tag: str
    antenna: int
    time: datetime
    first_time: datetime
    repeat_count: int
    direction: str
    zone_id: str | None
    location_tag_id: str | None
    alarm_tamper: bool
    rssi: float | None
    data: dict[str, Any]
    stored: bool = False
    dirty: bool = False


@dataclass(slots=True)
class VisitRow:
    """A zone visit while a batch works on it."""

    id: str
    org_id: str
    site_id: str
    thing_id: str
    zone_id: str
    time_start: datetime
    time_end: datetime | None
    time_duration: int
    stored: bool = False
    dirty: bool = False


def org_lock_key(org_id: str) -> int:
    """One advisory lock per organisation: its reads are processed by one worker at a time."""
    return zlib.crc32(f"processing:{org_id}".encode())


class ProcessingRepository(Repository[PendingRead]):
    model = PendingRead

    async def try_lock_org(self, org_id: str) -> bool:
        row = await self.session.execute(
            select(func.pg_try_advisory_xact_lock(org_lock_key(org_id)))
        )
        return bool(row.scalar_one())

    async def lock_org(self, org_id: str) -> None:
        await self.session.execute(select(func.pg_advisory_xact_lock(org_lock_key(org_id))))

    async def orgs_with_pending(self) -> list[str]:
        rows = await self.session.execute(select(PendingRead.org_id).distinct())
        return list(rows.scalars())

    async def pending(self, org_id: str, limit: int) -> Sequence[PendingRead]:
        # Oldest acknowledged first; reads are then ordered by their own time.
        stmt = (
            select(PendingRead)
            .where(PendingRead.org_id == org_id)
            .order_by(PendingRead.id)
            .limit(limit)
        )
        return (await self.session.scalars(stmt)).all()

    async def delete_pending(self, ids: Sequence[int]) -> None:
        await self.session.execute(delete(PendingRead).where(PendingRead.id.in_(ids)))

    async def endpoints(self, org_id: str, ids: Iterable[str]) -> dict[str, Endpoint]:
        stmt = (
            select(Endpoint)
            .where(Endpoint.org_id == org_id, Endpoint.id.in_(list(ids)))
            .with_for_update()
        )
        return {row.id: row for row in await self.session.scalars(stmt)}

    async def endpoint_site(self, org_id: str, endpoint_id: str) -> str | None:
        stmt = select(Endpoint.site_id).where(Endpoint.org_id == org_id, Endpoint.id == endpoint_id)
        return await self.session.scalar(stmt)

    async def gates(self, endpoint_ids: Iterable[str]) -> list[ZoneGate]:
        stmt = (
            select(ZoneGate)
            .where(ZoneGate.endpoint_id.in_(list(endpoint_ids)))
            .order_by(ZoneGate.zone_id, ZoneGate.position)
        )
        return list(await self.session.scalars(stmt))

    async def zones(self, org_id: str, ids: Iterable[str]) -> dict[str, Zone]:
        stmt = select(Zone).where(Zone.org_id == org_id, Zone.id.in_(list(ids)))
        return {row.id: row for row in await self.session.scalars(stmt)}

    async def location_tags(self, org_id: str, tags: Iterable[str]) -> dict[str, LocationTag]:
        stmt = select(LocationTag).where(LocationTag.org_id == org_id, LocationTag.tag.in_(tags))
        return {row.tag: row for row in await self.session.scalars(stmt)}

    async def location_tags_by_id(self, ids: Iterable[str]) -> dict[str, LocationTag]:
        stmt = select(LocationTag).where(LocationTag.id.in_(list(ids)))
        return {row.id: row for row in await self.session.scalars(stmt)}

    async def thing_ids_by_tag(self, org_id: str, tags: Iterable[str]) -> dict[str, str]:
        stmt = select(ThingTag.tag, ThingTag.thing_id).where(
            ThingTag.org_id == org_id, ThingTag.tag.in_(list(tags))
        )
        return {tag: thing_id for tag, thing_id in (await self.session.execute(stmt)).all()}

    async def tag_prefixes(self, site_ids: Iterable[str]) -> dict[str, str]:
        """Each site's tag prefix (site settings orgTagPrefix), upper case, where set."""
        prefix = SiteSettings.settings["orgTagPrefix"].astext
        stmt = select(SiteSettings.site_id, prefix).where(
            SiteSettings.site_id.in_(list(site_ids)), prefix.is_not(None), prefix != ""
        )
        rows = (await self.session.execute(stmt)).all()
        return {site_id: value.strip().upper() for site_id, value in rows}

    async def things_for_update(self, ids: Iterable[str]) -> dict[str, Thing]:
        stmt = select(Thing).where(Thing.id.in_(sorted(set(ids)))).order_by(Thing.id)
        return {row.id: row for row in await self.session.scalars(stmt.with_for_update())}

    async def latest_events(self, keys: Iterable[FoldKey]) -> dict[FoldKey, EventRow]:
        """The newest event of each (endpoint, antenna, tag): the one a read may fold into."""
        wanted = list(set(keys))
        if not wanted:
            return {}
        columns = [getattr(Event, name) for name in EVENT_COLUMNS]
        stmt = (
            select(*columns)
            .where(tuple_(Event.endpoint_id, Event.antenna, Event.tag).in_(wanted))
            .ext(distinct_on(Event.endpoint_id, Event.antenna, Event.tag))
            .order_by(Event.endpoint_id, Event.antenna, Event.tag, Event.time.desc())
        )
        latest = {}
        for row in (await self.session.execute(stmt)).mappings():
            event = EventRow(**row, stored=True)
            latest[(event.endpoint_id or "", event.antenna, event.tag)] = event
        return latest

    async def open_visits(self, thing_ids: Iterable[str]) -> dict[str, VisitRow]:
        columns = [getattr(ZoneDuration, name) for name in VISIT_COLUMNS]
        stmt = select(*columns).where(
            ZoneDuration.thing_id.in_(list(thing_ids)), ZoneDuration.time_end.is_(None)
        )
        rows = (await self.session.execute(stmt)).mappings()
        return {row["thing_id"]: VisitRow(**row, stored=True) for row in rows}

    async def write_events(self, events: Iterable["EventRow"]) -> None:
        await self._write(Event, EVENT_COLUMNS, events)

    async def write_visits(self, visits: Iterable["VisitRow"]) -> None:
        await self._write(ZoneDuration, VISIT_COLUMNS, visits)

    async def _write(
        self,
        model: type[Event] | type[ZoneDuration],
        columns: tuple[str, ...],
        rows: Iterable[Any],
    ) -> None:
        """Changed rows in one executemany update, then new ones in one multi-row insert.

        Updates go first: a closed visit must be closed before the thing's next one opens.
        """
        created, changed = [], []
        for row in rows:
            values = {name: getattr(row, name) for name in columns}
            if not row.stored:
                created.append(values)
            elif row.dirty:
                changed.append(values)
        if changed:
            await self.session.execute(update(model), changed)
        if created:
            await self.session.execute(insert(model), created)

    async def expired_residents(self, now: datetime, limit: int) -> list[tuple[Thing, Zone]]:
        """Things not read in their zone for longer than the zone's kill delay."""
        deadline = Thing.last_zone_read + func.make_interval(
            0, 0, 0, 0, 0, 0, Zone.kill_duration * 3600
        )
        stmt = (
            select(Thing, Zone)
            .join(Zone, Zone.id == Thing.zone_id)
            .where(Zone.kill_duration > 0, Thing.last_zone_read.is_not(None), deadline <= now)
            .order_by(Thing.id)
            .limit(limit)
            .with_for_update(of=Thing, skip_locked=True)
        )
        return [(thing, zone) for thing, zone in (await self.session.execute(stmt)).all()]

    async def overstays(
        self, now: datetime, since: timedelta, limit: int
    ) -> list[tuple[ZoneDuration, Zone]]:
        """Visits longer than their zone's alert time that have no exception yet."""
        length = func.coalesce(ZoneDuration.time_end, now) - ZoneDuration.time_start
        length_ns = func.extract("epoch", length) * 1e9
        stmt = (
            select(ZoneDuration, Zone)
            .join(Zone, Zone.id == ZoneDuration.zone_id)
            .where(
                Zone.duration > 0,
                ZoneDuration.time_start >= now - since,
                length_ns > Zone.duration,
                ~select(TrackingException.id)
                .where(TrackingException.zone_duration_id == ZoneDuration.id)
                .exists(),
            )
            .order_by(ZoneDuration.time_start)
            .limit(limit)
        )
        return [(visit, zone) for visit, zone in (await self.session.execute(stmt)).all()]

    async def add_exception_once(self, row: TrackingException) -> bool:
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
                index_elements=["zone_duration_id"],
                index_where=text("zone_duration_id IS NOT NULL"),
            )
            .returning(TrackingException.id)
        )
        return (await self.session.execute(stmt)).first() is not None

    async def thing_names(self, ids: Iterable[str]) -> dict[str, str]:
        stmt = select(Thing.id, Thing.name).where(Thing.id.in_(list(ids)))
        return {thing_id: name for thing_id, name in (await self.session.execute(stmt)).all()}

    async def purge_before(self, raw_before: datetime, batches_before: datetime) -> None:
        await self.session.execute(delete(RawPayload).where(RawPayload.received_at < raw_before))
        await self.session.execute(
            delete(IngestBatch).where(IngestBatch.received_at < batches_before)
        )
