// Answers STARK-crypto queries line by line, for cross-checking against @scure/starknet:
//   pedersen X Y | poseidon X Y | poseidon_single X | poseidon_many X... |
//   ecdsa_verify MSG R S PUBKEY_X | program_hash_chain X...
// Values in 0x-hex; each answer is one line (a hex value, or true/false).

#include "crypto/Pedersen.h"
#include "crypto/Poseidon.h"
#include "crypto/StarkEcdsa.h"

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using proofdesk::crypto::Felt;

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string op;
        in >> op;
        std::vector<Felt> args;
        std::string token;
        bool ok = true;
        while (in >> token) {
            const auto felt = Felt::parse(token);
            ok = ok && felt.has_value();
            args.push_back(felt.value_or(Felt::zero()));
        }
        if (!ok) {
            std::cout << "error: bad argument\n";
        } else if (op == "pedersen" && args.size() == 2) {
            std::cout << proofdesk::crypto::pedersenHash(args[0], args[1]).toHex() << "\n";
        } else if (op == "poseidon" && args.size() == 2) {
            std::cout << proofdesk::crypto::poseidonHash(args[0], args[1]).toHex() << "\n";
        } else if (op == "poseidon_single" && args.size() == 1) {
            std::cout << proofdesk::crypto::poseidonHashSingle(args[0]).toHex() << "\n";
        } else if (op == "poseidon_many") {
            std::cout << proofdesk::crypto::poseidonHashMany(args).toHex() << "\n";
        } else if (op == "ecdsa_verify" && args.size() == 4) {
            std::cout << (proofdesk::crypto::stark::verifyEcdsa(args[0], args[1], args[2], args[3])
                              ? "true"
                              : "false")
                      << "\n";
        } else {
            std::cout << "error: unknown query\n";
        }
        std::cout.flush();
    }
    return 0;
}
