#include "ProofClient.h"

#include <QFile>
#include <QFileInfo>
#include <QHttpMultiPart>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QUrlQuery>

namespace proofdesk::client {
namespace {

QHttpPart textPart(const QString& name, const QString& value) {
    QHttpPart part;
    part.setHeader(QNetworkRequest::ContentDispositionHeader,
                   QStringLiteral("form-data; name=\"%1\"").arg(name));
    part.setBody(value.toUtf8());
    return part;
}

QHttpPart filePart(const QString& name, const QString& fileName, const QByteArray& bytes) {
    QHttpPart part;
    part.setHeader(QNetworkRequest::ContentDispositionHeader,
                   QStringLiteral("form-data; name=\"%1\"; filename=\"%2\"").arg(name, fileName));
    part.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/octet-stream"));
    part.setBody(bytes);
    return part;
}

} // namespace

QString ApiError::message() const {
    QString text = code.isEmpty() ? QStringLiteral("ERROR") : code;
    if (status > 0) {
        text += QStringLiteral(" (%1)").arg(status);
    }
    if (!detail.isEmpty()) {
        text += QStringLiteral(": ") + detail;
    }
    return text;
}

std::optional<QByteArray> readFormFile(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QObject::tr("Cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    return file.readAll();
}

ProofClient::ProofClient(QNetworkAccessManager* network, QUrl baseUrl, QString apiKey,
                         QObject* parent)
    : QObject(parent), m_network(network), m_baseUrl(std::move(baseUrl)),
      m_apiKey(std::move(apiKey)) {}

QNetworkReply* ProofClient::get(const QString& path,
                                const QList<std::pair<QString, QString>>& query) {
    QUrl url = m_baseUrl;
    url.setPath(m_baseUrl.path() + path);
    QUrlQuery q;
    for (const auto& [name, value] : query) {
        q.addQueryItem(name, value);
    }
    url.setQuery(q);
    QNetworkRequest request(url);
    request.setRawHeader("api-key", m_apiKey.toUtf8());
    return m_network->get(request);
}

QNetworkReply* ProofClient::postMultipart(const QString& path, QHttpMultiPart* multipart) {
    QUrl url = m_baseUrl;
    url.setPath(m_baseUrl.path() + path);
    QNetworkRequest request(url);
    request.setRawHeader("api-key", m_apiKey.toUtf8());
    QNetworkReply* reply = m_network->post(request, multipart);
    multipart->setParent(reply); // the body lives as long as the reply
    return reply;
}

void ProofClient::handle(QNetworkReply* reply, QObject* context,
                         std::function<void(int, const nlohmann::json&)> ok,
                         std::function<void(ApiError)> failed) {
    QPointer<QObject> guard(context);
    connect(reply, &QNetworkReply::finished, this, [reply, guard, ok, failed] {
        reply->deleteLater();
        if (!guard) {
            return;
        }
        const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        const QByteArray bytes = reply->readAll();
        const nlohmann::json body = nlohmann::json::parse(bytes.toStdString(), nullptr, false);
        if (status >= 200 && status < 300 && !body.is_discarded()) {
            try {
                ok(status, body);
            } catch (const std::exception& malformed) {
                failed(ApiError{status, QStringLiteral("BAD_RESPONSE"),
                                QString::fromUtf8(malformed.what())});
            }
            return;
        }
        ApiError error;
        error.status = status;
        if (status == 0) {
            error.code = QStringLiteral("UNREACHABLE");
            error.detail = reply->errorString();
        } else if (body.is_object()) {
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
        } else {
            error.code = QStringLiteral("BAD_RESPONSE");
            error.detail = QString::fromUtf8(bytes.left(200));
        }
        failed(error);
    });
}

void ProofClient::submitCoreQuery(const CoreQueryForm& form, QObject* context,
                                  std::function<void(Result<QString>)> done) {
    auto* multipart = new QHttpMultiPart(QHttpMultiPart::FormDataType);
    const auto addText = [multipart](const QString& name, const QString& value) {
        if (!value.isEmpty()) {
            multipart->append(textPart(name, value));
        }
    };
    addText(QStringLiteral("result"), form.result);
    addText(QStringLiteral("layout"), form.layout);
    addText(QStringLiteral("mockFactHash"),
            form.mockFactHash ? QStringLiteral("true") : QStringLiteral("false"));
    addText(QStringLiteral("externalId"), form.externalId);
    addText(QStringLiteral("dedupId"), form.dedupId);
    addText(QStringLiteral("bucketId"), form.bucketId);
    addText(QStringLiteral("network"), form.network);
    addText(QStringLiteral("declaredJobSize"), form.declaredJobSize);
    addText(QStringLiteral("programHash"), form.programHash);
    for (const auto& [name, path] : {std::pair{QStringLiteral("programFile"), form.programFilePath},
                                     std::pair{QStringLiteral("inputFile"), form.inputFilePath},
                                     std::pair{QStringLiteral("pieFile"), form.pieFilePath}}) {
        if (path.isEmpty()) {
            continue;
        }
        QString error;
        const auto bytes = readFormFile(path, &error);
        if (!bytes) {
            delete multipart;
            done(ApiError{0, QStringLiteral("FILE_NOT_READABLE"), error});
            return;
        }
        multipart->append(filePart(name, QFileInfo(path).fileName(), *bytes));
    }
    handle(
        postMultipart(QStringLiteral("/core-query"), multipart), context,
        [done](int, const nlohmann::json& body) {
            done(QString::fromStdString(body.value("coreQueryId", "")));
        },
        [done](ApiError error) { done(error); });
}

void ProofClient::listQueries(int limit, const QString& search, QObject* context,
                              std::function<void(Result<QueryPage>)> done) {
    QList<std::pair<QString, QString>> query = {{QStringLiteral("limit"), QString::number(limit)}};
    if (!search.isEmpty()) {
        query.append({QStringLiteral("search"), search});
    }
    handle(
        get(QStringLiteral("/core-queries"), query), context,
        [done](int, const nlohmann::json& body) {
            QueryPage page;
            page.total = body.value("total", 0);
            for (const nlohmann::json& item : body.value("coreQueries", nlohmann::json::array())) {
                page.queries.push_back(api::proofQueryFromJson(item));
            }
            done(page);
        },
        [done](ApiError error) { done(error); });
}

void ProofClient::coreQuery(const QString& id, QObject* context,
                            std::function<void(Result<api::CoreQueryResponse>)> done) {
    handle(
        get(QStringLiteral("/core-query/") + id, {}), context,
        [done](int, const nlohmann::json& body) {
            api::CoreQueryResponse response;
            response.coreQuery = api::proofQueryFromJson(body.at("coreQuery"));
            response.metadataUrls = body.value("metadataUrls", std::vector<std::string>{});
            done(response);
        },
        [done](ApiError error) { done(error); });
}

void ProofClient::submitProgram(const QString& programFilePath, QObject* context,
                                std::function<void(Result<QString>)> done) {
    QString error;
    const auto bytes = readFormFile(programFilePath, &error);
    if (!bytes) {
        done(ApiError{0, QStringLiteral("FILE_NOT_READABLE"), error});
        return;
    }
    auto* multipart = new QHttpMultiPart(QHttpMultiPart::FormDataType);
    multipart->append(textPart(QStringLiteral("cairoVersion"), QStringLiteral("0")));
    multipart->append(
        filePart(QStringLiteral("programFile"), QFileInfo(programFilePath).fileName(), *bytes));
    handle(
        postMultipart(QStringLiteral("/v1/submit-program"), multipart), context,
        [done](int, const nlohmann::json& body) {
            done(QString::fromStdString(body.at("programHash").get<std::string>()));
        },
        [done](ApiError failure) { done(failure); });
}

void ProofClient::lookupFact(const QString& chain, const QString& factHash, bool mocked,
                             QObject* context, std::function<void(Result<FactLookup>)> done) {
    handle(
        get(QStringLiteral("/fact-registry/%1/%2").arg(chain, factHash),
            {{QStringLiteral("mocked"),
              mocked ? QStringLiteral("true") : QStringLiteral("false")}}),
        context,
        [done](int, const nlohmann::json& body) {
            FactLookup lookup;
            lookup.valid = body.at("valid").get<bool>();
            lookup.factHash = QString::fromStdString(body.value("factHash", ""));
            if (body.contains("entry") && body["entry"].is_object()) {
                const nlohmann::json& entry = body["entry"];
                lookup.transactionId = QString::fromStdString(entry.value("transactionId", ""));
                if (entry.contains("queryId") && entry["queryId"].is_string()) {
                    lookup.queryId = QString::fromStdString(entry["queryId"].get<std::string>());
                }
                lookup.registeredAt = QString::fromStdString(entry.value("registeredAt", ""));
            }
            done(lookup);
        },
        [done](ApiError failure) { done(failure); });
}

} // namespace proofdesk::client
