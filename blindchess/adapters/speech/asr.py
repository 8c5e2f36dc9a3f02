"""Speech recognition with vosk, restricted to what can be said in the position.

A :class:`Recognizer` wraps a vosk ``KaldiRecognizer`` built with a grammar:
the phrases ``phonetic.grammar(board, lang)`` lists for the current position
(every legal move, the commands, "[unk]" for anything else). A small grammar
makes the small models fast and accurate; :meth:`Recognizer.set_grammar` is
called after every move and whenever the expected answers change (a question is
pending). Results are normalised to one shape — text, ranked alternatives,
words with confidences — that :mod:`blindchess.language.dialogue` decides on.
Nothing here plays a move.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from ...base import UserError, quoted, tr
from .pcm import RECOGNITION_RATE, chunks


def normalise_phrases(phrases) -> list[str]:
    """Lower-case, de-duplicated grammar phrases (vosk's vocabularies are lower case); keeps "[unk]"."""
    seen: dict[str, None] = {}
    for phrase in phrases:
        text = " ".join(str(phrase).split())
        if text == "[unk]":
            seen.setdefault(text)
        elif text:
            seen.setdefault(text.lower())
    return list(seen)


def normalise_result(raw: str | dict) -> dict:
    """vosk's JSON (with or without alternatives) as
    ``{"text", "confidence", "alternatives": [{"text", "confidence"}], "words": [{"word", "conf", "start", "end"}]}``.

    ``confidence`` is the mean word confidence (0..1) when vosk gives word
    confidences (no alternatives requested), else None; alternative
    confidences are vosk's lattice scores (higher is better, not 0..1).
    """
    data = json.loads(raw) if isinstance(raw, str) else dict(raw or {})
    if "alternatives" in data:
        alternatives = [{"text": str(a.get("text", "")).strip(), "confidence": a.get("confidence")}
                        for a in data.get("alternatives") or []]
        words = list((data.get("alternatives") or [{}])[0].get("result", [])) if alternatives else []
    else:
        text = str(data.get("text", "")).strip()
        alternatives = [{"text": text, "confidence": None}] if text else []
        words = list(data.get("result", []))
    confs = [float(w["conf"]) for w in words if isinstance(w, dict) and "conf" in w]
    return {
        "text": alternatives[0]["text"] if alternatives else "",
        "confidence": sum(confs) / len(confs) if confs else None,
        "min_confidence": min(confs) if confs else None,
        "alternatives": alternatives,
        "words": words,
    }


def load_model(path, lang: str = "de", ui_lang: str | None = None):
    """Load a vosk model; a missing or broken one raises :class:`UserError` naming the install command."""
    try:
        import vosk
    except ImportError as exc:  # pragma: no cover - vosk is a dependency
        raise UserError(tr("speech.no_vosk", ui_lang, error=quoted("vosk", exc, ui_lang))) from exc
    path = Path(path)
    if not path.is_dir():
        raise UserError(tr("speech.no_model", ui_lang, lang=lang))
    vosk.SetLogLevel(-1)
    with _captured_stderr() as captured:
        try:
            return vosk.Model(str(path))
        except Exception as exc:  # noqa: BLE001 - vosk raises a bare Exception on a bad model
            failure = exc
    detail = " ".join(captured.text().split()) or str(failure)  # Kaldi's own explanation, if it gave one
    raise UserError(tr("speech.model_broken", ui_lang, path=path, error=quoted("vosk", detail, ui_lang), lang=lang)) from failure


class _captured_stderr:
    """Capture the C-level stderr (file descriptor 2) while vosk loads a model.

    Kaldi writes its errors there even with ``SetLogLevel(-1)``; a user should
    get one clear message, so the text is captured and put into it.
    """

    def __enter__(self):
        import tempfile

        self._file = tempfile.TemporaryFile()
        try:
            self._saved = os.dup(2)
            os.dup2(self._file.fileno(), 2)
        except OSError:
            self._saved = None
        return self

    def __exit__(self, *exc):
        if self._saved is not None:
            os.dup2(self._saved, 2)
            os.close(self._saved)
        self._file.seek(0)
        raw = self._file.read().decode("utf-8", errors="replace")
        self._file.close()
        self.raw = raw
        self.value = " ".join(re.sub(r"^[A-Z]+ \(.*?:\d+\) ", "", line) for line in raw.splitlines())
        return False

    def text(self) -> str:
        return self.value


class Recognizer:
    """A grammar-restricted vosk recogniser for 16 kHz mono 16-bit PCM.

    ``alternatives`` > 0 asks vosk for that many ranked alternatives (then vosk
    gives no word confidences); 0 gives one result with word confidences.
    """

    def __init__(self, model_path, lang: str = "de", *, sample_rate: int = RECOGNITION_RATE,
                 alternatives: int = 3, model=None, ui_lang: str | None = None) -> None:
        self.lang = lang
        self.sample_rate = sample_rate
        self.alternatives = alternatives
        self.model_path = Path(model_path) if model_path else None
        self._model = model if model is not None else load_model(model_path, lang, ui_lang)
        self.grammar: list[str] | None = None
        #: Grammar words the model does not know (vosk ignores them): a vocabulary problem to report.
        self.missing_words: list[str] = []
        self._segments: list[dict] = []
        self._rec = self._new()

    def _new(self):
        import vosk

        if self.grammar:
            with _captured_stderr() as captured:
                rec = vosk.KaldiRecognizer(self._model, self.sample_rate,
                                           json.dumps(self.grammar, ensure_ascii=False))
            # vosk drops grammar words its model does not know (and says so on stderr)
            self.missing_words = re.findall(r"missing in vocabulary: '([^']*)'", captured.raw)
        else:
            rec = vosk.KaldiRecognizer(self._model, self.sample_rate)
            self.missing_words = []
        rec.SetWords(True)
        if self.alternatives:
            rec.SetMaxAlternatives(self.alternatives)
        return rec

    def set_grammar(self, phrases) -> None:
        """Restrict recognition to ``phrases`` (None: free dictation). Starts a fresh utterance."""
        self.grammar = normalise_phrases(phrases) if phrases is not None else None
        self._segments = []
        self._rec = self._new()

    def update_grammar(self, phrases) -> bool:
        """Set the grammar only when it differs from the current one; True when it changed."""
        wanted = normalise_phrases(phrases) if phrases is not None else None
        if wanted == self.grammar:
            return False
        self.set_grammar(phrases)
        return True

    def accept_pcm(self, pcm: bytes) -> dict | None:
        """Feed audio; returns a segment result when vosk detected a pause, else None.

        Segments are also kept: :meth:`final` joins them, so a player who pauses
        in the middle of an announcement ("Springer … Felix drei") loses nothing.
        """
        if self._rec.AcceptWaveform(bytes(pcm)):
            result = normalise_result(self._rec.Result())
            if result["text"]:
                self._segments.append(result)
            return result
        return None

    def partial(self) -> str:
        return str(json.loads(self._rec.PartialResult()).get("partial", ""))

    def final(self) -> dict:
        """The result for all audio fed since the last final()/reset() (end of speech, key released)."""
        last = normalise_result(self._rec.FinalResult())
        segments = [*self._segments, last] if last["text"] else self._segments
        self._segments = []
        return merge_results(segments)

    def reset(self) -> None:
        """Drop the audio of the current utterance (e.g. the microphone was muted)."""
        self._rec.Reset()
        self._segments = []

    def recognise(self, pcm: bytes, frames: int = 4000) -> dict:
        """All of ``pcm`` as one utterance."""
        self.reset()
        for piece in chunks(pcm, frames):
            self.accept_pcm(piece)
        return self.final()


def merge_results(segments: list[dict]) -> dict:
    """One result from the normalised results of consecutive segments of one utterance.

    The alternatives are those of the last segment, each preceded by the best
    text of the earlier segments; word lists are concatenated.
    """
    if not segments:
        return normalise_result({"text": ""})
    if len(segments) == 1:
        return segments[0]
    prefix = " ".join(s["text"] for s in segments[:-1])
    last = segments[-1]
    words = [w for s in segments for w in s["words"]]
    confs = [float(w["conf"]) for w in words if isinstance(w, dict) and "conf" in w]
    alternatives = [{"text": f"{prefix} {a['text']}".strip(), "confidence": a.get("confidence")}
                    for a in last["alternatives"]]
    return {
        "text": alternatives[0]["text"] if alternatives else prefix,
        "confidence": sum(confs) / len(confs) if confs else None,
        "min_confidence": min(confs) if confs else None,
        "alternatives": alternatives,
        "words": words,
    }


def model_for(lang: str, setting=None, ui_lang: str | None = None) -> Path:
    """The model folder for ``lang`` or a :class:`UserError` naming ``blindchess models install LANG``."""
    from .models import configured_problem, find_model

    if setting:
        path = Path(setting).expanduser()
        if not path.is_dir():
            raise UserError(configured_problem(setting, ui_lang, lang) or tr("speech.no_model", ui_lang, lang=lang))
        return path
    found = find_model(lang, strict=True, ui_lang=ui_lang)
    if found is None:
        raise UserError(tr("speech.no_model", ui_lang, lang=lang))
    return found


__all__ = ["Recognizer", "load_model", "merge_results", "model_for", "normalise_phrases", "normalise_result"]
