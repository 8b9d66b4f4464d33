#pragma once

#include <QLabel>
#include <QString>

#include <functional>

class QAbstractItemModel;
class QPushButton;
class QTableView;
class QWidget;

namespace proofdesk::ui {

// The pieces every console page starts with: its title, and the non-modal banner in which it
// reports what went wrong (hidden until then).
QLabel* pageTitle(const QString& text);
QLabel* errorBanner(const QString& objectName);
// Shows `message` in the banner, or hides it when the message is empty.
void showBanner(QLabel* banner, const QString& message);
// What a successful poll does: hides the banner only if it reports a failed poll (a message
// starting with `pollPrefix`), so the outcome of the user's own action stays in view.
void clearPollError(QLabel* banner, const QString& pollPrefix);
// A read-only table of records as every page shows them: whole rows, one at a time, no row
// numbers, alternating colours, `stretchColumn` taking the spare width.
QTableView* recordTable(const QString& objectName, QAbstractItemModel* model, int stretchColumn);
// A small button that puts text() on the clipboard and says so in its tooltip.
QPushButton* copyButton(const QString& objectName, std::function<QString()> text,
                        QWidget* parent = nullptr);

// A one-line label for long values (ids, hashes, sentences with them): it never widens its
// window. When its space is short it shows the start and an ellipsis, with the whole text in its
// tooltip (pages put a Copy button beside the values worth copying).
class ElidedLabel : public QLabel {
public:
    explicit ElidedLabel(const QString& text = {}, QWidget* parent = nullptr);
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
};

// Asks before an action that cannot be undone: a window-modal box named `objectName` over
// `parent`, with the action's button ("confirmPushButton", labelled `action`) and Cancel, the
// default. `confirmed` runs only when the action's button is pressed. Returns at once.
void confirmThen(QWidget* parent, const QString& objectName, const QString& title,
                 const QString& text, const QString& action, std::function<void()> confirmed);

// The keyboard's way into a page (the main window's Ctrl+Enter and Ctrl+F): the button that
// sends the page's form, and the field that searches its records.
void markPrimaryAction(QPushButton* button);
void markSearchField(QWidget* field);
// The page's marked button if it can be pressed now (visible and enabled), else null.
QPushButton* primaryAction(QWidget* page);
// The page's marked search field if it is visible, else null.
QWidget* searchField(QWidget* page);

} // namespace proofdesk::ui
