"""Every API route, called by every kind of caller, answers as the route table says."""

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
from fastapi import FastAPI
from fastapi.routing import iter_route_contexts
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.models import TrackingException
from tagtrack.models.base import utcnow
from tests.conftest import PASSWORD, Org, make_client
from tests.helpers import OTHER_ID
from tests.photos import jpeg
from tests.route_access import ROUTES, Access
from tests.test_apikeys import create_key
from tests.test_images import uploaded
from tests.test_maps import plan_png, upload
from tests.tracking_api import (
    add_status,
    created,
    make_endpoint,
    make_map,
    make_thing,
    make_zone,
    thing_body,
)

# Callers in the order they run: destructive calls by the home organization's roles come last.
ROLES = ("Viewer", "Operator", "Manager", "Administrator", "Super Admin")
KEY_ROLE = "Manager"
# Path parameters that name no stored resource of an organization.
NOT_IDS = {"kind", "path"}
# Routes that take a file: a real one, so the answer is about the caller, not the body.
UPLOADS = {
    "/api/maps/{map_id}/image": ("plan.png", plan_png(), "image/png"),
    "/api/maps/withplan": ("plan.png", plan_png(), "image/png"),
}
# Reports need their period to answer at all.
PERIOD = "?after=2026-01-01T00:00:00Z&before=2026-01-02T00:00:00Z"
QUERIES = {
    "/api/reports/{config_id}": PERIOD,
    "/api/eventsbything": PERIOD,
    "/api/eventsbything/export": PERIOD,
    # The live stream stays open for an hour unless asked to end at once.
    "/api/live": "?lifetime=0",
}


def api_routes(app: FastAPI) -> Iterator[tuple[str, str]]:
    """(method, path) of every route under /api."""
    for route in iter_route_contexts(app.routes):
        if not route.path.startswith("/api"):
            continue
        for method in sorted(route.methods or ()):
            if method != "HEAD":
                yield method, route.path


def path_params(path: str) -> list[str]:
    return [name.split(":")[0] for name in re.findall(r"{([^}]+)}", path)]


@dataclass
class Home:
    """Organization A with one resource of each kind, and the values to fill paths with."""

    org: Org
    values: dict[str, str]
    markers: list[str]


async def home_with_data(org: Org, sessionmaker: async_sessionmaker[AsyncSession]) -> Home:
    admin = org.client("Administrator")
    site = org.site_ids[0]
    endpoint = await make_endpoint(admin, site, "Access door")
    await add_status(sessionmaker, org.id, endpoint["_id"], utcnow(), uptime=1)
    zone = await make_zone(admin, site, "Access zone")
    tag = await created(
        await admin.post(
            "/api/locationtags", json={"name": "Access shelf", "tag": "ACCESS-LOC", "site": site}
        )
    )
    thing = await make_thing(admin, site, "Access pallet", tags=["ACCESSTAG1"])
    image = await uploaded(admin, jpeg())
    category = await created(await admin.post("/api/image-categories", json={"name": "Access"}))
    key = await create_key(org)
    floor_plan = await make_map(admin, site, "Access floor")
    assert (await upload(admin, floor_plan["_id"], plan_png())).status_code == 200
    report = await created(
        await admin.post(
            "/api/reportconfigs",
            json={
                "name": "Access report",
                "type": "reportTypeSeen",
                "format": "excel",
                "site": site,
            },
        )
    )
    exception = TrackingException(
        org_id=org.id, site_id=site, type="zoneTimeException", time=utcnow(), thing_id=thing["_id"]
    )
    async with sessionmaker() as session, session.begin():
        session.add(exception)
    viewer = (await org.client("Viewer").get("/api/users/me")).json()
    values = {
        "user_id": viewer["id"],
        "org_id": org.id,
        "key_id": key["_id"],
        "site_id": site,
        "endpoint_id": endpoint["_id"],
        "zone_id": zone["_id"],
        "tag_id": tag["_id"],
        "tag": "ACCESSTAG1",
        "thing_id": thing["_id"],
        "ids": image["id"],
        "image_id": image["id"],
        "category_id": category["id"],
        "map_id": floor_plan["_id"],
        "config_id": report["_id"],
        "exception_id": exception.id,
        "kind": "okta",
        "path": "no-such-route",
    }
    ids = [v for k, v in values.items() if k not in NOT_IDS and k != "tag"]
    return Home(org, values, [*ids, org.subdomain, "ACCESSTAG1"])


@dataclass
class Caller:
    name: str
    client: httpx.AsyncClient
    role: str | None  # None: anonymous
    other_org: bool = False


def expected(access: Access, caller: Caller, path: str) -> str:
    """'allowed', '401', '403' or '404' for this caller on this route."""
    if access.kind == "public":
        return "allowed"
    if caller.role is None or access.kind == "reader":
        return "401"
    if not access.allows_role(caller.role):
        return "403"
    if caller.other_org and any(p not in NOT_IDS for p in path_params(path)):
        return "404"
    return "allowed"


async def call(
    caller: Caller, method: str, path: str, home: Home, bodies: dict[str, Any], want: str
) -> httpx.Response:
    values = dict(home.values)
    if method == "DELETE" and want == "allowed":
        # Deletions that may succeed aim at nothing, keeping the data for the other callers.
        values = {k: (v if k in NOT_IDS else OTHER_ID) for k, v in values.items()}
    url = re.sub(r"{([^}:]+)(:[^}]*)?}", lambda m: values[m.group(1)], path)
    if method == "GET":
        return await caller.client.request(method, url + QUERIES.get(path, ""))
    if method == "DELETE":
        return await caller.client.request(method, url)
    if path in UPLOADS:
        return await caller.client.request(method, url, files={"file": UPLOADS[path]})
    return await caller.client.request(method, url, json=bodies.get(path, {}))


def problems_of(
    response: httpx.Response, want: str, caller: Caller, route: str, home: Home
) -> list[str]:
    status = response.status_code
    seen = f"{route} as {caller.name}: {status} {response.text[:160]}"
    if status >= 500:
        return [f"server error: {seen}"]
    if want == "allowed":
        if status in (401, 403):
            return [f"refused, expected allowed: {seen}"]
        if caller.other_org and any(m in response.text for m in home.markers):
            return [f"another organization's data: {seen}"]
        return []
    if str(status) != want:
        return [f"expected {want}: {seen}"]
    if set(response.json()) != {"reason", "message"}:
        return [f"data in a refusal: {seen}"]
    return []


async def test_every_api_route_is_in_the_access_table(app: FastAPI) -> None:
    routes = {f"{method} {path}" for method, path in api_routes(app)}
    assert sorted(routes - set(ROUTES)) == [], "declare these routes in tests/route_access.py"
    assert sorted(set(ROUTES) - routes) == [], "these table entries name no route"


async def test_every_route_answers_every_caller_as_the_table_says(
    app: FastAPI, org_factory, sessionmaker
) -> None:
    home = await home_with_data(await org_factory(), sessionmaker)
    other: Org = await org_factory()
    key = await create_key(home.org, role=KEY_ROLE, sites=[home.org.site_ids[0]])
    key_client = make_client(app)
    key_client.headers["Authorization"] = f"Bearer {key['token']}"
    callers = [
        Caller("anonymous", make_client(app), None),
        Caller(
            "administrator of another organization",
            other.client("Administrator"),
            "Administrator",
            True,
        ),
        Caller(f"API key ({KEY_ROLE}, one site)", key_client, KEY_ROLE),
        *(Caller(role, home.org.client(role), role) for role in ROLES),
    ]
    admin = home.org.client("Administrator")
    routes = sorted(api_routes(app), key=lambda r: (r[1] == "/api/auth/logout", r[0] == "DELETE"))
    # Bodies valid enough to reach the rights check; a PUT carries the resource as it reads.
    bodies: dict[str, Any] = {"/api/things": thing_body(home.org.site_ids[0], "Access crate")}
    for method, path in routes:
        if method == "PUT" and ("GET", path) in routes and path_params(path):
            got = await call(Caller("admin", admin, "Administrator"), "GET", path, home, {}, "")
            if got.headers["content-type"].startswith("application/json"):
                bodies[path] = got.json()

    problems: list[str] = []
    try:
        for caller in callers:
            for method, path in routes:
                route = f"{method} {path}"
                want = expected(ROUTES[route], caller, path)
                response = await call(caller, method, path, home, bodies, want)
                problems += problems_of(response, want, caller, route, home)
    finally:
        for caller in callers[:3:2]:
            await caller.client.aclose()
    assert problems == [], "\n".join(problems)
    # The other organization's attempts changed nothing: every resource still reads.
    admin = make_client(app)
    signed_in = await admin.post(
        "/api/auth/login",
        json={"username": home.org.usernames["Super Admin"], "password": PASSWORD},
    )
    assert signed_in.status_code == 200
    for method, path in routes:
        if method == "GET" and any(p not in NOT_IDS for p in path_params(path)):
            response = await call(
                Caller("admin", admin, "Administrator"), method, path, home, {}, ""
            )
            assert response.status_code == 200, f"{path}: {response.text}"
    await admin.aclose()
