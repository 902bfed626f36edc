"""The SQL of processing: load what a batch of reads touches, in a few queries.

Writes are set-based: new rows go in with COPY, changed rows with one
`UPDATE ... FROM unnest(...)` per table. Both run on the session's own connection, in its
transaction, straight through the driver: at thousands of rows a batch, per-row ORM work or
executemany round trips cost more than the database work itself.
"""

import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from operator import attrgetter
from typing import Any

import orjson
from sqlalchemy import (
    BigInteger,
    Integer,
    Select,
    String,
    delete,
    func,
    insert,
    literal_column,
    select,
    text,
    true,
    tuple_,
)
from sqlalchemy import cast as sa_cast
from sqlalchemy.dialects.postgresql import ARRAY

from tagtrack.ingest.formats import Read, pack_reads, unpack_reads
from tagtrack.kit.repository import Repository, as_dbapi_error
from tagtrack.models import (
    Endpoint,
    Event,
    IngestBatch,
    LocationTag,
    PendingReadBatch,
    RawPayload,
    SiteSettings,
    Thing,
    ThingTag,
    TrackingException,
    Zone,
    ZoneDuration,
    ZoneGate,
)
from tagtrack.models.base import utcnow
from tagtrack.models.event import hour_of

FoldKey = tuple[str, int, str]


def row_version(table: str) -> Any:
    """The version of a row as PostgreSQL keeps it (`xmin`): what updates check (VERSION)."""
    return literal_column(f"{table}.xmin", BigInteger).label("version")


EVENT_COLUMNS = (
    "id", "org_id", "site_id", "endpoint_id", "thing_id", "tag", "antenna", "time",
    "first_time", "repeat_count", "direction", "zone_id", "location_tag_id", "alarm_tamper",
    "rssi", "data",
)  # fmt: skip
VISIT_COLUMNS = (
    "id", "org_id", "site_id", "thing_id", "zone_id", "time_start", "time_end", "time_duration",
)  # fmt: skip
BATCH_COLUMNS = ("id", "endpoint_id", "reads", "body", "received_at")
# A read's id in a batch: its batch's id times this, plus its place in the batch.
READS_PER_BATCH_ID = 1 << 32
THING_STATE_COLUMNS = (
    "id", "org_id", "site_id", "zone_id", "last_event", "last_endpoint_time", "last_zone_time",
    "last_zone_read", "endpoint_id", "direction", "location_tag_id", "xy", "map_id",
    "alarm_tamper", "alarm_tamper_tag", "alarm_tamper_time", "data",
)  # fmt: skip
# What processing changes in a stored row, with the type each column travels as in unnest().
EVENT_CHANGES = {
    "thing_id": "varchar", "time": "timestamptz", "first_time": "timestamptz",
    "repeat_count": "bigint", "direction": "varchar", "zone_id": "varchar",
    "alarm_tamper": "boolean", "data": "jsonb",
}  # fmt: skip
VISIT_CHANGES = {"time_end": "timestamptz", "time_duration": "bigint"}
# How an UPDATE finds a stored row: column, its type, and the row attribute holding the value.
# History rows are found by their partition key too, as it was stored (an event's `time`
# moves forward as reads fold into it).
# With org_id, which every update names once ($1), these are the tables' primary keys.
# `xmin` is the version of the row the batch read (or last wrote): an update applies only if
# the row is still that version, and a row changed by anyone else since shows as missing.
VERSION = ("xmin", "xid", "version")
EVENT_KEY = (("id", "varchar", "id"), ("time", "timestamptz", "stored_time"), VERSION)
VISIT_KEY = (("id", "varchar", "id"), ("time_start", "timestamptz", "time_start"), VERSION)
THING_KEY = (("id", "varchar", "id"), VERSION)
THING_CHANGES = {
    "site_id": "varchar", "zone_id": "varchar", "last_event": "timestamptz",
    "last_endpoint_time": "timestamptz", "last_zone_time": "timestamptz",
    "last_zone_read": "timestamptz", "endpoint_id": "varchar", "direction": "varchar",
    "location_tag_id": "varchar", "xy": "float8[]", "map_id": "varchar",
    "alarm_tamper": "boolean", "alarm_tamper_tag": "varchar", "alarm_tamper_time": "timestamptz",
    "data": "jsonb",
}  # fmt: skip


# Kinds that travel as text in unnest(), which would flatten an array of arrays.
TEXT_KINDS = ("jsonb", "float8[]")
# Columns of copied rows that are jsonb (the driver's codec takes them as text).
JSON_COLUMNS = ("data",)

# Events added to (or, negative, taken from) sites' hours, locked in key order: two batches
# touching the same hours wait for each other instead of deadlocking.
ADD_EVENT_COUNTS = """
INSERT INTO event_counts AS c (org_id, site_id, hour, events)
SELECT $1, v.site_id, v.hour, v.events
FROM unnest($2::varchar[], $3::timestamptz[], $4::bigint[]) AS v(site_id, hour, events)
ORDER BY v.site_id, v.hour
ON CONFLICT (org_id, site_id, hour) DO UPDATE SET events = c.events + excluded.events
"""

# The organizations with reads waiting, one step down the queue's key each (a skip scan): the
# CTE `orgs`, ended by a NULL row.
WAITING_ORGS = """
WITH RECURSIVE orgs(org_id) AS (
    (SELECT org_id FROM pending_read_batches ORDER BY org_id LIMIT 1)
    UNION ALL
    SELECT (
        SELECT p.org_id FROM pending_read_batches AS p WHERE p.org_id > orgs.org_id
        ORDER BY p.org_id LIMIT 1
    )
    FROM orgs WHERE orgs.org_id IS NOT NULL
)
"""

ORGS_WITH_PENDING = WAITING_ORGS + "SELECT org_id FROM orgs WHERE org_id IS NOT NULL\n"

# The oldest batches after queue row $3 holding the oldest `$2` reads (the last one may hold
# more).
OLDEST_BATCHES = """
SELECT id FROM (
    SELECT id, sum(reads) OVER (ORDER BY id) - reads AS before
    FROM pending_read_batches WHERE org_id = $1 AND id > $3 ORDER BY id LIMIT $2
) AS oldest
WHERE before < $2
"""
# Taken off the queue (after row 0: from the start); the transaction puts them back if the
# batch fails.
TAKE_BATCHES = f"""
DELETE FROM pending_read_batches WHERE org_id = $1 AND id IN ({OLDEST_BATCHES})
RETURNING {", ".join(BATCH_COLUMNS)}
"""
# Left on the queue: for a batch loaded while the one before it, which took the rows up to
# $3, is written (its deletes not committed yet).
PEEK_BATCHES = f"""
SELECT {", ".join(BATCH_COLUMNS)} FROM pending_read_batches
WHERE org_id = $1 AND id IN ({OLDEST_BATCHES})
ORDER BY id
"""
# Two steps down the queue's key, one either side of the organization's reads.
OTHERS_WAITING = """
SELECT EXISTS (SELECT 1 FROM pending_read_batches WHERE org_id < $1)
    OR EXISTS (SELECT 1 FROM pending_read_batches WHERE org_id > $1)
"""
TAKE_QUEUED = "DELETE FROM pending_read_batches WHERE org_id = $1 AND id = ANY($2::bigint[])"
PUT_BACK = f"""
INSERT INTO pending_read_batches ({", ".join(BATCH_COLUMNS)}, org_id)
VALUES ($1, $2, $3, $4, $5, $6)
"""


# The organization's next epoch, and this transaction's id as row versions show it (the
# `xmin` of the row it writes here, and of every row it writes).
BUMP_EPOCH = """
INSERT INTO processing_epochs AS p (org_id, epoch) VALUES ($1, 1)
ON CONFLICT (org_id) DO UPDATE SET epoch = p.epoch + 1
RETURNING p.epoch, p.xmin
"""


class StaleRows(Exception):
    """Rows a batch read changed (or went) before it wrote them: the batch is rolled back."""


@dataclass(frozen=True, slots=True)
class Epoch:
    """This organization's count of processing transactions, this one included, and the
    version (`xmin`) of the rows this transaction writes."""

    count: int
    version: int


@dataclass(slots=True)
class ReadRow:
    """A pending read as processing sees it: plain data, no ORM identity."""

    id: int
    endpoint_id: str
    tag: str
    antenna: int
    time: datetime
    rssi: float | None
    direction: str
    tamper: bool
    data: dict[str, Any]
    zone_id: str | None


@dataclass(slots=True)
class ThingRow:
    """The state columns of a thing while a batch works on it."""

    id: str
    org_id: str
    site_id: str
    zone_id: str | None
    last_event: datetime | None
    last_endpoint_time: datetime | None
    last_zone_time: datetime | None
    last_zone_read: datetime | None
    endpoint_id: str | None
    direction: str
    location_tag_id: str | None
    xy: list[float]
    map_id: str
    alarm_tamper: bool
    alarm_tamper_tag: str
    alarm_tamper_time: datetime | None
    data: dict[str, Any]
    version: int = 0  # xmin of the stored row
    stored: bool = True
    dirty: bool = False


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
    version: int = 0  # xmin of the stored row
    stored: bool = False
    dirty: bool = False
    # `time` as stored: the row's partition key.
    stored_time: datetime | None = None


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
    version: int = 0  # xmin of the stored row
    stored: bool = False
    dirty: bool = False


def queue_row(read: ReadRow) -> int:
    """The id of the queue row a queued read came from (see READS_PER_BATCH_ID)."""
    return read.id // READS_PER_BATCH_ID


def _unpacked(batch: Any, queued: Sequence[Read]) -> list[ReadRow]:
    """A queued batch's reads, each with an id that keeps their order in the queue."""
    first = batch["id"] * READS_PER_BATCH_ID
    endpoint_id = batch["endpoint_id"]
    return [
        ReadRow(
            first + n,
            endpoint_id,
            r.tag,
            r.antenna,
            r.time,
            r.rssi,
            r.direction or "",
            r.tamper,
            r.data,
            None,
        )
        for n, r in enumerate(queued)
    ]


def _check_all_updated(table: str, rows: Sequence[Any], updated: int) -> None:
    if updated != len(rows):
        raise StaleRows(f"{len(rows) - updated} of {len(rows)} {table} rows changed meanwhile")


def any_of(values: Iterable[str]) -> Any:
    """`= ANY(array)`: one parameter, one cached statement, however many values a batch has."""
    return func.any(sa_cast(list(values), ARRAY(String)))


def _split(rows: Iterable[Any]) -> tuple[list[Any], list[Any]]:
    """Rows of a batch to write: (new ones, stored ones it changed)."""
    created, changed = [], []
    for row in rows:
        if not row.stored:
            created.append(row)
        elif row.dirty:
            changed.append(row)
    return created, changed


def _as_text(kind: str, value: Any) -> str:
    if kind == "jsonb":
        return orjson.dumps(value).decode()
    return "{" + ",".join(repr(float(v)) for v in value) + "}"  # float8[]


def org_lock_key(org_id: str) -> int:
    """One advisory lock per organization: its reads are processed by one worker at a time."""
    return zlib.crc32(f"processing:{org_id}".encode())


class ProcessingRepository(Repository[PendingReadBatch]):
    model = PendingReadBatch

    async def lock_org(self, org_id: str) -> None:
        await self.session.execute(select(func.pg_advisory_xact_lock(org_lock_key(org_id))))

    async def start_batch(self, org_id: str) -> bool:
        """Take the organization's lock if no one else holds it (False when another worker
        has it), and let this transaction's commit return before its WAL reaches the disk.

        Safe for a batch of pending reads only: the reads were durable when they were
        acknowledged, and this transaction deletes them together with writing what they
        became. A crash within the fraction of a second before the WAL writer flushes loses
        the whole transaction, deletes included, so the reads are processed again, from
        the same state. Any later commit that waits for the disk (an ingest, a sweep, an
        edit that saw these rows) flushes the WAL up to itself, this commit included, so
        nothing that depends on the batch can outlive it.
        """
        # Through the session, which begins the transaction: on the driver's connection alone
        # it, and the statements after it, would run outside any transaction.
        sql = text(
            "SELECT pg_try_advisory_xact_lock(:key), set_config('synchronous_commit', 'off', true)"
        )
        locked = await self.session.scalar(sql, {"key": org_lock_key(org_id)})
        return bool(locked)

    async def next_epoch(self, org_id: str) -> Epoch:
        """Count this transaction as the organization's next epoch (see processing.state).

        Every transaction that processes reads of the organization counts, under its lock.
        """
        driver = await self._driver()
        count, version = await driver.fetchrow(BUMP_EPOCH, org_id)
        return Epoch(count, version)

    async def orgs_with_pending(self) -> list[str]:
        """Organizations with reads waiting: one step down the queue's key per
        organization (a skip scan), where DISTINCT read every pending read of a backlog."""
        rows = await self.session.execute(text(ORGS_WITH_PENDING))
        return list(rows.scalars())

    async def take_pending(self, org_id: str, limit: int, whole: bool = False) -> list[ReadRow]:
        """The oldest `limit` acknowledged reads, taken off the queue (the transaction puts
        them back if the batch fails), in queue order.

        Whole batches are taken; the reads of the last one past `limit` go back in its place,
        unless `whole`: then they are taken too, and the queue holds only later batches.
        """
        driver = await self._driver()
        taken = await driver.fetch(TAKE_BATCHES, org_id, limit, 0)
        taken.sort(key=lambda b: b["id"])
        reads: list[ReadRow] = []
        for batch in taken:
            queued = unpack_reads(batch["body"])
            reads += _unpacked(batch, queued)
        if len(reads) > limit and not whole:
            last = taken[-1]
            kept = len(reads) - limit
            back = pack_reads(queued[-kept:])
            await driver.execute(
                PUT_BACK, last["id"], last["endpoint_id"], kept, back, last["received_at"], org_id
            )
            del reads[limit:]
        return reads

    async def peek_pending(
        self, org_id: str, limit: int, after: int
    ) -> tuple[list[int], list[ReadRow]]:
        """The queue rows after row `after` that `take_pending` would take next (whole
        ones), and their reads in queue order, left on the queue."""
        driver = await self._driver()
        batches = await driver.fetch(PEEK_BATCHES, org_id, limit, after)
        reads: list[ReadRow] = []
        for batch in batches:
            reads += _unpacked(batch, unpack_reads(batch["body"]))
        return [batch["id"] for batch in batches], reads

    async def others_waiting(self, org_id: str) -> bool:
        driver = await self._driver()
        return bool(await driver.fetchval(OTHERS_WAITING, org_id))

    async def take_queued(self, org_id: str, ids: Sequence[int]) -> bool:
        """Take these queue rows off the queue: False when any of them is gone already."""
        driver = await self._driver()
        status = await driver.execute(TAKE_QUEUED, org_id, list(ids))
        return int(status.rsplit(" ", 1)[1]) == len(ids)

    async def endpoints(
        self, org_id: str, ids: Iterable[str], *, for_update: bool = True
    ) -> dict[str, Endpoint]:
        """The endpoints, locked for the batch's location tag reads to change (`for_update`)."""
        stmt = select(Endpoint).where(Endpoint.org_id == org_id, Endpoint.id.in_(list(ids)))
        if for_update:
            # FOR NO KEY UPDATE: a plain FOR UPDATE would also block the foreign-key checks
            # of ingest's inserts (ingest_batches) for the whole batch.
            stmt = stmt.with_for_update(key_share=True)
        return {row.id: row for row in await self.session.scalars(stmt)}

    async def endpoint_site(self, org_id: str, endpoint_id: str) -> str | None:
        stmt = select(Endpoint.site_id).where(Endpoint.org_id == org_id, Endpoint.id == endpoint_id)
        return await self.session.scalar(stmt)

    async def gates(self, org_id: str, endpoint_ids: Iterable[str]) -> list[ZoneGate]:
        stmt = (
            select(ZoneGate)
            .where(ZoneGate.org_id == org_id, ZoneGate.endpoint_id.in_(list(endpoint_ids)))
            .order_by(ZoneGate.zone_id, ZoneGate.position)
        )
        return list(await self.session.scalars(stmt))

    async def zones(self, org_id: str, ids: Iterable[str]) -> dict[str, Zone]:
        stmt = select(Zone).where(Zone.org_id == org_id, Zone.id.in_(list(ids)))
        return {row.id: row for row in await self.session.scalars(stmt)}

    async def location_tags(self, org_id: str, tags: Iterable[str]) -> dict[str, LocationTag]:
        stmt = select(LocationTag).where(
            LocationTag.org_id == org_id, LocationTag.tag == any_of(tags)
        )
        return {row.tag: row for row in await self.session.scalars(stmt)}

    async def location_tags_by_id(self, org_id: str, ids: Iterable[str]) -> dict[str, LocationTag]:
        stmt = select(LocationTag).where(
            LocationTag.org_id == org_id, LocationTag.id.in_(list(ids))
        )
        return {row.id: row for row in await self.session.scalars(stmt)}

    async def thing_ids_by_tag(self, org_id: str, tags: Iterable[str]) -> dict[str, str]:
        stmt = select(ThingTag.tag, ThingTag.thing_id).where(
            ThingTag.org_id == org_id, ThingTag.tag == any_of(tags)
        )
        return {tag: thing_id for tag, thing_id in (await self.session.execute(stmt)).all()}

    async def tag_prefixes(self, org_id: str, site_ids: Iterable[str]) -> dict[str, str]:
        """Each site's tag prefix (site settings orgTagPrefix), upper case, where set."""
        prefix = SiteSettings.settings["orgTagPrefix"].astext
        stmt = select(SiteSettings.site_id, prefix).where(
            SiteSettings.org_id == org_id,
            SiteSettings.site_id.in_(list(site_ids)),
            prefix.is_not(None),
            prefix != "",
        )
        rows = (await self.session.execute(stmt)).all()
        return {site_id: value.strip().upper() for site_id, value in rows}

    async def things_for_update(self, org_id: str, ids: Iterable[str]) -> dict[str, ThingRow]:
        columns = [getattr(Thing, name) for name in THING_STATE_COLUMNS]
        stmt: Select[Any] = (
            select(*columns, row_version("things"))
            .where(Thing.org_id == org_id, Thing.id == any_of(sorted(set(ids))))
            .order_by(Thing.id)
        )
        rows = await self.session.execute(stmt.with_for_update(of=Thing, key_share=True))
        return {row.id: ThingRow(*row) for row in rows}

    async def latest_events(
        self, org_id: str, keys: Iterable[FoldKey], since: datetime
    ) -> dict[FoldKey, EventRow]:
        """The newest event since `since` of each (endpoint, antenna, tag): the one a read
        may fold into.

        One backward step down ix_events_fold per key (a lateral join over the keys): an
        IN list of thousands of tuples with DISTINCT ON reads every event of those keys.
        `since` keeps the step to the partitions of recent months.
        """
        wanted = list(set(keys))
        if not wanted:
            return {}
        endpoint_ids, antennas, tags = (list(column) for column in zip(*wanted, strict=True))
        keyed = select(
            func.unnest(
                sa_cast(endpoint_ids, ARRAY(String)),
                sa_cast(antennas, ARRAY(Integer)),
                sa_cast(tags, ARRAY(String)),
            )
            .table_valued("endpoint_id", "antenna", "tag")
            .render_derived(with_types=False)
        ).subquery("wanted")
        columns = [getattr(Event, name) for name in EVENT_COLUMNS]
        newest = (
            select(*columns, row_version("events"))
            .where(
                Event.org_id == org_id,
                Event.endpoint_id == keyed.c.endpoint_id,
                Event.antenna == keyed.c.antenna,
                Event.tag == keyed.c.tag,
                Event.time >= since,
            )
            .order_by(Event.time.desc())
            .limit(1)
            .lateral("newest")
        )
        stmt = select(newest).select_from(keyed).join(newest, true())
        latest = {}
        for row in (await self.session.execute(stmt)).mappings():
            event = EventRow(**row, stored=True, stored_time=row["time"])
            latest[(event.endpoint_id or "", event.antenna, event.tag)] = event
        return latest

    async def open_visits(self, org_id: str, thing_ids: Iterable[str]) -> dict[str, VisitRow]:
        """Each thing's open visit. The things' rows are locked (FOR UPDATE) by the caller,
        or, kept from an earlier batch, written only if still that version: that is what
        keeps a thing to one open visit, since the index cannot be unique."""
        columns = [getattr(ZoneDuration, name) for name in VISIT_COLUMNS]
        stmt = select(*columns, row_version("zone_durations")).where(
            ZoneDuration.org_id == org_id,
            ZoneDuration.thing_id == any_of(thing_ids),
            ZoneDuration.time_end.is_(None),
        )
        rows = (await self.session.execute(stmt)).mappings()
        return {row["thing_id"]: VisitRow(**row, stored=True) for row in rows}

    async def write_events(self, events: Iterable[EventRow]) -> None:
        """Events, and their sites' hour counts (event_counts) in the same transaction: one
        more in a new event's hour, and a folded event whose Last Seen (its `time`) moved
        into another hour moves from the one to the other."""
        created, changed = _split(events)
        if not created and not changed:
            return
        [org_id, *others] = {row.org_id for row in created + changed}
        if others:
            raise ValueError("events of several organizations in one batch")
        counts: Counter[tuple[str, datetime]] = Counter()
        if changed:
            # Only the rows the update did change, as it changed them: the hours they left.
            update, arguments = self._update_sql(
                "events", EVENT_KEY, EVENT_CHANGES, changed, partition_key="time"
            )
            moved = "date_trunc('hour', was, 'UTC') <> date_trunc('hour', time, 'UTC')"
            sql = (
                f"WITH changed AS ({update} RETURNING t.site_id, v.key_time AS was, t.time) "
                f"SELECT count(*), array_agg(site_id) FILTER (WHERE {moved}), "
                f"array_agg(was) FILTER (WHERE {moved}), array_agg(time) FILTER (WHERE {moved}) "
                "FROM changed"
            )
            driver = await self._driver()
            async with as_dbapi_error(sql):
                done, sites, was, now = await driver.fetchrow(sql, *arguments)
            _check_all_updated("events", changed, done)
            for site_id, before, after in zip(sites or (), was or (), now or (), strict=True):
                counts[(site_id, hour_of(before))] -= 1
                counts[(site_id, hour_of(after))] += 1
        await self._copy("events", EVENT_COLUMNS, created)
        for event in created:
            counts[(event.site_id, hour_of(event.time))] += 1
        await self._count_events(org_id, counts)

    async def _count_events(self, org_id: str, counts: Counter[tuple[str, datetime]]) -> None:
        """Add to the hour counts in one statement (its rows locked in key order)."""
        added = sorted((key, n) for key, n in counts.items() if n)
        if not added:
            return
        driver = await self._driver()
        async with as_dbapi_error(ADD_EVENT_COUNTS):
            await driver.execute(
                ADD_EVENT_COUNTS,
                org_id,
                [site_id for (site_id, _), _ in added],
                [hour for (_, hour), _ in added],
                [n for _, n in added],
            )

    async def write_visits(self, visits: Iterable[VisitRow]) -> None:
        await self._write(
            "zone_durations", VISIT_COLUMNS, VISIT_KEY, VISIT_CHANGES, visits, "time_start"
        )

    async def write_things(self, things: Iterable[ThingRow]) -> None:
        """State of stored things; new things are inserted first by `enroll`."""
        changed = [t for t in things if t.stored and t.dirty]
        await self._update("things", THING_KEY, THING_CHANGES, changed, modified=True)

    async def enroll(self, things: Sequence[ThingRow], tags: dict[str, str]) -> None:
        """Auto-enrolled things: an item named by its tag, with its state so far."""
        if not things:
            return
        now = utcnow()
        rows = []
        for thing in things:
            values = {name: getattr(thing, name) for name in THING_STATE_COLUMNS}
            tag = tags[thing.id]
            rows.append(
                values
                | {"thing_class": "item", "name": tag, "tag1": tag}
                | {"time_created": now, "time_modified": now}
            )
        await self.session.execute(insert(Thing), rows)
        await self.session.execute(
            insert(ThingTag),
            [{"org_id": t.org_id, "tag": tags[t.id], "thing_id": t.id} for t in things],
        )

    async def _write(
        self,
        table: str,
        columns: tuple[str, ...],
        key: tuple[tuple[str, str, str], ...],
        changes: dict[str, str],
        rows: Iterable[Any],
        partition_key: str,
    ) -> None:
        """Changed rows in one set-based update, then new ones with one COPY.

        Updates go first: a closed visit must be closed before the thing's next one opens.
        """
        created, changed = _split(rows)
        await self._update(table, key, changes, changed, partition_key=partition_key)
        await self._copy(table, columns, created)

    async def _copy(self, table: str, columns: tuple[str, ...], rows: Sequence[Any]) -> None:
        if not rows:
            return
        values = attrgetter(*columns)
        records: list[Any] = [values(row) for row in rows]
        encoded = [n for n, column in enumerate(columns) if column in JSON_COLUMNS]
        if encoded:
            records = [list(record) for record in records]
            for record in records:
                for n in encoded:
                    record[n] = orjson.dumps(record[n]).decode()
        driver = await self._driver()
        async with as_dbapi_error(f"COPY {table}"):
            await driver.copy_records_to_table(table, records=records, columns=columns)

    async def _update(
        self,
        table: str,
        key: tuple[tuple[str, str, str], ...],
        changes: dict[str, str],
        rows: Sequence[Any],
        *,
        partition_key: str = "",
        modified: bool = False,
    ) -> None:
        if not rows:
            return
        sql, arguments = self._update_sql(
            table, key, changes, rows, partition_key=partition_key, modified=modified
        )
        driver = await self._driver()
        async with as_dbapi_error(sql):
            status = await driver.execute(sql, *arguments)
        _check_all_updated(table, rows, int(status.rsplit(" ", 1)[1]))

    @staticmethod
    def _update_sql(
        table: str,
        key: tuple[tuple[str, str, str], ...],
        changes: dict[str, str],
        rows: Sequence[Any],
        *,
        partition_key: str = "",
        modified: bool = False,
    ) -> tuple[str, list[Any]]:
        """`UPDATE table AS t ... FROM unnest(...) AS v` of the rows, and its arguments."""
        [org_id, *others] = {row.org_id for row in rows}
        if others:
            raise ValueError(f"{table} rows of several organizations in one update")
        names = list(changes)
        arrays: list[Any] = [org_id]
        arrays += [list(map(attrgetter(attribute), rows)) for _, _, attribute in key]
        for name in names:
            values = list(map(attrgetter(name), rows))
            kind = changes[name]
            arrays.append([_as_text(kind, v) for v in values] if kind in TEXT_KINDS else values)
        kinds = [kind for _, kind, _ in key] + [
            "text" if changes[name] in TEXT_KINDS else changes[name] for name in names
        ]
        casts = [f"${n}::{kind}[]" for n, kind in enumerate(kinds, start=2)]
        assignments = [f"{name} = v.{name}::{changes[name]}" for name in names]
        if modified:
            assignments.append("time_modified = now()")
        aliases = [f"key_{column}" for column, _, _ in key]
        matches = ["t.org_id = $1"] + [f"t.{column} = v.key_{column}" for column, _, _ in key]
        if partition_key:
            # The batch's range of the partition key, as constants the planner prunes by:
            # without it a join costs a probe of every partition per row, and the planner
            # would rather scan them all.
            kind, attribute = next((k, a) for c, k, a in key if c == partition_key)
            stored = [getattr(row, attribute) for row in rows]
            arrays += [min(stored), max(stored)]
            low, high = len(arrays) - 1, len(arrays)
            matches.append(f"t.{partition_key} BETWEEN ${low}::{kind} AND ${high}::{kind}")
        sql = (
            f"UPDATE {table} AS t SET {', '.join(assignments)} "
            f"FROM unnest({', '.join(casts)}) AS v({', '.join(aliases + names)}) "
            f"WHERE {' AND '.join(matches)}"
        )
        return sql, arrays

    async def expired_residents(self, now: datetime, limit: int) -> list[tuple[ThingRow, Zone]]:
        """Things not read in their zone for longer than the zone's kill delay."""
        deadline = Thing.last_zone_read + func.make_interval(
            0, 0, 0, 0, 0, 0, Zone.kill_duration * 3600
        )
        columns = [getattr(Thing, name) for name in THING_STATE_COLUMNS]
        stmt = (
            select(*columns, row_version("things"), Zone)
            .join(Zone, (Zone.org_id == Thing.org_id) & (Zone.id == Thing.zone_id))
            .where(Zone.kill_duration > 0, Thing.last_zone_read.is_not(None), deadline <= now)
            .order_by(Thing.id)
            .limit(limit)
            .with_for_update(of=Thing, skip_locked=True)
        )
        return [(ThingRow(*row[:-1]), row[-1]) for row in await self.session.execute(stmt)]

    async def overstays(
        self, now: datetime, since: timedelta, limit: int
    ) -> list[tuple[ZoneDuration, Zone]]:
        """Visits longer than their zone's alert time that have no exception yet."""
        length = func.coalesce(ZoneDuration.time_end, now) - ZoneDuration.time_start
        length_ns = func.extract("epoch", length) * 1e9
        stmt = (
            select(ZoneDuration, Zone)
            .join(Zone, (Zone.org_id == ZoneDuration.org_id) & (Zone.id == ZoneDuration.zone_id))
            .where(
                Zone.duration > 0,
                ZoneDuration.time_start >= now - since,
                length_ns > Zone.duration,
                ~select(TrackingException.id)
                .where(
                    TrackingException.org_id == ZoneDuration.org_id,
                    TrackingException.zone_duration_id == ZoneDuration.id,
                )
                .exists(),
            )
            .order_by(ZoneDuration.time_start)
            .limit(limit)
        )
        return [(visit, zone) for visit, zone in (await self.session.execute(stmt)).all()]

    async def thing_names(self, keys: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
        """Names by (org_id, thing id)."""
        wanted = list(set(keys))
        if not wanted:
            return {}
        stmt = select(Thing.org_id, Thing.id, Thing.name).where(
            tuple_(Thing.org_id, Thing.id).in_(wanted)
        )
        rows = (await self.session.execute(stmt)).all()
        return {(org_id, thing_id): name for org_id, thing_id, name in rows}

    async def purge_before(self, raw_before: datetime, batches_before: datetime) -> None:
        await self.session.execute(delete(RawPayload).where(RawPayload.received_at < raw_before))
        await self.session.execute(
            delete(IngestBatch).where(IngestBatch.received_at < batches_before)
        )
