#include "ChildLauncher.h"

#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <sched.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>

namespace proofdesk::sandbox {
namespace {

constexpr uid_t kNobody = 65534;
constexpr gid_t kNogroup = 65534;
constexpr unsigned kMaxInputs = 16;

// Whether clone3 into new namespaces works on this host: unknown (-1), no (0), yes (1). Learnt
// from the first launch; a host that refuses once refuses always.
std::atomic<int> g_namespacesWork{-1};

std::vector<char*> pointers(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (std::string& s : strings) {
        out.push_back(s.data());
    }
    out.push_back(nullptr);
    return out;
}

bool writeProcFile(const std::string& path, const std::string& text) {
    UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    return fd.valid() &&
           ::write(fd.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size());
}

// Everything the cloned child needs, prepared before the clone: after it the child is a copy of a
// multithreaded process and may only make system calls (raw ones: no library state, no
// sanitizer interceptors), never allocate.
struct ChildPlan {
    int syncRead = -1;   // one byte arrives once the server wrote the child's id maps
    int syncWrite = -1;  // the server's end, closed by the child
    int errorWrite = -1; // the child writes errno here if it cannot execute (close-on-exec)
    int executableFd = -1;
    int devNull = -1;
    int outputFd = -1;
    int workDirFd = -1;
    int inputs[kMaxInputs] = {};
    int inputCount = 0;
    char* const* argv = nullptr;
    char* const* envp = nullptr;
};

long sys(long call, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0) {
    return ::syscall(call, a, b, c, d, e);
}

[[noreturn]] void failInChild(const ChildPlan& plan, int error) {
    sys(SYS_write, plan.errorWrite, reinterpret_cast<long>(&error), sizeof error);
    sys(SYS_exit_group, 127);
    __builtin_unreachable();
}

// The child's side, between the clone and its program: wait for the id maps, become the mapped
// root (nobody or the server's user outside), arm the parent-death signal and check the server
// is still there, set up descriptors and signals, execute.
[[noreturn]] void becomeChild(const ChildPlan& plan) {
    sys(SYS_close, plan.syncWrite);
    char byte = 0;
    if (sys(SYS_read, plan.syncRead, reinterpret_cast<long>(&byte), 1) != 1) {
        sys(SYS_exit_group, 126); // the server went away before mapping us
    }
    if (sys(SYS_setresgid, 0, 0, 0) != 0 || sys(SYS_setresuid, 0, 0, 0) != 0) {
        failInChild(plan, errno);
    }
    // A change of ids clears the parent-death signal, so it is armed after; then the server,
    // which keeps its end of the sync pipe open until we execute, must still be there.
    sys(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL);
    pollfd hangup{plan.syncRead, 0, 0};
    if (sys(SYS_poll, reinterpret_cast<long>(&hangup), 1, 0) == 1 &&
        (hangup.revents & (POLLHUP | POLLERR))) {
        sys(SYS_exit_group, 126);
    }
    if (sys(SYS_fchdir, plan.workDirFd) != 0) {
        failInChild(plan, errno);
    }
    // Copies above every target first, so no dup2 below overwrites a source still needed.
    const int base = 3 + plan.inputCount;
    const long output = sys(SYS_fcntl, plan.outputFd, F_DUPFD_CLOEXEC, base);
    const long null = sys(SYS_fcntl, plan.devNull, F_DUPFD_CLOEXEC, base);
    long inputs[kMaxInputs] = {};
    for (int i = 0; i < plan.inputCount; ++i) {
        inputs[i] = sys(SYS_fcntl, plan.inputs[i], F_DUPFD_CLOEXEC, base);
        if (inputs[i] < 0) {
            failInChild(plan, errno);
        }
    }
    if (output < 0 || null < 0 || sys(SYS_dup2, null, 0) < 0 || sys(SYS_dup2, output, 1) < 0 ||
        sys(SYS_dup2, output, 2) < 0) {
        failInChild(plan, errno);
    }
    for (int i = 0; i < plan.inputCount; ++i) {
        if (sys(SYS_dup2, inputs[i], 3 + i) < 0) {
            failInChild(plan, errno);
        }
    }
    // Everything else the server had open closes when the program starts (the executable's
    // descriptor and the error pipe are needed until then).
    if (sys(SYS_close_range, base, ~0U, 4 /* CLOSE_RANGE_CLOEXEC */) != 0) {
        failInChild(plan, errno);
    }
    struct kernel_sigaction {
        void (*handler)(int);
        unsigned long flags;
        void (*restorer)();
        unsigned long mask;
    } defaults{SIG_DFL, 0, nullptr, 0};
    for (int signal = 1; signal < 65; ++signal) {
        if (signal != SIGKILL && signal != SIGSTOP) {
            sys(SYS_rt_sigaction, signal, reinterpret_cast<long>(&defaults), 0, 8);
        }
    }
    const unsigned long none = 0;
    sys(SYS_rt_sigprocmask, SIG_SETMASK, reinterpret_cast<long>(&none), 0, 8);
    sys(SYS_execveat, plan.executableFd, reinterpret_cast<long>(""),
        reinterpret_cast<long>(plan.argv), reinterpret_cast<long>(plan.envp), AT_EMPTY_PATH);
    failInChild(plan, errno);
}

// clone3 into new namespaces. Returns the child's pid (and its pidfd), 0 in the child (which
// never returns), or -1 with errno.
pid_t cloneIntoNamespaces(int* pidfd) {
    clone_args args{};
    args.flags = CLONE_PIDFD | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC;
    args.pidfd = reinterpret_cast<std::uint64_t>(pidfd);
    args.exit_signal = SIGCHLD;
    return static_cast<pid_t>(::syscall(SYS_clone3, &args, sizeof args));
}

LaunchedChild launchNamespaced(const LaunchRequest& request, bool* unsupported) {
    LaunchedChild child;
    *unsupported = false;
    int sync[2];
    int error[2];
    if (::pipe2(sync, O_CLOEXEC) != 0) {
        child.error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return child;
    }
    UniqueFd syncRead(sync[0]);
    UniqueFd syncWrite(sync[1]);
    if (::pipe2(error, O_CLOEXEC) != 0) {
        child.error = std::string("cannot create a pipe: ") + std::strerror(errno);
        return child;
    }
    UniqueFd errorRead(error[0]);
    UniqueFd errorWrite(error[1]);
    UniqueFd executable(::open(request.executable.c_str(), O_PATH | O_CLOEXEC));
    UniqueFd devNull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
    if (!executable.valid() || !devNull.valid()) {
        child.error = "cannot open " + request.executable + ": " + std::strerror(errno);
        return child;
    }
    std::vector<std::string> arguments = request.arguments;
    std::vector<std::string> environment = request.environment;
    std::vector<char*> argv = pointers(arguments);
    std::vector<char*> envp = pointers(environment);
    ChildPlan plan;
    plan.syncRead = syncRead.get();
    plan.syncWrite = syncWrite.get();
    plan.errorWrite = errorWrite.get();
    plan.executableFd = executable.get();
    plan.devNull = devNull.get();
    plan.outputFd = request.outputFd;
    plan.workDirFd = request.workDirFd;
    plan.inputCount = static_cast<int>(std::min<std::size_t>(request.inputFds.size(), kMaxInputs));
    for (int i = 0; i < plan.inputCount; ++i) {
        plan.inputs[i] = request.inputFds[static_cast<std::size_t>(i)];
    }
    plan.argv = argv.data();
    plan.envp = envp.data();

    int pidfd = -1;
    const pid_t pid = cloneIntoNamespaces(&pidfd);
    if (pid == 0) {
        becomeChild(plan);
    }
    if (pid < 0) {
        const int cause = errno;
        *unsupported = cause == EPERM || cause == EINVAL || cause == ENOSYS || cause == ENOSPC ||
                       cause == EUSERS || cause == EACCES;
        child.error = std::string("cannot start the sandboxed child: ") + std::strerror(cause);
        return child;
    }
    child.pid = pid;
    child.pidfd.reset(pidfd);
    child.namespaced = true;
    const ChildIdentity identity = childIdentity();
    const std::string proc = "/proc/" + std::to_string(pid);
    const bool mapped =
        writeProcFile(proc + "/setgroups", "deny") &&
        writeProcFile(proc + "/uid_map", "0 " + std::to_string(identity.uid) + " 1") &&
        writeProcFile(proc + "/gid_map", "0 " + std::to_string(identity.gid) + " 1");
    errorWrite.reset();
    if (mapped) {
        [[maybe_unused]] const auto ignored = ::write(syncWrite.get(), "1", 1);
    }
    int childError = 0;
    ssize_t got = 0;
    do {
        got = ::read(errorRead.get(), &childError, sizeof childError);
    } while (got < 0 && errno == EINTR);
    syncWrite.reset();
    if (!mapped || got != 0) {
        killChild(child);
        ::waitpid(pid, nullptr, 0);
        child.pid = -1;
        child.pidfd.reset();
        child.error = !mapped ? "cannot write the sandboxed child's user namespace maps: " +
                                    std::string(std::strerror(errno))
                              : "cannot start " + request.executable + ": " +
                                    std::strerror(got == sizeof childError ? childError : EIO);
    }
    return child;
}

// Hosts without user namespaces: posix_spawn, in a process group of its own.
LaunchedChild launchSpawned(const LaunchRequest& request) {
    LaunchedChild child;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, request.outputFd, 1);
    posix_spawn_file_actions_adddup2(&actions, request.outputFd, 2);
    for (std::size_t i = 0; i < request.inputFds.size(); ++i) {
        posix_spawn_file_actions_adddup2(&actions, request.inputFds[i], 3 + static_cast<int>(i));
    }
    posix_spawn_file_actions_addclosefrom_np(&actions,
                                             3 + static_cast<int>(request.inputFds.size()));
    posix_spawn_file_actions_addfchdir_np(&actions, request.workDirFd);
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
    std::vector<std::string> arguments = request.arguments;
    std::vector<std::string> environment = request.environment;
    std::vector<char*> argv = pointers(arguments);
    std::vector<char*> envp = pointers(environment);
    pid_t pid = -1;
    const int spawned = ::posix_spawn(&pid, request.executable.c_str(), &actions, &attributes,
                                      argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (spawned != 0) {
        child.error = "cannot start " + request.executable + ": " + std::strerror(spawned);
        return child;
    }
    child.pid = pid;
    child.pidfd.reset(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
    return child;
}

} // namespace

ChildIdentity childIdentity() {
    if (::geteuid() == 0) {
        return {kNobody, kNogroup};
    }
    return {::geteuid(), ::getegid()};
}

LaunchedChild launchChild(const LaunchRequest& request) {
    if (request.inputFds.size() > kMaxInputs) {
        LaunchedChild child;
        child.error = "too many inputs for one sandboxed run";
        return child;
    }
    if (g_namespacesWork.load() != 0) {
        bool unsupported = false;
        LaunchedChild child = launchNamespaced(request, &unsupported);
        if (child.pid > 0) {
            g_namespacesWork.store(1);
            return child;
        }
        if (!unsupported || g_namespacesWork.load() == 1) {
            return child;
        }
        g_namespacesWork.store(0);
    }
    return launchSpawned(request);
}

void killChild(const LaunchedChild& child) {
    if (child.pid <= 0) {
        return;
    }
    if (child.pidfd.valid()) {
        ::syscall(SYS_pidfd_send_signal, child.pidfd.get(), SIGKILL, nullptr, 0);
    } else {
        ::kill(child.pid, SIGKILL);
    }
    if (!child.namespaced) {
        ::kill(-child.pid, SIGKILL); // its group, should it still have one
    }
}

} // namespace proofdesk::sandbox
