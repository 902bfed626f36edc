"""Zones: CRUD with gates, validation messages, counts of things, look-ups, rights, scope."""

from typing import Any

import pytest

from tests.conftest import Org
from tests.helpers import OTHER_ID, assert_error, signed_in_user
from tests.tracking_api import make_endpoint, make_thing, make_zone, set_state, zone_body

MINUTE_NS = 60 * 10**9


async def floor(org: Org) -> tuple[dict[str, Any], dict[str, Any]]:
    admin = org.client("Administrator")
    gate = await make_endpoint(admin, org.site_ids[0], "Gate")
    dock = await make_endpoint(admin, org.site_ids[0], "Dock")
    return gate, dock


async def test_create_read_update_delete_with_gates(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    gate, dock = await floor(org)
    gates = [
        {"endpoint": gate["_id"], "direction": "IN", "antenna": 1},
        {"endpoint": gate["_id"], "direction": "OUT", "antenna": 2},
        {"endpoint": dock["_id"], "direction": "NEAR", "antenna": -1},
    ]
    body = zone_body(
        org.site_ids[0],
        " Receiving ",
        description="Inbound docks",
        duration=30 * MINUTE_NS,
        emails=["ops@example.com", " boss@example.com "],
        killDuration=1.5,
        immediateKill=True,
        killMode="site",
        gates=gates,
        items=99,
    )
    response = await admin.post("/api/zones", json=body)
    assert response.status_code == 201, response.text
    zone = response.json()
    assert zone == {
        "_id": zone["_id"],
        "name": "Receiving",
        "description": "Inbound docks",
        "site": org.site_ids[0],
        "duration": 30 * MINUTE_NS,
        "emails": ["ops@example.com", "boss@example.com"],
        "killDuration": 1.5,
        "immediateKill": True,
        "killMode": "site",
        "gates": gates,
        "items": 0,
        "workers": 0,
    }
    assert (await admin.get(f"/api/zones/{zone['_id']}")).json() == zone

    # PUT replaces the gates, in the order given.
    new_gates = [
        {"endpoint": dock["_id"], "direction": "GONE", "antenna": 8},
        {"endpoint": gate["_id"], "direction": "IN", "antenna": 0},
    ]
    changed = {**zone, "name": "Inbound", "gates": new_gates, "killMode": "zone", "emails": []}
    response = await admin.put(f"/api/zones/{zone['_id']}", json=changed)
    assert response.status_code == 200, response.text
    assert response.json()["gates"] == new_gates
    assert response.json()["name"] == "Inbound"
    assert (await admin.get(f"/api/zones/{zone['_id']}")).json() == response.json()

    response = await admin.put(f"/api/zones/{zone['_id']}", json={**changed, "gates": []})
    assert response.json()["gates"] == []

    assert (await admin.delete(f"/api/zones/{zone['_id']}")).status_code == 204
    assert_error(await admin.get(f"/api/zones/{zone['_id']}"), 404)


async def test_defaults(org_factory) -> None:
    org: Org = await org_factory()
    gate, _ = await floor(org)
    gates = [{"endpoint": gate["_id"], "direction": "IN"}]
    zone = await make_zone(org.client("Manager"), org.site_ids[0], gates=gates)
    assert zone["duration"] == 0 and zone["emails"] == [] and zone["killDuration"] == 0
    assert zone["immediateKill"] is False and zone["killMode"] == "zone"
    assert zone["gates"] == [{"endpoint": gate["_id"], "direction": "IN", "antenna": -1}]


@pytest.mark.parametrize(
    ("gate", "text"),
    [
        ({"direction": "IN"}, "gates.0.endpoint: Please select an value"),
        ({"endpoint": "", "direction": "IN"}, "gates.0.endpoint: Please select an value"),
        ({"endpoint": None, "direction": "OUT"}, "gates.0.endpoint: Please select an value"),
        ({"endpoint": OTHER_ID, "direction": "IN"}, "not an endpoint of the zone's site"),
    ],
)
async def test_gate_endpoint_is_required_and_of_the_site(org_factory, gate, text) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    response = await admin.post("/api/zones", json=zone_body(org.site_ids[0], gates=[gate]))
    assert_error(response, 400, message=text)
    assert (await admin.get("/api/zones")).json() == []


async def test_gate_endpoint_of_another_site_or_organization(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    elsewhere = await make_endpoint(admin, org.site_ids[1], "Elsewhere")
    other: Org = await org_factory()
    theirs = await make_endpoint(other.client("Administrator"), other.site_ids[0], "Theirs")
    for endpoint in (elsewhere, theirs):
        gates = [{"endpoint": endpoint["_id"], "direction": "IN"}]
        response = await admin.post("/api/zones", json=zone_body(org.site_ids[0], gates=gates))
        assert_error(response, 400, message="not an endpoint of the zone's site")
    # Moving a zone to another site needs gates of that site.
    gate, _ = await floor(org)
    zone = await make_zone(
        admin, org.site_ids[0], gates=[{"endpoint": gate["_id"], "direction": "IN"}]
    )
    response = await admin.put(f"/api/zones/{zone['_id']}", json={**zone, "site": org.site_ids[1]})
    assert_error(response, 400, message="gates.0.endpoint")


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({"name": ""}, "name: is required"),
        (
            {"emails": ["ops@example.com", "not-an-email"]},
            "emails.1: 'not-an-email' is not a valid",
        ),
        ({"duration": -1}, "duration"),
        ({"duration": "soon"}, "duration"),
        ({"killDuration": -0.5}, "killDuration"),
        ({"killMode": "galaxy"}, "killMode"),
        ({"gates": [{"endpoint": OTHER_ID, "direction": "UP"}]}, "gates.0.direction"),
        ({"gates": [{"endpoint": OTHER_ID, "direction": "IN", "antenna": 9}]}, "gates.0.antenna"),
        ({"gates": [{"endpoint": OTHER_ID, "direction": "IN", "antenna": -2}]}, "gates.0.antenna"),
        ({"gates": [{"endpoint": OTHER_ID}]}, "gates.0.direction: is required"),
        ({"site": None}, "site"),
    ],
)
async def test_invalid_zones_are_refused(org_factory, changes, text) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    response = await admin.post("/api/zones", json={**zone_body(org.site_ids[0]), **changes})
    assert_error(response, 422, message=text)
    assert (await admin.get("/api/zones")).headers["x-total-count"] == "0"


async def test_failed_update_changes_nothing(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    gate, _ = await floor(org)
    zone = await make_zone(
        admin, org.site_ids[0], gates=[{"endpoint": gate["_id"], "direction": "IN"}]
    )
    url = f"/api/zones/{zone['_id']}"
    bad_gate = {**zone, "name": "Changed", "gates": [{"endpoint": "", "direction": "IN"}]}
    assert_error(await admin.put(url, json=bad_gate), 400, message="Please select an value")
    response = await admin.put(
        url, content=b"{not json", headers={"content-type": "application/json"}
    )
    assert_error(response, 422)
    assert (await admin.get(url)).json() == zone


async def test_names_are_unique_per_site(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    await make_zone(admin, org.site_ids[0], "Yard")
    assert_error(
        await admin.post("/api/zones", json=zone_body(org.site_ids[0], "Yard")), 400, "duplicate"
    )
    await make_zone(admin, org.site_ids[1], "Yard")


async def test_counts_of_items_and_workers(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    shelf = await make_zone(admin, site, "Shelf")
    yard = await make_zone(admin, site, "Yard")
    empty = await make_zone(admin, site, "Empty")
    placed = [("item", shelf), ("item", shelf), ("worker", shelf), ("worker", yard), ("item", None)]
    for n, (cls, zone) in enumerate(placed):
        thing = await make_thing(admin, site, f"Thing {n}", cls)
        if zone is not None:
            await set_state(sessionmaker, thing["_id"], zone_id=zone["_id"])
    listed = (await admin.get("/api/zones", params={"site": site, "sort": "name"})).json()
    assert [(z["name"], z["items"], z["workers"]) for z in listed] == [
        ("Empty", 0, 0),
        ("Shelf", 2, 1),
        ("Yard", 0, 1),
    ]
    assert (await admin.get(f"/api/zones/{shelf['_id']}")).json()["items"] == 2
    assert (await admin.get(f"/api/zones/{empty['_id']}")).json()["workers"] == 0


async def test_deleting_an_endpoint_removes_its_gates(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    gate, dock = await floor(org)
    gates = [
        {"endpoint": gate["_id"], "direction": "IN", "antenna": -1},
        {"endpoint": dock["_id"], "direction": "OUT", "antenna": -1},
    ]
    zone = await make_zone(admin, org.site_ids[0], gates=gates)
    assert (await admin.delete(f"/api/endpoints/{gate['_id']}")).status_code == 204
    assert (await admin.get(f"/api/zones/{zone['_id']}")).json()["gates"] == gates[1:]


async def test_list_sort_search_and_page(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    for name in ("Workshop", "Receiving", "Shipping"):
        await make_zone(admin, org.site_ids[0], name)
    await make_zone(admin, org.site_ids[1], "Yard")
    names = lambda r: [z["name"] for z in r.json()]  # noqa: E731
    response = await admin.get("/api/zones", params={"site": org.site_ids[0], "limit": 3000})
    assert names(response) == ["Receiving", "Shipping", "Workshop"]
    assert names(await admin.get("/api/zones", params={"sort": "-name", "limit": 2})) == [
        "Yard",
        "Workshop",
    ]
    assert names(await admin.get("/api/zones", params={"search": "ship"})) == ["Shipping"]


async def test_rights_per_role(org_factory) -> None:
    org: Org = await org_factory()
    zone = await make_zone(org.client("Administrator"), org.site_ids[0])
    url = f"/api/zones/{zone['_id']}"
    for role in ("Viewer", "Operator"):
        client = org.client(role)
        assert_error(await client.post("/api/zones", json=zone_body(org.site_ids[0], role)), 403)
        assert_error(await client.put(url, json=zone), 403)
        assert_error(await client.delete(url), 403)
        assert (await client.get(url)).status_code == 200
    manager = org.client("Manager")
    assert (await manager.put(url, json={**zone, "name": "Renamed"})).status_code == 200
    assert (await manager.delete(url)).status_code == 204


async def test_other_organization_and_site_scope(org_factory, app, sessionmaker) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    admin = org.client("Administrator")
    theirs = await make_zone(other.client("Administrator"), other.site_ids[0], "Theirs")
    url = f"/api/zones/{theirs['_id']}"
    assert_error(await admin.get(url), 404)
    assert_error(await admin.put(url, json={**theirs, "site": org.site_ids[0]}), 404)
    assert_error(await admin.delete(url), 404)
    assert_error(await admin.post("/api/zones", json=zone_body(other.site_ids[0])), 404)

    a, b = org.site_ids
    await make_zone(admin, a, "Mine")
    hidden = await make_zone(admin, b, "Hidden")
    client, _ = await signed_in_user(app, sessionmaker, org, ["Administrator"], [a])
    assert [z["name"] for z in (await client.get("/api/zones")).json()] == ["Mine"]
    assert_error(await client.get("/api/zones", params={"site": b}), 404)
    assert_error(await client.get(f"/api/zones/{hidden['_id']}"), 404)
    assert_error(await client.delete(f"/api/zones/{hidden['_id']}"), 404)


async def test_lookups(org_factory) -> None:
    org: Org = await org_factory()
    viewer = org.client("Viewer")
    assert (await viewer.get("/api/killmodes")).json() == [
        {"id": "zone", "name": "Leave the zone"},
        {"id": "site", "name": "Leave the site"},
    ]
    assert (await viewer.get("/api/thingclasses")).json() == [
        {"id": "item", "name": "Item"},
        {"id": "worker", "name": "Worker"},
    ]


async def test_zones_and_lookups_need_a_session(anonymous) -> None:
    for path in ("/api/zones", "/api/killmodes", "/api/thingclasses"):
        assert_error(await anonymous.get(path), 401)


async def test_a_gate_endpoint_cannot_move_to_another_site(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    gate, dock = await floor(org)
    await make_zone(admin, org.site_ids[0], gates=[{"endpoint": gate["_id"], "direction": "IN"}])
    url = f"/api/endpoints/{gate['_id']}"
    response = await admin.put(url, json={**gate, "site": org.site_ids[1]})
    assert_error(response, 400, message="is a gate of a zone")
    assert (await admin.get(url)).json()["site"] == org.site_ids[0]
    # An endpoint no zone uses may move.
    response = await admin.put(
        f"/api/endpoints/{dock['_id']}", json={**dock, "site": org.site_ids[1]}
    )
    assert response.status_code == 200 and response.json()["site"] == org.site_ids[1]
