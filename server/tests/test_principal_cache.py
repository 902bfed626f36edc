"""Callers kept for up to a minute by each server process are forgotten the moment who they
are changes: signed out, their roles or sites changed, deleted or deactivated, an API key
deleted. In the process that made the change at once; in every other process serving the
same database once PostgreSQL's notice reaches it. And the pool drops a connection the
database ended instead of failing a request with it."""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from sqlalchemy import text, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.access.cache import PrincipalCache
from tagtrack.access.dependencies import SESSION_COOKIE
from tagtrack.access.principal import Principal
from tagtrack.core.config import Settings
from tagtrack.main import create_app
from tagtrack.models import AccessRule, User
from tests.conftest import Org, make_client
from tests.helpers import assert_error, heard_by, signed_in_user, statements_seen

# The console's Events page polls this often (EVENTS_POLL_MS in web/src/features/events).
EVENTS_POLL_SECONDS = 5.0


@pytest.fixture
async def other_app(database_url: str, settings: Settings) -> AsyncIterator[Any]:
    """A second server process on the same database."""
    application = create_app(settings, database_url=database_url)
    async with application.router.lifespan_context(application):
        await application.state.principals.connected.wait()
        yield application


def same_browser(app: Any, client: httpx.AsyncClient) -> httpx.AsyncClient:
    """A client of `app` carrying the session cookie `client` signed in with."""
    other = make_client(app)
    other.cookies.set(SESSION_COOKIE, client.cookies[SESSION_COOKIE])
    return other


async def kept(app: Any, client: httpx.AsyncClient) -> None:
    """The caller is signed in and now kept by the app."""
    assert (await client.get("/api/users/me")).status_code == 200
    assert len(app.state.principals.entries) > 0


async def edit_user(admin: httpx.AsyncClient, user_id: str, **changes: Any) -> None:
    user = (await admin.get(f"/api/users/{user_id}")).json()
    user.update(changes)
    response = await admin.put("/api/users", json=user)
    assert response.status_code == 200, response.text


async def events_of(client: httpx.AsyncClient, site: str) -> httpx.Response:
    return await client.get("/api/events", params={"site": site})


async def test_signing_out_ends_the_session_at_once(app, org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    client, _ = await signed_in_user(app, sessionmaker, org, ["Viewer"])
    token = client.cookies[SESSION_COOKIE]
    await kept(app, client)
    assert (await client.post("/api/auth/logout")).status_code == 204
    client.cookies.set(SESSION_COOKIE, token)
    assert_error(await client.get("/api/users/me"), 401, "unauthorized")


async def test_a_role_taken_away_is_refused_at_once(app, org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    client, user_id = await signed_in_user(app, sessionmaker, org, ["Administrator"])
    assert (await client.get("/api/users")).status_code == 200
    await kept(app, client)
    await edit_user(org.client("Administrator"), user_id, roles=[org.role_ids["Viewer"]])
    assert_error(await client.get("/api/users"), 403, "forbidden")


async def test_a_site_taken_away_is_out_of_scope_at_once(app, org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    first, second = org.site_ids
    client, user_id = await signed_in_user(app, sessionmaker, org, ["Viewer"], [first, second])
    assert (await events_of(client, second)).status_code == 200
    await edit_user(org.client("Administrator"), user_id, securityCtx={"sites": [first]})
    assert_error(await events_of(client, second), 404, "not found")
    assert (await events_of(client, first)).status_code == 200


async def test_a_deleted_user_is_signed_out_at_once(app, org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    client, user_id = await signed_in_user(app, sessionmaker, org, ["Operator"])
    await kept(app, client)
    admin = org.client("Administrator")
    assert (await admin.delete(f"/api/users/{user_id}")).status_code == 204
    assert_error(await client.get("/api/users/me"), 401, "unauthorized")


async def test_a_deleted_api_key_is_refused_at_once(app, org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    created = await admin.post(
        "/api/apikeys",
        json={
            "name": "poller",
            "roles": [org.role_ids["Viewer"]],
            "securityCtx": {"sites": [org.site_ids[0]]},
        },
    )
    assert created.status_code == 201, created.text
    key = created.json()
    headers = {"Authorization": f"Bearer {key['token']}"}
    async with make_client(app) as caller:
        assert (await caller.get("/api/sites", headers=headers)).status_code == 200
        assert (await admin.delete(f"/api/apikeys/{key['_id']}")).status_code == 204
        assert_error(await caller.get("/api/sites", headers=headers), 401, "invalid api key")


async def test_another_process_hears_of_a_sign_out(
    app, other_app, org_factory, sessionmaker
) -> None:
    org: Org = await org_factory()
    client, _ = await signed_in_user(app, sessionmaker, org, ["Viewer"])
    async with same_browser(other_app, client) as elsewhere:
        await kept(other_app, elsewhere)
        async with heard_by(other_app):
            assert (await client.post("/api/auth/logout")).status_code == 204
        assert_error(await elsewhere.get("/api/users/me"), 401, "unauthorized")


async def test_another_process_hears_of_a_role_change(
    app, other_app, org_factory, sessionmaker
) -> None:
    org: Org = await org_factory()
    client, user_id = await signed_in_user(app, sessionmaker, org, ["Administrator"])
    async with same_browser(other_app, client) as elsewhere:
        assert (await elsewhere.get("/api/users")).status_code == 200
        async with heard_by(other_app):
            await edit_user(org.client("Administrator"), user_id, roles=[org.role_ids["Viewer"]])
        assert_error(await elsewhere.get("/api/users"), 403, "forbidden")


async def test_another_process_hears_of_a_site_taken_away(
    app, other_app, org_factory, sessionmaker
) -> None:
    org: Org = await org_factory()
    first, second = org.site_ids
    client, user_id = await signed_in_user(app, sessionmaker, org, ["Viewer"], [first, second])
    async with same_browser(other_app, client) as elsewhere:
        assert (await events_of(elsewhere, second)).status_code == 200
        async with heard_by(other_app):
            await edit_user(org.client("Administrator"), user_id, securityCtx={"sites": [first]})
        assert_error(await events_of(elsewhere, second), 404, "not found")


async def test_every_process_hears_of_a_deactivation_made_outside_them(
    app, other_app, org_factory, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """A user deactivated in the database (by another tool) is refused by both processes."""
    org: Org = await org_factory()
    client, user_id = await signed_in_user(app, sessionmaker, org, ["Viewer"])
    async with same_browser(other_app, client) as elsewhere:
        await kept(app, client)
        await kept(other_app, elsewhere)
        async with (
            heard_by(app),
            heard_by(other_app),
            sessionmaker() as session,
            session.begin(),
        ):
            await session.execute(
                update(User).where(User.org_id == org.id, User.id == user_id).values(active=False)
            )
        assert_error(await client.get("/api/users/me"), 401, "unauthorized")
        assert_error(await elsewhere.get("/api/users/me"), 401, "unauthorized")


async def test_a_connection_the_database_ended_is_replaced(
    app, org_factory, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """Connections ended by the database (a restart, an administrator) while idle in the
    pool are not handed to a request."""
    org: Org = await org_factory()
    client = org.client("Viewer")
    for _ in range(3):
        assert (await client.get("/api/users/me")).status_code == 200
    async with sessionmaker() as session, session.begin():
        # Each backend waited for until it is gone: its socket is closed.
        ended = await session.scalar(
            text(
                "SELECT count(pg_terminate_backend(pid, 10000)) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                "AND state = 'idle' AND query NOT ILIKE 'LISTEN%' AND query <> 'SELECT 1'"
            )
        )
    assert ended
    # A few turns of the event loop: it reads the closed sockets, as it would long before
    # the next request to a server whose database restarted.
    for _ in range(5):
        await asyncio.sleep(0)
    for _ in range(3):
        assert (await client.get("/api/users/me")).status_code == 200


def test_a_console_polling_every_few_seconds_finds_its_caller_kept() -> None:
    """Changes are notified, so a caller is kept far longer than the console's poll interval:
    its polls are not each a lookup of the session, the user and the role rules."""
    now = [0.0]
    cache = PrincipalCache(clock=lambda: now[0])
    cache.connected.set()
    principal = Principal("u" * 24, "o" * 24, "Ann", "ann", (), ())
    cache.put("token", principal, cache.generation)
    for _ in range(10):
        now[0] += EVENTS_POLL_SECONDS
        kept = cache.get("token")
        assert kept is not None and kept.principal == principal
    cache.forget()  # a notice of a change
    assert cache.get("token") is None


async def test_a_roles_rights_are_read_once_for_its_sessions_and_again_when_they_change(
    app, org_factory, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """Every session of a role shares the rights read for the first; a rule changed in the
    database (by another tool) reaches them all at once."""
    org: Org = await org_factory()
    first, _ = await signed_in_user(app, sessionmaker, org, ["Viewer"], name="First")
    second, _ = await signed_in_user(app, sessionmaker, org, ["Viewer"], name="Second")
    viewer = org.role_ids["Viewer"]
    assert_error(await first.get("/api/users"), 403, "forbidden")
    read = app.state.principals.role_grants[(org.id, (viewer,))][0]
    assert_error(await second.get("/api/users"), 403, "forbidden")
    assert app.state.principals.role_grants[(org.id, (viewer,))][0] is read

    async with heard_by(app), sessionmaker() as session, session.begin():
        await session.execute(
            update(AccessRule)
            .where(AccessRule.org_id == org.id, AccessRule.role_id == viewer)
            .where(AccessRule.resource == "users")
            .values(create=True)
        )
    assert (await first.get("/api/users")).status_code == 200
    assert (await second.get("/api/users")).status_code == 200


async def test_a_caller_not_kept_is_read_with_its_user_in_one_statement(
    app, org_factory, sessionmaker: async_sessionmaker[AsyncSession]
) -> None:
    """The first call of each console after a start: its session and user in one round trip."""
    org: Org = await org_factory()
    client, _ = await signed_in_user(app, sessionmaker, org, ["Viewer"], name="Reader")
    await kept(app, client)
    app.state.principals.forget()
    with statements_seen(app) as seen:
        assert (await client.get("/api/users/me")).status_code == 200
    sent = [statement for statement, _ in seen]
    sessions = [statement for statement in sent if "user_sessions" in statement]
    assert len(sessions) == 1, sent
    assert "FROM users JOIN user_sessions" in sessions[0]
