"""More of the console's mutations refused by the real server, each showing the server's own
message: a record deleted meanwhile, a duplicate, a damaged file, a role changed meanwhile.

Which test file covers which mutation hook of web/src/features/*/queries.ts (each refused by
the real server, its message checked):
- test_errors.py: zones, endpoints, location tags, maps (save, delete, create with plan),
  report configurations (save, delete), categories, sites (save, delete), users (create,
  update, delete), organizations (save, delete), API keys (create, delete), things (create,
  update, delete), site settings, images (upload, save, bulk edit, delete one), import parse.
- this file: new site (duplicate), new report configuration (site deleted meanwhile), user
  password reset (user deleted meanwhile), gallery selection delete (image deleted
  meanwhile), delete by search and SSO settings save (role changed meanwhile), import mapping
  save (site deleted meanwhile), thing link/unlink (thing deleted meanwhile), Photo tab upload
  (damaged file) and remove (photo deleted meanwhile), map plan upload (unreadable file),
  floor-plan placement (map deleted meanwhile), profile save (password the server finds weak).
- test_login.py: login (wrong password, locked, rate limited). Logout has nothing to refuse:
  the session ends and the console goes to login whatever the answer.
- test_password_reset.py: password reset (weak password, forged and used links) and its
  request (an address longer than the server takes; the request is never rate limited in
  words: one mail a minute, the answer never says).
- test_import.py: import rows (importRow, no hook) refused by the server, each row's reason
  beside it (no name, a serial over the limit).
"""

import uuid
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, Page, expect

from e2e.conftest import (
    Console,
    create_user,
    open_signed_in,
    role_id,
    shot,
    snackbar,
    unique,
)
from e2e.test_errors import (
    created,
    damaged_jpeg,
    expect_refusal,
    field,
    gone_message,
    pick,
    png,
    save,
)
from e2e.tracking_data import (
    create_endpoint,
    create_map,
    create_thing,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
    short_tag,
)
from tests.spreadsheets import workbook_bytes

pytestmark = pytest.mark.usefixtures("patient_expect")


def upload_image(api: APIRequestContext, tag: str) -> str:
    return str(
        created(
            api.post(
                "/api/images",
                multipart={
                    "file": {"name": "a.png", "mimeType": "image/png", "buffer": png()},
                    "tags": tag,
                },
            )
        )["id"]
    )


def test_more_mutations_show_the_servers_reason(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    api = admin_api
    site = new_site(api, "E2E Refusals More")
    open_signed_in(page, console.admin_email, console.admin_password, f"/sites?site={site}")

    # A new site under a name in use.
    taken = api.get(f"/api/sites/{site}").json()["name"]
    page.get_by_test_id("list-add").click()
    expect(page.get_by_role("heading", name="Add Site")).to_be_visible()
    field(page, "Name").fill(taken)
    save(page)
    expect_refusal(page, "Save failed", f"A site named '{taken}' already exists (duplicate)")

    # A new report configuration for a site deleted meanwhile.
    doomed = new_site(api, "E2E Report Site")
    page.goto(f"/reportconfigs?site={doomed}")
    page.get_by_test_id("list-add").click()
    expect(page.get_by_role("heading", name="Add Report Configuration")).to_be_visible()
    field(page, "Name").fill(unique("Report"))
    pick(page, "Type", "Things seen in the zones during the period")
    pick(page, "Format", "Excel (.xlsx)")
    message = gone_message(api, f"/api/sites/{doomed}")
    save(page)
    expect_refusal(page, "Save failed", message)

    # A password reset for a user deleted meanwhile.
    user = create_user(api, "Viewer")
    page.goto(f"/users/{user.id}?site={site}")
    expect(page.get_by_role("button", name="Reset Password")).to_be_visible()
    message = gone_message(api, f"/api/users/{user.id}")
    page.get_by_role("button", name="Reset Password").click()
    expect_refusal(page, "Password reset failed", message)

    # The gallery's selection deleted meanwhile.
    tag = f"gone{uuid.uuid4().hex[:6]}"
    image = upload_image(api, tag)
    page.goto(f"/images?site={site}&tags={tag}")
    page.get_by_role("button", name="Select image").first.click()
    message = gone_message(api, f"/api/images/{image}")
    page.get_by_role("button", name="Delete images").click()
    dialog = page.get_by_role("dialog", name="Delete Images")
    if dialog.get_by_label("Type delete").count():
        dialog.get_by_label("Type delete").fill("Delete")
    dialog.get_by_role("button", name="Delete").click()
    expect_refusal(page, "Error deleting images", message)

    # An import mapping saved for a site deleted meanwhile.
    doomed = new_site(api, "E2E Mapping Site")
    page.goto(f"/import?site={doomed}")
    page.get_by_test_id("import-file").set_input_files(
        files=[
            {
                "name": "assets.xlsx",
                "mimeType": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                "buffer": workbook_bytes(["Asset Name", "RFID"], [["Crate", "ABC123"]]),
            }
        ]
    )
    page.get_by_role("combobox", name="Name", exact=True).click()
    page.get_by_role("option", name="Asset Name", exact=True).click()
    message = gone_message(api, f"/api/sites/{doomed}")
    page.get_by_test_id("save-mapping").click()
    expect_refusal(page, "Failed to save", message)

    # Linking a child deleted meanwhile, and unlinking one deleted meanwhile.
    batch = uuid.uuid4().hex[:8]
    parent = create_thing(api, site, f"Roll Container {batch}", tag=short_tag())
    child = create_thing(api, site, f"Tote {batch}", tag=short_tag())
    linked = create_thing(api, site, f"Crate {batch}", tag=short_tag())
    assert api.put(
        f"/api/things/{linked['_id']}",
        data={**linked, "common": {**linked["common"], "parents": [parent["_id"]]}},
    ).ok
    page.goto(f"/items/{parent['_id']}?site={site}")
    page.get_by_role("tab", name="Parents/Children").click()
    box = page.get_by_test_id("relations")
    row = box.get_by_test_id("relation-row").filter(has_text=f"Crate {batch}")
    expect(row).to_be_visible()
    message = gone_message(api, f"/api/things/{linked['_id']}")
    row.get_by_role("button", name="Unlink child").click()
    page.get_by_role("dialog").get_by_role("button", name="Unlink").click()
    # The console reads both things first: a child gone is no longer linked, nothing to send.
    expect_refusal(page, "", "Child has already been disconnected")
    box.get_by_role("button", name="Add child").click()
    box.get_by_role("textbox", name="Find a child to link").fill(f"Tote {batch}")
    found = box.get_by_test_id("relation-row").filter(has_text=f"Tote {batch}")
    expect(found).to_have_count(1)
    # The item itself deleted meanwhile.
    message = gone_message(api, f"/api/things/{parent['_id']}")
    found.get_by_role("button", name="Link child").click()
    expect_refusal(page, "Save failed", message)

    # The Photo tab: a damaged file, and removing a photo deleted meanwhile.
    page.goto(f"/items/{child['_id']}?site={site}")
    page.get_by_role("tab", name="Photo").click()
    photos = page.get_by_test_id("thing-photos")
    photos.get_by_test_id("photo-input").set_input_files(
        {"name": "torn.jpg", "mimeType": "image/jpeg", "buffer": damaged_jpeg()}
    )
    expect_refusal(page, "Failed to save photo", "damaged or truncated")
    photos.get_by_test_id("photo-input").set_input_files(
        {"name": "ok.png", "mimeType": "image/png", "buffer": png()}
    )
    tile = page.get_by_test_id("thing-photo")
    expect(tile).to_have_count(1)
    photo = tile.first.get_attribute("data-image-id")
    message = gone_message(api, f"/api/images/{photo}")
    tile.first.get_by_role("button", name="Remove photo").click()
    page.get_by_role("dialog", name="Remove Photo").get_by_role("button", name="I'm Sure").click()
    expect(snackbar(page)).to_contain_text(message)
    shot(page, "refusals-photo-remove")
    snackbar(page).get_by_role("button", name="Close").click()

    # A map's plan replaced by an unreadable file; a reader placed on a map deleted meanwhile.
    plan_map = create_map(api, site, unique("Plan"))
    create_endpoint(api, site, unique("Dock Reader"))
    page.goto(f"/maps/{plan_map}?site={site}")
    page.get_by_test_id("floor-plan-file").set_input_files(
        files=[{"name": "plan.png", "mimeType": "image/png", "buffer": damaged_jpeg()}]
    )
    save(page)
    expect_refusal(page, "Failed to save", "The image is damaged or truncated")
    page.get_by_test_id("floor-plan-file").set_input_files(
        files=[{"name": "plan.png", "mimeType": "image/png", "buffer": png()}]
    )
    save(page)
    expect(snackbar(page)).to_contain_text("Saved")
    snackbar(page).get_by_role("button", name="Close").click()
    placeables = page.get_by_test_id("placeables")
    placeables.get_by_role("button").filter(has_text="Dock Reader").click()
    gone_message(api, f"/api/maps/{plan_map}")
    plan = page.get_by_test_id("floor-plan")
    bounds = plan.bounding_box()
    assert bounds is not None
    plan.click(position={"x": bounds["width"] / 2, "y": bounds["height"] / 2})
    expect_refusal(page, "Failed to save", "map: the map is not a map of this site")


def test_a_role_changed_meanwhile_and_a_weak_password_are_refused(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    api = admin_api
    site = new_site(api, "E2E Role Changed")
    user = create_user(api, "Administrator", sites=[site])
    tag = f"kept{uuid.uuid4().hex[:6]}"
    upload_image(api, tag)
    open_signed_in(page, user.email, user.password, f"/images?site={site}&tags={tag}")
    expect(page.get_by_role("button", name="Delete images")).to_be_visible()

    # Made a Viewer meanwhile: the delete by search and the SSO settings save are refused.
    body: dict[str, Any] = {
        "id": user.id,
        "name": user.name,
        "username": user.email,
        "roles": [role_id(api, "Viewer")],
        "securityCtx": {"sites": [site], "companies": []},
    }
    page.goto(f"/ssosettings?site={site}")
    expect(page.get_by_role("button", name="Save", exact=True)).to_be_visible()
    page.goto(f"/images?site={site}&tags={tag}")
    expect(page.get_by_role("button", name="Delete images")).to_be_visible()
    assert api.put("/api/users", data=body).ok
    page.get_by_role("button", name="Delete images").click()
    dialog = page.get_by_role("dialog", name="Delete Images")
    dialog.get_by_label("Type delete").fill("Delete")
    dialog.get_by_role("button", name="Delete").click()
    expect_refusal(page, "Error deleting images", "You do not have the delete right on images")
    assert api.get("/api/images", params={"tags": tag}).json()

    # The profile: a password long enough but guessable, refused by the server.
    body["roles"] = [role_id(api, "Administrator")]
    assert api.put("/api/users", data=body).ok
    page.goto(f"/ssosettings?site={site}")
    expect(page.get_by_role("button", name="Save", exact=True)).to_be_visible()
    body["roles"] = [role_id(api, "Viewer")]
    assert api.put("/api/users", data=body).ok
    save(page)
    expect_refusal(page, "Save failed", "You do not have the modify right on ssosettings")

    page.goto(f"/userme?site={site}")
    page.get_by_label("New Password").fill("password1")
    page.get_by_label("Verify Password").fill("password1")
    save(page)
    expect(snackbar(page)).to_contain_text("Save failed: Password too weak")
    shot(page, "refusals-profile-weak-password")
