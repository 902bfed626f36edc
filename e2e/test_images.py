"""Images: upload with progress, image edit, unsaved changes, stepping, the gallery's search,
selection, bulk edit, delete by query, zip export, phone layout; categories with QR code."""

import io
import re
import uuid
import zipfile
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Browser, Locator, Page, expect

from e2e.accessibility import check_accessibility
from e2e.conftest import (
    DESKTOP,
    PRIYA,
    Console,
    create_user,
    open_signed_in,
    shot,
    snackbar,
    unique,
)
from tests.photos import jpeg

# Where the test browser says the device is.
DEVICE = {"latitude": 53.7997, "longitude": -1.5492}


def noise_jpeg(side: int = 1400) -> bytes:
    """A photo that does not compress: a few MB, so the upload takes a moment."""
    from PIL import Image

    out = io.BytesIO()
    Image.frombytes("RGB", (side, side), uuid.uuid4().bytes * (side * side * 3 // 16)).save(
        out, "JPEG", quality=95
    )
    return out.getvalue()


def api_upload(api: APIRequestContext, tag: str, **photo: Any) -> dict[str, Any]:
    data = jpeg(**photo)
    response = api.post(
        "/api/images",
        multipart={
            "file": {"name": "dock.jpg", "mimeType": "image/jpeg", "buffer": data},
            "tags": tag,
        },
    )
    assert response.ok, response.text()
    return dict(response.json())


def meta(api: APIRequestContext, image_id: str) -> dict[str, Any]:
    response = api.get(f"/api/images/{image_id}/meta")
    assert response.ok, response.text()
    return dict(response.json())


def create_category(api: APIRequestContext, name: str) -> str:
    response = api.post("/api/image-categories", data={"name": name})
    assert response.ok, response.text()
    return str(response.json()["id"])


def cards(page: Page) -> Locator:
    return page.get_by_test_id("image-card")


def open_gallery(page: Page, console: Console, query: str = "") -> None:
    open_signed_in(page, PRIYA, console.demo_password, f"/images{query}")
    expect(page.get_by_role("heading", name="Images")).to_be_visible()


@pytest.fixture
def located_page(browser: Browser, console: Console) -> Iterator[Page]:
    """A desktop page whose device can tell its location."""
    ctx = browser.new_context(
        base_url=console.url, viewport=DESKTOP, geolocation=DEVICE, permissions=["geolocation"]
    )
    ctx.set_default_timeout(10_000)
    yield ctx.new_page()
    ctx.close()


def add_tag(page: Page, tag: str) -> None:
    field = page.get_by_label("Tags", exact=True)
    field.fill(tag)
    field.press("Enter")


def pick_category(page: Page, name: str) -> None:
    page.get_by_label("Categories", exact=True).click()
    page.get_by_role("option", name=name, exact=True).click()
    page.keyboard.press("Escape")


def test_upload_with_progress_then_tag_categorise_and_save(
    located_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    page = located_page
    category = unique("Dock Damage")
    create_category(admin_api, category)
    tag = f"bay{uuid.uuid4().hex[:6]}"
    open_gallery(page, console)
    # A slow uplink, so the percentage shows while the photo goes up.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": -1, "uploadThroughput": 400_000},
    )
    page.get_by_test_id("upload-input").set_input_files(
        {"name": "noise.jpg", "mimeType": "image/jpeg", "buffer": noise_jpeg()}
    )
    progress = page.get_by_test_id("upload-progress")
    expect(progress).to_have_text(re.compile(r"^\d{1,3}%$"))
    shot(page, "images-upload-progress")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    expect(page).to_have_url(re.compile(r"/images/[0-9a-f]{24}\?.*fromUpload=true"), timeout=30_000)
    image_id = re.search(r"/images/([0-9a-f]{24})", page.url).group(1)  # type: ignore[union-attr]

    details = page.get_by_test_id("image-details")
    # The photo had no location: the device's was saved with it.
    expect(details.get_by_label("Latitude")).to_have_value(str(DEVICE["latitude"]))
    expect(details.get_by_role("link", name="Open in Maps")).to_have_attribute(
        "href", re.compile(r"google\.com/maps")
    )
    expect(details).to_contain_text(PRIYA)
    details.get_by_role("button", name="More Information").click()
    expect(details).to_contain_text("1400 x 1400")
    expect(details).to_contain_text("JPG")

    add_tag(page, tag)
    pick_category(page, category)
    page.get_by_label("Comment").fill("Pallet wrap torn")
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Saved")
    shot(page, "image-edit")
    check_accessibility(page)
    saved = meta(admin_api, image_id)
    assert saved["tags"] == [tag]
    assert [c["name"] for c in saved["categories"]] == [category]
    assert saved["annotation"] == "Pallet wrap torn"
    assert saved["location"]["coordinates"] == pytest.approx(
        [DEVICE["longitude"], DEVICE["latitude"]]
    )

    # The next upload is filed the same way: saved after an upload, remembered.
    page.get_by_role("button", name="Exit").click()
    expect(page).to_have_url(re.compile(r"/images(\?|$)"))
    page.get_by_test_id("upload-input").set_input_files(
        {"name": "next.jpg", "mimeType": "image/jpeg", "buffer": jpeg(taken=datetime(2025, 1, 2))}
    )
    expect(page).to_have_url(re.compile(r"fromUpload=true"))
    second = re.search(r"/images/([0-9a-f]{24})", page.url).group(1)  # type: ignore[union-attr]
    assert second != image_id
    expect(page.get_by_test_id("image-details").get_by_text(tag, exact=True)).to_be_visible()
    nxt = meta(admin_api, second)
    assert nxt["tags"] == [tag]
    assert [c["name"] for c in nxt["categories"]] == [category]


def test_unsaved_changes_dialog_and_before_unload(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    tag = f"wrap{uuid.uuid4().hex[:6]}"
    image = api_upload(admin_api, tag)
    open_signed_in(page, PRIYA, console.demo_password, f"/images/{image['id']}")
    expect(page.get_by_test_id("image-large")).to_be_visible()

    add_tag(page, "scratched")
    page.get_by_role("button", name="Exit").click()
    dialog = page.get_by_role("dialog", name="Unsaved Changes Exist")
    expect(dialog).to_be_visible()
    shot(page, "image-unsaved-changes")
    check_accessibility(page)
    dialog.get_by_role("button", name="Discard").click()
    expect(page).to_have_url(re.compile(r"/images(\?|$)"))
    assert meta(admin_api, image["id"])["tags"] == [tag]

    page.goto(f"/images/{image['id']}")
    add_tag(page, "scratched")
    page.get_by_role("button", name="Exit").click()
    page.get_by_role("dialog", name="Unsaved Changes Exist").get_by_role(
        "button", name="Save"
    ).click()
    expect(page).to_have_url(re.compile(r"/images(\?|$)"))
    assert meta(admin_api, image["id"])["tags"] == [tag, "scratched"]

    # Closing the tab with changes asks through the browser too.
    page.goto(f"/images/{image['id']}")
    add_tag(page, "dented")
    asked: list[str] = []

    def on_dialog(d: Any) -> None:
        asked.append(d.type)
        d.dismiss()

    page.on("dialog", on_dialog)
    page.close(run_before_unload=True)
    for _ in range(50):
        if asked:
            break
        page.wait_for_timeout(100)
    assert asked == ["beforeunload"]


def test_arrow_keys_step_through_the_search(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    tag = f"step{uuid.uuid4().hex[:6]}"
    # Newest upload first: the gallery shows third, second, first.
    first, second, third = (api_upload(admin_api, tag)["id"] for _ in range(3))
    open_gallery(page, console, f"?tags={tag}")
    expect(cards(page)).to_have_count(3)
    cards(page).first.get_by_role("button", name=re.compile("^Open image")).click()
    expect(page).to_have_url(re.compile(rf"/images/{third}\?.*tags={tag}"))
    expect(page.get_by_role("button", name="Next image")).to_be_enabled()
    expect(page.get_by_role("button", name="Previous image")).to_be_disabled()
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(rf"/images/{second}\?"))
    expect(page.get_by_test_id("image-large")).to_have_attribute("src", re.compile(second))
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(rf"/images/{first}\?"))
    expect(page.get_by_role("button", name="Next image")).to_be_disabled()
    expect(page.get_by_test_id("image-large")).to_have_attribute("src", re.compile(first))
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(re.compile(rf"/images/{second}\?"))
    page.get_by_role("button", name="Next image").click()
    expect(page).to_have_url(re.compile(rf"/images/{first}\?"))


def test_a_direct_link_steps_from_any_image_and_tags_are_suggested(
    page: Page, mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    tag = f"deep{uuid.uuid4().hex[:6]}"
    # More than the gallery's first page: the oldest are on no page the console has loaded.
    ids = [api_upload(admin_api, tag, width=40, height=30)["id"] for _ in range(27)]
    oldest, second_oldest = ids[0], ids[1]
    open_signed_in(page, PRIYA, console.demo_password, f"/images/{second_oldest}?tags={tag}")
    expect(page.get_by_test_id("image-large")).to_have_attribute("src", re.compile(second_oldest))
    expect(page.get_by_role("button", name="Previous image")).to_be_enabled()
    expect(page.get_by_role("button", name="Next image")).to_be_enabled()
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(rf"/images/{oldest}\?.*tags={tag}"))
    expect(page.get_by_role("button", name="Next image")).to_be_disabled()
    # Two quick clicks step twice: the second waits for the image the first leads to.
    page.get_by_role("button", name="Previous image").dblclick()
    expect(page).to_have_url(re.compile(rf"/images/{ids[2]}\?"))
    # Without a search, a link steps through the whole gallery.
    page.goto(f"/images/{ids[10]}")
    expect(page.get_by_role("button", name="Previous image")).to_be_enabled(timeout=30_000)
    page.get_by_role("button", name="Next image").click()
    expect(page).to_have_url(re.compile(rf"/images/{ids[9]}(\?site=\w+)?$"))
    # The address changes before the page draws the next image: type into its own form.
    expect(page.get_by_test_id("image-large")).to_have_attribute("src", re.compile(ids[9]))

    # Tags are suggested while typing: the image's Tags, then the save keeps the picked one.
    known = f"Pallet{uuid.uuid4().hex[:6]}"
    api_upload(admin_api, known)
    field = page.get_by_label("Tags", exact=True)
    field.fill(known[:9].lower())
    option = page.get_by_role("option", name=known, exact=True)
    expect(option).to_be_visible()
    shot(page, "image-edit-tag-suggestions")
    option.click()
    expect(page.get_by_test_id("image-details").get_by_role("button", name=known)).to_be_visible()
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Saved")
    assert meta(admin_api, ids[9])["tags"] == [tag, known]

    # The gallery's search.
    page.goto(f"/images?search={known}")
    expect(cards(page)).to_have_count(2, timeout=30_000)
    page.get_by_role("button", name="Search filters").click()
    filters = page.get_by_test_id("image-search-filters")
    filters.get_by_label("Tags", exact=True).fill(tag[:6])
    page.get_by_role("option", name=tag, exact=True).click()
    expect(page).to_have_url(re.compile(rf"tags={tag}"))
    expect(cards(page)).to_have_count(1)
    page.get_by_role("button", name="Done").click()

    # Bulk edit: a suggestion for the tags to add.
    cards(page).nth(0).get_by_role("button", name="Select image").click()
    page.get_by_role("button", name="Edit images").click()
    edit = page.get_by_role("dialog", name="Edit 1 image(s)")
    edit.get_by_label("Add Tags").fill(known[:9])
    expect(page.get_by_role("option", name=known, exact=True)).to_be_visible()
    shot(page, "images-bulk-edit-tag-suggestions")
    page.keyboard.press("Escape")

    # On a phone, the suggestions fit the screen.
    open_signed_in(mobile_page, PRIYA, console.demo_password, f"/images/{ids[8]}?tags={tag}")
    mobile_page.get_by_role("button", name="Details").click()
    mobile_page.get_by_label("Tags", exact=True).fill(known[:9])
    expect(mobile_page.get_by_role("option", name=known, exact=True)).to_be_in_viewport()
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(mobile_page, "image-edit-tag-suggestions-phone")


def test_infinite_scroll_loads_the_next_page(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    tag = f"many{uuid.uuid4().hex[:6]}"
    for _ in range(30):
        api_upload(admin_api, tag, width=40, height=30)
    open_gallery(page, console, f"?tags={tag}")
    expect(page.get_by_text("30 image(s)", exact=True)).to_be_visible()
    expect(cards(page)).to_have_count(25)
    page.mouse.wheel(0, 20_000)
    expect(cards(page)).to_have_count(30)
    shot(page, "images-gallery")


def test_chip_search_and_selection_with_bulk_edit(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    tag = f"chip{uuid.uuid4().hex[:6]}"
    other = f"other{uuid.uuid4().hex[:6]}"
    ids = [api_upload(admin_api, tag)["id"] for _ in range(3)]
    api_upload(admin_api, other)
    open_gallery(page, console, f"?search={tag}")
    expect(cards(page)).to_have_count(3)

    # A chip click searches by it; the URL mirrors the search.
    cards(page).first.get_by_test_id("tag-chip").filter(has_text=tag).click()
    expect(page).to_have_url(re.compile(rf"tags={tag}"))
    expect(cards(page)).to_have_count(3)

    # Selection mode: the check buttons, then chips toggle the selection.
    cards(page).nth(0).get_by_role("button", name="Select image").click()
    expect(page.get_by_text("1 selected of 3")).to_be_visible()
    cards(page).nth(1).get_by_test_id("tag-chip").click()
    expect(page.get_by_text("2 selected of 3")).to_be_visible()
    expect(page).to_have_url(re.compile(rf"tags={tag}$|tags={tag}&"))
    shot(page, "images-selection")
    check_accessibility(page)

    page.get_by_role("button", name="Edit images").click()
    edit = page.get_by_role("dialog", name="Edit 2 image(s)")
    field = edit.get_by_label("Add Tags")
    field.fill("inspected")
    field.press("Enter")
    edit.get_by_role("button", name="Apply").click()
    confirm = page.get_by_role("dialog", name="Edit Images")
    expect(confirm).to_contain_text("Are you sure you want to edit 2 selected image(s)?")
    confirm.get_by_role("button", name="Edit").click()
    expect(snackbar(page)).to_contain_text("Saved")
    tagged = [i for i in ids if "inspected" in meta(admin_api, i)["tags"]]
    assert len(tagged) == 2
    expect(page.get_by_text("3 image(s)", exact=True)).to_be_visible()  # the selection was cleared

    page.get_by_role("button", name="Select image").first.click()
    page.get_by_role("button", name="Clear selection").click()
    expect(page.get_by_text("3 image(s)", exact=True)).to_be_visible()


def test_delete_by_query_needs_the_typed_word(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    tag = f"gone{uuid.uuid4().hex[:6]}"
    doomed = [api_upload(admin_api, tag)["id"] for _ in range(2)]
    kept = api_upload(admin_api, f"kept{uuid.uuid4().hex[:6]}")["id"]
    open_gallery(page, console, f"?tags={tag}")
    expect(cards(page)).to_have_count(2)
    page.get_by_role("button", name="Delete images").click()
    dialog = page.get_by_role("dialog", name="Delete Images")
    expect(dialog).to_contain_text('Enter "Delete" to delete images.')
    button = dialog.get_by_role("button", name="Delete")
    expect(button).to_be_disabled()
    dialog.get_by_label("Type delete").fill("delet")
    expect(button).to_be_disabled()
    dialog.get_by_label("Type delete").fill("Delete")
    expect(button).to_be_enabled()
    shot(page, "images-delete-by-query")
    button.click()
    expect(page.get_by_text("No images match the search")).to_be_visible()
    for image_id in doomed:
        assert admin_api.get(f"/api/images/{image_id}/meta").status == 404
    assert admin_api.get(f"/api/images/{kept}/meta").ok


def test_zip_export_of_a_search_and_of_a_selection(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    tag = f"zip{uuid.uuid4().hex[:6]}"
    ids = {api_upload(admin_api, tag)["id"] for _ in range(3)}
    open_gallery(page, console, f"?tags={tag}")
    expect(cards(page)).to_have_count(3)

    def exported(item: str) -> bytes:
        page.get_by_role("button", name="Export").click()
        with page.expect_download() as info:
            page.get_by_role("menuitem", name=item).click()
        path = info.value.path()
        return path.read_bytes()

    with zipfile.ZipFile(io.BytesIO(exported("Download Zipped Images"))) as archive:
        assert archive.testzip() is None
        assert set(archive.namelist()) == {f"{i}.jpg" for i in ids}
    csv_text = exported("Download CSV Data").decode("utf-8-sig")
    assert {line.split(",")[0] for line in csv_text.splitlines()[1:]} == ids

    first = cards(page).first
    chosen = first.get_attribute("data-id")
    first.get_by_role("button", name="Select image").click()
    with zipfile.ZipFile(io.BytesIO(exported("Download Zipped Images"))) as archive:
        assert archive.namelist() == [f"{chosen}.jpg"]
    page.get_by_role("button", name="Export").click()
    with page.expect_download() as info:
        page.get_by_role("menuitem", name="Download Individual Images").click()
    assert info.value.suggested_filename == f"{chosen}.jpg"


def test_phone_layout(mobile_page: Page, console: Console, admin_api: APIRequestContext) -> None:
    page = mobile_page
    tag = f"phone{uuid.uuid4().hex[:6]}"
    image = api_upload(admin_api, tag, gps=(51.9225, 4.4792), taken=datetime(2024, 6, 1, 9, 30))
    api_upload(admin_api, tag)
    open_gallery(page, console, f"?tags={tag}")
    expect(cards(page)).to_have_count(2)
    boxes = [cards(page).nth(i).bounding_box() for i in range(2)]
    assert boxes[0] and boxes[1]
    # A list of full-width cards, one under the other.
    assert boxes[0]["x"] == boxes[1]["x"] and boxes[1]["y"] > boxes[0]["y"]
    assert boxes[0]["width"] > 300
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    located = page.locator(f"[data-testid='image-card'][data-id='{image['id']}']")
    expect(located.get_by_role("link", name="Show on map")).to_be_visible()
    shot(page, "images-gallery-phone")
    page.get_by_role("button", name="Search filters").click()
    expect(page.get_by_test_id("image-search-filters")).to_be_visible()
    shot(page, "images-search-filters-phone")
    page.get_by_role("button", name="Done").click()

    located.get_by_role("button", name=re.compile("^Open image")).click()
    expect(page.get_by_test_id("image-large")).to_have_attribute("src", re.compile(r"/thumb$"))
    shot(page, "image-edit-phone")
    page.get_by_role("button", name="Details").click()
    details = page.get_by_test_id("image-details")
    expect(details.get_by_label("Latitude")).to_have_value("51.9225")
    expect(details).to_contain_text("06/01/2024")
    shot(page, "image-edit-phone-details")


def test_image_search_bar_filters(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    tag = f"bar{uuid.uuid4().hex[:6]}"
    api_upload(admin_api, tag, taken=datetime(2020, 1, 5, 12))
    api_upload(admin_api, tag)
    open_gallery(page, console, f"?tags={tag}")
    expect(cards(page)).to_have_count(2)
    page.get_by_role("button", name="Search filters").click()
    filters = page.get_by_test_id("image-search-filters")
    for label in ("No Tags", "No Categories", "Partial Tags", "Match Any (Or)"):
        expect(filters.get_by_label(label)).to_be_visible()
    expect(filters.get_by_label("Uploader")).to_be_visible()
    for quick in ("7 Days", "31 Days", "Current Month"):
        expect(filters.get_by_role("button", name=quick)).to_be_visible()
    shot(page, "images-search-filters")
    filters.get_by_role("button", name="7 Days").click()
    expect(page).to_have_url(re.compile(r"dateStart="))
    expect(cards(page)).to_have_count(1)
    filters.get_by_label("Partial Tags").click()
    expect(filters.get_by_label("Partial Tags")).to_be_checked()
    expect(page).to_have_url(re.compile(r"partial=true"))
    filters.get_by_role("button", name="Clear Filters").click()
    expect(cards(page).first).to_be_visible()
    assert "tags=" not in page.url and "dateStart" not in page.url


def test_categories_list_and_detail_with_qr_code(page: Page, console: Console) -> None:
    name = unique("Yard Photos")
    open_signed_in(page, PRIYA, console.demo_password, "/categories")
    expect(page.get_by_role("heading", name="Categories")).to_be_visible()
    grid = page.get_by_role("grid", name="Categories")
    expect(grid.get_by_role("row").filter(has_text="Things")).to_be_visible()
    check_accessibility(page)
    page.get_by_test_id("list-add").click()
    expect(page.get_by_role("heading", name="Add Category")).to_be_visible()
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Name in the Basic tab is a required field.")
    page.get_by_role("textbox", name="Name", exact=True).fill(name)
    page.get_by_label("Description").fill("Photos of the yard")
    page.get_by_role("button", name="Save").click()
    expect(snackbar(page)).to_contain_text("Saved category")
    page.get_by_role("row").filter(has_text=name).click()
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    category_id = page.url.split("/categories/")[1].split("?")[0]
    page.get_by_role("tab", name="QR Code").click()
    expect(page.get_by_test_id("qr-value")).to_have_text(f"cat:{category_id}")
    expect(page.get_by_test_id("qr-code")).to_have_attribute("width", "300")
    page.get_by_label("Size").click()
    page.get_by_role("option", name="Small").click()
    expect(page.get_by_test_id("qr-code")).to_have_attribute("width", "100")
    shot(page, "category-qr")
    check_accessibility(page)


def test_a_viewer_sees_no_upload_save_edit_or_delete(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    viewer = create_user(admin_api, "Viewer")
    tag = f"view{uuid.uuid4().hex[:6]}"
    image = api_upload(admin_api, tag)
    open_signed_in(page, viewer.email, viewer.password, f"/images?tags={tag}")
    expect(cards(page)).to_have_count(1)
    expect(page.get_by_role("button", name="Export")).to_be_visible()
    for name in ("Upload image", "Edit images", "Delete images"):
        expect(page.get_by_role("button", name=name)).to_have_count(0)
    cards(page).first.get_by_role("button", name=re.compile("^Open image")).click()
    expect(page.get_by_test_id("image-large")).to_be_visible()
    expect(page.get_by_role("link", name="Download")).to_have_attribute(
        "href", f"/api/images/{image['id']}?download=true"
    )
    for name in ("Save", "Delete"):
        expect(page.get_by_role("button", name=name, exact=True)).to_have_count(0)
    expect(page.get_by_label("Comment")).to_have_attribute("readonly", "")


def test_demo_photos_in_the_gallery(page: Page, console: Console) -> None:
    open_gallery(page, console, "?search=dock%20door%203")
    card = cards(page).filter(has_text="dock-3")
    expect(card).to_have_count(1)
    expect(card.get_by_test_id("category-chip")).to_have_text(["Damage"])
    expect(card.get_by_test_id("tag-chip")).to_have_text(["dock-3", "pallet"])
    expect(card.get_by_role("link", name="Show on map")).to_be_visible()
    expect(
        card.get_by_role("button", name="Comment: Pallet wrap torn at dock door 3")
    ).to_be_visible()
    page.get_by_role("button", name="Clear search").click()
    expect(cards(page).nth(4)).to_be_visible()
    # Thumbnails are real pictures the browser can show.
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=image-card] img')].slice(0, 4)"
        ".every(i => i.complete && i.naturalWidth > 0)"
    )
    shot(page, "images-gallery-demo")
