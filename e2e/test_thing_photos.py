"""The thing Photo tab: attach photos with progress (filed under Things), a bad file's message,
open and remove a photo, the rights that show the buttons, a new thing, and the phone layout."""

import io
import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Locator, Page, expect

from e2e.conftest import (
    ARTIFACTS,
    DEMO_SITES,
    PRIYA,
    Console,
    create_user,
    open_signed_in,
    shot,
    site_id,
    snackbar,
)
from e2e.tracking_data import (
    create_thing,
    get_thing,
    patient_expect,  # noqa: F401 (a fixture)
    short_tag,
)

pytestmark = pytest.mark.usefixtures("patient_expect")


def photo_jpeg(side: int = 480, noise: bool = False) -> bytes:
    """A JPEG made here with Pillow: a crate-coloured square, or noise that does not compress."""
    from PIL import Image, ImageDraw

    if noise:
        image = Image.frombytes("RGB", (side, side), uuid.uuid4().bytes * (side * side * 3 // 16))
    else:
        image = Image.new("RGB", (side, side), (196, 140, 72))
        draw = ImageDraw.Draw(image)
        draw.rectangle((side // 6, side // 6, side * 5 // 6, side * 5 // 6), outline=(90, 60, 30))
        draw.line((side // 6, side // 2, side * 5 // 6, side // 2), fill=(90, 60, 30), width=6)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    return out.getvalue()


def new_item(api: APIRequestContext) -> dict[str, Any]:
    site = site_id(api, DEMO_SITES[0])
    return create_thing(api, site, f"Cage Trolley {uuid.uuid4().hex[:8]}", tag=short_tag())


def open_photo_tab(page: Page, username: str, password: str, thing: dict[str, Any]) -> Locator:
    open_signed_in(page, username, password, f"/items/{thing['_id']}?site={thing['site']}")
    expect(page.get_by_role("heading", name=thing["common"]["name"])).to_be_visible()
    page.get_by_role("tab", name="Photo").click()
    box = page.get_by_test_id("thing-photos")
    expect(box).to_be_visible()
    return box


def tiles(page: Page) -> Locator:
    return page.get_by_test_id("thing-photo")


def thumbnails_loaded(page: Page, count: int) -> None:
    expect(tiles(page)).to_have_count(count)
    page.wait_for_function(
        "n => { const i = [...document.querySelectorAll('[data-testid=thing-photo] img')];"
        " return i.length === n && i.every(x => x.complete && x.naturalWidth > 0); }",
        arg=count,
    )


def photos_of(api: APIRequestContext, thing_id: str) -> list[str]:
    return list(get_thing(api, thing_id)["common"].get("photo") or [])


def test_attach_fail_open_and_remove_photos(
    page: Page, mobile_page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    thing = new_item(admin_api)
    box = open_photo_tab(page, PRIYA, console.demo_password, thing)
    expect(page.get_by_role("tab")).to_have_text(
        ["Basic", "Events", "Zone History", "Photo", "Data", "Parents/Children"]
    )
    expect(box.get_by_text("No photos of this item yet")).to_be_visible()
    shot(page, "thing-photos-empty")

    # One photo: its thumbnail shows, and the thing's photos hold it, filed under Things.
    box.get_by_test_id("photo-input").set_input_files(
        {"name": "trolley.jpg", "mimeType": "image/jpeg", "buffer": photo_jpeg()}
    )
    thumbnails_loaded(page, 1)
    first = tiles(page).first.get_attribute("data-image-id")
    assert first and re.fullmatch(r"[0-9a-f]{24}", first), first
    assert photos_of(admin_api, thing["_id"]) == [first]
    meta = admin_api.get(f"/api/images/{first}/meta")
    assert meta.ok, meta.text()
    assert [c["name"] for c in meta.json()["categories"]] == ["Things"]
    expect(box.get_by_text("1 photo", exact=True)).to_be_visible()

    # A slow uplink, so the percentage shows while the next photo goes up.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": -1, "uploadThroughput": 200_000},
    )
    box.get_by_test_id("photo-input").set_input_files(
        {"name": "noise.jpg", "mimeType": "image/jpeg", "buffer": photo_jpeg(900, noise=True)}
    )
    expect(box.get_by_test_id("photo-upload-progress")).to_have_text(re.compile(r"^\d{1,3}%$"))
    expect(box.get_by_test_id("photo-upload-progress")).to_have_text(re.compile(r"^[1-9]\d?%$"))
    expect(box.get_by_role("button", name="Attach photos")).to_be_disabled()
    # Not shot(): the bar's transitions run until the upload ends.
    page.screenshot(path=str(ARTIFACTS / "thing-photos-uploading.png"))
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    expect(box.get_by_test_id("photo-upload")).to_have_count(0, timeout=30_000)
    thumbnails_loaded(page, 2)
    photos = photos_of(admin_api, thing["_id"])
    assert len(photos) == 2 and photos[0] == first, photos
    second = photos[1]

    # A file that is no photo: the server's message after 'Failed to save photo - '.
    box.get_by_test_id("photo-input").set_input_files(
        {"name": "notes.jpg", "mimeType": "image/jpeg", "buffer": b"Dock 4: trolley wheel loose\n"}
    )
    expect(snackbar(page)).to_have_text(
        re.compile(r"^Failed to save photo - The file is not a JPEG, PNG, WebP or HEIC image")
    )
    shot(page, "thing-photos-bad-file")
    snackbar(page).get_by_role("button", name="Close").click()
    expect(tiles(page)).to_have_count(2)
    assert photos_of(admin_api, thing["_id"]) == photos

    # On a phone: two thumbnails a row, the buttons reachable.
    open_photo_tab(mobile_page, PRIYA, console.demo_password, thing)
    thumbnails_loaded(mobile_page, 2)
    boxes = [t.bounding_box() for t in tiles(mobile_page).all()]
    assert all(b is not None for b in boxes)
    assert boxes[0]["y"] == boxes[1]["y"], boxes  # type: ignore[index]
    assert boxes[1]["x"] + boxes[1]["width"] <= 390, boxes  # type: ignore[index]
    expect(mobile_page.get_by_role("button", name="Attach photos")).to_be_in_viewport()
    assert mobile_page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(mobile_page, "thing-photos-phone")

    # Remove the first: asked first; cancelling keeps it.
    tiles(page).first.get_by_role("button", name="Remove photo").click()
    dialog = page.get_by_role("dialog", name="Remove Photo")
    expect(dialog).to_be_visible()
    shot(page, "thing-photos-remove")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    expect(tiles(page)).to_have_count(2)
    tiles(page).first.get_by_role("button", name="Remove photo").click()
    page.get_by_role("dialog", name="Remove Photo").get_by_role("button", name="I'm Sure").click()
    expect(snackbar(page)).to_contain_text("Photo removed")
    expect(tiles(page)).to_have_count(1)
    expect(page.locator(f'[data-image-id="{first}"]')).to_have_count(0)
    assert photos_of(admin_api, thing["_id"]) == [second]
    assert admin_api.get(f"/api/images/{first}/meta").status == 404
    shot(page, "thing-photos-desktop")

    # A thumbnail opens its image.
    tiles(page).first.get_by_role("link", name="Open photo").click()
    expect(page).to_have_url(re.compile(rf"/images/{second}"))
    expect(page.get_by_test_id("image-large")).to_be_visible()


def test_a_photo_opened_from_the_photo_tab_returns_there(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    thing = new_item(admin_api)
    for _ in range(2):
        response = admin_api.post(
            "/api/images",
            multipart={
                "file": {"name": "t.jpg", "mimeType": "image/jpeg", "buffer": photo_jpeg(120)},
                "thing": thing["_id"],
            },
        )
        assert response.ok, response.text()
    first = photos_of(admin_api, thing["_id"])[0]
    open_photo_tab(page, PRIYA, console.demo_password, thing)
    thing_url = re.compile(rf"/items/{thing['_id']}\?.*tab=Photo")

    def back_on_the_photo_tab() -> None:
        expect(page).to_have_url(thing_url)
        expect(page.get_by_role("tab", name="Photo")).to_have_attribute("aria-selected", "true")
        expect(tiles(page)).to_have_count(2)

    # Exit, also after stepping to another image.
    page.locator(f'[data-image-id="{first}"]').get_by_role("link", name="Open photo").click()
    expect(page).to_have_url(re.compile(rf"/images/{first}\?"))
    expect(page.get_by_test_id("image-large")).to_be_visible()
    page.get_by_role("button", name="Previous image").click()
    expect(page).not_to_have_url(re.compile(rf"/images/{first}\?"))
    page.get_by_role("button", name="Exit").click()
    back_on_the_photo_tab()
    shot(page, "thing-photos-returned")

    # The browser's Back.
    tiles(page).first.get_by_role("link", name="Open photo").click()
    expect(page.get_by_test_id("image-large")).to_be_visible()
    page.go_back()
    back_on_the_photo_tab()


def test_viewer_sees_photos_without_attach_or_remove(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    thing = new_item(admin_api)
    upload = admin_api.post(
        "/api/images",
        multipart={
            "file": {"name": "crate.jpg", "mimeType": "image/jpeg", "buffer": photo_jpeg()},
            "thing": thing["_id"],
        },
    )
    assert upload.ok, upload.text()
    viewer = create_user(admin_api, "Viewer", [thing["site"]])
    box = open_photo_tab(page, viewer.email, viewer.password, thing)
    thumbnails_loaded(page, 1)
    expect(box.get_by_role("button", name="Attach photos")).to_have_count(0)
    expect(box.get_by_role("button", name="Remove photo")).to_have_count(0)


def test_new_item_takes_photos_once_saved(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = site_id(admin_api, DEMO_SITES[0])
    open_signed_in(page, PRIYA, console.demo_password, f"/items/new?site={site}")
    expect(page.get_by_role("heading", name="Add Item")).to_be_visible()
    expect(page.get_by_role("tab")).to_have_text(["Basic", "Photo"])
    page.get_by_role("tab", name="Photo").click()
    expect(page.get_by_text("Photos can be attached once this item is saved.")).to_be_visible()
    expect(page.get_by_role("button", name="Attach photos")).to_have_count(0)
