"""Tracking data for the browser tests: endpoints, zones, things, and reads through ingest."""

import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, expect

from e2e.conftest import create_site


@dataclass(frozen=True)
class Reader:
    id: str
    name: str
    key: str


def short_tag() -> str:
    """An EPC-like tag no other test uses (tags are unique in the organization)."""
    return "E2E" + uuid.uuid4().hex[:13].upper()


def new_site(api: APIRequestContext, prefix: str, timezone: str = "Europe/Amsterdam") -> str:
    return create_site(api, f"{prefix} {uuid.uuid4().hex[:8]}", timezone=timezone)


def create_endpoint(api: APIRequestContext, site: str, name: str) -> Reader:
    response = api.post("/api/endpoints", data={"name": name, "site": site})
    assert response.ok, response.text()
    body = response.json()
    return Reader(body["_id"], body["name"], body["key"])


def create_zone(api: APIRequestContext, site: str, name: str, gates: list[dict[str, Any]]) -> str:
    response = api.post("/api/zones", data={"name": name, "site": site, "gates": gates})
    assert response.ok, response.text()
    return str(response.json()["_id"])


def create_map(api: APIRequestContext, site: str, name: str) -> str:
    response = api.post("/api/maps", data={"name": name, "site": site})
    assert response.ok, response.text()
    return str(response.json()["_id"])


def create_thing(
    api: APIRequestContext,
    site: str,
    name: str,
    tag: str = "",
    thing_class: str = "item",
    serial: str = "",
    parents: list[str] | None = None,
    data: dict[str, Any] | None = None,
) -> dict[str, Any]:
    response = api.post(
        "/api/things",
        data={
            "site": site,
            "data": data or {},
            "common": {
                "name": name,
                "class": thing_class,
                "serial": serial,
                "tag1": tag,
                "parents": parents or [],
            },
        },
    )
    assert response.ok, response.text()
    body: dict[str, Any] = response.json()
    return body


def get_thing(api: APIRequestContext, thing_id: str) -> dict[str, Any]:
    response = api.get(f"/api/things/{thing_id}")
    assert response.ok, response.text()
    body: dict[str, Any] = response.json()
    return body


def set_parents(api: APIRequestContext, thing_id: str, parents: list[str]) -> None:
    thing = get_thing(api, thing_id)
    thing["common"]["parents"] = parents
    response = api.put(f"/api/things/{thing_id}", data=thing)
    assert response.ok, response.text()


def post_reads(
    api: APIRequestContext, reader: Reader, reads: list[dict[str, Any]]
) -> dict[str, Any]:
    response = api.post(
        "/api/ingest/reads",
        data={"reads": reads},
        headers={"Authorization": f"Bearer {reader.key}"},
    )
    assert response.status == 202, f"{response.status} {response.text()}"
    body: dict[str, Any] = response.json()
    return body


def post_status(api: APIRequestContext, reader: Reader, age: timedelta, **fields: Any) -> None:
    """A heartbeat of the reader, sent `age` ago."""
    when = (datetime.now(UTC) - age).isoformat().replace("+00:00", "Z")
    response = api.post(
        "/api/ingest/status",
        data={"time": when, "uptime": 3600, "readerTemp": 41.5, **fields},
        headers={"Authorization": f"Bearer {reader.key}"},
    )
    assert response.ok, f"{response.status} {response.text()}"


def wait_for_events(
    api: APIRequestContext, site: str, tag: str, timeout: float = 15.0
) -> list[dict[str, Any]]:
    """Reads are processed after they are acknowledged: wait until the tag's event exists."""
    deadline = time.monotonic() + timeout
    while True:
        response = api.get("/api/events", params={"site": site, "limit": 100})
        assert response.ok, response.text()
        found = [e for e in response.json() if e["tag"] == tag.upper()]
        if found or time.monotonic() > deadline:
            return found
        time.sleep(0.3)


@pytest.fixture
def patient_expect() -> Iterator[None]:
    """Reads are processed in the background and the machine is shared: wait longer."""
    expect.set_options(timeout=15_000)
    yield
    expect.set_options(timeout=5_000)
