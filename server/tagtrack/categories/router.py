from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response

from tagtrack.access.dependencies import SignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.categories.schemas import CategoryRead, CategoryUsage, CategoryWrite
from tagtrack.categories.service import CategoryService
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.lists import Listing, set_total
from tagtrack.kit.wiring import provide

router = APIRouter(prefix="/image-categories", tags=["image-categories"], responses=ERROR_RESPONSES)
pickers = APIRouter(tags=["image-categories"], responses=ERROR_RESPONSES)


Service = Annotated[CategoryService, Depends(provide(CategoryService))]


@router.get("", response_model=list[CategoryRead])
async def list_categories(
    principal: SignedIn, service: Service, params: Listing, response: Response
) -> list[CategoryRead]:
    """Image categories of the organization, by name by default; total in x-total-count."""
    rows, total = await service.list_page(principal, params)
    set_total(response, total)
    return rows


@router.get("/{category_id}", response_model=CategoryRead)
async def get_category(category_id: str, principal: SignedIn, service: Service) -> CategoryRead:
    """One image category."""
    return await service.get(principal, category_id)


@router.get("/{category_id}/usage", response_model=CategoryUsage)
async def category_usage(category_id: str, principal: SignedIn, service: Service) -> CategoryUsage:
    """How many images carry the category (said before deleting it removes it from them)."""
    return await service.usage(principal, category_id)


@router.post("", response_model=CategoryRead, status_code=201)
async def create_category(
    body: CategoryWrite,
    principal: Annotated[Principal, allowed("image-categories", "create")],
    service: Service,
) -> CategoryRead:
    """Create a category (name required, unique ignoring case); answers its id and name."""
    return await service.create(principal, body)


@router.put("/{category_id}", response_model=CategoryRead)
async def update_category(
    category_id: str,
    body: CategoryWrite,
    principal: Annotated[Principal, allowed("image-categories", "modify")],
    service: Service,
) -> CategoryRead:
    """Replace a category's name, description and hidden flag."""
    return await service.update(principal, category_id, body)


@router.delete("/{category_id}", status_code=204)
async def delete_category(
    category_id: str,
    principal: Annotated[Principal, allowed("image-categories", "delete")],
    service: Service,
) -> None:
    """Delete a category; images keep everything else and lose only this category."""
    await service.delete(principal, category_id)


@pickers.get("/categories", response_model=list[CategoryRead])
async def all_categories(
    principal: SignedIn,
    service: Service,
    hidden: Annotated[bool, Query(description="Include hidden categories")] = False,
) -> list[CategoryRead]:
    """Every image category for pickers, by name, unpaged; hidden ones only when asked."""
    return await service.all(principal, hidden)
