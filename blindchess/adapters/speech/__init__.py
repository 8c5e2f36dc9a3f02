"""Speech adapters: text-to-speech (pyttsx3 / espeak-ng), recognition (vosk), audio and models.

- :mod:`.tts` — :class:`~.tts.Speaker` (queue worker, priorities, barge-in,
  repeat, text fallback), :func:`~.tts.render_wav`, :func:`~.tts.render_phrases_wav`
- :mod:`.sapi` — Windows' own voice (SAPI 5), driven and stopped on the speaker's thread
- :mod:`.macos` — macOS's own voice (``say``) and VoiceOver's texts one at a time
- :mod:`.screenreader` — the user's screen reader (speech-dispatcher, NVDA/JAWS, VoiceOver)
- :mod:`.pronunciation` — per-language fixes from ``voices/<lang>.pronunciation.toml``
- :mod:`.asr` — :class:`~.asr.Recognizer`, vosk with the position's grammar
- :mod:`.voice_input` — keeps the recogniser's grammar in step with position and question
- :mod:`.pcm` — WAV reading, mono, resampling to 16 kHz, chunking, energy VAD
- :mod:`.microphone` — capture (sounddevice), push-to-talk, continuous listening, mute gate
- :mod:`.models` — model lookup and safe, atomic installation (``models.toml``)
"""
