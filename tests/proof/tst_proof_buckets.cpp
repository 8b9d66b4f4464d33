// The proof service's buckets (create, list, close, the aggregation tree and its registered
// root, failures) and project credits (the x402 answer), over HTTP.

#include "ProofHttpSupport.h"
#include "ProofTestData.h"

#include "crypto/Keccak.h"
#include "proof/ProofService.h"

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

class ProofBucketsTest : public QObject {
    Q_OBJECT
private slots:
    void bucketsAggregateTheirMembersFacts() {
        TestServer server;
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        const Project beta = newProject(server, QStringLiteral("beta"));
        TestHttp http(server.url());

        const Reply created = http.postJson(
            "/buckets", {{"externalId", "b-1"}, {"nodeWidth", 2}, {"mockProof", true}},
            keyHeader(alpha));
        QCOMPARE(created.status, 201);
        const json bucket = created.json()["coreBucket"];
        QCOMPARE(keysOf(bucket),
                 (std::set<std::string>{"id", "externalId", "status", "aggregatorVersion",
                                        "aggregatorParams", "nodeWidth", "leaves", "chain",
                                        "mockProof", "projectId", "createdByClient", "createdAt"}));
        QCOMPARE(bucket["status"].get<std::string>(), std::string("OPEN"));
        QCOMPARE(bucket["leaves"].get<int>(), 0);
        QCOMPARE(bucket["chain"].get<std::string>(), std::string("L1"));
        const std::string bucketId = bucket["id"];

        std::vector<std::string> members;
        for (int i = 0; i < 3; ++i) {
            const Reply member =
                http.postMultipart("/core-query",
                                   {file("programFile", outputProgram(100 + i), "p.json"),
                                    text("bucketId", bucketId), text("result", "PROOF_GENERATION")},
                                   keyHeader(alpha));
            QCOMPARE(member.status, 201);
            members.push_back(member.json()["coreQueryId"]);
        }
        const json listed = http.get("/buckets", keyHeader(alpha)).json();
        QCOMPARE(listed["total"].get<int>(), 1);
        QCOMPARE(listed["data"][0]["leaves"].get<int>(), 3);
        QCOMPARE(http.get("/buckets", keyHeader(beta)).json()["total"].get<int>(), 0);

        // Another project may not close it, and learns nothing: the same answer as a submission
        // into it (issue #18: it was 403 here and 404 there).
        const Reply foreign = http.post("/buckets/close?bucketId=" + bucketId, "", keyHeader(beta));
        QCOMPARE(foreign.status, 404);
        COMPARE_JSON(foreign.json(), json({{"error", "BUCKET_NOT_FOUND"}}));
        // Nor read it (issue #43: the read answered 200 to another project's key), and a read
        // needs a key at all.
        for (const std::string path : {"/buckets/", "/docs/buckets/"}) {
            const Reply foreignRead = http.get(path + bucketId, keyHeader(beta));
            QCOMPARE(foreignRead.status, 404);
            COMPARE_JSON(foreignRead.json(), json({{"error", "BUCKET_NOT_FOUND"}}));
            const Reply keyless = http.get(path + bucketId);
            QCOMPARE(keyless.status, 401);
            COMPARE_JSON(keyless.json(), json({{"error", "MISSING_API_KEY"}}));
        }
        const Reply foreignSubmit = http.postMultipart(
            "/core-query",
            {file("programFile", outputProgram(7), "p.json"), text("bucketId", bucketId)},
            keyHeader(beta));
        QCOMPARE(foreignSubmit.status, 404);
        QCOMPARE(foreignSubmit.json()["message"].get<std::string>(),
                 std::string("BUCKET_NOT_FOUND"));
        // Without bucketId: the key's newest OPEN bucket.
        const Reply closed = http.post("/buckets/close", "", keyHeader(alpha));
        QCOMPARE(closed.status, 200);
        QCOMPARE(closed.json()["coreBucket"]["id"].get<std::string>(), bucketId);
        QCOMPARE(closed.json()["coreBucket"]["status"].get<std::string>(),
                 std::string("IN_PROGRESS"));
        const Reply nothingOpen = http.post("/buckets/close", "", keyHeader(alpha));
        QCOMPARE(nothingOpen.status, 404);
        COMPARE_JSON(nothingOpen.json(), json({{"error", "BUCKET_NOT_FOUND"}}));

        const json done = waitForBucket(http, bucketId, "DONE", keyHeader(alpha));
        QVERIFY(!done.is_null());
        COMPARE_JSON(done["queries"].size(), std::size_t(4));
        QVERIFY(!done["queries"][0].contains("client"));
        std::vector<QByteArray> leaves;
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(done["queries"][i]["bucketJobIndex"].get<int>(), i);
            QCOMPARE(done["queries"][i]["id"].get<std::string>(), members[std::size_t(i)]);
            QCOMPARE(done["queries"][i]["isProofMocked"].get<bool>(), true);
            leaves.push_back(QByteArray::fromHex(QByteArray::fromStdString(
                done["queries"][i]["sharpFactHash"].get<std::string>().substr(2))));
        }
        const json aggregator = done["queries"][3];
        QCOMPARE(aggregator["bucketJobIndex"].get<int>(), -1);
        QCOMPARE(aggregator["step"].get<std::string>(), std::string("FACT_HASH_REGISTRATION"));
        QCOMPARE(aggregator["status"].get<std::string>(), std::string("DONE"));
        // nodeWidth 2 over three leaves: [k(l0 l1), k(l2)] then the root k(n0 n1).
        const QByteArray n0 = crypto::keccak256(leaves[0] + leaves[1]);
        const QByteArray n1 = crypto::keccak256(leaves[2]);
        const std::string root = "0x" + crypto::keccak256(n0 + n1).toHex().toStdString();
        QCOMPARE(aggregator["sharpFactHash"].get<std::string>(), root);
        QCOMPARE(aggregator["isFactMocked"].get<bool>(), true);
        const json registered = http.get("/fact-registry/L1/" + root + "?mocked=true").json();
        QCOMPARE(registered["valid"].get<bool>(), true);
        COMPARE_JSON(registered["entry"]["transactionId"], aggregator["transactionId"]);
        COMPARE_JSON(http.get("/fact-registry/L1/" + root).json()["valid"], json(false));
        const json tree =
            http.get("/artifacts/" + aggregator["id"].get<std::string>() + "/tree.json").json();
        COMPARE_JSON(tree["levels"].size(), std::size_t(3));
        QCOMPARE(tree["root"].get<std::string>(), root);

        // The older /docs variants.
        const Reply docsMissing =
            http.postJson("/docs/buckets?apiKey=" + alpha.key, {{"externalId", nullptr}});
        QCOMPARE(docsMissing.status, 400);
        QCOMPARE(docsMissing.json()["error"].get<std::string>(), std::string("MISSING_FIELD"));
        const Reply docsCreated = http.postJson(
            "/docs/buckets?apiKey=" + alpha.key,
            {{"aggregatorVersion", "snos_aggregator_0.13.2"}, {"nodeWidth", nullptr}});
        QCOMPARE(docsCreated.status, 201);
        const json docsBucket = docsCreated.json()["coreBucket"];
        QVERIFY(!docsBucket.contains("chain") && !docsBucket.contains("mockProof"));
        QCOMPARE(docsBucket["aggregatorVersion"].get<std::string>(),
                 std::string("snos_aggregator_0.13.2"));
        const json docsRead =
            http.get("/docs/buckets/" + docsBucket["id"].get<std::string>(), keyHeader(alpha))
                .json();
        QCOMPARE(keysOf(docsRead), (std::set<std::string>{"bucket", "queries"}));
        QVERIFY(!docsRead["bucket"].contains("chain"));

        QCOMPARE(http.postJson("/buckets", {{"nodeWidth", 1}}, keyHeader(alpha)).status, 400);
        QCOMPARE(http.postJson("/buckets", {{"colour", "red"}}, keyHeader(alpha)).status, 400);
        QCOMPARE(http.postJson("/buckets", {{"mockProof", "yes"}}, keyHeader(alpha)).status, 400);
        const Reply noKey = http.postJson("/buckets", json::object());
        QCOMPARE(noKey.status, 401);
        COMPARE_JSON(noKey.json(), json({{"error", "MISSING_API_KEY"}}));
        const Reply unknown = http.get("/buckets/01NOSUCHBUCKET", keyHeader(alpha));
        QCOMPARE(unknown.status, 404);
        COMPARE_JSON(unknown.json(), json({{"error", "BUCKET_NOT_FOUND"}}));
    }

    void aBucketWithoutMockProofsProvesItsMembersForReal() {
        TestServer server; // the builtin prover
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const std::string bucketId =
            http.postJson("/buckets", {{"nodeWidth", 2}, {"mockProof", false}}, keyHeader(alpha))
                .json()["coreBucket"]["id"];
        std::vector<std::string> members;
        for (int i = 0; i < 2; ++i) {
            members.push_back(
                http.postMultipart("/core-query",
                                   {file("programFile", proofModeOutputProgram(40 + i), "p.json"),
                                    text("layout", "small"), text("bucketId", bucketId),
                                    text("result", "PROOF_GENERATION")},
                                   keyHeader(alpha))
                    .json()["coreQueryId"]);
        }
        QCOMPARE(http.post("/buckets/close?bucketId=" + bucketId, "", keyHeader(alpha)).status,
                 200);
        const json done = waitForBucket(http, bucketId, "DONE", keyHeader(alpha), 120000);
        QVERIFY(!done.is_null());
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(done["queries"][i]["isProofMocked"].get<bool>(), false);
            const json proof =
                http.get("/artifacts/" + members[std::size_t(i)] + "/proof.json").json();
            QVERIFY(proof.contains("proof_hex"));
            QVERIFY(!proof.contains("mocked"));
        }
    }

    void aFailedMemberFailsTheBucket() {
        server::ServerOptions options;
        options.provers.engine = QStringLiteral("mock"); // the members are not proof-mode programs
        TestServer server(options);
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const std::string bucketId =
            http.postJson("/buckets", json::object(), keyHeader(alpha)).json()["coreBucket"]["id"];
        http.postMultipart("/core-query",
                           {file("programFile", outputProgram(1), "p.json"),
                            text("bucketId", bucketId), text("bucketJobIndex", "5")},
                           keyHeader(alpha));
        const Reply taken =
            http.postMultipart("/core-query",
                               {file("programFile", outputProgram(2), "p.json"),
                                text("bucketId", bucketId), text("bucketJobIndex", "5")},
                               keyHeader(alpha));
        QCOMPARE(taken.status, 409);
        QCOMPARE(taken.json()["message"].get<std::string>(), std::string("BUCKET_JOB_INDEX_TAKEN"));
        const std::string bad =
            http.postMultipart(
                    "/core-query",
                    {file("programFile", failingProgram(), "bad.json"), text("bucketId", bucketId)},
                    keyHeader(alpha))
                .json()["coreQueryId"];
        QCOMPARE(http.post("/buckets/close?bucketId=" + bucketId, "", keyHeader(alpha)).status,
                 200);
        const json failed = waitForBucket(http, bucketId, "FAILED", keyHeader(alpha));
        QVERIFY(!failed.is_null());
        QCOMPARE(failed["queries"][1]["bucketJobIndex"].get<int>(), 6); // after the given 5
        const json aggregator = failed["queries"][2];
        QCOMPARE(aggregator["status"].get<std::string>(), std::string("FAILED"));
        QVERIFY(aggregator["errorReason"].get<std::string>().find(bad) != std::string::npos);
    }

    void creditsRunOutWithAPaymentRequiredAnswer() {
        TestServer server;
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        server.server().proofs().credits().setBalance(alpha.id, 1);
        const Part programFile = file("programFile", outputProgram(3), "p.json");
        QCOMPARE(http.postMultipart("/core-query", {programFile}, keyHeader(alpha)).status, 201);
        QCOMPARE(server.server().proofs().credits().balance(alpha.id), std::optional<qint64>(0));
        const Reply refused = http.postMultipart("/core-query", {programFile}, keyHeader(alpha));
        QCOMPARE(refused.status, 402);
        const json body = refused.json();
        QCOMPARE(keysOf(body), (std::set<std::string>{"paymentRequired", "paymentRequiredHeader"}));
        QCOMPARE(body["paymentRequired"]["x402Version"].get<int>(), 2);
        QCOMPARE(body["paymentRequired"]["error"].get<std::string>(),
                 std::string("insufficient_credits"));
        const json accept = body["paymentRequired"]["accepts"][0];
        QCOMPARE(keysOf(accept),
                 (std::set<std::string>{"scheme", "network", "asset", "payTo", "amount", "resource",
                                        "mimeType", "statement", "maxTimeoutSeconds", "extra"}));
        QVERIFY(accept["maxTimeoutSeconds"].is_number_integer());
        QCOMPARE(refused.header("PAYMENT-REQUIRED"),
                 body["paymentRequiredHeader"].get<std::string>());
        const json decoded = json::parse(
            QByteArray::fromBase64(QByteArray::fromStdString(body["paymentRequiredHeader"]))
                .toStdString());
        COMPARE_JSON(decoded, body["paymentRequired"]);
        QCOMPARE(http.get("/core-queries", keyHeader(alpha)).json()["total"].get<int>(), 1);
        server.server().proofs().credits().setBalance(alpha.id, std::nullopt); // unlimited again
        QCOMPARE(http.postMultipart("/core-query", {programFile}, keyHeader(alpha)).status, 201);
    }
};

QTEST_GUILESS_MAIN(ProofBucketsTest)
#include "tst_proof_buckets.moc"
