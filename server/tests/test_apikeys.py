"""API keys: create, view, delete; a Bearer token with exactly its roles' rights and sites."""

import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from sqlalchemy import select, text

from tagtrack.models import ApiKey
from tagtrack.models.ids import ALL_SITES_ID
from tests.conftest import Org, make_client
from tests.helpers import OTHER_ID, assert_error, signed_in_user


def key_body(org: Org, role: str = "Viewer", sites: list[str] | None = None, **changes: Any):
    body: dict[str, Any] = {
        "name": "Dock door integration",
        "roles": [org.role_ids[role]],
        "securityCtx": {"sites": sites if sites is not None else [org.site_ids[0]]},
    }
    body.update(changes)
    return body


async def create_key(org: Org, **kwargs: Any) -> dict[str, Any]:
    response = await org.client("Administrator").post("/api/apikeys", json=key_body(org, **kwargs))
    assert response.status_code == 201, response.text
    return dict(response.json())


@asynccontextmanager
async def with_key(app: object, token: str) -> AsyncIterator[httpx.AsyncClient]:
    async with make_client(app) as client:
        client.headers["Authorization"] = f"Bearer {token}"
        yield client


async def test_create_shows_the_whole_token_once_and_stores_only_its_hash(
    org_factory, sessionmaker
) -> None:
    org: Org = await org_factory()
    created = await create_key(org)
    token = created["token"]
    assert token.startswith("tt_") and len(token) >= 40
    assert created["name"] == "Dock door integration"
    assert created["roles"] == [org.role_ids["Viewer"]]
    assert created["securityCtx"] == {"sites": [org.site_ids[0]]}
    assert len(created["_id"]) == 24

    admin = org.client("Administrator")
    listed = await admin.get("/api/apikeys")
    assert listed.status_code == 200
    assert listed.headers["x-total-count"] == "1"
    (row,) = listed.json()
    assert row["_id"] == created["_id"]
    assert row["token"] != token and token.startswith(row["token"].rstrip("…"))
    one = await admin.get(f"/api/apikeys/{created['_id']}")
    assert one.status_code == 200 and one.json()["token"] == row["token"]

    async with sessionmaker() as session:
        key = (
            await session.execute(select(ApiKey).where(ApiKey.id == created["_id"]))
        ).scalar_one()
        assert key.token_hash == hashlib.sha256(token.encode()).hexdigest()
        # No column of the table holds the token itself.
        dump = (
            await session.execute(
                text("SELECT row_to_json(k)::text FROM api_keys k WHERE id = :i"), {"i": key.id}
            )
        ).scalar_one()
        assert token not in dump


async def test_a_key_has_exactly_its_roles_rights_within_its_sites(app, org_factory) -> None:
    org: Org = await org_factory()
    site_a, site_b = org.site_ids
    token = (await create_key(org, role="Viewer", sites=[site_a]))["token"]
    async with with_key(app, token) as key:
        sites = await key.get("/api/sites")
        assert sites.status_code == 200
        assert [s["_id"] for s in sites.json()] == [site_a]
        assert (await key.get(f"/api/sites/{site_a}")).status_code == 200
        # Another site of the same organization is out of the key's reach.
        assert_error(await key.get(f"/api/sites/{site_b}"), 404, "not found")
        assert_error(await key.get(f"/api/sites/{site_b}/settings"), 404, "not found")
        # A Viewer may read, not change.
        body = {"name": "New", "startDate": "2024-01-01T00:00:00Z", "timezone": {"id": "UTC"}}
        assert_error(await key.post("/api/sites", json=body), 403, "forbidden")
        assert_error(await key.get("/api/users"), 403, "forbidden")
        assert_error(await key.get("/api/apikeys"), 403, "forbidden")
        # A key is not a person.
        assert_error(await key.get("/api/users/me"), 404)
        rules = await key.get("/api/accessRules", params={"roles": org.role_ids["Viewer"]})
        assert rules.status_code == 200


async def test_an_administrator_key_on_all_sites(app, org_factory) -> None:
    org: Org = await org_factory()
    token = (await create_key(org, role="Administrator", sites=[ALL_SITES_ID]))["token"]
    async with with_key(app, token) as key:
        assert {s["_id"] for s in (await key.get("/api/sites")).json()} == set(org.site_ids)
        users = await key.get("/api/users")
        assert users.status_code == 200 and users.headers["x-total-count"] == "5"
        # Never a super admin: organizations stay out of reach.
        assert_error(await key.get("/api/organizations"), 403, "forbidden")


async def test_a_deleted_key_is_refused_at_once(app, org_factory) -> None:
    org: Org = await org_factory()
    created = await create_key(org)
    async with with_key(app, created["token"]) as key:
        assert (await key.get("/api/sites")).status_code == 200
        deleted = await org.client("Administrator").delete(f"/api/apikeys/{created['_id']}")
        assert deleted.status_code == 204
        assert_error(await key.get("/api/sites"), 401, "invalid api key")
    assert_error(
        await org.client("Administrator").get(f"/api/apikeys/{created['_id']}"), 404, "not found"
    )
    assert (await org.client("Administrator").get("/api/apikeys")).json() == []


@pytest.mark.parametrize("header", ["Bearer tt_madeup", "Bearer ", "bearer nonsense"])
async def test_an_unknown_bearer_token_is_refused(app, header: str) -> None:
    async with make_client(app) as client:
        response = await client.get("/api/sites", headers={"Authorization": header})
    assert_error(response, 401)


async def test_a_bearer_token_is_not_mixed_with_a_session(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    # A signed-in browser that also sends a wrong key is refused: the key decides.
    response = await admin.get("/api/sites", headers={"Authorization": "Bearer tt_wrong"})
    assert_error(response, 401, "invalid api key")


async def test_super_admin_cannot_be_given_to_a_key(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Super Admin").post(
        "/api/apikeys", json=key_body(org, role="Super Admin")
    )
    assert_error(response, 400, "super admin key", "Super Admin")
    mixed = key_body(org, role="Viewer")
    mixed["roles"].append(org.role_ids["Super Admin"])
    assert_error(await org.client("Super Admin").post("/api/apikeys", json=mixed), 400)
    assert (await org.client("Super Admin").get("/api/apikeys")).json() == []


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": ""}, "name: is required"),
        ({"name": "   "}, "name: is required"),
        ({"roles": []}, "roles: You must select at least one item"),
        ({"securityCtx": {"sites": []}}, "securityCtx.sites: You must select at least one item"),
        ({"roles": "x"}, "roles"),
        ({"name": "x" * 201}, "name"),
    ],
)
async def test_create_validation(org_factory, changes: dict[str, Any], message: str) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").post("/api/apikeys", json=key_body(org, **changes))
    assert_error(response, 422, "validation", message)


async def test_unknown_or_foreign_roles_and_sites_are_refused(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    admin = org.client("Administrator")
    cases = [
        ({"roles": [other.role_ids["Viewer"]]}, "unknown role"),
        ({"roles": [OTHER_ID]}, "unknown role"),
        ({"securityCtx": {"sites": [other.site_ids[0]]}}, "unknown site"),
    ]
    for changes, reason in cases:
        assert_error(await admin.post("/api/apikeys", json=key_body(org, **changes)), 400, reason)
    assert_error(await admin.post("/api/apikeys", content=b"{not json"), 422, "validation")
    assert (await admin.get("/api/apikeys")).json() == []


async def test_a_site_scoped_admin_grants_only_their_own_sites(
    app, sessionmaker, org_factory
) -> None:
    org: Org = await org_factory()
    mine, theirs = org.site_ids
    client, _ = await signed_in_user(app, sessionmaker, org, ["Administrator"], [mine])
    for sites in ([theirs], [ALL_SITES_ID]):
        body = key_body(org, sites=sites)
        assert_error(await client.post("/api/apikeys", json=body), 403, "forbidden", "scope")
    assert (await client.post("/api/apikeys", json=key_body(org, sites=[mine]))).status_code == 201


async def test_another_organizations_key_is_not_found(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    theirs = await create_key(other)
    admin = org.client("Administrator")
    assert_error(await admin.get(f"/api/apikeys/{theirs['_id']}"), 404, "not found")
    assert_error(await admin.delete(f"/api/apikeys/{theirs['_id']}"), 404, "not found")
    assert (await other.client("Administrator").get("/api/apikeys")).headers["x-total-count"] == "1"


@pytest.mark.parametrize("role", ["Manager", "Operator", "Viewer"])
async def test_roles_without_key_rights_get_403(org_factory, role: str) -> None:
    org: Org = await org_factory()
    created = await create_key(org)
    client = org.client(role)
    assert_error(await client.get("/api/apikeys"), 403, "forbidden")
    assert_error(await client.get(f"/api/apikeys/{created['_id']}"), 403, "forbidden")
    assert_error(await client.post("/api/apikeys", json=key_body(org)), 403, "forbidden")
    assert_error(await client.delete(f"/api/apikeys/{created['_id']}"), 403, "forbidden")


async def test_keys_need_a_session_or_a_key(anonymous) -> None:
    for method, path in [
        ("GET", "/api/apikeys"),
        ("GET", f"/api/apikeys/{OTHER_ID}"),
        ("POST", "/api/apikeys"),
        ("DELETE", f"/api/apikeys/{OTHER_ID}"),
    ]:
        assert_error(await anonymous.request(method, path), 401)


async def test_list_pages_sorts_and_searches(org_factory) -> None:
    org: Org = await org_factory()
    for name in ("Gate reader", "ERP export", "Yard scanner"):
        await create_key(org, name=name)
    admin = org.client("Administrator")
    names = [k["name"] for k in (await admin.get("/api/apikeys")).json()]
    assert names == ["ERP export", "Gate reader", "Yard scanner"]
    page = await admin.get("/api/apikeys", params={"limit": 2, "page": 1, "sort": "-name"})
    assert [k["name"] for k in page.json()] == ["ERP export"]
    assert page.headers["x-total-count"] == "3"
    found = await admin.get("/api/apikeys", params={"search": "yard"})
    assert [k["name"] for k in found.json()] == ["Yard scanner"]
    assert_error(await admin.get("/api/apikeys", params={"sort": "token"}), 400, "invalid sort")


async def test_ingest_paths_are_not_taken_by_api_keys(app, org_factory) -> None:
    org: Org = await org_factory()
    token = (await create_key(org))["token"]
    async with with_key(app, token) as key:
        # Reader ingest authenticates endpoints by their own keys; an API key opens nothing there.
        response = await key.post("/api/ingest/reads", json={"reads": []})
    assert response.status_code in (401, 404), response.text
