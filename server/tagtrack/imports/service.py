"""Import Assets: read a workbook, keep the header mapping, turn rows into items."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError

from tagtrack.access.principal import Principal
from tagtrack.audit.repository import AuditRepository
from tagtrack.categories.repository import CategoryRepository
from tagtrack.core.errors import (
    AppError,
    BadRequest,
    NotFound,
    PayloadTooLarge,
    UnsupportedMediaType,
    describe_errors,
)
from tagtrack.events.schemas import ManualEvent
from tagtrack.imports.repository import ImportRepository
from tagtrack.imports.rules import (
    NO_NAME,
    ZONE_REQUIRED,
    RowFields,
    check_headers,
    check_mapping,
    duplicate_candidates,
    fill_missing,
    generated_tag,
    row_fields,
)
from tagtrack.imports.schemas import (
    BatchRowResult,
    ImportRow,
    ImportRowResult,
    ImportRows,
    ImportRowsResult,
    ParsedSheet,
    SheetRow,
)
from tagtrack.imports.workbook import WorkbookRefused, read_all
from tagtrack.models import ImageCategory, Site, Thing, Zone
from tagtrack.models.base import utcnow
from tagtrack.models.ids import new_id
from tagtrack.processing.manual import ManualReadService
from tagtrack.processing.repository import ThingRow
from tagtrack.processing.service import FreshThings
from tagtrack.settings.repository import SettingsRepository
from tagtrack.settings.schemas import HeaderAssetField, ImportMapping, SiteSettingsBody
from tagtrack.sites.scope import site_for_write
from tagtrack.sites.service import SiteService
from tagtrack.things.schemas import CommonCreate, CommonUpdate, ThingCreate, ThingRead, ThingUpdate
from tagtrack.things.service import ThingService, require_right, stored_common
from tagtrack.things.tags import normalize_tag, normalize_tags
from tagtrack.zones.repository import ZoneRepository

# Workbooks read at once: each may take a few hundred MB while it is read.
_readers = anyio.CapacityLimiter(2)


def refused(exc: WorkbookRefused) -> AppError:
    if exc.reason == "too large":
        return PayloadTooLarge(exc.message)
    if exc.reason in ("unsupported type", "encrypted"):
        return UnsupportedMediaType(exc.message, reason=exc.reason)
    return BadRequest(exc.message, reason=exc.reason)


def _invalid(exc: ValidationError) -> BadRequest:
    return BadRequest(describe_errors(exc.errors()), reason="validation")


def _duplicate(tag: str, prefixed: bool) -> BadRequest:
    """The single-row call's refusal of a row whose tag another thing carries."""
    how = " (with the tag prefix)" if prefixed else ""
    return BadRequest(f"Tag {tag}{how} is a duplicate of another thing's tag", reason="duplicate")


def _refusal(exc: AppError) -> BatchRowResult:
    status = "duplicate" if exc.reason == "duplicate" else "error"
    return BatchRowResult(status=status, reason=exc.message)


def _unstorable(exc: DBAPIError) -> BatchRowResult:
    """A row PostgreSQL refused, as the API answers such a request alone."""
    sqlstate = str(getattr(exc.orig, "sqlstate", "") or "")
    if sqlstate == "23505":  # a concurrent import took the same tag after the check
        return BatchRowResult(status="duplicate", reason="That value is already in use (duplicate)")
    if sqlstate.startswith("22"):
        return BatchRowResult(status="error", reason="The row holds a value that cannot be stored")
    raise exc


# A new item's state: in no zone, seen nowhere yet.
_NO_STATE: dict[str, Any] = {
    "zone_id": None, "last_event": None, "last_endpoint_time": None, "last_zone_time": None,
    "last_zone_read": None, "endpoint_id": None, "direction": "", "location_tag_id": None,
    "xy": [0.0, 0.0], "map_id": "", "alarm_tamper": False, "alarm_tamper_tag": "",
    "alarm_tamper_time": None, "data": {},
}  # fmt: skip


def _new_state(org_id: str, site_id: str, thing_id: str) -> ThingRow:
    # Lists and mappings of its own: processing may change them in place.
    state = {**_NO_STATE, "xy": [0.0, 0.0], "data": {}}
    return ThingRow(id=thing_id, org_id=org_id, site_id=site_id, stored=False, **state)


@dataclass
class _Planned:
    """A row of a batch that passed the checks: its place, fields and normalised tags."""

    index: int
    row: RowFields
    common: CommonCreate
    tags: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    thing: str = ""


class ImportService:
    def __init__(
        self,
        repository: ImportRepository,
        settings: SettingsRepository,
        sites: SiteService,
        things: ThingService,
        categories: CategoryRepository,
        manual_reads: ManualReadService,
        zones: ZoneRepository,
        audit: AuditRepository,
    ) -> None:
        self.repository = repository
        self.settings = settings
        self.sites = sites
        self.things = things
        self.categories = categories
        self.manual_reads = manual_reads
        self.zones = zones
        self.audit = audit
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
        await self.audit.record(
            principal,
            "import.mapping.saved",
            "site",
            site.id,
            site.name,
            mapping.model_dump(mode="json"),
        )
        return mapping

    async def zone_of_site(self, principal: Principal, site_id: str, zone_id: str) -> Zone:
        zone = await self.zones.get(principal.org_id, zone_id)
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

    async def import_rows(self, principal: Principal, body: ImportRows) -> ImportRowsResult:
        site = await site_for_write(self.sites, principal, body.site)
        settings = await self.site_settings(site)
        zone = await self.zone_of_site(principal, site.id, body.zone) if body.zone else None
        check_mapping(body.headerAssetFields, None)
        results = await self.import_batch(
            principal,
            site.id,
            zone,
            settings,
            body.headerAssetFields,
            [r.cells for r in body.rows],
            update_duplicate=body.updateDuplicate,
        )
        return ImportRowsResult(results=results)

    async def import_batch(
        self,
        principal: Principal,
        site_id: str,
        zone: Zone | None,
        settings: SiteSettingsBody,
        mapping: Sequence[HeaderAssetField],
        rows: Sequence[Mapping[str, str]],
        *,
        update_duplicate: bool,
    ) -> list[BatchRowResult]:
        """A batch of rows (cells by header), each on its own, one result per row in order:
        rows that pass the checks and whose tags nobody carries are written together; the
        others answer their refusal, or (filling in a duplicate, or when a bulk write fails)
        go through the single-row path one by one. The caller has checked the site, the zone
        and the mapping."""
        options = settings.importSettings
        if zone is None and options.requireZone:
            raise BadRequest(ZONE_REQUIRED, reason="zone required")
        require_right(principal, "item", "create")
        # The tag lookup's generic plan slowed down as an organization's tags grew.
        await self.repository.plan_for_these_values()
        results: list[BatchRowResult | None] = [None] * len(rows)
        planned: list[_Planned] = []
        for index, cells in enumerate(rows):
            try:
                check_headers(mapping, cells)
                row = row_fields(mapping, cells)
                planned.append(_Planned(index, row, self._checked(row)))
            except AppError as exc:
                results[index] = _refusal(exc)
        prefix = settings.orgTagPrefix
        for plan in planned:
            if not plan.row.all_tags() and options.generatePrefixTag:
                plan.row.tags = [await self._generated_tag(principal.org_id, prefix)]
                plan.common.tags = plan.row.tags
            plan.tags = normalize_tags(plan.row.all_tags())
        fast, slow = await self._sort_out(principal, planned, settings, update_duplicate, results)
        # A refused row creates no category, as when it is sent alone.
        await self._batch_categories(principal, sorted([*fast, *slow], key=lambda p: p.index))
        if fast:
            try:
                async with self.repository.savepoint():
                    await self._write(principal, site_id, zone, fast)
            except DBAPIError:
                # A value PostgreSQL refuses: find its row through the single-row path.
                fast, slow = [], sorted([*fast, *slow], key=lambda p: p.index)
        for plan in fast:
            results[plan.index] = BatchRowResult(
                status="complete", thing=plan.thing, tags=plan.tags, createdCategories=plan.created
            )
        for plan in slow:
            results[plan.index] = await self._one(
                principal, site_id, zone, settings, plan, update_duplicate
            )
        return [r for r in results if r is not None]

    def _checked(self, row: RowFields) -> CommonCreate:
        """What the single-row path refuses before writing anything."""
        if not row.name:
            raise BadRequest(NO_NAME, reason="no name")
        for name in row.categories:
            if len(name) > 200:
                raise BadRequest(f"The category name '{name[:40]}...' is over 200 characters")
        return self._common(row)

    async def _batch_categories(self, principal: Principal, planned: list[_Planned]) -> None:
        """Name every row's categories as the organization spells them, creating the missing
        ones at once; each created name is told on the first row that has it."""
        names = list(dict.fromkeys(n for p in planned for n in p.row.categories))
        if not names:
            return
        known = await self.repository.categories_named(principal.org_id, names)
        if any(n.lower() not in known for n in names):
            await self.repository.lock(principal.org_id, "categories")
            known = await self.repository.categories_named(principal.org_id, names)
        missing: dict[str, str] = {}
        for name in names:
            if name.lower() not in known:
                missing.setdefault(name.lower(), name)
        await self.repository.add_categories(principal.org_id, list(missing.values()))
        known.update(missing)
        new = set(missing)
        for plan in planned:
            spelled = list(dict.fromkeys(known[n.lower()] for n in plan.row.categories))
            plan.created = [n for n in spelled if n.lower() in new]
            new -= {n.lower() for n in plan.created}
            plan.row.categories = plan.common.categories = spelled

    async def _sort_out(
        self,
        principal: Principal,
        planned: list[_Planned],
        settings: SiteSettingsBody,
        update_duplicate: bool,
        results: list[BatchRowResult | None],
    ) -> tuple[list[_Planned], list[_Planned]]:
        """Rows whose tags no thing and no earlier row carries (written in bulk), and the
        others: refused as duplicates here, or, to fill in, left to the single-row path."""
        check = settings.importSettings.prefixedTagDupCheck
        prefix = settings.orgTagPrefix
        candidates = {p.index: duplicate_candidates(p.tags, prefix, check) for p in planned}
        owners = await self.repository.tag_owners(
            principal.org_id, list({t for c in candidates.values() for t in c})
        )
        taken = set(owners)
        fast: list[_Planned] = []
        slow: list[_Planned] = []
        for plan in planned:
            found = [t for t in candidates[plan.index] if t in taken]
            if not found:
                fast.append(plan)
            elif update_duplicate:
                slow.append(plan)
            else:
                prefixed = [t for t in found if t not in plan.tags]
                refused = _duplicate(prefixed[0], True) if check and prefixed else None
                results[plan.index] = _refusal(refused or _duplicate(min(found), False))
                continue
            taken.update(plan.tags)
        return fast, slow

    async def _write(
        self, principal: Principal, site_id: str, zone: Zone | None, fast: list[_Planned]
    ) -> None:
        """The rows' items, each put in the zone by its first tag: the zone's processing sets
        their state before they are written, so each is written once."""
        now = utcnow()
        things: dict[str, dict[str, Any]] = {}
        for plan in fast:
            plan.thing = new_id()
            things[plan.thing] = {
                "id": plan.thing, "org_id": principal.org_id, "site_id": site_id,
                "class": "item", "time_created": now, "time_modified": now,
                **stored_common(plan.common, []), **_NO_STATE,
            }  # fmt: skip
        tags = {plan.thing: plan.tags for plan in fast}
        placed = [plan for plan in fast if plan.tags]
        if zone is None or not placed:
            await self.repository.add_things(principal.org_id, list(things.values()), tags)
            return

        async def write(states: Sequence[ThingRow]) -> None:
            for state in states:
                things[state.id].update({c: getattr(state, c) for c in _NO_STATE})
            await self.repository.add_things(principal.org_id, list(things.values()), tags)

        fresh = FreshThings(
            things={p.thing: _new_state(principal.org_id, site_id, p.thing) for p in fast},
            tags={tag: p.thing for p in fast for tag in p.tags},
            write=write,
        )
        await self.manual_reads.put_in_zone(
            principal.org_id, zone, [p.tags[0] for p in placed], fresh
        )

    async def _one(
        self,
        principal: Principal,
        site_id: str,
        zone: Zone | None,
        settings: SiteSettingsBody,
        plan: _Planned,
        update_duplicate: bool,
    ) -> BatchRowResult:
        """A row through the single-row path, undone alone when it fails."""
        try:
            async with self.repository.savepoint():
                done = await self.import_fields(
                    principal, site_id, zone, settings, plan.row,
                    update_duplicate=update_duplicate,
                )  # fmt: skip
        except AppError as exc:
            return _refusal(exc)
        except DBAPIError as exc:
            return _unstorable(exc)
        return BatchRowResult(
            status=done.status,
            thing=done.thing,
            tags=done.tags,
            createdCategories=[*plan.created, *done.createdCategories],
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
            raise BadRequest(ZONE_REQUIRED, reason="zone required")
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
            await self.manual_reads.manual(principal, ManualEvent(tag=tags[0], zone=zone.id))
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
        """Name the row's categories as the organization spells them, creating the missing
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
