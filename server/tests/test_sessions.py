"""Sessions: idle and absolute timeouts, revocation on password change, cookie flags behind
HTTPS, cross-site writes (CSRF) and CORS. Rotation at sign-in and logout are in test_auth.py."""

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.core.config import Settings
from tagtrack.core.security import token_hash
from tagtrack.main import create_app
from tagtrack.models import UserSession
from tagtrack.models.base import utcnow
from tests.conftest import PASSWORD, Org, make_client
from tests.helpers import assert_error, heard_by
from tests.test_auth import NEW_PASSWORD, login, session_token, with_token


async def session_row(
    app: Any, sessionmaker: async_sessionmaker[AsyncSession], token: str, **values: Any
) -> None:
    """Change the session's row behind the app's back (its deadline brought forward, its
    start moved), as another process would; the app has heard of it on return."""
    async with heard_by(app), sessionmaker() as session, session.begin():
        stmt = update(UserSession).where(UserSession.token_hash == token_hash(token))
        await session.execute(stmt.values(**values))


async def expires_at(sessionmaker: async_sessionmaker[AsyncSession], token: str) -> Any:
    async with sessionmaker() as session:
        row = await session.get(UserSession, token_hash(token))
        assert row is not None
        return row.expires_at


async def test_a_session_unused_for_the_idle_time_ends(
    app, org_factory, anonymous, sessionmaker, settings: Settings
) -> None:
    org: Org = await org_factory()
    token = session_token(await login(anonymous, org.usernames["Viewer"], PASSWORD))
    idle = timedelta(minutes=settings.session_idle_minutes)
    assert abs(await expires_at(sessionmaker, token) - (utcnow() + idle)) < timedelta(minutes=1)
    async with with_token(app, token) as client:
        # Used a while ago: a use now pushes the idle deadline on.
        await session_row(app, sessionmaker, token, expires_at=utcnow() + timedelta(minutes=5))
        assert (await client.get("/api/users/me")).status_code == 200
        pushed = await expires_at(sessionmaker, token)
        assert abs(pushed - (utcnow() + idle)) < timedelta(minutes=1)
        # Unused past the deadline: over.
        await session_row(app, sessionmaker, token, expires_at=utcnow() - timedelta(seconds=1))
        assert_error(await client.get("/api/users/me"), 401, "unauthorized")


async def test_a_session_ends_after_its_lifetime_however_busy(
    app, org_factory, anonymous, sessionmaker, settings: Settings
) -> None:
    org: Org = await org_factory()
    token = session_token(await login(anonymous, org.usernames["Viewer"], PASSWORD))
    lifetime = timedelta(days=settings.session_days)
    async with with_token(app, token) as client:
        started = utcnow() - lifetime + timedelta(minutes=3)
        await session_row(app, sessionmaker, token, created_at=started)
        assert (await client.get("/api/users/me")).status_code == 200
        # The idle deadline never goes past the lifetime.
        assert await expires_at(sessionmaker, token) <= started + lifetime
        await session_row(
            app,
            sessionmaker,
            token,
            created_at=utcnow() - lifetime - timedelta(seconds=1),
            expires_at=utcnow() + timedelta(hours=1),
        )
        assert_error(await client.get("/api/users/me"), 401, "unauthorized")


async def test_changing_ones_password_ends_every_session(app, org_factory, anonymous) -> None:
    org: Org = await org_factory()
    username = org.usernames["Operator"]
    other_browser = session_token(await login(anonymous, username, PASSWORD))
    client = org.client("Operator")
    me = (await client.get("/api/users/me")).json()
    changed = await client.put(
        "/api/users/me", json={"name": me["name"], "username": username, "password": NEW_PASSWORD}
    )
    assert changed.status_code == 200, changed.text
    assert_error(await client.get("/api/users/me"), 401)
    async with with_token(app, other_browser) as other:
        assert_error(await other.get("/api/users/me"), 401)
    assert (await login(anonymous, username, NEW_PASSWORD)).status_code == 200


@pytest.fixture
async def proxied_app(database_url: str, settings: Settings) -> AsyncIterator[Any]:
    """Behind a reverse proxy at 10.9.9.9 that terminates HTTPS."""
    application = create_app(
        settings.model_copy(update={"trusted_proxies": "10.9.9.9"}), database_url=database_url
    )
    async with application.router.lifespan_context(application):
        yield application


def cookie_flags(response: httpx.Response) -> set[str]:
    cookie = response.headers["set-cookie"]
    return {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}


async def test_the_cookie_is_secure_behind_https_from_a_trusted_proxy_only(
    proxied_app, org_factory
) -> None:
    org: Org = await org_factory()
    username = org.usernames["Viewer"]
    https = {"X-Forwarded-Proto": "https"}
    async with make_client(proxied_app, "10.9.9.9") as proxy:
        response = await proxy.post(
            "/api/auth/login", json={"username": username, "password": PASSWORD}, headers=https
        )
        assert response.status_code == 200
        assert {"httponly", "secure", "samesite"} <= cookie_flags(response)
        assert "samesite=lax" in response.headers["set-cookie"].lower()
        assert response.headers["strict-transport-security"].startswith("max-age=")
    # Anyone else claiming HTTPS is not believed.
    async with make_client(proxied_app, "10.1.2.3") as direct:
        response = await direct.post(
            "/api/auth/login", json={"username": username, "password": PASSWORD}, headers=https
        )
        assert response.status_code == 200
        assert "secure" not in cookie_flags(response)
        assert "httponly" in cookie_flags(response)
        assert "strict-transport-security" not in response.headers


async def test_cookie_secure_setting_marks_the_cookie(database_url, settings, org_factory) -> None:
    org: Org = await org_factory()
    application = create_app(
        settings.model_copy(update={"cookie_secure": True}), database_url=database_url
    )
    async with (
        application.router.lifespan_context(application),
        make_client(application) as client,
    ):
        response = await login(client, org.usernames["Viewer"], PASSWORD)
        assert "secure" in cookie_flags(response)


async def test_the_proxy_forwarded_client_address_counts_for_rate_limits(
    database_url, settings, org_factory
) -> None:
    org: Org = await org_factory()
    application = create_app(
        settings.model_copy(
            update={"trusted_proxies": "10.9.9.9", "login_rate_limit_per_minute": 2}
        ),
        database_url=database_url,
    )
    async with (
        application.router.lifespan_context(application),
        make_client(application, "10.9.9.9") as proxy,
    ):

        async def fail(client_ip: str) -> httpx.Response:
            return await proxy.post(
                "/api/auth/login",
                json={"username": org.usernames["Viewer"], "password": "wrong-password"},
                headers={"X-Forwarded-For": f"1.1.1.1, {client_ip}"},
            )

        assert (await fail("10.66.0.1")).status_code == 401
        assert (await fail("10.66.0.1")).status_code == 401
        assert_error(await fail("10.66.0.1"), 429, "rate limited")
        # Another client behind the same proxy is not punished for the first one.
        assert (await fail("10.66.0.2")).status_code == 401


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site"},
        # Another organization's subdomain is the same site, but not the same origin.
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://evil.example"},
        {"Origin": "null"},
    ],
)
async def test_cross_site_writes_with_the_session_cookie_are_refused(
    org_factory, headers: dict[str, str]
) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    zone = {"name": "Forged", "site": org.site_ids[0]}
    assert_error(await admin.post("/api/zones", json=zone, headers=headers), 403, "cross site")
    assert_error(await admin.post("/api/auth/logout", headers=headers), 403, "cross site")
    assert (await admin.get("/api/zones")).json() == []
    # Reads are not state-changing: a cross-site link to a page still works.
    assert (await admin.get("/api/zones", headers=headers)).status_code == 200


async def test_the_consoles_own_writes_and_bearer_keys_pass(app, org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    zone = {"name": "Dock", "site": org.site_ids[0]}
    for headers in (
        {"Sec-Fetch-Site": "same-origin", "Origin": "http://tagtrack.test"},
        {"Origin": "http://tagtrack.test"},
    ):
        response = await admin.post(
            "/api/zones", json=zone | {"name": str(headers)}, headers=headers
        )
        assert response.status_code == 201, response.text
    key = await admin.post(
        "/api/apikeys",
        json={
            "name": "k",
            "roles": [org.role_ids["Manager"]],
            "securityCtx": {"sites": [org.site_ids[0]]},
        },
    )
    async with make_client(app) as client:
        client.headers["Authorization"] = f"Bearer {key.json()['token']}"
        response = await client.post(
            "/api/zones", json=zone | {"name": "By key"}, headers={"Sec-Fetch-Site": "cross-site"}
        )
        assert response.status_code == 201, response.text


async def test_cors_never_grants_another_origin(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    evil = {"Origin": "https://evil.example"}
    preflight = await admin.options(
        "/api/users/me", headers=evil | {"Access-Control-Request-Method": "PUT"}
    )
    read = await admin.get("/api/users/me", headers=evil)
    for response in (preflight, read):
        assert "access-control-allow-origin" not in response.headers
        assert "access-control-allow-credentials" not in response.headers
