#include "Polynomials.h"

#include "Parallel.h"

namespace proofdesk::stark {

Fp evaluatePolynomial(std::span<const Fp> coefficients, const Fp& x) {
    Fp value = Fp::zero();
    for (std::size_t i = coefficients.size(); i-- > 0;) {
        value = value * x + coefficients[i];
    }
    return value;
}

std::vector<Fp> evaluatePolynomialAt(std::span<const Fp> coefficients,
                                     const std::vector<Fp>& points) {
    std::vector<Fp> values(points.size());
    Workers::shared().forEach(points.size(), [&](std::size_t i) {
        values[i] = evaluatePolynomial(coefficients, points[i]);
    });
    return values;
}

Fp divideByLinear(std::span<const Fp> p, const Fp& a, std::span<Fp> quotient) {
    // q_{n−2} = p_{n−1}, q_{k−1} = p_k + a·q_k, remainder p_0 + a·q_0.
    Fp carry = Fp::zero();
    for (std::size_t k = p.size(); k-- > 1;) {
        carry = p[k] + a * carry;
        quotient[k - 1] = carry;
    }
    return p.empty() ? Fp::zero() : p[0] + a * carry;
}

std::vector<Fp> foldPolynomial(std::span<const Fp> coefficients, const Fp& beta) {
    std::vector<Fp> out(coefficients.size() / 2);
    Workers::shared().forRange(out.size(), 1 << 12, [&](std::size_t begin, std::size_t end) {
        for (std::size_t k = begin; k < end; ++k) {
            out[k] = (coefficients[2 * k] + beta * coefficients[2 * k + 1]).doubled();
        }
    });
    return out;
}

} // namespace proofdesk::stark
