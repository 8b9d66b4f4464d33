#pragma once

#include <QTreeWidget>

#include <nlohmann/json.hpp>

namespace proofdesk::ui {

// A record shown as JSON is read: a tree of keys and values (objects and arrays fold, the first
// level open), strings without quotes, long values elided with the whole in the tooltip, and a
// right-click menu to copy a value or the whole record as JSON.
class JsonView : public QTreeWidget {
    Q_OBJECT
public:
    explicit JsonView(QWidget* parent = nullptr);

    void setJson(const nlohmann::json& value);
    void clearJson();
    const nlohmann::json& json() const { return m_json; }
    // The record as indented JSON text (what "Copy the record" puts on the clipboard).
    QString text() const;

private:
    void addChildren(QTreeWidgetItem* parent, const nlohmann::json& value);
    void showMenu(const QPoint& at);

    nlohmann::json m_json;
};

} // namespace proofdesk::ui
