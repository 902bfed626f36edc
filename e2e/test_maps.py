"""Maps: the list, a new map with its floor plan, placing readers and location tags by
clicking on the plan, the clustered map view with its popup, and the menu's map entries."""

import io
import re

import pytest
from PIL import Image, ImageDraw, ImageStat
from playwright.sync_api import APIRequestContext, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import MOBILE, PRIYA, Console, open_signed_in, shot, snackbar
from e2e.test_shell import menu
from e2e.tracking_data import (
    create_endpoint,
    create_thing,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
    post_reads,
    short_tag,
    wait_for_events,
)

OTHER_MAP = "0123456789abcdef01234567"


def floor_plan_png() -> bytes:
    """A small plan: two rooms with walls."""
    image = Image.new("RGB", (800, 500), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    draw.rectangle((20, 20, 390, 480), fill=(232, 241, 251), outline=(50, 60, 70), width=4)
    draw.rectangle((410, 20, 780, 480), fill=(236, 247, 238), outline=(50, 60, 70), width=4)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def click_plan_at(page: Page, fx: float, fy: float) -> None:
    plan = page.get_by_test_id("floor-plan")
    box = plan.bounding_box()
    assert box is not None
    plan.click(position={"x": box["width"] * fx, "y": box["height"] * fy})


@pytest.mark.usefixtures("patient_expect")
def test_create_a_map_place_readers_and_tags_and_view_things(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Maps")
    reader = create_endpoint(admin_api, site, "Dock Door Reader")
    handheld = create_endpoint(admin_api, site, "Handheld RFD40")
    shelf_tag = short_tag()
    response = admin_api.post(
        "/api/locationtags", data={"name": "Aisle 1 Shelf A", "tag": shelf_tag, "site": site}
    )
    assert response.ok, response.text()
    shelf_id = response.json()["_id"]

    open_signed_in(page, PRIYA, console.demo_password, f"/maps?site={site}")
    expect(page.get_by_role("heading", name="Maps")).to_be_visible()
    grid = page.get_by_role("grid", name="Maps")
    for header in ("Name", "TopLeft", "BotRight"):
        expect(grid.get_by_role("columnheader", name=header, exact=True)).to_be_visible()
    expect(page.get_by_text("No maps found")).to_be_visible()
    # No map yet: the menu has no Maps group (Configuration still links the list).
    expect(menu(page).get_by_role("button", name="Maps", exact=True)).to_have_count(0)

    page.get_by_test_id("list-add").click()
    expect(page.get_by_role("heading", name="Add Map")).to_be_visible()
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Name is a required field.")
    page.get_by_label("Name").fill("Ground Floor")
    page.get_by_test_id("floor-plan-file").set_input_files(
        files=[{"name": "plan.png", "mimeType": "image/png", "buffer": floor_plan_png()}]
    )
    expect(page.get_by_text("plan.png: saved with the map")).to_be_visible()
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_have_text(re.compile(r"^SavedClose$"))
    expect(page).to_have_url(re.compile(r"/maps/[0-9a-f]{24}\?site="))
    found = re.search(r"/maps/([0-9a-f]{24})", page.url)
    assert found
    map_id = found.group(1)
    expect(page.get_by_role("heading", name="Ground Floor")).to_be_visible()
    # The 800 x 500 plan got corners that keep its proportions.
    expect(page.get_by_label("TopLeft Y")).to_have_value("625")
    expect(page.get_by_text(re.compile(r"^800 . 500 px floor plan$"))).to_be_visible()

    placeables = page.get_by_test_id("placeables")
    placeables.get_by_role("button").filter(has_text="Dock Door Reader").click()
    expect(page.get_by_text("Click on the floor plan to place Dock Door Reader.")).to_be_visible()
    click_plan_at(page, 0.25, 0.5)
    expect(snackbar(page)).to_have_text(re.compile(r"^SavedClose$"))
    expect(page.get_by_test_id("placed-marker")).to_have_count(1)
    placeables.get_by_role("button").filter(has_text="Aisle 1 Shelf A").click()
    click_plan_at(page, 0.75, 0.3)
    expect(page.get_by_test_id("placed-marker")).to_have_count(2)
    expect(placeables.get_by_role("button").filter(has_text="Aisle 1 Shelf A")).to_contain_text(
        "On this map"
    )
    shot(page, "map-edit-placed")
    check_accessibility(page)

    endpoint = admin_api.get(f"/api/endpoints/{reader.id}").json()
    assert endpoint["map"] == map_id
    assert endpoint["xycoordinates"] == pytest.approx([0.25, 0.5], abs=0.01)
    shelf = admin_api.get(f"/api/locationtags/{shelf_id}").json()
    assert shelf["map"] == map_id
    assert shelf["xycoordinates"] == pytest.approx([0.75, 0.3], abs=0.01)

    # Three crates pass the reader; a handheld at the shelf reads a drill.
    crates = [short_tag() for _ in range(3)]
    for n, tag in enumerate(crates):
        create_thing(admin_api, site, f"Crate {n + 1}", tag=tag)
    drill = short_tag()
    create_thing(admin_api, site, "Cordless Drill CD-001", tag=drill)
    post_reads(admin_api, reader, [{"tag": t, "antenna": 1} for t in crates])
    post_reads(admin_api, handheld, [{"tag": shelf_tag}, {"tag": drill}])
    for tag in (*crates, drill):
        assert wait_for_events(admin_api, site, tag)

    # The menu lists the site's maps; its entry opens the map view.
    maps_group = menu(page).get_by_role("list", name="Maps")
    maps_group.get_by_role("link", name="Ground Floor").click()
    expect(page).to_have_url(re.compile(rf"/mapview/{map_id}\?site="))
    view = page.get_by_test_id("map-view")
    expect(view.locator(".leaflet-image-layer")).to_be_visible()
    cluster = view.locator(".marker-cluster")
    expect(cluster).to_have_count(1)
    expect(cluster).to_have_text("3")
    expect(page.get_by_text("4 things on this map")).to_be_visible()
    single = view.locator(".leaflet-marker-icon:not(.marker-cluster)")
    expect(single).to_have_count(1)
    shot(page, "map-view")
    check_accessibility(page)
    single.click()
    popup = page.get_by_test_id("map-popup")
    expect(popup).to_contain_text("Cordless Drill CD-001")
    expect(popup).to_contain_text(drill)
    expect(popup).to_contain_text("Last event: just now")
    shot(page, "map-view-popup")

    # The view refreshes by itself: a crate read at the shelf joins the drill there.
    post_reads(admin_api, handheld, [{"tag": shelf_tag}, {"tag": crates[0]}])
    expect(cluster).to_have_text(["2", "2"], timeout=25_000)

    page.set_viewport_size(MOBILE)
    expect(view).to_be_visible()
    expect(view.locator(".leaflet-image-layer")).to_be_in_viewport()
    expect(cluster).to_have_count(2)
    assert not page.locator("body").evaluate("e => e.scrollWidth > e.clientWidth")
    shot(page, "mobile-map-view")


def test_map_list_on_a_phone_and_a_missing_map(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Maps Phone")
    response = admin_api.post(
        "/api/maps",
        data={"name": "Mezzanine level 2, north wing storage and returns", "site": site},
    )
    assert response.ok, response.text()
    page.set_viewport_size(MOBILE)
    open_signed_in(page, PRIYA, console.demo_password, f"/maps?site={site}")
    row = page.get_by_role("row").filter(has_text="Mezzanine level 2")
    expect(row).to_be_visible()
    assert not page.locator("body").evaluate("e => e.scrollWidth > e.clientWidth")
    shot(page, "mobile-maps")
    check_accessibility(page)
    row.click()
    expect(page.get_by_role("textbox", name="Name")).to_have_value(
        "Mezzanine level 2, north wing storage and returns"
    )
    expect(
        page.get_by_text("Upload a floor plan to place endpoints and tags on it.")
    ).to_be_visible()
    shot(page, "mobile-map-edit")

    page.goto(f"/mapview/{OTHER_MAP}?site={site}")
    expect(snackbar(page)).to_contain_text("Failed to load map")


def rotated_photo_plan() -> bytes:
    """A photographed plan of about 3 MiB, stored 2400 x 1600 and to be shown a quarter
    turned (EXIF orientation 6): a dark band on the stored top edge."""
    grain = Image.effect_noise((2400, 1600), 60)
    image = Image.merge("RGB", (grain, grain, grain))
    ImageDraw.Draw(image).rectangle((0, 0, 2399, 99), fill=(20, 20, 20))
    exif = Image.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    image.save(out, "JPEG", quality=95, exif=exif)
    return out.getvalue()


# Records what the floor plan's progress shows, every change, while the page runs.
WATCH_PROGRESS = """() => {
  window.planProgress = [];
  new MutationObserver(() => {
    const box = document.querySelector('[data-testid="floor-plan-progress"]');
    if (!box) return;
    const bar = box.querySelector('[role="progressbar"]');
    window.planProgress.push({
      text: box.textContent,
      value: bar ? bar.getAttribute('aria-valuenow') : null,
    });
  }).observe(document.body, {subtree: true, childList: true, attributes: true,
                             characterData: true});
}"""


def test_a_floor_plan_upload_shows_its_progress_and_is_stored_upright(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Maps Upload")
    response = admin_api.post("/api/maps", data={"name": "Warehouse Hall", "site": site})
    assert response.ok, response.text()
    map_id = response.json()["_id"]
    plan = rotated_photo_plan()
    assert len(plan) > 2 * 1024 * 1024

    open_signed_in(page, PRIYA, console.demo_password, f"/maps/{map_id}?site={site}")
    expect(page.get_by_role("heading", name="Warehouse Hall")).to_be_visible()
    page.get_by_test_id("floor-plan-file").set_input_files(
        files=[{"name": "hall.jpg", "mimeType": "image/jpeg", "buffer": plan}]
    )
    expect(page.get_by_text("hall.jpg: saved with the map")).to_be_visible()
    # A slow uplink, as from a phone on site, so the upload takes a few seconds.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": -1, "uploadThroughput": 1 << 20},
    )
    page.evaluate(WATCH_PROGRESS)
    page.get_by_role("button", name="Save").click()
    progress = page.get_by_test_id("floor-plan-progress")
    expect(progress).to_be_visible()
    expect(progress.get_by_role("progressbar")).to_have_attribute(
        "aria-valuenow", re.compile(r"^[1-9][0-9]?$")
    )
    shot(page, "map-edit-plan-progress")
    expect(snackbar(page)).to_have_text(re.compile(r"^SavedClose$"))
    expect(progress).to_have_count(0)
    seen = page.evaluate("window.planProgress")
    values = [int(s["value"]) for s in seen if s["value"] is not None]
    # Determinate while the bytes go out, in order, then the server's part without a value.
    assert any(0 < v < 100 for v in values), seen
    assert values == sorted(values), seen
    assert any(s["text"] == "Processing floor plan…" and s["value"] is None for s in seen), seen

    # Stored upright: 1600 x 2400, the stored top edge now on the right.
    expect(page.get_by_text(re.compile(r"^1600 . 2400 px floor plan$"))).to_be_visible()
    expect(page.get_by_test_id("floor-plan")).to_be_visible()
    served = admin_api.get(f"/api/maps/{map_id}/image")
    assert served.ok
    assert served.headers["content-type"] == "image/jpeg"
    with Image.open(io.BytesIO(served.body())) as stored:
        assert stored.size == (1600, 2400)
        grey = stored.convert("L")
        right = ImageStat.Stat(grey.crop((1520, 100, 1600, 2300))).mean[0]
        left = ImageStat.Stat(grey.crop((0, 100, 80, 2300))).mean[0]
        assert right < 40 < 90 < left, (right, left)
