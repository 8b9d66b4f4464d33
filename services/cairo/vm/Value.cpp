#include "cairo/vm/Value.h"

namespace proofdesk::cairo {

Relocatable Relocatable::operator+(std::int64_t delta) const {
    const auto result = static_cast<std::int64_t>(offset) + delta;
    if (result < 0) {
        throw VmError("address offset below zero: " + toString() + " + " + std::to_string(delta));
    }
    return {segment, static_cast<std::uint64_t>(result)};
}

Relocatable Relocatable::operator+(const Felt& delta) const {
    // Offsets are small; a felt above 2^63 stands for a negative number (p - k).
    if (delta.fitsU64() && delta.low64() < (1ULL << 62)) {
        return *this + static_cast<std::int64_t>(delta.low64());
    }
    const Felt negated = -delta;
    if (negated.fitsU64() && negated.low64() < (1ULL << 62)) {
        return *this + (-static_cast<std::int64_t>(negated.low64()));
    }
    throw VmError("address offset out of range: " + toString() + " + " + delta.toHex());
}

std::string Relocatable::toString() const {
    return std::to_string(segment) + ":" + std::to_string(offset);
}

const Felt& Value::felt() const {
    if (m_isAddress) {
        throw VmError("expected a field element, got the address " + m_address.toString());
    }
    return m_felt;
}

const Relocatable& Value::address() const {
    if (!m_isAddress) {
        throw VmError("expected an address, got the field element " + m_felt.toHex());
    }
    return m_address;
}

Value Value::operator+(const Value& other) const {
    if (m_isAddress && other.m_isAddress) {
        throw VmError("cannot add two addresses: " + toString() + " + " + other.toString());
    }
    if (m_isAddress) {
        return m_address + other.m_felt;
    }
    if (other.m_isAddress) {
        return other.m_address + m_felt;
    }
    return m_felt + other.m_felt;
}

Value Value::operator-(const Value& other) const {
    if (m_isAddress && other.m_isAddress) {
        if (m_address.segment != other.m_address.segment) {
            throw VmError("cannot subtract addresses of different segments: " + toString() + " - " +
                          other.toString());
        }
        return Felt::fromI64(static_cast<std::int64_t>(m_address.offset) -
                             static_cast<std::int64_t>(other.m_address.offset));
    }
    if (m_isAddress) {
        return m_address + (-other.m_felt);
    }
    if (other.m_isAddress) {
        throw VmError("cannot subtract an address from a field element");
    }
    return m_felt - other.m_felt;
}

Value Value::operator*(const Value& other) const {
    if (m_isAddress || other.m_isAddress) {
        throw VmError("cannot multiply an address: " + toString() + " * " + other.toString());
    }
    return m_felt * other.m_felt;
}

std::string Value::toString() const {
    return m_isAddress ? m_address.toString() : m_felt.toHex();
}

} // namespace proofdesk::cairo
