"""Sign-in, session rotation and revocation, lockout, rate limiting, SSO availability."""

import asyncio
import itertools
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tagtrack.access.dependencies import SESSION_COOKIE
from tagtrack.core.config import Settings
from tagtrack.core.security import hash_password
from tagtrack.main import create_app
from tagtrack.models import User
from tagtrack.models.ids import ALL_SITES_ID
from tests.conftest import PASSWORD, Org, make_client
from tests.helpers import assert_error

INVALID = "Invalid username or password"
NEW_PASSWORD = "Lantern-Pebble-Quartz-77"
_ips = itertools.count(1)


def fresh_ip() -> str:
    """A client address no other test uses, so per-client failure counts start at zero."""
    n = next(_ips)
    return f"10.77.{n // 250}.{n % 250 + 1}"


async def login(client: httpx.AsyncClient, username: str, password: str) -> httpx.Response:
    return await client.post("/api/auth/login", json={"username": username, "password": password})


def session_token(response: httpx.Response) -> str:
    token = response.cookies.get(SESSION_COOKIE)
    assert token, response.headers
    return token


def with_token(app: object, token: str) -> httpx.AsyncClient:
    client = make_client(app)
    client.cookies.set(SESSION_COOKIE, token)
    return client


@pytest.fixture
async def strict_app(database_url: str, settings: Settings) -> AsyncIterator[Any]:
    """An app that rate-limits a client after three failed sign-ins a minute."""
    application = create_app(
        settings.model_copy(update={"login_rate_limit_per_minute": 3}), database_url=database_url
    )
    async with application.router.lifespan_context(application):
        yield application


async def test_login_sets_httponly_samesite_cookie_and_returns_the_user(
    org_factory, anonymous
) -> None:
    org: Org = await org_factory()
    response = await login(anonymous, org.usernames["Manager"], PASSWORD)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["username"] == org.usernames["Manager"]
    assert body["roles"] == [org.role_ids["Manager"]]
    assert body["securityCtx"] == {"sites": [ALL_SITES_ID], "companies": [org.id]}
    assert body["superAdmin"] is False
    assert body["orgId"] == org.id
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    assert "HttpOnly" in cookie
    assert "samesite=lax" in cookie.lower()
    assert "Path=/" in cookie
    assert "Max-Age=" in cookie
    me = await anonymous.get("/api/users/me")
    assert me.status_code == 200
    assert me.json()["id"] == body["id"]


async def test_login_ignores_username_case_and_reports_super_admin(org_factory, anonymous) -> None:
    org: Org = await org_factory()
    response = await login(anonymous, org.usernames["Super Admin"].upper(), PASSWORD)
    assert response.status_code == 200, response.text
    assert response.json()["superAdmin"] is True
    assert response.json()["username"] == org.usernames["Super Admin"]


async def test_second_login_rotates_the_token_and_the_old_one_stops_working(
    app, org_factory, anonymous
) -> None:
    org: Org = await org_factory()
    first = session_token(await login(anonymous, org.usernames["Viewer"], PASSWORD))
    second_response = await login(anonymous, org.usernames["Viewer"], PASSWORD)
    second = session_token(second_response)
    assert second != first
    async with with_token(app, first) as old, with_token(app, second) as new:
        assert_error(await old.get("/api/users/me"), 401, "unauthorized")
        assert (await new.get("/api/users/me")).status_code == 200
    # A sign-in from another browser does not end the fixture's session.
    assert (await org.client("Viewer").get("/api/users/me")).status_code == 200


async def test_wrong_password_is_refused_without_a_cookie(org_factory, anonymous) -> None:
    org: Org = await org_factory()
    response = await login(anonymous, org.usernames["Operator"], "Wrong-Password-123")
    assert_error(response, 401, "invalid credentials", INVALID)
    assert response.json()["message"] == INVALID
    assert SESSION_COOKIE not in response.cookies
    assert_error(await anonymous.get("/api/users/me"), 401)


async def test_unknown_user_gets_the_same_answer(anonymous) -> None:
    response = await login(anonymous, "nobody.at.all@example.com", PASSWORD)
    assert_error(response, 401, "invalid credentials")
    assert response.json()["message"] == INVALID
    assert SESSION_COOKIE not in response.cookies


async def test_five_failures_lock_the_account(app, org_factory) -> None:
    org: Org = await org_factory()
    username = org.usernames["Viewer"]
    async with make_client(app, fresh_ip()) as client:
        for _ in range(4):
            assert_error(
                await login(client, username, "Wrong-Password-1"), 401, "invalid credentials"
            )
        locked = await login(client, username, "Wrong-Password-1")
        assert_error(locked, 401, "account locked", "use Forgot My Password to unlock your account")
        # Even the right password is refused now.
        response = await login(client, username, PASSWORD)
        assert_error(response, 401, "account locked")
        assert SESSION_COOKIE not in response.cookies
    # Other accounts are not affected.
    async with make_client(app, fresh_ip()) as client:
        assert (await login(client, org.usernames["Operator"], PASSWORD)).status_code == 200


async def test_a_successful_login_resets_the_failure_count(app, org_factory) -> None:
    org: Org = await org_factory()
    username = org.usernames["Operator"]
    async with make_client(app, fresh_ip()) as client:
        for _ in range(4):
            assert_error(
                await login(client, username, "Wrong-Password-1"), 401, "invalid credentials"
            )
        assert (await login(client, username, PASSWORD)).status_code == 200
        for _ in range(4):
            assert_error(
                await login(client, username, "Wrong-Password-1"), 401, "invalid credentials"
            )
        assert (await login(client, username, PASSWORD)).status_code == 200


async def test_an_admin_setting_a_new_password_unlocks_the_account(app, org_factory) -> None:
    org: Org = await org_factory()
    username = org.usernames["Viewer"]
    async with make_client(app, fresh_ip()) as client:
        for _ in range(5):
            await login(client, username, "Wrong-Password-1")
        assert_error(await login(client, username, PASSWORD), 401, "account locked")
        admin = org.client("Administrator")
        users = (await admin.get("/api/users", params={"search": "viewer"})).json()
        user = next(u for u in users if u["username"] == username)
        user["password"] = NEW_PASSWORD
        response = await admin.put("/api/users", json=user)
        assert response.status_code == 200, response.text
        assert_error(await login(client, username, PASSWORD), 401, "invalid credentials")
        response = await login(client, username, NEW_PASSWORD)
        assert response.status_code == 200, response.text
        assert response.json()["username"] == username


async def test_repeated_failures_from_one_client_are_rate_limited(strict_app, org_factory) -> None:
    org: Org = await org_factory()
    ip = fresh_ip()
    async with make_client(strict_app, ip) as client:
        for n in range(3):
            response = await login(client, f"ghost{n}@example.com", "Wrong-Password-1")
            assert_error(response, 401, "invalid credentials")
        # Right credentials are refused while the client is limited.
        limited = await login(client, org.usernames["Manager"], PASSWORD)
        assert_error(limited, 429, "rate limited", "wait a minute and try again")
        assert SESSION_COOKIE not in limited.cookies
    # The account itself was not touched: another client signs in.
    async with make_client(strict_app, fresh_ip()) as other:
        assert (await login(other, org.usernames["Manager"], PASSWORD)).status_code == 200


async def test_successful_logins_do_not_count_towards_the_rate_limit(
    strict_app, org_factory
) -> None:
    org: Org = await org_factory()
    async with make_client(strict_app, fresh_ip()) as client:
        for _ in range(5):
            assert (await login(client, org.usernames["Manager"], PASSWORD)).status_code == 200


async def test_logout_revokes_the_session_and_clears_the_cookie(app, org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Manager")
    token = client.cookies[SESSION_COOKIE]
    response = await client.post("/api/auth/logout")
    assert response.status_code == 204
    cleared = response.headers["set-cookie"]
    assert cleared.startswith(f'{SESSION_COOKIE}=""') or "Max-Age=0" in cleared
    assert_error(await client.get("/api/users/me"), 401)
    async with with_token(app, token) as old:
        assert_error(await old.get("/api/users/me"), 401, "unauthorized")
        assert_error(await old.get("/api/sites"), 401)
    # Other users' sessions live on.
    assert (await org.client("Viewer").get("/api/users/me")).status_code == 200


async def test_logout_without_a_session_is_harmless(anonymous) -> None:
    response = await anonymous.post("/api/auth/logout")
    assert response.status_code == 204
    assert_error(await anonymous.get("/api/users/me"), 401)


async def test_a_made_up_cookie_is_not_a_session(app) -> None:
    async with with_token(app, "not-a-real-token") as client:
        assert_error(await client.get("/api/users/me"), 401, "unauthorized")


@pytest.mark.parametrize("kind", ["okta", "entra"])
async def test_sso_is_not_available(anonymous, kind: str) -> None:
    response = await anonymous.get(f"/api/auth/{kind}/available")
    assert response.status_code == 200
    assert response.json() == {"available": False, "enabled": False}


async def test_unknown_sso_kind_is_rejected(anonymous) -> None:
    assert_error(await anonymous.get("/api/auth/saml/available"), 422, "validation")


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"username": "a@example.com"}, "password"),
        ({"password": PASSWORD}, "username"),
        ({"username": "", "password": PASSWORD}, "username"),
        ({"username": "a@example.com", "password": 42}, "password"),
        ([], "request"),
    ],
)
async def test_login_rejects_malformed_bodies(anonymous, payload: Any, field: str) -> None:
    response = await anonymous.post("/api/auth/login", json=payload)
    assert_error(response, 422, "validation", field)
    assert SESSION_COOKIE not in response.cookies


async def test_login_with_a_nul_character_is_bad_input(anonymous) -> None:
    response = await login(anonymous, "nul\x00@example.com", PASSWORD)
    assert_error(response, 400, "invalid input")
    assert SESSION_COOKIE not in response.cookies


async def test_login_rejects_invalid_json(anonymous) -> None:
    response = await anonymous.post(
        "/api/auth/login", content=b'{"username": ', headers={"content-type": "application/json"}
    )
    assert_error(response, 422, "validation")
    assert SESSION_COOKIE not in response.cookies


@pytest.fixture
async def patient_app(database_url: str, settings: Settings) -> AsyncIterator[Any]:
    """An app that locks no account and limits no client, to time many failures."""
    application = create_app(
        settings.model_copy(
            update={"login_lockout_failures": 1000, "login_rate_limit_per_minute": 1000}
        ),
        database_url=database_url,
    )
    async with application.router.lifespan_context(application):
        yield application


async def test_unknown_users_and_wrong_passwords_take_the_same_time(
    patient_app, org_factory, sessionmaker
) -> None:
    org: Org = await org_factory()
    # A hash at the server's own cost, as every real password gets.
    async with sessionmaker() as session, session.begin():
        user = User(
            org_id=org.id,
            name="Timed",
            username=f"timed.{org.subdomain}@example.com",
            password_hash=hash_password(PASSWORD),
            role_ids=[org.role_ids["Viewer"]],
            site_ids=[ALL_SITES_ID],
        )
        session.add(user)
    timings: dict[str, list[float]] = {"known": [], "unknown": []}
    async with make_client(patient_app, fresh_ip()) as client:
        for n in range(6):
            for kind, username in (
                ("known", user.username),
                ("unknown", f"nobody{n}.{org.subdomain}@example.com"),
            ):
                started = time.perf_counter()
                response = await login(client, username, "Wrong-Password-1")
                timings[kind].append(time.perf_counter() - started)
                assert_error(response, 401, "invalid credentials", INVALID)
                assert response.json()["message"] == INVALID
    # The fastest of each: the hash's own cost, least touched by whatever else the machine runs
    # (a busy test run makes single logins several times slower, either way).
    known, unknown = min(timings["known"]), min(timings["unknown"])
    # Without the dummy hash an unknown user answers many times faster than a wrong password.
    assert 0.5 * known < unknown < 3 * known, timings


async def test_an_unknown_username_locks_like_an_account(app, org_factory) -> None:
    """Five failures lock a real account; an unknown username must answer the same way."""
    org: Org = await org_factory()
    answers: dict[str, list[tuple[int, str]]] = {}
    for username in (org.usernames["Manager"], f"nobody.{org.subdomain}@example.com"):
        async with make_client(app, fresh_ip()) as client:
            answers[username] = []
            for _ in range(6):
                response = await login(client, username, "Wrong-Password-1")
                answers[username].append((response.status_code, response.json()["reason"]))
    known, unknown = answers.values()
    assert known == unknown
    assert known[-1] == (401, "account locked")


async def test_a_burst_of_sign_ins_does_not_hold_up_other_requests(
    patient_app, org_factory
) -> None:
    """Password hashing is slow on purpose; no database connection may wait on it."""
    org: Org = await org_factory()
    finished: dict[str, float] = {}

    async def sign_in(n: int) -> None:
        async with make_client(patient_app, fresh_ip()) as client:
            await login(client, f"burst{n}.{org.subdomain}@example.com", "Wrong-Password-1")
        finished[f"sign-in {n}"] = time.perf_counter()

    async def read(n: int) -> None:
        await asyncio.sleep(0.2)  # once the sign-ins are waiting on their hashes
        async with make_client(patient_app) as client:
            client.cookies = org.client("Viewer").cookies
            assert (await client.get("/api/zones")).status_code == 200
        finished[f"read {n}"] = time.perf_counter()

    # Connections held while hashing would exhaust the pool and stall everything.
    await asyncio.wait_for(
        asyncio.gather(*(sign_in(n) for n in range(40)), *(read(n) for n in range(5))), 240
    )
    last_read = max(t for name, t in finished.items() if name.startswith("read"))
    sign_ins = sorted(t for name, t in finished.items() if name.startswith("sign-in"))
    # The reads did not queue behind the 40 hashes for database connections.
    assert last_read < sign_ins[-10], (last_read, sign_ins)
