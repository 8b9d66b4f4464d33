#include "ServiceClient.h"
#include "core/BoundedJson.h"

#include <QHttpMultiPart>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QUrlQuery>

namespace proofdesk::client {
namespace {

ApiError errorOf(int status, const QByteArray& bytes, const QString& transportError) {
    ApiError error;
    error.status = status;
    if (status == 0) {
        error.code = QStringLiteral("UNREACHABLE");
        error.detail = transportError;
        return error;
    }
    const nlohmann::json body = core::parseJsonBounded(bytes.toStdString());
    if (!body.is_object()) {
        error.code = QStringLiteral("BAD_RESPONSE");
        error.detail = QString::fromUtf8(bytes.left(200));
        return error;
    }
    for (const char* field : {"message", "error"}) {
        if (body.contains(field) && body[field].is_string()) {
            error.code = QString::fromStdString(body[field].get<std::string>());
            break;
        }
    }
    if (body.contains("detail") && body["detail"].is_string()) {
        error.detail = QString::fromStdString(body["detail"].get<std::string>());
    }
    if (body.contains("paymentRequired")) {
        error.code = QStringLiteral("PAYMENT_REQUIRED");
        error.detail = QObject::tr("the project has no credits left");
    }
    return error;
}

} // namespace

QString ApiError::message() const {
    QString text = code.isEmpty() ? QStringLiteral("ERROR") : code;
    if (status > 0) {
        text += QStringLiteral(" (%1)").arg(status);
    }
    if (!detail.isEmpty()) {
        text += QStringLiteral(": ") + detail;
    } else if (code == QLatin1String("MISSING_API_KEY") ||
               code == QLatin1String("INVALID_API_KEY")) {
        // What to do about it (issue #47: a bare code left a new user guessing).
        text += QObject::tr(": sign in with a wallet, or paste an API key of this server");
    }
    return text;
}

ServiceClient::ServiceClient(QNetworkAccessManager* network, QUrl baseUrl, QObject* parent)
    : QObject(parent), m_network(network), m_baseUrl(std::move(baseUrl)) {}

QUrl ServiceClient::urlFor(const QString& path, const QueryItems& query) const {
    QUrl url = m_baseUrl;
    QString base = m_baseUrl.path();
    if (base.endsWith(QLatin1Char('/'))) {
        base.chop(1);
    }
    url.setPath(base + path);
    QUrlQuery items;
    for (const auto& [name, value] : query) {
        items.addQueryItem(name, value);
    }
    url.setQuery(items);
    return url;
}

QNetworkReply* ServiceClient::send(QNetworkRequest request, const Headers& headers) {
    request.setUrl(target(request.url()));
    for (const auto& [name, value] : headers) {
        request.setRawHeader(name, value);
    }
    request.setTransferTimeout(60000);
    return m_network->get(request);
}

QNetworkReply* ServiceClient::get(const QString& path, const QueryItems& query,
                                  const Headers& headers) {
    return send(QNetworkRequest(urlFor(path, query)), headers);
}

QNetworkReply* ServiceClient::getUrl(const QUrl& url, const Headers& headers) {
    return send(QNetworkRequest(url), headers);
}

QNetworkReply* ServiceClient::postJson(const QString& path, const nlohmann::json& body,
                                       const Headers& headers, const QueryItems& query) {
    QNetworkRequest request(target(urlFor(path, query)));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    for (const auto& [name, value] : headers) {
        request.setRawHeader(name, value);
    }
    request.setTransferTimeout(60000);
    return m_network->post(request, QByteArray::fromStdString(body.dump()));
}

QNetworkReply* ServiceClient::postMultipart(const QString& path, QHttpMultiPart* multipart,
                                            const Headers& headers) {
    QNetworkRequest request(target(urlFor(path)));
    for (const auto& [name, value] : headers) {
        request.setRawHeader(name, value);
    }
    QNetworkReply* reply = m_network->post(request, multipart);
    multipart->setParent(reply); // the body lives as long as the reply
    return reply;
}

void ServiceClient::handleBytes(QNetworkReply* reply, QObject* context,
                                std::function<void(const QByteArray&)> ok,
                                std::function<void(ApiError)> failed) {
    QPointer<QObject> guard(context);
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, guard, ok = std::move(ok), failed = std::move(failed)] {
                reply->deleteLater();
                if (!guard) {
                    return;
                }
                if (reply->url().isEmpty() && isStopped()) {
                    failed(ApiError{0, QStringLiteral("SERVER_STOPPED"), m_stopped});
                    return;
                }
                const int status =
                    reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                const QByteArray bytes = reply->readAll();
                if (status >= 200 && status < 300) {
                    ok(bytes);
                    return;
                }
                failed(errorOf(status, bytes, reply->errorString()));
            });
}

void ServiceClient::handle(QNetworkReply* reply, QObject* context,
                           std::function<void(const nlohmann::json&)> ok,
                           std::function<void(ApiError)> failed) {
    handleBytes(
        reply, context,
        [ok = std::move(ok), failed](const QByteArray& bytes) {
            const nlohmann::json body = core::parseJsonBounded(bytes.toStdString());
            if (body.is_discarded()) {
                failed(ApiError{200, QStringLiteral("BAD_RESPONSE"),
                                QObject::tr("the answer is not JSON")});
                return;
            }
            try {
                ok(body);
            } catch (const std::exception& malformed) {
                failed(ApiError{200, QStringLiteral("BAD_RESPONSE"),
                                QString::fromUtf8(malformed.what())});
            }
        },
        failed);
}

} // namespace proofdesk::client
