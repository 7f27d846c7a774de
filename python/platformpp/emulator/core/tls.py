"""TLS for the emulator: HTTPS, WSS for the Gateway, and WSS for the voice gateway.

Platform clients that hard-code ``wss://`` (bot libraries' voice clients do: VOICE_SERVER_UPDATE's
endpoint carries no scheme) reach the emulator only over TLS. ``local_certificate`` makes a private
certificate authority once, in a folder, and a server certificate it signs for the emulator's host
names; clients trust the authority's file (``ca_file``), never the system's store. A certificate of
one's own (``ServerCertificate(cert_file, key_file)``) works as well.
"""

from __future__ import annotations

import ssl
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple


class TlsSetupError(RuntimeError):
    """A certificate or key file is missing, unreadable, or does not match."""


class ServerCertificate(NamedTuple):
    """What the emulator serves TLS with. ``ca_file``: the authority clients must trust (None when the
    certificate chains to one the clients already trust)."""

    cert_file: Path
    key_file: Path
    ca_file: Path | None = None

    def server_context(self) -> ssl.SSLContext:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        try:
            context.load_cert_chain(self.cert_file, self.key_file)
        except (OSError, ssl.SSLError) as exc:
            raise TlsSetupError(f"tls: cannot load the certificate {self.cert_file} with the key "
                                f"{self.key_file}: {exc}") from exc
        return context

    def client_context(self) -> ssl.SSLContext:
        """A client context that trusts this certificate's authority (for tests and tools in Python)."""
        context = ssl.create_default_context()
        if self.ca_file is not None:
            context.load_verify_locations(self.ca_file)
        return context


def local_certificate(directory: str | Path, hosts: Iterable[str] = ()) -> ServerCertificate:
    """The emulator's private authority and a server certificate for loopback and ``hosts``, kept in
    ``directory`` (made when missing, kept across runs so that clients trust ``ca.pem`` once; the server
    certificate is made anew when it ends soon or does not name a host asked for)."""
    # imported here: the certificate library costs a start that serves plain HTTP tens of milliseconds
    from .local_authority import prepare

    directory = Path(directory)
    try:
        prepare(directory, hosts)
    except (OSError, ValueError) as exc:
        raise TlsSetupError(f"tls: cannot prepare the emulator's certificate in {directory}: {exc}") from exc
    return ServerCertificate(directory / "server.pem", directory / "server-key.pem", directory / "ca.pem")
