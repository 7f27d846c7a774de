"""AuthorizationArgs and the PKCE types as Python sees them (issue: Foundation)."""

import copy
import enum
import gc
import weakref

import pytest

import platformpp
from platformpp import (
    AuthenticationCodeChallengeMethod,
    AuthorizationArgs,
    AuthorizationCodeChallenge,
    AuthorizationCodeVerifier,
    IntegrationType,
)


def test_defaults_leave_every_optional_unset():
    args = AuthorizationArgs()
    assert bool(args)
    assert args.client_id == 0
    assert args.scopes == ""
    assert (args.state, args.nonce, args.code_challenge) == (None, None, None)
    assert (args.integration_type, args.custom_scheme_param) == (None, None)


def test_properties_round_trip_and_reset_to_none():
    challenge = AuthorizationCodeChallenge()
    challenge.challenge = "abc"
    args = AuthorizationArgs()
    args.client_id = 2**64 - 1
    args.scopes = "openid sdk.social_layer"
    args.state = "s"
    args.nonce = "n"
    args.code_challenge = challenge
    args.integration_type = IntegrationType.UserInstall
    args.custom_scheme_param = "mygame"
    assert args.client_id == 2**64 - 1
    assert args.scopes == "openid sdk.social_layer"
    assert (args.state, args.nonce, args.custom_scheme_param) == ("s", "n", "mygame")
    assert args.code_challenge.challenge == "abc"
    assert args.code_challenge.method is AuthenticationCodeChallengeMethod.S256
    assert args.integration_type is IntegrationType.UserInstall
    args.state = None
    args.code_challenge = None
    args.integration_type = None
    assert (args.state, args.code_challenge, args.integration_type) == (None, None, None)


def test_keyword_construction_matches_setters():
    args = AuthorizationArgs(client_id=7, scopes="openid", nonce="n", integration_type=IntegrationType.GuildInstall)
    assert (args.client_id, args.scopes, args.nonce) == (7, "openid", "n")
    assert args.integration_type is IntegrationType.GuildInstall
    with pytest.raises(TypeError):
        AuthorizationArgs(7)  # keyword-only


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("client_id", -1),
        ("client_id", 2**64),
        ("client_id", "7"),
        ("client_id", 1.5),
        ("scopes", None),
        ("scopes", 3),
        ("state", 3),
        ("code_challenge", "abc"),
        ("integration_type", "UserInstall"),
        ("custom_scheme_param", b"bytes"),
        ("scopes", b"openid"),
        ("nonce", b"n"),
    ],
)
def test_wrong_types_raise_type_error_and_leave_the_field_intact(field, value):
    args = AuthorizationArgs(client_id=5, scopes="openid", state="s", custom_scheme_param="x")
    before = getattr(args, field)
    with pytest.raises(TypeError):
        setattr(args, field, value)
    after = getattr(args, field)
    assert after == before or (field == "code_challenge" and after is None and before is None)


def test_enums_are_int_enums_with_the_cpp_names():
    assert issubclass(IntegrationType, enum.IntEnum)
    assert issubclass(AuthenticationCodeChallengeMethod, enum.IntEnum)
    assert {m.name: m.value for m in IntegrationType} == {"GuildInstall": 0, "UserInstall": 1}
    assert {m.name: m.value for m in AuthenticationCodeChallengeMethod} == {"S256": 0}


@pytest.mark.parametrize("cls", [AuthorizationArgs, AuthorizationCodeChallenge, AuthorizationCodeVerifier])
def test_nullobj_is_falsy_and_refuses_use(cls):
    null = cls.nullobj
    assert isinstance(null, cls)
    assert not null
    first_property = {AuthorizationArgs: "scopes", AuthorizationCodeChallenge: "challenge",
                      AuthorizationCodeVerifier: "verifier"}[cls]
    with pytest.raises(platformpp.NullHandleError) as raised:
        getattr(null, first_property)
    assert isinstance(raised.value, platformpp.Error)
    assert cls.__name__ in str(raised.value)
    with pytest.raises(platformpp.NullHandleError):
        setattr(null, first_property, "x")
    assert not cls.nullobj  # still null: nothing was written
    assert not copy.copy(null)


@pytest.mark.parametrize("copier", [copy.copy, copy.deepcopy])
def test_copies_are_independent(copier):
    challenge = AuthorizationCodeChallenge()
    challenge.challenge = "c1"
    original = AuthorizationArgs(scopes="a", state="s1", code_challenge=challenge)
    duplicate = copier(original)
    assert duplicate is not original
    duplicate.scopes = "b"
    duplicate.state = "s2"
    duplicate.code_challenge = None
    assert (original.scopes, original.state, original.code_challenge.challenge) == ("a", "s1", "c1")


def test_nested_values_are_copies_not_views():
    challenge = AuthorizationCodeChallenge()
    challenge.challenge = "c1"
    args = AuthorizationArgs(code_challenge=challenge)
    challenge.challenge = "changed later"
    fetched = args.code_challenge
    fetched.challenge = "changed through a getter"
    assert args.code_challenge.challenge == "c1"


def test_repr_never_shows_state_nonce_or_challenge():
    client = platformpp.Client()
    pair = client.create_authorization_code_verifier()
    args = AuthorizationArgs(scopes="openid", state="STATE-SECRET", nonce="NONCE-SECRET",
                             code_challenge=pair.challenge, custom_scheme_param="mygame")
    text = repr(args)
    for secret in ("STATE-SECRET", "NONCE-SECRET", pair.challenge.challenge):
        assert secret not in text
    assert "scopes='openid'" in text and "custom_scheme_param='mygame'" in text and "state=<hidden>" in text
    assert pair.verifier not in repr(pair)
    assert pair.challenge.challenge not in repr(pair)
    assert repr(AuthorizationArgs.nullobj) == "<AuthorizationArgs: null>"


def test_handle_classes_are_final():
    for cls in (AuthorizationArgs, AuthorizationCodeChallenge, AuthorizationCodeVerifier, platformpp.Client):
        with pytest.raises(TypeError):
            type("Sub", (cls,), {})


def test_instances_are_released():
    args = AuthorizationArgs(scopes="openid")
    ref = weakref.ref(args) if hasattr(type(args), "__weakref__") else None
    del args
    gc.collect()
    assert ref is None or ref() is None


def test_property_accessors_check_their_instance():
    with pytest.raises(TypeError):
        AuthorizationArgs.scopes.fget(42)
    with pytest.raises(TypeError):
        AuthorizationArgs.scopes.fset(AuthorizationCodeChallenge(), "x")
    uninitialised = AuthorizationArgs.__new__(AuthorizationArgs)
    with pytest.raises(TypeError, match="not initialized"):
        uninitialised.scopes  # noqa: B018


def test_bool_is_not_an_application_id():
    args = AuthorizationArgs(client_id=3)
    with pytest.raises(TypeError):
        args.client_id = True
    assert args.client_id == 3


def test_unencodable_string_is_refused_and_leaves_the_field():
    args = AuthorizationArgs(scopes="openid")
    with pytest.raises(UnicodeEncodeError):
        args.scopes = "bad \udc80 surrogate"
    assert args.scopes == "openid"


def test_error_messages_name_the_field():
    args = AuthorizationArgs()
    with pytest.raises(TypeError, match="client_id"):
        args.client_id = -5
    with pytest.raises(TypeError, match="scopes"):
        args.scopes = 5
