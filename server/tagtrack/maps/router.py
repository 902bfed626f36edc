"""Maps: floor plans of a site. Positions of readers, antennas, location tags and things
on a map are fractions [x, y] of its picture, from the top-left corner; [0, 0] means
not placed. topLeft and botRight give the picture's corners in map units."""

from typing import Annotated, Any

from fastapi import (
    APIRouter,
    Depends,
    File,
    Form,
    Query,
    Response,
    UploadFile,
)
from fastapi.responses import StreamingResponse
from pydantic import Json

from tagtrack.access.dependencies import SignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES, ErrorBody
from tagtrack.images.processing import MAX_UPLOAD_BYTES
from tagtrack.kit.lists import MAX_LIMIT, Listing, set_total
from tagtrack.kit.wiring import provide
from tagtrack.maps.schemas import MapRead, MapThing, MapWrite
from tagtrack.maps.service import MapService
from tagtrack.sites.scope import SiteQuery

router = APIRouter(prefix="/maps", tags=["maps"], responses=ERROR_RESPONSES)

_UPLOAD_ERRORS: dict[int | str, dict[str, Any]] = {
    413: {"model": ErrorBody, "description": "The file is over the upload limit"},
    415: {"model": ErrorBody, "description": "Not a JPEG, PNG, WebP or HEIC image"},
}
_PLAN_FILE = f"JPEG, PNG, WebP or HEIC, up to {MAX_UPLOAD_BYTES // 1048576} MiB"
_IMAGE_FILE: dict[int | str, dict[str, Any]] = {
    200: {"content": {"image/*": {}}, "description": "The floor-plan picture"}
}


Service = Annotated[MapService, Depends(provide(MapService))]


@router.get("", response_model=list[MapRead])
async def list_maps(
    principal: SignedIn, service: Service, params: Listing, response: Response, site: SiteQuery = ""
) -> list[MapRead]:
    """Maps of the site; search over the name; sort name or site."""
    rows, total = await service.list_page(principal, site, params)
    set_total(response, total)
    return rows


@router.get("/{map_id}", response_model=MapRead)
async def get_map(map_id: str, principal: SignedIn, service: Service) -> MapRead:
    """One map."""
    return await service.get(principal, map_id)


@router.post("", response_model=MapRead, status_code=201)
async def create_map(
    body: MapWrite, principal: Annotated[Principal, allowed("maps", "create")], service: Service
) -> MapRead:
    """Create a map: name unique in the site (400 'duplicate'); corners must differ."""
    return await service.create(principal, body)


@router.post("/withplan", response_model=MapRead, status_code=201, responses=_UPLOAD_ERRORS)
async def create_map_with_plan(
    principal: Annotated[Principal, allowed("maps", "create")],
    service: Service,
    map: Annotated[Json[MapWrite], Form(description="The map, as the JSON body of POST maps")],
    file: Annotated[UploadFile, File(description=_PLAN_FILE)],
) -> MapRead:
    """Create a map with its floor plan in one step: both are saved or, if either is
    refused (duplicate name, unreadable picture), neither."""
    return await service.create_with_image(principal, map, file)


@router.put("/{map_id}", response_model=MapRead)
async def update_map(
    map_id: str,
    body: MapWrite,
    principal: Annotated[Principal, allowed("maps", "modify")],
    service: Service,
) -> MapRead:
    """Replace a map's name and corners; a map stays in its site."""
    return await service.update(principal, map_id, body)


@router.delete("/{map_id}", status_code=204)
async def delete_map(
    map_id: str, principal: Annotated[Principal, allowed("maps", "delete")], service: Service
) -> None:
    """Delete a map and its picture; whatever was placed on it is taken off."""
    await service.delete(principal, map_id)


@router.put("/{map_id}/image", response_model=MapRead, responses=_UPLOAD_ERRORS)
async def upload_map_image(
    map_id: str,
    principal: Annotated[Principal, allowed("maps", "modify")],
    service: Service,
    file: Annotated[
        UploadFile,
        File(description=_PLAN_FILE),
    ],
) -> MapRead:
    """Upload (or replace) the floor plan; a map with default corners gets corners that
    keep the picture's proportions, its longer side 1000 units."""
    return await service.save_image(principal, map_id, file)


@router.get("/{map_id}/image", response_class=StreamingResponse, responses=_IMAGE_FILE)
async def get_map_image(map_id: str, principal: SignedIn, service: Service) -> Any:
    """The floor-plan picture."""
    plan = await service.image(principal, map_id)
    return StreamingResponse(
        plan.chunks,
        media_type=plan.content_type,
        headers={
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "default-src 'none'; sandbox",
            "Content-Length": str(plan.length),
            "Cache-Control": "private, max-age=86400",
        },
    )


@router.get("/{map_id}/things", response_model=list[MapThing])
async def list_map_things(
    map_id: str,
    principal: SignedIn,
    service: Service,
    search: Annotated[str, Query(max_length=200, description="In name, serial or tag")] = "",
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT)] = 3000,
) -> list[MapThing]:
    """Things placed on this map (their last read put them here), by name."""
    return await service.things(principal, map_id, search.strip(), limit)
