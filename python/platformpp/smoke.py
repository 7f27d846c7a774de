"""`platformpp smoke`: a quick check that the installed SDK loads and its core works."""

from __future__ import annotations

import argparse
import time


def main(argv: list[str]) -> int:
    argparse.ArgumentParser(prog="platformpp smoke",
                            description="A quick check that the installed SDK loads and its core works"
                                        " (no network).").parse_args(argv)
    import platformpp
    from platformpp import AuthorizationArgs, Client, versioning

    started = time.perf_counter()
    client = Client()
    client.set_application_id(1)
    pair = client.create_authorization_code_verifier()
    args = AuthorizationArgs(scopes=Client.get_default_communication_scopes(), code_challenge=pair.challenge)
    redirect = platformpp.resolve_authorize_redirect_uri(args, client.get_application_id())
    platformpp.run_callbacks()
    supported = ", ".join(f"{major}.{minor}" for major, minor in versioning.supported_minors())
    print(f"platformpp {platformpp.__version__}")
    print(f"  PKCE pair: verifier of {len(pair.verifier)} chars, {pair.challenge.method.name} challenge")
    print(f"  authorize redirect URI: {redirect}")
    print(f"  supported SDK minors today: {supported}")
    print(f"  ok in {(time.perf_counter() - started) * 1000:.1f} ms")
    return 0
