#include "LayoutState.h"

#include <QHeaderView>
#include <QMainWindow>
#include <QSettings>
#include <QSplitter>
#include <QTableView>

namespace proofdesk::ui {
namespace {

const QString kGroup = QStringLiteral("layout");
const QString kGeometry = QStringLiteral("geometry");
const QString kBars = QStringLiteral("bars");
const QString kSplitters = QStringLiteral("splitter/");
const QString kColumns = QStringLiteral("columns/");

} // namespace

void saveLayout(const QMainWindow& window, QSettings& store) {
    store.beginGroup(kGroup);
    store.setValue(kGeometry, window.saveGeometry());
    store.setValue(kBars, window.saveState());
    for (const QSplitter* splitter : window.findChildren<QSplitter*>()) {
        if (!splitter->objectName().isEmpty()) {
            store.setValue(kSplitters + splitter->objectName(), splitter->saveState());
        }
    }
    for (const QTableView* table : window.findChildren<QTableView*>()) {
        if (!table->objectName().isEmpty()) {
            store.setValue(kColumns + table->objectName(), table->horizontalHeader()->saveState());
        }
    }
    store.endGroup();
    store.sync();
}

void restoreLayout(QMainWindow& window, QSettings& store) {
    store.beginGroup(kGroup);
    if (store.contains(kGeometry)) {
        window.restoreGeometry(store.value(kGeometry).toByteArray());
    }
    if (store.contains(kBars)) {
        window.restoreState(store.value(kBars).toByteArray());
    }
    for (QSplitter* splitter : window.findChildren<QSplitter*>()) {
        const QString key = kSplitters + splitter->objectName();
        if (!splitter->objectName().isEmpty() && store.contains(key)) {
            splitter->restoreState(store.value(key).toByteArray());
        }
    }
    for (QTableView* table : window.findChildren<QTableView*>()) {
        const QString key = kColumns + table->objectName();
        if (!table->objectName().isEmpty() && store.contains(key)) {
            table->horizontalHeader()->restoreState(store.value(key).toByteArray());
        }
    }
    store.endGroup();
}

} // namespace proofdesk::ui
