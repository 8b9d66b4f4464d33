#pragma once

#include <QMainWindow>

namespace proofdesk::models {
class RequestLogModel;
}
namespace proofdesk::client {
class ProofClient;
}

namespace proofdesk::ui {

// Where the services are, as the console shows them.
struct ServerEndpoints {
    QString requestUrl;
    QString proofUrl;
    QString authUrl;
    QString dataDir;
};

// The console's main window. So far: the proof jobs page (when a proof client is given) and the
// local server page (endpoints and live request log); the request, bucket and key pages plug
// into the navigation list.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(const ServerEndpoints& endpoints, models::RequestLogModel* requestLog,
               client::ProofClient* proofClient = nullptr, QWidget* parent = nullptr);
};

} // namespace proofdesk::ui
