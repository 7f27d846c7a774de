// platformpp/call.hpp (Call, CallInfoHandle, VoiceStateHandle, VADThresholdSettings, AudioModeType) and
// the Client's call members. Out-of-range values raise ValidationError naming the parameter (the C++
// API clamps and logs instead).
//
// The audio callbacks (start_call_with_audio_callbacks) run on the SDK's audio thread every 20 ms. Each
// gets a numpy int16 array of shape (samples, channels) that views the SDK's buffer: no copy, writable
// (what the callback leaves is what is sent / played), valid only during the call. The GIL is taken for
// the call only; an exception is reported like any callback's and the audio goes on.
#include "platformpp/call.hpp"

#include <pybind11/native_enum.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bindings.hpp"
#include "call_table.hpp"
#include "handle_members.hpp"
#include "platformpp/client.hpp"
#include "platformpp/errors.hpp"
#include "py_callback.hpp"

namespace py = pybind11;

namespace platformpp::python {
namespace {

void RequireRange(const char* parameter, double value, double low, double high) {
    if (std::isnan(value) || value < low || value > high) {
        throw ValidationError(parameter, "must be within [" + std::to_string(static_cast<int>(low)) + ", " +
                                             std::to_string(static_cast<int>(high)) + "], got " + std::to_string(value));
    }
}

template <typename... Args>
std::function<void(Args...)> Optional(std::optional<PyCallback<Args...>> callback, const char* what) {
    return callback ? WrapCallback<Args...>(std::move(*callback), what) : nullptr;
}

// A view of the SDK's interleaved frame as (samples, channels) int16, without copying: the base object
// only keeps numpy from copying (it owns nothing).
py::array_t<int16_t> FrameView(int16_t* data, uint64_t samples, uint64_t channels) {
    // Never destroyed: a Python object must not be released by a static destructor after finalization.
    // (A capsule needs a non-null pointer; it points at a static byte and frees nothing.)
    static char anchor = 0;
    static const py::capsule* const kNoOwner = new py::capsule(static_cast<void*>(&anchor), [](void*) {});
    const auto rows = static_cast<py::ssize_t>(samples), columns = static_cast<py::ssize_t>(channels);
    return py::array_t<int16_t>({rows, columns},
                                {columns * static_cast<py::ssize_t>(sizeof(int16_t)),
                                 static_cast<py::ssize_t>(sizeof(int16_t))},
                                data, *kNoOwner);
}

// Reports the exception being handled (GIL held) like any callback's; nothing escapes onto the audio
// thread, which must go on whatever the report does.
void ReportAudioError(const char* what) noexcept {
    try {
        try {
            throw;
        } catch (py::error_already_set& error) {
            ReportCallbackError(error, what);
        } catch (const std::exception&) {
            py::detail::try_translate_exceptions();
            py::error_already_set error;
            ReportCallbackError(error, what);
        }
    } catch (...) {
        PyErr_Clear();
    }
}

bool PythonFinalizing() {
#if PY_VERSION_HEX >= 0x030D0000
    return Py_IsFinalizing() != 0;
#else
    return _Py_IsFinalizing() != 0;
#endif
}

// The audio thread calls into Python every 20 ms. Making a Python thread state for each call (what a
// plain gil_scoped_acquire does on a thread Python did not start) costs ~7 µs, mostly allocating and
// freeing the state's frame stack; the thread keeps the state of its first call until it ends instead.
// At its end it takes the GIL once more to delete the state, except while the interpreter finalizes
// (which clears every thread state itself). That cannot deadlock: the SDK joins its audio thread only
// in the Client's destructor, which pybind11 runs with the GIL released
// (py::release_gil_before_calling_cpp_dtor in client.cpp), and _audio_callback_cost joins its own
// thread with the GIL released too.
class AudioThreadState {
public:
    void KeepFrom(py::gil_scoped_acquire& gil) {
        if (kept_) return;
        gil.inc_ref();
        kept_ = true;
    }
    ~AudioThreadState() {
        if (!kept_ || !Py_IsInitialized() || PythonFinalizing()) return;
        py::gil_scoped_acquire gil;  // the kept state: one more reference
        gil.dec_ref();               // the kept one; the destructor drops the last, deleting the state
    }

private:
    bool kept_ = false;
};
thread_local AudioThreadState audioThreadState;

using ReceivedPy = PyCallback<uint64_t, py::array_t<int16_t>, int32_t>;
using CapturedPy = PyCallback<py::array_t<int16_t>, int32_t>;

Client::UserAudioReceivedCallback WrapReceived(std::optional<py::object> callable) {
    if (!callable || callable->is_none()) return nullptr;
    return [shared = Share(std::move(*callable))](uint64_t userId, int16_t* data, uint64_t samples, int32_t rate,
                                                 uint64_t channels, bool& outShouldMute) {
        py::gil_scoped_acquire gil;
        audioThreadState.KeepFrom(gil);
        try {
            py::object result = (*shared)(userId, FrameView(data, samples, channels), rate);
            if (!result.is_none()) outShouldMute = result.cast<bool>();
        } catch (...) {
            ReportAudioError("audio received callback");
        }
    };
}

Client::UserAudioCapturedCallback WrapCaptured(std::optional<py::object> callable) {
    if (!callable || callable->is_none()) return nullptr;
    return [shared = Share(std::move(*callable))](int16_t* data, uint64_t samples, int32_t rate, uint64_t channels) {
        py::gil_scoped_acquire gil;
        audioThreadState.KeepFrom(gil);
        try {
            (*shared)(FrameView(data, samples, channels), rate);
        } catch (...) {
            ReportAudioError("audio captured callback");
        }
    };
}

void BindValues(py::module_& m) {
    py::native_enum<AudioModeType>(m, "AudioModeType", "enum.IntEnum", "When a call transmits the microphone.")
        .value("MODE_UNINIT", AudioModeType::MODE_UNINIT, "Not set (never a call's mode).")
        .value("MODE_VAD", AudioModeType::MODE_VAD, "Voice activity detection.")
        .value("MODE_PTT", AudioModeType::MODE_PTT, "Push-to-talk.")
        .finalize();

    py::class_<VoiceStateHandle> state(m, "VoiceStateHandle", py::is_final(),
                                       "A participant's self mute and self deaf, as last reported: a snapshot.");
    state.def_property_readonly("self_deaf", &VoiceStateHandle::SelfDeaf, "Deafened themselves.")
        .def_property_readonly("self_mute", &VoiceStateHandle::SelfMute, "Muted themselves.");
    DefHandleMembers(state);

    py::class_<VADThresholdSettings> vad(m, "VADThresholdSettings", py::is_final(),
                                         "A call's voice activity threshold: automatic, or fixed in dBFS [-100, 0].");
    vad.def(py::init<>(), "Fixed at -60 dBFS.")
        .def_property("vad_threshold", &VADThresholdSettings::VadThreshold, &VADThresholdSettings::SetVadThreshold,
                      "The fixed threshold in dBFS.")
        .def_property("automatic", &VADThresholdSettings::Automatic, &VADThresholdSettings::SetAutomatic,
                      "Follow the noise floor instead of the fixed threshold.")
        .def("__bool__", [](const VADThresholdSettings& self) { return static_cast<bool>(self); },
             "True unless this is `nullobj`.");
    vad.attr("nullobj") = py::cast(&VADThresholdSettings::nullobj, py::return_value_policy::reference);

    py::class_<CallInfoHandle> info(m, "CallInfoHandle", py::is_final(),
                                    "A call seen from outside (LobbyHandle.get_call_info_handle): a snapshot.");
    info.def_property_readonly("channel_id", &CallInfoHandle::ChannelId, "The lobby id for a lobby's call.")
        .def_property_readonly("guild_id", &CallInfoHandle::GuildId, "0 for lobby and DM calls.")
        .def("get_participants", &CallInfoHandle::GetParticipants, "The user ids in the call.")
        .def("get_voice_state_handle", &CallInfoHandle::GetVoiceStateHandle, py::arg("user_id"),
             "The participant's voice state, or None when not in the call.");
    DefHandleMembers(info);
}

void BindCallClass(py::module_& m) {
    py::class_<Call> call(m, "Call", py::is_final(),
                          "The current user's call in one channel (Client.start_call). Copies refer to the same "
                          "call. Event callbacks run from run_callbacks().");
    py::native_enum<Call::Status>(call, "Status", "enum.IntEnum", "A call's connection state.")
        .value("Disconnected", Call::Status::Disconnected)
        .value("Joining", Call::Status::Joining)
        .value("Connecting", Call::Status::Connecting)
        .value("SignalingConnected", Call::Status::SignalingConnected)
        .value("Connected", Call::Status::Connected)
        .value("Reconnecting", Call::Status::Reconnecting)
        .value("Disconnecting", Call::Status::Disconnecting)
        .finalize();
    py::native_enum<Call::Error>(call, "Error", "enum.IntEnum", "Why a call ended, if by a failure.")
        .value("None_", Call::Error::None, "No failure (spelt None_ in Python: None is a keyword).")
        .value("SignalingConnectionFailed", Call::Error::SignalingConnectionFailed)
        .value("SignalingUnexpectedClose", Call::Error::SignalingUnexpectedClose)
        .value("VoiceConnectionFailed", Call::Error::VoiceConnectionFailed)
        .value("JoinTimeout", Call::Error::JoinTimeout)
        .value("Forbidden", Call::Error::Forbidden)
        .finalize();

    call.def_static("status_to_string", &Call::StatusToString, py::arg("type"), "The status's name.")
        .def_static("error_to_string", &Call::ErrorToString, py::arg("type"), "The error's name.")
        .def("get_status", &Call::GetStatus, "The connection state.")
        .def(
            "set_status_changed_callback",
            [](Call& self, std::optional<PyCallback<Call::Status, Call::Error, int32_t>> cb) {
                self.SetStatusChangedCallback(Optional(std::move(cb), "call status changed"));
            },
            py::arg("cb").none(true), "cb(status, error, error_detail) on every change of status (None: stop).")
        .def("get_channel_id", &Call::GetChannelId, "The channel (the lobby id for a lobby's call).")
        .def("get_guild_id", &Call::GetGuildId, "The guild, 0 for lobby and DM calls.")
        .def("get_participants", &Call::GetParticipants, "The user ids in the call, the current user included.")
        .def(
            "set_participant_changed_callback",
            [](Call& self, std::optional<PyCallback<uint64_t, bool>> cb) {
                self.SetParticipantChangedCallback(Optional(std::move(cb), "call participant changed"));
            },
            py::arg("cb").none(true), "cb(user_id, added) when someone joins or leaves (None: stop).")
        .def("get_self_mute", &Call::GetSelfMute, "Whether the current user muted themselves in this call.")
        .def("set_self_mute", &Call::SetSelfMute, py::arg("mute"), "Stop (or resume) sending; shown to the others.")
        .def("get_self_deaf", &Call::GetSelfDeaf, "Whether the current user deafened themselves in this call.")
        .def("set_self_deaf", &Call::SetSelfDeaf, py::arg("deaf"), "Stop (or resume) sending and hearing.")
        .def("get_local_mute", &Call::GetLocalMute, py::arg("user_id"), "Whether this Client mutes user_id.")
        .def("set_local_mute", &Call::SetLocalMute, py::arg("user_id"), py::arg("mute"),
             "Stop playing user_id's audio here (the others still hear them).")
        .def("get_participant_volume", &Call::GetParticipantVolume, py::arg("user_id"),
             "user_id's playback volume here, in percent (default 100).")
        .def(
            "set_participant_volume",
            [](Call& self, uint64_t userId, float volume) {
                RequireRange("volume", volume, 0, 200);
                self.SetParticipantVolume(userId, volume);
            },
            py::arg("user_id"), py::arg("volume"),
            "user_id's playback volume here, in percent [0, 200]; ValidationError outside.")
        .def("get_audio_mode", &Call::GetAudioMode, "MODE_VAD or MODE_PTT.")
        .def(
            "set_audio_mode",
            [](Call& self, AudioModeType mode) {
                if (mode == AudioModeType::MODE_UNINIT) throw ValidationError("audio_mode", "must be MODE_VAD or MODE_PTT");
                self.SetAudioMode(mode);
            },
            py::arg("audio_mode"), "Voice activity (MODE_VAD) or push-to-talk (MODE_PTT).")
        .def("get_ptt_active", &Call::GetPTTActive, "Whether push-to-talk is held.")
        .def("set_ptt_active", &Call::SetPTTActive, py::arg("active"), "Hold (True) or release push-to-talk.")
        .def("get_ptt_release_delay", &Call::GetPTTReleaseDelay, "Transmission after release, in ms.")
        .def(
            "set_ptt_release_delay",
            [](Call& self, int64_t ms) {
                RequireRange("release_delay_ms", static_cast<double>(ms), 0, 2000);
                self.SetPTTReleaseDelay(static_cast<uint32_t>(ms));
            },
            py::arg("release_delay_ms"), "Transmission after release, in ms [0, 2000]; ValidationError outside.")
        .def("get_vad_threshold", &Call::GetVADThreshold, "The voice activity threshold settings.")
        .def(
            "set_vad_threshold",
            [](Call& self, bool automatic, float threshold) {
                RequireRange("threshold", threshold, -100, 0);
                self.SetVADThreshold(automatic, threshold);
            },
            py::arg("automatic"), py::arg("threshold"),
            "Automatic (follow the noise floor) or the fixed threshold in dBFS [-100, 0]; ValidationError outside.")
        .def(
            "set_speaking_status_changed_callback",
            [](Call& self, std::optional<PyCallback<uint64_t, bool>> cb) {
                self.SetSpeakingStatusChangedCallback(Optional(std::move(cb), "call speaking status changed"));
            },
            py::arg("cb").none(true), "cb(user_id, is_playing_sound) for participants and the current user.")
        .def("get_voice_state_handle", &Call::GetVoiceStateHandle, py::arg("user_id"),
             "user_id's voice state, or None when not in the call.")
        .def(
            "set_on_voice_state_changed_callback",
            [](Call& self, std::optional<PyCallback<uint64_t>> cb) {
                self.SetOnVoiceStateChangedCallback(Optional(std::move(cb), "call voice state changed"));
            },
            py::arg("cb").none(true), "cb(user_id) when a participant's self mute / deaf changes.")
        .def("get_e2ee_protocol_version", &Call::GetE2eeProtocolVersion,
             "The end-to-end encryption (DAVE) protocol version in use; 0: transport encryption only.")
        .def("get_e2ee_epoch_authenticator", &Call::GetE2eeEpochAuthenticator,
             "The DAVE group's epoch authenticator (equal for every member of the same group), or None.")
        .def("get_e2ee_verification_code", &Call::GetE2eeVerificationCode, py::arg("user_id"),
             "The 45-digit pairwise verification code with user_id, to compare out of band; None if unknown.");
    DefHandleMembers(call);
}

void BindClientCalls(py::class_<Client>& client) {
    client
        .def("start_call", &Client::StartCall, py::arg("channel_id"),
             "Joins the channel's call (a lobby id for the lobby's call). A null Call (bool False) when already "
             "in it or without a token.")
        .def(
            "start_call_with_audio_callbacks",
            [](Client& self, uint64_t lobbyId, std::optional<py::object> receivedCb, std::optional<py::object> capturedCb) {
                return self.StartCallWithAudioCallbacks(lobbyId, WrapReceived(std::move(receivedCb)),
                                                        WrapCaptured(std::move(capturedCb)));
            },
            py::arg("lobby_id"), py::arg("received_cb").none(true), py::arg("captured_cb").none(true),
            "Joins the lobby's call with audio callbacks, run on the SDK's audio thread every 20 ms:\n"
            "received_cb(user_id, samples, sample_rate) -> bool | None per participant and frame (True keeps "
            "the frame out of the mix); captured_cb(samples, sample_rate) per captured frame (what it leaves is "
            "sent). `samples` is a numpy int16 array of shape (samples_per_channel, channels) viewing the SDK's "
            "buffer: no copy, writable, valid only during the callback (copy it to keep it). Return quickly.")
        .def("get_call", &Client::GetCall, py::arg("channel_id"), "The call in that channel (a null Call if none).")
        .def("get_calls", &Client::GetCalls, "The current user's calls.")
        .def(
            "set_voice_participant_changed_callback",
            [](Client& self, std::optional<PyCallback<uint64_t, uint64_t, bool>> cb) {
                self.SetVoiceParticipantChangedCallback(Optional(std::move(cb), "voice participant changed"));
            },
            py::arg("cb").none(true),
            "cb(lobby_id, member_id, added) when a member joins or leaves the call of one of the user's lobbies, "
            "in it or not.")
        .def("get_self_mute_all", &Client::GetSelfMuteAll, "Whether every call is muted.")
        .def("set_self_mute_all", &Client::SetSelfMuteAll, py::arg("mute"), "Mute every call (overrides each call's).")
        .def("get_self_deaf_all", &Client::GetSelfDeafAll, "Whether every call is deafened.")
        .def("set_self_deaf_all", &Client::SetSelfDeafAll, py::arg("deaf"),
             "Deafen every call (overrides each call's).");
    DefCall(
        client, "end_call",
        [](Client& self, uint64_t channelId, PyCallback<> callback) {
            self.EndCall(channelId, WrapCallback(std::move(callback), "end_call"));
        },
        py::arg("channel_id"), py::arg("callback"), "Leaves the call; callback() once it is Disconnected.");
    DefCall(
        client, "end_calls",
        [](Client& self, PyCallback<> callback) { self.EndCalls(WrapCallback(std::move(callback), "end_calls")); },
        py::arg("callback"), "Leaves every call; callback() once they are Disconnected.");
}

// How many of the interpreter's thread states have this id (ids are never reused): 1 while the audio
// thread's kept state lives, 0 once it is deleted. Counting all states instead would also count other
// threads starting or ending meanwhile (a test suite's background threads).
int ThreadStatesWithId(uint64_t id) {
    int count = 0;
    for (PyThreadState* state = PyInterpreterState_ThreadHead(PyInterpreterState_Get()); state != nullptr;
         state = PyThreadState_Next(state)) {
        if (PyThreadState_GetID(state) == id) ++count;
    }
    return count;
}

// benchmarks/bench_voice_callbacks.py and tests/sdk/test_audio_thread_state.py: the cost of one
// captured-callback call as the audio thread makes it (a thread of its own, 960 x 2 int16, the GIL
// taken per call), for the Python callable through the binding's wrapper and for a no-op C++ callback
// through the same std::function type. Nanoseconds per call, sorted; and how many Python thread states
// the thread left behind when it ended (0 unless its kept state leaks).
py::tuple AudioCallbackCost(py::object callable, int frames) {
    if (frames < 1) throw ValidationError("frames", "must be at least 1");
    auto wrapped = WrapCaptured(std::move(callable));
    Client::UserAudioCapturedCallback baseline = [](int16_t* data, uint64_t, int32_t, uint64_t) { data[0] ^= 1; };
    std::vector<double> python(static_cast<std::size_t>(frames)), native(static_cast<std::size_t>(frames));
    uint64_t keptId = 0;
    {
        py::gil_scoped_release release;
        std::thread audio([&] {
            std::vector<int16_t> frame(960 * 2);
            auto run = [&](const Client::UserAudioCapturedCallback& cb, std::vector<double>& out) {
                for (auto& ns : out) {
                    const auto began = std::chrono::steady_clock::now();
                    cb(frame.data(), 960, 48000, 2);
                    ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - began).count();
                }
            };
            run(baseline, native);
            run(wrapped, python);
            py::gil_scoped_acquire gil;  // the state the callbacks kept, if they kept one
            keptId = PyThreadState_GetID(PyThreadState_Get());
        });
        audio.join();
    }
    std::sort(python.begin(), python.end());
    std::sort(native.begin(), native.end());
    return py::make_tuple(python, native, ThreadStatesWithId(keptId));
}

}  // namespace

void BindCall(py::module_& m, py::class_<Client>& client) {
    BindValues(m);
    BindCallClass(m);
    BindClientCalls(client);
    m.def("_audio_callback_cost", &AudioCallbackCost, py::arg("callable"), py::arg("frames"),
          "Benchmark helper: (python_ns, baseline_ns, thread_states_left): sorted per-call costs of a captured "
          "audio callback called from a C++ thread as the audio thread calls it and of a no-op C++ callback, "
          "and the Python thread states that thread left behind once it ended.");
}

}  // namespace platformpp::python
