"""Location tags: list, create with the required-field messages, edit, delete, phone width."""

import re
import uuid

from playwright.sync_api import APIRequestContext, Locator, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import PRIYA, Console, open_signed_in, shot, snackbar, unique
from e2e.tracking_data import create_map, create_zone, new_site


def save(page: Page) -> None:
    page.get_by_role("button", name="Save").click()


def overflows(locator: Locator) -> bool:
    return bool(locator.evaluate("e => e.scrollWidth > e.clientWidth"))


def epc() -> str:
    return "e2e10c" + uuid.uuid4().hex[:12]


def create_location_tag(
    api: APIRequestContext, site: str, name: str, tag: str, zone: str | None = None
) -> str:
    response = api.post(
        "/api/locationtags",
        data={"name": name, "tag": tag, "site": site, "zone": zone, "xycoordinates": [0.5, 0.6]},
    )
    assert response.ok, response.text()
    return str(response.json()["_id"])


def test_create_location_tag_with_required_fields(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Location Tags")
    zone_name = unique("Picking Aisle 4")
    zone = create_zone(admin_api, site, zone_name, [])
    floor_plan = create_map(admin_api, site, "Ground Floor")
    name = unique("Aisle 4 Bay 2")
    tag = epc()
    open_signed_in(page, PRIYA, console.demo_password, f"/locationtags?site={site}")
    expect(page.get_by_role("heading", name="Location Tags")).to_be_visible()
    grid = page.get_by_role("grid", name="Location Tags")
    for header in ("Name", "Tag", "Coordinates", "Zone"):
        expect(grid.get_by_role("columnheader", name=header, exact=True)).to_be_visible()
    expect(page.get_by_text("No location tags found")).to_be_visible()
    page.get_by_test_id("list-add").click()
    expect(page.get_by_role("heading", name="Add Location Tag")).to_be_visible()
    expect(page.get_by_role("button", name="Delete")).to_have_count(0)

    save(page)
    expect(snackbar(page)).to_contain_text("Name in the Basic tab is a required field.")
    expect(page.get_by_text("This field is required")).to_have_count(2)
    shot(page, "locationtag-new-required")
    page.get_by_role("textbox", name="Name", exact=True).fill(name)
    save(page)
    expect(snackbar(page)).to_contain_text("Tag in the Basic tab is a required field.")
    page.get_by_role("textbox", name="Tag", exact=True).fill(tag)
    page.get_by_role("combobox", name="Zone").click()
    page.get_by_role("option", name=zone_name).click()
    page.get_by_role("combobox", name="Map").click()
    page.get_by_role("option", name="Ground Floor").click()
    page.get_by_role("spinbutton", name="X").fill("0.3")
    page.get_by_role("spinbutton", name="Y").fill("0.45")
    shot(page, "locationtag-new-filled")
    check_accessibility(page)
    save(page)
    expect(snackbar(page)).to_have_text(re.compile("Saved location tag"))
    expect(page).to_have_url(re.compile(r"/locationtags\?site="))
    row = page.get_by_role("row").filter(has_text=name)
    expect(row).to_contain_text(tag.upper())
    expect(row).to_contain_text("0.3, 0.45")
    expect(row).to_contain_text(zone_name)
    shot(page, "locationtags-list")
    check_accessibility(page)

    stored = next(t for t in admin_api.get("/api/locationtags", params={"site": site}).json())
    assert stored["tag"] == tag.upper()
    assert stored["zone"] == zone
    assert stored["map"] == floor_plan
    assert stored["xycoordinates"] == [0.3, 0.45]


def test_edit_search_and_delete_location_tags(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Location Tag Edit")
    zone_name = unique("Returns")
    zone = create_zone(admin_api, site, zone_name, [])
    first = unique("Returns Desk")
    second = unique("Loading Bay")
    first_id = create_location_tag(admin_api, site, first, epc(), zone)
    create_location_tag(admin_api, site, second, epc())
    open_signed_in(page, PRIYA, console.demo_password, f"/locationtags?site={site}")
    expect(page.get_by_text("2 total")).to_be_visible()
    page.goto(f"/locationtags?site={site}&search=Loading")
    expect(page.get_by_text("1 total")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text=first)).to_have_count(0)

    page.goto(f"/locationtags?site={site}")
    page.get_by_role("row").filter(has_text=first).click()
    expect(page.get_by_role("heading", name=first)).to_be_visible()
    expect(page.get_by_role("combobox", name="Zone")).to_have_text(zone_name)
    page.get_by_role("textbox", name="Tag", exact=True).fill("")
    save(page)
    expect(snackbar(page)).to_contain_text("Tag in the Basic tab is a required field.")
    renamed = unique("Returns Desk East")
    page.get_by_role("textbox", name="Tag", exact=True).fill(epc())
    page.get_by_role("textbox", name="Name", exact=True).fill(renamed)
    page.get_by_role("combobox", name="Zone").click()
    page.get_by_role("option", name="None").click()
    save(page)
    expect(snackbar(page)).to_have_text(re.compile("Saved location tag"))
    row = page.get_by_role("row").filter(has_text=renamed)
    expect(row).to_be_visible()
    assert admin_api.get(f"/api/locationtags/{first_id}").json()["zone"] is None

    row.get_by_role("button", name="Delete").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(
        "Are you sure you want to delete this location tag? This action cannot be undone."
    )
    dialog.get_by_role("button", name="I'm Sure").click()
    expect(page.get_by_text("1 total")).to_be_visible()
    assert admin_api.get(f"/api/locationtags/{first_id}").status == 404


def test_location_tags_on_a_phone(
    mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    page = mobile_page
    site = new_site(admin_api, "E2E Location Tag Phone")
    name = unique("Cross-dock staging lane 14, pillar C7, north face near the charger")
    create_location_tag(admin_api, site, name, epc())
    open_signed_in(page, PRIYA, console.demo_password, f"/locationtags?site={site}")
    row = page.get_by_role("row").filter(has_text=name)
    expect(row.get_by_role("button", name="Delete")).to_be_in_viewport(ratio=1)
    assert not overflows(page.locator("body"))
    shot(page, "mobile-locationtags")
    row.click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    assert not overflows(page.locator("body"))
    shot(page, "mobile-locationtag-edit")


def test_all_sites_asks_which_site_a_new_location_tag_belongs_to(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Location Tag Any Site")
    site_name = admin_api.get(f"/api/sites/{site}").json()["name"]
    zone_name = unique("Yard")
    zone = create_zone(admin_api, site, zone_name, [])
    name = unique("Yard Gate Post")
    open_signed_in(page, PRIYA, console.demo_password, f"/locationtags/new?site={'0' * 24}")
    form = page.get_by_test_id("detail-form")
    expect(page.get_by_role("heading", name="Add Location Tag")).to_be_visible()
    form.get_by_role("textbox", name="Name", exact=True).fill(name)
    form.get_by_role("textbox", name="Tag", exact=True).fill(epc())
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Site in the Basic tab is a required field.")
    form.get_by_role("combobox", name="Site").click()
    page.get_by_role("option", name=site_name).click()
    # The zones offered are the chosen site's.
    form.get_by_role("combobox", name="Zone").click()
    page.get_by_role("option", name=zone_name).click()
    shot(page, "locationtag-new-all-sites")
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_have_text(re.compile("Saved location tag"))
    stored = admin_api.get("/api/locationtags", params={"site": site}).json()
    assert [(t["name"], t["zone"]) for t in stored] == [(name, zone)]
