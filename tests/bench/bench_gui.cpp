// GUI speed, off screen at 1920×1080: slider change → chart, diagram and timeline redrawn
// (median and p99), a burst of 100 changes (must collapse into one paint of the chart), and the
// application's start-up to a rendered frame with its peak resident memory.
// Prints one JSON object. Run a release build: build-release/bench/vl-bench-gui

#include "core/presets.h"
#include "ui/chartpanel.h"
#include "ui/controlpanel.h"
#include "ui/language.h"
#include "ui/ledgermodel.h"
#include "ui/mainwindow.h"
#include "ui/memorychart.h"
#include "ui/sliderspin.h"
#include "ui/steptimelineview.h"
#include "ui/structurediagram.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QProcess>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <qcustomplot.h>

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>
#include <map>
#include <QPaintEvent>

namespace {

double percentile(std::vector<double> v, double p)
{
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(p * double(v.size())))];
}

// One change: the model recomputes, every panel updates, then the event loop paints every
// visible window. A named function, so that a profiler can
// collect just this: valgrind --tool=callgrind --toggle-collect='*timeSliderChanges*'
[[gnu::noinline]] std::vector<double> timeSliderChanges(QSpinBox &slider, int changes)
{
    std::vector<double> latencies;
    latencies.reserve(std::size_t(changes));
    QElapsedTimer timer;
    for (int i = 0; i < changes; ++i) {
        timer.start();
        slider.setValue(1024 + 64 * (i % 64));
        QApplication::processEvents();
        latencies.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    return latencies;
}

struct PaintTimer : QObject {
    std::map<QString, std::pair<int, double>> stats;
    bool inside = false;
    bool eventFilter(QObject *o, QEvent *ev) override {
        if (ev->type() == QEvent::Paint && !inside) {
            QString key = QString::fromLatin1(o->metaObject()->className()) + QLatin1Char('/') + o->objectName();
            QElapsedTimer t; t.start();
            inside = true;
            o->event(ev);
            inside = false;
            auto &c = stats[key];
            c.first++; c.second += double(t.nsecsElapsed()) / 1e6;
            return true;
        }
        return false;
    }
};
// Counts the paint events a widget receives.
class PaintCounter : public QObject
{
public:
    explicit PaintCounter(QWidget *widget) { widget->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject *, QEvent *event) override
    {
        count += event->type() == QEvent::Paint;
        return false;
    }
};

} // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    const QCommandLineOption changesOption(QStringLiteral("changes"),
                                           QStringLiteral("Slider changes to time (fewer under a profiler)."),
                                           QStringLiteral("n"), QStringLiteral("2000"));
    parser.addOption(changesOption);
    parser.addHelpOption();
    parser.process(app);
    const int changes = std::max(1, parser.value(changesOption).toInt());
    QStandardPaths::setTestModeEnabled(true);
    vl::LedgerModel model(vl::loadCatalog(VL_SOURCE_PRESETS, {}));
    model.setModel(QStringLiteral("llama-3.1-8b"));
    model.setGpuIds({QStringLiteral("h100-sxm"), QStringLiteral("a100-80gb"), QStringLiteral("rtx-4090")});
    vl::Language language;
    std::unique_ptr<QWidget> diagram, timeline; // outlive the window that fed them
    vl::MainWindow window(model, language);
    window.resize(1920, 1080);
    window.show();
    QApplication::processEvents();

    PaintCounter chartPaints(window.chartPanel()->chart()->plot());
    QSpinBox *sequence = window.controls()->sequenceSlider()->spinBox();

    // The diagram and the timeline share the chart's tab page, where only one of them shows
    // at a time. To see all three redrawn by every change, as the issue asks, the other two
    // move into windows of their own, at the size of that page, and draw the way they do in
    // the application: through the event loop, and only when something changed.
    const QSize page = window.diagram()->parentWidget()->size();
    for (auto [view, owner] : {std::pair{static_cast<QWidget *>(window.diagram()), &diagram},
                               std::pair{static_cast<QWidget *>(window.timeline()), &timeline}}) {
        view->setParent(nullptr);
        owner->reset(view);
        view->resize(page);
        view->show();
    }
    QApplication::processEvents();
    PaintTimer counter;
    if (qEnvironmentVariableIsSet("PAINTTIMES")) app.installEventFilter(&counter);
    const std::vector<double> latencies = timeSliderChanges(*sequence, changes);
    app.removeEventFilter(&counter);
    double sum = 0;
    for (auto &[k, v] : counter.stats) { sum += v.second / changes; if (v.second / changes > 0.01) fprintf(stderr, "%-50s %5.2f per change %6.3f ms per change\n", qPrintable(k), double(v.first)/changes, v.second/changes); }
    fprintf(stderr, "paint events total %.3f ms per change\n", sum);

    chartPaints.count = 0;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 100; ++i)
        sequence->setValue(2048 + 64 * i);
    QApplication::processEvents();
    const double burstMs = double(timer.nsecsElapsed()) / 1e6;
    const int burstPaints = chartPaints.count;

    // Start-up: a fresh process that builds the window, renders it and exits.
    QTemporaryDir dir;
    QElapsedTimer startup;
    startup.start();
    QProcess process;
    process.start(QCoreApplication::applicationDirPath() + QStringLiteral("/../bin/vram-ledger"),
                  {QStringLiteral("--screenshot"), dir.filePath(QStringLiteral("s.png")), QStringLiteral("--size"),
                   QStringLiteral("1920x1080")});
    process.waitForFinished(60'000);
    const double startupMs = double(startup.nsecsElapsed()) / 1e6;
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);

    std::printf("{\n  \"slider_to_redrawn_median_ms\": %.3f,\n  \"slider_to_redrawn_p99_ms\": %.3f,\n"
                "  \"burst_of_100_changes_ms\": %.2f,\n  \"burst_of_100_changes_chart_paints\": %d,\n"
                "  \"startup_to_rendered_frame_ms\": %.1f,\n  \"startup_peak_rss_mb\": %.1f\n}\n",
                percentile(latencies, 0.5), percentile(latencies, 0.99), burstMs, burstPaints, startupMs,
                double(usage.ru_maxrss) / 1024.0);
    return process.exitCode();
}
