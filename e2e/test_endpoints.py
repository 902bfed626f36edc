"""Endpoints: list, create with antennas, Status and QR Code tabs, delete, rights, phone width."""

import json
import re

from playwright.sync_api import APIRequestContext, Locator, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import (
    PRIYA,
    TOM,
    Console,
    open_signed_in,
    shot,
    site_id,
    snackbar,
    unique,
)
from e2e.tracking_data import create_endpoint, create_map, new_site

SCAN_MESSAGE = "Scan this code with the handheld app to pair it with this endpoint."
NO_PAIRING_MESSAGE = "The pairing code is shown only to users who may modify endpoints."


def save(page: Page) -> None:
    page.get_by_role("button", name="Save").click()


def overflows(locator: Locator) -> bool:
    return bool(locator.evaluate("e => e.scrollWidth > e.clientWidth"))


def antenna(page: Page, index: int) -> Locator:
    return page.get_by_role("group", name=f"Antenna {index}")


def test_create_endpoint_with_antennas_then_status_and_qr_code(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Endpoint Site")
    floor_plan = create_map(admin_api, site, "Dock Floor")
    name = unique("Dock Door Reader")
    open_signed_in(page, PRIYA, console.demo_password, f"/endpoints?site={site}")
    expect(page.get_by_role("heading", name="Endpoints")).to_be_visible()
    expect(page.get_by_text("No endpoints found")).to_be_visible()
    page.get_by_test_id("list-add").click()
    expect(page.get_by_role("heading", name="Add Endpoint")).to_be_visible()
    # Status and the pairing code exist only once the server has made the endpoint.
    expect(page.get_by_role("tab")).to_have_text(["Basic", "Antennas"])
    expect(page.get_by_label("Key")).to_have_count(0)
    expect(page.get_by_role("button", name="Delete")).to_have_count(0)

    save(page)
    expect(snackbar(page)).to_contain_text("Name in the Basic tab is a required field.")
    page.get_by_role("textbox", name="Name", exact=True).fill(name)
    page.get_by_label("UUID").fill("fx9600-e2e-01")
    page.get_by_label("Description").fill("North dock, door 3")
    page.get_by_role("spinbutton", name="X").fill("12.5")
    page.get_by_role("spinbutton", name="Y").fill("40")
    page.get_by_label("External Gate").check()
    page.get_by_label("Auto-Enroll Enabled").check()

    page.get_by_role("tab", name="Antennas").click()
    expect(page.get_by_text("This endpoint has no antennas yet.")).to_be_visible()
    page.get_by_role("button", name="Add Antenna").click()
    page.get_by_role("button", name="Add Antenna").click()
    antenna(page, 0).get_by_label("X").fill("1")
    antenna(page, 0).get_by_label("Y").fill("2")
    antenna(page, 0).get_by_role("combobox", name="Map").click()
    page.get_by_role("option", name="Dock Floor").click()
    antenna(page, 1).get_by_label("X").fill("3.5")
    antenna(page, 1).get_by_label("Y").fill("4")
    shot(page, "endpoint-new-antennas")

    save(page)
    expect(snackbar(page)).to_have_text(re.compile("Saved endpoint"))
    # A new endpoint opens itself, with its key, status and pairing code.
    expect(page).to_have_url(re.compile(r"/endpoints/[0-9a-f]{24}\?site="))
    found = re.search(r"/endpoints/([0-9a-f]{24})", page.url)
    assert found
    endpoint_id = found.group(1)
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    expect(page.get_by_role("tab")).to_have_text(["Basic", "Antennas", "Status", "QR Code"])
    key_field = page.get_by_label("Key")
    expect(key_field).to_have_attribute("readonly", "")
    key = key_field.input_value()
    assert len(key) >= 32
    expect(page.get_by_label("Auto-Enroll Enabled")).to_be_checked()
    shot(page, "endpoint-edit-basic")
    check_accessibility(page)

    stored = admin_api.get(f"/api/endpoints/{endpoint_id}").json()
    assert stored["key"] == key
    assert stored["xycoordinates"] == [12.5, 40]
    assert stored["externalgate"] is True
    assert stored["autoEnroll"] == {"enabled": True, "locationEnabled": False}
    assert [a["xycoordinates"] for a in stored["antennas"]] == [[1, 2], [3.5, 4]]
    assert stored["antennas"][0]["map"] == floor_plan

    page.get_by_role("tab", name="Antennas").click()
    expect(page.get_by_test_id("antenna-row")).to_have_count(2)
    expect(antenna(page, 1).get_by_label("X")).to_have_value("3.5")

    page.get_by_role("tab", name="Status").click()
    expect(page.get_by_text("This endpoint has not reported its status yet.")).to_be_visible()
    shot(page, "endpoint-status-empty")

    page.get_by_role("tab", name="QR Code").click()
    expect(page.get_by_test_id("qr-message")).to_have_text(SCAN_MESSAGE)
    code = page.get_by_test_id("qr-code")
    expect(code).to_be_visible()
    expect(code).to_have_attribute("width", "300")
    assert round((code.bounding_box() or {"width": 0})["width"]) == 300
    encoded = json.loads(page.get_by_test_id("qr-value").inner_text())
    assert encoded["id"] == endpoint_id
    assert encoded["key"] == key
    assert encoded["url"].startswith("http")
    shot(page, "endpoint-qr-medium")
    page.get_by_role("combobox", name="Size").click()
    expect(page.get_by_role("option")).to_have_text(["Small", "Medium", "Large", "X-Large"])
    page.get_by_role("option", name="Large", exact=True).click()
    expect(code).to_have_attribute("width", "500")
    assert round((code.bounding_box() or {"width": 0})["width"]) == 500
    shot(page, "endpoint-qr-large")
    # Printing shows the code alone: the form around it is hidden.
    page.emulate_media(media="print")
    page.evaluate("document.body.setAttribute('data-printing-qr', '')")
    expect(page.get_by_role("button", name="Save")).to_be_hidden()
    expect(code).to_be_visible()
    shot(page, "endpoint-qr-print")
    page.evaluate("document.body.removeAttribute('data-printing-qr')")
    page.emulate_media(media="screen")

    # A heartbeat from the reader shows in the Status tab, latest first.
    for uptime, ip in ((60, "10.20.0.4"), (93784, "10.20.0.5")):
        response = admin_api.post(
            "/api/ingest/status",
            headers={"Authorization": f"Bearer {key}"},
            data={"uptime": uptime, "readerTemp": 41.26, "ip": ip, "version": "3.21.1"},
        )
        assert response.ok, response.text()
    page.reload()
    page.get_by_role("tab", name="Status").click()
    rows = page.get_by_test_id("status-history").get_by_role("row")
    expect(rows).to_have_count(3)
    expect(rows.nth(1)).to_contain_text("1d 2h 3m")
    expect(rows.nth(1)).to_contain_text("41.3 °C")
    expect(rows.nth(1)).to_contain_text("10.20.0.5")
    expect(rows.nth(1)).to_contain_text("3.21.1")
    expect(rows.nth(2)).to_contain_text("1m 0s")
    shot(page, "endpoint-status-history")


def test_endpoints_list_search_and_delete(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Endpoint List")
    tag = unique("Gate")
    first = create_endpoint(admin_api, site, f"{tag} Inbound")
    create_endpoint(admin_api, site, f"{tag} Outbound")
    open_signed_in(page, PRIYA, console.demo_password, f"/endpoints?site={site}")
    grid = page.get_by_role("grid", name="Endpoints")
    for header in ("Name", "Description"):
        expect(grid.get_by_role("columnheader", name=header, exact=True)).to_be_visible()
    expect(page.get_by_text("2 total")).to_be_visible()
    shot(page, "endpoints-list")
    check_accessibility(page)

    page.goto(f"/endpoints?site={site}&search=Outbound")
    expect(page.get_by_text("1 total")).to_be_visible()
    page.goto(f"/endpoints?site={site}")
    row = page.get_by_role("row").filter(has_text=first.name)
    row.get_by_role("button", name="Delete").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(
        "Are you sure you want to delete this endpoint? This action cannot be undone."
    )
    dialog.get_by_role("button", name="I'm Sure").click()
    expect(page.get_by_text("1 total")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=first.name)).to_have_count(0)
    assert admin_api.get(f"/api/endpoints/{first.id}").status == 404


def test_viewer_sees_an_endpoint_without_save_or_delete(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = site_id(admin_api, "Chicago Cross-Dock")
    reader = create_endpoint(admin_api, site, unique("Viewer Reader"))
    open_signed_in(page, TOM, console.demo_password, f"/endpoints/{reader.id}?site={site}")
    expect(page.get_by_role("heading", name=reader.name)).to_be_visible()
    expect(page.get_by_role("button", name="Save")).to_have_count(0)
    expect(page.get_by_role("button", name="Delete")).to_have_count(0)
    page.get_by_role("tab", name="Antennas").click()
    expect(page.get_by_role("button", name="Add Antenna")).to_have_count(0)
    # The server keeps the key (and so the pairing code) from users who may not modify.
    expect(page.get_by_label("Key")).to_have_count(0)
    page.get_by_role("tab", name="QR Code").click()
    expect(page.get_by_text(NO_PAIRING_MESSAGE)).to_be_visible()
    expect(page.get_by_test_id("qr-code")).to_have_count(0)
    shot(page, "endpoint-viewer-qr")


def test_endpoint_on_a_phone(
    mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    page = mobile_page
    site = new_site(admin_api, "E2E Endpoint Phone")
    name = unique("Handheld RFD40 at the returns desk, left-hand side by the window")
    reader = create_endpoint(admin_api, site, name)
    returns = create_map(admin_api, site, "Returns")
    endpoint = admin_api.get(f"/api/endpoints/{reader.id}").json()
    endpoint["antennas"] = [
        {"map": returns, "xycoordinates": [1, 2]},
        {"map": "", "xycoordinates": [3, 4]},
    ]
    assert admin_api.put(f"/api/endpoints/{reader.id}", data=endpoint).ok
    open_signed_in(page, PRIYA, console.demo_password, f"/endpoints?site={site}")
    expect(page.get_by_role("heading", name="Endpoints")).to_be_visible()
    row = page.get_by_role("row").filter(has_text=name)
    expect(row.get_by_role("button", name="Delete")).to_be_in_viewport(ratio=1)
    assert not overflows(page.locator("body"))
    shot(page, "mobile-endpoints")
    row.click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    assert not overflows(page.locator("body"))
    shot(page, "mobile-endpoint-basic")
    page.get_by_role("tab", name="Antennas").click()
    expect(antenna(page, 1).get_by_role("button", name="Delete Antenna 1")).to_be_in_viewport()
    assert not overflows(page.locator("body"))
    shot(page, "mobile-endpoint-antennas")
    page.get_by_role("tab", name="QR Code").click()
    expect(page.get_by_test_id("qr-code")).to_be_visible()
    assert not overflows(page.locator("body"))
    shot(page, "mobile-endpoint-qr")
