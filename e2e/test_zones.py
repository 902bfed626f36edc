"""Zones: list, create with gates and validation, edit, delete, phone width."""

import re

from playwright.sync_api import APIRequestContext, Locator, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import PRIYA, Console, open_signed_in, shot, snackbar, unique
from e2e.tracking_data import create_endpoint, create_zone, new_site

MINUTE_NS = 60_000_000_000


def save(page: Page) -> None:
    page.get_by_role("button", name="Save").click()


def gate(page: Page, number: int) -> Locator:
    return page.get_by_role("group", name=f"Gate {number}")


def choose(page: Page, field: Locator, option: str) -> None:
    field.click()
    page.get_by_role("option", name=option, exact=True).click()


def overflows(locator: Locator) -> bool:
    return bool(locator.evaluate("e => e.scrollWidth > e.clientWidth"))


def test_create_zone_with_gates_and_validation(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Zone Site")
    inbound = create_endpoint(admin_api, site, unique("Inbound Door"))
    outbound = create_endpoint(admin_api, site, unique("Outbound Door"))
    name = unique("Cold Store")
    open_signed_in(page, PRIYA, console.demo_password, f"/zones?site={site}")
    expect(page.get_by_role("heading", name="Zones")).to_be_visible()
    grid = page.get_by_role("grid", name="Zones")
    for header in ("Name", "Description", "Alert Time", "Assets", "Staff"):
        expect(grid.get_by_role("columnheader", name=header, exact=True)).to_be_visible()
    page.get_by_test_id("list-add").click()
    expect(page.get_by_role("heading", name="Add Zone")).to_be_visible()
    expect(page.get_by_role("tab")).to_have_text(["Basic", "Gates"])
    expect(page.get_by_role("button", name="Delete")).to_have_count(0)

    save(page)
    expect(snackbar(page)).to_contain_text("Name in the Basic tab is a required field.")
    expect(page.get_by_text("This field is required")).to_be_visible()
    page.get_by_role("textbox", name="Name", exact=True).fill(name)
    page.get_by_label("Description").fill("Chilled goods, doors 7 to 9")
    page.get_by_label("Alert Time (minutes)").fill("15")
    page.get_by_label("Delete Delay (hours)").fill("2.5")
    page.get_by_label("Delete Immediately").check()
    choose(page, page.get_by_role("combobox", name="Delete Behaviour"), "Leave the site")

    emails = page.get_by_role("combobox", name="Emails")
    emails.fill("cold.store@northwind.example.com")
    emails.press("Enter")
    emails.fill("not-an-email")
    emails.press("Enter")
    save(page)
    expect(snackbar(page)).to_contain_text(
        "Emails in the Basic tab: 'not-an-email' is not a valid email address"
    )
    shot(page, "zone-new-bad-email")
    page.locator(".MuiChip-root").filter(has_text="not-an-email").locator(
        ".MuiChip-deleteIcon"
    ).click()

    page.get_by_role("tab", name="Gates").click()
    expect(page.get_by_text("This zone has no gates yet.")).to_be_visible()
    page.get_by_role("button", name="Add Gate").click()
    page.get_by_role("button", name="Add Gate").click()
    page.get_by_role("tab", name="Basic").click()
    save(page)
    # The gate without its endpoint names the Gates tab, which opens, and marks the rows.
    expect(snackbar(page)).to_contain_text("Gates in the Gates tab: Please select an value")
    expect(page.get_by_role("tab", name="Gates")).to_have_attribute("aria-selected", "true")
    expect(gate(page, 1).get_by_text("Please select an value")).to_be_visible()
    expect(gate(page, 2).get_by_text("Please select an value")).to_be_visible()
    shot(page, "zone-new-gate-invalid")

    choose(page, gate(page, 1).get_by_role("combobox", name="Endpoint"), inbound.name)
    expect(gate(page, 1).get_by_text("Please select an value")).to_have_count(0)
    choose(page, gate(page, 1).get_by_role("combobox", name="Direction"), "IN")
    choose(page, gate(page, 2).get_by_role("combobox", name="Endpoint"), outbound.name)
    choose(page, gate(page, 2).get_by_role("combobox", name="Direction"), "OUT")
    choose(page, gate(page, 2).get_by_role("combobox", name="Antenna"), "3")
    expect(gate(page, 1).get_by_role("combobox", name="Antenna")).to_have_text("All")
    shot(page, "zone-new-gates")
    check_accessibility(page)
    save(page)
    expect(snackbar(page)).to_have_text(re.compile("Saved zone"))
    expect(page).to_have_url(re.compile(r"/zones\?site="))
    row = page.get_by_role("row").filter(has_text=name)
    expect(row).to_contain_text("15 min")
    expect(row).to_contain_text("Chilled goods")

    zone = next(z for z in admin_api.get("/api/zones", params={"site": site}).json())
    assert zone["name"] == name
    assert zone["duration"] == 15 * MINUTE_NS
    assert zone["killDuration"] == 2.5
    assert zone["immediateKill"] is True
    assert zone["killMode"] == "site"
    assert zone["emails"] == ["cold.store@northwind.example.com"]
    assert zone["gates"] == [
        {"endpoint": inbound.id, "direction": "IN", "antenna": -1},
        {"endpoint": outbound.id, "direction": "OUT", "antenna": 3},
    ]
    shot(page, "zones-list")
    check_accessibility(page)


def test_edit_and_delete_zone(page: Page, console: Console, admin_api: APIRequestContext) -> None:
    site = new_site(admin_api, "E2E Zone Edit")
    door = create_endpoint(admin_api, site, unique("Dock Door"))
    name = unique("Returns Cage")
    zone_id = create_zone(
        admin_api,
        site,
        name,
        [
            {"endpoint": door.id, "direction": "NEAR", "antenna": 1},
            {"endpoint": door.id, "direction": "GONE", "antenna": 2},
        ],
    )
    open_signed_in(page, PRIYA, console.demo_password, f"/zones?site={site}")
    page.get_by_role("row").filter(has_text=name).click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    expect(page.get_by_label("Alert Time (minutes)")).to_have_value("0")
    expect(page.get_by_role("combobox", name="Delete Behaviour")).to_have_text("Leave the zone")
    page.get_by_label("Alert Time (minutes)").fill("90")
    page.get_by_role("tab", name="Gates").click()
    expect(page.get_by_test_id("gate-row")).to_have_count(2)
    expect(gate(page, 1).get_by_role("combobox", name="Endpoint")).to_have_text(door.name)
    expect(gate(page, 2).get_by_role("combobox", name="Direction")).to_have_text("GONE")
    shot(page, "zone-edit-gates")
    gate(page, 1).get_by_role("button", name="Delete Gate 1").click()
    expect(page.get_by_test_id("gate-row")).to_have_count(1)
    save(page)
    expect(snackbar(page)).to_have_text(re.compile("Saved zone"))
    stored = admin_api.get(f"/api/zones/{zone_id}").json()
    assert stored["duration"] == 90 * MINUTE_NS
    assert stored["gates"] == [{"endpoint": door.id, "direction": "GONE", "antenna": 2}]
    expect(page.get_by_role("row").filter(has_text=name)).to_contain_text("90 min")

    page.get_by_role("row").filter(has_text=name).click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    page.get_by_role("button", name="Delete").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(
        "Are you sure you want to delete this zone? This action cannot be undone."
    )
    dialog.get_by_role("button", name="I'm Sure").click()
    expect(snackbar(page)).to_have_text(re.compile("Deleted zone"))
    expect(page).to_have_url(re.compile(r"/zones\?site="))
    expect(page.get_by_text("No zones found")).to_be_visible()
    assert admin_api.get(f"/api/zones/{zone_id}").status == 404


def test_zone_on_a_phone(mobile_page: Page, console: Console, admin_api: APIRequestContext) -> None:
    page = mobile_page
    site = new_site(admin_api, "E2E Zone Phone")
    door = create_endpoint(
        admin_api, site, unique("Mezzanine conveyor exit reader with a long descriptive name")
    )
    name = unique("Bulk storage mezzanine level two, aisles 40 to 58")
    create_zone(admin_api, site, name, [{"endpoint": door.id, "direction": "IN", "antenna": -1}])
    open_signed_in(page, PRIYA, console.demo_password, f"/zones?site={site}")
    row = page.get_by_role("row").filter(has_text=name)
    expect(row.get_by_role("button", name="Delete")).to_be_in_viewport(ratio=1)
    assert not overflows(page.locator("body"))
    shot(page, "mobile-zones")
    row.click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    assert not overflows(page.locator("body"))
    shot(page, "mobile-zone-basic")
    page.get_by_role("tab", name="Gates").click()
    expect(gate(page, 1).get_by_role("button", name="Delete Gate 1")).to_be_in_viewport()
    assert not overflows(page.locator("body"))
    shot(page, "mobile-zone-gates")
