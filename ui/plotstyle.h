#pragma once
// What the chart, the timeline and the sweep draw alike: axes and legend in the palette's
// colours at a zoom, and a labelled horizontal capacity line. QCustomPlot does not follow the
// palette by itself.

#include <QPen>
#include <QString>

class QCPLayer;
class QCustomPlot;
class QPalette;

namespace vl {

void stylePlot(QCustomPlot *plot, const QPalette &palette, const QFont &font, double zoom);

// A layer under the grid, for filled areas: they can be opaque (see seenOver) and the grid
// still shows across them.
QCPLayer *areaLayer(QCustomPlot *plot);

// The legend as one row above the plot, where it never hides what is plotted.
void addLegendRow(QCustomPlot *plot);

enum class LabelSide { Left, Right };
void addHorizontalLine(QCustomPlot *plot, double y, const QPen &pen, const QString &label, LabelSide side,
                       const QFont &font, const QBrush &labelBackground);

} // namespace vl
