#pragma once

#include "crypto/Felt.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace proofdesk::cairo {

using crypto::Felt;

// Raised for any failure of a run: the message says what and, where known, at which pc.
class VmError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An address: segment index (negative for temporary segments) and offset.
struct Relocatable {
    std::int64_t segment = 0;
    std::uint64_t offset = 0;

    Relocatable operator+(std::int64_t delta) const;
    Relocatable operator+(const Felt& delta) const;
    Relocatable operator-(std::int64_t delta) const { return *this + (-delta); }
    friend bool operator==(const Relocatable&, const Relocatable&) = default;
    friend bool operator<(const Relocatable& a, const Relocatable& b) {
        return a.segment != b.segment ? a.segment < b.segment : a.offset < b.offset;
    }
    std::string toString() const; // "1:5"
};

// A memory value: a field element or an address.
class Value {
public:
    Value() = default;
    Value(const Felt& felt) : m_felt(felt) {} // NOLINT: implicit by design
    Value(const Relocatable& address) : m_address(address), m_isAddress(true) {} // NOLINT
    static Value fromU64(std::uint64_t v) { return Value(Felt::fromU64(v)); }

    bool isAddress() const { return m_isAddress; }
    bool isFelt() const { return !m_isAddress; }
    const Felt& felt() const;           // throws VmError if it is an address
    const Relocatable& address() const; // throws VmError if it is a felt

    Value operator+(const Value& other) const;
    Value operator-(const Value& other) const;
    Value operator*(const Value& other) const;
    friend bool operator==(const Value& a, const Value& b) {
        return a.m_isAddress == b.m_isAddress &&
               (a.m_isAddress ? a.m_address == b.m_address : a.m_felt == b.m_felt);
    }
    std::string toString() const;

private:
    Felt m_felt;
    Relocatable m_address;
    bool m_isAddress = false;
};

} // namespace proofdesk::cairo
