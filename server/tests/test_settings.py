"""Site settings and organization settings."""

from typing import Any

import pytest

from tests.conftest import Org
from tests.helpers import OTHER_ID, assert_error, signed_in_user

SITE_DEFAULTS = {
    "workerLabel": "",
    "itemLabel": "",
    "hideWorkers": False,
    "itemNameLabel": "",
    "itemSerialLabel": "",
    "parentCategories": [],
    "thingHeaders": [],
    "flattenEventsExports": False,
    "orgTagPrefix": "",
    "importSettings": {
        "importMappings": [],
        "requireZone": False,
        "generatePrefixTag": False,
        "prefixedTagDupCheck": False,
    },
}

SITE_SETTINGS = {
    "workerLabel": "Staff",
    "itemLabel": "Assets",
    "hideWorkers": True,
    "itemNameLabel": "Asset name",
    "itemSerialLabel": "Asset no.",
    "parentCategories": ["65a1b2c3d4e5f60718293a4b", "65a1b2c3d4e5f60718293a4c"],
    "thingHeaders": ["label", "serial"],
    "flattenEventsExports": True,
    "orgTagPrefix": "ACME",
    "importSettings": {
        "importMappings": [
            {
                "name": "DEFAULT",
                "headerAssetFields": [
                    {"header": "Asset Name", "assetField": "name"},
                    {"header": "EPC", "assetField": "tags"},
                    {"header": "Serial #", "assetField": "serial"},
                ],
            }
        ],
        "requireZone": True,
        "generatePrefixTag": True,
        "prefixedTagDupCheck": True,
    },
}

ORG_DEFAULTS = {
    "workerLabel": "",
    "itemLabel": "",
    "hideWorkers": False,
    "itemNameLabel": "",
    "itemSerialLabel": "",
}

ORG_SETTINGS = {
    "workerLabel": "Crew",
    "itemLabel": "Kit",
    "hideWorkers": True,
    "itemNameLabel": "Title",
    "itemSerialLabel": "Code",
}


def settings_url(site_id: str) -> str:
    return f"/api/sites/{site_id}/settings"


async def site_settings(org: Org, site_id: str) -> dict[str, Any]:
    response = await org.client("Administrator").get(settings_url(site_id))
    assert response.status_code == 200, response.text
    return dict(response.json())


# --- site settings ----------------------------------------------------------------------------


async def test_site_settings_default_to_empty(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Viewer").get(settings_url(org.site_ids[0]))
    assert response.status_code == 200
    assert response.json() == SITE_DEFAULTS


async def test_every_site_setting_round_trips(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    response = await client.put(settings_url(org.site_ids[0]), json=SITE_SETTINGS)
    assert response.status_code == 200, response.text
    assert response.json() == SITE_SETTINGS
    read = await org.client("Viewer").get(settings_url(org.site_ids[0]))
    assert read.json() == SITE_SETTINGS
    # Settings belong to one site.
    assert await site_settings(org, org.site_ids[1]) == SITE_DEFAULTS


async def test_site_settings_put_replaces_the_whole_object(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    site_id = org.site_ids[0]
    assert (await client.put(settings_url(site_id), json=SITE_SETTINGS)).status_code == 200
    response = await client.put(settings_url(site_id), json={"itemLabel": "Only this"})
    assert response.status_code == 200
    assert await site_settings(org, site_id) == {**SITE_DEFAULTS, "itemLabel": "Only this"}


async def test_import_mapping_name_defaults_to_default(org_factory) -> None:
    org: Org = await org_factory()
    body = {
        "importSettings": {
            "importMappings": [{"headerAssetFields": [{"header": "Tag", "assetField": "tags1"}]}]
        }
    }
    response = await org.client("Administrator").put(settings_url(org.site_ids[0]), json=body)
    assert response.status_code == 200, response.text
    mapping = (await site_settings(org, org.site_ids[0]))["importSettings"]["importMappings"][0]
    assert mapping == {
        "name": "DEFAULT",
        "headerAssetFields": [{"header": "Tag", "assetField": "tags1"}],
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"parentCategories": ["not-an-id"]}, "parentCategories"),
        ({"hideWorkers": "perhaps"}, "hideWorkers"),
        ({"itemLabel": "x" * 51}, "itemLabel"),
        ({"thingHeaders": "label"}, "thingHeaders"),
        ({"orgTagPrefix": 7}, "orgTagPrefix"),
        (
            {"importSettings": {"importMappings": [{"headerAssetFields": [
                {"header": "Colour", "assetField": "colour"}
            ]}]}},
            "assetField",
        ),
        ({"importSettings": {"requireZone": []}}, "requireZone"),
        ([], "request"),
    ],
)  # fmt: skip
async def test_invalid_site_settings_change_nothing(org_factory, body: Any, field: str) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    site_id = org.site_ids[0]
    assert (await client.put(settings_url(site_id), json=SITE_SETTINGS)).status_code == 200
    assert_error(await client.put(settings_url(site_id), json=body), 422, "validation", field)
    assert await site_settings(org, site_id) == SITE_SETTINGS


async def test_site_settings_reject_malformed_json(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").put(
        settings_url(org.site_ids[0]),
        content=b'{"itemLabel": ',
        headers={"content-type": "application/json"},
    )
    assert_error(response, 422, "validation")
    assert await site_settings(org, org.site_ids[0]) == SITE_DEFAULTS


@pytest.mark.parametrize("role", ["Manager", "Operator", "Viewer"])
async def test_roles_without_site_modify_cannot_save_site_settings(org_factory, role: str):
    org: Org = await org_factory()
    client = org.client(role)
    response = await client.put(settings_url(org.site_ids[0]), json=SITE_SETTINGS)
    assert_error(response, 403, "forbidden")
    assert await site_settings(org, org.site_ids[0]) == SITE_DEFAULTS


async def test_site_settings_need_a_session(org_factory, anonymous) -> None:
    org: Org = await org_factory()
    url = settings_url(org.site_ids[0])
    assert_error(await anonymous.get(url), 401, "unauthorized")
    assert_error(await anonymous.put(url, json=SITE_SETTINGS), 401, "unauthorized")
    assert await site_settings(org, org.site_ids[0]) == SITE_DEFAULTS


async def test_another_organizations_site_settings_are_not_found(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    saved = {**SITE_DEFAULTS, "itemLabel": "Theirs"}
    url = settings_url(other.site_ids[0])
    assert (await other.client("Administrator").put(url, json=saved)).status_code == 200
    client = org.client("Super Admin")
    assert_error(await client.get(url), 404, "not found")
    assert_error(await client.put(url, json=SITE_SETTINGS), 404, "not found")
    assert await site_settings(other, other.site_ids[0]) == saved


async def test_unknown_site_settings_are_not_found(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    assert_error(await client.get(settings_url(OTHER_ID)), 404, "not found")
    assert_error(await client.put(settings_url(OTHER_ID), json=SITE_SETTINGS), 404)


async def test_site_settings_follow_the_users_site_scope(app, sessionmaker, org_factory) -> None:
    org: Org = await org_factory()
    mine, theirs = org.site_ids
    client, _ = await signed_in_user(app, sessionmaker, org, ["Administrator"], [mine])
    assert (await client.get(settings_url(mine))).status_code == 200
    assert (await client.put(settings_url(mine), json=SITE_SETTINGS)).status_code == 200
    assert_error(await client.get(settings_url(theirs)), 404)
    assert_error(await client.put(settings_url(theirs), json=SITE_SETTINGS), 404)
    assert await site_settings(org, theirs) == SITE_DEFAULTS
    assert await site_settings(org, mine) == SITE_SETTINGS


async def test_deleting_a_site_removes_its_settings(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    site_id = org.site_ids[0]
    assert (await client.put(settings_url(site_id), json=SITE_SETTINGS)).status_code == 200
    assert (await client.delete(f"/api/sites/{site_id}")).status_code == 204
    assert_error(await client.get(settings_url(site_id)), 404)


# --- organization settings --------------------------------------------------------------------


async def test_org_settings_default_to_empty(org_factory) -> None:
    org: Org = await org_factory()
    response = await org.client("Viewer").get("/api/orgsettings")
    assert response.status_code == 200
    assert response.json() == ORG_DEFAULTS


async def test_org_settings_round_trip_per_organization(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    response = await org.client("Administrator").post("/api/orgsettings", json=ORG_SETTINGS)
    assert response.status_code == 200, response.text
    assert response.json() == ORG_SETTINGS
    assert (await org.client("Viewer").get("/api/orgsettings")).json() == ORG_SETTINGS
    assert (await other.client("Viewer").get("/api/orgsettings")).json() == ORG_DEFAULTS
    again = {**ORG_SETTINGS, "hideWorkers": False, "itemLabel": ""}
    assert (await org.client("Super Admin").post("/api/orgsettings", json=again)).status_code == 200
    assert (await org.client("Viewer").get("/api/orgsettings")).json() == again


@pytest.mark.parametrize("role", ["Manager", "Operator", "Viewer"])
async def test_roles_without_orgsettings_rights_cannot_save(org_factory, role: str) -> None:
    org: Org = await org_factory()
    response = await org.client(role).post("/api/orgsettings", json=ORG_SETTINGS)
    assert_error(response, 403, "forbidden")
    assert (await org.client("Administrator").get("/api/orgsettings")).json() == ORG_DEFAULTS


async def test_org_settings_need_a_session(org_factory, anonymous) -> None:
    org: Org = await org_factory()
    assert_error(await anonymous.get("/api/orgsettings"), 401, "unauthorized")
    assert_error(await anonymous.post("/api/orgsettings", json=ORG_SETTINGS), 401)
    assert (await org.client("Viewer").get("/api/orgsettings")).json() == ORG_DEFAULTS


async def test_nul_characters_in_settings_are_bad_input(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    response = await client.post("/api/orgsettings", json={**ORG_SETTINGS, "itemLabel": "\x00"})
    assert_error(response, 400, "invalid input")
    body = {**SITE_SETTINGS, "thingHeaders": ["a\x00"]}
    assert_error(await client.put(settings_url(org.site_ids[0]), json=body), 400, "invalid input")
    assert (await client.get("/api/orgsettings")).json() == ORG_DEFAULTS
    assert await site_settings(org, org.site_ids[0]) == SITE_DEFAULTS


@pytest.mark.parametrize(
    "body", [{"hideWorkers": "yes please"}, {"itemLabel": ["a"]}, {"workerLabel": "w" * 51}, []]
)
async def test_invalid_org_settings_change_nothing(org_factory, body: Any) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    assert (await client.post("/api/orgsettings", json=ORG_SETTINGS)).status_code == 200
    assert_error(await client.post("/api/orgsettings", json=body), 422, "validation")
    bad_json = await client.post(
        "/api/orgsettings", content=b"{", headers={"content-type": "application/json"}
    )
    assert_error(bad_json, 422, "validation")
    assert (await client.get("/api/orgsettings")).json() == ORG_SETTINGS
