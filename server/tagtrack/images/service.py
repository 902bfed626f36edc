from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from fastapi import BackgroundTasks, UploadFile
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.access.principal import Principal
from tagtrack.audit.repository import AuditRepository
from tagtrack.categories.repository import CategoryRepository
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.core.logging import get_logger
from tagtrack.core.text import comma_list
from tagtrack.images.exports import Entry, csv_stream, zip_stream
from tagtrack.images.processing import (
    MAX_UPLOAD_BYTES,
    BadImage,
    Processed,
    process_photo,
    upload_error,
)
from tagtrack.images.repository import DEFAULT_SORT, SORTABLE, ImageRepository
from tagtrack.images.schemas import (
    BulkEdit,
    CategoryRef,
    CloudPhoto,
    Count,
    ExifData,
    ImageRead,
    ImageSearch,
    ImageSize,
    ImageWrite,
    Location,
    Neighbours,
    Uploader,
    clean_tags,
)
from tagtrack.images.storage import EXPORT_CHUNK, Storage, Variant, image_key
from tagtrack.kit.lists import ListParams
from tagtrack.models import Image
from tagtrack.models.base import utcnow
from tagtrack.models.ids import is_id, new_id
from tagtrack.models.image import THINGS_CATEGORY

log = get_logger("tagtrack.images")

# Ids travel in the path: 500 of them keep the request line well under servers' limits.
MAX_SELECTION = 500
_VARIANTS: tuple[Variant, ...] = ("original", "thumb", "mini")


@dataclass(frozen=True)
class Served:
    """Bytes to send: chunks, type, length and the file name to offer."""

    chunks: AsyncIterator[bytes]
    content_type: str
    length: int
    filename: str


def parse_ids(text: str) -> list[str]:
    """A comma-separated selection of image ids."""
    ids = list(dict.fromkeys(comma_list(text)))
    if not ids:
        raise BadRequest("Select at least one image", reason="empty selection")
    if len(ids) > MAX_SELECTION:
        raise BadRequest(f"Select at most {MAX_SELECTION} images", reason="selection too large")
    bad = [i for i in ids if not is_id(i)]
    if bad:
        raise NotFound(f"Image {bad[0][:40]} not found")
    return ids


def image_read(image: Image, names: dict[str, str]) -> ImageRead:
    return ImageRead(
        id=image.id,
        uploader=image.uploader_id,
        timestamp=image.timestamp,
        timeCreated=image.time_created,
        location=Location(coordinates=[image.longitude, image.latitude]),
        annotation=image.annotation,
        tags=list(image.tags),
        categories=[CategoryRef(id=c, name=names.get(c, "")) for c in image.category_ids],
        cloud_photos=[
            CloudPhoto(
                bytes=image.byte_size,
                size=ImageSize(X=image.width, Y=image.height),
                format=image.format,
            )
        ],
        exif_data=ExifData(
            orientation=image.orientation, device=image.device, dateTimeOriginal=image.taken_at
        ),
        name=image.original_name,
    )


class ImageService:
    def __init__(
        self,
        repository: ImageRepository,
        categories: CategoryRepository,
        storage: Storage,
        sessionmaker: async_sessionmaker[AsyncSession],
        background: BackgroundTasks,
        audit: AuditRepository,
    ) -> None:
        self.repository = repository
        self.categories = categories
        self.storage = storage
        self.sessionmaker = sessionmaker
        self.background = background
        self.audit = audit

    async def _reads(self, principal: Principal, images: Sequence[Image]) -> list[ImageRead]:
        names = await self.categories.names(
            principal.org_id, [c for i in images for c in i.category_ids]
        )
        return [image_read(i, names) for i in images]

    async def _get(self, principal: Principal, image_id: str) -> Image:
        image = await self.repository.get(principal.org_id, image_id) if is_id(image_id) else None
        if image is None:
            raise NotFound("Image not found")
        return image

    async def list_page(
        self, principal: Principal, query: ImageSearch, params: ListParams
    ) -> tuple[list[ImageRead], int]:
        images, total = await self.repository.list_page(principal.org_id, query, params)
        return await self._reads(principal, images), total

    async def get(self, principal: Principal, image_id: str) -> ImageRead:
        return (await self._reads(principal, [await self._get(principal, image_id)]))[0]

    async def neighbours(
        self, principal: Principal, image_id: str, query: ImageSearch, sort: str
    ) -> Neighbours:
        image = await self._get(principal, image_id)
        sort = sort or DEFAULT_SORT
        if sort.lstrip("-") not in SORTABLE:
            raise BadRequest(
                f"Cannot sort by '{sort.lstrip('-')}'; sortable fields: {', '.join(SORTABLE)}",
                reason="invalid sort",
            )
        org_id = principal.org_id
        return Neighbours(
            previous=await self.repository.neighbour(org_id, image, query, sort, after=False),
            next=await self.repository.neighbour(org_id, image, query, sort, after=True),
        )

    async def tags(self, principal: Principal, prefix: str, limit: int) -> list[str]:
        return await self.repository.tags(principal.org_id, prefix, limit)

    async def _category_ids(self, principal: Principal, ids: Sequence[str]) -> list[str]:
        wanted = list(dict.fromkeys(ids))
        known = await self.categories.names(principal.org_id, wanted)
        missing = [c for c in wanted if c not in known]
        if missing:
            raise BadRequest(f"Category {missing[0]} not found", reason="unknown category")
        return wanted

    async def upload(
        self,
        principal: Principal,
        file: UploadFile,
        tags: Sequence[str],
        categories: Sequence[str],
        thing_id: str | None,
        category_id: str | None,
    ) -> ImageRead:
        data = await file.read(MAX_UPLOAD_BYTES + 1)
        try:
            processed: Processed = await process_photo(data)
        except BadImage as exc:
            raise upload_error(exc) from exc
        category_ids = list(categories) + ([category_id] if category_id else [])
        thing = None
        if thing_id:
            thing = await self.repository.thing(principal.org_id, thing_id)
            if thing is None or not principal.sees_site(thing.site_id):
                raise NotFound("Thing not found")
            if not category_id:
                things = await self.categories.by_name(principal.org_id, THINGS_CATEGORY)
                if things is not None:
                    category_ids.append(things.id)
        category_ids = await self._category_ids(principal, category_ids)
        image = await self.store_photo(
            principal.org_id,
            principal.user_id,
            data,
            processed,
            name=file.filename or "",
            tags=tags,
            category_ids=category_ids,
        )
        if thing is not None:
            thing.photo = [*thing.photo, image.id]
        return (await self._reads(principal, [image]))[0]

    async def store_photo(
        self,
        org_id: str,
        uploader_id: str | None,
        data: bytes,
        processed: Processed,
        *,
        name: str,
        tags: Sequence[str],
        category_ids: list[str],
        annotation: str = "",
    ) -> Image:
        """Store a checked photo and its thumbnails, then its row; nothing is left on failure."""
        image_id = new_id()
        key = image_key(org_id, image_id, "original")
        now = utcnow()
        image = Image(
            id=image_id,
            org_id=org_id,
            uploader_id=uploader_id,
            timestamp=processed.taken_at or now,
            time_created=now,
            time_modified=now,
            longitude=processed.longitude,
            latitude=processed.latitude,
            annotation=annotation,
            tags=clean_tags(list(tags)),
            category_ids=category_ids,
            storage_key=key,
            content_type=processed.content_type,
            format=processed.format,
            byte_size=len(data),
            width=processed.width,
            height=processed.height,
            orientation=processed.orientation,
            device=processed.device,
            taken_at=processed.taken_at,
            original_name=name[:255],
        )
        try:
            await self.storage.put(key, data)
            await self.storage.put(image_key(org_id, image_id, "thumb"), processed.thumb)
            await self.storage.put(image_key(org_id, image_id, "mini"), processed.mini)
            await self.repository.add(image)
        except BaseException:
            await self._remove_files(org_id, [image_id])
            raise
        return image

    async def update(self, principal: Principal, image_id: str, body: ImageWrite) -> ImageRead:
        image = await self._get(principal, image_id)
        image.annotation = body.annotation
        image.tags = list(body.tags)
        image.category_ids = await self._category_ids(principal, [c.id for c in body.categories])
        if body.location is not None:
            image.longitude, image.latitude = body.location.coordinates
        image.time_modified = utcnow()
        return (await self._reads(principal, [image]))[0]

    async def bulk_edit(self, principal: Principal, body: BulkEdit, query: ImageSearch) -> Count:
        if body.ids is None and query.empty:
            raise BadRequest("Select images or search first", reason="empty query")
        if body.ids is not None:
            await self._check_selection(principal, body.ids)
        add = await self._category_ids(principal, body.addCategories)
        remove = set(body.removeCategories)
        remove_tags = set(body.removeTags)
        matching = [
            (image.id, list(image.tags), list(image.category_ids))
            async for image in self.repository.stream(
                principal.org_id, body.ids, None if body.ids is not None else query
            )
        ]
        for image_id, tags, categories in matching:
            kept_tags = [t for t in tags if t not in remove_tags]
            kept_categories = [c for c in categories if c not in remove]
            await self.repository.set_labels(
                principal.org_id,
                image_id,
                clean_tags(kept_tags + body.addTags),
                list(dict.fromkeys(kept_categories + add)),
            )
        count = len(matching)
        return Count(count=count)

    async def _check_selection(self, principal: Principal, ids: Sequence[str]) -> None:
        if await self.repository.count_ids(principal.org_id, ids) != len(set(ids)):
            raise NotFound("Image not found")

    async def _remove_files(self, org_id: str, image_ids: Sequence[str]) -> None:
        for image_id in image_ids:
            for variant in _VARIANTS:
                await self.storage.delete(image_key(org_id, image_id, variant))

    async def delete(self, principal: Principal, ids_text: str) -> None:
        ids = parse_ids(ids_text)
        await self._check_selection(principal, ids)
        deleted = await self.repository.delete_matching(principal.org_id, ids, None)
        # Files go once the deletion is committed (background tasks run after the answer).
        self.background.add_task(self._remove_files, principal.org_id, deleted)

    async def delete_by_query(self, principal: Principal, query: ImageSearch) -> Count:
        if query.empty:
            raise BadRequest(
                "A search is needed to delete by query; it would match every image",
                reason="empty query",
            )
        deleted = await self.repository.delete_matching(principal.org_id, None, query)
        self.background.add_task(self._remove_files, principal.org_id, deleted)
        return Count(count=len(deleted))

    async def file(
        self, principal: Principal, image_id: str, variant: Variant, download: bool
    ) -> Served:
        image = await self._get(principal, image_id)
        key = image_key(principal.org_id, image.id, variant)
        try:
            length = await self.storage.size(key)
        except FileNotFoundError as exc:
            log.error("image file missing", image=image.id, variant=variant)
            raise NotFound("The image file is missing") from exc
        if variant == "original":
            content_type, name = image.content_type, f"{image.id}.{image.format}"
        else:
            content_type, name = "image/jpeg", f"{image.id}-{variant}.jpg"
        disposition = "attachment" if download else "inline"
        return Served(
            self.storage.read(key), content_type, length, f'{disposition}; filename="{name}"'
        )

    async def uploaders(self, principal: Principal) -> list[Uploader]:
        rows = await self.repository.uploaders(principal.org_id)
        return [Uploader(id=r.id, username=r.username) for r in rows]

    async def uploader(self, principal: Principal, user_id: str) -> Uploader:
        row = await self.repository.uploader(principal.org_id, user_id)
        if row is None:
            raise NotFound("User not found")
        return Uploader(id=row.id, username=row.username)

    async def _selection(
        self, principal: Principal, ids_text: str | None, query: ImageSearch
    ) -> list[str] | None:
        if ids_text is None:
            return None
        ids = parse_ids(ids_text)
        await self._check_selection(principal, ids)
        return ids

    async def export_csv(
        self, principal: Principal, ids_text: str | None, query: ImageSearch
    ) -> AsyncIterator[bytes]:
        ids = await self._selection(principal, ids_text, query)
        await self._record_export(principal, "csv", ids)
        return csv_stream(self._csv_rows(principal.org_id, ids, query))

    async def export_zip(
        self, principal: Principal, ids_text: str | None, query: ImageSearch
    ) -> AsyncIterator[bytes]:
        ids = await self._selection(principal, ids_text, query)
        await self._record_export(principal, "zip", ids)
        return zip_stream(self._zip_entries(principal.org_id, ids, query))

    async def _record_export(self, principal: Principal, kind: str, ids: list[str] | None) -> None:
        detail = {"selected": len(ids)} if ids is not None else {"search": True}
        await self.audit.record(principal, "images.exported", "images", "", kind, detail)

    async def _csv_rows(
        self, org_id: str, ids: list[str] | None, query: ImageSearch
    ) -> AsyncIterator[Sequence[object]]:
        # Its own session: the answer streams after the request's session has closed.
        async with self.sessionmaker() as session:
            repository = ImageRepository(session)
            users = {r.id: r.username for r in await repository.uploaders(org_id)}
            names = {c.id: c.name for c in await CategoryRepository(session).all(org_id, True)}
            async for image in repository.stream(org_id, ids, query if ids is None else None):
                yield (
                    image.id,
                    image.original_name,
                    image.timestamp.isoformat(),
                    image.time_created.isoformat(),
                    users.get(image.uploader_id or "", ""),
                    image.longitude,
                    image.latitude,
                    image.annotation,
                    "; ".join(image.tags),
                    "; ".join(names.get(c, c) for c in image.category_ids),
                    image.width,
                    image.height,
                    image.format,
                    image.byte_size,
                    image.device,
                    image.orientation,
                )

    async def _zip_entries(
        self, org_id: str, ids: list[str] | None, query: ImageSearch
    ) -> AsyncIterator[Entry]:
        async with self.sessionmaker() as session:
            repository = ImageRepository(session)
            async for image in repository.stream(org_id, ids, query if ids is None else None):
                key = image_key(org_id, image.id, "original")
                try:
                    await self.storage.size(key)
                except FileNotFoundError:
                    log.error("image original missing; left out of the zip", image=image.id)
                    continue
                originals = self.storage.read(key, EXPORT_CHUNK)
                yield f"{image.id}.{image.format}", image.time_created, originals
