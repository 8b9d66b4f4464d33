#include "GrowOrdersPage.h"

#include "ChainIds.h"
#include "PageParts.h"
#include "client/RequestClient.h"
#include "models/RequestModels.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace proofdesk::ui {
namespace {

QLineEdit* numberEdit(const QString& objectName, const QString& placeholder) {
    auto* edit = new QLineEdit;
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    edit->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,19}")), edit));
    return edit;
}

QString orNone(const std::optional<std::string>& value) {
    return value ? QString::fromStdString(*value) : QStringLiteral("—");
}

} // namespace

GrowOrdersPage::GrowOrdersPage(client::RequestClient* client, QWidget* parent)
    : QWidget(parent), m_client(client), m_model(new models::GrowOrderModel(this)),
      m_poll(this, [this] { refresh(); }) {
    setObjectName(QStringLiteral("growOrdersPageWidget"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(pageTitle(tr("Grow orders")));
    m_banner = errorBanner(QStringLiteral("growOrdersErrorBannerLabel"), this);

    auto* createBox = new QGroupBox(tr("New grow order"));
    createBox->setObjectName(QStringLiteral("growOrderFormGroupBox"));
    auto* form = new QFormLayout(createBox);
    m_accumulated = new QComboBox;
    m_accumulated->setObjectName(QStringLiteral("accumulatedChainComboBox"));
    fillChainComboBox(m_accumulated, provableChainIds(), QStringLiteral("11155111"));
    form->addRow(tr("Accumulated chain"), m_accumulated);
    m_settle = new QComboBox;
    m_settle->setObjectName(QStringLiteral("settleChainComboBox"));
    fillChainComboBox(m_settle, allChainIds(), QStringLiteral("11155111"));
    form->addRow(tr("Settle chain"), m_settle);
    auto* hashing = new QHBoxLayout;
    m_keccak = new QCheckBox(QStringLiteral("KECCAK"));
    m_keccak->setObjectName(QStringLiteral("growKeccakCheckBox"));
    m_keccak->setChecked(true);
    m_poseidon = new QCheckBox(QStringLiteral("POSEIDON"));
    m_poseidon->setObjectName(QStringLiteral("growPoseidonCheckBox"));
    hashing->addWidget(m_keccak);
    hashing->addWidget(m_poseidon);
    hashing->addStretch(1);
    form->addRow(tr("Hashing"), hashing);
    m_minBatch = numberEdit(QStringLiteral("minBatchSizeLineEdit"), tr("blocks"));
    m_minBatch->setText(QStringLiteral("100"));
    form->addRow(tr("Min batch size"), m_minBatch);
    m_start = numberEdit(QStringLiteral("startBlockLineEdit"),
                         tr("empty: after the accumulated blocks, else the head"));
    form->addRow(tr("Start block"), m_start);
    m_finish = numberEdit(QStringLiteral("finishBlockLineEdit"), tr("empty: keeps growing"));
    form->addRow(tr("Finish block"), m_finish);
    m_create = new QPushButton(tr("Create grow order"));
    m_create->setObjectName(QStringLiteral("createGrowOrderPushButton"));
    markPrimaryAction(m_create);
    form->addRow(QString(), m_create);
    submitOnEnter(createBox, m_create);

    m_table = recordTable(QStringLiteral("growOrdersTableView"), tr("Grow orders"), m_model,
                          models::GrowOrderModel::ProgressColumn);
    showWhenEmpty(m_table, tr("No grow orders yet. A grow order keeps extending a chain's MMR as "
                              "new blocks arrive: choose the chains and hashing, then create it."));
    auto* top = new QSplitter;
    top->setObjectName(QStringLiteral("growOrderFormSplitter"));
    top->addWidget(createBox);
    top->addWidget(m_table);
    top->setStretchFactor(1, 1);
    top->setSizes({380, 700});

    auto* detailBox = new QGroupBox(tr("Selected order"));
    auto* detailLayout = new QVBoxLayout(detailBox);
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("growOrderProgressBar"));
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_detail = new QLabel(tr("Select an order."));
    m_detail->setObjectName(QStringLiteral("growOrderDetailLabel"));
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setWordWrap(true);
    m_detail->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* actions = new QHBoxLayout;
    actions->addStretch(1);
    actions->addWidget(copyButton(QStringLiteral("copyGrowOrderIdPushButton"),
                                  [this] { return selectedOrderId(); }));
    m_cancel = new QPushButton(tr("Cancel order"));
    m_cancel->setObjectName(QStringLiteral("cancelGrowOrderPushButton"));
    m_cancel->setEnabled(false);
    actions->addWidget(m_cancel);
    detailLayout->addWidget(m_progress);
    detailLayout->addWidget(m_detail, 1);
    detailLayout->addLayout(actions);

    auto* splitter = new QSplitter(Qt::Vertical);
    splitter->setObjectName(QStringLiteral("growOrdersSplitter"));
    splitter->addWidget(top);
    splitter->addWidget(detailBox);
    splitter->setSizes({420, 260});
    layout->addWidget(splitter, 1);

    connect(m_create, &QPushButton::clicked, this, &GrowOrdersPage::create);
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        const QString id = selectedOrderId();
        if (id.isEmpty()) {
            return;
        }
        confirmThen(this, QStringLiteral("confirmCancelGrowOrderMessageBox"),
                    tr("Cancel grow order"),
                    tr("Cancel grow order %1? It stops growing its accumulator; the batches "
                       "already appended stay.")
                        .arg(id),
                    tr("Cancel order"), tr("Keep growing"), [this] { cancelSelected(); });
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &GrowOrdersPage::showDetail);
    addRowMenu(m_table, {{tr("Copy id"),
                          findChild<QPushButton*>(QStringLiteral("copyGrowOrderIdPushButton")),
                          QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I)},
                         {tr("Cancel order…"), m_cancel, QKeySequence(Qt::Key_Delete)}});
}

void GrowOrdersPage::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    refresh();
}

void GrowOrdersPage::hideEvent(QHideEvent* event) {
    QWidget::hideEvent(event);
    m_poll.stop();
}

api::GrowOrderCreation GrowOrdersPage::formOrder(FormError* error) const {
    api::GrowOrderCreation order;
    if (m_keccak->isChecked()) {
        order.hashingFunctions.emplace_back("KECCAK");
    }
    if (m_poseidon->isChecked()) {
        order.hashingFunctions.emplace_back("POSEIDON");
    }
    if (order.hashingFunctions.empty()) {
        *error = {tr("Choose at least one hashing function."), m_keccak};
    }
    bool ok = false;
    const qlonglong minBatch = m_minBatch->text().toLongLong(&ok);
    if (!ok || minBatch < 1) {
        *error = {tr("The min batch size is a number of blocks, at least 1."), m_minBatch};
    }
    const auto optionalBlock = [](const QLineEdit* edit) -> std::optional<std::int64_t> {
        bool parsed = false;
        const qlonglong value = edit->text().toLongLong(&parsed);
        return parsed ? std::optional<std::int64_t>(value) : std::nullopt;
    };
    order.accumulatedChainId = chainIdOf(m_accumulated).toStdString();
    order.settleChainId = chainIdOf(m_settle).toStdString();
    order.minBatchSize = minBatch;
    order.startBlockNumber = optionalBlock(m_start);
    order.finishBlockNumber = optionalBlock(m_finish);
    return order;
}

void GrowOrdersPage::create() {
    FormError error;
    const api::GrowOrderCreation order = formOrder(&error);
    if (!error.message.isEmpty()) {
        showBanner(m_banner, error.message, error.field);
        return;
    }
    m_create->setEnabled(false);
    m_client->createGrowOrder(order, this, [this](auto answer) {
        m_create->setEnabled(true);
        if (auto* failure = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("The grow order was not created: %1").arg(failure->message()));
            return;
        }
        showBanner(m_banner, {});
        const auto& order = std::get<api::GrowOrder>(answer);
        std::vector<api::GrowOrder> rows{order};
        for (int row = 0; row < m_model->rowCount(); ++row) {
            rows.push_back(*m_model->recordAt(row));
        }
        m_model->update(rows);
        m_table->selectRow(0);
    });
}

void GrowOrdersPage::refresh() {
    if (m_inFlight) {
        return;
    }
    m_inFlight = true;
    m_client->growOrders(this, [this](auto answer) {
        m_inFlight = false;
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("Could not load the grow orders: %1").arg(error->message()));
            m_poll.answered(true);
            return;
        }
        clearPollError(m_banner, tr("Could not load"));
        m_model->update(std::get<std::vector<api::GrowOrder>>(answer));
        showDetail();
        m_poll.answered(false);
    });
}

QString GrowOrdersPage::selectedOrderId() const {
    const QModelIndex current = m_table->currentIndex();
    return current.isValid() ? m_model->index(current.row(), 0)
                                   .data(models::GrowOrderModel::OrderIdRole)
                                   .toString()
                             : QString();
}

void GrowOrdersPage::showDetail() {
    const QModelIndex current = m_table->currentIndex();
    const api::GrowOrder* order = current.isValid() ? m_model->recordAt(current.row()) : nullptr;
    if (!order) {
        m_cancel->setEnabled(false);
        m_detail->setText(tr("Select an order."));
        return;
    }
    const int percent = models::GrowOrderModel::progressPercent(*order);
    // A busy bar while an open-ended order is active; an ended one (cancelled, completed, failed)
    // keeps a still bar at what it reached (issue #47: a cancelled order kept the busy bar).
    const bool busy = percent < 0 && order->status == "ACTIVE";
    m_progress->setRange(0, busy ? 0 : 100);
    m_progress->setValue(std::max(0, percent));
    QStringList hashing;
    for (const std::string& function : order->hashingFunctions) {
        hashing << QString::fromStdString(function);
    }
    m_detail->setText(
        tr("<b>%1</b> — <b>%2</b><br>Accumulates chain %3, settles on %4, hashing %5.<br>"
           "Blocks %6 → %7; next batch from %8; at least %9 blocks per batch.<br>"
           "Active query: %10<br>Created %11 · updated %12 · cancelled %13 · completed %14")
            .arg(QString::fromStdString(order->internalId), QString::fromStdString(order->status),
                 QString::fromStdString(order->accumulatedChainId),
                 QString::fromStdString(order->settleChainId), hashing.join(QStringLiteral(", ")))
            .arg(order->startBlockNumber)
            .arg(order->finishBlockNumber ? QString::number(*order->finishBlockNumber)
                                          : tr("no finish"))
            .arg(order->nextFromBlockNumber)
            .arg(order->minBatchSize)
            .arg(orNone(order->activeQueryId), QString::fromStdString(order->createdAt),
                 QString::fromStdString(order->updatedAt), orNone(order->cancelledAt),
                 orNone(order->completedAt)));
    m_cancel->setEnabled(order->status == "ACTIVE");
}

void GrowOrdersPage::cancelSelected() {
    const QString id = selectedOrderId();
    if (id.isEmpty()) {
        return;
    }
    m_cancel->setEnabled(false);
    m_client->cancelGrowOrder(id, this, [this, id](auto answer) {
        if (auto* error = std::get_if<client::ApiError>(&answer)) {
            showBanner(m_banner, tr("Order %1 was not cancelled: %2").arg(id, error->message()));
            showDetail();
            return;
        }
        showBanner(m_banner, {});
        const auto& order = std::get<api::GrowOrder>(answer);
        std::vector<api::GrowOrder> rows;
        for (int row = 0; row < m_model->rowCount(); ++row) {
            const api::GrowOrder* existing = m_model->recordAt(row);
            rows.push_back(existing->internalId == order.internalId ? order : *existing);
        }
        m_model->update(rows);
        showDetail();
    });
}

} // namespace proofdesk::ui
