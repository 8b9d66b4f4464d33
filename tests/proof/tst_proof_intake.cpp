// HTTP contract tests of the proof service's intake (services/proof/ProofIntake): a bad
// submission on any route is refused with the spec's status and body, and nothing is stored.
// The pipeline that runs what is accepted: tst_proof_pipeline; reads: tst_proof_queries.

#include "Cairo1Programs.h"
#include "ProofHttpSupport.h"
#include "ProofTestData.h"

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

class ProofIntakeTest : public QObject {
    Q_OBJECT
private slots:
    void badSubmissionsAreRefusedAndNothingIsStored() {
        server::ServerOptions options;
        options.limits.maxUploadBytes = 64 * 1024;
        TestServer server(options);
        const Project project = newProject(server, QStringLiteral("alpha"));
        const Project other = newProject(server, QStringLiteral("beta"));
        TestHttp http(server.url());
        const std::string program = outputProgram(1);
        const Part programFile = file("programFile", program, "p.json");

        const Reply noKey = http.postMultipart("/core-query", {programFile});
        QCOMPARE(noKey.status, 401);
        COMPARE_JSON(noKey.json(), json({{"message", "MISSING_API_KEY"}}));
        const Reply badKey =
            http.postMultipart("/core-query", {programFile}, {{"api-key", "pdk_nope"}});
        QCOMPARE(badKey.status, 401);
        COMPARE_JSON(badKey.json(), json({{"message", "INVALID_API_KEY"}}));

        const auto refused = [&](const std::vector<Part>& parts, int status,
                                 const std::string& code) {
            const Reply reply = http.postMultipart("/core-query", parts, keyHeader(project));
            if (reply.status != status || reply.json()["message"] != code) {
                qWarning() << reply.status << reply.body.c_str();
                return false;
            }
            return true;
        };
        QVERIFY(refused({programFile, text("programHash", "0x1")}, 400,
                        "PROGRAM_FILE_AND_PROGRAM_HASH_ARE_EXCLUSIVE"));
        QVERIFY(refused({text("result", "TRACE_GENERATION")}, 400,
                        "PROGRAM_FILE_OR_PIE_FILE_OR_PROGRAM_HASH_IS_REQUIRED"));
        QVERIFY(refused({file("programFile", "%PDF-1.4", "p.json")}, 400,
                        "PROGRAM_FILE_SHOULD_BE_JSON"));
        QVERIFY(refused({file("programFile", "[1, 2]", "p.json")}, 400, "INVALID_PROGRAM_FILE"));
        QVERIFY(refused({file("pieFile", "not a zip", "pie.zip")}, 400, "PIE_FILE_SHOULD_BE_ZIP"));
        QVERIFY(refused({file("pieFile", zipOf({{"hello.txt", "hi"}}), "pie.zip")}, 400,
                        "INVALID_PIE_FILE"));
        QVERIFY(refused({programFile, text("layout", "huge")}, 400, "INVALID_LAYOUT"));
        QVERIFY(refused({programFile, text("optimize", "fast")}, 400, "INVALID_OPTIMIZE"));
        QVERIFY(refused({programFile, text("result", "EVERYTHING")}, 400, "INVALID_RESULT"));
        QVERIFY(refused({programFile, text("network", "DEVNET")}, 400, "INVALID_NETWORK"));
        QVERIFY(
            refused({programFile, text("cairoVersion", "cairo2")}, 400, "INVALID_CAIRO_VERSION"));
        // Cairo 1 (issue #46): a program is run as the Cairo it is, and the submission says so.
        QVERIFY(
            refused({programFile, text("cairoVersion", "cairo1")}, 400, "CAIRO_VERSION_MISMATCH"));
        const Part executable =
            file("programFile", Cairo1Body::sumOfTwoArguments().dump(), "main.executable.json");
        QVERIFY(refused({executable}, 400, "CAIRO_VERSION_MISMATCH"));
        QVERIFY(refused({executable, text("cairoVersion", "cairo1"),
                         file("inputFile", R"({"a": 1})", "args.json")},
                        400, "INPUT_FILE_FOR_CAIRO1_SHOULD_BE_JSON_ARRAY"));
        QVERIFY(refused({executable, text("cairoVersion", "cairo1"),
                         file("inputFile", R"([1, "two"])", "args.json")},
                        400, "INPUT_FILE_FOR_CAIRO1_SHOULD_BE_JSON_ARRAY"));
        const Reply sierra = http.postMultipart(
            "/core-query",
            {file("programFile", R"({"sierra_program": [], "entry_points_by_type": {}})",
                  "main.sierra.json"),
             text("cairoVersion", "cairo1")},
            keyHeader(project));
        QCOMPARE(sierra.status, 400);
        QCOMPARE(sierra.json()["message"].get<std::string>(), std::string("INVALID_PROGRAM_FILE"));
        QVERIFY2(sierra.json()["detail"].get<std::string>().find(
                     "build the executable target with Scarb") != std::string::npos,
                 sierra.body.c_str());
        QVERIFY(refused({programFile, text("cairoVm", "java")}, 400, "INVALID_CAIRO_VM"));
        QVERIFY(refused({programFile, text("declaredJobSize", "XL")}, 400,
                        "INVALID_DECLARED_JOB_SIZE"));
        QVERIFY(refused({programFile, text("mockFactHash", "yes")}, 400, "INVALID_MOCK_FACT_HASH"));
        QVERIFY(refused({programFile, text("programfile", "x")}, 400, "UNKNOWN_PART"));
        QVERIFY(refused({programFile, programFile}, 400, "DUPLICATE_PART"));
        QVERIFY(refused({programFile, file("inputFile", "{", "i.json")}, 400,
                        "INPUT_FILE_FOR_CAIRO0_SHOULD_BE_JSON"));
        QVERIFY(refused({text("programHash", "0xabc")}, 400, "PROGRAM_NOT_FOUND"));
        QVERIFY(
            refused({programFile, text("bucketId", "01NOSUCHBUCKET")}, 404, "BUCKET_NOT_FOUND"));
        QVERIFY(refused({programFile, text("bucketJobIndex", "-3"), text("bucketId", "b")}, 400,
                        "INVALID_BUCKET_JOB_INDEX"));
        QVERIFY(refused({programFile, text("bucketJobIndex", "2")}, 400,
                        "BUCKET_JOB_INDEX_WITHOUT_BUCKET"));
        QVERIFY(
            refused({programFile, file("pieFile", "PK", "pie.zip")}, 400, "CONFLICTING_SOURCES"));
        QVERIFY(refused({file("inputFile", "{}", "i.json"), file("pieFile", "PK", "pie.zip")}, 400,
                        "INPUT_FILE_NEEDS_A_PROGRAM"));
        QVERIFY(refused({programFile, text("sharpProver", "stwo")}, 400, "INVALID_SHARP_PROVER"));
        QVERIFY(refused({programFile, text("hints", "service_any_grower")}, 400, "INVALID_HINTS"));
        const Reply oversize = http.postMultipart(
            "/core-query", {file("programFile", std::string(100 * 1024, ' '), "p.json")},
            keyHeader(project));
        QCOMPARE(oversize.status, 413);
        COMPARE_JSON(oversize.json(), json({{"message", "PAYLOAD_TOO_LARGE"}}));
        const Reply notMultipart = http.post("/core-query", "{}", keyHeader(project));
        QCOMPARE(notMultipart.status, 400);
        QCOMPARE(notMultipart.json()["message"].get<std::string>(),
                 std::string("EXPECTED_MULTIPART_FORM_DATA"));

        // Another project's bucket is not found; a closed one is not open.
        const Reply otherBucket = http.postJson("/buckets", json::object(), keyHeader(other));
        QVERIFY(refused({programFile, text("bucketId", otherBucket.json()["coreBucket"]["id"])},
                        404, "BUCKET_NOT_FOUND"));
        const std::string closedId = http.postJson("/buckets", json::object(), keyHeader(project))
                                         .json()["coreBucket"]["id"];
        QCOMPARE(http.post("/buckets/close?bucketId=" + closedId, "", keyHeader(project)).status,
                 200);
        const Reply closed = http.postMultipart(
            "/core-query", {programFile, text("bucketId", closedId)}, keyHeader(project));
        QCOMPARE(closed.status, 409);
        QCOMPARE(closed.json()["message"].get<std::string>(), std::string("BUCKET_NOT_OPEN"));

        // Nothing was stored by any refusal.
        const json list = http.get("/core-queries", keyHeader(project)).json();
        QCOMPARE(list["total"].get<int>(), 0);

        // A repeated dedupId: 409 naming the existing query.
        const Reply firstDedup = http.postMultipart(
            "/core-query",
            {programFile, text("dedupId", "d-1"), text("result", "TRACE_GENERATION")},
            keyHeader(project));
        QCOMPARE(firstDedup.status, 201);
        const Reply repeat = http.postMultipart(
            "/core-query", {programFile, text("dedupId", "d-1")}, keyHeader(project));
        QCOMPARE(repeat.status, 409);
        COMPARE_JSON(repeat.json(), json({{"message", "CORE_QUERY_WITH_DEDUP_ID_ALREADY_EXISTS"},
                                          {"coreQueryId", firstDedup.json()["coreQueryId"]}}));
        // The same dedupId in another project is another query.
        QCOMPARE(http.postMultipart("/core-query", {programFile, text("dedupId", "d-1")},
                                    keyHeader(other))
                     .status,
                 201);
        QCOMPARE(http.get("/core-queries", keyHeader(project)).json()["total"].get<int>(), 1);
    }
};

QTEST_GUILESS_MAIN(ProofIntakeTest)
#include "tst_proof_intake.moc"
