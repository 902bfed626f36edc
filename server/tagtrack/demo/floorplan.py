"""The demo sites' floor plan: one layout, drawn with Pillow, and where things stand on it.

Every position is a fraction [x, y] of the picture from its top-left corner.
"""

import io

from PIL import Image, ImageDraw, ImageFont
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tagtrack.images.storage import Storage, image_key
from tagtrack.models import Map, Site

PLAN_NAME = "Ground Floor"
WIDTH, HEIGHT = 1600, 1000

# Zone rooms (x0, y0, x1, y1) and their floor tint.
ROOMS: dict[str, tuple[tuple[float, float, float, float], tuple[int, int, int]]] = {
    "Yard": ((0.02, 0.05, 0.16, 0.95), (236, 239, 231)),
    "Receiving": ((0.18, 0.05, 0.40, 0.50), (232, 241, 251)),
    "Workshop": ((0.18, 0.52, 0.40, 0.95), (252, 243, 230)),
    "Warehouse A": ((0.42, 0.05, 0.98, 0.60), (240, 244, 248)),
    "Shipping": ((0.42, 0.62, 0.98, 0.95), (236, 247, 238)),
}
# Per zone: the door reader, its IN antenna (inside) and OUT antenna (outside).
DOORS: dict[str, tuple[list[float], list[float], list[float]]] = {
    "Receiving": ([0.18, 0.28], [0.21, 0.28], [0.15, 0.28]),
    "Warehouse A": ([0.42, 0.30], [0.45, 0.30], [0.39, 0.30]),
    "Workshop": ([0.29, 0.52], [0.29, 0.56], [0.29, 0.48]),
    "Shipping": ([0.70, 0.62], [0.70, 0.66], [0.70, 0.58]),
    "Yard": ([0.09, 0.95], [0.09, 0.91], [0.09, 0.985]),
}
# Doors in a horizontal wall (the others are in vertical walls).
HORIZONTAL_DOORS = {"Workshop", "Shipping", "Yard"}
HANDHELD_SPOT = [0.30, 0.30]
AISLE_X = (0.50, 0.62, 0.74, 0.86)
SHELF_Y = {"A": 0.20, "B": 0.45}
SPOTS: dict[str, list[float]] = {
    **{
        f"Aisle {a + 1} Shelf {s}": [x, y]
        for a, x in enumerate(AISLE_X)
        for s, y in SHELF_Y.items()
    },
    "Workbench 1": [0.24, 0.76],
    "Workbench 2": [0.34, 0.76],
    "Staging Lane 1": [0.80, 0.80],
}


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def _box(room: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = room
    return round(x0 * WIDTH), round(y0 * HEIGHT), round(x1 * WIDTH), round(y1 * HEIGHT)


def draw_floor_plan(site_name: str) -> bytes:
    """A clean PNG plan: rooms with walls and names, racking, door gaps, a title."""
    image = Image.new("RGB", (WIDTH, HEIGHT), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for x in range(0, WIDTH, 40):
        draw.line([(x, 0), (x, HEIGHT)], fill=(246, 247, 249))
    for y in range(0, HEIGHT, 40):
        draw.line([(0, y), (WIDTH, y)], fill=(246, 247, 249))
    wall = (55, 63, 75)
    for name, (room, tint) in ROOMS.items():
        box = _box(room)
        draw.rectangle(box, fill=tint, outline=wall, width=4 if name != "Yard" else 2)
        draw.text((box[0] + 14, box[1] + 12), name, fill=(40, 48, 60), font=_font(30))
    # Racking in Warehouse A: two bays per aisle.
    for number, aisle in enumerate(AISLE_X, start=1):
        label = (round((aisle - 0.005) * WIDTH), round(0.575 * HEIGHT))
        draw.text(label, f"Aisle {number}", fill=(90, 98, 110), font=_font(18), anchor="mm")
        for y0, y1 in ((0.13, 0.30), (0.37, 0.54)):
            for dx in (-0.035, 0.025):
                rack = (aisle + dx, y0, aisle + dx + 0.012, y1)
                draw.rectangle(_box(rack), fill=(170, 180, 194), outline=wall)
    for bench in ("Workbench 1", "Workbench 2"):
        bx, by = SPOTS[bench]
        draw.rectangle(_box((bx - 0.035, by - 0.06, bx + 0.035, by - 0.03)), fill=(214, 190, 160))
    # Door gaps in the walls where the readers stand.
    for zone, (door, _inside, _outside) in DOORS.items():
        cx, cy = round(door[0] * WIDTH), round(door[1] * HEIGHT)
        dx, dy = (28, 4) if zone in HORIZONTAL_DOORS else (4, 28)
        draw.rectangle((cx - dx, cy - dy, cx + dx, cy + dy), fill=(255, 255, 255))
    draw.text(
        (WIDTH - 20, HEIGHT - 18), f"{site_name} · {PLAN_NAME}", fill=(120, 128, 140),
        font=_font(20), anchor="rd",
    )  # fmt: skip
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


async def store_demo_floor_plans(
    sessionmaker: async_sessionmaker[AsyncSession], storage: Storage, site_names: list[str]
) -> int:
    """Draw and store the picture of the demo sites' plans that have none yet; how many."""
    async with sessionmaker() as session, session.begin():
        stmt = (
            select(Map, Site.name)
            .join(Site, (Site.org_id == Map.org_id) & (Site.id == Map.site_id))
            .where(Map.name == PLAN_NAME, Map.image_key == "", Site.name.in_(site_names))
        )
        plans = (await session.execute(stmt)).all()
        for plan, site_name in plans:
            data = draw_floor_plan(site_name)
            key = image_key(plan.org_id, plan.id, "plan")
            await storage.put(key, data)
            plan.image_key = key
            plan.image_type = "image/png"
            plan.image_width, plan.image_height = WIDTH, HEIGHT
            plan.image_version += 1
        return len(plans)
