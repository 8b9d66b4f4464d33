#pragma once

#include <QKeySequence>
#include <QLabel>
#include <QPalette>
#include <QPointer>
#include <QString>

#include <functional>
#include <vector>

class QAbstractItemModel;
class QMenu;
class QPushButton;
class QTableView;
class QToolButton;
class QWidget;

namespace proofdesk::ui {

// The pieces every console page starts with: its title, and the non-modal banner in which it
// reports what went wrong (hidden until then).
QLabel* pageTitle(const QString& text);

// Where a page or dialog says what went wrong. Showing or hiding it never moves a control:
// - errorBanner(name, host): floats over the bottom of `host` (a page), above whatever is there,
//   with × to dismiss it;
// - reservedBanner(name): for a dialog's layout, above its buttons, in a slot kept while hidden
//   (two lines; a longer message grows the dialog below it, not above);
// - errorBanner(name): an ordinary label in a layout (a record's reason in a detail pane).
// Hidden until showBanner gives it a message.
class Banner : public QLabel {
public:
    enum class Placement { Floating, Reserved, Inline };
    Banner(const QString& objectName, Placement placement, QWidget* host = nullptr);

    // Shows `message`; empty hides it. `field`, if given, is marked as the one at fault until
    // it is edited, which also hides the banner (so a fixed cause never leaves a stale banner).
    void showMessage(const QString& message, QWidget* field = nullptr);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void place();
    void unmarkField();

    Placement m_placement;
    QToolButton* m_dismiss = nullptr;
    QPointer<QWidget> m_field;
    QMetaObject::Connection m_fieldEdited;
    bool m_fieldHadPalette = false;
    QPalette m_fieldPalette;
    QString m_fieldDescription;
};
// What is wrong with a form before it is sent, and the field at fault (null: the form as a
// whole); showBanner(banner, error.message, error.field) marks it.
struct FormError {
    QString message;
    QWidget* field = nullptr;
};

// Whether a banner marks `field` as the one at fault now.
bool isMarkedAtFault(const QWidget* field);

Banner* errorBanner(const QString& objectName, QWidget* host);
Banner* reservedBanner(const QString& objectName);
QLabel* errorBanner(const QString& objectName);
// Shows `message` in the banner, or hides it when the message is empty; `field` as Banner::show.
void showBanner(QLabel* banner, const QString& message, QWidget* field = nullptr);
// What a successful poll does: hides the banner only if it reports a failed poll (a message
// starting with `pollPrefix`), so the outcome of the user's own action stays in view.
void clearPollError(QLabel* banner, const QString& pollPrefix);
// A read-only table of records as every page shows them: whole rows, one at a time, no row
// numbers, alternating colours, `stretchColumn` taking the spare width, `accessibleName` what a
// screen reader calls it.
QTableView* recordTable(const QString& objectName, const QString& accessibleName,
                        QAbstractItemModel* model, int stretchColumn);
// What an empty table says instead of nothing: `text` (what the page is for and what to do first)
// centred over the table while its model has no rows. Returns the label ("<table>EmptyLabel"),
// whose text a page may change (e.g. "Nothing matches the search").
QLabel* showWhenEmpty(QTableView* table, const QString& text);
// A table's right-click menu: the row under the pointer is selected, then each entry presses a
// button of the page, so the menu does exactly what that button does and is off when it is.
// `more`, if given, adds entries of the page's own for the selected row. The menu is named
// "<table>Menu" while it is open.
struct RowMenuEntry {
    QString text;
    QPushButton* button;
    // Pressed in the table (it has the keyboard), it does the same; the menu shows it.
    QKeySequence shortcut = {};
};
void addRowMenu(QTableView* table, std::vector<RowMenuEntry> entries,
                std::function<void(QMenu*)> more = {});
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
    // Said in the tooltip, after the whole text when that is cut.
    void setExplanation(const QString& explanation);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QString m_explanation;
};

// Asks before an action that cannot be undone: a window-modal box named `objectName` over
// `parent`, with the action's button ("confirmPushButton", labelled `action`) and the button
// that leaves things as they are ("cancelPushButton", labelled `keep`: not "Cancel" beside a
// "Cancel order"), the default. `confirmed` runs only when the action's button is pressed.
// Returns at once.
void confirmThen(QWidget* parent, const QString& objectName, const QString& title,
                 const QString& text, const QString& action, const QString& keep,
                 std::function<void()> confirmed);

// The keyboard's way into a page (the main window's Ctrl+Enter and Ctrl+F): the button that
// sends the page's form, and the field that searches its records.
void markPrimaryAction(QPushButton* button);
// Enter in any one-line field of `form` presses `button` (when it can be pressed), as in a web
// form; multi-line fields keep Enter for new lines.
void submitOnEnter(QWidget* form, QPushButton* button);
void markSearchField(QWidget* field);
// Lets a page shrink to a small screen (issue #47): its combo boxes size to eight characters
// rather than their longest item, which the open list still shows in full. Call it before the
// page's layout first measures them (a combo box keeps its first minimum size).
void letChoicesShrink(QWidget* page);
// The page's marked button if it can be pressed now (visible and enabled), else null.
QPushButton* primaryAction(QWidget* page);
// The page's marked search field if it is visible, else null.
QWidget* searchField(QWidget* page);

} // namespace proofdesk::ui
