#include "CurvePoints.h"

#include "crypto/Pedersen.h"
#include "crypto/StarkCurve.h"

#include <array>

namespace proofdesk::stark::air {

CurvePoint curvePoint(const crypto::Felt& x, const crypto::Felt& y) {
    return {Fp::fromFelt(x), Fp::fromFelt(y)};
}

CurvePoint doubled(const CurvePoint& p) {
    const auto& [x, y] = p;
    const Fp slope = (x.square() * Fp::fromU64(3) + curveAlpha()) * y.doubled().inverse();
    const Fp x2 = slope.square() - x.doubled();
    return {x2, slope * (x - x2) - y};
}

CurvePoint added(const CurvePoint& p, const CurvePoint& q) {
    const Fp slope = (p.second - q.second) * (p.first - q.first).inverse();
    const Fp x = slope.square() - p.first - q.first;
    return {x, slope * (p.first - x) - p.second};
}

std::vector<CurvePoint> doublings(CurvePoint p, std::size_t count) {
    std::vector<CurvePoint> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        out.push_back(p);
        if (i + 1 < count) {
            p = doubled(p);
        }
    }
    return out;
}

const std::vector<CurvePoint>& pedersenPoints() {
    static const std::vector<CurvePoint> points = [] {
        std::vector<CurvePoint> out;
        for (const auto& [x, y] : crypto::pedersenConstantPoints()) {
            out.push_back(curvePoint(x, y));
        }
        return out;
    }();
    return points;
}

const std::vector<CurvePoint>& pedersenUnitPoints(int input) {
    static const std::array<std::vector<CurvePoint>, 2> units = [] {
        std::array<std::vector<CurvePoint>, 2> out;
        for (std::size_t i = 0; i < 2; ++i) {
            std::vector<CurvePoint> points = doublings(pedersenPoints()[1 + 2 * i], 248);
            const std::vector<CurvePoint> high = doublings(pedersenPoints()[2 + 2 * i], 4);
            points.insert(points.end(), high.begin(), high.end());
            while (points.size() < 256) {
                points.push_back(points.back());
            }
            out[i] = std::move(points);
        }
        return out;
    }();
    return units[std::size_t(input)];
}

std::vector<CurvePoint> generatorUnitPoints(std::uint64_t bits, std::uint64_t height) {
    std::vector<CurvePoint> points = doublings(ecdsaGenerator(), bits);
    while (points.size() < height) {
        points.push_back(points.back());
    }
    return points;
}

const Fp& curveAlpha() {
    return Fp::one();
}

const Fp& curveBeta() {
    static const Fp value = Fp::fromFelt(crypto::stark::beta());
    return value;
}

CurvePoint ecdsaGenerator() {
    const auto& g = crypto::stark::generator();
    return curvePoint(g.xFelt(), g.yFelt());
}

} // namespace proofdesk::stark::air
