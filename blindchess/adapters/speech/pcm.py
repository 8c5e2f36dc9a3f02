"""Audio for recognition, in pure Python: WAV reading, stereo → mono, resampling to 16 kHz, chunking.

Vosk wants 16-bit mono PCM at the model's rate (16 kHz for the small models).
Microphones and files come at 48, 44.1 or 22.05 kHz, often stereo. The stdlib
``array`` module and a small RIFF reader are enough for utterances of a few seconds
(resampling 5 s of 48 kHz audio takes well under a second), so blindchess needs
no numpy. ``audioop`` would be faster but is deprecated and gone in Python 3.13.

Also here: frame energy (RMS) and :class:`EnergyVAD`, the voice-activity
detector used for continuous listening.
"""

from __future__ import annotations

import itertools
import math
import sys
from array import array
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ...base import UserError, quoted, tr

#: The sample rate of the vosk small models.
RECOGNITION_RATE = 16000


@dataclass(frozen=True)
class Audio:
    """16-bit signed little-endian PCM, interleaved when ``channels`` > 1."""

    pcm: bytes
    rate: int
    channels: int

    @property
    def duration(self) -> float:
        return len(self.pcm) / 2 / self.channels / self.rate if self.rate else 0.0


def _samples(pcm: bytes) -> array:
    a = array("h")
    a.frombytes(pcm[: len(pcm) // 2 * 2])
    if sys.byteorder == "big":
        a.byteswap()
    return a


def _bytes(samples: array) -> bytes:
    if sys.byteorder == "big":
        samples = array("h", samples)
        samples.byteswap()
    return samples.tobytes()


def _to_16bit(raw: bytes, width: int, fmt: int = 1) -> bytes:
    """Convert 8-, 24- or 32-bit integer PCM or 32/64-bit float PCM to 16-bit."""
    if fmt == 3:  # IEEE float
        floats = array("f" if width == 4 else "d")
        floats.frombytes(raw[: len(raw) // width * width])
        if sys.byteorder == "big":
            floats.byteswap()
        return _bytes(array("h", (max(-32768, min(32767, int(x * 32767))) for x in floats)))
    if width == 2:
        return raw[: len(raw) // 2 * 2]
    if width == 1:  # unsigned 8-bit
        return _bytes(array("h", ((b - 128) << 8 for b in raw)))
    return _bytes(array("h", (int.from_bytes(raw[i + width - 2:i + width], "little", signed=True)
                              for i in range(0, len(raw) - width + 1, width))))


def _parse_wav(data: bytes) -> tuple[int, int, int, int, bytes]:
    """(format, channels, rate, bytes per sample, sample data) of a RIFF/WAVE file.

    Written by hand because Python 3.11's ``wave`` rejects WAVE_FORMAT_EXTENSIBLE,
    which sox and many recorders write for 24- and 32-bit files, and float data.
    """
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError("no RIFF/WAVE header")
    pos, fmt, pcm = 12, None, None
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], int.from_bytes(data[pos + 4:pos + 8], "little")
        body = data[pos + 8:pos + 8 + size]
        if cid == b"fmt " and len(body) >= 16:
            tag = int.from_bytes(body[0:2], "little")
            if tag == 0xFFFE and len(body) >= 26:
                tag = int.from_bytes(body[24:26], "little")  # the sub-format GUID starts with the tag
            fmt = (tag, int.from_bytes(body[2:4], "little"), int.from_bytes(body[4:8], "little"),
                   int.from_bytes(body[14:16], "little"))
        elif cid == b"data":
            pcm = body  # a streamed file's size field may be too large: take what is there
            break
        pos += 8 + size + (size & 1)
    if fmt is None or pcm is None:
        raise ValueError("no fmt or data chunk")
    tag, channels, rate, bits = fmt
    width = (bits + 7) // 8
    if tag not in (1, 3) or (tag == 1 and width not in (1, 2, 3, 4)) or (tag == 3 and width not in (4, 8)):
        raise ValueError(f"format {tag}, {bits} bit")
    if channels < 1 or rate <= 0:
        raise ValueError(f"{channels} channels, {rate} Hz")
    return tag, channels, rate, width, pcm


def read_wav(path, lang: str | None = None) -> Audio:
    """Read a PCM WAV file (8/16/24/32-bit integer or float). Broken files raise :class:`UserError`."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError as exc:
        raise UserError(tr("speech.wav_missing", lang, path=path)) from exc
    except OSError as exc:
        from ...base import os_error_text

        raise UserError(tr("speech.wav_cannot_read", lang, path=path, error=os_error_text(exc, lang))) from exc
    try:
        tag, channels, rate, width, raw = _parse_wav(data)
    except ValueError as exc:
        raise UserError(tr("speech.wav_unreadable", lang, path=path, error=quoted("RIFF", exc, lang))) from exc
    return Audio(_to_16bit(raw[: len(raw) // (width * channels) * width * channels], width, tag), rate, channels)


def to_mono(pcm: bytes, channels: int) -> bytes:
    """Average interleaved channels into one."""
    if channels == 1:
        return pcm
    s = _samples(pcm)
    n = len(s) // channels
    out = array("h", (int(sum(s[i * channels:(i + 1) * channels]) / channels) for i in range(n)))
    return _bytes(out)


def resample(pcm: bytes, src_rate: int, dst_rate: int = RECOGNITION_RATE) -> bytes:
    """Resample 16-bit mono PCM.

    Downsampling averages the source samples that fall into each output
    sample's interval (a box filter that also suppresses aliasing well enough
    for speech, whose energy lies below 4 kHz); upsampling interpolates linearly.
    """
    if src_rate == dst_rate or not pcm:
        return pcm
    s = _samples(pcm)
    n_in = len(s)
    n_out = int(n_in * dst_rate / src_rate)
    ratio = src_rate / dst_rate
    if ratio > 1:
        prefix = [0, *itertools.accumulate(s)]
        out = array("h")
        append = out.append
        for i in range(n_out):
            a = int(i * ratio)
            b = max(a + 1, min(n_in, int((i + 1) * ratio)))
            append(int((prefix[b] - prefix[a]) / (b - a)))
        return _bytes(out)
    out = array("h")
    last = n_in - 1
    for i in range(n_out):
        x = i * ratio
        j = int(x)
        frac = x - j
        k = j + 1 if j < last else last
        out.append(int(s[j] + (s[k] - s[j]) * frac))
    return _bytes(out)


def prepare(audio: Audio, rate: int = RECOGNITION_RATE) -> bytes:
    """Any :class:`Audio` as mono PCM at ``rate`` — what the recogniser eats."""
    return resample(to_mono(audio.pcm, audio.channels), audio.rate, rate)


def load_for_recognition(path, rate: int = RECOGNITION_RATE, lang: str | None = None) -> bytes:
    """Read a WAV file and return mono 16-bit PCM at ``rate``."""
    return prepare(read_wav(path, lang), rate)


def chunks(pcm: bytes, frames: int = 4000) -> Iterator[bytes]:
    """Split mono 16-bit PCM into pieces of ``frames`` samples (the last may be shorter)."""
    step = max(1, int(frames)) * 2
    for i in range(0, len(pcm), step):
        yield pcm[i:i + step]


def rms(pcm: bytes) -> float:
    """Root mean square of 16-bit PCM (0 for silence, 32767 for a full-scale square wave)."""
    s = _samples(pcm)
    if not s:
        return 0.0
    return math.sqrt(sum(x * x for x in s) / len(s))


def silence(seconds: float, rate: int = RECOGNITION_RATE) -> bytes:
    return b"\x00\x00" * int(seconds * rate)


@dataclass(frozen=True)
class VadEvent:
    """``kind`` "start" (speech began) or "end" (speech ended; ``audio`` holds the utterance)."""

    kind: str
    audio: bytes = b""


class EnergyVAD:
    """Energy-based voice-activity detection for continuous listening.

    Each frame (``frame_ms``) is voiced when its RMS exceeds ``ratio`` times the
    running noise floor (and at least ``min_level``). Speech starts after
    ``start_ms`` of voiced frames and ends after ``end_ms`` of unvoiced ones; the
    utterance keeps ``preroll_ms`` of audio from before the start so the first
    consonant is not lost.
    """

    def __init__(self, rate: int = RECOGNITION_RATE, *, frame_ms: int = 30, ratio: float = 3.0,
                 min_level: float = 300.0, start_ms: int = 90, end_ms: int = 600, preroll_ms: int = 300) -> None:
        self.rate = rate
        self.frame_bytes = int(rate * frame_ms / 1000) * 2
        self.ratio = ratio
        self.min_level = min_level
        self.start_frames = max(1, start_ms // frame_ms)
        self.end_frames = max(1, end_ms // frame_ms)
        self.noise_floor: float | None = None
        self.in_speech = False
        self._buffer = b""
        self._preroll: deque[bytes] = deque(maxlen=max(1, preroll_ms // frame_ms) + self.start_frames)
        self._utterance: list[bytes] = []
        self._voiced_run = 0
        self._unvoiced_run = 0

    @property
    def threshold(self) -> float:
        floor = self.noise_floor if self.noise_floor is not None else 0.0
        return max(self.min_level, floor * self.ratio)

    def reset(self) -> None:
        """Forget the current utterance (e.g. the microphone was muted)."""
        self.in_speech = False
        self._buffer = b""
        self._preroll.clear()
        self._utterance = []
        self._voiced_run = self._unvoiced_run = 0

    def feed(self, pcm: bytes) -> list[VadEvent]:
        events: list[VadEvent] = []
        self._buffer += pcm
        while len(self._buffer) >= self.frame_bytes:
            frame, self._buffer = self._buffer[:self.frame_bytes], self._buffer[self.frame_bytes:]
            events.extend(self._frame(frame))
        return events

    def flush(self) -> list[VadEvent]:
        """End of the stream: an utterance in progress ends here."""
        if self.in_speech:
            self._utterance.append(self._buffer)
            audio = b"".join(self._utterance)
            self.reset()
            return [VadEvent("end", audio)]
        self.reset()
        return []

    def _frame(self, frame: bytes) -> list[VadEvent]:
        level = rms(frame)
        voiced = level > self.threshold
        if not self.in_speech:
            if not voiced:  # learn the room's noise
                self.noise_floor = level if self.noise_floor is None else 0.95 * self.noise_floor + 0.05 * level
            self._preroll.append(frame)
            self._voiced_run = self._voiced_run + 1 if voiced else 0
            if self._voiced_run >= self.start_frames:
                self.in_speech = True
                self._utterance = list(self._preroll)
                self._preroll.clear()
                self._unvoiced_run = 0
                return [VadEvent("start")]
            return []
        self._utterance.append(frame)
        self._unvoiced_run = 0 if voiced else self._unvoiced_run + 1
        if self._unvoiced_run >= self.end_frames:
            audio = b"".join(self._utterance)
            self.in_speech = False
            self._utterance = []
            self._voiced_run = 0
            return [VadEvent("end", audio)]
        return []
