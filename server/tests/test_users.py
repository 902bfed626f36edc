"""Users: the profile, CRUD with validation and role rules, usernames, email checks."""

import asyncio
from typing import Any

import httpx
import pytest

from tagtrack.models.ids import ALL_SITES_ID
from tests.conftest import PASSWORD, Org, make_client
from tests.helpers import OTHER_ID, assert_error, signed_in_user

STRONG = "Velvet-Harbor-Compass-93"
ROLE_NAMES = ("Super Admin", "Administrator", "Manager", "Operator", "Viewer")


async def login(app: object, username: str, password: str) -> httpx.Response:
    async with make_client(app) as client:
        return await client.post(
            "/api/auth/login", json={"username": username, "password": password}
        )


def new_user(org: Org, name: str = "Nina New", **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": name,
        "username": f"{name.lower().replace(' ', '.')}.{org.subdomain}@example.com",
        "roles": [org.role_ids["Operator"]],
        "securityCtx": {"sites": [org.site_ids[0]]},
        "password": STRONG,
    }
    body.update(changes)
    return body


async def users_of(org: Org) -> list[dict[str, Any]]:
    response = await org.client("Super Admin").get("/api/users")
    assert response.status_code == 200
    return list(response.json())


async def user_by_role(org: Org, role: str) -> dict[str, Any]:
    return next(u for u in await users_of(org) if u["username"] == org.usernames[role])


# --- the profile ---------------------------------------------------------------------------


async def test_me_returns_the_signed_in_user(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Operator").get("/api/users/me")
    assert response.status_code == 200
    body = response.json()
    assert body["username"] == org.usernames["Operator"]
    assert body["roles"] == [org.role_ids["Operator"]]
    assert body["securityCtx"]["sites"] == [ALL_SITES_ID]
    assert body["superAdmin"] is False
    assert body["orgId"] == org.id


async def test_me_needs_a_session(anonymous) -> None:
    assert_error(await anonymous.get("/api/users/me"), 401, "unauthorized")
    body = {"name": "X", "username": "x@example.com"}
    assert_error(await anonymous.put("/api/users/me", json=body), 401, "unauthorized")


async def test_me_update_changes_name_and_username(app, org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Viewer")
    username = f"renamed.{org.subdomain}@example.com"
    response = await client.put("/api/users/me", json={"name": "  Vera  ", "username": username})
    assert response.status_code == 200, response.text
    assert response.json()["name"] == "Vera"
    assert response.json()["username"] == username
    # Without a new password the session lives on.
    me = await client.get("/api/users/me")
    assert me.status_code == 200
    assert (me.json()["name"], me.json()["username"]) == ("Vera", username)
    assert (await login(app, username, PASSWORD)).status_code == 200
    assert_error(await login(app, org.usernames["Viewer"], PASSWORD), 401, "invalid credentials")


async def test_me_password_change_ends_every_session(app, org_factory) -> None:
    org: Org = await org_factory()
    username = org.usernames["Manager"]
    async with make_client(app) as second_device:
        assert (
            await second_device.post(
                "/api/auth/login", json={"username": username, "password": PASSWORD}
            )
        ).status_code == 200
        client = org.client("Manager")
        response = await client.put(
            "/api/users/me", json={"name": "Manager", "username": username, "password": STRONG}
        )
        assert response.status_code == 200, response.text
        assert_error(await client.get("/api/users/me"), 401)
        assert_error(await second_device.get("/api/users/me"), 401)
    assert_error(await login(app, username, PASSWORD), 401, "invalid credentials")
    assert (await login(app, username, STRONG)).status_code == 200


@pytest.mark.parametrize("password", ["short", "password123", "aaaaaaaaaaaa"])
async def test_me_weak_password_is_refused(org_factory, password: str) -> None:
    org: Org = await org_factory()
    client = org.client("Operator")
    response = await client.put(
        "/api/users/me",
        json={"name": "Changed", "username": org.usernames["Operator"], "password": password},
    )
    assert_error(response, 422, "password too weak")
    me = await client.get("/api/users/me")
    assert me.status_code == 200
    assert me.json()["name"] != "Changed"


async def test_me_password_that_repeats_the_username_is_weak(org_factory) -> None:
    org: Org = await org_factory()
    username = org.usernames["Operator"]
    response = await org.client("Operator").put(
        "/api/users/me", json={"name": "Op", "username": username, "password": username}
    )
    assert_error(response, 422, "password too weak")


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": "   "}, "name"),
        ({"username": "not-an-email"}, "username"),
        ({"name": None}, "name"),
        ({"password": 12345678}, "password"),
    ],
)
async def test_me_invalid_fields_change_nothing(org_factory, changes: dict[str, Any], field: str):
    org: Org = await org_factory()
    client = org.client("Viewer")
    before = (await client.get("/api/users/me")).json()
    body = {"name": "New Name", "username": org.usernames["Viewer"], **changes}
    assert_error(await client.put("/api/users/me", json=body), 422, "validation", field)
    assert (await client.get("/api/users/me")).json() == before


async def test_me_cannot_take_another_users_username(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Viewer")
    body = {"name": "V", "username": org.usernames["Manager"].upper()}
    assert_error(await client.put("/api/users/me", json=body), 400, "duplicate")
    assert (await client.get("/api/users/me")).json()["username"] == org.usernames["Viewer"]


async def test_me_rejects_malformed_json(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Viewer")
    response = await client.put(
        "/api/users/me", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert_error(response, 422, "validation")
    assert (await client.get("/api/users/me")).json()["username"] == org.usernames["Viewer"]


# --- listing and reading ---------------------------------------------------------------------


async def test_list_users_sorted_by_name_with_total(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").get("/api/users")
    assert response.status_code == 200
    assert response.headers["x-total-count"] == "5"
    users = response.json()
    assert [u["name"] for u in users] == sorted(u["name"] for u in users)
    assert {u["username"] for u in users} == set(org.usernames.values())
    for user in users:
        assert set(user) == {"id", "name", "username", "roles", "securityCtx"}
        assert "password" not in str(user).lower()


async def test_super_admin_role_is_hidden_from_non_super_admins(org_factory) -> None:
    org: Org = await org_factory()
    super_admin_role = org.role_ids["Super Admin"]
    as_admin = (await org.client("Administrator").get("/api/users")).json()
    assert all(super_admin_role not in u["roles"] for u in as_admin)
    as_super = (await org.client("Super Admin").get("/api/users")).json()
    holder = next(u for u in as_super if u["username"] == org.usernames["Super Admin"])
    assert holder["roles"] == [super_admin_role]


async def test_list_users_pages_sorts_and_searches(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    response = await client.get("/api/users", params={"sort": "-username", "limit": 2, "page": 1})
    assert response.status_code == 200
    assert response.headers["x-total-count"] == "5"
    ordered = sorted(org.usernames.values(), reverse=True)
    assert [u["username"] for u in response.json()] == ordered[2:4]
    response = await client.get("/api/users", params={"search": "MANAGER"})
    assert response.headers["x-total-count"] == "1"
    assert [u["username"] for u in response.json()] == [org.usernames["Manager"]]
    response = await client.get("/api/users", params={"search2": "operater"})
    assert response.status_code == 200
    assert org.usernames["Operator"] in [u["username"] for u in response.json()]
    assert_error(
        await client.get("/api/users", params={"sort": "password_hash"}), 400, "invalid sort"
    )


async def test_get_one_user(org_factory) -> None:
    org: Org = await org_factory()
    target = await user_by_role(org, "Manager")
    response = await org.client("Administrator").get(f"/api/users/{target['id']}")
    assert response.status_code == 200
    assert response.json() == target


async def test_unknown_user_id_is_not_found(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    assert_error(await client.get(f"/api/users/{OTHER_ID}"), 404, "not found")
    assert_error(await client.get("/api/users/not-an-id"), 404, "not found")


# --- creating ---------------------------------------------------------------------------------


async def test_create_user_then_sign_in_as_them(app, org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    body = new_user(org)
    response = await client.post("/api/users", json=body)
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["name"] == "Nina New"
    assert created["username"] == body["username"]
    assert created["roles"] == [org.role_ids["Operator"]]
    assert created["securityCtx"]["sites"] == [org.site_ids[0]]
    assert "password" not in created
    listed = await client.get("/api/users")
    assert listed.headers["x-total-count"] == "6"
    assert (await client.get(f"/api/users/{created['id']}")).json() == created
    signed_in = await login(app, body["username"], STRONG)
    assert signed_in.status_code == 200
    assert signed_in.json()["id"] == created["id"]


async def test_create_user_with_all_sites(org_factory) -> None:
    org: Org = await org_factory()
    body = new_user(org, securityCtx={"sites": [ALL_SITES_ID]})
    response = await org.client("Administrator").post("/api/users", json=body)
    assert response.status_code == 201, response.text
    assert response.json()["securityCtx"]["sites"] == [ALL_SITES_ID]


@pytest.mark.parametrize(
    ("changes", "status", "reason", "text"),
    [
        ({"name": ""}, 422, "validation", "name"),
        ({"name": "   "}, 422, "validation", "name"),
        ({"name": None}, 422, "validation", "name"),
        ({"username": "not-an-email"}, 422, "validation", "username"),
        ({"username": ""}, 422, "validation", "username"),
        ({"roles": []}, 422, "validation", "roles"),
        ({"roles": "abc"}, 422, "validation", "roles"),
        ({"password": None}, 422, "validation", "password"),
        ({"password": ""}, 422, "validation", "password"),
        ({"password": "short1"}, 422, "password too weak", "at least 8"),
        ({"password": "password1234"}, 422, "password too weak", "weak"),
        ({"securityCtx": {"sites": "all"}}, 422, "validation", "securityCtx"),
    ],
)
async def test_create_user_validation(
    org_factory, changes: dict[str, Any], status: int, reason: str, text: str
) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    body = new_user(org)
    body.update(changes)
    assert_error(await client.post("/api/users", json=body), status, reason, text)
    assert (await client.get("/api/users")).headers["x-total-count"] == "5"


async def test_create_user_missing_fields(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    for field in ("name", "username", "roles"):
        body = new_user(org)
        del body[field]
        assert_error(await client.post("/api/users", json=body), 422, "validation", field)
    assert (await client.get("/api/users")).headers["x-total-count"] == "5"


async def test_create_user_rejects_malformed_json(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    response = await client.post(
        "/api/users", content=b'{"name": "x",', headers={"content-type": "application/json"}
    )
    assert_error(response, 422, "validation")
    assert (await client.get("/api/users")).headers["x-total-count"] == "5"


async def test_duplicate_username_is_refused_in_any_case_and_any_org(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    client = org.client("Administrator")
    same = new_user(org, username=org.usernames["Viewer"].upper())
    assert_error(await client.post("/api/users", json=same), 400, "duplicate", "duplicate")
    elsewhere = new_user(org, username=other.usernames["Viewer"])
    assert_error(await client.post("/api/users", json=elsewhere), 400, "duplicate")
    assert (await client.get("/api/users")).headers["x-total-count"] == "5"


async def test_concurrent_creates_of_one_username_give_one_user(org_factory) -> None:
    org: Org = await org_factory()
    body = new_user(org, name="Twin User")
    responses = await asyncio.gather(
        org.client("Administrator").post("/api/users", json=body),
        org.client("Super Admin").post("/api/users", json=body),
    )
    assert sorted(r.status_code for r in responses) == [201, 400]
    assert_error(next(r for r in responses if r.status_code == 400), 400, "duplicate")
    assert [u["username"] for u in await users_of(org)].count(body["username"]) == 1


async def test_only_super_admins_assign_the_super_admin_role(org_factory) -> None:
    org: Org = await org_factory()
    body = new_user(org, roles=[org.role_ids["Super Admin"]])
    refused = await org.client("Administrator").post("/api/users", json=body)
    assert_error(refused, 403, "forbidden", "Super Admin")
    assert len(await users_of(org)) == 5
    created = await org.client("Super Admin").post("/api/users", json=body)
    assert created.status_code == 201, created.text
    assert created.json()["roles"] == [org.role_ids["Super Admin"]]


async def test_unknown_or_foreign_roles_and_sites_are_refused(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    client = org.client("Administrator")
    cases = [
        (new_user(org, roles=[other.role_ids["Viewer"]]), "unknown role"),
        (new_user(org, roles=[OTHER_ID]), "unknown role"),
        (new_user(org, securityCtx={"sites": [other.site_ids[0]]}), "unknown site"),
        (new_user(org, securityCtx={"sites": [OTHER_ID]}), "unknown site"),
    ]
    for body, reason in cases:
        assert_error(await client.post("/api/users", json=body), 400, reason)
    assert (await client.get("/api/users")).headers["x-total-count"] == "5"


async def test_a_site_scoped_admin_grants_only_their_own_sites(
    app, sessionmaker, org_factory
) -> None:
    org: Org = await org_factory()
    mine, theirs = org.site_ids
    client, admin_id = await signed_in_user(app, sessionmaker, org, ["Administrator"], [mine])
    for sites in ([theirs], [ALL_SITES_ID], [mine, theirs]):
        body = new_user(org, securityCtx={"sites": sites})
        assert_error(await client.post("/api/users", json=body), 403, "forbidden", "scope")
    assert len(await users_of(org)) == 6
    # Nor widen their own scope.
    me = (await client.get(f"/api/users/{admin_id}")).json()
    widened = {**me, "securityCtx": {"sites": [ALL_SITES_ID]}}
    assert_error(await client.put("/api/users", json=widened), 403, "forbidden")
    assert (await client.get(f"/api/users/{admin_id}")).json() == me
    response = await client.post("/api/users", json=new_user(org, securityCtx={"sites": [mine]}))
    assert response.status_code == 201, response.text
    assert response.json()["securityCtx"]["sites"] == [mine]


# --- updating ---------------------------------------------------------------------------------


async def test_update_user_replaces_fields(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    target = await user_by_role(org, "Viewer")
    target.update(
        name="Victor Viewer",
        roles=[org.role_ids["Viewer"], org.role_ids["Manager"]],
        securityCtx={"sites": [org.site_ids[1]], "companies": []},
    )
    response = await client.put("/api/users", json=target)
    assert response.status_code == 200, response.text
    assert response.json()["name"] == "Victor Viewer"
    assert response.json()["roles"] == [org.role_ids["Viewer"], org.role_ids["Manager"]]
    assert response.json()["securityCtx"]["sites"] == [org.site_ids[1]]
    assert (await client.get(f"/api/users/{target['id']}")).json() == response.json()
    # The user's session sees the new roles at once.
    me = (await org.client("Viewer").get("/api/users/me")).json()
    assert me["roles"] == [org.role_ids["Viewer"], org.role_ids["Manager"]]


async def test_update_with_a_password_ends_the_users_sessions(app, org_factory) -> None:
    org: Org = await org_factory()
    target = await user_by_role(org, "Operator")
    target["password"] = STRONG
    response = await org.client("Administrator").put("/api/users", json=target)
    assert response.status_code == 200, response.text
    assert_error(await org.client("Operator").get("/api/users/me"), 401)
    assert (await login(app, org.usernames["Operator"], STRONG)).status_code == 200
    # The admin's own session is untouched.
    assert (await org.client("Administrator").get("/api/users/me")).status_code == 200


async def test_update_without_a_password_keeps_it_and_sessions(app, org_factory) -> None:
    org: Org = await org_factory()
    target = await user_by_role(org, "Operator")
    target["name"] = "Olga"
    response = await org.client("Administrator").put("/api/users", json=target)
    assert response.status_code == 200
    assert (await org.client("Operator").get("/api/users/me")).json()["name"] == "Olga"
    assert (await login(app, org.usernames["Operator"], PASSWORD)).status_code == 200


async def test_update_validation_changes_nothing(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    target = await user_by_role(org, "Viewer")
    cases: list[tuple[dict[str, Any], int, str]] = [
        ({"name": ""}, 422, "validation"),
        ({"username": "nope"}, 422, "validation"),
        ({"roles": []}, 422, "validation"),
        ({"password": "weakpass"}, 422, "password too weak"),
        ({"username": org.usernames["Manager"]}, 400, "duplicate"),
        ({"roles": [OTHER_ID]}, 400, "unknown role"),
        ({"roles": [org.role_ids["Super Admin"]]}, 403, "forbidden"),
        ({"securityCtx": {"sites": [OTHER_ID]}}, 400, "unknown site"),
    ]
    for changes, status, reason in cases:
        assert_error(await client.put("/api/users", json={**target, **changes}), status, reason)
    malformed = await client.put(
        "/api/users", content=b'{"id": "', headers={"content-type": "application/json"}
    )
    assert_error(malformed, 422, "validation")
    assert_error(await client.put("/api/users", json=[target]), 422, "validation")
    assert (await client.get(f"/api/users/{target['id']}")).json() == target
    assert (await org.client("Viewer").get("/api/users/me")).status_code == 200


async def test_update_needs_an_id(org_factory) -> None:
    org: Org = await org_factory()
    target = await user_by_role(org, "Viewer")
    del target["id"]
    response = await org.client("Administrator").put("/api/users", json=target)
    assert_error(response, 422, "validation", "id")


async def test_administrators_cannot_change_a_super_admin(org_factory) -> None:
    org: Org = await org_factory()
    target = await user_by_role(org, "Super Admin")
    admin = org.client("Administrator")
    changed = {**target, "name": "Hijacked", "roles": [org.role_ids["Viewer"]]}
    assert_error(await admin.put("/api/users", json=changed), 403, "forbidden")
    assert_error(await admin.delete(f"/api/users/{target['id']}"), 403, "forbidden")
    assert await user_by_role(org, "Super Admin") == target


# --- deleting ---------------------------------------------------------------------------------


async def test_delete_user(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    target = await user_by_role(org, "Manager")
    response = await client.delete(f"/api/users/{target['id']}")
    assert response.status_code == 204
    assert_error(await client.get(f"/api/users/{target['id']}"), 404)
    assert (await client.get("/api/users")).headers["x-total-count"] == "4"
    assert_error(await org.client("Manager").get("/api/users/me"), 401)
    assert_error(await client.delete(f"/api/users/{target['id']}"), 404)


async def test_cannot_delete_oneself(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    me = (await client.get("/api/users/me")).json()
    assert_error(await client.delete(f"/api/users/{me['id']}"), 400, "self delete", "own account")
    assert (await client.get("/api/users/me")).status_code == 200
    assert (await client.get("/api/users")).headers["x-total-count"] == "5"


# --- rights and other organizations ---------------------------------------------------------


@pytest.mark.parametrize("role", ["Manager", "Operator", "Viewer"])
async def test_roles_without_user_rights_get_403(org_factory, role: str) -> None:
    org: Org = await org_factory()
    client = org.client(role)
    target = await user_by_role(org, "Viewer")
    assert_error(await client.get("/api/users"), 403, "forbidden")
    assert_error(await client.get(f"/api/users/{target['id']}"), 403, "forbidden")
    assert_error(await client.post("/api/users", json=new_user(org)), 403, "forbidden")
    assert_error(await client.put("/api/users", json={**target, "name": "X"}), 403, "forbidden")
    assert_error(await client.delete(f"/api/users/{target['id']}"), 403, "forbidden")
    assert_error(await client.post("/api/check/email", json={"email": "a@b.co"}), 403)
    assert await user_by_role(org, "Viewer") == target
    assert len(await users_of(org)) == 5


async def test_every_user_route_needs_a_session(org_factory, anonymous) -> None:
    org: Org = await org_factory()
    target = await user_by_role(org, "Viewer")
    calls = [
        anonymous.get("/api/users"),
        anonymous.get(f"/api/users/{target['id']}"),
        anonymous.post("/api/users", json=new_user(org)),
        anonymous.put("/api/users", json={**target, "name": "X"}),
        anonymous.delete(f"/api/users/{target['id']}"),
        anonymous.get("/api/usernames"),
        anonymous.post("/api/check/email", json={"email": "a@b.co"}),
    ]
    for call in calls:
        assert_error(await call, 401, "unauthorized")
    assert await user_by_role(org, "Viewer") == target
    assert len(await users_of(org)) == 5


async def test_another_organizations_users_are_not_found(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    target = await user_by_role(other, "Manager")
    client = org.client("Super Admin")
    assert_error(await client.get(f"/api/users/{target['id']}"), 404, "not found")
    changed = {**target, "name": "Taken Over", "roles": [org.role_ids["Viewer"]]}
    assert_error(await client.put("/api/users", json=changed), 404, "not found")
    assert_error(await client.delete(f"/api/users/{target['id']}"), 404, "not found")
    listed = (await client.get("/api/users")).json()
    assert target["id"] not in [u["id"] for u in listed]
    assert await user_by_role(other, "Manager") == target
    assert (await other.client("Manager").get("/api/users/me")).status_code == 200


# --- usernames and email checks ---------------------------------------------------------------


async def test_usernames_of_the_organization_for_any_user(org_factory) -> None:
    org: Org = await org_factory()
    await org_factory()
    response = await org.client("Viewer").get("/api/usernames")
    assert response.status_code == 200
    names = response.json()
    assert sorted(n["username"] for n in names) == sorted(org.usernames.values())
    assert all(set(n) == {"id", "username", "name"} for n in names)


async def test_check_email(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    taken = await client.post("/api/check/email", json={"email": org.usernames["Viewer"].upper()})
    assert taken.status_code == 200
    assert taken.json() == {"exists": True}
    free = await client.post("/api/check/email", json={"email": "free.name@example.com"})
    assert free.json() == {"exists": False}
    assert_error(await client.post("/api/check/email", json={}), 422, "validation", "email")
    assert_error(await client.post("/api/check/email", json={"email": 5}), 422, "validation")
