#include "VerifyProofPanel.h"

#include "PageParts.h"
#include "ProofRecordText.h"
#include "client/ProofFileVerifier.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>

namespace proofdesk::ui {
namespace {

QString text(const nlohmann::json& value, const char* key) {
    const auto it = value.find(key);
    return it != value.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                                : QString();
}

} // namespace

VerifyProofPanel::VerifyProofPanel(QWidget* parent)
    : QGroupBox(tr("Verify a proof"), parent), m_verifier(new client::ProofFileVerifier(this)) {
    setObjectName(QStringLiteral("verifyProofGroupBox"));
    setAcceptDrops(true);
    auto* form = new QFormLayout(this);
    auto* pathRow = new QHBoxLayout;
    m_path = new QLineEdit;
    m_path->setObjectName(QStringLiteral("verifyProofPathLineEdit"));
    m_path->setPlaceholderText(tr("A Stone proof (.json) — or drop one here"));
    m_path->setAccessibleName(tr("Proof file"));
    auto* browse = new QPushButton(tr("Browse…"));
    browse->setObjectName(QStringLiteral("verifyProofBrowsePushButton"));
    m_verify = new QPushButton(tr("Verify"));
    m_verify->setObjectName(QStringLiteral("verifyProofPushButton"));
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    pathRow->addWidget(m_verify);
    form->addRow(tr("Proof"), pathRow);

    m_verdict = new QLabel(tr("Proofdesk's own verifier checks the proof on this machine."));
    m_verdict->setObjectName(QStringLiteral("verifyVerdictLabel"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
    form->addRow(tr("Verdict"), m_verdict);

    const auto field = [&](const QString& label, const QString& name, bool copyable) {
        auto* edit = new QLineEdit;
        edit->setObjectName(name + QStringLiteral("LineEdit"));
        edit->setReadOnly(true);
        edit->setAccessibleName(label);
        if (!copyable) {
            form->addRow(label, edit);
            return edit;
        }
        auto* row = new QHBoxLayout;
        row->addWidget(edit, 1);
        row->addWidget(
            copyButton(name + QStringLiteral("CopyPushButton"), [edit] { return edit->text(); }));
        form->addRow(label, row);
        return edit;
    };
    m_layout = field(tr("Layout"), QStringLiteral("verifiedLayout"), false);
    m_security = field(tr("Security"), QStringLiteral("verifiedSecurity"), false);
    m_programHash = field(tr("Program hash"), QStringLiteral("verifiedProgramHash"), true);
    m_output = field(tr("Output"), QStringLiteral("verifiedOutput"), true);
    m_sharpFact = field(tr("SHARP fact"), QStringLiteral("verifiedSharpFact"), true);
    m_integrityFact = field(tr("Integrity fact"), QStringLiteral("verifiedIntegrityFact"), true);
    // Not the fact a proof job's record carries: say so where both are read (issue #47).
    m_integrityFact->setToolTip(proofIntegrityFactExplained());
    auto* integrityNote = new QLabel(
        tr("This proof's own Integrity fact. A proof job's record holds its program's fact as "
           "the one task of SHARP's bootloader (what L2 registers), so the two differ unless this "
           "is that bootloader proof."));
    integrityNote->setObjectName(QStringLiteral("integrityFactNoteLabel"));
    integrityNote->setWordWrap(true);
    integrityNote->setToolTip(proofIntegrityFactExplained());
    QPalette muted = integrityNote->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    integrityNote->setPalette(muted);
    form->addRow(QString(), integrityNote);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Choose a proof"), QString(),
                                                          tr("Stone proofs (*.json)"));
        if (!path.isEmpty()) {
            verifyFile(path);
        }
    });
    connect(m_verify, &QPushButton::clicked, this,
            [this] { verifyFile(m_path->text().trimmed()); });
    connect(m_path, &QLineEdit::returnPressed, m_verify, &QPushButton::click);
    connect(m_verifier, &client::ProofFileVerifier::verified, this, &VerifyProofPanel::showVerdict);
}

void VerifyProofPanel::verifyFile(const QString& path) {
    if (path.isEmpty()) {
        return;
    }
    m_path->setText(path);
    m_verify->setEnabled(false);
    m_verdict->setText(tr("Verifying…"));
    for (QLineEdit* edit :
         {m_layout, m_security, m_programHash, m_output, m_sharpFact, m_integrityFact}) {
        edit->clear();
    }
    m_verifier->verify(path);
}

void VerifyProofPanel::showVerdict(const nlohmann::json& verdict) {
    m_verify->setEnabled(true);
    const bool valid = verdict.value("valid", false);
    const QString check = text(verdict, "failedCheck");
    m_verdict->setText(
        valid ? tr("<span style='color:#2e9d4f'>✔ Valid</span> — every check passed (%1 ms)")
                    .arg(verdict.value("milliseconds", 0.0))
              : tr("<span style='color:#d93f3f'>✖ Not valid</span> — %1%2")
                    .arg(check.toHtmlEscaped(),
                         verdict.contains("failedStage")
                             ? tr(" (at the %1)").arg(text(verdict, "failedStage"))
                             : QString()));
    if (verdict.contains("layout")) {
        m_layout->setText(tr("%1, %2 steps%3")
                              .arg(text(verdict, "layout"))
                              .arg(verdict.value("nSteps", std::uint64_t(0)))
                              .arg(verdict.contains("stoneVersion")
                                       ? tr(", %1 public input").arg(text(verdict, "stoneVersion"))
                                       : QString()));
    }
    if (verdict.contains("securityBits")) {
        const int bits = verdict.value("securityBits", 0);
        m_security->setText(bits < 80 ? tr("%1 bits (weak)").arg(bits) : tr("%1 bits").arg(bits));
    }
    const auto statement = verdict.find("statement");
    if (statement != verdict.end()) {
        m_programHash->setText(text(*statement, "programHash").isEmpty()
                                   ? text(*statement, "programWordsHash")
                                   : text(*statement, "programHash"));
        // In decimal, as cairo-run prints it and the proof job's detail shows it (issue #47: "89"
        // there, "0x59" here); the hex words in the tooltip.
        const nlohmann::json words = statement->value("output", nlohmann::json::array());
        QStringList hexWords;
        for (const auto& word : words) {
            hexWords << QString::fromStdString(word.get<std::string>());
        }
        m_output->setText(outputText(words));
        m_output->setToolTip(hexWords.isEmpty()
                                 ? QString()
                                 : tr("In hex: %1").arg(hexWords.join(QStringLiteral(", "))));
        m_sharpFact->setText(text(*statement, "sharpFactHash"));
        m_integrityFact->setText(text(*statement, "integrityFactHash"));
    }
    emit verified(valid);
}

void VerifyProofPanel::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().size() == 1 &&
        event->mimeData()->urls().front().isLocalFile()) {
        event->acceptProposedAction();
    }
}

void VerifyProofPanel::dropEvent(QDropEvent* event) {
    verifyFile(event->mimeData()->urls().front().toLocalFile());
    event->acceptProposedAction();
}

} // namespace proofdesk::ui
