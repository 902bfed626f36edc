"""The things list as an XLSX workbook, written row by row."""

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from tagtrack.kit.xlsx import Cell, TableFile, clock_headers
from tagtrack.models import Thing
from tagtrack.settings.repository import SettingsRepository
from tagtrack.things.repository import Names


def labels_from(site: Mapping[str, Any], org: Mapping[str, Any]) -> dict[str, str]:
    """The name and serial column titles: the site's label, else the organization's, else
    the defaults."""

    def pick(key: str, default: str) -> str:
        return str(site.get(key) or org.get(key) or default)

    return {
        "name": pick("itemNameLabel", "Name"),
        "serial": pick("itemSerialLabel", "Serial"),
        "item": pick("itemLabel", "Items"),
        "worker": pick("workerLabel", "Workers"),
    }


async def labels_for(
    settings: SettingsRepository, org_id: str, site_ids: Sequence[str] | None
) -> tuple[dict[str, str], bool]:
    """The labels a list of these sites shows (one site's over the organization's, as the
    console merges them) and whether workers are hidden."""
    org = await settings.org_settings(org_id)
    one_site = site_ids[0] if site_ids is not None and len(site_ids) == 1 else None
    site = await settings.site_settings(org_id, one_site) if one_site else {}
    return labels_from(site, org), bool(org.get("hideWorkers") or site.get("hideWorkers"))


class ThingSheet(TableFile):
    """The things workbook; use it as `async with`, then `finish()` for its bytes."""

    def __init__(self, labels: Mapping[str, str]) -> None:
        headers = [
            labels["name"], labels["serial"], "Description", "Class", "Tag 1", "Tag 2",
            "Tags", "Tags 1", "Tags 2", "Categories", "Labels", "Zone", "Endpoint",
            "Last Event", "Last Zone Time", "Created", "Modified", "Id",
        ]  # fmt: skip
        # Things of several sites: their times are in UTC, and the headers say so.
        times = headers[13:17]
        super().__init__(
            "tagtrack-things-",
            "Things",
            clock_headers(headers, times, "UTC"),
            [datetime if h in times else None for h in headers],
        )

    async def write(self, things: Sequence[Thing], names: Mapping[str, Names]) -> None:
        rows: list[list[Cell]] = []
        for t in things:
            n = names.get(t.id, Names())
            rows.append([
                t.name, t.serial, t.description, t.thing_class, t.tag1, t.tag2,
                ", ".join(t.tags), ", ".join(t.tags1), ", ".join(t.tags2),
                ", ".join(t.categories), ", ".join(t.labels), n.zone, n.endpoint,
                t.last_event, t.last_zone_time, t.time_created, t.time_modified, t.id,
            ])  # fmt: skip
        await self.append(rows)
