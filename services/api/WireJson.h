#pragma once

// Shared by the wire-type translation units; not part of the API.

#include <nlohmann/json.hpp>

#include <optional>

namespace proofdesk::api::detail {

// An optional member as the wire writes it: the value, or null.
template <class T> nlohmann::json orNull(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// An optional member as the wire reads it: absent and null are both nullopt.
template <class T> std::optional<T> optionalOf(const nlohmann::json& json, const char* name) {
    auto it = json.find(name);
    if (it == json.end() || it->is_null()) {
        return std::nullopt;
    }
    return it->get<T>();
}

} // namespace proofdesk::api::detail
