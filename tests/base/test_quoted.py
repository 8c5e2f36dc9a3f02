"""Another program's words in a sentence of ours: named by their source, in the language's quotation marks."""

from __future__ import annotations

import errno
import re

import pytest

from blindchess.base import in_quotes, os_error_text, quoted


@pytest.mark.parametrize(("lang", "shown"), [("de", "PortAudio: „Error querying device -1“"),
                                             ("en", "PortAudio: “Error querying device -1”"),
                                             ("nl", "PortAudio: ‘Error querying device -1’"),
                                             ("ru", "PortAudio: «Error querying device -1»")])
def test_a_foreign_text_is_quoted_with_its_source(lang, shown):
    assert quoted("PortAudio", OSError("Error querying device -1"), lang) == shown
    assert quoted("vosk", RuntimeError(), lang).startswith("vosk: ")      # no text: the exception's name
    assert in_quotes("x", lang) == shown.replace("PortAudio: ", "").replace("Error querying device -1", "x")


def test_a_rare_system_error_is_the_systems_text_in_quotes_and_a_common_one_is_ours():
    rare = OSError(errno.EIO, "Input/output error", "f")
    assert os_error_text(rare, "ru") == "операционная система: «Input/output error»"
    assert os_error_text(OSError(errno.ENOENT, "No such file or directory", "f"), "ru") == "его не существует"


def test_portaudios_words_stay_apart_from_the_russian_sentence():
    """The real microphone: where no capture device exists (here) the message is Russian around PortAudio's quote."""
    from blindchess.adapters.speech.microphone import Microphone

    mic = Microphone(lambda pcm: None, ui_lang="ru")
    started = mic.start()
    try:
        if started:
            pytest.skip("a microphone is connected: nothing to report")
        assert mic.problem.startswith(("Микрофон не готов", "Нет доступа к микрофону")), mic.problem
        outside = re.sub(r"«[^»]*»", "", mic.problem)
        assert "«" in mic.problem and not re.search(r"[A-Za-z]{3,}", outside.replace("PortAudio", "").replace(
            "sounddevice", "").replace("Python", "").replace("OSError", "")), mic.problem
    finally:
        mic.stop()
