#pragma once

// The runs tst_stark_prover proves: our own countdown program (test::Asm) in proof mode on a
// layout, Stone dynamic_params of our own, and small but complete proof parameters for them.

#include "TestPrograms.h"

#include "cairo/Runner.h"
#include "stark/prover/ParameterChooser.h"
#include "stark/prover/StarkProver.h"
#include "stark/prover/trace/CairoRun.h"

#include <QFile>
#include <QtGlobal>

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <optional>
#include <string>

namespace proofdesk::stark::test_runs {

// A countdown program of our own (test::Asm), run in proof mode on a layout.
inline CairoRun countdownRun(const std::string& layout, std::uint64_t n = 20,
                             std::optional<nlohmann::json> dynamicParams = std::nullopt) {
    const cairo::Program program =
        cairo::Program::fromJson(test::Asm::countdown(n).proofModeProgram());
    cairo::RunOptions options;
    options.layout = layout;
    options.proofMode = true;
    options.dynamicLayoutParams = std::move(dynamicParams);
    cairo::CairoRunner runner(program, options);
    runner.run();
    return cairoRunOf(runner);
}

// Stone dynamic_params of our own (tests/stark): every column where all_cairo has it, using every
// builtin but those named.
inline nlohmann::json dynamicParamsWithout(std::initializer_list<const char*> leftOut) {
    QFile file(QStringLiteral(PROOFDESK_STARK_TEST_DIR "/all_cairo_as_dynamic_params.json"));
    if (!file.open(QIODevice::ReadOnly)) {
        qFatal("cannot read all_cairo_as_dynamic_params.json");
    }
    nlohmann::json params = nlohmann::json::parse(file.readAll().toStdString());
    for (const char* builtin : leftOut) {
        params.at(std::string("uses_") + builtin + "_builtin") = 0;
    }
    return params;
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
