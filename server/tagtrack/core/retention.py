"""History retention: an organization keeps its events and zone visits for its
`history_retention_days` (0 keeps them forever).

A month's partition is dropped whole once every organization with rows in it lets them go;
one that keeps history forever holds it. An organization that keeps less than the others
in a partition has its older rows deleted in bounded batches instead. Open visits are never
removed. Each step is its own short transaction under an advisory lock, so processes running
the job at once take turns, and a long backlog is worked off over several runs.
"""

import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.logging import get_logger
from tagtrack.core.partitions import HISTORY_TABLES, LOCK_TIMEOUT, Partition, partitions
from tagtrack.models import Organization

log = get_logger("tagtrack.retention")

RETENTION_LOCK = 7_345_004
BATCH = 5000
# One run's share of the worker's time; what is left is done at the next run.
BUDGET_SECONDS = 20.0

# The distinct organizations of a partition, one index step each (its primary key leads
# with org_id) instead of reading every row.
ORGS_IN = """
WITH RECURSIVE orgs AS (
    (SELECT org_id FROM {name} ORDER BY org_id LIMIT 1)
    UNION ALL
    SELECT (SELECT p.org_id FROM {name} p WHERE p.org_id > orgs.org_id ORDER BY p.org_id LIMIT 1)
    FROM orgs WHERE orgs.org_id IS NOT NULL
)
SELECT org_id FROM orgs WHERE org_id IS NOT NULL
"""
# An organization's rows older than its retention, a batch at a time, oldest first: the
# time of the batch's newest row is found first, then the rows up to it are deleted by a
# range of the partition key (an index range in only the partitions concerned). Visits
# closed before the cutoff only: open visits, and those still running then, are kept.
OLD_ROWS = {
    "events": "org_id = :org AND time < :cutoff",
    "zone_durations": "org_id = :org AND time_start < :cutoff AND time_end < :cutoff",
}
BATCH_END = "SELECT {key} FROM {table} WHERE {old} ORDER BY {key} OFFSET :skip LIMIT 1"
UP_TO = " AND {key} <= :upto"
# The rows deleted, counted; deleted events are taken off their hours' counts in the same
# statement (event_counts, kept exact by every writer of events).
DELETE = {
    "events": """
WITH gone AS (DELETE FROM events WHERE {old}{upto} RETURNING site_id, time),
hours AS (
    SELECT site_id, date_trunc('hour', time, 'UTC') AS hour, count(*) AS events FROM gone
    GROUP BY site_id, date_trunc('hour', time, 'UTC')
),
taken AS (
    UPDATE event_counts AS c SET events = c.events - h.events FROM hours AS h
    WHERE c.org_id = :org AND c.site_id = h.site_id AND c.hour = h.hour
)
SELECT coalesce(sum(events), 0) FROM hours
""",
    "zone_durations": """
WITH gone AS (DELETE FROM zone_durations WHERE {old}{upto} RETURNING 1)
SELECT count(*) FROM gone
""",
}
# Hours emptied by the deletes above, once an organization's old events are all gone.
EMPTY_HOURS = "DELETE FROM event_counts WHERE org_id = :org AND hour < :cutoff AND events = 0"
# A dropped month's hours, of the organizations that had events in it.
DROPPED_HOURS = """
DELETE FROM event_counts WHERE org_id = ANY(:orgs) AND hour >= :start AND hour < :end
"""


@dataclass
class RetentionOutcome:
    dropped: list[str] = field(default_factory=list)
    # (table, organization) -> rows deleted
    deleted: dict[tuple[str, str], int] = field(default_factory=dict)
    # False when time ran out or another process holds the job: run again soon.
    finished: bool = True


async def _locked(session: AsyncSession) -> bool:
    row = await session.execute(text("SELECT pg_try_advisory_xact_lock(:key)"),
                                {"key": RETENTION_LOCK})  # fmt: skip
    return bool(row.scalar_one())


async def _retention_days(session: AsyncSession) -> dict[str, int]:
    rows = await session.execute(select(Organization.id, Organization.history_retention_days))
    return {org_id: days for org_id, days in rows.all()}


async def _orgs_in(session: AsyncSession, partition: Partition) -> set[str]:
    rows = await session.execute(text(ORGS_IN.format(name=partition.name)))
    return {org_id for (org_id,) in rows}


async def _has_open_visits(session: AsyncSession, partition: Partition) -> bool:
    if partition.table != "zone_durations":
        return False
    stmt = text(f"SELECT EXISTS (SELECT 1 FROM {partition.name} WHERE time_end IS NULL)")
    return bool((await session.execute(stmt)).scalar_one())


def may_drop(
    partition: Partition, owners: set[str], retention: dict[str, int], now: datetime
) -> bool:
    """Every organization with rows in the partition lets the whole month go. An empty one
    goes once it is older than the longest retention of any organization."""
    days = [retention[org] for org in owners if org in retention]
    if not owners:
        days = [d for d in retention.values() if d > 0]
    if not days or 0 in days:
        return False
    return partition.end <= now - timedelta(days=max(days))


async def _drop_partitions(
    sessionmaker: async_sessionmaker[AsyncSession],
    table: str,
    retention: dict[str, int],
    now: datetime,
    outcome: RetentionOutcome,
) -> None:
    async with sessionmaker() as session:
        candidates = [p for p in await partitions(session, table) if p.end <= now]

    async def droppable(session: AsyncSession, partition: Partition) -> set[str] | None:
        """The partition's organizations when it may go, else None."""
        owners = await _orgs_in(session, partition)
        if not may_drop(partition, owners, retention, now):
            return None
        return None if await _has_open_visits(session, partition) else owners

    for partition in candidates:
        async with sessionmaker() as session:
            if await droppable(session, partition) is None:
                continue
        async with sessionmaker() as session, session.begin():
            if not await _locked(session):
                outcome.finished = False
                return
            await session.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
            # Locked, then looked at again: rows may have arrived since (late reads).
            await session.execute(text(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE"))
            owners = await droppable(session, partition)
            if owners is None:
                continue
            await session.execute(text(f"DROP TABLE {partition.name}"))
            if table == "events" and owners:
                await session.execute(
                    text(DROPPED_HOURS),
                    {"orgs": sorted(owners), "start": partition.start, "end": partition.end},
                )
        outcome.dropped.append(partition.name)
        log.info(
            "dropped partition",
            partition=partition.name,
            start=str(partition.start.date()),
            end=str(partition.end.date()),
            organizations=sorted(owners),
        )


async def _delete_old_rows(
    sessionmaker: async_sessionmaker[AsyncSession],
    retention: dict[str, int],
    now: datetime,
    deadline: float,
    outcome: RetentionOutcome,
) -> None:
    for org_id, days in sorted(retention.items()):
        if days <= 0:
            continue
        cutoff = now - timedelta(days=days)
        for table, key in HISTORY_TABLES.items():
            sql = {"key": key, "table": table, "old": OLD_ROWS[table]}
            values = {"org": org_id, "cutoff": cutoff}
            while True:
                if time.monotonic() > deadline:
                    outcome.finished = False
                    return
                async with sessionmaker() as session, session.begin():
                    if not await _locked(session):
                        outcome.finished = False
                        return
                    upto = await session.scalar(
                        text(BATCH_END.format(**sql)), {**values, "skip": BATCH - 1}
                    )
                    bounded = "" if upto is None else UP_TO.format(**sql)
                    count = int(
                        await session.scalar(
                            text(DELETE[table].format(**sql, upto=bounded)),
                            {**values, "upto": upto} if bounded else values,
                        )
                        or 0
                    )
                    if table == "events" and upto is None:
                        await session.execute(text(EMPTY_HOURS), values)
                if count:
                    deleted = (table, org_id)
                    outcome.deleted[deleted] = outcome.deleted.get(deleted, 0) + count
                if upto is None:
                    break


async def apply_retention(
    sessionmaker: async_sessionmaker[AsyncSession],
    now: datetime,
    budget_seconds: float = BUDGET_SECONDS,
) -> RetentionOutcome:
    """Drop the partitions every owner lets go, then delete older rows organization by
    organization, for at most about `budget_seconds`."""
    deadline = time.monotonic() + budget_seconds
    outcome = RetentionOutcome()
    async with sessionmaker() as session:
        retention = await _retention_days(session)
    for table in HISTORY_TABLES:
        await _drop_partitions(sessionmaker, table, retention, now, outcome)
        if not outcome.finished:
            return outcome
    try:
        await _delete_old_rows(sessionmaker, retention, now, deadline, outcome)
    finally:
        for (table, org_id), count in sorted(outcome.deleted.items()):
            log.info(
                "deleted old rows",
                table=table,
                rows=count,
                older_than_days=retention[org_id],
                org=org_id,
            )
    return outcome
