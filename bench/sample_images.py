"""Draws the sample blog's images (content/static/images/): a photo stand-in of a
GPU server rack, one of InfiniBand cables, a topology diagram of an 8-GPU
node, and a chart of NCCL bus bandwidth. Made here, not downloaded, so the
sample blog owes nothing to anyone; sized as a camera or a plotting tool
would leave them (2,000-2,400 pixels across), which is what the export's
copies for smaller screens are measured against.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install pillow==11.0.0
    /tmp/venv/bin/python bench/sample_images.py content/static/images
"""

import math
import random
import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def font(size, bold=False):
    return ImageFont.truetype(BOLD if bold else FONT, size)


def grain(image, amount, seed):
    """Film grain: small noise, blurred a little, as a camera sensor leaves it."""
    rng = random.Random(seed)
    noise = Image.new("L", (image.width // 2, image.height // 2))
    noise.putdata([128 + int(rng.gauss(0, amount)) for _ in range(noise.width * noise.height)])
    noise = noise.resize(image.size, Image.BILINEAR).filter(ImageFilter.GaussianBlur(0.8))
    return Image.blend(image, Image.merge("RGB", (noise, noise, noise)), 0.06)


def rack(path):
    """A row of server racks in a dim machine room, blue and green status lights."""
    w, h = 2400, 1600
    image = Image.new("RGB", (w, h))
    draw = ImageDraw.Draw(image)
    for y in range(h):
        t = y / h
        draw.line([(0, y), (w, y)], fill=(int(18 + 20 * t), int(22 + 24 * t), int(34 + 30 * t)))
    rng = random.Random(7)
    for i, x in enumerate(range(140, w - 300, 560)):
        draw.rectangle([x, 120, x + 480, h - 140], fill=(30, 33, 40), outline=(70, 74, 84), width=6)
        for row, y in enumerate(range(170, h - 200, 78)):
            shade = 42 + (row % 3) * 6
            draw.rectangle([x + 24, y, x + 456, y + 64], fill=(shade, shade + 3, shade + 8))
            for k in range(18):
                draw.rectangle([x + 60 + k * 18, y + 14, x + 70 + k * 18, y + 50], fill=(24, 26, 31))
            for k in range(4):
                if rng.random() < 0.8:
                    color = (60, 200, 255) if (k + row + i) % 3 else (90, 240, 120)
                    cx, cy = x + 400 + k * 12, y + 32
                    draw.ellipse([cx - 4, cy - 4, cx + 4, cy + 4], fill=color)
    glow = image.filter(ImageFilter.GaussianBlur(18))
    image = Image.blend(image, glow, 0.35)
    draw = ImageDraw.Draw(image)
    for y in range(h - 140, h):
        t = (y - (h - 140)) / 140
        draw.line([(0, y), (w, y)], fill=(int(40 + 30 * t), int(44 + 30 * t), int(52 + 30 * t)))
    grain(image, 40, 1).save(path, quality=82, optimize=True, progressive=True)


def cables(path):
    """Bundles of InfiniBand cables running into a switch, close up."""
    w, h = 2000, 1333
    image = Image.new("RGB", (w, h), (26, 28, 34))
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, w, 360], fill=(44, 47, 56))
    for p in range(24):
        x = 90 + p * 76
        draw.rectangle([x, 240, x + 56, 330], fill=(20, 21, 25), outline=(90, 94, 104), width=3)
        draw.ellipse([x + 22, 190, x + 34, 202], fill=(90, 240, 120) if p % 5 else (255, 170, 60))
    rng = random.Random(3)
    for p in range(24):
        x0 = 118 + p * 76
        x1 = x0 + rng.randint(-500, 500)
        color = [(40, 110, 200), (30, 30, 34), (200, 120, 40)][p % 3]
        points = []
        for step in range(41):
            t = step / 40
            x = x0 + (x1 - x0) * (3 * t * t - 2 * t * t * t)
            y = 330 + t * (h - 330) + math.sin(t * 3 + p) * 30
            points.append((x, y))
        draw.line(points, fill=color, width=34, joint="curve")
        draw.line([(x + 8, y) for x, y in points], fill=tuple(min(255, c + 60) for c in color), width=6)
    image = image.filter(ImageFilter.GaussianBlur(1.2))
    grain(image, 36, 2).save(path, quality=82, optimize=True, progressive=True)


def topology(path):
    """Eight GPUs on NVSwitch, two CPUs, four NICs: the node `nvidia-smi topo -m` describes."""
    w, h = 1600, 1000
    image = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(image)
    title = font(40, bold=True)
    label = font(28)
    draw.text((60, 40), "8-GPU node: NVLink through NVSwitch, one NIC per GPU pair", font=title, fill=(17, 24, 39))
    draw.rounded_rectangle([150, 430, w - 150, 520], radius=18, fill=(253, 242, 248), outline=(219, 39, 119), width=4)
    draw.text((w // 2 - 130, 455), "NVSwitch fabric", font=label, fill=(190, 24, 93))
    for i in range(8):
        x = 150 + i * 165
        draw.rounded_rectangle([x, 200, x + 140, 330], radius=14, fill=(239, 246, 255), outline=(9, 105, 218), width=4)
        draw.text((x + 28, 248), f"GPU{i}", font=label, fill=(9, 105, 218))
        draw.line([(x + 70, 330), (x + 70, 430)], fill=(219, 39, 119), width=8)
    for n in range(4):
        x = 230 + n * 330
        draw.rounded_rectangle([x, 640, x + 170, 740], radius=14, fill=(240, 253, 244), outline=(26, 127, 55), width=4)
        draw.text((x + 36, 674), f"NIC{n}", font=label, fill=(26, 127, 55))
        for g in (2 * n, 2 * n + 1):
            gx = 150 + g * 165 + 70
            draw.line([(gx, 330), (x + 85, 640)], fill=(150, 160, 175), width=3)
    for c in range(2):
        x = 330 + c * 660
        for n in (2 * c, 2 * c + 1):
            draw.line([(x + 140, 840), (230 + n * 330 + 85, 740)], fill=(150, 160, 175), width=3)
        draw.rounded_rectangle([x, 840, x + 280, 940], radius=14, fill=(249, 250, 251), outline=(75, 85, 99), width=4)
        draw.text((x + 70, 874), f"CPU{c} (NUMA {c})", font=font(26), fill=(55, 65, 81))
    draw.text((60, 560), "PCIe switch", font=font(24), fill=(107, 114, 128))
    image.save(path, optimize=True)


def chart(path):
    """nccl-tests all_reduce_perf: bus bandwidth against message size, one node and two."""
    w, h = 1600, 900
    image = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(image)
    left, right, top, bottom = 150, w - 60, 110, h - 120
    draw.text((left, 30), "all_reduce_perf bus bandwidth (GB/s)", font=font(40, bold=True), fill=(17, 24, 39))
    for gb in range(0, 501, 100):
        y = bottom - (bottom - top) * gb / 500
        draw.line([(left, y), (right, y)], fill=(229, 231, 235), width=2)
        draw.text((left - 90, y - 16), f"{gb}", font=font(26), fill=(107, 114, 128))
    sizes = [2 ** k for k in range(3, 34, 2)]
    for i, size in enumerate(sizes):
        x = left + (right - left) * i / (len(sizes) - 1)
        if i % 2 == 0:
            text = f"{size // 2**30} GB" if size >= 2**30 else f"{size // 2**20} MB" if size >= 2**20 else f"{size // 2**10} KB" if size >= 2**10 else f"{size} B"
            draw.text((x - 40, bottom + 20), text, font=font(24), fill=(107, 114, 128))

    def curve(peak, half, color):
        points = []
        for i, size in enumerate(sizes):
            x = left + (right - left) * i / (len(sizes) - 1)
            busbw = peak * size / (size + half)
            points.append((x, bottom - (bottom - top) * busbw / 500))
        draw.line(points, fill=color, width=7, joint="curve")
        for x, y in points:
            draw.ellipse([x - 8, y - 8, x + 8, y + 8], fill=color)

    curve(460, 2**25, (219, 39, 119))
    curve(190, 2**27, (9, 105, 218))
    draw.text((left + 40, top + 10), "one node (NVLink)", font=font(28), fill=(219, 39, 119))
    draw.text((left + 40, top + 50), "two nodes (4x 400G IB)", font=font(28), fill=(9, 105, 218))
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=(55, 65, 81), width=3)
    image.save(path, optimize=True)


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "content/static/images")
    out.mkdir(parents=True, exist_ok=True)
    rack(out / "gpu-rack.jpg")
    cables(out / "ib-cables.jpg")
    topology(out / "node-topology.png")
    chart(out / "nccl-busbw.png")
    for file in sorted(out.iterdir()):
        print(f"{file}: {file.stat().st_size:,} bytes")
