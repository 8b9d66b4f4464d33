#include "BucketsPage.h"

#include "AggregationTreeView.h"
#include "PageParts.h"
#include "client/ProofClient.h"
#include "models/BucketModel.h"
#include "models/ProofQueryModel.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace proofdesk::ui {

BucketsPage::BucketsPage(client::ProofClient* client, QWidget* parent)
    : QWidget(parent), m_client(client), m_model(new models::BucketModel(this)),
      m_members(new models::ProofQueryModel(this)), m_poll(this, [this] { refresh(); }) {
    setObjectName(QStringLiteral("bucketsPageWidget"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(pageTitle(tr("Buckets")));
    m_banner = errorBanner(QStringLiteral("bucketsErrorBannerLabel"), this);

    auto* createBox = new QGroupBox(tr("New bucket"));
    createBox->setObjectName(QStringLiteral("bucketFormGroupBox"));
    auto* form = new QFormLayout(createBox);
    m_externalId = new QLineEdit;
    m_externalId->setObjectName(QStringLiteral("bucketExternalIdLineEdit"));
    m_externalId->setPlaceholderText(tr("optional"));
    form->addRow(tr("External id"), m_externalId);
    m_nodeWidth = new QSpinBox;
    m_nodeWidth->setObjectName(QStringLiteral("nodeWidthSpinBox"));
    m_nodeWidth->setRange(2, 64);
    m_nodeWidth->setValue(4);
    m_nodeWidth->setToolTip(tr("How many children each node of the aggregation tree hashes."));
    form->addRow(tr("Node width"), m_nodeWidth);
    m_aggregatorParams = new QLineEdit;
    m_aggregatorParams->setObjectName(QStringLiteral("aggregatorParamsLineEdit"));
    m_aggregatorParams->setPlaceholderText(tr("optional, passed to the aggregator"));
    form->addRow(tr("Aggregator params"), m_aggregatorParams);
    m_mockProof = new QCheckBox(tr("Mock the aggregated proof"));
    m_mockProof->setObjectName(QStringLiteral("mockProofCheckBox"));
    form->addRow(QString(), m_mockProof);
    m_create = new QPushButton(tr("Create bucket"));
    m_create->setObjectName(QStringLiteral("createBucketPushButton"));
    markPrimaryAction(m_create);
    form->addRow(QString(), m_create);
    submitOnEnter(createBox, m_create);
    auto* top = new QSplitter;
    top->setObjectName(QStringLiteral("bucketsFormSplitter"));
    top->addWidget(createBox);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("bucketsSplitter"));
    m_table = recordTable(QStringLiteral("bucketsTableView"), tr("Buckets"), m_model,
                          models::BucketModel::IdColumn);
    showWhenEmpty(m_table, tr("No buckets yet. A bucket gathers proof jobs whose proofs are "
                              "checked together in one aggregated verification: create one, then "
                              "submit jobs into it."));
    top->addWidget(m_table);
    top->setStretchFactor(1, 1);
    top->setSizes({380, 700});
    splitter->addWidget(top);

    auto* detail = new QWidget;
    auto* detailLayout = new QVBoxLayout(detail);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    auto* actions = new QHBoxLayout;
    actions->addWidget(new QLabel(tr("Selected bucket")));
    actions->addStretch(1);
    actions->addWidget(copyButton(QStringLiteral("copyBucketIdPushButton"),
                                  [this] { return selectedBucketId(); }));
    m_useBucket = new QPushButton(tr("Submit jobs into it"));
    m_useBucket->setObjectName(QStringLiteral("useBucketPushButton"));
    actions->addWidget(m_useBucket);
    m_close = new QPushButton(tr("Close bucket"));
    m_close->setObjectName(QStringLiteral("closeBucketPushButton"));
    m_close->setEnabled(false);
    actions->addWidget(m_close);
    detailLayout->addLayout(actions);
    m_tree = new AggregationTreeView;
    auto* scroll = new QScrollArea;
    scroll->setWidget(m_tree);
    scroll->setWidgetResizable(true);
    scroll->setMinimumHeight(150);
    detailLayout->addWidget(scroll, 3);
    m_memberTable = recordTable(QStringLiteral("bucketMembersTableView"), tr("Jobs of the bucket"),
                                m_members, models::ProofQueryModel::FactHashColumn);
    detailLayout->addWidget(m_memberTable, 1);
    splitter->addWidget(detail);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 3);
    layout->addWidget(splitter, 1);

    connect(m_create, &QPushButton::clicked, this, &BucketsPage::create);
    connect(m_close, &QPushButton::clicked, this, [this] {
        const QString id = selectedBucketId();
        if (id.isEmpty()) {
            return;
        }
        confirmThen(this, QStringLiteral("confirmCloseBucketMessageBox"), tr("Close bucket"),
                    tr("Close bucket %1? No more jobs can join it, and its aggregated proof "
                       "starts as soon as its jobs are done.")
                        .arg(id),
                    tr("Close bucket"), tr("Keep it open"), [this] { closeSelected(); });
    });
    connect(m_useBucket, &QPushButton::clicked, this, [this] {
        if (!selectedBucketId().isEmpty()) {
            emit submitIntoBucket(selectedBucketId());
        }
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &BucketsPage::refreshDetail);
    addRowMenu(
        m_table,
        {{tr("Copy id"), findChild<QPushButton*>(QStringLiteral("copyBucketIdPushButton")),
          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I)},
         {tr("Submit jobs into it"), m_useBucket, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_J)},
         {tr("Close bucket…"), m_close, QKeySequence(Qt::Key_Delete)}});
}

void BucketsPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
}

void BucketsPage::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    m_poll.stop();
}

void BucketsPage::refresh() {
    if (m_inFlight) {
        return;
    }
    m_inFlight = true;
    m_client->listBuckets(this, [this](auto answer) {
        m_inFlight = false;
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("Could not load the buckets: %1").arg(error->message()));
            m_poll.answered(true);
            return;
        }
        clearPollError(m_banner, tr("Could not load"));
        m_model->update(std::get<std::vector<api::ProofBucket>>(answer));
        refreshDetail();
        m_poll.answered(false);
    });
}

QString BucketsPage::selectedBucketId() const {
    const QModelIndex current = m_table->currentIndex();
    return current.isValid()
               ? m_model->index(current.row(), 0).data(models::BucketModel::BucketIdRole).toString()
               : QString();
}

void BucketsPage::refreshDetail() {
    const QString id = selectedBucketId();
    m_close->setEnabled(false);
    m_useBucket->setEnabled(false);
    if (id.isEmpty()) {
        return;
    }
    m_client->bucket(id, this, [this, id](auto answer) {
        if (id != selectedBucketId()) {
            return; // the selection moved on meanwhile
        }
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("Could not load bucket %1: %2").arg(id, error->message()));
            return;
        }
        const auto& detail = std::get<client::BucketDetail>(answer);
        const bool open = detail.bucket.status == "OPEN";
        m_close->setEnabled(open);
        m_useBucket->setEnabled(open);
        m_members->update(detail.queries);
        m_tree->setBucket(detail.bucket, detail.queries);
    });
}

void BucketsPage::create() {
    client::BucketForm form;
    form.externalId = m_externalId->text().trimmed();
    form.nodeWidth = m_nodeWidth->value();
    form.aggregatorParams = m_aggregatorParams->text().trimmed();
    form.mockProof = m_mockProof->isChecked();
    m_create->setEnabled(false);
    m_client->createBucket(form, this, [this](auto answer) {
        m_create->setEnabled(true);
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("The bucket was not created: %1").arg(error->message()));
            return;
        }
        showBanner(m_banner, {});
        m_externalId->clear();
        const auto& bucket = std::get<api::ProofBucket>(answer);
        m_model->update([&] {
            std::vector<api::ProofBucket> rows{bucket};
            for (int row = 0; row < m_model->rowCount(); ++row) {
                rows.push_back(*m_model->recordAt(row));
            }
            return rows;
        }());
        m_table->selectRow(0);
    });
}

void BucketsPage::closeSelected() {
    const QString id = selectedBucketId();
    if (id.isEmpty()) {
        return;
    }
    m_close->setEnabled(false);
    m_client->closeBucket(id, this, [this, id](auto answer) {
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("Bucket %1 was not closed: %2").arg(id, error->message()));
            refreshDetail();
            return;
        }
        showBanner(m_banner, {});
        refresh();
    });
}

} // namespace proofdesk::ui
