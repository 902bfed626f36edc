"""Organizations are managed by super admins; a new one gets the seeded roles
and the default image category."""

from tagtrack.access.principal import Principal
from tagtrack.access.roles import RoleRepository
from tagtrack.audit.repository import AuditRepository
from tagtrack.categories.repository import CategoryRepository
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.kit.lists import ListParams
from tagtrack.models import Organization
from tagtrack.organizations.repository import OrganizationRepository
from tagtrack.organizations.schemas import OrganizationRead, OrganizationWrite


def organization_read(org: Organization) -> OrganizationRead:
    return OrganizationRead(
        id=org.id,
        name=org.name,
        subdomain=org.subdomain,
        oktaEnabled=org.okta_enabled,
        entraEnabled=org.entra_enabled,
        historyRetentionDays=org.history_retention_days,
        timeCreated=org.time_created,
    )


class OrganizationService:
    def __init__(
        self,
        repository: OrganizationRepository,
        roles: RoleRepository,
        categories: CategoryRepository,
        audit: AuditRepository,
    ) -> None:
        self.repository = repository
        self.roles = roles
        self.categories = categories
        self.audit = audit

    async def list_page(self, params: ListParams) -> tuple[list[OrganizationRead], int]:
        orgs, total = await self.repository.list_page(params)
        return [organization_read(o) for o in orgs], total

    async def _get(self, org_id: str) -> Organization:
        org = await self.repository.get(org_id)
        if org is None:
            raise NotFound("Organization not found")
        return org

    async def get(self, org_id: str) -> OrganizationRead:
        return organization_read(await self._get(org_id))

    async def _unique(self, subdomain: str, except_id: str | None) -> None:
        if await self.repository.subdomain_taken(subdomain, except_id):
            raise BadRequest(
                f"The subdomain '{subdomain}' is already used (duplicate)", reason="duplicate"
            )

    async def create_organization(self, name: str, subdomain: str) -> Organization:
        """Create an organization with its seeded roles (also used at first start)."""
        org = await self.repository.add(Organization(name=name, subdomain=subdomain))
        await self.roles.seed_org_roles(org.id)
        await self.categories.seed_default(org.id)
        return org

    async def create(self, principal: Principal, body: OrganizationWrite) -> OrganizationRead:
        await self._unique(body.subdomain, None)
        org = await self.create_organization(body.name, body.subdomain)
        org.okta_enabled = body.oktaEnabled
        org.entra_enabled = body.entraEnabled
        org.history_retention_days = body.historyRetentionDays
        await self._audit(principal, "organization.created", org)
        return organization_read(org)

    async def _audit(self, principal: Principal, action: str, org: Organization) -> None:
        detail = {
            "subdomain": org.subdomain,
            "oktaEnabled": org.okta_enabled,
            "entraEnabled": org.entra_enabled,
            "historyRetentionDays": org.history_retention_days,
        }
        await self.audit.record(principal, action, "organization", org.id, org.name, detail)

    async def update(
        self, principal: Principal, org_id: str, body: OrganizationWrite
    ) -> OrganizationRead:
        org = await self._get(org_id)
        await self._unique(body.subdomain, org.id)
        org.name = body.name
        org.subdomain = body.subdomain
        org.okta_enabled = body.oktaEnabled
        org.entra_enabled = body.entraEnabled
        org.history_retention_days = body.historyRetentionDays
        await self._audit(principal, "organization.updated", org)
        return organization_read(org)

    async def delete(self, principal: Principal, org_id: str) -> None:
        org = await self._get(org_id)
        if org.id == principal.org_id:
            raise BadRequest("You cannot delete your own organization", reason="own organization")
        await self.repository.delete(org)
        await self._audit(principal, "organization.deleted", org)
