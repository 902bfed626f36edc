"""The `site` list filter and the site a write goes to, within the caller's scope."""

from typing import Annotated

from fastapi import Query

from tagtrack.access.principal import Principal
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.models import Site
from tagtrack.models.ids import ALL_SITES_ID, is_id
from tagtrack.sites.service import SiteService

SiteQuery = Annotated[
    str,
    Query(
        max_length=24,
        description=(
            "A site id; empty or the All Sites id 000000000000000000000000 means every site "
            "in the caller's scope. A site outside the scope answers 404."
        ),
    ),
]


def sites_in_scope(principal: Principal, site: str) -> list[str] | None:
    """The site ids a list may show; None means every site of the organization."""
    if not site or site == ALL_SITES_ID:
        return None if principal.all_sites else list(principal.site_ids)
    if not is_id(site) or not principal.sees_site(site):
        raise NotFound("Site not found")
    return [site]


def names_one_site(site: str) -> bool:
    """Whether a list's site query is one site (All Sites lists name each row's site)."""
    return bool(site) and site != ALL_SITES_ID


async def site_for_write(sites: SiteService, principal: Principal, site_id: str) -> Site:
    """The site a new or saved row goes to: one real site in the caller's scope."""
    if site_id == ALL_SITES_ID:
        raise BadRequest("site: choose one site; All Sites is not a site")
    return await sites.get_model(principal, site_id)
