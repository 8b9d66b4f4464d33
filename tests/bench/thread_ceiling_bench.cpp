// What this machine gives a second thread on the prover's own kernels (issue #48's 2-thread /
// 1-thread goal): each kernel runs a fixed amount of work on one thread, then the same amount on
// each of N threads at once; N·t1/tN is the speed-up a perfectly parallel phase made of that
// kernel could reach here. The rounds alternate (one thread, N threads) and the median is
// reported, so a busy host shows as spread rather than as a bias.
//
//   build/tests/thread_ceiling_bench [--threads N] [--rounds R]
//
// The kernels: the packed field products of the transforms and the composition (AVX-512 IFMA
// where the CPU has it, on data that stays in the core's own cache), the eight-state Keccak-f
// permutation of the commitments and the proof of work, scalar field products (the CPU's integer
// multipliers), and a stream of multiply-adds over arrays far larger than the caches (memory
// bandwidth, as a commitment's or the DEEP composition's passes over whole columns). The last
// lines (after "== figures") are `name value` pairs for tests/bench/run.sh.

#include "stark/algebra/VectorField.h"

#include "crypto/KeccakF.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace proofdesk;
using namespace proofdesk::stark;

namespace {

using Clock = std::chrono::steady_clock;

// One kernel: `prepare` builds a thread's own data once (outside the timing), `run` does one unit
// of work on it and returns a value the result depends on (so it is not optimised away).
struct Kernel {
    std::string name;
    std::string figure;
    std::function<std::function<std::uint64_t()>()> prepare;
};

std::function<std::uint64_t()> fieldProducts() {
    // 4,096 elements a vector (two operands and the result: 384 KiB, within a core's L2).
    auto a = std::make_shared<std::vector<Fp>>(4096);
    auto b = std::make_shared<std::vector<Fp>>(4096);
    for (std::size_t i = 0; i < a->size(); ++i) {
        (*a)[i] = Fp::fromU64(i + 3);
        (*b)[i] = Fp::fromU64(7 * i + 1);
    }
    return [a, b] {
        for (int pass = 0; pass < 16; ++pass) {
            vector_field::multiply(*a, *b, *a);
        }
        return (*a)[0].montgomery()[0];
    };
}

std::function<std::uint64_t()> keccakStates() {
    auto lanes = std::make_shared<std::array<std::uint64_t, 25 * 8>>();
    for (std::size_t i = 0; i < lanes->size(); ++i) {
        (*lanes)[i] = i * 0x9e3779b97f4a7c15ull;
    }
    return [lanes] {
        for (int pass = 0; pass < 256; ++pass) {
            crypto::keccakF1600Lanes8(lanes->data());
        }
        return (*lanes)[0];
    };
}

std::function<std::uint64_t()> scalarProducts() {
    auto state = std::make_shared<std::array<Fp, 8>>();
    for (std::size_t i = 0; i < state->size(); ++i) {
        (*state)[i] = Fp::fromU64(i + 2);
    }
    return [state] {
        const Fp factor = Fp::fromU64(0x1234567);
        for (int pass = 0; pass < 4096; ++pass) {
            for (Fp& value : *state) { // eight independent chains: throughput, not latency
                value = value * factor;
            }
        }
        return (*state)[0].montgomery()[0];
    };
}

std::function<std::uint64_t()> memoryStream() {
    // Three arrays of 2^20 elements (32 MiB each) per thread: a pass misses every cache.
    constexpr std::size_t kElements = std::size_t(1) << 20;
    auto a = std::make_shared<std::vector<Fp>>(kElements, Fp::fromU64(3));
    auto b = std::make_shared<std::vector<Fp>>(kElements, Fp::fromU64(5));
    auto sum = std::make_shared<std::vector<Fp>>(kElements, Fp::fromU64(0));
    return [a, b, sum] {
        vector_field::multiplyAdd(*a, *b, *sum);
        return (*sum)[0].montgomery()[0];
    };
}

// Seconds for `threads` threads each running `units` units of its own prepared work at once.
double timeThreads(const Kernel& kernel, int threads, std::size_t units, std::uint64_t& sink) {
    std::vector<std::function<std::uint64_t()>> work;
    for (int t = 0; t < threads; ++t) {
        work.push_back(kernel.prepare());
    }
    std::vector<std::uint64_t> results(std::size_t(threads), 0);
    const auto started = Clock::now();
    std::vector<std::thread> others;
    for (int t = 1; t < threads; ++t) {
        others.emplace_back([&, t] {
            for (std::size_t u = 0; u < units; ++u) {
                results[std::size_t(t)] ^= work[std::size_t(t)]();
            }
        });
    }
    for (std::size_t u = 0; u < units; ++u) {
        results[0] ^= work[0]();
    }
    for (std::thread& thread : others) {
        thread.join();
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
    for (const std::uint64_t result : results) {
        sink ^= result;
    }
    return seconds;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t mid = values.size() / 2;
    return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

} // namespace

int main(int argc, char** argv) {
    int threads = std::max(1, int(std::thread::hardware_concurrency()));
    int rounds = 7;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            threads = std::max(1, std::atoi(argv[++i]));
        } else if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = std::max(1, std::atoi(argv[++i]));
        } else {
            std::fprintf(stderr, "usage: thread_ceiling_bench [--threads N] [--rounds R]\n");
            return 1;
        }
    }
    const std::vector<Kernel> kernels = {
        {vector_field::enabled() ? "field products, packed (AVX-512 IFMA), in cache"
                                 : "field products, scalar path, in cache",
         "field_products", fieldProducts},
        {"Keccak-f[1600], eight states a call", "keccak", keccakStates},
        {"field products, scalar Fp, eight chains", "scalar_products", scalarProducts},
        {"multiply-add stream over 96 MiB a thread", "memory_stream", memoryStream},
    };
    std::printf("%d threads against 1, %d rounds, median (range) of N*t1/tN; N = %d is perfect\n",
                threads, rounds, threads);
    std::uint64_t sink = 0;
    std::vector<std::pair<std::string, double>> figures;
    for (const Kernel& kernel : kernels) {
        // About 0.3 s of one thread's work a timing.
        std::size_t units = 1;
        while (timeThreads(kernel, 1, units, sink) < 0.3) {
            units *= 2;
        }
        std::vector<double> ratios;
        for (int round = 0; round < rounds; ++round) {
            const double one = timeThreads(kernel, 1, units, sink);
            const double many = timeThreads(kernel, threads, units, sink);
            ratios.push_back(double(threads) * one / many);
        }
        const auto [low, high] = std::minmax_element(ratios.begin(), ratios.end());
        const double mid = median(ratios);
        std::printf("  %-48s %.2fx (%.2f-%.2f)\n", kernel.name.c_str(), mid, *low, *high);
        figures.emplace_back("thread_ceiling_" + kernel.figure + "_" + std::to_string(threads),
                             mid);
    }
    std::printf("== figures\n");
    for (const auto& [name, value] : figures) {
        std::printf("%s %.2f\n", name.c_str(), value);
    }
    return sink == 1 ? 2 : 0; // keeps the kernels' results alive
}
