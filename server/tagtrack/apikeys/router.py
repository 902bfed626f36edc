from typing import Annotated

from fastapi import APIRouter, Depends, Response

from tagtrack.access.dependencies import allowed
from tagtrack.access.principal import Principal
from tagtrack.apikeys.schemas import ApiKeyCreate, ApiKeyRead
from tagtrack.apikeys.service import ApiKeyService
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.lists import Listing, set_total
from tagtrack.kit.wiring import provide

router = APIRouter(prefix="/apikeys", tags=["apikeys"], responses=ERROR_RESPONSES)


Service = Annotated[ApiKeyService, Depends(provide(ApiKeyService))]
CanCreate = Annotated[Principal, allowed("apikeys", "create")]
# The console's rule: deleting a key needs the modify right on apikeys.
CanModify = Annotated[Principal, allowed("apikeys", "modify")]


@router.get("", response_model=list[ApiKeyRead])
async def list_api_keys(
    principal: CanCreate, service: Service, params: Listing, response: Response
) -> list[ApiKeyRead]:
    """Keys of the organization (tokens shown by their start only); total in x-total-count."""
    keys, total = await service.list_page(principal, params)
    set_total(response, total)
    return keys


@router.get("/{key_id}", response_model=ApiKeyRead)
async def get_api_key(key_id: str, principal: CanCreate, service: Service) -> ApiKeyRead:
    """One key (its token shown by its start only)."""
    return await service.get(principal, key_id)


@router.post("", response_model=ApiKeyRead, status_code=201)
async def create_api_key(body: ApiKeyCreate, principal: CanCreate, service: Service) -> ApiKeyRead:
    """Create a key; the answer holds the whole token, shown this once (only its hash is kept).

    Send it as `Authorization: Bearer <token>`: the key has exactly the rights of its roles
    within its sites. Roles and sites need at least one item each; Super Admin is refused.
    Keys cannot be changed: delete one and create another.
    """
    return await service.create(principal, body)


@router.delete("/{key_id}", status_code=204)
async def delete_api_key(key_id: str, principal: CanModify, service: Service) -> None:
    """Delete a key; it is refused from the next call on."""
    await service.delete(principal, key_id)
