#include "Rejection.h"

namespace proofdesk::stark {

const char* stageName(Stage stage) {
    switch (stage) {
    case Stage::Parameters:
        return "parameters";
    case Stage::PublicInput:
        return "public input";
    case Stage::Transcript:
        return "proof transcript";
    case Stage::OutOfDomain:
        return "out-of-domain check";
    case Stage::ProofOfWork:
        return "proof of work";
    case Stage::Decommitment:
        return "trace decommitment";
    case Stage::Fri:
        return "FRI";
    }
    return "unknown";
}

std::string withThousands(std::uint64_t value) {
    const std::string digits = std::to_string(value);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) {
            out.push_back(',');
        }
        out.push_back(digits[i]);
    }
    return out;
}

} // namespace proofdesk::stark
