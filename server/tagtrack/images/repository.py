from collections.abc import AsyncIterator, Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    and_,
    delete,
    false,
    func,
    literal_column,
    or_,
    select,
    true,
    update,
)

from tagtrack.images.schemas import ImageSearch
from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Image, Thing, User

# Joins tags for substring search; a tag never holds it.
_TAG_SEPARATOR = "\x1f"
_STREAM_BATCH = 200
# The gallery's order: these fields, ties broken by id descending (as paginate does).
SORTABLE = {"timestamp": Image.timestamp, "timeCreated": Image.time_created}
DEFAULT_SORT = "-timeCreated"


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _like(text: str) -> str:
    return f"%{_escape(text)}%"


def search_condition(query: ImageSearch) -> ColumnElement[bool]:
    """The SQL condition of an image search query (without the organization)."""
    fields: list[ColumnElement[bool]] = []
    joined_tags = func.array_to_string(Image.tags, _TAG_SEPARATOR)
    for tag in query.tags:
        if query.partial:
            fields.append(joined_tags.ilike(_like(tag.replace(_TAG_SEPARATOR, "")), escape="\\"))
        else:
            fields.append(Image.tags.contains([tag]))
    for category_id in query.categories:
        fields.append(Image.category_ids.contains([category_id]))
    if query.tags_empty:
        fields.append(func.cardinality(Image.tags) == 0)
    if query.categories_empty:
        fields.append(func.cardinality(Image.category_ids) == 0)
    if query.uploader:
        fields.append(Image.uploader_id == query.uploader)
    if query.search:
        pattern = _like(query.search)
        fields.append(
            or_(
                Image.annotation.ilike(pattern, escape="\\"),
                joined_tags.ilike(pattern, escape="\\"),
                Image.device.ilike(pattern, escape="\\"),
                Image.original_name.ilike(pattern, escape="\\"),
            )
        )
    condition: ColumnElement[bool] = true()
    if fields:
        condition = or_(*fields) if query.any_of else and_(*fields)
    if query.date_start is not None:
        condition = and_(condition, Image.timestamp >= query.date_start)
    if query.date_end is not None:
        condition = and_(condition, Image.timestamp <= query.date_end)
    return condition


class ImageRepository(Repository[Image]):
    model = Image

    @staticmethod
    def _where(org_id: str, ids: Sequence[str] | None, query: ImageSearch | None) -> Any:
        stmt = select(Image).where(Image.org_id == org_id)
        if ids is not None:
            stmt = stmt.where(Image.id.in_(list(ids)) if ids else false())
        if query is not None:
            stmt = stmt.where(search_condition(query))
        return stmt

    async def list_page(
        self, org_id: str, query: ImageSearch, params: ListParams
    ) -> tuple[Sequence[Image], int]:
        return await paginate(
            self.session,
            self._where(org_id, None, query),
            params,
            sortable=SORTABLE,
            default_sort=DEFAULT_SORT,
            searchable=[],
            tiebreak=Image.id.desc(),
        )

    async def get(self, org_id: str, image_id: str) -> Image | None:
        stmt = select(Image).where(Image.org_id == org_id, Image.id == image_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def neighbour(
        self, org_id: str, image: Image, query: ImageSearch, sort: str, after: bool
    ) -> str | None:
        """Id of the matching image just after (else before) this one in the gallery's order."""
        key = sort.lstrip("-")
        column = SORTABLE[key]
        value = getattr(image, column.key)
        # Towards lower values of the sort column: after in a descending order, else before;
        # ties always go on by descending id.
        downward = sort.startswith("-") == after
        beyond = column < value if downward else column > value
        tie_id = Image.id < image.id if after else Image.id > image.id
        stmt = (
            select(Image.id)
            .where(
                Image.org_id == org_id,
                search_condition(query),
                or_(beyond, and_(column == value, tie_id)),
            )
            .order_by(
                column.desc() if downward else column.asc(),
                Image.id.desc() if after else Image.id.asc(),
            )
            .limit(1)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def tags(self, org_id: str, prefix: str, limit: int) -> list[str]:
        """The organization's image tags starting with the prefix (any case), most used first."""
        each = select(func.unnest(Image.tags).label("tag")).where(Image.org_id == org_id)
        tags = each.subquery()
        stmt = (
            select(tags.c.tag)
            .group_by(tags.c.tag)
            .order_by(func.count().desc(), func.lower(tags.c.tag), tags.c.tag)
            .limit(limit)
        )
        if prefix:
            stmt = stmt.where(tags.c.tag.ilike(f"{_escape(prefix)}%", escape="\\"))
        return list((await self.session.execute(stmt)).scalars().all())

    async def count_ids(self, org_id: str, ids: Sequence[str]) -> int:
        stmt = select(func.count()).where(Image.org_id == org_id, Image.id.in_(list(ids)))
        return int((await self.session.execute(stmt)).scalar_one())

    async def stream(
        self, org_id: str, ids: Sequence[str] | None, query: ImageSearch | None
    ) -> AsyncIterator[Image]:
        """Matching images, newest upload first, read from a cursor in small batches."""
        stmt = (
            self._where(org_id, ids, query)
            .order_by(Image.time_created.desc(), Image.id.desc())
            .execution_options(yield_per=_STREAM_BATCH)
        )
        result = await self.session.stream_scalars(stmt)
        async for image in result:
            yield image
            # Keep memory flat: forget each image once it has been handed on.
            self.session.expunge(image)

    async def delete_matching(
        self, org_id: str, ids: Sequence[str] | None, query: ImageSearch | None
    ) -> list[str]:
        """Delete the matching images; answer their ids."""
        condition = Image.org_id == org_id
        if ids is not None:
            condition = and_(condition, Image.id.in_(list(ids)))
        if query is not None:
            condition = and_(condition, search_condition(query))
        stmt = delete(Image).where(condition).returning(Image.id)
        deleted = list((await self.session.execute(stmt)).scalars().all())
        if deleted:
            # Things that showed these photos on their Photo tab forget them.
            photo = func.unnest(Thing.photo).column_valued("photo_id")
            kept = select(
                func.coalesce(func.array_agg(photo), literal_column("'{}'::varchar[]"))
            ).where(photo.not_in(deleted))
            await self.session.execute(
                update(Thing)
                .where(Thing.org_id == org_id, Thing.photo.overlap(deleted))
                .values(photo=kept.scalar_subquery())
            )
        return deleted

    async def thing(self, org_id: str, thing_id: str) -> Thing | None:
        stmt = select(Thing).where(Thing.org_id == org_id, Thing.id == thing_id)
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def uploaders(self, org_id: str) -> Sequence[Any]:
        """Users of the organization who uploaded images: id and username."""
        has_images = (
            select(Image.id).where(Image.org_id == org_id, Image.uploader_id == User.id).exists()
        )
        stmt = (
            select(User.id, User.username)
            .where(User.org_id == org_id, has_images)
            .order_by(func.lower(User.username))
        )
        return (await self.session.execute(stmt)).all()

    async def uploader(self, org_id: str, user_id: str) -> Any:
        stmt = select(User.id, User.username).where(User.org_id == org_id, User.id == user_id)
        return (await self.session.execute(stmt)).first()

    async def set_labels(
        self, org_id: str, image_id: str, tags: list[str], category_ids: list[str]
    ) -> None:
        await self.session.execute(
            update(Image)
            .where(Image.org_id == org_id, Image.id == image_id)
            .values(tags=tags, category_ids=category_ids, time_modified=func.now())
        )
