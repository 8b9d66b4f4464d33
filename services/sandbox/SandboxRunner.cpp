#include "SandboxRunner.h"

#include "SandboxChild.h"

#include "core/BoundedJson.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

namespace proofdesk::sandbox {
namespace {

constexpr std::size_t kStderrTail = 8 * 1024;
constexpr std::uint64_t kMaxResultBytes = std::uint64_t{64} << 20;

class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd() { reset(); }
    Fd(Fd&& other) noexcept : m_fd(other.release()) {}
    Fd& operator=(Fd&& other) noexcept {
        if (this != &other) {
            reset(other.release());
        }
        return *this;
    }
    int get() const { return m_fd; }
    int release() { return std::exchange(m_fd, -1); }
    void reset(int fd = -1) {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
        m_fd = fd;
    }

private:
    int m_fd = -1;
};

std::string randomName() {
    static thread_local std::mt19937_64 generator{std::random_device{}()};
    static constexpr char kDigits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    std::string name = "run-";
    for (int i = 0; i < 16; ++i) {
        name += kDigits[generator() % 36];
    }
    return name;
}

// The environment a child starts with: nothing of ours (no keys, no paths), only what the
// sanitizer runtimes need in sanitizer builds (leak checks use ptrace, which the child refuses).
std::vector<std::string> childEnvironment() {
    std::vector<std::string> environment = {"LC_ALL=C.UTF-8"};
#if defined(PROOFDESK_ADDRESS_SANITIZER)
    environment.push_back("ASAN_OPTIONS=detect_leaks=0:abort_on_error=1");
#endif
    if (const char* ubsan = std::getenv("UBSAN_OPTIONS")) {
        environment.push_back(std::string("UBSAN_OPTIONS=") + ubsan);
    }
    return environment;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (std::string& s : strings) {
        out.push_back(s.data());
    }
    out.push_back(nullptr);
    return out;
}

// A small file the child may have written (at most 4 KiB, not a symbolic link).
bool readSmallFile(const std::string& path, std::string* text) {
    Fd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK));
    if (fd.get() < 0) {
        return false;
    }
    char buffer[4096];
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n <= 0) {
        return false;
    }
    text->assign(buffer, std::size_t(n));
    return true;
}

void appendTail(std::string& tail, const char* data, std::size_t size) {
    tail.append(data, size);
    if (tail.size() > 2 * kStderrTail) {
        tail.erase(0, tail.size() - kStderrTail);
    }
}

std::string signalName(int signal) {
    switch (signal) {
    case SIGSEGV:
        return "a segmentation fault (SIGSEGV)";
    case SIGABRT:
        return "an abort (SIGABRT)";
    case SIGKILL:
        return "SIGKILL";
    case SIGXCPU:
        return "the CPU time limit (SIGXCPU)";
    case SIGBUS:
        return "a bus error (SIGBUS)";
    case SIGFPE:
        return "an arithmetic fault (SIGFPE)";
    case SIGSYS:
        return "a refused system call (SIGSYS)";
    default:
        return "signal " + std::to_string(signal);
    }
}

// Bytes written to a file outside the child's directory, reopened read-only and unlinked: the
// child gets a descriptor it can only read.
int stagedBytes(const std::string& root, const std::string& bytes) {
    std::string path = root + "/staged-XXXXXX";
    Fd writer(::mkostemp(path.data(), O_CLOEXEC));
    if (writer.get() < 0) {
        return -1;
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(writer.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            ::unlink(path.c_str());
            return -1;
        }
        done += static_cast<std::size_t>(n);
    }
    const int reader = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    ::unlink(path.c_str());
    return reader;
}

std::string mib(std::uint64_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

// The task's description for the child (task.json in its work directory).
bool writeTaskDescription(const std::string& dir, const SandboxTask& task) {
    nlohmann::json names = nlohmann::json::array();
    for (const SandboxInput& input : task.inputs) {
        names.push_back(input.name);
    }
    const nlohmann::json description = {
        {"task", task.task}, {"options", task.options}, {"inputs", names}};
    std::ofstream out(dir + "/task.json", std::ios::binary);
    out << description.dump();
    return bool(out);
}

// Starts the child in its own process group, in `dir`, with nothing on stdin, `output` as
// stdout and stderr, the inputs as descriptors 3, 4, ... and every other descriptor closed.
// Returns posix_spawn's error (0 when started).
int spawnChild(const std::string& executable, std::vector<std::string> arguments,
               const std::string& dir, const std::vector<Fd>& inputs, const Fd& output,
               pid_t* pid) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, output.get(), 1);
    posix_spawn_file_actions_adddup2(&actions, output.get(), 2);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        posix_spawn_file_actions_adddup2(&actions, inputs[i].get(), 3 + static_cast<int>(i));
    }
    posix_spawn_file_actions_addclosefrom_np(&actions, 3 + static_cast<int>(inputs.size()));
    posix_spawn_file_actions_addchdir_np(&actions, dir.c_str());
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t all;
    sigfillset(&all);
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attributes, &all);
    posix_spawnattr_setsigmask(&attributes, &none);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK |
                                              POSIX_SPAWN_SETPGROUP);
    std::vector<std::string> environment = childEnvironment();
    std::vector<char*> argv = pointers(arguments);
    std::vector<char*> envp = pointers(environment);
    const int spawned =
        ::posix_spawn(pid, executable.c_str(), &actions, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return spawned;
}

// How a watched child ended.
struct ChildEnd {
    int status = 0;
    bool killedForTime = false;
    bool killedForCancel = false;
};

// Until the child exits: collects its output's tail, passes on its progress file, and kills its
// group when cancelled or past the deadline.
ChildEnd watchChild(pid_t pid, const Fd& output, const std::string& dir,
                    std::chrono::steady_clock::time_point deadline,
                    const std::function<bool()>& cancelled,
                    const std::function<void(const nlohmann::json&)>& progress, std::string& tail) {
    Fd exitFd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
    ChildEnd end;
    bool pipeOpen = true;
    std::array<char, 4096> buffer{};
    auto nextProgressRead = std::chrono::steady_clock::now();
    std::string lastProgress;
    for (;;) {
        std::array<pollfd, 2> watched{};
        nfds_t count = 0;
        if (pipeOpen) {
            watched[count++] = {output.get(), POLLIN, 0};
        }
        if (exitFd.get() >= 0) {
            watched[count++] = {exitFd.get(), POLLIN, 0};
        }
        ::poll(watched.data(), count, 50);
        if (pipeOpen && (watched[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            const ssize_t n = ::read(output.get(), buffer.data(), buffer.size());
            if (n > 0) {
                appendTail(tail, buffer.data(), static_cast<std::size_t>(n));
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                pipeOpen = false;
            }
        }
        if (::waitpid(pid, &end.status, WNOHANG) == pid) {
            break;
        }
        if (progress && std::chrono::steady_clock::now() >= nextProgressRead) {
            nextProgressRead += std::chrono::milliseconds(250);
            std::string text;
            if (readSmallFile(dir + "/" + kProgressFile, &text) && text != lastProgress) {
                lastProgress = text;
                const nlohmann::json report = nlohmann::json::parse(text, nullptr, false);
                if (report.is_object()) {
                    progress(report);
                }
            }
        }
        if (!end.killedForTime && !end.killedForCancel) {
            if (cancelled && cancelled()) {
                end.killedForCancel = true;
                ::kill(-pid, SIGKILL);
            } else if (std::chrono::steady_clock::now() >= deadline) {
                end.killedForTime = true;
                ::kill(-pid, SIGKILL);
            }
        }
    }
    // Whatever is left in the pipe (the process is gone; its group may not be, so do not block).
    ::kill(-pid, SIGKILL);
    ::fcntl(output.get(), F_SETFL, O_NONBLOCK);
    for (ssize_t n; pipeOpen && (n = ::read(output.get(), buffer.data(), buffer.size())) > 0;) {
        appendTail(tail, buffer.data(), static_cast<std::size_t>(n));
    }
    if (tail.size() > kStderrTail) {
        tail.erase(0, tail.size() - kStderrTail);
    }
    return end;
}

} // namespace

WorkDir::~WorkDir() {
    std::error_code ignored;
    std::filesystem::remove_all(m_path, ignored);
}

std::string WorkDir::file(const std::string& name) const {
    const std::string path = m_path + "/" + name;
    struct stat info {};
    // lstat: a symbolic link the child made is not followed out of its directory.
    if (name.find('/') != std::string::npos || ::lstat(path.c_str(), &info) != 0 ||
        !S_ISREG(info.st_mode)) {
        return {};
    }
    return path;
}

std::string SandboxOutcome::describe(const Limits& limits) const {
    std::string tail = stderrTail;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == ' ')) {
        tail.pop_back();
    }
    if (tail.size() > 1500) {
        tail = "..." + tail.substr(tail.size() - 1500);
    }
    const std::string said = tail.empty() ? std::string() : ": " + tail;
    switch (end) {
    case End::Finished:
        return "finished";
    case End::Failed:
        return "the sandboxed run exited with code " + std::to_string(exitCode) +
               " before writing its result (e.g. os._exit in a hint)" + said;
    case End::Crashed:
        if (signal == SIGXCPU || signal == SIGKILL) {
            return "the sandboxed run was stopped by " + signalName(signal) + " after using " +
                   std::to_string(limits.cpuSeconds) + " CPU seconds or " +
                   mib(limits.memoryBytes) + " of memory" + said;
        }
        return "the sandboxed run crashed with " + signalName(signal) + said;
    case End::TimedOut:
        return "the sandboxed run did not finish within its time limit of " +
               std::to_string(limits.wallSeconds) + " s and was stopped";
    case End::Cancelled:
        return "interrupted";
    case End::CouldNotStart:
        return "the sandbox could not start" + said;
    }
    return {};
}

SandboxRunner::SandboxRunner(std::string executable, std::string workRoot)
    : m_executable(std::move(executable)), m_workRoot(std::move(workRoot)) {}

bool SandboxRunner::available(std::string* why) const {
    if (m_executable.empty() || ::access(m_executable.c_str(), X_OK) != 0) {
        if (why) {
            *why = "the sandbox program \"" + m_executable +
                   "\" is missing (it is built beside proofdesk as proofdesk-sandbox)";
        }
        return false;
    }
    return true;
}

SandboxOutcome
SandboxRunner::run(const SandboxTask& task, const std::function<bool()>& cancelled,
                   const std::function<void(const nlohmann::json&)>& progress) const {
    SandboxOutcome outcome;
    std::string why;
    if (!available(&why)) {
        outcome.stderrTail = why;
        return outcome;
    }
    std::error_code error;
    std::filesystem::create_directories(m_workRoot, error);
    const std::string dir = m_workRoot + "/" + randomName();
    if (::mkdir(dir.c_str(), 0700) != 0) {
        outcome.stderrTail = "cannot create " + dir + ": " + std::strerror(errno);
        return outcome;
    }
    outcome.workDir = std::make_shared<WorkDir>(dir);
    if (!writeTaskDescription(dir, task)) {
        outcome.stderrTail = "cannot write the task description in " + dir;
        return outcome;
    }
    std::vector<Fd> inputs;
    for (const SandboxInput& input : task.inputs) {
        Fd fd(input.path.empty() ? stagedBytes(m_workRoot, input.bytes)
                                 : ::open(input.path.c_str(), O_RDONLY | O_CLOEXEC));
        if (fd.get() < 0) {
            outcome.stderrTail =
                "cannot open the input " + input.name + ": " + std::strerror(errno);
            return outcome;
        }
        inputs.push_back(std::move(fd));
    }
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        outcome.stderrTail = std::string("cannot create a pipe: ") + std::strerror(errno);
        return outcome;
    }
    Fd readEnd(pipeFds[0]);
    Fd writeEnd(pipeFds[1]);

    const Limits& limits = task.limits;
    pid_t pid = 0;
    const int spawned = spawnChild(
        m_executable,
        {m_executable, "--task", task.task, "--work-dir", dir, "--parent",
         std::to_string(::getpid()), "--memory-bytes", std::to_string(limits.memoryBytes),
         "--cpu-seconds", std::to_string(limits.cpuSeconds), "--file-bytes",
         std::to_string(limits.fileBytes), "--open-files", std::to_string(limits.openFiles),
         "--inputs", std::to_string(inputs.size())},
        dir, inputs, writeEnd, &pid);
    writeEnd.reset();
    inputs.clear();
    if (spawned != 0) {
        outcome.stderrTail = "cannot start " + m_executable + ": " + std::strerror(spawned);
        return outcome;
    }
    const ChildEnd end = watchChild(pid, readEnd, dir,
                                    std::chrono::steady_clock::now() +
                                        std::chrono::seconds(std::max(1, limits.wallSeconds)),
                                    cancelled, progress, outcome.stderrTail);

    if (end.killedForCancel) {
        outcome.end = SandboxOutcome::End::Cancelled;
    } else if (end.killedForTime) {
        outcome.end = SandboxOutcome::End::TimedOut;
    } else if (WIFSIGNALED(end.status)) {
        outcome.end = SandboxOutcome::End::Crashed;
        outcome.signal = WTERMSIG(end.status);
    } else {
        outcome.exitCode = WIFEXITED(end.status) ? WEXITSTATUS(end.status) : -1;
        outcome.end = SandboxOutcome::End::Failed;
        const std::string resultPath = outcome.workDir->file("result.json");
        if (outcome.exitCode == 0 && !resultPath.empty()) {
            std::string text;
            if (core::readFileBounded(resultPath, kMaxResultBytes, &text)) {
                outcome.result = core::parseJsonBounded(text, nullptr);
                if (outcome.result.is_object()) {
                    outcome.end = SandboxOutcome::End::Finished;
                }
            }
        }
    }
    return outcome;
}

Confinement SandboxRunner::probe() const {
    Confinement report;
    SandboxTask task;
    task.task = "probe";
    task.limits.wallSeconds = 20;
    const SandboxOutcome outcome = run(task);
    if (!outcome.finished()) {
        report.missing.push_back("every protection: the sandbox program does not run (" +
                                 outcome.describe(task.limits) + ")");
        return report;
    }
    const nlohmann::json& value = outcome.result.value("value", nlohmann::json::object());
    report.noNewPrivileges = value.value("noNewPrivileges", false);
    report.resourceLimits = value.value("resourceLimits", false);
    report.seccomp = value.value("seccomp", false);
    report.networkNamespace = value.value("networkNamespace", false);
    report.landlockAbi = value.value("landlockAbi", 0);
    for (const auto& item : value.value("missing", nlohmann::json::array())) {
        if (item.is_string()) {
            report.missing.push_back(item.get<std::string>());
        }
    }
    return report;
}

} // namespace proofdesk::sandbox
