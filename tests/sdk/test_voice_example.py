"""examples/voice_push_to_talk.py, headless: push-to-talk on a key and the speaking indicators."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "voice_push_to_talk.py"


def test_push_to_talk_transmits_only_while_the_key_is_down_and_indicators_follow() -> None:
    env = dict(os.environ, PLATFORMPP_AUDIO_BACKEND="null")
    result = subprocess.run([sys.executable, str(EXAMPLE), "--script", "space@1.0,space@3.0,q@4.5"],
                            capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    down = lines.index(next(line for line in lines if line.startswith("[ptt] down")))
    up = lines.index(next(line for line in lines if line.startswith("[ptt] up")))
    # Nothing reached bob before the key went down; then alice is shown speaking, then silent.
    assert "bob has heard 0 frames" in lines[down]
    speaking = [i for i, line in enumerate(lines) if line == "[indicator] alice: speaking"]
    silent = [i for i, line in enumerate(lines) if line == "[indicator] alice: silent"]
    assert speaking and down < speaking[0] < up, result.stdout
    assert silent and silent[-1] > up, result.stdout
    heard_while_down = int(re.search(r"bob has heard (\d+) frames", lines[up]).group(1))
    assert heard_while_down > 50  # about 2 s of talk at 50 frames a second, less the start
    total = int(re.search(r"bob heard (\d+) frames", lines[-1]).group(1))
    assert total - heard_while_down < 30  # the release delay and the jitter buffer, not more talk
