"""The audit log: sign-ins, deletions and changes, with actor, organization and time; no secret."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import text

from tagtrack.audit.repository import Actor, AuditRepository
from tagtrack.audit.service import record_now
from tests.conftest import PASSWORD, Org, make_client
from tests.helpers import assert_error

STRONG = "Quiet-Lighthouse-Anchor-61"


async def entries(org: Org, **params: Any) -> list[dict[str, Any]]:
    response = await org.client("Administrator").get("/api/auditlog", params=params)
    assert response.status_code == 200, response.text
    return list(response.json())


def actions(rows: list[dict[str, Any]]) -> list[str]:
    return [r["action"] for r in rows]


async def test_sign_ins_are_logged_success_and_failure(app, org_factory) -> None:
    org: Org = await org_factory()
    username = org.usernames["Viewer"]
    async with make_client(app, "192.0.2.44") as client:
        bad = await client.post("/api/auth/login", json={"username": username, "password": "no"})
        assert bad.status_code == 401
        good = await client.post(
            "/api/auth/login", json={"username": username, "password": PASSWORD}
        )
        assert good.status_code == 200
    rows = await entries(org, search=username)
    ok = next(r for r in rows if r["action"] == "login" and r["client"] == "192.0.2.44")
    failed = next(r for r in rows if r["action"] == "login.failed")
    for row in (ok, failed):
        assert row["orgId"] == org.id
        assert row["actor"] == username
        assert row["target"] == username
        assert row["client"] == "192.0.2.44"
        assert datetime.fromisoformat(row["time"]) > datetime.now(UTC) - timedelta(minutes=1)
    assert failed["detail"] == {"reason": "invalid credentials"}
    # Newest first.
    assert rows.index(ok) < rows.index(failed)


async def test_changes_to_users_keys_settings_and_deletions_are_logged(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    body = {
        "name": "Audit Target",
        "username": f"audit.target.{org.subdomain}@example.com",
        "roles": [org.role_ids["Viewer"]],
        "securityCtx": {"sites": [org.site_ids[0]]},
        "password": STRONG,
    }
    user = (await admin.post("/api/users", json=body)).json()
    await admin.put("/api/users", json={**body, "id": user["id"], "name": "Audit Renamed"})
    await admin.delete(f"/api/users/{user['id']}")
    key = (
        await admin.post(
            "/api/apikeys",
            json={
                "name": "Audit key",
                "roles": [org.role_ids["Viewer"]],
                "securityCtx": {"sites": [org.site_ids[0]]},
            },
        )
    ).json()
    await admin.delete(f"/api/apikeys/{key['_id']}")
    await admin.post("/api/orgsettings", json={"itemLabel": "Assets"})
    sso = {"oktaIssuer": "https://acme.okta.com", "oktaClientId": "cid", "oktaClientSecret": "s3"}
    assert (await admin.put("/api/ssosettings", json=sso)).status_code == 200

    rows = await entries(org, limit=100)
    logged = actions(rows)
    for action in (
        "user.created",
        "user.updated",
        "user.deleted",
        "apikey.created",
        "apikey.deleted",
        "orgsettings.updated",
        "ssosettings.updated",
    ):
        assert action in logged, (action, logged)
    deleted = next(r for r in rows if r["action"] == "user.deleted")
    assert deleted["actor"] == org.usernames["Administrator"]
    assert deleted["targetType"] == "user" and deleted["targetId"] == user["id"]
    assert deleted["target"] == body["username"]
    created_key = next(r for r in rows if r["action"] == "apikey.created")
    assert created_key["detail"] == {
        "roles": [org.role_ids["Viewer"]],
        "sites": [org.site_ids[0]],
    }


async def test_no_secret_is_ever_written(app, org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    body = {
        "name": "Secret Keeper",
        "username": f"secret.keeper.{org.subdomain}@example.com",
        "roles": [org.role_ids["Viewer"]],
        "securityCtx": {"sites": [org.site_ids[0]]},
        "password": STRONG,
    }
    user = (await admin.post("/api/users", json=body)).json()
    await admin.put("/api/users", json={**body, "id": user["id"], "password": STRONG + "x"})
    key = (
        await admin.post(
            "/api/apikeys",
            json={
                "name": "Secret key",
                "roles": [org.role_ids["Viewer"]],
                "securityCtx": {"sites": [org.site_ids[0]]},
            },
        )
    ).json()
    client_secret = "okta-client-secret-0123456789"
    sso = {
        "oktaIssuer": "https://acme.okta.com",
        "oktaClientId": "cid",
        "oktaClientSecret": client_secret,
    }
    await admin.put("/api/ssosettings", json=sso)
    async with make_client(app) as client:
        await client.post(
            "/api/auth/login", json={"username": body["username"], "password": "Wrong-Password-1"}
        )
        await client.post(
            "/api/auth/login", json={"username": body["username"], "password": STRONG}
        )
    async with sessionmaker() as session:
        dump = (await session.execute(text("SELECT json_agg(a)::text FROM audit_log a"))).scalar()
    for secret in (STRONG, key["token"], client_secret, "Wrong-Password-1"):
        assert secret not in dump


async def test_the_service_function_hides_secret_details(sessionmaker, org_factory) -> None:
    org: Org = await org_factory()
    who = Actor(org_id=org.id, actor_id="", actor="exporter@example.com", client="10.0.0.1")
    async with sessionmaker() as session, session.begin():
        await AuditRepository(session).record(
            who,
            "things.exported",
            "things",
            detail={"rows": 12, "password": "p", "apiToken": "t", "secretChanged": True},
        )
    await record_now(sessionmaker, who, "images.exported", detail={"count": 3})
    rows = await entries(org)
    exported = next(r for r in rows if r["action"] == "things.exported")
    assert exported["detail"] == {
        "rows": 12,
        "password": "(hidden)",
        "apiToken": "(hidden)",
        "secretChanged": True,
    }
    assert exported["actor"] == "exporter@example.com"
    assert "images.exported" in actions(rows)


async def test_filters_paging_and_organization_scope(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    admin = org.client("Administrator")
    for n in range(3):
        await admin.post("/api/orgsettings", json={"itemLabel": f"Label {n}"})
    only = await entries(org, action="orgsettings.updated")
    assert actions(only) == ["orgsettings.updated"] * 3
    page = await admin.get(
        "/api/auditlog", params={"action": "orgsettings.updated", "limit": 2, "page": 1}
    )
    assert page.headers["x-total-count"] == "3" and len(page.json()) == 1
    future = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    assert await entries(org, after=future) == []
    assert len(await entries(org, before=future, action="orgsettings.updated")) == 3
    assert all(r["orgId"] == other.id for r in await entries(other))
    assert "orgsettings.updated" not in actions(await entries(other))
    assert_error(await admin.get("/api/auditlog", params={"after": "yesterday"}), 422)


@pytest.mark.parametrize("role", ["Manager", "Operator", "Viewer"])
async def test_only_administrators_read_the_log(org_factory, role: str) -> None:
    org: Org = await org_factory()
    assert_error(await org.client(role).get("/api/auditlog"), 403, "forbidden")
    assert (await org.client("Super Admin").get("/api/auditlog")).status_code == 200


async def test_the_log_needs_a_session(anonymous) -> None:
    assert_error(await anonymous.get("/api/auditlog"), 401)


async def test_exports_are_logged(org_factory) -> None:
    org: Org = await org_factory()
    manager = org.client("Manager")
    things = await manager.get("/api/things/export", params={"class": "item", "download": True})
    assert things.status_code == 200, things.text
    images = await manager.get("/api/images//csv", params={"tags": "dock"})
    assert images.status_code == 200, images.text
    rows = await entries(org, action="things.exported")
    assert [(r["actor"], r["target"]) for r in rows] == [(org.usernames["Manager"], "items.xlsx")]
    [image_export] = await entries(org, action="images.exported")
    assert image_export["target"] == "csv" and image_export["detail"] == {"search": True}
