#include "air/AirBuilder.h"

#include "crypto/Poseidon.h"

// The Poseidon builtin: the Hades permutation on 3 elements (8 full rounds around 83 partial
// ones, S-box x³, MDS [[3,1,1],[1,−1,1],[1,1,−2]]). Full rounds keep the whole state (after its
// round key) and its squares. A partial round only cubes the last element, so the trace keeps
// just that element's S-box input x_k; the other two are linear in the last three x's and cubes,
// which turns the rounds into the recurrence
//   x_{k+3} = 2·x_{k+2} + 4·x_{k+1} + 8·y_k + 6·y_{k+1} − 2·y_{k+2} + key_k     (y = x³)
// whose keys, and the constants that join the full rounds to the partial ones and back, follow
// from the round constants (derived below). The partial rounds are split over two columns, the
// second starting with a copy of the first's last three.

namespace proofdesk::stark::air {
namespace {

struct PoseidonConstants {
    std::vector<std::array<Fp, 3>> ark; // per round
    std::vector<Fp> recurrenceKeys;     // key_k, k = 0 … 79
    std::array<Fp, 3> intoPartial{};    // the constants of x_0, x_1, x_2 from full round 3
    std::array<Fp, 3> outOfPartial{};   // the constants of full round 4's state
};

PoseidonConstants poseidonConstants(int fullRounds, int partialRounds) {
    PoseidonConstants c;
    for (const auto& round : crypto::poseidonRoundConstants()) {
        c.ark.push_back({Fp::fromFelt(round[0]), Fp::fromFelt(round[1]), Fp::fromFelt(round[2])});
    }
    const int first = fullRounds / 2;
    const auto r0 = [&](int j) { return c.ark[std::size_t(first + j)][0]; };
    const auto r2 = [&](int j) { return c.ark[std::size_t(first + j)][2]; };
    const auto s = [&](int j) { return r0(j) + c.ark[std::size_t(first + j)][1]; };
    const Fp two = Fp::fromU64(2), four = Fp::fromU64(4);
    // With A, B the first two elements after their round key and u = A + B:
    //   x_{k+1} = u_k − 2y_k + r2_{k+1},  u_{k+1} = 4A_k + 2y_k + s_{k+1},
    //   A_{k+1} = 2A_k + u_k + y_k + r0_{k+1}.
    for (int k = 0; k + 3 < partialRounds; ++k) {
        c.recurrenceKeys.push_back(r2(k + 3) - two * r2(k + 2) - four * r2(k + 1) +
                                   four * r0(k + 1) - two * s(k + 1) + s(k + 2));
    }
    c.intoPartial[0] = r2(0);
    c.intoPartial[1] = s(0) - four * r2(0) + r2(1);
    c.intoPartial[2] =
        four * r0(0) + s(1) + r2(2) - Fp::fromU64(12) * r2(0) - two * c.intoPartial[1];
    const int last = partialRounds - 1;
    const Fp lastU =
        four * r0(last - 1) - two * s(last - 1) + s(last) - two * r2(last) - four * r2(last - 1);
    const std::array<Fp, 3>& next = c.ark[std::size_t(first + partialRounds)];
    c.outOfPartial[0] = two * lastU - two * r2(last) + two * r0(last) - s(last) + next[0];
    c.outOfPartial[1] = two * r0(last) - two * r2(last) - s(last) + next[1];
    c.outOfPartial[2] = lastU + next[2];
    return c;
}

// The periodic round keys: the key of the next full round (none at the end of a half), and the
// recurrence keys of each partial column (zero past its last use).
struct RoundKeys {
    std::array<Expr, 3> full;
    Expr partial0;
    Expr partial1;
};
// The partial-round columns' lengths: the first column's, the rows of the second in use, and the
// second's capacity.
struct PartialSizes {
    std::int64_t size0;
    std::int64_t size1;
    std::int64_t capacity1;
};
RoundKeys roundKeys(AirBuilder& b, const std::string& p, int fullRounds, int partialRounds,
                    const PartialSizes& sizes, const PoseidonConstants& constants) {
    RoundKeys out;
    for (std::size_t j = 0; j < 3; ++j) {
        std::vector<Fp> keys(std::size_t(fullRounds), Fp::zero());
        for (int r = 0; r < fullRounds; ++r) {
            if (r % (fullRounds / 2) == fullRounds / 2 - 1) {
                continue;
            }
            const int global = r < fullRounds / 2 ? r + 1 : r + 1 + partialRounds;
            keys[std::size_t(r)] = constants.ark[std::size_t(global)][j];
        }
        const std::string name = p + "full_round_key" + std::to_string(j);
        out.full[j] = b.periodic(b.addPeriodic({name, keys, b.layout().periodic.at(name).step}));
    }
    std::vector<Fp> keys0(std::size_t(sizes.size0), Fp::zero()),
        keys1(std::size_t(sizes.capacity1), Fp::zero());
    for (std::int64_t k = 0; k + 3 < sizes.size0; ++k) {
        keys0[std::size_t(k)] = constants.recurrenceKeys[std::size_t(k)];
    }
    for (std::int64_t i = 0; i + 3 < sizes.size1; ++i) {
        keys1[std::size_t(i)] = constants.recurrenceKeys[std::size_t(sizes.size0 - 3 + i)];
    }
    out.partial0 = b.periodic(b.addPeriodic(
        {p + "partial_round_key0", keys0, b.layout().periodic.at(p + "partial_round_key0").step}));
    out.partial1 = b.periodic(b.addPeriodic(
        {p + "partial_round_key1", keys1, b.layout().periodic.at(p + "partial_round_key1").step}));
    return out;
}

// One row of the MDS matrix, as an equality: next = 3c0 + c1 + c2, c0 − c1 + c2 or c0 + c1 − 2c2,
// plus the round key.
Expr mdsRow(int j, const std::array<Expr, 3>& c, const Expr& next, const Expr& key) {
    switch (j) {
    case 0:
        return next - (c[0] * 3 + c[1] + c[2] + key);
    case 1:
        return next + c[1] - (c[0] + c[2] + key);
    default:
        return next + c[2] * 2 - (c[0] + c[1] + key);
    }
}

// The rows of each instance where a column of this step is past its use: k·step for k in
// [from, to).
Domain unusedRows(AirBuilder& b, std::uint64_t instance, std::uint64_t step, std::int64_t from,
                  std::int64_t to) {
    Domain domain;
    for (std::int64_t k = from; k < to; ++k) {
        domain.push_back(b.rows(instance, std::uint64_t(k) * step));
    }
    return domain;
}

// A cell of the j-th input/output column (its address or its value), `index` instances on.
Expr inputOutput(AirBuilder& b, int j, const char* what, std::int64_t index) {
    return b.at("poseidon/param_" + std::to_string(j) + "/input_output/" + what, index);
}

// The input/output columns' addresses: the first at initial_poseidon_addr (+ j), each next
// instance's three cells on.
void addInputOutputAddresses(AirBuilder& b, std::uint64_t io) {
    for (int j = 0; j < 3; ++j) {
        const std::string param = "poseidon/param_" + std::to_string(j);
        b.constraint(param + "/init_input_output_addr",
                     inputOutput(b, j, "addr", 0) - (b.value("initial_poseidon_addr") + j), {},
                     {b.row(0)});
        b.constraint(param + "/addr_input_output_step",
                     inputOutput(b, j, "addr", 1) - (inputOutput(b, j, "addr", 0) + 3),
                     {b.row(-std::int64_t(io))}, {b.rows(io)});
    }
}

} // namespace

void addPoseidon(AirBuilder& b) {
    const BuiltinSpec& spec = *b.layout().builtin("poseidon");
    const int fullRounds = int(spec.parameter("rounds_full"));
    const int partialRounds = int(spec.parameter("rounds_partial"));
    const std::string p = "poseidon/poseidon/";
    const std::uint64_t io = b.step("poseidon/param_0/input_output/addr");
    const std::uint64_t instance = 2 * io;
    const std::uint64_t fullStep = b.step(p + "full_rounds_state0");
    const std::uint64_t step0 = b.step(p + "partial_rounds_state0");
    const std::uint64_t step1 = b.step(p + "partial_rounds_state1");
    const std::int64_t size0 = std::int64_t(instance / step0); // all of the first column
    const std::int64_t size1 = partialRounds - size0 + 3;      // the rest, after 3 copied
    const std::int64_t capacity1 = std::int64_t(instance / step1);
    const PoseidonConstants constants = poseidonConstants(fullRounds, partialRounds);
    const Domain perInstance = {b.rows(instance)};

    const RoundKeys keys =
        roundKeys(b, p, fullRounds, partialRounds, {size0, size1, capacity1}, constants);
    const std::array<Expr, 3>& fullKey = keys.full;
    const Expr& partialKey0 = keys.partial0;
    const Expr& partialKey1 = keys.partial1;

    addInputOutputAddresses(b, io);

    const auto full = [&](int j, std::int64_t round) {
        return b.at(p + "full_rounds_state" + std::to_string(j), round);
    };
    const auto fullCube = [&](int j, std::int64_t round) {
        return full(j, round) *
               b.at(p + "full_rounds_state" + std::to_string(j) + "_squared", round);
    };
    const auto x0 = [&](std::int64_t k) { return b.at(p + "partial_rounds_state0", k); };
    const auto x1 = [&](std::int64_t k) { return b.at(p + "partial_rounds_state1", k); };
    const auto y0 = [&](std::int64_t k) {
        return x0(k) * b.at(p + "partial_rounds_state0_squared", k);
    };
    const auto y1 = [&](std::int64_t k) {
        return x1(k) * b.at(p + "partial_rounds_state1_squared", k);
    };

    for (int j = 0; j < 3; ++j) {
        const std::string n = std::to_string(j);
        b.constraint(p + "full_rounds_state" + n + "_squaring",
                     full(j, 0) * full(j, 0) - b.at(p + "full_rounds_state" + n + "_squared"), {},
                     {b.rows(fullStep)});
    }
    b.constraint(p + "partial_rounds_state0_squaring",
                 x0(0) * x0(0) - b.at(p + "partial_rounds_state0_squared"), {}, {b.rows(step0)});
    b.constraint(p + "partial_rounds_state1_squaring",
                 x1(0) * x1(0) - b.at(p + "partial_rounds_state1_squared"),
                 unusedRows(b, instance, step1, size1, capacity1), {b.rows(step1)});

    for (int j = 0; j < 3; ++j) {
        b.constraint(p + "add_first_round_key" + std::to_string(j),
                     inputOutput(b, j, "value", 0) + b.constant(constants.ark[0][std::size_t(j)]) -
                         full(j, 0),
                     {}, perInstance);
    }
    const std::array<Expr, 3> cubes = {fullCube(0, 0), fullCube(1, 0), fullCube(2, 0)};
    const Domain notLastOfHalf = {
        b.rows(instance / 2, std::uint64_t(fullRounds / 2 - 1) * fullStep)};
    for (int j = 0; j < 3; ++j) {
        b.constraint(p + "full_round" + std::to_string(j),
                     mdsRow(j, cubes, full(j, 1), fullKey[std::size_t(j)]), notLastOfHalf,
                     {b.rows(fullStep)});
    }
    const std::int64_t lastFull = fullRounds - 1;
    const std::array<Expr, 3> lastCubes = {fullCube(0, lastFull), fullCube(1, lastFull),
                                           fullCube(2, lastFull)};
    for (int j = 0; j < 3; ++j) {
        b.constraint(p + "last_full_round" + std::to_string(j),
                     mdsRow(j, lastCubes, inputOutput(b, j, "value", 1), b.constant(0)), {},
                     perInstance);
    }
    for (int m = 0; m < 3; ++m) {
        b.constraint(p + "copy_partial_rounds0_i" + std::to_string(m), x0(size0 - 3 + m) - x1(m),
                     {}, perInstance);
    }

    const std::int64_t half = fullRounds / 2;
    const Expr c0 = fullCube(0, half - 1), c1 = fullCube(1, half - 1), c2 = fullCube(2, half - 1);
    const auto& into = constants.intoPartial;
    b.constraint(p + "margin_full_to_partial0", x0(0) + c2 * 2 - (c0 + c1 + b.constant(into[0])),
                 {}, perInstance);
    b.constraint(p + "margin_full_to_partial1",
                 x0(1) - (c1 * (-4) + c2 * 10 + x0(0) * 4 - y0(0) * 2 + b.constant(into[1])), {},
                 perInstance);
    b.constraint(p + "margin_full_to_partial2",
                 x0(2) -
                     (c2 * 8 + x0(0) * 4 + y0(0) * 6 + x0(1) * 2 - y0(1) * 2 + b.constant(into[2])),
                 {}, perInstance);

    const auto recurrence = [&](auto x, auto y, const Expr& key) {
        return x(3) - (y(0) * 8 + x(1) * 4 + y(1) * 6 + x(2) * 2 - y(2) * 2 + key);
    };
    b.constraint(p + "partial_round0", recurrence(x0, y0, partialKey0),
                 unusedRows(b, instance, step0, size0 - 3, size0), {b.rows(step0)});
    b.constraint(p + "partial_round1", recurrence(x1, y1, partialKey1),
                 unusedRows(b, instance, step1, size1 - 3, capacity1), {b.rows(step1)});

    const std::int64_t k = size1 - 1;
    const auto& out = constants.outOfPartial;
    b.constraint(p + "margin_partial_to_full0",
                 full(0, half) - (y1(k - 2) * 16 + x1(k - 1) * 8 + y1(k - 1) * 16 + x1(k) * 6 +
                                  y1(k) + b.constant(out[0])),
                 {}, perInstance);
    b.constraint(p + "margin_partial_to_full1",
                 full(1, half) - (y1(k - 1) * 4 + x1(k) * 2 + y1(k) + b.constant(out[1])), {},
                 perInstance);
    b.constraint(p + "margin_partial_to_full2",
                 full(2, half) - (y1(k - 2) * 8 + x1(k - 1) * 4 + y1(k - 1) * 6 + x1(k) * 2 -
                                  y1(k) * 2 + b.constant(out[2])),
                 {}, perInstance);
}

} // namespace proofdesk::stark::air
