// The console's wording of a proof job's record (ui/ProofRecordText), as a user reads it in the
// job's detail: which fact is registered where, what each fact is, progress and its estimate.
#include "ui/ProofRecordText.h"

#include <QTest>

using namespace proofdesk;

namespace {

const std::string kSharp = "0x" + std::string(62, '0') + "aa";
const std::string kIntegrity = "0x" + std::string(62, '0') + "bb";

api::ProofQuery doneQuery(const std::string& chain) {
    api::ProofQuery query;
    query.status = "DONE";
    query.chain = chain;
    query.sharpFactHash = kSharp;
    query.integrityFactHash = kIntegrity;
    return query;
}

} // namespace

class ProofRecordTextTest : public QObject {
    Q_OBJECT

private slots:
    // L2 registers the Integrity fact, the other chains the SHARP fact: the line names the one
    // registered, and the copy button copies that one.
    void theFactShownIsTheOneRegistered() {
        const api::ProofQuery l2 = doneQuery("L2");
        QCOMPARE(ui::registeredFactHash(l2), QString::fromStdString(kIntegrity));
        QCOMPARE(ui::factHashText(l2),
                 QStringLiteral("Integrity fact %1, registered for L2 in this server's local fact "
                                "registry (no chain was asked)")
                     .arg(QString::fromStdString(kIntegrity)));
        const api::ProofQuery l1 = doneQuery("L1");
        QCOMPARE(ui::registeredFactHash(l1), QString::fromStdString(kSharp));
        QVERIFY(ui::factHashText(l1).startsWith(QStringLiteral("SHARP fact ") +
                                                QString::fromStdString(kSharp)));
        api::ProofQuery offchain = doneQuery("OFFCHAIN");
        offchain.isFactMocked = true;
        QCOMPARE(ui::factHashText(offchain),
                 QStringLiteral("SHARP fact %1 (mocked)").arg(QString::fromStdString(kSharp)));
        QCOMPARE(ui::factHashText(api::ProofQuery{}), QStringLiteral("No fact hash yet."));
    }

    // The record's Integrity fact is explained beside the SHARP one, and the Verify panel's
    // reading of a proof is said to be another fact.
    void bothFactsAreExplained() {
        const QString explained = ui::factHashesExplained(doneQuery("L1"));
        QVERIFY(explained.contains(QStringLiteral("SHARP fact ") + QString::fromStdString(kSharp)));
        QVERIFY(explained.contains(QStringLiteral("Integrity fact ") +
                                   QString::fromStdString(kIntegrity) +
                                   QStringLiteral(": the fact Integrity registers for this "
                                                  "program run as the one task of SHARP's "
                                                  "bootloader")));
        QVERIFY(ui::proofIntegrityFactExplained().contains(
            QStringLiteral("the two agree only for a bootloader's proof of that one task")));
        QVERIFY(ui::factHashesExplained(api::ProofQuery{}).isEmpty());
    }

    // One percent sign (issue #47 showed "7%%"), the estimate once there is one.
    void progressReadsAsOneLine() {
        api::ProofProgress progress;
        progress.phase = "composition";
        progress.fraction = 0.07;
        progress.elapsedSeconds = 75;
        QCOMPARE(ui::progressText(progress),
                 QStringLiteral("Proving: composition — 7% · 1:15 elapsed"));
        progress.remainingSeconds = 4000;
        QCOMPARE(ui::progressText(progress),
                 QStringLiteral("Proving: composition — 7% · 1:15 elapsed · about 1:06:40 left"));
    }
};

QTEST_GUILESS_MAIN(ProofRecordTextTest)
#include "tst_proof_record_text.moc"
