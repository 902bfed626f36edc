"""Photo uploads through a real `tagtrack serve`: 12-megapixel JPEGs per second.

Each upload goes to POST /api/images (multipart, --in-flight at once), where the server
checks the photo, reads its EXIF data, makes its two thumbnails and stores all three.
The baseline is Pillow alone on the same file in this process, one thread: open, decode
once at a reduced size as its own `thumbnail()` does, and save both thumbnails. Next to it,
in the same process: the server's own photo step (check, EXIF, both thumbnails) and, when
pyvips is installed, libvips' thumbnail_buffer making the same two thumbnails.

Floor plans: PUT of a 12-megapixel JPEG that must be turned upright (EXIF orientation 6)
and of the same picture as HEIC, each timed as a whole request (median of --plans), next
to decoding that file alone in this process.
"""

import argparse
import asyncio
import io
import statistics
import time
from collections.abc import Callable, Sequence
from tempfile import TemporaryDirectory

import httpx
from PIL import Image

from bench.common import (
    ADMIN,
    PASSWORD,
    Figure,
    http_worker,
    peak_rss_mib,
    report,
    reset_peak_rss,
    rss_mib,
    seed_floor,
    server_env,
)
from tagtrack.core.migrate import upgrade
from tagtrack.images.processing import process
from tests.database import fresh_database
from tests.serve import serve

WIDTH, HEIGHT = 4000, 3000


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--uploads", type=int, default=80)
    parser.add_argument("--in-flight", type=int, default=4, help="uploads sent at once")
    parser.add_argument("--plans", type=int, default=3, help="saves of each floor plan")
    return parser.parse_args(argv)


def photo() -> bytes:
    """A 12-megapixel JPEG that compresses like a photo (gradients and grain), with EXIF."""
    shade = Image.linear_gradient("L").resize((WIDTH, HEIGHT))
    rings = Image.radial_gradient("L").resize((WIDTH, HEIGHT))
    grain = Image.effect_noise((WIDTH, HEIGHT), 24)
    picture = Image.merge("RGB", (shade, rings, grain))
    exif = Image.Exif()
    exif[0x010F] = "Bench"  # Make
    exif[0x0110] = "Camera 12MP"  # Model
    exif[0x0132] = "2026:03:02 08:00:00"  # DateTime
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=90, exif=exif)
    return out.getvalue()


def pillow_alone(data: bytes, count: int) -> float:
    """Photos per second: decode once as thumbnail() does, save it at 800 then 200 px."""
    started = time.perf_counter()
    for _ in range(count):
        with Image.open(io.BytesIO(data)) as image:
            image.thumbnail((800, 800))
            image.save(io.BytesIO(), "JPEG", quality=85)
            image.thumbnail((200, 200))
            image.save(io.BytesIO(), "JPEG", quality=85)
    return count / (time.perf_counter() - started)


def per_second(step: Callable[[], object], count: int) -> float:
    started = time.perf_counter()
    for _ in range(count):
        step()
    return count / (time.perf_counter() - started)


def pyvips_alone(data: bytes, count: int) -> float | None:
    """Photos per second with libvips making the two thumbnails; None when not installed."""
    try:
        import pyvips  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError:
        return None
    pyvips.cache_set_max(0)

    def thumbnails() -> None:
        thumb = pyvips.Image.thumbnail_buffer(data, 800, fail_on="truncated").copy_memory()
        thumb.jpegsave_buffer(Q=85, keep="none")
        thumb.thumbnail_image(200).jpegsave_buffer(Q=85, keep="none")

    return per_second(thumbnails, count)


def plans(data: bytes) -> dict[str, bytes]:
    """The bench photo as a floor plan to be turned upright, and as HEIC."""
    with Image.open(io.BytesIO(data)) as image:
        exif = image.getexif()
        exif[0x0112] = 6  # Orientation: turn a quarter clockwise
        rotated, heic = io.BytesIO(), io.BytesIO()
        image.save(rotated, "JPEG", quality=90, exif=exif)
        image.save(heic, "HEIF", quality=80)
    return {"rotated JPEG": rotated.getvalue(), "HEIC": heic.getvalue()}


def decode_seconds(data: bytes, count: int) -> float:
    """Median seconds to decode the picture alone."""
    times = []
    for _ in range(count):
        started = time.perf_counter()
        with Image.open(io.BytesIO(data)) as image:
            image.load()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


async def save_plans(
    url: str, site: str, pictures: dict[str, bytes], count: int
) -> dict[str, float]:
    """Median seconds of PUT /api/maps/{id}/image for each picture."""
    async with httpx.AsyncClient(base_url=url, timeout=300) as client:
        login = {"username": ADMIN, "password": PASSWORD}
        (await client.post("/api/auth/login", json=login)).raise_for_status()
        created = await client.post("/api/maps", json={"name": "Bench hall", "site": site})
        created.raise_for_status()
        path = f"/api/maps/{created.json()['_id']}/image"
        medians = {}
        for name, data in pictures.items():
            times = []
            for _ in range(count):
                started = time.perf_counter()
                response = await client.put(path, files={"file": ("plan", data, "image/jpeg")})
                times.append(time.perf_counter() - started)
                response.raise_for_status()
            medians[name] = statistics.median(times)
        return medians


async def upload_all(url: str, data: bytes, uploads: int, in_flight: int) -> tuple[float, int]:
    """Seconds for all uploads and how many failed."""
    queue: asyncio.Queue[int] = asyncio.Queue()
    for n in range(uploads):
        queue.put_nowait(n)
    failed = 0
    async with httpx.AsyncClient(base_url=url, timeout=300) as client:
        login = {"username": ADMIN, "password": PASSWORD}
        (await client.post("/api/auth/login", json=login)).raise_for_status()

        async def sender() -> None:
            nonlocal failed
            while not queue.empty():
                n = queue.get_nowait()
                files = {"file": (f"IMG_{n:04d}.jpg", data, "image/jpeg")}
                response = await client.post("/api/images", files=files)
                if response.status_code != 201:
                    failed += 1
                    if failed == 1:
                        print(f"upload refused: {response.status_code} {response.text[:200]}")

        started = time.perf_counter()
        await asyncio.gather(*(sender() for _ in range(in_flight)))
        return time.perf_counter() - started, failed


def main(args: argparse.Namespace) -> None:
    data = photo()
    pictures = plans(data)
    with TemporaryDirectory(prefix="tagtrack-bench-images-") as data_dir, fresh_database() as url:
        upgrade(url)
        floor = asyncio.run(seed_floor(url, 1, 0))
        env = server_env(url, data_dir, processing="false", workers="1")
        with serve(env) as served:
            pid = http_worker(served.process.pid)
            before = rss_mib(pid)
            reset_peak_rss(pid)
            seconds, failed = asyncio.run(
                upload_all(served.url, data, args.uploads, args.in_flight)
            )
            peak = peak_rss_mib(pid)
            saves = asyncio.run(save_plans(served.url, floor.site_id, pictures, args.plans))
    count = max(10, args.uploads // 4)
    alone = pillow_alone(data, count)
    server_step = per_second(lambda: process(data), count)
    vips = pyvips_alone(data, count)
    decoders = [
        Figure("photo step, server (Pillow)", server_step, "/s", "Pillow alone, 1 thread", alone),
    ]
    if vips is None:
        print("pyvips is not installed: no libvips figure (pip install pyvips pyvips-binary)")
    else:
        decoders.append(Figure("thumbnails, pyvips", vips, "/s", "Pillow alone, 1 thread", alone))
    report(
        "images",
        f"{args.uploads} uploads of a {WIDTH}x{HEIGHT} JPEG ({len(data) / 2**20:.1f} MiB), "
        f"{args.in_flight} in flight, {failed} failed",
        [
            Figure("uploads/s", args.uploads / seconds, "/s", "Pillow alone, 1 thread", alone,
                   ">= 20/s"),
            Figure("server peak RSS", peak, "MiB", "server RSS before", before),
            *decoders,
        ],
    )  # fmt: skip
    report(
        "images",
        f"floor plan saves of the {WIDTH}x{HEIGHT} photo, median of {args.plans}",
        [
            Figure(f"save, {name}", saves[name], "s", "decoding it alone",
                   decode_seconds(picture, args.plans), "< 2 s")
            for name, picture in pictures.items()
        ],
    )  # fmt: skip


if __name__ == "__main__":
    main(parse_args())
