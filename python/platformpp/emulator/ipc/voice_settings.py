"""The desktop user's voice settings: the desktop client's own, not any call's. The admin API changes
them as if the user did in the client; SET_VOICE_SETTINGS changes them from a game; both announce
VOICE_SETTINGS_UPDATE to subscribers.

The RPC object is the platform's GET_VOICE_SETTINGS shape (``input``/``output`` with ``volume``,
``mode`` with ``type``, the processing switches, ``mute``/``deaf``) plus ``mode.ptt_key``, the label of
the push-to-talk key, and ``noise_cancellation``, which the SDK's VoiceSettings exposes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Any

from ..core.validation import Form

VOICE_ACTIVITY = "VOICE_ACTIVITY"
PUSH_TO_TALK = "PUSH_TO_TALK"
INPUT_MODES = (VOICE_ACTIVITY, PUSH_TO_TALK)
_ADMIN_MODES = {"voice_activity": VOICE_ACTIVITY, "push_to_talk": PUSH_TO_TALK}
_PTT_KEY_LEN = 64
_SWITCHES = ("automatic_gain_control", "echo_cancellation", "noise_suppression", "noise_cancellation")


@dataclass(frozen=True)
class VoiceSettings:
    self_mute: bool = False
    self_deaf: bool = False
    input_mode: str = VOICE_ACTIVITY
    ptt_key: str = ""
    input_volume: float = 100.0     # 0-100
    output_volume: float = 100.0    # 0-200
    automatic_gain_control: bool = True
    echo_cancellation: bool = True
    noise_suppression: bool = True
    noise_cancellation: bool = False

    def rpc(self) -> dict[str, Any]:
        return {
            "input": {"device_id": "default", "volume": self.input_volume,
                      "available_devices": [{"id": "default", "name": "Default"}]},
            "output": {"device_id": "default", "volume": self.output_volume,
                       "available_devices": [{"id": "default", "name": "Default"}]},
            "mode": {"type": self.input_mode, "ptt_key": self.ptt_key},
            "automatic_gain_control": self.automatic_gain_control,
            "echo_cancellation": self.echo_cancellation,
            "noise_suppression": self.noise_suppression,
            "noise_cancellation": self.noise_cancellation,
            "qos": False, "silence_warning": True,
            "deaf": self.self_deaf, "mute": self.self_mute,
        }

    def admin(self) -> dict[str, Any]:
        body = asdict(self)
        body["input_mode"] = {v: k for k, v in _ADMIN_MODES.items()}[self.input_mode]
        return body


def _volume(form: Form, name: str, maximum: float) -> float | None:
    if name not in form.data:
        return None
    value = form.data[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= maximum:
        form.fail(name, "NUMBER_TYPE_MAX", f"Must be a number from 0 to {maximum:g}.")
        return None
    return float(value)


def _switch(form: Form, name: str) -> bool | None:
    if name not in form.data:
        return None
    if not isinstance(form.data[name], bool):
        form.fail(name, "BASE_TYPE_BOOLEAN", "Must be true or false.")
        return None
    return bool(form.data[name])


def _ptt_key(form: Form, name: str) -> str | None:
    if name not in form.data:
        return None
    return form.string(name, max_len=_PTT_KEY_LEN)


def _apply(current: VoiceSettings, changes: dict[str, Any]) -> VoiceSettings:
    return replace(current, **{k: v for k, v in changes.items() if v is not None})


def update_from_admin(current: VoiceSettings, form: Form) -> VoiceSettings:
    """``PATCH /_emulator/desktop/voice-settings``: flat SDK-style names, every one optional."""
    mode = None
    if "input_mode" in form.data:
        raw = form.choice("input_mode", tuple(_ADMIN_MODES))
        mode = _ADMIN_MODES.get(raw) if isinstance(raw, str) else None
    changes = {"self_mute": _switch(form, "self_mute"), "self_deaf": _switch(form, "self_deaf"),
               "input_mode": mode, "ptt_key": _ptt_key(form, "ptt_key"),
               "input_volume": _volume(form, "input_volume", 100), "output_volume": _volume(form, "output_volume", 200),
               **{name: _switch(form, name) for name in _SWITCHES}}
    form.done()
    return _apply(current, changes)


def update_from_rpc(current: VoiceSettings, form: Form) -> VoiceSettings:
    """SET_VOICE_SETTINGS ``args``: the RPC object's shape, every field optional; raises the field errors."""
    changes: dict[str, Any] = {"self_mute": _switch(form, "mute"), "self_deaf": _switch(form, "deaf"),
                               **{name: _switch(form, name) for name in _SWITCHES}}
    for side, maximum in (("input", 100), ("output", 200)):
        sub = form.obj(side, required=False)
        if sub is not None:
            changes[f"{side}_volume"] = _volume(sub, "volume", maximum)
    mode = form.obj("mode", required=False)
    if mode is not None:
        if "type" in mode.data:
            changes["input_mode"] = mode.choice("type", INPUT_MODES)
        changes["ptt_key"] = _ptt_key(mode, "ptt_key")
    for ignored in ("qos", "silence_warning"):
        _switch(form, ignored)
    form.done()
    return _apply(current, changes)
