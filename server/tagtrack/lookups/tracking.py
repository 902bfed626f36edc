"""Pieces the tracking packages share: the `site` list filter, coordinates, the unset time."""

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import Query
from pydantic import AfterValidator, BeforeValidator, Field

from tagtrack.auth.principal import Principal
from tagtrack.core.errors import BadRequest, NotFound
from tagtrack.models.ids import ALL_SITES_ID, is_id
from tagtrack.kit.schemas import Id
from tagtrack.models import Site
from tagtrack.sites.service import SiteService

# Times a thing or endpoint never had serialise as this (DESIGN section 4).
UNSET_TIME = datetime(1, 1, 1, tzinfo=UTC)

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
    """The site ids a list may show; None means every site of the organisation."""
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


def or_unset(value: datetime | None) -> datetime:
    return value if value is not None else UNSET_TIME


def _empty_as_none(value: Any) -> Any:
    return None if value == "" else value


FiniteFloat = Annotated[float, Field(allow_inf_nan=False)]
XY = Annotated[list[FiniteFloat], Field(min_length=2, max_length=2, description="[x, y]")]


def _in_picture(xy: list[float]) -> list[float]:
    if any(not 0 <= v <= 1 for v in xy):
        raise ValueError("x and y are fractions of the map picture, from 0 to 1")
    return xy


# A position on a map: fractions of its picture, [0, 0] meaning not placed.
FractionXY = Annotated[
    XY,
    AfterValidator(_in_picture),
    Field(description="[x, y] fractions of the map picture from its top-left, each 0 to 1"),
]
# An optional reference to another row: "" and null both mean none.
OptionalRef = Annotated[Id | None, BeforeValidator(_empty_as_none)]


def default_xy() -> list[float]:
    return [0.0, 0.0]
