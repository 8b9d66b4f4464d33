#include "ProjectCredits.h"

#include "ProofSchema.h"
#include "core/ServiceError.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QSqlQuery>

namespace proofdesk::proof {
namespace {

// x402 version 2: the local server has no payment network, so the one requirement it lists names
// the project's credits; `proofdesk credits set` tops them up.
core::ServiceError paymentRequired(const std::string& projectId, qint64 balance,
                                   const std::string& resourceUrl) {
    const nlohmann::json requirement = {
        {"scheme", "exact"},
        {"network", "proofdesk-local"},
        {"asset", "credits"},
        {"payTo", projectId},
        {"amount", "1"},
        {"resource", resourceUrl},
        {"mimeType", "application/json"},
        {"statement", "each proof submission costs 1 credit; this project has " +
                          std::to_string(balance) +
                          ". An administrator adds credits with: proofdesk credits set " +
                          projectId + " <amount>"},
        {"maxTimeoutSeconds", 300},
        {"extra", {{"name", "Proofdesk credits"}, {"version", "1"}, {"balance", balance}}}};
    const nlohmann::json payload = {{"x402Version", 2},
                                    {"accepts", nlohmann::json::array({requirement})},
                                    {"error", "insufficient_credits"}};
    const std::string header = QByteArray::fromStdString(payload.dump()).toBase64().toStdString();
    return core::ServiceError(core::ErrorKind::PaymentRequired, "INSUFFICIENT_CREDITS", {},
                              {{"paymentRequired", payload}, {"paymentRequiredHeader", header}});
}

} // namespace

ProjectCredits::ProjectCredits(core::Store& store) : m_store(store) {
    m_store.migrate(QStringLiteral("proof"), proofMigrations());
}

std::optional<qint64> ProjectCredits::balance(const QString& projectId) {
    QSqlQuery row = m_store.exec(
        QStringLiteral("SELECT balance FROM proof_credits WHERE project_id = ?"), {projectId});
    if (!row.next() || row.value(0).isNull()) {
        return std::nullopt;
    }
    return row.value(0).toLongLong();
}

void ProjectCredits::setBalance(const QString& projectId, std::optional<qint64> balance) {
    m_store.write([&](QSqlDatabase&) {
        m_store.exec(QStringLiteral("INSERT INTO proof_credits (project_id, balance) VALUES (?, "
                                    "?) ON CONFLICT (project_id) DO UPDATE SET balance = "
                                    "excluded.balance"),
                     {projectId, balance ? QVariant(*balance) : QVariant()});
    });
}

void ProjectCredits::chargeOneIn(const QString& projectId, const std::string& resourceUrl) {
    QSqlQuery credit = m_store.exec(
        QStringLiteral("SELECT balance FROM proof_credits WHERE project_id = ?"), {projectId});
    if (!credit.next() || credit.value(0).isNull()) {
        return; // unlimited
    }
    const qint64 balance = credit.value(0).toLongLong();
    credit.finish();
    if (balance < 1) {
        throw paymentRequired(projectId.toStdString(), balance, resourceUrl);
    }
    m_store.exec(
        QStringLiteral("UPDATE proof_credits SET balance = balance - 1 WHERE project_id = ?"),
        {projectId});
}

} // namespace proofdesk::proof
