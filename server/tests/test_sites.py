"""Sites: CRUD, required fields, unique names, rights and per-user site scoping."""

import asyncio
from typing import Any

import pytest

from tests.conftest import Org
from tests.helpers import OTHER_ID, assert_error, signed_in_user, site_body

FULL = {
    "description": "Main warehouse",
    "startDate": "2023-05-04T10:30:00Z",
    "addressLine1": "1 Dock Road",
    "addressLine2": "Unit 7",
    "city": "Leeds",
    "state": "West Yorkshire",
    "country": "UK",
    "zipcode": "LS1 4AB",
    "timezone": {"id": "America/New_York"},
    "reportSettings": {"dailyTime": "06:30", "emails": ["ops@example.com", "boss@example.com"]},
}


async def sites_of(org: Org) -> list[dict[str, Any]]:
    response = await org.client("Administrator").get("/api/sites")
    assert response.status_code == 200
    return list(response.json())


async def test_list_sites(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Viewer").get("/api/sites")
    assert response.status_code == 200
    assert response.headers["x-total-count"] == "2"
    sites = response.json()
    assert [s["_id"] for s in sites] == org.site_ids
    first = sites[0]
    assert first["timezone"] == {"id": "Europe/London"}
    assert first["reportSettings"] == {"dailyTime": "", "emails": []}
    assert first["endpoints"] == []
    assert set(first) == {
        "_id", "name", "description", "startDate", "addressLine1", "addressLine2", "city",
        "state", "country", "zipcode", "timezone", "reportSettings", "endpoints",
    }  # fmt: skip


async def test_create_site_round_trips_every_field(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    response = await client.post("/api/sites", json=site_body("  Depot North  ", **FULL))
    assert response.status_code == 201, response.text
    created = response.json()
    assert created["name"] == "Depot North"
    for field, value in FULL.items():
        if field == "startDate":
            assert created[field].replace("+00:00", "Z") == value
        else:
            assert created[field] == value, field
    assert (await client.get(f"/api/sites/{created['_id']}")).json() == created
    listed = await client.get("/api/sites")
    assert listed.headers["x-total-count"] == "3"
    assert created["_id"] in [s["_id"] for s in listed.json()]


async def test_start_date_with_an_offset_is_stored_in_utc(org_factory) -> None:
    org: Org = await org_factory()
    body = site_body("Offset", startDate="2024-01-01T02:00:00+02:00")
    response = await org.client("Administrator").post("/api/sites", json=body)
    assert response.status_code == 201, response.text
    assert response.json()["startDate"].startswith("2024-01-01T00:00:00")


@pytest.mark.parametrize(
    ("changes", "text"),
    [
        ({"name": ""}, "name: is required"),
        ({"name": "   "}, "name: is required"),
        ({"startDate": None}, "startDate"),
        ({"startDate": "yesterday"}, "startDate"),
        ({"timezone": None}, "timezone"),
        (
            {"timezone": {"id": "Mars/Olympus_Mons"}},
            "timezone.id: Unknown timezone 'Mars/Olympus_Mons'",
        ),
        ({"timezone": "Europe/London"}, "timezone"),
        ({"reportSettings": {"dailyTime": "25:00"}}, "dailyTime"),
        ({"reportSettings": {"emails": ["not-an-email"]}}, "not a valid email"),
        ({"zipcode": "9" * 21}, "zipcode"),
        ({"description": 12}, "description"),
    ],
)
async def test_create_site_validation(org_factory, changes: dict[str, Any], text: str) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    response = await client.post("/api/sites", json={**site_body("Bad"), **changes})
    assert_error(response, 422, "validation", text)
    assert len(await sites_of(org)) == 2


@pytest.mark.parametrize("field", ["name", "startDate", "timezone"])
async def test_required_site_fields_are_named(org_factory, field: str) -> None:
    org: Org = await org_factory()
    body = site_body("Missing")
    del body[field]
    response = await org.client("Administrator").post("/api/sites", json=body)
    body = assert_error(response, 422, "validation")
    assert body["message"] == f"{field}: is required"
    assert len(await sites_of(org)) == 2


async def test_a_nul_character_is_bad_input_and_changes_nothing(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    before = await sites_of(org)
    response = await client.post("/api/sites", json=site_body("Null\x00Site"))
    assert_error(response, 400, "invalid input")
    site = before[0]
    response = await client.put(f"/api/sites/{site['_id']}", json={**site, "city": "a\x00b"})
    assert_error(response, 400, "invalid input")
    assert await sites_of(org) == before


async def test_every_missing_required_field_is_listed(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").post("/api/sites", json={"city": "Hull"})
    body = assert_error(response, 422, "validation")
    assert body["message"] == ("name: is required; startDate: is required; timezone: is required")


async def test_site_rejects_malformed_json(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    before = await sites_of(org)
    bad = {"content": b'{"name": "x"', "headers": {"content-type": "application/json"}}
    assert_error(await client.post("/api/sites", **bad), 422, "validation")  # type: ignore[arg-type]
    response = await client.put(f"/api/sites/{org.site_ids[0]}", **bad)  # type: ignore[arg-type]
    assert_error(response, 422, "validation")
    form = await client.post("/api/sites", data={"name": "Form"})
    assert_error(form, 422, "validation")
    for body in ([], "site", 42, None):
        assert_error(await client.post("/api/sites", json=body), 422, "validation")
    assert await sites_of(org) == before


async def test_duplicate_site_name_is_refused(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    before = await sites_of(org)
    taken = before[0]["name"]
    assert_error(await client.post("/api/sites", json=site_body(taken)), 400, "duplicate", taken)
    second = before[1]
    response = await client.put(f"/api/sites/{second['_id']}", json={**second, "name": taken})
    assert_error(response, 400, "duplicate")
    assert await sites_of(org) == before


async def test_concurrent_creates_of_one_name_give_one_site(org_factory) -> None:
    org: Org = await org_factory()
    body = site_body("Twin")
    responses = await asyncio.gather(
        org.client("Administrator").post("/api/sites", json=body),
        org.client("Super Admin").post("/api/sites", json=body),
    )
    assert sorted(r.status_code for r in responses) == [201, 400]
    loser = next(r for r in responses if r.status_code == 400)
    assert_error(loser, 400, "duplicate", "duplicate")
    assert [s["name"] for s in await sites_of(org)].count("Twin") == 1


async def test_same_site_name_in_another_organization_is_fine(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    name = (await sites_of(other))[0]["name"]
    response = await org.client("Administrator").post("/api/sites", json=site_body(name))
    assert response.status_code == 201, response.text


async def test_update_site(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    site = (await sites_of(org))[0]
    response = await client.put(f"/api/sites/{site['_id']}", json=site_body("Renamed", **FULL))
    assert response.status_code == 200, response.text
    updated = response.json()
    assert updated["_id"] == site["_id"]
    assert updated["name"] == "Renamed"
    assert updated["reportSettings"] == FULL["reportSettings"]
    assert updated["timezone"] == FULL["timezone"]
    assert (await client.get(f"/api/sites/{site['_id']}")).json() == updated
    # Keeping its own name is not a duplicate.
    again = await client.put(f"/api/sites/{site['_id']}", json=updated)
    assert again.status_code == 200
    assert again.json() == updated


async def test_body_id_does_not_redirect_an_update(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    first, second = await sites_of(org)
    body = {**site_body("Via Path"), "_id": second["_id"]}
    response = await client.put(f"/api/sites/{first['_id']}", json=body)
    assert response.status_code == 200
    assert response.json()["_id"] == first["_id"]
    assert (await client.get(f"/api/sites/{second['_id']}")).json() == second


async def test_delete_site(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    site_id = org.site_ids[0]
    assert (await client.delete(f"/api/sites/{site_id}")).status_code == 204
    assert_error(await client.get(f"/api/sites/{site_id}"), 404, "not found")
    assert [s["_id"] for s in await sites_of(org)] == [org.site_ids[1]]
    assert_error(await client.delete(f"/api/sites/{site_id}"), 404)


async def test_unknown_site_is_not_found(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    assert_error(await client.get(f"/api/sites/{OTHER_ID}"), 404, "not found")
    assert_error(await client.put(f"/api/sites/{OTHER_ID}", json=site_body("X")), 404)
    assert_error(await client.delete(f"/api/sites/{OTHER_ID}"), 404)


@pytest.mark.parametrize("role", ["Manager", "Operator", "Viewer"])
async def test_roles_without_site_rights_get_403(org_factory, role: str) -> None:
    org: Org = await org_factory()
    client = org.client(role)
    before = await sites_of(org)
    site_id = org.site_ids[0]
    assert_error(await client.post("/api/sites", json=site_body("Nope")), 403, "forbidden")
    assert_error(await client.put(f"/api/sites/{site_id}", json=site_body("Nope")), 403)
    assert_error(await client.delete(f"/api/sites/{site_id}"), 403, "forbidden")
    # Reading is open to every role.
    assert (await client.get(f"/api/sites/{site_id}")).status_code == 200
    assert await sites_of(org) == before


async def test_sites_need_a_session(org_factory, anonymous) -> None:
    org: Org = await org_factory()
    before = await sites_of(org)
    site_id = org.site_ids[0]
    assert_error(await anonymous.get("/api/sites"), 401, "unauthorized")
    assert_error(await anonymous.get(f"/api/sites/{site_id}"), 401)
    assert_error(await anonymous.post("/api/sites", json=site_body("Anon")), 401)
    assert_error(await anonymous.put(f"/api/sites/{site_id}", json=site_body("Anon")), 401)
    assert_error(await anonymous.delete(f"/api/sites/{site_id}"), 401)
    assert await sites_of(org) == before


async def test_another_organizations_sites_are_not_found(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    before = await sites_of(other)
    target = other.site_ids[0]
    client = org.client("Super Admin")
    assert_error(await client.get(f"/api/sites/{target}"), 404, "not found")
    assert_error(await client.put(f"/api/sites/{target}", json=site_body("Taken")), 404)
    assert_error(await client.delete(f"/api/sites/{target}"), 404, "not found")
    assert target not in [s["_id"] for s in (await client.get("/api/sites")).json()]
    assert await sites_of(other) == before


async def test_a_user_scoped_to_one_site_sees_only_that_site(
    app, sessionmaker, org_factory
) -> None:
    org: Org = await org_factory()
    mine, theirs = org.site_ids
    client, _ = await signed_in_user(app, sessionmaker, org, ["Administrator"], [mine])
    response = await client.get("/api/sites")
    assert response.status_code == 200
    assert response.headers["x-total-count"] == "1"
    assert [s["_id"] for s in response.json()] == [mine]
    assert (await client.get(f"/api/sites/{mine}")).status_code == 200
    before = await sites_of(org)
    assert_error(await client.get(f"/api/sites/{theirs}"), 404, "not found")
    assert_error(await client.put(f"/api/sites/{theirs}", json=site_body("Mine")), 404)
    assert_error(await client.delete(f"/api/sites/{theirs}"), 404)
    assert await sites_of(org) == before


async def test_a_user_with_no_sites_sees_none(app, sessionmaker, org_factory) -> None:
    org: Org = await org_factory()
    client, _ = await signed_in_user(app, sessionmaker, org, ["Viewer"], [])
    response = await client.get("/api/sites")
    assert response.status_code == 200
    assert response.json() == []
    assert response.headers["x-total-count"] == "0"
    assert_error(await client.get(f"/api/sites/{org.site_ids[0]}"), 404)


async def test_list_sites_sorts_searches_and_pages(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    for name, city, start in [
        ("Zeta Yard", "Oslo", "2020-01-01T00:00:00Z"),
        ("Alpha Dock", "Bergen", "2022-01-01T00:00:00Z"),
        ("Mid Store", "oslo", "2021-01-01T00:00:00Z"),
    ]:
        response = await client.post("/api/sites", json=site_body(name, city=city, startDate=start))
        assert response.status_code == 201, response.text
    everything = await client.get("/api/sites", params={"sort": "-name"})
    names = [s["name"] for s in everything.json()]
    assert names == sorted(names, reverse=True)
    assert everything.headers["x-total-count"] == "5"
    by_date = (await client.get("/api/sites", params={"sort": "startDate"})).json()
    dates = [s["startDate"] for s in by_date]
    assert dates == sorted(dates)
    page = await client.get("/api/sites", params={"sort": "name", "limit": 2, "page": 1})
    assert [s["name"] for s in page.json()] == sorted(names)[2:4]
    assert page.headers["x-total-count"] == "5"
    oslo = await client.get("/api/sites", params={"search": "OSLO", "sort": "name"})
    assert [s["name"] for s in oslo.json()] == ["Mid Store", "Zeta Yard"]
    assert oslo.headers["x-total-count"] == "2"
    fuzzy = await client.get("/api/sites", params={"search2": "alpah dock"})
    assert "Alpha Dock" in [s["name"] for s in fuzzy.json()]
    assert_error(await client.get("/api/sites", params={"sort": "zipcode"}), 400, "invalid sort")
