"""Every language complete: de, en, nl and ru catalogues, the language chosen once, plurals by CLDR rules,
argparse in the user's language, and whole games in Dutch and Russian without an English or German word."""

from __future__ import annotations

import argparse
import ast
import json
import os
import re
import string
import subprocess
import sys
import tomllib

import pytest

from blindchess.base import i18n
from blindchess.base.i18n import LANG_NAMES, UI_LANGS, plural, plural_category, tr, trn
from blindchess.cli import build_parser, main
from blindchess.table.clock import phrase
from tests.support.paths import DATA, REPO

ROOT = REPO
LOCALE = ROOT / "blindchess" / "base" / "locale"
VOICES = ROOT / "voices"
GAMES = DATA / "lang"
DOMAINS = sorted(p.name.split(".")[0] for p in LOCALE.glob("*.de.toml"))

#: Keys of the German catalogue deliberately not translated: none — every message exists in all four.
SHARED: dict[str, str] = {}
#: Domains whose messages the program's own code does not name: ``argparse`` is keyed by argparse's
#: English texts, which argparse asks for through gettext (:func:`blindchess.base.i18n.translate_argparse`).
NOT_NAMED_BY_CODE = {"argparse": "argparse asks for these texts itself"}
#: Messages that are empty in a language on purpose.
EMPTY = {("board_words", "pawn_letter"): "a pawn has no letter in Dutch and Russian notation (P is the Dutch knight)"}
#: The CLDR plural categories of each language (Babel), the forms a plural table may have.
CATEGORIES = {"de": {"one", "other"}, "en": {"one", "other"}, "nl": {"one", "other"},
              "ru": {"one", "few", "many", "other"}}


def load(domain: str, lang: str) -> dict[str, object]:
    path = LOCALE / f"{domain}.{lang}.toml"
    with path.open("rb") as f:
        return tomllib.load(f)


def forms(value: object) -> list[str]:
    if isinstance(value, dict):
        return [v for k, v in value.items() if k != "count"]
    return [value]  # type: ignore[list-item]


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", UI_LANGS)
def test_every_catalogue_parses_and_has_every_german_key(domain, lang):
    german = load(domain, "de")
    here = load(domain, lang)     # a broken file would empty a whole domain at run time: it must parse
    missing = sorted(set(german) - set(here) - set(SHARED))
    extra = sorted(set(here) - set(german))
    assert missing == [] and extra == [], (domain, lang, missing, extra)


@pytest.mark.parametrize("domain", [d for d in DOMAINS if d != "argparse"])
@pytest.mark.parametrize("lang", ("nl", "ru"))
def test_translations_fill_the_same_placeholders_and_use_the_languages_plural_forms(domain, lang):
    english, here = load(domain, "en"), load(domain, lang)
    for key, value in here.items():
        wanted = set().union(*(fields(f) for f in forms(english[key])))
        if isinstance(value, dict):
            assert "other" in value and set(value) - {"count"} <= CATEGORIES[lang], (domain, key, value)
            assert value.get("count", "n") in wanted or not wanted, (domain, key)
        for text in forms(value):
            assert isinstance(text, str) and (text.strip() or (domain, key) in EMPTY), (domain, key)
            assert fields(text) <= wanted, (domain, key, fields(text) - wanted)
            if not isinstance(value, dict):
                assert fields(text) == wanted, (domain, key, wanted - fields(text))


def _code_strings() -> tuple[set[str], set[str]]:
    """Every string constant of the package, and every prefix of a composed one (f"x.{y}", "x." + y)."""
    literals: set[str] = set()
    prefixes: set[str] = set()
    for path in (ROOT / "blindchess").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                literals.add(node.value)
            elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
                prefixes.add(str(node.values[0].value))
            elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and isinstance(node.left, ast.Constant) \
                    and isinstance(node.left.value, str):
                prefixes.add(node.left.value)
    return literals, {p for p in prefixes if len(p) >= 3}


#: How a key may be named beyond its literal: ``<key>_description`` beside ``<key>``, ``_one``/``_many``
#: chosen by the count, ``_named``/``_shown``/``_sure``/``_tactile``/``_sighted`` variants of one message.
VARIANT_SUFFIXES = ("_description", "_one", "_many", "_named", "_shown", "_sure", "_tactile", "_sighted")


def _named(domain: str, key: str, keys: set[str], literals: set[str], prefixes: set[str]) -> bool:
    full = f"{domain}.{key}"
    if full in literals or key in literals:
        return True
    if any(name.startswith(p) for p in prefixes if p != domain + "." for name in (full, key)):
        return True
    if domain + "." in prefixes and any(len(w) >= 4 and key.startswith((w + "_", w + ".")) for w in literals):
        return True
    return any(key.endswith(s) and key[: -len(s)] in keys and _named(domain, key[: -len(s)], keys, literals, prefixes)
               for s in VARIANT_SUFFIXES)


def test_every_message_is_named_by_the_code():
    literals, prefixes = _code_strings()
    unused = []
    for domain in DOMAINS:
        if domain in NOT_NAMED_BY_CODE:
            continue
        keys = set(load(domain, "de"))
        unused += [f"{domain}.{key}" for key in sorted(keys) if not _named(domain, key, keys, literals, prefixes)]
    assert unused == []


def test_every_key_the_code_names_exists():
    """A key missing from the catalogues would be shown as the key itself."""
    literals, _ = _code_strings()
    known = {f"{d}.{k}" for d in DOMAINS for k in load(d, "de")}
    named = {s for s in literals if re.fullmatch(r"[a-z_]+\.[a-z0-9_.\-]*[a-z0-9]", s) and s.split(".")[0] in DOMAINS}
    window = {s for s in named if f"ui.{s}" in known}     # the window's keys ("speech.title") are named without "ui."
    assert sorted(named - known - window) == []


# -- plurals: Babel's CLDR rules ------------------------------------------------------------------

@pytest.mark.parametrize(("n", "category"), [(0, "many"), (1, "one"), (2, "few"), (4, "few"), (5, "many"), (11, "many"),
                                             (21, "one"), (22, "few"), (25, "many"), (111, "many"), (1.5, "other")])
def test_russian_plural_categories_are_cldrs(n, category):
    assert plural_category(n, "ru") == category


def test_russian_minutes_take_three_forms_and_dutch_two():
    said = [tr("tournament.clock_minutes_many", "ru", n=n) for n in (2, 5, 21, 22, 11)]
    assert said == ["2 минуты", "5 минут", "21 минута", "22 минуты", "11 минут"]
    assert plural(1, "notation.half_moves_one", "notation.half_moves", "ru") == "1 полуход"
    assert plural(3, "notation.half_moves_one", "notation.half_moves", "ru") == "3 полухода"
    assert plural(25, "notation.half_moves_one", "notation.half_moves", "ru") == "25 полуходов"
    assert trn("notation.half_moves", 2, "nl") == "2 halve zetten"
    assert plural(1, "notation.half_moves_one", "notation.half_moves", "nl") == "1 halve zet"


def test_the_talking_clock_speaks_russian_and_dutch():
    assert phrase(5400, 3725, 22, "ru") == "У вас 1 час 30 минут, у соперника 1 час 2 минуты, 22 хода"
    assert phrase(5400, 3725, 22, "nl") == "U: 1 uur 30 minuten, tegenstander: 1 uur 2 minuten, 22 zetten"
    assert phrase(61, 1260, 1, "ru") == "У вас 1 минута 1, у соперника 21 минута, 1 ход"


# -- the language chosen once ---------------------------------------------------------------------

@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "nl_NL.UTF-8"}, "nl"), ({"LANG": "ru_RU.UTF-8"}, "ru"), ({"LANG": "en_GB.UTF-8"}, "en"),
    ({"LANG": "C.UTF-8"}, "en"), ({"LANG": "POSIX"}, "en"), ({"LANG": "fr_FR.UTF-8"}, "en"), ({}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "de"), ({"LANG": "de_DE", "LC_MESSAGES": "ru_RU"}, "ru"),
    ({"LANG": "ru_RU.UTF-8", "BLINDCHESS_LANG": "fr"}, "ru"),
    ({"LANG": "nl_BE", "LC_ALL": "en_US.UTF-8"}, "en"), ({"LANG": "de_DE", "LANGUAGE": "fr:nl"}, "nl"),
    ({"LANG": "ru_RU.UTF-8", "BLINDCHESS_LANG": "nl"}, "nl"),
])
def test_the_system_language_is_the_default_and_blindchess_lang_overrides_it(monkeypatch, env, lang):
    for name in ("LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "BLINDCHESS_LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert i18n.default_lang() == lang


def test_a_chosen_language_wins_and_a_foreign_one_is_refused(monkeypatch):
    monkeypatch.setenv("BLINDCHESS_LANG", "de")
    i18n.use_lang("ru")
    try:
        assert i18n.default_lang() == "ru" and tr("cli.interrupted") == "Прервано."
    finally:
        i18n.use_lang(None)
    assert i18n.default_lang() == "de"
    with pytest.raises(ValueError):
        i18n.use_lang("fr")
    assert [LANG_NAMES[code] for code in UI_LANGS] == ["Deutsch", "English", "Nederlands", "Русский"]


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("BLINDCHESS_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return subprocess.run([sys.executable, "-m", "blindchess", *args], capture_output=True, text=True,
                          env={**clean, "LANG": "C.UTF-8", **env}, stdin=subprocess.DEVNULL, timeout=120)


@pytest.mark.parametrize(("lang", "usage", "positional", "error"), [
    ("de", "Aufruf:", "Argumente", "ungültige Wahl"), ("en", "usage:", "positional arguments", "invalid choice"),
    ("nl", "gebruik:", "argumenten", "ongeldige keuze"), ("ru", "вызов:", "аргументы", "недопустимое значение"),
])
def test_argparse_speaks_the_users_language_and_a_usage_error_is_one_line(lang, usage, positional, error):
    helped = _run(["notation", "check", "--help"], BLINDCHESS_LANG=lang)
    assert helped.returncode == 0 and helped.stdout.startswith(usage) and f"\n{positional}:" in helped.stdout
    wrong = _run(["notation", "check", "x.pgn", "--sheet-lang", "xx"], BLINDCHESS_LANG=lang)
    assert wrong.returncode == 2 and len(wrong.stderr.strip().splitlines()) == 1 and error in wrong.stderr


def test_the_system_locale_and_lang_choose_the_command_lines_language(tmp_path):
    missing = str(tmp_path / "nope.pgn")
    russian = _run(["notation", "check", missing], LANG="ru_RU.UTF-8")
    assert russian.returncode == 2 and "не существует" in russian.stderr
    dutch = _run(["--lang", "nl", "notation", "check", missing], LANG="ru_RU.UTF-8")
    assert dutch.returncode == 2 and "bestaat niet" in dutch.stderr
    also_dutch = _run(["notation", "check", missing, "--lang=nl"])
    assert also_dutch.stderr == dutch.stderr
    refused = _run(["--lang", "fr", "notation", "check", missing])
    assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1 and "'fr'" in refused.stderr


def test_the_sheet_language_has_its_own_flag(tmp_path, capsys):
    sheet = tmp_path / "sheet.txt"
    sheet.write_text("1. e4 e5 2. Pf3 Pc6\n", encoding="utf-8")
    assert main(["notation", "check", str(sheet), "--sheet-lang", "nl", "--lang", "ru", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lang"] == "nl"
    assert i18n.chosen_lang() is None      # --lang held for the command only


# -- whole games in Dutch and Russian -------------------------------------------------------------

WORD = re.compile(r"[^\W\d_]{2,}")
#: What may stand in a Russian text in Latin letters: FIDE's own abbreviations and the program's name.
LATIN_ALLOWED = {"chess960", "pgn", "fen", "dgt", "uci", "blindchess"}


def _vocabulary(lang: str) -> set[str]:
    words: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            words.update(w.lower() for w in WORD.findall(value))
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    for path in LOCALE.glob(f"*.{lang}.toml"):
        with path.open("rb") as f:
            walk(tomllib.load(f))
    with (VOICES / f"{lang}.toml").open("rb") as f:
        walk(tomllib.load(f))
    return words


def _play(lang: str, capsys) -> tuple[list[dict], set[str]]:
    script = GAMES / f"game_{lang}.scn"
    names = {w.lower() for line in script.read_text(encoding="utf-8").splitlines()
             if line.startswith(("@white", "@black")) for w in WORD.findall(line)}
    assert main(["--lang", lang, "scenario", "run", str(script), "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()], names


#: A move in figurine-less algebraic notation of any language ("Кf3", "Dxf7#", "e4"): not a word.
SAN = re.compile(r"[^\s,.;:()«»‘’“”„]*[a-h][1-8][^\s,.;:()«»‘’“”„]*")


def _foreign_words(text: str, lang: str, names: set[str], foreign: set[str], own: set[str]) -> list[str]:
    found = []
    for word in WORD.findall(SAN.sub(" ", text)):
        low = word.lower()
        if low in names or low in LATIN_ALLOWED:
            continue
        latin_in_russian = lang == "ru" and re.search(r"[A-Za-zÄÖÜäöüß]", word) is not None
        if latin_in_russian or (low in foreign and low not in own):
            found.append(word)
    return found


@pytest.mark.parametrize("lang", ("nl", "ru"))
def test_a_whole_game_has_no_english_or_german_word(lang, capsys):
    events, names = _play(lang, capsys)
    kinds = [e["type"] for e in events]
    assert "touched" in kinds and "refused" in kinds
    final = events[-1]
    assert final["type"] == "final" and final["result"] == "1-0" and final["plies"] == 7   # the mate
    texts = [e["text"] for e in events if e["type"] in ("said", "shown", "question", "refused")]
    heard = {e["text"] for e in events if e["type"] == "heard"}
    clock_words = {"nl": "minuten", "ru": "минут"}[lang]
    assert any(clock_words in t for t in texts)                                 # the time asked for
    assert any(word in t for t in texts for word in ("remise", "ничь"))          # the draw offered
    assert any(word in t for t in texts for word in ("afgewezen", "отклонена"))    # … and declined
    foreign = _vocabulary("en") | _vocabulary("de")
    own = _vocabulary(lang)
    leaks = {t: _foreign_words(t, lang, names, foreign, own) for t in texts if not any(h in t for h in heard)}
    assert {t: w for t, w in leaks.items() if w} == {}


# -- --help, every error path and the readable log in Dutch and Russian ---------------------------------

#: Names that stay as they are in every language: products, formats, keys, the program's own name.
PROPER_NAMES = {"chess960", "chess", "unicode", "livechess", "ctrl", "vosk", "fide", "utf", "brf", "braille", "pdf",
                "wav", "zip", "pgn", "json", "jsonl", "fen", "uci", "dgt", "http", "sha", "stockfish", "espeak", "ng",
                "portaudio", "blindchess", "python", "pyside", "qt", "shift", "enter", "alt", "esc", "tab"}
#: What is code in a text: options, placeholders, choices, paths, file names, quoted words (someone
#: else's: what the user typed, another program's message), upper-case names (FILE, FEN, BLINDCHESS_LANG).
CODE_IN_TEXT = re.compile(r"\b[KQkq]{1,4}\b|--?[\w-]+|\{[^}]*\}|(?<![\w.])[/~][\w./~-]*|\S+\.(?:scn|jsonl?|wav|pgn|zip|pdf|brf|toml|txt|scenario)\b"
                          r"|«[^»]*»|‘[^’]*’|“[^”]*”|„[^“]*“|'[^']*'|\b[A-ZА-ЯЁ0-9_]{2,}\b|\b\w+(?:\|\w+)+\b")


def _parsers(lang: str) -> list[tuple[str, argparse.ArgumentParser]]:
    found: list[tuple[str, argparse.ArgumentParser]] = []

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        found.append((path, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, f"{path} {name}")

    walk(build_parser(lang), "blindchess")
    return found


def _code_words(lang: str) -> set[str]:
    """The command line's own words: command names, option names, choices; the user's data folder."""
    words = set(PROPER_NAMES) | {w.lower() for w in WORD.findall(os.environ.get("BLINDCHESS_HOME", ""))}
    for path, parser in _parsers(lang):
        words.update(path.split())
        for action in parser._actions:
            words.update(w.lower() for s in action.option_strings for w in WORD.findall(s))
            words.update(w.lower() for c in (action.choices or ()) for w in WORD.findall(str(c)))
    return words


def _leaks(texts: list[str], lang: str, allowed: set[str]) -> dict[str, list[str]]:
    foreign, own = _vocabulary("en") | _vocabulary("de"), _vocabulary(lang)
    leaks = {}
    for text in texts:
        words = [w for w in WORD.findall(SAN.sub(" ", CODE_IN_TEXT.sub(" ", text))) if w.lower() not in allowed]
        found = [w for w in words if (lang == "ru" and re.search(r"[A-Za-zÄÖÜäöüß]", w)) or
                 (lang != "ru" and w.lower() in foreign and w.lower() not in own)]
        if found:
            leaks[text[:160]] = found
    return leaks


@pytest.fixture
def chosen(request):
    i18n.use_lang(request.param)
    yield request.param
    i18n.use_lang(None)


@pytest.mark.parametrize("chosen", ("nl", "ru"), indirect=True)
def test_every_help_text_is_in_the_users_language(chosen):
    """``--help`` of the program and of every command: argparse's words, placeholders and our texts."""
    helps = [parser.format_help() for _path, parser in _parsers(chosen)]
    assert len(helps) > 25
    assert _leaks(helps, chosen, _code_words(chosen)) == {}
    usage = {"nl": "gebruik:", "ru": "вызов:"}[chosen]
    assert all(text.startswith(usage) for text in helps)


def _error_paths(folder) -> list[list[str]]:
    """Every file-taking command with every kind of bad file (tests/cli/test_bad_input.py's table), usage
    errors, and bad scenario scripts."""
    from tests.cli import test_bad_input as bad

    (folder / "good.pgn").write_text(bad.GOOD_PGN, encoding="utf-8")
    (folder / "good.scenario").write_text("@white A\n1.0 peg L e2\n", encoding="utf-8")
    runs = []
    for name, argv, _owner, kind in bad._rows():
        if name.startswith(("app", "broadcast", "pegboard simulate")):
            continue          # they start a window, a server or a virtual board: tests/cli/test_bad_input.py runs them
        sub = folder / f"{len(runs)}"
        sub.mkdir()
        for f in ("good.pgn", "good.scenario"):
            (sub / f).write_bytes((folder / f).read_bytes())
        target = bad._prepare(sub, kind)
        runs.append((sub, [a.replace("{IN}", target).replace("{OUT}", target) for a in argv]))
    scripts = {"late.scn": "1.0 peg L e2\n@white A\n", "time.scn": "x peg L e2\n", "actor.scn": "1.0 ghost says hi\n",
               "lang.scn": "@lang fr\n", "claim.scn": "1.0 blind claims nothing\n"}
    for name, text in scripts.items():
        (folder / name).write_text(text, encoding="utf-8")
        runs.append((folder, ["scenario", "run", name]))
    usage = [["notation", "check"], ["notation", "check", "x.pgn", "--sheet-lang", "xx"], ["export", "good.pgn", "--frob"],
             ["chess960", "many"], ["say", "hallo", "--rate", "fast"], ["models", "install", "xx"],
             ["envelope", "check", "Sf6"], ["reconcile", "--sheet-a", "good.pgn"], ["journal", "show", "nope.jsonl"]]
    runs += [(folder, argv) for argv in usage]
    return runs


@pytest.mark.parametrize("lang", ("nl", "ru"))
def test_every_error_path_speaks_the_users_language(lang, tmp_path, monkeypatch, capsys):
    from blindchess.scenario import parser as script

    allowed = _code_words(lang) | set(script.HEADER_READERS) | {w.lower() for a, actor in script.ACTORS.items()
                                                               for w in (a, *actor.verbs)}   # the script's keywords
    english, here = load("scenario", "en"), load("scenario", lang)
    allowed |= {w.lower() for key in english if key.startswith("expect_")        # and the values it accepts,
                for w in set(WORD.findall(str(english[key]))) & set(WORD.findall(str(here[key])))}   # kept as typed
    messages = []
    for folder, argv in _error_paths(tmp_path):
        allowed |= {w.lower() for a in argv for w in WORD.findall(a)}       # what the user typed, said back
        monkeypatch.chdir(folder)
        try:
            code = main(["--lang", lang, *argv])
        except SystemExit as stop:
            code = int(stop.code or 0)
        out = capsys.readouterr()
        said = (out.err or out.out).strip()     # a usage or file error on stderr; problems found (exit 1) on stdout
        assert code in (1, 2) and said and "Traceback" not in said, (argv, code, said)
        messages.append(said)
    assert len(messages) > 60
    assert _leaks(messages, lang, allowed) == {}


@pytest.mark.parametrize("lang", ("nl", "ru"))
def test_the_readable_log_of_a_whole_game_has_no_english_or_german_word(lang, capsys):
    """``blindchess --lang nl scenario run …`` without --json: the log's own words and the moves in the user's letters."""
    script = GAMES / f"game_{lang}.scn"
    names = {w.lower() for line in script.read_text(encoding="utf-8").splitlines()
             if line.startswith(("@white", "@black")) for w in WORD.findall(line)}
    assert main(["--lang", lang, "scenario", "run", str(script)]) == 0
    lines = capsys.readouterr().out.splitlines()
    moves = [line for line in lines if re.search(r"\s(?:zet|ход) \d+: ", line)]
    assert moves and not any(re.search(r": [NBRQK][a-h]?x?[a-h][1-8]", line) for line in moves)   # no English letters
    heard = [line for line in lines if "(" in line and ("gehoord" in line or "услышано" in line)]
    texts = [line for line in lines if line not in heard]
    assert _leaks(texts, lang, names | _code_words(lang)) == {}


def test_a_c_or_foreign_locale_gets_english(tmp_path):
    """No language of the program on the system ("C", French): English, not German."""
    missing = str(tmp_path / "nope.pgn")
    for env in ({"LANG": "C.UTF-8"}, {"LANG": "fr_FR.UTF-8"}, {"LANG": "C.UTF-8", "BLINDCHESS_LANG": "fr"}):
        run = _run(["notation", "check", missing], **env)
        assert run.returncode == 2 and "does not exist" in run.stderr, (env, run.stderr)
    helped = _run(["--help"])
    assert helped.stdout.startswith("usage: blindchess") and "show program's version number and exit" in helped.stdout
