"""The Settings screen of a site: renamed labels and hidden workers take effect at once in
the menu, list titles, the home chart and the forms; other settings are kept."""

import re

from playwright.sync_api import APIRequestContext, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import MOBILE, PRIYA, Console, open_signed_in, shot, snackbar
from e2e.test_shell import menu
from e2e.tracking_data import create_thing, create_zone, new_site


def test_renaming_labels_and_hiding_workers(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Settings")
    create_zone(admin_api, site, "Receiving", [])
    create_thing(admin_api, site, "Pallet Jack PJ-900")
    create_thing(admin_api, site, "Aisha Novak", thing_class="worker")
    mapping = [
        {"name": "DEFAULT", "headerAssetFields": [{"header": "Asset", "assetField": "name"}]}
    ]
    settings_url = f"/api/sites/{site}/settings"
    stored = admin_api.get(settings_url).json()
    stored["importSettings"]["importMappings"] = mapping
    assert admin_api.put(settings_url, data=stored).ok

    open_signed_in(page, PRIYA, console.demo_password, f"/settings?site={site}")
    expect(page.get_by_role("heading", name="Settings")).to_be_visible()
    for label in (
        "Item Label",
        "Worker Label",
        "Item Name Label",
        "Item Serial Label",
        "Parent Categories",
        "Tag Prefix",
    ):
        expect(page.get_by_label(label)).to_be_visible()
    for box in (
        "Hide Workers",
        "Show Label Header In Thing List",
        "Flatten Events Export",
        "Prefixed Tag Duplicate Check",
        "Generate Prefix Tag",
        "Require Zone On Import",
    ):
        expect(page.get_by_role("checkbox", name=box)).not_to_be_checked()
    # The organization's labels apply until the site sets its own.
    expect(menu(page).get_by_role("link", name="Assets", exact=True)).to_be_visible()
    expect(menu(page).get_by_role("link", name="Staff", exact=True)).to_be_visible()

    page.get_by_label("Item Label").fill("Tools")
    page.get_by_label("Worker Label").fill("Crew")
    page.get_by_label("Item Name Label").fill("Tool Name")
    page.get_by_label("Tag Prefix").fill("NW")
    page.get_by_role("checkbox", name="Require Zone On Import").check()
    page.get_by_role("checkbox", name="Show Label Header In Thing List").check()
    shot(page, "site-settings")
    check_accessibility(page)
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_have_text(re.compile(r"^SavedClose$"))
    # At once, without a reload: the menu uses the new labels.
    expect(menu(page).get_by_role("link", name="Tools", exact=True)).to_be_visible()
    expect(menu(page).get_by_role("link", name="Crew", exact=True)).to_be_visible()
    expect(menu(page).get_by_role("link", name="Assets", exact=True)).to_have_count(0)

    saved = admin_api.get(settings_url).json()
    assert saved["itemLabel"] == "Tools" and saved["workerLabel"] == "Crew"
    assert saved["orgTagPrefix"] == "NW"
    assert saved["importSettings"]["requireZone"] is True
    assert saved["thingHeaders"] == ["label"]
    assert saved["importSettings"]["importMappings"] == mapping

    menu(page).get_by_role("link", name="Tools", exact=True).click()
    expect(page.get_by_role("heading", name="Tools")).to_be_visible()
    grid = page.get_by_role("grid")
    expect(grid.get_by_role("columnheader", name="Tool Name")).to_be_visible()
    expect(grid.get_by_role("columnheader", name="Labels")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text="Pallet Jack PJ-900")).to_be_visible()
    menu(page).get_by_role("link", name="Crew", exact=True).click()
    expect(page.get_by_role("heading", name="Crew")).to_be_visible()
    expect(page.get_by_role("row").filter(has_text="Aisha Novak")).to_be_visible()
    menu(page).get_by_role("link", name="Home", exact=True).click()
    chart = page.get_by_test_id("zone-chart")
    expect(chart).to_be_visible()
    for series in ("Total", "Tools", "Crew"):
        expect(chart.get_by_text(series, exact=True)).to_be_visible()

    # Hiding workers: the worker label is disabled, and workers leave the console.
    page.goto(f"/settings?site={site}")
    expect(page.get_by_label("Item Label")).to_have_value("Tools")
    page.get_by_role("checkbox", name="Hide Workers").check()
    expect(page.get_by_label("Worker Label")).to_be_disabled()
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_have_text(re.compile(r"^SavedClose$"))
    expect(menu(page).get_by_role("link", name="Crew", exact=True)).to_have_count(0)
    expect(menu(page).get_by_role("link", name="Tools", exact=True)).to_be_visible()
    shot(page, "site-settings-workers-hidden")
    menu(page).get_by_role("link", name="Home", exact=True).click()
    chart = page.get_by_test_id("zone-chart")
    expect(chart.get_by_text("Tools", exact=True)).to_be_visible()
    for series in ("Total", "Crew"):
        expect(chart.get_by_text(series, exact=True)).to_have_count(0)
    # A typed workers URL lands on the items list.
    page.goto(f"/workers?site={site}")
    expect(page).to_have_url(re.compile(r"/items\?site="))
    expect(page.get_by_role("heading", name="Tools")).to_be_visible()

    # Another site keeps the organization's labels.
    page.get_by_role("combobox", name="Site").click()
    page.get_by_role("option", name="Rotterdam Distribution Centre").click()
    expect(menu(page).get_by_role("link", name="Assets", exact=True)).to_be_visible()
    expect(menu(page).get_by_role("link", name="Staff", exact=True)).to_be_visible()


def test_settings_on_a_phone_and_a_failed_save(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Settings Phone")
    page.set_viewport_size(MOBILE)
    open_signed_in(page, PRIYA, console.demo_password, f"/settings?site={site}")
    expect(page.get_by_role("heading", name="Settings")).to_be_visible()
    assert not page.locator("body").evaluate("e => e.scrollWidth > e.clientWidth")
    # Every field takes the card's width, the category picker too.
    outline = "xpath=ancestor::div[contains(@class, 'MuiFormControl-root')][1]"
    label_box = page.get_by_role("textbox", name="Item Label").locator(outline).bounding_box()
    picker_box = (
        page.get_by_role("combobox", name="Parent Categories").locator(outline).bounding_box()
    )
    assert label_box and picker_box
    assert abs(picker_box["width"] - label_box["width"]) < 2, (picker_box, label_box)
    shot(page, "mobile-site-settings")
    # The site goes away while the screen is open: the save fails with the server's text.
    assert admin_api.delete(f"/api/sites/{site}").ok
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Failed to save: ")
