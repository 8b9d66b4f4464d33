// HTTP contract tests of the proof service's /v1 routes (docs/api.md): program registration,
// trace and proof generation by hash, and proof files verified by our own verifier, their facts
// derived from the public input and registered in the real namespace.

#include "ProofHttpSupport.h"
#include "ProofTestData.h"

#include "cairo/outputs/FactHashes.h"
#include "cairo/pie/CairoPie.h"
#include "crypto/Pedersen.h"
#include "crypto/Poseidon.h"

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

class ProofV1RoutesTest : public QObject {
    Q_OBJECT
private slots:
    void v1RoutesAndProgramRegistration() {
        server::ServerOptions options;
        options.provers.engine = QStringLiteral("mock"); // the routes, not the prover, are tested
        TestServer server(options);
        const Project project = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const std::string key = "?apiKey=" + project.key;
        const std::string program = outputProgram(9);

        const Reply registered =
            http.postMultipart("/v1/submit-program" + key,
                               {file("programFile", program, "p.json"), text("cairoVersion", "0")});
        QCOMPARE(registered.status, 201);
        COMPARE_JSON(registered.json(), json({{"programHash", programHashOf(program)}}));
        // The same program gives the same hash.
        const Reply twice = http.postMultipart(
            "/v1/submit-program" + key,
            {file("programFile", program, "again.json"), text("cairoVersion", "0")});
        COMPARE_JSON(twice.json(), registered.json());
        const std::string hash = registered.json()["programHash"];

        const Reply trace = http.postMultipart(
            "/v1/trace-generation" + key, {text("programHash", hash), text("cairoVersion", "0")});
        QCOMPARE(trace.status, 201);
        const json traced = waitForEnd(http, trace.json()["coreQueryId"]);
        QCOMPARE(traced["coreQuery"]["result"].get<std::string>(), std::string("TRACE_GENERATION"));
        QCOMPARE(traced["coreQuery"]["status"].get<std::string>(), std::string("DONE"));

        for (const std::string path :
             {"/v1/trace-generation-proof-generation", "/trace-generation-proof-generation"}) {
            const Reply proved = http.postMultipart(
                path + key, {text("programHash", hash), text("cairoVersion", "0"),
                             text("prover", "vendor_sharp"), text("layout", "small")});
            QCOMPARE(proved.status, 201);
            const json done = waitForEnd(http, proved.json()["coreQueryId"]);
            QCOMPARE(done["coreQuery"]["status"].get<std::string>(), std::string("DONE"));
            QCOMPARE(done["coreQuery"]["layout"].get<std::string>(), std::string("small"));
            COMPARE_JSON(done["coreQuery"]["steps"],
                         json({"TRACE_GENERATION", "PROOF_GENERATION"}));
        }

        // The PIE of the trace, proved and verified on L1 with a mocked fact.
        const std::string traceId = traced["coreQuery"]["id"];
        const std::string pie = http.get("/artifacts/" + traceId + "/pie.zip" + key).body;
        const Reply l1 =
            http.postMultipart("/v1/l1/core-query/proof-generation-verification" + key,
                               {file("pieFile", pie, "pie.zip"), text("mockFactHash", "true")});
        QCOMPARE(l1.status, 201);
        const json verified = waitForEnd(http, l1.json()["coreQueryId"]);
        QCOMPARE(verified["coreQuery"]["status"].get<std::string>(), std::string("DONE"));
        COMPARE_JSON(verified["coreQuery"]["steps"],
                     json({"PROOF_GENERATION", "PROOF_VERIFICATION"}));
        QCOMPARE(verified["coreQuery"]["programHash"].get<std::string>(), hash);
        COMPARE_JSON(verified["coreQuery"]["sharpFactHash"], traced["coreQuery"]["sharpFactHash"]);
        QCOMPARE(verified["coreQuery"]["isFactMocked"].get<bool>(), true);

        // Route-specific refusals.
        const auto refusal = [&](const std::string& path, const std::vector<Part>& parts,
                                 const std::string& code) {
            const Reply reply = http.postMultipart(path + key, parts);
            return reply.status == 400 && reply.json()["message"].get<std::string>() == code;
        };
        QVERIFY(refusal("/v1/trace-generation",
                        {file("programFile", program, "p.json"), text("programHash", hash),
                         text("cairoVersion", "0")},
                        "PROGRAM_FILE_AND_PROGRAM_HASH_ARE_EXCLUSIVE"));
        QVERIFY(refusal("/v1/trace-generation",
                        {text("programHash", hash), text("cairoVersion", "1")},
                        "UNSUPPORTED_CAIRO_VERSION"));
        QVERIFY(
            refusal("/v1/trace-generation", {text("programHash", hash)}, "MISSING_CAIRO_VERSION"));
        QVERIFY(refusal("/v1/trace-generation",
                        {text("programHash", "0x1234"), text("cairoVersion", "0")},
                        "PROGRAM_NOT_FOUND"));
        QVERIFY(refusal("/v1/l1/core-query/proof-generation-verification",
                        {text("mockFactHash", "true")}, "MISSING_PIE_FILE"));
        QVERIFY(refusal("/v1/l1/core-query/proof-generation-verification",
                        {file("pieFile", pie, "pie.zip"), text("mockFactHash", "maybe")},
                        "INVALID_MOCK_FACT_HASH"));
        QVERIFY(refusal("/v1/l1/core-query/proof-generation-verification",
                        {file("pieFile", pie, "pie.zip")}, "MISSING_MOCK_FACT_HASH"));
        QVERIFY(refusal("/v1/submit-program", {text("cairoVersion", "0")}, "MISSING_PROGRAM_FILE"));
        QVERIFY(refusal("/v1/submit-program",
                        {file("programFile", "not json", "p.json"), text("cairoVersion", "0")},
                        "PROGRAM_FILE_SHOULD_BE_JSON"));
        QVERIFY(
            refusal("/v1/submit-program",
                    {file("programFile", R"({"data": 5})", "p.json"), text("cairoVersion", "0")},
                    "INVALID_PROGRAM_FILE"));
        QVERIFY(refusal(
            "/v1/trace-generation-proof-generation",
            {text("programHash", hash), text("cairoVersion", "0"), text("prover", "someone_else")},
            "INVALID_PROVER"));
        QVERIFY(
            refusal("/v1/trace-generation",
                    {text("programHash", hash), text("cairoVersion", "0"), text("layout", "small")},
                    "UNKNOWN_PART"));
        const Reply noKey = http.postMultipart(
            "/v1/trace-generation", {text("programHash", hash), text("cairoVersion", "0")});
        QCOMPARE(noKey.status, 401);
        COMPARE_JSON(noKey.json(), json({{"message", "MISSING_API_KEY"}}));
    }

    void proofFilesAreVerifiedAndTheirFactsDerivedFromThePublicInput() {
        TestServer server;
        const Project project = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const std::string key = "?apiKey=" + project.key;
        const std::vector<std::string> words = {
            "0x40780017fff7fff", "0x1", "0x1104800180018000", "0x4", "0x10780017fff7fff", "0x0"};
        const std::string proof = stoneProofJson(words, {"0x5", "0x8"});
        const Reply submitted = http.postMultipart(
            "/v1/l2/core-query/proof-verification" + key,
            {file("proofFile", proof, "proof.json"), text("mockFactHash", "true"),
             text("stoneVersion", "stone6"), text("memoryVerification", "relaxed")});
        QCOMPARE(submitted.status, 201);
        const json done = waitForEnd(http, submitted.json()["coreQueryId"]);
        const json query = done["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("DONE"));
        COMPARE_JSON(query["steps"], json({"PROOF_VERIFICATION"}));
        QCOMPARE(query["chain"].get<std::string>(), std::string("L2"));
        QCOMPARE(query["layout"].get<std::string>(), std::string("recursive"));

        // Expected values from the definitions (Cairo verifier program hash; Integrity strict).
        std::vector<crypto::Felt> program;
        for (const std::string& word : words) {
            program.push_back(*crypto::Felt::parse(word));
        }
        const std::vector<crypto::Felt> output = {crypto::Felt::fromU64(5),
                                                  crypto::Felt::fromU64(8)};
        crypto::Felt acc = crypto::Felt::zero();
        for (const crypto::Felt& word : program) {
            acc = crypto::pedersenHash(acc, word);
        }
        const crypto::Felt programHash =
            crypto::pedersenHash(acc, crypto::Felt::fromU64(program.size()));
        QCOMPARE(query["programHash"].get<std::string>(), programHash.toHex());
        QCOMPARE(query["sharpFactHash"].get<std::string>(),
                 cairo::sharpFactHash(programHash, output));
        const std::string integrity = bytes32(crypto::poseidonHashMany(
            {crypto::poseidonHashMany(program), crypto::poseidonHashMany(output)}));
        QCOMPARE(query["integrityFactHash"].get<std::string>(), integrity);
        // L2 registers the Integrity fact, in the mocked namespace only.
        COMPARE_JSON(http.get("/fact-registry/L2/" + integrity + "?mocked=true").json()["valid"],
                     json(true));
        COMPARE_JSON(http.get("/fact-registry/L2/" + integrity + "?mocked=false").json()["valid"],
                     json(false));

        // A real verification runs our verifier: this proof's proof_hex is no STARK proof.
        const Reply unverifiable = http.postMultipart(
            "/v1/l2/core-query/proof-verification" + key,
            {file("proofFile", proof, "proof.json"), text("mockFactHash", "false"),
             text("stoneVersion", "stone5"), text("memoryVerification", "relaxed")});
        const json failed = waitForEnd(http, unverifiable.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(failed["status"].get<std::string>(), std::string("FAILED"));
        QVERIFY2(failed["errorReason"].get<std::string>().find("the proof does not verify") !=
                     std::string::npos,
                 failed.dump().c_str());
        QCOMPARE(failed["isRetriable"].get<bool>(), false);
        QCOMPARE(failed["retryBlockedReason"].get<std::string>(),
                 std::string("NON_RETRIABLE_ERROR"));
        QVERIFY(failed["completedAt"].is_string());

        const auto refusal = [&](const std::vector<Part>& parts, const std::string& code) {
            const Reply reply =
                http.postMultipart("/v1/l2/core-query/proof-verification" + key, parts);
            return reply.status == 400 && reply.json()["message"].get<std::string>() == code;
        };
        const Part stone = text("stoneVersion", "stone6");
        const Part memory = text("memoryVerification", "strict");
        const Part mock = text("mockFactHash", "true");
        QVERIFY(refusal({file("proofFile", "{", "p.json"), mock, stone, memory},
                        "PROOF_FILE_SHOULD_BE_JSON"));
        QVERIFY(
            refusal({file("proofFile", R"({"proof_hex": "0x1"})", "p.json"), mock, stone, memory},
                    "INVALID_PROOF_FILE"));
        QVERIFY(refusal(
            {file("proofFile", proof, "p.json"), mock, text("stoneVersion", "stone9"), memory},
            "INVALID_STONE_VERSION"));
        QVERIFY(refusal(
            {file("proofFile", proof, "p.json"), mock, stone, text("memoryVerification", "loose")},
            "INVALID_MEMORY_VERIFICATION"));
        QVERIFY(refusal({file("proofFile", proof, "p.json"), mock, stone},
                        "MISSING_MEMORY_VERIFICATION"));
        QVERIFY(refusal({file("proofFile", stoneProofJson(words, {}, "dynamic"), "p.json"), mock,
                         stone, memory},
                        "INVALID_LAYOUT_FOR_PROOF_VERIFICATION_ON_INTEGRITY_L2"));
    }

    void realProofsAreVerifiedByOurVerifierAndRegisterRealFacts() {
        // A Stone proof from ../shared/fixtures through the L2 route with mockFactHash=false: our
        // verifier accepts it, its Integrity fact lands in the real namespace; the same proof with
        // one bit flipped ends FAILED naming the check; a wrong stoneVersion is named as such.
        QFile proofFile(QStringLiteral(
            PROOFDESK_FIXTURES_DIR
            "/cairo/proofs/stone/integrity_recursive_cairo0_stone6_keccak_160_lsb.json"));
        if (!proofFile.open(QIODevice::ReadOnly)) {
            QSKIP("../shared/fixtures is not present");
        }
        const std::string proof = proofFile.readAll().toStdString();
        TestServer server;
        const Project project = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const std::string key = "?apiKey=" + project.key;
        const auto submit = [&](const std::string& body, const char* stoneVersion) {
            const Reply reply = http.postMultipart(
                "/v1/l2/core-query/proof-verification" + key,
                {file("proofFile", body, "proof.json"), text("mockFactHash", "false"),
                 text("stoneVersion", stoneVersion), text("memoryVerification", "strict")});
            return waitForEnd(http, reply.json()["coreQueryId"])["coreQuery"];
        };
        const json done = submit(proof, "stone6");
        QVERIFY2(done["status"] == "DONE", done.dump().c_str());
        QCOMPARE(done["isFactMocked"].get<bool>(), false);
        QCOMPARE(done["layout"].get<std::string>(), std::string("recursive"));
        const std::string fact = done["integrityFactHash"];
        COMPARE_JSON(http.get("/fact-registry/L2/" + fact).json()["valid"], json(true));
        const json verification =
            http.get("/artifacts/" + done["id"].get<std::string>() + "/verification.json").json();
        COMPARE_JSON(verification["valid"], json(true));
        COMPARE_JSON(verification["stoneVersion"], json("stone6"));

        json mutated = json::parse(proof);
        std::string hex = mutated["proof_hex"];
        hex[hex.size() - 3000] = hex[hex.size() - 3000] == '0' ? '1' : '0';
        mutated["proof_hex"] = hex;
        const json failed = submit(mutated.dump(), "stone6");
        QCOMPARE(failed["status"].get<std::string>(), std::string("FAILED"));
        QCOMPARE(failed["isRetriable"].get<bool>(), false);
        QVERIFY2(failed["errorReason"].get<std::string>().find("FRI layer") != std::string::npos,
                 failed.dump().c_str());

        // The Keccak builtin's layout too (Integrity's starknet_with_keccak example).
        QFile keccakFile(
            QStringLiteral(PROOFDESK_FIXTURES_DIR
                           "/cairo/proofs/stone/"
                           "integrity_starknet_with_keccak_cairo0_stone6_keccak_160_lsb.json"));
        QVERIFY(keccakFile.open(QIODevice::ReadOnly));
        const json keccak = submit(keccakFile.readAll().toStdString(), "stone6");
        QVERIFY2(keccak["status"] == "DONE", keccak.dump().c_str());
        QCOMPARE(keccak["layout"].get<std::string>(), std::string("starknet_with_keccak"));
        COMPARE_JSON(http.get("/fact-registry/L2/" + keccak["integrityFactHash"].get<std::string>())
                         .json()["valid"],
                     json(true));

        // A `dynamic` proof (whose layout Integrity cannot verify) through /core-query on L1: our
        // verifier reads it with the public input's dynamic_params, and its SHARP fact lands in
        // the real L1 namespace with the program hash read from the proof.
        QFile dynamicFile(QStringLiteral(PROOFDESK_FIXTURES_DIR
                                         "/cairo/proofs/stone/"
                                         "swiftness_dynamic_cairo0_stone6_nvf10.json"));
        QVERIFY(dynamicFile.open(QIODevice::ReadOnly));
        const Reply dynamicReply = http.postMultipart(
            "/core-query" + key,
            {file("proofFile", dynamicFile.readAll().toStdString(), "proof.json"),
             text("result", "PROOF_VERIFICATION_ON_L1"), text("mockFactHash", "false"),
             text("stoneVersion", "stone6"), text("memoryVerification", "strict")});
        QCOMPARE(dynamicReply.status, 201);
        const json dynamic = waitForEnd(http, dynamicReply.json()["coreQueryId"])["coreQuery"];
        QVERIFY2(dynamic["status"] == "DONE", dynamic.dump().c_str());
        QCOMPARE(dynamic["layout"].get<std::string>(), std::string("dynamic"));
        QCOMPARE(dynamic["isFactMocked"].get<bool>(), false);
        COMPARE_JSON(http.get("/fact-registry/L1/" + dynamic["sharpFactHash"].get<std::string>())
                         .json()["valid"],
                     json(true));

        const json wrongVersion = submit(proof, "stone5");
        QCOMPARE(wrongVersion["status"].get<std::string>(), std::string("FAILED"));
        QVERIFY2(wrongVersion["errorReason"].get<std::string>().find(
                     "stoneVersion stone5 was given, but the proof was made with stone6") !=
                     std::string::npos,
                 wrongVersion.dump().c_str());
    }
};

QTEST_GUILESS_MAIN(ProofV1RoutesTest)
#include "tst_proof_v1_routes.moc"
