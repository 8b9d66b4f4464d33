#include "PageParts.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPainter>
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

ElidedLabel::ElidedLabel(const QString& text, QWidget* parent) : QLabel(text, parent) {
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

QSize ElidedLabel::minimumSizeHint() const {
    return {fontMetrics().averageCharWidth() * 12, QLabel::minimumSizeHint().height()};
}

void ElidedLabel::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRect area = contentsRect();
    const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, area.width());
    // The whole text as the tooltip only while it is cut.
    const QString tip = shown == text() ? QString() : text();
    if (toolTip() != tip) {
        setToolTip(tip);
    }
    painter.setPen(palette().color(foregroundRole()));
    painter.drawText(area, int(alignment()) | Qt::TextSingleLine, shown);
}

namespace {

constexpr const char* kPrimaryActionProperty = "proofdeskPrimaryAction";
constexpr const char* kSearchFieldProperty = "proofdeskSearchField";

template <class T> T* markedChild(QWidget* page, const char* property) {
    if (!page) {
        return nullptr;
    }
    for (T* candidate : page->findChildren<T*>()) {
        if (candidate->property(property).toBool() && candidate->isVisible() &&
            candidate->isEnabled()) {
            return candidate;
        }
    }
    return nullptr;
}

} // namespace

void markPrimaryAction(QPushButton* button) {
    button->setProperty(kPrimaryActionProperty, true);
    button->setToolTip(button->toolTip().isEmpty()
                           ? QObject::tr("Ctrl+Enter")
                           : button->toolTip() + QObject::tr(" (Ctrl+Enter)"));
}

void markSearchField(QWidget* field) {
    field->setProperty(kSearchFieldProperty, true);
}

QPushButton* primaryAction(QWidget* page) {
    return markedChild<QPushButton>(page, kPrimaryActionProperty);
}

QWidget* searchField(QWidget* page) {
    return markedChild<QWidget>(page, kSearchFieldProperty);
}

void confirmThen(QWidget* parent, const QString& objectName, const QString& title,
                 const QString& text, const QString& action, std::function<void()> confirmed) {
    auto* box = new QMessageBox(QMessageBox::Question, title, text, QMessageBox::Cancel, parent);
    box->setObjectName(objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    QPushButton* confirm = box->addButton(action, QMessageBox::AcceptRole);
    confirm->setObjectName(QStringLiteral("confirmPushButton"));
    box->button(QMessageBox::Cancel)->setObjectName(QStringLiteral("cancelPushButton"));
    box->setDefaultButton(QMessageBox::Cancel);
    QObject::connect(confirm, &QPushButton::clicked, parent, std::move(confirmed));
    box->open();
}

} // namespace proofdesk::ui
