"""Pick the test database: the local PostgreSQL when it answers, else the embedded one."""

import itertools
import os
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import psycopg
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.db import (
    async_url,
    create_engine,
    create_sessionmaker,
    start_embedded_postgres,
    stop_embedded_postgres,
)
from tagtrack.core.migrate import upgrade
from tagtrack.kit.wiring import Wiring
from tagtrack.models import Organization
from tagtrack.organizations.service import OrganizationService

LOCAL_ADMIN_URL = os.environ.get(
    "TAGTRACK_TEST_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/test"
)


def local_server_answers() -> bool:
    if os.environ.get("TAGTRACK_TEST_EMBEDDED") == "1":
        return False
    try:
        with psycopg.connect(LOCAL_ADMIN_URL, connect_timeout=2):
            return True
    except psycopg.OperationalError:
        return False


_created = itertools.count(1)


@contextmanager
def fresh_database() -> Iterator[str]:
    """Yield the URL of a fresh, empty database that is dropped afterwards."""
    name = f"tagtrack_test_{os.getpid()}_{next(_created)}"
    if local_server_answers():
        with psycopg.connect(LOCAL_ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
        base = LOCAL_ADMIN_URL.rsplit("/", 1)[0]
        try:
            yield async_url(f"{base}/{name}")
        finally:
            with psycopg.connect(LOCAL_ADMIN_URL, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    else:
        with tempfile.TemporaryDirectory(prefix="tagtrack-pg-") as folder:
            try:
                yield async_url(start_embedded_postgres(Path(folder), name))
            finally:
                stop_embedded_postgres(Path(folder))


@asynccontextmanager
async def database_with_org(
    name: str, subdomain: str
) -> AsyncIterator[tuple[async_sessionmaker[AsyncSession], Organization]]:
    """A fresh migrated database holding one new organization, and a sessionmaker on it."""
    with fresh_database() as url:
        upgrade(url)
        engine = create_engine(url)
        maker = create_sessionmaker(engine)
        try:
            async with maker() as session, session.begin():
                organizations = Wiring(session).get(OrganizationService)
                org = await organizations.create_organization(name, subdomain)
            yield maker, org
        finally:
            await engine.dispose()
