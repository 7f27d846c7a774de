"""The frame-loop helper, and the pygame example running headless (SDL_VIDEODRIVER=dummy)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

import platformpp
from platformpp import AuthorizationArgs, Client

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "pygame_frame_loop.py"


def test_tick_advances_coroutines_and_never_blocks() -> None:
    offline = Client("http://127.0.0.1:9/api/v10", "http://127.0.0.1:9")
    steps: list[str] = []

    async def job() -> str:
        steps.append("started")
        await asyncio.sleep(0)
        steps.append("after a frame")
        try:
            await offline.authorize_async(AuthorizationArgs())  # fails validation at once
        except platformpp.ValidationError as error:
            return error.field

    with platformpp.FrameLoop() as frames:
        task = frames.spawn(job())
        for _ in range(50):
            frames.tick()
            if task.done():
                break
        assert task.result() == "scopes"
    assert steps == ["started", "after a frame"]


def test_close_cancels_pending_work() -> None:
    frames = platformpp.FrameLoop()
    task = frames.spawn(asyncio.sleep(3600))
    frames.tick()
    frames.close()
    assert task.cancelled()


def test_the_pygame_example_signs_in_headless(platformpp_emulator) -> None:
    pytest.importorskip("pygame")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--api-base", platformpp_emulator.api_base,
         "--web-base", platformpp_emulator.web_base, "--user", "carol"],
        capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Ready after" in result.stdout
