"""A pygame window that signs a player in through the platform while it keeps drawing frames.

    python docs/examples/pygame_frame_loop.py --api-base http://127.0.0.1:PORT/api/v10 \
        --web-base http://127.0.0.1:PORT --user alice

Against the emulator, consent is headless (--user); against the real service the system browser
opens. The SDK never blocks a frame: platformpp.FrameLoop.tick() runs its callbacks and advances the
sign-in coroutine once per frame. Exits 0 once the Client is Ready (or after --frames frames: 1).
"""

from __future__ import annotations

import argparse
import sys

import pygame

import platformpp
from platformpp import AuthorizationArgs, AuthorizationTokenType, Client


async def sign_in(client: Client, application_id: int) -> str:
    pair = client.create_authorization_code_verifier()
    args = AuthorizationArgs(scopes=Client.get_default_communication_scopes(), code_challenge=pair.challenge)
    code, redirect_uri = await client.authorize_async(args, timeout=30)
    access, _refresh, _type, _expires, _scopes = await client.get_token_async(
        application_id, code, pair.verifier, redirect_uri, timeout=30)
    await client.update_token_async(AuthorizationTokenType.Bearer, access, timeout=30)
    client.connect()
    return access


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--api-base", required=True)
    parser.add_argument("--web-base", required=True)
    parser.add_argument("--application-id", type=int, default=1000000000000000000)
    parser.add_argument("--user", default="", help="emulator test user to consent as (headless)")
    parser.add_argument("--frames", type=int, default=3000, help="give up after this many frames")
    options = parser.parse_args()

    pygame.init()
    screen = pygame.display.set_mode((480, 120))
    font = pygame.font.Font(None, 28)
    clock = pygame.time.Clock()

    client = Client(options.api_base, options.web_base)
    client.set_application_id(options.application_id)
    if options.user:
        client.set_emulator_consent_user(options.user)
    with platformpp.FrameLoop() as frames:
        task = frames.spawn(sign_in(client, options.application_id))
        for frame in range(options.frames):
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    return 1
            frames.tick()
            status = client.get_status()
            screen.fill((20, 24, 32))
            screen.blit(font.render(f"frame {frame}: {status.name}", True, (230, 230, 230)), (16, 44))
            pygame.display.flip()
            if task.done() and task.exception() is not None:
                print(f"sign-in failed: {task.exception()}", file=sys.stderr)
                return 1
            if status is Client.Status.Ready:
                print(f"Ready after {frame} frames")
                return 0
            clock.tick(120)
    print("gave up waiting for Ready", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
