"""Endpoints: CRUD, the generated key and QR code, configuration, heartbeats, rights, scope."""

import json
from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import Org
from tests.helpers import OTHER_ID, assert_error, signed_in_user
from tests.tracking_api import add_status, endpoint_body, make_endpoint, make_map

T0 = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)

FULL = {
    "uuid": "FX9600-0042",
    "description": "Inbound door, left side",
    "map": "",
    "externalgate": True,
    "xycoordinates": [12.5, 40.0],
    "autoEnroll": {"enabled": True, "locationEnabled": True},
    "antennas": [
        {"map": "", "xycoordinates": [1.0, 2.0]},
        {"map": "", "xycoordinates": [3.5, 4.5]},
    ],
}


def iso(t: datetime) -> str:
    return t.isoformat().replace("+00:00", "Z")


async def test_create_read_update_delete(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    floor_plan = await make_map(admin, org.site_ids[0])
    full = {
        **FULL,
        "map": floor_plan["_id"],
        "antennas": [{**FULL["antennas"][0], "map": floor_plan["_id"]}, FULL["antennas"][1]],
    }
    body = endpoint_body(org.site_ids[0], "  Dock Door 1  ", key="mine", **full)
    response = await admin.post("/api/endpoints", json=body)
    assert response.status_code == 201, response.text
    endpoint = response.json()
    assert set(endpoint) == {
        "_id", "name", "uuid", "description", "site", "map", "externalgate", "xycoordinates",
        "key", "autoEnroll", "antennas", "status", "qrcode",
    }  # fmt: skip
    assert endpoint["name"] == "Dock Door 1"
    assert endpoint["site"] == org.site_ids[0]
    for field, value in full.items():
        assert endpoint[field] == value, field
    assert endpoint["status"] is None
    key = endpoint["key"]
    assert key != "mine" and len(key) >= 32
    assert json.loads(endpoint["qrcode"]) == {
        "url": "http://tagtrack.test",
        "id": endpoint["_id"],
        "key": key,
    }
    assert (await admin.get(f"/api/endpoints/{endpoint['_id']}")).json() == endpoint

    changed = {**endpoint, "name": "Dock Door 2", "key": "other", "antennas": [], "uuid": ""}
    response = await admin.put(f"/api/endpoints/{endpoint['_id']}", json=changed)
    assert response.status_code == 200, response.text
    updated = response.json()
    assert updated["name"] == "Dock Door 2"
    assert updated["antennas"] == [] and updated["uuid"] == ""
    assert updated["key"] == key

    listed = await admin.get("/api/endpoints", params={"site": org.site_ids[0]})
    assert listed.headers["x-total-count"] == "1"
    assert listed.json() == [updated]

    assert (await admin.delete(f"/api/endpoints/{endpoint['_id']}")).status_code == 204
    assert_error(await admin.get(f"/api/endpoints/{endpoint['_id']}"), 404)


async def test_each_endpoint_gets_its_own_key(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    first = await make_endpoint(admin, org.site_ids[0], "A")
    second = await make_endpoint(admin, org.site_ids[0], "B")
    assert first["key"] != second["key"]


async def test_list_filters_by_site_sorts_and_searches(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    a, b = org.site_ids
    for name, site in (("Gate West", a), ("Gate East", a), ("Handheld 1", b)):
        await make_endpoint(admin, site, name)
    names = lambda r: [e["name"] for e in r.json()]  # noqa: E731
    assert names(await admin.get("/api/endpoints", params={"site": a})) == [
        "Gate East",
        "Gate West",
    ]
    every = await admin.get("/api/endpoints", params={"site": "0" * 24, "sort": "-name"})
    assert names(every) == ["Handheld 1", "Gate West", "Gate East"]
    assert every.headers["x-total-count"] == "3"
    assert names(await admin.get("/api/endpoints", params={"search": "hand"})) == ["Handheld 1"]
    paged = await admin.get("/api/endpoints", params={"limit": 1, "page": 1})
    assert names(paged) == ["Gate West"] and paged.headers["x-total-count"] == "3"
    assert_error(await admin.get("/api/endpoints", params={"sort": "key"}), 400)


@pytest.mark.parametrize(
    ("changes", "status", "text"),
    [
        ({"name": ""}, 422, "name: is required"),
        ({"name": "   "}, 422, "name: is required"),
        ({"site": "nope"}, 422, "site: must be a 24-character hex id"),
        ({"xycoordinates": [1, 2, 3]}, 422, "xycoordinates"),
        ({"xycoordinates": ["a", 2]}, 422, "xycoordinates"),
        ({"antennas": [{"xycoordinates": [1]}]}, 422, "antennas.0.xycoordinates"),
        ({"externalgate": "maybe"}, 422, "externalgate"),
        ({"autoEnroll": {"enabled": "x"}}, 422, "autoEnroll.enabled"),
        ({"name": "x" * 201}, 422, "name"),
    ],
)
async def test_invalid_endpoints_are_refused(org_factory, changes, status, text) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    body = {**endpoint_body(org.site_ids[0]), **changes}
    response = await admin.post("/api/endpoints", json=body)
    assert_error(response, status, message=text)
    assert (await admin.get("/api/endpoints")).json() == []


async def test_missing_site_or_name_and_malformed_json(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    assert_error(
        await admin.post("/api/endpoints", json={"name": "X"}), 422, message="site: is required"
    )
    assert_error(
        await admin.post("/api/endpoints", json={"site": org.site_ids[0]}),
        422,
        message="name: is required",
    )
    response = await admin.post(
        "/api/endpoints", content=b'{"name": "X", ', headers={"content-type": "application/json"}
    )
    assert_error(response, 422)
    assert_error(await admin.post("/api/endpoints", json=["X"]), 422)
    assert (await admin.get("/api/endpoints")).headers["x-total-count"] == "0"


async def test_names_are_unique_in_the_organization(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    first = await make_endpoint(admin, org.site_ids[0], "Gate")
    response = await admin.post("/api/endpoints", json=endpoint_body(org.site_ids[1], "Gate"))
    assert_error(response, 400, "duplicate", "duplicate")
    other = await make_endpoint(admin, org.site_ids[1], "Other")
    response = await admin.put(f"/api/endpoints/{other['_id']}", json={**other, "name": "Gate"})
    assert_error(response, 400, "duplicate")
    # Saving an endpoint under its own name is fine.
    assert (await admin.put(f"/api/endpoints/{first['_id']}", json=first)).status_code == 200
    # Another organization may use the same name.
    org2: Org = await org_factory()
    await make_endpoint(org2.client("Administrator"), org2.site_ids[0], "Gate")


async def test_rights_per_role(org_factory) -> None:
    org: Org = await org_factory()
    site = org.site_ids[0]
    existing = await make_endpoint(org.client("Administrator"), site, "Existing")
    url = f"/api/endpoints/{existing['_id']}"
    for role in ("Viewer", "Operator"):
        client = org.client(role)
        assert_error(await client.post("/api/endpoints", json=endpoint_body(site, role)), 403)
        assert_error(await client.put(url, json=existing), 403)
        assert_error(await client.delete(url), 403)
        assert_error(await client.put(f"/api/endpoints/config/{existing['_id']}", json={}), 403)
        # Reading is allowed, but the key stays hidden.
        seen = (await client.get(url)).json()
        assert seen["name"] == "Existing" and seen["key"] == "" and seen["qrcode"] == ""
    manager = org.client("Manager")
    made = await make_endpoint(manager, site, "By manager")
    assert made["key"]
    assert (await manager.put(f"/api/endpoints/{made['_id']}", json=made)).status_code == 200
    assert (await manager.delete(f"/api/endpoints/{made['_id']}")).status_code == 204


async def test_another_organizations_endpoint_is_not_found(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    theirs = await make_endpoint(other.client("Administrator"), other.site_ids[0], "Theirs")
    await add_status(sessionmaker, other.id, theirs["_id"], T0)
    admin = org.client("Administrator")
    url = f"/api/endpoints/{theirs['_id']}"
    assert_error(await admin.get(url), 404)
    assert_error(await admin.put(url, json={**theirs, "site": org.site_ids[0]}), 404)
    assert_error(await admin.delete(url), 404)
    assert_error(await admin.get(f"/api/endpoints/config/{theirs['_id']}"), 404)
    assert_error(await admin.put(f"/api/endpoints/config/{theirs['_id']}", json={}), 404)
    assert_error(await admin.get(f"/api/endpoints/status/{theirs['_id']}"), 404)
    assert_error(await admin.get(f"/api/endpoints/statusfb/{theirs['_id']}"), 404)
    assert_error(await admin.get("/api/endpoints/status", params={"endpoint": theirs["_id"]}), 404)
    assert_error(await admin.get(f"/api/endpoints/{OTHER_ID}"), 404)
    # Nor can an endpoint be put in another organization's site.
    body = endpoint_body(other.site_ids[0], "Sneaky")
    assert_error(await admin.post("/api/endpoints", json=body), 404)
    assert (await admin.get("/api/endpoints")).json() == []
    assert (await admin.get("/api/endpoints", params={"site": other.site_ids[0]})).json() == []
    assert (
        await admin.get("/api/endpoints/status", params={"site": other.site_ids[0]})
    ).json() == []
    assert (await other.client("Viewer").get(url)).status_code == 200


async def test_site_scope(org_factory, app, sessionmaker) -> None:
    org: Org = await org_factory()
    a, b = org.site_ids
    admin = org.client("Administrator")
    mine = await make_endpoint(admin, a, "Mine")
    hidden = await make_endpoint(admin, b, "Hidden")
    await add_status(sessionmaker, org.id, hidden["_id"], T0)
    client, _ = await signed_in_user(app, sessionmaker, org, ["Administrator"], [a])
    listed = await client.get("/api/endpoints")
    assert [e["_id"] for e in listed.json()] == [mine["_id"]]
    assert listed.headers["x-total-count"] == "1"
    assert_error(await client.get("/api/endpoints", params={"site": b}), 404)
    assert_error(await client.get(f"/api/endpoints/{hidden['_id']}"), 404)
    assert_error(await client.put(f"/api/endpoints/{hidden['_id']}", json=hidden), 404)
    assert_error(await client.delete(f"/api/endpoints/{hidden['_id']}"), 404)
    assert_error(await client.get(f"/api/endpoints/statusfb/{hidden['_id']}"), 404)
    assert (await client.get("/api/endpoints/status")).json() == []
    assert [s["name"] for s in (await client.get("/api/eventsources")).json()] == ["Mine"]
    # Nor can it create in or move to a site outside its scope.
    assert_error(await client.post("/api/endpoints", json=endpoint_body(b, "New")), 404)
    assert_error(await client.put(f"/api/endpoints/{mine['_id']}", json={**mine, "site": b}), 404)


async def test_configuration(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    endpoint = await make_endpoint(admin, org.site_ids[0])
    url = f"/api/endpoints/config/{endpoint['_id']}"
    assert (await admin.get(url)).json() == {}
    config = {"power": 30.0, "antennas": [1, 2], "mode": {"session": 1, "name": "fast"}}
    response = await admin.put(url, json=config)
    assert response.status_code == 200, response.text
    assert response.json() == config
    assert (await org.client("Viewer").get(url)).json() == config
    # Too large, or not an object: refused, nothing changed.
    assert_error(await admin.put(url, json={"blob": "x" * 70_000}), 400, message="64 KiB")
    assert_error(await admin.put(url, json=[1, 2]), 422)
    assert (await admin.get(url)).json() == config
    # Saving the endpoint keeps its configuration.
    await admin.put(f"/api/endpoints/{endpoint['_id']}", json=endpoint)
    assert (await admin.get(url)).json() == config


async def test_status_history_latest_first_and_default_limit(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    endpoint = await make_endpoint(admin, org.site_ids[0])
    eid = endpoint["_id"]
    assert_error(await admin.get(f"/api/endpoints/statusfb/{eid}"), 404)
    assert (await admin.get("/api/endpoints/status", params={"endpoint": eid})).json() == []
    # Written out of order on purpose.
    for minutes, version in ((10, "1.1"), (0, "1.0"), (20, "1.2")):
        await add_status(
            sessionmaker,
            org.id,
            eid,
            T0 + timedelta(minutes=minutes),
            uptime=minutes * 60,
            reader_temp=41.5,
            ip="10.0.0.7",
            version=version,
        )
    history = await admin.get(f"/api/endpoints/status/{eid}")
    assert history.status_code == 200
    assert history.headers["x-total-count"] == "3"
    assert [s["version"] for s in history.json()] == ["1.2", "1.1", "1.0"]
    assert history.json()[0] == {
        "endpoint": eid,
        "endpointName": "Dock Door 1",
        "time": iso(T0 + timedelta(minutes=20)),
        "uptime": 1200,
        "readerTemp": 41.5,
        "ip": "10.0.0.7",
        "version": "1.2",
    }
    oldest = await admin.get(f"/api/endpoints/status/{eid}", params={"sort": "time", "limit": 1})
    assert [s["version"] for s in oldest.json()] == ["1.0"]
    latest = await admin.get("/api/endpoints/status", params={"endpoint": eid})
    assert [s["version"] for s in latest.json()] == ["1.2"]
    two = await admin.get("/api/endpoints/status", params={"endpoint": eid, "limit": 2})
    assert [s["version"] for s in two.json()] == ["1.2", "1.1"]
    assert (await admin.get(f"/api/endpoints/statusfb/{eid}")).json()["version"] == "1.2"
    assert (await admin.get(f"/api/endpoints/{eid}")).json()["status"]["version"] == "1.2"
    assert_error(
        await admin.get("/api/endpoints/status", params={"endpoint": eid, "limit": 0}), 422
    )


async def test_latest_status_of_every_endpoint_of_a_site(org_factory, sessionmaker) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    a, b = org.site_ids
    old = await make_endpoint(admin, a, "Old reader")
    new = await make_endpoint(admin, a, "New reader")
    await make_endpoint(admin, a, "Silent reader")
    elsewhere = await make_endpoint(admin, b, "Elsewhere")
    await add_status(sessionmaker, org.id, old["_id"], T0, version="a")
    await add_status(sessionmaker, org.id, old["_id"], T0 + timedelta(minutes=5), version="b")
    await add_status(sessionmaker, org.id, new["_id"], T0 + timedelta(hours=2), version="c")
    await add_status(sessionmaker, org.id, elsewhere["_id"], T0, version="d")
    response = await admin.get("/api/endpoints/status", params={"site": a})
    assert [(s["endpointName"], s["version"]) for s in response.json()] == [
        ("New reader", "c"),
        ("Old reader", "b"),
    ]
    every = await admin.get("/api/endpoints/status")
    assert [s["version"] for s in every.json()] == ["c", "b", "d"]
    listed = (await admin.get("/api/endpoints", params={"site": a})).json()
    assert {e["name"]: (e["status"] or {}).get("version") for e in listed} == {
        "New reader": "c",
        "Old reader": "b",
        "Silent reader": None,
    }


async def test_event_sources(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    a, b = org.site_ids
    gate = await make_endpoint(admin, a, "Gate")
    dock = await make_endpoint(admin, a, "Dock")
    await make_endpoint(admin, b, "Other site")
    response = await org.client("Viewer").get("/api/eventsources", params={"site": a})
    assert response.json() == [
        {"_id": dock["_id"], "name": "Dock"},
        {"_id": gate["_id"], "name": "Gate"},
    ]
    assert len((await admin.get("/api/eventsources")).json()) == 3


async def test_public_url_setting_is_in_the_qr_code(org_factory, app) -> None:
    org: Org = await org_factory()
    settings = app.state.settings
    original = settings.public_url
    settings.public_url = "https://track.example.com"
    try:
        endpoint = await make_endpoint(org.client("Administrator"), org.site_ids[0])
    finally:
        settings.public_url = original
    assert json.loads(endpoint["qrcode"])["url"] == "https://track.example.com"


async def test_endpoints_need_a_session(anonymous) -> None:
    for path in ("/api/endpoints", "/api/endpoints/status", "/api/eventsources"):
        assert_error(await anonymous.get(path), 401)
