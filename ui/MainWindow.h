#pragma once

#include "ConsoleSettings.h"
#include "LocalServerControl.h"

#include <QMainWindow>

#include <functional>

class QListWidget;
class QStackedWidget;
class QSystemTrayIcon;

namespace proofdesk::models {
class RequestLogModel;
}
namespace proofdesk::client {
class ProofClient;
class RequestClient;
class SecretStore;
class WalletSession;
} // namespace proofdesk::client

namespace proofdesk::ui {

class BucketsPage;
class DataRequestsPage;
class DesktopNotifier;
class GrowOrdersPage;
class IdentityIndicator;
class KeysPage;
class LocalServerPage;
class ProofJobsPage;

// What the console is built from: the clients it talks through (the GUI never sees a service),
// the embedded server's control (null on the Remote profile) and the settings.
struct ConsoleParts {
    client::ProofClient* proofs = nullptr;
    client::RequestClient* requests = nullptr;
    client::WalletSession* session = nullptr;
    client::SecretStore* secrets = nullptr;
    models::RequestLogModel* requestLog = nullptr;
    LocalServerControl* server = nullptr;
    ServerEndpoints endpoints; // where the profile points
    ConsoleSettings settings;
    // Points the clients at a deployment's new URLs (the Remote profile's Settings), closing
    // connections to the old ones. Null: new URLs wait for a restart.
    std::function<void(const ServerEndpoints&)> reconnect;
    // Starts the console again with the saved settings (a change of profile). Null: the user is
    // told to restart.
    std::function<void()> restart;
    // Restore the window's geometry, splitters and columns from the settings, and save them on
    // close (the app; tests keep the built-in layout).
    bool rememberLayout = false;
};

// The console's main window: a navigation list of pages (proof jobs, programs and facts,
// buckets, data requests, grow orders, wallet and keys, local server), a menu bar with the
// keyboard shortcuts, Settings in the toolbar, who the console acts as in the status bar, and
// desktop notifications when a job submitted here finishes.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const ConsoleParts& parts, QWidget* parent = nullptr);

    // Shows the page whose objectName is given (e.g. "bucketsPageWidget").
    void showPage(const QString& objectName);
    // The status bar's profile, project, key and wallet, with the switcher.
    IdentityIndicator* identity() const { return m_identity; }
    void setPollInterval(int milliseconds);

protected:
    void closeEvent(QCloseEvent* event) override;

signals:
    // A watched job finished: what the desktop notification says.
    void notified(const QString& title, const QString& message);

private:
    // File, Edit, View and Help, with the console's shortcuts (Ctrl+Q, Ctrl+, Ctrl+1..7, Ctrl+F,
    // Ctrl+Enter, F5); `settings` is the toolbar's Settings action, shared.
    void buildMenus(QAction* settings);
    QWidget* currentPage() const;
    void submitCurrentForm();
    void focusSearch();
    void refreshCurrentPage();
    void showAbout();
    void openSettings();
    // Saves `chosen` and applies what can apply live: the polling interval, the chain RPC URLs
    // of the embedded server, a deployment's URLs (reconnecting). A new profile asks to restart.
    void applySettings(const ConsoleSettings& chosen);
    void askToRestart();
    void notify(const QString& title, const QString& message);

    ConsoleParts m_parts;
    QListWidget* m_navigation;
    QStackedWidget* m_pages;
    ProofJobsPage* m_jobs;
    BucketsPage* m_buckets;
    DataRequestsPage* m_dataRequests;
    GrowOrdersPage* m_growOrders;
    LocalServerPage* m_serverPage;
    KeysPage* m_keys;
    IdentityIndicator* m_identity;
    DesktopNotifier* m_notifier = nullptr; // the freedesktop service, when the bus has one
    QSystemTrayIcon* m_tray = nullptr;     // else the tray, when there is one
};

} // namespace proofdesk::ui
