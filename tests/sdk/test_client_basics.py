"""Client's Foundation members: scopes, version, application id, PKCE pairs, run_callbacks."""

import base64
import hashlib
import re

import pytest

import platformpp
from platformpp import AuthenticationCodeChallengeMethod, Client


def test_default_scopes():
    assert Client.get_default_communication_scopes() == "openid sdk.social_layer"
    assert Client.get_default_presence_scopes() == "openid sdk.social_layer_presence"


def test_one_version_everywhere():
    assert platformpp.__version__ == "1.11.0"
    parts = (Client.get_version_major(), Client.get_version_minor(), Client.get_version_patch())
    assert ".".join(map(str, parts)) == platformpp.__version__


def test_application_id():
    client = Client()
    assert client.get_application_id() == 0
    client.set_application_id(1234567890123456789)
    assert client.get_application_id() == 1234567890123456789
    for wrong in (-1, 2**64):
        with pytest.raises(platformpp.ValidationError) as error:
            client.set_application_id(wrong)
        # The message names the field and the rule (what is allowed), and the value given.
        assert error.value.field == "application_id"
        assert str(error.value) == ("application_id: must be an application id, an integer from 0 (none) "
                                    f"to 2**64 - 1, got {wrong}")
    with pytest.raises(TypeError):
        client.set_application_id("1")  # type: ignore[arg-type]
    assert client.get_application_id() == 1234567890123456789
    client.set_application_id(2**64 - 1)
    assert client.get_application_id() == 2**64 - 1


def test_null_client():
    assert not Client.nullobj
    assert Client()
    with pytest.raises(platformpp.NullHandleError):
        Client.nullobj.get_application_id()


def test_code_verifier_is_s256_of_32_random_bytes():
    client = Client()
    verifiers = set()
    for _ in range(32):
        pair = client.create_authorization_code_verifier()
        assert re.fullmatch(r"[A-Za-z0-9_-]{43}", pair.verifier)
        assert len(base64.urlsafe_b64decode(pair.verifier + "=")) == 32
        expected = base64.urlsafe_b64encode(hashlib.sha256(pair.verifier.encode()).digest()).rstrip(b"=").decode()
        assert pair.challenge.challenge == expected
        assert pair.challenge.method is AuthenticationCodeChallengeMethod.S256
        verifiers.add(pair.verifier)
    assert len(verifiers) == 32


def test_run_callbacks_with_nothing_queued():
    assert platformpp.run_callbacks() is None
