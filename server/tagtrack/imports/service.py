"""Import Assets: read a workbook, keep the header mapping, turn rows into items."""

import anyio
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from tagtrack.audit.service import record
from tagtrack.auth.principal import Principal
from tagtrack.categories.repository import CategoryRepository
from tagtrack.core.config import Settings
from tagtrack.core.errors import (
    AppError,
    BadRequest,
    NotFound,
    PayloadTooLarge,
    UnsupportedMediaType,
)
from tagtrack.events.repository import EventRepository
from tagtrack.events.schemas import ManualEvent
from tagtrack.events.service import EventService
from tagtrack.imports.repository import ImportRepository
from tagtrack.imports.rules import (
    NO_NAME,
    RowFields,
    check_mapping,
    duplicate_candidates,
    fill_missing,
    generated_tag,
    row_fields,
)
from tagtrack.imports.schemas import ImportRow, ImportRowResult, ParsedSheet, SheetRow
from tagtrack.imports.workbook import WorkbookRefused, read_all
from tagtrack.lookups.tracking import site_for_write
from tagtrack.models import ImageCategory, Site, Thing, Zone
from tagtrack.settings.repository import SettingsRepository
from tagtrack.settings.schemas import ImportMapping, SiteSettingsBody
from tagtrack.sites.repository import SiteRepository
from tagtrack.sites.service import SiteService
from tagtrack.things.repository import ThingRepository
from tagtrack.things.schemas import CommonCreate, CommonUpdate, ThingCreate, ThingRead, ThingUpdate
from tagtrack.things.service import ThingService
from tagtrack.things.tags import normalize_tag, normalize_tags

# Workbooks read at once: each may take a few hundred MB while it is read.
_readers = anyio.CapacityLimiter(2)


def refused(exc: WorkbookRefused) -> AppError:
    if exc.reason == "too large":
        return PayloadTooLarge(exc.message)
    if exc.reason in ("unsupported type", "encrypted"):
        return UnsupportedMediaType(exc.message, reason=exc.reason)
    return BadRequest(exc.message, reason=exc.reason)


def _invalid(exc: ValidationError) -> BadRequest:
    parts = [
        f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}".removeprefix("Value error, ")
        for err in exc.errors()
    ]
    return BadRequest("; ".join(parts), reason="validation")


class ImportService:
    def __init__(self, session: AsyncSession, settings: Settings) -> None:
        self.session = session
        self.repository = ImportRepository(session)
        self.settings = SettingsRepository(session)
        self.sites = SiteService(SiteRepository(session))
        self.things = ThingService(ThingRepository(session), self.sites, self.settings)
        self.categories = CategoryRepository(session)
        self.events = EventService(EventRepository(session), settings)
        # Next generated tag number by prefix, valid while this transaction holds the lock.
        self._next_number: dict[str, int] = {}

    async def parse(self, file_name: str, data: bytes, header_row: int | None) -> ParsedSheet:
        try:
            sheet = await anyio.to_thread.run_sync(read_all, data, header_row, limiter=_readers)
        except WorkbookRefused as exc:
            raise refused(exc) from exc
        return ParsedSheet(
            fileName=file_name,
            headers=sheet.headers,
            rows=sheet.rows,
            headerRow=sheet.header_row,
            rowNumbers=sheet.row_numbers,
            above=[SheetRow(row=n, cells=cells) for n, cells in sheet.above],
        )

    async def site_settings(self, site: Site) -> SiteSettingsBody:
        return SiteSettingsBody.model_validate(
            await self.settings.site_settings(site.org_id, site.id)
        )

    async def save_mapping(
        self, principal: Principal, site_id: str, mapping: ImportMapping
    ) -> ImportMapping:
        """Store the mapping in the site's settings, leaving every other setting as it is."""
        check_mapping(mapping.headerAssetFields, None)
        site = await site_for_write(self.sites, principal, site_id)
        stored = dict(await self.settings.site_settings(site.org_id, site.id))
        import_settings = dict(stored.get("importSettings") or {})
        kept = [
            m
            for m in import_settings.get("importMappings") or []
            if not isinstance(m, dict) or m.get("name") != mapping.name
        ]
        import_settings["importMappings"] = [*kept, mapping.model_dump(mode="json")]
        stored["importSettings"] = import_settings
        SiteSettingsBody.model_validate(stored)
        await self.settings.save_site_settings(principal.org_id, site.id, stored)
        await record(
            self.session,
            principal,
            "import.mapping.saved",
            "site",
            site.id,
            site.name,
            mapping.model_dump(mode="json"),
        )
        return mapping

    async def zone_of_site(self, principal: Principal, site_id: str, zone_id: str) -> Zone:
        zone = await self.events.repository.zone(principal.org_id, zone_id)
        if zone is None or zone.site_id != site_id:
            raise NotFound("Zone not found in this site")
        return zone

    async def import_row(self, principal: Principal, body: ImportRow) -> ImportRowResult:
        site = await site_for_write(self.sites, principal, body.site)
        settings = await self.site_settings(site)
        zone = await self.zone_of_site(principal, site.id, body.zone) if body.zone else None
        check_mapping(body.headerAssetFields, body.cells.keys())
        row = row_fields(body.headerAssetFields, body.cells)
        return await self.import_fields(
            principal, site.id, zone, settings, row, update_duplicate=body.updateDuplicate
        )

    async def import_fields(
        self,
        principal: Principal,
        site_id: str,
        zone: Zone | None,
        settings: SiteSettingsBody,
        row: RowFields,
        *,
        update_duplicate: bool,
    ) -> ImportRowResult:
        """One row as an item of the site: created, or, when a tag of it is already an
        item's, that item filled in (update_duplicate) or a 400 'duplicate'."""
        options = settings.importSettings
        if zone is None and options.requireZone:
            raise BadRequest("Please select a zone to import assets to.", reason="zone required")
        if not row.name:
            raise BadRequest(NO_NAME, reason="no name")
        created = await self._categories(principal, row)
        if not row.all_tags() and options.generatePrefixTag:
            row.tags = [await self._generated_tag(principal.org_id, settings.orgTagPrefix)]
        tags = normalize_tags(row.all_tags())
        prefix = settings.orgTagPrefix
        existing: Thing | None = None
        if options.prefixedTagDupCheck:
            prefixed = [t for t in duplicate_candidates(tags, prefix, True) if t not in tags]
            existing, found = await self._carrier(principal, prefixed)
            if existing is not None and not update_duplicate:
                raise BadRequest(
                    f"Tag {found} (with the tag prefix) is a duplicate of another thing's tag",
                    reason="duplicate",
                )
        if existing is None:
            try:
                thing = await self.things.create(
                    principal, ThingCreate(site=site_id, common=self._common(row))
                )
            except BadRequest as exc:
                if exc.reason != "duplicate" or not update_duplicate:
                    raise
                candidates = duplicate_candidates(tags, prefix, options.prefixedTagDupCheck)
                existing, _ = await self._carrier(principal, candidates)
                if existing is None:
                    raise
        if existing is not None:
            thing = await self._fill(principal, existing, row)
        if zone is not None and tags:
            await self.events.manual(principal, ManualEvent(tag=tags[0], zone=zone.id))
        return ImportRowResult(
            status="complete" if existing is None else "complete duplicate",
            thing=thing.id,
            tags=tags,
            createdCategories=created,
        )

    @staticmethod
    def _common(row: RowFields) -> CommonCreate:
        try:
            return CommonCreate.model_validate({**row.__dict__, "class": "item"})
        except ValidationError as exc:
            raise _invalid(exc) from exc

    async def _carrier(self, principal: Principal, tags: list[str]) -> tuple[Thing | None, str]:
        """The thing carrying the first of these tags that any thing carries, and that tag."""
        for tag in tags:
            thing = await self.things.repository.by_tag(principal.org_id, tag)
            if thing is not None:
                return thing, tag
        return None, ""

    async def _fill(self, principal: Principal, existing: Thing, row: RowFields) -> ThingRead:
        current = await self.things.get(principal, existing.id)
        merged = fill_missing(current.common, row)
        try:
            common = CommonUpdate.model_validate(
                merged.model_dump(by_alias=True, exclude={"timeCreated", "timeModified"})
            )
        except ValidationError as exc:
            raise _invalid(exc) from exc
        return await self.things.update(
            principal, existing.id, ThingUpdate(common=common, data=current.data)
        )

    async def _categories(self, principal: Principal, row: RowFields) -> list[str]:
        """Name the row's categories as the organisation spells them, creating the missing
        ones; returns the names created."""
        if not row.categories:
            return []
        known = await self.repository.categories_named(principal.org_id, row.categories)
        missing = [n for n in row.categories if n.lower() not in known]
        created: list[str] = []
        if missing:
            await self.repository.lock(principal.org_id, "categories")
            known = await self.repository.categories_named(principal.org_id, row.categories)
            for name in missing:
                if name.lower() in known:
                    continue
                if len(name) > 200:
                    raise BadRequest(f"The category name '{name[:40]}...' is over 200 characters")
                await self.categories.add(
                    ImageCategory(org_id=principal.org_id, name=name, description="")
                )
                known[name.lower()] = name
                created.append(name)
        row.categories = list(dict.fromkeys(known[n.lower()] for n in row.categories))
        return created

    async def _generated_tag(self, org_id: str, prefix: str) -> str:
        prefix = normalize_tag(prefix)
        if prefix not in self._next_number:
            await self.repository.lock(org_id, "tags")
            self._next_number[prefix] = await self.repository.highest_generated(org_id, prefix) + 1
        number = self._next_number[prefix]
        self._next_number[prefix] = number + 1
        return generated_tag(prefix, number)
