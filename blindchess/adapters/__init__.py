"""Adapters: the program's edges, for the front ends only (the table and everything below never import them).

* :mod:`.speech` — the voice (espeak-ng, pyttsx3), the screen reader's channel, earcons,
  recognition (vosk), the microphone, speech models;
* :mod:`.devices` — the boards' serial links, a virtual peg-board on a pseudo-terminal, protocol logs replayed;
* :mod:`.exports` — the records written out: audio, PDF scoresheet and envelope, PGN, a game read back;
* :mod:`.engine` — a UCI engine through ``chess.engine`` (practice games);
* :mod:`.qtapp` — Qt for drawing outside the window (PDF, PNG).

Other packages import this face, never its modules."""

from __future__ import annotations

from .devices.link import LinkStatus, SerialLink
from .devices.replay import LogError, LogNote, replay
from .devices.simulator import VirtualPegboard
from .engine import LEVELS, EngineChooser, find_engine, level
from .exports.audio import export_wav, export_wav_per_move
from .exports.envelope_pdf import write_envelope_pdf
from .exports.pgn_export import to_pgn
from .exports.scoresheet_pdf import write_scoresheet_pdf
from .exports.source import journal_messages, journal_notes, load_game
from .speech.asr import Recognizer, model_for
from .speech.earcons import EarconPlayer, move_earcon
from .speech.microphone import Listener, MicGate, Microphone
from .speech.models import (
    ENV_MODEL,
    clean_stale,
    configured_problem,
    find_model,
    info_for,
    install,
    model_url,
    remove,
    status,
)
from .speech.pcm import load_for_recognition, read_wav, rms
from .speech.screenreader import ScreenReader, ScreenReaderLost, ScreenReaderUnavailable, connect, running
from .speech.tts import PRIORITY_ANSWER, PRIORITY_READING, Speaker, render_phrases_wav, render_wav
from .speech.voice_input import VoiceInput

__all__ = [
    "clean_stale", "configured_problem", "connect", "EarconPlayer", "EngineChooser", "ENV_MODEL", "export_wav",
    "export_wav_per_move", "find_engine", "find_model", "info_for", "install", "journal_messages", "journal_notes",
    "level", "LEVELS", "LinkStatus", "Listener", "load_for_recognition", "load_game", "LogError", "LogNote",
    "MicGate", "Microphone", "model_for", "model_url", "move_earcon", "PRIORITY_ANSWER", "PRIORITY_READING",
    "read_wav", "Recognizer", "remove", "render_phrases_wav", "render_wav", "replay", "rms", "running",
    "ScreenReader", "ScreenReaderLost", "ScreenReaderUnavailable", "SerialLink", "Speaker", "status", "to_pgn",
    "VirtualPegboard", "VoiceInput", "write_envelope_pdf", "write_scoresheet_pdf",
]
