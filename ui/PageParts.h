#pragma once

#include <QString>

#include <functional>

class QLabel;
class QPushButton;
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
// A small button that puts text() on the clipboard and says so in its tooltip.
QPushButton* copyButton(const QString& objectName, std::function<QString()> text,
                        QWidget* parent = nullptr);

} // namespace proofdesk::ui
