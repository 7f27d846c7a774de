// A small native game: a frame loop that signs a player in, joins a lobby by secret, sends a message
// and waits to receive it back through the Gateway, then joins the lobby's voice call, talks (its
// capture callback writes a tone) until the SDK reports the player speaking, leaves the call and exits
// 0. Against the emulator:
//
//     native_game http://127.0.0.1:PORT [test user, default alice]
//
// Everything the SDK reports arrives through platformpp::RunCallbacks(), called once per frame.
#include <platformpp/platformpp.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <set>
#include <string>
#include <thread>

namespace {

constexpr uint64_t kGameId = 1000000000000000000ull;  // the emulator's default world game
constexpr auto kFrame = std::chrono::milliseconds(16);
constexpr int kMaxFrames = 60 * 30;                    // give up after about 30 s

enum class Step { SigningIn, Connecting, JoiningLobby, Messaging, Calling, Done, Failed };

struct Game {
    platformpp::Client client;
    platformpp::AuthorizationCodeVerifier pkce = client.CreateAuthorizationCodeVerifier();
    Step step = Step::SigningIn;
    uint64_t lobbyId = 0;
    uint64_t sentMessageId = 0;
    std::set<uint64_t> receivedMessageIds;  // the Gateway may deliver our message before the send completes
    std::string failure;
    platformpp::Call call = platformpp::Call::nullobj;
    uint64_t tonePhase = 0;  // audio thread only

    Game(const std::string& base, const std::string& user) : client(base + "/api/v10", base) {
        client.SetApplicationId(kGameId);
        client.SetEmulatorConsentUser(user);
    }

    void Fail(const std::string& what, const platformpp::ClientResult& result) {
        failure = what + ": " + result.ToString();
        step = Step::Failed;
    }

    void Start() {
        platformpp::AuthorizationArgs args;
        args.SetScopes(platformpp::Client::GetDefaultCommunicationScopes());
        args.SetCodeChallenge(pkce.Challenge());
        client.Authorize(args, [this](platformpp::ClientResult result, std::string code, std::string redirectUri) {
            if (!result.Successful()) return Fail("authorize", result);
            client.GetToken(kGameId, code, pkce.Verifier(), redirectUri,
                            [this](platformpp::ClientResult result, std::string accessToken, std::string,
                                   platformpp::AuthorizationTokenType type, int32_t, std::string) {
                                if (!result.Successful()) return Fail("token", result);
                                client.UpdateToken(type, accessToken, [this](platformpp::ClientResult result) {
                                    if (!result.Successful()) return Fail("update token", result);
                                    step = Step::Connecting;
                                    client.Connect();
                                });
                            });
        });
        client.SetStatusChangedCallback([this](platformpp::Client::Status status, platformpp::Client::Error, int32_t) {
            std::printf("status: %s\n", platformpp::Client::StatusToString(status).c_str());
            if (status == platformpp::Client::Status::Ready && step == Step::Connecting) JoinLobby();
        });
        client.SetMessageCreatedCallback([this](uint64_t messageId) {
            receivedMessageIds.insert(messageId);
            CheckReceived();
        });
    }

    void CheckReceived() {
        if (step != Step::Messaging || sentMessageId == 0 || receivedMessageIds.count(sentMessageId) == 0) return;
        if (const auto message = client.GetMessageHandle(sentMessageId)) {
            std::printf("received back: \"%s\"\n", message->Content().c_str());
            JoinCall();
        }
    }

    // The lobby's voice call. The capture callback runs on the SDK's audio thread every 20 ms: it replaces
    // the microphone's frame with a 440 Hz tone (what it leaves in `data` is sent) and returns at once.
    void JoinCall() {
        step = Step::Calling;
        call = client.StartCallWithAudioCallbacks(
            lobbyId, nullptr, [this](int16_t* data, uint64_t samples, int32_t rate, uint64_t channels) {
                for (uint64_t i = 0; i < samples; ++i, ++tonePhase) {
                    const auto v = static_cast<int16_t>(6000 * std::sin(6.283185307179586 * 440.0 * tonePhase / rate));
                    for (uint64_t c = 0; c < channels; ++c) data[i * channels + c] = v;
                }
            });
        if (!call) {
            failure = "could not start the lobby's call";
            step = Step::Failed;
            return;
        }
        call.SetStatusChangedCallback([this](platformpp::Call::Status status, platformpp::Call::Error error, int32_t) {
            std::printf("call: %s\n", platformpp::Call::StatusToString(status).c_str());
            if (error != platformpp::Call::Error::None) {
                failure = "call failed: " + platformpp::Call::ErrorToString(error);
                step = Step::Failed;
            }
        });
        // Speaking callbacks (on the game's thread, from RunCallbacks) drive a speaking indicator; the
        // player's own id says the SDK is transmitting.
        call.SetSpeakingStatusChangedCallback([this](uint64_t userId, bool speaking) {
            const auto me = client.GetCurrentUserV2();
            if (!speaking || !me || userId != me->Id() || step != Step::Calling) return;
            std::printf("speaking in the call (end-to-end encryption: DAVE v%u)\n",
                        static_cast<unsigned>(call.GetE2eeProtocolVersion()));
            client.EndCall(lobbyId, [this] {
                std::printf("left the call\n");
                step = Step::Done;
            });
        });
    }

    void JoinLobby() {
        step = Step::JoiningLobby;
        client.CreateOrJoinLobby("native-game-lobby", [this](platformpp::ClientResult result, uint64_t id) {
            if (!result.Successful()) return Fail("lobby", result);
            lobbyId = id;
            std::printf("in lobby %llu\n", static_cast<unsigned long long>(id));
            step = Step::Messaging;
            client.SendLobbyMessage(lobbyId, "hello from a native game",
                                    [this](platformpp::ClientResult result, uint64_t messageId) {
                                        if (!result.Successful()) return Fail("send", result);
                                        sentMessageId = messageId;
                                        CheckReceived();
                                    });
        });
    }
};

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s BASE_URL [USER]\n", argv[0]);
        return 2;
    }
    Game game(argv[1], argc > 2 ? argv[2] : "alice");
    game.Start();
    for (int frame = 0; frame < kMaxFrames; ++frame) {
        platformpp::RunCallbacks();  // the SDK's callbacks run here, on the game's thread
        if (game.step == Step::Done) {
            std::printf("done in %d frames\n", frame);
            return 0;
        }
        if (game.step == Step::Failed) {
            std::fprintf(stderr, "failed: %s\n", game.failure.c_str());
            return 1;
        }
        std::this_thread::sleep_for(kFrame);  // ... the game would simulate and draw here ...
    }
    std::fprintf(stderr, "timed out\n");
    return 1;
}
