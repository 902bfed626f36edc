"""An HTTP worker's database pool, filled before its first request."""

import os

from sqlalchemy import text
from sqlalchemy.engine import make_url

from tagtrack.core.db import ROOM, create_engine, fill_pool
from tagtrack.main import _prepare_statements

PREPARED_EVENTS_PAGE = """
SELECT count(*) FROM pg_prepared_statements
WHERE statement LIKE '%FROM events%' AND statement LIKE '%LIMIT%'
  AND statement NOT LIKE '%pg_prepared_statements%'
"""
POOL = 4


async def test_the_pool_opens_every_connection_with_the_events_page_prepared(
    database_url: str,
) -> None:
    engine = create_engine(database_url, pool_size=POOL)
    try:
        assert await fill_pool(engine, _prepare_statements) == POOL
        assert engine.pool.checkedin() == POOL  # type: ignore[attr-defined]

        # Each connection the pool hands out already has the page's statements.
        connections = [await engine.connect() for _ in range(POOL)]
        try:
            prepared = [
                await connection.scalar(text(PREPARED_EVENTS_PAGE)) for connection in connections
            ]
        finally:
            for connection in connections:
                await connection.close()
        assert engine.pool.checkedin() == POOL  # type: ignore[attr-defined]
        assert all(count and count > 0 for count in prepared), prepared
    finally:
        await engine.dispose()


async def test_workers_filling_their_pools_together_leave_the_database_half_its_room(
    database_url: str,
) -> None:
    engine = create_engine(database_url, pool_size=POOL)
    try:
        async with engine.connect() as connection:
            room = await connection.scalar(ROOM)
        # So many workers that their share is less than a connection: each opens one.
        assert await fill_pool(engine, _prepare_statements, workers=room) == 1
        assert engine.pool.checkedin() == 1  # type: ignore[attr-defined]
    finally:
        await engine.dispose()

    # A pool as large as the room: two workers take a quarter of it each, not the pool.
    engine = create_engine(database_url, pool_size=room)
    try:
        assert 1 <= await fill_pool(engine, _prepare_statements, workers=2) < room // 2
    finally:
        await engine.dispose()


async def test_a_database_that_refuses_connections_leaves_them_for_later(
    database_url: str,
) -> None:
    role = f"tagtrack_limited_{os.getpid()}"
    admin = create_engine(database_url)
    async with admin.connect() as connection:
        await connection.execute(text(f"CREATE ROLE {role} LOGIN CONNECTION LIMIT 3"))
        await connection.commit()
    limited_url = make_url(database_url).set(username=role, password=None)
    limited = create_engine(limited_url.render_as_string(hide_password=False))
    try:
        opened = await fill_pool(limited, lambda session: session.execute(text("SELECT 1")))
        assert opened == 3
        assert limited.pool.checkedin() == 3  # type: ignore[attr-defined]
    finally:
        await limited.dispose()
        async with admin.connect() as connection:
            await connection.execute(text(f"DROP ROLE {role}"))
            await connection.commit()
        await admin.dispose()
