#include "RequestClient.h"

namespace proofdesk::client {

RequestClient::RequestClient(QNetworkAccessManager* network, QUrl baseUrl,
                             std::function<QString()> apiKey, QObject* parent)
    : ServiceClient(network, std::move(baseUrl), parent), m_apiKey(std::move(apiKey)) {}

Headers RequestClient::keyHeader() const {
    const QString key = m_apiKey ? m_apiKey() : QString();
    if (key.isEmpty()) {
        return {};
    }
    return {{QByteArrayLiteral("api-key"), key.toUtf8()}};
}

void RequestClient::submit(const nlohmann::json& body, QObject* context,
                           std::function<void(Result<QString>)> done) {
    handle(
        postJson(QStringLiteral("/submit-request"), body, keyHeader()), context,
        [done](const nlohmann::json& answer) {
            done(QString::fromStdString(answer.at("request_id").get<std::string>()));
        },
        failWith(done));
}

void RequestClient::queries(const QString& requestId, QObject* context,
                            std::function<void(Result<std::vector<api::RequestQuery>>)> done) {
    handle(
        get(QStringLiteral("/get_queries/") + requestId, {}, {}), context,
        [done](const nlohmann::json& answer) {
            done(answer.at("queries").get<std::vector<api::RequestQuery>>());
        },
        failWith(done));
}

void RequestClient::actions(const QString& queryId, QObject* context,
                            std::function<void(Result<std::vector<api::RequestAction>>)> done) {
    handle(
        get(QStringLiteral("/get_actions/") + queryId, {}, {}), context,
        [done](const nlohmann::json& answer) {
            done(answer.at("actions").get<std::vector<api::RequestAction>>());
        },
        failWith(done));
}

void RequestClient::provenValues(const QString& destinationChainId, const QString& queryId,
                                 QObject* context,
                                 std::function<void(Result<std::vector<api::ProvenValue>>)> done) {
    handle(
        get(QStringLiteral("/proven-values/") + destinationChainId,
            {{QStringLiteral("query_id"), queryId},
             {QStringLiteral("limit"), QStringLiteral("500")}},
            {}),
        context,
        [done](const nlohmann::json& answer) {
            done(answer.at("proven_values").get<std::vector<api::ProvenValue>>());
        },
        failWith(done));
}

void RequestClient::growOrders(QObject* context,
                               std::function<void(Result<std::vector<api::GrowOrder>>)> done) {
    handle(
        get(QStringLiteral("/grow-orders"), {}, keyHeader()), context,
        [done](const nlohmann::json& answer) {
            done(answer.at("grow_orders").get<std::vector<api::GrowOrder>>());
        },
        failWith(done));
}

void RequestClient::createGrowOrder(const api::GrowOrderCreation& order, QObject* context,
                                    std::function<void(Result<api::GrowOrder>)> done) {
    handle(
        postJson(QStringLiteral("/grow-orders"), api::toJson(order), keyHeader()), context,
        [done](const nlohmann::json& answer) {
            done(answer.at("grow_order").get<api::GrowOrder>());
        },
        failWith(done));
}

void RequestClient::cancelGrowOrder(const QString& id, QObject* context,
                                    std::function<void(Result<api::GrowOrder>)> done) {
    handle(
        postJson(QStringLiteral("/grow-orders/") + id + QStringLiteral("/cancel"),
                 nlohmann::json::object(), keyHeader()),
        context,
        [done](const nlohmann::json& answer) {
            done(answer.at("grow_order").get<api::GrowOrder>());
        },
        failWith(done));
}

QString RequestClient::curlCommand(const nlohmann::json& body) const {
    // Returns QString, not a deduced type: with QT_USE_QSTRINGBUILDER the `+` chain is a
    // builder that refers to `text`, which would be gone by the time it is read.
    const auto quote = [](QString text) -> QString {
        return QLatin1Char('\'') + text.replace(QLatin1Char('\''), QStringLiteral("'\\''")) +
               QLatin1Char('\'');
    };
    QString command = QStringLiteral("curl -X POST ") +
                      quote(urlFor(QStringLiteral("/submit-request")).toString());
    const QString key = m_apiKey ? m_apiKey() : QString();
    command += QStringLiteral(" -H ") + quote(QStringLiteral("api-key: ") + key);
    command += QStringLiteral(" -H 'content-type: application/json' --data ") +
               quote(QString::fromStdString(body.dump()));
    return command;
}

} // namespace proofdesk::client
