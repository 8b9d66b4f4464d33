#pragma once

#include "Layout.h"
#include "field/Fp.h"

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace proofdesk::stark::air {

class ExprArena;

// A node of a constraint polynomial over trace cells, periodic columns and named values (public
// values and interaction elements), built with +, − and ·. Nodes are shared: building the same
// expression twice gives the same node, so evaluation computes each once.
class Expr {
public:
    Expr() = default;
    Expr(ExprArena* arena, std::uint32_t index) : m_arena(arena), m_index(index) {}
    ExprArena* arena() const { return m_arena; }
    std::uint32_t index() const { return m_index; }

    friend Expr operator+(const Expr& a, const Expr& b);
    friend Expr operator-(const Expr& a, const Expr& b);
    friend Expr operator*(const Expr& a, const Expr& b);
    friend Expr operator-(const Expr& a);
    friend Expr operator+(const Expr& a, std::int64_t b);
    friend Expr operator-(const Expr& a, std::int64_t b);
    friend Expr operator*(const Expr& a, std::int64_t b);
    friend Expr operator-(std::int64_t a, const Expr& b);
    friend Expr operator*(std::int64_t a, const Expr& b);
    Expr square() const { return *this * *this; }

private:
    ExprArena* m_arena = nullptr;
    std::uint32_t m_index = 0;
};

enum class NodeKind : std::uint8_t { Constant, Cell, Periodic, Value, Add, Sub, Mul, Neg };

struct Node {
    NodeKind kind = NodeKind::Constant;
    std::uint32_t a = 0; // operand, or the index of the constant / mask item / column / value
    std::uint32_t b = 0;
};

// Owns the nodes of one AIR's expressions and the tables their leaves index.
class ExprArena {
public:
    Expr constant(const Fp& value);
    Expr constant(std::int64_t value);
    Expr cell(MaskItem item);
    Expr periodic(std::uint32_t column);
    // A named value: the public input's values and the interaction elements, set before
    // evaluation (valueIndex gives the slot).
    Expr value(const std::string& name);

    Expr make(NodeKind kind, Expr a, Expr b = {});

    const std::vector<Node>& nodes() const { return m_nodes; }
    const std::vector<Fp>& constants() const { return m_constants; }
    const std::vector<MaskItem>& cells() const { return m_cells; }
    const std::vector<std::string>& valueNames() const { return m_valueNames; }
    std::uint32_t valueIndex(const std::string& name) const { return m_valueSlots.at(name); }

    // Evaluates every node, given each cell's value (indexed as cells()), the periodic columns
    // and the named values at the point.
    std::vector<Fp> evaluate(const std::vector<Fp>& cellValues, const std::vector<Fp>& periodic,
                             const std::vector<Fp>& values) const;

private:
    std::uint32_t intern(Node node);

    std::vector<Node> m_nodes;
    std::map<std::tuple<std::uint8_t, std::uint32_t, std::uint32_t>, std::uint32_t> m_interned;
    std::vector<Fp> m_constants;
    std::map<Fp::Limbs, std::uint32_t> m_constantSlots;
    std::vector<MaskItem> m_cells;
    std::map<MaskItem, std::uint32_t> m_cellSlots;
    std::vector<std::string> m_valueNames;
    std::map<std::string, std::uint32_t> m_valueSlots;
};

} // namespace proofdesk::stark::air
