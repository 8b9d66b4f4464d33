// The console's "Verify a proof" (issue #20): a real Stone proof from ../shared/fixtures is
// verified off the GUI thread and shows its statement; the same proof with a flipped bit is shown
// not valid with the failed check; an unreadable file says so.

#include "ui/VerifyProofPanel.h"

#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <nlohmann/json.hpp>

using proofdesk::ui::VerifyProofPanel;

namespace {
const QString kProof = QStringLiteral(
    PROOFDESK_FIXTURES_DIR "/cairo/proofs/stone/integrity_small_cairo0_stone6_keccak_160_lsb.json");
}

class VerifyProofPanelTest : public QObject {
    Q_OBJECT

private slots:
    void aRealProofIsValidAndShowsItsStatement() {
        if (!QFile::exists(kProof)) {
            QSKIP("../shared/fixtures is not here");
        }
        VerifyProofPanel panel;
        panel.show();
        auto* path = panel.findChild<QLineEdit*>(QStringLiteral("verifyProofPathLineEdit"));
        auto* verify = panel.findChild<QPushButton*>(QStringLiteral("verifyProofPushButton"));
        auto* verdict = panel.findChild<QLabel*>(QStringLiteral("verifyVerdictLabel"));
        path->setText(kProof);
        QTest::mouseClick(verify, Qt::LeftButton);
        QVERIFY(!verify->isEnabled()); // the GUI stays responsive while the worker verifies
        QTRY_VERIFY_WITH_TIMEOUT(verify->isEnabled(), 60000);
        QVERIFY2(verdict->text().contains(QStringLiteral("Valid")), qPrintable(verdict->text()));
        QCOMPARE(panel.findChild<QLineEdit*>(QStringLiteral("verifiedLayoutLineEdit"))->text(),
                 QStringLiteral("small, 65536 steps, stone6 public input"));
        QCOMPARE(panel.findChild<QLineEdit*>(QStringLiteral("verifiedSecurityLineEdit"))->text(),
                 QStringLiteral("60 bits (weak)"));
        const QString sharp =
            panel.findChild<QLineEdit*>(QStringLiteral("verifiedSharpFactLineEdit"))->text();
        QVERIFY(sharp.startsWith(QStringLiteral("0x")) && sharp.size() == 66);
        QVERIFY(!panel.findChild<QLineEdit*>(QStringLiteral("verifiedProgramHashLineEdit"))
                     ->text()
                     .isEmpty());
        // The output in decimal as the job detail shows it, the hex words in its tooltip.
        auto* output = panel.findChild<QLineEdit*>(QStringLiteral("verifiedOutputLineEdit"));
        QVERIFY(!output->text().isEmpty());
        for (const QString& value : output->text().split(QStringLiteral(", "))) {
            bool decimal = false;
            value.toULongLong(&decimal);
            QVERIFY2(decimal || value.size() > 19, qPrintable(value));
            QVERIFY(!value.startsWith(QStringLiteral("0x")));
        }
        QVERIFY(output->toolTip().startsWith(QStringLiteral("In hex: 0x")));
        // This proof's Integrity fact is said not to be a job record's, and why.
        const QString integrity =
            panel.findChild<QLineEdit*>(QStringLiteral("verifiedIntegrityFactLineEdit"))->text();
        QVERIFY(integrity.startsWith(QStringLiteral("0x")));
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("integrityFactNoteLabel"))
                    ->text()
                    .contains(QStringLiteral("SHARP's bootloader")));
    }

    void aTamperedProofNamesTheFailedCheck() {
        if (!QFile::exists(kProof)) {
            QSKIP("../shared/fixtures is not here");
        }
        std::ifstream in(kProof.toStdString());
        nlohmann::json proof = nlohmann::json::parse(in);
        std::string hex = proof["proof_hex"];
        hex[hex.size() - 3000] = hex[hex.size() - 3000] == '0' ? '1' : '0';
        proof["proof_hex"] = hex;
        QTemporaryDir dir;
        const QString tampered = dir.filePath(QStringLiteral("tampered.json"));
        std::ofstream(tampered.toStdString()) << proof.dump();

        VerifyProofPanel panel;
        QSignalSpy done(&panel, &VerifyProofPanel::verified);
        panel.verifyFile(tampered);
        QVERIFY(done.wait(60000));
        QCOMPARE(done.takeFirst().at(0).toBool(), false);
        const QString verdict =
            panel.findChild<QLabel*>(QStringLiteral("verifyVerdictLabel"))->text();
        QVERIFY2(verdict.contains(QStringLiteral("Not valid")) &&
                     verdict.contains(QStringLiteral("FRI layer")),
                 qPrintable(verdict));
    }

    void anUnreadableFileSaysSo() {
        VerifyProofPanel panel;
        QSignalSpy done(&panel, &VerifyProofPanel::verified);
        panel.verifyFile(QStringLiteral("/nonexistent/proof.json"));
        QVERIFY(done.wait(10000));
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("verifyVerdictLabel"))
                    ->text()
                    .contains(QStringLiteral("cannot read the file")));
    }
};

QTEST_MAIN(VerifyProofPanelTest)
#include "tst_verify_proof_panel.moc"
