// Issue #43, findings 2 and 6: tenants cannot reach each other's programs by hash, and a refused
// submission leaves nothing stored (its uploads included) within a stated quota.

#include "ProofHttpSupport.h"
#include "ProofTestData.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTest>

#include <sys/time.h>

using namespace proofdesk;
using namespace proofdesk::test;

namespace {

std::string readSample(const char* name) {
    QFile file(QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/") +
               QString::fromUtf8(name));
    file.open(QIODevice::ReadOnly);
    return file.readAll().toStdString();
}

// Our sample program (its hint sums the squares of the input's values) with its hint replaced:
// the same bytecode, so the same program hash (hints are not in it), another program.
std::string sampleWithHint(const std::string& code) {
    json program = json::parse(readSample("sum_of_squares.json"));
    program["hints"]["8"][0]["code"] = code;
    return program.dump();
}

std::string sha256(const std::string& bytes) {
    return QCryptographicHash::hash(QByteArray::fromStdString(bytes), QCryptographicHash::Sha256)
        .toHex()
        .toStdString();
}

QStringList storedFiles(TestServer& server) {
    return QDir(server.dataDir() + QStringLiteral("/artifacts")).entryList(QDir::Files);
}

bool stored(TestServer& server, const std::string& bytes) {
    return storedFiles(server).contains(QString::fromStdString(sha256(bytes)));
}

// A JSON input file of about `bytes` bytes, unlike any other (`tag`).
std::string bigInput(std::size_t bytes, const std::string& tag) {
    return R"({"values": [1, 2], "padding": ")" + tag + std::string(bytes, 'p') + "\"}";
}

} // namespace

class TenantIsolationTest : public QObject {
    Q_OBJECT
private slots:
    // Finding 2: a program registered by one project is not another's. The hash covers the
    // bytecode, not the hints, so a squatter's file under a victim's hash would run the
    // squatter's hints on the victim's input.
    void programHashesAreEachProjectsOwn() {
        TestServer server;
        const Project victim = newProject(server, QStringLiteral("victim"));
        const Project squatter = newProject(server, QStringLiteral("squatter"));
        const Project third = newProject(server, QStringLiteral("third"));
        TestHttp http(server.url());
        const std::string honest = readSample("sum_of_squares.json");
        const std::string squatted = sampleWithHint("ids.n = 1337");
        const std::string hash = programHashOf(honest);
        QCOMPARE(programHashOf(squatted), hash);

        const auto submitProgram = [&](const Project& project, const std::string& program) {
            return http.postMultipart(
                "/v1/submit-program?apiKey=" + project.key,
                {file("programFile", program, "p.json"), text("cairoVersion", "0")});
        };
        const Reply squat = submitProgram(squatter, squatted);
        QCOMPARE(squat.status, 201);
        QCOMPARE(squat.json()["programHash"].get<std::string>(), hash);

        // The hash names nothing for anyone else.
        const auto byHash = [&](const Project& project) {
            return http.postMultipart(
                "/core-query",
                {text("programHash", hash), file("inputFile", R"({"values": [1, 2]})", "i.json"),
                 text("cairoVm", "python"), text("result", "TRACE_GENERATION")},
                keyHeader(project));
        };
        for (const Project* other : {&victim, &third}) {
            const Reply refused = byHash(*other);
            QCOMPARE(refused.status, 400);
            QCOMPARE(refused.json()["message"].get<std::string>(),
                     std::string("PROGRAM_NOT_FOUND"));
        }

        // The victim registers its own file under the same hash, and its queries run it.
        QCOMPARE(submitProgram(victim, honest).status, 201);
        const json ran = waitForEnd(http, byHash(victim).json()["coreQueryId"])["coreQuery"];
        QCOMPARE(ran["status"].get<std::string>(), std::string("DONE"));
        COMPARE_JSON(http.get("/artifacts/" + ran["id"].get<std::string>() + "/output.json").json(),
                     json::array({"0x5"})); // 1 + 4, not 1337
        const json theirs = waitForEnd(http, byHash(squatter).json()["coreQueryId"])["coreQuery"];
        COMPARE_JSON(
            http.get("/artifacts/" + theirs["id"].get<std::string>() + "/output.json").json(),
            json::array({"0x539"}));

        // Within a project, another file under a registered hash is refused.
        const Reply conflict = submitProgram(victim, squatted);
        QCOMPARE(conflict.status, 409);
        QCOMPARE(conflict.json()["message"].get<std::string>(),
                 std::string("PROGRAM_HASH_CONFLICT"));
        QCOMPARE(conflict.json()["programHash"].get<std::string>(), hash);
        QCOMPARE(submitProgram(victim, honest).status, 201); // the same file again is fine
    }

    // Finding 6: uploads were stored before the credit check and never collected. A refused
    // submission now leaves its uploads (and its program's registration) behind nowhere.
    void aRefusedSubmissionLeavesNothingStored() {
        TestServer server;
        const Project poor = newProject(server, QStringLiteral("poor"));
        TestHttp http(server.url());
        server.server().proofs().credits().setBalance(poor.id, 0);
        const QStringList before = storedFiles(server);
        const std::string program = sampleWithHint("ids.n = 2");
        const std::string input = bigInput(1 << 20, "credits");
        const Reply unpaid = http.postMultipart(
            "/core-query",
            {file("programFile", program, "p.json"), file("inputFile", input, "i.json"),
             text("cairoVm", "python"), text("result", "TRACE_GENERATION")},
            keyHeader(poor));
        QCOMPARE(unpaid.status, 402);
        QCOMPARE(storedFiles(server), before);
        // Nor is the program registered for the project (intake is all or nothing).
        server.server().proofs().credits().setBalance(poor.id, std::nullopt);
        const Reply byHash = http.postMultipart(
            "/core-query", {text("programHash", programHashOf(program))}, keyHeader(poor));
        QCOMPARE(byHash.status, 400);
        QCOMPARE(byHash.json()["message"].get<std::string>(), std::string("PROGRAM_NOT_FOUND"));

        // A dedup conflict: the second submission's new input is not kept.
        const auto dedup = [&](const std::string& inputText) {
            return http.postMultipart("/core-query",
                                      {file("programFile", program, "p.json"),
                                       file("inputFile", inputText, "i.json"),
                                       text("cairoVm", "python"),
                                       text("result", "TRACE_GENERATION"), text("dedupId", "once")},
                                      keyHeader(poor));
        };
        QCOMPARE(dedup(bigInput(1000, "first")).status, 201);
        const std::string second = bigInput(1000, "second");
        QCOMPARE(dedup(second).status, 409);
        QVERIFY(!stored(server, second));

        // A bucket that is not the caller's (or not open): refused once the files were read.
        const std::string toBucket = bigInput(1000, "bucket");
        const Reply noBucket = http.postMultipart(
            "/core-query",
            {file("programFile", program, "p.json"), file("inputFile", toBucket, "i.json"),
             text("cairoVm", "python"), text("bucketId", "01NOSUCHBUCKET00000000000")},
            keyHeader(poor));
        QCOMPARE(noBucket.status, 404);
        QVERIFY(!stored(server, toBucket));

        // A proof refused after it was read (Integrity cannot verify a dynamic layout).
        const std::string proof = stoneProofJson({"0x1", "0x2"}, {}, "dynamic");
        const Reply l2 = http.postMultipart("/core-query",
                                            {file("proofFile", proof, "p.json"),
                                             text("result", "PROOF_VERIFICATION_ON_L2"),
                                             text("mockFactHash", "true")},
                                            keyHeader(poor));
        QCOMPARE(l2.status, 400);
        QVERIFY(!stored(server, proof));
    }

    // A project's stored bytes have a stated, configurable bound.
    void aProjectsStorageIsBounded() {
        server::ServerOptions options;
        options.provers.projectStorageBytes = std::uint64_t{1} << 20;
        TestServer server(options);
        const Project alpha = newProject(server, QStringLiteral("alpha"));
        TestHttp http(server.url());
        const std::string input = bigInput(2 << 20, "quota");
        const Reply refused =
            http.postMultipart("/core-query",
                               {file("programFile", readSample("sum_of_squares.json"), "p.json"),
                                file("inputFile", input, "i.json"), text("cairoVm", "python"),
                                text("result", "TRACE_GENERATION")},
                               keyHeader(alpha));
        QCOMPARE(refused.status, 413);
        QCOMPARE(refused.json()["message"].get<std::string>(),
                 std::string("PROJECT_STORAGE_QUOTA_EXCEEDED"));
        QVERIFY2(refused.json()["detail"].get<std::string>().find("--project-storage-mib") !=
                     std::string::npos,
                 refused.body.c_str());
        QVERIFY(!stored(server, input));
        // What fits is taken.
        const Reply small =
            http.postMultipart("/core-query",
                               {file("programFile", readSample("sum_of_squares.json"), "p.json"),
                                file("inputFile", bigInput(100, "small"), "i.json"),
                                text("cairoVm", "python"), text("result", "TRACE_GENERATION")},
                               keyHeader(alpha));
        QCOMPARE(small.status, 201);
    }

    // A file nothing names (a crash between storing an upload and refusing it) is collected when
    // the server starts.
    void unreferencedFilesAreCollectedAtStart() {
        QTemporaryDir data;
        server::ServerOptions options;
        options.dataDir = data.path();
        const std::string orphan = "left behind by a crash";
        const QString orphanPath =
            data.path() + QStringLiteral("/artifacts/") + QString::fromStdString(sha256(orphan));
        std::string kept;
        {
            TestServer server(options);
            const Project alpha = newProject(server, QStringLiteral("alpha"));
            TestHttp http(server.url());
            kept = readSample("sum_of_squares.json");
            QCOMPARE(
                http.postMultipart("/v1/submit-program?apiKey=" + alpha.key,
                                   {file("programFile", kept, "p.json"), text("cairoVersion", "0")})
                    .status,
                201);
            QFile file(orphanPath);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(orphan.data(), qint64(orphan.size()));
        }
        // Older than the collector's grace period.
        const timeval old[2] = {{1'700'000'000, 0}, {1'700'000'000, 0}};
        QCOMPARE(::utimes(orphanPath.toLocal8Bit().constData(), old), 0);
        TestServer restarted(options);
        QVERIFY(restarted.ok());
        QVERIFY(!QFile::exists(orphanPath));
        // A registered program's file stays.
        QVERIFY(QFile::exists(data.path() + QStringLiteral("/artifacts/") +
                              QString::fromStdString(sha256(kept))));
    }
};

QTEST_GUILESS_MAIN(TenantIsolationTest)
#include "tst_tenant_isolation.moc"
