#include "SandboxChild.h"

#include "core/BoundedJson.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <new>

namespace proofdesk::sandbox {
namespace {

constexpr std::uint64_t kMaxTaskDescription = std::uint64_t{16} << 20;

bool parseNumber(const std::string& text, std::uint64_t* out) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), *out);
    return error == std::errc() && end == text.data() + text.size();
}

int writeResult(const nlohmann::json& result) {
    std::ofstream out("result.json", std::ios::binary | std::ios::trunc);
    out << result.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out.flush();
    if (!out) {
        std::cerr << "cannot write result.json (file size limit?)" << std::endl;
        return 3;
    }
    return 0;
}

nlohmann::json failure(const std::string& code, const std::string& message, bool permanent) {
    return {{"ok", false},
            {"error", {{"code", code}, {"message", message}, {"permanent", permanent}}}};
}

nlohmann::json confinementJson(const Confinement& applied) {
    return {{"noNewPrivileges", applied.noNewPrivileges},
            {"resourceLimits", applied.resourceLimits},
            {"seccomp", applied.seccomp},
            {"networkNamespace", applied.networkNamespace},
            {"pidNamespace", applied.pidNamespace},
            {"taskLimit", applied.taskLimit},
            {"landlockAbi", applied.landlockAbi},
            {"missing", applied.missing}};
}

} // namespace

void reportProgress(const nlohmann::json& report) {
    // Written beside, then renamed over, so the parent never reads half a report.
    const std::string temporary = std::string(kProgressFile) + ".tmp";
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        out << report.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (!out.flush()) {
            return;
        }
    }
    std::rename(temporary.c_str(), kProgressFile);
}

std::string ChildContext::readInput(const std::string& name, std::uint64_t maxBytes) const {
    auto it = m_inputs.find(name);
    if (it == m_inputs.end()) {
        throw TaskError("MISSING_INPUT", "the run has no " + name, false);
    }
    const int fd = it->second;
    struct stat info {};
    if (::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) &&
        static_cast<std::uint64_t>(info.st_size) > maxBytes) {
        throw TaskError("INPUT_TOO_LARGE",
                        name + " is larger than " + std::to_string(maxBytes >> 20) + " MiB");
    }
    std::string bytes;
    ::lseek(fd, 0, SEEK_SET);
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            throw TaskError("INPUT_UNREADABLE", "cannot read " + name + ": " + std::strerror(errno),
                            false);
        }
        if (n == 0) {
            break;
        }
        if (bytes.size() + static_cast<std::size_t>(n) > maxBytes) {
            throw TaskError("INPUT_TOO_LARGE",
                            name + " is larger than " + std::to_string(maxBytes >> 20) + " MiB");
        }
        bytes.append(buffer, static_cast<std::size_t>(n));
    }
    return bytes;
}

int runSandboxChild(int argc, char** argv, const std::map<std::string, TaskFunction>& tasks) {
    std::string task;
    std::uint64_t inputCount = 0;
    ConfineRequest request;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        const std::string value = argv[i + 1];
        std::uint64_t number = 0;
        const bool numeric = parseNumber(value, &number);
        if (flag == "--task") {
            task = value;
        } else if (flag == "--work-dir") {
            request.workDir = value;
        } else if (flag == "--parent" && numeric) {
            request.parent = static_cast<pid_t>(number);
        } else if (flag == "--memory-bytes" && numeric) {
            request.limits.memoryBytes = number;
        } else if (flag == "--cpu-seconds" && numeric) {
            request.limits.cpuSeconds = static_cast<int>(number);
        } else if (flag == "--file-bytes" && numeric) {
            request.limits.fileBytes = number;
        } else if (flag == "--open-files" && numeric) {
            request.limits.openFiles = static_cast<int>(number);
        } else if (flag == "--tasks" && numeric && number > 0 && number < 100000) {
            request.limits.tasks = static_cast<int>(number);
        } else if (flag == "--inputs" && numeric && number < 16) {
            inputCount = number;
        } else {
            std::cerr << "proofdesk-sandbox: unknown argument " << flag
                      << " (this program is started by the Proofdesk server)" << std::endl;
            return 2;
        }
    }
    if (task.empty() || request.workDir.empty()) {
        std::cerr << "proofdesk-sandbox: needs --task and --work-dir" << std::endl;
        return 2;
    }
    // The launcher started us in the work directory (by descriptor: the path's parents may be
    // closed to the sandbox's user).
    request.workDir = ".";
    // Shared libraries are mapped already; Python's standard library may still be imported.
    request.readOnlyDirs = {"/usr"};
    // Started as the init of a PID namespace (in user and network namespaces) by the launcher.
    request.namespaced = ::getpid() == 1;
    const Confinement applied = confineThisProcess(request);

    std::string text;
    if (!core::readFileBounded("task.json", kMaxTaskDescription, &text)) {
        std::cerr << "proofdesk-sandbox: no readable task.json in the work directory" << std::endl;
        return 2;
    }
    const nlohmann::json description = core::parseJsonBounded(text);
    if (!description.is_object()) {
        std::cerr << "proofdesk-sandbox: task.json is not a JSON object" << std::endl;
        return 2;
    }
    std::map<std::string, int> inputs;
    const nlohmann::json names = description.value("inputs", nlohmann::json::array());
    for (std::size_t i = 0; i < names.size() && i < inputCount; ++i) {
        if (names[i].is_string()) {
            inputs[names[i].get<std::string>()] = 3 + static_cast<int>(i);
        }
    }
    if (task == "probe") {
        return writeResult({{"ok", true}, {"value", confinementJson(applied)}});
    }
    auto it = tasks.find(task);
    if (it == tasks.end()) {
        return writeResult(failure("UNKNOWN_TASK", "no sandbox task named " + task, true));
    }
    const ChildContext context(description.value("options", nlohmann::json::object()),
                               std::move(inputs), applied);
    try {
        nlohmann::json value = it->second(context);
        return writeResult({{"ok", true}, {"value", std::move(value)}});
    } catch (const TaskError& error) {
        return writeResult(failure(error.code(), error.what(), error.permanent()));
    } catch (const std::bad_alloc&) {
        return writeResult(failure("OUT_OF_MEMORY",
                                   "the run ran out of memory (limit " +
                                       std::to_string(request.limits.memoryBytes >> 20) + " MiB)",
                                   true));
    } catch (const std::exception& error) {
        return writeResult(failure("FAILED", error.what(), true));
    }
}

} // namespace proofdesk::sandbox
