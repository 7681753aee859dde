"""Outputs as artifacts the scorer can read: files under the shared artifact directory, or small inline bytes.

An output may be a file path, encoded bytes (PNG, JPEG, MP4, WebM), a PIL image, a numpy array (an
image; a 4-D array is a list of frames) or a list of frames, which is encoded to MP4 with ffmpeg.
"""
from __future__ import annotations

import base64
import dataclasses
import hashlib
import io
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
from typing import Any, Dict, Optional, Sequence

from . import s3 as _s3
from .errors import ArtifactError, ArtifactOutsideDirectory, VideoEncoderMissing

try:
    import numpy as _np
except ImportError:  # pragma: no cover - numpy is optional
    _np = None
try:
    from PIL import Image as _Image
except ImportError:  # pragma: no cover - Pillow is optional
    _Image = None

EXTENSIONS = {"image/png": ".png", "image/jpeg": ".jpg", "video/mp4": ".mp4", "video/webm": ".webm",
              "application/json": ".json"}
BY_EXTENSION = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".mp4": "video/mp4",
                ".webm": "video/webm", ".json": "application/json"}
DEFAULT_FPS = 24.0


@dataclasses.dataclass
class Artifact:
    """An output ready to be referenced: its bytes or its file, and what it is."""
    media_type: str
    data: Optional[bytes] = None
    path: Optional[pathlib.Path] = None
    width: Optional[int] = None
    height: Optional[int] = None
    fps: Optional[float] = None
    frame_count: Optional[int] = None

    @property
    def kind(self) -> str:
        """image, video or other."""
        return self.media_type.split("/")[0] if self.media_type.split("/")[0] in ("image", "video") else "other"


def sniff(head: bytes) -> Optional[str]:
    """The media type of encoded bytes from their first bytes."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[4:8] == b"ftyp":
        return "video/mp4"
    if head.startswith(b"\x1a\x45\xdf\xa3"):
        return "video/webm"
    if head.lstrip()[:1] in (b"{", b"["):
        return "application/json"
    return None


def from_output(output: Any, fps: Optional[float] = None, media_type: Optional[str] = None) -> Artifact:
    """The artifact of an output (see the module's doc for what an output may be)."""
    if isinstance(output, (str, os.PathLike)):
        path = pathlib.Path(output)
        if not path.is_file():
            raise ArtifactError("output file %s does not exist or is not a regular file" % path)
        with open(path, "rb") as f:
            head = f.read(64)
        kind = media_type or sniff(head) or BY_EXTENSION.get(path.suffix.lower())
        if kind is None:
            raise ArtifactError("cannot tell the media type of %s: give media_type=" % path)
        art = Artifact(kind, path=path)
        if kind.startswith("image/"):
            art.width, art.height = _image_size(path)
        return art
    if isinstance(output, (bytes, bytearray, memoryview)):
        data = bytes(output)
        if not data:
            raise ArtifactError("the output is empty")
        kind = media_type or sniff(data[:64])
        if kind is None:
            raise ArtifactError("cannot tell the media type of %d bytes of output: give media_type=" % len(data))
        art = Artifact(kind, data=data)
        if kind.startswith("image/"):
            art.width, art.height = _image_size(io.BytesIO(data))
        return art
    if _Image is not None and isinstance(output, _Image.Image):
        return _png(output)
    if _np is not None and isinstance(output, _np.ndarray):
        if output.ndim == 4:
            return frames_to_mp4(list(output), fps)
        return _png(_to_image(output))
    if isinstance(output, (list, tuple)):
        return frames_to_mp4(output, fps)
    raise ArtifactError("an output must be a path, bytes, a PIL image, a numpy array or a list of frames, not %s"
                        % type(output).__name__)


def _image_size(source: Any):
    if _Image is None:
        return None, None
    try:
        with _Image.open(source) as im:
            return im.size
    except Exception as e:  # a file that is no image is the scorer's to refuse, with its reason
        raise ArtifactError("the output is not a readable image: %s" % e) from None


def _to_image(array: Any):
    if _Image is None:
        raise ArtifactError("numpy images need Pillow (Debian: python3-pil)")
    a = _np.asarray(array)
    if a.dtype == bool:
        a = a.astype(_np.uint8) * 255
    elif a.dtype != _np.uint8:
        a = a.astype(_np.float64)
        if a.size and a.max() <= 1.0:
            a = a * 255.0
        a = _np.clip(_np.rint(a), 0, 255).astype(_np.uint8)
    if a.ndim == 2 or (a.ndim == 3 and a.shape[2] in (1, 3, 4)):
        return _Image.fromarray(a[:, :, 0] if a.ndim == 3 and a.shape[2] == 1 else a)
    raise ArtifactError("an image array must be H x W, H x W x 3 or H x W x 4, not %s" % (a.shape,))


def _png(image: Any) -> Artifact:
    if image.mode not in ("RGB", "RGBA", "L"):
        image = image.convert("RGB")
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return Artifact("image/png", data=buf.getvalue(), width=image.size[0], height=image.size[1])


def ffmpeg() -> Optional[str]:
    """The ffmpeg executable: $MMGR_FFMPEG, else the one on PATH."""
    return os.environ.get("MMGR_FFMPEG") or shutil.which("ffmpeg")


def frames_to_mp4(frames: Sequence[Any], fps: Optional[float] = None) -> Artifact:
    """Frames (PIL images or numpy arrays of one size) as an H.264 MP4, encoded by ffmpeg."""
    if len(frames) == 0:
        raise ArtifactError("a video needs at least one frame")
    exe = ffmpeg()
    if not exe or not shutil.which(exe):
        raise VideoEncoderMissing(
            "a list of frames is encoded to MP4 with ffmpeg, and no ffmpeg is installed (Debian: apt-get install "
            "ffmpeg; or set MMGR_FFMPEG to one). Alternatively pass the video as a file path or as MP4/WebM bytes.")
    images = [f if (_Image is not None and isinstance(f, _Image.Image)) else _to_image(f) for f in frames]
    images = [im.convert("RGB") for im in images]
    size = images[0].size
    if any(im.size != size for im in images):
        raise ArtifactError("all frames of a video must have one size; the first is %dx%d" % size)
    rate = float(fps or DEFAULT_FPS)
    raw = b"".join(im.tobytes() for im in images)
    with tempfile.TemporaryDirectory(prefix="mmgr-video-") as tmp:
        out = pathlib.Path(tmp) / "video.mp4"
        last = None
        # H.264 where ffmpeg has it (Debian's does), else ffmpeg's own MPEG-4 part 2 encoder
        for codec in (["-c:v", "libx264", "-crf", "12", "-preset", "veryfast"], ["-c:v", "mpeg4", "-q:v", "2"]):
            cmd = [exe, "-hide_banner", "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24",
                   "-s", "%dx%d" % size, "-r", repr(rate), "-i", "-",
                   "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"] + codec + ["-pix_fmt", "yuv420p", "-movflags", "+faststart",
                                                                      str(out)]
            proc = subprocess.run(cmd, input=raw, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if proc.returncode == 0 and out.exists() and out.stat().st_size > 0:
                data = out.read_bytes()
                return Artifact("video/mp4", data=data, width=size[0] + size[0] % 2, height=size[1] + size[1] % 2,
                                fps=rate, frame_count=len(images))
            last = proc.stderr.decode(errors="replace").strip()
        raise ArtifactError("ffmpeg (%s) could not encode %d frames: %s" % (exe, len(images), last))


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)[:80] or "_"


class ArtifactStore:
    """Writes artifacts under the shared directory the scorer reads (its --artifact-root), or uploads them to an
    ``s3://bucket/prefix``; inlines small ones."""

    def __init__(self, directory: Optional[os.PathLike], inline_max_bytes: int) -> None:
        self.s3 = _s3.S3Target(str(directory)) if str(directory or "").startswith("s3://") else None
        self.directory = pathlib.Path(directory).resolve() if directory is not None and self.s3 is None else None
        self.inline_max_bytes = inline_max_bytes
        if self.directory is not None:
            self.directory.mkdir(parents=True, exist_ok=True)

    def reference(self, art: Artifact, role: str, where: Sequence[str]) -> Dict[str, Any]:
        """An ArtifactRef for the artifact; ``where`` names the sub-directory and file (run, checkpoint, ...)."""
        if self.s3 is not None and (art.path is not None or len(art.data) > self.inline_max_bytes):
            return self._uploaded(art, role, where)
        if art.path is not None:
            real = art.path.resolve(strict=True)
            if self.directory is None or not _inside(real, self.directory):
                raise ArtifactOutsideDirectory(
                    "output file %s is outside the artifact directory %s: the scorer reads files only under its "
                    "--artifact-root directories, which the artifact directory must be one of. Write the output "
                    "under %s, or pass its bytes." % (art.path, self.directory or "(none given)",
                                                      self.directory or "artifact_dir"))
            digest, size = _digest_file(real)
            uri = real.as_uri()
        else:
            data = art.data
            digest, size = hashlib.sha256(data).hexdigest(), len(data)
            if size <= self.inline_max_bytes:
                uri = "data:%s;base64,%s" % (art.media_type, base64.b64encode(data).decode())
            elif self.directory is None:
                raise ArtifactError("a %d-byte output is over the inline limit of %d bytes and no artifact_dir was "
                                    "given: give Evaluator(artifact_dir=...) a directory the scorer reads"
                                    % (size, self.inline_max_bytes))
            else:
                uri = self._write(data, art.media_type, digest, where).as_uri()
        return _ref(art, role, uri, digest, size)

    def _uploaded(self, art: Artifact, role: str, where: Sequence[str]) -> Dict[str, Any]:
        """Uploads the output (a file from wherever it is) and references it by its s3:// URI and digest."""
        if art.path is not None:
            digest, size = _digest_file(art.path)
            key = self.s3.key(*[_safe(w) for w in where[:-1]], _named(where[-1], digest, art.media_type))
            with open(art.path, "rb") as body:
                uri = self.s3.upload(key, body, art.media_type, digest)
        else:
            digest, size = hashlib.sha256(art.data).hexdigest(), len(art.data)
            key = self.s3.key(*[_safe(w) for w in where[:-1]], _named(where[-1], digest, art.media_type))
            uri = self.s3.upload(key, art.data, art.media_type, digest)
        return _ref(art, role, uri, digest, size)

    def _write(self, data: bytes, media_type: str, digest: str, where: Sequence[str]) -> pathlib.Path:
        folder = self.directory.joinpath(*[_safe(w) for w in where[:-1]])
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / _named(where[-1], digest, media_type)
        if not target.exists():
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide it from a scorer running as another user
            os.replace(tmp, target)
        return target


def _named(name: str, digest: str, media_type: str) -> str:
    # named after the content too: a re-sent output never overwrites one the scorer may be reading
    return "%s.%s%s" % (_safe(name), digest[:12], EXTENSIONS.get(media_type, ".bin"))


def _ref(art: Artifact, role: str, uri: str, digest: str, size: int) -> Dict[str, Any]:
    return {"role": role, "uri": uri, "sha256": digest, "mediaType": art.media_type, "fps": art.fps,
            "frameCount": art.frame_count, "width": art.width, "height": art.height, "sizeBytes": size}


def _inside(path: pathlib.Path, directory: pathlib.Path) -> bool:
    try:
        path.relative_to(directory)
        return True
    except ValueError:
        return False


def _digest_file(path: pathlib.Path):
    h = hashlib.sha256()
    size = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
            size += len(block)
    if size == 0:
        raise ArtifactError("output file %s is empty" % path)
    return h.hexdigest(), size
