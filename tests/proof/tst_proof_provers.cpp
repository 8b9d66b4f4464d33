// The proof service's provers over HTTP: our own prover (the default) proving for real, Stone's
// binaries (stand-in scripts that check what they are given), none configured, a crashing prover
// retried then given up, and a stopped server resuming its queries.

#include "Cairo1Programs.h"
#include "ProofHttpSupport.h"
#include "ProofTestData.h"

#include "cairo/cairo1/Executable.h"
#include "cairo/outputs/FactHashes.h"
#include "cairo/vm/ProgramHash.h"
#include "stark/verifier/ProofVerifier.h"

using namespace proofdesk;
using namespace proofdesk::test;
using nlohmann::json;

class ProofProversTest : public QObject {
    Q_OBJECT
private slots:
    // What `proofdesk serve` prints and the console's server page shows as "prover".
    void theProverSettingsSayWhoProvesAndWhoVerifies() {
        proof::ProverSettings settings;
        QCOMPARE(settings.description().left(43),
                 QStringLiteral("builtin (Proofdesk's STARK prover, 96 bits "));
        QVERIFY(settings.description().endsWith(QStringLiteral("; verifier: builtin)")));
        settings.engine = QStringLiteral("mock");
        QVERIFY(settings.description().startsWith(
            QStringLiteral("mock (proofs are mocked: isProofMocked=true")));
        settings.engine = QStringLiteral("stone");
        settings.stoneProver = QStringLiteral("/opt/stone/cpu_air_prover");
        settings.verifier = QStringLiteral("stone");
        settings.stoneVerifier = QStringLiteral("/opt/stone/cpu_air_verifier");
        QCOMPARE(settings.description(),
                 QStringLiteral("stone (/opt/stone/cpu_air_prover; verifier: Stone's "
                                "/opt/stone/cpu_air_verifier)"));
        settings.engine = QStringLiteral("none");
        QVERIFY(settings.description().startsWith(QStringLiteral("none (proof requests fail")));
    }

    void ourProverProvesByDefaultAndTheRealFactIsRegistered() {
        TestServer server; // the default prover: builtin
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const Reply submitted = http.postMultipart(
            "/core-query",
            {file("programFile", proofModeOutputProgram(11), "p.json"), text("layout", "small"),
             text("result", "PROOF_VERIFICATION_ON_L1")},
            keyHeader(alpha));
        QCOMPARE(submitted.status, 201);
        const std::string id = submitted.json()["coreQueryId"];
        const json query = waitForEnd(http, id, 120000)["coreQuery"];
        QVERIFY2(query["status"] == "DONE", query.dump().c_str());
        COMPARE_JSON(query["steps"],
                     json({"TRACE_GENERATION", "PROOF_GENERATION", "PROOF_VERIFICATION"}));
        QCOMPARE(query["isProofMocked"].get<bool>(), false);
        QCOMPARE(query["isFactMocked"].get<bool>(), false);
        QCOMPARE(query["sharpProver"].get<std::string>(), std::string("proofdesk"));
        // The progress field says the proof is done.
        QCOMPARE(query["proofProgress"]["phase"].get<std::string>(), std::string("done"));
        QCOMPARE(query["proofProgress"]["fraction"].get<double>(), 1.0);
        QVERIFY(query["proofProgress"]["elapsedSeconds"].get<double>() > 0);

        // proof.json is a Stone proof our verifier accepts, for this program and output.
        const json proof = http.get("/artifacts/" + id + "/proof.json").json();
        QCOMPARE(proof["proof_parameters"]["channel_hash"].get<std::string>(),
                 std::string("keccak256"));
        const stark::Verdict verdict = stark::verifyStoneProof(proof);
        QVERIFY2(verdict.valid, verdict.failedCheck.c_str());
        QCOMPARE(verdict.statement->sharpFactHash, query["sharpFactHash"].get<std::string>());
        const json metadata = http.get("/artifacts/" + id + "/metadata.json").json();
        QCOMPARE(metadata["proof"]["prover"].get<std::string>(), std::string("proofdesk"));
        QCOMPARE(metadata["proof"]["security_bits"].get<int>(), 32);
        // At 32 bits the `time` profile takes blow-up 2 (24 queries) rather than Stone's 16.
        QCOMPARE(proof["proof_parameters"]["stark"]["log_n_cosets"].get<int>(), 1);
        QCOMPARE(proof["proof_parameters"]["stark"]["fri"]["n_queries"].get<int>(), 24);
        QCOMPARE(metadata["proof"]["layout"].get<std::string>(), std::string("small"));
        QCOMPARE(metadata["proof"]["timings"].size(), std::size_t(8));
        QCOMPARE(http.get("/artifacts/" + id + "/verification.json").json()["valid"].get<bool>(),
                 true);
        // The fact is in the real registry, not the mocked one.
        const std::string fact = query["sharpFactHash"];
        QCOMPARE(http.get("/fact-registry/L1/" + fact).json()["valid"].get<bool>(), true);
    }

    // Issue #46: a Cairo 1 executable with its arguments, proven for real from its Standalone
    // entry; the fact is its program hash's (the Bootloader entry's, as its PIE would carry).
    void cairo1ExecutablesAreProvenWithTheirArguments() {
        TestServer server;
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const json executable = Cairo1Body::sumOfTwoArguments();
        const Reply submitted = http.postMultipart(
            "/core-query",
            {file("programFile", executable.dump(), "main.executable.json"),
             file("inputFile", R"([20, "0x16"])", "args.json"), text("cairoVersion", "cairo1"),
             text("layout", "small"), text("result", "PROOF_VERIFICATION_ON_L1")},
            keyHeader(alpha));
        QCOMPARE(submitted.status, 201);
        const std::string id = submitted.json()["coreQueryId"];
        const json query = waitForEnd(http, id, 120000)["coreQuery"];
        QVERIFY2(query["status"] == "DONE", query.dump().c_str());
        QCOMPARE(query["cairoVersion"].get<std::string>(), std::string("cairo1"));
        QCOMPARE(query["isProofMocked"].get<bool>(), false);
        QCOMPARE(query["isFactMocked"].get<bool>(), false);
        const crypto::Felt hash =
            cairo::programHash(cairo::Executable::fromJson(executable).program());
        QCOMPARE(query["programHash"].get<std::string>(), hash.toHex());
        const std::vector<crypto::Felt> output = {crypto::Felt::fromU64(42)};
        QCOMPARE(query["sharpFactHash"].get<std::string>(), cairo::sharpFactHash(hash, output));
        const json proof = http.get("/artifacts/" + id + "/proof.json").json();
        const stark::Verdict verdict = stark::verifyStoneProof(proof);
        QVERIFY2(verdict.valid, verdict.failedCheck.c_str());
        QCOMPARE(verdict.statement->sharpFactHash, query["sharpFactHash"].get<std::string>());
        QCOMPARE(http.get("/fact-registry/L1/" + query["sharpFactHash"].get<std::string>())
                     .json()["valid"]
                     .get<bool>(),
                 true);

        // A panic fails the query with its message; the program registered as Cairo 1.
        const Reply panicking = http.postMultipart(
            "/core-query",
            {file("programFile", Cairo1Body::panicsWithItsArguments().dump(), "p.executable.json"),
             file("inputFile", R"(["0x6f6f7073"])", "args.json"), text("cairoVersion", "cairo1"),
             text("result", "TRACE_GENERATION")},
            keyHeader(alpha));
        QCOMPARE(panicking.status, 201);
        const json failed = waitForEnd(http, panicking.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(failed["status"].get<std::string>(), std::string("FAILED"));
        QVERIFY2(failed["errorReason"].get<std::string>().find(
                     "Panicked with 0x6f6f7073 ('oops').") != std::string::npos,
                 failed.dump().c_str());
        // By hash, the registered executable runs as Cairo 1 and is refused as Cairo 0.
        const Reply byHash = http.postMultipart(
            "/core-query",
            {text("programHash", hash.toHex()), text("cairoVersion", "cairo1"),
             file("inputFile", "[1, 2]", "args.json"), text("result", "TRACE_GENERATION")},
            keyHeader(alpha));
        QCOMPARE(byHash.status, 201);
        const json traced = waitForEnd(http, byHash.json()["coreQueryId"])["coreQuery"];
        QVERIFY2(traced["status"] == "DONE", traced.dump().c_str());
        const Reply asCairo0 = http.postMultipart(
            "/core-query", {text("programHash", hash.toHex()), text("result", "TRACE_GENERATION")},
            keyHeader(alpha));
        QCOMPARE(asCairo0.status, 400);
        QCOMPARE(asCairo0.json()["message"].get<std::string>(),
                 std::string("CAIRO_VERSION_MISMATCH"));
    }

    // Issue #48: L2 proofs take the channel Integrity verifies and the smallest proof (`size`: its
    // on-chain cost grows with the proof); the others the fastest at the same security (`time`).
    // At 64 bits `size` takes blow-up 8 (16 queries), `time` blow-up 2 (48 queries).
    void l2ProofsUseTheChannelIntegrityVerifies() {
        server::ServerOptions options;
        options.provers.securityBits = 64;
        TestServer server(options);
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        // A countdown without builtins: layout plain, the smallest trace there is.
        const std::string program = Asm::countdown(5).proofModeProgram().dump();
        std::map<std::string, std::string> channels;
        std::map<std::string, std::string> optimize;
        std::map<std::string, int> cosets;
        std::map<std::string, int> queries;
        // The third asks for `size` itself (the `optimize` part, our extension).
        for (const std::string result :
             {"PROOF_GENERATION", "PROOF_VERIFICATION_ON_L2", "PROOF_GENERATION size"}) {
            std::vector<Part> parts = {file("programFile", program, "p.json"),
                                       text("layout", "plain"),
                                       text("result", result.substr(0, result.find(' ')))};
            if (result.ends_with(" size")) {
                parts.push_back(text("optimize", "size"));
            }
            const Reply submitted = http.postMultipart("/core-query", parts, keyHeader(alpha));
            const std::string id = submitted.json()["coreQueryId"];
            const json query = waitForEnd(http, id, 120000)["coreQuery"];
            QVERIFY2(query["status"] == "DONE", query.dump().c_str());
            const json proof = http.get("/artifacts/" + id + "/proof.json").json();
            channels[result] = proof["proof_parameters"]["channel_hash"];
            const stark::Verdict verdict = stark::verifyStoneProof(proof);
            QVERIFY2(verdict.valid, verdict.failedCheck.c_str());
            const json metadata = http.get("/artifacts/" + id + "/metadata.json").json();
            QCOMPARE(metadata["proof"]["security_bits"].get<int>(), 64);
            optimize[result] = metadata["proof"]["optimize"];
            cosets[result] = proof["proof_parameters"]["stark"]["log_n_cosets"];
            queries[result] = proof["proof_parameters"]["stark"]["fri"]["n_queries"];
        }
        QCOMPARE(channels["PROOF_GENERATION"], std::string("keccak256"));
        QCOMPARE(channels["PROOF_VERIFICATION_ON_L2"], std::string("poseidon3"));
        QCOMPARE(optimize["PROOF_GENERATION"], std::string("time"));
        QCOMPARE(optimize["PROOF_VERIFICATION_ON_L2"], std::string("size"));
        QCOMPARE(cosets["PROOF_GENERATION"], 1);
        QCOMPARE(queries["PROOF_GENERATION"], 48);
        QCOMPARE(cosets["PROOF_VERIFICATION_ON_L2"], 3);
        QCOMPARE(queries["PROOF_VERIFICATION_ON_L2"], 16);
        QCOMPARE(optimize["PROOF_GENERATION size"], std::string("size"));
        QCOMPARE(cosets["PROOF_GENERATION size"], 3);
        QCOMPARE(channels["PROOF_GENERATION size"], std::string("keccak256"));
    }

    void ourProverRefusesWhatItCannotProveSayingWhy() {
        TestServer server;
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        // A program compiled without --proof_mode.
        const Reply plain = http.postMultipart(
            "/core-query", {file("programFile", outputProgram(3), "p.json")}, keyHeader(alpha));
        const json failed = waitForEnd(http, plain.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(failed["status"].get<std::string>(), std::string("FAILED"));
        QCOMPARE(failed["step"].get<std::string>(), std::string("PROOF_GENERATION"));
        QVERIFY2(failed["errorReason"].get<std::string>().find("--proof_mode") != std::string::npos,
                 failed["errorReason"].get<std::string>().c_str());
        QCOMPARE(http.get("/is-alive").status, 200);
    }

    // add_mod and mul_mod: all_cairo has them but does not constrain them, so layout auto takes
    // dynamic, with Proofdesk's placement of its columns (submissions carry no parameters).
    void modBuiltinProgramsAreProvenOnDynamic() {
        TestServer server;
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        // Naming dynamic is accepted too: a countdown's trace, on dynamic.
        const Reply named = http.postMultipart(
            "/core-query",
            {file("programFile", Asm::countdown(3).proofModeProgram().dump(), "p.json"),
             text("layout", "dynamic"), text("result", "TRACE_GENERATION")},
            keyHeader(alpha));
        QCOMPARE(named.status, 201);
        const json traced = waitForEnd(http, named.json()["coreQueryId"])["coreQuery"];
        QVERIFY2(traced["status"] == "DONE", traced.dump().c_str());
        QCOMPARE(traced["layout"].get<std::string>(), std::string("dynamic"));
#if defined(PROOFDESK_ADDRESS_SANITIZER)
        QSKIP("a dynamic proof of the mod builtins (2^17 rows) is too slow under sanitizers; the "
              "release build runs it");
#endif
        // 5 + 7 = 12 and 5 · 7 = 35 (mod 2^96 + 3).
        const ModBatch::Number p = {"3", "1", "0", "0"};
        const ModBatch add = {
            p, {{{{"5", "0", "0", "0"}, {"7", "0", "0", "0"}, {"12", "0", "0", "0"}}}}};
        const ModBatch mul = {
            p, {{{{"5", "0", "0", "0"}, {"7", "0", "0", "0"}, {"35", "0", "0", "0"}}}}};
        const std::string program =
            Asm::modOperations(add, mul).proofModeProgram({"add_mod", "mul_mod"}).dump();
        const Reply submitted = http.postMultipart(
            "/core-query",
            {file("programFile", program, "p.json"), text("result", "PROOF_VERIFICATION_ON_L1")},
            keyHeader(alpha));
        QCOMPARE(submitted.status, 201);
        const std::string id = submitted.json()["coreQueryId"];
        const json query = waitForEnd(http, id, 120000)["coreQuery"];
        QVERIFY2(query["status"] == "DONE", query.dump().c_str());
        QCOMPARE(query["layout"].get<std::string>(), std::string("dynamic"));
        QCOMPARE(query["isProofMocked"].get<bool>(), false);
        const json metadata = http.get("/artifacts/" + id + "/metadata.json").json();
        COMPARE_JSON(metadata["optimal_layouts"], json({"dynamic"}));
        const json proof = http.get("/artifacts/" + id + "/proof.json").json();
        const json& params = proof["public_input"]["dynamic_params"];
        QCOMPARE(params["uses_add_mod_builtin"].get<int>(), 1);
        QCOMPARE(params["uses_mul_mod_builtin"].get<int>(), 1);
        QCOMPARE(params["uses_pedersen_builtin"].get<int>(), 0);
        const stark::Verdict verdict = stark::verifyStoneProof(proof);
        QVERIFY2(verdict.valid, verdict.failedCheck.c_str());
        QCOMPARE(verdict.statement->sharpFactHash, query["sharpFactHash"].get<std::string>());
        QCOMPARE(http.get("/fact-registry/L1/" + query["sharpFactHash"].get<std::string>())
                     .json()["valid"]
                     .get<bool>(),
                 true);
    }

    void aPieIsProvenAsATaskOfTheBootloader() {
        const QString bootloader = QStringLiteral(
            PROOFDESK_FIXTURES_DIR "/cairo/runs/moonsong_bootloader_fibonacci_starknet_with_keccak/"
                                   "bootloader-v0.13.0.json");
        if (!QFile::exists(bootloader)) {
            QSKIP("../shared/fixtures/cairo is not present");
        }
        server::ServerOptions options;
        TestServer without(options);
        const Project alpha = newProject(without, QStringLiteral("alpha"));
        TestHttp http(without.url());
        // A PIE of our own run: the trace generation of a program writing 5.
        const Reply traced = http.postMultipart(
            "/core-query",
            {file("programFile", outputProgram(5), "p.json"), text("result", "TRACE_GENERATION")},
            keyHeader(alpha));
        const json trace = waitForEnd(http, traced.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(trace["status"].get<std::string>(), std::string("DONE"));
        const std::string pie =
            http.get("/artifacts/" + trace["id"].get<std::string>() + "/pie.zip", keyHeader(alpha))
                .body;
        const std::vector<Part> proofOfPie = {file("pieFile", pie, "pie.zip"),
                                              text("result", "PROOF_VERIFICATION_ON_L1")};
        // Without a bootloader program the server says how to give it one.
        const json refused =
            waitForEnd(http, http.postMultipart("/core-query", proofOfPie, keyHeader(alpha))
                                 .json()["coreQueryId"])["coreQuery"];
        QCOMPARE(refused["status"].get<std::string>(), std::string("FAILED"));
        QVERIFY2(refused["errorReason"].get<std::string>().find(
                     "start it with --bootloader-program PATH") != std::string::npos,
                 refused.dump().c_str());
#if defined(PROOFDESK_ADDRESS_SANITIZER)
        QSKIP("a bootloader proof is too slow under sanitizers; the release build runs it");
#endif
        options.provers.bootloaderProgram = bootloader;
        // A real proof all the same, with less proof of work and fewer queries than 96 bits ask.
        options.provers.securityBits = 32;
        TestServer server(options);
        const Project beta = newProject(server, QStringLiteral("beta"));
        TestHttp withBootloader(server.url());
        const std::string id =
            withBootloader.postMultipart("/core-query", proofOfPie, keyHeader(beta))
                .json()["coreQueryId"];
        const json query = waitForEnd(withBootloader, id, 600000)["coreQuery"];
        QVERIFY2(query["status"] == "DONE", query.dump().c_str());
        QCOMPARE(query["isProofMocked"].get<bool>(), false);
        QCOMPARE(query["isFactMocked"].get<bool>(), false);
        // Issue #48: `auto` takes the cheapest layout with what the run uses (the bootloader's
        // output and Pedersen), not every builtin the bootloader declares.
        QCOMPARE(query["layout"].get<std::string>(), std::string("small"));
        // The fact is the task's, as SHARP registers it: the same as the trace's.
        COMPARE_JSON(query["sharpFactHash"], trace["sharpFactHash"]);
        COMPARE_JSON(query["programHash"], trace["programHash"]);
        QCOMPARE(
            withBootloader.get("/fact-registry/L1/" + query["sharpFactHash"].get<std::string>())
                .json()["valid"]
                .get<bool>(),
            true);
        // proof.json proves the bootloader, whose output carries the PIE as its one task.
        const json proof = withBootloader.get("/artifacts/" + id + "/proof.json").json();
        const stark::Verdict verdict = stark::verifyStoneProof(proof);
        QVERIFY2(verdict.valid, verdict.failedCheck.c_str());
        // The output segment, continuous pages included (page 1 holds the task's output).
        const std::vector<std::string> output = verdict.publicInput->outputCells();
        QCOMPARE(output.size(), std::size_t(6));
        QCOMPARE(output[2], std::string("0x1"));
        QCOMPARE(output[3], std::string("0x3"));
        QCOMPARE(output[4], query["programHash"].get<std::string>());
        QCOMPARE(output[5], std::string("0x5"));
    }

    void aProofOutOfMemoryFailsItsQueryAlone() {
#if defined(PROOFDESK_ADDRESS_SANITIZER)
        QSKIP("AddressSanitizer reserves far more address space than the memory limit allows");
#endif
        server::ServerOptions options;
        // 2^17 steps: its low-degree extensions alone need several hundred MiB.
        options.provers.proverLimits.memoryBytes = std::uint64_t{96} << 20;
        TestServer server(options);
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const std::string countdown =
            Asm::countdown(std::uint64_t{1} << 15).proofModeProgram().dump();
        const Reply submitted = http.postMultipart(
            "/core-query", {file("programFile", countdown, "p.json"), text("layout", "plain")},
            keyHeader(alpha));
        const json query = waitForEnd(http, submitted.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("FAILED"));
        QCOMPARE(query["step"].get<std::string>(), std::string("PROOF_GENERATION"));
        QVERIFY2(query["errorReason"].get<std::string>().find("memory") != std::string::npos,
                 query["errorReason"].get<std::string>().c_str());
        QCOMPARE(http.get("/is-alive").status, 200);
    }

    void withoutAProverProofRequestsFailSayingHowToConfigureOne() {
        server::ServerOptions options;
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

    // The server the console embeds says which Settings field to change, not which flag.
    void theConsolesServerNamesItsSettingsFieldsInReasons() {
        server::ServerOptions options;
        options.provers.engine = QStringLiteral("none");
        options.provers.settingsSurface = core::SettingsSurface::ConsoleSettings;
        TestServer server(options);
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const Reply submitted = http.postMultipart(
            "/core-query", {file("programFile", outputProgram(3), "p.json")}, keyHeader(alpha));
        const json query = waitForEnd(http, submitted.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("FAILED"));
        COMPARE_JSON(query["errorReason"],
                     json("no prover is configured on this server: choose one in Settings → "
                          "Prover (builtin is Proofdesk's own)"));
        // The Local server page's prover line, likewise.
        proof::ProverSettings builtin;
        builtin.settingsSurface = core::SettingsSurface::ConsoleSettings;
        QVERIFY2(builtin.description().contains(
                     QStringLiteral("PIEs: no bootloader (Settings → Bootloader program)")),
                 qPrintable(builtin.description()));
    }

    void stoneBinariesAreRunOnTheProofModeOutputs() {
        QTemporaryDir tools;
        // Stand-ins for cpu_air_prover / cpu_air_verifier: check the files they are given exist
        // and answer like the real tools (proof.json written, with the run's public input as
        // Stone's proofs carry it; exit status).
        server::ServerOptions options;
        options.provers.stoneProver = writeScript(
            tools.path(), QStringLiteral("prover"),
            "for f in private_input.json public_input.json cpu_air_params.json "
            "cpu_air_prover_config.json trace.bin memory.bin; do test -s $f || exit 3; done\n"
            "grep -q '\"n_steps\"' public_input.json || exit 4\n"
            "printf '{\"proof_hex\": \"0xabc\", \"stub\": true, \"public_input\": %s}' "
            "\"$(cat public_input.json)\" > proof.json");
        options.provers.stoneVerifier =
            writeScript(tools.path(), QStringLiteral("verifier"),
                        "test -s proof.json || exit 1\necho 'Proof verified successfully.' >&2");
        options.provers.verifier = QStringLiteral("stone");
        options.provers.engine = QStringLiteral("stone");
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
        // Stone's verdict is an artifact too: that it verified, and what the verifier said.
        const json verdict =
            http.get("/artifacts/" + query["id"].get<std::string>() + "/verification.json").json();
        QCOMPARE(verdict["valid"].get<bool>(), true);
        QCOMPARE(verdict["verifier"].get<std::string>(), std::string("stone"));
        QCOMPARE(verdict["verifierPath"].get<std::string>(),
                 options.provers.stoneVerifier.toStdString());
        QVERIFY2(verdict["verifierOutput"].get<std::string>().find(
                     "Proof verified successfully.") != std::string::npos,
                 verdict.dump().c_str());
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
        server::ServerOptions options;
        options.provers.stoneProver = writeScript(tools.path(), QStringLiteral("prover"),
                                                  "echo 'segfault-ish' >&2; exit 139");
        options.provers.engine = QStringLiteral("stone");
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
            server::ServerOptions options;
            options.dataDir = dataDir.path();
            options.provers.stoneProver =
                writeScript(tools.path(), QStringLiteral("prover"), "exec sleep 600");
            options.provers.engine = QStringLiteral("stone");
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
        server::ServerOptions options;
        options.dataDir = dataDir.path();
        options.provers.engine = QStringLiteral("mock");
        TestServer server(options);
        QVERIFY2(server.ok(), qPrintable(server.error()));
        TestHttp http(server.url());
        const json query = waitForEnd(http, id)["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("DONE"));
        QCOMPARE(query["isProofMocked"].get<bool>(), true);
        // Submitted to our prover, proven by the mock one after the restart: the record says so.
        QCOMPARE(query["sharpProver"].get<std::string>(), std::string("mock"));
        QCOMPARE(query["retryCount"].get<int>(), 0); // a graceful stop is not a failed attempt
    }
};

QTEST_GUILESS_MAIN(ProofProversTest)
#include "tst_proof_provers.moc"
