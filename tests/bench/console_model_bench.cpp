// The console's live table with 100,000 proof queries (issue #5): how long the first load, a
// full model reset, a typical poll (100 new queries on top, 1,000 changed) and scrolling the view
// take. Run by hand (Release build):
//   QT_QPA_PLATFORM=offscreen build-rel/tests/console_model_bench [--rows N]
#include "models/ProofQueryModel.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>

#include <cstdio>
#include <cstring>

using namespace proofdesk;

namespace {

api::ProofQuery query(int i, const char* status) {
    api::ProofQuery q;
    q.id = "01JD" + std::to_string(1000000 + i);
    q.status = status;
    q.step = "PROOF_GENERATION";
    q.result = "PROOF_GENERATION";
    q.jobSize = std::string(1, 'S'); // (a literal trips GCC 12 -Wrestrict in Release)
    q.createdAt = "2026-11-23T10:00:00.000Z";
    q.sharpFactHash = "0x" + std::string(64, static_cast<char>('a' + i % 6));
    return q;
}

double ms(const QElapsedTimer& timer) {
    return static_cast<double>(timer.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    int rows = 100000;
    for (int i = 1; i + 1 < argc; ++i) {
        if (std::strcmp(argv[i], "--rows") == 0) {
            rows = std::atoi(argv[i + 1]);
        }
    }
    std::vector<api::ProofQuery> page;
    page.reserve(static_cast<std::size_t>(rows) + 100);
    for (int i = rows - 1; i >= 0; --i) {
        page.push_back(query(i, "IN_PROGRESS"));
    }
    models::ProofQueryModel model;
    QTableView view;
    view.setModel(&model);
    view.verticalHeader()->hide();
    view.resize(1100, 700);
    view.show();
    QApplication::processEvents();

    QElapsedTimer timer;
    timer.start();
    model.update(page);
    view.viewport()->repaint();
    std::printf("first load of %d rows (insert + paint): %.1f ms\n", rows, ms(timer));

    // A full reset: the model emptied and refilled, as a profile switch does.
    timer.restart();
    model.update({});
    model.update(page);
    view.viewport()->repaint();
    std::printf("model reset (clear + %d rows + paint): %.1f ms\n", rows, ms(timer));

    // A typical poll: 100 new queries on top, 1,000 of the rest changed status.
    std::vector<api::ProofQuery> next;
    next.reserve(page.size() + 100);
    for (int i = rows + 99; i >= rows; --i) {
        next.push_back(query(i, "RECEIVED"));
    }
    for (std::size_t i = 0; i < page.size(); ++i) {
        next.push_back(page[i]);
        if (i % 100 == 0) {
            next.back().status = "DONE";
        }
    }
    timer.restart();
    model.update(next);
    view.viewport()->repaint();
    std::printf("incremental poll (100 new, 1000 changed of %d): %.1f ms\n", rows, ms(timer));

    // The same page again: nothing changes.
    timer.restart();
    model.update(next);
    std::printf("unchanged poll: %.1f ms\n", ms(timer));

    // Scroll from top to bottom in 200 steps, painting each.
    QScrollBar* bar = view.verticalScrollBar();
    const int steps = 200;
    timer.restart();
    double worst = 0;
    for (int step = 0; step <= steps; ++step) {
        QElapsedTimer one;
        one.start();
        bar->setValue(bar->maximum() * step / steps);
        view.viewport()->repaint();
        worst = std::max(worst, ms(one));
    }
    std::printf("scroll: %d painted steps, %.2f ms per step on average, worst %.2f ms\n", steps + 1,
                ms(timer) / (steps + 1), worst);
    return 0;
}
