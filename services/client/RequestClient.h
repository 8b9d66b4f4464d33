#pragma once

#include "ServiceClient.h"
#include "api/RequestBodies.h"
#include "api/RequestWire.h"

#include <QString>
#include <QUrl>

#include <functional>
#include <vector>

namespace proofdesk::client {

// The request service over HTTP (docs/api.md, plus our GET /proven-values). The API key is read
// from `apiKey` at every call, so it follows the key the console uses for the proof service.
class RequestClient : public ServiceClient {
    Q_OBJECT
public:
    RequestClient(QNetworkAccessManager* network, QUrl baseUrl, std::function<QString()> apiKey,
                  QObject* parent = nullptr);

    // POST /submit-request with the body as given; the request id.
    void submit(const nlohmann::json& body, QObject* context,
                std::function<void(Result<QString>)> done);
    void queries(const QString& requestId, QObject* context,
                 std::function<void(Result<std::vector<api::RequestQuery>>)> done);
    void actions(const QString& queryId, QObject* context,
                 std::function<void(Result<std::vector<api::RequestAction>>)> done);
    void provenValues(const QString& destinationChainId, const QString& queryId, QObject* context,
                      std::function<void(Result<std::vector<api::ProvenValue>>)> done);

    void growOrders(QObject* context,
                    std::function<void(Result<std::vector<api::GrowOrder>>)> done);
    // POST /grow-orders.
    void createGrowOrder(const api::GrowOrderCreation& order, QObject* context,
                         std::function<void(Result<api::GrowOrder>)> done);
    void cancelGrowOrder(const QString& id, QObject* context,
                         std::function<void(Result<api::GrowOrder>)> done);

    // The submission as a shell command (what "Copy as curl" puts on the clipboard).
    QString curlCommand(const nlohmann::json& body) const;

private:
    Headers keyHeader() const;
    std::function<QString()> m_apiKey;
};

} // namespace proofdesk::client
