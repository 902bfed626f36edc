"""Demo photos: a few pictures of the demo sites, tagged and categorised, made on the spot."""

import io
from datetime import timedelta

from fastapi import BackgroundTasks
from PIL import Image as PilImage
from PIL import ImageDraw, ImageFont
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.categories.repository import CategoryRepository
from tagtrack.images.processing import process_photo
from tagtrack.images.service import ImageService
from tagtrack.images.storage import Storage
from tagtrack.kit.wiring import Wiring
from tagtrack.models import Image, ImageCategory, Organization, User
from tagtrack.models.base import utcnow

CATEGORIES = {
    "Damage": "Damaged goods, equipment and building",
    "Deliveries": "Inbound and outbound loads",
    "Site Survey": "Layout, racking and reader installation",
}
# (latitude, longitude) of the demo sites.
CHICAGO = (41.8523, -87.6512)
LEEDS = (53.7761, -1.5163)
ROTTERDAM = (51.9040, 4.4400)

# Comment, tags, category, place, days ago, device, colours (sky, ground, object).
PHOTOS = [
    ("Pallet wrap torn at dock door 3", ["dock-3", "pallet"], "Damage", CHICAGO, 2,
     "Apple iPhone 14", ((120, 140, 160), (90, 90, 90), (190, 150, 90))),
    ("Trailer 4471 arrived sealed", ["trailer", "inbound"], "Deliveries", CHICAGO, 5,
     "Zebra TC58", ((150, 180, 210), (70, 70, 75), (230, 230, 235))),
    ("Scrape on the mast of forklift FL-07", ["forklift", "FL-07"], "Damage", LEEDS, 1,
     "Samsung SM-S911B", ((200, 200, 190), (110, 100, 90), (240, 190, 40))),
    ("Racking aisle 12 before the re-slot", ["racking", "aisle-12"], "Site Survey", LEEDS, 9,
     "Apple iPhone 14", ((180, 185, 190), (120, 120, 125), (30, 90, 170))),
    ("Reader antenna mount at gate B", ["reader", "gate-b"], "Site Survey", ROTTERDAM, 3,
     "Zebra TC58", ((160, 170, 180), (85, 85, 85), (60, 60, 60))),
    ("Container MSKU 5521 at the yard", ["container", "inbound"], "Deliveries", ROTTERDAM, 0,
     "Samsung SM-S911B", ((140, 190, 230), (100, 95, 85), (30, 120, 170))),
    ("Crushed carton, SKU 88213", ["carton", "returns"], "Damage", ROTTERDAM, 12,
     "Apple iPhone 14", ((210, 205, 195), (150, 140, 125), (170, 130, 80))),
    ("Yard overview from the gatehouse", [], "Site Survey", CHICAGO, 20, "Zebra TC58",
     ((130, 175, 220), (95, 105, 80), (200, 200, 200))),
    ("Returns cage full", ["returns"], None, LEEDS, 4, "Samsung SM-S911B",
     ((190, 195, 200), (105, 100, 95), (150, 155, 160))),
]  # fmt: skip


def _dms(value: float) -> tuple[float, float, float]:
    degrees = int(value)
    minutes = int((value - degrees) * 60)
    return float(degrees), float(minutes), round(((value - degrees) * 60 - minutes) * 60, 3)


def demo_photo(
    caption: str,
    place: tuple[float, float],
    taken: str,
    device: str,
    colours: tuple[tuple[int, int, int], ...],
) -> bytes:
    """A simple picture: sky, floor, a load in the middle and the caption; EXIF as a phone."""
    sky, ground, thing = colours
    picture = PilImage.new("RGB", (1200, 900), sky)
    draw = ImageDraw.Draw(picture)
    draw.rectangle((0, 560, 1200, 900), fill=ground)
    draw.rectangle((380, 300, 820, 640), fill=thing, outline=(30, 30, 30), width=6)
    draw.line((380, 470, 820, 470), fill=(40, 40, 40), width=4)
    font = ImageFont.load_default(size=44)
    draw.rectangle((0, 800, 1200, 900), fill=(0, 0, 0))
    draw.text((30, 825), caption, fill=(255, 255, 255), font=font)
    exif = PilImage.Exif()
    exif[0x010F] = device.split(" ")[0]
    exif[0x0110] = device
    exif[0x0112] = 1
    exif.get_ifd(0x8769)[0x9003] = taken
    gps = exif.get_ifd(0x8825)
    latitude, longitude = place
    gps[1], gps[2] = ("N" if latitude >= 0 else "S"), _dms(abs(latitude))
    gps[3], gps[4] = ("E" if longitude >= 0 else "W"), _dms(abs(longitude))
    out = io.BytesIO()
    picture.save(out, "JPEG", quality=82, exif=exif)
    return out.getvalue()


async def seed_demo_images(sessionmaker: async_sessionmaker[AsyncSession], storage: Storage) -> int:
    """Add the demo photos to the first organization once; answers how many were added."""
    async with sessionmaker() as session, session.begin():
        org = (
            await session.execute(select(Organization).order_by(Organization.time_created).limit(1))
        ).scalar_one()
        if (await session.execute(select(Image.id).where(Image.org_id == org.id).limit(1))).first():
            return 0
        categories = CategoryRepository(session)
        ids: dict[str, str] = {}
        for name, description in CATEGORIES.items():
            category = await categories.by_name(org.id, name)
            if category is None:
                category = await categories.add(
                    ImageCategory(org_id=org.id, name=name, description=description)
                )
            ids[name] = category.id
        users = (
            (
                await session.execute(
                    select(User.id).where(User.org_id == org.id).order_by(User.name)
                )
            )
            .scalars()
            .all()
        )
        service = Wiring(session, storage, sessionmaker, BackgroundTasks()).get(ImageService)
        now = utcnow()
        for n, (caption, tags, label, place, days, device, colours) in enumerate(PHOTOS):
            taken = (now - timedelta(days=days, hours=n)).strftime("%Y:%m:%d %H:%M:%S")
            data = demo_photo(caption, place, taken, device, colours)
            processed = await process_photo(data)
            await service.store_photo(
                org.id,
                users[n % len(users)] if users else None,
                data,
                processed,
                name=f"IMG_{4100 + n}.jpg",
                tags=tags,
                category_ids=[ids[label]] if label else [],
                annotation=caption,
            )
        return len(PHOTOS)
