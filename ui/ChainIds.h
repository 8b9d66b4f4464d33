#pragma once

#include <QStringList>

namespace proofdesk::ui {

// The spec's ChainId values (§2.1) as the console offers them: chains whose data can be proven
// (EVM chains with Merkle-Patricia state), and every chain (destinations, settle chains).
inline const QStringList& provableChainIds() {
    static const QStringList ids{
        QStringLiteral("1"),        QStringLiteral("11155111"), QStringLiteral("10"),
        QStringLiteral("11155420"), QStringLiteral("42161"),    QStringLiteral("421614"),
        QStringLiteral("480"),      QStringLiteral("4801"),     QStringLiteral("8453"),
        QStringLiteral("84532"),    QStringLiteral("33139"),    QStringLiteral("33111")};
    return ids;
}

inline const QStringList& allChainIds() {
    static const QStringList ids =
        provableChainIds() + QStringList{QStringLiteral("STARKNET"), QStringLiteral("SN_SEPOLIA"),
                                         QStringLiteral("300")};
    return ids;
}

} // namespace proofdesk::ui
