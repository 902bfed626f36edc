"""Photo uploads through a real `tagtrack serve`: 12-megapixel JPEGs per second.

Each upload goes to POST /api/images (multipart, --in-flight at once), where the server
checks the photo, reads its EXIF data, makes its two thumbnails and stores all three.
The baseline is Pillow alone on the same file in this process, one thread: open, decode
once at a reduced size as its own `thumbnail()` does, and save both thumbnails.
"""

import argparse
import asyncio
import io
import time
from collections.abc import Sequence
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
from tests.database import fresh_database
from tests.serve import serve

WIDTH, HEIGHT = 4000, 3000


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--uploads", type=int, default=80)
    parser.add_argument("--in-flight", type=int, default=4, help="uploads sent at once")
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
    with TemporaryDirectory(prefix="tagtrack-bench-images-") as data_dir, fresh_database() as url:
        upgrade(url)
        asyncio.run(seed_floor(url, 1, 0))
        env = server_env(url, data_dir, processing="false", workers="1")
        with serve(env) as served:
            pid = http_worker(served.process.pid)
            before = rss_mib(pid)
            reset_peak_rss(pid)
            seconds, failed = asyncio.run(
                upload_all(served.url, data, args.uploads, args.in_flight)
            )
            peak = peak_rss_mib(pid)
    alone = pillow_alone(data, max(10, args.uploads // 4))
    report(
        "images",
        f"{args.uploads} uploads of a {WIDTH}x{HEIGHT} JPEG ({len(data) / 2**20:.1f} MiB), "
        f"{args.in_flight} in flight, {failed} failed",
        [
            Figure("uploads/s", args.uploads / seconds, "/s", "Pillow alone, 1 thread", alone,
                   ">= 20/s"),
            Figure("server peak RSS", peak, "MiB", "server RSS before", before),
        ],
    )  # fmt: skip


if __name__ == "__main__":
    main(parse_args())
