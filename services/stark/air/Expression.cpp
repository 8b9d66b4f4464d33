#include "Expression.h"

namespace proofdesk::stark::air {

std::uint32_t ExprArena::intern(Node node) {
    const auto key = std::make_tuple(std::uint8_t(node.kind), node.a, node.b);
    const auto [it, inserted] = m_interned.emplace(key, std::uint32_t(m_nodes.size()));
    if (inserted) {
        m_nodes.push_back(node);
    }
    return it->second;
}

Expr ExprArena::constant(const Fp& value) {
    const auto [it, inserted] =
        m_constantSlots.emplace(value.montgomery(), std::uint32_t(m_constants.size()));
    if (inserted) {
        m_constants.push_back(value);
    }
    return {this, intern({NodeKind::Constant, it->second, 0})};
}

Expr ExprArena::constant(std::int64_t value) {
    const Fp magnitude =
        Fp::fromU64(value < 0 ? std::uint64_t(-(value + 1)) + 1 : std::uint64_t(value));
    return constant(value < 0 ? -magnitude : magnitude);
}

Expr ExprArena::cell(MaskItem item) {
    const auto [it, inserted] = m_cellSlots.emplace(item, std::uint32_t(m_cells.size()));
    if (inserted) {
        m_cells.push_back(item);
    }
    return {this, intern({NodeKind::Cell, it->second, 0})};
}

Expr ExprArena::periodic(std::uint32_t column) {
    return {this, intern({NodeKind::Periodic, column, 0})};
}

Expr ExprArena::value(const std::string& name) {
    const auto [it, inserted] = m_valueSlots.emplace(name, std::uint32_t(m_valueNames.size()));
    if (inserted) {
        m_valueNames.push_back(name);
    }
    return {this, intern({NodeKind::Value, it->second, 0})};
}

Expr ExprArena::make(NodeKind kind, Expr a, Expr b) {
    return {this, intern({kind, a.index(), b.index()})};
}

std::vector<Fp> ExprArena::evaluate(const std::vector<Fp>& cellValues,
                                    const std::vector<Fp>& periodic,
                                    const std::vector<Fp>& values) const {
    std::vector<Fp> out(m_nodes.size());
    for (std::size_t i = 0; i < m_nodes.size(); ++i) {
        const Node& node = m_nodes[i];
        switch (node.kind) {
        case NodeKind::Constant:
            out[i] = m_constants[node.a];
            break;
        case NodeKind::Cell:
            out[i] = cellValues[node.a];
            break;
        case NodeKind::Periodic:
            out[i] = periodic[node.a];
            break;
        case NodeKind::Value:
            out[i] = values[node.a];
            break;
        case NodeKind::Add:
            out[i] = out[node.a] + out[node.b];
            break;
        case NodeKind::Sub:
            out[i] = out[node.a] - out[node.b];
            break;
        case NodeKind::Mul:
            out[i] = out[node.a] * out[node.b];
            break;
        case NodeKind::Neg:
            out[i] = -out[node.a];
            break;
        }
    }
    return out;
}

Expr operator+(const Expr& a, const Expr& b) {
    return a.arena()->make(NodeKind::Add, a, b);
}
Expr operator-(const Expr& a, const Expr& b) {
    return a.arena()->make(NodeKind::Sub, a, b);
}
Expr operator*(const Expr& a, const Expr& b) {
    return a.arena()->make(NodeKind::Mul, a, b);
}
Expr operator-(const Expr& a) {
    return a.arena()->make(NodeKind::Neg, a);
}
Expr operator+(const Expr& a, std::int64_t b) {
    return a + a.arena()->constant(b);
}
Expr operator-(const Expr& a, std::int64_t b) {
    return a - a.arena()->constant(b);
}
Expr operator*(const Expr& a, std::int64_t b) {
    return a * a.arena()->constant(b);
}
Expr operator-(std::int64_t a, const Expr& b) {
    return b.arena()->constant(a) - b;
}
Expr operator*(std::int64_t a, const Expr& b) {
    return b.arena()->constant(a) * b;
}

} // namespace proofdesk::stark::air
