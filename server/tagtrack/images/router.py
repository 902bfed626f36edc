"""Images: upload, search, the files, metadata, bulk edit, deletion and exports.

The image search query (GET images, delete by query, the exports of a search and bulk
edit without ids): `tags` and `categories` (repeatable; each must be on the image),
`tagsEmpty`, `categoriesEmpty`, `uploader` (a user id), `search` (text in the comment,
tags, device or file name), `partial` (tags match as case-insensitive parts),
`dateStart` and `dateEnd` (inclusive, on the time taken, else the upload time) and
`or` (the image needs only one of the tag, category, empty, uploader and text
conditions; the date range always applies).
"""

from collections.abc import AsyncIterator
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

from tagtrack.access.dependencies import SignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES, ErrorBody
from tagtrack.images.processing import MAX_UPLOAD_BYTES
from tagtrack.images.schemas import (
    BulkEdit,
    Count,
    ImageRead,
    ImageSearch,
    ImageWrite,
    Neighbours,
    Uploader,
)
from tagtrack.images.service import ImageService, Served
from tagtrack.kit.lists import MAX_LIMIT, MAX_PAGE, ListParams, set_total
from tagtrack.kit.schemas import UtcDateTime
from tagtrack.kit.wiring import provide

# Suggestions while typing: a short list.
MAX_TAGS = 100

router = APIRouter(prefix="/images", tags=["images"], responses=ERROR_RESPONSES)

_UPLOAD_ERRORS: dict[int | str, dict[str, Any]] = {
    413: {"model": ErrorBody, "description": "The file is over the upload limit"},
    415: {"model": ErrorBody, "description": "Not a JPEG, PNG, WebP or HEIC image"},
}
_IMAGE_FILE: dict[int | str, dict[str, Any]] = {
    200: {"content": {"image/*": {}}, "description": "The image bytes"}
}
_CSV: dict[int | str, dict[str, Any]] = {200: {"content": {"text/csv": {}}, "description": "CSV"}}
_ZIP: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/zip": {}}, "description": "A zip of the original files"}
}
_FILE_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; sandbox",
}


Service = Annotated[ImageService, Depends(provide(ImageService))]


async def _search(
    tags: Annotated[list[str], Query(max_length=50, description="Each must be on the image")] = [],  # noqa: B006
    categories: Annotated[
        list[str], Query(max_length=50, description="Category ids; each must be on the image")
    ] = [],  # noqa: B006
    tagsEmpty: Annotated[bool, Query(description="Images without tags")] = False,  # noqa: N803
    categoriesEmpty: Annotated[bool, Query(description="Images without categories")] = False,  # noqa: N803
    uploader: Annotated[str, Query(max_length=24, description="Uploaded by this user id")] = "",
    search: Annotated[str, Query(max_length=200, description="Text in comment, tags")] = "",
    partial: Annotated[bool, Query(description="Tags match as parts, any case")] = False,
    dateStart: Annotated[UtcDateTime | None, Query(description="Taken at or after")] = None,  # noqa: N803
    dateEnd: Annotated[UtcDateTime | None, Query(description="Taken at or before")] = None,  # noqa: N803
    any_of: Annotated[bool, Query(alias="or", description="Any condition is enough")] = False,
) -> ImageSearch:
    return ImageSearch(
        tags=tuple(t for t in (t.strip() for t in tags) if t),
        categories=tuple(c for c in (c.strip() for c in categories) if c),
        tags_empty=tagsEmpty,
        categories_empty=categoriesEmpty,
        uploader=uploader.strip(),
        search=search.strip(),
        partial=partial,
        date_start=dateStart,
        date_end=dateEnd,
        any_of=any_of,
    )


Search = Annotated[ImageSearch, Depends(_search)]


Sort = Annotated[str, Query(max_length=64, description="timestamp or timeCreated, '-' descends")]


async def _paging(
    limit: Annotated[int, Query(ge=1, le=MAX_LIMIT, description="Images per page")] = 25,
    page: Annotated[int, Query(ge=0, le=MAX_PAGE, description="Zero-based page")] = 0,
    sort: Sort = "",
) -> ListParams:
    return ListParams(limit=limit, page=page, sort=sort, search="", search2="")


Paging = Annotated[ListParams, Depends(_paging)]


def _file(served: Served) -> StreamingResponse:
    return StreamingResponse(
        served.chunks,
        media_type=served.content_type,
        headers={
            **_FILE_HEADERS,
            "Content-Length": str(served.length),
            "Content-Disposition": served.filename,
            "Cache-Control": "private, max-age=86400",
        },
    )


def _download(chunks: AsyncIterator[bytes], media_type: str, name: str) -> StreamingResponse:
    return StreamingResponse(
        chunks,
        media_type=media_type,
        headers={**_FILE_HEADERS, "Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get("", response_model=list[ImageRead])
async def list_images(
    principal: SignedIn, service: Service, query: Search, paging: Paging, response: Response
) -> list[ImageRead]:
    """Images matching the search query, newest upload first; total in x-total-count."""
    images, total = await service.list_page(principal, query, paging)
    set_total(response, total)
    return images


@router.post("", response_model=ImageRead, status_code=201, responses=_UPLOAD_ERRORS)
async def upload_image(
    principal: Annotated[Principal, allowed("images", "create")],
    service: Service,
    file: Annotated[
        UploadFile,
        File(description=f"JPEG, PNG, WebP or HEIC, up to {MAX_UPLOAD_BYTES // 1048576} MiB"),
    ],
    tags: Annotated[list[str], Form(description="Tags (repeatable)")] = [],  # noqa: B006
    categories: Annotated[list[str], Form(description="Category ids (repeatable)")] = [],  # noqa: B006
    thing: Annotated[str | None, Form(description="Add it to this thing's photos")] = None,
    category: Annotated[
        str | None, Form(description="File it under this category (with thing: Things)")
    ] = None,
) -> ImageRead:
    """Upload a photo; its type is read from its bytes, EXIF read, thumbnails made once."""
    return await service.upload(principal, file, tags, categories, thing or None, category or None)


@router.delete("", response_model=Count)
async def delete_images_by_query(
    principal: Annotated[Principal, allowed("images", "delete")], service: Service, query: Search
) -> Count:
    """Delete every image matching the search query (which must not be empty)."""
    return await service.delete_by_query(principal, query)


@router.get("/uploaders", response_model=list[Uploader])
async def list_uploaders(principal: SignedIn, service: Service) -> list[Uploader]:
    """Users who uploaded images: id and username."""
    return await service.uploaders(principal)


@router.get("/tags", response_model=list[str])
async def list_image_tags(
    principal: SignedIn,
    service: Service,
    prefix: Annotated[
        str, Query(max_length=200, description="Tags starting with it, any case")
    ] = "",
    limit: Annotated[int, Query(ge=1, le=MAX_TAGS, description="At most this many")] = 20,
) -> list[str]:
    """The organization's image tags, most used first, for suggestions while typing."""
    return await service.tags(principal, prefix.strip(), limit)


@router.get("/uploaders/{user_id}", response_model=Uploader)
async def get_uploader(user_id: str, principal: SignedIn, service: Service) -> Uploader:
    """An uploader's username by user id."""
    return await service.uploader(principal, user_id)


@router.post("/edit", response_model=Count)
async def bulk_edit_images(
    body: BulkEdit,
    principal: Annotated[Principal, allowed("images", "modify")],
    service: Service,
    query: Search,
) -> Count:
    """Add or remove tags and categories on the selected images, else on the search."""
    return await service.bulk_edit(principal, body, query)


@router.get("//csv", responses=_CSV, response_class=StreamingResponse)
async def export_search_csv(principal: SignedIn, service: Service, query: Search) -> Any:
    """CSV of the images matching the search query (streamed)."""
    return _download(await service.export_csv(principal, None, query), "text/csv", "images.csv")


@router.get("//zip", responses=_ZIP, response_class=StreamingResponse)
async def export_search_zip(principal: SignedIn, service: Service, query: Search) -> Any:
    """Zip of the original files matching the search query (streamed), named {id}.{format}."""
    return _download(
        await service.export_zip(principal, None, query), "application/zip", "images.zip"
    )


@router.get("/{ids}/csv", responses=_CSV, response_class=StreamingResponse)
async def export_selection_csv(
    ids: str, principal: SignedIn, service: Service, query: Search
) -> Any:
    """CSV of the selected images (comma-separated ids, at most 500)."""
    return _download(await service.export_csv(principal, ids, query), "text/csv", "images.csv")


@router.get("/{ids}/zip", responses=_ZIP, response_class=StreamingResponse)
async def export_selection_zip(
    ids: str, principal: SignedIn, service: Service, query: Search
) -> Any:
    """Zip of the selected images' original files (comma-separated ids, at most 500)."""
    return _download(
        await service.export_zip(principal, ids, query), "application/zip", "images.zip"
    )


@router.get("/{image_id}", responses=_IMAGE_FILE, response_class=StreamingResponse)
async def get_image(
    image_id: str,
    principal: SignedIn,
    service: Service,
    download: Annotated[bool, Query(description="Offer it as a download")] = False,
) -> Any:
    """The original file, as uploaded, with nosniff and a content disposition."""
    return _file(await service.file(principal, image_id, "original", download))


@router.get("/{image_id}/thumb", responses=_IMAGE_FILE, response_class=StreamingResponse)
async def get_thumb(image_id: str, principal: SignedIn, service: Service) -> Any:
    """An upright JPEG at most 800 px on its longest side."""
    return _file(await service.file(principal, image_id, "thumb", False))


@router.get("/{image_id}/mini", responses=_IMAGE_FILE, response_class=StreamingResponse)
async def get_mini(image_id: str, principal: SignedIn, service: Service) -> Any:
    """An upright JPEG at most 200 px on its longest side."""
    return _file(await service.file(principal, image_id, "mini", False))


@router.get("/{image_id}/meta", response_model=ImageRead)
async def get_image_meta(image_id: str, principal: SignedIn, service: Service) -> ImageRead:
    """The image object: times, location, comment, tags, categories, size, EXIF data."""
    return await service.get(principal, image_id)


@router.get("/{image_id}/neighbours", response_model=Neighbours)
async def get_image_neighbours(
    image_id: str, principal: SignedIn, service: Service, query: Search, sort: Sort = ""
) -> Neighbours:
    """The images before and after this one in the gallery's order for the search query."""
    return await service.neighbours(principal, image_id, query, sort)


@router.put("/{image_id}/meta", response_model=ImageRead)
async def update_image_meta(
    image_id: str,
    body: ImageWrite,
    principal: Annotated[Principal, allowed("images", "modify")],
    service: Service,
) -> ImageRead:
    """Save the comment, tags, categories and (when given) the location."""
    return await service.update(principal, image_id, body)


@router.delete("/{ids}", status_code=204)
async def delete_images(
    ids: str, principal: Annotated[Principal, allowed("images", "delete")], service: Service
) -> None:
    """Delete one image, or several (comma-separated ids, at most 500); their files go too."""
    await service.delete(principal, ids)
