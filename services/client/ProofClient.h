#pragma once

#include "api/ProofWire.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <functional>
#include <optional>
#include <variant>
#include <vector>

class QHttpMultiPart;
class QNetworkAccessManager;
class QNetworkReply;

namespace proofdesk::client {

// What a call to a service answered when it did not succeed: the HTTP status (0 when the server
// could not be reached), the code string of the body, and its detail when there is one.
struct ApiError {
    int status = 0;
    QString code;
    QString detail;
    QString message() const; // for banners: "CODE (status): detail"
};

template <class T> using Result = std::variant<T, ApiError>;

// A core-query submission as the console's form builds it (spec §4.2 item 6).
struct CoreQueryForm {
    QString programFilePath;
    QString inputFilePath;
    QString pieFilePath;
    QString programHash;
    QString result = QStringLiteral("PROOF_GENERATION");
    QString layout = QStringLiteral("auto");
    bool mockFactHash = false;
    QString externalId;
    QString dedupId;
    QString bucketId;
    QString network = QStringLiteral("TESTNET");
    QString declaredJobSize = QStringLiteral("S");
};

// GET /fact-registry/{chain}/{factHash}?mocked= (our route).
struct FactLookup {
    bool valid = false;
    QString factHash;
    QString transactionId;
    QString queryId;
    QString registeredAt;
};

struct QueryPage {
    std::vector<api::ProofQuery> queries;
    int total = 0;
};

// The proof service over HTTP (QNetworkAccessManager, asynchronous): every call returns at once
// and later invokes its callback on the GUI thread, unless `context` was destroyed meanwhile.
// Used by the console for the embedded server and for remote deployments alike.
class ProofClient : public QObject {
    Q_OBJECT
public:
    ProofClient(QNetworkAccessManager* network, QUrl baseUrl, QString apiKey,
                QObject* parent = nullptr);

    const QUrl& baseUrl() const { return m_baseUrl; }
    void setApiKey(const QString& apiKey) { m_apiKey = apiKey; }

    void submitCoreQuery(const CoreQueryForm& form, QObject* context,
                         std::function<void(Result<QString>)> done);
    void listQueries(int limit, const QString& search, QObject* context,
                     std::function<void(Result<QueryPage>)> done);
    void coreQuery(const QString& id, QObject* context,
                   std::function<void(Result<api::CoreQueryResponse>)> done);
    // POST /v1/submit-program: the program hash of a compiled Cairo 0 program.
    void submitProgram(const QString& programFilePath, QObject* context,
                       std::function<void(Result<QString>)> done);
    void lookupFact(const QString& chain, const QString& factHash, bool mocked, QObject* context,
                    std::function<void(Result<FactLookup>)> done);

private:
    QNetworkReply* get(const QString& path, const QList<std::pair<QString, QString>>& query);
    // Takes ownership of `multipart`.
    QNetworkReply* postMultipart(const QString& path, QHttpMultiPart* multipart);
    void handle(QNetworkReply* reply, QObject* context,
                std::function<void(int status, const nlohmann::json& body)> ok,
                std::function<void(ApiError)> failed);

    QNetworkAccessManager* m_network;
    QUrl m_baseUrl;
    QString m_apiKey;
};

// Reads a file the form names; nullopt with a message when it cannot be read.
std::optional<QByteArray> readFormFile(const QString& path, QString* error);

} // namespace proofdesk::client
