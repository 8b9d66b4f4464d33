#include "FactsPage.h"

#include "PageParts.h"
#include "VerifyProofPanel.h"
#include "client/ProofClient.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace proofdesk::ui {

FactsPage::FactsPage(client::ProofClient* client, QWidget* parent)
    : QWidget(parent), m_client(client) {
    setObjectName(QStringLiteral("factsPageWidget"));
    // Three forms one above the other: they scroll when the window is short (1024x640).
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea;
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    outer->addWidget(scroll);
    auto* content = new QWidget;
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(content);
    layout->addWidget(pageTitle(tr("Programs, facts and proofs")));

    m_banner = errorBanner(QStringLiteral("factsErrorBannerLabel"), this);

    auto* programs = new QGroupBox(tr("Register a program"));
    programs->setObjectName(QStringLiteral("registerProgramGroupBox"));
    auto* programForm = new QFormLayout(programs);
    auto* pathRow = new QHBoxLayout;
    m_programPath = new QLineEdit;
    m_programPath->setObjectName(QStringLiteral("registerProgramPathLineEdit"));
    m_programPath->setPlaceholderText(tr("Compiled Cairo 0 program (.json)"));
    auto* browse = new QPushButton(tr("Browse…"));
    pathRow->addWidget(m_programPath, 1);
    pathRow->addWidget(browse);
    programForm->addRow(tr("Program"), pathRow);
    m_register = new QPushButton(tr("Register"));
    m_register->setObjectName(QStringLiteral("registerProgramPushButton"));
    markPrimaryAction(m_register);
    programForm->addRow(QString(), m_register);
    m_programHash = new QLineEdit;
    m_programHash->setObjectName(QStringLiteral("registeredProgramHashLineEdit"));
    m_programHash->setReadOnly(true);
    m_programHash->setPlaceholderText(tr("the program hash appears here, ready to copy"));
    auto* hashRow = new QHBoxLayout;
    hashRow->addWidget(m_programHash, 1);
    hashRow->addWidget(copyButton(QStringLiteral("copyProgramHashPushButton"),
                                  [this] { return m_programHash->text(); }));
    auto* reuse = new QPushButton(tr("Use in a job"));
    reuse->setObjectName(QStringLiteral("useProgramHashPushButton"));
    connect(reuse, &QPushButton::clicked, this, [this] {
        if (!m_programHash->text().isEmpty()) {
            emit useProgramHash(m_programHash->text());
        }
    });
    hashRow->addWidget(reuse);
    programForm->addRow(tr("Program hash"), hashRow);
    layout->addWidget(programs);

    auto* facts = new QGroupBox(tr("Look up a fact"));
    facts->setObjectName(QStringLiteral("factLookupGroupBox"));
    auto* factForm = new QFormLayout(facts);
    m_chain = new QComboBox;
    m_chain->setObjectName(QStringLiteral("factChainComboBox"));
    m_chain->addItems({QStringLiteral("L1"), QStringLiteral("L2"), QStringLiteral("APE_CHAIN"),
                       QStringLiteral("WORLD_CHAIN")});
    factForm->addRow(tr("Chain"), m_chain);
    m_factHash = new QLineEdit;
    m_factHash->setObjectName(QStringLiteral("factHashLineEdit"));
    m_factHash->setPlaceholderText(tr("0x… (32 bytes)"));
    factForm->addRow(tr("Fact hash"), m_factHash);
    m_mocked = new QCheckBox(tr("Mocked namespace"));
    m_mocked->setObjectName(QStringLiteral("factMockedCheckBox"));
    factForm->addRow(QString(), m_mocked);
    m_lookUp = new QPushButton(tr("Look up"));
    m_lookUp->setObjectName(QStringLiteral("lookUpFactPushButton"));
    factForm->addRow(QString(), m_lookUp);
    m_factResult = new QLabel;
    m_factResult->setObjectName(QStringLiteral("factResultLabel"));
    m_factResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_factResult->setWordWrap(true);
    factForm->addRow(tr("Result"), m_factResult);
    layout->addWidget(facts);
    layout->addWidget(new VerifyProofPanel);
    layout->addStretch(1);

    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Choose a program"), QString(),
                                                          tr("Cairo programs (*.json)"));
        if (!path.isEmpty()) {
            m_programPath->setText(path);
        }
    });
    connect(m_register, &QPushButton::clicked, this, &FactsPage::registerProgram);
    connect(m_lookUp, &QPushButton::clicked, this, &FactsPage::lookUp);
    submitOnEnter(programs, m_register);
    submitOnEnter(facts, m_lookUp);
}

void FactsPage::registerProgram() {
    m_register->setEnabled(false);
    m_client->submitProgram(m_programPath->text().trimmed(), this, [this](auto result) {
        m_register->setEnabled(true);
        if (auto* error = std::get_if<client::ApiError>(&result)) {
            showBanner(m_banner, tr("The program was not registered: %1").arg(error->message()));
            return;
        }
        showBanner(m_banner, {});
        m_programHash->setText(std::get<QString>(result));
    });
}

void FactsPage::lookUp() {
    m_client->lookupFact(
        m_chain->currentText(), m_factHash->text().trimmed(), m_mocked->isChecked(), this,
        [this](auto result) {
            if (auto* error = std::get_if<client::ApiError>(&result)) {
                showBanner(m_banner, tr("The lookup failed: %1").arg(error->message()));
                return;
            }
            showBanner(m_banner, {});
            const auto& fact = std::get<client::FactLookup>(result);
            // Issue #47: the registry is this server's own; no chain is asked.
            const QString namespaceName = m_mocked->isChecked() ? tr("mocked") : tr("real");
            m_factResult->setText(
                fact.valid
                    ? tr("Valid: registered %1 by query %2 (entry %3) in this server's local "
                         "fact registry (%4 namespace; no chain was asked)")
                          .arg(fact.registeredAt, fact.queryId, fact.transactionId, namespaceName)
                    : tr("Not registered in this server's local fact registry (%1 namespace; no "
                         "chain was asked)")
                          .arg(namespaceName));
        });
}

} // namespace proofdesk::ui
