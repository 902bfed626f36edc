"""Organizations: super admins only; unique subdomains; seeded roles; no self-delete."""

import asyncio
import itertools
from typing import Any

import pytest
from sqlalchemy import select

from tagtrack.access.rules import RESOURCES, SEEDED_ROLES
from tagtrack.models import AccessRule, Organization, Role
from tests.conftest import Org
from tests.helpers import OTHER_ID, assert_error

_n = itertools.count(1)


def org_body(**changes: Any) -> dict[str, Any]:
    n = next(_n)
    body: dict[str, Any] = {"name": f"Acme {n}", "subdomain": f"acme-{n}-{id(_n) % 9973}"}
    body.update(changes)
    return body


async def test_super_admin_lists_organizations(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    client = org.client("Super Admin")
    response = await client.get("/api/organizations", params={"limit": 10000})
    assert response.status_code == 200
    listed = response.json()
    assert int(response.headers["x-total-count"]) == len(listed) >= 2
    assert {org.id, other.id} <= {o["_id"] for o in listed}
    response = await client.get("/api/organizations", params={"search": other.subdomain})
    assert response.headers["x-total-count"] == "1"
    (found,) = response.json()
    assert found["_id"] == other.id
    assert found["subdomain"] == other.subdomain
    assert set(found) == {
        "_id", "name", "subdomain", "oktaEnabled", "entraEnabled", "historyRetentionDays",
        "timeCreated",
    }  # fmt: skip
    assert found["historyRetentionDays"] == 0


async def test_get_one_organization(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Super Admin").get(f"/api/organizations/{org.id}")
    assert response.status_code == 200
    assert response.json()["_id"] == org.id
    assert response.json()["subdomain"] == org.subdomain
    assert_error(await org.client("Super Admin").get(f"/api/organizations/{OTHER_ID}"), 404)


async def test_create_organization_seeds_its_roles(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    client = org.client("Super Admin")
    body = org_body(subdomain="  New-Org-Sub  ", oktaEnabled=True)
    response = await client.post("/api/organizations", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["name"] == body["name"]
    assert created["subdomain"] == "new-org-sub"
    assert created["oktaEnabled"] is True
    assert created["entraEnabled"] is False
    assert len(created["_id"]) == 24
    assert (await client.get(f"/api/organizations/{created['_id']}")).json() == created
    async with sessionmaker() as session:
        roles = (
            await session.execute(select(Role.name).where(Role.org_id == created["_id"]))
        ).scalars()
        assert sorted(roles) == sorted(SEEDED_ROLES)
        rules = (
            await session.execute(select(AccessRule).where(AccessRule.org_id == created["_id"]))
        ).scalars()
        assert len(list(rules)) == len(SEEDED_ROLES) * len(RESOURCES)


async def test_duplicate_subdomain_is_refused(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    client = org.client("Super Admin")
    before = (await client.get("/api/organizations")).headers["x-total-count"]
    response = await client.post("/api/organizations", json=org_body(subdomain=other.subdomain))
    assert_error(response, 400, "duplicate", other.subdomain)
    upper = await client.post(
        "/api/organizations", json=org_body(subdomain=other.subdomain.upper())
    )
    assert_error(upper, 400, "duplicate")
    assert (await client.get("/api/organizations")).headers["x-total-count"] == before
    own = (await client.get(f"/api/organizations/{org.id}")).json()
    renamed = {**own, "subdomain": other.subdomain}
    assert_error(await client.put(f"/api/organizations/{org.id}", json=renamed), 400, "duplicate")
    assert (await client.get(f"/api/organizations/{org.id}")).json() == own


async def test_concurrent_creates_of_one_subdomain_give_one_organization(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Super Admin")
    body = org_body()
    responses = await asyncio.gather(
        client.post("/api/organizations", json=body),
        client.post("/api/organizations", json=body),
    )
    assert sorted(r.status_code for r in responses) == [201, 400]
    assert_error(next(r for r in responses if r.status_code == 400), 400, "duplicate")
    found = await client.get("/api/organizations", params={"search": body["subdomain"]})
    assert found.headers["x-total-count"] == "1"


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": None}, "name"),
        ({"subdomain": "Bad_Sub!"}, "subdomain"),
        ({"subdomain": "-edge"}, "subdomain"),
        ({"subdomain": ""}, "subdomain"),
        ({"subdomain": "x" * 64}, "subdomain"),
        ({"oktaEnabled": "sometimes"}, "oktaEnabled"),
        ({"historyRetentionDays": 29}, "historyRetentionDays"),
        ({"historyRetentionDays": 3651}, "historyRetentionDays"),
        ({"historyRetentionDays": -1}, "historyRetentionDays"),
        ({"historyRetentionDays": 45.5}, "historyRetentionDays"),
        ({"historyRetentionDays": "a year"}, "historyRetentionDays"),
    ],
)
async def test_organization_validation(org_factory, changes: dict[str, Any], field: str) -> None:
    org: Org = await org_factory()
    client = org.client("Super Admin")
    before = (await client.get("/api/organizations")).headers["x-total-count"]
    response = await client.post("/api/organizations", json=org_body(**changes))
    assert_error(response, 422, "validation", field)
    assert (await client.get("/api/organizations")).headers["x-total-count"] == before


async def test_organization_rejects_malformed_json(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Super Admin")
    own = (await client.get(f"/api/organizations/{org.id}")).json()
    response = await client.put(
        f"/api/organizations/{org.id}",
        content=b'{"name": "x", ',
        headers={"content-type": "application/json"},
    )
    assert_error(response, 422, "validation")
    assert (await client.get(f"/api/organizations/{org.id}")).json() == own


async def test_update_organization(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    client = org.client("Super Admin")
    body = {
        "name": "Renamed Co", "subdomain": f"renamed-{other.subdomain}", "entraEnabled": True,
        "historyRetentionDays": 400,
    }  # fmt: skip
    response = await client.put(f"/api/organizations/{other.id}", json=body)
    assert response.status_code == 200, response.text
    updated = response.json()
    assert (updated["name"], updated["subdomain"]) == ("Renamed Co", f"renamed-{other.subdomain}")
    assert (updated["entraEnabled"], updated["oktaEnabled"]) == (True, False)
    assert updated["historyRetentionDays"] == 400
    assert (await client.get(f"/api/organizations/{other.id}")).json() == updated
    assert_error(await client.put(f"/api/organizations/{OTHER_ID}", json=body), 404, "not found")


async def test_delete_another_organization_removes_everything_it_owns(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    client = org.client("Super Admin")
    response = await client.delete(f"/api/organizations/{other.id}")
    assert response.status_code == 204
    assert_error(await client.get(f"/api/organizations/{other.id}"), 404)
    assert_error(await other.client("Administrator").get("/api/users/me"), 401)
    assert_error(await client.delete(f"/api/organizations/{other.id}"), 404)
    assert (await client.get("/api/users/me")).status_code == 200


async def test_cannot_delete_own_organization(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    client = org.client("Super Admin")
    response = await client.delete(f"/api/organizations/{org.id}")
    assert_error(response, 400, "own organization")
    assert (await client.get(f"/api/organizations/{org.id}")).status_code == 200
    async with sessionmaker() as session:
        assert await session.get(Organization, org.id) is not None


@pytest.mark.parametrize("role", ["Administrator", "Manager", "Operator", "Viewer"])
async def test_only_super_admins_manage_organizations(org_factory, role: str) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    client = org.client(role)
    assert_error(await client.get("/api/organizations"), 403, "forbidden")
    assert_error(await client.get(f"/api/organizations/{org.id}"), 403, "forbidden")
    assert_error(await client.post("/api/organizations", json=org_body()), 403, "forbidden")
    body = {"name": "Mine now", "subdomain": other.subdomain}
    assert_error(await client.put(f"/api/organizations/{other.id}", json=body), 403)
    assert_error(await client.delete(f"/api/organizations/{other.id}"), 403, "forbidden")
    still = await org.client("Super Admin").get(f"/api/organizations/{other.id}")
    assert still.status_code == 200
    assert still.json()["name"] != "Mine now"


async def test_organizations_need_a_session(org_factory, anonymous) -> None:
    org: Org = await org_factory()
    assert_error(await anonymous.get("/api/organizations"), 401, "unauthorized")
    assert_error(await anonymous.get(f"/api/organizations/{org.id}"), 401)
    assert_error(await anonymous.post("/api/organizations", json=org_body()), 401)
    body = {"name": "Anon", "subdomain": org.subdomain}
    assert_error(await anonymous.put(f"/api/organizations/{org.id}", json=body), 401)
    assert_error(await anonymous.delete(f"/api/organizations/{org.id}"), 401)
    got = await org.client("Super Admin").get(f"/api/organizations/{org.id}")
    assert got.json()["name"] != "Anon"
