// Issue #43, finding 1: a registered fact always means proven. The trace child runs submitted code
// (hints), so whatever it reports may be a lie; here it is one for real: the server's sandbox
// program is a stand-in (ForgingSandbox.cpp) that runs the real child and then forges what it
// says. The server must register no fact but what the verified proof proves.

#include "ProofHttpSupport.h"
#include "ProofTestData.h"

#include "cairo/outputs/FactHashes.h"

#include <QTest>

using namespace proofdesk;
using namespace proofdesk::test;

namespace {

struct Outcome {
    json query;
    std::string fact; // the fact the honest run's output would give
};

// A proof-mode program writing 7, proven on small and verified on L1, on a server whose sandbox
// program is `sandbox` (empty: the real one).
Outcome proveThrough(const QString& sandbox) {
    server::ServerOptions options;
    options.provers.sandboxProgram = sandbox;
    TestServer server(options);
    const Project alpha = newProject(server, QStringLiteral("alpha"));
    TestHttp http(server.url());
    const std::string program = proofModeOutputProgram(7);
    const Reply submitted =
        http.postMultipart("/core-query",
                           {file("programFile", program, "p.json"), text("layout", "small"),
                            text("result", "PROOF_VERIFICATION_ON_L1")},
                           keyHeader(alpha));
    Outcome outcome;
    outcome.query = waitForEnd(http, submitted.json()["coreQueryId"], 120000)["coreQuery"];
    const crypto::Felt hash = *crypto::Felt::parse(programHashOf(program));
    outcome.fact = cairo::sharpFactHash(hash, {crypto::Felt::fromU64(7)});
    const std::string forged = cairo::sharpFactHash(hash, {crypto::Felt::fromU64(1337)});
    // Neither the forged fact nor (for a failed query) the honest one is in either namespace.
    for (const char* mocked : {"false", "true"}) {
        const json answer =
            http.get("/fact-registry/L1/" + forged + "?mocked=" + std::string(mocked)).json();
        if (answer.value("valid", true)) {
            qWarning("the forged fact is registered: %s", answer.dump().c_str());
            outcome.query["forgedFactRegistered"] = true;
        }
    }
    outcome.query["honestFactRegistered"] =
        http.get("/fact-registry/L1/" + outcome.fact).json().value("valid", false);
    return outcome;
}

} // namespace

class ForgedRunsTest : public QObject {
    Q_OBJECT
private slots:
    // The control: the real child, the honest run, the fact registered.
    void anHonestRunRegistersItsFact() {
        const Outcome honest = proveThrough(QString());
        QVERIFY2(honest.query["status"] == "DONE", honest.query.dump().c_str());
        QCOMPARE(honest.query["sharpFactHash"].get<std::string>(), honest.fact);
        QCOMPARE(honest.query["honestFactRegistered"].get<bool>(), true);
        QVERIFY(!honest.query.contains("forgedFactRegistered"));
    }

    // The run reports the output 1337; its files (what is proven) hold the real run, output 7.
    void aForgedRunReportRegistersNoFact() {
        const Outcome forged = proveThrough(QStringLiteral(PROOFDESK_FORGING_OUTPUT_SANDBOX));
        QCOMPARE(forged.query["status"].get<std::string>(), std::string("FAILED"));
        QCOMPARE(forged.query["step"].get<std::string>(), std::string("PROOF_VERIFICATION"));
        const std::string reason = forged.query["errorReason"];
        QVERIFY2(reason.find("proves the output [0x7], not the output [0x539]") !=
                     std::string::npos,
                 reason.c_str());
        QVERIFY(forged.query["transactionId"].is_null());
        QVERIFY(!forged.query.contains("forgedFactRegistered"));
        QCOMPARE(forged.query["honestFactRegistered"].get<bool>(), false);
    }

    // The run runs another program than the one submitted (and reports the submitted hash): its
    // proof is valid, of the wrong program.
    void aRunOfAnotherProgramRegistersNoFact() {
        const Outcome swapped = proveThrough(QStringLiteral(PROOFDESK_FORGING_PROGRAM_SANDBOX));
        QCOMPARE(swapped.query["status"].get<std::string>(), std::string("FAILED"));
        const std::string reason = swapped.query["errorReason"];
        QVERIFY2(reason.find("not of this query's program") != std::string::npos, reason.c_str());
        QVERIFY(swapped.query["transactionId"].is_null());
        QCOMPARE(swapped.query["honestFactRegistered"].get<bool>(), false);
    }
};

QTEST_GUILESS_MAIN(ForgedRunsTest)
#include "tst_forged_runs.moc"
