"""Fixtures: a migrated real PostgreSQL, the app, and organizations with a user per role."""

import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
from argon2 import PasswordHasher
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.access.roles import RoleRepository
from tagtrack.access.rules import SEEDED_ROLES
from tagtrack.core.config import Settings
from tagtrack.core.db import create_engine, create_sessionmaker
from tagtrack.core.migrate import upgrade
from tagtrack.kit.wiring import Wiring
from tagtrack.main import create_app
from tagtrack.models import Site, User
from tagtrack.models.ids import ALL_SITES_ID
from tagtrack.organizations.service import OrganizationService
from tests import tenant_sql
from tests.database import fresh_database
from tests.tracking import Floor

PASSWORD = "Correct-Horse-Battery-42"
_counter = itertools.count(1)
# Seeded users get a cheap hash so each organization signs in quickly; the server
# verifies whatever argon2 parameters a hash carries.
FAST_HASH = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1).hash(PASSWORD)


# The SQL log of the whole run: every statement the server sends is checked for org_id.
SQL_LOG = tenant_sql.SqlLog()


def pytest_configure(config: pytest.Config) -> None:
    tenant_sql.install(SQL_LOG)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if SQL_LOG.offenders:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if SQL_LOG.recorded:
        terminalreporter.write_line(f"SQL log: {SQL_LOG.recorded} statements checked for org_id")
    if SQL_LOG.offenders:
        terminalreporter.write_sep("=", "statements on tenant tables without org_id", red=True)
        for line in SQL_LOG.report():
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    with fresh_database() as url:
        upgrade(url)
        yield url


@pytest.fixture
async def history_db() -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    """A database of its own: retention and partition changes reach every organization."""
    with fresh_database() as url:
        upgrade(url)
        engine = create_engine(url)
        try:
            yield create_sessionmaker(engine)
        finally:
            await engine.dispose()


@pytest.fixture(scope="session")
def settings(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    return Settings(
        data_dir=tmp_path_factory.mktemp("data"),
        web_dist=Path("/nonexistent"),
        log_json=False,
        login_rate_limit_per_minute=1000,
        login_lockout_failures=5,
        # Tests drive processing and its sweeps themselves, at the times they choose.
        processing=False,
        # ... and the mail outbox's delivery, to the mail server each test starts.
        mail_sender=False,
    )


@pytest.fixture(scope="session")
async def app(database_url: str, settings: Settings) -> AsyncIterator[object]:
    application = create_app(settings, database_url=database_url)
    async with application.router.lifespan_context(application):
        yield application


@pytest.fixture(scope="session")
async def sessionmaker(database_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = create_engine(database_url)
    yield create_sessionmaker(engine)
    await engine.dispose()


def make_client(app: object, client_ip: str = "127.0.0.1") -> httpx.AsyncClient:
    transport = httpx.ASGITransport(app=app, client=(client_ip, 40000))  # type: ignore[arg-type]
    return httpx.AsyncClient(transport=transport, base_url="http://tagtrack.test")


@dataclass
class Org:
    """An organization with two sites and one signed-in client per seeded role."""

    id: str
    subdomain: str
    role_ids: dict[str, str]
    site_ids: list[str]
    usernames: dict[str, str]
    clients: dict[str, httpx.AsyncClient] = field(default_factory=dict)

    def client(self, role: str) -> httpx.AsyncClient:
        return self.clients[role]


@pytest.fixture
async def org_factory(
    app: object, sessionmaker: async_sessionmaker[AsyncSession]
) -> AsyncIterator[object]:
    created: list[Org] = []

    async def make() -> Org:
        n = next(_counter)
        subdomain = f"org{n}-{id(created) % 10000}"
        async with sessionmaker() as session, session.begin():
            service = Wiring(session).get(OrganizationService)
            org = await service.create_organization(f"Org {n}", subdomain)
            roles = {r.name: r.id for r in await RoleRepository(session).list_for_org(org.id)}
            sites = [
                Site(
                    org_id=org.id,
                    name=f"Site {c} {n}",
                    start_date=org.time_created,
                    timezone="Europe/London",
                )
                for c in ("A", "B")
            ]
            session.add_all(sites)
            await session.flush()
            usernames = {}
            hashed = FAST_HASH
            for role in SEEDED_ROLES:
                username = f"{role.lower().replace(' ', '')}.{subdomain}@example.com"
                usernames[role] = username
                session.add(
                    User(
                        org_id=org.id,
                        name=f"{role} {n}",
                        username=username,
                        password_hash=hashed,
                        role_ids=[roles[role]],
                        site_ids=[ALL_SITES_ID],
                    )
                )
        result = Org(org.id, subdomain, roles, [s.id for s in sites], usernames)

        async def sign_in(role: str, username: str) -> None:
            client = make_client(app)
            result.clients[role] = client
            response = await client.post(
                "/api/auth/login", json={"username": username, "password": PASSWORD}
            )
            assert response.status_code == 200, response.text

        # Concurrent sign-ins keep each organization cheap to make.
        await asyncio.gather(*(sign_in(role, name) for role, name in usernames.items()))
        result.clients = {role: result.clients[role] for role in usernames}
        created.append(result)
        return result

    yield make
    for org in created:
        for client in org.clients.values():
            await client.aclose()


@pytest.fixture
async def anonymous(app: object) -> AsyncIterator[httpx.AsyncClient]:
    async with make_client(app) as client:
        yield client


@pytest.fixture
async def floor(
    org_factory: Callable[[], Awaitable[Org]],
    sessionmaker: async_sessionmaker[AsyncSession],
    settings: Settings,
    anonymous: httpx.AsyncClient,
) -> Floor:
    """A fresh organization's first site, to build readers, zones and things on."""
    org = await org_factory()
    return Floor(org.id, org.site_ids[0], sessionmaker, settings, anonymous)
