from tagtrack.access.principal import Principal
from tagtrack.audit.repository import AuditRepository
from tagtrack.settings.repository import SettingsRepository
from tagtrack.settings.schemas import OrgSettingsBody, SiteSettingsBody
from tagtrack.sites.service import SiteService


class SettingsService:
    def __init__(
        self, repository: SettingsRepository, sites: SiteService, audit: AuditRepository
    ) -> None:
        self.repository = repository
        self.sites = sites
        self.audit = audit

    async def org(self, principal: Principal) -> OrgSettingsBody:
        return OrgSettingsBody.model_validate(await self.repository.org_settings(principal.org_id))

    async def save_org(self, principal: Principal, body: OrgSettingsBody) -> OrgSettingsBody:
        await self.repository.save_org_settings(principal.org_id, body.model_dump(mode="json"))
        await self.audit.record(
            principal,
            "orgsettings.updated",
            "orgsettings",
            principal.org_id,
            detail=body.model_dump(mode="json"),
        )
        return body

    async def site(self, principal: Principal, site_id: str) -> SiteSettingsBody:
        site = await self.sites.get_model(principal, site_id)
        return SiteSettingsBody.model_validate(
            await self.repository.site_settings(site.org_id, site.id)
        )

    async def save_site(
        self, principal: Principal, site_id: str, body: SiteSettingsBody
    ) -> SiteSettingsBody:
        site = await self.sites.get_model(principal, site_id)
        await self.repository.save_site_settings(
            principal.org_id, site.id, body.model_dump(mode="json")
        )
        await self.audit.record(
            principal,
            "sitesettings.updated",
            "site",
            site.id,
            site.name,
            body.model_dump(mode="json"),
        )
        return body
