#pragma once

#include <QString>

class QLabel;

namespace proofdesk::ui {

// The pieces every console page starts with: its title, and the non-modal banner in which it
// reports what went wrong (hidden until then).
QLabel* pageTitle(const QString& text);
QLabel* errorBanner(const QString& objectName);

} // namespace proofdesk::ui
