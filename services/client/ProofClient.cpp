#include "ProofClient.h"

#include "api/ProofBodies.h"

#include <QFile>
#include <QFileInfo>
#include <QHttpMultiPart>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSaveFile>
#include <QStringList>

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

QString shellQuoted(const QString& text) {
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// An optional text field: absent when empty.
std::optional<std::string> optionalText(const QString& text) {
    return text.isEmpty() ? std::nullopt : std::optional<std::string>(text.toStdString());
}

} // namespace

std::optional<QByteArray> readFormFile(const QString& path, QString* error) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QObject::tr("Cannot read %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    return file.readAll();
}

Submission toSubmission(const CoreQueryForm& form) {
    Submission submission{QStringLiteral("/core-query"), {}, {}};
    const auto addText = [&submission](const QString& name, const QString& value) {
        if (!value.isEmpty()) {
            submission.textParts.append({name, value});
        }
    };
    addText(QStringLiteral("result"), form.result);
    addText(QStringLiteral("layout"), form.layout);
    addText(QStringLiteral("optimize"), form.optimize);
    addText(QStringLiteral("cairoVm"), form.cairoVm);
    addText(QStringLiteral("cairoVersion"), form.cairoVersion);
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
                                     std::pair{QStringLiteral("pieFile"), form.pieFilePath},
                                     std::pair{QStringLiteral("proofFile"), form.proofFilePath}}) {
        if (!path.isEmpty()) {
            submission.fileParts.append({name, path});
        }
    }
    return submission;
}

Submission toSubmission(const V1Form& form) {
    using Route = V1Form::Route;
    Submission submission;
    switch (form.route) {
    case Route::TraceGeneration:
        submission.route = QString::fromLatin1(api::v1::kTraceGeneration.path);
        break;
    case Route::TraceAndProofGeneration:
        submission.route = QString::fromLatin1(api::v1::kTraceGenerationProofGeneration.path);
        break;
    case Route::PieProofAndVerificationL1:
        submission.route = QString::fromLatin1(api::v1::kL1ProofGenerationVerification.path);
        break;
    case Route::ProofVerificationL2:
        submission.route = QString::fromLatin1(api::v1::kL2ProofVerification.path);
        break;
    }
    const bool runsProgram =
        form.route == Route::TraceGeneration || form.route == Route::TraceAndProofGeneration;
    if (runsProgram) {
        if (!form.programFilePath.isEmpty()) {
            submission.fileParts.append({QStringLiteral("programFile"), form.programFilePath});
        } else {
            submission.textParts.append({QStringLiteral("programHash"), form.programHash});
        }
        if (!form.inputFilePath.isEmpty()) {
            submission.fileParts.append({QStringLiteral("inputFile"), form.inputFilePath});
        }
        submission.textParts.append({QStringLiteral("cairoVersion"), QStringLiteral("0")});
    } else if (form.route == Route::PieProofAndVerificationL1) {
        submission.fileParts.append({QStringLiteral("pieFile"), form.pieFilePath});
    } else {
        submission.fileParts.append({QStringLiteral("proofFile"), form.proofFilePath});
    }
    if (form.route == Route::TraceAndProofGeneration) {
        submission.textParts.append({QStringLiteral("prover"), QStringLiteral("vendor_sharp")});
        submission.textParts.append({QStringLiteral("layout"), form.layout});
        if (!form.optimize.isEmpty()) {
            submission.textParts.append({QStringLiteral("optimize"), form.optimize});
        }
    }
    if (!runsProgram) {
        submission.textParts.append(
            {QStringLiteral("mockFactHash"),
             form.mockFactHash ? QStringLiteral("true") : QStringLiteral("false")});
    }
    if (form.route == Route::ProofVerificationL2) {
        submission.textParts.append({QStringLiteral("stoneVersion"), form.stoneVersion});
        submission.textParts.append(
            {QStringLiteral("memoryVerification"), form.memoryVerification});
    }
    return submission;
}

bool needsPythonHints(const QString& error) {
    return error.contains(QLatin1String("no native implementation")) ||
           error.contains(QLatin1String("INPUT_FILE_NEEDS_CAIRO_VM_PYTHON"));
}

std::optional<Submission> withPythonHints(const Submission& submission) {
    Submission python = submission;
    for (auto& [name, value] : python.textParts) {
        if (name == QLatin1String("cairoVm")) {
            if (value == QLatin1String("python")) {
                return std::nullopt;
            }
            value = QStringLiteral("python");
            return python;
        }
    }
    return std::nullopt;
}

QString curlCommand(const QUrl& baseUrl, const Submission& submission, const QString& apiKey) {
    QUrl url = baseUrl;
    QString base = url.path();
    if (base.endsWith(QLatin1Char('/'))) {
        base.chop(1);
    }
    url.setPath(base + submission.route);
    const bool versioned = submission.route.startsWith(QStringLiteral("/v1/"));
    if (versioned) {
        url.setQuery(QStringLiteral("apiKey=") +
                     QString::fromUtf8(QUrl::toPercentEncoding(apiKey)));
    }
    QStringList words{QStringLiteral("curl -sS -X POST")};
    if (!versioned) {
        words << QStringLiteral("-H ") + shellQuoted(QStringLiteral("api-key: ") + apiKey);
    }
    for (const auto& [name, value] : submission.textParts) {
        words << QStringLiteral("-F ") + shellQuoted(name + QLatin1Char('=') + value);
    }
    for (const auto& [name, path] : submission.fileParts) {
        words << QStringLiteral("-F ") + shellQuoted(name + QStringLiteral("=@") + path);
    }
    words << shellQuoted(url.toString());
    return words.join(QStringLiteral(" \\\n    "));
}

ProofClient::ProofClient(QNetworkAccessManager* network, QUrl baseUrl, QString apiKey,
                         QObject* parent)
    : ServiceClient(network, std::move(baseUrl), parent), m_apiKey(std::move(apiKey)) {}

void ProofClient::setApiKey(const QString& apiKey) {
    if (apiKey != m_apiKey) {
        m_apiKey = apiKey;
        emit apiKeyChanged();
    }
}

Headers ProofClient::keyHeader() const {
    return keyHeaderOf(m_apiKey);
}

Headers ProofClient::keyHeaderOf(const QString& apiKey) {
    return {{QByteArrayLiteral("api-key"), apiKey.toUtf8()}};
}

void ProofClient::submit(const Submission& submission, QObject* context,
                         std::function<void(Result<QString>)> done) {
    auto* multipart = new QHttpMultiPart(QHttpMultiPart::FormDataType);
    for (const auto& [name, value] : submission.textParts) {
        multipart->append(textPart(name, value));
    }
    for (const auto& [name, path] : submission.fileParts) {
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
        postMultipart(submission.route, multipart, keyHeader()), context,
        [done](const nlohmann::json& body) {
            const char* field = body.contains("programHash") ? "programHash" : "coreQueryId";
            done(QString::fromStdString(body.at(field).get<std::string>()));
        },
        failWith(done));
}

void ProofClient::submitCoreQuery(const CoreQueryForm& form, QObject* context,
                                  std::function<void(Result<QString>)> done) {
    submit(toSubmission(form), context, std::move(done));
}

void ProofClient::listQueries(int limit, const QString& search, QObject* context,
                              std::function<void(Result<QueryPage>)> done) {
    QueryItems query = {{QStringLiteral("limit"), QString::number(limit)}};
    if (!search.isEmpty()) {
        query.append({QStringLiteral("search"), search});
    }
    handle(
        get(QStringLiteral("/core-queries"), query, keyHeader()), context,
        [done](const nlohmann::json& body) {
            QueryPage page;
            page.total = body.value("total", 0);
            for (const nlohmann::json& item : body.value("coreQueries", nlohmann::json::array())) {
                page.queries.push_back(api::proofQueryFromJson(item));
            }
            done(page);
        },
        failWith(done));
}

void ProofClient::coreQuery(const QString& id, QObject* context,
                            std::function<void(Result<api::CoreQueryResponse>)> done) {
    handle(
        get(QStringLiteral("/core-query/") + id, {}, keyHeader()), context,
        [done](const nlohmann::json& body) {
            api::CoreQueryResponse response;
            response.coreQuery = api::proofQueryFromJson(body.at("coreQuery"));
            response.metadataUrls = body.value("metadataUrls", std::vector<std::string>{});
            done(response);
        },
        failWith(done));
}

void ProofClient::submitProgram(const QString& programFilePath, QObject* context,
                                std::function<void(Result<QString>)> done) {
    submit({QString::fromLatin1(api::v1::kSubmitProgram.path),
            {{QStringLiteral("cairoVersion"), QStringLiteral("0")}},
            {{QStringLiteral("programFile"), programFilePath}}},
           context, std::move(done));
}

void ProofClient::lookupFact(const QString& chain, const QString& factHash, bool mocked,
                             QObject* context, std::function<void(Result<FactLookup>)> done) {
    handle(
        get(QStringLiteral("/fact-registry/%1/%2").arg(chain, factHash),
            {{QStringLiteral("mocked"), mocked ? QStringLiteral("true") : QStringLiteral("false")}},
            keyHeader()),
        context,
        [done](const nlohmann::json& body) {
            const api::FactRegistryAnswer answer = api::factRegistryAnswerFromJson(body);
            FactLookup lookup;
            lookup.valid = answer.valid;
            lookup.factHash = QString::fromStdString(answer.factHash);
            if (answer.entry) {
                lookup.transactionId = QString::fromStdString(answer.entry->transactionId);
                lookup.queryId = QString::fromStdString(answer.entry->queryId.value_or(""));
                lookup.registeredAt = QString::fromStdString(answer.entry->registeredAt);
            }
            done(lookup);
        },
        failWith(done));
}

void ProofClient::createBucket(const BucketForm& form, QObject* context,
                               std::function<void(Result<api::ProofBucket>)> done) {
    api::BucketCreation creation;
    creation.externalId = optionalText(form.externalId);
    creation.nodeWidth = form.nodeWidth;
    creation.aggregatorParams = optionalText(form.aggregatorParams);
    creation.mockProof = form.mockProof;
    const nlohmann::json body = api::toJson(creation);
    handle(
        postJson(QStringLiteral("/buckets"), body, keyHeader()), context,
        [done](const nlohmann::json& answer) {
            done(api::proofBucketFromJson(answer.at("coreBucket")));
        },
        failWith(done));
}

void ProofClient::credits(QObject* context, std::function<void(Result<api::ProjectCredits>)> done,
                          const QString& apiKey) {
    handle(
        get(QStringLiteral("/credits"), {}, apiKey.isEmpty() ? keyHeader() : keyHeaderOf(apiKey)),
        context,
        [done](const nlohmann::json& answer) { done(api::projectCreditsFromJson(answer)); },
        failWith(done));
}

void ProofClient::serverStatus(QObject* context,
                               std::function<void(Result<api::ServerStatus>)> done,
                               const QString& apiKey) {
    handle(
        get(QStringLiteral("/admin/status"), {},
            apiKey.isEmpty() ? keyHeader() : keyHeaderOf(apiKey)),
        context, [done](const nlohmann::json& answer) { done(api::serverStatusFromJson(answer)); },
        failWith(done));
}

void ProofClient::listBuckets(QObject* context,
                              std::function<void(Result<std::vector<api::ProofBucket>>)> done) {
    handle(
        get(QStringLiteral("/buckets"), {}, keyHeader()), context,
        [done](const nlohmann::json& body) {
            std::vector<api::ProofBucket> buckets;
            for (const nlohmann::json& item : body.at("data")) {
                buckets.push_back(api::proofBucketFromJson(item));
            }
            done(buckets);
        },
        failWith(done));
}

void ProofClient::bucket(const QString& id, QObject* context,
                         std::function<void(Result<BucketDetail>)> done) {
    handle(
        get(QStringLiteral("/buckets/") + id, {}, keyHeader()), context,
        [done](const nlohmann::json& body) {
            BucketDetail detail;
            detail.bucket = api::proofBucketFromJson(body.at("bucket"));
            for (const nlohmann::json& item : body.at("queries")) {
                detail.queries.push_back(api::proofQueryFromJson(item));
            }
            done(detail);
        },
        failWith(done));
}

void ProofClient::closeBucket(const QString& id, QObject* context,
                              std::function<void(Result<api::ProofBucket>)> done) {
    handle(
        postJson(QStringLiteral("/buckets/close"), nlohmann::json::object(), keyHeader(),
                 {{QStringLiteral("bucketId"), id}}),
        context,
        [done](const nlohmann::json& answer) {
            done(api::proofBucketFromJson(answer.at("coreBucket")));
        },
        failWith(done));
}

void ProofClient::artifactJson(const QUrl& url, QObject* context,
                               std::function<void(Result<nlohmann::json>)> done) {
    handle(
        getUrl(url, keyHeader()), context, [done](const nlohmann::json& body) { done(body); },
        failWith(done));
}

void ProofClient::download(const QUrl& url, const QString& filePath, QObject* context,
                           std::function<void(Result<qint64>)> done) {
    handleBytes(
        getUrl(url, keyHeader()), context,
        [done, filePath](const QByteArray& bytes) {
            QSaveFile file(filePath);
            if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() ||
                !file.commit()) {
                done(
                    ApiError{0, QStringLiteral("FILE_NOT_WRITABLE"),
                             QObject::tr("Cannot write %1: %2").arg(filePath, file.errorString())});
                return;
            }
            done(static_cast<qint64>(bytes.size()));
        },
        failWith(done));
}

} // namespace proofdesk::client
