// The console's proof-service client against an in-process server: submissions, reads, lists,
// and every failure turned into an ApiError with the server's code.

#include "ProofTestData.h"
#include "TestServer.h"

#include "client/ProofClient.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QNetworkAccessManager>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

using namespace proofdesk;
using namespace proofdesk::test;

namespace {

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& content) {
    const QString path = dir.filePath(name);
    QFile file(path);
    file.open(QIODevice::WriteOnly);
    file.write(content.data(), qint64(content.size()));
    return path;
}

} // namespace

class ProofClientTest : public QObject {
    Q_OBJECT
private slots:
    void submitsReadsAndListsOverHttp() {
        TestServer server;
        const QString key = server.mintKey(QStringLiteral("ui"));
        QNetworkAccessManager network;
        client::ProofClient proofs(&network, QUrl(server.url()), key);
        QTemporaryDir dir;
        client::CoreQueryForm form;
        form.programFilePath = writeFile(dir, QStringLiteral("p.json"), outputProgram(5));
        form.result = QStringLiteral("TRACE_GENERATION");
        form.dedupId = QStringLiteral("from-the-client");

        std::optional<client::Result<QString>> submitted;
        proofs.submitCoreQuery(form, this, [&](auto result) { submitted = result; });
        QTRY_VERIFY_WITH_TIMEOUT(submitted.has_value(), 10000);
        QVERIFY(std::holds_alternative<QString>(*submitted));
        const QString id = std::get<QString>(*submitted);
        QCOMPARE(id.size(), 26);

        std::optional<api::CoreQueryResponse> read;
        QDeadlineTimer deadline(20000);
        while (!read && !deadline.hasExpired()) {
            std::optional<client::Result<api::CoreQueryResponse>> answer;
            proofs.coreQuery(id, this, [&](auto result) { answer = result; });
            QTRY_VERIFY_WITH_TIMEOUT(answer.has_value(), 5000);
            if (auto* value = std::get_if<api::CoreQueryResponse>(&*answer);
                value && value->coreQuery.status == "DONE") {
                read = *value;
            }
        }
        QVERIFY(read.has_value());
        QCOMPARE(read->coreQuery.dedupId.value_or(""), std::string("from-the-client"));
        QCOMPARE(read->metadataUrls.size(), std::size_t(3));

        std::optional<client::Result<client::QueryPage>> page;
        proofs.listQueries(10, QString(), this, [&](auto result) { page = result; });
        QTRY_VERIFY_WITH_TIMEOUT(page.has_value(), 5000);
        QCOMPARE(std::get<client::QueryPage>(*page).total, 1);

        // Program registration gives the hash the query reports; a trace-only query registered
        // no fact.
        std::optional<client::Result<QString>> registered;
        proofs.submitProgram(form.programFilePath, this, [&](auto result) { registered = result; });
        QTRY_VERIFY_WITH_TIMEOUT(registered.has_value(), 10000);
        QCOMPARE(std::get<QString>(*registered).toStdString(), *read->coreQuery.programHash);
        std::optional<client::Result<client::FactLookup>> lookup;
        proofs.lookupFact(QStringLiteral("L1"),
                          QString::fromStdString(*read->coreQuery.sharpFactHash), true, this,
                          [&](auto result) { lookup = result; });
        QTRY_VERIFY_WITH_TIMEOUT(lookup.has_value(), 5000);
        QCOMPARE(std::get<client::FactLookup>(*lookup).valid, false);

        // The same dedup id again: the server's 409 code reaches the caller.
        std::optional<client::Result<QString>> repeated;
        proofs.submitCoreQuery(form, this, [&](auto result) { repeated = result; });
        QTRY_VERIFY_WITH_TIMEOUT(repeated.has_value(), 10000);
        const auto& error = std::get<client::ApiError>(*repeated);
        QCOMPARE(error.status, 409);
        QCOMPARE(error.code, QStringLiteral("CORE_QUERY_WITH_DEDUP_ID_ALREADY_EXISTS"));
    }

    // Each /v1 form becomes its route and exactly the parts that route takes (the server refuses
    // unknown parts, so the trace submission reaching 201 checks them against the server too).
    void v1FormsBecomeTheirRoutesAndParts() {
        using Route = client::V1Form::Route;
        const auto names = [](const client::QueryItems& items) {
            QStringList list;
            for (const auto& [name, value] : items) {
                list << name;
            }
            return list;
        };
        client::V1Form form;
        form.programFilePath = QStringLiteral("p.json");
        form.inputFilePath = QStringLiteral("in.json");
        client::Submission trace = client::toSubmission(form);
        QCOMPARE(trace.route, QStringLiteral("/v1/trace-generation"));
        QCOMPARE(names(trace.fileParts),
                 (QStringList{QStringLiteral("programFile"), QStringLiteral("inputFile")}));
        QCOMPARE(names(trace.textParts), QStringList{QStringLiteral("cairoVersion")});

        form.route = Route::TraceAndProofGeneration;
        form.programFilePath.clear();
        form.programHash = QStringLiteral("0x1234");
        const client::Submission prove = client::toSubmission(form);
        QCOMPARE(prove.route, QStringLiteral("/v1/trace-generation-proof-generation"));
        QCOMPARE(names(prove.textParts),
                 (QStringList{QStringLiteral("programHash"), QStringLiteral("cairoVersion"),
                              QStringLiteral("prover"), QStringLiteral("layout")}));
        // The profile (issue #48) goes as the `optimize` part when one is picked.
        form.optimize = QStringLiteral("size");
        QCOMPARE(client::toSubmission(form).textParts.constLast(),
                 (std::pair{QStringLiteral("optimize"), QStringLiteral("size")}));
        form.optimize.clear();

        client::V1Form pie;
        pie.route = Route::PieProofAndVerificationL1;
        pie.pieFilePath = QStringLiteral("run.zip");
        pie.mockFactHash = true;
        const client::Submission l1 = client::toSubmission(pie);
        QCOMPARE(l1.route, QStringLiteral("/v1/l1/core-query/proof-generation-verification"));
        QCOMPARE(names(l1.fileParts), QStringList{QStringLiteral("pieFile")});
        QCOMPARE(l1.textParts.value(0).second, QStringLiteral("true"));

        client::V1Form proof;
        proof.route = Route::ProofVerificationL2;
        proof.proofFilePath = QStringLiteral("proof.json");
        const client::Submission l2 = client::toSubmission(proof);
        QCOMPARE(l2.route, QStringLiteral("/v1/l2/core-query/proof-verification"));
        QCOMPARE(names(l2.fileParts), QStringList{QStringLiteral("proofFile")});
        QCOMPARE(names(l2.textParts),
                 (QStringList{QStringLiteral("mockFactHash"), QStringLiteral("stoneVersion"),
                              QStringLiteral("memoryVerification")}));

        TestServer server;
        QNetworkAccessManager network;
        client::ProofClient proofs(&network, QUrl(server.url()),
                                   server.mintKey(QStringLiteral("v1")));
        QTemporaryDir dir;
        client::V1Form real;
        real.programFilePath = writeFile(dir, QStringLiteral("p.json"), outputProgram(3));
        std::optional<client::Result<QString>> submitted;
        proofs.submit(client::toSubmission(real), this, [&](auto result) { submitted = result; });
        QTRY_VERIFY_WITH_TIMEOUT(submitted.has_value(), 10000);
        QVERIFY(std::holds_alternative<QString>(*submitted));
    }

    // The console's offer to run a program's hints as Python: which errors call for it, and the
    // submission it sends.
    void pythonHintsAreOfferedForHintsWithoutANativeImplementation() {
        QVERIFY(client::needsPythonHints(
            QStringLiteral("unknown hint at pc 0 (no native implementation; run with "
                           "cairoVm=python to run it as Python):\nx = 1")));
        QVERIFY(client::needsPythonHints(QStringLiteral("INPUT_FILE_NEEDS_CAIRO_VM_PYTHON")));
        QVERIFY(!client::needsPythonHints(QStringLiteral("INVALID_PROGRAM_FILE")));

        client::CoreQueryForm form;
        form.programFilePath = QStringLiteral("program.json");
        const client::Submission rust = client::toSubmission(form);
        const auto python = client::withPythonHints(rust);
        QVERIFY(python.has_value());
        QCOMPARE(python->route, rust.route);
        QCOMPARE(python->fileParts, rust.fileParts);
        QVERIFY(python->textParts.contains({QStringLiteral("cairoVm"), QStringLiteral("python")}));
        QVERIFY(!python->textParts.contains({QStringLiteral("cairoVm"), QStringLiteral("rust")}));
        QCOMPARE(python->textParts.size(), rust.textParts.size());
        QVERIFY(!client::withPythonHints(*python)); // already Python
        client::V1Form v1;
        v1.programFilePath = QStringLiteral("program.json");
        QVERIFY(!client::withPythonHints(client::toSubmission(v1))); // no cairoVm on /v1
    }

    void failuresBecomeApiErrors() {
        TestServer server;
        QNetworkAccessManager network;
        client::ProofClient badKey(&network, QUrl(server.url()), QStringLiteral("pdk_nope"));
        std::optional<client::Result<client::QueryPage>> page;
        badKey.listQueries(10, QString(), this, [&](auto result) { page = result; });
        QTRY_VERIFY_WITH_TIMEOUT(page.has_value(), 5000);
        const auto& error = std::get<client::ApiError>(*page);
        QCOMPARE(error.status, 401);
        QCOMPARE(error.code, QStringLiteral("INVALID_API_KEY"));
        QCOMPARE(error.message(),
                 QStringLiteral("INVALID_API_KEY (401): sign in with a wallet, or paste an API "
                                "key of this server"));

        client::ProofClient nowhere(&network, QUrl(QStringLiteral("http://127.0.0.1:1")),
                                    QStringLiteral("k"));
        std::optional<client::Result<client::QueryPage>> unreachable;
        nowhere.listQueries(10, QString(), this, [&](auto result) { unreachable = result; });
        QTRY_VERIFY_WITH_TIMEOUT(unreachable.has_value(), 10000);
        QCOMPARE(std::get<client::ApiError>(*unreachable).code, QStringLiteral("UNREACHABLE"));

        client::CoreQueryForm form;
        form.programFilePath = QStringLiteral("/no/such/file.json");
        std::optional<client::Result<QString>> missing;
        badKey.submitCoreQuery(form, this, [&](auto result) { missing = result; });
        QVERIFY(missing.has_value()); // refused before any request
        QCOMPARE(std::get<client::ApiError>(*missing).code, QStringLiteral("FILE_NOT_READABLE"));
    }

    // Issue #47: after the console's own server stops, its port may be another process's; the
    // clients send it nothing (no key) and say why, until they are pointed at a server again.
    void aStoppedServerIsAskedNothing() {
        QTcpServer foreign;
        QVERIFY(foreign.listen(QHostAddress::LocalHost));
        QNetworkAccessManager network;
        client::ProofClient proofs(
            &network, QUrl(QStringLiteral("http://127.0.0.1:%1").arg(foreign.serverPort())),
            QStringLiteral("pdk_secret"));
        proofs.markStopped(QStringLiteral("the local server is stopped"));
        QVERIFY(proofs.isStopped());
        std::optional<client::Result<client::QueryPage>> page;
        proofs.listQueries(10, QString(), this, [&](auto result) { page = result; });
        QTRY_VERIFY_WITH_TIMEOUT(page.has_value(), 5000);
        const auto& error = std::get<client::ApiError>(*page);
        QCOMPARE(error.status, 0);
        QCOMPARE(error.code, QStringLiteral("SERVER_STOPPED"));
        QCOMPARE(error.message(), QStringLiteral("SERVER_STOPPED: the local server is stopped"));
        QVERIFY(!foreign.hasPendingConnections());

        TestServer server;
        proofs.setBaseUrl(QUrl(server.url()));
        QVERIFY(!proofs.isStopped());
        page.reset();
        proofs.listQueries(10, QString(), this, [&](auto result) { page = result; });
        QTRY_VERIFY_WITH_TIMEOUT(page.has_value(), 5000);
        QCOMPARE(std::get<client::ApiError>(*page).code, QStringLiteral("INVALID_API_KEY"));
        QVERIFY(!foreign.hasPendingConnections());
    }

    void aCallbackWhoseContextIsGoneIsNotCalled() {
        TestServer server;
        QNetworkAccessManager network;
        client::ProofClient proofs(&network, QUrl(server.url()), QStringLiteral("pdk_nope"));
        bool called = false;
        auto* context = new QObject;
        // The manager's finished() comes after the reply's, which is where the client decides.
        QSignalSpy finished(&network, &QNetworkAccessManager::finished);
        proofs.listQueries(10, QString(), context, [&](auto) { called = true; });
        delete context;
        QVERIFY(finished.wait(5000));
        QVERIFY(!called);
    }
};

QTEST_GUILESS_MAIN(ProofClientTest)
#include "tst_proof_client.moc"
