"""Small assertions and builders shared by the API tests."""

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import httpx
from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.models import User
from tagtrack.models.ids import ALL_SITES_ID
from tests.conftest import FAST_HASH, PASSWORD, Org, make_client
from tests.waiting import until

OTHER_ID = "0123456789abcdef01234567"


def assert_error(
    response: httpx.Response, status: int, reason: str | None = None, message: str | None = None
) -> dict[str, str]:
    """The response is an error of this status with a {reason, message} body."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"reason", "message"}, body
    assert body["reason"] and body["message"]
    if reason is not None:
        assert body["reason"] == reason, body
    if message is not None:
        assert message in body["message"], body
    return body


@asynccontextmanager
async def heard_by(app: Any) -> AsyncIterator[None]:
    """Ends once the app has heard a change committed in the block to who a token is (the
    notice every server process gets), whoever made it."""
    principals = app.state.principals
    before = principals.notices

    async def heard() -> bool:
        return bool(principals.notices > before)

    yield
    await until(heard)


def site_body(name: str, **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": name,
        "description": "",
        "startDate": "2024-03-01T08:00:00Z",
        "timezone": {"id": "Europe/London"},
    }
    body.update(changes)
    return body


async def signed_in_user(
    app: object,
    sessionmaker: async_sessionmaker[AsyncSession],
    org: Org,
    roles: list[str],
    site_ids: list[str] | None = None,
    name: str = "Scoped",
) -> tuple[httpx.AsyncClient, str]:
    """Add a user with these seeded roles and sites; return a signed-in client and its id."""
    username = f"{name.lower()}.{len(org.clients)}.{org.subdomain}@example.com"
    async with sessionmaker() as session, session.begin():
        user = User(
            org_id=org.id,
            name=name,
            username=username,
            password_hash=FAST_HASH,
            role_ids=[org.role_ids[r] for r in roles],
            site_ids=site_ids if site_ids is not None else [ALL_SITES_ID],
        )
        session.add(user)
        await session.flush()
        user_id = user.id
    client = make_client(app)
    response = await client.post(
        "/api/auth/login", json={"username": username, "password": PASSWORD}
    )
    assert response.status_code == 200, response.text
    org.clients[f"{name}-{user_id}"] = client  # closed with the organization's clients
    return client, user_id


@contextmanager
def statements_seen(app: Any) -> Iterator[list[tuple[str, bool]]]:
    """Each statement the app sends meanwhile, and whether its connection was in autocommit."""
    seen: list[tuple[str, bool]] = []

    def record(conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        seen.append((statement, bool(conn.connection.dbapi_connection.autocommit)))

    engine = app.state.engine.sync_engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)
