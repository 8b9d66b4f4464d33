#include "PageParts.h"

#include <QLabel>

namespace proofdesk::ui {

QLabel* pageTitle(const QString& text) {
    auto* title = new QLabel(text);
    QFont font = title->font();
    font.setPointSizeF(font.pointSizeF() * 1.4);
    font.setBold(true);
    title->setFont(font);
    return title;
}

QLabel* errorBanner(const QString& objectName) {
    auto* banner = new QLabel;
    banner->setObjectName(objectName);
    banner->setWordWrap(true);
    banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    banner->setStyleSheet(QStringLiteral("QLabel { background: #fde2e1; color: #7a1c1c; "
                                         "padding: 6px; border-radius: 4px; }"));
    banner->hide();
    return banner;
}

} // namespace proofdesk::ui
