"""Location tags: fixed tags a handheld reads to know where it stands."""

from tagtrack.access.principal import Principal
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.kit.lists import ListParams
from tagtrack.locationtags.repository import LocationTagRepository
from tagtrack.locationtags.schemas import LocationTagRead, LocationTagWrite
from tagtrack.maps.repository import MapRepository
from tagtrack.maps.service import check_map_refs
from tagtrack.models import LocationTag
from tagtrack.sites.scope import site_for_write, sites_in_scope
from tagtrack.sites.service import SiteService
from tagtrack.things.tags import normalize_tag
from tagtrack.zones.repository import ZoneRepository


def location_tag_read(row: LocationTag) -> LocationTagRead:
    return LocationTagRead(
        id=row.id,
        name=row.name,
        tag=row.tag,
        zone=row.zone_id,
        map=row.map_id,
        xycoordinates=list(row.xy),
        site=row.site_id,
    )


class LocationTagService:
    def __init__(
        self,
        repository: LocationTagRepository,
        zones: ZoneRepository,
        sites: SiteService,
        maps: MapRepository,
    ) -> None:
        self.repository = repository
        self.zones = zones
        self.sites = sites
        self.maps = maps

    async def list_page(
        self, principal: Principal, site: str, params: ListParams
    ) -> tuple[list[LocationTagRead], int]:
        scope = sites_in_scope(principal, site)
        rows, total = await self.repository.list_page(principal.org_id, scope, params)
        return [location_tag_read(r) for r in rows], total

    async def get_model(self, principal: Principal, tag_id: str) -> LocationTag:
        """A location tag of the caller's organization and sites; anything else is not found."""
        row = await self.repository.get(principal.org_id, tag_id)
        if row is None or not principal.sees_site(row.site_id):
            raise NotFound("Location tag not found")
        return row

    async def get(self, principal: Principal, tag_id: str) -> LocationTagRead:
        return location_tag_read(await self.get_model(principal, tag_id))

    async def _apply(
        self, principal: Principal, row: LocationTag, body: LocationTagWrite
    ) -> LocationTag:
        await site_for_write(self.sites, principal, body.site)
        tag = normalize_tag(body.tag)
        if await self.repository.tag_taken(principal.org_id, tag, row.id):
            raise BadRequest(
                f"Tag {tag} is a duplicate of another location tag's tag", reason="duplicate"
            )
        if body.zone is not None and not await self.zones.in_site(
            principal.org_id, body.site, body.zone
        ):
            raise BadRequest("zone: the zone is not a zone of this site")
        await check_map_refs(self.maps, principal, body.site, [("map", body.map)])
        row.name = body.name
        row.tag = tag
        row.zone_id = body.zone
        row.map_id = body.map
        row.xy = list(body.xycoordinates)
        row.site_id = body.site
        return row

    async def create(self, principal: Principal, body: LocationTagWrite) -> LocationTagRead:
        row = await self._apply(principal, LocationTag(org_id=principal.org_id), body)
        return location_tag_read(await self.repository.add(row))

    async def update(
        self, principal: Principal, tag_id: str, body: LocationTagWrite
    ) -> LocationTagRead:
        row = await self.get_model(principal, tag_id)
        return location_tag_read(await self._apply(principal, row, body))

    async def delete(self, principal: Principal, tag_id: str) -> None:
        await self.repository.delete(await self.get_model(principal, tag_id))
