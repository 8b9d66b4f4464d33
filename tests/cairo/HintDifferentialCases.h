#pragma once

// The hand-written cases of the native-vs-Python hint tests: one per hint family, with the state
// each reads (arrays behind pointers included) and the scope variables it leaves.

#include "HintDifferential.h"

namespace proofdesk::test::differential {

// A pointer to `count` drawn values in a new segment (count may exceed what is written).
inline void putArray(Fixture& f, StateGenerator& random, const std::string& name,
                     std::uint64_t count, Draw kind) {
    const Relocatable start = f.memory.addSegment();
    for (std::uint64_t i = 0; i < count; ++i) {
        f.memory.set(start + static_cast<std::int64_t>(i), random.draw(kind).toFelt());
    }
    f.set(name, start);
}

// The cases of the 256-bit integers' hints (and the felt add carry).
inline std::vector<HintCase> wideIntegerCases() {
    const std::string shift = BigInt::powerOfTwo(128).toDecimal();
    return {
        {"uint256_mul_div_mod",
         nativeHint({"quotient_high.high = quotient >> 384"}),
         {"a", "b", "div", "quotient_low", "quotient_high", "remainder"},
         {{"a", "Uint256"},
          {"b", "Uint256"},
          {"div", "Uint256"},
          {"quotient_low", "Uint256"},
          {"quotient_high", "Uint256"},
          {"remainder", "Uint256"}},
         {},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint256 div by (b01, b23)",
         nativeHint({"div = (ids.div.b23 << 128) + ids.div.b01"}),
         {"a", "div", "quotient", "remainder"},
         {{"a", "Uint256"},
          {"div", "Uint256Halves"},
          {"quotient", "Uint256"},
          {"remainder", "Uint256"}},
         {},
         {{"a", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint256_unsigned_div_rem",
         nativeHint(
             {"div = (ids.div.high << 128) + ids.div.low\nquotient, remainder = divmod(a, div)"}),
         {"a", "div", "quotient", "remainder"},
         {{"a", "Uint256"}, {"div", "Uint256"}, {"quotient", "Uint256"}, {"remainder", "Uint256"}},
         {},
         {{"a", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint256 sub",
         nativeHint({"res = (a - b)%2**256"}),
         {"a", "b", "res"},
         {{"a", "Uint256"}, {"b", "Uint256"}, {"res", "Uint256"}},
         {},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}}},
        {"uint256 add carries",
         nativeHint({"sum_high = ids.a.high + ids.b.high + ids.carry_low"}),
         {"a", "b", "carry_low", "carry_high"},
         {{"a", "Uint256"}, {"b", "Uint256"}},
         {{"SHIFT", shift}},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}}},
        {"felt add carry",
         nativeHint({"res = ids.a + ids.b\nids.carry = 1 if res >= ids.SHIFT else 0"}),
         {"a", "b", "carry"},
         {},
         {{"SHIFT", shift}},
         {{"a", Draw::Felt}, {"b", Draw::Felt}}},
        {"uint256 sqrt",
         nativeHint({"n = (ids.n.high << 128) + ids.n.low", "ids.root.low = root"}),
         {"n", "root"},
         {{"n", "Uint256"}, {"root", "Uint256"}},
         {},
         {{"n", Draw::Limb128}}},
        {"uint256 high limb below 2^127",
         nativeHint({"memory[ap] = 1 if 0 <= (ids.a.high % PRIME) < 2 ** 127 else 0"}),
         {"a"},
         {{"a", "Uint256"}},
         {},
         {{"a", Draw::Felt}}},
        {"uint256 inverse mod p",
         nativeHint({"b_inverse_mod_p_split = split(b_inverse_mod_p)\n"}),
         {"a", "b", "p", "b_inverse_mod_p"},
         {{"a", "Uint256"}, {"b", "Uint256"}, {"p", "Uint256"}, {"b_inverse_mod_p", "Uint256"}},
         {},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}, {"p", Draw::Limb128}}},
        {"uint256 sqrt or generator sqrt",
         nativeHint({"ids.sqrt_gx.high = split_root_gx[1]"}),
         {"generator", "x", "p", "sqrt_x", "sqrt_gx", "success_x", "success_gx"},
         {{"generator", "Uint256"},
          {"x", "Uint256"},
          {"p", "Uint256"},
          {"sqrt_x", "Uint256"},
          {"sqrt_gx", "Uint256"}},
         {},
         {{"generator", Draw::Limb128}, {"x", Draw::Limb128}, {"p", Draw::Prime}},
         {},
         {},
         {},
         kStatesPerHint / 8},
        {"ed25519 sqrt of a uint256",
         nativeHint({"II = pow(2, (PRIME - 1) // 4, PRIME)"}),
         {"xx", "x"},
         {{"xx", "Uint256"}, {"x", "Uint256"}},
         {},
         {{"xx", Draw::Limb128}}}};
}

// The cases of the wider integers' hints (uint384, uint512, uint768).
inline std::vector<HintCase> widerIntegerCases() {
    const std::string shift = BigInt::powerOfTwo(128).toDecimal();
    return {
        {"uint512 inverse mod p",
         nativeHint({"x_inverse_mod_p = pow(x,-1, p)"}),
         {"x", "p", "x_inverse_mod_p"},
         {{"x", "Uint512"}, {"p", "Uint256"}, {"x_inverse_mod_p", "Uint256"}},
         {},
         {{"x", Draw::Limb128}, {"p", Draw::Limb128}}},
        {"uint512 div by uint256",
         nativeHint({"x = pack_extended(ids.x, num_bits_shift = 128)"}),
         {"x", "div", "quotient", "remainder"},
         {{"x", "Uint512"}, {"div", "Uint256"}, {"quotient", "Uint512"}, {"remainder", "Uint256"}},
         {},
         {{"x", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint384 sub mod p",
         nativeHint({"res = (a - b) % p"}),
         {"a", "b", "p", "res"},
         {{"a", "Uint384"}, {"b", "Uint384"}, {"p", "Uint384"}, {"res", "Uint384"}},
         {},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}, {"p", Draw::Limb128}}},
        {"uint384 unsigned_div_rem",
         nativeHint({"quotient_split = split(quotient, num_bits_shift=128, length=3)"}),
         {"a", "div", "quotient", "remainder"},
         {{"a", "Uint384"}, {"div", "Uint384"}, {"quotient", "Uint384"}, {"remainder", "Uint384"}},
         {},
         {{"a", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint768 div by uint384",
         nativeHint({"pack_extended(ids.a", "num_bits_shift\n    return tuple(a)"}),
         {"a", "div", "quotient", "remainder"},
         {{"a", "Uint768"}, {"div", "Uint384"}, {"quotient", "Uint768"}, {"remainder", "Uint384"}},
         {},
         {{"a", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint768 div by uint384 (spaced text)",
         nativeHint({"pack_extended(ids.a", "num_bits_shift \n    return tuple(a)"}),
         {"a", "div", "quotient", "remainder"},
         {{"a", "Uint768"}, {"div", "Uint384"}, {"quotient", "Uint768"}, {"remainder", "Uint384"}},
         {},
         {{"a", Draw::Limb128}, {"div", Draw::Limb128}}},
        {"uint384 inverse mod p",
         nativeHint({"ids.b_inverse_mod_p.d2 = b_inverse_mod_p_split[2]"}),
         {"a", "b", "p", "b_inverse_mod_p"},
         {{"a", "Uint384"}, {"b", "Uint384"}, {"p", "Uint384"}, {"b_inverse_mod_p", "Uint384"}},
         {},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}, {"p", Draw::Limb128}}},
        {"uint384 sqrt or generator sqrt",
         nativeHint({"ids.sqrt_gx.d2 = split_root_gx[2]"}),
         {"generator", "x", "p", "sqrt_x", "sqrt_gx", "success_x", "success_gx"},
         {{"generator", "Uint384"},
          {"x", "Uint384"},
          {"p", "Uint384"},
          {"sqrt_x", "Uint384"},
          {"sqrt_gx", "Uint384"}},
         {},
         {{"generator", Draw::Limb128}, {"x", Draw::Limb128}, {"p", Draw::Prime}},
         {},
         {},
         {},
         kStatesPerHint / 8},
        {"uint384 isqrt",
         nativeHint({"root = isqrt(a)\nassert 0 <= root < 2 ** 192"}),
         {"a", "root"},
         {{"a", "Uint384"}, {"root", "Uint384"}},
         {},
         {{"a", Draw::Limb128}}},
        {"uint384 add carries",
         nativeHint({"sum_d2 = ids.a.d2 + ids.b.d2 + ids.carry_d1"}),
         {"a", "b", "carry_d0", "carry_d1", "carry_d2"},
         {{"a", "Uint384"}, {"b", "Uint384"}},
         {{"SHIFT", shift}},
         {{"a", Draw::Limb128}, {"b", Draw::Limb128}}},
        {"uint384 top limb below 2^127",
         nativeHint({"memory[ap] = 1 if 0 <= (ids.a.d2 % PRIME) < 2 ** 127 else 0"}),
         {"a"},
         {{"a", "Uint384"}},
         {},
         {{"a", Draw::Felt}}}};
}

// The cases of the felts' hints.
inline std::vector<HintCase> feltCases() {
    return {{"split 128",
             nativeHint({"ids.low = ids.a & ((1<<128) - 1)\nids.high = ids.a >> 128"}),
             {"a", "low", "high"},
             {},
             {},
             {{"a", Draw::Felt}}},
            {"split_64",
             nativeHint({"ids.low = ids.a & ((1<<64) - 1)\nids.high = ids.a >> 64"}),
             {"a", "low", "high"},
             {},
             {},
             {{"a", Draw::Felt}}},
            {"normalize_address",
             nativeHint({"ids.is_small = 1 if ids.addr < ADDR_BOUND else 0"}),
             {"addr", "is_small"},
             {},
             {{"ADDR_BOUND", (BigInt::powerOfTwo(251) - BigInt(256)).toDecimal()}},
             {{"addr", Draw::Felt}}},
            {"normalize_address with a bad bound",
             nativeHint({"ids.is_small = 1 if ids.addr < ADDR_BOUND else 0"}),
             {"addr", "is_small"},
             {},
             {{"ADDR_BOUND", BigInt::powerOfTwo(249).toDecimal()}},
             {{"addr", Draw::Felt}},
             {},
             {},
             {},
             0}};
}

// The cases of the elliptic curves' hints.
inline std::vector<HintCase> ellipticCurveCases() {
    return {{"scalar lowest bits",
             nativeHint({"ids.a_lsb = ids.a & 1"}),
             {"a", "b", "a_lsb", "b_lsb"},
             {},
             {},
             {{"a", Draw::Felt}, {"b", Draw::Felt}}},
            {"dibit",
             nativeHint({"ids.dibit = ((ids.scalar_u >> ids.m) & 1)"}),
             {"scalar_u", "scalar_v", "m", "dibit"},
             {},
             {},
             {{"scalar_u", Draw::Felt}, {"scalar_v", Draw::Felt}, {"m", Draw::Shift}}},
            {"quad_bit",
             nativeHint({"ids.quad_bit = ("}),
             {"scalar_u", "scalar_v", "m", "quad_bit"},
             {},
             {},
             {{"scalar_u", Draw::Felt}, {"scalar_v", Draw::Felt}, {"m", Draw::Shift}}},
            {"len_hi",
             nativeHint({"ids.len_hi = max("}),
             {"scalar_u", "scalar_v", "len_hi"},
             {{"scalar_u", "BigInt3"}, {"scalar_v", "BigInt3"}},
             {},
             {{"scalar_u", Draw::Limb86}, {"scalar_v", Draw::Limb86}}},
            {"y from x or x / 3",
             nativeHint({"sqrt(div_mod(x, 3, FIELD_PRIME), FIELD_PRIME)"}),
             {"x", "y"},
             {},
             {},
             {{"x", Draw::Felt}}},
            {"ec_op random point",
             nativeHint({"ids.m, ids.q.x, ids.q.y]"}),
             {"p", "m", "q", "s"},
             {{"p", "StarkPoint"}, {"q", "StarkPoint"}, {"s", "StarkPoint"}},
             {},
             {{"p", Draw::Felt}, {"m", Draw::Felt}, {"q", Draw::Felt}}},
            {"chained_ec_op random point",
             nativeHint({"chained_ec_op() can only be used"}),
             {"p", "m", "q", "len", "s"},
             {{"p", "StarkPoint"}, {"q", "StarkPoint*"}, {"s", "StarkPoint"}},
             {},
             {{"p", Draw::Felt}},
             {},
             {},
             [](Fixture& f, StateGenerator& random) {
                 const std::uint64_t length = random.below(5);
                 // Now and then the arrays are one cell short: both engines must fail.
                 const std::uint64_t missing = random.below(8) == 0 ? 1 : 0;
                 f.set("len", Felt::fromU64(length));
                 putArray(f, random, "m", length, Draw::Felt);
                 putArray(f, random, "q", 2 * length - (length ? missing : 0), Draw::Felt);
             }}};
}

// The cases of the secp hints.
inline std::vector<HintCase> secpCases() {
    return {
        {"secp new_x with SECP_P from the scope",
         nativeHint({"import pack\n\nslope = pack(ids.slope, PRIME)\nx0 = pack(ids.point0.x"}),
         {"slope", "point0", "point1"},
         {{"slope", "BigInt3"}, {"point0", "EcPoint"}, {"point1", "EcPoint"}},
         {},
         {{"slope", Draw::Limb86}, {"point0", Draw::Limb86}, {"point1", Draw::Limb86}},
         {"slope", "x0", "x1", "y0", "new_x", "value"},
         {"from starkware.cairo.common.cairo_secp.secp256r1_utils import SECP256R1_P as SECP_P"}},
        {"secp new_y after new_x",
         "value = new_y = (slope * (x0 - new_x) - y0) % SECP_P",
         {"slope", "point0", "point1"},
         {{"slope", "BigInt3"}, {"point0", "EcPoint"}, {"point1", "EcPoint"}},
         {},
         {{"slope", Draw::Limb86}, {"point0", Draw::Limb86}, {"point1", Draw::Limb86}},
         {"new_y", "value"},
         {nativeHint({"import SECP_P, pack\n\nslope = pack(ids.slope, PRIME)\nx0 = "
                      "pack(ids.point0.x"})}},
        {"ec_recover div_mod N",
         nativeHint({"N = pack(ids.n, PRIME)"}),
         {"n", "x", "s"},
         {{"n", "BigInt3"}, {"x", "BigInt3"}, {"s", "BigInt3"}},
         {},
         {{"n", Draw::Limb86}, {"x", Draw::Limb86}, {"s", Draw::Limb86}},
         {"N", "x", "s", "res", "value"}},
        {"ec_recover a - b",
         nativeHint({"value = res = a - b"}),
         {"a", "b"},
         {{"a", "BigInt3"}, {"b", "BigInt3"}},
         {},
         {{"a", Draw::Limb86}, {"b", Draw::Limb86}},
         {"a", "b", "res", "value"}},
        {"ec_recover product mod m",
         nativeHint({"value = res = product % m"}),
         {"a", "b", "m"},
         {{"a", "BigInt3"}, {"b", "BigInt3"}, {"m", "BigInt3"}},
         {},
         {{"a", Draw::Limb86}, {"b", Draw::Limb86}, {"m", Draw::Limb86}},
         {"a", "b", "product", "m", "res", "value"}},
        {"ec_recover product // m",
         "value = k = product // m",
         {"a", "b", "m"},
         {{"a", "BigInt3"}, {"b", "BigInt3"}, {"m", "BigInt3"}},
         {},
         {{"a", Draw::Limb86}, {"b", Draw::Limb86}, {"m", Draw::Limb86}},
         {"k", "value"},
         {nativeHint({"value = res = product % m"})}}};
}

// The cases of the array hints.
inline std::vector<HintCase> arrayCases() {
    return {
        {"find_element",
         nativeHint({"raise ValueError(f'Key {key} was not found.')"}),
         {"array_ptr", "elm_size", "n_elms", "key", "index"},
         {},
         {},
         {},
         {},
         {},
         [](Fixture& f, StateGenerator& random) {
             // Small keys, so the key is often there; sometimes n_elms runs past the array.
             const std::uint64_t size = 1 + random.below(3);
             const std::uint64_t count = random.below(6);
             f.set("elm_size", Felt::fromU64(size));
             f.set("n_elms", Felt::fromU64(count + (random.below(8) == 0 ? 1 : 0)));
             putArray(f, random, "array_ptr", size * count, Draw::Small);
             // Mostly a key the array holds (as a Cairo caller would ask), sometimes not.
             const Relocatable start = f.memory.get(f.frame + f.offsets.at("array_ptr")).address();
             f.set("key",
                   count > 0 && random.below(4) != 0
                       ? f.memory.get(start + static_cast<std::int64_t>(size * random.below(count)))
                       : random.draw(Draw::Small).toFelt());
         }},
        {"search_sorted_lower",
         nativeHint({"if memory[array_ptr + elm_size * i] >= ids.key:"}),
         {"array_ptr", "elm_size", "n_elms", "key", "index"},
         {},
         {},
         {},
         {},
         {},
         [](Fixture& f, StateGenerator& random) {
             const std::uint64_t size = 1 + random.below(3);
             const std::uint64_t count = random.below(6);
             f.set("elm_size", Felt::fromU64(size));
             f.set("n_elms", Felt::fromU64(count));
             f.set("key", random.draw(Draw::Small).toFelt());
             putArray(f, random, "array_ptr", size * count, Draw::Small);
         }},
        {"set_add",
         nativeHint({"if memory.get_range(ids.set_ptr + i, ids.elm_size) == elm_list:"}),
         {"elm_size", "elm_ptr", "set_ptr", "set_end_ptr", "index", "is_elm_in_set"},
         {},
         {},
         {},
         {},
         {},
         [](Fixture& f, StateGenerator& random) {
             const std::uint64_t size = 1 + random.below(2);
             const std::uint64_t count = random.below(5);
             f.set("elm_size", Felt::fromU64(size));
             putArray(f, random, "elm_ptr", size, Draw::Small);
             putArray(f, random, "set_ptr", size * count, Draw::Small);
             f.set("set_end_ptr", f.memory.get(f.frame + f.offsets.at("set_ptr")).address() +
                                      static_cast<std::int64_t>(size * count));
         }},
        {"usort",
         nativeHint({"positions_dict = defaultdict(list)"}),
         {"input", "input_len", "output", "output_len", "multiplicities"},
         {},
         {},
         {},
         {},
         {"vm_enter_scope(dict(__usort_max_size = globals().get('__usort_max_size')))"},
         [](Fixture& f, StateGenerator& random) {
             const std::uint64_t count = random.below(9);
             f.set("input_len", Felt::fromU64(count));
             putArray(f, random, "input", count, random.below(2) ? Draw::Small : Draw::Felt);
         }}};
}

// The cases of the sha256 hints.
inline std::vector<HintCase> sha256Cases() {
    return {{"sha256 compression from the IV",
             nativeHint({"new_state = sha2_compress_function(IV, w)"}),
             {"sha256_start", "output"},
             {},
             {{"SHA256_INPUT_CHUNK_SIZE_FELTS", "16"}},
             {},
             {},
             {},
             [](Fixture& f, StateGenerator& random) {
                 putArray(f, random, "sha256_start", 16, Draw::Word32);
                 putArray(f, random, "output", 0, Draw::Word32);
             },
             kStatesPerHint / 8},
            {"sha256 compression from a state",
             nativeHint({"sha2_compress_function(memory.get_range(ids.state"}),
             {"sha256_start", "state", "output"},
             {},
             {{"SHA256_INPUT_CHUNK_SIZE_FELTS", "16"}, {"SHA256_STATE_SIZE_FELTS", "8"}},
             {},
             {},
             {},
             [](Fixture& f, StateGenerator& random) {
                 putArray(f, random, "sha256_start", 16, Draw::Word32);
                 putArray(f, random, "state", 8, Draw::Word32);
                 putArray(f, random, "output", 0, Draw::Word32);
             },
             kStatesPerHint / 8},
            {"sha256 finalize",
             nativeHint({"segments.write_arg(ids.sha256_ptr_end, padding)"}),
             {"sha256_ptr_end"},
             {},
             {{"SHA256_INPUT_CHUNK_SIZE_FELTS", "16"},
              {"SHA256_STATE_SIZE_FELTS", "8"},
              {"BLOCK_SIZE", "3"}},
             {},
             {},
             {},
             [](Fixture& f, StateGenerator& random) {
                 putArray(f, random, "sha256_ptr_end", 0, Draw::Word32);
             }}};
}

// The cases of the blake2s hints.
inline std::vector<HintCase> blake2sCases() {
    return {{"blake2s one-block message",
             nativeHint({"t0=ids.n_bytes"}),
             {"blake2s_start", "n_bytes", "output"},
             {},
             {{"BLAKE2S_INPUT_CHUNK_SIZE_FELTS", "16"}},
             {{"n_bytes", Draw::Word32}},
             {},
             {},
             [](Fixture& f, StateGenerator& random) {
                 putArray(f, random, "blake2s_start", 16, Draw::Word32);
                 f.set("output", f.memory.addSegment());
             },
             kStatesPerHint / 8}};
}

inline std::vector<HintCase> cases() {
    std::vector<HintCase> all;
    for (auto family : {wideIntegerCases, widerIntegerCases, feltCases, ellipticCurveCases,
                        secpCases, arrayCases, sha256Cases, blake2sCases}) {
        for (HintCase& hint : family()) {
            all.push_back(std::move(hint));
        }
    }
    return all;
}

} // namespace proofdesk::test::differential
