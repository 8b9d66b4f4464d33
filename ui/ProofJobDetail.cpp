// The proof jobs page's detail of the selected job: its record, steps and progress, its
// artifacts (downloaded, verified here), the program's output and the verdict (ProofJobsPage.cpp
// has the list and the sending, ProofJobsForm.cpp the form).

#include "ProofJobsPage.h"

#include "JsonView.h"
#include "PageParts.h"
#include "ProofRecordText.h"
#include "client/ProofFileVerifier.h"
#include "models/ProofQueryModel.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTemporaryDir>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>
namespace proofdesk::ui {
namespace {

bool isProofArtifact(const QString& fileName) {
    return fileName.endsWith(QStringLiteral("proof.json"));
}

} // namespace

QWidget* ProofJobsPage::buildDetail() {
    auto* detail = new QWidget;
    auto* layout = new QVBoxLayout(detail);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* titleRow = new QHBoxLayout;
    m_detailTitle = new ElidedLabel(tr("Select a query to see its steps, hashes and artifacts."));
    m_detailTitle->setObjectName(QStringLiteral("queryTitleLabel"));
    QFont titleFont = m_detailTitle->font();
    titleFont.setBold(true);
    m_detailTitle->setFont(titleFont);
    m_detailTitle->setTextInteractionFlags(Qt::TextSelectableByMouse);
    titleRow->addWidget(m_detailTitle, 1);
    titleRow->addWidget(
        copyButton(QStringLiteral("copyQueryIdPushButton"), [this] { return currentQueryId(); }));
    m_copyCurl = new QPushButton(tr("Copy as curl"));
    m_copyCurl->setObjectName(QStringLiteral("copyQueryCurlPushButton"));
    m_copyCurl->setEnabled(false);
    titleRow->addWidget(m_copyCurl);
    m_resubmit = new QPushButton(tr("Submit again"));
    m_resubmit->setObjectName(QStringLiteral("resubmitQueryPushButton"));
    m_resubmit->setToolTip(tr("Sends the same submission again as a new query"));
    m_resubmit->setVisible(false);
    titleRow->addWidget(m_resubmit);
    m_resubmitWithPython = new QPushButton(tr("Submit again with Python hints"));
    m_resubmitWithPython->setObjectName(QStringLiteral("resubmitWithPythonHintsPushButton"));
    m_resubmitWithPython->setToolTip(
        tr("A hint of this program has no native implementation: sends the submission again "
           "with cairoVm=python, so the server runs it as Python"));
    m_resubmitWithPython->setVisible(false);
    titleRow->addWidget(m_resubmitWithPython);
    layout->addLayout(titleRow);
    m_timeline = new QLabel;
    m_timeline->setObjectName(QStringLiteral("stepsTimelineLabel"));
    m_timeline->setTextFormat(Qt::RichText);
    m_timeline->setWordWrap(true); // never widens the window
    layout->addWidget(m_timeline);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("proofProgressBar"));
    m_progress->setRange(0, 1000);
    m_progress->setVisible(false);
    layout->addWidget(m_progress);
    auto* factRow = new QHBoxLayout;
    m_factHash = new ElidedLabel;
    m_factHash->setObjectName(QStringLiteral("factHashLabel"));
    m_factHash->setTextInteractionFlags(Qt::TextSelectableByMouse);
    factRow->addWidget(m_factHash, 1);
    factRow->addWidget(copyButton(QStringLiteral("copyFactHashPushButton"), [this] {
        const api::ProofQuery* query =
            m_model->queryAt(m_model->rowOf(currentQueryId().toStdString()));
        return query ? registeredFactHash(*query) : QString();
    }));
    layout->addLayout(factRow);
    m_verification = new QLabel;
    m_verification->setObjectName(QStringLiteral("verificationLabel"));
    m_verification->setTextFormat(Qt::RichText);
    m_verification->setVisible(false);
    layout->addWidget(m_verification);
    m_output = new QLabel;
    m_output->setObjectName(QStringLiteral("programOutputLabel"));
    m_output->setWordWrap(true);
    m_output->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_output->setVisible(false);
    layout->addWidget(m_output);
    m_proofInfo = new QLabel;
    m_proofInfo->setObjectName(QStringLiteral("proofInfoLabel"));
    m_proofInfo->setWordWrap(true);
    m_proofInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_proofInfo->setVisible(false);
    layout->addWidget(m_proofInfo);
    m_errorReason = errorBanner(QStringLiteral("errorReasonLabel"));
    layout->addWidget(m_errorReason);
    layout->addWidget(buildArtifactsPane(), 1);

    connect(m_localVerifier, &client::ProofFileVerifier::verified, this,
            &ProofJobsPage::showLocalVerdict);
    connect(m_resubmit, &QPushButton::clicked, this, &ProofJobsPage::resubmitSelected);
    connect(m_resubmitWithPython, &QPushButton::clicked, this, [this] {
        const auto found = m_submitted.constFind(currentQueryId());
        if (found == m_submitted.constEnd()) {
            return;
        }
        if (const auto python = client::withPythonHints(*found)) {
            send(*python, m_resubmitWithPython, {});
        }
    });
    connect(m_copyCurl, &QPushButton::clicked, this, [this] {
        const auto found = m_submitted.constFind(currentQueryId());
        if (found != m_submitted.constEnd()) {
            QApplication::clipboard()->setText(
                client::curlCommand(m_client->baseUrl(), *found, m_client->apiKey()));
        }
    });
    return detail;
}

// The lower half of the detail: the artifacts with Download and Verify, beside the record.
QWidget* ProofJobsPage::buildArtifactsPane() {
    auto* lower = new QSplitter;
    lower->setObjectName(QStringLiteral("proofJobDetailSplitter"));
    auto* artifactsBox = new QWidget;
    auto* artifactsLayout = new QVBoxLayout(artifactsBox);
    artifactsLayout->setContentsMargins(0, 0, 0, 0);
    artifactsLayout->addWidget(new QLabel(tr("Artifacts")));
    m_artifacts = new QListWidget;
    m_artifacts->setObjectName(QStringLiteral("artifactsListWidget"));
    m_artifacts->setAccessibleName(tr("Artifacts"));
    artifactsLayout->addWidget(m_artifacts, 1);
    m_download = new QPushButton(tr("Download…"));
    m_download->setObjectName(QStringLiteral("downloadArtifactPushButton"));
    m_download->setEnabled(false);
    m_verifyArtifact = new QPushButton(tr("Verify proof"));
    m_verifyArtifact->setObjectName(QStringLiteral("verifyArtifactPushButton"));
    m_verifyArtifact->setToolTip(
        tr("Fetches the proof and checks it here with Proofdesk's own STARK verifier"));
    m_verifyArtifact->setEnabled(false);
    auto* artifactButtons = new QHBoxLayout;
    artifactButtons->addWidget(m_download);
    artifactButtons->addWidget(m_verifyArtifact);
    artifactsLayout->addLayout(artifactButtons);
    lower->addWidget(artifactsBox);
    m_detail = new JsonView;
    m_detail->setObjectName(QStringLiteral("queryRecordJsonView"));
    m_detail->setAccessibleName(tr("Query record"));
    m_detail->setToolTip(tr("The selected query's record; right-click to copy a value or all"));
    lower->addWidget(m_detail);
    lower->setStretchFactor(1, 1);

    connect(m_artifacts, &QListWidget::currentRowChanged, this, [this](int row) {
        m_download->setEnabled(row >= 0);
        m_verifyArtifact->setEnabled(row >= 0 && !m_localVerifier->busy() &&
                                     isProofArtifact(m_artifacts->item(row)->text()));
    });
    connect(m_verifyArtifact, &QPushButton::clicked, this, &ProofJobsPage::verifySelectedArtifact);
    connect(m_artifacts, &QListWidget::itemDoubleClicked, this,
            &ProofJobsPage::downloadSelectedArtifact);
    connect(m_download, &QPushButton::clicked, this, &ProofJobsPage::downloadSelectedArtifact);
    return lower;
}

ProofJobsPage::~ProofJobsPage() = default;

void ProofJobsPage::showSelected() {
    const QString id = currentQueryId();
    const api::ProofQuery* query =
        id.isEmpty() ? nullptr : m_model->queryAt(m_model->rowOf(id.toStdString()));
    if (!query) {
        clearDetail(); // nothing selected, or the selected query is filtered out
        return;
    }
    m_detailTitle->setText(
        tr("%1 — %2, %3")
            .arg(id, QString::fromStdString(query->result), QString::fromStdString(query->status)));
    m_timeline->setText(stepsTimelineText(*query));
    m_factHash->setText(factHashText(*query));
    m_factHash->setExplanation(factHashesExplained(*query));
    showBanner(m_errorReason,
               query->errorReason ? QString::fromStdString(*query->errorReason) : QString());
    m_copyCurl->setEnabled(m_submitted.contains(id));
    m_resubmit->setVisible(query->status == "FAILED" && m_submitted.contains(id));
    m_resubmitWithPython->setVisible(
        query->status == "FAILED" && m_submitted.contains(id) && !m_pythonHintsRefused &&
        query->errorReason &&
        client::needsPythonHints(QString::fromStdString(*query->errorReason)) &&
        client::withPythonHints(m_submitted.value(id)).has_value());
    showProgress(*query);
    m_detail->setJson(api::toJson(*query));
    const std::string at = query->status + '/' + query->step.value_or("");
    if (m_artifactsFor != id || m_artifactsAt != at) {
        m_artifactsAt = at;
        loadArtifacts(id);
    }
}

void ProofJobsPage::clearDetail() {
    m_detailTitle->setText(tr("Select a query to see its steps, hashes and artifacts."));
    m_timeline->clear();
    m_factHash->clear();
    m_factHash->setExplanation({});
    m_progress->setVisible(false);
    m_verification->setVisible(false);
    m_output->setVisible(false);
    m_proofInfo->setVisible(false);
    showBanner(m_errorReason, {});
    m_copyCurl->setEnabled(false);
    m_resubmit->setVisible(false);
    m_resubmitWithPython->setVisible(false);
    m_detail->clearJson();
    m_artifactsFor.clear();
    m_artifactsAt.clear();
    m_artifacts->clear();
    m_download->setEnabled(false);
    m_verifyArtifact->setEnabled(false);
}

void ProofJobsPage::loadArtifacts(const QString& queryId) {
    m_artifactsFor = queryId;
    m_artifacts->clear();
    m_download->setEnabled(false);
    m_verification->setVisible(false);
    m_output->setVisible(false);
    m_proofInfo->setVisible(false);
    m_verifyArtifact->setEnabled(false);
    m_client->coreQuery(queryId, this, [this, queryId](auto answer) {
        if (queryId != m_artifactsFor || std::holds_alternative<client::ApiError>(answer)) {
            return;
        }
        for (const std::string& url : std::get<api::CoreQueryResponse>(answer).metadataUrls) {
            auto* item = new QListWidgetItem(QUrl(QString::fromStdString(url)).fileName());
            item->setData(Qt::UserRole, QString::fromStdString(url));
            item->setToolTip(QString::fromStdString(url));
            m_artifacts->addItem(item);
            if (item->text() == QStringLiteral("verification.json")) {
                showVerification(queryId, QUrl(QString::fromStdString(url)));
            } else if (item->text() == QStringLiteral("metadata.json")) {
                showProofMetadata(queryId, QUrl(QString::fromStdString(url)));
            } else if (item->text() == QStringLiteral("output.json")) {
                showProgramOutput(queryId, QUrl(QString::fromStdString(url)));
            }
        }
    });
}

void ProofJobsPage::showVerification(const QString& queryId, const QUrl& url) {
    m_client->artifactJson(url, this, [this, queryId](auto answer) {
        if (queryId != m_artifactsFor || std::holds_alternative<client::ApiError>(answer)) {
            return;
        }
        m_verification->setText(serverVerdictText(std::get<nlohmann::json>(answer)));
        m_verification->setVisible(true);
    });
}

// output.json holds the program's output as hex field elements: shown as cairo-run prints them.
void ProofJobsPage::showProgramOutput(const QString& queryId, const QUrl& url) {
    m_client->artifactJson(url, this, [this, queryId](auto answer) {
        if (queryId != m_artifactsFor || std::holds_alternative<client::ApiError>(answer)) {
            return;
        }
        const nlohmann::json& output = std::get<nlohmann::json>(answer);
        if (!output.is_array()) {
            return;
        }
        m_output->setText(output.empty() ? tr("Output: none")
                                         : tr("Output: %1").arg(outputText(output)));
        m_output->setToolTip(tr("The program's output, as cairo-run prints it (output.json holds "
                                "it in hex)"));
        m_output->setVisible(true);
    });
}

void ProofJobsPage::downloadSelectedArtifact() {
    QListWidgetItem* item = m_artifacts->currentItem();
    if (!item) {
        return;
    }
    const QUrl url(item->data(Qt::UserRole).toString());
    const QString path = m_saveLocation(m_artifactsFor + QLatin1Char('-') + url.fileName());
    if (path.isEmpty()) {
        return;
    }
    m_download->setEnabled(false);
    m_client->download(url, path, this, [this, path](auto answer) {
        m_download->setEnabled(m_artifacts->currentRow() >= 0);
        if (auto* failure = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("The download failed: %1").arg(failure->message()));
            return;
        }
        showBanner(m_banner, {});
        emit artifactSaved(path, std::get<qint64>(answer));
    });
}

void ProofJobsPage::showProgress(const api::ProofQuery& query) {
    if (!query.proofProgress || api::isTerminalStatus(query.status)) {
        m_progress->setVisible(false);
        return;
    }
    const api::ProofProgress& progress = *query.proofProgress;
    m_progress->setValue(int(std::clamp(progress.fraction, 0.0, 1.0) * 1000));
    const QString text = progressText(progress);
    // QProgressBar's format replaces %p, %v and %m and nothing else (a doubled percent sign
    // would show as two, issue #47); the text has none of them.
    m_progress->setFormat(text);
    m_progress->setToolTip(text);
    m_progress->setVisible(true);
}

void ProofJobsPage::showProofMetadata(const QString& queryId, const QUrl& url) {
    m_client->artifactJson(url, this, [this, queryId](auto answer) {
        if (queryId != m_artifactsFor || std::holds_alternative<client::ApiError>(answer)) {
            return;
        }
        const nlohmann::json& metadata = std::get<nlohmann::json>(answer);
        const auto proof = metadata.find("proof");
        if (proof == metadata.end() || !proof->is_object()) {
            return;
        }
        m_proofInfo->setText(proofOriginText(*proof));
        m_proofInfo->setVisible(true);
    });
}

void ProofJobsPage::verifySelectedArtifact() {
    QListWidgetItem* item = m_artifacts->currentItem();
    if (!item || m_localVerifier->busy()) {
        return;
    }
    if (!m_downloads) {
        m_downloads = std::make_unique<QTemporaryDir>();
    }
    if (!m_downloads->isValid()) {
        showBanner(m_banner, tr("Could not create a temporary folder for the proof: %1")
                                 .arg(m_downloads->errorString()));
        return;
    }
    const QUrl url(item->data(Qt::UserRole).toString());
    const QString queryId = m_artifactsFor;
    const QString path = m_downloads->filePath(queryId + QLatin1Char('-') + url.fileName());
    m_verifyArtifact->setEnabled(false);
    m_verification->setText(tr("Fetching and verifying %1…").arg(url.fileName()));
    m_verification->setVisible(true);
    m_client->download(url, path, this, [this, path, queryId](auto answer) {
        if (auto* failure = std::get_if<client::ApiError>(&answer)) {
            m_verifyArtifact->setEnabled(true);
            showBanner(m_banner, tr("Could not fetch the proof: %1").arg(failure->message()));
            m_verification->setVisible(false);
            return;
        }
        m_verifyingFor = queryId;
        m_localVerifier->verify(path);
    });
}

void ProofJobsPage::showLocalVerdict(const nlohmann::json& verdict) {
    QListWidgetItem* item = m_artifacts->currentItem();
    m_verifyArtifact->setEnabled(item && isProofArtifact(item->text()));
    if (m_verifyingFor != m_artifactsFor) {
        return; // another query is shown by now
    }
    m_verification->setText(localVerdictText(verdict));
    m_verification->setVisible(true);
}

} // namespace proofdesk::ui
