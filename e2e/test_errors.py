"""Every screen says what happened: each mutation of the console, refused by the real server
(a record deleted meanwhile, a duplicate, a value out of range, a damaged file), shows the
server's own message; a map with its plan is made as one; category deletes and Import say
what they will do."""

import io
import uuid
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image
from playwright.sync_api import APIRequestContext, Locator, Page, expect

from e2e.conftest import (
    MOBILE,
    Console,
    create_user,
    open_signed_in,
    shot,
    snackbar,
    unique,
)
from e2e.tracking_data import (
    create_endpoint,
    create_map,
    create_thing,
    create_zone,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
)

# The machine is shared and each step waits on the real server: every test waits longer.
pytestmark = pytest.mark.usefixtures("patient_expect")


def created(response: Any) -> dict[str, Any]:
    assert response.ok, response.text()
    return dict(response.json())


def gone_message(api: APIRequestContext, url: str) -> str:
    """Delete a record behind the console's back; answers the server's message for it now."""
    assert api.delete(url).ok
    again = api.delete(url)
    assert again.status == 404, again.text()
    return str(again.json()["message"])


def viewer_role(api: APIRequestContext) -> str:
    return str(next(r["id"] for r in api.get("/api/roles").json() if r["name"] == "Viewer"))


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (200, 220, 240)).save(out, "PNG")
    return out.getvalue()


def damaged_jpeg() -> bytes:
    """The start of a JPEG, cut short."""
    out = io.BytesIO()
    Image.effect_noise((400, 300), 64).convert("RGB").save(out, "JPEG")
    data = out.getvalue()
    return data[: len(data) // 2]


def not_a_workbook() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("readme.txt", "not a workbook")
    return out.getvalue()


def expect_refusal(page: Page, prefix: str, message: str) -> None:
    """The snackbar says what failed and the server's reason, then is closed for the next."""
    bar = snackbar(page)
    expect(bar).to_contain_text(prefix)
    expect(bar).to_contain_text(message)
    bar.get_by_role("button", name="Close").click()
    expect(bar).to_have_count(0)


def field(page: Page, name: str) -> Locator:
    return page.get_by_role("textbox", name=name, exact=True).or_(
        page.get_by_role("spinbutton", name=name, exact=True)
    )


def pick(page: Page, name: str, option: str) -> None:
    page.get_by_role("combobox", name=name).click()
    page.get_by_role("option", name=option, exact=True).click()
    page.keyboard.press("Escape")


def save(page: Page) -> None:
    page.get_by_role("button", name="Save", exact=True).click()


def delete(page: Page) -> None:
    page.get_by_role("button", name="Delete", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="I'm Sure").click()


def test_every_mutation_shows_the_servers_reason(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    api = admin_api
    site = new_site(api, "E2E Refusals")
    open_signed_in(page, console.admin_email, console.admin_password, f"/home?site={site}")

    def walk_record(path: str, url: str, make: Callable[[], str]) -> None:
        """Update and delete of one kind: each against a record deleted meanwhile."""
        for action in ("save", "delete"):
            record = make()
            page.goto(path.format(id=record, site=site))
            button = "Save" if action == "save" else "Delete"
            expect(page.get_by_role("button", name=button, exact=True)).to_be_visible()
            message = gone_message(api, url.format(id=record))
            if action == "save":
                save(page)
                expect_refusal(
                    page, "Save failed" if "/maps/" not in path else "Failed to save", message
                )
            else:
                delete(page)
                expect_refusal(page, "Delete failed", message)

    site_name = api.get(f"/api/sites/{site}").json()["name"]

    def create_refused(path: str, fill: Callable[[], None], message: str, prefix: str) -> None:
        # From the list's Add, once the site is known: a new record belongs to it.
        page.goto(path.format(site=site).replace("/new", ""))
        expect(page.get_by_role("combobox", name="Site")).to_contain_text(site_name)
        page.get_by_test_id("list-add").click()
        expect(page.get_by_role("button", name="Save", exact=True)).to_be_visible()
        fill()
        save(page)
        expect_refusal(page, prefix, message)

    def name(value: str) -> Callable[[], None]:
        return lambda: field(page, "Name").fill(value)

    # Zones, endpoints, location tags, maps, report configurations: create, update, delete.
    zone_name = unique("Zone")
    walk_record(
        "/zones/{id}?site={site}",
        "/api/zones/{id}",
        lambda: create_zone(api, site, unique("Zone"), []),
    )
    create_zone(api, site, zone_name, [])
    create_refused("/zones/new?site={site}", name(zone_name), "already exists", "Save failed")

    reader_name = unique("Reader")
    walk_record(
        "/endpoints/{id}?site={site}",
        "/api/endpoints/{id}",
        lambda: create_endpoint(api, site, unique("Reader")).id,
    )
    create_endpoint(api, site, reader_name)
    create_refused("/endpoints/new?site={site}", name(reader_name), "already exists", "Save failed")

    def location_tag() -> str:
        body = {"name": unique("Shelf"), "tag": uuid.uuid4().hex[:12].upper(), "site": site}
        return str(created(api.post("/api/locationtags", data=body))["_id"])

    walk_record("/locationtags/{id}?site={site}", "/api/locationtags/{id}", location_tag)

    def off_the_map() -> None:
        field(page, "Name").fill(unique("Shelf"))
        field(page, "Tag").fill(uuid.uuid4().hex[:12].upper())
        field(page, "X").fill("1.5")
        field(page, "Y").fill("0.5")

    create_refused(
        "/locationtags/new?site={site}",
        off_the_map,
        "x and y are fractions of the map picture, from 0 to 1",
        "Save failed",
    )

    map_name = unique("Plan")
    walk_record(
        "/maps/{id}?site={site}", "/api/maps/{id}", lambda: create_map(api, site, unique("Plan"))
    )
    create_map(api, site, map_name)
    create_refused("/maps/new?site={site}", name(map_name), "already exists", "Failed to save")

    def report() -> str:
        body = {"name": unique("Report"), "type": "reportTypeSeen", "format": "excel"}
        return str(created(api.post("/api/reportconfigs", data={**body, "site": site}))["_id"])

    walk_record("/reportconfigs/{id}?site={site}", "/api/reportconfigs/{id}", report)

    # Organization-wide records: categories, sites, users, organizations, API keys.
    def category() -> str:
        return str(created(api.post("/api/image-categories", data={"name": unique("Cat")}))["id"])

    walk_record("/categories/{id}?site={site}", "/api/image-categories/{id}", category)
    taken = unique("Cat")
    created(api.post("/api/image-categories", data={"name": taken}))
    create_refused("/categories/new?site={site}", name(taken), "already exists", "Save failed")

    walk_record("/sites/{id}?site={site}", "/api/sites/{id}", lambda: new_site(api, "E2E Doomed"))
    walk_record("/users/{id}?site={site}", "/api/users/{id}", lambda: create_user(api, "Viewer").id)

    def organization() -> str:
        sub = f"e2e{uuid.uuid4().hex[:8]}"
        return str(
            created(api.post("/api/organizations", data={"name": sub, "subdomain": sub}))["_id"]
        )

    walk_record("/organizations/{id}?site={site}", "/api/organizations/{id}", organization)

    # Things: update and delete, and a new item whose tag another item has.
    thing_tag = uuid.uuid4().hex[:12].upper()
    create_thing(api, site, unique("Pallet"), tag=thing_tag)
    walk_record(
        "/items/{id}?site={site}",
        "/api/things/{id}",
        lambda: str(create_thing(api, site, unique("Pallet"))["_id"]),
    )

    create_refused(
        "/items/new?site={site}",
        lambda: (
            field(page, "Name").fill(unique("Pallet")),
            field(page, "Tag 1").fill(thing_tag),
            pick(page, "Site", api.get(f"/api/sites/{site}").json()["name"]),
        ),
        "duplicate",
        "Save failed",
    )

    # A new organization on a subdomain in use; a new user with a username in use.
    sub = f"e2e{uuid.uuid4().hex[:8]}"
    created(api.post("/api/organizations", data={"name": sub, "subdomain": sub}))
    create_refused(
        "/organizations/new?site={site}",
        lambda: (
            field(page, "Name").fill(unique("Org")),
            field(page, "Subdomain").fill(sub),
        ),
        f"The subdomain '{sub}' is already used",
        "Save failed",
    )
    # A new user and a new API key for a site deleted meanwhile.
    for path, prefix in (("/users/new", "Save failed"), ("/apikeys/new", "Bad Request")):
        doomed_name = unique("E2E Doomed Site")
        doomed = created(
            api.post(
                "/api/sites",
                data={
                    "name": doomed_name,
                    "startDate": "2024-01-15T00:00:00Z",
                    "timezone": {"id": "UTC"},
                },
            )
        )["_id"]
        page.goto(f"{path}?site={site}")
        field(page, "Name").fill(unique("Refused"))
        if path == "/users/new":
            field(page, "Username").fill(f"e2e.{uuid.uuid4().hex[:8]}@harbourline.example.org")
            page.get_by_label("Send activation email").check()
        pick(page, "Roles", "Viewer")
        pick(page, "Sites", doomed_name)
        gone_message(api, f"/api/sites/{doomed}")
        save(page)
        expect_refusal(page, prefix, f"Unknown site: {doomed}")

    # Deleting an API key deleted meanwhile.
    key = created(
        api.post(
            "/api/apikeys",
            data={
                "name": unique("Key"),
                "roles": [viewer_role(api)],
                "securityCtx": {"sites": [site]},
            },
        )
    )
    page.goto(f"/apikeys/{key['_id']}?site={site}")
    expect(page.get_by_role("button", name="Delete", exact=True)).to_be_visible()
    message = gone_message(api, f"/api/apikeys/{key['_id']}")
    delete(page)
    expect_refusal(page, "Not Found", message)

    # The rest: settings of a site deleted meanwhile, images, import.
    doomed = new_site(api, "E2E Settings")
    page.goto(f"/settings?site={doomed}")
    expect(page.get_by_role("button", name="Save", exact=True)).to_be_visible()
    message = gone_message(api, f"/api/sites/{doomed}")
    save(page)
    expect_refusal(page, "Failed to save", message)
    page.goto(f"/home?site={site}")

    # Images: a damaged upload, a tag over the limit, bulk edit and deletes of gone images.
    page.goto(f"/images?site={site}")
    page.get_by_test_id("upload-input").set_input_files(
        files=[{"name": "torn.jpg", "mimeType": "image/jpeg", "buffer": damaged_jpeg()}]
    )
    expect_refusal(page, "Error uploading file", "damaged or truncated")
    page.get_by_test_id("upload-input").set_input_files(
        files=[{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"shift notes"}]
    )
    expect_refusal(page, "Error uploading file", "not a JPEG")

    tag = f"refused{uuid.uuid4().hex[:6]}"
    image = created(
        api.post(
            "/api/images",
            multipart={
                "file": {"name": "a.png", "mimeType": "image/png", "buffer": png()},
                "tags": tag,
            },
        )
    )
    page.goto(f"/images/{image['id']}?site={site}")
    tags = page.get_by_label("Tags", exact=True)
    tags.fill("T" * 250)
    tags.press("Enter")
    save(page)
    expect_refusal(page, "Failed to save", "tags.1: String should have at most")
    shot(page, "errors-image-save-refused")

    # Bulk edit with a tag over the limit; deleting images deleted meanwhile.
    page.goto(f"/images?site={site}&tags={tag}")
    page.get_by_role("button", name="Select image").first.click()
    page.get_by_role("button", name="Edit images").click()
    edit = page.get_by_role("dialog", name="Edit 1 image(s)")
    tags = edit.get_by_label("Add Tags")
    tags.fill("T" * 250)
    tags.press("Enter")
    edit.get_by_role("button", name="Apply").click()
    page.get_by_role("dialog", name="Edit Images").get_by_role("button", name="Edit").click()
    expect_refusal(page, "Error editing images", "addTags.0: String should have at most")

    page.goto(f"/images/{image['id']}?site={site}")
    expect(page.get_by_role("button", name="Delete", exact=True)).to_be_visible()
    message = gone_message(api, f"/api/images/{image['id']}")
    page.get_by_role("button", name="Delete", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="I'm Sure").click()
    expect_refusal(page, "Error deleting images", message)

    # Import: a file that is no workbook, and a mapping saved for a site deleted meanwhile.
    doomed = new_site(api, "E2E Import")
    page.goto(f"/import?site={doomed}")
    page.get_by_test_id("import-file").set_input_files(
        files=[{"name": "assets.xlsx", "mimeType": "application/zip", "buffer": not_a_workbook()}]
    )
    expect(page.get_by_test_id("import-file-problem")).to_be_visible()
    problem = page.get_by_test_id("import-file-problem").inner_text()
    assert problem.strip(), "the import screen shows the server's reason"
    expect_refusal(page, "Failed to read assets.xlsx", problem.strip())


def test_a_map_and_its_floor_plan_are_created_as_one(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    site = new_site(admin_api, "E2E Plan")
    open_signed_in(page, console.admin_email, console.admin_password, f"/maps/new?site={site}")
    name = unique("Warehouse")
    field(page, "Name").fill(name)
    page.get_by_test_id("floor-plan-file").set_input_files(
        files=[{"name": "plan.png", "mimeType": "image/png", "buffer": damaged_jpeg()}]
    )
    save(page)
    expect(snackbar(page)).to_contain_text("Failed to save: The image is damaged or truncated")
    snackbar(page).get_by_role("button", name="Close").click()
    shot(page, "errors-map-plan-refused")
    # Nothing was left behind: no image-less map under that name.
    maps = admin_api.get("/api/maps", params={"site": site}).json()
    assert [m["name"] for m in maps] == []
    expect(page.get_by_role("heading", name="Add Map")).to_be_visible()

    # The retry with a good picture creates the map with its plan.
    page.get_by_test_id("floor-plan-file").set_input_files(
        files=[{"name": "plan.png", "mimeType": "image/png", "buffer": png()}]
    )
    save(page)
    expect(page.get_by_role("heading", name=name)).to_be_visible()
    maps = admin_api.get("/api/maps", params={"site": site}).json()
    assert [(m["name"], m["imageWidth"]) for m in maps] == [(name, 40)]


def test_deleting_a_category_says_how_many_images_use_it(
    page: Page, console: Console, admin_api: APIRequestContext
) -> None:
    name = unique("Damage")
    category = created(admin_api.post("/api/image-categories", data={"name": name}))["id"]
    for _ in range(3):
        created(
            admin_api.post(
                "/api/images",
                multipart={
                    "file": {"name": "a.png", "mimeType": "image/png", "buffer": png()},
                    "categories": category,
                },
            )
        )
    open_signed_in(page, console.admin_email, console.admin_password, f"/categories/{category}")
    page.get_by_role("button", name="Delete", exact=True).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(
        "3 image(s) use this category; deleting it removes it from them."
    )
    shot(page, "errors-category-delete-count")
    dialog.get_by_role("button", name="Cancel").click()

    # The list's delete says the same.
    page.goto(f"/categories?search={name.split()[1]}")
    page.get_by_role("row").filter(has_text=name).get_by_test_id("row-delete").click()
    expect(page.get_by_role("dialog")).to_contain_text("3 image(s) use this category")
    page.get_by_role("dialog").get_by_role("button", name="I'm Sure").click()
    expect(page.get_by_role("row").filter(has_text=name)).to_have_count(0)


def test_import_is_read_only_without_the_import_right(
    browser: Any, console: Console, admin_api: APIRequestContext
) -> None:
    for role, viewport in (("Viewer", MOBILE), ("Operator", {"width": 1366, "height": 860})):
        user = create_user(admin_api, role)
        ctx = browser.new_context(base_url=console.url, viewport=viewport)
        page = ctx.new_page()
        open_signed_in(page, user.email, user.password, "/import")
        expect(page.get_by_test_id("import-read-only")).to_contain_text(
            "Your role can view this screen but not import assets."
        )
        expect(page.get_by_role("button", name="Choose Excel File (.xlsx)")).to_be_disabled()
        expect(page.get_by_test_id("import-start")).to_have_count(0)
        expect(page.get_by_test_id("save-mapping")).to_have_count(0)
        shot(page, f"errors-import-read-only-{role.lower()}")
        ctx.close()
