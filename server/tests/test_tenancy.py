"""An organization named in a body never moves data into, or out of, another organization.

Reads, updates and deletions by id across organizations (things, events, zones, images and
their thumbnails, exports, zips, keys, users, endpoints, location tags, categories, sites) are
checked route by route in test_access.py.
"""

from typing import Any

from tests.conftest import Org
from tests.helpers import site_body
from tests.test_apikeys import key_body
from tests.tracking_api import created, thing_body, zone_body

SMUGGLED = ("org_id", "orgId", "org", "company", "companies")


def smuggle(body: dict[str, Any], org: Org) -> dict[str, Any]:
    return {**body, **{name: org.id for name in SMUGGLED}}


async def visible_to(org: Org, path: str) -> list[dict[str, Any]]:
    response = await org.client("Administrator").get(path, params={"limit": 1000})
    assert response.status_code == 200, response.text
    return list(response.json())


async def test_an_organization_in_a_body_is_ignored(org_factory) -> None:
    mine: Org = await org_factory()
    theirs: Org = await org_factory()
    admin = mine.client("Administrator")
    site = mine.site_ids[0]
    thing = await created(
        await admin.post("/api/things", json=smuggle(thing_body(site, "Smuggled"), theirs))
    )
    zone = await created(await admin.post("/api/zones", json=smuggle(zone_body(site), theirs)))
    new_site = await created(await admin.post("/api/sites", json=smuggle(site_body("S"), theirs)))
    key = await created(await admin.post("/api/apikeys", json=smuggle(key_body(mine), theirs)))
    # Updating with another organization named keeps the resource where it is.
    moved = await admin.put(f"/api/zones/{zone['_id']}", json=smuggle(zone, theirs))
    assert moved.status_code == 200, moved.text

    for path, made in (
        ("/api/things", thing),
        ("/api/zones", zone),
        ("/api/sites", new_site),
        ("/api/apikeys", key),
    ):
        assert made["_id"] in {row["_id"] for row in await visible_to(mine, path)}, path
        assert made["_id"] not in {row["_id"] for row in await visible_to(theirs, path)}, path


async def test_a_security_context_naming_another_organization_is_ignored(org_factory) -> None:
    mine: Org = await org_factory()
    theirs: Org = await org_factory()
    body = {
        "name": "Cross Org",
        "username": f"cross.{mine.subdomain}@example.com",
        "roles": [mine.role_ids["Viewer"]],
        "password": "Correct-Horse-Battery-42",
        "securityCtx": {"sites": [mine.site_ids[0]], "companies": [theirs.id]},
        "org_id": theirs.id,
    }
    user = await created(await mine.client("Administrator").post("/api/users", json=body))
    assert user["securityCtx"]["companies"] == [mine.id]
    assert user["id"] in {u["id"] for u in await visible_to(mine, "/api/users")}
    assert user["id"] not in {u["id"] for u in await visible_to(theirs, "/api/users")}
    # Another organization's sites in a security context are refused, not stored.
    body["username"] = f"cross2.{mine.subdomain}@example.com"
    body["securityCtx"] = {"sites": [theirs.site_ids[0]]}
    refused = await mine.client("Administrator").post("/api/users", json=body)
    assert refused.status_code in (400, 404, 422), refused.text
    assert body["username"] not in {u["username"] for u in await visible_to(mine, "/api/users")}
