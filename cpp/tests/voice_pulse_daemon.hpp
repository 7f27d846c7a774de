// A private PulseAudio daemon for the voice tests: its own runtime directory, only the native protocol
// and the null sinks asked for (each sink's monitor is a source), PULSE_SERVER pointing at it while it
// lives. Not available (the test skips) when /usr/bin/pulseaudio is not installed (Debian: pulseaudio).
#pragma once

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace voice_test {

// A private PulseAudio daemon (its own runtime directory), killed at the end.
class PulseDaemon {
public:
    explicit PulseDaemon(const std::vector<std::string>& sinks = {"voice_test_sink"}) {
        if (access("/usr/bin/pulseaudio", X_OK) != 0) return;
        dir_ = "/tmp/platformpp-voice-pulse-" + std::to_string(getpid());
        mkdir(dir_.c_str(), 0700);
        pid_ = fork();
        if (pid_ == 0) {
            setenv("XDG_RUNTIME_DIR", dir_.c_str(), 1);
            setenv("HOME", dir_.c_str(), 1);
            freopen("/dev/null", "w", stderr);
            std::vector<std::string> args{"pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit",
                                          "-L", "module-native-protocol-unix"};
            for (const auto& sink : sinks) {
                args.push_back("-L");
                args.push_back("module-null-sink sink_name=" + sink + (sink == "voice_test_sink"
                                   ? " sink_properties=device.description=VoiceTestSink" : ""));
            }
            std::vector<char*> argv;
            for (auto& arg : args) argv.push_back(arg.data());
            argv.push_back(nullptr);
            execv("/usr/bin/pulseaudio", argv.data());
            _exit(127);
        }
        server_ = "unix:" + dir_ + "/pulse/native";
        for (int i = 0; i < 100 && access((dir_ + "/pulse/native").c_str(), F_OK) != 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
        setenv("PULSE_SERVER", server_.c_str(), 1);
    }
    ~PulseDaemon() {
        if (pid_ > 0) {
            kill(pid_, SIGTERM);
            waitpid(pid_, nullptr, 0);
        }
        unsetenv("PULSE_SERVER");
        if (!dir_.empty()) std::system(("rm -rf '" + dir_ + "'").c_str());
    }
    bool Available() const { return pid_ > 0; }
    // pactl against this daemon.
    int Pactl(const std::string& args) const {
        return std::system(("PULSE_SERVER='" + server_ + "' pactl " + args + " > /dev/null 2>&1").c_str());
    }

private:
    pid_t pid_ = -1;
    std::string dir_, server_;
};

}  // namespace voice_test
