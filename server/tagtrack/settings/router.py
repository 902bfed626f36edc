from typing import Annotated

from fastapi import APIRouter, Depends

from tagtrack.access.dependencies import SignedIn, allowed
from tagtrack.access.principal import Principal
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.wiring import provide
from tagtrack.settings.schemas import OrgSettingsBody, SiteSettingsBody
from tagtrack.settings.service import SettingsService

router = APIRouter(tags=["settings"], responses=ERROR_RESPONSES)


Service = Annotated[SettingsService, Depends(provide(SettingsService))]


@router.get("/orgsettings", response_model=OrgSettingsBody)
async def get_org_settings(principal: SignedIn, service: Service) -> OrgSettingsBody:
    """Organization labels and hideWorkers; empty labels mean the defaults."""
    return await service.org(principal)


@router.post("/orgsettings", response_model=OrgSettingsBody)
async def save_org_settings(
    body: OrgSettingsBody,
    principal: Annotated[Principal, allowed("orgsettings", "modify")],
    service: Service,
) -> OrgSettingsBody:
    """Save the organization settings."""
    return await service.save_org(principal, body)


@router.get("/sites/{site_id}/settings", response_model=SiteSettingsBody)
async def get_site_settings(
    site_id: str, principal: SignedIn, service: Service
) -> SiteSettingsBody:
    """Settings of one site."""
    return await service.site(principal, site_id)


@router.put("/sites/{site_id}/settings", response_model=SiteSettingsBody)
async def save_site_settings(
    site_id: str,
    body: SiteSettingsBody,
    principal: Annotated[Principal, allowed("sites", "modify")],
    service: Service,
) -> SiteSettingsBody:
    """Replace the settings of one site."""
    return await service.save_site(principal, site_id, body)
