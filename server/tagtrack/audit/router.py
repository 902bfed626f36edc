from typing import Annotated

from fastapi import APIRouter, Depends, Response

from tagtrack.access.dependencies import allowed
from tagtrack.access.principal import Principal
from tagtrack.audit.schemas import AuditEntryRead, AuditFilter
from tagtrack.audit.service import AuditService
from tagtrack.core.errors import ERROR_RESPONSES
from tagtrack.kit.lists import Listing, set_total
from tagtrack.kit.wiring import provide

router = APIRouter(tags=["audit"], responses=ERROR_RESPONSES)


Service = Annotated[AuditService, Depends(provide(AuditService))]
# Administrators: the modify right on the organization settings.
Administrator = Annotated[Principal, allowed("orgsettings", "modify")]


@router.get("/auditlog", response_model=list[AuditEntryRead])
async def list_audit_log(
    principal: Administrator,
    service: Service,
    filters: AuditFilter,
    params: Listing,
    response: Response,
) -> list[AuditEntryRead]:
    """The organization's audit log, newest first (administrators: modify on orgsettings).

    Actions: login, login.failed, logout, sso.login, sso.login.failed, password.reset,
    password.changed, user.created, user.updated, user.deleted, user.reset.sent,
    apikey.created, apikey.deleted, ssosettings.updated, organization.created,
    organization.updated, organization.deleted, orgsettings.updated, site.created,
    site.updated, site.deleted, sitesettings.updated, `<feature>.exported` for exports, and
    mail.failed, mail.given_up for mail the server could not deliver yet or at all.
    Entries carry actor, organization, time and client; never a password, token or secret.
    """
    entries, total = await service.list_page(principal, filters, params)
    set_total(response, total)
    return entries
