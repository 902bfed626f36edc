"""Importing a workbook from the command line: rows streamed from the file, committed in
batches, through the same batch service as the console's import."""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.access.principal import Grant, Principal
from tagtrack.access.rules import RESOURCES
from tagtrack.core.config import Settings
from tagtrack.core.errors import AppError
from tagtrack.imports.repository import ImportRepository
from tagtrack.imports.rules import (
    ASSET_FIELDS,
    DEFAULT_MAPPING,
    check_mapping,
)
from tagtrack.imports.service import ImportService
from tagtrack.imports.workbook import WorkbookRefused, open_path
from tagtrack.kit.wiring import Wiring
from tagtrack.models import Site, Zone
from tagtrack.models.ids import ALL_SITES_ID
from tagtrack.settings.schemas import HeaderAssetField, SiteSettingsBody

# Rows per transaction: large enough to be fast, small enough to lose little on a failure.
BATCH_ROWS = 500


class ImportFailed(Exception):
    pass


@dataclass
class Outcome:
    total: int = 0
    uploaded: int = 0
    duplicates: int = 0
    created_categories: list[str] = field(default_factory=list)
    errors: int = 0


def _operator(org_id: str) -> Principal:
    """The command line acts with every right within the site's organization."""
    return Principal(
        user_id="",
        org_id=org_id,
        name="tagtrack import",
        username="tagtrack import",
        role_ids=(),
        site_ids=(ALL_SITES_ID,),
        grants={r: Grant(True, True, True) for r in RESOURCES},
        client="command line",
    )


def mapping_from(
    options: list[str], saved: SiteSettingsBody, headers: list[str]
) -> list[HeaderAssetField]:
    """--map HEADER=FIELD options; else the site's saved DEFAULT mapping (the headers this
    file has); else the headers named like an asset field."""
    if options:
        pairs = []
        for option in options:
            header, sep, asset_field = option.rpartition("=")
            if not sep or asset_field.strip() not in ASSET_FIELDS:
                fields = ", ".join(ASSET_FIELDS)
                raise ImportFailed(f"--map {option}: write HEADER=FIELD, FIELD one of {fields}")
            pairs.append(
                HeaderAssetField.model_validate(
                    {"header": header.strip(), "assetField": asset_field.strip()}
                )
            )
        return pairs
    for mapping in saved.importSettings.importMappings:
        if mapping.name == DEFAULT_MAPPING:
            return [m for m in mapping.headerAssetFields if m.header in headers]
    by_name = {h.strip().lower(): h for h in headers}
    return [
        HeaderAssetField.model_validate({"header": by_name[f], "assetField": f})
        for f in ASSET_FIELDS
        if f in by_name
    ]


async def _target(
    session: AsyncSession, site_text: str, zone_text: str
) -> tuple[Site, Zone | None]:
    repository = ImportRepository(session)
    sites = await repository.sites_named(site_text)
    if not sites:
        raise ImportFailed(f"No site is named or has the id '{site_text}'")
    if len(sites) > 1:
        raise ImportFailed(f"Several sites are named '{site_text}': give the site's id")
    site = sites[0]
    if not zone_text:
        return site, None
    zones = await repository.zones_named(site, zone_text)
    if not zones:
        raise ImportFailed(f"The site {site.name} has no zone named or with the id '{zone_text}'")
    if len(zones) > 1:
        raise ImportFailed(f"Several zones are named '{zone_text}': give the zone's id")
    return site, zones[0]


async def import_workbook(
    maker: async_sessionmaker[AsyncSession],
    settings: Settings,
    path: Path,
    *,
    site: str,
    zone: str = "",
    mapping_options: list[str] | None = None,
    started: Callable[[int | None], None] = lambda _: None,
    advanced: Callable[[int], None] = lambda _: None,
    failed: Callable[[str], None] = lambda _: None,
) -> Outcome:
    """Import every row of the workbook's first sheet as an item of the site."""
    async with maker() as session:
        target_site, target_zone = await _target(session, site, zone)
        saved = await Wiring(session, settings).get(ImportService).site_settings(target_site)
    try:
        sheet = open_path(path)
    except WorkbookRefused as exc:
        raise ImportFailed(exc.message) from exc
    mapping = mapping_from(mapping_options or [], saved, sheet.headers)
    try:
        check_mapping(mapping, sheet.headers)
    except AppError as exc:
        raise ImportFailed(exc.message) from exc
    if target_zone is None and saved.importSettings.requireZone:
        raise ImportFailed("Please select a zone to import assets to.")
    principal = _operator(target_site.org_id)
    outcome = Outcome()
    started(sheet.size_hint - 1 if sheet.size_hint else None)
    batch: list[list[str]] = []

    async def flush() -> None:
        rows = [dict(zip(sheet.headers, cells, strict=False)) for cells in batch]
        async with maker() as session, session.begin():
            results = (
                await Wiring(session, settings)
                .get(ImportService)
                .import_batch(
                    principal,
                    target_site.id,
                    target_zone,
                    saved,
                    mapping,
                    rows,
                    update_duplicate=True,
                )
            )
        for result in results:
            outcome.total += 1
            if result.status in ("complete", "complete duplicate"):
                outcome.uploaded += 1
                outcome.duplicates += result.status == "complete duplicate"
                outcome.created_categories += result.createdCategories
            else:
                outcome.errors += 1
                failed(f"Row {outcome.total}: Error: {result.reason}")
        advanced(len(batch))
        batch.clear()

    try:
        for cells in sheet.rows:
            batch.append(cells)
            if len(batch) >= BATCH_ROWS:
                await flush()
    except WorkbookRefused as exc:
        raise ImportFailed(f"{exc.message} (after {outcome.total} rows)") from exc
    if batch:
        await flush()
    return outcome
