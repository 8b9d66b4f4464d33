#include "Statement.h"

#include "Rejection.h"
#include "air/Layout.h"
#include "cairo/outputs/FactHashes.h"
#include "cairo/vm/ProgramHash.h"
#include "crypto/Pedersen.h"
#include "crypto/Poseidon.h"

#include <algorithm>
#include <map>

namespace proofdesk::stark {
namespace {

using crypto::Felt;

[[noreturn]] void reject(MemoryVerification mode, const std::string& message) {
    throw Rejection(Stage::PublicInput, std::string("public memory (") +
                                            memoryVerificationName(mode) + "): " + message);
}

struct MainPage {
    std::vector<std::pair<std::uint64_t, Felt>> cells; // (address, value) in file order
};

MainPage mainPage(const PublicInput& input) {
    MainPage page;
    for (const PublicMemoryCell& cell : input.publicMemory) {
        if (cell.page == 0) {
            page.cells.emplace_back(cell.address, cell.value.toFelt());
        }
    }
    return page;
}

bool hasContinuousPages(const PublicInput& input) {
    for (const PublicMemoryCell& cell : input.publicMemory) {
        if (cell.page != 0) {
            return true;
        }
    }
    return false;
}

// The layout's builtin segments (all but program and execution), in the layout's order; only
// those the public input has (validatePublicInput requires them all).
std::vector<std::string> builtinSegments(const PublicInput& input) {
    std::vector<std::string> names;
    std::shared_ptr<const air::LayoutSpec> layout;
    try {
        layout = air::layoutFor(input.layout, input.dynamicParams);
    } catch (const std::runtime_error&) {
        return names;
    }
    for (const std::string& name : layout->segments) {
        if (name != "program" && name != "execution" && input.segment(name)) {
            names.push_back(name);
        }
    }
    return names;
}

// The program's builtins read from the pointers at the start of the run (one per builtin the
// program declares, each the first address of its segment, in the layout's order); nullopt when
// they do not all name a segment. Empty segments share their address with the next one (an
// undeclared output before a declared add_mod, say), so where the run's final pointers are
// public (at the end of the execution segment, as main returns them) a segment must match both.
std::optional<std::vector<std::string>>
declaredBuiltins(const PublicInput& input, const std::map<std::uint64_t, Felt>& memory,
                 std::uint64_t count) {
    std::vector<std::string> names;
    const MemorySegment& execution = *input.segment("execution");
    const std::vector<std::string> segments = builtinSegments(input);
    for (std::uint64_t i = 0; i < count; ++i) {
        const auto begin = memory.find(execution.begin + i);
        if (begin == memory.end()) {
            return std::nullopt;
        }
        const auto stop =
            execution.stop >= count ? memory.find(execution.stop - count + i) : memory.end();
        // The pointers come in the layout's order: the first segment not named yet that fits.
        std::optional<std::string> found;
        for (const std::string& name : segments) {
            const MemorySegment& segment = *input.segment(name);
            if (Felt::fromU64(segment.begin) == begin->second &&
                (stop == memory.end() || Felt::fromU64(segment.stop) == stop->second) &&
                std::find(names.begin(), names.end(), name) == names.end()) {
                found = name;
                break;
            }
        }
        if (!found) {
            return std::nullopt;
        }
        names.push_back(*found);
    }
    return names;
}

void checkStrict(const PublicInput& input, const MainPage& page, std::size_t programLength,
                 std::uint64_t outputLength) {
    const auto mode = MemoryVerification::Strict;
    const MemorySegment& program = *input.segment("program");
    const MemorySegment& execution = *input.segment("execution");
    if (program.begin != 1 || program.stop != 5) {
        reject(mode, "the program must start at address 1 and end its run at 5");
    }
    const std::vector<std::string> builtins = builtinSegments(input);
    std::size_t at = 0;
    const auto expect = [&](std::uint64_t address, const Felt& value, const std::string& what) {
        if (at >= page.cells.size() || page.cells[at].first != address ||
            page.cells[at].second != value) {
            reject(mode, what +
                             " is not where the Cairo 0 proof-mode layout puts it (main page "
                             "cell " +
                             std::to_string(at) + ")");
        }
        ++at;
    };
    const auto word = [&](std::size_t i) { return page.cells[i].second; };
    if (programLength < 6 || word(0) != *Felt::parse("0x40780017fff7fff") ||
        word(1) != Felt::fromU64(builtins.size()) ||
        word(2) != *Felt::parse("0x1104800180018000") ||
        word(4) != *Felt::parse("0x10780017fff7fff") || word(5) != Felt::zero()) {
        reject(mode, "the program does not begin with the proof-mode header for this layout's " +
                         std::to_string(builtins.size()) + " builtins");
    }
    at = programLength;
    const std::uint64_t fp = execution.begin;
    expect(fp - 2, Felt::fromU64(fp), "the return fp");
    expect(fp - 1, Felt::zero(), "the return pc");
    for (std::size_t i = 0; i < builtins.size(); ++i) {
        expect(execution.begin + i, Felt::fromU64(input.segment(builtins[i])->begin),
               "the " + builtins[i] + " pointer at the start");
    }
    for (std::size_t i = 0; i < builtins.size(); ++i) {
        expect(execution.stop - builtins.size() + i,
               Felt::fromU64(input.segment(builtins[i])->stop),
               "the " + builtins[i] + " pointer at the end");
    }
    at += outputLength;
    if (at != page.cells.size()) {
        reject(mode, "the main page has " + std::to_string(page.cells.size()) +
                         " cells, the layout accounts for " + std::to_string(at));
    }
}

} // namespace

const char* memoryVerificationName(MemoryVerification mode) {
    switch (mode) {
    case MemoryVerification::Strict:
        return "strict";
    case MemoryVerification::Relaxed:
        return "relaxed";
    case MemoryVerification::Cairo1:
        return "cairo1";
    }
    return "strict";
}

std::optional<MemoryVerification> memoryVerificationNamed(const std::string& name) {
    if (name == "strict") {
        return MemoryVerification::Strict;
    }
    if (name == "relaxed") {
        return MemoryVerification::Relaxed;
    }
    if (name == "cairo1") {
        return MemoryVerification::Cairo1;
    }
    return std::nullopt;
}

namespace {

// readStatement, with the output segment read from every page of the public memory when
// `outputFromEveryPage` (a bootloader's proof: its tasks' outputs lie in continuous pages).
Statement statementOf(const PublicInput& input, MemoryVerification mode, bool outputFromEveryPage) {
    Statement statement;
    statement.layout = input.layout;
    statement.nSteps = input.nSteps;
    statement.memoryVerification = mode;
    const MemorySegment* program = input.segment("program");
    const MemorySegment* execution = input.segment("execution");
    if (!program || !execution) {
        reject(mode, "the program or execution segment is missing");
    }
    const MemorySegment* outputSegment = input.segment("output");
    const std::uint64_t outputLength =
        outputSegment ? outputSegment->stop - outputSegment->begin : 0;
    const MainPage page = mainPage(input);
    std::map<std::uint64_t, Felt> memory;
    for (const auto& [address, value] : page.cells) {
        memory.emplace(address, value);
    }
    std::map<std::uint64_t, Felt> everyPage = memory;
    if (outputFromEveryPage) {
        for (const PublicMemoryCell& cell : input.publicMemory) {
            everyPage.emplace(cell.address, cell.value.toFelt());
        }
    }

    if (mode == MemoryVerification::Cairo1) {
        if (program->begin != 1 || hasContinuousPages(input)) {
            reject(mode, "a Cairo 1 statement has its program at address 1 and one page");
        }
        if (outputLength > page.cells.size()) {
            reject(mode, "the output is longer than the main page");
        }
        for (std::size_t i = 0; i < page.cells.size(); ++i) {
            (i + outputLength < page.cells.size() ? statement.programWords : statement.output)
                .push_back(page.cells[i].second);
        }
    } else {
        if (execution->begin < program->begin + 2) {
            reject(mode, "the execution segment does not follow the program");
        }
        if (mode == MemoryVerification::Strict && hasContinuousPages(input)) {
            reject(mode, "continuous memory pages are not part of a strict statement");
        }
        const std::uint64_t programEnd = execution->begin - 2;
        for (std::uint64_t address = program->begin; address < programEnd; ++address) {
            const auto it = memory.find(address);
            if (it == memory.end()) {
                reject(mode, "program word at address " + std::to_string(address) +
                                 " is not in the public memory");
            }
            statement.programWords.push_back(it->second);
        }
        for (std::uint64_t i = 0; i < outputLength; ++i) {
            const auto it = everyPage.find(outputSegment->begin + i);
            if (it == everyPage.end()) {
                reject(mode, "output cell at address " + std::to_string(outputSegment->begin + i) +
                                 " is not in the public memory");
            }
            statement.output.push_back(it->second);
        }
        if (mode == MemoryVerification::Strict) {
            checkStrict(input, page, statement.programWords.size(), outputLength);
        }
    }
    if (statement.programWords.empty()) {
        reject(mode, "the public memory holds no program");
    }

    Felt fold = Felt::zero();
    for (const Felt& word : statement.programWords) {
        fold = crypto::pedersenHash(fold, word);
    }
    statement.programWordsHash =
        crypto::pedersenHash(fold, Felt::fromU64(statement.programWords.size()));
    // A proof-mode program starts `ap += N_BUILTINS; call rel main`: its main is at 2 + rel.
    const auto& words = statement.programWords;
    if (mode != MemoryVerification::Cairo1 && words.size() > 3 && words[1].fitsU64() &&
        words[1].low64() <= 16) {
        statement.builtins = declaredBuiltins(input, memory, words[1].low64());
        const Felt main = Felt::fromU64(2) + words[3];
        if (statement.builtins && main.fitsU64() && main.low64() < words.size()) {
            statement.programHash = cairo::programHash(words, *statement.builtins, main.low64());
        }
    }
    statement.sharpFactHash = cairo::sharpFactHash(
        statement.programHash.value_or(statement.programWordsHash), statement.output);
    statement.integrityFactHash =
        crypto::poseidonHashMany({crypto::poseidonHashMany(statement.programWords),
                                  crypto::poseidonHashMany(statement.output)});
    return statement;
}

} // namespace

Statement readStatement(const PublicInput& input, MemoryVerification mode) {
    return statementOf(input, mode, false);
}

Statement readBootloaderStatement(const PublicInput& input) {
    return statementOf(input, MemoryVerification::Relaxed, true);
}

} // namespace proofdesk::stark
