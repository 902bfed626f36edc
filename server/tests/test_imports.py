"""Import Assets: reading workbooks, the header mapping, rows as items, the command line."""

import asyncio
import io
import os
import sys
import zipfile
from datetime import date, datetime
from pathlib import Path
from subprocess import PIPE
from typing import Any

import httpx
import pytest

from tagtrack.imports.workbook import WorkbookRefused, open_sheet
from tests.conftest import Org
from tests.helpers import assert_error
from tests.spreadsheets import workbook_bytes
from tests.tracking_api import make_zone

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "spreadsheets"
TAGTRACK = Path(sys.executable).parent / "tagtrack"

HEADERS = ["Asset", "Notes", "Serial No", "EPC", "Alt EPC", "Spare EPC", "Category", "Labels"]
MAPPING = [
    {"header": "Asset", "assetField": "name"},
    {"header": "Notes", "assetField": "description"},
    {"header": "Serial No", "assetField": "serial"},
    {"header": "EPC", "assetField": "tags"},
    {"header": "Alt EPC", "assetField": "tags1"},
    {"header": "Spare EPC", "assetField": "tags2"},
    {"header": "Category", "assetField": "categories"},
    {"header": "Labels", "assetField": "labels"},
]


def workbook(rows: list[list[Any]], headers: list[str] = HEADERS) -> bytes:
    return workbook_bytes(headers, rows)


async def parse(
    client: httpx.AsyncClient, data: bytes, name: str = "assets.xlsx", **params: Any
) -> httpx.Response:
    return await client.post("/api/import/parse", files={"file": (name, data, XLSX)}, params=params)


def row_body(site: str, cells: dict[str, str], **extra: Any) -> dict[str, Any]:
    return {"site": site, "headerAssetFields": MAPPING, "cells": cells, **extra}


def cells(name: str, tag: str = "", **more: str) -> dict[str, str]:
    return {**dict.fromkeys(HEADERS, ""), "Asset": name, "EPC": tag, **more}


async def save_settings(client: httpx.AsyncClient, site: str, **changes: Any) -> None:
    url = f"/api/sites/{site}/settings"
    current = (await client.get(url)).json()
    current.update(changes)
    response = await client.put(url, json=current)
    assert response.status_code == 200, response.text


async def test_parse_gives_headers_and_rows_as_text(org_factory) -> None:
    org: Org = await org_factory()
    data = workbook(
        [
            ["Forklift", None, 12345, "e200 01", None, None, "Vehicles", True],
            [],  # empty rows are skipped
            ["Scanner", "Handheld", 3.25, None, None, None, None, None],
            ["Ladder", datetime(2024, 5, 6, 7, 8, 9), date(2024, 1, 2), None, None, None, None],
        ],
        headers=[*HEADERS[:7], ""],
    )
    response = await parse(org.client("Manager"), data)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["fileName"] == "assets.xlsx"
    assert body["headers"] == [*HEADERS[:7], "Column H"]
    assert body["rows"] == [
        ["Forklift", "", "12345", "e200 01", "", "", "Vehicles", "TRUE"],
        ["Scanner", "Handheld", "3.25", "", "", "", "", ""],
        ["Ladder", "2024-05-06 07:08:09", "2024-01-02", "", "", "", "", ""],
    ]
    assert body["headerRow"] == 1 and body["rowNumbers"] == [2, 4, 5]
    assert body["above"] == []


async def test_the_header_row_can_be_chosen_below_a_title(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Manager")
    # A title and a blank row above the headers, as registers often have.
    data = workbook(
        [[], ["Asset", "Serial No"], ["Pump", "S-1"], ["Valve", "S-2"]],
        headers=["Asset register, March"],
    )
    first = (await parse(client, data)).json()
    assert (first["headerRow"], first["headers"]) == (1, ["Asset register, March", "Column B"])
    assert first["rows"][0] == ["Asset", "Serial No"] and first["rowNumbers"] == [3, 4, 5]

    response = await parse(client, data, headerRow=3)
    assert response.status_code == 200, response.text
    chosen = response.json()
    assert chosen["headerRow"] == 3
    assert chosen["headers"] == ["Asset", "Serial No"]
    assert chosen["rows"] == [["Pump", "S-1"], ["Valve", "S-2"]]
    assert chosen["rowNumbers"] == [4, 5]
    assert chosen["above"] == [{"row": 1, "cells": ["Asset register, March"]}]

    empty = await parse(client, data, headerRow=2)
    assert_error(
        empty,
        400,
        "empty header row",
        "Row 2 of the sheet is empty: choose the row with the headers",
    )
    beyond = await parse(client, data, headerRow=9)
    assert_error(
        beyond, 400, "empty header row", "The sheet has no row 9: choose the row with the headers"
    )
    assert_error(await parse(client, data, headerRow=0), 422)


def _encrypted() -> bytes:
    """What Excel writes for a password-protected workbook: an OLE file holding an
    EncryptedPackage stream."""
    head = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504
    return head + "EncryptedInfo EncryptedPackage".encode("utf-16-le") + b"\x00" * 1024


def _zip(parts: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in parts.items():
            archive.writestr(name, content)
    return out.getvalue()


def _zip_bomb() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/workbook.xml", b"<workbook/>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            chunk = b"\x00" * (1 << 20)
            for _ in range(401):
                part.write(chunk)
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "status", "message"),
    [
        ("assets.csv", b"Name,Serial\nForklift,1\n", 415, "CSV"),
        ("assets.xlsx", b"Name,Serial\nForklift,1\n", 415, "CSV"),
        ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 2000, 415, ".xls"),
        ("secret.xlsx", _encrypted(), 415, "password-protected"),
        ("photo.xlsx", b"\x89PNG\r\n\x1a\n" + b"\x00\x01" * 100, 415, "not an Excel workbook"),
        ("broken.xlsx", workbook([["a"] * 8])[:900], 400, "damaged"),
        ("doc.xlsx", _zip({"word/document.xml": b"<w/>"}), 415, "not an Excel workbook"),
        ("garbled.xlsx", _zip({"xl/workbook.xml": b"<not xml"}), 400, "damaged"),
        ("empty.xlsx", b"", 415, "not an Excel workbook"),
    ],
)
async def test_anything_but_a_real_xlsx_is_refused(
    org_factory, name: str, data: bytes, status: int, message: str
) -> None:
    org: Org = await org_factory()
    response = await parse(org.client("Manager"), data, name)
    assert_error(response, status, message=message)


async def test_huge_files_and_sheets_are_refused(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Manager")
    assert_error(await parse(client, _zip_bomb()), 413, message="unpacks to more than")
    assert_error(await parse(client, os.urandom(21 * 1024 * 1024)), 413)
    wide = workbook([["x"] * 201], headers=[f"H{i}" for i in range(201)])
    assert_error(await parse(client, wide), 413, message="more than 200 columns")
    # The server is still up and reads a good workbook.
    assert (await parse(client, workbook([["ok"]]))).status_code == 200


def test_a_sheet_over_the_row_or_cell_limit_is_refused() -> None:
    data = workbook([[str(i)] for i in range(6)])
    sheet = open_sheet(io.BytesIO(data), max_rows=5)
    with pytest.raises(WorkbookRefused, match="more than 5 rows"):
        list(sheet.rows)
    # Six rows of eight cells under the headers.
    sheet = open_sheet(io.BytesIO(data), max_cells=47)
    with pytest.raises(WorkbookRefused, match="more than 47 cells"):
        list(sheet.rows)
    assert len(list(open_sheet(io.BytesIO(data), max_cells=48).rows)) == 6


async def test_a_row_without_a_name_is_refused_with_a_clear_error(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Manager")
    site = org.site_ids[0]
    for name in ("", "   "):
        response = await client.post("/api/import/row", json=row_body(site, cells(name, "N1")))
        assert_error(response, 400, "no name", "The row has no name: every item needs one")
    unmapped = {**row_body(site, cells("Pump", "N1")), "headerAssetFields": MAPPING[3:4]}
    assert_error(await client.post("/api/import/row", json=unmapped), 400, "no name")
    assert (await client.get("/api/things/tag/N1")).status_code == 404
    made = await client.post("/api/import/row", json=row_body(site, cells("Pump", "N1")))
    assert made.status_code == 201, made.text


async def test_rows_become_items_with_every_field(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Manager")
    site = org.site_ids[0]
    row = {
        "Asset": " Forklift 7 ",
        "Notes": "Electric",
        "Serial No": "SN-1",
        "EPC": "e2000001, e2000002",
        "Alt EPC": "a1",
        "Spare EPC": "b1;b2",
        "Category": "Vehicles, Heavy",
        "Labels": "blue\nyard",
    }
    response = await client.post("/api/import/row", json=row_body(site, row))
    assert response.status_code == 201, response.text
    result = response.json()
    assert result["status"] == "complete"
    assert result["createdCategories"] == ["Vehicles", "Heavy"]
    thing = (await client.get(f"/api/things/{result['thing']}")).json()
    common = thing["common"]
    assert thing["site"] == site and common["class"] == "item"
    assert (common["name"], common["description"], common["serial"]) == (
        "Forklift 7",
        "Electric",
        "SN-1",
    )
    assert common["tags"] == ["E2000001", "E2000002"]
    assert common["tags1"] == ["A1"] and common["tags2"] == ["B1", "B2"]
    assert common["categories"] == ["Vehicles", "Heavy"]
    assert common["labels"] == ["blue", "yard"]

    # Categories are matched by name, any case; only new names are created.
    again = row_body(site, cells("Crane", "E3", Category="vehicles, Lifting"))
    response = await client.post("/api/import/row", json=again)
    assert response.status_code == 201, response.text
    result = response.json()
    assert result["createdCategories"] == ["Lifting"]
    crane = (await client.get(f"/api/things/{result['thing']}")).json()
    assert crane["common"]["categories"] == ["Vehicles", "Lifting"]
    names = [c["name"] for c in (await client.get("/api/categories")).json()]
    assert sorted(n for n in names if n != "Things") == ["Heavy", "Lifting", "Vehicles"]


async def test_a_duplicate_tag_is_reported_then_filled_in(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Manager")
    site = org.site_ids[0]
    first = row_body(site, cells("Pump", "E100", Labels="red"))
    assert (await client.post("/api/import/row", json=first)).status_code == 201
    row = cells("Other name", "e100", **{"Serial No": "S-9", "Labels": "green", "Alt EPC": "E101"})
    refused = await client.post("/api/import/row", json=row_body(site, row))
    assert_error(refused, 400, reason="duplicate", message="duplicate")
    filled = await client.post("/api/import/row", json=row_body(site, row, updateDuplicate=True))
    assert filled.status_code == 201, filled.text
    assert filled.json()["status"] == "complete duplicate"
    thing = (await client.get("/api/things/tag/E100")).json()
    common = thing["common"]
    # What the item had stays; what it lacked is taken from the row.
    assert common["name"] == "Pump" and common["serial"] == "S-9"
    assert common["labels"] == ["red", "green"] and common["tags1"] == ["E101"]
    listed = await client.get("/api/things", params={"site": site})
    assert listed.headers["x-total-count"] == "1"


async def prefix_tags(admin: httpx.AsyncClient, site: str) -> None:
    """Tags get the organization's prefix, and duplicates are looked for with it."""
    await save_settings(
        admin,
        site,
        orgTagPrefix="acme",
        importSettings={"generatePrefixTag": True, "prefixedTagDupCheck": True},
    )


async def test_generated_prefix_tags_and_prefixed_duplicate_check(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    await prefix_tags(admin, site)
    made = [
        (await admin.post("/api/import/row", json=row_body(site, cells(f"Box {i}")))).json()
        for i in range(3)
    ]
    assert [m["tags"] for m in made] == [["ACME00000001"], ["ACME00000002"], ["ACME00000003"]]
    # A row whose tag is a known tag without the prefix is that item.
    row = row_body(site, cells("Box again", "00000002", Notes="found"))
    response = await admin.post("/api/import/row", json=row)
    assert_error(
        response, 400, reason="duplicate", message="Tag ACME00000002 (with the tag prefix)"
    )
    filled = await admin.post("/api/import/row", json={**row, "updateDuplicate": True})
    assert filled.json()["status"] == "complete duplicate"
    assert filled.json()["thing"] == made[1]["thing"]
    box = (await admin.get(f"/api/things/{made[1]['thing']}")).json()["common"]
    assert box["description"] == "found" and box["tags"] == ["ACME00000002", "00000002"]


async def test_zone_is_required_only_when_the_site_says_so(org_factory) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    zone = await make_zone(admin, site, "Yard")
    other_zone = await make_zone(admin, org.site_ids[1], "Elsewhere")
    free = await admin.post("/api/import/row", json=row_body(site, cells("Free", "F1")))
    assert free.status_code == 201, free.text
    await save_settings(admin, site, importSettings={"requireZone": True})
    refused = await admin.post("/api/import/row", json=row_body(site, cells("Cart", "C1")))
    assert_error(refused, 400, message="Please select a zone to import assets to.")
    wrong = row_body(site, cells("Cart", "C1"), zone=other_zone["_id"])
    assert_error(await admin.post("/api/import/row", json=wrong), 404)
    placed = await admin.post(
        "/api/import/row", json=row_body(site, cells("Cart", "C1"), zone=zone["_id"])
    )
    assert placed.status_code == 201, placed.text
    thing = (await admin.get(f"/api/things/{placed.json()['thing']}")).json()
    assert thing["state"]["zone"] == zone["_id"]


async def test_the_mapping_is_saved_without_touching_other_settings(org_factory) -> None:
    org: Org = await org_factory()
    admin, manager = org.client("Administrator"), org.client("Manager")
    site = org.site_ids[0]
    await save_settings(admin, site, itemLabel="Assets", importSettings={"requireZone": True})
    body = {"name": "DEFAULT", "headerAssetFields": MAPPING[:2]}
    saved = await manager.put("/api/import/mapping", params={"site": site}, json=body)
    assert saved.status_code == 200, saved.text
    settings = (await manager.get(f"/api/sites/{site}/settings")).json()
    assert settings["itemLabel"] == "Assets"
    assert settings["importSettings"]["requireZone"] is True
    assert settings["importSettings"]["importMappings"] == [body]
    # Saving again replaces the DEFAULT mapping.
    body = {"name": "DEFAULT", "headerAssetFields": MAPPING[3:4]}
    await manager.put("/api/import/mapping", params={"site": site}, json=body)
    settings = (await manager.get(f"/api/sites/{site}/settings")).json()
    assert settings["importSettings"]["importMappings"] == [body]

    twice = {"headerAssetFields": [MAPPING[0], {"header": "Notes", "assetField": "name"}]}
    response = await manager.put("/api/import/mapping", params={"site": site}, json=twice)
    assert_error(response, 400, message="mapped more than once")
    empty = await manager.put(
        "/api/import/mapping", params={"site": site}, json={"headerAssetFields": []}
    )
    assert_error(empty, 400, message="Please map headers to asset fields.")
    reused = row_body(
        site, cells("X"), headerAssetFields=[MAPPING[0], {**MAPPING[0], "assetField": "serial"}]
    )
    assert_error(await manager.post("/api/import/row", json=reused), 400, message="more than once")


async def test_rights_and_other_organizations(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    viewer = org.client("Viewer")
    assert_error(await parse(viewer, workbook([["a"]])), 403)
    body = row_body(org.site_ids[0], cells("A", "V1"))
    assert_error(await viewer.post("/api/import/row", json=body), 403)
    assert_error(await org.client("Operator").post("/api/import/row", json=body), 403)
    foreign = row_body(other.site_ids[0], cells("A", "V1"))
    assert_error(await org.client("Manager").post("/api/import/row", json=foreign), 404)
    mapping = {"headerAssetFields": MAPPING[:1]}
    response = await org.client("Manager").put(
        "/api/import/mapping", params={"site": other.site_ids[0]}, json=mapping
    )
    assert_error(response, 404)


def batch_body(site: str, rows: list[dict[str, str]], **extra: Any) -> dict[str, Any]:
    return {
        "site": site,
        "headerAssetFields": MAPPING,
        "rows": [{"cells": c} for c in rows],
        **extra,
    }


async def post_batch(
    client: httpx.AsyncClient, site: str, rows: list[dict[str, str]], **extra: Any
) -> list[dict[str, Any]]:
    response = await client.post("/api/import/rows", json=batch_body(site, rows, **extra))
    assert response.status_code == 200, response.text
    results: list[dict[str, Any]] = response.json()["results"]
    assert len(results) == len(rows)
    return results


async def thing_count(client: httpx.AsyncClient, site: str) -> int:
    listed = await client.get("/api/things", params={"site": site})
    return int(listed.headers["x-total-count"])


async def test_a_batch_answers_each_row_in_order(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Manager")
    admin = org.client("Administrator")
    site = org.site_ids[0]
    zone = await make_zone(admin, site, "Dock")
    first = row_body(site, cells("Pump", "B100", Labels="red"))
    assert (await client.post("/api/import/row", json=first)).status_code == 201
    rows = [
        cells("Crate 1", "B1", Category="Boxes"),
        cells("Someone else's pump", "b100", **{"Serial No": "S-9", "Alt EPC": "B101"}),
        cells("", "B2"),
        cells("Crate 3", "B3", Category="boxes; Lids"),
        cells("Crate 1 again", "B1"),
        cells("Far too long " * 30, "B4"),
        cells("Crate 5", "B5 ;b6"),
    ]
    results = await post_batch(client, site, rows, zone=zone["_id"])
    assert [r["status"] for r in results] == [
        "complete", "duplicate", "error", "complete", "duplicate", "error", "complete",
    ]  # fmt: skip
    assert results[1]["reason"] == "Tag B100 is a duplicate of another thing's tag"
    assert results[2]["reason"] == "The row has no name: every item needs one"
    assert results[4]["reason"] == "Tag B1 is a duplicate of another thing's tag"
    assert results[5]["reason"] == "name: String should have at most 300 characters"
    # Each new category is told once, on the first row that has it.
    assert [r["createdCategories"] for r in results if r["status"] == "complete"] == [
        ["Boxes"], ["Lids"], [],
    ]  # fmt: skip
    assert results[6]["tags"] == ["B5", "B6"]
    crate = (await client.get(f"/api/things/{results[3]['thing']}")).json()
    assert crate["common"]["categories"] == ["Boxes", "Lids"]
    assert crate["state"]["zone"] == zone["_id"] and crate["site"] == site
    assert (await client.get("/api/things/tag/B6")).json()["_id"] == results[6]["thing"]
    assert await thing_count(client, site) == 4

    # The duplicates sent again to fill in their items.
    again = await post_batch(client, site, [rows[1], rows[4]], updateDuplicate=True)
    assert [r["status"] for r in again] == ["complete duplicate", "complete duplicate"]
    pump = (await client.get("/api/things/tag/B100")).json()
    assert pump["common"]["name"] == "Pump" and pump["common"]["serial"] == "S-9"
    assert pump["common"]["tags1"] == ["B101"] and pump["common"]["labels"] == ["red"]
    assert again[1]["thing"] == results[0]["thing"]
    assert await thing_count(client, site) == 4


def single_result(response: httpx.Response) -> dict[str, Any]:
    """A single-row call's answer as a batch answers that row."""
    body = response.json()
    if response.status_code == 201:
        return {"status": body["status"], "reason": "", "tags": body["tags"],
                "createdCategories": body["createdCategories"]}  # fmt: skip
    assert response.status_code == 400, response.text
    status = "duplicate" if body["reason"] == "duplicate" else "error"
    return {"status": status, "reason": body["message"], "tags": [], "createdCategories": []}


async def stored(client: httpx.AsyncClient, site: str) -> list[tuple[Any, ...]]:
    """What an organization holds after an import: its items and its category names."""
    listed = (await client.get("/api/things", params={"site": site, "limit": 100})).json()
    things = sorted(
        (t["common"]["name"], t["common"]["serial"], t["common"]["tags"], t["common"]["tags1"],
         t["common"]["categories"], t["common"]["labels"], bool(t["state"]["zone"]))
        for t in listed
    )  # fmt: skip
    categories = sorted(c["name"] for c in (await client.get("/api/categories")).json())
    return [*things, tuple(categories)]


async def test_a_batch_answers_each_row_as_the_single_row_call_would(org_factory) -> None:
    """The same rows into two organizations set up alike, one row at a time into the one and
    in one batch into the other: the same answer for every row, and the same items and
    categories stored, none of them from a refused row."""
    rows = [
        cells("Crate 1", "B1", Category="Boxes"),
        cells("Someone else's pump", "b100", Category="Only on a duplicate"),
        cells("", "B2", Category="Only on a nameless row"),
        cells("Crate 3", "B3", Category="boxes; Lids", Labels="red"),
        cells("Crate 1 again", "B1", Category="Late"),
        cells("Far too long " * 30, "B4", Category="Only on a long name"),
        cells("Crate 5", "B5 ;b6", Category="Late"),
        cells("Loose item", Category="Late"),
        cells("Mixed", "B7; B100"),
        cells("Prefixed", "P1"),
        cells("Spare of crate 3", "B8", **{"Alt EPC": "b3"}),
        cells("Crate 9", "B9", **{"Serial No": "S-9", "Alt EPC": "B10"}),
        cells("Loose item", "B11"),
    ]
    answers: list[list[dict[str, Any]]] = []
    holdings = []
    for one_by_one in (True, False):
        org: Org = await org_factory()
        admin = org.client("Administrator")
        client = org.client("Manager")
        site = org.site_ids[0]
        await prefix_tags(admin, site)
        zone = await make_zone(admin, site, "Dock")
        for name, tag in (("Pump", "B100"), ("Prefixed pump", "ACMEP1")):
            made = await client.post("/api/import/row", json=row_body(site, cells(name, tag)))
            assert made.status_code == 201, made.text
        if one_by_one:
            answers.append([
                single_result(await client.post(
                    "/api/import/row", json=row_body(site, row, zone=zone["_id"])
                ))
                for row in rows
            ])  # fmt: skip
        else:
            results = await post_batch(client, site, rows, zone=zone["_id"])
            answers.append([{k: r[k] for k in answers[0][0]} for r in results])
        holdings.append(await stored(client, site))
    single, batch = answers
    for index, (expected, got) in enumerate(zip(single, batch, strict=True)):
        assert got == expected, (index, rows[index]["Asset"])
    assert [r["status"] for r in batch] == [
        "complete", "duplicate", "error", "complete", "duplicate", "error", "complete",
        "complete", "duplicate", "duplicate", "duplicate", "complete", "complete",
    ]  # fmt: skip
    assert batch[7]["tags"] == ["ACME00000001"]
    assert [r["createdCategories"] for r in batch if r["status"] == "complete"] == [
        ["Boxes"], ["Lids"], ["Late"], [], [], [],
    ]  # fmt: skip
    assert holdings[1] == holdings[0]
    assert "Only on a duplicate" not in holdings[1][-1]
    assert len(holdings[1]) == 2 + 6 + 1


async def test_a_row_the_database_refuses_fails_alone(org_factory) -> None:
    org: Org = await org_factory()
    client = org.client("Manager")
    site = org.site_ids[0]
    rows = [cells("Valve 1", "N1"), cells("Valve\x002", "N2"), cells("Valve 3", "N3")]
    results = await post_batch(client, site, rows)
    assert [r["status"] for r in results] == ["complete", "error", "complete"]
    assert results[1]["reason"] == "The row holds a value that cannot be stored"
    assert (await client.get("/api/things/tag/N3")).json()["common"]["name"] == "Valve 3"
    assert await thing_count(client, site) == 2


async def test_a_batch_generates_prefix_tags_and_checks_prefixed_duplicates(
    org_factory,
) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    await prefix_tags(admin, site)
    made = await admin.post("/api/import/row", json=row_body(site, cells("Box 0")))
    assert made.json()["tags"] == ["ACME00000001"]
    rows = [cells("Box 1"), cells("Box again", "00000001"), cells("Box 2")]
    results = await post_batch(admin, site, rows)
    assert [r["tags"] for r in results] == [["ACME00000002"], [], ["ACME00000003"]]
    assert results[1] == {
        "status": "duplicate",
        "reason": "Tag ACME00000001 (with the tag prefix) is a duplicate of another thing's tag",
        "thing": "",
        "tags": [],
        "createdCategories": [],
    }


async def test_a_refused_batch_writes_nothing(org_factory) -> None:
    org: Org = await org_factory()
    other: Org = await org_factory()
    manager = org.client("Manager")
    site = org.site_ids[0]
    rows = [cells(f"Item {i}", f"R{i}", Category="New category") for i in range(3)]
    too_many = batch_body(site, [cells(f"Item {i}", f"L{i}") for i in range(501)])
    assert_error(
        await manager.post("/api/import/rows", json=too_many),
        422,
        "validation",
        "rows: List should have at most 500 items",
    )
    malformed = {"site": site, "headerAssetFields": MAPPING, "rows": [{"cells": ["a"]}]}
    assert_error(await manager.post("/api/import/rows", json=malformed), 422, "validation")
    empty = batch_body(site, [])
    assert_error(await manager.post("/api/import/rows", json=empty), 422, "validation")
    twice = batch_body(
        site, rows, headerAssetFields=[MAPPING[0], {**MAPPING[0], "assetField": "serial"}]
    )
    assert_error(await manager.post("/api/import/rows", json=twice), 400, message="more than once")

    body = batch_body(site, rows)
    assert_error(await org.client("Viewer").post("/api/import/rows", json=body), 403)
    assert_error(await org.client("Operator").post("/api/import/rows", json=body), 403)
    foreign_site = batch_body(other.site_ids[0], rows)
    assert_error(await manager.post("/api/import/rows", json=foreign_site), 404)
    foreign_zone = await make_zone(other.client("Administrator"), other.site_ids[0], "Theirs")
    assert_error(
        await manager.post("/api/import/rows", json={**body, "zone": foreign_zone["_id"]}), 404
    )
    await save_settings(org.client("Administrator"), site, importSettings={"requireZone": True})
    assert_error(
        await manager.post("/api/import/rows", json=body),
        400,
        "zone required",
        "Please select a zone to import assets to.",
    )
    assert await thing_count(manager, site) == 0
    categories = (await manager.get("/api/categories")).json()
    assert "New category" not in [c["name"] for c in categories]
    assert await thing_count(other.client("Administrator"), other.site_ids[0]) == 0


async def _run(url: str, *args: str) -> tuple[int, str, str]:
    """The tagtrack command's exit code, stdout and stderr."""
    env = {**os.environ, "TAGTRACK_DATABASE_URL": url, "TAGTRACK_LOG_JSON": "false"}
    process = await asyncio.create_subprocess_exec(
        str(TAGTRACK), *args, env=env, stdout=PIPE, stderr=PIPE
    )
    out, err = await asyncio.wait_for(process.communicate(), timeout=300)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


async def test_the_command_line_imports_a_workbook(
    org_factory, database_url: str, tmp_path: Path
) -> None:
    org: Org = await org_factory()
    admin = org.client("Administrator")
    site = org.site_ids[0]
    zone = await make_zone(admin, site, "Dock")
    await admin.post("/api/import/row", json=row_body(site, cells("Existing", "E7")))
    saved = {"headerAssetFields": MAPPING}
    await admin.put("/api/import/mapping", params={"site": site}, json=saved)
    rows = [[f"Item {i}", "", f"S{i}", f"C{i:05d}", "", "", "Tools", ""] for i in range(1200)]
    rows.append(["Existing", "now described", "", "e7", "", "", "", ""])
    rows.append(["Too long" * 100, "", "", "C-LONG", "", "", "", ""])
    path = tmp_path / "assets.xlsx"
    path.write_bytes(workbook(rows))

    csv = tmp_path / "assets.csv"
    csv.write_text("Name\nA\n")
    # Run at once: most of each run is the command starting.
    (code, out, err), no_site, not_xlsx = await asyncio.gather(
        _run(database_url, "import", str(path), "--site", site, "--zone", "Dock"),
        _run(database_url, "import", str(path), "--site", "No such site"),
        _run(database_url, "import", str(csv), "--site", site),
    )
    assert code == 1, err
    assert "1201 of 1202 items uploaded (1 duplicates filled in, 1 errors)" in out
    assert "Created new category: Tools" in out
    assert "Row 1202: Error: name:" in err

    listed = await admin.get("/api/things", params={"site": site, "limit": 1})
    assert listed.headers["x-total-count"] == "1201"
    item = (await admin.get("/api/things/tag/C00042")).json()
    assert item["common"]["name"] == "Item 42" and item["common"]["serial"] == "S42"
    assert item["common"]["categories"] == ["Tools"]
    assert item["state"]["zone"] == zone["_id"]
    existing = (await admin.get("/api/things/tag/E7")).json()
    assert existing["common"]["description"] == "now described"

    assert no_site[0] == 2 and "No site is named" in no_site[2]
    assert not_xlsx[0] == 2 and "CSV" in not_xlsx[2]


# Defined only where the corpus is: a machine without it has no such test to run.
if CORPUS.is_dir():

    async def test_the_spreadsheet_corpus(org_factory) -> None:
        """Workbooks published by others: each .xlsx reads to headers and rows; .xls, CSV
        and password-protected files are refused with a 4xx."""
        org: Org = await org_factory()
        client = org.client("Manager")
        read = 0
        for path in sorted(CORPUS.iterdir()):
            if path.suffix.lower() not in (".xlsx", ".xls", ".csv"):
                continue
            data = path.read_bytes()
            response = await parse(client, data, path.name)
            real_xlsx = data.startswith(b"PK\x03\x04")
            if not real_xlsx:
                assert_error(response, response.status_code)
                assert 400 <= response.status_code < 500, (path.name, response.text)
                continue
            assert response.status_code == 200, (path.name, response.text)
            body = response.json()
            assert body["headers"], path.name
            assert all(len(r) == len(body["headers"]) for r in body["rows"]), path.name
            read += 1
        assert read >= 1
