"""The base every repository builds on: a session and the common writes."""

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Generic, TypeVar

import asyncpg
from sqlalchemy import Select, select, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.ext.asyncio import AsyncSession, AsyncSessionTransaction

from tagtrack.models.base import Base
from tagtrack.models.site import Site

M = TypeVar("M", bound=Base)


@asynccontextmanager
async def as_dbapi_error(statement: str) -> AsyncIterator[None]:
    """Errors of the raw driver as SQLAlchemy raises them, so callers tell bad data from a lost
    database the same way whichever path wrote it."""
    try:
        yield
    except asyncpg.PostgresError as exc:
        raise DBAPIError(statement, None, exc) from exc


class Repository(Generic[M]):
    model: type[M]

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(self, row: M) -> M:
        self.session.add(row)
        await self.session.flush()
        return row

    async def flush(self) -> None:
        """Write the transaction's pending changes now."""
        await self.session.flush()

    def savepoint(self) -> AsyncSessionTransaction:
        """A nested transaction: what fails inside it is undone alone."""
        return self.session.begin_nested()

    async def delete(self, row: M) -> None:
        await self.session.delete(row)
        await self.session.flush()

    async def plan_for_these_values(self) -> None:
        """Plan this transaction's statements for the values they carry, every time: a
        cached generic plan is chosen without them (a batch's time range or tags) and may
        read far more than the values need."""
        await self.session.execute(text("SET LOCAL plan_cache_mode = force_custom_plan"))

    async def _driver(self) -> asyncpg.Connection:
        """The transaction's asyncpg connection: COPY, and fast paths with no SQLAlchemy rows."""
        connection = await self.session.connection()
        raw = await connection.get_raw_connection()
        return raw.driver_connection

    async def plain_rows(
        self, stmt: Select[Any], values: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Rows as dicts by column label, for a response model to read in one call (reading
        a row's columns one attribute at a time costs more than the query's own work)."""
        result = await self.session.execute(stmt, values)
        keys = tuple(result.keys())
        return [dict(zip(keys, row, strict=True)) for row in result]

    async def exists(self, stmt: Select[Any]) -> bool:
        return (await self.session.execute(stmt.limit(1))).first() is not None

    async def timezones(self, org_id: str, site_ids: Sequence[str] | None) -> list[str]:
        """The time zones of these sites (None: every site of the organization), sorted."""
        stmt = select(Site.timezone).distinct().where(Site.org_id == org_id)
        if site_ids is not None:
            stmt = stmt.where(Site.id.in_(list(site_ids)))
        return sorted((await self.session.execute(stmt)).scalars())

    async def chunks(self, stmt: Select[Any], size: int) -> AsyncIterator[Sequence[Any]]:
        """The rows of a long query a chunk at a time, fetched as they are read (exports)."""
        result = await self.session.stream(stmt.execution_options(yield_per=size))
        async for chunk in result.partitions(size):
            yield chunk

    async def tuple_chunks(self, stmt: Select[Any], size: int) -> AsyncIterator[Sequence[Any]]:
        """Like `chunks`, for plain columns, through the session's connection: without the
        ORM's per-row work, reading the rows of an export takes about half the CPU time."""
        connection = await self.session.connection()
        result = await connection.stream(stmt.execution_options(yield_per=size))
        async for chunk in result.partitions(size):
            yield chunk
