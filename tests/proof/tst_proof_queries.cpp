// HTTP contract tests of the stored proof queries (services/proof/ProofQueries): reads, lists,
// searches and dedup lookups, each in its project only, in the full and the /docs views.

#include "ProofHttpSupport.h"
#include "ProofTestData.h"

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

class ProofQueriesTest : public QObject {
    Q_OBJECT
private slots:
    void readsListsAndDedupLookups() {
        TestServer server;
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        const Project beta = newProject(server, QStringLiteral("beta"));
        TestHttp http(server.url());
        std::vector<std::string> ids;
        for (int i = 0; i < 3; ++i) {
            server.clock().setMs(server.clock().nowMs() + 5);
            ids.push_back(http.postMultipart("/core-query",
                                             {file("programFile", outputProgram(i), "p.json"),
                                              text("externalId", "batch-" + std::to_string(i)),
                                              text("dedupId", "dd-" + std::to_string(i)),
                                              text("result", "TRACE_GENERATION")},
                                             keyHeader(alpha))
                              .json()["coreQueryId"]);
        }
        for (const std::string& id : ids) {
            QVERIFY(!waitForEnd(http, id).is_null());
        }
        const json all = http.get("/core-queries", keyHeader(alpha)).json();
        QCOMPARE(keysOf(all), (std::set<std::string>{"coreQueries", "total"}));
        QCOMPARE(all["total"].get<int>(), 3);
        QCOMPARE(all["coreQueries"][0]["id"].get<std::string>(), ids[2]); // newest first
        COMPARE_JSON(keysOf(all["coreQueries"][0]), kFullQueryFields);
        const json page = http.get("/core-queries?limit=1&offset=1", keyHeader(alpha)).json();
        QCOMPARE(page["total"].get<int>(), 3);
        COMPARE_JSON(page["coreQueries"].size(), std::size_t(1));
        QCOMPARE(page["coreQueries"][0]["id"].get<std::string>(), ids[1]);
        const json search = http.get("/core-queries?search=batch-1", keyHeader(alpha)).json();
        QCOMPARE(search["total"].get<int>(), 1);
        // Prefixes of an id (in any case) and of dedup ids find them too; LIKE's wildcards are
        // taken literally.
        const std::string idPrefix = ids[1].substr(0, 24);
        const json byId = http.get("/core-queries?search=" + idPrefix, keyHeader(alpha)).json();
        QCOMPARE(byId["total"].get<int>(), 1);
        QCOMPARE(byId["coreQueries"][0]["id"].get<std::string>(), ids[1]);
        QString lower = QString::fromStdString(idPrefix).toLower();
        QCOMPARE(http.get("/core-queries?search=" + lower.toStdString(), keyHeader(alpha))
                     .json()["total"]
                     .get<int>(),
                 1);
        QCOMPARE(http.get("/core-queries?search=dd-", keyHeader(alpha)).json()["total"].get<int>(),
                 3);
        QCOMPARE(
            http.get("/core-queries?search=dd%25", keyHeader(alpha)).json()["total"].get<int>(), 0);
        COMPARE_JSON(http.get("/core-queries?status=DONE", keyHeader(alpha)).json()["total"],
                     json(3));
        QCOMPARE(http.get("/core-queries?limit=0", keyHeader(alpha)).status, 400);
        // A key sees its own project's queries only.
        QCOMPARE(http.get("/core-queries", keyHeader(beta)).json()["total"].get<int>(), 0);
        const Reply noKey = http.get("/core-queries");
        QCOMPARE(noKey.status, 401);
        COMPARE_JSON(noKey.json(), json({{"error", "MISSING_API_KEY"}}));

        // The older /docs reads: the smaller record, key in apiKey.
        const json docs = http.get("/docs/core-queries?apiKey=" + alpha.key).json();
        std::set<std::string> docsFields = kFullQueryFields;
        for (const char* dropped :
             {"dedupId", "isProofMocked", "sharpProver", "submittedByWallet", "isJobSizeValid",
              "retryCount", "isRetriable", "retryBlockedReason"}) {
            docsFields.erase(dropped);
        }
        COMPARE_JSON(keysOf(docs["coreQueries"][0]), docsFields);
        const json docsOne = http.get("/docs/core-query/" + ids[0]).json();
        QCOMPARE(keysOf(docsOne), (std::set<std::string>{"coreQuery", "metadataUrls"}));
        COMPARE_JSON(keysOf(docsOne["coreQuery"]), docsFields);

        const std::string projectId = alpha.id.toStdString();
        const json byDedup =
            http.get("/core-query-by-dedup-id?dedupId=dd-1&projectId=" + projectId).json();
        QCOMPARE(byDedup["coreQuery"]["id"].get<std::string>(), ids[1]);
        COMPARE_JSON(byDedup["metadataUrls"].size(), std::size_t(3));
        QCOMPARE(http.get("/docs/core-query-by-dedup-id?dedupId=dd-1&projectId=" + projectId)
                     .json()["coreQuery"]["id"]
                     .get<std::string>(),
                 ids[1]);
        const Reply noDedup =
            http.get("/core-query-by-dedup-id?dedupId=nope&projectId=" + projectId);
        QCOMPARE(noDedup.status, 404);
        COMPARE_JSON(noDedup.json(), json({{"message", "CORE_QUERY_NOT_FOUND"}}));
        QCOMPARE(http.get("/core-query-by-dedup-id?dedupId=dd-1").status, 400);
        const Reply unknown = http.get("/core-query/01NOSUCHQUERY");
        QCOMPARE(unknown.status, 404);
        COMPARE_JSON(unknown.json(), json({{"message", "CORE_QUERY_NOT_FOUND"}}));
    }
};

QTEST_GUILESS_MAIN(ProofQueriesTest)
#include "tst_proof_queries.moc"
