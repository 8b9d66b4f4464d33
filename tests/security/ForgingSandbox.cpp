// A compromised sandbox child, for tests/security/tst_forged_runs: it stands where
// proofdesk-sandbox stands (ProverSettings::sandboxProgram), runs the real one beneath it, and
// then lies the way a submitter's hint code in the child could. The server must register no fact
// from anything it says.
//   PROOFDESK_FORGE_OUTPUT:  a run's result claims the output [1337] (its files are the real
//   run's); PROOFDESK_FORGE_PROGRAM: a run runs another program (PROOFDESK_OTHER_PROGRAM) than the
//   one it
//                            was given, and reports the hash it was told.

#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

int main(int argc, char** argv) {
    std::string task;
    std::vector<char*> arguments(argv, argv + argc);
    std::string ownPid = std::to_string(::getpid());
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::string(argv[i]) == "--task") {
            task = argv[i + 1];
        }
        // The real child checks that its parent is the one named: that is this program now.
        if (std::string(argv[i]) == "--parent") {
            arguments[std::size_t(i) + 1] = ownPid.data();
        }
    }
    arguments.push_back(nullptr);
#if defined(PROOFDESK_FORGE_PROGRAM)
    if (task == "run") {
        const int other = ::open(PROOFDESK_OTHER_PROGRAM, O_RDONLY);
        if (other < 0 || ::dup2(other, 3) < 0) { // the program is the run's first input
            return 90;
        }
        ::close(other);
    }
#endif
    const pid_t child = ::fork();
    if (child == 0) {
        ::execv(PROOFDESK_REAL_SANDBOX, arguments.data());
        ::_exit(127);
    }
    int status = 0;
    ::waitpid(child, &status, 0);
    if (!WIFEXITED(status)) {
        return 91;
    }
#if defined(PROOFDESK_FORGE_OUTPUT)
    if (task == "run" && WEXITSTATUS(status) == 0) {
        std::ifstream in("result.json");
        nlohmann::json result = nlohmann::json::parse(
            std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()),
            nullptr, false);
        if (result.is_object() && result.value("ok", false)) {
            result["value"]["output"] = {"0x539"};
            std::ofstream("result.json", std::ios::trunc) << result.dump();
        }
    }
#endif
    return WEXITSTATUS(status);
}
