#include "JsonView.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QMenu>

namespace proofdesk::ui {
namespace {

constexpr int kJsonRole = Qt::UserRole + 1; // the item's value, as compact JSON text

QString shownValue(const nlohmann::json& value) {
    if (value.is_string()) {
        return QString::fromStdString(value.get<std::string>());
    }
    if (value.is_object()) {
        return QObject::tr("{%n key(s)}", nullptr, static_cast<int>(value.size()));
    }
    if (value.is_array()) {
        return QObject::tr("[%n item(s)]", nullptr, static_cast<int>(value.size()));
    }
    return QString::fromStdString(value.dump());
}

} // namespace

JsonView::JsonView(QWidget* parent) : QTreeWidget(parent) {
    setColumnCount(2);
    setHeaderLabels({tr("Key"), tr("Value")});
    header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    header()->setStretchLastSection(true);
    setUniformRowHeights(true);
    setAlternatingRowColors(true);
    setTextElideMode(Qt::ElideMiddle);
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, &JsonView::showMenu);
}

void JsonView::setJson(const nlohmann::json& value) {
    m_json = value;
    clear();
    addChildren(invisibleRootItem(), value);
}

void JsonView::clearJson() {
    m_json = nullptr;
    clear();
}

QString JsonView::text() const {
    return m_json.is_null() ? QString() : QString::fromStdString(m_json.dump(2));
}

void JsonView::addChildren(QTreeWidgetItem* parent, const nlohmann::json& value) {
    const auto add = [this, parent](const QString& key, const nlohmann::json& child) {
        auto* item = new QTreeWidgetItem(parent, {key, shownValue(child)});
        item->setData(1, kJsonRole, QString::fromStdString(child.dump()));
        if (child.is_string()) {
            item->setToolTip(1, item->text(1));
        }
        if (child.is_structured() && !child.empty()) {
            addChildren(item, child);
            item->setExpanded(parent == invisibleRootItem());
        }
    };
    if (value.is_object()) {
        for (const auto& [key, child] : value.items()) {
            add(QString::fromStdString(key), child);
        }
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            add(QStringLiteral("[%1]").arg(i), value[i]);
        }
    }
}

void JsonView::showMenu(const QPoint& at) {
    auto* menu = new QMenu(this);
    menu->setObjectName(objectName() + QStringLiteral("Menu"));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    if (QTreeWidgetItem* item = itemAt(at)) {
        QAction* value = menu->addAction(tr("Copy the value"));
        connect(value, &QAction::triggered, this, [item] {
            const QString json = item->data(1, kJsonRole).toString();
            const auto parsed = nlohmann::json::parse(json.toStdString(), nullptr, false);
            QApplication::clipboard()->setText(
                parsed.is_string() ? QString::fromStdString(parsed.get<std::string>()) : json);
        });
    }
    QAction* all = menu->addAction(tr("Copy the record as JSON"));
    all->setEnabled(!m_json.is_null());
    connect(all, &QAction::triggered, this, [this] { QApplication::clipboard()->setText(text()); });
    menu->popup(viewport()->mapToGlobal(at));
}

} // namespace proofdesk::ui
