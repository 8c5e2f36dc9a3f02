"""Speech adapters: text-to-speech (pyttsx3), recognition (vosk), audio and models."""
