"""Names, tags, comments and zone names holding script render as text everywhere they show."""

import uuid

import pytest
from playwright.sync_api import APIRequestContext, Page, expect

from e2e.conftest import PRIYA, Console, open_signed_in, shot
from e2e.test_images import api_upload
from e2e.test_security_headers import watch
from e2e.tracking_data import (
    create_endpoint,
    create_thing,
    create_zone,
    new_site,
    patient_expect,  # noqa: F401 (a fixture)
    post_reads,
    short_tag,
    wait_for_events,
)

pytestmark = pytest.mark.usefixtures("patient_expect")
MARK = "X" + uuid.uuid4().hex[:6]
# Each piece would show itself (a dialog, a global, an element) if it ever ran or parsed.
PAYLOAD = (
    f'{MARK} <img src=x onerror="alert(1);window.__xss=1">'
    '<svg onload="window.__xss=2"></svg><script>window.__xss=3</script>'
    '"><b class=xss-injected>bold</b>'
)
INJECTED = "img[src='x'], .xss-injected, svg[onload], main script"


@pytest.fixture(scope="module")
def site(admin_api: APIRequestContext) -> str:
    site = new_site(admin_api, "Script Yard")
    reader = create_endpoint(admin_api, site, PAYLOAD)
    create_zone(
        admin_api, site, PAYLOAD, [{"endpoint": reader.id, "direction": "NEAR", "antenna": -1}]
    )
    item, worker = short_tag(), short_tag()
    create_thing(admin_api, site, PAYLOAD, tag=item, serial=PAYLOAD)
    create_thing(admin_api, site, PAYLOAD, tag=worker, thing_class="worker")
    response = admin_api.post(
        "/api/locationtags", data={"name": PAYLOAD, "tag": short_tag(), "site": site}
    )
    assert response.ok, response.text()
    image = api_upload(admin_api, f"{MARK}<img src=x onerror=alert(1)>")
    meta = admin_api.get(f"/api/images/{image['id']}/meta").json()
    response = admin_api.put(
        f"/api/images/{image['id']}/meta", data={**meta, "annotation": PAYLOAD}
    )
    assert response.ok, response.text()
    post_reads(admin_api, reader, [{"tag": t, "antenna": 1} for t in (item, worker)])
    assert wait_for_events(admin_api, site, item)
    return site


@pytest.mark.parametrize(
    "path",
    [
        "/items?site={site}&search={mark}",
        "/workers?site={site}&search={mark}",
        "/zones?site={site}",
        "/endpoints?site={site}",
        "/locationtags?site={site}",
        "/images?search={mark}",
        "/events?site={site}",
        "/home?site={site}",
    ],
    ids=["items", "workers", "zones", "endpoints", "locationtags", "images", "events", "home"],
)
def test_script_in_data_stays_text(page: Page, console: Console, site: str, path: str) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    watched = watch(page)
    open_signed_in(page, PRIYA, console.demo_password, path.format(site=site, mark=MARK))
    main = page.get_by_role("main")
    # Shown text, not an icon's title (its hover hint) holding the same name.
    shown = main.get_by_text(MARK).filter(visible=True).first
    expect(shown).to_be_visible()
    # Hovering shows tooltips and chart popups holding the same names.
    shown.hover()
    page.wait_for_timeout(500)
    assert dialogs == []
    assert page.evaluate("() => window.__xss") is None
    expect(page.locator(INJECTED)).to_have_count(0)
    # Nothing was even attempted and blocked: the text never became markup.
    assert watched.violations() == []
    name = path.split("?")[0].strip("/")
    shot(page, f"xss-{name}")
