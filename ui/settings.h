#pragma once
// The one typed layer over QSettings: each key and its default live here and nowhere else.

#include "core/analysis.h"
#include "core/units.h"
#include "ui/theme.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace vl {

class Settings {
public:
    static QByteArray windowGeometry();
    static void setWindowGeometry(const QByteArray &geometry);
    static QByteArray windowState();
    static void setWindowState(const QByteArray &state);

    // The last scenario as scenario-file YAML; empty on first launch.
    static QString lastScenario();
    static void setLastScenario(const QString &yaml);

    static Units units();
    static void setUnits(Units units);
    static Theme theme();
    static void setTheme(Theme theme);
    static QString language(); // "" follows the system locale; "en" or "zh_CN"
    static void setLanguage(const QString &language);
    static FitRule fitRule();
    static void setFitRule(FitRule rule);
    static BarSet barSet();
    static void setBarSet(BarSet bars);
    static bool advancedShown();
    static void setAdvancedShown(bool shown);
    static QString lastDirectory();
    static void setLastDirectory(const QString &directory);
    // Scenario files opened or saved, newest first.
    static QStringList recentFiles();
    static void addRecentFile(const QString &path);
    static void clearRecentFiles();
    // Hugging Face model ids fetched before, newest first (ids only: a token is never stored).
    static QStringList recentHubModels();
    static void addRecentHubModel(const QString &id);
};

} // namespace vl
