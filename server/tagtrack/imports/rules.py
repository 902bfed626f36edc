"""How a spreadsheet row becomes an item: the one place the console's import and the
command line share."""

import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from tagtrack.core.errors import BadRequest
from tagtrack.settings.schemas import HeaderAssetField
from tagtrack.things.schemas import CommonFields
from tagtrack.things.tags import normalize_tag

ASSET_FIELDS = ("name", "description", "serial", "tags", "tags1", "tags2", "categories", "labels")
LIST_FIELDS = ("tags", "tags1", "tags2", "categories", "labels")
DEFAULT_MAPPING = "DEFAULT"
NO_MAPPING = "Please map headers to asset fields."
ZONE_REQUIRED = "Please select a zone to import assets to."
NO_NAME = "The row has no name: every item needs one"
# Generated tags: the site's tag prefix and a zero-padded sequence number.
GENERATED_DIGITS = 8

RULES_TEXT = (
    f"A row without a name is refused (400 '{NO_NAME}'). "
    "A cell of a list field (tags, tags1, tags2, categories, labels) holds several values "
    "separated by commas, semicolons or line breaks. Categories are named: a name that is no "
    "image category of the organization yet creates one (matched case-insensitively). With "
    "importSettings.generatePrefixTag a row without any tag gets the tag orgTagPrefix + an "
    f"{GENERATED_DIGITS}-digit sequence number, one more than the highest such tag in the "
    "organization. With importSettings.prefixedTagDupCheck a row's tag also counts as a "
    "duplicate of a thing carrying orgTagPrefix + that tag."
)

BATCH_TEXT = (
    "Up to 500 rows with the same site, zone, mapping and updateDuplicate as the single-row "
    "call, in one transaction; each row answers on its own, in order: 'complete' or "
    "'complete duplicate', 'duplicate' (a tag is already another item's; the reason is the "
    "single-row call's 400 message) or 'error' with its reason, and a refused row does not "
    "stop the others. What refuses the whole batch (nothing is written): more than 500 rows "
    "or a malformed body (422), a site or zone not found (404), no right (403), a mapping "
    "that maps a field or header twice, or no zone when the site requires one (400)."
)

_SEPARATORS = re.compile(r"[,;\r\n]+")


def split_values(text: str) -> list[str]:
    return list(dict.fromkeys(v.strip() for v in _SEPARATORS.split(text) if v.strip()))


def check_mapping(mapping: Sequence[HeaderAssetField], headers: Iterable[str] | None) -> None:
    """Each asset field mapped once, each header used once, and headers the file has."""
    if not mapping:
        raise BadRequest(NO_MAPPING, reason="no mapping")
    fields = [m.assetField for m in mapping]
    names = [m.header for m in mapping]
    for asset_field in fields:
        if fields.count(asset_field) > 1:
            raise BadRequest(f"The asset field {asset_field} is mapped more than once")
    for header in names:
        if names.count(header) > 1:
            raise BadRequest(f"The header '{header}' is mapped more than once")
    if headers is not None:
        check_headers(mapping, set(headers))


def check_headers(mapping: Sequence[HeaderAssetField], headers: Container[str]) -> None:
    """Every mapped header is one the file has."""
    for entry in mapping:
        if entry.header not in headers:
            raise BadRequest(f"The file has no header '{entry.header}'")


@dataclass
class RowFields:
    name: str = ""
    description: str = ""
    serial: str = ""
    tags: list[str] = field(default_factory=list)
    tags1: list[str] = field(default_factory=list)
    tags2: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)

    def all_tags(self) -> list[str]:
        return [normalize_tag(t) for t in (*self.tags, *self.tags1, *self.tags2)]


def row_fields(mapping: Sequence[HeaderAssetField], cells: Mapping[str, str]) -> RowFields:
    row = RowFields()
    for entry in mapping:
        text = (cells.get(entry.header) or "").strip()
        if entry.assetField in LIST_FIELDS:
            setattr(row, entry.assetField, split_values(text))
        else:
            setattr(row, entry.assetField, text)
    return row


def generated_tag(prefix: str, number: int) -> str:
    return f"{normalize_tag(prefix)}{number:0{GENERATED_DIGITS}d}"


def duplicate_candidates(tags: Sequence[str], prefix: str, prefixed_check: bool) -> list[str]:
    """The tags under which a row's existing item may be found."""
    prefix = normalize_tag(prefix)
    found = list(tags)
    if prefixed_check and prefix:
        found += [prefix + t for t in tags if not t.startswith(prefix)]
    return list(dict.fromkeys(found))


def _union(have: Sequence[str], more: Sequence[str]) -> list[str]:
    return list(dict.fromkeys([*have, *more]))


def fill_missing(existing: CommonFields, row: RowFields) -> CommonFields:
    """The existing item with what it lacks taken from the row: empty texts are filled,
    list values the item does not have yet are added; nothing it has is overwritten."""
    merged = existing.model_copy(deep=True)
    merged.name = existing.name or row.name
    merged.description = existing.description or row.description
    merged.serial = existing.serial or row.serial
    held = {normalize_tag(t) for t in (existing.tag1, existing.tag2, *existing.tags)} | {
        normalize_tag(t) for t in (*existing.tags1, *existing.tags2)
    }
    for name in ("tags", "tags1", "tags2"):
        extra = [t for t in getattr(row, name) if normalize_tag(t) not in held]
        setattr(merged, name, _union(getattr(existing, name), extra))
    merged.categories = _union(existing.categories, row.categories)
    merged.labels = _union(existing.labels, row.labels)
    return merged
