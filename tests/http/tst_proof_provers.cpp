// The proof service's provers over HTTP: none configured, Stone's binaries (stand-in scripts that
// check what they are given), a crashing prover retried then given up, and a stopped server
// resuming its queries.

#include "ProofHttpSupport.h"
#include "ProofTestData.h"

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

class ProofProversTest : public QObject {
    Q_OBJECT
private slots:
    void withoutAProverProofRequestsFailSayingHowToConfigureOne() {
        http::ServerOptions options;
        options.provers.engine = QStringLiteral("none");
        TestServer server(options);
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const Reply submitted = http.postMultipart(
            "/core-query", {file("programFile", outputProgram(3), "p.json")}, keyHeader(alpha));
        const json query = waitForEnd(http, submitted.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("FAILED"));
        QCOMPARE(query["step"].get<std::string>(), std::string("PROOF_GENERATION"));
        QVERIFY(query["errorReason"].get<std::string>().find("--stone-prover") !=
                std::string::npos);
        // Trace generation alone still works.
        const Reply trace = http.postMultipart(
            "/core-query",
            {file("programFile", outputProgram(3), "p.json"), text("result", "TRACE_GENERATION")},
            keyHeader(alpha));
        COMPARE_JSON(waitForEnd(http, trace.json()["coreQueryId"])["coreQuery"]["status"],
                     json("DONE"));
    }

    void stoneBinariesAreRunOnTheProofModeOutputs() {
        QTemporaryDir tools;
        // Stand-ins for cpu_air_prover / cpu_air_verifier: check the files they are given exist
        // and answer like the real tools (proof.json written; exit status).
        http::ServerOptions options;
        options.provers.stoneProver = writeScript(
            tools.path(), QStringLiteral("prover"),
            "for f in private_input.json public_input.json cpu_air_params.json "
            "cpu_air_prover_config.json trace.bin memory.bin; do test -s $f || exit 3; done\n"
            "grep -q '\"n_steps\"' public_input.json || exit 4\n"
            "echo '{\"proof_hex\": \"0xabc\", \"stub\": true}' > proof.json");
        options.provers.stoneVerifier =
            writeScript(tools.path(), QStringLiteral("verifier"), "test -s proof.json");
        options.provers.verifier = QStringLiteral("stone");
        TestServer server(options);
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const Reply submitted = http.postMultipart(
            "/core-query",
            {file("programFile", proofModeOutputProgram(11), "p.json"), text("layout", "small"),
             text("result", "PROOF_VERIFICATION_ON_L1")},
            keyHeader(alpha));
        const json query = waitForEnd(http, submitted.json()["coreQueryId"])["coreQuery"];
        QVERIFY2(query["status"] == "DONE", query.dump().c_str());
        QCOMPARE(query["isProofMocked"].get<bool>(), false);
        QCOMPARE(query["isFactMocked"].get<bool>(), false);
        const json proof =
            http.get("/artifacts/" + query["id"].get<std::string>() + "/proof.json").json();
        QCOMPARE(proof["stub"].get<bool>(), true);
        // Verified facts go to the real namespace.
        const std::string fact = query["sharpFactHash"];
        COMPARE_JSON(http.get("/fact-registry/L1/" + fact).json()["valid"], json(true));

        // A program not compiled for proof mode cannot go to Stone: a permanent failure.
        const Reply plain = http.postMultipart(
            "/core-query", {file("programFile", outputProgram(11), "p.json")}, keyHeader(alpha));
        const json refused = waitForEnd(http, plain.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(refused["status"].get<std::string>(), std::string("FAILED"));
        QVERIFY(refused["errorReason"].get<std::string>().find("--proof_mode") !=
                std::string::npos);
    }

    void aCrashingProverIsRetriedThenGivenUp() {
        QTemporaryDir tools;
        http::ServerOptions options;
        options.provers.stoneProver = writeScript(tools.path(), QStringLiteral("prover"),
                                                  "echo 'segfault-ish' >&2; exit 139");
        TestServer server(options);
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const Reply submitted = http.postMultipart(
            "/core-query", {file("programFile", proofModeOutputProgram(1), "p.json")},
            keyHeader(alpha));
        const json query = waitForEnd(http, submitted.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("FAILED"));
        QCOMPARE(query["retryCount"].get<int>(), 2);
        QCOMPARE(query["retryBlockedReason"].get<std::string>(),
                 std::string("MAX_RETRIES_REACHED"));
        const std::string reason = query["errorReason"];
        QVERIFY2(reason.find("exit 139") != std::string::npos &&
                     reason.find("segfault-ish") != std::string::npos &&
                     reason.find("3 attempts") != std::string::npos,
                 reason.c_str());
    }

    void aStoppedServerResumesItsQueriesOnRestart() {
        QTemporaryDir dataDir;
        QTemporaryDir tools;
        std::string id;
        Project alpha;
        {
            // A prover that never finishes: the query is mid-pipeline when the server stops.
            http::ServerOptions options;
            options.dataDir = dataDir.path();
            options.provers.stoneProver =
                writeScript(tools.path(), QStringLiteral("prover"), "exec sleep 600");
            TestServer server(options);
            alpha = newProject(server, QStringLiteral("alpha"));
            TestHttp http(server.url());
            id = http.postMultipart("/core-query",
                                    {file("programFile", proofModeOutputProgram(4), "p.json")},
                                    keyHeader(alpha))
                     .json()["coreQueryId"];
            QDeadlineTimer deadline(20000);
            json query;
            while (!deadline.hasExpired()) {
                query = http.get("/core-query/" + id).json()["coreQuery"];
                if (query["step"] == "PROOF_GENERATION" && query["status"] == "IN_PROGRESS") {
                    break;
                }
                QTest::qWait(5);
            }
            QCOMPARE(query["step"].get<std::string>(), std::string("PROOF_GENERATION"));
        }
        // Restarted with the mock prover: the interrupted stage runs again and finishes.
        http::ServerOptions options;
        options.dataDir = dataDir.path();
        options.provers.engine = QStringLiteral("mock");
        TestServer server(options);
        QVERIFY2(server.ok(), qPrintable(server.error()));
        TestHttp http(server.url());
        const json query = waitForEnd(http, id)["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("DONE"));
        QCOMPARE(query["isProofMocked"].get<bool>(), true);
        QCOMPARE(query["retryCount"].get<int>(), 0); // a graceful stop is not a failed attempt
    }
};

QTEST_GUILESS_MAIN(ProofProversTest)
#include "tst_proof_provers.moc"
