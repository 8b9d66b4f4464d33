#include "air/AirBuilder.h"

// The add_mod and mul_mod builtins (batch size 1, four 96-bit words per number). An instance
// reads p (the modulus, four words), values_ptr, offsets_ptr and n from consecutive memory
// cells; the three offsets at offsets_ptr name where a, b and c sit after values_ptr. With
// z the builtin's interaction element and X(z) = x0 + x1·z + x2·z² + x3·z³ for a number's
// words, the identity
//   add_mod: A(z) + B(z) + carries(z)·(z − 2^96) = C(z) + sub_p·P(z)
//   mul_mod: A(z)·B(z) + carries(z)·(z − 2^96) = C(z) + P(z)·K(z)
// holding at a random z says a + b = c (mod p), resp. a·b = c (mod p), word by word with
// carries: add_mod's carries are bits with a sign (±1), mul_mod's and its multiple K of p are
// built from range-checked 16-bit parts, the carries shifted by 2^98 to stay non-negative.
// While n > 1, the next instance continues the same batch: p and values_ptr repeat,
// offsets_ptr advances by 3 and n drops by one.

namespace proofdesk::stark::air {
namespace {

// ((x1 + (x2 + x3·z)·z)·z + x0), the number's words at the point z.
Expr words(AirBuilder& b, const std::string& name, const Expr& z) {
    const auto word = [&](int k) { return b.at(name + std::to_string(k) + "/value"); };
    return (word(1) + (word(2) + word(3) * z) * z) * z + word(0);
}

// A range-checked number of `parts` 16-bit parts: Σ 2^(16i)·part_i.
Expr parts(AirBuilder& b, const std::string& name, int count) {
    Expr sum = b.at(name + "/part0");
    for (int i = 1; i < count; ++i) {
        sum = sum + b.powerOfTwo(16 * i) * b.at(name + "/part" + std::to_string(i));
    }
    return sum;
}

// The constraints both builtins share: the memory layout of an instance and of a batch.
void addInstanceMemory(AirBuilder& b, const std::string& builtin) {
    const std::string p = builtin + "/";
    const std::uint64_t step = b.step(p + "p0/addr");
    const Domain each = {b.rows(step)};
    const Domain notLast = {b.row(-std::int64_t(step))};
    const auto addr = [&](const std::string& cell, int instance = 0) {
        return b.at(p + cell + "/addr", instance);
    };
    const auto value = [&](const std::string& cell, int instance = 0) {
        return b.at(p + cell + "/value", instance);
    };
    b.constraint(p + "init_p0_address", addr("p0") - b.value("initial_" + builtin + "_addr"), {},
                 {b.row(0)});
    const std::vector<std::string> header = {"p0",         "p1",          "p2", "p3",
                                             "values_ptr", "offsets_ptr", "n"};
    for (std::size_t i = 1; i < header.size(); ++i) {
        b.constraint(p + "step_" + header[i] + "_addr", addr(header[i]) - (addr(header[i - 1]) + 1),
                     {}, each);
    }
    b.constraint(p + "step_p0_addr", addr("p0", 1) - (addr("n") + 1), notLast, each);
    const Expr moreInBatch = value("n") - 1;
    for (const char* same : {"p0", "p1", "p2", "p3", "values_ptr"}) {
        b.constraint(p + "step_" + same + "_value", (value(same, 1) - value(same)) * moreInBatch,
                     notLast, each);
    }
    b.constraint(p + "step_offsets_ptr_value",
                 (value("offsets_ptr", 1) - (value("offsets_ptr") + 3)) * moreInBatch, notLast,
                 each);
    b.constraint(p + "step_n_value", (value("n", 1) + 1 - value("n")) * moreInBatch, notLast, each);
    b.constraint(p + "a_offset0", addr("a_offset") - value("offsets_ptr"), {}, each);
    b.constraint(p + "b_offset", addr("b_offset") - (addr("a_offset") + 1), {}, each);
    b.constraint(p + "c_offset", addr("c_offset") - (addr("b_offset") + 1), {}, each);
    for (const char* number : {"a", "b", "c"}) {
        const std::string first = std::string(number) + "0";
        b.constraint(p + first + "_value_ind0",
                     addr(first) - (value(std::string(number) + "_offset") + value("values_ptr")),
                     {}, each);
        for (int k = 1; k < 4; ++k) {
            const std::string word = std::string(number) + std::to_string(k);
            b.constraint(p + word + "_value",
                         addr(word) - (addr(std::string(number) + std::to_string(k - 1)) + 1), {},
                         each);
        }
    }
}

void addAddMod(AirBuilder& b) {
    addInstanceMemory(b, "add_mod");
    const Domain each = {b.rows(b.step("add_mod/p0/addr"))};
    const auto cell = [&](const std::string& name) { return b.at("add_mod/" + name); };
    const Expr subP = cell("sub_p_bit");
    b.constraint("add_mod/sub_p_bit", subP * (subP - 1), {}, each);
    for (int k = 1; k <= 3; ++k) {
        const Expr bit = cell("carry" + std::to_string(k) + "_bit");
        const Expr sign = cell("carry" + std::to_string(k) + "_sign");
        b.constraint("add_mod/carry" + std::to_string(k) + "_bit", bit * (bit - 1), {}, each);
        b.constraint("add_mod/carry" + std::to_string(k) + "_sign", sign * sign - 1, {}, each);
    }
    const Expr z = b.value("add_mod/z");
    const auto carry = [&](int k) {
        return cell("carry" + std::to_string(k) + "_bit") *
               cell("carry" + std::to_string(k) + "_sign");
    };
    const Expr carries = (carry(2) + carry(3) * z) * z + carry(1);
    b.constraint("add_mod/addition_constraint_0",
                 words(b, "add_mod/a", z) + words(b, "add_mod/b", z) +
                     carries * (z - b.powerOfTwo(96)) -
                     (words(b, "add_mod/c", z) + words(b, "add_mod/p", z) * subP),
                 {}, each);
}

void addMulMod(AirBuilder& b) {
    addInstanceMemory(b, "mul_mod");
    const Domain each = {b.rows(b.step("mul_mod/p0/addr"))};
    const Expr z = b.value("mul_mod/z");
    const Expr shift = b.powerOfTwo(98);
    Expr carries = parts(b, "mul_mod/carry5", 7) - shift;
    for (int k = 4; k >= 0; --k) {
        carries = carries * z + (parts(b, "mul_mod/carry" + std::to_string(k), 7) - shift);
    }
    const auto multiplier = [&](int k) {
        return parts(b, "mul_mod/p_multiplier" + std::to_string(k), 6);
    };
    const Expr pMultiplier =
        (multiplier(1) + (multiplier(2) + multiplier(3) * z) * z) * z + multiplier(0);
    b.constraint("mul_mod/multiplication_constraint_0",
                 words(b, "mul_mod/a", z) * words(b, "mul_mod/b", z) +
                     carries * (z - b.powerOfTwo(96)) -
                     (words(b, "mul_mod/c", z) + words(b, "mul_mod/p", z) * pMultiplier),
                 {}, each);
}

} // namespace

void addModBuiltin(AirBuilder& b, const std::string& name) {
    if (name == "add_mod") {
        addAddMod(b);
    } else {
        addMulMod(b);
    }
}

} // namespace proofdesk::stark::air
