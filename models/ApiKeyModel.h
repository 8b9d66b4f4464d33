#pragma once

#include "RecordTableModel.h"
#include "api/AuthWire.h"

namespace proofdesk::models {

// The API keys of the signed-in project (GET /api-keys); the active one (the key the console
// sends to the proof service) is marked.
class ApiKeyModel : public RecordTableModel<api::ApiKeyRecord> {
    Q_OBJECT
public:
    enum Column { NameColumn, KeyColumn, CreatedColumn, InUseColumn, ColumnCount };
    enum Role { ApiKeyRole = Qt::UserRole + 1 };

    explicit ApiKeyModel(QObject* parent = nullptr);

    void setActiveKey(const QString& apiKey);
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    std::string keyOf(const api::ApiKeyRecord& key) const override { return key.id; }

private:
    QString m_active;
};

} // namespace proofdesk::models
