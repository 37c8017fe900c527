"""Images of visual tasks: prompts with image parts, PNG encoding, files by content hash, size limits.

A task's images travel inside its prompt as OpenAI content parts,
`{"type": "image_url", "image_url": {"url": "data:image/png;base64,..."}}`, so a row is self-contained. Every
tool goes through this module:

    prompt_messages({"prompt_img": img, "prompt_txt": "Look:", "question": "How many?"})  # bc-gen (seed form)
    ImageFiles("out/images", relative_to="out").externalize(row)   # bc-gen --image-dir: data URLs -> files
    resolve_prompt(messages, base=Path("data"), seed_images=row.get("image"), limits=ImageLimits(1 << 20, 28))
    hash_images(messages), strip_images(messages)                   # bc-eval --no-store-images, bc-filter

`encode_png` writes no metadata (no time, no text chunks) at a fixed compression and `bc_common.drawing` draws
text with Pillow's built-in bitmap font (no system fonts), so the same identity gives the same bytes. verl's
form of an image prompt is `bc_common.verl_rows.verl_prompt`.
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import io
import math
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import InputError

PLACEHOLDER = "<image>"
HASH_PREFIX = "sha256:"  # what --no-store-images leaves of an image: the hash of the bytes sent
SEED_KEYS = ("prompt_img", "prompt_txt", "question")  # the seed's dict form of prompt_func
_MAGIC = ((b"\x89PNG\r\n\x1a\n", "image/png"), (b"\xff\xd8\xff", "image/jpeg"), (b"GIF87a", "image/gif"),
          (b"GIF89a", "image/gif"), (b"RIFF", "image/webp"), (b"BM", "image/bmp"))
_EXT = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp", "image/bmp": "bmp"}
MAX_FILE_BYTES = 64 << 20  # an image file larger than this is refused, not read
MAX_OUTPUT_PIXELS = 1 << 25  # no scaling makes an image larger than this (~5800 x 5800), whatever the flags
MAX_ASPECT = 200  # longer edge / shorter edge; beyond it no vision model reads the image (Qwen-VL refuses too)
_DATA_URL = re.compile(r"data:(image/[A-Za-z0-9.+-]+);base64,(.*)", re.S)


# ---- encoding -------------------------------------------------------------------------------------------------

def encode_png(image: Any) -> bytes:
    """A PIL image as PNG bytes that depend on its pixels only (no metadata, fixed compression)."""
    buf = io.BytesIO()
    if image.mode not in ("1", "L", "LA", "P", "RGB", "RGBA", "I", "I;16"):
        image = image.convert("RGBA")
    image.save(buf, format="PNG", compress_level=6, optimize=False)
    return buf.getvalue()


def sniff_mime(data: bytes) -> str | None:
    """The image type of `data` by its magic bytes (png, jpeg, gif, webp, bmp), or None."""
    for magic, mime in _MAGIC:
        if data.startswith(magic) and (mime != "image/webp" or data[8:12] == b"WEBP"):
            return mime
    return None


def data_url(data: bytes, mime: str = "image/png") -> str:
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"


def decode_data_url(url: str) -> tuple[bytes, str]:
    """(bytes, mime) of a base64 image data URL; ValueError when it is not one."""
    m = _DATA_URL.fullmatch(url)
    if m is None:
        raise ValueError("not a base64 image data URL")
    try:
        return base64.b64decode(m[2], validate=True), m[1]
    except binascii.Error as exc:
        raise ValueError(f"bad base64 in the data URL ({exc})") from None


def image_bytes(value: Any, base: Path | None = None, root: Path | None = None) -> tuple[bytes, str]:
    """(bytes, mime) of an image given as a PIL image, encoded bytes, a data URL or a file path: relative to `base`
    and confined to `root` (default `base`: a task row's paths stay inside the dataset's folder), else relative
    to the current directory. ValueError says what is wrong."""
    if hasattr(value, "save") and hasattr(value, "size"):  # a PIL image
        return encode_png(value), "image/png"
    if isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        mime = sniff_mime(data)
        if mime is None:
            raise ValueError("bytes that are not a PNG, JPEG, GIF, WebP or BMP image")
        return data, mime
    if isinstance(value, dict) and isinstance(value.get("bytes"), (bytes, bytearray)):  # HF datasets' Image
        return image_bytes(value["bytes"])
    if isinstance(value, os.PathLike) or isinstance(value, str):
        text = os.fspath(value)
        if text.startswith("data:"):
            return decode_data_url(text)
        path = Path(text[7:] if text.startswith("file://") else text)
        if base is not None:
            path = inside(root or base, base, path, text)
        try:
            if not path.is_file():  # a folder, a device (/dev/zero) or a pipe is no image
                raise ValueError(f"image {str(path)!r} is not a regular file") if path.exists() else \
                    FileNotFoundError(2, "No such file or directory")
            if path.stat().st_size > MAX_FILE_BYTES:
                raise ValueError(f"image {str(path)!r} is larger than {MAX_FILE_BYTES >> 20} MiB")
            data = path.read_bytes()
        except OSError as exc:
            raise ValueError(f"cannot read image {str(path)!r}: {exc.strerror or exc}") from None
        mime = sniff_mime(data)
        if mime is None:
            raise ValueError(f"{str(path)!r} is not a PNG, JPEG, GIF, WebP or BMP image")
        return data, mime
    raise ValueError(f"an image must be a PIL image, bytes or a path, got {type(value).__name__}")


class ImageRefused(ValueError):
    """An image refused for where it is or what it is, not for a read error: outside the allowed folder, an
    absurd aspect ratio."""


def inside(root: Path, base: Path, path: Path, text: str) -> Path:
    """`path` (relative to `base`) resolved, symlinks included, when it lies inside `root`; else ImageRefused with
    one message whether or not the file exists (a row must not probe the disk)."""
    root = Path(os.path.realpath(root))
    real = Path(os.path.realpath(base / path)) if not path.is_absolute() else None
    if real is None or not (real == root or real.is_relative_to(root)):
        raise ImageRefused(f"image path {text!r} is outside the dataset's folder: task rows may name images inside "
                           "the folder of their file only (bc-eval --image-root DIR names another folder)")
    return real


def image_part(value: Any, base: Path | None = None) -> dict[str, Any]:
    """The OpenAI content part of an image (inlined as a data URL)."""
    return {"type": "image_url", "image_url": {"url": data_url(*image_bytes(value, base))}}


def text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def is_image_part(part: Any) -> bool:
    return isinstance(part, dict) and part.get("type") in ("image_url", "image")


def part_url(part: dict[str, Any]) -> str | None:
    """The URL of an `image_url` part (the object form or a bare string), or None."""
    value = part.get("image_url")
    if isinstance(value, dict):
        value = value.get("url")
    return value if isinstance(value, str) else None


# ---- prompts from generators (bc-gen) ---------------------------------------------------------------------------

def prompt_messages(prompt: Any) -> list[dict[str, Any]]:
    """The chat messages of whatever a generator's `prompt_func` returned:

    - a string: one user message;
    - the seed's dict `{"prompt_img", "prompt_txt", "question"}` (image(s) as PIL images, bytes or paths): one
      user message of parts, in the order text, image(s), question;
    - a list of content parts (dicts, strings for text, PIL images / bytes for images): one user message;
    - a list of chat messages (dicts with a role), whose content may itself be such a list of parts.
    Images become PNG (or their own type's) data URLs. ValueError names what does not fit."""
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    if isinstance(prompt, dict):
        return [{"role": "user", "content": _seed_parts(prompt)}]
    if isinstance(prompt, (list, tuple)):
        if prompt and all(isinstance(m, dict) and "role" in m for m in prompt):
            return [_message(m, i) for i, m in enumerate(prompt)]
        return [{"role": "user", "content": content_parts(prompt)}]
    raise ValueError(f"prompt_func returned {type(prompt).__name__}; expected a string, the seed's dict "
                     f"({', '.join(SEED_KEYS)}), a list of content parts or a list of chat messages")


def _seed_parts(prompt: dict[str, Any]) -> list[dict[str, Any]]:
    unknown = sorted(set(prompt) - set(SEED_KEYS))
    if unknown:
        raise ValueError(f"prompt_func's dict has unknown key(s) {', '.join(map(repr, unknown))}; the seed's "
                         f"form has {', '.join(SEED_KEYS)}")
    images = prompt.get("prompt_img")
    images = [] if images is None else list(images) if isinstance(images, (list, tuple)) else [images]
    if not images:
        raise ValueError("prompt_func's dict has no 'prompt_img' (the image of a visual task)")
    parts = []
    if prompt.get("prompt_txt"):
        parts.append(text_part(str(prompt["prompt_txt"])))
    for i, image in enumerate(images):
        try:
            parts.append(image_part(image))
        except ValueError as exc:
            raise ValueError(f"prompt_img[{i}]: {exc}") from None
    if prompt.get("question"):
        parts.append(text_part(str(prompt["question"])))
    return parts


def content_parts(items: Any) -> list[dict[str, Any]]:
    """A list of content parts with every image inlined: strings are text, PIL images and bytes are images,
    `{"type": "image", "image": X}` and `image_url` parts with a path are read; other dicts pass as they are."""
    parts = []
    for i, item in enumerate(items):
        try:
            if isinstance(item, str):
                parts.append(text_part(item))
            elif isinstance(item, dict) and item.get("type") == "image" and "image" in item:
                parts.append(image_part(item["image"]))
            elif isinstance(item, dict) and item.get("type") == "image_url":
                url = part_url(item)
                if url is None:
                    raise ValueError("image_url part without a url")
                parts.append(item if _is_url(url) else image_part(url))
            elif isinstance(item, dict):
                parts.append(item)
            else:
                parts.append(image_part(item))
        except ValueError as exc:
            raise ValueError(f"content part {i}: {exc}") from None
    return parts


def _message(msg: dict[str, Any], i: int) -> dict[str, Any]:
    content = msg.get("content")
    if isinstance(content, (list, tuple)):
        try:
            return {**msg, "content": content_parts(content)}
        except ValueError as exc:
            raise ValueError(f"message {i}: {exc}") from None
    return dict(msg)


def _is_url(url: str) -> bool:
    return url.startswith(("data:", "http://", "https://"))


# ---- image files by content hash (bc-gen --image-dir) -----------------------------------------------------------

class ImageFiles:
    """Moves a row's inlined images into `folder` as files named by their SHA-256, referenced by a path relative
    to `relative_to` (the folder of the row's file). The same image is written once; files are published
    atomically, so a concurrent reader never sees half a file."""

    def __init__(self, folder: str | Path, relative_to: str | Path = "."):
        self.folder = Path(folder)
        self.relative_to = Path(relative_to)
        self.written: set[str] = set()

    def externalize(self, row: dict[str, Any]) -> dict[str, Any]:
        """`row` with its prompt's data URLs replaced by relative paths (the row is changed in place)."""
        for part in _image_parts(row.get("prompt")):
            url = part_url(part)
            if url and url.startswith("data:"):
                data, mime = decode_data_url(url)
                _set_url(part, self.save(data, mime))
        return row

    def save(self, data: bytes, mime: str) -> str:
        name = f"{hashlib.sha256(data).hexdigest()}.{_EXT.get(mime, 'img')}"
        path = self.folder / name
        if name not in self.written and not path.is_file():
            from .jsonl import atomic_write_bytes

            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(path, data)
        self.written.add(name)
        return Path(os.path.relpath(path, self.relative_to)).as_posix()


def externalize_line(line: bytes, files: ImageFiles) -> bytes:
    """A JSONL row's bytes with its inlined images moved to files (rows without images are returned as is)."""
    if b'"data:image/' not in line:
        return line
    import orjson

    return orjson.dumps(files.externalize(orjson.loads(line)), option=orjson.OPT_APPEND_NEWLINE)


# ---- prompts as sent (bc-eval) ----------------------------------------------------------------------------------

def dataset_folder(source: str) -> Path:
    """Where relative image paths of rows read from `source` point: the file's folder (stdin: the current one)."""
    return Path(source).parent if source and not source.startswith("<") else Path(".")


@dataclass(frozen=True)
class ImageLimits:
    """A pixel budget (width x height; larger images are scaled down, aspect kept) and a minimum edge (smaller
    images are scaled up). None: no limit. The pixel budget wins where both cannot hold."""

    max_pixels: int | None = None
    min_edge: int | None = None

    ENV_MAX = "MAX_IMAGE_SIZE"  # the seed's environment variables
    ENV_MIN = "MIN_IMAGE_EDGE"

    def __post_init__(self) -> None:
        if self.max_pixels is not None and self.max_pixels < 1:
            raise ValueError("the image pixel budget must be at least 1")
        if self.min_edge is not None and self.min_edge < 1:
            raise ValueError("the minimum image edge must be at least 1")

    @classmethod
    def resolve(cls, max_pixels: int | None = None, min_edge: int | None = None,
                environ: dict[str, str] | None = None) -> ImageLimits:
        """Flags first, then the seed's MAX_IMAGE_SIZE / MIN_IMAGE_EDGE, then no limit; 0 turns a limit off."""
        env = os.environ if environ is None else environ

        def pick(flag: int | None, var: str) -> int | None:
            if flag is not None:
                return flag or None
            text = env.get(var, "").strip()
            if not text:
                return None
            try:
                return int(text) or None
            except ValueError:
                raise ValueError(f"${var}={text!r}: expected a whole number of pixels") from None

        return cls(pick(max_pixels, cls.ENV_MAX), pick(min_edge, cls.ENV_MIN))

    def target(self, width: int, height: int) -> tuple[int, int] | None:
        """The size to scale (width, height) to, or None when it fits. Scaling up never passes
        MAX_OUTPUT_PIXELS; ImageRefused for an aspect ratio beyond MAX_ASPECT (a 1 x 1,000,000 strip raised to
        a 28-pixel edge would be 784 million pixels)."""
        if max(width, height) > MAX_ASPECT * min(width, height):
            raise ImageRefused(f"the image is {width} x {height} pixels: an aspect ratio over {MAX_ASPECT}:1 is "
                               "refused")
        budget = min(self.max_pixels or MAX_OUTPUT_PIXELS, MAX_OUTPUT_PIXELS)
        scale = 1.0
        if self.min_edge and min(width, height) < self.min_edge:
            scale = self.min_edge / min(width, height)
        if width * height * scale * scale > budget:
            scale = math.sqrt(budget / (width * height))
        if scale == 1.0:
            return None
        w, h = max(1, round(width * scale)), max(1, round(height * scale))
        while w * h > budget and (w > 1 or h > 1):  # rounding up may overshoot
            w, h = max(1, w - (w >= h)), max(1, h - (h > w))
        return (w, h) if (w, h) != (width, height) else None

    def fit(self, data: bytes, mime: str) -> tuple[bytes, str]:
        """(bytes, mime) within the limits: unchanged when they hold, else scaled (bicubic) and re-encoded PNG."""
        if not (self.max_pixels or self.min_edge):
            return data, mime
        from PIL import Image

        with Image.open(io.BytesIO(data)) as image:
            size = self.target(*image.size)
            if size is None:
                return data, mime
            image.load()
            return encode_png(image.resize(size, Image.Resampling.BICUBIC)), "image/png"


def resolve_prompt(messages: list[dict[str, Any]], *, base: Path | None = None, seed_images: Any = None,
                   limits: ImageLimits | None = None, source: str | None = None,
                   line: int | None = None, root: Path | None = None) -> list[dict[str, Any]]:
    """The messages as a model receives them: a seed row's `image` list placed into the first user message (at
    its `<image>` placeholders, else before its text), file references read relative to `base` (the dataset's
    folder) and confined to `root` (default `base`), every image within `limits`, all as data URLs. http(s) URLs are sent as they are. The input is not
    changed. InputError (naming `source:line` and the part) when an image cannot be read."""
    limits = limits or ImageLimits()
    out = [dict(m) for m in messages]
    try:
        if seed_images not in (None, [], ""):
            _place_seed_images(out, seed_images if isinstance(seed_images, (list, tuple)) else [seed_images], base,
                               root)
    except ValueError as exc:
        raise InputError(f"image: {exc}", source=source, line=line, field="image") from None
    for i, msg in enumerate(out):
        content = msg.get("content")
        if not isinstance(content, list) or not any(is_image_part(p) for p in content):
            continue
        parts = []
        for j, part in enumerate(content):
            if is_image_part(part):
                try:
                    part = _sendable(part, base, limits, root)
                except (ValueError, OSError) as exc:
                    raise InputError(f"prompt[{i}].content[{j}]: {exc}", source=source, line=line,
                                     field=f"prompt[{i}].content[{j}]") from None
            parts.append(part)
        msg["content"] = parts
    return out


def _sendable(part: dict[str, Any], base: Path | None, limits: ImageLimits, root: Path | None = None) -> dict[str, Any]:
    url = part_url(part) if part.get("type") == "image_url" else None
    if url is not None and url.startswith(("http://", "https://")):
        return part
    if url is not None and url.startswith(HASH_PREFIX):
        raise ValueError("only the hash of this image was stored (bc-eval --no-store-images); its bytes are gone")
    source = url if url is not None else part.get("image")
    if source is None:
        raise ValueError("image part without an image")
    data, mime = image_bytes(source, base, root)
    try:
        data, mime = limits.fit(data, mime)
    except ImageRefused:
        raise
    except Exception as exc:  # Pillow raises several types for broken data
        raise ValueError(f"not a decodable image ({type(exc).__name__}: {exc})") from None
    new = {k: v for k, v in part.items() if k not in ("image", "image_url")}
    new.update(type="image_url", image_url={**(part.get("image_url") if isinstance(part.get("image_url"), dict)
                                                else {}), "url": data_url(data, mime)})
    return new


def _place_seed_images(messages: list[dict[str, Any]], images: list[Any], base: Path | None,
                       root: Path | None = None) -> None:
    parts = [{"type": "image_url", "image_url": {"url": data_url(*image_bytes(img, base, root))}} for img in images]
    for msg in messages:
        if msg.get("role") == "user":
            break
    else:
        raise ValueError("the row has images but no user message to put them in")
    content = msg.get("content")
    items = [text_part(content)] if isinstance(content, str) else list(content or [])
    holes = sum(p.get("text", "").count(PLACEHOLDER) for p in items if isinstance(p, dict) and p.get("type") == "text")
    if holes and holes != len(parts):
        raise ValueError(f"{len(parts)} image(s) but {holes} {PLACEHOLDER} placeholder(s) in the first user message")
    if not holes:
        msg["content"] = parts + items
        return
    queue, placed = list(parts), []
    for p in items:
        if not (isinstance(p, dict) and p.get("type") == "text" and PLACEHOLDER in p.get("text", "")):
            placed.append(p)
            continue
        for k, piece in enumerate(p["text"].split(PLACEHOLDER)):
            if k:
                placed.append(queue.pop(0))
            if piece.strip():
                placed.append(text_part(piece))
    msg["content"] = placed


# ---- stored forms (bc-eval --no-store-images, bc-filter --strip-images) -----------------------------------------

def _image_parts(messages: Any) -> Iterator[dict[str, Any]]:
    for msg in messages if isinstance(messages, list) else []:
        content = msg.get("content") if isinstance(msg, dict) else None
        if isinstance(content, list):
            yield from (p for p in content if is_image_part(p))


def _set_url(part: dict[str, Any], url: str) -> None:
    if isinstance(part.get("image_url"), dict):
        part["image_url"] = {**part["image_url"], "url": url}
    else:
        part["image_url"] = {"url": url}


def image_urls_of(messages: Any) -> list[str]:
    """The URLs of every image part of the messages, in order."""
    return [u for u in (part_url(p) for p in _image_parts(messages)) if u is not None]


def count_images(messages: Any) -> int:
    return sum(1 for _ in _image_parts(messages))


def hash_images(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies of the messages with each inlined image replaced by `sha256:<hex>` of its bytes."""
    out = []
    for msg in messages:
        content = msg.get("content") if isinstance(msg, dict) else None
        if isinstance(content, list) and any(is_image_part(p) for p in content):
            parts = []
            for p in content:
                url = part_url(p) if is_image_part(p) else None
                if url and url.startswith("data:"):
                    p = {**p, "image_url": {**p["image_url"], "url": HASH_PREFIX
                                            + hashlib.sha256(decode_data_url(url)[0]).hexdigest()}}
                parts.append(p)
            msg = {**msg, "content": parts}
        out.append(msg)
    return out


def strip_images(messages: Any) -> Any:
    """Copies of the messages without image parts; a content left with text parts only becomes a string."""
    if not isinstance(messages, list):
        return messages
    out = []
    for msg in messages:
        content = msg.get("content") if isinstance(msg, dict) else None
        if isinstance(content, list) and any(is_image_part(p) for p in content):
            kept = [p for p in content if not is_image_part(p)]
            if all(isinstance(p, dict) and p.get("type") == "text" for p in kept):
                kept = "\n".join(str(p.get("text") or "") for p in kept)
            msg = {**msg, "content": kept}
        out.append(msg)
    return out
