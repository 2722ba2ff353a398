#include "ui/mainwindow.h"

#include "core/hfconfig.h"
#include "core/presets.h"
#include "core/report.h"
#include "core/scenariofile.h"
#include "io/atomicfile.h"
#include "io/hubclient.h"
#include "ui/assumptionsdialog.h"
#include "ui/chartpanel.h"
#include "ui/controlpanel.h"
#include "ui/customgpudialog.h"
#include "ui/documenthistory.h"
#include "ui/explanationpanel.h"
#include "ui/exporter.h"
#include "ui/language.h"
#include "ui/ledgermodel.h"
#include "ui/memorychart.h"
#include "ui/settings.h"
#include "ui/steptimelineview.h"
#include "ui/structurediagram.h"
#include "ui/sweepview.h"
#include "ui/userpresets.h"
#include "ui/verdictbar.h"

#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDir>
#include <QDragEnterEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressDialog>
#include <QScreen>
#include <QScrollArea>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <array>
#include <utility>

namespace vl {

std::optional<View> parseView(const QString &text)
{
    if (text == QLatin1String("chart"))
        return View::Chart;
    if (text == QLatin1String("diagram"))
        return View::Diagram;
    if (text == QLatin1String("timeline"))
        return View::Timeline;
    if (text == QLatin1String("sweep"))
        return View::Sweep;
    if (text == QLatin1String("all"))
        return View::All;
    return std::nullopt;
}

MainWindow::MainWindow(LedgerModel &model, Language &language, QWidget *parent)
    : QMainWindow(parent), m_model(model), m_language(language), m_controls(new ControlPanel(model, this)),
      m_history(new DocumentHistory(
          model, [this](std::string_view field) { return m_controls->fieldLabel(field); }, this)),
      m_controlsScroll(new QScrollArea(this)), m_verdict(new VerdictBar(this)), m_verdictScroll(new QScrollArea(this)),
      m_tabs(new QTabWidget(this)), m_chartPanel(new ChartPanel(model, this)), m_diagram(new StructureDiagram(this)),
      m_timeline(new StepTimelineView(this)), m_sweep(new SweepView(this)), m_explanation(new ExplanationPanel(this)),
      m_centerSplitter(new QSplitter(Qt::Vertical, this)), m_center(new QWidget(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setWindowIcon(QIcon(QStringLiteral(":/icons/vram-ledger.svg")));

    m_controlsScroll->setWidget(m_controls);
    m_controlsScroll->setWidgetResizable(true);
    m_controlsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_controlsScroll->setMinimumWidth(m_controls->minimumSizeHint().width() + 24);

    m_tabs->addTab(m_chartPanel, QString());
    m_tabs->addTab(m_diagram, QString());
    m_tabs->addTab(m_timeline, QString());
    m_tabs->addTab(m_sweep, QString());
    m_centerSplitter->addWidget(m_tabs);
    m_centerSplitter->addWidget(m_explanation);
    m_centerSplitter->setStretchFactor(0, 3);
    m_centerSplitter->setStretchFactor(1, 2);
    auto *centerLayout = new QVBoxLayout(m_center);
    centerLayout->setContentsMargins(0, 0, 0, 0);
    m_verdictScroll->setWidget(m_verdict);
    m_verdictScroll->setWidgetResizable(true);
    m_verdictScroll->setFrameShape(QFrame::NoFrame);
    m_verdictScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    connect(m_verdict, &VerdictBar::heightChanged, this, &MainWindow::fitVerdictScroll);
    fitVerdictScroll();
    centerLayout->addWidget(m_verdictScroll);
    centerLayout->addWidget(m_centerSplitter, 1);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_controlsScroll);
    split->addWidget(m_center);
    split->setStretchFactor(1, 1);
    split->setCollapsible(1, false);
    split->setSizes({m_controlsScroll->minimumWidth(), 1000}); // the views get the room
    setCentralWidget(split);

    // Hovering a component anywhere highlights it everywhere.
    auto highlight = [this](std::optional<Component> c) {
        m_chartPanel->chart()->highlight(c);
        m_diagram->highlight(c);
    };
    connect(m_chartPanel->chart(), &MemoryChart::componentHovered, this, highlight);
    connect(m_diagram, &StructureDiagram::componentHovered, this, highlight);
    // One moment of the step for both: the timeline's cursor, shown by the diagram as what is
    // alive then; the diagram's keys play and step the same cursor.
    connect(m_timeline, &StepTimelineView::cursorChanged, m_diagram, [this](int point) {
        m_diagram->showMoment(point > 0 || m_timeline->playing() ? std::optional<int>(point) : std::nullopt);
    });
    connect(m_diagram, &StructureDiagram::playRequested, m_timeline, &StepTimelineView::togglePlay);
    connect(m_diagram, &StructureDiagram::stepRequested, m_timeline,
            [this](int delta) { m_timeline->setCursor(m_timeline->cursor() + delta); });
    connect(m_explanation, &ExplanationPanel::componentHovered, this, highlight);
    connect(m_controls, &ControlPanel::importConfigRequested, this, &MainWindow::importConfigDialog);
    connect(m_controls, &ControlPanel::hubImportRequested, this, &MainWindow::importFromHubDialog);
    connect(m_controls, &ControlPanel::customGpuRequested, this, &MainWindow::addCustomGpu);
    connect(m_controls, &ControlPanel::editRefused, this,
            [this](const QString &why) { statusBar()->showMessage(why, 8000); });
    connect(&m_model, &LedgerModel::changed, this, &MainWindow::refresh);
    m_explanationTimer.setSingleShot(true);
    m_explanationTimer.setInterval(60);
    connect(&m_explanationTimer, &QTimer::timeout, this, [this] {
        if (!std::exchange(m_explanationStale, false))
            return;
        m_explanation->showAnalysis(m_model.shown());
        m_explanationTimer.start();
    });

    createMenus();
    retranslate();
    m_controls->setAdvancedVisible(Settings::advancedShown());
    // Preset files that failed to load: named in the status bar, every one in its tooltip.
    const auto &skipped = m_model.catalog().skipped;
    if (!skipped.empty()) {
        QStringList all;
        for (const Error &e : skipped)
            all << QString::fromStdString(e.describe());
        auto *notice = new QLabel(tr("%n preset file(s) skipped: %1", nullptr, int(skipped.size())).arg(all.front()),
                                  this);
        notice->setToolTip(all.join(QLatin1Char('\n')));
        statusBar()->addWidget(notice, 1);
    }
}

void MainWindow::refresh()
{
    // An opened or saved file with edits since: the title's [*] (an untitled session is kept
    // in the settings and restored, so it never asks).
    setWindowModified(!m_path.isEmpty() && !(m_model.document() == m_saved));
    const ShownPtr shown = m_model.shown(); // one for every view
    m_verdict->showAnalysis(shown);
    m_diagram->showAnalysis(shown);
    m_timeline->showAnalysis(shown);
    m_sweep->showAnalysis(shown);
    // The pictures follow every slider tick. The long formula text follows the first change at
    // once, then at most every 60 ms while a slider keeps moving, and always ends on the last
    // state (shaping all that text takes longer than a frame).
    if (m_explanationTimer.isActive()) {
        m_explanationStale = true;
    } else {
        m_explanation->showAnalysis(shown);
        m_explanationTimer.start();
    }
}

void MainWindow::setPath(const QString &path)
{
    m_path = path;
    m_saved = m_model.document();
    m_history->stack()->setClean(); // no edit after it merges into the one before
    setWindowFilePath(path);
    setWindowModified(false);
    updateTitle();
}

void MainWindow::updateTitle()
{
    const QString file = m_path.isEmpty() ? tr("Untitled") : QFileInfo(m_path).fileName();
    setWindowTitle(tr("%1[*] — VRAM Ledger").arg(file));
}

bool MainWindow::maybeSave()
{
    if (!isWindowModified())
        return true;
    const auto answer = QMessageBox::question(
        this, tr("VRAM Ledger"), tr("%1 has changes that are not saved. Save them?").arg(QFileInfo(m_path).fileName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

void MainWindow::settle()
{
    m_explanationTimer.stop();
    m_explanationStale = false;
    m_explanation->showAnalysis(m_model.shown());
}

void MainWindow::createMenus()
{
    auto action = [this](QMenu *menu, std::function<QString()> text, QKeySequence shortcut, auto slot) {
        QAction *a = menu->addAction(QString());
        a->setShortcut(shortcut);
        connect(a, &QAction::triggered, this, slot);
        m_texts.push_back([a, text] { a->setText(text()); });
        return a;
    };
    auto menu = [this](QMenu *parent, std::function<QString()> title) {
        QMenu *m = parent ? parent->addMenu(QString()) : menuBar()->addMenu(QString());
        m_texts.push_back([m, title] { m->setTitle(title()); });
        return m;
    };

    QMenu *file = menu(nullptr, [] { return tr("&File"); });
    action(
        file, [] { return tr("&New"); }, QKeySequence::New, [this] { newScenario(); });
    action(
        file, [] { return tr("&Open…"); }, QKeySequence::Open, [this] { openDialog(); });
    QMenu *recent = menu(file, [] { return tr("Open &Recent"); });
    connect(recent, &QMenu::aboutToShow, this, [this, recent] {
        recent->clear();
        for (const QString &path : Settings::recentFiles())
            connect(recent->addAction(QDir::toNativeSeparators(path)), &QAction::triggered, this, [this, path] {
                if (maybeSave())
                    reportError(openFile(path));
            });
        recent->addSeparator();
        QAction *clear = recent->addAction(tr("Clear the list"));
        clear->setEnabled(!Settings::recentFiles().isEmpty());
        connect(clear, &QAction::triggered, this, [] { Settings::clearRecentFiles(); });
    });
    action(
        file, [] { return tr("&Save"); }, QKeySequence::Save, [this] { save(); });
    action(
        file, [] { return tr("Save &As…"); }, QKeySequence::SaveAs, [this] { saveAs(); });
    file->addSeparator();
    action(
        file, [] { return tr("&Import config.json…"); }, QKeySequence(tr("Ctrl+I")), [this] { importConfigDialog(); });
    action(
        file, [] { return tr("From &Hugging Face…"); }, QKeySequence(tr("Ctrl+Shift+I")),
        [this] { importFromHubDialog(); });
    action(
        file, [] { return tr("&Export view…"); }, QKeySequence(tr("Ctrl+E")), [this] { exportDialog(); });
    action(
        file, [] { return tr("Copy view as &image"); }, QKeySequence(tr("Ctrl+Shift+C")), [this] { copyImage(); });
    action(
        file, [] { return tr("Copy breakdown as &Markdown"); }, QKeySequence(), [this] { copyBreakdown(false); });
    action(
        file, [] { return tr("Copy breakdown as &CSV"); }, QKeySequence(), [this] { copyBreakdown(true); });
    file->addSeparator();
    action(
        file, [] { return tr("&Quit"); }, QKeySequence::Quit, [this] { close(); });

    // Undo and redo name the step they take back ("Undo Sequence length").
    QMenu *edit = menu(nullptr, [] { return tr("&Edit"); });
    QUndoStack *history = m_history->stack();
    const auto undoText = [history] {
        return history->undoText().isEmpty() ? tr("&Undo") : tr("&Undo %1").arg(history->undoText());
    };
    const auto redoText = [history] {
        return history->redoText().isEmpty() ? tr("&Redo") : tr("&Redo %1").arg(history->redoText());
    };
    QAction *undo = action(edit, undoText, QKeySequence::Undo, [history] { history->undo(); });
    QAction *redo = action(edit, redoText, QKeySequence::Redo, [history] { history->redo(); });
    // Every binding the platform has, not only the first (Ctrl+Shift+Z and Ctrl+Y redo on Linux).
    undo->setShortcuts(QKeySequence::Undo);
    redo->setShortcuts(QKeySequence::Redo);
    undo->setEnabled(false);
    redo->setEnabled(false);
    connect(history, &QUndoStack::canUndoChanged, undo, &QAction::setEnabled);
    connect(history, &QUndoStack::canRedoChanged, redo, &QAction::setEnabled);
    connect(history, &QUndoStack::undoTextChanged, undo, [undo, undoText] { undo->setText(undoText()); });
    connect(history, &QUndoStack::redoTextChanged, redo, [redo, redoText] { redo->setText(redoText()); });

    QMenu *view = menu(nullptr, [] { return tr("&View"); });
    QAction *present = action(
        view, [] { return tr("&Presentation mode"); }, QKeySequence(Qt::Key_F11),
        [this] { setPresentationMode(!m_presenting); });
    present->setCheckable(true);
    // The four views by number, as their tabs stand.
    const std::array<std::pair<View, std::function<QString()>>, 4> views{{
        {View::Chart, [] { return tr("&Chart"); }},
        {View::Diagram, [] { return tr("&Structure"); }},
        {View::Timeline, [] { return tr("Step &timeline"); }},
        {View::Sweep, [] { return tr("S&weep"); }},
    }};
    view->addSeparator();
    for (int i = 0; i < int(views.size()); ++i) {
        const View shown = views[std::size_t(i)].first;
        action(view, views[std::size_t(i)].second, QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)),
               [this, shown] { showView(shown); });
    }
    view->addSeparator();
    action(
        view, [] { return tr("Zoom &in"); }, QKeySequence::ZoomIn, [this] { setZoom(m_zoom * 1.25); });
    action(
        view, [] { return tr("Zoom &out"); }, QKeySequence::ZoomOut, [this] { setZoom(m_zoom / 1.25); });
    action(
        view, [] { return tr("&Reset zoom"); }, QKeySequence(tr("Ctrl+0")), [this] { setZoom(1.0); });
    view->addSeparator();
    QAction *advanced = action(
        view, [] { return tr("Show &advanced controls"); }, QKeySequence(),
        [this](bool on) {
            m_controls->setAdvancedVisible(on);
            Settings::setAdvancedShown(on);
        });
    advanced->setCheckable(true);
    advanced->setChecked(Settings::advancedShown());
    QMenu *theme = menu(view, [] { return tr("&Theme"); });
    auto *themes = new QActionGroup(this);
    for (Theme t : {Theme::Light, Theme::Dark}) {
        QAction *a = action(
            theme, [t] { return t == Theme::Light ? tr("&Light") : tr("&Dark"); }, QKeySequence(),
            [this, t] { setTheme(t); });
        a->setCheckable(true);
        a->setChecked(Settings::theme() == t);
        themes->addAction(a);
    }
    QMenu *languageMenu = menu(view, [] { return tr("&Language"); });
    auto *languages = new QActionGroup(this);
    const QList<std::pair<QString, std::function<QString()>>> names{
        {QString(), [] { return tr("System default"); }},
        {QStringLiteral("en"), [] { return QStringLiteral("English"); }},
        {QStringLiteral("zh_CN"), [] { return QStringLiteral("简体中文"); }}};
    for (const auto &[code, name] : names) {
        QAction *a = action(languageMenu, name, QKeySequence(), [this, code = code] {
            m_language.apply(code);
            Settings::setLanguage(code);
        });
        a->setCheckable(true);
        a->setChecked(Settings::language() == code);
        languages->addAction(a);
    }

    QMenu *help = menu(nullptr, [] { return tr("&Help"); });
    action(
        help, [] { return tr("&Assumptions and sources"); }, QKeySequence::HelpContents,
        [this] { AssumptionsDialog(m_model.scenario(), m_model.analysis().breakdown, m_model.units(), this).exec(); });
    action(
        help, [] { return tr("&About VRAM Ledger"); }, QKeySequence(),
        [this] {
            QMessageBox::about(
                this, tr("About VRAM Ledger"),
                tr("<h3>VRAM Ledger %1</h3><p>How much GPU memory a training run takes, where it goes, "
                   "and what to change when it does not fit.</p><p>Parameters, gradients, optimizer states "
                   "and activations, each item with its formula.</p>")
                    .arg(QStringLiteral(VL_VERSION)));
        });
}

void MainWindow::retranslate()
{
    m_history->retranslate();
    for (const auto &setText : m_texts)
        setText();
    m_tabs->setTabText(0, tr("Chart"));
    m_tabs->setTabText(1, tr("Structure"));
    m_tabs->setTabText(2, tr("Step timeline"));
    m_tabs->setTabToolTip(0, tr("Stacked bars of the four components against your GPUs' capacities."));
    m_tabs->setTabToolTip(
        1, tr("One GPU's memory as blocks proportional to their bytes, and the flow of a training step."));
    m_tabs->setTabToolTip(2, tr("Memory in use through one step: the peak, not the sum, decides whether it fits."));
    m_tabs->setTabText(3, tr("Sweep"));
    m_tabs->setTabToolTip(3,
                          tr("Memory against batch, sequence, GPU count or hidden size, and where it stops fitting."));
    updateTitle();
    refresh();
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QMainWindow::changeEvent(event);
}

QWidget *MainWindow::viewWidget(View view) const
{
    switch (view) {
    case View::Chart: return m_chartPanel->chart();
    case View::Diagram: return m_diagram;
    case View::Timeline: return m_timeline->plot(); // without the walk-through controls
    case View::Sweep: return m_sweep;
    case View::All: return m_center;
    }
    return m_center;
}

QString MainWindow::exportView(View view, const QString &path, double scale)
{
    if (view != View::All)
        return exportWidget(viewWidget(view), path, scale);
    // The four views, then the explanation: every item with its formula, and the levers.
    const QList<View> views{View::Chart, View::Diagram, View::Timeline, View::Sweep};
    QList<QWidget *> widgets;
    for (View v : views)
        widgets << viewWidget(v);
    widgets << m_explanation;
    return exportWidgets(
        widgets,
        [this, views, widgets](QWidget *widget) {
            if (const qsizetype i = widgets.indexOf(widget); i < views.size())
                showView(views[i]); // a view is laid out and drawn only on its own tab
            settle();
            QApplication::processEvents();
        },
        path, scale);
}

void MainWindow::showView(View view)
{
    if (view == View::Diagram)
        m_tabs->setCurrentWidget(m_diagram);
    else if (view == View::Timeline)
        m_tabs->setCurrentWidget(m_timeline);
    else if (view == View::Sweep)
        m_tabs->setCurrentWidget(m_sweep);
    else
        m_tabs->setCurrentWidget(m_chartPanel);
}

void MainWindow::setTheme(Theme theme)
{
    applyTheme(*qApp, theme);
    Settings::setTheme(theme);
}

void MainWindow::setZoom(double zoom)
{
    m_zoom = std::clamp(zoom, 0.5, 4.0);
    m_chartPanel->chart()->setZoom(m_zoom);
    m_diagram->setZoom(m_zoom);
    m_timeline->setZoom(m_zoom);
    m_sweep->setZoom(m_zoom);
}

// The verdict shows up to seven rows whole (the summary and three GPUs' lines broken in two), as
// tall as it needs; more GPUs scroll within that height instead of pushing the window past the
// screen.
void MainWindow::fitVerdictScroll()
{
    constexpr int kRowsShown = 7;
    const int most = m_verdict->heightForRows(kRowsShown);
    m_verdictScroll->setFixedHeight(std::min(m_verdict->height(), most));
}

void MainWindow::setPresentationMode(bool on, bool fullScreen)
{
    m_presenting = on;
    m_controls->setPresenting(on);
    m_explanation->setVisible(!on);
    QFont large = QApplication::font();
    if (on)
        large.setPointSizeF(large.pointSizeF() * 1.6);
    m_controls->setFont(large); // the five sliders readable from the back of the room
    QFont verdict = large;
    if (on)
        verdict.setPointSizeF(QApplication::font().pointSizeF() * 1.8); // the answer, larger still
    m_verdict->setFont(verdict);
    fitVerdictScroll();
    // Long sliders beside the chart, so a small move shows from the back of the room.
    m_controlsScroll->setMinimumWidth(on ? std::max(m_controls->minimumSizeHint().width() + 24, width() / 4)
                                         : m_controls->minimumSizeHint().width() + 24);
    setZoom(on ? 1.6 : 1.0);
    if (!fullScreen)
        return;
    if (on)
        showFullScreen();
    else
        showNormal();
}

void MainWindow::newScenario()
{
    if (!maybeSave())
        return;
    // What a first launch shows, as one step: Ctrl+Z brings back what was there, saved or not.
    m_history->replaceDocument(articleExampleDocument(), QT_TRANSLATE_NOOP("vl::DocumentHistory", "New scenario"));
    setPath(QString());
}

void MainWindow::restoreSession()
{
    if (!restoreGeometry(Settings::windowGeometry())) {
        // First launch: most of the screen, up to a size where every view has room.
        const QRect available = screen()->availableGeometry();
        resize(QSize(1600, 1000).boundedTo(available.size() * 0.9));
        move(available.center() - rect().center());
    }
    const QString last = Settings::lastScenario();
    if (last.isEmpty())
        return;
    auto doc = parseScenarioDocument(last.toStdString(), "settings");
    if (doc)
        m_model.setDocument(std::move(doc).value());
    m_history->restart();
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (!maybeSave()) {
        event->ignore();
        return;
    }
    Settings::setWindowGeometry(saveGeometry());
    Settings::setLastScenario(QString::fromStdString(scenarioDocumentToYaml(m_model.document())));
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    for (const QUrl &url : event->mimeData()->urls())
        if (url.isLocalFile()
            && (url.toLocalFile().endsWith(QLatin1String(".json"), Qt::CaseInsensitive) || maybeSave()))
            reportError(openFile(url.toLocalFile()));
}

void MainWindow::reportError(const QString &message)
{
    if (!message.isEmpty())
        QMessageBox::warning(this, tr("VRAM Ledger"), message);
}

void MainWindow::reportError(const std::optional<Error> &error)
{
    if (error)
        reportError(QString::fromStdString(error->describe()));
}

std::optional<Error> MainWindow::openFile(const QString &path, Import import)
{
    if (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
        return importConfig(path, import);
    const auto text = readTextFile(path.toStdString());
    if (!text)
        return text.error();
    auto doc = parseScenarioDocument(*text, path.toStdString());
    if (!doc)
        return doc.error();
    Settings::setLastDirectory(QFileInfo(path).absolutePath());
    const QStringList unknown = m_model.setDocument(std::move(doc).value());
    m_history->restart();               // a file opened is where its history starts
    setPath(path);                      // after the document: it is what the file holds
    if (import == Import::SaveAsPreset) // a headless run leaves the user's settings alone
        Settings::addRecentFile(QFileInfo(path).absoluteFilePath());
    if (!unknown.isEmpty())
        statusBar()->showMessage(
            tr("Not among the GPU presets here, left out: %1").arg(unknown.join(QStringLiteral(", "))), 10000);
    return std::nullopt;
}

std::optional<Error> MainWindow::importConfig(const QString &path, Import import)
{
    const auto text = readTextFile(path.toStdString());
    if (!text)
        return text.error();
    return importConfigText(*text, path, import);
}

std::optional<Error> MainWindow::importConfigText(const std::string &text, const QString &origin, Import import,
                                                  std::int64_t publishedParams)
{
    auto model = importHfConfig(text, origin.toStdString());
    if (!model)
        return model.error();
    ModelPreset preset = std::move(model).value();
    if (publishedParams > 0)
        preset.publishedParams = publishedParams;
    if (import == Import::ForThisRunOnly) {
        m_model.addModel(std::move(preset));
        return std::nullopt;
    }
    // Save it as the user's own preset, next to the built-ins, without replacing an existing file.
    QString target;
    if (const QString error = saveUserModel(preset, &target); !error.isEmpty())
        return Error{"", error.toStdString(), {}, 0, ErrorKind::Io};
    preset.file = target.toStdString();
    m_model.addModel(std::move(preset));
    statusBar()->showMessage(tr("Imported %1 as your preset %2").arg(QFileInfo(origin).fileName(), target), 8000);
    return std::nullopt;
}

QString MainWindow::saveScenario(const QString &path)
{
    // Atomic: a crash or a full disk mid-save never destroys the previous file.
    if (QString error = writeAtomically(path, QByteArray::fromStdString(scenarioDocumentToYaml(m_model.document())));
        !error.isEmpty())
        return error;
    setPath(path);
    Settings::addRecentFile(QFileInfo(path).absoluteFilePath());
    return {};
}

void MainWindow::openDialog()
{
    if (!maybeSave())
        return;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open scenario or config.json"), Settings::lastDirectory(),
        tr("Scenarios and model configs (*.vramledger.yaml *.yaml *.yml *.json);;All files (*)"));
    if (!path.isEmpty())
        reportError(openFile(path));
}

bool MainWindow::save()
{
    if (m_path.isEmpty()) {
        saveAs();
        return !m_path.isEmpty();
    }
    const QString error = saveScenario(m_path);
    reportError(error);
    return error.isEmpty();
}

void MainWindow::saveAs()
{
    QString path = QFileDialog::getSaveFileName(this, tr("Save scenario"),
                                                Settings::lastDirectory() + QStringLiteral("/scenario.vramledger.yaml"),
                                                tr("VRAM Ledger scenarios (*.vramledger.yaml)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QLatin1String(".yaml")))
        path += QStringLiteral(".vramledger.yaml");
    Settings::setLastDirectory(QFileInfo(path).absolutePath());
    reportError(saveScenario(path));
}

void MainWindow::addCustomGpu()
{
    CustomGpuDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    GpuPreset gpu = dialog.gpu();
    if (const QString error = saveUserGpu(gpu); !error.isEmpty()) {
        reportError(error);
        return;
    }
    m_model.addGpu(std::move(gpu));
}

void MainWindow::importConfigDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Import a Hugging Face config.json"),
                                                      Settings::lastDirectory(), tr("Model configs (*.json)"));
    if (!path.isEmpty())
        reportError(importConfig(path));
}

void MainWindow::importFromHubDialog()
{
    bool ok = false;
    const QString id = QInputDialog::getItem(
                           this, tr("From Hugging Face"),
                           tr("Model id on the Hub, e.g. meta-llama/Llama-3.1-8B or Qwen/Qwen2.5-7B@main:"),
                           Settings::recentHubModels(), 0, true, &ok)
                           .trimmed();
    if (!ok || id.isEmpty())
        return;
    const auto ref = parseHubModelRef(id.toStdString());
    if (!ref) {
        reportError(QString::fromStdString(ref.error().message));
        return;
    }
    importFromHub(*ref, [this](const QString &error, const QStringList &notes) {
        if (!error.isEmpty())
            reportError(error);
        else if (!notes.isEmpty())
            QMessageBox::information(this, tr("From Hugging Face"), notes.join(QLatin1Char('\n')));
    });
}

void MainWindow::importFromHub(const HubModelRef &ref, std::function<void(const QString &, const QStringList &)> done)
{
    // Fetched in the background: the window stays live, the progress can be cancelled.
    const QString id = QString::fromStdString(ref.text());
    auto *client = new HubClient(hubAccessFromEnvironment(), this);
    auto *progress = new QProgressDialog(tr("Fetching %1 from the Hugging Face Hub…").arg(id), tr("Cancel"), 0, 0,
                                         this);
    progress->setWindowModality(Qt::NonModal);
    progress->setMinimumDuration(300);
    connect(progress, &QProgressDialog::canceled, client, &HubClient::cancel);
    connect(client, &HubClient::progress, progress, [progress](qint64 received, qint64 total) {
        progress->setMaximum(total > 0 ? int(total) : 0);
        progress->setValue(int(received));
    });
    connect(client, &HubClient::finished, this, [this, client, progress, id, done](const HubResult &result) {
        progress->deleteLater();
        client->deleteLater();
        if (result.failure == HubFailure::Cancelled)
            return;
        if (!result.ok()) {
            done(result.message, {});
            return;
        }
        Settings::addRecentHubModel(id);
        const std::int64_t published = result.publishedParams.value_or(0);
        if (const auto error = importConfigText(result.config.toStdString(), id, Import::SaveAsPreset, published)) {
            done(QString::fromStdString(error->describe()), {});
            return;
        }
        // What the user should know beside the import: a cached copy used, a count that differs.
        QStringList notes;
        if (!result.message.isEmpty())
            notes << result.message;
        const std::int64_t counted = totalParameters(m_model.scenario().arch);
        if (published > 0 && published != counted)
            notes << tr("the Hub publishes %1 parameters for %2; its config counts %3")
                         .arg(published)
                         .arg(id)
                         .arg(counted);
        done({}, notes);
    });
    client->fetch(ref);
}

void MainWindow::exportDialog()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export view"), Settings::lastDirectory() + QStringLiteral("/vram-ledger.png"),
        tr("PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    if (path.isEmpty())
        return;
    QWidget *current = m_tabs->currentWidget() == m_chartPanel ? static_cast<QWidget *>(m_chartPanel->chart())
                                                               : m_tabs->currentWidget();
    reportError(exportWidget(current, path, 2.0));
}

void MainWindow::copyImage()
{
    QWidget *current = m_tabs->currentWidget() == m_chartPanel ? static_cast<QWidget *>(m_chartPanel->chart())
                                                               : m_tabs->currentWidget();
    QApplication::clipboard()->setImage(renderImage(current, 2.0));
    statusBar()->showMessage(tr("Copied the view as an image"), 4000);
}

void MainWindow::copyBreakdown(bool csv)
{
    const Report report = makeReport(m_model.scenario(), m_model.units(),
                                     m_model.selectedGpus().empty() ? std::nullopt
                                                                    : std::optional(m_model.selectedGpus().front()));
    QApplication::clipboard()->setText(
        QString::fromStdString(renderReport(report, csv ? Format::Csv : Format::Markdown)));
    statusBar()->showMessage(csv ? tr("Copied the breakdown as CSV") : tr("Copied the breakdown as Markdown"), 4000);
}

} // namespace vl
