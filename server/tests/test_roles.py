"""Roles of an organization and the access rules merged over roles."""

import pytest

from tagtrack.access.rules import RESOURCES
from tests.conftest import Org
from tests.helpers import OTHER_ID, assert_error

VISIBLE = ["Administrator", "Manager", "Operator", "Viewer"]


async def rules_for(org: Org, *roles: str) -> dict[str, dict[str, bool]]:
    ids = ",".join(org.role_ids[r] for r in roles)
    response = await org.client("Viewer").get("/api/accessRules", params={"roles": ids})
    assert response.status_code == 200, response.text
    body = response.json()
    assert [r["resource"] for r in body] == sorted(r["resource"] for r in body)
    return {r.pop("resource"): r for r in body}


@pytest.mark.parametrize("role", ["Administrator", "Manager", "Operator", "Viewer"])
async def test_roles_are_sorted_and_hide_super_admin(org_factory, role: str) -> None:
    org: Org = await org_factory()
    response = await org.client(role).get("/api/roles")
    assert response.status_code == 200
    assert response.json() == [{"id": org.role_ids[name], "name": name} for name in VISIBLE]


async def test_super_admins_see_every_role(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Super Admin").get("/api/roles")
    assert response.status_code == 200
    names = [r["name"] for r in response.json()]
    assert names == sorted(["Super Admin", *VISIBLE])
    assert {r["id"] for r in response.json()} == set(org.role_ids.values())


async def test_roles_are_per_organization(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    ids = {r["id"] for r in (await org.client("Super Admin").get("/api/roles")).json()}
    assert ids.isdisjoint(other.role_ids.values())


async def test_roles_and_rules_need_a_session(org_factory, anonymous) -> None:
    org: Org = await org_factory()
    assert_error(await anonymous.get("/api/roles"), 401, "unauthorized")
    response = await anonymous.get("/api/accessRules", params={"roles": org.role_ids["Viewer"]})
    assert_error(response, 401, "unauthorized")


async def test_seeded_rules_match_the_design(org_factory) -> None:
    org: Org = await org_factory()
    super_admin = await rules_for(org, "Super Admin")
    assert set(super_admin) == set(RESOURCES)
    assert all(all(g.values()) for g in super_admin.values())

    admin = await rules_for(org, "Administrator")
    assert admin["allsites"] == {"create": False, "modify": False, "delete": False}
    assert admin["organizations"] == {"create": False, "modify": False, "delete": False}
    for resource in ("users", "sites", "orgsettings", "apikeys", "ssosettings", "zones"):
        assert admin[resource] == {"create": True, "modify": True, "delete": True}

    manager = await rules_for(org, "Manager")
    for resource in ("things", "images", "image-categories", "import", "reportconfigs", "zones"):
        assert manager[resource] == {"create": True, "modify": True, "delete": True}
    for resource in ("maps", "locationtags", "endpoints"):
        assert all(manager[resource].values())
    for resource in ("users", "sites", "orgsettings", "organizations", "apikeys"):
        assert not any(manager[resource].values())

    operator = await rules_for(org, "Operator")
    for resource in ("things", "images"):
        assert operator[resource] == {"create": True, "modify": True, "delete": False}
    assert not any(operator["zones"].values())

    viewer = await rules_for(org, "Viewer")
    assert set(viewer) == set(RESOURCES)
    assert not any(any(g.values()) for g in viewer.values())


async def test_rules_are_merged_over_roles(org_factory) -> None:
    org: Org = await org_factory()
    merged = await rules_for(org, "Operator", "Viewer", "Manager")
    # Operator cannot delete things, Manager can: together they can.
    assert merged["things"] == {"create": True, "modify": True, "delete": True}
    assert merged["zones"] == {"create": True, "modify": True, "delete": True}
    assert merged["users"] == {"create": False, "modify": False, "delete": False}
    assert len(merged) == len(RESOURCES)


async def test_rules_of_other_organizations_roles_are_empty(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    client = org.client("Super Admin")
    foreign = ",".join(other.role_ids.values())
    response = await client.get("/api/accessRules", params={"roles": foreign})
    assert response.status_code == 200
    assert response.json() == []
    mixed = f"{other.role_ids['Super Admin']},{org.role_ids['Viewer']}"
    response = await client.get("/api/accessRules", params={"roles": mixed})
    assert not any(r["create"] or r["modify"] or r["delete"] for r in response.json())


@pytest.mark.parametrize("roles", ["", ",,", OTHER_ID, "not-an-id"])
async def test_rules_for_no_or_unknown_roles_are_empty(org_factory, roles: str) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").get("/api/accessRules", params={"roles": roles})
    assert response.status_code == 200
    assert response.json() == []


async def test_rules_without_the_roles_parameter_are_empty(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").get("/api/accessRules")
    assert response.status_code == 200
    assert response.json() == []


async def test_rules_refuse_an_oversized_roles_parameter(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Viewer").get("/api/accessRules", params={"roles": "a" * 3000})
    assert_error(response, 422, "validation", "roles")
