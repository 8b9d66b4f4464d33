#include "Confinement.h"

#include <seccomp.h>

#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace proofdesk::sandbox {
namespace {

// Landlock's user-space ABI, declared here so that older kernel headers build too.
constexpr std::uint32_t kLandlockCreateRulesetVersion = 1U << 0;
constexpr int kLandlockRulePathBeneath = 1;
constexpr std::uint64_t kFsExecute = 1ULL << 0;
constexpr std::uint64_t kFsWriteFile = 1ULL << 1;
constexpr std::uint64_t kFsReadFile = 1ULL << 2;
constexpr std::uint64_t kFsReadDir = 1ULL << 3;
constexpr std::uint64_t kFsRemoveDir = 1ULL << 4;
constexpr std::uint64_t kFsRemoveFile = 1ULL << 5;
constexpr std::uint64_t kFsMakeDir = 1ULL << 7;
constexpr std::uint64_t kFsMakeReg = 1ULL << 8;
constexpr std::uint64_t kFsTruncate = 1ULL << 14;
constexpr std::uint64_t kNetBindTcp = 1ULL << 0;
constexpr std::uint64_t kNetConnectTcp = 1ULL << 1;
constexpr std::uint64_t kScopeAbstractUnixSocket = 1ULL << 0;
constexpr std::uint64_t kScopeSignal = 1ULL << 1;

struct RulesetAttr {
    std::uint64_t handledAccessFs;
    std::uint64_t handledAccessNet; // ABI 4
    std::uint64_t scoped;           // ABI 6
};

struct __attribute__((packed)) PathBeneathAttr {
    std::uint64_t allowedAccess;
    std::int32_t parentFd;
};

// Every file-system right the ABI version knows: handled means refused unless a rule allows it.
std::uint64_t handledFsRights(int abi) {
    std::uint64_t rights = (1ULL << 13) - 1; // ABI 1: EXECUTE .. MAKE_SYM
    if (abi >= 2) {
        rights |= 1ULL << 13; // REFER
    }
    if (abi >= 3) {
        rights |= kFsTruncate;
    }
    if (abi >= 5) {
        rights |= 1ULL << 15; // IOCTL_DEV
    }
    return rights;
}

class Fd {
public:
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd() {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return m_fd; }

private:
    int m_fd;
};

bool setLimit(int resource, rlim_t soft, rlim_t hard) {
    const rlimit limit{soft, hard};
    return ::setrlimit(resource, &limit) == 0;
}

bool sanitizerBuild() {
#if defined(PROOFDESK_ADDRESS_SANITIZER)
    return true;
#else
    return false;
#endif
}

bool applyResourceLimits(const Limits& limits, bool namespaced, bool* taskLimit) {
    bool ok = true;
    // AddressSanitizer reserves terabytes of address space for its shadow memory, so sanitizer
    // builds run without an address-space limit.
    if (!sanitizerBuild()) {
        ok &= setLimit(RLIMIT_AS, limits.memoryBytes, limits.memoryBytes);
    }
    const auto cpu = static_cast<rlim_t>(std::max(1, limits.cpuSeconds));
    ok &= setLimit(RLIMIT_CPU, cpu, cpu + 2); // SIGXCPU first, SIGKILL two seconds later
    ok &= setLimit(RLIMIT_FSIZE, limits.fileBytes, limits.fileBytes);
    ok &= setLimit(RLIMIT_NOFILE, static_cast<rlim_t>(limits.openFiles),
                   static_cast<rlim_t>(limits.openFiles));
    ok &= setLimit(RLIMIT_CORE, 0, 0);
    ok &= setLimit(RLIMIT_MEMLOCK, 0, 0);
    ok &= setLimit(RLIMIT_MSGQUEUE, 0, 0);
    // Threads: RLIMIT_NPROC counts the tasks of a user in a user namespace; in the namespace the
    // launcher made, that user is this run alone (and never root outside it, whom the limit does
    // not bind). Elsewhere it would count every process of the server's user, so it is not set.
    *taskLimit = namespaced && setLimit(RLIMIT_NPROC, static_cast<rlim_t>(limits.tasks),
                                        static_cast<rlim_t>(limits.tasks));
    // A write past the file limit fails with EFBIG (a clear error) instead of killing the run.
    std::signal(SIGXFSZ, SIG_IGN);
    return ok;
}

bool writeProcFile(const char* path, const std::string& text) {
    Fd fd(::open(path, O_WRONLY | O_CLOEXEC));
    if (fd.get() < 0) {
        return false;
    }
    return ::write(fd.get(), text.data(), text.size()) == static_cast<ssize_t>(text.size());
}

// A new user namespace (so capabilities held here stop applying to the host) with a network
// namespace of its own (only a loopback device, down): no way to reach any network.
bool enterNamespaces() {
    const uid_t uid = ::getuid();
    const gid_t gid = ::getgid();
    if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0) {
        // Files keep their owner: the same ids inside as outside.
        writeProcFile("/proc/self/setgroups", "deny");
        const bool mapped = writeProcFile("/proc/self/uid_map",
                                          std::to_string(uid) + " " + std::to_string(uid) + " 1") &&
                            writeProcFile("/proc/self/gid_map",
                                          std::to_string(gid) + " " + std::to_string(gid) + " 1");
        return mapped;
    }
    return ::unshare(CLONE_NEWNET) == 0; // privileged hosts without user namespaces
}

void dropCapabilities() {
    __user_cap_header_struct header{};
    header.version = _LINUX_CAPABILITY_VERSION_3;
    __user_cap_data_struct data[2]{};
    ::syscall(SYS_capset, &header, data);
}

int applyLandlock(const ConfineRequest& request) {
    const int abi = landlockAbiVersion();
    if (abi <= 0) {
        return 0;
    }
    RulesetAttr attr{};
    attr.handledAccessFs = handledFsRights(abi);
    std::size_t size = sizeof(std::uint64_t);
    if (abi >= 4) {
        attr.handledAccessNet = kNetBindTcp | kNetConnectTcp;
        size = 2 * sizeof(std::uint64_t);
    }
    if (abi >= 6) {
        attr.scoped = kScopeAbstractUnixSocket | kScopeSignal;
        size = sizeof(RulesetAttr);
    }
    Fd ruleset(static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, size, 0)));
    if (ruleset.get() < 0) {
        return 0;
    }
    const auto allow = [&ruleset](const std::string& path, std::uint64_t rights) {
        Fd dir(::open(path.c_str(), O_PATH | O_CLOEXEC));
        if (dir.get() < 0) {
            return false;
        }
        PathBeneathAttr rule{rights, dir.get()};
        return ::syscall(SYS_landlock_add_rule, ruleset.get(), kLandlockRulePathBeneath, &rule,
                         0) == 0;
    };
    const std::uint64_t read = kFsReadFile | kFsReadDir;
    std::uint64_t readWrite =
        read | kFsWriteFile | kFsRemoveFile | kFsRemoveDir | kFsMakeReg | kFsMakeDir;
    if (abi >= 3) {
        readWrite |= kFsTruncate;
    }
    if (!allow(request.workDir, readWrite)) {
        return 0;
    }
    for (const std::string& dir : request.readOnlyDirs) {
        allow(dir, read); // a missing directory is simply not reachable
    }
    (void)kFsExecute; // never granted: nothing may be executed
    if (::syscall(SYS_landlock_restrict_self, ruleset.get(), 0) != 0) {
        return 0;
    }
    return abi;
}

// A condition on one system-call argument (libseccomp's SCMP_A0..SCMP_A5 macros are C compound
// literals, not C++): argument `index` compared with `op` against `datum`, or masked by `datum`
// then compared with `masked` for SCMP_CMP_MASKED_EQ.
scmp_arg_cmp argument(unsigned index, scmp_compare op, scmp_datum_t datum,
                      scmp_datum_t masked = 0) {
    return scmp_arg_cmp{index, op, datum, masked};
}

bool applySeccomp() {
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (!ctx) {
        return false;
    }
    bool ok = true;
    const auto deny = [&](int syscall, int error = EPERM) {
        ok &= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(static_cast<std::uint32_t>(error)), syscall,
                               0) == 0;
    };
    // New programs and processes (threads stay allowed: clone with CLONE_THREAD).
    for (int call : {SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork), SCMP_SYS(vfork)}) {
        deny(call);
    }
    ok &= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                           argument(0, SCMP_CMP_MASKED_EQ, CLONE_THREAD)) == 0;
    deny(SCMP_SYS(clone3), ENOSYS); // glibc falls back to clone, whose flags the rule above reads
    // Networking of any kind.
    for (int call : {SCMP_SYS(socket), SCMP_SYS(socketpair), SCMP_SYS(connect), SCMP_SYS(bind),
                     SCMP_SYS(listen), SCMP_SYS(accept), SCMP_SYS(accept4)}) {
        deny(call);
    }
    // Other processes: tracing, their memory, their signals.
    for (int call : {SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev),
                     SCMP_SYS(kcmp), SCMP_SYS(pidfd_open), SCMP_SYS(pidfd_getfd),
                     SCMP_SYS(pidfd_send_signal), SCMP_SYS(tkill)}) {
        deny(call);
    }
    const auto self = static_cast<scmp_datum_t>(::getpid());
    for (int call : {SCMP_SYS(kill), SCMP_SYS(tgkill), SCMP_SYS(rt_sigqueueinfo),
                     SCMP_SYS(rt_tgsigqueueinfo)}) {
        ok &= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), call, 1,
                               argument(0, SCMP_CMP_NE, self)) == 0;
    }
    // The system: mounts, namespaces, modules, keys, BPF, clocks, devices, io_uring (whose
    // operations seccomp cannot see).
    for (int call : {SCMP_SYS(mount),
                     SCMP_SYS(umount2),
                     SCMP_SYS(pivot_root),
                     SCMP_SYS(chroot),
                     SCMP_SYS(unshare),
                     SCMP_SYS(setns),
                     SCMP_SYS(move_mount),
                     SCMP_SYS(open_tree),
                     SCMP_SYS(fsopen),
                     SCMP_SYS(fsconfig),
                     SCMP_SYS(fsmount),
                     SCMP_SYS(fspick),
                     SCMP_SYS(mount_setattr),
                     SCMP_SYS(bpf),
                     SCMP_SYS(perf_event_open),
                     SCMP_SYS(keyctl),
                     SCMP_SYS(add_key),
                     SCMP_SYS(request_key),
                     SCMP_SYS(init_module),
                     SCMP_SYS(finit_module),
                     SCMP_SYS(delete_module),
                     SCMP_SYS(kexec_load),
                     SCMP_SYS(kexec_file_load),
                     SCMP_SYS(reboot),
                     SCMP_SYS(swapon),
                     SCMP_SYS(swapoff),
                     SCMP_SYS(acct),
                     SCMP_SYS(quotactl),
                     SCMP_SYS(userfaultfd),
                     SCMP_SYS(personality),
                     SCMP_SYS(open_by_handle_at),
                     SCMP_SYS(name_to_handle_at),
                     SCMP_SYS(settimeofday),
                     SCMP_SYS(clock_settime),
                     SCMP_SYS(clock_adjtime),
                     SCMP_SYS(adjtimex),
                     SCMP_SYS(mknod),
                     SCMP_SYS(mknodat),
                     SCMP_SYS(syslog),
                     SCMP_SYS(vhangup),
                     SCMP_SYS(iopl),
                     SCMP_SYS(ioperm),
                     SCMP_SYS(fanotify_init),
                     SCMP_SYS(lookup_dcookie),
                     SCMP_SYS(setuid),
                     SCMP_SYS(setgid),
                     SCMP_SYS(setreuid),
                     SCMP_SYS(setregid),
                     SCMP_SYS(setresuid),
                     SCMP_SYS(setresgid),
                     SCMP_SYS(setgroups)}) {
        deny(call);
    }
    for (int call :
         {SCMP_SYS(io_uring_setup), SCMP_SYS(io_uring_enter), SCMP_SYS(io_uring_register)}) {
        deny(call, ENOSYS);
    }
    // Leaving its process group or session (the group was once how the run was killed), and
    // giving up the parent-death signal.
    deny(SCMP_SYS(setpgid));
    deny(SCMP_SYS(setsid));
    ok &= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
                           argument(0, SCMP_CMP_EQ, PR_SET_PDEATHSIG)) == 0;
    // A file's owner, mode, times and extended attributes: its inputs are open descriptors of
    // the server's stored files, which must not change through them.
    for (int call : {SCMP_SYS(chmod), SCMP_SYS(fchmod), SCMP_SYS(fchmodat), SCMP_SYS(chown),
                     SCMP_SYS(fchown), SCMP_SYS(lchown), SCMP_SYS(fchownat), SCMP_SYS(utime),
                     SCMP_SYS(utimes), SCMP_SYS(utimensat), SCMP_SYS(futimesat), SCMP_SYS(setxattr),
                     SCMP_SYS(lsetxattr), SCMP_SYS(fsetxattr), SCMP_SYS(removexattr),
                     SCMP_SYS(lremovexattr), SCMP_SYS(fremovexattr)}) {
        deny(call);
    }
    // The same through calls newer than this libseccomp's table (x86-64 numbers: fchmodat2,
    // setxattrat, removexattrat, file_setattr).
#if defined(__x86_64__)
    for (int call : {452, 463, 466, 469}) {
        deny(call);
    }
#endif
    for (unsigned long request :
         {0x40086602UL /* FS_IOC_SETFLAGS */, 0x401c5820UL /* FS_IOC_FSSETXATTR */}) {
        ok &= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                               argument(1, SCMP_CMP_EQ, request)) == 0;
    }
    // Typing into a terminal (the child has none, but refuse it outright).
    ok &= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
                           argument(1, SCMP_CMP_EQ, TIOCSTI)) == 0;
    ok &= ok && seccomp_load(ctx) == 0;
    seccomp_release(ctx);
    return ok;
}

} // namespace

int Limits::defaultTaskLimit() {
    const int cores = static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    return std::max(32, 2 * cores + 16);
}

int landlockAbiVersion() {
    const long abi =
        ::syscall(SYS_landlock_create_ruleset, nullptr, 0, kLandlockCreateRulesetVersion);
    return abi > 0 ? static_cast<int>(abi) : 0;
}

Confinement confineThisProcess(const ConfineRequest& request) {
    Confinement applied;
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    // In a PID namespace of its own the parent is outside it (getppid answers 0); the launcher
    // checked it was alive once the signal was armed.
    if (!request.namespaced && request.parent != 0 && ::getppid() != request.parent) {
        ::_exit(125); // the parent died before the signal was armed
    }
    applied.resourceLimits =
        applyResourceLimits(request.limits, request.namespaced, &applied.taskLimit);
    if (!applied.resourceLimits) {
        applied.missing.push_back("resource limits");
    }
    if (request.namespaced) {
        applied.networkNamespace = true;
        applied.pidNamespace = ::getpid() == 1;
    } else {
        applied.networkNamespace = enterNamespaces();
        applied.missing.push_back(
            "a PID namespace (the run is killed alone, not with anything it might start)");
    }
    if (!applied.networkNamespace) {
        applied.missing.push_back("a network namespace (unprivileged user namespaces are off)");
    }
    if (!applied.taskLimit) {
        applied.missing.push_back("a limit on the run's threads (it needs a user namespace)");
    }
    dropCapabilities();
    applied.noNewPrivileges = ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == 0;
    if (!applied.noNewPrivileges) {
        applied.missing.push_back("no-new-privileges");
    }
    applied.landlockAbi = applyLandlock(request);
    if (applied.landlockAbi == 0) {
        applied.missing.push_back("Landlock (file access is not confined to the work directory)");
    }
    applied.seccomp = applied.noNewPrivileges && applySeccomp();
    if (!applied.seccomp) {
        applied.missing.push_back("the seccomp filter");
    }
    return applied;
}

} // namespace proofdesk::sandbox
