#pragma once
// The main window: panels composed around one LedgerModel, menus, files, and the headless
// screenshot and export used by scripts. The panels do the showing; core does the counting.

#include "core/hubref.h"
#include "core/result.h"
#include "core/scenariofile.h"
#include "ui/theme.h"

#include <QMainWindow>
#include <QTimer>

#include <functional>
#include <optional>
#include <vector>

class QTabWidget;
class QSplitter;
class QScrollArea;

namespace vl {

class ChartPanel;
class ControlPanel;
class DocumentHistory;
class ExplanationPanel;
class Language;
class LedgerModel;
class StepTimelineView;
class StructureDiagram;
class SweepView;
class VerdictBar;

enum class View { Chart, Diagram, Timeline, Sweep, All };
std::optional<View> parseView(const QString &text);

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    MainWindow(LedgerModel &model, Language &language, QWidget *parent = nullptr);

    // Opens a scenario file or imports a config.json; returns an error message, or empty.
    // What opening a config.json does with the model: keep it among the user's presets, or use it
    // for this run only (headless rendering must not change the user's state).
    enum class Import { SaveAsPreset, ForThisRunOnly };
    std::optional<Error> openFile(const QString &path, Import import = Import::SaveAsPreset);
    QString saveScenario(const QString &path);
    // Fetches a Hub model's config.json in the background and imports it as the user's preset;
    // `done` gets the error (empty on success) and what to tell beside a success.
    void importFromHub(const HubModelRef &ref,
                       std::function<void(const QString &error, const QStringList &notes)> done);
    QWidget *viewWidget(View view) const;
    // Writes a view, or all four and the explanation (a PDF page each, or one image with them
    // one below the other).
    QString exportView(View view, const QString &path, double scale);
    void showView(View view);
    void setTheme(Theme theme);
    void setPresentationMode(bool on, bool fullScreen = true);
    void setZoom(double zoom);
    void restoreSession(); // window geometry and the last scenario
    void newScenario();    // File -> New: the article's example, untitled
    void settle();         // applies updates held back while sliders move, before a capture

    ControlPanel *controls() const { return m_controls; }
    ChartPanel *chartPanel() const { return m_chartPanel; }
    StructureDiagram *diagram() const { return m_diagram; }
    StepTimelineView *timeline() const { return m_timeline; }
    SweepView *sweep() const { return m_sweep; }
    VerdictBar *verdict() const { return m_verdict; }
    ExplanationPanel *explanation() const { return m_explanation; }

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dropEvent(QDropEvent *event) override;

private:
    void createMenus();
    void retranslate();
    void refresh();
    void setPath(const QString &path); // the scenario file shown in the title
    void updateTitle();
    void openDialog();
    // With unsaved edits: asks to save them; false when the user cancels (or saving failed).
    bool maybeSave();
    void saveAs();
    bool save();
    void importConfigDialog();
    void importFromHubDialog();
    void addCustomGpu();
    std::optional<Error> importConfig(const QString &path, Import import = Import::SaveAsPreset);
    // A config.json's text from `origin` (a file's path, or a Hub id), saved as the user's preset.
    std::optional<Error> importConfigText(const std::string &text, const QString &origin, Import import,
                                          std::int64_t publishedParams = 0);
    void exportDialog();
    void copyImage();
    void copyBreakdown(bool csv);
    void reportError(const QString &message);
    void reportError(const std::optional<Error> &error);

    LedgerModel &m_model;
    Language &m_language;
    QString m_path;           // the scenario file being edited, if any
    ScenarioDocument m_saved; // the file's content as last opened or saved: edits since mark the window modified
    double m_zoom = 1.0;
    bool m_presenting = false;
    void fitVerdictScroll();

    ControlPanel *m_controls;
    DocumentHistory *m_history; // undo and redo, the Edit menu's
    QScrollArea *m_controlsScroll;
    VerdictBar *m_verdict;
    QScrollArea *m_verdictScroll; // the verdict's lines beyond a few scroll instead of growing the window
    QTabWidget *m_tabs;
    ChartPanel *m_chartPanel;
    StructureDiagram *m_diagram;
    StepTimelineView *m_timeline;
    SweepView *m_sweep;
    ExplanationPanel *m_explanation;
    QSplitter *m_centerSplitter;
    QTimer m_explanationTimer;
    bool m_explanationStale = false;
    QWidget *m_center;

    // Every menu and action text is set by one of these, run again on a language change.
    std::vector<std::function<void()>> m_texts;
};

} // namespace vl
