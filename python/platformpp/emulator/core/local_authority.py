"""The emulator's private certificate authority and the server certificates it signs (``tls.local_certificate``
uses it; the files it writes are what clients trust)."""

from __future__ import annotations

import datetime as dt
import ipaddress
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

CA_NAME = "platformpp emulator local CA"
CA_LIFETIME = dt.timedelta(days=3650)
SERVER_LIFETIME = dt.timedelta(days=397)
# A server certificate this close to its end is made anew when the emulator starts.
RENEW_BEFORE = dt.timedelta(days=7)
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def _subject_names(hosts: Iterable[str]) -> list[str]:
    names: list[str] = []
    for host in (*LOOPBACK_NAMES, *hosts):
        host = host.strip("[]")
        if host and host not in names and host not in ("0.0.0.0", "::"):
            names.append(host)
    return names


def _general_names(names: list[str]) -> list[x509.GeneralName]:
    out: list[x509.GeneralName] = []
    for name in names:
        try:
            out.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            out.append(x509.DNSName(name))
    return out


def _write_pair(directory: Path, name: str, cert: x509.Certificate, key: ec.EllipticCurvePrivateKey) -> None:
    """``<name>.pem`` and ``<name>-key.pem``; the key file is readable by its owner only."""
    _replace(directory / f"{name}-key.pem", key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()), 0o600)
    _replace(directory / f"{name}.pem", cert.public_bytes(serialization.Encoding.PEM), 0o644)


def _replace(path: Path, data: bytes, mode: int) -> None:
    """Write a new file (mode 0600 from its creation, then ``mode``) and rename it over ``path``:
    opening the old file would keep its mode, which may let others read a renewed key; and readers
    never see half a file."""
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def _ends_soon(cert: x509.Certificate) -> bool:
    return cert.not_valid_after_utc - RENEW_BEFORE < dt.datetime.now(dt.timezone.utc)


def _load_ca(directory: Path) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey] | None:
    cert_path, key_path = directory / "ca.pem", directory / "ca-key.pem"
    if not (cert_path.exists() and key_path.exists()):
        return None
    cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
    key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        return None
    if _ends_soon(cert):
        return None
    return cert, key


def _new_ca(directory: Path) -> tuple[x509.Certificate, ec.EllipticCurvePrivateKey]:
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, CA_NAME)])
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + CA_LIFETIME)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                         crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    _write_pair(directory, "ca", cert, key)
    return cert, key


def _server_is_current(directory: Path, names: list[str], ca_cert: x509.Certificate) -> bool:
    path = directory / "server.pem"
    if not (path.exists() and (directory / "server-key.pem").exists()):
        return False
    cert = x509.load_pem_x509_certificate(path.read_bytes())
    if cert.issuer != ca_cert.subject:
        return False
    if _ends_soon(cert):
        return False
    covered = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    return all(name in covered for name in _general_names(names))


def _new_server(directory: Path, names: list[str], ca_cert: x509.Certificate,
                ca_key: ec.EllipticCurvePrivateKey) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    now = dt.datetime.now(dt.timezone.utc)
    cert = (x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, names[0])]))
            .issuer_name(ca_cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(minutes=5)).not_valid_after(now + SERVER_LIFETIME)
            .add_extension(x509.SubjectAlternativeName(_general_names(names)), critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    _write_pair(directory, "server", cert, key)


def prepare(directory: Path, hosts: Iterable[str]) -> None:
    """The authority in ``directory`` (made when missing) and a current server certificate for loopback
    and ``hosts`` signed by it."""
    directory.mkdir(parents=True, exist_ok=True)
    names = _subject_names(hosts)
    ca = _load_ca(directory)
    if ca is None:
        ca = _new_ca(directory)
    if not _server_is_current(directory, names, ca[0]):
        _new_server(directory, names, *ca)
