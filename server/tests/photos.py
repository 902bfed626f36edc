"""Small test photos made here: JPEGs with EXIF (time, GPS, orientation, device), HEIC, PNG."""

import io
import struct
import zlib
from datetime import datetime
from pathlib import Path

import pillow_heif
from PIL import Image

pillow_heif.register_heif_opener()

# Photos published by others, kept outside the project; used when the folder is there.
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "photos"

RED = (200, 30, 30)
BLUE = (20, 20, 220)


def _dms(value: float) -> tuple[float, float, float]:
    degrees = int(value)
    minutes = int((value - degrees) * 60)
    seconds = round(((value - degrees) * 60 - minutes) * 60, 4)
    return float(degrees), float(minutes), seconds


def jpeg(
    width: int = 64,
    height: int = 32,
    *,
    orientation: int = 1,
    gps: tuple[float, float] | None = None,
    taken: datetime | None = None,
    offset: str = "",
    make: str = "",
    model: str = "",
) -> bytes:
    """A red photo with a blue top-left quarter; gps is (latitude, longitude)."""
    image = Image.new("RGB", (width, height), RED)
    image.paste(BLUE, (0, 0, width // 2, height // 2))
    exif = Image.Exif()
    exif[0x0112] = orientation
    if make:
        exif[0x010F] = make
    if model:
        exif[0x0110] = model
    if taken:
        details = exif.get_ifd(0x8769)
        details[0x9003] = taken.strftime("%Y:%m:%d %H:%M:%S")
        if offset:
            details[0x9011] = offset
    if gps:
        latitude, longitude = gps
        directory = exif.get_ifd(0x8825)
        directory[1] = "N" if latitude >= 0 else "S"
        directory[2] = _dms(abs(latitude))
        directory[3] = "E" if longitude >= 0 else "W"
        directory[4] = _dms(abs(longitude))
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif, quality=90)
    return out.getvalue()


def heic(width: int = 48, height: int = 36) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), BLUE).save(out, "HEIF")
    return out.getvalue()


def png(width: int = 30, height: int = 20) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", (width, height), (0, 128, 0, 128)).save(out, "PNG")
    return out.getvalue()


def png_bomb(width: int = 40_000, height: int = 40_000) -> bytes:
    """A few hundred bytes claiming 1.6 gigapixels: a decompression bomb."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (width + 1) * 8)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


def pixel(data: bytes, x: int, y: int) -> tuple[int, ...]:
    with Image.open(io.BytesIO(data)) as image:
        value = image.convert("RGB").getpixel((x, y))
    assert isinstance(value, tuple)
    return value


def size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def is_blue(rgb: tuple[int, ...]) -> bool:
    return rgb[2] > 150 and rgb[0] < 100


def is_red(rgb: tuple[int, ...]) -> bool:
    return rgb[0] > 150 and rgb[2] < 100


def mpo(width: int = 60, height: int = 40) -> bytes:
    """A JPEG with a second picture inside, as many phones write them (MPO)."""
    out = io.BytesIO()
    first = Image.new("RGB", (width, height), RED)
    first.save(out, "MPO", save_all=True, append_images=[Image.new("RGB", (width, height), BLUE)])
    return out.getvalue()
