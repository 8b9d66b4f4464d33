// Issue #18, finding 3 and the low ones: single requests that crashed the server (some into a
// crash loop after restart) or were stored as given. Each is answered with the spec's status and
// body shape, and the server keeps answering.

#include "ProofHttpSupport.h"
#include "ZipOfZeros.h"

#include <QFile>
#include <QTest>

using namespace proofdesk;
using namespace proofdesk::test;

namespace {

std::string nested(std::size_t depth) {
    return std::string(depth, '[') + "1" + std::string(depth, ']');
}

std::string readSample(const char* name) {
    QFile file(QStringLiteral(PROOFDESK_SOURCE_DIR "/resources/samples/") +
               QString::fromUtf8(name));
    file.open(QIODevice::ReadOnly);
    return file.readAll().toStdString();
}

} // namespace

class TstHostileSubmissions : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<TestServer> m_server;
    std::unique_ptr<TestHttp> m_http;
    Project m_project;

    void expectAlive() { QCOMPARE(m_http->get("/is-alive").status, 200); }

    Reply submit(const std::vector<Part>& parts) {
        return m_http->postMultipart("/core-query", parts, keyHeader(m_project));
    }

    void expectRefused(const Reply& reply, const char* code, const char* detail) {
        QCOMPARE(reply.status, 400);
        const json body = reply.json();
        QCOMPARE(body.value("message", ""), std::string(code));
        const std::string said = body.value("detail", "");
        QVERIFY2(said.find(detail) != std::string::npos, reply.body.c_str());
        expectAlive();
    }

private slots:
    void initTestCase() {
        m_server = std::make_unique<TestServer>();
        QVERIFY2(m_server->ok(), qPrintable(m_server->error()));
        m_http = std::make_unique<TestHttp>(m_server->url());
        m_project = newProject(*m_server, QStringLiteral("hostile"));
    }

    void deeplyNestedAggregatorParams() {
        const std::string body =
            R"({"externalId":"deep","aggregatorParams":)" + nested(100'000) + "}";
        const Reply reply = m_http->post("/buckets", body, keyHeader(m_project));
        QCOMPARE(reply.status, 400);
        QCOMPARE(reply.json().value("error", ""), std::string("MALFORMED_JSON"));
        expectAlive();
    }

    void deeplyNestedProgramData() {
        json program = json::parse(readSample("fibonacci.json"));
        const std::string dumped = program.dump();
        const std::size_t data = dumped.find("\"data\":") + 7;
        const std::string poisoned =
            dumped.substr(0, data) + nested(100'000) + "," + dumped.substr(data);
        expectRefused(submit({file("programFile", poisoned, "p.json")}),
                      "PROGRAM_FILE_SHOULD_BE_JSON", "nested deeper than 512 levels");
        // /v1/submit-program hashes the same file: the same answer.
        const Reply v1 = m_http->postMultipart(
            "/v1/submit-program?apiKey=" + m_project.key,
            {file("programFile", poisoned, "p.json"), text("cairoVersion", "0")});
        QCOMPARE(v1.status, 400);
        QCOMPARE(v1.json().value("message", ""), std::string("PROGRAM_FILE_SHOULD_BE_JSON"));
        expectAlive();
    }

    void deeplyNestedInputFile() {
        expectRefused(
            submit({file("programFile", readSample("sum_of_squares.json"), "p.json"),
                    file("inputFile", nested(100'000), "in.json"), text("cairoVm", "python")}),
            "INPUT_FILE_FOR_CAIRO0_SHOULD_BE_JSON", "nested deeper than 512 levels");
    }

    void deeplyNestedReferenceExpression() {
        json program = json::parse(readSample("sum_of_squares.json"));
        program["reference_manager"]["references"][1]["value"] =
            std::string(100'000, '[') + "fp" + std::string(100'000, ']');
        const Reply reply =
            submit({file("programFile", program.dump(), "p.json"),
                    file("inputFile", readSample("sum_of_squares_input.json"), "in.json"),
                    text("result", "TRACE_GENERATION"), text("cairoVm", "python")});
        QCOMPARE(reply.status, 201);
        const json query = waitForEnd(*m_http, reply.json()["coreQueryId"])["coreQuery"];
        QCOMPARE(query["status"].get<std::string>(), std::string("FAILED"));
        const std::string reason = query["errorReason"];
        QVERIFY2(reason.find("nested deeper than 128 levels") != std::string::npos, reason.c_str());
        expectAlive();
    }

    void aZipBombPie() {
        const std::string bomb = zipOfZeros("metadata.json", std::size_t(256) << 20);
        QVERIFY(bomb.size() < (std::size_t(1) << 20));
        expectRefused(
            submit({file("pieFile", bomb, "pie.zip"), text("result", "PROOF_GENERATION")}),
            "INVALID_PIE_FILE", "zip bomb");
    }

    void identifiersHaveRules() {
        const Part program = file("programFile", readSample("fibonacci.json"), "p.json");
        expectRefused(submit({program, text("dedupId", std::string(100'000, 'd'))}),
                      "INVALID_DEDUP_ID", "dedupId is longer than 128 characters");
        expectRefused(submit({program, text("externalId", std::string("a\0b", 3))}),
                      "INVALID_EXTERNAL_ID", "externalId contains a control character");
        expectRefused(submit({program, text("dedupId", "invoice\u202Efdp.exe")}),
                      "INVALID_DEDUP_ID", "bidirectional");
        const Reply bucket =
            m_http->postJson("/buckets", {{"externalId", "x\u2066y"}}, keyHeader(m_project));
        QCOMPARE(bucket.status, 400);
        QCOMPARE(bucket.json().value("error", ""), std::string("INVALID_FIELD"));
        // A 128-character dedup id of any script is fine.
        std::string fine;
        for (int i = 0; i < 128; ++i) {
            fine += "\u00e9";
        }
        QCOMPARE(submit({program, text("dedupId", fine)}).status, 201);
        // Ids in paths longer than any of ours are simply unknown.
        QCOMPARE(m_http->get("/core-query/" + std::string(300, 'Q')).status, 404);
    }

    void aProofLayoutMustBeALayout() {
        json proof = {{"proof_hex", "0x00"},
                      {"public_input",
                       {{"layout", "../../../etc/passwd"},
                        {"n_steps", 16},
                        {"rc_min", 0},
                        {"rc_max", 10},
                        {"memory_segments", json::object()},
                        {"public_memory", json::array()}}}};
        const std::vector<Part> parts = {text("result", "PROOF_VERIFICATION_ON_L1"),
                                         text("mockFactHash", "true")};
        std::vector<Part> withLayout = parts;
        withLayout.push_back(file("proofFile", proof.dump(), "proof.json"));
        expectRefused(submit(withLayout), "INVALID_PROOF_FILE", "is not a Cairo layout");

        proof["public_input"]["layout"] = "small";
        proof["public_input"]["n_steps"] = std::numeric_limits<std::uint64_t>::max();
        std::vector<Part> withSteps = parts;
        withSteps.push_back(file("proofFile", proof.dump(), "proof.json"));
        expectRefused(submit(withSteps), "INVALID_PROOF_FILE", "n_steps is out of range");
    }
};

QTEST_GUILESS_MAIN(TstHostileSubmissions)
#include "tst_hostile_submissions.moc"
