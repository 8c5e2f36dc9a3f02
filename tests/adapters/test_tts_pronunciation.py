"""Pronunciation fixes, checked by measuring: espeak-ng's phonemes for the unfixed and the fixed word.

Nobody can listen on the build machines; espeak-ng prints the phonemes it
would speak (``--ipa``), so each fix in ``voices/<lang>.pronunciation.toml`` is
checked to (a) change what espeak-ng says and (b) give the IPA recorded in the
file's ``[expect]`` table (measured when the fix was made).
"""

from __future__ import annotations

import shutil
import subprocess

import pytest

from blindchess.adapters.speech import pronunciation

pytestmark = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")


def ipa(text: str, voice: str) -> str:
    out = subprocess.run(["espeak-ng", "-v", voice, "-q", "--ipa", "-b", "1"], input=text.encode(),
                         capture_output=True, check=True).stdout.decode()
    return " ".join(out.split())


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_expected_fix_is_measured(lang):
    fixes = pronunciation.load(lang)
    assert fixes.expect, "each pronunciation file records what its fixes measure"
    for word, expected in fixes.expect.items():
        fixed = fixes.apply(word, espeak=True)
        assert fixed != word, word
        assert ipa(fixed, fixes.espeak_voice) == expected, word
        assert ipa(word, fixes.espeak_voice) != expected, f"{word}: espeak-ng needs no fix any more"


def test_german_caesar_is_said_with_ts():
    de = pronunciation.load("de")
    assert ipa("Cäsar", "de").startswith("k")
    assert ipa(de.apply("Springer Cäsar drei", espeak=True), "de").split()[1].startswith("ts")


def test_fixes_replace_whole_words_only_and_keep_the_rest():
    de = pronunciation.load("de")
    assert de.apply("Läufer David vier") == "Läufer Dahwitt vier"
    assert de.apply("Davidstern") == "Davidstern"
    assert de.apply("cäsar, CÄSAR.") == "Zäsar, Zäsar."
    # phoneme notation only for espeak-ng, never for other engines
    assert "[[" in de.apply("Remis", espeak=True) and "[[" not in de.apply("Remis")


def test_english_voice_says_the_german_rank_numbers():
    en = pronunciation.load("en")
    assert en.espeak_voice == "en-gb"
    assert ipa("zwei", "en-gb") != ipa("zwei", "de")
    fixed = ipa(en.apply("Gustav zwei", espeak=True), "en-gb").split()[-1]
    assert fixed.replace("ɹ", "ɾ") == ipa("zwei", "de")


def test_unknown_language_gets_a_voice_and_no_fixes():
    fr = pronunciation.load("fr")
    assert fr.espeak_voice == "fr" and fr.words == {} and fr.apply("Cäsar") == "Cäsar"
