#pragma once

#include "ServiceClient.h"
#include "api/AdminWire.h"
#include "api/ProofWire.h"

#include <QString>
#include <QUrl>

#include <optional>
#include <vector>

namespace proofdesk::client {

// One proof-service submission as multipart parts (docs/api.md): the route, its
// text parts and its file parts (part name -> local path). The console's forms build these; the
// client sends them, and curlCommand() spells the same request for a terminal.
struct Submission {
    QString route;
    QueryItems textParts;
    QueryItems fileParts;
};

// A core-query submission as the console's form builds it (docs/api.md).
struct CoreQueryForm {
    QString programFilePath;
    QString inputFilePath;
    QString pieFilePath;
    QString proofFilePath;
    QString programHash;
    QString result = QStringLiteral("PROOF_GENERATION");
    QString layout = QStringLiteral("auto");
    QString optimize; // "time" or "size" (Proofdesk's `optimize` part); empty: the server's default
    QString cairoVm = QStringLiteral("rust"); // python: hints without a native implementation too
    QString cairoVersion; // empty: the server's default (cairo0); cairo1 for a Cairo 1 program
    bool mockFactHash = false;
    QString externalId;
    QString dedupId;
    QString bucketId;
    QString network = QStringLiteral("TESTNET");
    QString declaredJobSize = QStringLiteral("S");
};
Submission toSubmission(const CoreQueryForm& form);

// A submission to one of the /v1 routes. The source is a file (programFilePath for the trace
// routes, pieFilePath for PieOnL1, proofFilePath for ProofOnL2) or, on the trace routes, a
// registered programHash.
struct V1Form {
    enum class Route {
        TraceGeneration,           // POST /v1/trace-generation
        TraceAndProofGeneration,   // POST /v1/trace-generation-proof-generation
        PieProofAndVerificationL1, // POST /v1/l1/core-query/proof-generation-verification
        ProofVerificationL2        // POST /v1/l2/core-query/proof-verification
    };
    Route route = Route::TraceGeneration;
    QString programFilePath;
    QString programHash;
    QString inputFilePath;
    QString pieFilePath;
    QString proofFilePath;
    QString layout = QStringLiteral("auto");               // TraceAndProofGeneration
    QString optimize;                                      // TraceAndProofGeneration; as above
    bool mockFactHash = false;                             // the L1 and L2 routes
    QString stoneVersion = QStringLiteral("stone6");       // ProofVerificationL2
    QString memoryVerification = QStringLiteral("strict"); // ProofVerificationL2
};
Submission toSubmission(const V1Form& form);

// Whether an error (a failed query's errorReason, a refusal's detail) says the program has a hint
// without a native implementation, which cairoVm=python would run as Python.
bool needsPythonHints(const QString& error);
// The same submission asking for cairoVm=python; nullopt when its route takes no cairoVm or it
// already asks for python.
std::optional<Submission> withPythonHints(const Submission& submission);

// The request as a shell command (POSIX quoting); the key goes where the spec carries it: the
// api-key header on unversioned routes, the apiKey query parameter on /v1 routes.
QString curlCommand(const QUrl& baseUrl, const Submission& submission, const QString& apiKey);

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

// POST /buckets body (docs/api.md); empty strings and nullopt are sent as null.
struct BucketForm {
    QString externalId;
    std::optional<int> nodeWidth;
    QString aggregatorParams;
    bool mockProof = false;
};

// GET /buckets/{id}
struct BucketDetail {
    api::ProofBucket bucket;
    std::vector<api::ProofQuery> queries;
};

// The proof service over HTTP. Used by the console for the embedded server and for remote
// deployments alike; the API key can change (the keys page picks the active one).
class ProofClient : public ServiceClient {
    Q_OBJECT
public:
    ProofClient(QNetworkAccessManager* network, QUrl baseUrl, QString apiKey,
                QObject* parent = nullptr);

    const QString& apiKey() const { return m_apiKey; }
    void setApiKey(const QString& apiKey);

    // Any submission: answers the id the route returns (coreQueryId, or programHash for
    // /v1/submit-program).
    void submit(const Submission& submission, QObject* context,
                std::function<void(Result<QString>)> done);
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

    // GET /credits (ours): the key's project and its credits (nullopt: unlimited). With `apiKey`,
    // asks about that key instead of the console's (a pasted key, checked before it is used).
    void credits(QObject* context, std::function<void(Result<api::ProjectCredits>)> done,
                 const QString& apiKey = {});
    // GET /admin/status (ours, an admin key only): the server's store, job workers and queue.
    // With `apiKey`, asks with that key instead of the console's.
    void serverStatus(QObject* context, std::function<void(Result<api::ServerStatus>)> done,
                      const QString& apiKey = {});
    void createBucket(const BucketForm& form, QObject* context,
                      std::function<void(Result<api::ProofBucket>)> done);
    void listBuckets(QObject* context,
                     std::function<void(Result<std::vector<api::ProofBucket>>)> done);
    void bucket(const QString& id, QObject* context,
                std::function<void(Result<BucketDetail>)> done);
    void closeBucket(const QString& id, QObject* context,
                     std::function<void(Result<api::ProofBucket>)> done);

    // Fetches an artifact URL (a metadataUrls entry) into `filePath`, written atomically;
    // answers the number of bytes written.
    // A JSON artifact (verification.json, metadata.json) read into memory.
    void artifactJson(const QUrl& url, QObject* context,
                      std::function<void(Result<nlohmann::json>)> done);
    void download(const QUrl& url, const QString& filePath, QObject* context,
                  std::function<void(Result<qint64>)> done);

signals:
    void apiKeyChanged();

private:
    Headers keyHeader() const;
    static Headers keyHeaderOf(const QString& apiKey);

    QString m_apiKey;
};

// Reads a file the form names; nullopt with a message when it cannot be read.
std::optional<QByteArray> readFormFile(const QString& path, QString* error);

} // namespace proofdesk::client
