"""``blindchess say TEXT [--lang LANG] [--out FILE.wav] [--rate WPM]``.

Speaks a text through the speech engine, or renders it into a WAV file (a
recording the visually impaired player may keep, FIDE Laws D.2.7). Without an
engine the text is printed instead and the message says why.
"""

from __future__ import annotations

import argparse
import sys

from ..base import default_lang, output_target, tr
from .options import add_lang_argument


def register(subparsers: argparse._SubParsersAction) -> None:
    lang = default_lang()
    parser = subparsers.add_parser("say", help=tr("speech.cli_say_help", lang),
                                   description=tr("speech.cli_say_help", lang))
    parser.add_argument("text", nargs="+", help=tr("speech.cli_text", lang))
    add_lang_argument(parser, lang)
    parser.add_argument("--out", metavar="FILE.wav", help=tr("speech.cli_out", lang))
    parser.add_argument("--rate", type=_rate, help=tr("speech.cli_rate", lang))
    parser.set_defaults(func=run)


def _rate(text: str) -> float:
    """A speaking rate: words per minute, 20 to 1000 (espeak-ng's own limits are 80 to 450)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 20 <= value <= 1000:
        raise argparse.ArgumentTypeError(tr("speech.bad_rate", default_lang(), rate=text))
    return value


def run(args: argparse.Namespace) -> int:
    # the speech adapter is loaded by the command that speaks: every other command runs without it
    from ..adapters import Speaker, read_wav, render_wav

    text = " ".join(args.text)
    ui = default_lang()
    if args.out:
        output_target(args.out, ui)   # a refused name, a loop, a folder: one line, nothing written
        path = render_wav(text, args.out, args.lang, rate=args.rate)
        if path.is_file():
            print(tr("speech.wav_written", ui, path=path, seconds=read_wav(path).duration))
        else:   # a device or a pipe (/dev/stdout): nothing to read back
            print(tr("speech.wav_written_plain", ui, path=path), file=sys.stderr)
        return 0
    with Speaker(args.lang, rate=args.rate) as speaker:
        if not speaker.available:
            print(speaker.problem, file=sys.stderr)
            print(tr("speech.spoken_unavailable", ui, text=text))
            return 0
        print(text)
        speaker.say(text)
        speaker.wait_idle(120)
    return 0
