#include "ProofJobsPage.h"

#include "PageParts.h"
#include "client/ProofClient.h"
#include "models/ProofQueryModel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace proofdesk::ui {

ProofJobsPage::ProofJobsPage(client::ProofClient* client, QWidget* parent)
    : QWidget(parent), m_client(client), m_model(new models::ProofQueryModel(this)),
      m_poll(new QTimer(this)) {
    setObjectName(QStringLiteral("proofJobsPageWidget"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(pageTitle(tr("Proof jobs")));

    m_banner = errorBanner(QStringLiteral("errorBannerLabel"));
    layout->addWidget(m_banner);

    // The submission form.
    auto* form = new QFormLayout;
    auto* programRow = new QHBoxLayout;
    m_programPath = new QLineEdit;
    m_programPath->setObjectName(QStringLiteral("programPathLineEdit"));
    m_programPath->setPlaceholderText(tr("Compiled Cairo 0 program (.json) or a Cairo PIE (.zip)"));
    auto* browse = new QPushButton(tr("Browse…"));
    browse->setObjectName(QStringLiteral("browseProgramPushButton"));
    programRow->addWidget(m_programPath, 1);
    programRow->addWidget(browse);
    form->addRow(tr("Program or PIE"), programRow);
    m_result = new QComboBox;
    m_result->setObjectName(QStringLiteral("resultComboBox"));
    for (const std::string& result : api::proof_enums::kResults) {
        m_result->addItem(QString::fromStdString(result));
    }
    m_result->setCurrentText(QStringLiteral("PROOF_GENERATION"));
    form->addRow(tr("Result"), m_result);
    m_layout = new QComboBox;
    m_layout->setObjectName(QStringLiteral("layoutComboBox"));
    m_layout->addItems({QStringLiteral("auto"), QStringLiteral("small"), QStringLiteral("dex"),
                        QStringLiteral("recursive"), QStringLiteral("recursive_with_poseidon"),
                        QStringLiteral("starknet"), QStringLiteral("starknet_with_keccak"),
                        QStringLiteral("all_cairo")});
    form->addRow(tr("Layout"), m_layout);
    m_mockFact = new QCheckBox(tr("Mock the fact hash (no on-chain verification)"));
    m_mockFact->setObjectName(QStringLiteral("mockFactHashCheckBox"));
    form->addRow(QString(), m_mockFact);
    m_dedupId = new QLineEdit;
    m_dedupId->setObjectName(QStringLiteral("dedupIdLineEdit"));
    m_dedupId->setPlaceholderText(tr("optional: a repeat is refused"));
    form->addRow(tr("Dedup id"), m_dedupId);
    m_submit = new QPushButton(tr("Submit"));
    m_submit->setObjectName(QStringLiteral("submitPushButton"));
    m_submit->setDefault(true);
    form->addRow(QString(), m_submit);
    layout->addLayout(form);

    // The live table and the selected query.
    m_search = new QLineEdit;
    m_search->setObjectName(QStringLiteral("searchLineEdit"));
    m_search->setPlaceholderText(tr("Search by id, dedup id or external id prefix"));
    m_search->setClearButtonEnabled(true);
    layout->addWidget(m_search);
    auto* splitter = new QSplitter(Qt::Vertical);
    m_table = new QTableView;
    m_table->setObjectName(QStringLiteral("proofQueriesTableView"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(models::ProofQueryModel::FactHashColumn,
                                                      QHeaderView::Stretch);
    m_table->setAlternatingRowColors(true);
    splitter->addWidget(m_table);
    m_detail = new QPlainTextEdit;
    m_detail->setObjectName(QStringLiteral("queryDetailPlainTextEdit"));
    m_detail->setReadOnly(true);
    m_detail->setPlaceholderText(tr("Select a query to see its record and artifacts."));
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    layout->addWidget(splitter, 1);

    connect(browse, &QPushButton::clicked, this, &ProofJobsPage::browseProgram);
    connect(m_submit, &QPushButton::clicked, this, &ProofJobsPage::submit);
    connect(m_search, &QLineEdit::textChanged, this, &ProofJobsPage::refresh);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ProofJobsPage::showSelected);
    connect(m_model, &QAbstractItemModel::dataChanged, this, &ProofJobsPage::showSelected);
    m_poll->setSingleShot(true);
    connect(m_poll, &QTimer::timeout, this, &ProofJobsPage::refresh);
}

void ProofJobsPage::setPollInterval(int milliseconds) {
    m_interval = milliseconds;
}

void ProofJobsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
}

void ProofJobsPage::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    m_poll->stop(); // poll only what is visible
}

void ProofJobsPage::refresh() {
    if (m_inFlight) {
        return;
    }
    m_inFlight = true;
    m_client->listQueries(100, m_search->text().trimmed(), this, [this](auto result) {
        m_inFlight = false;
        if (auto* error = std::get_if<client::ApiError>(&result)) {
            ++m_failures;
            showError(tr("Could not load the proof jobs: %1").arg(error->message()));
        } else {
            m_failures = 0;
            clearError();
            m_model->update(std::get<client::QueryPage>(result).queries);
        }
        if (isVisible()) {
            // Back off after errors: 2, 4, 8 ... times the interval, at most 30 s.
            const int factor = 1 << std::min(m_failures, 5);
            m_poll->start(std::min(m_interval * factor, 30000));
        }
    });
}

void ProofJobsPage::browseProgram() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Choose a program or a PIE"), QString(),
                                     tr("Cairo programs and PIEs (*.json *.zip);;All files (*)"));
    if (!path.isEmpty()) {
        m_programPath->setText(path);
    }
}

void ProofJobsPage::submit() {
    const QString path = m_programPath->text().trimmed();
    if (path.isEmpty() || !QFileInfo(path).isFile()) {
        showError(tr("Choose a compiled program (.json) or a Cairo PIE (.zip) first."));
        return;
    }
    QString readError;
    const auto bytes = client::readFormFile(path, &readError);
    if (!bytes) {
        showError(readError);
        return;
    }
    client::CoreQueryForm form;
    // Validate before sending: a PIE is a zip, a program is JSON.
    if (bytes->startsWith("PK\x03\x04")) {
        form.pieFilePath = path;
    } else if (!nlohmann::json::accept(bytes->toStdString())) {
        showError(tr("%1 is neither a JSON program nor a zip PIE.").arg(path));
        return;
    } else {
        form.programFilePath = path;
    }
    form.result = m_result->currentText();
    form.layout = m_layout->currentText();
    form.mockFactHash = m_mockFact->isChecked();
    form.dedupId = m_dedupId->text().trimmed();
    m_submit->setEnabled(false);
    m_client->submitCoreQuery(form, this, [this](auto result) {
        m_submit->setEnabled(true);
        if (auto* error = std::get_if<client::ApiError>(&result)) {
            showError(tr("The submission was refused: %1").arg(error->message()));
            return;
        }
        clearError();
        m_dedupId->clear();
        refresh();
    });
}

void ProofJobsPage::showSelected() {
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    const api::ProofQuery* query = m_model->queryAt(current.isValid() ? current.row() : -1);
    if (!query) {
        return;
    }
    m_detail->setPlainText(QString::fromStdString(api::toJson(*query).dump(2)));
}

void ProofJobsPage::showError(const QString& message) {
    m_banner->setText(message);
    m_banner->show();
}

void ProofJobsPage::clearError() {
    m_banner->hide();
}

} // namespace proofdesk::ui
