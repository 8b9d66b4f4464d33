// HTTP contract tests of the proof pipeline (services/proof/ProofPipeline) against an in-process
// server: the stages' state transitions and artifacts, failures in the VM, hints reading the
// input file, the bootloader. The /v1 routes and verified proof files: tst_proof_v1_routes;
// buckets and credits: tst_proof_buckets; provers, retries and restarts: tst_proof_provers.

#include "ProofHttpSupport.h"
#include "ProofTestData.h"

#include "cairo/outputs/FactHashes.h"
#include "cairo/pie/CairoPie.h"
#include "crypto/Pedersen.h"
#include "crypto/Poseidon.h"
#include "proof/ProofPipeline.h"

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

namespace {

std::string readSample(const char* name) {
    QFile file(QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/") + QLatin1String(name));
    return file.open(QIODevice::ReadOnly) ? file.readAll().toStdString() : std::string();
}

} // namespace

class ProofPipelineTest : public QObject {
    Q_OBJECT
private slots:
    void traceGenerationRunsTheProgramAndPublishesArtifacts() {
        TestServer server;
        QVERIFY2(server.ok(), qPrintable(server.error()));
        const Project project = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const std::string program = outputProgram(42);

        const Reply submitted = http.postMultipart(
            "/core-query",
            {file("programFile", program, "program.json"), text("result", "TRACE_GENERATION"),
             text("externalId", "ext-1"), text("declaredJobSize", "XS")},
            keyHeader(project));
        QCOMPARE(submitted.status, 201);
        QCOMPARE(keysOf(submitted.json()), std::set<std::string>{"coreQueryId"});
        const std::string id = submitted.json()["coreQueryId"];

        // Received, with the planned steps, before the worker moves it.
        const json first = http.get("/core-query/" + id).json()["coreQuery"];
        QCOMPARE(keysOf(first), kFullQueryFields);
        COMPARE_JSON(first["steps"], json({"TRACE_GENERATION"}));

        const json done = waitForEnd(http, id);
        QVERIFY(!done.is_null());
        const json query = done["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("DONE"));
        QCOMPARE(query["step"].get<std::string>(), std::string("TRACE_GENERATION"));
        QCOMPARE(query["chain"].get<std::string>(), std::string("OFFCHAIN"));
        QCOMPARE(query["externalId"].get<std::string>(), std::string("ext-1"));
        const std::string hash = programHashOf(program);
        const crypto::Felt felt = *crypto::Felt::parse(hash);
        const std::vector<crypto::Felt> output = {crypto::Felt::fromU64(42)};
        QCOMPARE(query["programHash"].get<std::string>(), hash);
        QCOMPARE(query["sharpFactHash"].get<std::string>(), cairo::sharpFactHash(felt, output));
        QCOMPARE(query["integrityFactHash"].get<std::string>(),
                 bytes32(cairo::integrityFactHash(felt, output)));
        QCOMPARE(query["jobSize"].get<std::string>(), std::string("XS"));
        QCOMPARE(query["isJobSizeValid"].get<bool>(), true);
        QCOMPARE(query["isProofMocked"].get<bool>(), false);
        // Issue #47: the record names the prover this server runs (ours), not Stone.
        QCOMPARE(query["sharpProver"].get<std::string>(), std::string("proofdesk"));
        QVERIFY(query["completedAt"].is_string());
        QVERIFY(query["transactionId"].is_null());
        COMPARE_JSON(query["client"]["clientId"], query["submittedByClient"]);
        QCOMPARE(query["client"]["name"].get<std::string>(), std::string("alpha key"));

        const std::string base = server.url().toStdString() + "/artifacts/" + id + "/";
        COMPARE_JSON(done["metadataUrls"],
                     json({base + "pie.zip", base + "metadata.json", base + "output.json"}));
        // A PIE carries the run's memory, its input with it: its owner's alone (issue #43).
        QCOMPARE(http.get("/artifacts/" + id + "/pie.zip").status, 401);
        const Project other = newProject(server, QStringLiteral("other"));
        const Reply foreignPie = http.get("/artifacts/" + id + "/pie.zip", keyHeader(other));
        QCOMPARE(foreignPie.status, 404);
        COMPARE_JSON(foreignPie.json(), json({{"message", "ARTIFACT_NOT_FOUND"}}));
        const Reply pie = http.get("/artifacts/" + id + "/pie.zip", keyHeader(project));
        QCOMPARE(pie.status, 200);
        QCOMPARE(pie.header("Content-Type"), std::string("application/zip"));
        const cairo::CairoPie parsed = cairo::CairoPie::fromZip(pie.body);
        QCOMPARE(parsed.output().size(), std::size_t(1));
        QCOMPARE(parsed.output()[0].toHex(), std::string("0x2a"));
        const json metadata = http.get("/artifacts/" + id + "/metadata.json").json();
        QCOMPARE(metadata["program_hash"].get<std::string>(), hash);
        COMPARE_JSON(metadata["output"], json({"0x2a"}));
        COMPARE_JSON(metadata["sharp_fact_hash"], query["sharpFactHash"]);
        QVERIFY(metadata["execution_resources"]["n_steps"].get<int>() > 0);
        const Reply missing = http.get("/artifacts/" + id + "/proof.json");
        QCOMPARE(missing.status, 404);
        COMPARE_JSON(missing.json(), json({{"message", "ARTIFACT_NOT_FOUND"}}));

        // The upload registered the program: its hash works on a later submission.
        const Reply reused = http.postMultipart(
            "/core-query", {text("programHash", hash), text("result", "TRACE_GENERATION")},
            keyHeader(project));
        QCOMPARE(reused.status, 201);
        const json again = waitForEnd(http, reused.json()["coreQueryId"]);
        COMPARE_JSON(again["coreQuery"]["sharpFactHash"], query["sharpFactHash"]);
    }

    void proofGenerationAndVerificationWithTheMockProver() {
        server::ServerOptions options;
        options.provers.engine = QStringLiteral("mock");
        TestServer server(options);
        const Project project = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const Reply submitted = http.postMultipart("/core-query",
                                                   {file("programFile", outputProgram(7), "p.json"),
                                                    text("result", "PROOF_VERIFICATION_ON_L1"),
                                                    text("mockFactHash", "false")},
                                                   keyHeader(project));
        QCOMPARE(submitted.status, 201);
        const json done = waitForEnd(http, submitted.json()["coreQueryId"]);
        const json query = done["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("DONE"));
        COMPARE_JSON(query["steps"],
                     json({"TRACE_GENERATION", "PROOF_GENERATION", "PROOF_VERIFICATION"}));
        QCOMPARE(query["step"].get<std::string>(), std::string("PROOF_VERIFICATION"));
        QCOMPARE(query["chain"].get<std::string>(), std::string("L1"));
        QCOMPARE(query["isProofMocked"].get<bool>(), true);
        QCOMPARE(query["sharpProver"].get<std::string>(), std::string("mock"));
        // A fact backed only by a mocked proof is a mocked fact.
        QCOMPARE(query["isFactMocked"].get<bool>(), true);
        QVERIFY(query["transactionId"].is_string());
        const std::string fact = query["sharpFactHash"];
        const json mocked = http.get("/fact-registry/L1/" + fact + "?mocked=true").json();
        QCOMPARE(mocked["valid"].get<bool>(), true);
        COMPARE_JSON(mocked["entry"]["transactionId"], query["transactionId"]);
        COMPARE_JSON(mocked["entry"]["queryId"], query["id"]);
        const json real = http.get("/fact-registry/L1/" + fact).json();
        QCOMPARE(real["valid"].get<bool>(), false);
        QVERIFY(real["entry"].is_null());
        const json proof =
            http.get("/artifacts/" + query["id"].get<std::string>() + "/proof.json").json();
        QCOMPARE(proof["mocked"].get<bool>(), true);
        const Reply badChain = http.get("/fact-registry/OFFCHAIN/" + fact);
        QCOMPARE(badChain.status, 400);
        QCOMPARE(badChain.json()["message"].get<std::string>(), std::string("INVALID_CHAIN"));
    }

    void aProgramThatFailsInTheVmFailsTheQuery() {
        TestServer server;
        const Project project = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const Reply submitted = http.postMultipart(
            "/core-query", {file("programFile", failingProgram(), "bad.json")}, keyHeader(project));
        QCOMPARE(submitted.status, 201);
        const json query = waitForEnd(http, submitted.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("FAILED"));
        QCOMPARE(query["step"].get<std::string>(), std::string("TRACE_GENERATION"));
        QCOMPARE(query["isRetriable"].get<bool>(), false);
        QCOMPARE(query["retryBlockedReason"].get<std::string>(),
                 std::string("NON_RETRIABLE_ERROR"));
        QCOMPARE(query["retryCount"].get<int>(), 0);
        const std::string reason = query["errorReason"];
        QVERIFY2(reason.find("pc") != std::string::npos, reason.c_str());
        QVERIFY(query["completedAt"].is_string());
    }

    void aRunawayProgramFailsAtTheStepLimit() {
        server::ServerOptions options;
        options.provers.maxSteps = 5000;
        TestServer server(options);
        const Project project = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const Reply submitted =
            http.postMultipart("/core-query",
                               {file("programFile", Asm().jmpRel0().program().dump(), "loop.json"),
                                text("result", "TRACE_GENERATION")},
                               keyHeader(project));
        QCOMPARE(submitted.status, 201);
        const json query = waitForEnd(http, submitted.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("FAILED"));
        QCOMPARE(query["retryBlockedReason"].get<std::string>(),
                 std::string("NON_RETRIABLE_ERROR"));
        QVERIFY2(query["errorReason"].get<std::string>().find("5000 steps") != std::string::npos,
                 query["errorReason"].get<std::string>().c_str());
    }

    void pythonHintsReadTheInputFile() {
        TestServer server;
        QVERIFY2(server.ok(), qPrintable(server.error()));
        const Project project = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const std::string program = readSample("sum_of_squares.json");
        const Part programFile = file("programFile", program, "sum_of_squares.json");
        const Part inputFile =
            file("inputFile", readSample("sum_of_squares_input.json"), "in.json");

        // Its hint has no native implementation: cairoVm=rust cannot read the input with it.
        const Reply native = http.postMultipart(
            "/core-query", {programFile, inputFile, text("result", "TRACE_GENERATION")},
            keyHeader(project));
        QCOMPARE(native.status, 400);
        QCOMPARE(native.json()["message"].get<std::string>(),
                 std::string("INPUT_FILE_NEEDS_CAIRO_VM_PYTHON"));

        const Reply submitted = http.postMultipart(
            "/core-query",
            {programFile, inputFile, text("result", "TRACE_GENERATION"), text("cairoVm", "python")},
            keyHeader(project));
        QCOMPARE(submitted.status, 201);
        const json query = waitForEnd(http, submitted.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("DONE"));
        QCOMPARE(query["cairoVm"].get<std::string>(), std::string("python"));
        const crypto::Felt hash = *crypto::Felt::parse(programHashOf(program));
        QCOMPARE(query["sharpFactHash"].get<std::string>(),
                 cairo::sharpFactHash(hash, {crypto::Felt::fromU64(169)}));

        // A hint that raises fails the query with its Python traceback.
        const Reply badInput = http.postMultipart(
            "/core-query",
            {programFile, file("inputFile", R"({"values": [3, "four"]})", "in.json"),
             text("result", "TRACE_GENERATION"), text("cairoVm", "python")},
            keyHeader(project));
        QCOMPARE(badInput.status, 201);
        const json failed = waitForEnd(http, badInput.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(failed["status"].get<std::string>(), std::string("FAILED"));
        const std::string reason = failed["errorReason"];
        QVERIFY2(reason.find("Python hint at pc 8 raised:") != std::string::npos, reason.c_str());

        // A server started with Python hints off refuses cairoVm=python and stores nothing.
        server::ServerOptions options;
        options.provers.pythonHints = false;
        TestServer off(options);
        const Project offProject = newProject(off, QStringLiteral("beta"));
        TestHttp offHttp(off.url());
        const Reply refused = offHttp.postMultipart(
            "/core-query", {programFile, inputFile, text("cairoVm", "python")},
            keyHeader(offProject));
        QCOMPARE(refused.status, 400);
        QCOMPARE(refused.json()["message"].get<std::string>(),
                 std::string("CAIRO_VM_PYTHON_DISABLED"));
        QCOMPARE(offHttp.get("/core-queries", keyHeader(offProject)).json()["total"].get<int>(), 0);
    }

    void bootloaderReadsItsTasksNatively() {
        // cairo-lang's bootloader (from ../shared/fixtures) with our sample as its task: every
        // bootloader hint is native, so cairoVm=rust takes its inputFile.
        QFile bootloaderFile(QStringLiteral(
            PROOFDESK_FIXTURES_DIR "/cairo/runs/moonsong_bootloader_fibonacci_starknet_with_keccak/"
                                   "bootloader-v0.13.0.json"));
        if (!bootloaderFile.open(QIODevice::ReadOnly)) {
            QSKIP("../shared/fixtures is not present");
        }
        const std::string bootloader = bootloaderFile.readAll().toStdString();
        const std::string task = readSample("fibonacci.json");
        json input = {{"tasks",
                       {{{"type", "RunProgramTask"},
                         {"program", json::parse(task)},
                         {"program_input", json::object()}}}},
                      {"single_page", true},
                      {"fact_topologies_path", nullptr},
                      {"bootloader_config",
                       {{"simple_bootloader_program_hash", "0x1234"},
                        {"supported_cairo_verifier_program_hashes", json::array()}}},
                      {"packed_outputs", {{{"type", "PlainPackedOutput"}}}}};
        TestServer server;
        QVERIFY2(server.ok(), qPrintable(server.error()));
        const Project project = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const Part programFile = file("programFile", bootloader, "bootloader.json");
        const auto submit = [&](const json& tasks) {
            return http.postMultipart("/core-query",
                                      {programFile, file("inputFile", tasks.dump(), "tasks.json"),
                                       text("result", "TRACE_GENERATION"),
                                       text("layout", "starknet_with_keccak")},
                                      keyHeader(project));
        };
        const Reply submitted = submit(input);
        QCOMPARE(submitted.status, 201);
        const json query = waitForEnd(http, submitted.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("DONE"));
        // [simple bootloader hash, hash of no verifiers, tasks, task output size, task hash, 89]
        const std::vector<crypto::Felt> output = {
            crypto::Felt::fromU64(0x1234),
            *crypto::Felt::parse(
                "0x49ee3eba8c1600700ee1b87eb599f16716b0b1022947733551fde4050ca6804"),
            crypto::Felt::one(),
            crypto::Felt::fromU64(3),
            *crypto::Felt::parse(programHashOf(task)),
            crypto::Felt::fromU64(89)};
        QCOMPARE(query["sharpFactHash"].get<std::string>(),
                 cairo::sharpFactHash(*crypto::Felt::parse(programHashOf(bootloader)), output));

        // The server does not write a file the input names.
        input["fact_topologies_path"] = "/tmp/proofdesk-fact-topologies.json";
        QFile::remove(QStringLiteral("/tmp/proofdesk-fact-topologies.json"));
        const Reply writes = submit(input);
        QCOMPARE(writes.status, 201);
        const json failed = waitForEnd(http, writes.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(failed["status"].get<std::string>(), std::string("FAILED"));
        const std::string reason = failed["errorReason"];
        QVERIFY2(reason.find("fact_topologies_path is not written by this run") !=
                     std::string::npos,
                 reason.c_str());
        QVERIFY(!QFile::exists(QStringLiteral("/tmp/proofdesk-fact-topologies.json")));
    }

    // A PIE's proof proves the bootloader: PROOF_VERIFICATION registers the PIE's fact only when
    // the bootloader's output carries the PIE as its one task.
    void aBootloaderOutputMustCarryThePieTask() {
        const json task = {"0x5", "0x7"};
        const json carried = {"0x0", "0xabc", "0x1", "0x4", "0x123", "0x5", "0x7"};
        QVERIFY(proof::bootloaderOutputCarriesTask(carried, "0x123", task));
        // Equal values written differently still match.
        QVERIFY(proof::bootloaderOutputCarriesTask(
            json({"0x0", "0x0", "1", "0x04", "0x0123", "5", "0x7"}), "0x123", task));
        const auto without = [&](std::size_t index, const json& value) {
            json cells = carried;
            cells[index] = value;
            return proof::bootloaderOutputCarriesTask(cells, "0x123", task);
        };
        QVERIFY(!without(2, "0x2"));   // two tasks
        QVERIFY(!without(3, "0x5"));   // another size
        QVERIFY(!without(4, "0x124")); // another program
        QVERIFY(!without(6, "0x8"));   // another output
        QVERIFY(!without(6, 8));       // not a felt
        json longer = carried;
        longer.push_back("0x9");
        QVERIFY(!proof::bootloaderOutputCarriesTask(longer, "0x123", task));
        QVERIFY(!proof::bootloaderOutputCarriesTask(json::array(), "0x123", task));
    }
};

QTEST_GUILESS_MAIN(ProofPipelineTest)
#include "tst_proof_pipeline.moc"
