#include "ui/settings.h"

#include <QSettings>
#include <QStandardPaths>

#include <array>
#include <utility>

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
// An enum kept by a stable name ("dark"), so that reordering an enum never changes what a
// user chose. Versions up to 0.1 kept the number; it is still read.
template <class Enum, std::size_t N>
struct EnumKey {
    const char *name;
    Enum fallback;
    std::array<std::pair<Enum, const char *>, N> names; // in the enum's order
    Enum get() const
    {
        const QString stored = QSettings().value(QLatin1String(name)).toString();
        for (const auto &[value, text] : names)
            if (stored == QLatin1String(text))
                return value;
        bool isNumber = false;
        const int legacy = stored.toInt(&isNumber);
        return isNumber && legacy >= 0 && legacy < int(N) ? names[std::size_t(legacy)].first : fallback;
    }
    void set(Enum value) const
    {
        for (const auto &[candidate, text] : names)
            if (candidate == value)
                QSettings().setValue(QLatin1String(name), QLatin1String(text));
    }
};

const EnumKey<Units, 2> kUnits{"display/units", Units::GiB, {{{Units::GiB, "GiB"}, {Units::GB, "GB"}}}};
const EnumKey<Theme, 2> kTheme{"display/theme", Theme::Light, {{{Theme::Light, "light"}, {Theme::Dark, "dark"}}}};
const Key<QString> kLanguage{"display/language", {}};
const EnumKey<FitRule, 2> kFitRule{
    "display/fitRule", kDefaultFitRule, {{{FitRule::Sum, "sum"}, {FitRule::Peak, "peak"}}}};
const EnumKey<BarSet, 4> kBarSet{"display/bars",
                                 BarSet::Pins,
                                 {{{BarSet::Pins, "pins"},
                                   {BarSet::GpuCounts, "gpu-counts"},
                                   {BarSet::ZeroStages, "zero-stages"},
                                   {BarSet::Ladder, "ladder"}}}};
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

} // namespace

QByteArray Settings::windowGeometry()
{
    return kGeometry.get();
}
void Settings::setWindowGeometry(const QByteArray &g)
{
    kGeometry.set(g);
}
QByteArray Settings::windowState()
{
    return kState.get();
}
void Settings::setWindowState(const QByteArray &s)
{
    kState.set(s);
}
QString Settings::lastScenario()
{
    return kScenario.get();
}
void Settings::setLastScenario(const QString &yaml)
{
    kScenario.set(yaml);
}
Units Settings::units()
{
    return kUnits.get();
}
void Settings::setUnits(Units units)
{
    kUnits.set(units);
}
Theme Settings::theme()
{
    return kTheme.get();
}
void Settings::setTheme(Theme theme)
{
    kTheme.set(theme);
}
QString Settings::language()
{
    return kLanguage.get();
}
void Settings::setLanguage(const QString &language)
{
    kLanguage.set(language);
}
FitRule Settings::fitRule()
{
    return kFitRule.get();
}
void Settings::setFitRule(FitRule rule)
{
    kFitRule.set(rule);
}
BarSet Settings::barSet()
{
    return kBarSet.get();
}
void Settings::setBarSet(BarSet bars)
{
    kBarSet.set(bars);
}
bool Settings::advancedShown()
{
    return kAdvanced.get();
}
void Settings::setAdvancedShown(bool shown)
{
    kAdvanced.set(shown);
}

QString Settings::lastDirectory()
{
    const QString dir = kDirectory.get();
    return dir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) : dir;
}

void Settings::setLastDirectory(const QString &directory)
{
    kDirectory.set(directory);
}

QStringList Settings::recentHubModels()
{
    return kRecentHubModels.get();
}

void Settings::addRecentHubModel(const QString &id)
{
    pushRecent(kRecentHubModels, id);
}

QStringList Settings::recentFiles()
{
    return kRecentFiles.get();
}
void Settings::addRecentFile(const QString &path)
{
    pushRecent(kRecentFiles, path);
}
void Settings::clearRecentFiles()
{
    kRecentFiles.set({});
}

} // namespace vl
