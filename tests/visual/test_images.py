"""bc_common.images on its own: placing the seed's images, content-hash files, hashes and stripping, sizing modes."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from bc_common.errors import InputError
from bc_common.images import (
    HASH_PREFIX,
    ImageFiles,
    ImageLimits,
    data_url,
    decode_data_url,
    encode_png,
    hash_images,
    image_bytes,
    image_urls_of,
    resolve_prompt,
    strip_images,
)


def png(size=(6, 4), mode="RGB", color=(1, 2, 3)) -> bytes:
    from PIL import Image

    return encode_png(Image.new(mode, size, color))


def test_placeholders_must_match_the_images(tmp_path: Path):
    (tmp_path / "a.png").write_bytes(png())
    messages = [{"role": "user", "content": "<image> and <image>"}]
    with pytest.raises(InputError, match=r"t.jsonl:4: image: 1 image\(s\) but 2 <image> placeholder"):
        resolve_prompt(messages, base=tmp_path, seed_images=["a.png"], source="t.jsonl", line=4)
    with pytest.raises(InputError, match="no user message"):
        resolve_prompt([{"role": "system", "content": "x"}], base=tmp_path, seed_images="a.png")
    assert messages == [{"role": "user", "content": "<image> and <image>"}]  # the input is never changed


def test_image_files_are_written_once_by_content(tmp_path: Path):
    (tmp_path / "out").mkdir()
    files = ImageFiles(tmp_path / "img", relative_to=tmp_path / "out")
    row = {"prompt": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": data_url(png())}},
                                                   {"type": "image_url", "image_url": {"url": data_url(png())}}]}]}
    files.externalize(row)
    urls = image_urls_of(row["prompt"])
    assert urls[0] == urls[1] and urls[0].startswith("../img/") and len(list((tmp_path / "img").iterdir())) == 1
    assert image_bytes(urls[0], base=tmp_path / "out", root=tmp_path)[0] == png()
    with pytest.raises(ValueError, match="outside the dataset's folder"):  # the images folder is not below out/
        image_bytes(urls[0], base=tmp_path / "out")


def test_hashes_and_stripping():
    messages = [{"role": "user", "content": [{"type": "text", "text": "a"},
                                             {"type": "image_url", "image_url": {"url": data_url(png())}},
                                             {"type": "text", "text": "b"}]},
                {"role": "assistant", "content": "ok"}]
    hashed = hash_images(messages)
    assert image_urls_of(hashed)[0].startswith(HASH_PREFIX) and len(image_urls_of(hashed)[0]) == 7 + 64
    assert image_urls_of(messages)[0].startswith("data:")  # copies, not changed in place
    assert strip_images(messages) == [{"role": "user", "content": "a\nb"}, {"role": "assistant", "content": "ok"}]
    with pytest.raises(InputError, match="no-store-images"):
        resolve_prompt(hashed, limits=ImageLimits(max_pixels=10))


@pytest.mark.parametrize("mode, color", [("RGBA", (1, 2, 3, 4)), ("L", 9), ("P", 3), ("1", 1)])
def test_sizing_keeps_every_image_mode_readable(mode, color):
    from PIL import Image

    data, mime = ImageLimits(max_pixels=16, min_edge=2).fit(png((8, 8), mode, color), "image/png")
    assert mime == "image/png" and Image.open(io.BytesIO(data)).size == (4, 4)


def test_jpeg_is_sent_as_is_within_limits_and_as_png_when_resized():
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (40, 20), "blue").save(buf, format="JPEG")
    jpeg = buf.getvalue()
    prompt = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": data_url(jpeg, "image/jpeg")}}]}]
    assert resolve_prompt(prompt, limits=ImageLimits(max_pixels=800)) == prompt
    (url,) = image_urls_of(resolve_prompt(prompt, limits=ImageLimits(max_pixels=200)))
    assert decode_data_url(url)[1] == "image/png" and Image.open(io.BytesIO(decode_data_url(url)[0])).size == (20, 10)


def test_broken_image_data_is_named():
    bad = [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]
    with pytest.raises(InputError, match=r"prompt\[0\].content\[0\]: not a decodable image"):
        resolve_prompt(bad, limits=ImageLimits(max_pixels=100))
    with pytest.raises(InputError, match="bad base64"):
        resolve_prompt([{"role": "user", "content": [{"type": "image_url", "image_url": {
            "url": "data:image/png;base64,@@"}}]}])


def test_only_regular_files_are_read(tmp_path: Path):
    with pytest.raises(ValueError, match="not a regular file"):
        image_bytes("/dev/zero")
    with pytest.raises(ValueError, match="not a regular file"):
        image_bytes(tmp_path)
    with pytest.raises(ValueError, match="No such file"):
        image_bytes("missing.png", base=tmp_path)
    (tmp_path / "notes.txt").write_text("secret", encoding="utf-8")
    with pytest.raises(ValueError, match="is not a PNG") as err:
        image_bytes("notes.txt", base=tmp_path)
    assert "secret" not in str(err.value)
