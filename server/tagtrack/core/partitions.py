"""Monthly partitions of the history tables: events by `time`, zone durations by `time_start`.

Each table has one partition per calendar month (UTC), named `<table>_pYYYY_MM`, and a
DEFAULT partition that takes any row outside them (a reader with a wrong clock), so a write
never fails for its time. Partitions are made a few months ahead, at start and from the
periodic sweep. A month that has rows in DEFAULT gets its partition with those rows moved
in: PostgreSQL refuses to attach a partition whose range DEFAULT still holds rows of.
"""

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import TextClause, text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession, async_sessionmaker

from tagtrack.core.logging import get_logger

log = get_logger("tagtrack.partitions")

# Partitioned table -> its partition key.
HISTORY_TABLES = {"events": "time", "zone_durations": "time_start"}
MONTHS_AHEAD = 3
# Rows found in DEFAULT within this many years of now get their month's partition; rows
# farther off (a clock set to 1970) stay in DEFAULT.
ADOPT_YEARS = 10
# Partition maintenance runs in one process at a time.
MAINTENANCE_LOCK = 7_345_003
# So does vacuuming them (held by a connection, not a transaction: VACUUM runs outside one).
VACUUM_LOCK = 7_345_005
# A DDL lock queue blocks readers behind it: give up and try again at the next sweep.
LOCK_TIMEOUT = "5s"
_NAME = re.compile(r"^(?P<table>\w+)_p(?P<year>\d{4})_(?P<month>\d{2})$")


def month_start(moment: datetime) -> datetime:
    return moment.astimezone(UTC).replace(day=1, hour=0, minute=0, second=0, microsecond=0)


def add_months(start: datetime, months: int) -> datetime:
    index = start.year * 12 + start.month - 1 + months
    return start.replace(year=index // 12, month=index % 12 + 1)


def partition_name(table: str, start: datetime) -> str:
    return f"{table}_p{start:%Y_%m}"


@dataclass(frozen=True)
class Partition:
    table: str
    name: str
    start: datetime

    @property
    def end(self) -> datetime:
        return add_months(self.start, 1)


async def partitions(connection: AsyncConnection | AsyncSession, table: str) -> list[Partition]:
    """The monthly partitions of a history table, oldest first (DEFAULT not included)."""
    rows = await connection.execute(
        text(
            "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = CAST(:table AS regclass)"
        ),
        {"table": table},
    )
    found = []
    for (name,) in rows:
        match = _NAME.match(name)
        if match and match["table"] == table:
            start = datetime(int(match["year"]), int(match["month"]), 1, tzinfo=UTC)
            found.append(Partition(table, name, start))
    return sorted(found, key=lambda p: p.start)


async def _stray_months(session: AsyncSession, table: str, now: datetime) -> set[datetime]:
    """Months that DEFAULT holds rows of, within ADOPT_YEARS of now."""
    column = HISTORY_TABLES[table]
    rows = await session.execute(
        text(
            f"SELECT DISTINCT date_trunc('month', {column}, 'UTC') FROM {table}_default "
            f"WHERE {column} >= :low AND {column} < :high"
        ),
        {"low": add_months(month_start(now), -12 * ADOPT_YEARS),
         "high": add_months(month_start(now), 12 * ADOPT_YEARS)},
    )  # fmt: skip
    return {month_start(month) for (month,) in rows}


async def create_partition(session: AsyncSession, table: str, start: datetime) -> None:
    """Attach the month's partition, moving into it the rows DEFAULT holds for it.

    Made as a plain table and attached, which locks the parent only against other DDL;
    `CREATE TABLE ... PARTITION OF` would lock out every reader of the table meanwhile.
    """
    column = HISTORY_TABLES[table]
    name = partition_name(table, start)
    end = add_months(start, 1)
    await session.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
    await session.execute(text(f"LOCK TABLE {table} IN SHARE UPDATE EXCLUSIVE MODE"))
    await session.execute(text(f"LOCK TABLE {table}_default IN ACCESS EXCLUSIVE MODE"))
    await session.execute(text(f"CREATE TABLE {name} (LIKE {table} INCLUDING DEFAULTS)"))
    moved = await session.execute(
        text(
            f"WITH moved AS (DELETE FROM {table}_default "
            f"WHERE {column} >= :start AND {column} < :end RETURNING *) "
            f"INSERT INTO {name} SELECT * FROM moved"
        ),
        {"start": start, "end": end},
    )
    await session.execute(
        text(
            f"ALTER TABLE {table} ATTACH PARTITION {name} "
            f"FOR VALUES FROM ('{start.isoformat()}') TO ('{end.isoformat()}')"
        )
    )
    count = getattr(moved, "rowcount", 0)
    if count:
        log.info("created partition", partition=name, rows_moved=count, source=f"{table}_default")
    else:
        log.info("created partition", partition=name)


async def ensure_partitions(
    sessionmaker: async_sessionmaker[AsyncSession],
    now: datetime,
    months_ahead: int = MONTHS_AHEAD,
) -> list[str]:
    """Partitions for this month and `months_ahead` more, and for months stranded in
    DEFAULT; the names created. Safe to run from several processes at once."""
    created = []
    for table in HISTORY_TABLES:
        async with sessionmaker() as session, session.begin():
            have = {p.start for p in await partitions(session, table)}
            first = month_start(now)
            wanted = {add_months(first, n) for n in range(months_ahead + 1)}
            wanted |= await _stray_months(session, table, now)
            missing = sorted(wanted - have)
        for start in missing:
            async with sessionmaker() as session, session.begin():
                await session.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                      {"key": MAINTENANCE_LOCK})  # fmt: skip
                # Another process may have made it while this one waited.
                if start in {p.start for p in await partitions(session, table)}:
                    continue
                await create_partition(session, table, start)
                created.append(partition_name(table, start))
    return created


def _history_partitions_where(condition: str) -> TextClause:
    """The names of the history partitions whose class (c) and statistics (s) meet
    `condition`, the parents bound as :parents."""
    return text(
        f"""
        SELECT c.relname FROM pg_inherits i
        JOIN pg_class c ON c.oid = i.inhrelid
        JOIN pg_stat_user_tables s ON s.relid = c.oid
        WHERE i.inhparent = ANY(CAST(:parents AS regclass[])) AND ({condition})
        ORDER BY c.relname
        """
    )


async def _partitions_matching(
    executor: AsyncSession | AsyncConnection, query: TextClause, floor: int, fraction: float
) -> list[str]:
    params = {"parents": list(HISTORY_TABLES), "floor": floor, "fraction": fraction}
    return list((await executor.scalars(query, params)).all())


# A partition is analyzed again once its rows grew by this many plus a tenth of those its
# statistics counted (PostgreSQL's autoanalyze rule, with a higher floor), by its live rows:
# updates, which processing makes of nearly every read that repeats, leave the planner's
# estimates as they were, and counted as changes they had a busy month's partition analyzed
# every two seconds. And at once when its statistics say it has no pages while its file has
# some: PostgreSQL's row counts reach the statistics views seconds late, and until then the
# planner takes the partition for empty. With statistics of a partition that has pages, it
# scales their rows by the file's size.
STATS_MIN_ROWS = 1_000
STATS_FRACTION = 0.1
_GROWN = _history_partitions_where(
    "s.n_live_tup >= :floor + (1 + :fraction) * greatest(c.reltuples, 0)"
    " OR (c.relpages = 0 AND pg_relation_size(c.oid) > 0)"
)


async def analyze_grown_partitions(sessionmaker: async_sessionmaker[AsyncSession]) -> list[str]:
    """ANALYZE the history partitions that grew much since their last statistics; their
    names. The Events page walks today's events newest first only while the planner knows
    the month's partition holds many rows: with the statistics of an empty partition (a new
    month, or a database whose autovacuum is off or behind) it sorts the whole day instead,
    hundreds of milliseconds a poll at 100,000 events. Autovacuum checks once a minute;
    processing adds up to tens of thousands of rows a second."""
    async with sessionmaker() as session, session.begin():
        # One process at a time; another one already at it does the same work.
        locked = await session.scalar(
            text("SELECT pg_try_advisory_xact_lock(:key)"), {"key": MAINTENANCE_LOCK}
        )
        if not locked:
            return []
        await session.execute(text(f"SET LOCAL lock_timeout = '{LOCK_TIMEOUT}'"))
        analyzed = await _partitions_matching(session, _GROWN, STATS_MIN_ROWS, STATS_FRACTION)
        for name in analyzed:
            await session.execute(text(f'ANALYZE "{name}"'))
    if analyzed:
        log.info("analyzed grown partitions", partitions=analyzed)
    return analyzed


# A partition is vacuumed once this many dead row versions, plus a fifth of its rows, wait
# there: PostgreSQL's autovacuum rule, with a higher floor.
VACUUM_MIN_ROWS = 10_000
VACUUM_FRACTION = 0.2
_BLOATED = _history_partitions_where(
    "s.n_dead_tup >= :floor + :fraction * greatest(c.reltuples, 0)"
)


async def vacuum_bloated_partitions(sessionmaker: async_sessionmaker[AsyncSession]) -> list[str]:
    """VACUUM the history partitions where many dead row versions wait; their names.

    Processing updates an event for nearly every read that repeats, and each update leaves
    the old version in the partition and in its indexes, newest first, where the Events page
    reads: at 10,000 reads a second a month's partition holds millions within minutes, and
    processing and the page slow down with them. Autovacuum, where it is on and keeps up,
    has done it first; a partition it is vacuuming is skipped."""
    async with sessionmaker() as session:
        connection = await session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        lock = {"key": VACUUM_LOCK}
        if not await connection.scalar(text("SELECT pg_try_advisory_lock(:key)"), lock):
            return []
        try:
            vacuumed = await _partitions_matching(
                connection, _BLOATED, VACUUM_MIN_ROWS, VACUUM_FRACTION
            )
            for name in vacuumed:
                await connection.execute(text(f'VACUUM (SKIP_LOCKED) "{name}"'))
        finally:
            await connection.execute(text("SELECT pg_advisory_unlock(:key)"), lock)
    if vacuumed:
        log.info("vacuumed history partitions", partitions=vacuumed)
    return vacuumed


async def ensure_partitions_logged(
    sessionmaker: async_sessionmaker[AsyncSession], now: datetime
) -> None:
    """ensure_partitions for start-up and the sweep: a failure is logged, and retried later
    (rows outside the partitions still go to DEFAULT meanwhile)."""
    try:
        await ensure_partitions(sessionmaker, now)
    except Exception:
        log.exception("creating history partitions failed; trying again at the next sweep")
