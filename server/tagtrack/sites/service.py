from fastapi import BackgroundTasks

from tagtrack.access.principal import Principal
from tagtrack.audit.repository import AuditRepository
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.images.storage import Storage
from tagtrack.kit.lists import ListParams
from tagtrack.models import Site
from tagtrack.sites.repository import SiteRepository
from tagtrack.sites.schemas import ReportSettings, SiteRead, SiteWrite, Timezone


def site_read(site: Site) -> SiteRead:
    return SiteRead(
        id=site.id,
        name=site.name,
        description=site.description,
        startDate=site.start_date,
        addressLine1=site.address_line1,
        addressLine2=site.address_line2,
        city=site.city,
        state=site.state,
        country=site.country,
        zipcode=site.zipcode,
        timezone=Timezone(id=site.timezone),
        reportSettings=ReportSettings(dailyTime=site.report_daily_time, emails=site.report_emails),
        endpoints=[],
    )


class SiteService:
    def __init__(
        self,
        repository: SiteRepository,
        audit: AuditRepository,
        storage: Storage | None = None,
        background: BackgroundTasks | None = None,
    ) -> None:
        self.repository = repository
        self.audit = audit
        # A request removes stored files once its changes are committed.
        self.storage = storage
        self.background = background

    async def list_page(
        self, principal: Principal, params: ListParams
    ) -> tuple[list[SiteRead], int]:
        scope = None if principal.all_sites else principal.site_ids
        sites, total = await self.repository.list_page(principal.org_id, scope, params)
        return [site_read(s) for s in sites], total

    async def get_model(self, principal: Principal, site_id: str) -> Site:
        """A site of the caller's organization and scope; anything else is not found."""
        site = await self.repository.get(principal.org_id, site_id)
        if site is None or not principal.sees_site(site.id):
            raise NotFound("Site not found")
        return site

    async def get(self, principal: Principal, site_id: str) -> SiteRead:
        return site_read(await self.get_model(principal, site_id))

    async def _unique_name(self, principal: Principal, name: str, except_id: str | None) -> None:
        if await self.repository.name_taken(principal.org_id, name, except_id):
            raise BadRequest(
                f"A site named '{name}' already exists (duplicate)", reason="duplicate"
            )

    @staticmethod
    def _apply(site: Site, body: SiteWrite) -> None:
        site.name = body.name
        site.description = body.description
        site.start_date = body.startDate
        site.address_line1 = body.addressLine1
        site.address_line2 = body.addressLine2
        site.city = body.city
        site.state = body.state
        site.country = body.country
        site.zipcode = body.zipcode
        site.timezone = body.timezone.id
        site.report_daily_time = body.reportSettings.dailyTime
        site.report_emails = list(body.reportSettings.emails)

    async def create(self, principal: Principal, body: SiteWrite) -> SiteRead:
        await self._unique_name(principal, body.name, None)
        site = Site(org_id=principal.org_id)
        self._apply(site, body)
        await self.repository.add(site)
        await self.audit.record(principal, "site.created", "site", site.id, site.name)
        return site_read(site)

    async def update(self, principal: Principal, site_id: str, body: SiteWrite) -> SiteRead:
        site = await self.get_model(principal, site_id)
        await self._unique_name(principal, body.name, site.id)
        self._apply(site, body)
        await self.audit.record(principal, "site.updated", "site", site.id, site.name)
        return site_read(site)

    async def delete(self, principal: Principal, site_id: str) -> None:
        site = await self.get_model(principal, site_id)
        # Its maps go with it in the database; their floor-plan files must go too.
        plans = await self.repository.floor_plan_keys(principal.org_id, site.id)
        await self.repository.delete(site)
        if self.storage is not None and self.background is not None:
            for key in plans:
                self.background.add_task(self.storage.delete, key)
        await self.audit.record(principal, "site.deleted", "site", site.id, site.name)
