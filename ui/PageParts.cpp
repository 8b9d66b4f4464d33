#include "PageParts.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QToolTip>

namespace proofdesk::ui {

QLabel* pageTitle(const QString& text) {
    auto* title = new QLabel(text);
    QFont font = title->font();
    font.setPointSizeF(font.pointSizeF() * 1.4);
    font.setBold(true);
    title->setFont(font);
    return title;
}

QLabel* errorBanner(const QString& objectName) {
    auto* banner = new QLabel;
    banner->setObjectName(objectName);
    banner->setWordWrap(true);
    banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner->setStyleSheet(QStringLiteral("QLabel { background: #fde2e1; color: #7a1c1c; "
                                         "padding: 6px; border-radius: 4px; }"));
    banner->hide();
    return banner;
}

void showBanner(QLabel* banner, const QString& message) {
    banner->setText(message);
    banner->setVisible(!message.isEmpty());
}

void clearPollError(QLabel* banner, const QString& pollPrefix) {
    if (banner->text().startsWith(pollPrefix)) {
        showBanner(banner, {});
    }
}

QTableView* recordTable(const QString& objectName, QAbstractItemModel* model, int stretchColumn) {
    auto* table = new QTableView;
    table->setObjectName(objectName);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    table->setAlternatingRowColors(true);
    return table;
}

QPushButton* copyButton(const QString& objectName, std::function<QString()> text, QWidget* parent) {
    auto* button = new QPushButton(QObject::tr("Copy"), parent);
    button->setObjectName(objectName);
    button->setToolTip(QObject::tr("Copy to the clipboard"));
    QObject::connect(button, &QPushButton::clicked, button, [button, text = std::move(text)] {
        const QString value = text();
        if (value.isEmpty()) {
            return;
        }
        QApplication::clipboard()->setText(value);
        QToolTip::showText(button->mapToGlobal(QPoint(0, button->height())), QObject::tr("Copied"),
                           button);
    });
    return button;
}

} // namespace proofdesk::ui
