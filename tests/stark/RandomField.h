#pragma once

// Random elements and polynomials of the STARK field for the prover's tests.

#include "crypto/Felt.h"
#include "stark/field/Fp.h"

#include <QRandomGenerator>

#include <vector>

namespace proofdesk::stark::random_field {

inline Fp randomFp(QRandomGenerator& random) {
    const crypto::Felt::Limbs limbs{random.generate64(), random.generate64(), random.generate64(),
                                    random.generate64() & 0x07ffffffffffffffULL};
    return Fp::fromFelt(crypto::Felt::fromLimbsReduced(limbs));
}

inline std::vector<Fp> randomPolynomial(QRandomGenerator& random, std::size_t size) {
    std::vector<Fp> out(size);
    for (Fp& c : out) {
        c = randomFp(random);
    }
    return out;
}

} // namespace proofdesk::stark::random_field
