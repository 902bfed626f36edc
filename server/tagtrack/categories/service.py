from tagtrack.access.principal import Principal
from tagtrack.categories.repository import CategoryRepository
from tagtrack.categories.schemas import CategoryRead, CategoryUsage, CategoryWrite
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.kit.lists import ListParams
from tagtrack.models import ImageCategory


def category_read(category: ImageCategory) -> CategoryRead:
    return CategoryRead(
        id=category.id,
        name=category.name,
        description=category.description,
        hidden=category.hidden,
    )


class CategoryService:
    def __init__(self, repository: CategoryRepository) -> None:
        self.repository = repository

    async def list_page(
        self, principal: Principal, params: ListParams
    ) -> tuple[list[CategoryRead], int]:
        rows, total = await self.repository.list_page(principal.org_id, params)
        return [category_read(c) for c in rows], total

    async def all(self, principal: Principal, include_hidden: bool) -> list[CategoryRead]:
        rows = await self.repository.all(principal.org_id, include_hidden)
        return [category_read(c) for c in rows]

    async def _get(self, principal: Principal, category_id: str) -> ImageCategory:
        category = await self.repository.get(principal.org_id, category_id)
        if category is None:
            raise NotFound("Category not found")
        return category

    async def get(self, principal: Principal, category_id: str) -> CategoryRead:
        return category_read(await self._get(principal, category_id))

    async def usage(self, principal: Principal, category_id: str) -> CategoryUsage:
        category = await self._get(principal, category_id)
        return CategoryUsage(
            images=await self.repository.image_count(principal.org_id, category.id)
        )

    async def _unique(self, principal: Principal, name: str, except_id: str | None) -> None:
        if await self.repository.name_taken(principal.org_id, name, except_id):
            raise BadRequest(
                f"A category named '{name}' already exists (duplicate)", reason="duplicate"
            )

    async def create(self, principal: Principal, body: CategoryWrite) -> CategoryRead:
        await self._unique(principal, body.name, None)
        category = ImageCategory(
            org_id=principal.org_id,
            name=body.name,
            description=body.description,
            hidden=body.hidden,
        )
        return category_read(await self.repository.add(category))

    async def update(
        self, principal: Principal, category_id: str, body: CategoryWrite
    ) -> CategoryRead:
        category = await self._get(principal, category_id)
        await self._unique(principal, body.name, category.id)
        category.name = body.name
        category.description = body.description
        category.hidden = body.hidden
        return category_read(category)

    async def delete(self, principal: Principal, category_id: str) -> None:
        category = await self._get(principal, category_id)
        await self.repository.remove_from_images(principal.org_id, category.id)
        await self.repository.delete(category)
