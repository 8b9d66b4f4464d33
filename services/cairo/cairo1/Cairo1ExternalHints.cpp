// The hints of an executable's wrapper (cairo-lang's External hints): the run's arguments, the
// marks of its result (its panic data, when it panics), relocating dictionaries into the segment
// arena, traces; and the Blake2s compression older compilers emitted as a hint.

#include "cairo/cairo1/Cairo1Hints.h"

#include "crypto/Blake2s.h"

namespace proofdesk::cairo::cairo1 {
namespace {

// WriteRunParam {index: 0}: the executable's input as one array: [dst] = start, [dst + 1] = end
// of a new segment holding the argument felts.
HintFn writeRunParam(const nlohmann::json& f) {
    const ResOperand index = resOperandOf(f.at("index"));
    const CellRef dst = cellRefOf(f.at("dst"));
    return [=](HintContext& c) {
        if (!c.value(index).isZero()) {
            c.fail("WriteRunParam asks for a parameter other than the input (index 0)");
        }
        const Relocatable start = c.memory().addSegment();
        const std::vector<Felt>& arguments = c.state().io->arguments;
        for (std::size_t i = 0; i < arguments.size(); ++i) {
            c.write(start + static_cast<std::int64_t>(i), arguments[i]);
        }
        const Relocatable at = c.address(dst);
        c.write(at, start);
        c.write(at + 1, start + static_cast<std::int64_t>(arguments.size()));
    };
}

HintFn addMarker(const nlohmann::json& f) {
    const ResOperand start = resOperandOf(f.at("start"));
    const ResOperand end = resOperandOf(f.at("end"));
    return [=](HintContext& c) {
        const Relocatable from = c.pointer(start);
        const Relocatable to = c.pointer(end);
        if (from.segment != to.segment || to.offset < from.offset ||
            to.offset - from.offset > (std::uint64_t{1} << 24)) {
            c.fail("AddMarker's range does not lie in one segment");
        }
        std::vector<Felt> marked;
        for (Relocatable at = from; at.offset < to.offset; at = at + 1) {
            marked.push_back(c.feltAt(at));
        }
        c.state().io->markers.push_back(std::move(marked));
        c.state().io->lastMarkerPc = c.vm().pc;
    };
}

HintFn addRelocationRule(const nlohmann::json& f) {
    const ResOperand source = resOperandOf(f.at("src"));
    const ResOperand destination = resOperandOf(f.at("dst"));
    return [=](HintContext& c) {
        c.memory().addRelocationRule(c.pointer(source), c.pointer(destination));
    };
}

// The old wrappers' SetMarker (compilers up to 2.10) and AddTrace (the trace libfunc's
// backtrace on a panic): for a person debugging, nothing the run depends on.
HintFn ignored(const nlohmann::json&) {
    return [](HintContext&) {};
}

// Blake2sCompress (compilers 2.11.x; later ones emit the Blake opcode): h' of a 16-word block,
// written at [output .. output + 8).
HintFn blake2sCompress(const nlohmann::json& f) {
    const ResOperand state = resOperandOf(f.at("state"));
    const ResOperand byteCount = resOperandOf(f.at("byte_count"));
    const ResOperand message = resOperandOf(f.at("message"));
    const ResOperand output = resOperandOf(f.at("output"));
    const std::optional<ResOperand> finalize =
        f.contains("finalize") ? std::optional(resOperandOf(f.at("finalize"))) : std::nullopt;
    return [=](HintContext& c) {
        const auto word = [&c](const Relocatable& at) {
            const Felt value = c.feltAt(at);
            if (!value.fitsU64() || value.low64() >> 32) {
                c.fail("a Blake2s word at " + at.toString() + " is not below 2^32");
            }
            return static_cast<std::uint32_t>(value.low64());
        };
        const Relocatable h = c.pointer(state);
        const Relocatable m = c.pointer(message);
        std::array<std::uint32_t, 8> words{};
        std::array<std::uint32_t, 16> block{};
        for (int i = 0; i < 8; ++i) {
            words[std::size_t(i)] = word(h + i);
        }
        for (int i = 0; i < 16; ++i) {
            block[std::size_t(i)] = word(m + i);
        }
        const Felt count = c.value(byteCount);
        if (!count.fitsU64() || count.low64() >> 32) {
            c.fail("Blake2s's byte count is not below 2^32");
        }
        const bool last = finalize && c.value(*finalize) == Felt::one();
        const auto result = crypto::blake2sCompress(
            words, block, static_cast<std::uint32_t>(count.low64()), 0, last ? 0xffffffffU : 0U, 0);
        const Relocatable out = c.pointer(output);
        for (int i = 0; i < 8; ++i) {
            c.write(out + i, Felt::fromU64(result[std::size_t(i)]));
        }
    };
}

} // namespace

void addExternalHints(HintTable& table) {
    table["WriteRunParam"] = writeRunParam;
    table["AddMarker"] = addMarker;
    table["AddRelocationRule"] = addRelocationRule;
    table["AddTrace"] = ignored;
    table["SetMarker"] = ignored;
    table["Blake2sCompress"] = blake2sCompress;
}

} // namespace proofdesk::cairo::cairo1
