#include "ProofQueryModel.h"

#include "StatusColors.h"

#include <QBrush>

namespace proofdesk::models {
namespace {

QString text(const std::optional<std::string>& value) {
    return value ? QString::fromStdString(*value) : QString();
}

// What is mocked about a query, said where its result is (issue #47: a mocked job looked like a
// real one); empty when nothing is.
QString mockedText(const api::ProofQuery& query) {
    if (query.isProofMocked && query.isFactMocked) {
        return ProofQueryModel::tr("mocked proof and fact");
    }
    if (query.isProofMocked) {
        return ProofQueryModel::tr("mocked proof");
    }
    return query.isFactMocked ? ProofQueryModel::tr("mocked fact") : QString();
}

} // namespace

ProofQueryModel::ProofQueryModel(QObject* parent) : RecordTableModel(parent) {}

int ProofQueryModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProofQueryModel::data(const QModelIndex& index, int role) const {
    const api::ProofQuery* query = index.isValid() ? queryAt(index.row()) : nullptr;
    if (!query) {
        return {};
    }
    if (role == QueryIdRole) {
        return QString::fromStdString(query->id);
    }
    if (role == StatusRole) {
        return QString::fromStdString(query->status);
    }
    if (role == Qt::ForegroundRole && index.column() == StatusColumn) {
        return QBrush(statusColor(QString::fromStdString(query->status)));
    }
    const QString mocked = mockedText(*query);
    if (index.column() == ResultColumn && !mocked.isEmpty()) {
        if (role == Qt::ForegroundRole) {
            return QBrush(mockedColor());
        }
        if (role == Qt::ToolTipRole) {
            return tr("Mocked (isProofMocked or isFactMocked): no STARK proof stands behind this "
                      "query's fact.");
        }
    }
    if (role == Qt::ToolTipRole && query->errorReason) {
        return QString::fromStdString(*query->errorReason);
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    switch (index.column()) {
    case IdColumn:
        return QString::fromStdString(query->id);
    case StatusColumn:
        return QString::fromStdString(query->status);
    case StepColumn:
        return text(query->step);
    case ResultColumn:
        return mocked.isEmpty() ? QString::fromStdString(query->result)
                                : QStringLiteral("%1 · %2").arg(
                                      QString::fromStdString(query->result), mocked.toUpper());
    case JobSizeColumn:
        return text(query->jobSize);
    case CreatedColumn:
        return QString::fromStdString(query->createdAt);
    case CompletedColumn:
        return text(query->completedAt);
    case FactHashColumn:
        return text(query->sharpFactHash);
    default:
        return {};
    }
}

QVariant ProofQueryModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) {
        return {};
    }
    switch (section) {
    case IdColumn:
        return tr("Query");
    case StatusColumn:
        return tr("Status");
    case StepColumn:
        return tr("Step");
    case ResultColumn:
        return tr("Result");
    case JobSizeColumn:
        return tr("Job size");
    case CreatedColumn:
        return tr("Created");
    case CompletedColumn:
        return tr("Completed");
    case FactHashColumn:
        return tr("SHARP fact hash");
    default:
        return {};
    }
}

} // namespace proofdesk::models
