"""Reading an uploaded photo: its type from its bytes, its EXIF data, upright thumbnails.

Everything here runs on bytes in memory and raises BadImage before anything is stored.
"""

import io
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from fractions import Fraction
from typing import Any, TypeVar

import anyio
import pillow_heif
from PIL import Image, ImageOps

from tagtrack.core.errors import AppError, BadRequest, PayloadTooLarge, UnsupportedMediaType

pillow_heif.register_heif_opener()
# Our own pixel limit below answers for decompression bombs; Pillow warns about damaged
# EXIF tags it skips, and the photo is read without them. Set once: filters are global.
warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)
warnings.filterwarnings("ignore", category=UserWarning, module=r"PIL\.")

MAX_UPLOAD_BYTES = 25 * 1024 * 1024
# 100 megapixels: larger than any phone or camera photo, small enough to decode safely.
MAX_PIXELS = 100_000_000
# Photos decoded at once: each may take a few hundred MB while it is read.
PROCESSING_THREADS = 2
THUMB_SIZE = 800
MINI_SIZE = 200

# What we accept, by the type Pillow reads from the bytes (never the file name).
CONTENT_TYPES = {
    "JPEG": ("image/jpeg", "jpg"),
    # Phones often add a second picture (depth, preview) to a JPEG: that is MPO, still a JPEG.
    "MPO": ("image/jpeg", "jpg"),
    "PNG": ("image/png", "png"),
    "WEBP": ("image/webp", "webp"),
    "HEIF": ("image/heic", "heic"),
}
# Pillow's JPEG opener also answers for MPO files.
ALLOWED_FORMATS = ("JPEG", "PNG", "WEBP", "HEIF")

T = TypeVar("T")

_ORIENTATION = 0x0112
_MAKE = 0x010F
_MODEL = 0x0110
_DATETIME = 0x0132
_EXIF_IFD = 0x8769
_GPS_IFD = 0x8825
_DATETIME_ORIGINAL = 0x9003
_OFFSET_TIME_ORIGINAL = 0x9011


class BadImage(Exception):
    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.message = message
        self.reason = reason


@dataclass(frozen=True)
class Processed:
    format: str  # jpg, png, webp, heic
    content_type: str
    width: int
    height: int
    orientation: int
    device: str
    taken_at: datetime | None
    longitude: float
    latitude: float
    thumb: bytes
    mini: bytes


def _rational(value: Any) -> float:
    if isinstance(value, tuple) and len(value) == 2:
        return float(Fraction(int(value[0]), int(value[1]))) if value[1] else 0.0
    return float(value)


def _degrees(parts: Any, ref: Any) -> float | None:
    try:
        d, m, s = (_rational(p) for p in parts)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    value = d + m / 60 + s / 3600
    if str(ref).strip().upper() in ("S", "W"):
        value = -value
    return value


def read_gps(gps: Any) -> tuple[float, float]:
    """[longitude, latitude] from an EXIF GPS directory; (0, 0) when absent or invalid."""
    if not gps:
        return 0.0, 0.0
    latitude = _degrees(gps.get(2), gps.get(1, "N"))
    longitude = _degrees(gps.get(4), gps.get(3, "E"))
    if latitude is None or longitude is None:
        return 0.0, 0.0
    if not (-90 <= latitude <= 90 and -180 <= longitude <= 180):
        return 0.0, 0.0
    return round(longitude, 7), round(latitude, 7)


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    return str(value or "").replace("\x00", "").strip()


def read_time(stamp: Any, offset: Any) -> datetime | None:
    """EXIF 'YYYY:MM:DD HH:MM:SS' in the offset it names; UTC when it names none."""
    text = _text(stamp)
    try:
        taken = datetime.strptime(text[:19], "%Y:%m:%d %H:%M:%S")
    except ValueError:
        return None
    zone: timezone = UTC
    offset_text = _text(offset)
    if len(offset_text) == 6 and offset_text[0] in "+-" and offset_text[3] == ":":
        try:
            delta = timedelta(hours=int(offset_text[1:3]), minutes=int(offset_text[4:6]))
        except ValueError:
            delta = timedelta()
        zone = timezone(-delta if offset_text[0] == "-" else delta)
    return taken.replace(tzinfo=zone).astimezone(UTC)


def _device(make: str, model: str) -> str:
    if make and model.lower().startswith(make.lower()):
        return model
    return " ".join(p for p in (make, model) if p)[:200]


def _shrink(image: Image.Image, size: int) -> Image.Image:
    """The image shrunk in place to at most `size` px on its longest side, flattened onto
    white when it has alpha (then a new image).

    Bilinear: the picture comes decoded at 1/2, 1/4 or 1/8 (JPEG) or box-reduced first
    (thumbnail's reducing_gap), so the filter only ever spans a factor of about 2, where it
    looks like Lanczos at half the time.
    """
    image.thumbnail((size, size), Image.Resampling.BILINEAR)
    if image.mode not in ("RGB", "L"):
        background = Image.new("RGB", image.size, (255, 255, 255))
        rgba = image.convert("RGBA")
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return image


def _jpeg(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85, optimize=True)
    return out.getvalue()


def _draft_box(width: int, height: int, size: int) -> tuple[int, int] | None:
    """The size of the photo's `size` px thumbnail, or None when it is no larger than that."""
    longest = max(width, height)
    if longest <= size:
        return None
    return max(1, width * size // longest), max(1, height * size // longest)


def _metadata(image: Image.Image) -> tuple[int, datetime | None, float, float, str]:
    """Orientation, time taken, longitude, latitude and device; defaults when EXIF is bad."""
    try:
        exif = image.getexif()
        orientation = int(exif.get(_ORIENTATION, 1) or 1)
        if orientation not in range(1, 9):
            orientation = 1
        details = exif.get_ifd(_EXIF_IFD)
        taken_at = read_time(
            details.get(_DATETIME_ORIGINAL) or exif.get(_DATETIME),
            details.get(_OFFSET_TIME_ORIGINAL),
        )
        longitude, latitude = read_gps(exif.get_ifd(_GPS_IFD))
        device = _device(_text(exif.get(_MAKE)), _text(exif.get(_MODEL)))
    except Exception:  # a damaged EXIF block: the photo itself is still good
        return 1, None, 0.0, 0.0, ""
    return orientation, taken_at, longitude, latitude, device


def open_checked(data: bytes, reduce_to: int | None = None) -> tuple[Image.Image, tuple[int, int]]:
    """The bytes decoded as an accepted image type within the size and pixel limits, and
    the image's width and height as stored.

    With `reduce_to`, a JPEG is decoded straight at a fraction of its size (1/2, 1/4 or
    1/8, never below a `reduce_to` px thumbnail): a fraction of the work and memory of a
    full decode, and every byte is still decoded, so damage is still found. The caller
    closes the image. Raises BadImage for anything else: empty, too large, another type
    (SVG, PDF, a polyglot whose bytes are not wholly an image), damaged.
    """
    if not data:
        raise BadImage("The file is empty", "empty file")
    if len(data) > MAX_UPLOAD_BYTES:
        raise BadImage(f"The file is over {MAX_UPLOAD_BYTES // (1024 * 1024)} MiB", "too large")
    try:
        image = Image.open(io.BytesIO(data), formats=ALLOWED_FORMATS)
    except Image.DecompressionBombError as exc:
        raise BadImage("The image has too many pixels", "too many pixels") from exc
    except Exception as exc:  # a malformed file may make any parser error
        raise BadImage(
            "The file is not a JPEG, PNG, WebP or HEIC image", "unsupported type"
        ) from exc
    try:
        if (image.format or "") not in CONTENT_TYPES:
            raise BadImage("The file is not a JPEG, PNG, WebP or HEIC image", "unsupported type")
        width, height = image.size
        if width <= 0 or height <= 0 or width * height > MAX_PIXELS:
            raise BadImage(
                f"The image has too many pixels ({width}x{height}); the limit is "
                f"{MAX_PIXELS // 1_000_000} megapixels",
                "too many pixels",
            )
        box = _draft_box(width, height, reduce_to) if reduce_to else None
        if box is not None and image.format in ("JPEG", "MPO"):
            image.draft(None, box)
        try:
            image.load()
        except Image.DecompressionBombError as exc:
            raise BadImage("The image has too many pixels", "too many pixels") from exc
        except Exception as exc:  # a malformed file may make any decoder error
            raise BadImage(
                "The image is damaged or truncated and cannot be read", "damaged image"
            ) from exc
    except BaseException:
        image.close()
        raise
    return image, (width, height)


def process(data: bytes) -> Processed:
    """Check the bytes are a whole photo of an accepted type; read it and make thumbnails."""
    decoded, (width, height) = open_checked(data, reduce_to=THUMB_SIZE)
    with decoded as image:
        kind = image.format or ""
        orientation, taken_at, longitude, latitude, device = _metadata(image)
        try:
            upright = ImageOps.exif_transpose(image)
            # What exif_transpose turned by: the tag as stored, whatever _metadata made of it.
            turned = image.getexif().get(_ORIENTATION) in (5, 6, 7, 8)
        except Exception:  # an orientation Pillow cannot apply: keep the pixels as stored
            upright, turned = image, False
        # The size people see: width and height of the upright photo.
        if turned:
            width, height = height, width
        try:
            # The upright picture is ours alone (a copy, or the decoded image): shrink in place.
            thumbnail = _shrink(upright, THUMB_SIZE)
            thumb = _jpeg(thumbnail)
            mini = _jpeg(_shrink(thumbnail, MINI_SIZE))
        except Exception as exc:
            raise BadImage(
                "The image is damaged or truncated and cannot be read", "damaged image"
            ) from exc
    content_type, extension = CONTENT_TYPES[kind]
    return Processed(
        format=extension,
        content_type=content_type,
        width=width,
        height=height,
        orientation=orientation,
        device=device,
        taken_at=taken_at,
        longitude=longitude,
        latitude=latitude,
        thumb=thumb,
        mini=mini,
    )


@dataclass(frozen=True)
class FloorPlan:
    data: bytes
    content_type: str
    format: str
    width: int
    height: int


def floor_plan(data: bytes) -> FloorPlan:
    """Check a floor-plan picture; keep its bytes unless browsers need them upright or in a
    type they read (HEIC).

    Those are decoded once and saved with a quick encode: JPEG from a JPEG or HEIC (already
    lossy), PNG at low compression from a lossless picture or one with transparency. A
    slow, thorough encode of a 12-megapixel picture would keep the map screen waiting for
    many seconds.
    """
    decoded, _ = open_checked(data)
    with decoded as image:
        kind = image.format or ""
        orientation = _metadata(image)[0]
        if kind != "HEIF" and orientation == 1:
            content_type, extension = CONTENT_TYPES[kind]
            return FloorPlan(data, content_type, extension, image.width, image.height)
        try:
            upright = ImageOps.exif_transpose(image)
            out = io.BytesIO()
            if kind in ("JPEG", "MPO", "HEIF") and upright.mode in ("RGB", "L"):
                upright.save(out, "JPEG", quality=90)
                content_type, extension = "image/jpeg", "jpg"
            else:
                upright.save(out, "PNG", compress_level=1)
                content_type, extension = "image/png", "png"
        except Exception as exc:
            raise BadImage(
                "The image is damaged or truncated and cannot be read", "damaged image"
            ) from exc
        return FloorPlan(out.getvalue(), content_type, extension, upright.width, upright.height)


def upload_error(exc: BadImage) -> AppError:
    """The API error for a refused upload: 413 too large, 415 not an image, else 400."""
    if exc.reason == "too large":
        return PayloadTooLarge(exc.message)
    if exc.reason == "unsupported type":
        return UnsupportedMediaType(exc.message, reason=exc.reason)
    return BadRequest(exc.message, reason=exc.reason)


_limiter: anyio.CapacityLimiter | None = None


async def in_worker(function: Callable[[bytes], T], data: bytes) -> T:
    """Run an image function in a worker thread, a few at a time so memory stays bounded."""
    global _limiter
    if _limiter is None:
        _limiter = anyio.CapacityLimiter(PROCESSING_THREADS)
    return await anyio.to_thread.run_sync(function, data, limiter=_limiter)


async def process_photo(data: bytes) -> Processed:
    """process() in a worker thread."""
    return await in_worker(process, data)


async def process_floor_plan(data: bytes) -> FloorPlan:
    """floor_plan() in a worker thread."""
    return await in_worker(floor_plan, data)
