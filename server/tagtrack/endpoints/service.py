"""Readers: CRUD within the caller's sites, the generated key, configuration, heartbeats."""

import json
import secrets
from collections.abc import Sequence
from typing import Any

from tagtrack.access.principal import Principal
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.endpoints.repository import EndpointRepository
from tagtrack.endpoints.schemas import (
    Antenna,
    AutoEnroll,
    EndpointRead,
    EndpointStatusRead,
    EndpointWrite,
    EventSource,
)
from tagtrack.kit.lists import ListParams
from tagtrack.kit.wiring import PublicUrl
from tagtrack.maps.repository import MapRepository
from tagtrack.maps.service import check_map_refs
from tagtrack.models import Endpoint, EndpointStatus
from tagtrack.sites.scope import site_for_write, sites_in_scope
from tagtrack.sites.service import SiteService

CONFIG_MAX_BYTES = 64 * 1024


def new_key() -> str:
    return secrets.token_urlsafe(32)


def status_read(status: EndpointStatus, name: str = "") -> EndpointStatusRead:
    return EndpointStatusRead(
        endpoint=status.endpoint_id,
        endpointName=name,
        time=status.time,
        uptime=status.uptime,
        readerTemp=status.reader_temp,
        ip=status.ip,
        version=status.version,
    )


class EndpointService:
    def __init__(
        self,
        repository: EndpointRepository,
        sites: SiteService,
        maps: MapRepository,
        public_url: PublicUrl,
    ) -> None:
        self.repository = repository
        self.sites = sites
        self.maps = maps
        self.public_url = public_url

    def _read(
        self, principal: Principal, endpoint: Endpoint, status: EndpointStatus | None
    ) -> EndpointRead:
        # The key lets anyone post reads as this reader: only those who may change it see it.
        key = endpoint.key if principal.can("endpoints", "modify") else ""
        qrcode = json.dumps({"url": self.public_url, "id": endpoint.id, "key": key}) if key else ""
        return EndpointRead(
            id=endpoint.id,
            name=endpoint.name,
            uuid=endpoint.uuid,
            description=endpoint.description,
            site=endpoint.site_id,
            map=endpoint.map_id,
            externalgate=endpoint.external_gate,
            xycoordinates=list(endpoint.xy),
            autoEnroll=AutoEnroll(
                enabled=endpoint.auto_enroll, locationEnabled=endpoint.auto_enroll_location
            ),
            antennas=[Antenna.model_validate(a) for a in endpoint.antennas],
            key=key,
            status=status_read(status, endpoint.name) if status is not None else None,
            qrcode=qrcode,
        )

    async def _reads(
        self, principal: Principal, endpoints: Sequence[Endpoint]
    ) -> list[EndpointRead]:
        latest = await self.repository.latest_statuses(principal.org_id, [e.id for e in endpoints])
        return [self._read(principal, e, latest.get(e.id)) for e in endpoints]

    async def list_page(
        self, principal: Principal, site: str, params: ListParams
    ) -> tuple[list[EndpointRead], int]:
        scope = sites_in_scope(principal, site)
        endpoints, total = await self.repository.list_page(principal.org_id, scope, params)
        return await self._reads(principal, endpoints), total

    async def get_model(self, principal: Principal, endpoint_id: str) -> Endpoint:
        """An endpoint of the caller's organization and sites; anything else is not found."""
        endpoint = await self.repository.get(principal.org_id, endpoint_id)
        if endpoint is None or not principal.sees_site(endpoint.site_id):
            raise NotFound("Endpoint not found")
        return endpoint

    async def get(self, principal: Principal, endpoint_id: str) -> EndpointRead:
        return (await self._reads(principal, [await self.get_model(principal, endpoint_id)]))[0]

    async def _check(
        self, principal: Principal, body: EndpointWrite, except_id: str | None
    ) -> None:
        await site_for_write(self.sites, principal, body.site)
        if await self.repository.name_taken(principal.org_id, body.name, except_id):
            raise BadRequest(
                f"An endpoint named '{body.name}' already exists (duplicate)", reason="duplicate"
            )
        await check_map_refs(
            self.maps,
            principal,
            body.site,
            [("map", body.map)]
            + [(f"antennas.{i}.map", a.map) for i, a in enumerate(body.antennas)],
        )

    @staticmethod
    def _apply(endpoint: Endpoint, body: EndpointWrite) -> None:
        endpoint.name = body.name
        endpoint.uuid = body.uuid
        endpoint.description = body.description
        endpoint.site_id = body.site
        endpoint.map_id = body.map
        endpoint.external_gate = body.externalgate
        endpoint.xy = list(body.xycoordinates)
        endpoint.auto_enroll = body.autoEnroll.enabled
        endpoint.auto_enroll_location = body.autoEnroll.locationEnabled
        endpoint.antennas = [a.model_dump(mode="json") for a in body.antennas]

    async def create(self, principal: Principal, body: EndpointWrite) -> EndpointRead:
        await self._check(principal, body, None)
        endpoint = Endpoint(org_id=principal.org_id, key=new_key())
        self._apply(endpoint, body)
        return self._read(principal, await self.repository.add(endpoint), None)

    async def update(
        self, principal: Principal, endpoint_id: str, body: EndpointWrite
    ) -> EndpointRead:
        endpoint = await self.get_model(principal, endpoint_id)
        await self._check(principal, body, endpoint.id)
        if body.site != endpoint.site_id and await self.repository.is_gate(endpoint):
            raise BadRequest(
                "site: the endpoint is a gate of a zone of its site; remove it from the "
                "zone's gates before moving it to another site"
            )
        self._apply(endpoint, body)
        return (await self._reads(principal, [endpoint]))[0]

    async def delete(self, principal: Principal, endpoint_id: str) -> None:
        await self.repository.delete(await self.get_model(principal, endpoint_id))

    # Configuration.

    async def config(self, principal: Principal, endpoint_id: str) -> dict[str, Any]:
        return dict((await self.get_model(principal, endpoint_id)).config)

    async def save_config(
        self, principal: Principal, endpoint_id: str, config: dict[str, Any]
    ) -> dict[str, Any]:
        endpoint = await self.get_model(principal, endpoint_id)
        if len(json.dumps(config).encode()) > CONFIG_MAX_BYTES:
            raise BadRequest("The configuration is larger than 64 KiB", reason="too large")
        endpoint.config = config
        return config

    # Heartbeats.

    async def status_page(
        self, principal: Principal, endpoint_id: str, params: ListParams
    ) -> tuple[list[EndpointStatusRead], int]:
        endpoint = await self.get_model(principal, endpoint_id)
        statuses, total = await self.repository.status_page(endpoint, params)
        return [status_read(s, endpoint.name) for s in statuses], total

    async def latest(
        self, principal: Principal, endpoint_id: str, site: str, limit: int
    ) -> list[EndpointStatusRead]:
        if endpoint_id:
            endpoint = await self.get_model(principal, endpoint_id)
            statuses = await self.repository.latest_of(endpoint, limit)
            return [status_read(s, endpoint.name) for s in statuses]
        rows = await self.repository.latest_per_endpoint(
            principal.org_id, sites_in_scope(principal, site)
        )
        return [status_read(status, name) for status, name in rows]

    async def latest_one(self, principal: Principal, endpoint_id: str) -> EndpointStatusRead:
        endpoint = await self.get_model(principal, endpoint_id)
        statuses = await self.repository.latest_of(endpoint, 1)
        if not statuses:
            raise NotFound("This endpoint has not reported a status yet")
        return status_read(statuses[0], endpoint.name)

    async def sources(self, principal: Principal, site: str) -> list[EventSource]:
        rows = await self.repository.sources(principal.org_id, sites_in_scope(principal, site))
        return [EventSource(id=i, name=n) for i, n in rows]
