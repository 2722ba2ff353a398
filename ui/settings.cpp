#include "ui/settings.h"

#include <QSettings>
#include <QStandardPaths>

namespace vl {

namespace {

// A key with its default: the only place either is spelt.
template <class T>
struct Key {
    const char *name;
    T fallback;
    T get() const { return QSettings().value(QLatin1String(name), QVariant::fromValue(fallback)).template value<T>(); }
    void set(const T &value) const { QSettings().setValue(QLatin1String(name), QVariant::fromValue(value)); }
};

const Key<QByteArray> kGeometry{"window/geometry", {}};
const Key<QByteArray> kState{"window/state", {}};
const Key<QString> kScenario{"scenario/last", {}};
const Key<int> kUnits{"display/units", int(Units::GiB)};
const Key<int> kTheme{"display/theme", int(Theme::Light)};
const Key<QString> kLanguage{"display/language", {}};
const Key<int> kFitRule{"display/fitRule", int(FitRule::Sum)};
const Key<int> kBarSet{"display/bars", int(BarSet::Pins)};
const Key<bool> kAdvanced{"controls/advancedShown", true};
const Key<QString> kDirectory{"files/lastDirectory", {}};
const Key<QStringList> kRecentHubModels{"files/recentHubModels", {}};
const Key<QStringList> kRecentFiles{"files/recent", {}};
constexpr qsizetype kRecentCount = 10;

// `item` first, once, and at most kRecentCount in all.
void pushRecent(const Key<QStringList> &key, const QString &item)
{
    QStringList recent = key.get();
    recent.removeAll(item);
    recent.prepend(item);
    key.set(recent.mid(0, kRecentCount));
}

template <class Enum>
Enum clamped(int value, Enum last)
{
    return value >= 0 && value <= int(last) ? Enum(value) : Enum(0);
}

} // namespace

QByteArray Settings::windowGeometry() { return kGeometry.get(); }
void Settings::setWindowGeometry(const QByteArray &g) { kGeometry.set(g); }
QByteArray Settings::windowState() { return kState.get(); }
void Settings::setWindowState(const QByteArray &s) { kState.set(s); }
QString Settings::lastScenario() { return kScenario.get(); }
void Settings::setLastScenario(const QString &yaml) { kScenario.set(yaml); }
Units Settings::units() { return clamped(kUnits.get(), Units::GB); }
void Settings::setUnits(Units units) { kUnits.set(int(units)); }
Theme Settings::theme() { return clamped(kTheme.get(), Theme::Dark); }
void Settings::setTheme(Theme theme) { kTheme.set(int(theme)); }
QString Settings::language() { return kLanguage.get(); }
void Settings::setLanguage(const QString &language) { kLanguage.set(language); }
FitRule Settings::fitRule() { return clamped(kFitRule.get(), FitRule::Peak); }
void Settings::setFitRule(FitRule rule) { kFitRule.set(int(rule)); }
BarSet Settings::barSet() { return clamped(kBarSet.get(), BarSet::Ladder); }
void Settings::setBarSet(BarSet bars) { kBarSet.set(int(bars)); }
bool Settings::advancedShown() { return kAdvanced.get(); }
void Settings::setAdvancedShown(bool shown) { kAdvanced.set(shown); }

QString Settings::lastDirectory()
{
    const QString dir = kDirectory.get();
    return dir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) : dir;
}

void Settings::setLastDirectory(const QString &directory) { kDirectory.set(directory); }

QStringList Settings::recentHubModels() { return kRecentHubModels.get(); }

void Settings::addRecentHubModel(const QString &id) { pushRecent(kRecentHubModels, id); }

QStringList Settings::recentFiles() { return kRecentFiles.get(); }
void Settings::addRecentFile(const QString &path) { pushRecent(kRecentFiles, path); }
void Settings::clearRecentFiles() { kRecentFiles.set({}); }

} // namespace vl
