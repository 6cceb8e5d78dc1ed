"""x264 settings for the explainer's frames: encoding time, size and quality, one run each.

A section is rendered once at 1080p30 while every frame manim hands its encoder is kept (the
RGBA pixels and how many times the frame repeats); then the same frames are encoded by PyAV
as manim's segment encoder does (``libx264``, ``yuv420p``, one ``VideoFrame`` per repeat),
once per setting. For each: the encoder's CPU seconds and wall seconds, the stream's size,
and its SSIM (Y, and all planes) against the raw frames converted to ``yuv420p`` by the same
conversion, as ffmpeg's ``ssim`` filter measures it: what the setting loses, not what
``yuv420p`` does.

Usage::

    python bench/bench_encoder.py [--section 11] [--frames 600] [--work DIR]

Prints one row per setting (Markdown) and writes them as JSON to ``--json`` if given.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import resource
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

import av
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WIDTH, HEIGHT, FPS = 1920, 1080, 30

#: The settings compared: name -> libx264 options (manim's default is x264's: medium, crf 23).
SETTINGS: dict[str, dict[str, str]] = {
    "x264 default (medium, crf 23)": {},
    "medium, tune animation": {"tune": "animation"},
    "fast": {"preset": "fast"},
    "faster": {"preset": "faster"},
    "veryfast": {"preset": "veryfast"},
    "veryfast, tune animation": {"preset": "veryfast", "tune": "animation"},
    "veryfast, crf 21": {"preset": "veryfast", "crf": "21"},
    "superfast": {"preset": "superfast"},
    "ultrafast": {"preset": "ultrafast"},
}


def capture(number: int, work: Path) -> tuple[Path, list[int]]:
    """Render section ``number`` at 1080p30 and keep every frame given to the encoder."""
    from manim import tempconfig
    from manim.scene import scene_file_writer

    from scenes.registry import by_number, load_scene_class

    raw_path, repeats = work / "frames.rgba", []
    raw = open(raw_path, "wb")
    original = scene_file_writer.SceneFileWriter.write_frame

    def write_frame(self, pixels, *, repeat=1):
        raw.write(np.ascontiguousarray(pixels).tobytes())
        repeats.append(repeat)
        return original(self, pixels, repeat=repeat)

    scene_file_writer.SceneFileWriter.write_frame = write_frame
    importlib.import_module("scenes.base")
    try:
        with tempconfig({"pixel_width": WIDTH, "pixel_height": HEIGHT, "frame_rate": FPS,
                         "media_dir": str(work / "media"), "disable_caching": True, "verbosity": "ERROR",
                         "progress_bar": "none"}):
            load_scene_class(by_number(number))().render()
    finally:
        scene_file_writer.SceneFileWriter.write_frame = original
        raw.close()
    return raw_path, repeats


def frames(raw_path: Path, repeats: list[int], limit: int):
    """The captured frames, each as many times as it repeats, at most ``limit`` in all."""
    size = WIDTH * HEIGHT * 4
    shown = 0
    with open(raw_path, "rb") as f:
        for repeat in repeats:
            pixels = np.frombuffer(f.read(size), np.uint8).reshape(HEIGHT, WIDTH, 4)
            for _ in range(min(repeat, limit - shown)):
                yield pixels
                shown += 1
            if shown >= limit:
                return


def encode(raw_path: Path, repeats: list[int], limit: int, options: dict, dest: Path) -> tuple[float, float]:
    """Encode the frames as manim's segment encoder does: CPU and wall seconds."""
    before, t = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
    with av.open(str(dest), "w") as container:
        stream = container.add_stream("libx264", rate=FPS, options=dict(options))
        stream.pix_fmt, stream.width, stream.height = "yuv420p", WIDTH, HEIGHT
        for pts, pixels in enumerate(frames(raw_path, repeats, limit)):
            frame = av.VideoFrame.from_ndarray(pixels, format="rgba")
            frame.pts, frame.time_base = pts, Fraction(1, FPS)
            container.mux(stream.encode(frame))
        container.mux(stream.encode(None))
    after = resource.getrusage(resource.RUSAGE_SELF)
    return (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime), time.perf_counter() - t


def reference(raw_path: Path, repeats: list[int], limit: int, dest: Path) -> None:
    """The raw frames as lossless ``yuv420p`` (x264 qp 0), converted as the encoder converts."""
    encode(raw_path, repeats, limit, {"qp": "0", "preset": "ultrafast"}, dest)


def ssim(video: Path, ref: Path) -> tuple[float, float]:
    """ffmpeg's SSIM of ``video`` against ``ref``: (Y, all)."""
    p = subprocess.run(["ffmpeg", "-nostdin", "-i", str(video), "-i", str(ref), "-lavfi", "ssim", "-f", "null", "-"],
                       capture_output=True, text=True, check=True)
    m = re.search(r"SSIM Y:([\d.]+).*All:([\d.]+)", p.stderr)
    assert m, p.stderr[-500:]
    return float(m[1]), float(m[2])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--section", type=int, default=11)
    ap.add_argument("--frames", type=int, default=10**9, help="encode at most this many frames")
    ap.add_argument("--work", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-encoder-"))
    work.mkdir(parents=True, exist_ok=True)
    raw_path, repeats = capture(args.section, work)
    n = min(sum(repeats), args.frames)
    print(f"section {args.section}: {len(repeats)} frames drawn, {sum(repeats)} shown; encoding {n}", flush=True)
    ref = work / "reference.mkv"
    reference(raw_path, repeats, n, ref)
    rows = []
    for name, options in SETTINGS.items():
        dest = work / f"{len(rows)}.mp4"
        cpu, wall = encode(raw_path, repeats, n, options, dest)
        y, everything = ssim(dest, ref)
        rows.append({"setting": name, "options": options, "cpu_s": round(cpu, 2), "wall_s": round(wall, 2),
                     "bytes": dest.stat().st_size, "ssim_y": y, "ssim_all": everything})
        print(rows[-1], flush=True)
    base = rows[0]
    print("\n| setting | encoder CPU | size | SSIM Y | SSIM all |\n|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['setting']} | {r['cpu_s'] / base['cpu_s']:.2f}x | {r['bytes'] / base['bytes']:.2f}x "
              f"| {r['ssim_y']:.5f} | {r['ssim_all']:.5f} |")
    if args.json:
        args.json.write_text(json.dumps({"section": args.section, "frames": n, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
