// The console through the accessibility tree and the keyboard, as a screen reader, a
// UI-automation tool or a keyboard user meets it: every control on every page (and in the
// dialogs) has a name there, so people and tools find it without knowing objectNames; a form can
// be filled and sent by those names alone; and Tab walks every form from top to bottom.
#include "ConsoleHarness.h"
#include "ui/IdentityIndicator.h"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAbstractSpinBox>
#include <QAccessible>
#include <QComboBox>
#include <QDialog>
#include <QHeaderView>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

using namespace proofdesk;
using test::child;

namespace {

QString accessibleName(QWidget* widget) {
    QAccessibleInterface* accessible = QAccessible::queryAccessibleInterface(widget);
    return accessible ? accessible->text(QAccessible::Name) : QString();
}

bool isControl(QWidget* widget) {
    return qobject_cast<QAbstractButton*>(widget) || qobject_cast<QLineEdit*>(widget) ||
           qobject_cast<QComboBox*>(widget) || qobject_cast<QAbstractSpinBox*>(widget) ||
           qobject_cast<QPlainTextEdit*>(widget) || qobject_cast<QAbstractItemView*>(widget);
}

// The visible controls under `root` that the accessibility tree leaves unnamed.
QStringList unnamedControls(QWidget* root) {
    QStringList unnamed;
    for (QWidget* widget : root->findChildren<QWidget*>()) {
        // Parts of a control (a combo box's line edit, a spin box's, a table's header) are named
        // through it.
        if (!widget->isVisible() || !isControl(widget) ||
            qobject_cast<QComboBox*>(widget->parentWidget()) ||
            qobject_cast<QAbstractSpinBox*>(widget->parentWidget()) ||
            qobject_cast<QHeaderView*>(widget)) {
            continue;
        }
        if (accessibleName(widget).trimmed().isEmpty()) {
            unnamed << QStringLiteral("%1 (%2)").arg(
                widget->objectName(), QLatin1String(widget->metaObject()->className()));
        }
    }
    return unnamed;
}

// The first interface under `root` in the accessibility tree with this role and name.
QAccessibleInterface* findAccessible(QAccessibleInterface* root, QAccessible::Role role,
                                     const QString& name) {
    if (!root || root->state().invisible) {
        return nullptr;
    }
    if (root->role() == role && root->text(QAccessible::Name) == name) {
        return root;
    }
    for (int i = 0; i < root->childCount(); ++i) {
        if (QAccessibleInterface* found = findAccessible(root->child(i), role, name)) {
            return found;
        }
    }
    return nullptr;
}

// The controls Tab visits inside `form`, in order, starting from its first.
std::vector<QWidget*> tabOrder(QWidget* form) {
    std::vector<QWidget*> order;
    const auto visits = [form](QWidget* widget) {
        return form->isAncestorOf(widget) && widget->isVisible() && widget->isEnabled() &&
               (widget->focusPolicy() & Qt::TabFocus) && !widget->focusProxy();
    };
    QWidget* start = form;
    while ((start = start->nextInFocusChain()) != form && !visits(start)) {
    }
    for (QWidget* widget = start; widget != form && order.size() < 200;
         widget = widget->nextInFocusChain()) {
        if (visits(widget)) {
            if (!order.empty() && widget == order.front()) {
                break;
            }
            order.push_back(widget);
        }
    }
    return order;
}

// Where Tab goes back up the form or leftwards within a row (empty: it never does).
QString backwardStep(QWidget* form) {
    const std::vector<QWidget*> order = tabOrder(form);
    for (std::size_t i = 1; i < order.size(); ++i) {
        const QRect before(order[i - 1]->mapTo(form, QPoint(0, 0)), order[i - 1]->size());
        const QRect next(order[i]->mapTo(form, QPoint(0, 0)), order[i]->size());
        const bool sameRow =
            next.center().y() >= before.top() && next.center().y() <= before.bottom();
        const bool back = sameRow ? next.left() < before.left() : next.top() < before.top();
        if (back) {
            return order[i - 1]->objectName() + QStringLiteral(" -> ") + order[i]->objectName();
        }
    }
    return {};
}

} // namespace

class ConsoleAccessibilityTest : public QObject {
    Q_OBJECT
private slots:
    // The page names are read whole in the sidebar at a usual size (issue #47 read "Programs,
    // facts and pr…"), and each has its name as a tooltip for when the user narrows it.
    void theSidebarShowsEveryPageNameWhole() {
        test::ConsoleHarness console;
        ui::MainWindow window(console.parts());
        window.resize(1400, 900);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* navigation = child<QListWidget>(&window, "navigationListWidget");
        for (int row = 0; row < navigation->count(); ++row) {
            QListWidgetItem* item = navigation->item(row);
            const QRect shown = navigation->visualItemRect(item);
            const int needed =
                navigation->sizeHintForIndex(navigation->model()->index(row, 0)).width();
            QVERIFY2(navigation->viewport()->width() >= needed,
                     qPrintable(QStringLiteral("%1 needs %2 px, the sidebar has %3")
                                    .arg(item->text())
                                    .arg(needed)
                                    .arg(navigation->viewport()->width())));
            QVERIFY(shown.isValid());
            QCOMPARE(item->toolTip(), item->text());
        }
    }

    void everyControlOnEveryPageHasAName() {
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("a11y")));
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* navigation = child<QListWidget>(&window, "navigationListWidget");
        QStringList unnamed;
        for (int page = 0; page < navigation->count(); ++page) {
            navigation->setCurrentRow(page);
            for (const QString& control : unnamedControls(&window)) {
                unnamed << navigation->item(page)->text() + QStringLiteral(": ") + control;
            }
        }
        unnamed.removeDuplicates();
        for (const QString& control : unnamed) {
            qWarning("unnamed: %s", qPrintable(control));
        }
        QVERIFY2(unnamed.isEmpty(), "controls without an accessible name (listed above)");

        // The dialogs too: Settings, the sign-in dialog's three ways, pasting a key.
        const auto checkDialog = [](QWidget* dialog) {
            const QStringList missing = unnamedControls(dialog);
            for (const QString& control : missing) {
                qWarning("unnamed in %s: %s", qPrintable(dialog->objectName()),
                         qPrintable(control));
            }
            return missing.isEmpty();
        };
        child<QAction>(&window, "settingsAction")->trigger();
        QDialog* dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<QDialog*>(QStringLiteral("settingsDialog"))));
        QVERIFY(checkDialog(dialog));
        dialog->reject();
        window.identity()->findChild<QAction*>(QStringLiteral("walletSignInAction"))->trigger();
        QTRY_VERIFY((dialog = window.findChild<QDialog*>(QStringLiteral("signInDialog"))));
        auto* tabs = child<QTabWidget>(dialog, "signInMethodTabWidget");
        for (int tab = 0; tab < tabs->count(); ++tab) {
            tabs->setCurrentIndex(tab);
            QVERIFY(checkDialog(dialog));
        }
        dialog->reject();
        window.identity()->findChild<QAction*>(QStringLiteral("pasteApiKeyAction"))->trigger();
        QTRY_VERIFY((dialog = window.findChild<QDialog*>(QStringLiteral("pasteApiKeyDialog"))));
        QVERIFY(checkDialog(dialog));
        dialog->reject();
    }

    void tabWalksEveryFormTopToBottom() {
        test::ConsoleHarness console;
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const std::pair<const char*, const char*> forms[] = {
            {"proofJobsPageWidget", "proofJobFormGroupBox"},
            {"factsPageWidget", "registerProgramGroupBox"},
            {"factsPageWidget", "factLookupGroupBox"},
            {"bucketsPageWidget", "bucketFormGroupBox"},
            {"dataRequestsPageWidget", "dataRequestFormWidget"},
            {"growOrdersPageWidget", "growOrderFormGroupBox"}};
        for (const auto& [page, form] : forms) {
            window.showPage(QLatin1String(page));
            QWidget* box = child<QWidget>(&window, form);
            QVERIFY2(tabOrder(box).size() >= 3, form);
            const QString back = backwardStep(box);
            QVERIFY2(back.isEmpty(), qPrintable(QLatin1String(form) + QStringLiteral(": ") + back));
        }
        child<QAction>(&window, "settingsAction")->trigger();
        QDialog* settings = nullptr;
        QTRY_VERIFY((settings = window.findChild<QDialog*>(QStringLiteral("settingsDialog"))));
        const QString back = backwardStep(settings);
        QVERIFY2(back.isEmpty(), qPrintable(QStringLiteral("settings: ") + back));
        settings->reject();
    }

    void aJobCanBeSentThroughTheAccessibilityTreeAlone() {
        QStandardPaths::setTestModeEnabled(true);
        test::ConsoleHarness console;
        console.proofs.setApiKey(console.server.mintKey(QStringLiteral("a11y-driven")));
        ui::MainWindow window(console.parts());
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QAccessibleInterface* root = QAccessible::queryAccessibleInterface(&window);
        const auto press = [root](const QString& name) {
            QAccessibleInterface* button = findAccessible(root, QAccessible::Button, name);
            if (!button || !button->actionInterface()) {
                return false;
            }
            button->actionInterface()->doAction(QAccessibleActionInterface::pressAction());
            return true;
        };
        QVERIFY(press(QStringLiteral("Try the sample")));
        QAccessibleInterface* file =
            findAccessible(root, QAccessible::EditableText, QStringLiteral("File"));
        QVERIFY(file);
        // A pressed button clicks as it animates, a moment later.
        QTRY_VERIFY(file->text(QAccessible::Value).endsWith(QStringLiteral("fibonacci.json")));
        QVERIFY(press(QStringLiteral("Submit")));
        QAccessibleInterface* jobs =
            findAccessible(root, QAccessible::Table, QStringLiteral("Proof jobs"));
        QVERIFY(jobs && jobs->tableInterface());
        QTRY_COMPARE_WITH_TIMEOUT(jobs->tableInterface()->rowCount(), 1, 10000);
    }
};

QTEST_MAIN(ConsoleAccessibilityTest)
#include "tst_console_accessibility.moc"
