"""Maps: a site's floor plans, their pictures, and the things placed on them."""

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from fastapi import BackgroundTasks, UploadFile

from tagtrack.access.principal import Principal
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.images.processing import (
    MAX_UPLOAD_BYTES,
    BadImage,
    FloorPlan,
    process_floor_plan,
    upload_error,
)
from tagtrack.images.storage import Storage, image_key
from tagtrack.kit.lists import ListParams
from tagtrack.kit.tracking import or_unset
from tagtrack.maps.repository import MapRepository
from tagtrack.maps.schemas import (
    MapRead,
    MapThing,
    MapWrite,
    default_bot_right,
    default_top_left,
)
from tagtrack.models import Map, Thing
from tagtrack.sites.scope import site_for_write, sites_in_scope
from tagtrack.sites.service import SiteService

# The longer side of a new picture spans this many map units (SPEC: bounds 0..1000).
MAP_UNITS = 1000.0


def map_read(row: Map) -> MapRead:
    image = f"/api/maps/{row.id}/image?v={row.image_version}" if row.image_key else ""
    return MapRead(
        id=row.id,
        name=row.name,
        site=row.site_id,
        topLeft=list(row.top_left),
        botRight=list(row.bot_right),
        image=image,
        imageWidth=row.image_width,
        imageHeight=row.image_height,
    )


def map_thing(thing: Thing) -> MapThing:
    tags = [thing.tag1, thing.tag2, *thing.tags, *thing.tags1, *thing.tags2]
    return MapThing(
        id=thing.id,
        name=thing.name,
        thingClass=thing.thing_class,
        tag=next((t for t in tags if t), ""),
        xycoordinates=[*thing.xy, 0.0, 0.0][:2],
        lastEvent=or_unset(thing.last_event),
    )


def fitted_bounds(width: int, height: int) -> tuple[list[float], list[float]]:
    """Bounds keeping the picture's proportions, its longer side MAP_UNITS long."""
    scale = MAP_UNITS / max(width, height)
    return [0.0, round(height * scale, 3)], [round(width * scale, 3), 0.0]


async def _read_plan(file: UploadFile) -> FloorPlan:
    data = await file.read(MAX_UPLOAD_BYTES + 1)
    try:
        return await process_floor_plan(data)
    except BadImage as exc:
        raise upload_error(exc) from exc


@dataclass(frozen=True)
class PlanFile:
    chunks: AsyncIterator[bytes]
    content_type: str
    length: int


class MapService:
    def __init__(
        self,
        repository: MapRepository,
        sites: SiteService,
        storage: Storage,
        background: BackgroundTasks,
    ) -> None:
        self.repository = repository
        self.sites = sites
        self.storage = storage
        self.background = background

    async def list_page(
        self, principal: Principal, site: str, params: ListParams
    ) -> tuple[list[MapRead], int]:
        scope = sites_in_scope(principal, site)
        rows, total = await self.repository.list_page(principal.org_id, scope, params)
        return [map_read(r) for r in rows], total

    async def get_model(self, principal: Principal, map_id: str) -> Map:
        """A map of the caller's organization and sites; anything else is not found."""
        row = await self.repository.get(principal.org_id, map_id)
        if row is None or not principal.sees_site(row.site_id):
            raise NotFound("Map not found")
        return row

    async def get(self, principal: Principal, map_id: str) -> MapRead:
        return map_read(await self.get_model(principal, map_id))

    async def _apply(self, principal: Principal, row: Map, body: MapWrite) -> Map:
        await site_for_write(self.sites, principal, body.site)
        if row.site_id and body.site != row.site_id:
            raise BadRequest("site: a map stays in the site it was made for")
        if await self.repository.name_taken(principal.org_id, body.site, body.name, row.id):
            raise BadRequest(
                f"A map named '{body.name}' already exists in this site (duplicate)",
                reason="duplicate",
            )
        (left, top), (right, bottom) = body.topLeft, body.botRight
        if left == right or top == bottom:
            raise BadRequest("topLeft and botRight must differ in both x and y")
        row.name = body.name
        row.site_id = body.site
        row.top_left = list(body.topLeft)
        row.bot_right = list(body.botRight)
        return row

    async def create(self, principal: Principal, body: MapWrite) -> MapRead:
        row = await self._apply(principal, Map(org_id=principal.org_id, site_id=""), body)
        return map_read(await self.repository.add(row))

    async def update(self, principal: Principal, map_id: str, body: MapWrite) -> MapRead:
        row = await self.get_model(principal, map_id)
        return map_read(await self._apply(principal, row, body))

    async def delete(self, principal: Principal, map_id: str) -> None:
        row = await self.get_model(principal, map_id)
        await self.repository.detach(principal.org_id, row.id)
        for endpoint in await self.repository.endpoints_with_antennas(
            principal.org_id, row.site_id
        ):
            if any(a.get("map") == row.id for a in endpoint.antennas):
                endpoint.antennas = [
                    {**a, "map": ""} if a.get("map") == row.id else a for a in endpoint.antennas
                ]
        key = row.image_key
        await self.repository.delete(row)
        if key:
            # The file goes once the deletion is committed (tasks run after the answer).
            self.background.add_task(self.storage.delete, key)

    async def create_with_image(
        self, principal: Principal, body: MapWrite, file: UploadFile
    ) -> MapRead:
        """A map and its floor plan together: a refused picture creates no map."""
        plan = await _read_plan(file)
        row = await self._apply(principal, Map(org_id=principal.org_id, site_id=""), body)
        row = await self.repository.add(row)
        await self._store_plan(principal, row, plan)
        return map_read(row)

    async def save_image(self, principal: Principal, map_id: str, file: UploadFile) -> MapRead:
        row = await self.get_model(principal, map_id)
        await self._store_plan(principal, row, await _read_plan(file))
        return map_read(row)

    async def _store_plan(self, principal: Principal, row: Map, plan: FloorPlan) -> None:
        key = image_key(principal.org_id, row.id, "plan")
        await self.storage.put(key, plan.data)
        if [row.top_left, row.bot_right] == [default_top_left(), default_bot_right()]:
            row.top_left, row.bot_right = fitted_bounds(plan.width, plan.height)
        row.image_key = key
        row.image_type = plan.content_type
        row.image_width = plan.width
        row.image_height = plan.height
        row.image_version += 1

    async def image(self, principal: Principal, map_id: str) -> PlanFile:
        row = await self.get_model(principal, map_id)
        if not row.image_key:
            raise NotFound("This map has no floor plan yet")
        try:
            length = await self.storage.size(row.image_key)
        except FileNotFoundError as exc:
            raise NotFound("The floor plan file is missing") from exc
        return PlanFile(self.storage.read(row.image_key), row.image_type, length)

    async def things(
        self, principal: Principal, map_id: str, search: str, limit: int
    ) -> list[MapThing]:
        row = await self.get_model(principal, map_id)
        things = await self.repository.things_on(principal.org_id, row.id, search, limit)
        return [map_thing(t) for t in things]


async def check_map_refs(
    maps: MapRepository, principal: Principal, site_id: str, refs: Sequence[tuple[str, str]]
) -> None:
    """Each (field, map id) names no map or a map of the site; else 400 naming the field."""
    wanted = sorted({map_id for _, map_id in refs if map_id})
    found = await maps.ids_in_site(principal.org_id, site_id, wanted)
    for field, map_id in refs:
        if map_id and map_id not in found:
            raise BadRequest(f"{field}: the map is not a map of this site")
