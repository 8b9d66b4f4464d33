#pragma once

class QMainWindow;
class QSettings;

namespace proofdesk::ui {

// The console's layout across runs, kept in QSettings under "layout/": the main window's geometry
// and bars, the sizes of every splitter and the column widths and order of every table, each
// under its objectName (unnamed ones are not kept).
void saveLayout(const QMainWindow& window, QSettings& store);
// Applies what saveLayout kept; anything missing keeps the built-in layout.
void restoreLayout(QMainWindow& window, QSettings& store);

} // namespace proofdesk::ui
