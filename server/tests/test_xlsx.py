"""The XLSX writer of every export: the package it writes, read back by openpyxl and by
zipfile and an XML parser, cell types and formats, text that must stay text, characters
XML can't hold, sheet names Excel refuses, and a workbook of many rows."""

import enum
import io
import re
import tracemalloc
import zipfile
from collections.abc import Sequence
from datetime import date, datetime, timedelta
from typing import Any
from xml.etree import ElementTree
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook
from openpyxl.workbook import Workbook

from tagtrack.kit.xlsx import SAMPLE_ROWS, Cell, TableFile, XlsxFile, sheet_title
from tests.reporting import formats, values
from tests.tracking import T0

MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
PARTS = {
    "[Content_Types].xml", "_rels/.rels", "xl/workbook.xml", "xl/_rels/workbook.xml.rels",
    "xl/styles.xml",
}  # fmt: skip


async def table(rows: Sequence[Sequence[Cell]], headers: Sequence[str] = ("a",)) -> bytes:
    async with TableFile("tagtrack-test-", "Table", headers) as sheet:
        await sheet.append(rows)
        return await sheet.finish_bytes()


def book(content: bytes) -> Workbook:
    return load_workbook(io.BytesIO(content))


def sheet_xml(content: bytes, number: int = 1) -> str:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        return archive.read(f"xl/worksheets/sheet{number}.xml").decode()


def excel_text(content: bytes, ref: str) -> str:
    """A cell's text as Excel shows it: the XML text with the _xHHHH_ escapes undone."""
    root = ElementTree.fromstring(sheet_xml(content))
    cell = root.find(f".//{MAIN}c[@r='{ref}']")
    assert cell is not None and cell.get("t") == "inlineStr"
    text = "".join(cell.itertext())
    return re.sub(r"_x([0-9A-Fa-f]{4})_", lambda m: chr(int(m[1], 16)), text)


async def test_the_package_is_a_minimal_valid_workbook_of_every_sheet() -> None:
    async with TableFile("tagtrack-test-", "Things", ["Name", "Count"]) as sheet:
        await sheet.append([["Drill", 3]])
        sheet.add_pairs("Summary", [("Rows", 1)])
        content = await sheet.finish_bytes()
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        assert archive.testzip() is None
        names = set(archive.namelist())
        assert names == PARTS | {"xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml"}
        # The first part tells `file` and the like it is a package; every part is XML.
        assert archive.namelist()[0] == "_rels/.rels"
        parts = {name: ElementTree.fromstring(archive.read(name)) for name in names}
        assert {i.compress_type for i in archive.infolist()} == {zipfile.ZIP_DEFLATED}
    types = {o.get("PartName"): o.get("ContentType") for o in parts["[Content_Types].xml"]}
    assert types["/xl/worksheets/sheet2.xml"].endswith("spreadsheetml.worksheet+xml")
    assert types["/xl/workbook.xml"].endswith("spreadsheetml.sheet.main+xml")
    workbook = book(content)
    assert workbook.sheetnames == ["Things", "Summary"]
    assert values(workbook["Things"]) == [("Name", "Count"), ("Drill", 3)]
    assert values(workbook["Summary"]) == [("Rows", 1)]
    # Headers and summary labels bold, the rest not.
    assert workbook["Things"]["A1"].font.b and workbook["Summary"]["A1"].font.b
    assert not workbook["Things"]["A2"].font.b and not workbook["Summary"]["B1"].font.b


async def test_text_that_looks_like_a_formula_or_a_link_stays_text() -> None:
    texts = ["=1+1", "+SUM(A1:A9)", "-2", "@cmd", "http://x", "mailto:a@b.c", "0042", "1e5"]
    content = await table([[t] for t in texts])
    cells = [row[0] for row in book(content).worksheets[0].iter_rows(min_row=2)]
    assert [(c.value, c.data_type) for c in cells] == [(t, "s") for t in texts]
    xml = sheet_xml(content)
    assert "<f>" not in xml and "hyperlink" not in xml
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        assert not [n for n in archive.namelist() if "sharedStrings" in n or "rels/sheet" in n]


async def test_text_is_escaped_and_keeps_its_spaces() -> None:
    texts = [
        "<b>bold</b> & <r>raw</r>", 'say "hi" \'there\'', "Zürich \u2013 東京 😀",
        "  padded  ", "line one\nline two\tcolumn", "a]]>b",
    ]  # fmt: skip
    content = await table([[t] for t in texts])
    assert [row[0] for row in values(book(content).worksheets[0])[1:]] == texts
    assert '<t xml:space="preserve">  padded  </t>' in sheet_xml(content)


async def test_characters_xml_cant_hold_are_written_as_excels_escapes() -> None:
    """Control characters, lone surrogates and U+FFFE/U+FFFF become _xHHHH_ (what Excel
    writes and reads back as the character); text that already looks like such an escape
    gets its underscore escaped, so Excel shows it as written."""
    texts = ["a\x00b\x07c\x1fd", "carriage\rreturn", "\x0bvertical", "x\ud800y\ufffe\uffff"]
    literal = "_x0041_ is not A"
    content = await table([[t] for t in [*texts, literal]])
    xml = sheet_xml(content)
    ElementTree.fromstring(xml)
    assert "a_x0000_b_x0007_c_x001F_d" in xml and "_x005F_x0041_ is not A" in xml
    assert [excel_text(content, f"A{row}") for row in range(2, 7)] == [*texts, literal]
    # openpyxl keeps the escapes of inline text as they are.
    assert values(book(content).worksheets[0])[1][0] == "a_x0000_b_x0007_c_x001F_d"


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("A report name that is much longer than Excel allows", "A report name that is much long"),
        ("Q1 [draft]: a/b\\c?*", "Q1 _draft__ a_b_c__"),
        ("'quoted'", "quoted"),
        ("", "Sheet"),
        ("history", "history_"),
        ("tab\there", "tab_here"),
        ("Dock & <Gate>", "Dock & <Gate>"),
    ],
)
async def test_sheet_names_are_cut_and_made_valid_for_excel(title: str, name: str) -> None:
    assert len(name) <= 31
    async with TableFile("tagtrack-test-", title, ["a"]) as sheet:
        content = await sheet.finish_bytes()
    assert book(content).sheetnames == [name]


async def test_sheet_names_stay_unique_whatever_the_case() -> None:
    assert sheet_title("summary", ["Summary"]) == "summary (2)"
    assert sheet_title("S" * 40, ["S" * 31, "S" * 27 + " (2)"]) == "S" * 27 + " (3)"
    async with TableFile("tagtrack-test-", "Summary", ["a"]) as sheet:
        sheet.add_pairs("Summary", [("Rows", 0)])
        content = await sheet.finish_bytes()
    assert book(content).sheetnames == ["Summary", "Summary (2)"]


async def test_times_dates_and_durations_have_their_formats() -> None:
    new_york = ZoneInfo("America/New_York")
    content = await table(
        [
            [datetime(2026, 3, 2, 8, 30, 15), date(2026, 3, 2), timedelta(hours=30, minutes=15)],
            # Excel has no time zones: an aware time is written as its own clock shows it.
            [datetime(2026, 3, 2, 8, 0, tzinfo=new_york), date(1900, 3, 1), timedelta(days=3)],
            [datetime(2026, 3, 2, 8, 0, 0, 250_000), date(2026, 12, 31), timedelta(0)],
        ],
        ["Time", "Day", "Hours"],
    )
    sheet = book(content).worksheets[0]
    assert values(sheet)[1:] == [
        (datetime(2026, 3, 2, 8, 30, 15), datetime(2026, 3, 2), timedelta(days=1, hours=6,
                                                                        minutes=15)),
        (datetime(2026, 3, 2, 8), datetime(1900, 3, 1), timedelta(days=3)),
        (datetime(2026, 3, 2, 8, 0, 0, 250_000), datetime(2026, 12, 31), timedelta(0)),
    ]  # fmt: skip
    for row in (2, 3, 4):
        assert formats(sheet, row, [1, 2, 3]) == ["yyyy-mm-dd hh:mm:ss", "yyyy-mm-dd", "[h]:mm"]
    xml = sheet_xml(content)
    # Excel's own serial numbers: days since 1899-12-30, the time of day as the fraction.
    assert '<c r="B2" s="3"><v>46083</v></c>' in xml and "<v>61</v>" in xml
    assert '<c r="C2" s="4"><v>1.2604166666666667</v></c>' in xml


async def test_numbers_booleans_and_empty_cells() -> None:
    content = await table(
        [
            ["a", None, "", 3, True, False, 0, -5, 2**53, 1.5, 1e-7],
            [],
            [None, "b", None, None, None, None, None, None, None, None, 7.25],
        ],
        list("ABCDEFGHIJK"),
    )
    assert values(book(content).worksheets[0])[1:] == [
        ("a", None, None, 3, True, False, 0, -5, 2**53, 1.5, 1e-7),
        (None,) * 11,
        (None, "b", None, None, None, None, None, None, None, None, 7.25),
    ]
    xml = sheet_xml(content)
    # No cell at all for None or "": Excel's blank, not an empty text.
    assert 'r="B2"' not in xml and 'r="C2"' not in xml and '<row r="3"></row>' in xml
    with pytest.raises(ValueError, match="nan"):
        await table([[float("nan")]])


async def test_subclasses_are_written_as_their_base_and_other_types_refused() -> None:
    class Colour(enum.StrEnum):
        RED = "red"

    class Level(enum.IntEnum):
        HIGH = 3

    content = await table([[Colour.RED, Level.HIGH]], ["Colour", "Level"])
    assert values(book(content).worksheets[0])[1] == ("red", 3)
    with pytest.raises(TypeError, match="No spreadsheet cell for bytes"):
        await table([[b"raw"]])


async def test_rows_go_to_the_last_sheet_only_and_an_abandoned_file_is_removed() -> None:
    with pytest.raises(RuntimeError):
        async with XlsxFile("tagtrack-test-") as workbook:
            first = workbook.add_sheet("First", ["a"])
            workbook.add_sheet("Second", ["b"])
            with pytest.raises(ValueError, match="is finished"):
                first.write([["late"]])
            path = workbook.path
            raise RuntimeError("the query failed")
    assert not path.exists()


async def test_a_large_workbook_is_written_in_constant_memory() -> None:
    rows = 20_000
    chunk: list[list[Any]] = [
        ["Pallet jack PJ-001", "E2801160000001A1B2C3D4E5", "Receiving", T0, timedelta(hours=2), 7]
    ] * 2000
    tracemalloc.start()
    try:
        async with TableFile("tagtrack-test-", "Big", ["a", "b", "c", "d", "e", "f"]) as sheet:
            for number in range(rows // len(chunk)):
                await sheet.append([*chunk[:-1], [*chunk[-1][:5], number]])
            assert sheet.rows == rows
            content = await sheet.finish_bytes()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Held in memory, 20 000 rows of six cells would take tens of megabytes.
    assert peak < 5 * 1024 * 1024, peak
    workbook = load_workbook(io.BytesIO(content), read_only=True)
    last = list(workbook.worksheets[0].iter_rows(min_row=rows, values_only=True))
    assert last == [
        ("Pallet jack PJ-001", "E2801160000001A1B2C3D4E5", "Receiving", T0.replace(tzinfo=None),
         timedelta(hours=2), 7),
        ("Pallet jack PJ-001", "E2801160000001A1B2C3D4E5", "Receiving", T0.replace(tzinfo=None),
         timedelta(hours=2), rows // len(chunk) - 1),
    ]  # fmt: skip


async def test_columns_fit_their_content_and_the_header_is_frozen_and_filtered() -> None:
    many = SAMPLE_ROWS + 500
    async with TableFile(
        "tagtrack-test-",
        "Visits",
        ["Name", "When", "Day", "Hours", "Count", "Note", "Later"],
        [None, None, None, None, None, None, datetime],
    ) as sheet:
        first: list[Cell] = [
            "Pallet jack", datetime(2026, 3, 2, 8), date(2026, 3, 2), timedelta(hours=123456),
            7, "x" * 200, None,
        ]  # fmt: skip
        await sheet.append([first])
        await sheet.append(
            [["A", None, None, None, 1, "wide\n中文中文中文中文中文中文", None]] * many
        )
        # Past the first rows the widths are set: a later date still fits, by its kind.
        await sheet.append([["B", None, None, None, 2, "y" * 500, datetime(2026, 3, 3)]])
        sheet.add_pairs("Summary", [("From", datetime(2026, 3, 2)), ("Rows", many + 2)])
        content = await sheet.finish_bytes()
    workbook = book(content)
    visits, summary = workbook.worksheets
    widths = {letter: d.width for letter, d in visits.column_dimensions.items()}
    assert widths["A"] == pytest.approx(13)  # "Pallet jack" and a margin
    assert widths["B"] == pytest.approx(21) and widths["G"] == pytest.approx(21)
    assert widths["C"] == pytest.approx(12)  # 2026-03-02, or the bold header "Day"
    assert widths["D"] == pytest.approx(11)  # 123456:00
    assert widths["E"] == pytest.approx(10)  # the bold "Count" and its filter button
    assert widths["F"] == pytest.approx(60)  # long text is cut at the column's edge
    assert visits.freeze_panes == "A2"
    assert visits.auto_filter.ref == f"A1:G{many + 3}"
    assert [c.font.b for c in visits[1]] == [True] * 7
    # A table of pairs has no header: its widths fit, nothing is frozen or filtered.
    assert {k: d.width for k, d in summary.column_dimensions.items()} == {"A": 8.43, "B": 21}
    assert summary.freeze_panes is None and summary.auto_filter.ref is None
    # Excel and LibreOffice read the filter's range from a hidden name too.
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        names = ElementTree.fromstring(archive.read("xl/workbook.xml")).find(f"{MAIN}definedNames")
    assert names is not None
    assert [(n.get("name"), n.get("localSheetId"), n.text) for n in names] == [
        ("_xlnm._FilterDatabase", "0", f"'Visits'!$A$1:$G${many + 3}")
    ]
    # <cols> and the frozen pane come before the rows, the filter after them.
    xml = sheet_xml(content)
    assert xml.index("<sheetViews>") < xml.index("<cols>") < xml.index("<sheetData>")
    assert xml.index("</sheetData>") < xml.index("<autoFilter")


async def test_a_sheet_of_only_a_header_or_of_nothing_opens() -> None:
    workbook = book(await table([], ("Name", "First Seen")))
    sheet = workbook.worksheets[0]
    assert values(sheet) == [("Name", "First Seen")]
    assert sheet.auto_filter.ref == "A1:B1" and sheet.freeze_panes == "A2"
    async with XlsxFile("tagtrack-test-") as empty:
        content = await empty.finish_bytes()
    assert values(book(content).worksheets[0]) == []
