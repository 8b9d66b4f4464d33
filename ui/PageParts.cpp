#include "PageParts.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QToolButton>
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

namespace {

const QString kBannerStyle = QStringLiteral("QLabel { background: #fde2e1; color: #7a1c1c; "
                                            "padding: 6px; border-radius: 4px; }");
const QString kFloatingBannerStyle =
    QStringLiteral("QLabel { background: #fde2e1; color: #7a1c1c; padding: 8px 30px 8px 10px; "
                   "border: 1px solid #e7a9a6; border-radius: 5px; }");
const char* const kAtFaultProperty = "proofdeskAtFault";
constexpr int kFloatingMargin = 12;

} // namespace

Banner::Banner(const QString& objectName, Placement placement, QWidget* host)
    : QLabel(host), m_placement(placement) {
    setObjectName(objectName);
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setAccessibleName(tr("Error"));
    if (placement == Placement::Floating) {
        setStyleSheet(kFloatingBannerStyle);
        m_dismiss = new QToolButton(this);
        m_dismiss->setObjectName(QStringLiteral("dismissBannerToolButton"));
        m_dismiss->setText(QStringLiteral("×"));
        m_dismiss->setAutoRaise(true);
        m_dismiss->setToolTip(tr("Dismiss"));
        m_dismiss->setAccessibleName(tr("Dismiss the error"));
        connect(m_dismiss, &QToolButton::clicked, this, [this] { showMessage(QString()); });
        host->installEventFilter(this);
    } else {
        setStyleSheet(kBannerStyle);
    }
    if (placement == Placement::Reserved) {
        QSizePolicy policy = sizePolicy();
        policy.setRetainSizeWhenHidden(true);
        setSizePolicy(policy);
        setMinimumHeight(fontMetrics().lineSpacing() * 2 + 14);
    }
    hide();
}

void Banner::showMessage(const QString& message, QWidget* field) {
    unmarkField();
    setText(message);
    setVisible(!message.isEmpty());
    if (message.isEmpty()) {
        return;
    }
    if (m_placement == Placement::Floating) {
        place();
        raise();
    }
    if (!field) {
        return;
    }
    // Marked by colour alone (a border would change its size and move the form), and told to
    // screen readers through its description.
    m_field = field;
    m_fieldHadPalette = field->testAttribute(Qt::WA_SetPalette);
    m_fieldPalette = field->palette();
    m_fieldDescription = field->accessibleDescription();
    QPalette marked = field->palette();
    marked.setColor(QPalette::Base, QColor(0xfd, 0xe2, 0xe1));
    marked.setColor(QPalette::Button, QColor(0xfd, 0xe2, 0xe1));
    field->setPalette(marked);
    field->setAccessibleDescription(message);
    field->setProperty(kAtFaultProperty, true);
    const auto edited = [this] { showMessage(QString()); };
    if (auto* line = qobject_cast<QLineEdit*>(field)) {
        m_fieldEdited = connect(line, &QLineEdit::textEdited, this, edited);
    } else if (auto* text = qobject_cast<QPlainTextEdit*>(field)) {
        m_fieldEdited = connect(text, &QPlainTextEdit::textChanged, this, edited);
    } else if (auto* combo = qobject_cast<QComboBox*>(field)) {
        m_fieldEdited = connect(combo, &QComboBox::currentIndexChanged, this, edited);
    } else if (auto* button = qobject_cast<QAbstractButton*>(field)) {
        m_fieldEdited = connect(button, &QAbstractButton::toggled, this, edited);
    } else if (auto* spin = qobject_cast<QAbstractSpinBox*>(field)) {
        m_fieldEdited = connect(spin, &QAbstractSpinBox::editingFinished, this, edited);
    }
}

void Banner::unmarkField() {
    disconnect(m_fieldEdited);
    if (m_field) {
        m_field->setPalette(m_fieldHadPalette ? m_fieldPalette : QPalette());
        m_field->setAttribute(Qt::WA_SetPalette, m_fieldHadPalette);
        m_field->setAccessibleDescription(m_fieldDescription);
        m_field->setProperty(kAtFaultProperty, false);
    }
    m_field.clear();
}

bool Banner::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parent() && event->type() == QEvent::Resize && isVisible()) {
        place();
    }
    return QLabel::eventFilter(watched, event);
}

void Banner::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    if (m_dismiss) {
        m_dismiss->move(width() - m_dismiss->width() - 4, 4);
    }
}

// Over the bottom of the host, as wide as the host allows, as tall as the message needs.
void Banner::place() {
    const QWidget* host = parentWidget();
    const int width = std::max(120, host->width() - 2 * kFloatingMargin);
    const int height = std::min(heightForWidth(width), host->height() / 2);
    setGeometry(kFloatingMargin, host->height() - height - kFloatingMargin, width, height);
}

bool isMarkedAtFault(const QWidget* field) {
    return field->property(kAtFaultProperty).toBool();
}

Banner* errorBanner(const QString& objectName, QWidget* host) {
    return new Banner(objectName, Banner::Placement::Floating, host);
}

Banner* reservedBanner(const QString& objectName) {
    return new Banner(objectName, Banner::Placement::Reserved);
}

QLabel* errorBanner(const QString& objectName) {
    return new Banner(objectName, Banner::Placement::Inline);
}

void showBanner(QLabel* banner, const QString& message, QWidget* field) {
    if (auto* ours = dynamic_cast<Banner*>(banner)) {
        ours->showMessage(message, field);
        return;
    }
    banner->setText(message);
    banner->setVisible(!message.isEmpty());
}

void clearPollError(QLabel* banner, const QString& pollPrefix) {
    if (banner->text().startsWith(pollPrefix)) {
        showBanner(banner, {});
    }
}

QTableView* recordTable(const QString& objectName, const QString& accessibleName,
                        QAbstractItemModel* model, int stretchColumn) {
    auto* table = new QTableView;
    table->setObjectName(objectName);
    table->setAccessibleName(accessibleName);
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setSectionResizeMode(stretchColumn, QHeaderView::Stretch);
    table->setAlternatingRowColors(true);
    // Tab leaves the table for the next control (issue #47: it moved cell by cell and never
    // left); the arrow keys move within it.
    table->setTabKeyNavigation(false);
    return table;
}

namespace {

// Keeps an empty-state label centred in its table's viewport.
class EmptyStateLabel : public QLabel {
public:
    explicit EmptyStateLabel(QTableView* table) : QLabel(table->viewport()), m_table(table) {
        setObjectName(table->objectName() + QStringLiteral("EmptyLabel"));
        setWordWrap(true);
        setAlignment(Qt::AlignCenter);
        setStyleSheet(QStringLiteral("QLabel { color: palette(mid); padding: 12px; }"));
        setAttribute(Qt::WA_TransparentForMouseEvents);
        table->viewport()->installEventFilter(this);
        QAbstractItemModel* model = table->model();
        for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved}) {
            connect(model, signal, this, &EmptyStateLabel::follow);
        }
        connect(model, &QAbstractItemModel::modelReset, this, &EmptyStateLabel::follow);
        connect(model, &QAbstractItemModel::layoutChanged, this, &EmptyStateLabel::follow);
        follow();
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        // A resized viewport, or a new text (its size hint changed).
        if (watched == parent() &&
            (event->type() == QEvent::Resize || event->type() == QEvent::LayoutRequest)) {
            place();
        }
        return QLabel::eventFilter(watched, event);
    }

private:
    void follow() {
        setVisible(m_table->model()->rowCount() == 0);
        place();
    }
    void place() {
        const QWidget* viewport = parentWidget();
        const int width = std::min(viewport->width() - 16, 520);
        const int height = std::min(heightForWidth(width), viewport->height());
        setGeometry((viewport->width() - width) / 2, (viewport->height() - height) / 2, width,
                    height);
    }

    QTableView* m_table;
};

} // namespace

QLabel* showWhenEmpty(QTableView* table, const QString& text) {
    auto* label = new EmptyStateLabel(table);
    label->setText(text);
    return label;
}

void addRowMenu(QTableView* table, std::vector<RowMenuEntry> entries,
                std::function<void(QMenu*)> more) {
    // The keyboard's way to the same buttons (issue #47), while the table has the focus.
    for (const RowMenuEntry& entry : entries) {
        Q_ASSERT_X(entry.button, "addRowMenu", "an entry's button was not found");
        if (entry.shortcut.isEmpty()) {
            continue;
        }
        auto* key = new QAction(entry.text, table);
        key->setShortcut(entry.shortcut);
        key->setShortcutContext(Qt::WidgetShortcut);
        table->addAction(key);
        QObject::connect(key, &QAction::triggered, entry.button, [button = entry.button] {
            if (button->isEnabled() && !button->isHidden()) {
                button->click();
            }
        });
    }
    table->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(
        table, &QWidget::customContextMenuRequested, table,
        [table, entries = std::move(entries), more = std::move(more)](const QPoint& at) {
            const QModelIndex row = table->indexAt(at);
            if (!row.isValid()) {
                return;
            }
            table->setCurrentIndex(row); // the page shows it, and its buttons follow
            auto* menu = new QMenu(table);
            menu->setObjectName(table->objectName() + QStringLiteral("Menu"));
            menu->setAttribute(Qt::WA_DeleteOnClose);
            for (const RowMenuEntry& entry : entries) {
                // The shortcut shown after a tab, as menus show one (the table holds the action).
                QAction* action =
                    menu->addAction(entry.shortcut.isEmpty()
                                        ? entry.text
                                        : entry.text + QLatin1Char('\t') +
                                              entry.shortcut.toString(QKeySequence::NativeText));
                // A button the page hides (it does not apply to this row) is off here too.
                action->setEnabled(entry.button->isEnabled() && !entry.button->isHidden());
                QObject::connect(action, &QAction::triggered, entry.button,
                                 [button = entry.button] { button->click(); });
            }
            if (more) {
                more(menu);
            }
            menu->popup(table->viewport()->mapToGlobal(at));
        });
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

void ElidedLabel::setExplanation(const QString& explanation) {
    m_explanation = explanation;
    update();
}

void ElidedLabel::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QRect area = contentsRect();
    const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, area.width());
    // The whole text as the tooltip only while it is cut; the explanation always.
    QStringList parts;
    if (shown != text()) {
        parts << text();
    }
    if (!m_explanation.isEmpty()) {
        parts << m_explanation;
    }
    const QString tip = parts.join(QStringLiteral("\n\n"));
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

void submitOnEnter(QWidget* form, QPushButton* button) {
    for (QLineEdit* field : form->findChildren<QLineEdit*>()) {
        QObject::connect(field, &QLineEdit::returnPressed, button, [button] {
            if (button->isVisible() && button->isEnabled()) {
                button->click();
            }
        });
    }
}

void letChoicesShrink(QWidget* page) {
    for (QComboBox* choice : page->findChildren<QComboBox*>()) {
        choice->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        choice->setMinimumContentsLength(8);
    }
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
                 const QString& text, const QString& action, const QString& keep,
                 std::function<void()> confirmed) {
    auto* box = new QMessageBox(QMessageBox::Question, title, text, QMessageBox::Cancel, parent);
    box->setObjectName(objectName);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setWindowModality(Qt::WindowModal);
    QPushButton* confirm = box->addButton(action, QMessageBox::AcceptRole);
    confirm->setObjectName(QStringLiteral("confirmPushButton"));
    box->button(QMessageBox::Cancel)->setObjectName(QStringLiteral("cancelPushButton"));
    box->button(QMessageBox::Cancel)->setText(keep);
    box->setDefaultButton(QMessageBox::Cancel);
    QObject::connect(confirm, &QPushButton::clicked, parent, std::move(confirmed));
    box->open();
}

} // namespace proofdesk::ui
