"""Builders for the configuration and things API tests: bodies, rows and heartbeats."""

from datetime import datetime
from typing import Any

import httpx
from sqlalchemy import update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.endpoints.repository import EndpointRepository
from tagtrack.models import Thing


async def created(response: httpx.Response) -> dict[str, Any]:
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def endpoint_body(site: str, name: str = "Dock Door 1", **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name, "site": site}
    body.update(changes)
    return body


async def make_endpoint(
    client: httpx.AsyncClient, site: str, name: str = "Dock Door 1", **changes: Any
) -> dict[str, Any]:
    return await created(
        await client.post("/api/endpoints", json=endpoint_body(site, name, **changes))
    )


def zone_body(site: str, name: str = "Receiving", **changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name, "site": site}
    body.update(changes)
    return body


async def make_zone(
    client: httpx.AsyncClient, site: str, name: str = "Receiving", **changes: Any
) -> dict[str, Any]:
    return await created(await client.post("/api/zones", json=zone_body(site, name, **changes)))


async def make_map(
    client: httpx.AsyncClient, site: str, name: str = "Ground Floor", **changes: Any
) -> dict[str, Any]:
    body = {"name": name, "site": site, **changes}
    return await created(await client.post("/api/maps", json=body))


def thing_body(
    site: str, name: str = "Pallet jack", cls: str = "item", **common: Any
) -> dict[str, Any]:
    return {"site": site, "common": {"name": name, "class": cls, **common}}


async def make_thing(
    client: httpx.AsyncClient,
    site: str,
    name: str = "Pallet jack",
    cls: str = "item",
    **common: Any,
) -> dict[str, Any]:
    return await created(
        await client.post("/api/things", json=thing_body(site, name, cls, **common))
    )


async def add_status(
    sessionmaker: async_sessionmaker[AsyncSession],
    org_id: str,
    endpoint_id: str,
    time: datetime,
    **fields: Any,
) -> None:
    async with sessionmaker() as session, session.begin():
        await EndpointRepository(session).add_status(org_id, endpoint_id, time=time, **fields)


async def set_state(
    sessionmaker: async_sessionmaker[AsyncSession], thing_id: str, **values: Any
) -> None:
    """What processing would write: the thing's zone, endpoint, times, alarm."""
    async with sessionmaker() as session, session.begin():
        await session.execute(update(Thing).where(Thing.id == thing_id).values(**values))
