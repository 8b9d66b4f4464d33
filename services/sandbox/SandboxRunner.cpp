#include "SandboxRunner.h"

#include "ChildLauncher.h"
#include "SandboxChild.h"

#include "core/BoundedJson.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
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
#include <thread>

namespace proofdesk::sandbox {
namespace {

constexpr std::size_t kStderrTail = 8 * 1024;
constexpr std::uint64_t kMaxResultBytes = std::uint64_t{64} << 20;

using Fd = UniqueFd;

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

// A sealed in-memory copy the child can only read: no write, resize or change of the seals, and
// whatever it does to the descriptor's owner, mode or times touches only the copy. Made of
// `bytes`, or of the file `source` (a stored upload the run must not be able to change).
int sealedCopy(const std::string& bytes, int source) {
    Fd copy(::memfd_create("proofdesk-input", MFD_CLOEXEC | MFD_ALLOW_SEALING));
    if (!copy.valid()) {
        return -1;
    }
    const auto writeAll = [&copy](const char* data, std::size_t size) {
        std::size_t done = 0;
        while (done < size) {
            const ssize_t n = ::write(copy.get(), data + done, size - done);
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n <= 0) {
                return false;
            }
            done += static_cast<std::size_t>(n);
        }
        return true;
    };
    if (source < 0) {
        if (!writeAll(bytes.data(), bytes.size())) {
            return -1;
        }
    } else {
        std::array<char, 1 << 16> buffer{};
        for (;;) {
            const ssize_t n = ::read(source, buffer.data(), buffer.size());
            if (n < 0 && errno == EINTR) {
                continue;
            }
            if (n < 0) {
                return -1;
            }
            if (n == 0) {
                break;
            }
            if (!writeAll(buffer.data(), static_cast<std::size_t>(n))) {
                return -1;
            }
        }
    }
    if (::fcntl(copy.get(), F_ADD_SEALS,
                F_SEAL_WRITE | F_SEAL_GROW | F_SEAL_SHRINK | F_SEAL_SEAL) != 0 ||
        ::lseek(copy.get(), 0, SEEK_SET) != 0) {
        return -1;
    }
    return copy.release();
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

// How a watched child ended.
struct ChildEnd {
    int status = 0;
    bool killedForTime = false;
    bool killedForCancel = false;
    bool unreaped = false; // did not go within the grace after SIGKILL
};

// How long the child may take to go once it was sent SIGKILL, before the watcher stops waiting
// for it (a task stuck in the kernel): the job worker is never held by a run past its limits.
constexpr auto kKillGrace = std::chrono::seconds(2);

// Until the child exits: collects its output's tail, passes on its progress file, and kills it
// (its whole PID namespace) when cancelled or past the deadline.
ChildEnd watchChild(const LaunchedChild& child, const Fd& output, const std::string& dir,
                    std::chrono::steady_clock::time_point deadline,
                    const std::function<bool()>& cancelled,
                    const std::function<void(const nlohmann::json&)>& progress, std::string& tail) {
    ChildEnd end;
    bool pipeOpen = true;
    std::array<char, 4096> buffer{};
    auto nextProgressRead = std::chrono::steady_clock::now();
    std::string lastProgress;
    std::chrono::steady_clock::time_point killedAt{};
    for (;;) {
        std::array<pollfd, 2> watched{};
        nfds_t count = 0;
        if (pipeOpen) {
            watched[count++] = {output.get(), POLLIN, 0};
        }
        if (child.pidfd.valid()) {
            watched[count++] = {child.pidfd.get(), POLLIN, 0};
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
        if (::waitpid(child.pid, &end.status, WNOHANG) == child.pid) {
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
        const auto now = std::chrono::steady_clock::now();
        if (!end.killedForTime && !end.killedForCancel) {
            if (cancelled && cancelled()) {
                end.killedForCancel = true;
            } else if (now >= deadline) {
                end.killedForTime = true;
            }
            if (end.killedForTime || end.killedForCancel) {
                killChild(child);
                killedAt = now;
            }
        } else if (now - killedAt >= kKillGrace) {
            end.unreaped = true;
            std::thread([pid = child.pid] { ::waitpid(pid, nullptr, 0); }).detach();
            break;
        }
    }
    // Whatever is left in the pipe (the child is gone; without a PID namespace of its own its
    // group may not be, so do not block).
    killChild(child);
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
    // A namespaced child of a root server runs as nobody: its directory is its own.
    const ChildIdentity identity = childIdentity();
    if (::geteuid() == 0 && identity.uid != 0 &&
        (::chown(dir.c_str(), identity.uid, identity.gid) != 0 ||
         ::chown((dir + "/task.json").c_str(), identity.uid, identity.gid) != 0)) {
        outcome.stderrTail =
            "cannot give " + dir + " to the sandbox's user: " + std::strerror(errno);
        return outcome;
    }
    Fd workDir(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    std::vector<Fd> inputs;
    for (const SandboxInput& input : task.inputs) {
        Fd fd;
        if (input.path.empty()) {
            fd.reset(sealedCopy(input.bytes, -1));
        } else {
            fd.reset(::open(input.path.c_str(), O_RDONLY | O_CLOEXEC));
            if (fd.valid() && task.sealInputs) {
                fd.reset(sealedCopy({}, fd.get()));
            }
        }
        if (!fd.valid()) {
            outcome.stderrTail =
                "cannot open the input " + input.name + ": " + std::strerror(errno);
            return outcome;
        }
        inputs.push_back(std::move(fd));
    }
    int pipeFds[2];
    if (!workDir.valid() || ::pipe2(pipeFds, O_CLOEXEC) != 0) {
        outcome.stderrTail = std::string("cannot set up the child: ") + std::strerror(errno);
        return outcome;
    }
    Fd readEnd(pipeFds[0]);
    Fd writeEnd(pipeFds[1]);

    const Limits& limits = task.limits;
    LaunchRequest launch;
    launch.executable = m_executable;
    launch.arguments = {m_executable,
                        "--task",
                        task.task,
                        "--work-dir",
                        dir,
                        "--parent",
                        std::to_string(::getpid()),
                        "--memory-bytes",
                        std::to_string(limits.memoryBytes),
                        "--cpu-seconds",
                        std::to_string(limits.cpuSeconds),
                        "--file-bytes",
                        std::to_string(limits.fileBytes),
                        "--open-files",
                        std::to_string(limits.openFiles),
                        "--tasks",
                        std::to_string(limits.tasks),
                        "--inputs",
                        std::to_string(inputs.size())};
    launch.environment = childEnvironment();
    launch.workDirFd = workDir.get();
    launch.outputFd = writeEnd.get();
    for (const Fd& input : inputs) {
        launch.inputFds.push_back(input.get());
    }
    const LaunchedChild child = launchChild(launch);
    writeEnd.reset();
    inputs.clear();
    workDir.reset();
    if (child.pid <= 0) {
        outcome.stderrTail = child.error;
        return outcome;
    }
    const ChildEnd end = watchChild(child, readEnd, dir,
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
    report.pidNamespace = value.value("pidNamespace", false);
    report.taskLimit = value.value("taskLimit", false);
    report.landlockAbi = value.value("landlockAbi", 0);
    for (const auto& item : value.value("missing", nlohmann::json::array())) {
        if (item.is_string()) {
            report.missing.push_back(item.get<std::string>());
        }
    }
    return report;
}

} // namespace proofdesk::sandbox
