#pragma once

#include <QMainWindow>

namespace proofdesk::models {
class RequestLogModel;
}

namespace proofdesk::ui {

// Where the services are, as the console shows them.
struct ServerEndpoints {
    QString requestUrl;
    QString proofUrl;
    QString authUrl;
    QString dataDir;
};

// The console's main window. So far: the local server page (endpoints and live request log);
// the proof, request, bucket and key pages plug into the navigation list.
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(const ServerEndpoints& endpoints, models::RequestLogModel* requestLog,
               QWidget* parent = nullptr);
};

} // namespace proofdesk::ui
