#pragma once

// The runs tst_stark_prover proves: programs of our own (test::Asm: a countdown, operations of
// the mod builtins) in proof mode on a layout, Stone dynamic_params of our own, and small but
// complete proof parameters for them.

#include "TestPrograms.h"

#include "cairo/Runner.h"
#include "cairo/vm/Layout.h"
#include "stark/prover/ParameterChooser.h"
#include "stark/prover/StarkProver.h"
#include "stark/prover/trace/CairoRun.h"

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

namespace proofdesk::stark::test_runs {

// A compiled program (test::Asm) run in proof mode on a layout.
inline CairoRun proofModeRun(const nlohmann::json& compiled, const std::string& layout,
                             std::optional<nlohmann::json> dynamicParams) {
    const cairo::Program program = cairo::Program::fromJson(compiled);
    cairo::RunOptions options;
    options.layout = layout;
    options.proofMode = true;
    options.dynamicLayoutParams = std::move(dynamicParams);
    cairo::CairoRunner runner(program, options);
    runner.run();
    return cairoRunOf(runner);
}

// A countdown program of our own, run in proof mode on a layout.
inline CairoRun countdownRun(const std::string& layout, std::uint64_t n = 20,
                             std::optional<nlohmann::json> dynamicParams = std::nullopt) {
    return proofModeRun(test::Asm::countdown(n).proofModeProgram(), layout,
                        std::move(dynamicParams));
}

// Proofdesk's dynamic_params (cairo::defaultDynamicParams: every column where all_cairo has it,
// the mod builtins in cells all_cairo leaves free), using every builtin but those named.
inline nlohmann::json dynamicParamsWithout(std::initializer_list<const char*> leftOut) {
    std::vector<std::string> used = cairo::dynamicLayoutBuiltins();
    for (const char* builtin : leftOut) {
        std::erase(used, std::string(builtin));
    }
    return cairo::defaultDynamicParams(used);
}

// Operations for the mod builtins (test::Asm::modOperations). add_mod modulo BLS12-381's p: a
// sum past p whose word carries are −1, 1 and 0, then 5 + 7 = 12. mul_mod modulo 2^96 + 3:
// 2^95 · 4 = 2^96 − 3 (k = 1, a carry of 1 out of word 0), then 5 · 7 = 35. The mul_mod parts
// stay small, so the range-check pool spans [0, rc_max] in 2^17 rows.
inline test::ModBatch modAdditions() {
    return {{"54880396502181392957329877675", "31935979117156477062286671870",
             "20826981314825584179608359615", "8047903782086192180586325942"},
            {{{{"4277757555275239472913674971", "69006105389436436217720117853",
                "69286072639779796448166286481", "5538759050990326073223949183"},
               {"12858983372862532854335242506", "47594517163256267610786120441",
                "18482311284853901431773277", "5314414109516400321598372630"},
               {"41484506940220716963462990138", "5436480921271889172675616087",
                "48477573636239066169989700144", "2805269378420534214235995871"}}},
             {{{"5", "0", "0", "0"}, {"7", "0", "0", "0"}, {"12", "0", "0", "0"}}}}};
}

inline test::ModBatch modMultiplications() {
    return {{"3", "1", "0", "0"},
            {{{{"39614081257132168796771975168", "0", "0", "0"},
               {"4", "0", "0", "0"},
               {"79228162514264337593543950333", "0", "0", "0"}}},
             {{{"5", "0", "0", "0"}, {"7", "0", "0", "0"}, {"35", "0", "0", "0"}}}}};
}

// The mod operations' program run in proof mode on a layout.
inline CairoRun modBuiltinsRun(const std::string& layout,
                               std::optional<nlohmann::json> dynamicParams = std::nullopt) {
    return proofModeRun(test::Asm::modOperations(modAdditions(), modMultiplications())
                            .proofModeProgram({"add_mod", "mul_mod"}),
                        layout, std::move(dynamicParams));
}

// Small but complete parameters for a run: few queries and bits of work keep tests fast.
inline ProofParameters testParameters(const CairoRun& run, ChannelProfile profile) {
    ProofParameters p = chooseParameters(traceRows(run.publicInput), 96, profile);
    p.logCosets = 2;
    p.queries = 6;
    p.proofOfWorkBits = 6;
    return p;
}

inline ProverResult prove(const CairoRun& run, const ProofParameters& parameters,
                          bool check = false) {
    ProverOptions options;
    options.parameters = parameters;
    options.checkConstraints = check;
    return proveCairoRun(run, options);
}

} // namespace proofdesk::stark::test_runs
