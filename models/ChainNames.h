#pragma once

#include <QString>

#include <map>

namespace proofdesk::models {

// What people call each chain, for display ("Sepolia (11155111)"); the id stays what is sent.
inline QString chainName(const QString& chainId) {
    static const std::map<QString, QString> names{
        {QStringLiteral("1"), QStringLiteral("Ethereum")},
        {QStringLiteral("11155111"), QStringLiteral("Sepolia")},
        {QStringLiteral("STARKNET"), QStringLiteral("Starknet")},
        {QStringLiteral("SN_SEPOLIA"), QStringLiteral("Starknet Sepolia")},
        {QStringLiteral("10"), QStringLiteral("OP Mainnet")},
        {QStringLiteral("11155420"), QStringLiteral("OP Sepolia")},
        {QStringLiteral("42161"), QStringLiteral("Arbitrum One")},
        {QStringLiteral("421614"), QStringLiteral("Arbitrum Sepolia")},
        {QStringLiteral("480"), QStringLiteral("World Chain")},
        {QStringLiteral("4801"), QStringLiteral("World Chain Sepolia")},
        {QStringLiteral("8453"), QStringLiteral("Base")},
        {QStringLiteral("84532"), QStringLiteral("Base Sepolia")},
        {QStringLiteral("33139"), QStringLiteral("ApeChain")},
        {QStringLiteral("33111"), QStringLiteral("ApeChain Curtis")},
        {QStringLiteral("300"), QStringLiteral("zkSync Sepolia")}};
    const auto it = names.find(chainId);
    return it == names.end() ? QString() : it->second;
}

// "Sepolia (11155111)", or the id alone for a chain without a name here.
inline QString chainLabel(const QString& chainId) {
    const QString name = chainName(chainId);
    return name.isEmpty() ? chainId : name + QStringLiteral(" (") + chainId + QLatin1Char(')');
}

} // namespace proofdesk::models
