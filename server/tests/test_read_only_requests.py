"""The console's polls (the Events page and the readers' status) run their statements without
BEGIN and COMMIT; every other request still runs in one transaction, on the same pooled
connections; and a poll still moves the session's idle deadline."""

from datetime import timedelta
from typing import Any

from sqlalchemy import select, update

from tagtrack.access.dependencies import SESSION_COOKIE
from tagtrack.core.security import token_hash
from tagtrack.models import UserSession
from tagtrack.models.base import utcnow
from tests.conftest import Org
from tests.helpers import signed_in_user, statements_seen


async def test_polls_run_outside_a_transaction_and_writes_inside_one(
    app: Any, org_factory: Any
) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    for path in ("/api/events", "/api/endpoints/status"):
        with statements_seen(app) as seen:
            response = await admin.get(path, params={"site": site})
        assert response.status_code == 200, response.text
        assert seen, path
        assert all(autocommit for _, autocommit in seen), (path, seen)
    # Every connection of the pool is back in transactions for a request that writes.
    settings = (await admin.get(f"/api/sites/{site}/settings")).json()
    for _ in range(3):
        with statements_seen(app) as seen:
            response = await admin.put(f"/api/sites/{site}/settings", json=settings)
        assert response.status_code == 200, response.text
        assert seen
        assert not any(autocommit for _, autocommit in seen), seen


async def test_a_poll_still_moves_the_idle_deadline(app, org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    client, _ = await signed_in_user(app, sessionmaker, org, ["Viewer"])
    hashed = token_hash(client.cookies[SESSION_COOKIE])
    soon = utcnow() + timedelta(minutes=5)
    async with sessionmaker() as session, session.begin():
        await session.execute(
            update(UserSession).where(UserSession.token_hash == hashed).values(expires_at=soon)
        )
    app.state.principals.forget()
    response = await client.get("/api/events", params={"site": org.site_ids[0]})
    assert response.status_code == 200, response.text
    async with sessionmaker() as session:
        moved = await session.scalar(
            select(UserSession.expires_at).where(UserSession.token_hash == hashed)
        )
    assert moved is not None
    assert moved > soon + timedelta(minutes=10)
