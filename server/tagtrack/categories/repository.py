from collections.abc import Sequence

from sqlalchemy import func, select, update

from tagtrack.kit.lists import ListParams, paginate
from tagtrack.kit.repository import Repository
from tagtrack.models import Image, ImageCategory
from tagtrack.models.image import THINGS_CATEGORY


class CategoryRepository(Repository[ImageCategory]):
    model = ImageCategory

    async def list_page(
        self, org_id: str, params: ListParams
    ) -> tuple[Sequence[ImageCategory], int]:
        return await paginate(
            self.session,
            select(ImageCategory).where(ImageCategory.org_id == org_id),
            params,
            sortable={"name": ImageCategory.name, "description": ImageCategory.description},
            default_sort="name",
            searchable=[ImageCategory.name, ImageCategory.description],
            tiebreak=ImageCategory.id,
        )

    async def all(self, org_id: str, include_hidden: bool) -> Sequence[ImageCategory]:
        stmt = select(ImageCategory).where(ImageCategory.org_id == org_id)
        if not include_hidden:
            stmt = stmt.where(ImageCategory.hidden.is_(False))
        stmt = stmt.order_by(func.lower(ImageCategory.name), ImageCategory.id)
        return (await self.session.execute(stmt)).scalars().all()

    async def get(self, org_id: str, category_id: str) -> ImageCategory | None:
        stmt = select(ImageCategory).where(
            ImageCategory.org_id == org_id, ImageCategory.id == category_id
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def by_name(self, org_id: str, name: str) -> ImageCategory | None:
        stmt = select(ImageCategory).where(
            ImageCategory.org_id == org_id, ImageCategory.name == name
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def names(self, org_id: str, ids: Sequence[str]) -> dict[str, str]:
        """Names of these categories of the organization, by id."""
        if not ids:
            return {}
        stmt = select(ImageCategory.id, ImageCategory.name).where(
            ImageCategory.org_id == org_id, ImageCategory.id.in_(list(set(ids)))
        )
        return {row.id: row.name for row in (await self.session.execute(stmt)).all()}

    async def name_taken(self, org_id: str, name: str, except_id: str | None) -> bool:
        stmt = select(ImageCategory.id).where(
            ImageCategory.org_id == org_id, func.lower(ImageCategory.name) == name.lower()
        )
        if except_id:
            stmt = stmt.where(ImageCategory.id != except_id)
        return await self.exists(stmt)

    async def seed_default(self, org_id: str) -> None:
        """The category the thing Photo tab files photos under."""
        if await self.by_name(org_id, THINGS_CATEGORY) is None:
            await self.add(
                ImageCategory(
                    org_id=org_id, name=THINGS_CATEGORY, description="Photos of items and workers"
                )
            )

    async def image_count(self, org_id: str, category_id: str) -> int:
        stmt = select(func.count()).where(
            Image.org_id == org_id, Image.category_ids.contains([category_id])
        )
        return int((await self.session.execute(stmt)).scalar_one())

    async def remove_from_images(self, org_id: str, category_id: str) -> None:
        await self.session.execute(
            update(Image)
            .where(Image.org_id == org_id, Image.category_ids.contains([category_id]))
            .values(category_ids=func.array_remove(Image.category_ids, category_id))
        )
