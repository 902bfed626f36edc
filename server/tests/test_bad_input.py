"""Bad input on every route that takes a body: a clear 4xx {reason, message}, nothing stored,
and the server keeps answering. Files (bombs, polyglots, SVG) are refused or served inert."""

import json

import pytest
from fastapi import FastAPI

from tagtrack.images.storage import LocalStorage, image_key
from tagtrack.models.ids import is_id
from tests.conftest import Org
from tests.helpers import OTHER_ID, assert_error, site_body
from tests.photos import jpeg
from tests.route_access import ROUTES
from tests.test_access import api_routes, home_with_data
from tests.test_images import upload, uploaded

LISTS = (
    "/api/things",
    "/api/zones",
    "/api/sites",
    "/api/endpoints",
    "/api/locationtags",
    "/api/images",
    "/api/users",
    "/api/apikeys",
    "/api/image-categories",
)
BAD_BODIES = {
    "malformed": b'{"name": "Dock", ',
    "truncated array": b"[1, 2",
    "a string": b'"Dock"',
    "a number": b"123",
    "null": b"null",
    "10,000 numbers": json.dumps(list(range(10_000))).encode(),
    "deep nesting": b'{"a":' * 5000 + b"1" + b"}" * 5000,
}


async def totals(org: Org) -> dict[str, str]:
    client = org.client("Super Admin")
    counts = {}
    for path in LISTS:
        response = await client.get(path)
        assert response.status_code == 200, (path, response.text)
        counts[path] = response.headers.get("x-total-count", str(len(response.json())))
    return counts


def body_routes(app: FastAPI) -> list[tuple[str, str]]:
    """Routes taking a body a signed-in person may call (readers' ingest has its own tests)."""
    schema = app.openapi()["paths"]
    return [
        (method, path)
        for method, path in api_routes(app)
        if "requestBody" in schema.get(path, {}).get(method.lower(), {})
        and ROUTES[f"{method} {path}"].kind != "reader"
    ]


async def test_bad_bodies_on_every_route_get_a_4xx_and_change_nothing(
    app: FastAPI, org_factory, sessionmaker
) -> None:
    home = await home_with_data(await org_factory(), sessionmaker)
    client = home.org.client("Super Admin")
    before = await totals(home.org)
    problems = []
    for method, path in body_routes(app):
        url = path
        for name, value in home.values.items():
            url = url.replace("{" + name + "}", value)
        for label, body in BAD_BODIES.items():
            response = await client.request(
                method, url, content=body, headers={"Content-Type": "application/json"}
            )
            fine = 400 <= response.status_code < 500 and set(response.json()) == {
                "reason",
                "message",
            }
            if not fine:
                problems.append(
                    f"{method} {path} with {label}: {response.status_code} {response.text[:120]}"
                )
    assert problems == [], "\n".join(problems)
    assert await totals(home.org) == before
    assert (await client.get("/api/users/me")).status_code == 200


@pytest.mark.parametrize(
    ("path", "params"),
    [
        ("/api/events", {"after": "yesterday"}),
        ("/api/events", {"before": "2024-13-45T25:61:00Z"}),
        ("/api/zonedurations", {"after": "2024-02-30"}),
        ("/api/images", {"dateStart": "not a date"}),
        ("/api/images", {"dateStart": "1700000000"}),
        ("/api/events", {"after": "12"}),
        ("/api/exceptions", {"before": "-1.5"}),
        ("/api/things", {"limit": "many"}),
        ("/api/things", {"page": "-1"}),
        ("/api/zones", {"sort": "-org_id"}),
    ],
)
async def test_invalid_dates_and_paging_are_refused(org_factory, path: str, params: dict) -> None:
    org: Org = await org_factory()
    response = await org.client("Administrator").get(path, params=params)
    assert 400 <= response.status_code < 500, response.text
    assert set(response.json()) == {"reason", "message"}


async def test_an_invalid_date_in_a_body_is_refused(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    # A bare number would otherwise be read as seconds since 1970.
    for date in ("2024-02-30T00:00:00Z", "soon", "", None, [2024, 2, 1], 12, 1.5, "12", True):
        response = await admin.post("/api/sites", json=site_body("Dated", startDate=date))
        assert_error(response, 422, "validation", "startDate")
    assert len((await admin.get("/api/sites")).json()) == 2


async def test_lists_of_ten_thousand_are_refused_or_harmless(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    before = await totals(org)
    image = await uploaded(admin, jpeg())
    many = [OTHER_ID] * 10_000
    site = org.site_ids[0]
    for method, path, body in (
        ("POST", "/api/images/edit", {"ids": [*many, OTHER_ID], "addTags": ["x"]}),
        (
            "POST",
            "/api/zones",
            {"name": "Many", "site": site, "emails": ["a@example.com"] * 10_000},
        ),
        ("POST", "/api/zones", {"name": "Many", "site": site, "gates": [{}] * 10_000}),
        ("POST", "/api/apikeys", {"name": "Many", "roles": many, "securityCtx": {"sites": [site]}}),
        ("POST", "/api/things", {"site": site, "common": {"name": "Many", "parents": many}}),
        ("PUT", f"/api/images/{image['id']}/meta", {"tags": ["t"] * 10_000}),
    ):
        response = await admin.request(method, path, json=body)
        assert 400 <= response.status_code < 500, (path, response.text)
        assert_error(response, response.status_code)
    # Ten thousand ids of nothing change nothing.
    edited = await admin.post("/api/images/edit", json={"ids": many, "addTags": ["x"]})
    assert_error(edited, 404, "not found")
    assert (await admin.get(f"/api/images/{image['id']}/meta")).json()["tags"] == []
    ids = ",".join([OTHER_ID] * 2_000)
    for response in (
        await admin.get(f"/api/images/{ids}/csv"),
        await admin.delete(f"/api/images/{ids}"),
    ):
        assert 400 <= response.status_code < 500, response.text
    after = await totals(org)
    assert after == {**before, "/api/images": str(int(before["/api/images"]) + 1)}


SVG_WITH_SCRIPT = (
    b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
    b"<script>alert(document.cookie)</script><rect width='10' height='10'/></svg>"
)


@pytest.mark.parametrize(
    ("data", "name", "content_type"),
    [
        (SVG_WITH_SCRIPT, "logo.svg", "image/svg+xml"),
        (SVG_WITH_SCRIPT, "logo.jpg", "image/jpeg"),
        (b"<html><script>alert(1)</script></html>", "page.jpg", "image/jpeg"),
    ],
    ids=["svg", "svg-named-jpg", "html-named-jpg"],
)
async def test_scripts_posing_as_photos_are_refused(
    org_factory, data: bytes, name: str, content_type: str
) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    response = await upload(client, data, name=name, content_type=content_type)
    assert_error(response, 415, "unsupported type")
    assert (await client.get("/api/images")).json() == []


async def test_a_jpeg_html_polyglot_is_only_ever_served_as_an_inert_image(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Administrator")
    polyglot = jpeg(64, 48) + b"<html><body><script>alert(document.cookie)</script></body></html>"
    image = await uploaded(client, polyglot, name="dock.html")
    for suffix in ("", "/thumb", "/mini"):
        served = await client.get(f"/api/images/{image['id']}{suffix}")
        assert served.status_code == 200, served.text
        assert served.headers["content-type"] == "image/jpeg"
        assert served.headers["x-content-type-options"] == "nosniff"
        assert "sandbox" in served.headers["content-security-policy"]
        assert "text/html" not in served.headers.get("content-disposition", "")
    # The thumbnails are made from the decoded picture: the trailing HTML is gone.
    thumb = await client.get(f"/api/images/{image['id']}/thumb")
    assert b"<script>" not in thumb.content


TRAVERSALS = (
    "..%2F..%2F..%2Fetc%2Fpasswd",
    "%2e%2e",
    "0123456789abcdef01234567%0A",
    "0123456789abcdef01234567%2F..%2F..",
    "0123456789ABCDEF01234567",
    "x" * 5000,
)


@pytest.mark.parametrize("bad", TRAVERSALS)
async def test_ids_in_paths_never_reach_the_file_system(org_factory, bad: str) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    for path in (
        f"/api/images/{bad}",
        f"/api/images/{bad}/thumb",
        f"/api/images/{bad}/mini",
        f"/api/images/{bad}/zip",
        f"/api/endpoints/config/{bad}",
        f"/api/endpoints/statusfb/{bad}",
        f"/api/endpoints/{bad}",
    ):
        response = await admin.get(path)
        assert 400 <= response.status_code < 500, (path, response.text)
        assert "root:" not in response.text
        assert set(response.json()) == {"reason", "message"}


def test_storage_keys_are_only_ever_server_made_ids(tmp_path) -> None:
    good = "0123456789abcdef01234567"
    assert image_key(good, good, "thumb") == f"{good}/{good}/thumb"
    storage = LocalStorage(tmp_path)
    for org_id, image_id in (
        ("..", good),
        (good, "../../etc/passwd"),
        (good, good + "\n"),
        (good.upper(), good),
        (good, f"{good}/../{good}"),
    ):
        with pytest.raises(ValueError):
            image_key(org_id, image_id, "original")
        with pytest.raises(ValueError):
            storage._path(f"{org_id}/{image_id}/original")
    with pytest.raises(ValueError):
        storage._path(f"{good}/{good}/original\n")
    assert is_id(good) and not is_id(good + "\n") and not is_id(good.upper())
