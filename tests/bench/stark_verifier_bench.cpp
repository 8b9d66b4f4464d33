// Benchmark of our STARK verifier (issue #20): every Stone proof of ../shared/fixtures, the
// median of N verifications in this process after one warm-up (the Pedersen tables and the
// layout's AIR are built once per process), and the process's peak memory.
//
//   build/tests/stark_verifier_bench [--runs N] [FIXTURES_DIR]
//
// The last lines (after "== figures") are `name value` pairs for tests/bench/run.sh.

#include "stark/verifier/ProofVerifier.h"

#include "core/BoundedJson.h"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace proofdesk::stark;

int main(int argc, char** argv) {
    int runs = 9;
    std::string fixtures = PROOFDESK_FIXTURES_DIR;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc) {
            runs = std::max(1, std::atoi(argv[++i]));
        } else {
            fixtures = argv[i];
        }
    }
    std::vector<std::string> paths;
    for (const char* dir : {"/cairo/proofs/stone", "/cairo/runs"}) {
        const std::filesystem::path root = fixtures + dir;
        if (!std::filesystem::exists(root)) {
            continue;
        }
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
            if (entry.path().extension() == ".json") {
                paths.push_back(entry.path().string());
            }
        }
    }
    std::sort(paths.begin(), paths.end());
    if (paths.empty()) {
        std::fprintf(stderr, "no fixture proofs under %s\n", fixtures.c_str());
        return 1;
    }

    std::printf("%-70s %8s %10s\n", "proof", "verdict", "median ms");
    double slowest = 0;
    double recursiveReference = 0;
    int verified = 0;
    for (const std::string& path : paths) {
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        const nlohmann::json proof = proofdesk::core::parseJsonBounded(text.str());
        if (!proof.is_object() || !proof.contains("proof_hex")) {
            continue;
        }
        Verdict verdict = verifyStoneProof(proof); // warm-up
        std::vector<double> times;
        for (int r = 0; r < runs; ++r) {
            const auto start = std::chrono::steady_clock::now();
            verdict = verifyStoneProof(proof);
            times.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
        }
        std::sort(times.begin(), times.end());
        const double median = times[times.size() / 2];
        const std::string name = std::filesystem::path(path).parent_path().filename().string() +
                                 "/" + std::filesystem::path(path).filename().string();
        std::printf("%-70s %8s %10.2f\n", name.c_str(), verdict.valid ? "valid" : "refused",
                    median);
        if (verdict.valid) {
            ++verified;
            slowest = std::max(slowest, median);
        }
        if (name.ends_with("integrity_recursive_cairo0_stone6_keccak_160_lsb.json")) {
            recursiveReference = median;
        }
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("== figures\n");
    std::printf("stark_verify_recursive_stone6_keccak_ms %.2f\n", recursiveReference);
    std::printf("stark_verify_slowest_ms %.2f\n", slowest);
    std::printf("stark_verify_proofs_verified %d\n", verified);
    std::printf("stark_verify_peak_rss_mib %.1f\n", double(usage.ru_maxrss) / 1024.0);
    return 0;
}
