#pragma once

#include <nlohmann/json.hpp>

#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>
#include <utility>
#include <variant>

class QHttpMultiPart;
class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace proofdesk::client {

// What a call to a service answered when it did not succeed: the HTTP status (0 when the server
// could not be reached), the code string of the body, and its detail when there is one.
struct ApiError {
    int status = 0;
    QString code;
    QString detail;
    // For banners: "CODE (status): detail"; a key refused without detail says how to get one.
    QString message() const;
};

template <class T> using Result = std::variant<T, ApiError>;

using Headers = QList<std::pair<QByteArray, QByteArray>>;
using QueryItems = QList<std::pair<QString, QString>>;

// What the console's clients share: one service's base URL over a QNetworkAccessManager, JSON and
// multipart calls, and one reading of answers. Every call returns at once and later invokes its
// callback on the GUI thread, unless `context` was destroyed meanwhile; a non-2xx answer becomes
// an ApiError carrying the body's `message`/`error` code and `detail`.
class ServiceClient : public QObject {
    Q_OBJECT
public:
    ServiceClient(QNetworkAccessManager* network, QUrl baseUrl, QObject* parent = nullptr);

    const QUrl& baseUrl() const { return m_baseUrl; }
    // Points the client at a server (which also ends a stop, below).
    void setBaseUrl(QUrl baseUrl) {
        m_baseUrl = std::move(baseUrl);
        m_stopped.clear();
    }
    // The server is known to be down (the console's own server was stopped): until setBaseUrl,
    // nothing is sent (another process may own its port by now, and would be handed our key)
    // and every call answers ApiError{0, "SERVER_STOPPED", why}.
    void markStopped(const QString& why) { m_stopped = why; }
    bool isStopped() const { return !m_stopped.isEmpty(); }
    // The absolute URL of a path below the base URL.
    QUrl urlFor(const QString& path, const QueryItems& query = {}) const;

protected:
    QNetworkReply* get(const QString& path, const QueryItems& query, const Headers& headers);
    QNetworkReply* getUrl(const QUrl& url, const Headers& headers);
    QNetworkReply* postJson(const QString& path, const nlohmann::json& body, const Headers& headers,
                            const QueryItems& query = {});
    // Takes ownership of `multipart`.
    QNetworkReply* postMultipart(const QString& path, QHttpMultiPart* multipart,
                                 const Headers& headers);
    // Answers with the parsed JSON body on 2xx; `ok` may throw on a malformed body (BAD_RESPONSE).
    void handle(QNetworkReply* reply, QObject* context,
                std::function<void(const nlohmann::json& body)> ok,
                std::function<void(ApiError)> failed);
    // Answers with the raw bytes on 2xx.
    void handleBytes(QNetworkReply* reply, QObject* context,
                     std::function<void(const QByteArray& bytes)> ok,
                     std::function<void(ApiError)> failed);

private:
    QNetworkReply* send(QNetworkRequest request, const Headers& headers);

    // Where a request goes: `url`, or nowhere while stopped.
    QUrl target(const QUrl& url) const { return isStopped() ? QUrl() : url; }

    QNetworkAccessManager* m_network;
    QUrl m_baseUrl;
    QString m_stopped;
};

// Turns a Result callback into the pair of callbacks handle() takes.
template <class T> std::function<void(ApiError)> failWith(std::function<void(Result<T>)> done) {
    return [done = std::move(done)](ApiError error) { done(std::move(error)); };
}

} // namespace proofdesk::client
