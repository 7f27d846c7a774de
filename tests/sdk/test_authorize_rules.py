"""The redirect URI and state rules Client.authorize applies (seed: CustomSchemeParam, State)."""

import pytest

import platformpp
from platformpp import AuthorizationArgs, resolve_authorize_redirect_uri, resolve_authorize_state


def test_standard_redirect_uses_the_application_id():
    assert resolve_authorize_redirect_uri(AuthorizationArgs(), 1234) == "platform-1234:/authorize/callback"
    assert resolve_authorize_redirect_uri(AuthorizationArgs(client_id=99), 1234) == "platform-99:/authorize/callback"


def test_custom_scheme_redirect():
    args = AuthorizationArgs(custom_scheme_param="my-game.v2+beta")
    assert resolve_authorize_redirect_uri(args, 1) == "my-game.v2+beta:/authorize/callback"


@pytest.mark.parametrize("scheme", ["", "1game", "my game", "game:", "-x", "gamé", "a/b"])
def test_invalid_scheme_is_a_validation_error_naming_the_field(scheme):
    with pytest.raises(platformpp.ValidationError) as raised:
        resolve_authorize_redirect_uri(AuthorizationArgs(custom_scheme_param=scheme), 1)
    assert raised.value.field == "custom_scheme_param"
    assert str(raised.value).startswith("custom_scheme_param: ")
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, platformpp.Error)


def test_missing_client_id_is_a_validation_error():
    with pytest.raises(platformpp.ValidationError) as raised:
        resolve_authorize_redirect_uri(AuthorizationArgs(), 0)
    assert raised.value.field == "client_id"


def test_state_is_kept_when_set_and_fresh_when_unset():
    assert resolve_authorize_state(AuthorizationArgs(state="given")) == "given"
    generated = {resolve_authorize_state(AuthorizationArgs()) for _ in range(32)}
    assert len(generated) == 32
    for state in generated:
        assert len(state) == 43 and not set(state) & set("+/=")
