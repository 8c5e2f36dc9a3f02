"""One word for each concept of the FIDE texts, in every catalogue, and phrasing right for any player.

The glossary (``blindchess/base/locale/glossary.toml``) names, for each concept (the sealed move, the
adjourned game, the envelope, the arbiter, the Guidelines, an illegal move, a touched piece, the
scoresheet, the tactile board, the flag …), the term of each language and the words it does not
use. Every message that names a concept in English names it by the term in German, Dutch and
Russian; no message, spoken vocabulary or user guide uses an avoided word. Messages that name a
player do not make the name the subject of a gendered verb or possessive, so they are right for a
woman, a man, and a player called "Белые"; a count is said through Babel's CLDR plural forms.
"""

from __future__ import annotations

import re
import string
import tomllib

import pytest

from blindchess.base.i18n import UI_LANGS
from tests.support.paths import REPO

LOCALE = REPO / "blindchess" / "base" / "locale"
GLOSSARY = tomllib.loads((LOCALE / "glossary.toml").read_text(encoding="utf-8"))
DOMAINS = sorted(p.name.split(".")[0] for p in LOCALE.glob("*.de.toml") if not p.name.startswith("argparse."))
OTHERS = ("de", "nl", "ru")

#: Messages that list the scenario script's own keywords ("illegal", "quickplay" are words of the
#: script language, written as the script must write them), not the concepts.
KEYWORDS_NOT_CONCEPTS = {("scenario", "expect_claim")}


def catalogue(domain: str, lang: str) -> dict[str, object]:
    with (LOCALE / f"{domain}.{lang}.toml").open("rb") as f:
        return tomllib.load(f)


def texts(value: object) -> list[str]:
    if isinstance(value, dict):
        return [v for k, v in value.items() if k != "count"]
    return [str(value)]


CODE = re.compile(r"\{\w+\}|--[\w-]+|@[\w-]+|(?<![\w.])/[\w./-]*")


def prose(text: str) -> str:
    """A message without what is code in it: placeholders, options, script headers, web paths."""
    return CODE.sub(" ", text)


def messages(lang: str):
    for domain in DOMAINS:
        for key, value in catalogue(domain, lang).items():
            yield domain, key, value


def compiled(patterns: list[str]) -> list[re.Pattern[str]]:
    return [re.compile(p, re.IGNORECASE) for p in patterns]


# -- the glossary itself -----------------------------------------------------------------------------

@pytest.mark.parametrize("concept", sorted(GLOSSARY))
def test_every_concept_has_a_term_in_every_language_that_its_own_rules_accept(concept):
    entry = GLOSSARY[concept]
    assert entry.get("meaning") and entry.get("source"), concept
    assert set(entry) >= set(UI_LANGS), concept
    for lang in UI_LANGS:
        term = entry[lang]["term"]
        forms, avoid = compiled(entry[lang].get("forms", [])), compiled(entry[lang].get("avoid", []))
        assert term and (not forms or any(f.search(term) for f in forms)), (concept, lang, term)
        assert not any(a.search(term) for a in avoid), (concept, lang, term)
    assert entry["en"].get("said") or not any(entry[lang].get("forms") for lang in OTHERS) or concept == "peg"


# -- every catalogue uses the glossary's terms ---------------------------------------------------------

@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("concept", sorted(GLOSSARY))
def test_a_message_that_names_a_concept_in_english_names_it_by_the_glossarys_term(concept, lang):
    entry = GLOSSARY[concept]
    said = compiled(entry["en"].get("said", []))
    forms = compiled(entry[lang].get("forms", []))
    if not said or not forms:
        pytest.skip("the concept is only checked for words to avoid")
    missing = []
    for domain in DOMAINS:
        english, here = catalogue(domain, "en"), catalogue(domain, lang)
        for key, value in here.items():
            if (domain, key) in KEYWORDS_NOT_CONCEPTS:
                continue
            if any(s.search(prose(t)) for t in texts(english[key]) for s in said) and \
                    not any(f.search(prose(t)) for t in texts(value) for f in forms):
                missing.append(f"{domain}.{key}: {texts(value)[0]}")
    assert missing == [], f"{concept} in {lang}: the term is {entry[lang]['term']!r}"


@pytest.mark.parametrize("lang", UI_LANGS)
def test_no_message_uses_a_word_the_glossary_avoids(lang):
    avoid = [(concept, a) for concept, entry in GLOSSARY.items() for a in compiled(entry[lang].get("avoid", []))]
    found = [f"{domain}.{key} ({concept}: {a.pattern}): {t}"
             for domain, key, value in messages(lang) if (domain, key) not in KEYWORDS_NOT_CONCEPTS
             for t in texts(value) for concept, a in avoid if a.search(prose(t))]
    assert found == []


@pytest.mark.parametrize("lang", UI_LANGS)
def test_the_spoken_vocabularys_own_words_avoid_them_too(lang):
    """What the voice says first for a phrase is the glossary's word (a player may say another: it is understood)."""
    with (REPO / "voices" / f"{lang}.toml").open("rb") as f:
        voice = tomllib.load(f)
    firsts: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, list) and value and isinstance(value[0], str):
            firsts.append(value[0])
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, str):
            firsts.append(value)

    walk(voice)
    avoid = [a for entry in GLOSSARY.values() for a in compiled(entry[lang].get("avoid", []))]
    assert [w for w in firsts if any(a.search(w) for a in avoid)] == []


# -- right for any player -------------------------------------------------------------------------------

PLAYER = r"\{(?:name|player|white|black)\}"
#: What agrees with a player's name or sex and must not follow one: Russian finite verbs and
#: past tenses (a name may be "Белые", plural, or a woman's), possessives in German and Dutch.
AGREEING = {
    "ru": re.compile(PLAYER + r"\s+(?:(?:ещё|уже|не|затем|тоже|действительно|сам)\s+)*[а-яё]{2,}(?:ет|ит|ют|ят|ёт|ал|ил|ел|ёл|ла|ло|ли|лся|лась)\b"),
    "de": re.compile(PLAYER + r"[^.:;]*\b(?:sein|seine|seinen|seinem|seiner|ihr|ihre|ihren|ihrem)\b"),
    "nl": re.compile(PLAYER + r"[^.:;]*\b(?:zijn|haar)\s+(?:zet|zetten|klok|bord|tijd|stukken|notatieformulier|beurt)\b"),
    "en": re.compile(r"\b(?:he|him|his|she|her|hers|himself|herself)\b", re.IGNORECASE),
}


@pytest.mark.parametrize("lang", UI_LANGS)
def test_a_player_is_named_without_a_verb_or_pronoun_that_agrees_with_the_name(lang):
    found = [f"{domain}.{key}: {t}" for domain, key, value in messages(lang) for t in texts(value)
             if AGREEING[lang].search(t)]
    assert found == []


#: The quotation marks of each language (German „…“, English “…”, Dutch ‘…’, Russian «…»).
QUOTES = {"de": "„“", "en": "“”", "nl": "‘’", "ru": "«»"}
ALL_QUOTES = "\"„“”‘’«»‚"


@pytest.mark.parametrize("lang", UI_LANGS)
def test_one_quotation_style_per_language(lang):
    """No straight double quotes and no other language's marks; ’ and ' are apostrophes between letters."""
    bad = []
    for domain, key, value in messages(lang):
        for t in texts(value):
            stripped = re.sub(r"(?<=\w)[’'](?=\w)", "", t)
            if any(c in ALL_QUOTES and c not in QUOTES[lang] for c in stripped):
                bad.append(f"{domain}.{key}: {t}")
    assert bad == []


# -- counts said through CLDR plural forms --------------------------------------------------------------

COUNTED = re.compile(r"\{(\w+)\}\s+(?:more\s+)?(half-moves|moves|seconds|minutes|hours|lines|characters|cells|bytes|files|"
                     r"games|kinds|problems|squares)\b")
CATEGORIES = {"de": {"one", "other"}, "en": {"one", "other"}, "nl": {"one", "other"}, "ru": {"one", "few", "many", "other"}}


def test_every_count_said_with_a_noun_is_a_table_of_cldr_plural_forms_in_every_language():
    """A message that says "{n} moves" chooses its form by Babel's CLDR rules (blindchess.base.i18n.tr);
    a language may instead put the count after a colon ("полуходов: {plies}"), where no form changes."""
    bad = []
    for domain in DOMAINS:
        english = catalogue(domain, "en")
        for key, value in english.items():
            counts = {name for t in texts(value) for name, _noun in COUNTED.findall(t)}
            if not counts:
                continue
            for lang in UI_LANGS:
                here = catalogue(domain, lang)[key]
                if isinstance(here, dict):
                    assert set(here) - {"count"} == CATEGORIES[lang] or lang == "ru" and set(here) - {"count"} >= {"one", "few", "many"}, \
                        (domain, key, lang, sorted(here))
                    assert here.get("count", "n") in counts, (domain, key, lang)
                elif not all(re.search(r":\s*\{" + name + r"\}", here) for name in counts):
                    bad.append(f"{domain}.{key} ({lang}): {here}")
    assert bad == []


def test_the_fields_of_a_plural_table_are_the_messages_own():
    for domain in DOMAINS:
        for lang in UI_LANGS:
            for key, value in catalogue(domain, lang).items():
                if isinstance(value, dict):
                    named = {n for t in texts(value) for _, n, _, _ in string.Formatter().parse(t) if n}
                    assert value.get("count", "n") in named | {"n"}, (domain, key, lang)
