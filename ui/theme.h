#pragma once
// Colours and names of the memory components, the same in every view, and the light and
// dark palettes. Qt 6.4 has no colour-scheme API, so the theme is a manual switch.

#include "core/analysis.h"
#include "core/estimate.h"
#include "core/presets.h"
#include "core/timeline.h"

#include <QColor>
#include <QPalette>
#include <QString>

#include <cstdint>
#include <vector>

class QApplication;
class QFont;

namespace vl {

enum class Theme { Light, Dark };

// Okabe–Ito colours: distinguishable for colour-blind viewers, on light and dark backgrounds.
QColor componentColor(Component c);
QColor itemColor(ItemId id);    // a lighter or darker shade of its component's colour
QColor capacityColor();         // the target GPU's capacity line
QColor verdictColor(bool fits); // ✓ fits / ✗ does not fit, wherever a verdict is shown
// The solid colour a translucent one shows over a background. Filling large areas with it
// looks the same and rasterises several times faster (no blending with what is underneath).
QColor seenOver(const QColor &translucent, const QColor &background);
// Black or white, whichever reads on `fill` (a label inside a bar or a block).
QColor textOn(const QColor &fill);

QString componentName(Component c);
QString itemName(ItemId id);
QString leverName(Lever lever);
QString leverChange(const LadderStep &step); // "ZeRO stage 3 over 8 GPUs", translated
QString barLabel(const Bar &bar);            // "Current", a pin's name, "8 GPUs", "ZeRO 2", "+ recomputation"
// One point of the step in words: "backward, layer 12: 34.5 GiB in use (Parameters … · …)".
QString describePoint(const TimelinePoint &point, Units units);
// The formula text core wrote (English), with its words in the language installed when the
// localizer was made or last retranslated (a widget does so on QEvent::LanguageChange). It holds
// only the terms whose translation differs, so that in English a formula is shown as it is,
// without searching it for each of core's terms on every slider tick.
class FormulaLocalizer {
public:
    FormulaLocalizer();
    void retranslate();
    QString localized(const std::string &formula) const;

private:
    struct Term {
        QString english, translated;
        std::uint32_t firstPair; // its first two UTF-16 units, the first in the high half; 0: shorter
    };
    std::vector<Term> m_terms; // longest English first
};

QPalette palette(Theme theme);
void applyTheme(QApplication &app, Theme theme);

// `text` broken into lines where Unicode allows a line break (at spaces, and between Chinese
// characters) so that each fits `width` in `font` (a word wider than that keeps a line of its
// own): labels side by side never run into each other.
QString wrappedAtWords(const QString &text, const QFont &font, double width);

QString bytesText(Bytes bytes, Units units);              // core's formatter, as a QString
QString capacityLabel(const GpuPreset &gpu, Units units); // "NVIDIA H100 SXM 80GB · 80.0 GiB"

// The compute capabilities core allows (their major numbers, allowedRange()), each named by its
// GPUs: "9 — Hopper (H100, H200)".
std::vector<int> computeCapabilities();
QString computeCapabilityName(int major);

} // namespace vl
