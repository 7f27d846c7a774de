// The Call API end to end: two signed-in players start their lobby's call through the emulator's
// Gateway and voice service (DAVE end-to-end encryption), one sends a 440 Hz tone from its capture
// callback and the other's received callback measures it; mute, deafen, the participant, voice-state,
// speaking and status callbacks, the lobby's call info, EndCall. The null audio backend is forced:
// these tests need no sound server.
#include <boost/test/unit_test.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <vector>

#include "support/social_fixture.hpp"
#include "voice_tone.hpp"

using namespace platformpp;
using namespace platformpp::testing;

namespace {

struct CallFixture : SocialFixture {
    CallFixture() : SocialFixture() {}
    static bool NullBackend() { return setenv("PLATFORMPP_AUDIO_BACKEND", "null", 1) == 0; }
    const bool nullBackend = NullBackend();

    uint64_t SharedLobby(const std::string& secret) {
        Outcome<ClientResult, uint64_t> created, joined;
        alice.CreateOrJoinLobby(secret, created.Callback());
        const uint64_t lobbyId = std::get<1>(created.Wait());
        bob.CreateOrJoinLobby(secret, joined.Callback());
        BOOST_REQUIRE(std::get<1>(joined.Wait()) == lobbyId);
        return lobbyId;
    }
};

// What one side's received callback heard from a sender (audio thread → test thread).
struct Heard {
    std::mutex mutex;
    std::vector<double> mono;
    std::size_t frames = 0;
    void Add(const int16_t* data, uint64_t samples, uint64_t channels) {
        std::lock_guard lock(mutex);
        ++frames;
        for (uint64_t i = 0; i < samples; ++i) mono.push_back(data[i * channels]);
    }
    std::size_t Frames() {
        std::lock_guard lock(mutex);
        return frames;
    }
    std::vector<double> Last(std::size_t samples) {
        std::lock_guard lock(mutex);
        const std::size_t from = mono.size() > samples ? mono.size() - samples : 0;
        return {mono.begin() + static_cast<std::ptrdiff_t>(from), mono.end()};
    }
};

}  // namespace

BOOST_FIXTURE_TEST_SUITE(calls, CallFixture)

BOOST_AUTO_TEST_CASE(two_players_hear_each_other_end_to_end_encrypted) {
    const uint64_t lobbyId = SharedLobby("voice-room");

    std::vector<std::tuple<uint64_t, uint64_t, bool>> bobLobbyVoice;
    bob.SetVoiceParticipantChangedCallback(
        [&](uint64_t lobby, uint64_t member, bool added) { bobLobbyVoice.emplace_back(lobby, member, added); });

    // Alice speaks a tone: what her capture callback leaves in the buffer is what is sent.
    uint64_t phase = 0;
    Call aliceCall = alice.StartCallWithAudioCallbacks(
        lobbyId, nullptr, [&phase](int16_t* data, uint64_t samples, int32_t rate, uint64_t channels) {
            BOOST_CHECK(rate == 48000);
            voice_test::FillTone(data, static_cast<int>(samples), static_cast<int>(channels), 440.0, 8000.0, phase);
        });
    BOOST_REQUIRE(aliceCall);
    BOOST_TEST(aliceCall.GetChannelId() == lobbyId);
    BOOST_TEST(aliceCall.GetGuildId() == 0u);
    // Already in that call: a null Call, and GetCall returns the existing one.
    BOOST_TEST(!alice.StartCall(lobbyId));
    BOOST_TEST(alice.GetCall(lobbyId).GetChannelId() == lobbyId);
    BOOST_TEST(alice.GetCalls().size() == 1u);

    std::vector<Call::Status> aliceStatuses;
    aliceCall.SetStatusChangedCallback([&](Call::Status s, Call::Error, int32_t) { aliceStatuses.push_back(s); });
    BOOST_REQUIRE_MESSAGE(PumpUntil([&] { return aliceCall.GetStatus() == Call::Status::Connected; }),
                          "alice never Connected: " << Call::StatusToString(aliceCall.GetStatus()));
    // Bob hears of alice's join before being in the call himself.
    BOOST_REQUIRE(PumpUntil([&] { return !bobLobbyVoice.empty(); }));
    BOOST_TEST((bobLobbyVoice.front() == std::make_tuple(lobbyId, kAliceId, true)));
    BOOST_REQUIRE(PumpUntil([&] { return bob.GetLobbyHandle(lobbyId)->GetCallInfoHandle().has_value(); }));
    BOOST_TEST(bob.GetLobbyHandle(lobbyId)->GetCallInfoHandle()->GetParticipants() == std::vector<uint64_t>{kAliceId});

    Heard heard;
    std::vector<uint64_t> heardFrom;
    Call bobCall = bob.StartCallWithAudioCallbacks(
        lobbyId,
        [&](uint64_t user, int16_t* data, uint64_t samples, int32_t, uint64_t channels, bool& outShouldMute) {
            if (user == kAliceId) heard.Add(data, samples, channels);
            outShouldMute = false;
        },
        nullptr);
    BOOST_REQUIRE(bobCall);
    std::vector<std::pair<uint64_t, bool>> bobSpeaking, aliceParticipants;
    bobCall.SetSpeakingStatusChangedCallback([&](uint64_t user, bool on) { bobSpeaking.emplace_back(user, on); });
    aliceCall.SetParticipantChangedCallback([&](uint64_t user, bool added) { aliceParticipants.emplace_back(user, added); });

    BOOST_REQUIRE(PumpUntil([&] { return bobCall.GetStatus() == Call::Status::Connected; }));
    BOOST_REQUIRE(PumpUntil([&] { return !aliceParticipants.empty(); }));
    BOOST_TEST((aliceParticipants.front() == std::make_pair(kBobId, true)));
    BOOST_TEST(aliceCall.GetParticipants() == (std::vector<uint64_t>{kAliceId, kBobId}));

    // One second of alice's tone at bob, at 440 Hz (±5).
    BOOST_REQUIRE_MESSAGE(PumpUntil([&] { return heard.Frames() >= 60; }, std::chrono::seconds(15)),
                          "bob heard " << heard.Frames() << " frames");
    const double hz = voice_test::EstimateFrequency(heard.Last(48000 / 2));
    BOOST_TEST(std::abs(hz - 440.0) <= 5.0, "measured " << hz << " Hz");
    BOOST_REQUIRE(PumpUntil([&] {
        return std::find(bobSpeaking.begin(), bobSpeaking.end(), std::make_pair(kAliceId, true)) != bobSpeaking.end();
    }));

    // End to end encrypted: both in the same DAVE group, with matching verification codes.
    BOOST_REQUIRE(PumpUntil([&] { return aliceCall.GetE2eeEpochAuthenticator() == bobCall.GetE2eeEpochAuthenticator(); }));
    BOOST_TEST(aliceCall.GetE2eeProtocolVersion() == 1u);
    BOOST_TEST(aliceCall.GetE2eeEpochAuthenticator().has_value());
    const auto codeAtAlice = aliceCall.GetE2eeVerificationCode(kBobId);
    BOOST_REQUIRE(codeAtAlice.has_value());
    BOOST_TEST(codeAtAlice->size() == 45u);
    BOOST_TEST(*codeAtAlice == bobCall.GetE2eeVerificationCode(kAliceId).value_or(""));

    // Alice mutes: bob sees her voice state change, and her audio stops.
    std::vector<uint64_t> bobVoiceStates;
    bobCall.SetOnVoiceStateChangedCallback([&](uint64_t user) { bobVoiceStates.push_back(user); });
    aliceCall.SetSelfMute(true);
    BOOST_TEST(aliceCall.GetSelfMute());
    BOOST_REQUIRE(PumpUntil([&] { return !bobVoiceStates.empty(); }));
    BOOST_TEST(bobVoiceStates.front() == kAliceId);
    BOOST_TEST(bobCall.GetVoiceStateHandle(kAliceId)->SelfMute());
    BOOST_TEST(!bobCall.GetVoiceStateHandle(kAliceId)->SelfDeaf());
    BOOST_REQUIRE(PumpUntil([&] {
        return std::find(bobSpeaking.begin(), bobSpeaking.end(), std::make_pair(kAliceId, false)) != bobSpeaking.end();
    }));
    PumpUntil([] { return false; }, std::chrono::milliseconds(300));  // what the jitter buffer still held
    const std::size_t whileMuted = heard.Frames();
    PumpUntil([] { return false; }, std::chrono::milliseconds(500));
    BOOST_TEST(heard.Frames() == whileMuted);
    aliceCall.SetSelfMute(false);
    BOOST_REQUIRE(PumpUntil([&] { return heard.Frames() > whileMuted + 10; }));

    // Bob deafens: he stops hearing alice (and the others see it).
    bobCall.SetSelfDeaf(true);
    BOOST_REQUIRE(PumpUntil([&] {
        const auto state = alice.GetLobbyHandle(lobbyId)->GetCallInfoHandle()->GetVoiceStateHandle(kBobId);
        return state && state->SelfDeaf();
    }));
    PumpUntil([] { return false; }, std::chrono::milliseconds(200));
    const std::size_t whileDeaf = heard.Frames();
    PumpUntil([] { return false; }, std::chrono::milliseconds(500));
    BOOST_TEST(heard.Frames() == whileDeaf);

    // Alice leaves: her call ends, bob and the lobby's call info see her go.
    bool ended = false;
    alice.EndCall(lobbyId, [&] { ended = true; });
    BOOST_REQUIRE(PumpUntil([&] { return ended; }));
    BOOST_TEST((aliceCall.GetStatus() == Call::Status::Disconnected));
    BOOST_TEST(!alice.GetCall(lobbyId));
    BOOST_TEST(alice.GetCalls().empty());
    BOOST_TEST((aliceStatuses.back() == Call::Status::Disconnected));
    BOOST_REQUIRE(PumpUntil([&] {
        return std::find(bobLobbyVoice.begin(), bobLobbyVoice.end(), std::make_tuple(lobbyId, kAliceId, false)) !=
               bobLobbyVoice.end();
    }));
    BOOST_TEST(bobCall.GetParticipants() == std::vector<uint64_t>{kBobId});

    bool allEnded = false;
    bob.EndCalls([&] { allEnded = true; });
    BOOST_REQUIRE(PumpUntil([&] { return allEnded; }));
    BOOST_TEST(bob.GetCalls().empty());
    BOOST_REQUIRE(PumpUntil([&] { return !alice.GetLobbyHandle(lobbyId)->GetCallInfoHandle().has_value(); }));
}

BOOST_AUTO_TEST_CASE(settings_clamp_and_log_and_survive_until_connected) {
    const uint64_t lobbyId = SharedLobby("voice-settings");
    std::vector<std::string> warnings;
    alice.AddLogCallback([&](std::string line, LoggingSeverity) { warnings.push_back(line); }, LoggingSeverity::Warning);

    Call call = alice.StartCall(lobbyId);
    BOOST_REQUIRE(call);
    // Set while Joining: kept and applied when the media connects.
    call.SetParticipantVolume(kBobId, 350.0f);
    call.SetVADThreshold(false, -130.0f);
    call.SetPTTReleaseDelay(5000);
    call.SetAudioMode(AudioModeType::MODE_PTT);
    call.SetLocalMute(kBobId, true);
    BOOST_TEST(call.GetParticipantVolume(kBobId) == 200.0f);
    BOOST_TEST(call.GetVADThreshold().VadThreshold() == -100.0f);
    BOOST_TEST(!call.GetVADThreshold().Automatic());
    BOOST_TEST(call.GetPTTReleaseDelay() == 2000u);
    BOOST_TEST((call.GetAudioMode() == AudioModeType::MODE_PTT));
    BOOST_TEST(call.GetLocalMute(kBobId));
    BOOST_TEST(call.GetParticipantVolume(kAliceId) == 100.0f);
    alice.SetInputVolume(150.0f);
    alice.SetOutputVolume(-3.0f);
    BOOST_TEST(alice.GetInputVolume() == 100.0f);
    BOOST_TEST(alice.GetOutputVolume() == 0.0f);

    BOOST_REQUIRE(PumpUntil([&] { return call.GetStatus() == Call::Status::Connected; }));
    BOOST_REQUIRE(PumpUntil([&] { return warnings.size() >= 5; }));
    auto logged = [&](const std::string& part) {
        return std::any_of(warnings.begin(), warnings.end(),
                           [&](const std::string& line) { return line.find(part) != std::string::npos; });
    };
    BOOST_TEST(logged("SetParticipantVolume"));
    BOOST_TEST(logged("SetVADThreshold"));
    BOOST_TEST(logged("SetPTTReleaseDelay"));
    BOOST_TEST(logged("SetInputVolume"));
    BOOST_TEST(logged("SetOutputVolume"));

    BOOST_TEST(Call::StatusToString(Call::Status::SignalingConnected) == "SignalingConnected");
    BOOST_TEST(Call::ErrorToString(Call::Error::JoinTimeout) == "JoinTimeout");
    BOOST_TEST(Client::GetDefaultAudioDeviceId() == "default");
    BOOST_CHECK_THROW(Call::nullobj.GetStatus(), NullHandleError);

    // The null backend's devices: one default input and output.
    Outcome<std::vector<AudioDevice>> inputs;
    alice.GetInputDevices(inputs.Callback());
    const auto& devices = std::get<0>(inputs.Wait());
    BOOST_REQUIRE(!devices.empty());
    Outcome<AudioDevice> current;
    alice.GetCurrentInputDevice(current.Callback());
    BOOST_TEST(std::get<0>(current.Wait()).Id() == "default");
    Outcome<ClientResult> set;
    alice.SetInputDevice("no-such-device", set.Callback());
    BOOST_TEST((std::get<0>(set.Wait()).Type() == ErrorType::ValidationError));

    bool ended = false;
    alice.EndCalls([&] { ended = true; });
    BOOST_REQUIRE(PumpUntil([&] { return ended; }));
    // An ended call keeps its last values; its setters do nothing.
    call.SetSelfMute(true);
    BOOST_TEST(!call.GetSelfMute());
}

BOOST_AUTO_TEST_CASE(the_voice_log_goes_to_its_own_callback_and_file) {
    const uint64_t lobbyId = SharedLobby("voice-log");
    const auto dir = std::filesystem::temp_directory_path() / ("platformpp-voice-log-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    BOOST_CHECK_THROW(alice.AddVoiceLogCallback(nullptr, LoggingSeverity::Info), ValidationError);
    std::vector<std::string> voiceLines;
    alice.AddVoiceLogCallback([&](std::string line, LoggingSeverity) { voiceLines.push_back(line); },
                              LoggingSeverity::Info);
    alice.SetVoiceLogDir(dir.string(), LoggingSeverity::Info);
    alice.SetVoiceLogDir("/proc/no-such-dir/x", LoggingSeverity::Info);  // logged; the file above stays

    Call call = alice.StartCall(lobbyId);
    BOOST_REQUIRE(call);
    BOOST_REQUIRE(PumpUntil([&] { return call.GetStatus() == Call::Status::Connected; }));
    auto heard = [&](const std::string& part) {
        return std::any_of(voiceLines.begin(), voiceLines.end(),
                           [&](const std::string& line) { return line.find(part) != std::string::npos; });
    };
    BOOST_REQUIRE(PumpUntil([&] { return heard("connected: "); }));
    BOOST_TEST(heard("connecting to the voice gateway"));
    // Only the voice engine's lines: the Client's own ("voice logging to <file>") stay out.
    BOOST_TEST(!heard("voice logging to"));

    std::ifstream in(dir / "platformpp-voice.log");
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    BOOST_TEST(text.find("connected: ") != std::string::npos, text);

    alice.SetVoiceLogDir("", LoggingSeverity::Info);  // stops writing
    bool ended = false;
    alice.EndCalls([&] { ended = true; });
    BOOST_REQUIRE(PumpUntil([&] { return ended; }));
    std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
